"""Keeping the process environment away from stylesheets and queries: ``environment-variable()`` and
``available-environment-variables()`` (XPath 3.1 section 16.5) see no variable unless I/O is allowed.

Saxon has no switch for it that saxonche can use: the configuration feature ``environmentVariableResolverClass``
names a Java class, and the native image holds only ``StandardEnvironmentVariableResolver`` (``System.getenv()``;
naming another class aborts the process). But the native image reads the process environment once, on the first
call, and keeps it while a ``PySaxonProcessor`` exists (every processor of the process shares it; measured with
saxonche 13: a new processor after all were freed reads it again). So :func:`processor_class` loads saxonche the first
time with the environment emptied, makes a processor read it then (an empty one) and keeps that processor for the
life of the process, and puts the environment back for Python at once: from then on, in this process, Saxon's
environment is empty.

A process in which I/O was allowed (``--allow-io``: :func:`environment_allowed` around the run that first loads
Saxon) keeps Saxon's view of the real environment; the switch is the environment variable
:data:`ENVIRONMENT_SWITCH`, so that a worker process (forked, or a new interpreter) inherits it.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Final

__all__ = ["ENVIRONMENT_SWITCH", "environment_allowed", "processor_class"]

#: Set to ``1`` (by :func:`environment_allowed`), Saxon sees the real environment in processes started from now on.
ENVIRONMENT_SWITCH: Final = "PYXFORM_SAXON_ENVIRONMENT"

_lock = threading.Lock()
_started = False
_keeper: Any = None  # the first processor, kept for the life of the process (with it, Saxon's environment)


@contextmanager
def environment_allowed(allowed: bool = True) -> Iterator[None]:
    """While in the block (and ``allowed``), let Saxon read the process environment (for ``--allow-io``): in this
    process if Saxon is loaded in the block for the first time, and in the worker processes started in the block.
    The switch is put back after it, so that a later run in the same process (a test calling the CLI) is not
    affected."""
    if not allowed:
        yield
        return
    before = os.environ.get(ENVIRONMENT_SWITCH)
    os.environ[ENVIRONMENT_SWITCH] = "1"
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(ENVIRONMENT_SWITCH, None)
        else:
            os.environ[ENVIRONMENT_SWITCH] = before


def processor_class() -> Any:
    """saxonche's ``PySaxonProcessor`` class; the first call in a process loads Saxon with the environment hidden
    from it (unless :data:`ENVIRONMENT_SWITCH` is ``1``): see the module docstring."""
    global _started
    with _lock:
        if not _started:
            hide = os.environ.get(ENVIRONMENT_SWITCH) != "1" and "saxonche" not in sys.modules
            saved = dict(os.environ) if hide else None
            try:
                if saved is not None:
                    os.environ.clear()  # unsetenv for each: the C environment the native image reads
                from saxonche import PySaxonProcessor

                if saved is not None:  # Saxon reads the empty environment, and keeps it while a processor lives
                    global _keeper
                    _keeper = PySaxonProcessor(license=False)
                    _keeper.new_xpath_processor().evaluate("count(available-environment-variables())")
            finally:
                if saved is not None:
                    os.environ.update(saved)
            _started = True
    from saxonche import PySaxonProcessor

    return PySaxonProcessor
