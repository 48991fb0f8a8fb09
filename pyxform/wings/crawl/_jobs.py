"""TEMPORARY ADAPTER (issue 14 until issue 12's ``pyxform.jobs`` is on main; then delete this file and import
``PageOptions``, ``PageResult``, ``Worker`` from ``pyxform.jobs``).

It gives the crawl the jobs contract of PLAN.md (``Worker(limits).run(source, options) -> PageResult`` that never
raises for what the page causes) over today's :class:`pyxform.isolate.Worker`, which raises instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from ...errors import LimitExceeded, NoTableError, PyxformError, TableError
from ...isolate import PageJob
from ...isolate import Worker as _IsolatedWorker
from ...limits import DEFAULT_LIMITS, Limits
from ...source import Source

__all__ = ["PageOptions", "PageResult", "Output", "TableFailureInfo", "Worker"]


@dataclass(frozen=True)
class PageOptions:
    """The subset of the contract's options the crawl uses."""

    command: Literal["convert", "grid", "headers"] = "convert"
    names: Literal["paper", "generic"] = "paper"
    method: Literal["auto", "markup", "format"] = "auto"
    format: str = "xml"
    limits: Limits = DEFAULT_LIMITS


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
class PageResult:
    source: str
    status: Literal["ok", "partial", "no-tables", "failed"]
    outputs: tuple[Output, ...] = ()
    tables: int = 0
    table_failures: tuple[TableFailureInfo, ...] = field(default_factory=tuple)
    error: PyxformError | None = None
    seconds: float = 0.0


class Worker:
    """The contract's isolated worker over :class:`pyxform.isolate.Worker`."""

    def __init__(self, limits: Limits = DEFAULT_LIMITS) -> None:
        self._worker = _IsolatedWorker(limits)

    def __enter__(self) -> Worker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._worker.close()

    def run(self, source: Source, options: PageOptions) -> PageResult:
        job = PageJob(source, names=options.names, method=options.method, format=options.format,
                      options={"command": options.command})
        try:
            result = self._worker.run(job)
        except NoTableError as error:
            return PageResult(source.uri, "no-tables", error=error)
        except PyxformError as error:
            return PageResult(source.uri, "failed", error=error)
        except Exception as error:  # a usage error of the options (none the crawl passes) or a bug
            return PageResult(source.uri, "failed", error=PyxformError(f"{type(error).__name__}: {error}"))
        failures = tuple(TableFailureInfo(f.index, f.code, f.message) for f in result.table_failures)
        if failures and result.tables == 0:  # as the CLI: a page that has tables and converted none fails
            first = failures[0]
            message = f"every table failed; table {first.index}: {first.message}"
            error: PyxformError = (LimitExceeded(message, limit="", location=source.uri) if all(
                f.code == "limit" for f in failures) else TableError(message, location=source.uri))
            return PageResult(source.uri, "failed", table_failures=failures, error=error, seconds=result.seconds)
        return PageResult(source.uri, "partial" if failures else "ok",
                          tuple(Output(None, data) for _, data in result.outputs), result.tables, failures,
                          seconds=result.seconds)
