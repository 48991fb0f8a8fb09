"""One page with its options -> its outputs, or a recorded failure: :func:`run_page`.

What ``pyxform convert`` (or ``grid``, ``headers``) does for one page, without writing anything: the outputs as bytes
(:class:`Output`), the warnings, the tables that failed, and, when the page failed, the error. A page's own problems
(an empty or undecodable page, no table, a limit, a stylesheet failing on it, even a bug of pyxform's) never raise:
they are the result's ``status`` and ``error``, so one bad page never stops a batch or a crawl. Only options that
cannot be served raise, before the page is looked at. The same function runs in the isolated worker
(:class:`pyxform.jobs.Worker`), which adds a time and a memory limit.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal

from ..api.convert import NAME_STYLES, convert, convert_grid
from ..api.pipeline import Pipeline
from ..base.errors import (CodedMessage, EmptyInput, InputError, InternalError, NoTableError, PyxformError,
                           TableError, UsageError, coded_error, no_table_error)
from ..base.source import Source
from ..stages.grid_input import looks_like_grid_document, read_grid_input
from ..stages.headers import METHODS, headers
from ..stages.normalize import TableFailure, grid
from .options import COMMANDS, CONVERT_FORMATS, PAGE_FORMATS, WING_FORMATS, PageOptions, conversion_pipeline

__all__ = ["Output", "TableFailureInfo", "PageResult", "Status", "run_page", "page_result", "check_options",
           "prepare", "every_table_failed", "bug_result"]

#: ``ok``: every table converted; ``partial``: some tables failed, the others converted; ``no-tables``: the page
#: has no table (or no table ``table``: :class:`~pyxform.base.errors.NoTableError`); ``failed``: the page failed
#: (``error`` says why; also a page with tables none of which could be converted).
Status = Literal["ok", "partial", "no-tables", "failed"]

#: The formats of ``convert`` made from the header-annotated grid alone, not from the output XML: for all tables of a
#: page their conversion stops after the headers stage (:func:`_convert_page`).
GRID_ONLY_FORMATS: Final = ("pairs", "csv", "xhtml")


@dataclass(frozen=True)
class Output:
    """One output of a page: the XML (or pairs, JSON, XHTML, grid, headers) document, or with ``csv`` one table.

    :ivar table: the table's index (``px:index``) for a CSV output, else ``None``.
    :ivar data: the bytes to write (UTF-8), ending with a line feed.
    """

    table: int | None
    data: bytes


#: A table of the page that could not be converted (``px:table-failure``); the others were:
#: ``TableFailureInfo(index, code, message, locator="", limit=None)`` (:class:`pyxform.stages.normalize.TableFailure`).
TableFailureInfo = TableFailure


@dataclass(frozen=True)
class PageResult:
    """What one page gave (picklable: the error pickles as itself).

    :ivar source: the page's URI or path as given (:attr:`pyxform.base.source.Source.uri`).
    :ivar status: see :data:`Status`.
    :ivar outputs: one :class:`Output` (one per table with ``csv``); none when the page failed.
    :ivar schema: the XSD of the output (UTF-8) when ``schema`` was asked for.
    :ivar messages: warnings, in order: ``convert``: clean's and the stylesheets' messages; ``headers``: the stage's
        data warnings. A failed table is not a message: it is in ``table_failures`` (every command alike).
    :ivar tables: how many tables were converted (normalized for ``grid``, annotated for ``headers``).
    :ivar table_failures: the tables that could not be.
    :ivar error: why the page failed (``failed``, ``no-tables``), else ``None``.
    :ivar seconds: wall-clock time of the work on the page.
    """

    source: str
    status: Status
    outputs: tuple[Output, ...] = ()
    schema: bytes | None = None
    messages: tuple[str, ...] = ()
    tables: int = 0
    table_failures: tuple[TableFailureInfo, ...] = field(default_factory=tuple)
    error: PyxformError | None = None
    seconds: float = 0.0

    @property
    def payload(self) -> bytes:
        """The first output's bytes (the only one but for ``csv`` of several tables), ``b""`` if none."""
        return self.outputs[0].data if self.outputs else b""


def check_options(options: PageOptions) -> None:
    """:raises UsageError: options that no page can be run with (a command, format, name style or method pyxform
    does not have, a negative table, options only ``convert`` takes given to ``grid`` or ``headers``)."""
    if options.command not in COMMANDS:
        raise UsageError(f"command must be one of {', '.join(COMMANDS)}, not {options.command!r}")
    formats = CONVERT_FORMATS + WING_FORMATS if options.command == "convert" else PAGE_FORMATS
    if options.format not in formats:
        raise UsageError(f"`{options.command}` writes {', '.join(formats)}, not {options.format!r}")
    if options.table is not None and (not isinstance(options.table, int) or options.table < 0):
        raise UsageError(f"table must be a table index (0 or more) or None, not {options.table!r}")
    if options.names not in NAME_STYLES:
        raise UsageError(f"names must be one of {', '.join(NAME_STYLES)}, not {options.names!r}")
    if options.method not in METHODS:
        raise UsageError(f"method must be one of {', '.join(METHODS)}, not {options.method!r}")
    if options.command != "convert":
        given = [name for name in ("xslt", "params", "allow_io", "schema", "keep_stages") if getattr(options, name)]
        if given:
            raise UsageError(f"`{options.command}` takes none of {', '.join(given)} (only convert does)")
    elif options.schema and options.format != "xml":
        raise UsageError("--schema goes with --format xml")


def run_page(source: Source, options: PageOptions) -> PageResult:
    """Run one page in this process (no time or memory limit: :class:`pyxform.jobs.Worker` has them).

    :param source: the page (or, for ``convert`` and ``headers``, a grid document) with its URI.
    :param options: what to run and how.
    :returns: the :class:`PageResult`; never raises for anything the page causes (a bug of pyxform's on this page
        is ``failed`` with :class:`~pyxform.base.errors.InternalError`).
    :raises UsageError: options that cannot be served (:func:`check_options`, a bad ``--param``, ``xslt`` with
        another format than xml or json), before the page is looked at.
    :raises InputNotFound, InputError, StylesheetError: an ``xslt`` stylesheet that does not exist or is a URL.
    """
    started = time.monotonic()
    pipeline = prepare(options)
    try:
        return page_result(source, options, pipeline=pipeline, started=started)
    except Exception as error:  # a bug: recorded with the page, never raised into a batch
        return bug_result(source.uri, error, started)


def bug_result(source: str, error: Exception, started: float | None = None) -> PageResult:
    """A bug of pyxform's met on an input (any exception but pyxform's own errors), recorded with it as ``failed``
    with :class:`~pyxform.base.errors.InternalError` (``__cause__``: the exception), never raised into a batch."""
    failure = InternalError(f"{type(error).__name__}: {error}")
    failure.__cause__ = error
    return PageResult(source, "failed", error=failure, seconds=0.0 if started is None else time.monotonic() - started)


def prepare(options: PageOptions) -> tuple[Pipeline, dict[str, dict[str, Any]]] | None:
    """Check ``options`` (:func:`check_options`) and return the conversion pipeline and parameters they choose
    (:func:`~pyxform.jobs.options.conversion_pipeline`; ``None`` for ``grid`` and ``headers``).

    :raises UsageError, PyxformError: as :func:`run_page` for its options.
    """
    check_options(options)
    return conversion_pipeline(options) if options.command == "convert" else None


def page_result(source: Source, options: PageOptions, *,
                pipeline: tuple[Pipeline, dict[str, dict[str, Any]]] | None = None,
                started: float | None = None) -> PageResult:
    """:func:`run_page` without its last resort: pyxform's errors are the result, any other exception (a bug,
    ``MemoryError``) is raised. The worker's child runs this (a ``MemoryError`` there is the memory limit).

    :param pipeline: the result of :func:`~pyxform.jobs.options.conversion_pipeline` for ``options``, if known.
    :param started: when the work on the page began (:func:`time.monotonic`), if earlier than now.
    """
    started = time.monotonic() if started is None else started
    try:
        if options.command == "grid":
            result = _grid_page(source, options)
        elif options.command == "headers":
            result = _headers_page(source, options)
        else:
            if pipeline is None:
                pipeline = prepare(options)
            assert pipeline is not None
            result = _convert_page(source, options, *pipeline)
    except NoTableError as error:
        return PageResult(source.uri, "no-tables", error=error, seconds=time.monotonic() - started)
    except PyxformError as error:
        return PageResult(source.uri, "failed", error=error, seconds=time.monotonic() - started)
    return _with_time(result, time.monotonic() - started)


def _with_time(result: PageResult, seconds: float) -> PageResult:
    return PageResult(result.source, result.status, result.outputs, result.schema, result.messages, result.tables,
                      result.table_failures, result.error, seconds)


def _every_table_failed_result(source: Source, failures: tuple[TableFailureInfo, ...],
                               messages: Sequence[str] = ()) -> PageResult:
    return PageResult(source.uri, "failed", messages=tuple(messages), table_failures=failures,
                      error=every_table_failed(failures, source.uri or None))


def every_table_failed(failures: Sequence[TableFailure], location: str | None) -> PyxformError:
    """The error of a page that has tables none of which could be converted, by the failures' codes and limits (as
    data): :class:`LimitExceeded` naming the first table's limit when every table failed on a limit (exit code 7),
    else :class:`TableError` (exit code 9)."""
    count = len(failures)
    listed = "; ".join(f"table {failure.index}: {failure.message}" for failure in failures[:3])
    message = (f"no table of the page could be converted ({count} table{'s' if count != 1 else ''} failed): "
               f"{listed}{'; ...' if count > 3 else ''}")
    limit = failures[0].limit if failures else None
    if limit and all(failure.code == "limit" and failure.limit for failure in failures):
        return coded_error(CodedMessage("limit", message, limit), location=location)
    return TableError(message, location=location)


def _text_output(text: str) -> bytes:
    """``text`` as UTF-8 ending with a line feed."""
    return (text if text.endswith("\n") else text + "\n").encode("utf-8")


def _grid_page(source: Source, options: PageOptions) -> PageResult:
    """``pyxform grid`` on one page.

    :raises LimitExceeded, TableError: the one table asked for (``table``) could not be normalized.
    :raises InputError: the page is a grid document already.
    :raises PyxformError: any error of :func:`pyxform.stages.normalize.grid`.
    """
    uri = source.uri
    if looks_like_grid_document(source.data):
        read_grid_input(source.data, limits=options.limits, location=uri or None)  # BadXmlInput if broken
        raise InputError("this is a grid document already: `pyxform grid` reads HTML pages (give a grid document to "
                         "`pyxform headers` or `pyxform convert`)", location=uri or None)
    document = grid(source, table=options.table, limits=options.limits)
    failures = document.failures
    if options.table is not None and not document.tables:
        raise failures[0].error(uri or None)
    if not document.tables and failures:
        return _every_table_failed_result(source, failures)
    text = json.dumps(document.to_json(), ensure_ascii=False) if options.format == "json" else document.xml
    return PageResult(uri, "partial" if failures else "ok", (Output(None, _text_output(text)),),
                      tables=len(document.tables), table_failures=failures)


def _headers_page(source: Source, options: PageOptions) -> PageResult:
    """``pyxform headers`` on one page (or grid document).

    :raises PyxformError: any error of :func:`pyxform.stages.headers.headers`.
    """
    result = headers(source, method=options.method, table=options.table, limits=options.limits)
    failures = tuple(result.failures)
    if not result.tables and failures:
        return _every_table_failed_result(source, failures)
    text = (json.dumps(result.to_json(), ensure_ascii=False) if options.format == "json"
            else result.to_xml().decode("utf-8"))
    return PageResult(source.uri, "partial" if failures else "ok", (Output(None, _text_output(text)),),
                      messages=tuple(result.warnings), tables=len(result.tables), table_failures=failures)


def _convert_page(source: Source, options: PageOptions, pipeline: Pipeline,
                  params: dict[str, dict[str, Any]]) -> PageResult:
    """``pyxform convert`` on one page (or grid document).

    :raises EmptyInput: the page has no bytes or only white space.
    :raises PyxformError: any error of the conversion.
    """
    if not source.data.strip():
        raise EmptyInput("the page holds only white space" if source.data else "the page is empty",
                         location=source.uri or None)
    kwargs: dict[str, Any] = {"table": options.table, "names": options.names, "method": options.method,
                              "pipeline": pipeline, "params": params,
                              "keep_stages": Path(options.keep_stages) if options.keep_stages else None}
    if looks_like_grid_document(source.data):  # a broken one is refused as XML (bad-xml), not read as a page
        conversion = convert_grid(source.data, source=source.uri, limits=options.limits, **kwargs)
    elif options.format in GRID_ONLY_FORMATS and options.table is None and options.keep_stages is None:
        # the output is read from the annotated grid alone: the conversion stops after headers (map and merge would
        # make an XML no one reads), and the one check map makes on a whole page is made here
        until = pipeline.until("headers")
        kwargs.update(pipeline=until, params={step: values for step, values in params.items() if step in until.names})
        conversion = convert(source, limits=options.limits, keep_grid=True, **kwargs)
        if not conversion.table_indexes() and not conversion.table_failures():
            raise no_table_error(None, location=source.uri or None)  # as map says it
    else:
        # tables reads the output XML and the annotated grid: the headers stage runs apart (not inside headers-map
        # and again for the grid)
        conversion = convert(source, limits=options.limits, keep_grid=options.format == "tables", **kwargs)
    messages = tuple(conversion.messages)
    tables = len(conversion.table_indexes())
    failures = tuple(conversion.table_failures())
    if tables == 0 and failures:  # tables, and none converted: the page failed, nothing is written
        return _every_table_failed_result(source, failures, messages)
    if options.format == "csv":
        outputs = tuple(Output(table.index, table.to_csv(options.separator).encode("utf-8"))
                        for table in conversion.tables())
    else:
        render = {"xml": conversion.to_bytes, "pairs": lambda: conversion.pairs_jsonl().encode("utf-8"),
                  "json": lambda: conversion.to_json().encode("utf-8"),
                  "xhtml": lambda: conversion.to_xhtml().encode("utf-8"),
                  "tables": lambda: conversion.to_tables_json().encode("utf-8")}[options.format]
        outputs = (Output(None, render()),)
    schema = conversion.schema().encode("utf-8") if options.schema else None
    return PageResult(source.uri, "partial" if failures else "ok", outputs, schema, messages, tables, failures)
