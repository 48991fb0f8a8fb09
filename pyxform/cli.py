"""The ``pyxform`` command line: ``pyxform COMMAND ...``.

Each command is one :class:`Command`: a function that adds its arguments to an ``argparse`` sub-parser and a
function that runs it and returns the exit code. Adding a command is adding one pair and listing it in
:data:`COMMANDS`.

Errors are printed as ``pyxform: error [CODE]: LOCATION: MESSAGE`` on standard error, and the exit code is the
error's ``exit_code`` (:mod:`pyxform.errors`). The exit codes are listed once, in ``docs/errors.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import stat
import sys
import tempfile
import threading
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, BinaryIO

from .errors import (EXIT_PARTIAL_FAILURE, EmptyInput, InputError, InputNotFound, LimitExceeded, OutputError,
                     PyxformError, TableError, ValidationError)
from .files import atomic_write, writes_in_place
from .limits import DEFAULT_LIMITS, LIMIT_OPTIONS, MIN_WORKER_MEMORY, Limits, limit_keyword
from .source import Source, read_source
from .tabular import DEFAULT_SEPARATOR, csv_paths

__all__ = ["main", "build_parser", "Command", "COMMANDS", "write_output", "report_error", "convert_outputs",
           "grid_output", "headers_output"]

EXIT_OK = 0
EXIT_INTERNAL = 1
EXIT_USAGE = 2

#: Output formats of ``pyxform convert`` and the suffix of the files written for them into an output folder.
CONVERT_FORMATS = ("xml", "pairs", "json", "csv", "xhtml")
OUTPUT_SUFFIXES = {"xml": ".xml", "pairs": ".jsonl", "json": ".json", "csv": ".csv", "xhtml": ".xhtml"}
#: Suffixes that make ``-o NAME`` the name of one file: with several inputs such a NAME is refused (give a folder).
FILE_SUFFIXES = (".xml", ".json", ".csv", ".jsonl", ".xhtml", ".html")


class UsageError(Exception):
    """A combination of options or inputs the command cannot serve (exit code 2, with the usage line)."""


@dataclass(frozen=True)
class Command:
    """One sub-command: its name, one-line help, and the functions that declare and run it."""

    name: str
    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


# -- input and output ---------------------------------------------------------------------------------------------
def write_output(text: str, stream: BinaryIO | None = None) -> None:
    """Write ``text`` as UTF-8 to standard output (whatever the locale), ending with a line feed.

    :raises OutputError: standard output cannot be written (disk full, ...).
    """
    out = stream or sys.stdout.buffer
    try:
        out.write(text.encode("utf-8"))
        if not text.endswith("\n"):
            out.write(b"\n")
        out.flush()
    except BrokenPipeError:
        raise
    except OSError as error:  # e.g. standard output on a full disk
        raise OutputError(f"cannot write the output: {error.strerror or error}", location="standard output") from None


_LIMIT_ARGUMENTS: tuple[tuple[str, str, str], ...] = (
    ("max_page_bytes", "BYTES", "largest page accepted"),
    ("max_tables", "N", "most tables in one page"),
    ("max_depth", "N", "deepest nesting of tables in table cells"),
    ("max_slots", "N", "most slots (rows x columns) in one table, checked before any slot exists"),
    ("max_page_slots", "N", "most slots in all the tables of a page (counted from below, before normalizing)"),
)


def _limit_arguments(parser: argparse.ArgumentParser, *, worker: bool = False) -> None:
    """Add the options that raise the resource limits (``pyxform.limits``); ``worker``: also time and memory."""
    group = parser.add_argument_group("resource limits (a page or table over one fails with exit code 7)")
    for name, metavar, text in _LIMIT_ARGUMENTS:
        group.add_argument(LIMIT_OPTIONS[name], dest=name, type=_non_negative, metavar=metavar,
                           help=f"{text} (default {getattr(DEFAULT_LIMITS, name)})")
    group.add_argument("--fetch-timeout", dest="fetch_timeout", type=_seconds, metavar="SECONDS",
                       help=f"seconds to fetch a URL (default {DEFAULT_LIMITS.fetch_timeout:g})")
    group.add_argument("--allow-private", action="store_true",
                       help="let URLs reach private, loopback and link-local addresses (refused by default)")
    if worker:
        group.add_argument("--timeout", dest="timeout", type=_seconds, metavar="SECONDS",
                           help=f"seconds one page may take; the page's worker process is stopped then (default "
                                f"{DEFAULT_LIMITS.timeout:g}; 0: no limit)")
        group.add_argument("--max-memory", dest="max_memory", type=_megabytes, metavar="MB",
                           help=f"memory one page's worker process may use, in MiB (default "
                                f"{DEFAULT_LIMITS.max_memory // 2**20}; 0: no limit; else at least "
                                f"{MIN_WORKER_MEMORY // 2**20}). With --timeout 0 and "
                                "--max-memory 0 pages are converted in this process")


def _limits(args: argparse.Namespace) -> Limits:
    """The :class:`Limits` of the options given (the defaults for the others)."""
    names = ("max_page_bytes", "max_tables", "max_depth", "max_slots", "max_page_slots", "fetch_timeout", "timeout",
             "max_memory")
    given = {name: getattr(args, name) for name in names if getattr(args, name, None) is not None}
    return replace(DEFAULT_LIMITS, **given) if given else DEFAULT_LIMITS


def _seconds(value: str) -> float:
    number = float(value)
    if not number >= 0:
        raise argparse.ArgumentTypeError("must be 0 or more seconds")
    return number


def _megabytes(value: str) -> int:
    """``--max-memory MB``: 0 (no limit) or at least :data:`~pyxform.limits.MIN_WORKER_MEMORY` (the worker's start)."""
    number = _non_negative(value) * 2**20
    if 0 < number < MIN_WORKER_MEMORY:
        raise argparse.ArgumentTypeError(
            f"must be 0 (no limit) or at least {MIN_WORKER_MEMORY // 2**20} MiB: the worker process needs about that "
            "much to load Saxon and compile the stylesheets before any page")
    return number


def _non_negative(value: str) -> int:
    number = int(value)
    if number < 0:
        raise argparse.ArgumentTypeError("must be 0 or more")
    return number


# -- grid ---------------------------------------------------------------------------------------------------------
def _grid_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("input", metavar="INPUT", help="an HTML file, an http(s) URL, or - for standard input")
    parser.add_argument("--format", choices=("xml", "json"), default="xml",
                        help="xml: the grid document (docs/formats.md section 2); json: "
                             '{"tables": [{"index", "rows", "cols", "grid": [[{"text", "tag", "origin"}]]}]}')
    parser.add_argument("--table", type=_non_negative, metavar="N",
                        help="only the table with index N (0-based, document order, nested tables included)")
    _limit_arguments(parser, worker=True)


def _text_output(text: str) -> bytes:
    """``text`` as UTF-8 ending with a line feed (what :func:`write_output` writes)."""
    return (text if text.endswith("\n") else text + "\n").encode("utf-8")


def grid_output(page: Source, options: Mapping[str, Any], limits: Limits = DEFAULT_LIMITS
                ) -> tuple[bytes, list[str]]:
    """Run ``pyxform grid`` on one page without writing anything (what its worker process runs).

    :param options: ``table`` (an index or ``None``), ``format`` (``xml`` or ``json``).
    :returns: the bytes for standard output and the warning lines for standard error (tables that failed).
    :raises LimitExceeded, TableError: the one table asked for (``table``) could not be normalized, or the page has
        tables and none could be (:class:`LimitExceeded` when every one failed on a limit).
    :raises PyxformError: any error of :func:`pyxform.normalize.grid`.
    """
    from .header_detection import looks_like_grid_document
    from .normalize import grid
    from .safexml import parse_untrusted

    source, table = page.uri, options.get("table")
    if looks_like_grid_document(page.data):
        parse_untrusted(page.data, what="grid document", location=source or None)  # BadXmlInput if broken
        raise InputError("this is a grid document already: `pyxform grid` reads HTML pages (give a grid document to "
                         "`pyxform headers` or `pyxform convert`)", location=source or None)
    document = grid(page, table=table, limits=limits)
    if table is not None and not document.tables:
        failure = document.failures[0]
        location = f"{source}: table {failure.index} ({failure.locator})"
        if failure.code == "limit":
            raise LimitExceeded(failure.message, limit="max_slots", location=location)
        raise TableError(failure.message, location=location)
    if not document.tables and document.failures:
        raise _every_table_failed(document.failures, source or None)
    text = json.dumps(document.to_json(), ensure_ascii=False) if options.get("format") == "json" else document.xml
    warnings = [f"pyxform: warning [{failure.code}]: {source}: table {failure.index} ({failure.locator}): "
                f"{failure.message}" for failure in document.failures]  # the other tables were written
    return _text_output(text), warnings


# normalize's message for a table that failed (stylesheets/normalize/table.xsl): "[pyxform:CODE] table I (LOCATOR):
# MESSAGE (px:CODE)"
_TABLE_FAILURE_MESSAGE = re.compile(r"\[pyxform:(?P<code>[\w-]+)\] (?P<text>table \d+ .*?)(?: \(px:[\w-]+\))?", re.DOTALL)


def _warning_line(source: str, message: str) -> str:
    """The warning line of a page's message: a failed table as ``grid`` and ``headers`` say it
    (``pyxform: warning [limit]: SOURCE: table I (LOCATOR): MESSAGE``), any other message after the source."""
    failure = _TABLE_FAILURE_MESSAGE.fullmatch(message)
    if failure:
        return f"pyxform: warning [{failure.group('code')}]: {source}: {failure.group('text')}"
    return f"pyxform: warning: {source}: {message}"


def _run_grid(args: argparse.Namespace) -> int:
    return _run_page_command("grid", args)


def _run_page_command(command: str, args: argparse.Namespace) -> int:
    """Run ``grid`` or ``headers`` on one input, in a worker process under --timeout and --max-memory as
    ``convert`` does (in this process with both 0)."""
    from .isolate import PageJob, Worker, run_job

    limits = _limits(args)
    page = read_source(args.input, limits=limits, allow_private=args.allow_private)
    job = PageJob(page, table=args.table, method=getattr(args, "method", "auto"), format=args.format,
                  options={"command": command})
    if limits.timeout > 0 or limits.max_memory > 0:
        with Worker(limits) as worker:
            result = worker.run(job)
    else:
        result = run_job(job, limits)
    _write(None, result.payload)
    for warning in result.messages:
        print(warning, file=sys.stderr)
    return EXIT_OK


# -- headers ------------------------------------------------------------------------------------------------------
def _headers_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("input", metavar="INPUT",
                        help="an HTML file or http(s) URL, a grid document written by `pyxform grid`, or - for "
                             "standard input")
    parser.add_argument("--format", choices=("xml", "json"), default="xml",
                        help="xml: the grid with header annotations (docs/formats.md section 3); json: "
                             '{"tables": [{"index", "header_rows", "header_cols", "method"}]}')
    parser.add_argument("--table", type=_non_negative, metavar="N",
                        help="only the table with index N (0-based, document order, nested tables included)")
    parser.add_argument("--method", choices=("auto", "markup", "format"), default="auto",
                        help="auto (default): the markup (th, thead, scope, headers) where it marks something useful, "
                             "else formatting and content; markup: the markup only; format: formatting and content "
                             "only, as if the author had marked nothing")
    _limit_arguments(parser, worker=True)


def headers_output(page: Source, options: Mapping[str, Any], limits: Limits = DEFAULT_LIMITS
                   ) -> tuple[bytes, list[str]]:
    """Run ``pyxform headers`` on one page without writing anything (what its worker process runs).

    :param options: ``table`` (an index or ``None``), ``method`` (``auto``, ``markup``, ``format``), ``format``
        (``xml`` or ``json``).
    :returns: the bytes for standard output and the warning lines for standard error.
    :raises LimitExceeded, TableError: the page has tables and none could be normalized (:class:`LimitExceeded` when
        every one failed on a limit).
    :raises PyxformError: any error of :func:`pyxform.header_detection.headers`.
    """
    from .header_detection import headers

    source = page.uri
    result = headers(page, method=options.get("method", "auto"), table=options.get("table"), limits=limits)
    if not result.tables and result.failures:
        raise _every_table_failed(result.failures, source or None)
    text = (json.dumps(result.to_json(), ensure_ascii=False) if options.get("format") == "json"
            else result.to_xml().decode("utf-8"))
    warnings = [f"pyxform: warning [{failure.code}]: {source}: table {failure.index} ({failure.locator}): "
                f"{failure.message}" for failure in result.failures]  # tables normalize could not build
    warnings += [f"pyxform: warning: {source}: {warning}" for warning in result.warnings]
    return _text_output(text), warnings


def _run_headers(args: argparse.Namespace) -> int:
    return _run_page_command("headers", args)


# -- convert ------------------------------------------------------------------------------------------------------
def _convert_arguments(parser: argparse.ArgumentParser) -> None:
    from .convert import HEADER_METHODS, NAME_STYLES

    parser.description = (
        "Convert the tables of each page into XML (Zhang & Li 2007: Rule 1 and the merge rule). An input is an HTML "
        "file, an http(s) URL, '-' for standard input, or a grid document of `pyxform grid` or `pyxform headers`. "
        "With one input, "
        "-o names the output file (default: standard output); -o DIR/ (a trailing slash, or an existing folder) "
        "names a folder that receives NAME.xml (or NAME.jsonl, ...) for each input, created if missing. With several "
        "inputs -o is always a folder: a name ending in .xml, .json, .csv, .jsonl, .xhtml or .html, or an existing "
        "file, is refused. An output that is one of the inputs is refused before anything is read. Inputs are "
        "independent: when one fails the others go on, and the exit code is then 13. Output files are written "
        "atomically (an interrupted run leaves the old file or the new one); a device, named pipe or /dev/stdout is "
        "written to in place. Pages are converted in a worker process stopped after --timeout seconds or "
        "--max-memory MiB.")
    parser.add_argument("inputs", nargs="+", metavar="INPUT",
                        help="HTML file, http(s) URL, '-' (standard input) or annotated grid file")
    parser.add_argument("-o", "--output", metavar="OUT",
                        help="output file (one input), or folder: a name ending with / or an existing folder (always "
                             "with several inputs; created if missing)")
    parser.add_argument("--table", type=_non_negative, metavar="N",
                        help="convert table N alone (0-based, document order, nested tables counted); its element "
                             "becomes the document element")
    parser.add_argument("--format", choices=CONVERT_FORMATS, default="xml",
                        help="xml (default); pairs: one JSON object a line per data cell; json: the XML as nested "
                             "JSON; csv: one CSV file per table (header paths joined with --separator); xhtml: the "
                             "tables rendered back as accessible XHTML tables")
    parser.add_argument("--names", choices=NAME_STYLES, default="paper",
                        help="paper: elements named after the headers (default); generic: <field name='...'>")
    parser.add_argument("--method", choices=HEADER_METHODS, default="auto",
                        help="header detection: markup, format (formatting scores) or auto (default)")
    parser.add_argument("--schema", action="store_true",
                        help="also write an XSD for each XML output, beside it (OUT with the suffix .xsd)")
    parser.add_argument("--separator", default=DEFAULT_SEPARATOR, metavar="TEXT",
                        help=f"--format csv: joins the levels of a header path (default {DEFAULT_SEPARATOR!r})")
    parser.add_argument("--xslt", action="append", default=[], metavar="STYLESHEET",
                        help="an XSLT 3.0 stylesheet of yours run on the XML output (after merge; repeat for "
                             "several, in order); goes with --format xml or json")
    _pipeline_arguments(parser, steps="STEP.")
    parser.add_argument("--keep-stages", metavar="DIR",
                        help="write every stage's result into DIR (NN-STAGE.xml; DIR/NAME/ per input with several "
                             "inputs), for debugging a pipeline")
    parser.add_argument("--report", metavar="FILE",
                        help="write one JSON object a line per input, as each input finishes: input, status "
                             "(ok, partial: some tables failed, failed), output, tables, table_failures, seconds, "
                             "and for a failed input code, exit_code, message, location, limit")
    _limit_arguments(parser, worker=True)
    parser.set_defaults(parser=parser)


def _pipeline_arguments(parser: argparse.ArgumentParser, *, steps: str) -> None:
    """--param and --allow-io, shared by convert and transform."""
    qualified = (f" ({steps}NAME=VALUE: a parameter of that pipeline step, e.g. headers.threshold=4)"
                 if steps else "")
    parser.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                        help="a stylesheet parameter of your stylesheet(s); VALUE is cast to the parameter's declared "
                             f"type (xs:untypedAtomic, as Saxon's command line does){qualified}")
    parser.add_argument("--allow-io", action="store_true",
                        help="let your stylesheets read URIs (doc(), unparsed-text(), collection()); off by default: "
                             "every stylesheet runs with no file or network access")


def _parse_params(bindings: Sequence[str], step_names: Sequence[str], user_steps: Sequence[str]
                  ) -> dict[str, dict[str, Any]]:
    """``--param [STEP.]NAME=VALUE`` -> parameters by step name (values as :class:`~pyxform.saxon.UntypedAtomic`).
    An unqualified NAME goes to every user stylesheet (``user_steps``). The values are checked by
    :func:`_check_params`.

    :raises UsageError: a binding that is not NAME=VALUE, or that names no stylesheet.
    """
    from .saxon import UntypedAtomic

    params: dict[str, dict[str, Any]] = {}
    for binding in bindings:
        name, sep, value = binding.partition("=")
        if not sep or not name:
            raise UsageError(f"--param takes NAME=VALUE, not {binding!r}")
        step, dot, local = name.partition(".")
        if dot and step in step_names and local:
            params.setdefault(step, {})[local] = UntypedAtomic(value)
        elif user_steps:
            for user_step in user_steps:
                params.setdefault(user_step, {})[name] = UntypedAtomic(value)
        else:
            raise UsageError(f"--param {name}=...: no stylesheet of yours takes it; for a step of the pipeline "
                             f"write STEP.NAME=VALUE (steps: {', '.join(step_names)})")
    return params


def _check_params(pipeline: Any, params: Mapping[str, Mapping[str, Any]], bindings: Sequence[str]) -> list[str]:
    """Check the ``--param`` values as the Python API does (:func:`pyxform.params.check_params`: declared
    parameters, declared types, fixed sets of values of pyxform's steps).

    :returns: the warning lines for parameters your stylesheets do not declare (Saxon ignores them).
    :raises UsageError: naming the ``--param`` and what the parameter takes.
    """
    from .errors import ParameterError
    from .params import check_params

    try:
        _, found = check_params(pipeline.steps, params)
    except ParameterError as error:
        wanted = f"{error.step}.{error.parameter}"
        binding = next((b for b in reversed(bindings) if b.partition("=")[0] == wanted), f"{wanted}=...")
        raise UsageError(f"--param {binding}: {error.message}") from None
    lines = []
    for warning in found:
        qualified = f"{warning.step}.{warning.parameter}"
        binding = next((b for b in bindings if b.partition("=")[0] in (warning.parameter, qualified)),
                       f"{warning.parameter}=...")
        lines.append(f"pyxform: warning: --param {binding}: {warning.message}")
    return lines


def conversion_pipeline(options: Mapping[str, Any], param_warnings: list[str] | None = None
                        ) -> tuple[Any, dict[str, dict[str, Any]]]:
    """The pipeline ``convert`` runs (pyxform's, with the ``xslt`` steps after merge) and the ``param`` values.

    :param options: the convert options (:func:`convert_outputs`): ``xslt``, ``param``, ``allow_io``, ``format``.
    :param param_warnings: receives a warning line for each ``--param`` your stylesheets do not declare.
    :raises UsageError: options that do not go together, or a bad ``--param``.
    """
    from .pipeline import CONVERSION, Step

    xslt, allow_io = list(options.get("xslt") or []), bool(options.get("allow_io"))
    if xslt and options.get("format", "xml") not in ("xml", "json"):
        raise UsageError("--xslt post-processes the XML output: it goes with --format xml or json")
    if allow_io and not xslt:
        raise UsageError("--allow-io is for your own stylesheets (--xslt); pyxform's always run without I/O")
    user_steps = []
    for path in xslt:
        step = Step.xslt(path)
        taken = set(CONVERSION.names) | {s.name for s in user_steps}
        if step.name in taken:
            n = 2
            while f"{step.name}-{n}" in taken:
                n += 1
            step = Step.xslt(path, name=f"{step.name}-{n}")
        user_steps.append(step)
    chosen = CONVERSION.append(*user_steps)
    if allow_io:
        chosen = chosen.allowing_io()
    bindings = options.get("param") or []
    params = _parse_params(bindings, chosen.names, [step.name for step in user_steps])
    if params:
        found = _check_params(chosen, params, bindings)
        if param_warnings is not None:
            param_warnings.extend(found)
    return chosen, params


def convert_outputs(page: Source, options: Mapping[str, Any], limits: Limits = DEFAULT_LIMITS
                    ) -> tuple[list[tuple[str | None, bytes]], bytes | None, Any]:
    """Convert one page as ``pyxform convert`` does, without writing anything (what its worker process runs).

    :param page: the page (or a grid document).
    :param options: ``table``, ``names``, ``method``, ``format`` (``xml``, ``pairs``, ``json``, ``csv``, ``xhtml``),
        ``separator``, ``xslt`` (stylesheet paths), ``param`` (``[STEP.]NAME=VALUE`` strings), ``allow_io``,
        ``keep_stages`` (a folder), ``schema`` (bool), ``target`` (the output path, ``None`` for standard output).
    :returns: the outputs as ``(path or None for standard output, bytes)`` (one per table for csv), the XSD of the
        output if ``schema``, and the :class:`~pyxform.convert.Conversion`.
    :raises EmptyInput: the page has no bytes or only white space.
    :raises UsageError: csv to standard output of a page with several tables, or options that do not go together.
    :raises PyxformError: any error of the conversion.
    """
    from .convert import convert, convert_grid
    from .header_detection import looks_like_grid_document

    if not page.data.strip():
        raise EmptyInput("the page holds only white space" if page.data else "the page is empty",
                         location=page.uri or None)
    pipeline, params = conversion_pipeline(options)
    keep_stages = options.get("keep_stages")
    kwargs = {"table": options.get("table"), "names": options.get("names", "paper"),
              "method": options.get("method", "auto"), "pipeline": pipeline, "params": params,
              "keep_stages": Path(keep_stages) if keep_stages else None}
    if looks_like_grid_document(page.data):  # a broken one is refused as XML (bad-xml), not read as a page
        conversion = convert_grid(page.data, source=page.uri, **kwargs)
    else:
        conversion = convert(page, limits=limits, **kwargs)
    target, output_format = options.get("target"), options.get("format", "xml")
    separator = options.get("separator", DEFAULT_SEPARATOR)
    if output_format == "csv":
        tables = conversion.tables()
        if target is None or writes_in_place(target):  # one stream: room for one table
            if len(tables) > 1:
                where = "" if target is None else f" (-o {target} is not a regular file: one stream, not a file each)"
                raise UsageError(f"the page has {len(tables)} tables ({', '.join(str(t.index) for t in tables)})"
                                 f"{where}: write them with -o OUT.csv (one file per table) or choose one with "
                                 "--table N")
            outputs = [(target, table.to_csv(separator).encode("utf-8")) for table in tables]
        else:
            paths = csv_paths(str(target), [table.index for table in tables])
            outputs = [(paths[table.index], table.to_csv(separator).encode("utf-8")) for table in tables]
    else:
        render = {"xml": conversion.to_bytes, "pairs": lambda: conversion.pairs_jsonl().encode("utf-8"),
                  "json": lambda: conversion.to_json().encode("utf-8"),
                  "xhtml": lambda: conversion.to_xhtml().encode("utf-8")}[output_format]
        outputs = [(target, render())]
    schema = conversion.schema().encode("utf-8") if options.get("schema") else None
    return outputs, schema, conversion


def _output_paths(inputs: Sequence[str], folder: Path, suffix: str) -> list[Path]:
    """One output file per input in ``folder``, named after the input (``-2``, ``-3`` ... for repeated names)."""
    taken: set[str] = set()
    paths = []
    for name in inputs:
        stem = "stdin" if name == "-" else Path(name.split("?")[0].rstrip("/")).stem or "page"
        candidate, n = stem, 1
        while candidate in taken:
            n += 1
            candidate = f"{stem}-{n}"
        taken.add(candidate)
        paths.append(folder / (candidate + suffix))
    return paths


def _write(target: Path | None, data: bytes) -> None:
    """Write an output atomically (or to standard output).

    :raises OutputError: the file or standard output cannot be written (disk full, no permission, ...).
    """
    try:
        if target is None:
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()
        else:
            atomic_write(target, data)
    except BrokenPipeError:
        raise
    except OSError as error:
        where = str(target) if target is not None else "standard output"
        replaced = target is not None and target.is_file() and not writes_in_place(target)
        raise OutputError(f"cannot write the output: {error.strerror or error}"
                          + (" (the old file is intact)" if replaced else ""), location=where) from None


# -- output targets -------------------------------------------------------------------------------------------------
def _output_folder(output: str | None, several: bool) -> Path | None:
    """The folder ``convert -o OUTPUT`` names, or ``None`` when it names one file (or standard output, ``-``).

    ``OUTPUT`` is a folder when it ends with a slash or is an existing folder (one file per input is written into
    it, ``NAME.xml``; it is created if missing), also with one input. With several inputs any other ``OUTPUT`` is a
    folder too (created), unless it exists and is not a folder, or ends with a file suffix (:data:`FILE_SUFFIXES`).

    :raises UsageError: several inputs and an ``OUTPUT`` that names one file.
    """
    if not output or output == "-":
        return None
    path = Path(output)
    if output.endswith(("/", os.sep)) or path.is_dir():
        return path
    if not several:
        return None
    if os.path.lexists(output):
        raise UsageError(f"several inputs write one output each: -o {output} is a file, not a folder; give a folder "
                         "(-o DIR/)")
    if path.suffix.lower() in FILE_SUFFIXES:
        raise UsageError(f"several inputs write one output each: -o {output} names a file (its suffix is "
                         f"{path.suffix}); give a folder (-o DIR/, created if missing)")
    return path


def _file_identity(path: str | os.PathLike[str]) -> tuple[int, int] | None:
    """``(device, inode)`` of the regular file ``path`` names (symbolic links followed), or ``None`` if it names no
    regular file."""
    try:
        status = os.stat(path)
    except (OSError, ValueError):
        return None
    return (status.st_dev, status.st_ino) if stat.S_ISREG(status.st_mode) else None


def _is_file_input(name: str) -> bool:
    """Whether the input ``name`` is read from the file system (not ``-`` nor a URL)."""
    return name != "-" and not re.match(r"^[A-Za-z][A-Za-z0-9+.-]*://", name)


def _refuse_inputs_as_outputs(inputs: Sequence[str], outputs: Sequence[tuple[str, Path]],
                              patterns: Sequence[tuple[str, Path, re.Pattern[str]]] = ()) -> None:
    """Refuse, before anything is read or written, an output that is the same file as an input: writing it would
    destroy the input (before it is read, or for the next run). Inputs that are not regular files (``-``, URLs,
    devices, pipes) are not compared.

    :param outputs: ``(what, path)``: each output file, named by the option that gives it (``-o``, ``--report``).
    :param patterns: ``(what, folder, name pattern)``: outputs whose names are known only when they are written
        (``OUT-3.csv``, the ``--keep-stages`` files); every file of ``folder`` whose name matches counts.
    :raises OutputError: naming the output and the input.
    """
    identities = {}
    for name in inputs:
        identity = _file_identity(name) if _is_file_input(name) else None
        if identity is not None:
            identities.setdefault(identity, name)
    if not identities:
        return
    for what, path in outputs:
        name = identities.get(_file_identity(path))  # type: ignore[arg-type]
        if name is not None:
            raise _overwrites_input(what, path, name)
    by_folder: dict[str, list[tuple[str, re.Pattern[str]]]] = {}
    for what, folder, pattern in patterns:
        by_folder.setdefault(os.path.abspath(folder), []).append((what, pattern))
    inodes = {inode for _, inode in identities}
    for folder_name, checks in by_folder.items():  # each folder read once; only files that may be an input stat'ed
        try:
            entries = list(os.scandir(folder_name))
        except OSError:
            continue
        for entry in entries:
            try:
                if not (entry.is_symlink() or entry.inode() in inodes):
                    continue
            except OSError:
                continue
            name = identities.get(_file_identity(entry.path))  # type: ignore[arg-type]
            if name is None:
                continue
            for what, pattern in checks:
                if pattern.fullmatch(entry.name):
                    raise _overwrites_input(what, Path(entry.path), name)


def _overwrites_input(what: str, path: Path, name: str) -> OutputError:
    output = f"{what} {path}" if what else f"the output {path}"
    same = (f"{output} is the input {name}" if os.path.abspath(path) == os.path.abspath(name) else
            f"{output} is the input {name} (the same file)")
    return OutputError(f"{same}: writing it would destroy the input; give another output")


def _csv_pattern(target: Path) -> re.Pattern[str]:
    """The names :func:`pyxform.tabular.csv_paths` gives the tables of a page written to ``target`` (``OUT-N.csv``)."""
    example = Path(csv_paths(str(target), [0, 1])[1]).name
    stem, _, suffix = example.rpartition("-1.")
    return re.compile(re.escape(stem) + r"-[0-9]+\." + re.escape(suffix))


def _prepare_stage_folders(folder: Path, subfolders: Sequence[Path]) -> None:
    """Create the ``--keep-stages`` folder and check that files can be written into it (and that no file stands
    where a per-input sub-folder goes), before any page is read.

    :raises OutputError: naming the folder.
    """
    if os.path.lexists(folder) and not folder.is_dir():
        raise OutputError("--keep-stages needs a folder: this is a file", location=str(folder))
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle, probe = tempfile.mkstemp(dir=folder, prefix=f".keep-stages.pyxform-{os.getpid()}-", suffix=".tmp")
        os.close(handle)
        os.unlink(probe)
    except OSError as error:
        raise OutputError(f"cannot write into the --keep-stages folder: {error.strerror or error}",
                          location=str(folder)) from None
    for subfolder in subfolders:
        if os.path.lexists(subfolder) and not subfolder.is_dir():
            raise OutputError("--keep-stages: a file stands where this input's folder of stages goes",
                              location=str(subfolder))


def _every_table_failed(failures: Sequence[Any], location: str | None) -> PyxformError:
    """The error of a page that has tables none of which could be converted (``failures``: objects with ``index``,
    ``code``, ``message``): :class:`LimitExceeded` when every table failed on a limit (exit code 7), else
    :class:`TableError` (exit code 9)."""
    count = len(failures)
    listed = "; ".join(f"table {failure.index}: {failure.message}" for failure in failures[:3])
    message = (f"no table of the page could be converted ({count} table{'s' if count != 1 else ''} failed): "
               f"{listed}{'; ...' if count > 3 else ''}")
    if all(failure.code == "limit" for failure in failures):
        named = re.search(r"\b(max_[a-z_]+)\b", failures[0].message)
        limit = named.group(1) if named else "max_slots"
        if limit in LIMIT_OPTIONS and "raise it with" not in message:
            message += f" (raise it with {LIMIT_OPTIONS[limit]})"
        return LimitExceeded(message, limit=limit, location=location)
    return TableError(message, location=location)


def _run_convert(args: argparse.Namespace) -> int:
    from .saxon_environment import environment_allowed

    with environment_allowed(args.allow_io):  # your stylesheets may read environment variables (in the worker too)
        return _convert_inputs(args)


def _convert_inputs(args: argparse.Namespace) -> int:
    from .isolate import PageJob, Worker, run_job

    several = len(args.inputs) > 1
    if args.schema and args.format != "xml":
        args.parser.error("--schema goes with --format xml")
    if args.schema and (not args.output or args.output == "-"):
        args.parser.error("--schema needs -o (the schema is written beside the output)")
    if several and (not args.output or args.output == "-"):
        args.parser.error("several inputs need -o FOLDER")
    options = {"table": args.table, "names": args.names, "method": args.method, "format": args.format,
               "separator": args.separator,
               "xslt": [str(Path(_local_file(path, "convert --xslt", "a stylesheet")).resolve()) for path in args.xslt],
               "param": list(args.param), "allow_io": args.allow_io, "schema": args.schema}
    param_warnings: list[str] = []
    pipeline, _ = conversion_pipeline(options, param_warnings)  # usage errors before any page is read
    for warning in param_warnings:
        print(warning, file=sys.stderr)
    folder = _output_folder(args.output, several)
    targets: list[Path | None]
    if folder is not None:
        targets = list(_output_paths(args.inputs, folder, OUTPUT_SUFFIXES[args.format]))
    else:
        targets = [Path(args.output) if args.output and args.output != "-" else None]
    if args.schema and targets[0] is not None and writes_in_place(targets[0]):
        args.parser.error(f"--schema writes the schema beside the output, and {args.output} is not a regular file: "
                          "give -o FILE or -o FOLDER/")
    stages: list[Path | None] = [None] * len(targets)
    stage_folder = Path(args.keep_stages).resolve() if args.keep_stages else None
    if stage_folder is not None:
        stages = ([stage_folder / path.name for path in _output_paths(args.inputs, Path(), "")]
                  if several else [stage_folder])
    _refuse_inputs_as_outputs(args.inputs, *_convert_output_files(args, targets, stages, pipeline))
    if stage_folder is not None:
        _prepare_stage_folders(stage_folder, [path for path in stages if path is not None and path != stage_folder])
    if folder is not None:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise OutputError(f"cannot create the output folder: {error.strerror or error}",
                              location=str(folder)) from None
    limits = _limits(args)
    isolated = limits.timeout > 0 or limits.max_memory > 0
    report = _open_report(args.report)
    records: list[dict[str, Any]] = []
    worker = Worker(limits) if isolated else None
    try:
        for name, target, keep_stages in zip(args.inputs, targets, stages):
            record: dict[str, Any] = {"input": name, "status": "failed", "output": None}
            try:
                page = read_source(name, limits=limits, allow_private=args.allow_private)
                job = PageJob(page, options={**options, "target": str(target) if target is not None else None,
                                             "keep_stages": str(keep_stages) if keep_stages is not None else None})
                result = worker.run(job) if worker is not None else run_job(job, limits)
                if result.tables == 0 and result.table_failures:  # tables, and none converted: the page failed
                    for message in result.messages:
                        print(_warning_line(name, message), file=sys.stderr)
                    raise _every_table_failed(result.table_failures, name)
                for path, payload in result.outputs:
                    _write(Path(path) if path is not None else None, payload)
                if result.schema is not None and target is not None:
                    _write(target.with_suffix(".xsd"), result.schema)
                for message in result.messages:
                    print(_warning_line(name, message), file=sys.stderr)
                written = [path or "-" for path, _ in result.outputs]
                record.update(status="partial" if result.table_failures else "ok",
                              output=written[0] if len(written) == 1 else written, tables=result.tables,
                              table_failures=[{"index": f.index, "code": f.code, "message": f.message}
                                              for f in result.table_failures],
                              seconds=round(result.seconds, 3))
            except (BrokenPipeError, UsageError):
                raise
            except Exception as error:  # one bad input never stops the batch
                _report_any(error, name)
                record.update(_failure_record(error))
            records.append(record)
            if report is not None:
                report.write(json.dumps(record, ensure_ascii=False) + "\n")
                report.flush()
    finally:
        if worker is not None:
            worker.close()
        if report is not None:
            report.close()
    failed = [record for record in records if record["status"] == "failed"]
    if several:
        _print_summary(records)
    if not failed:
        return EXIT_OK
    return EXIT_PARTIAL_FAILURE if several else int(failed[0]["exit_code"])


def _convert_output_files(args: argparse.Namespace, targets: Sequence[Path | None], stages: Sequence[Path | None],
                          pipeline: Any) -> tuple[list[tuple[str, Path]], list[tuple[str, Path, re.Pattern[str]]]]:
    """The files ``convert`` may write, for :func:`_refuse_inputs_as_outputs`: each output (and its CSV files per
    table, its XSD), the report, and the ``--keep-stages`` files (``NN-STEP.xml``)."""
    outputs: list[tuple[str, Path]] = []
    patterns: list[tuple[str, Path, re.Pattern[str]]] = []
    for target in targets:
        if target is None:
            continue
        outputs.append(("-o", target))
        if args.format == "csv":
            patterns.append(("-o", target.parent, _csv_pattern(target)))
        if args.schema:
            outputs.append(("--schema", target.with_suffix(".xsd")))
    if args.report:
        outputs.append(("--report", Path(args.report)))
    names = "|".join(f"{position:02d}-{re.escape(name)}" for position, name in enumerate(pipeline.names))
    stage_names = re.compile(rf"(?:{names})\.(?:xhtml|xml|txt)")
    patterns += [("--keep-stages", folder, stage_names) for folder in stages if folder is not None]
    return outputs, patterns


def _open_report(path: str | None) -> Any:
    if path is None:
        return None
    try:
        return open(path, "w", encoding="utf-8")
    except OSError as error:
        raise OutputError(f"cannot write the report: {error.strerror or error}", location=path) from None


def _failure_record(error: BaseException) -> dict[str, Any]:
    if isinstance(error, PyxformError):
        record: dict[str, Any] = {"code": error.code, "exit_code": error.exit_code,
                                  "message": command_line_message(error.message),
                                  "location": error.location}
        if isinstance(error, LimitExceeded):
            record["limit"] = error.limit
        return record
    return {"code": "internal", "exit_code": EXIT_INTERNAL, "message": f"{type(error).__name__}: {error}",
            "location": None}


def _print_summary(records: Sequence[dict[str, Any]]) -> None:
    """On stderr: ``pyxform: F of N inputs failed (CODE: n, ...): NAME, ...; C converted (P with failed tables)``."""
    failed = [r for r in records if r["status"] == "failed"]
    converted = len(records) - len(failed)
    partial = sum(1 for r in records if r["status"] == "partial")
    done = f"{converted} converted" + (f" ({partial} with failed tables)" if partial else "")
    if not failed:
        print(f"pyxform: {len(records)} inputs: {done}", file=sys.stderr)
        return
    reasons: dict[str, int] = {}
    for record in failed:
        reason = record["code"] + (f" {record['limit']}" if record.get("limit") else "")
        reasons[reason] = reasons.get(reason, 0) + 1
    print(f"pyxform: {len(failed)} of {len(records)} inputs failed ("
          + ", ".join(f"{reason}: {count}" for reason, count in sorted(reasons.items())) + "): "
          + ", ".join(r["input"] for r in failed) + f"; {done}", file=sys.stderr)


def _report_any(error: BaseException, where: str) -> None:
    """Report an error of one input of a batch: pyxform's own errors as usual, anything else as a bug."""
    if isinstance(error, PyxformError):
        if not error.location:
            error.location = where
        report_error(error)
    else:
        print(f"pyxform: internal error: {where}: {type(error).__name__}: {error} (please report this)",
              file=sys.stderr)


# -- transform ----------------------------------------------------------------------------------------------------
def _transform_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Run an XSLT 3.0 stylesheet with Saxon-HE on an XML document. The result is written as the stylesheet's "
        "xsl:output says (XML, HTML, text, JSON); xsl:message output goes to standard error; an error shows the "
        "stylesheet file, line and column, and Saxon's error code. The stylesheet may xsl:import pyxform's own "
        "modules by their public URIs (https://pyxform.invalid/stylesheets/..., resolved offline by pyxform's XML "
        "catalog). It reads no URI while it runs unless --allow-io is given.")
    parser.add_argument("stylesheet", metavar="STYLESHEET", help="an XSLT 3.0 stylesheet file")
    parser.add_argument("input", metavar="INPUT", help="an XML file, an http(s) URL, or - for standard input")
    parser.add_argument("-o", "--output", metavar="OUT", help="output file (default: standard output)")
    _pipeline_arguments(parser, steps="")
    parser.set_defaults(parser=parser)


def _run_transform(args: argparse.Namespace) -> int:
    from .pipeline import Pipeline, Step

    from .saxon_environment import environment_allowed

    step = Step.xslt(_local_file(args.stylesheet, "transform", "the stylesheet"))
    pipeline = Pipeline([step], allow_io=args.allow_io)
    params = _parse_params(args.param, [], [step.name])
    for warning in _check_params(pipeline, params, args.param):
        print(warning, file=sys.stderr)
    if args.output and args.output != "-":
        _refuse_inputs_as_outputs([args.stylesheet, args.input], [("-o", Path(args.output))])
    document = read_source(args.input)
    messages: list[Any] = []
    try:
        with environment_allowed(args.allow_io):  # environment-variable() too, as with Saxon's own command line
            result = pipeline.run(document.data, params=params, serialize=True, source=document.uri or args.input,
                                  messages=messages)
    finally:
        for message in messages:
            print(message.text, file=sys.stderr)
    if args.output and args.output != "-":
        _write(Path(args.output), result.to_bytes())
    else:
        write_output(result.text)
    return EXIT_OK


# -- schema, validate ---------------------------------------------------------------------------------------------
def _schema_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Write an XSD 1.0 schema generated for a pyxform output file: element names, nesting, repeated elements, "
        "simple types inferred where a column is consistently integer, decimal or date.")
    parser.add_argument("document", metavar="OUT.xml")
    parser.add_argument("-o", "--output", metavar="S.xsd",
                        help="where to write the schema (default: OUT.xsd beside the document; - for standard output)")


def _run_schema(args: argparse.Namespace) -> int:
    from .schema import generate_schema

    document = _input_file(args.document, "schema")
    target = None if args.output == "-" else Path(args.output) if args.output else document.with_suffix(".xsd")
    if target is not None:
        _refuse_inputs_as_outputs([args.document], [("-o" if args.output else "", target)])
    xsd = generate_schema(document)
    if target is None:
        write_output(xsd)
    else:
        _write(target, xsd.encode("utf-8"))
    return EXIT_OK


def _local_file(name: str, command: str, what: str) -> str:
    """``name``, an argument that must be a local file or folder: standard input (``-``) and URLs are refused by
    name rather than looked up as files.

    :param what: what the argument is, for the message (``the stylesheet``, ``the document``).
    :raises InputError: ``name`` is ``-`` or a URL.
    """
    from .source import looks_like_url

    if name == "-":
        raise InputError(f"`pyxform {command}` does not read {what} from standard input: give a file", location="-")
    if looks_like_url(name):
        raise InputError(f"`pyxform {command}` does not read {what} from a URL: download it and give the file",
                         location=name)
    return name


def _input_file(name: str, command: str, what: str = "the document") -> Path:
    """The path of an input file that must exist (``schema``, ``validate``).

    :raises InputError: standard input or a URL (:func:`_local_file`).
    :raises InputNotFound: no such file, or a directory (the wording of :func:`pyxform.source.read_source`).
    """
    path = Path(_local_file(name, command, what))
    if path.is_dir():
        raise InputNotFound("is a directory, not a file", location=name)
    if not path.is_file():
        raise InputNotFound("no such file", location=name)
    return path


def _validate_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Validate an XML file against an XSD 1.0 schema; errors are printed as FILE:LINE: message (exit code 11). "
        "The schema is --schema S.xsd, else OUT.xsd beside the document; without either the command refuses (exit "
        "code 3) unless --generated-schema asks to validate against a schema generated from the document itself "
        "(which only checks that it is well-formed and that pyxform's schema generator covers it).")
    parser.add_argument("document", metavar="OUT.xml")
    schema = parser.add_mutually_exclusive_group()
    schema.add_argument("--schema", metavar="S.xsd", help="the schema (default: OUT.xsd beside the document)")
    schema.add_argument("--generated-schema", action="store_true",
                        help="validate against a schema generated from the document (a weak check: such a schema "
                             "fits the document by construction)")


def _run_validate(args: argparse.Namespace) -> int:
    from .schema import validate

    document = _input_file(args.document, "validate")
    schema: Path | None = None
    if args.schema:
        schema = _input_file(args.schema, "validate", "the schema")
    elif not args.generated_schema:
        schema = document.with_suffix(".xsd")
        if not schema.is_file():
            raise InputNotFound(f"no schema to validate {args.document} against: give --schema S.xsd, write one with "
                                f"`pyxform schema {args.document}` (or `convert --schema`), or ask for "
                                "--generated-schema (a schema generated from the document: it checks only that the "
                                "document is well-formed and that the generator covers it)", location=str(schema))
    try:
        validate(document, schema)
    except ValidationError as error:
        report_error(error)
        for line, message in error.errors:
            print(f"{error.location or args.document}:{line if line else '?'}: {message}", file=sys.stderr)
        return error.exit_code
    write_output(f"{args.document}: valid against {schema}" if schema is not None else
                 f"{args.document}: valid against a schema generated from it (--generated-schema: this checks that it "
                 "is well-formed and that the generator covers it, not its data against an independent schema)")
    return EXIT_OK


# -- query --------------------------------------------------------------------------------------------------------
def _query_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Evaluate an XPath 3.1 (or XQuery 3.1) expression with Saxon-HE over one XML file (the context item) or a "
        "folder of .xml files (collection() and $collection; no context item). Expressions cannot open URIs. "
        "Prints one item a line: nodes as XML, atomic values as text. A file of a folder that cannot be read is "
        "skipped with a warning naming it and its line; the query runs over the others and the exit code is 13.")
    parser.add_argument("target", metavar="TARGET", help="an XML file or a folder of .xml files")
    parser.add_argument("expression", metavar="EXPR")
    parser.add_argument("--xquery", action="store_true", help="EXPR is XQuery 3.1 (default: XPath 3.1)")
    parser.add_argument("--text", action="store_true", help="print string values only, also of nodes")
    parser.add_argument("--ns", action="append", default=[], metavar="PREFIX=URI",
                        help="bind a namespace prefix (px is bound to urn:pyxform)")
    parser.set_defaults(parser=parser)


def _run_query(args: argparse.Namespace) -> int:
    from .query import query

    namespaces = {}
    for binding in args.ns:
        prefix, sep, uri = binding.partition("=")
        if not sep or not prefix:
            args.parser.error(f"--ns takes PREFIX=URI, not {binding!r}")
        namespaces[prefix] = uri
    result = query(_local_file(args.target, "query", "XML documents"), args.expression, xquery=args.xquery,
                   namespaces=namespaces)
    for skipped in result.skipped:
        print(f"pyxform: warning [query]: {skipped.path}: skipped: {skipped.message}", file=sys.stderr)
    for line in result.lines(text=args.text):
        write_output(line)
    if result.skipped:
        print(f"pyxform: {len(result.skipped)} file(s) of {args.target} skipped; the result is over the others",
              file=sys.stderr)
        return EXIT_PARTIAL_FAILURE
    return EXIT_OK


COMMANDS: tuple[Command, ...] = (
    Command("grid", "normalize every table of a page into a dense grid (WHATWG table model)", _grid_arguments,
            _run_grid),
    Command("headers", "find each table's header rows and columns (k, p) and the header cells of every data cell",
            _headers_arguments, _run_headers),
    Command("convert", "convert the tables of pages into XML (or pairs, JSON, CSV, XHTML)", _convert_arguments,
            _run_convert),
    Command("schema", "generate an XSD for a convert output", _schema_arguments, _run_schema),
    Command("validate", "validate an XML file against an XSD, with line-numbered errors", _validate_arguments,
            _run_validate),
    Command("query", "XPath 3.1 / XQuery 3.1 over output files", _query_arguments, _run_query),
    Command("transform", "run any XSLT 3.0 stylesheet on an XML document (Saxon-HE)", _transform_arguments,
            _run_transform),
    Command("crawl", "a focused crawler: gather a topic's pages (SQLite, WARC) and convert their tables as they arrive",
            lambda parser: _crawl_command().add_arguments(parser), lambda args: _run_crawl(args)),
)


def _crawl_command() -> Any:
    """``pyxform crawl``'s arguments and run (in the crawl wing until the CLI becomes a package, issue 12)."""
    from .wings.crawl import _command

    return _command


def _run_crawl(args: argparse.Namespace) -> int:
    try:
        return int(_crawl_command().run(args))
    except ValueError as error:  # a bad setting: a usage error
        raise UsageError(str(error)) from None


# -- main ---------------------------------------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    """The argument parser with one sub-parser per command of :data:`COMMANDS`."""
    parser = argparse.ArgumentParser(prog="pyxform",
                                     description="Turn the tables of web pages into clean, queryable XML.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in COMMANDS:
        sub = commands.add_parser(command.name, help=command.help, description=command.help)
        command.add_arguments(sub)
        sub.set_defaults(run=command.run)
    return parser


#: The Python API's words for raising a limit or allowing private addresses (in the messages of pyxform's errors),
#: and the option that does it on the command line.
OPTION_FOR_KEYWORD: dict[str, str] = {
    **{limit_keyword(limit): option for limit, option in LIMIT_OPTIONS.items() if option.startswith("--")},
    "allow_private=True": "--allow-private",
}


def command_line_message(message: str) -> str:
    """An error message in the command line's words: ``raise it with limits=Limits(max_slots=...)`` becomes
    ``raise it with --max-slots`` (:data:`OPTION_FOR_KEYWORD`)."""
    for keyword, option in OPTION_FOR_KEYWORD.items():
        if keyword in message:
            message = message.replace(keyword, option)
    return message


def report_error(error: PyxformError) -> None:
    """Print ``pyxform: error [code]: location: message`` on standard error (``[xslt XTDE0640]``: with Saxon's
    error code for a stylesheet error), in the command line's words (:func:`command_line_message`)."""
    location = f"{error.location}: " if error.location else ""
    detail = getattr(error, "error_code", None)
    code = f"{error.code} {detail}" if detail else error.code
    print(f"pyxform: error [{code}]: {location}{command_line_message(error.message)}", file=sys.stderr)


def _exit_on_sigterm() -> bool:
    """Turn SIGTERM into ``SystemExit(143)`` so that ``finally`` blocks run (an output being written removes its
    temporary file, the worker process is ended); only where SIGTERM has its default action, in the main thread.
    Returns whether the handler was installed (:func:`main` puts the default back when it returns)."""
    if threading.current_thread() is not threading.main_thread():
        return False
    if signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        return False
    signal.signal(signal.SIGTERM, _raise_exit)
    return True


def _raise_exit(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (the ``pyxform`` script passes it to ``sys.exit``)."""
    args = build_parser().parse_args(argv)
    sigterm_handled = _exit_on_sigterm()
    try:
        return _run(args)
    finally:
        if sigterm_handled:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _run(args: argparse.Namespace) -> int:
    from .params import ParameterWarning

    try:
        with warnings.catch_warnings():  # shown as pyxform's own warnings, once, before any input is read
            warnings.simplefilter("ignore", ParameterWarning)
            return int(args.run(args))
    except UsageError as error:
        args.parser.error(str(error))
        return EXIT_USAGE  # not reached: argparse exits
    except PyxformError as error:
        report_error(error)
        return error.exit_code
    except BrokenPipeError:  # e.g. piped into head: not an error of ours
        sys.stderr.close()
        return EXIT_OK
    except KeyboardInterrupt:
        return 130
    except Exception as error:  # a bug: say so, with what is known
        print(f"pyxform: internal error: {type(error).__name__}: {error} (please report this)", file=sys.stderr)
        return EXIT_INTERNAL

