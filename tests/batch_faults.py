"""Fault injection for the batch tests: a Dask worker plugin that makes the worker process die (``os._exit``) when it
reads a page whose source contains a marker: always (``die-always``), or the first time only (``die-once``: a file
in ``flags`` says it happened); or that kills the worker's isolated child a second after it has read a page marked
``kill-child`` (while the child converts it: a crash in native code looks so). Registered plugins are set up again
on workers that join later, so a worker the nanny restarts after the death dies again on the same page: what a page
that crashes its worker looks like."""

from __future__ import annotations

import os
import signal
import threading
from pathlib import Path
from typing import Any

from distributed import WorkerPlugin


class DieOnPage(WorkerPlugin):  # type: ignore[misc]
    name = "pyxform-test-die-on-page"

    def __init__(self, flags: str) -> None:
        self.flags = flags

    def setup(self, worker: Any) -> None:
        from pyxform.wings.batch import work

        original = getattr(work, "_original_read_page", work.read_page)
        work._original_read_page = original  # type: ignore[attr-defined]
        flags = Path(self.flags)

        def read_page(page: Any, settings: Any) -> Any:
            if "kill-child" in page.source:
                threading.Timer(1.0, _kill_children, args=(work,)).start()
            if "die-always" in page.source:
                os._exit(70)
            if "die-once" in page.source:
                flag = flags / "died-once"
                if not flag.exists():
                    flag.write_text(str(os.getpid()))
                    os._exit(70)
            return original(page, settings)

        work.read_page = read_page

    def teardown(self, worker: Any) -> None:
        from pyxform.wings.batch import work

        original = getattr(work, "_original_read_page", None)
        if original is not None:
            work.read_page = original


def _kill_children(work: Any) -> None:
    for child in list(work._every):  # the worker process's isolated children (pyxform.jobs.Worker)
        if child.pid is not None:
            os.kill(child.pid, signal.SIGKILL)
