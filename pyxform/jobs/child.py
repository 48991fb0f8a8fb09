"""The child process of :class:`pyxform.jobs.Worker`: compile the stylesheets once, then run one page after another.

It is forked from the parent, or started as ``python -m pyxform.jobs.child LIMITS_JSON`` (:mod:`pyxform.jobs.worker`
says when). It reads the pages on its standard input and answers on its standard output (:mod:`pyxform.jobs.wire`);
anything printed goes to its standard error, which the parent keeps in a file to classify a crash.
"""

from __future__ import annotations

import json
import os
import pickle
import sys

from ..base.errors import InternalError, PyxformError, UsageError
from ..base.limits import Limits
from ..base.source import Source
from .page import PageResult, page_result, prepare
from .wire import send_error, send_result

__all__ = ["serve"]


def _limit_memory(max_memory: int) -> None:
    if max_memory <= 0:
        return
    try:
        import resource
    except ImportError:  # not on this platform: no memory cap
        return
    resource.setrlimit(resource.RLIMIT_DATA, (max_memory, max_memory))


def serve(limits: Limits) -> None:
    """The child's loop: answer each page until standard input closes.

    Each page: :func:`pyxform.jobs.page.page_result` under ``RLIMIT_DATA = limits.max_memory``. The options' own
    errors go back to be raised in the parent; a ``MemoryError`` is answered as such (the parent reports the memory
    limit and starts a new child); any other exception is the page's :class:`~pyxform.base.errors.InternalError`.
    """
    from multiprocessing.connection import Connection

    inbox = Connection(os.dup(0), writable=False)
    outbox = Connection(os.dup(1), readable=False)
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(2, 1)  # anything printed goes to standard error, not into the answers
    _limit_memory(limits.max_memory)
    from ..runtime.runner import runner

    runner()  # compile every stylesheet before the first page
    outbox.send_bytes(json.dumps({"ready": True}).encode("utf-8"))
    while True:
        try:
            uri, charset, options = pickle.loads(inbox.recv_bytes())  # from the parent, which is trusted
            source = Source(inbox.recv_bytes(), uri, charset)
        except EOFError:
            return
        try:
            pipeline = prepare(options)
        except (UsageError, PyxformError) as error:  # the options' error: raised in the parent
            send_error(outbox, "raise", error)
            continue
        try:
            result = page_result(source, options, pipeline=pipeline)
        except MemoryError:
            del source
            send_error(outbox, "memory")
            continue
        except Exception as error:  # a bug on this page: the page's error, as run_page records it
            result = PageResult(uri, "failed", error=InternalError(f"{type(error).__name__}: {error}"))
        send_result(outbox, result)


if __name__ == "__main__":
    serve(Limits(**json.loads(sys.argv[1])))
