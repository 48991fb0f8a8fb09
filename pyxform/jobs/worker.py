"""Running pages in a child process: a time limit that really stops work, a memory cap, and crash isolation.

Why a process. Saxon runs inside saxonche as a GraalVM native image: a Python thread cannot stop a transformation
that is running, and Python handles signals only between bytecodes, that is after Saxon returns. A cooperative check
between the stages would not stop one stage that runs for minutes (the normalize of a span bomb, the headers of a
huge table). So :class:`Worker` runs the pages in a child process that has the stylesheets compiled once and runs
one page after another (:mod:`pyxform.jobs.child`); the parent waits for each answer at most ``limits.timeout``
seconds and kills the child when the time is up. The same process boundary gives:

- a memory cap: the child runs under ``RLIMIT_DATA = limits.max_memory`` (Linux; ``RLIMIT_AS`` cannot be used, the
  native image reserves 32 GB of address space at start). Python then raises ``MemoryError`` and Saxon aborts with
  ``OutOfMemoryError``; either way the page fails with :class:`~pyxform.base.errors.LimitExceeded` (``max_memory``);
- crash isolation: a child that dies (an abort in native code) costs its page, reported as
  :class:`~pyxform.base.errors.WorkerCrash`, and the next page gets a new child;
- quiet: what Saxon prints on its standard error goes to a temporary file, read only to classify a crash.

How the child starts. By a fork of this process while Saxon is not loaded in it and no other thread runs, as in the
``pyxform`` command: that saves a new interpreter's start and imports (:func:`_can_fork`). Otherwise (a Dask worker
process, a program with threads, e.g. asyncio calling :meth:`Worker.run` from a thread executor) by
``python -m pyxform.jobs.child``. The cost is one process start and one compilation per :class:`Worker` (not per
page), and the copying of each page's bytes and outputs through a pipe (:mod:`pyxform.jobs.wire`).
"""

from __future__ import annotations

import json
import os
import pickle
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict
from multiprocessing.connection import Connection
from typing import Any, Final

from ..base.errors import PyxformError, QueryError, StylesheetError, WorkerCrash
from ..base.limits import DEFAULT_LIMITS, MIN_WORKER_MEMORY, Limits, limit_exceeded, limit_value
from ..base.source import Source
from .options import PageOptions
from .page import PageResult, run_page
from .child import HELD_SIGNALS, become_worker, serve
from .toolkit import JobOptions, job_noun, prepare_job, run_job
from .wire import loads_error, receive_result

__all__ = ["Worker", "page_runner", "job_runner", "STARTUP_TIMEOUT"]

#: Seconds a new worker may take to start and compile the stylesheets (not counted in a page's time).
STARTUP_TIMEOUT: Final = 300.0
_STDERR_HEAD: Final = 4096
_STDERR_TAIL: Final = 65536
#: The exit status of saxonche's native image when its heap cannot grow (it prints nothing): under a memory cap, an
#: exit with it is the page's (or the start's) memory running out, not a crash.
_NATIVE_OUT_OF_MEMORY_EXIT: Final = 99
#: What a child that ran out of memory leaves on its standard error: Python's and Java's errors, mmap failures while
#: loading saxonche's shared libraries, the native image failing to create its isolate (heap).
_OUT_OF_MEMORY_SIGNS: Final = ("OutOfMemoryError", "MemoryError", "Cannot allocate memory", "failed to map segment",
                               "cannot map zero-fill pages", "graal_create_isolate error")


def _memory_error(limits: Limits, location: str | None, noun: str = "page") -> PyxformError:
    return limit_exceeded("max_memory", f"the {noun} needed more than {limit_value('max_memory', limits)} of memory",
                          limits=limits, location=location)


class Worker:
    """A child process that runs pages under ``limits.timeout`` and ``limits.max_memory``, reused page after page.

    Use as a context manager (the child is ended on exit)::

        with Worker(Limits(timeout=60)) as worker:
            result = worker.run(read_source("page.html"), PageOptions())

    The child starts on the first :meth:`run` (and again after a page that was stopped or crashed). One page at a
    time: not for concurrent calls from several threads (one :class:`Worker` per thread).

    It runs the toolkit's jobs too (:class:`~pyxform.jobs.toolkit.TransformOptions`,
    :class:`~pyxform.jobs.toolkit.QueryOptions`), so that a stylesheet that loops forever can be stopped.

    :param limits: ``timeout`` (seconds per page, 0: none) and ``max_memory`` (bytes, 0: none) are enforced on the
        child; the page's other limits are its options' (:attr:`PageOptions.limits`).
    :param warm_up: compile pyxform's stylesheets and convert a small page in the child before its first job
        (:func:`~pyxform.jobs.child.warm_up_converter`: not counted in that job's time); off for a worker of the
        toolkit's jobs, which compile what they run.
    """

    def __init__(self, limits: Limits = DEFAULT_LIMITS, *, warm_up: bool = True) -> None:
        self.limits = limits
        self.warm_up = warm_up
        self._process: subprocess.Popen[bytes] | _ForkedChild | None = None
        self._send: Connection | None = None
        self._receive: Connection | None = None
        self._stderr: Any = None

    @property
    def pid(self) -> int | None:
        """The child's process id, or ``None`` when no child runs."""
        return self._process.pid if self._process is not None and self._process.poll() is None else None

    def __enter__(self) -> Worker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- process ---------------------------------------------------------------------------------------------
    def _start(self) -> None:
        self._stderr = tempfile.TemporaryFile()
        with _signals_held():  # Ctrl-C or SIGTERM now would leave a child no one knows of, to loop on without end
            self._spawn()
        assert self._receive is not None
        if not self._receive.poll(STARTUP_TIMEOUT):
            self.close()
            raise WorkerCrash(f"the worker process did not start within {STARTUP_TIMEOUT:g} s")
        try:
            header = json.loads(self._receive.recv_bytes())
        except EOFError:
            raise self._crashed(None, starting=True) from None
        if not header.get("ready"):
            raise WorkerCrash(f"the worker process did not start: {header}")

    def _spawn(self) -> None:
        """Start the child (forked, or ``python -m pyxform.jobs.child``) and keep it in :attr:`_process`."""
        if _can_fork():
            self._process, self._send, self._receive = _fork_child(self.limits, self._stderr.fileno(), self.warm_up)
            return
        command = [sys.executable, "-m", "pyxform.jobs.child", json.dumps(asdict(self.limits)),
                   "warm" if self.warm_up else "cold"]
        package_root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        path = os.pathsep.join(p for p in (package_root, os.environ.get("PYTHONPATH", "")) if p)
        env = {**os.environ, "PYTHONPATH": path, "PYXFORM_WORKER_PARENT": str(os.getpid())}
        process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr, env=env,
                                   process_group=0)  # as become_worker: Ctrl-C at the terminal reaches the command
        assert process.stdin is not None and process.stdout is not None
        self._send = Connection(os.dup(process.stdin.fileno()), readable=False)
        self._receive = Connection(os.dup(process.stdout.fileno()), writable=False)
        process.stdin.close()
        process.stdout.close()
        self._process = process

    def close(self) -> None:
        """End the child process (if any)."""
        for connection in (self._send, self._receive):
            if connection is not None:
                connection.close()
        self._send = self._receive = None
        if self._process is not None:
            if self._process.poll() is None:
                self._process.kill()
            self._process.wait()
            self._process = None
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None

    def _stderr_tail(self) -> str:
        """What the child wrote on its standard error: its start and its end (a native image's crash report names
        the Java error first, then dumps its heap)."""
        if self._stderr is None:
            return ""
        self._stderr.flush()
        size = os.fstat(self._stderr.fileno()).st_size
        self._stderr.seek(0)
        head = self._stderr.read(min(size, _STDERR_HEAD)).decode("utf-8", "replace")
        if size <= _STDERR_HEAD + _STDERR_TAIL:
            return head + self._stderr.read().decode("utf-8", "replace")
        self._stderr.seek(size - _STDERR_TAIL)
        return head + "\n...\n" + self._stderr.read().decode("utf-8", "replace")

    def _crashed(self, location: str | None, *, starting: bool = False, noun: str = "page") -> PyxformError:
        """The error for a child that died before answering (``starting``: before it was ready for a page); the
        child is cleaned up. A stylesheet or query of the user's that recursed until Saxon's stack overflowed is that
        stylesheet's or query's error; under a memory cap, a child that ran out of memory is the limit
        ``max_memory``."""
        assert self._process is not None
        code = self._process.wait()
        tail = self._stderr_tail()
        self.close()
        if "StackOverflowError" in tail and noun in ("transformation", "query"):
            kind = QueryError if noun == "query" else StylesheetError
            return kind(f"the {noun} recursed too deeply: Saxon's stack overflowed (java.lang.StackOverflowError; a "
                        "recursion that never ends, or one a tail call could make flat)", location=location)
        out_of_memory = code == _NATIVE_OUT_OF_MEMORY_EXIT or any(sign in tail for sign in _OUT_OF_MEMORY_SIGNS)
        if self.limits.max_memory > 0 and out_of_memory:
            if starting:
                return limit_exceeded(
                    "max_memory", f"the worker process could not start within {limit_value('max_memory', self.limits)} "
                    f"of memory (it needs about {MIN_WORKER_MEMORY // 2**20} MiB before any page)",
                    limits=self.limits, location=location)
            return _memory_error(self.limits, location, noun)
        if code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = str(-code)
            how = f"was killed by signal {name}"
        else:
            how = f"exited with code {code}"
        last = next((line.strip() for line in reversed(tail.splitlines()) if line.strip()), "")
        doing = "converting the page" if noun == "page" else f"running the {noun}"
        return WorkerCrash(f"the worker process {how} while {doing}" + (f": {last[:300]}" if last else "")
                           + f" (please report this with the {'page' if noun == 'page' else 'input'})",
                           location=location)

    # -- pages -----------------------------------------------------------------------------------------------
    def run(self, source: Source, options: JobOptions) -> PageResult:
        """Run one page (or a toolkit's job) in the child process, as :func:`pyxform.jobs.run_page` (and
        :func:`pyxform.jobs.toolkit.run_job`) does in this one.

        :returns: the :class:`PageResult`; a page that took longer than ``limits.timeout`` or needed more memory
            than ``limits.max_memory`` is ``failed`` with :class:`~pyxform.base.errors.LimitExceeded` (``timeout``,
            ``max_memory``), a child that died with :class:`~pyxform.base.errors.WorkerCrash`; the next page gets a
            new child.
        :raises UsageError, PyxformError: the options cannot be served (as :func:`pyxform.jobs.run_page`), before
            the page is sent.
        """
        prepare_job(options)  # the options' errors, here and before any page
        location = source.uri or None
        try:
            return self._run(source, options, location, job_noun(options))
        except PyxformError as error:
            error.location = error.location or location
            return PageResult(source.uri, "failed", error=error)

    def _run(self, source: Source, options: JobOptions, location: str | None, noun: str) -> PageResult:
        if self._process is None or self._process.poll() is not None:
            self.close()
            self._start()
        assert self._send is not None and self._receive is not None
        try:
            self._send.send_bytes(pickle.dumps((source.uri, source.charset, options), protocol=pickle.HIGHEST_PROTOCOL))
            self._send.send_bytes(source.data)
        except (BrokenPipeError, OSError):
            raise self._crashed(location, noun=noun) from None
        timeout = self.limits.timeout if self.limits.timeout > 0 else None
        if not self._receive.poll(timeout):
            self.close()
            raise limit_exceeded("timeout", f"the {noun} took longer than {self.limits.timeout:g} s",
                                 limits=self.limits, location=location)
        try:
            header = json.loads(self._receive.recv_bytes())
            if header.get("raise"):
                raise loads_error(self._receive.recv_bytes())  # the options' error, as run_page raises it
            if header.get("memory"):
                self.close()  # a fresh child for the next page
                raise _memory_error(self.limits, location, noun)
            result = receive_result(self._receive, header, source.uri)
        except (EOFError, OSError):
            raise self._crashed(location, noun=noun) from None
        except pickle.UnpicklingError as error:
            self.close()
            raise WorkerCrash(f"the worker process sent an answer that is not pyxform's: {error} (please report "
                              "this with the page)", location=location) from None
        if getattr(result.error, "limit", None) == "max_memory":
            self.close()  # a fresh child for the next page
        return result


@contextmanager
def page_runner(limits: Limits) -> Iterator[Callable[[Source, PageOptions], PageResult]]:
    """What runs pages under ``limits``: a :class:`Worker`'s :meth:`~Worker.run` when ``limits.timeout`` or
    ``limits.max_memory`` is set (the worker is closed at the end of the block), else :func:`pyxform.jobs.run_page`
    in this process."""
    if limits.timeout > 0 or limits.max_memory > 0:
        with Worker(limits) as worker:
            yield worker.run
    else:
        yield run_page


@contextmanager
def job_runner(limits: Limits) -> Iterator[Callable[[Source, JobOptions], PageResult]]:
    """:func:`page_runner` for the toolkit's jobs: a :class:`Worker` that compiles only what the job runs, when
    ``limits.timeout`` or ``limits.max_memory`` is set, else :func:`pyxform.jobs.toolkit.run_job` in this process."""
    if limits.timeout > 0 or limits.max_memory > 0:
        with Worker(limits, warm_up=False) as worker:
            yield worker.run
    else:
        yield run_job


# -- starting the child by fork -----------------------------------------------------------------------------------
@contextmanager
def _signals_held() -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM (in the main thread) while a child is started and recorded: delivered after the block,
    they end the command with its worker (:meth:`Worker.close`), never between the fork and the record of the child.
    The child lets them go at once (:func:`release_signals`)."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "pthread_sigmask"):
        yield
        return
    signal.pthread_sigmask(signal.SIG_BLOCK, HELD_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, HELD_SIGNALS)


class _ForkedChild:
    """The parts of ``subprocess.Popen`` :class:`Worker` uses, for a child made by ``os.fork``."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None

    def _reap(self, flags: int) -> int | None:
        if self.returncode is None:
            pid, status = os.waitpid(self.pid, flags)
            if pid == self.pid:
                self.returncode = os.waitstatus_to_exitcode(status)  # -N: killed by signal N, as Popen
        return self.returncode

    def poll(self) -> int | None:
        return self._reap(os.WNOHANG)

    def wait(self) -> int:
        code = self._reap(0)
        assert code is not None
        return code

    def kill(self) -> None:
        if self.returncode is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def _can_fork() -> bool:
    """Whether the worker may be started by forking this process rather than by starting a new Python.

    Forking saves the child's interpreter start and imports (about 0.2 s, most of a single page's worker cost). It is
    safe only while Saxon's native image is not loaded here (its threads and isolate do not survive a fork) and no
    other thread runs (one holding a lock would leave it locked in the child): true in the ``pyxform`` command,
    whose own process never runs Saxon when pages go to workers; false in a Dask worker process and in a program
    with threads. ``PYXFORM_WORKER_FORK=0`` turns it off.
    """
    return (hasattr(os, "fork") and sys.platform != "darwin" and "saxonche" not in sys.modules
            and threading.active_count() == 1 and os.environ.get("PYXFORM_WORKER_FORK", "1") != "0")


def _fork_child(limits: Limits, stderr_fd: int, warm_up: bool) -> tuple[_ForkedChild, Connection, Connection]:
    """Fork a child that runs :func:`pyxform.jobs.child.serve`; returns it and the parent's ends of the two pipes."""
    to_child_read, to_child_write = os.pipe()
    from_child_read, from_child_write = os.pipe()
    for stream in (sys.stdout, sys.stderr):  # else the child could write the parent's buffered output again
        try:
            stream.flush()
        except (OSError, ValueError, AttributeError):
            pass
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:  # the child: never returns into the parent's code
        code = 70
        try:
            if not become_worker(parent):  # the parent ended before that: end too
                os._exit(code)
            os.close(to_child_write)
            os.close(from_child_read)
            os.dup2(to_child_read, 0)
            os.dup2(from_child_write, 1)
            os.dup2(stderr_fd, 2)
            os.close(to_child_read)
            os.close(from_child_write)
            serve(limits, warm_up=warm_up)
            code = 0
        except MemoryError:  # as an uncaught one in a new interpreter: the parent reads it as max_memory
            os.write(2, b"\nMemoryError\n")  # no allocation (a traceback may need memory there is none of)
        except BaseException:
            try:
                import traceback

                traceback.print_exc()
                sys.stderr.flush()
            except MemoryError:  # the error could not be printed for want of memory: say so without allocating
                os.write(2, b"\nMemoryError\n")
            except BaseException:
                os.write(2, b"\npyxform worker: an error it could not print\n")
        finally:
            os._exit(code)
    os.close(to_child_read)
    os.close(from_child_write)
    return (_ForkedChild(pid), Connection(to_child_write, readable=False),
            Connection(from_child_read, writable=False))
