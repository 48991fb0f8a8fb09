"""The page verbs: ``pyxform grid``, ``pyxform headers``, ``pyxform convert`` (docs/pages.md).

Each page runs as a job of :mod:`pyxform.jobs` (in the isolated worker under ``--timeout`` and ``--max-memory``, in
this process with both 0); this module turns the arguments into :class:`~pyxform.jobs.PageOptions`, checks the
outputs before any page is read, and prints what the jobs give.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..base.errors import EXIT_PARTIAL_FAILURE, InternalError, OutputError, UsageError
from ..base.files import writes_in_place
from ..base.source import read_source
from ..jobs import PageOptions, page_runner, run_inputs
from ..jobs.options import CONVERT_FORMATS, PAGE_FORMATS, conversion_pipeline
from ..jobs.outputs import (OUTPUT_SUFFIXES, csv_pattern, output_folder, output_paths, prepare_stage_folders,
                            refuse_colliding_outputs, refuse_inputs_as_outputs, write_file)
from ..jobs.reports import open_report, summary
from ..stages.headers import METHODS
from ..stages.tabular import DEFAULT_SEPARATOR
from .common import (EXIT_OK, Command, command_line_message, limit_arguments, limits_of, local_file, table_index,
                     pipeline_arguments, report_error, report_internal, report_warnings)

__all__ = ["GRID", "HEADERS", "CONVERT", "conversion_arguments", "separator_of"]

_TABLE_HELP = "only the table with index N (0-based, document order, nested tables included)"


# -- grid, headers ----------------------------------------------------------------------------------------------------
def _grid_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("input", metavar="INPUT", help="an HTML file, an http(s) URL, or - for standard input")
    parser.add_argument("--format", choices=PAGE_FORMATS, default="xml",
                        help="xml: the grid document (docs/formats.md section 2); json: "
                             '{"tables": [{"index", "rows", "cols", "grid": [[{"text", "tag", "origin"}]]}]}')
    parser.add_argument("--table", type=table_index, metavar="N", help=_TABLE_HELP)
    _no_output_argument(parser)
    limit_arguments(parser, worker=True)


def _headers_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("input", metavar="INPUT",
                        help="an HTML file or http(s) URL, a grid document written by `pyxform grid`, or - for "
                             "standard input")
    parser.add_argument("--format", choices=PAGE_FORMATS, default="xml",
                        help="xml: the grid with header annotations (docs/formats.md section 3); json: "
                             '{"tables": [{"index", "header_rows", "header_cols", "method"}]}')
    parser.add_argument("--table", type=table_index, metavar="N", help=_TABLE_HELP)
    parser.add_argument("--method", choices=METHODS, default="auto",
                        help="auto (default): the markup (th, thead, scope, headers) where it marks something useful, "
                             "else formatting and content; markup: the markup only; format: formatting and content "
                             "only, as if the author had marked nothing")
    _no_output_argument(parser)
    limit_arguments(parser, worker=True)


def _no_output_argument(parser: argparse.ArgumentParser) -> None:
    """``-o``, which ``grid`` and ``headers`` refuse with one line saying what to do (they write to standard
    output)."""
    parser.add_argument("-o", "--output", help=argparse.SUPPRESS)


def _run_page_command(command: str, args: argparse.Namespace) -> int:
    """Run ``grid`` or ``headers`` on one input, in a worker process under --timeout and --max-memory as
    ``convert`` does (in this process with both 0)."""
    if args.output is not None:
        raise UsageError(f"`pyxform {command}` writes to standard output and takes no -o: redirect it instead "
                         f"(pyxform {command} {args.input} > {args.output})")
    limits = limits_of(args)
    page = read_source(args.input, limits=limits, allow_private=args.allow_private)
    options = PageOptions(command=command, table=args.table, method=getattr(args, "method", "auto"),  # type: ignore[arg-type]
                          format=args.format, limits=limits)
    with page_runner(limits) as run:
        result = run(page, options)
    if result.error is not None:
        if result.table_failures:  # the page's tables all failed: each is said, then the page's error
            report_warnings(result.source, result.table_failures, result.messages)
        raise result.error
    write_file(None, result.payload, sys.stdout.buffer)
    report_warnings(result.source, result.table_failures, result.messages)  # the other tables were written
    return EXIT_OK


def _run_grid(args: argparse.Namespace) -> int:
    return _run_page_command("grid", args)


def _run_headers(args: argparse.Namespace) -> int:
    return _run_page_command("headers", args)


# -- convert ----------------------------------------------------------------------------------------------------------
def conversion_arguments(parser: argparse.ArgumentParser) -> None:
    """The options that decide what ``convert`` makes of each page (``--table``, ``--format``, ``--names``,
    ``--method``, ``--schema``, ``--separator``, ``--xslt``, ``--param``, ``--allow-io``): shared with ``batch``."""
    from ..api.convert import NAME_STYLES

    parser.add_argument("--table", type=table_index, metavar="N",
                        help="convert table N alone (0-based, document order, nested tables counted); its element "
                             "becomes the document element")
    parser.add_argument("--format", choices=CONVERT_FORMATS, default="xml",
                        help="xml (default); pairs: one JSON object a line per data cell; json: the XML as nested "
                             "JSON; csv: one CSV file per table (header paths joined with --separator); xhtml: the "
                             "tables rendered back as accessible XHTML tables")
    parser.add_argument("--names", choices=NAME_STYLES, default="paper",
                        help="paper: elements named after the headers (default); generic: <field name='...'>")
    parser.add_argument("--method", choices=METHODS, default="auto",
                        help="header detection: markup, format (formatting scores) or auto (default)")
    parser.add_argument("--schema", action="store_true",
                        help="also write an XSD for each XML output, beside it (OUT with the suffix .xsd)")
    parser.add_argument("--separator", metavar="TEXT",
                        help=f"--format csv: joins the levels of a header path (default {DEFAULT_SEPARATOR!r})")
    parser.add_argument("--xslt", action="append", default=[], metavar="STYLESHEET",
                        help="an XSLT 3.0 stylesheet of yours run on the XML output (after merge; repeat for "
                             "several, in order); goes with --format xml or json")
    pipeline_arguments(parser, steps="STEP.")


def separator_of(args: argparse.Namespace) -> str:
    """``--separator``, which goes with ``--format csv`` only (the default otherwise).

    :raises UsageError: ``--separator`` with another format (it would be ignored).
    """
    if args.separator is None:
        return DEFAULT_SEPARATOR
    if args.format != "csv":
        raise UsageError("--separator joins the levels of a header path in CSV: it goes with --format csv")
    return str(args.separator)


def _convert_arguments(parser: argparse.ArgumentParser) -> None:
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
    conversion_arguments(parser)
    parser.add_argument("--keep-stages", metavar="DIR",
                        help="write every stage's result into DIR (NN-STAGE.xml; DIR/NAME/ per input with several "
                             "inputs), for debugging a pipeline")
    parser.add_argument("--report", metavar="FILE",
                        help="write one JSON object a line per input, as each input finishes: input, status "
                             "(ok, partial: some tables failed, failed), output, tables, table_failures, seconds, "
                             "and for a failed input code, exit_code, message, location, limit")
    limit_arguments(parser, worker=True)
    parser.set_defaults(parser=parser)


def _run_convert(args: argparse.Namespace) -> int:
    from ..runtime.environment import environment_allowed

    with environment_allowed(args.allow_io):  # your stylesheets may read environment variables (in the worker too)
        return _convert_inputs(args)


def _convert_inputs(args: argparse.Namespace) -> int:
    several = len(args.inputs) > 1
    if args.schema and args.format != "xml":
        args.parser.error("--schema goes with --format xml")
    if args.schema and (not args.output or args.output == "-"):
        args.parser.error("--schema needs -o (the schema is written beside the output)")
    if several and (not args.output or args.output == "-"):
        args.parser.error("several inputs need -o FOLDER")
    options = PageOptions(
        table=args.table, names=args.names, method=args.method, format=args.format,
        separator=separator_of(args),
        xslt=tuple(str(Path(local_file(path, "convert --xslt", "a stylesheet")).resolve()) for path in args.xslt),
        params=tuple(args.param), allow_io=args.allow_io, schema=args.schema, limits=limits_of(args))
    param_warnings: list[str] = []
    pipeline, _ = conversion_pipeline(options, param_warnings)  # usage errors before any page is read
    for warning in param_warnings:
        print(f"pyxform: warning: {warning}", file=sys.stderr)
    folder = output_folder(args.output, several)
    targets: list[Path | None]
    if folder is not None:
        targets = list(output_paths(args.inputs, folder, OUTPUT_SUFFIXES[args.format]))
    else:
        targets = [Path(args.output) if args.output and args.output != "-" else None]
    if args.schema and targets[0] is not None and writes_in_place(targets[0]):
        args.parser.error(f"--schema writes the schema beside the output, and {args.output} is not a regular file: "
                          "give -o FILE or -o FOLDER/")
    stages: list[Path | None] = [None] * len(targets)
    stage_folder = Path(args.keep_stages).resolve() if args.keep_stages else None
    if stage_folder is not None:
        stages = ([stage_folder / path.name for path in output_paths(args.inputs, Path(), "")]
                  if several else [stage_folder])
    outputs, patterns = _convert_output_files(args, targets, stages, pipeline.names)
    refuse_colliding_outputs(outputs, patterns, [("--keep-stages", stage_folder)] if stage_folder else [])
    refuse_inputs_as_outputs(args.inputs, outputs, patterns)
    if stage_folder is not None:
        prepare_stage_folders(stage_folder, [path for path in stages if path is not None and path != stage_folder])
    if folder is not None:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise OutputError(f"cannot create the output folder: {error.strerror or error}",
                              location=str(folder)) from None
    report = open_report(args.report) if args.report is not None else None
    records: list[dict[str, Any]] = []
    try:
        for outcome in run_inputs(args.inputs, options, targets, stages, allow_private=args.allow_private,
                                  stream=sys.stdout.buffer, report=report, words=command_line_message):
            report_warnings(outcome.input, outcome.table_failures, outcome.messages)
            if isinstance(outcome.error, InternalError):  # a bug: named by the input, not located in it
                report_internal(outcome.error.message, outcome.input)
            elif outcome.error is not None:
                report_error(outcome.error)
            records.append(outcome.record)
    finally:
        if report is not None:
            report.close()
    failed = [record for record in records if record["status"] == "failed"]
    if several:
        print(f"pyxform: {summary(records)}", file=sys.stderr)
    if not failed:
        return EXIT_OK
    return EXIT_PARTIAL_FAILURE if several else int(failed[0]["exit_code"])


def _convert_output_files(args: argparse.Namespace, targets: Sequence[Path | None], stages: Sequence[Path | None],
                          steps: Sequence[str]) -> tuple[list[tuple[str, Path]], list[tuple[str, Path, re.Pattern[str]]]]:
    """The files ``convert`` may write, for :func:`~pyxform.jobs.outputs.refuse_inputs_as_outputs`: each output (and
    its CSV files per table, its XSD), the report, and the ``--keep-stages`` files (``NN-STEP.xml``)."""
    outputs: list[tuple[str, Path]] = []
    patterns: list[tuple[str, Path, re.Pattern[str]]] = []
    for target in targets:
        if target is None:
            continue
        outputs.append(("-o", target))
        if args.format == "csv":
            patterns.append(("-o", target.parent, csv_pattern(target)))
        if args.schema:
            outputs.append(("--schema", target.with_suffix(".xsd")))
    if args.report:
        outputs.append(("--report", Path(args.report)))
    names = "|".join(f"{position:02d}-{re.escape(name)}" for position, name in enumerate(steps))
    stage_names = re.compile(rf"(?:{names})\.(?:xhtml|xml|txt)")
    patterns += [("--keep-stages", folder, stage_names) for folder in stages if folder is not None]
    return outputs, patterns


GRID = Command("grid", "normalize every table of a page into a dense grid (WHATWG table model)", _grid_arguments,
               _run_grid)
HEADERS = Command("headers", "find each table's header rows and columns (k, p) and the header cells of every data "
                  "cell", _headers_arguments, _run_headers)
CONVERT = Command("convert", "convert the tables of pages into XML (or pairs, JSON, CSV, XHTML)", _convert_arguments,
                  _run_convert)
