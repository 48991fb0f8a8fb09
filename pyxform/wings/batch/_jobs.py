"""TEMPORARY ADAPTER (issue 16, until ``pyxform.jobs`` of issue 12 is on main): the jobs contract of PLAN.md
(``PageOptions``, ``PageResult``, ``Output``, ``TableFailureInfo``, ``run_page``, ``Worker``), built on today's
:mod:`pyxform.isolate`. Batch imports these names from here only; when the jobs layer lands, this module is deleted
and the imports become ``from pyxform.jobs import ...``.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Any, Literal

from pyxform.errors import LimitExceeded, NoTableError, PyxformError, TableError
from pyxform.isolate import PageJob, TableFailureInfo
from pyxform.isolate import Worker as _IsolatedWorker
from pyxform.isolate import run_job
from pyxform.limits import DEFAULT_LIMITS, LIMIT_OPTIONS, Limits, limit_exceeded
from pyxform.source import Source

__all__ = ["PageOptions", "PageResult", "Output", "TableFailureInfo", "run_page", "Worker"]

_CSV_TARGET = "page.csv"
_CSV_NAME = re.compile(r"page-(\d+)\.csv")


@dataclass(frozen=True)
class PageOptions:
    """One page's options (the jobs contract): what ``pyxform convert`` (``grid``, ``headers``) takes for a page."""

    command: Literal["convert", "grid", "headers"] = "convert"
    table: int | None = None
    names: Literal["paper", "generic"] = "paper"
    method: Literal["auto", "markup", "format"] = "auto"
    format: str = "xml"
    separator: str = " / "
    xslt: tuple[str, ...] = ()
    params: tuple[str, ...] = ()
    allow_io: bool = False
    schema: bool = False
    keep_stages: str | None = None
    limits: Limits = DEFAULT_LIMITS


@dataclass(frozen=True)
class Output:
    """One output of a page: ``table`` is the table's index for one CSV file of several, else ``None``."""

    table: int | None
    data: bytes


@dataclass(frozen=True)
class PageResult:
    """What one page gave (the jobs contract)."""

    source: str
    status: Literal["ok", "partial", "no-tables", "failed"]
    outputs: tuple[Output, ...] = ()
    schema: bytes | None = None
    messages: tuple[str, ...] = ()
    tables: int = 0
    table_failures: tuple[TableFailureInfo, ...] = field(default_factory=tuple)
    error: PyxformError | None = None
    seconds: float = 0.0


def _job(source: Source, options: PageOptions) -> PageJob:
    mapping: dict[str, Any] = {
        "command": options.command, "separator": options.separator, "xslt": list(options.xslt),
        "param": list(options.params), "allow_io": options.allow_io, "keep_stages": options.keep_stages,
        "target": _CSV_TARGET if options.format == "csv" else None}
    return PageJob(source, table=options.table, names=options.names, method=options.method, format=options.format,
                   schema=options.schema, options=mapping)


def _every_table_failed(failures: tuple[TableFailureInfo, ...], location: str | None) -> PyxformError:
    listed = "; ".join(f"table {failure.index}: {failure.message}" for failure in failures[:3])
    message = (f"no table of the page could be converted ({len(failures)} table{'s' if len(failures) != 1 else ''} "
               f"failed): {listed}{'; ...' if len(failures) > 3 else ''}")
    if all(failure.code == "limit" for failure in failures):
        named = re.search(r"\b(max_[a-z_]+)\b", failures[0].message)
        limit = named.group(1) if named and named.group(1) in LIMIT_OPTIONS else "max_slots"
        return LimitExceeded(message, limit=limit, location=location)
    return TableError(message, location=location)


def _result(source: Source, run: Any, started: float) -> PageResult:
    """Run ``run()`` (an isolate ``PageResult``) and turn it, or the error it raised, into a contract result."""
    try:
        result = run()
    except NoTableError as error:
        return PageResult(source.uri, "no-tables", error=error, seconds=time.monotonic() - started)
    except PyxformError as error:
        return PageResult(source.uri, "failed", error=error, seconds=time.monotonic() - started)
    except MemoryError:
        error = limit_exceeded("max_memory", "the page needed more memory than there is", limits=DEFAULT_LIMITS,
                               location=source.uri or None)
        return PageResult(source.uri, "failed", error=error, seconds=time.monotonic() - started)
    if result.tables == 0 and result.table_failures:
        return PageResult(source.uri, "failed", messages=result.messages, table_failures=result.table_failures,
                          error=_every_table_failed(result.table_failures, source.uri or None),
                          seconds=result.seconds)
    outputs = []
    for path, data in result.outputs:
        match = _CSV_NAME.fullmatch(path or "")
        outputs.append(Output(int(match.group(1)) if match else None, data))
    return PageResult(source.uri, "partial" if result.table_failures else "ok", tuple(outputs), result.schema,
                      result.messages, result.tables, result.table_failures, None, result.seconds)


def run_page(source: Source, options: PageOptions) -> PageResult:
    """Convert one page in this process (no time or memory limit); never raises for what the page causes."""
    return _result(source, lambda: run_job(_job(source, options), options.limits), time.monotonic())


class Worker:
    """One isolated child process, reused page after page, under ``limits.timeout`` and ``limits.max_memory``."""

    def __init__(self, limits: Limits = DEFAULT_LIMITS) -> None:
        self.limits = limits
        self._worker = _IsolatedWorker(limits)

    def run(self, source: Source, options: PageOptions) -> PageResult:
        """Convert one page in the child; a page that hangs, explodes or crashes gives status ``failed``."""
        return _result(source, lambda: self._worker.run(_job(source, options)), time.monotonic())

    @property
    def pid(self) -> int | None:
        return self._worker.pid

    def close(self) -> None:
        self._worker.close()

    def __enter__(self) -> Worker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
