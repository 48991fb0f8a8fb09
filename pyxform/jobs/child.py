"""The child process of :class:`pyxform.jobs.Worker`: compile the stylesheets once, then run one page after another.

It is forked from the parent, or started as ``python -m pyxform.jobs.child LIMITS_JSON`` (:mod:`pyxform.jobs.worker`
says when). It reads the pages on its standard input and answers on its standard output (:mod:`pyxform.jobs.wire`);
anything printed goes to its standard error, which the parent keeps in a file to classify a crash.
"""

from __future__ import annotations

import json
import os
import pickle
import signal
import sys
from typing import Final

from ..base.errors import PyxformError, UsageError
from ..base.limits import Limits
from ..base.source import Source
from .options import PageOptions
from .page import bug_result
from .toolkit import job_result, prepare_job
from .wire import send_error, send_result

__all__ = ["serve", "warm_up_converter", "release_signals", "become_worker", "HELD_SIGNALS", "WARM_UP_PAGE"]

#: The signals the parent holds while it starts a child (:class:`pyxform.jobs.Worker`), released in the child.
HELD_SIGNALS: Final = frozenset({signal.SIGINT, signal.SIGTERM})
#: The page a worker of pages converts before it says it is ready (:func:`warm_up_converter`).
WARM_UP_PAGE: Final = b"<table><tr><th>a</th></tr><tr><td>1</td></tr></table>"


def release_signals() -> None:
    """In a child: the signals its parent held while starting it are no longer held."""
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, HELD_SIGNALS)


def _limit_memory(max_memory: int) -> None:
    if max_memory <= 0:
        return
    try:
        import resource
    except ImportError:  # not on this platform: no memory cap
        return
    resource.setrlimit(resource.RLIMIT_DATA, (max_memory, max_memory))


def warm_up_converter() -> None:
    """Get this process ready to convert pages: compile pyxform's stylesheets and convert :data:`WARM_UP_PAGE`.

    The first page a process converts pays once for what every later page finds done: clean's modules imported
    (~0.15 s, 36 times a small page's conversion) and each stage's first run. Done here, before the child says it is
    ready, that is part of the worker's start (:data:`pyxform.jobs.worker.STARTUP_TIMEOUT`), not of the first page's
    ``timeout``: on a busy machine it alone took longer than a timeout of a few seconds.
    """
    options = PageOptions()
    job_result(Source(WARM_UP_PAGE, "warm-up"), options, prepare_job(options))


def serve(limits: Limits, *, warm_up: bool = True) -> None:
    """The child's loop: answer each page (or toolkit's job) until standard input closes.

    Each job: :func:`pyxform.jobs.toolkit.job_result` under ``RLIMIT_DATA = limits.max_memory``. The options' own
    errors go back to be raised in the parent; a ``MemoryError`` is answered as such (the parent reports the memory
    limit and starts a new child); any other exception is the page's :class:`~pyxform.base.errors.InternalError`.

    :param warm_up: compile pyxform's stylesheets and convert a page before the first job (a worker of pages:
        :func:`warm_up_converter`).
    """
    from multiprocessing.connection import Connection

    inbox = Connection(os.dup(0), writable=False)
    outbox = Connection(os.dup(1), readable=False)
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(2, 1)  # anything printed goes to standard error, not into the answers
    _limit_memory(limits.max_memory)
    if warm_up:
        warm_up_converter()  # before "ready": the worker's start, not the first page's time
    outbox.send_bytes(json.dumps({"ready": True}).encode("utf-8"))
    while True:
        try:
            uri, charset, options = pickle.loads(inbox.recv_bytes())  # from the parent, which is trusted
            source = Source(inbox.recv_bytes(), uri, charset)
        except EOFError:
            return
        try:
            prepared = prepare_job(options)
        except (UsageError, PyxformError) as error:  # the options' error: raised in the parent
            send_error(outbox, "raise", error)
            continue
        try:
            result = job_result(source, options, prepared)
        except MemoryError:
            del source
            send_error(outbox, "memory")
            continue
        except Exception as error:  # a bug on this page: the page's error, as run_page records it
            result = bug_result(uri, error)
        send_result(outbox, result)


def become_worker(parent: int) -> bool:
    """In a new child of process ``parent``: leave the terminal's process group (Ctrl-C and SIGTERM reach the command,
    which ends its worker or lets it finish its page: the crawler and batch stop gracefully), end when the parent
    ends however it ends (Linux ``prctl(PR_SET_PDEATHSIG, SIGKILL)``: a stylesheet without end never outlives its
    command), and let go of the signals the parent held while it started this process.

    :returns: False when the parent has already ended (the caller should end too).
    """
    try:
        os.setpgid(0, 0)
    except OSError:
        pass
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG = 1
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:
        return False
    release_signals()
    return True


if __name__ == "__main__":
    if not become_worker(int(os.environ.get("PYXFORM_WORKER_PARENT", os.getppid()))):
        sys.exit(70)
    serve(Limits(**json.loads(sys.argv[1])), warm_up=sys.argv[2:3] != ["cold"])
