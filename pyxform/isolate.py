"""Converting pages in a worker process: a time limit that really stops work, a memory cap, and crash isolation.

Why a process. Saxon runs inside saxonche as a GraalVM native image: a Python thread cannot stop a transformation
that is running, and Python handles signals only between bytecodes, that is after Saxon returns. A cooperative check
between the stages would not stop one stage that runs for minutes (the normalize of a span bomb, the headers of a
huge table). So :class:`Worker` runs the pages in a child process that has the pipeline compiled once and
converts one page after another (a fork of this process while Saxon is not loaded in it, as in the ``pyxform``
command, which saves a new interpreter's start and imports; else ``python -m pyxform.isolate``); the parent waits for each answer at most
``limits.timeout`` seconds and kills the child when the time is up. The same process boundary gives:

- a memory cap: the child runs under ``RLIMIT_DATA = limits.max_memory`` (Linux; ``RLIMIT_AS`` cannot be used, the
  native image reserves 32 GB of address space at start). Python then raises ``MemoryError`` and Saxon aborts with
  ``OutOfMemoryError``; either way the page fails with :class:`~pyxform.base.errors.LimitExceeded` (``max_memory``);
- crash isolation: a child that dies (an abort in native code) costs its page, reported as
  :class:`~pyxform.base.errors.WorkerCrash`, and the next page gets a new child;
- quiet: what Saxon prints on its standard error goes to a temporary file, read only to classify a crash.

The cost is one process start (a fork: a few milliseconds) and one compilation per :class:`Worker` (not per page), and the copying of each page's
bytes and output through a pipe. The messages are a JSON header and raw byte blobs (``multiprocessing.connection``
framing on the child's standard input and output); nothing is unpickled.

:func:`run_job` is what the child runs for one page, also usable in-process (no time or memory limit then).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass, field
from multiprocessing.connection import Connection
from collections.abc import Mapping
from typing import Any, Final, Literal

from .base import errors
from .base.errors import PyxformError, WorkerCrash
from .base.limits import DEFAULT_LIMITS, MIN_WORKER_MEMORY, Limits, limit_exceeded, limit_value
from .base.source import Source

__all__ = ["PageJob", "PageResult", "TableFailureInfo", "Worker", "run_job", "convert_isolated"]

#: Seconds a new worker may take to start and compile the stylesheets (not counted in a page's time).
STARTUP_TIMEOUT: Final = 300.0
_STDERR_TAIL: Final = 65536
#: The exit status of saxonche's native image when its heap cannot grow (it prints nothing): under a memory cap, an
#: exit with it is the page's (or the start's) memory running out, not a crash.
_NATIVE_OUT_OF_MEMORY_EXIT: Final = 99
#: What a child that ran out of memory leaves on its standard error: Python's and Java's errors, mmap failures while
#: loading saxonche's shared libraries, the native image failing to create its isolate (heap).
_OUT_OF_MEMORY_SIGNS: Final = ("OutOfMemoryError", "MemoryError", "Cannot allocate memory", "failed to map segment",
                               "cannot map zero-fill pages", "graal_create_isolate error")


@dataclass(frozen=True)
class PageJob:
    """One page to convert, with the options of :func:`pyxform.api.convert.convert`.

    :ivar source: the page's bytes, URI and transport charset (a grid document is converted with
        :func:`pyxform.api.convert.convert_grid`).
    :ivar format: ``"xml"`` (the output document), ``"pairs"`` (JSON Lines), ``"json"``, ``"csv"``, ``"xhtml"``.
    :ivar schema: also generate the XSD of the output (``format="xml"`` only).
    :ivar options: every option of ``pyxform convert`` (:func:`pyxform.cli.convert_outputs`: ``separator``,
        ``xslt``, ``param``, ``allow_io``, ``keep_stages``, ``target`` ...), over the fields above; ``command``
        (``convert``, the default, ``grid`` or ``headers``) chooses the command run. JSON values only.
    """

    source: Source
    table: int | None = None
    names: Literal["paper", "generic"] = "paper"
    method: Literal["auto", "markup", "format"] = "auto"
    format: str = "xml"
    schema: bool = False
    options: Mapping[str, Any] | None = None

    def all_options(self) -> dict[str, Any]:
        """The fields and ``options`` as one mapping."""
        return {"table": self.table, "names": self.names, "method": self.method, "format": self.format,
                "schema": self.schema, **(self.options or {})}


@dataclass(frozen=True)
class TableFailureInfo:
    """A table of the page that could not be converted (``px:table-failure``); the others were."""

    index: int
    code: str
    message: str


@dataclass(frozen=True)
class PageResult:
    """What converting one page gave.

    :ivar outputs: ``(path, bytes)`` of each output to write (``path`` ``None``: standard output): the output XML
        (UTF-8, with declaration), the pairs as JSON Lines, ... (with ``csv``, one per table).
    :ivar schema: the generated XSD (UTF-8), if asked for.
    :ivar messages: warnings (decoding repairs, stylesheet messages), in order.
    :ivar tables: how many tables were converted.
    :ivar table_failures: the tables that could not be.
    :ivar seconds: wall-clock time of the conversion.
    """

    outputs: tuple[tuple[str | None, bytes], ...] = ()
    schema: bytes | None = None
    messages: tuple[str, ...] = ()
    tables: int = 0
    table_failures: tuple[TableFailureInfo, ...] = field(default_factory=tuple)
    seconds: float = 0.0

    @property
    def payload(self) -> bytes:
        """The first output's bytes (the only one but for ``csv`` of several tables)."""
        return self.outputs[0][1] if self.outputs else b""


def run_job(job: PageJob, limits: Limits = DEFAULT_LIMITS) -> PageResult:
    """Convert one page in this process (what a worker runs), as ``pyxform convert`` does (as ``pyxform grid`` or
    ``pyxform headers`` with ``options["command"]`` ``"grid"`` or ``"headers"``: one output, for standard output, and
    the warning lines as ``messages``).

    :raises EmptyInput: the page has no bytes or only white space.
    :raises PyxformError: any error of :func:`pyxform.api.convert.convert` / :func:`pyxform.api.convert.convert_grid`.
    """
    from .cli import convert_outputs, grid_output, headers_output

    started = time.monotonic()
    options = job.all_options()
    command = options.get("command", "convert")
    if command in ("grid", "headers"):
        payload, warnings = (grid_output if command == "grid" else headers_output)(job.source, options, limits)
        return PageResult(outputs=((None, payload),), messages=tuple(warnings),
                          seconds=time.monotonic() - started)
    outputs, schema, conversion = convert_outputs(job.source, options, limits)
    tables, failures = _tables_of(conversion)
    return PageResult(outputs=tuple(outputs), schema=schema, messages=tuple(conversion.messages), tables=tables,
                      table_failures=failures, seconds=time.monotonic() - started)


def _tables_of(conversion: Any) -> tuple[int, tuple[TableFailureInfo, ...]]:
    """How many tables a conversion holds, and its table failures (read from its annotated grid)."""
    runner = conversion._runner  # the runner (and Saxon processor) the conversion's documents belong to
    grid = conversion._grid  # the annotated grid the conversion was made from
    indexes = runner.table_indexes(grid)
    with runner.lock:
        xpath = runner.runtime.processor.new_xpath_processor()
        xpath.declare_namespace("px", "urn:pyxform")
        xpath.set_context(xdm_item=grid)
        result = xpath.evaluate("/px:grids/px:table-failure ! string-join((@index, @code, @message), codepoints-to-string(9))")
    rows = [str(result.item_at(i)).split("\t", 2) for i in range(result.size)] if result is not None else []
    failures = tuple(TableFailureInfo(int(row[0]), row[1], row[2] if len(row) > 2 else "") for row in rows)
    if conversion.table is not None:
        return (1 if conversion.table in indexes else 0), tuple(f for f in failures if f.index == conversion.table)
    return len(indexes), failures


# -- errors across the process boundary ------------------------------------------------------------------------
def _error_to_json(error: BaseException) -> dict[str, Any]:
    if isinstance(error, PyxformError):
        data = {"type": type(error).__name__, "message": error.message, "location": error.location}
        for name in ("limit", "error_code"):
            if hasattr(error, name):
                data[name] = getattr(error, name)
        if isinstance(error, errors.ValidationError):
            data["errors"] = error.errors
        return data
    if type(error).__name__ == "UsageError":  # pyxform.cli.UsageError: options that do not fit this page
        return {"type": "UsageError", "message": str(error), "location": None}
    if isinstance(error, MemoryError):
        return {"type": "MemoryError", "message": "out of memory", "location": None}
    return {"type": "internal", "message": f"{type(error).__name__}: {error}", "location": None}


def _error_from_json(data: dict[str, Any], limits: Limits, location: str | None) -> Exception:
    kind = data.get("type")
    where = data.get("location") or location
    if kind == "MemoryError":
        return _memory_error(limits, location)
    if kind == "UsageError":
        from .cli import UsageError

        return UsageError(str(data.get("message", "")))  # type: ignore[return-value]
    cls = getattr(errors, str(kind), None)
    if not (isinstance(cls, type) and issubclass(cls, PyxformError)):
        return WorkerCrash(f"internal error in the worker: {data.get('message')} (please report this)",
                           location=where)
    error = cls.__new__(cls)
    PyxformError.__init__(error, str(data.get("message", "")), location=where)
    if issubclass(cls, errors.LimitExceeded):
        error.limit = data.get("limit", "")  # type: ignore[attr-defined]
    if issubclass(cls, errors.StylesheetError):
        error.error_code = data.get("error_code")  # type: ignore[attr-defined]
    if issubclass(cls, errors.ValidationError):
        error.errors = [tuple(entry) for entry in data.get("errors", [])]  # type: ignore[attr-defined]
    return error


def _memory_error(limits: Limits, location: str | None) -> PyxformError:
    return limit_exceeded("max_memory", f"the page needed more than {limit_value('max_memory', limits)} of memory",
                          limits=limits, location=location)


def _result_to_json(result: PageResult) -> dict[str, Any]:
    return {"ok": True, "messages": list(result.messages), "tables": result.tables,
            "table_failures": [asdict(failure) for failure in result.table_failures], "seconds": result.seconds,
            "paths": [path for path, _ in result.outputs], "schema": result.schema is not None}


# -- the parent side ----------------------------------------------------------------------------------------------
class Worker:
    """A child process that converts pages under ``limits.timeout`` and ``limits.max_memory``.

    Use as a context manager (the child is ended on exit)::

        with Worker(Limits(timeout=60)) as worker:
            result = worker.run(PageJob(read_source("page.html")))

    The child starts on the first :meth:`run` (and again after a page that was stopped or crashed). Not thread-safe:
    one page at a time.

    :param limits: every limit applies to each page; ``timeout`` (0: none) and ``max_memory`` (0: none) are
        enforced on the child process.
    """

    def __init__(self, limits: Limits = DEFAULT_LIMITS) -> None:
        self.limits = limits
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
        if _can_fork():
            self._process, self._send, self._receive = _fork_child(self.limits, self._stderr.fileno())
        else:
            command = [sys.executable, "-m", "pyxform.isolate", json.dumps(asdict(self.limits))]
            package_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # this pyxform, installed or not
            path = os.pathsep.join(p for p in (package_root, os.environ.get("PYTHONPATH", "")) if p)
            process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                       stderr=self._stderr, env={**os.environ, "PYTHONPATH": path})
            assert process.stdin is not None and process.stdout is not None
            self._send = Connection(os.dup(process.stdin.fileno()), readable=False)
            self._receive = Connection(os.dup(process.stdout.fileno()), writable=False)
            process.stdin.close()
            process.stdout.close()
            self._process = process
        if not self._receive.poll(STARTUP_TIMEOUT):
            self.close()
            raise WorkerCrash(f"the worker process did not start within {STARTUP_TIMEOUT:g} s")
        try:
            header = json.loads(self._receive.recv_bytes())
        except EOFError:
            raise self._crashed(None, starting=True) from None
        if not header.get("ready"):
            raise WorkerCrash(f"the worker process did not start: {header}")

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
        if self._stderr is None:
            return ""
        self._stderr.flush()
        size = os.fstat(self._stderr.fileno()).st_size
        self._stderr.seek(max(0, size - _STDERR_TAIL))
        return self._stderr.read().decode("utf-8", "replace")

    def _crashed(self, location: str | None, *, starting: bool = False) -> PyxformError:
        """The error for a child that died before answering (``starting``: before it was ready for a page); the
        child is cleaned up. Under a memory cap, a child that ran out of memory is the limit ``max_memory``."""
        assert self._process is not None
        code = self._process.wait()
        tail = self._stderr_tail()
        self.close()
        out_of_memory = code == _NATIVE_OUT_OF_MEMORY_EXIT or any(sign in tail for sign in _OUT_OF_MEMORY_SIGNS)
        if self.limits.max_memory > 0 and out_of_memory:
            if starting:
                return limit_exceeded(
                    "max_memory", f"the worker process could not start within {limit_value('max_memory', self.limits)} "
                    f"of memory (it needs about {MIN_WORKER_MEMORY // 2**20} MiB before any page)",
                    limits=self.limits, location=location)
            return _memory_error(self.limits, location)
        if code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = str(-code)
            how = f"was killed by signal {name}"
        else:
            how = f"exited with code {code}"
        last = next((line.strip() for line in reversed(tail.splitlines()) if line.strip()), "")
        return WorkerCrash(f"the worker process {how} while converting the page" + (f": {last[:300]}" if last else "")
                           + " (please report this with the page)", location=location)

    # -- pages -----------------------------------------------------------------------------------------------
    def run(self, job: PageJob) -> PageResult:
        """Convert one page in the child process.

        :raises LimitExceeded: the page took longer than ``limits.timeout`` (``timeout``) or needed more memory than
            ``limits.max_memory`` (``max_memory``), or hit another limit.
        :raises WorkerCrash: the child died (a bug).
        :raises PyxformError: any error of :func:`run_job`, as raised in the child.
        """
        location = job.source.uri or None
        if self._process is None or self._process.poll() is not None:
            self.close()
            try:
                self._start()
            except PyxformError as error:
                error.location = error.location or location
                raise
        assert self._send is not None and self._receive is not None
        header = {"options": job.all_options(), "uri": job.source.uri, "charset": job.source.charset}
        try:
            self._send.send_bytes(json.dumps(header).encode("utf-8"))
            self._send.send_bytes(job.source.data)
        except (BrokenPipeError, OSError):
            raise self._crashed(location) from None
        timeout = self.limits.timeout if self.limits.timeout > 0 else None
        if not self._receive.poll(timeout):
            self.close()
            raise limit_exceeded("timeout", f"the page took longer than {self.limits.timeout:g} s",
                                 limits=self.limits, location=location)
        try:
            answer = json.loads(self._receive.recv_bytes())
            if not answer.get("ok"):
                error = _error_from_json(answer.get("error", {}), self.limits, location)
                if getattr(error, "limit", None) == "max_memory":
                    self.close()  # a fresh child for the next page
                raise error
            outputs = tuple((path, self._receive.recv_bytes()) for path in answer.get("paths", []))
            schema = self._receive.recv_bytes() if answer.get("schema") else None
        except (EOFError, OSError):
            raise self._crashed(location) from None
        failures = tuple(TableFailureInfo(**failure) for failure in answer.get("table_failures", []))
        return PageResult(outputs=outputs, schema=schema, messages=tuple(answer.get("messages", [])),
                          tables=int(answer.get("tables", 0)), table_failures=failures,
                          seconds=float(answer.get("seconds", 0.0)))


def convert_isolated(data: bytes | Source, *, table: int | None = None,
                     names: Literal["paper", "generic"] = "paper",
                     method: Literal["auto", "markup", "format"] = "auto", format: str = "xml",
                     schema: bool = False, limits: Limits = DEFAULT_LIMITS) -> PageResult:
    """Convert one page in a new worker process, under ``limits.timeout`` and ``limits.max_memory``.

    For many pages, keep one :class:`Worker` (one process start and compilation for all of them).

    :raises LimitExceeded, WorkerCrash, PyxformError: as :meth:`Worker.run`.
    """
    source = data if isinstance(data, Source) else Source(bytes(data), "", None)
    with Worker(limits) as worker:
        return worker.run(PageJob(source, table=table, names=names, method=method, format=format, schema=schema))


# -- starting the child by fork -----------------------------------------------------------------------------------
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
    whose own process never runs Saxon when pages go to workers. ``PYXFORM_WORKER_FORK=0`` turns it off.
    """
    return (hasattr(os, "fork") and sys.platform != "darwin" and "saxonche" not in sys.modules
            and threading.active_count() == 1 and os.environ.get("PYXFORM_WORKER_FORK", "1") != "0")


def _fork_child(limits: Limits, stderr_fd: int) -> tuple[_ForkedChild, Connection, Connection]:
    """Fork a child that runs :func:`_serve`; returns it and the parent's ends of the two pipes."""
    to_child_read, to_child_write = os.pipe()
    from_child_read, from_child_write = os.pipe()
    for stream in (sys.stdout, sys.stderr):  # else the child could write the parent's buffered output again
        try:
            stream.flush()
        except (OSError, ValueError, AttributeError):
            pass
    pid = os.fork()
    if pid == 0:  # the child: never returns into the parent's code
        code = 70
        try:
            os.close(to_child_write)
            os.close(from_child_read)
            os.dup2(to_child_read, 0)
            os.dup2(from_child_write, 1)
            os.dup2(stderr_fd, 2)
            os.close(to_child_read)
            os.close(from_child_write)
            _serve(limits)
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


# -- the child side -----------------------------------------------------------------------------------------------
def _limit_memory(max_memory: int) -> None:
    if max_memory <= 0:
        return
    try:
        import resource
    except ImportError:  # not on this platform: no memory cap
        return
    resource.setrlimit(resource.RLIMIT_DATA, (max_memory, max_memory))


def _serve(limits: Limits) -> None:
    """The child's loop: answer each page job until standard input closes."""
    inbox = Connection(os.dup(0), writable=False)
    outbox = Connection(os.dup(1), readable=False)
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(2, 1)  # anything printed goes to standard error, not into the answers
    _limit_memory(limits.max_memory)
    from .runtime.runner import runner

    runner()  # compile every stylesheet before the first page
    outbox.send_bytes(json.dumps({"ready": True}).encode("utf-8"))
    while True:
        try:
            header = json.loads(inbox.recv_bytes())
            data = inbox.recv_bytes()
        except EOFError:
            return
        job = PageJob(Source(data, header.get("uri", ""), header.get("charset")), options=header.get("options"))
        try:
            result = run_job(job, limits)
        except Exception as error:  # every error goes back to the parent, which raises it there
            outbox.send_bytes(json.dumps({"ok": False, "error": _error_to_json(error)}).encode("utf-8"))
            continue
        outbox.send_bytes(json.dumps(_result_to_json(result)).encode("utf-8"))
        for _, payload in result.outputs:
            outbox.send_bytes(payload)
        if result.schema is not None:
            outbox.send_bytes(result.schema)


if __name__ == "__main__":
    _serve(Limits(**json.loads(sys.argv[1])))
