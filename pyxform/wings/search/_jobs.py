"""TEMPORARY ADAPTER: the jobs layer's contract (PLAN.md, "The jobs contract"), until ``pyxform.jobs`` is on main.

Delete this module when main has ``pyxform.jobs`` and import from there instead (``from pyxform.jobs import
PageOptions, PageResult, run_page, Worker``). It implements only what the search wing uses: ``command="convert"``
with the ``tables`` format (and the others ``pyxform convert`` knows), over :mod:`pyxform.isolate` as it is today.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Literal

from ...errors import NoTableError, PyxformError
from ...limits import DEFAULT_LIMITS, Limits
from ...source import Source

__all__ = ["PageOptions", "PageResult", "Output", "TableFailureInfo", "run_page", "Worker"]


@dataclass(frozen=True)
class Output:
    table: int | None
    data: bytes


@dataclass(frozen=True)
class TableFailureInfo:
    index: int
    code: str
    message: str


@dataclass(frozen=True)
class PageOptions:
    command: Literal["convert", "grid", "headers"] = "convert"
    table: int | None = None
    names: Literal["paper", "generic"] = "paper"
    method: Literal["auto", "markup", "format"] = "auto"
    format: str = "xml"
    limits: Limits = DEFAULT_LIMITS


@dataclass(frozen=True)
class PageResult:
    source: str
    status: Literal["ok", "partial", "no-tables", "failed"]
    outputs: tuple[Output, ...] = ()
    schema: bytes | None = None
    messages: tuple[str, ...] = ()
    tables: int = 0
    table_failures: tuple[TableFailureInfo, ...] = field(default_factory=tuple)
    error: PyxformError | None = None
    seconds: float = 0.0


def _job(source: Source, options: PageOptions):  # type: ignore[no-untyped-def]
    from ...isolate import PageJob

    return PageJob(source, table=options.table, names=options.names, method=options.method, format=options.format,
                   options={"command": options.command})


def _result(source: Source, run, started: float) -> PageResult:  # type: ignore[no-untyped-def]
    try:
        done = run()
    except NoTableError as error:
        return PageResult(source.uri, "no-tables", error=error, seconds=time.monotonic() - started)
    except PyxformError as error:
        return PageResult(source.uri, "failed", error=error, seconds=time.monotonic() - started)
    failures = tuple(TableFailureInfo(f.index, f.code, f.message) for f in done.table_failures)
    return PageResult(source.uri, "partial" if failures else "ok",
                      outputs=tuple(Output(None, data) for _, data in done.outputs), schema=done.schema,
                      messages=done.messages, tables=done.tables, table_failures=failures,
                      seconds=time.monotonic() - started)


def run_page(source: Source, options: PageOptions) -> PageResult:
    """One page in this process (no time or memory cap); never raises for what the page causes."""
    from ...isolate import run_job

    started = time.monotonic()
    return _result(source, lambda: run_job(_job(source, options), options.limits), started)


class Worker:
    """One isolated child process, reused page after page (``pyxform.isolate.Worker``)."""

    def __init__(self, limits: Limits = DEFAULT_LIMITS) -> None:
        from ...isolate import Worker as IsolatedWorker

        self._worker = IsolatedWorker(limits)

    def run(self, source: Source, options: PageOptions) -> PageResult:
        started = time.monotonic()
        return _result(source, lambda: self._worker.run(_job(source, options)), started)

    def close(self) -> None:
        self._worker.close()

    def __enter__(self) -> Worker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
