"""What a Dask worker runs: one task converts a chunk of pages and writes their outputs.

For each page of the chunk (:class:`~pyxform.wings.batch.inputs.PageRef`) the worker reads it (a file, a WARC record
at its offset, or a URL through pyxform's safe fetch), converts it in an isolated child process under the page's
time and memory limits (the jobs layer's ``Worker``: a page that hangs, explodes or crashes costs that page only),
writes the outputs atomically into the batch folder (while the child converts the next page), and returns the
page's manifest record. A page never raises out
of the task: whatever goes wrong with it is its record's ``reason``.

The children live as long as the Dask worker process: one per worker thread, started (and the stylesheets compiled)
once, kept in this module's process-wide pool (:func:`prepare` fills it before the first task). With no time and no
memory limit (``--timeout 0 --max-memory 0``) pages are converted in the worker process itself, with its one
compiled runtime.
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import os
import threading
import time
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from pyxform.base import warc
from pyxform.base.errors import InputNotFound, InternalError, OutputError, PyxformError, WorkerCrash
from pyxform.base.files import atomic_write
from pyxform.base.limits import Limits, check_page_bytes
from pyxform.base.source import Source, read_source
from pyxform.jobs import PageOptions, PageResult, Worker, run_page

from .inputs import PageRef

__all__ = ["TaskSettings", "TaskResult", "convert_chunk", "prepare", "read_page", "failure_record", "SUFFIXES",
           "interrupts_ignored"]

#: Errors of a write that say the batch folder can take nothing more (not the page's fault): a full disk, a quota,
#: a file system mounted read-only.
FOLDER_ERRORS: Final = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EROFS})
#: The suffix of each output format's files (as ``pyxform convert`` names them in a folder).
SUFFIXES = {"xml": ".xml", "pairs": ".jsonl", "json": ".json", "csv": ".csv", "xhtml": ".xhtml"}


@dataclass(frozen=True)
class TaskSettings:
    """What every task of a batch needs besides its pages (picklable, the same for all tasks).

    :ivar folder: the batch folder, an absolute path every worker can write (a shared file system on a cluster).
    :ivar options: the pages' options (format, names, limits ...).
    :ivar allow_private: let listed URLs reach private, loopback and link-local addresses.
    """

    folder: str
    options: PageOptions = field(default_factory=PageOptions)
    allow_private: bool = False


@dataclass(frozen=True)
class TaskResult:
    """What a task returns: a manifest record per page (in the chunk's order), and where and how long it ran.

    :ivar seconds: the task's wall time in the worker (reading, converting, writing every page).
    :ivar convert_seconds: the pages' conversion time (in the child processes), summed.
    :ivar stop: the batch folder cannot take more (:data:`FOLDER_ERRORS`): the task stopped there, and the pages
        without a record (the one whose write failed, those after it) are no page's failure: the batch ends and
        ``--resume`` does them.
    """

    records: tuple[dict[str, Any], ...]
    worker: str
    seconds: float
    convert_seconds: float
    stop: OutputError | None = None


# -- the worker process's children ------------------------------------------------------------------------------
_idle: list[Worker] = []
_every: list[Worker] = []
_pool_lock = threading.Lock()


def _take_worker(limits: Limits) -> Worker:
    with _pool_lock:
        while _idle:
            worker = _idle.pop()
            if worker.limits == limits:
                return worker
            worker.close()
        worker = Worker(limits)
        _every.append(worker)
        return worker


def _give_back(worker: Worker) -> None:
    with _pool_lock:
        _idle.append(worker)


@atexit.register
def _close_children() -> None:
    with _pool_lock:
        for worker in _every:
            worker.close()
        _every.clear()
        _idle.clear()


def _isolated(options: PageOptions) -> bool:
    return options.limits.timeout > 0 or options.limits.max_memory > 0


def prepare(settings: TaskSettings, threads: int) -> dict[str, Any]:
    """Get a worker process ready before its first task, and say what it sees: start ``threads`` children (each
    compiles the stylesheets once; or compile them in this process when pages run here), check that the batch folder
    can be written. Run on every worker by the driver (``Client.run``).

    :returns: ``{"pyxform": version, "ok": bool, "problem": text or None}``.
    """
    from importlib.metadata import PackageNotFoundError, version

    try:
        found = version("pyxform")
    except PackageNotFoundError:
        found = "unknown"
    problem = None
    try:
        probe = Path(settings.folder) / f".pyxform-batch-probe-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as error:
        problem = f"cannot write into the batch folder {settings.folder}: {error.strerror or error}"
    if problem is None:
        started = [_take_worker(settings.options.limits) for _ in range(max(1, threads))] \
            if _isolated(settings.options) else []
        try:
            for worker in started:
                result = worker.run(Source(b"<table><tr><th>a</th></tr><tr><td>1</td></tr></table>", "warm-up"),
                                    settings.options)
                if result.status == "failed" and isinstance(result.error, PyxformError):
                    problem = f"the worker's page converter does not start: {result.error}"
            if not started:
                run_page(Source(b"<table><tr><th>a</th></tr><tr><td>1</td></tr></table>", "warm-up"),
                         settings.options)
        finally:
            for worker in started:
                _give_back(worker)
    return {"pyxform": found, "ok": problem is None, "problem": problem}


def interrupts_ignored() -> Any:
    """A Dask worker plugin for the local cluster's worker processes: they ignore SIGINT. Ctrl-C at the terminal
    reaches the whole process group; it is the driver's to handle (it closes the cluster, which ends the workers),
    and a worker process that took it printed a KeyboardInterrupt traceback of its own. Dask sets it up again on the
    workers its nannies restart."""
    from distributed import WorkerPlugin

    class IgnoreInterrupts(WorkerPlugin):  # type: ignore[misc]
        name = "pyxform-batch-ignore-interrupts"

        def setup(self, worker: Any) -> None:
            import signal

            if threading.current_thread() is threading.main_thread():  # the worker's event loop runs there
                signal.signal(signal.SIGINT, signal.SIG_IGN)

    return IgnoreInterrupts()


# -- one page ---------------------------------------------------------------------------------------------------
def read_page(page: PageRef, settings: TaskSettings) -> Source:
    """The bytes of one page, with the URI and transport charset its conversion records.

    :raises PyxformError: the page cannot be read (missing file, broken WARC record, failed fetch, a limit).
    """
    limits = settings.options.limits
    if page.kind == "url":
        return read_source(page.location, limits=limits, allow_private=settings.allow_private)
    if page.kind == "warc":
        try:
            data, uri, charset = warc.read_page(page.location, page.offset, limits.max_page_bytes)
        except OSError as error:
            raise InputNotFound(f"cannot read the WARC file: {error.strerror or error}",
                                location=page.location) from None
        check_page_bytes(len(data), limits, uri)
        return Source(data, uri, charset)
    read = read_source(page.location, limits=limits)
    return Source(read.data, page.source, None)


def _reason(error: BaseException) -> dict[str, Any]:
    if not isinstance(error, PyxformError):
        error = InternalError(f"{type(error).__name__}: {error} (please report this)")
    reason: dict[str, Any] = {"code": error.code, "message": error.message}
    limit = getattr(error, "limit", None)
    if limit:
        reason["limit"] = limit
    return reason


def failure_record(page_key: str, source: str, error: BaseException, seconds: float = 0.0) -> dict[str, Any]:
    """The manifest record of a page that failed with ``error`` (``reason``: its code, message and limit)."""
    return {"key": page_key, "source": source, "status": "failed", "output": None, "tables": 0,
            "reason": _reason(error), "seconds": round(seconds, 3)}


def _write_outputs(page: PageRef, result: PageResult, settings: TaskSettings) -> list[str]:
    """Write a page's outputs (and schema) into the batch folder; returns their paths relative to it. A write that
    fails part way removes the outputs of the page it wrote (a page recorded as failed has none).

    :raises OutputError: an output cannot be written.
    """
    suffix = SUFFIXES.get(settings.options.format, "." + settings.options.format)
    written: list[str] = []
    folder = Path(settings.folder)
    several = len(result.outputs) > 1  # csv of several tables: NAME-INDEX.csv each, as convert names them
    relatives = [page.output + (f"-{output.table}" if several and output.table is not None else "") + suffix
                 for output in result.outputs]
    try:
        (folder / page.output).parent.mkdir(parents=True, exist_ok=True)
        for relative, output in zip(relatives, result.outputs):
            atomic_write(folder / relative, output.data)
            written.append(relative)
        if result.schema is not None:
            atomic_write(folder / (page.output + ".xsd"), result.schema)
    except BaseException as error:
        for relative in written:
            with contextlib.suppress(OSError):
                (folder / relative).unlink()
        if isinstance(error, OSError):
            raise OutputError(f"cannot write the output: {error.strerror or error}",
                              location=str(folder / page.output)) from None
        raise
    return relatives


def _converted(page: PageRef, result: PageResult, written: list[str], seconds: float) -> dict[str, Any]:
    """The manifest record of a page whose outputs were written (``ok``; ``table_failures`` when some tables
    failed and the others were converted)."""
    record: dict[str, Any] = {
        "key": page.key, "source": page.source, "status": "ok", "output": written[0] if len(written) == 1 else written,
        "tables": result.tables, "reason": None, "seconds": round(seconds, 3)}
    if result.table_failures:
        record["table_failures"] = [{"index": failure.index, "code": failure.code, "message": failure.message}
                                    for failure in result.table_failures]
    return record


def _write_page(page: PageRef, result: PageResult, settings: TaskSettings,
                seconds: float) -> dict[str, Any] | OutputError:
    """Write a converted page's outputs and return its record: ``ok``, or ``failed`` with the reason the write
    failed (an :class:`OutputError`, or an :class:`InternalError` naming what else went wrong); or, when the batch
    folder can take nothing more (:data:`FOLDER_ERRORS`), the error (see :attr:`TaskResult.stop`). Runs on the
    task's write thread; never raises but for ``KeyboardInterrupt``/``SystemExit``."""
    started = time.monotonic()
    try:
        written = _write_outputs(page, result, settings)
    except OutputError as error:
        if isinstance(error.__context__, OSError) and error.__context__.errno in FOLDER_ERRORS:
            return OutputError(f"{error.message}: the batch stops; make room (or make the folder writable) and go "
                               "on with --resume", location=settings.folder)
        return failure_record(page.key, page.source, error, seconds + time.monotonic() - started)
    except Exception as error:  # noqa: BLE001 - whatever it is, it costs this page only, with its reason
        return failure_record(page.key, page.source, error, seconds + time.monotonic() - started)
    return _converted(page, result, written, seconds + time.monotonic() - started)


def _read_and_convert(page: PageRef, settings: TaskSettings,
                      worker: Worker | None) -> tuple[dict[str, Any] | PageResult, float, float]:
    """Read and convert one page: its record (``no-tables`` or ``failed``) or its result (``ok`` or ``partial``:
    its outputs are to be written), the seconds spent reading and converting, and the seconds converting (in the
    child). Never raises for what the page causes."""
    started = time.monotonic()
    try:
        source = read_page(page, settings)
        result = worker.run(source, settings.options) if worker is not None else run_page(source, settings.options)
    except Exception as error:  # noqa: BLE001 - a PyxformError of the page, or a bug: this page's reason
        return failure_record(page.key, page.source, error, time.monotonic() - started), \
            time.monotonic() - started, 0.0
    seconds = time.monotonic() - started
    if result.status in ("ok", "partial"):
        return result, seconds, result.seconds
    if result.status == "no-tables":
        return {"key": page.key, "source": page.source, "status": "no-tables", "output": None, "tables": 0,
                "reason": None, "seconds": round(seconds, 3)}, seconds, result.seconds
    why: BaseException = result.error or WorkerCrash("the page failed without an error (please report this)")
    return failure_record(page.key, page.source, why, seconds), seconds, result.seconds


# -- one task ---------------------------------------------------------------------------------------------------
def convert_chunk(pages: Sequence[PageRef], settings: TaskSettings) -> TaskResult:
    """Convert a chunk of pages (a Dask task): see the module docstring.

    The pages are converted one after another, in the worker thread's isolated child; each page's outputs are
    written (atomically, with ``fsync``) by a second thread while the child converts the next page, so the disk's
    latency is not added to every page. At most one page's outputs wait for the disk: the task waits for the
    previous write before it hands over the next (memory stays at two pages' outputs however slow the disk). The
    task returns once every output is written: a record in its result stands for outputs on disk.
    """
    started = time.monotonic()
    try:
        from distributed import get_worker

        where = get_worker().address
    except (ImportError, ValueError):
        where = f"pid {os.getpid()}"
    worker = _take_worker(settings.options.limits) if _isolated(settings.options) else None
    slots: list[dict[str, Any] | Future[dict[str, Any] | OutputError]] = []
    convert_seconds = 0.0
    try:
        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="pyxform-batch-writer") as writer:
            writing: Future[dict[str, Any] | OutputError] | None = None
            for page in pages:
                if writing is not None and writing.done() and isinstance(writing.result(), OutputError):
                    break  # the folder is full: no page more
                outcome, seconds, converting = _read_and_convert(page, settings, worker)
                convert_seconds += converting
                if isinstance(outcome, PageResult):
                    if writing is not None and isinstance(writing.result(), OutputError):
                        break
                    writing = writer.submit(_write_page, page, outcome, settings, seconds)
                    slots.append(writing)
                else:
                    slots.append(outcome)
                del outcome  # the outputs are the write thread's now: freed once written
            done = [slot.result() if isinstance(slot, Future) else slot for slot in slots]
    finally:
        if worker is not None:
            _give_back(worker)
    stop = next((value for value in done if isinstance(value, OutputError)), None)
    records = tuple(value for value in done if not isinstance(value, OutputError))
    return TaskResult(records, where, time.monotonic() - started, convert_seconds, stop)
