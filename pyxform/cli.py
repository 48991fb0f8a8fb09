"""The ``pyxform`` command line: ``pyxform COMMAND ...``.

Each command is one :class:`Command`: a function that adds its arguments to an ``argparse`` sub-parser and a
function that runs it and returns the exit code. Adding a command is adding one pair and listing it in
:data:`COMMANDS`.

Errors are printed as ``pyxform: error [CODE]: LOCATION: MESSAGE`` on standard error, and the exit code is the
error's ``exit_code`` (see :mod:`pyxform.errors`): 3 missing input, 4 empty input, 5 undecodable input, 6 no table,
7 a limit, 9 a failed table, 10 a stylesheet error, 11 invalid XML, 12 a failed query, 13 a batch in which some
inputs failed; 2 is a usage error, 1 an internal error.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from .errors import (EXIT_PARTIAL_FAILURE, EmptyInput, InputNotFound, LimitExceeded, PyxformError, TableError,
                     ValidationError)
from .files import atomic_write
from .limits import DEFAULT_LIMITS, Limits
from .source import read_source
from .tabular import DEFAULT_SEPARATOR, csv_paths

__all__ = ["main", "build_parser", "Command", "COMMANDS", "write_output", "report_error"]

EXIT_OK = 0
EXIT_INTERNAL = 1
EXIT_USAGE = 2

#: Output formats of ``pyxform convert`` and the suffix of the files written for them into an output folder.
CONVERT_FORMATS = ("xml", "pairs", "json", "csv", "xhtml")
OUTPUT_SUFFIXES = {"xml": ".xml", "pairs": ".jsonl", "json": ".json", "csv": ".csv", "xhtml": ".xhtml"}


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
    """Write ``text`` as UTF-8 to standard output (whatever the locale), ending with a line feed."""
    out = stream or sys.stdout.buffer
    out.write(text.encode("utf-8"))
    if not text.endswith("\n"):
        out.write(b"\n")
    out.flush()


def _limits(args: argparse.Namespace) -> Limits:
    if getattr(args, "max_slots", None) is None:
        return DEFAULT_LIMITS
    return Limits(max_slots=args.max_slots)


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
    parser.add_argument("--max-slots", type=_non_negative, metavar="N",
                        help=f"most slots (rows x columns) in one table (default {DEFAULT_LIMITS.max_slots})")


def _run_grid(args: argparse.Namespace) -> int:
    from .normalize import grid

    page = read_source(args.input, limits=_limits(args))
    source = page.uri
    document = grid(page, table=args.table, limits=_limits(args))
    if args.table is not None and not document.tables:
        failure = document.failures[0]
        location = f"{source}: table {failure.index} ({failure.locator})"
        if failure.code == "limit":
            raise LimitExceeded(failure.message, limit="max_slots", location=location)
        raise TableError(failure.message, location=location)
    if args.format == "json":
        write_output(json.dumps(document.to_json(), ensure_ascii=False))
    else:
        write_output(document.xml)
    for failure in document.failures:  # the other tables were written; say which ones are missing and why
        print(f"pyxform: warning [{failure.code}]: {source}: table {failure.index} ({failure.locator}): "
              f"{failure.message}", file=sys.stderr)
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
    parser.add_argument("--max-slots", type=_non_negative, metavar="N",
                        help=f"most slots (rows x columns) in one table (default {DEFAULT_LIMITS.max_slots})")


def _run_headers(args: argparse.Namespace) -> int:
    from .header_detection import headers

    page = read_source(args.input, limits=_limits(args))
    source = page.uri
    result = headers(page, method=args.method, table=args.table, limits=_limits(args))
    if args.format == "json":
        write_output(json.dumps(result.to_json(), ensure_ascii=False))
    else:
        write_output(result.to_xml().decode("utf-8"))
    for failure in result.failures:  # tables normalize could not build have no header annotations
        print(f"pyxform: warning [{failure.code}]: {source}: table {failure.index} ({failure.locator}): "
              f"{failure.message}", file=sys.stderr)
    for warning in result.warnings:
        print(f"pyxform: warning: {source}: {warning}", file=sys.stderr)
    return EXIT_OK


# -- convert ------------------------------------------------------------------------------------------------------
def _convert_arguments(parser: argparse.ArgumentParser) -> None:
    from .convert import HEADER_METHODS, NAME_STYLES

    parser.description = (
        "Convert the tables of each page into XML (Zhang & Li 2007: Rule 1 and the merge rule). An input is an HTML "
        "file, an http(s) URL, '-' for standard input, or a grid document of `pyxform grid` or `pyxform headers`. "
        "With one input, "
        "-o names the output file (default: standard output); with several, -o names a folder that receives "
        "NAME.xml (or NAME.jsonl) for each. Inputs are independent: when one fails the others go on, and the exit "
        "code is then 13.")
    parser.add_argument("inputs", nargs="+", metavar="INPUT",
                        help="HTML file, http(s) URL, '-' (standard input) or annotated grid file")
    parser.add_argument("-o", "--output", metavar="OUT", help="output file (one input) or folder (several inputs)")
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


def _parse_params(args: argparse.Namespace, step_names: Sequence[str], user_steps: Sequence[str]
                  ) -> dict[str, dict[str, Any]]:
    """``--param [STEP.]NAME=VALUE`` -> parameters by step name (values as :class:`~pyxform.saxon.UntypedAtomic`).
    An unqualified NAME goes to every user stylesheet (``user_steps``)."""
    from .saxon import UntypedAtomic

    params: dict[str, dict[str, Any]] = {}
    for binding in args.param:
        name, sep, value = binding.partition("=")
        if not sep or not name:
            args.parser.error(f"--param takes NAME=VALUE, not {binding!r}")
        step, dot, local = name.partition(".")
        if dot and step in step_names and local:
            params.setdefault(step, {})[local] = UntypedAtomic(value)
        elif user_steps:
            for user_step in user_steps:
                params.setdefault(user_step, {})[name] = UntypedAtomic(value)
        else:
            args.parser.error(f"--param {name}=...: no stylesheet of yours takes it; for a step of the pipeline "
                              f"write STEP.NAME=VALUE (steps: {', '.join(step_names)})")
    return params


def _conversion_pipeline(args: argparse.Namespace) -> tuple[Any, dict[str, dict[str, Any]]]:
    """The pipeline ``convert`` runs (pyxform's, with the --xslt steps after merge) and the --param values."""
    from .pipeline import CONVERSION, Step

    if args.xslt and args.format not in ("xml", "json"):
        args.parser.error("--xslt post-processes the XML output: it goes with --format xml or json")
    if args.allow_io and not args.xslt:
        args.parser.error("--allow-io is for your own stylesheets (--xslt); pyxform's always run without I/O")
    user_steps = []
    for path in args.xslt:
        step = Step.xslt(path)
        taken = set(CONVERSION.names) | {s.name for s in user_steps}
        if step.name in taken:
            n = 2
            while f"{step.name}-{n}" in taken:
                n += 1
            step = Step.xslt(path, name=f"{step.name}-{n}")
        user_steps.append(step)
    chosen = CONVERSION.append(*user_steps)
    if args.allow_io:
        chosen = chosen.allowing_io()
    return chosen, _parse_params(args, chosen.names, [step.name for step in user_steps])


def _convert_one(name: str, args: argparse.Namespace, keep_stages: Path | None) -> Any:
    from .convert import convert, convert_grid
    from .header_detection import is_grid_document

    page = read_source(name)
    if not page.data.strip():
        raise EmptyInput("the input is empty", location=name)
    options = {"table": args.table, "names": args.names, "method": args.method, "pipeline": args.pipeline,
               "params": args.params, "keep_stages": keep_stages}
    if is_grid_document(page.data):
        return convert_grid(page.data, source=page.uri, **options)
    return convert(page, **options)


def _write_conversion(conversion: Any, target: Path | None, args: argparse.Namespace) -> None:
    """Write one conversion in ``args.format`` to ``target`` (``None``: standard output)."""
    if args.format == "csv":
        tables = conversion.tables()
        if target is None:
            if len(tables) > 1:
                raise UsageError(f"the page has {len(tables)} tables ({', '.join(str(t.index) for t in tables)}): "
                                 "write them with -o OUT.csv (one file per table) or choose one with --table N")
            payloads = [(None, table.to_csv(args.separator).encode("utf-8")) for table in tables]
        else:
            paths = csv_paths(str(target), [table.index for table in tables])
            payloads = [(Path(paths[table.index]), table.to_csv(args.separator).encode("utf-8"))
                        for table in tables]
    else:
        render = {"xml": conversion.to_bytes, "pairs": lambda: conversion.pairs_jsonl().encode("utf-8"),
                  "json": lambda: conversion.to_json().encode("utf-8"),
                  "xhtml": lambda: conversion.to_xhtml().encode("utf-8")}[args.format]
        payloads = [(target, render())]
    for path, payload in payloads:
        if path is None:
            sys.stdout.buffer.write(payload)
            sys.stdout.buffer.flush()
        else:
            atomic_write(path, payload)
    if args.schema and target is not None:
        atomic_write(target.with_suffix(".xsd"), conversion.schema().encode("utf-8"))


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


def _run_convert(args: argparse.Namespace) -> int:
    several = len(args.inputs) > 1
    if args.schema and args.format != "xml":
        args.parser.error("--schema goes with --format xml")
    if args.schema and (not args.output or args.output == "-"):
        args.parser.error("--schema needs -o (the schema is written beside the output)")
    if several and (not args.output or args.output == "-"):
        args.parser.error("several inputs need -o FOLDER")
    args.pipeline, args.params = _conversion_pipeline(args)
    if several:
        folder = Path(args.output)
        folder.mkdir(parents=True, exist_ok=True)
        targets: list[Path | None] = list(_output_paths(args.inputs, folder, OUTPUT_SUFFIXES[args.format]))
    else:
        targets = [Path(args.output) if args.output and args.output != "-" else None]
    stages: list[Path | None] = [None] * len(targets)
    if args.keep_stages:
        stages = ([Path(args.keep_stages) / path.name for path in _output_paths(args.inputs, Path(), "")]
                  if several else [Path(args.keep_stages)])
    failures: list[tuple[str, BaseException]] = []
    for name, target, keep_stages in zip(args.inputs, targets, stages):
        try:
            conversion = _convert_one(name, args, keep_stages)
            _write_conversion(conversion, target, args)
            for message in conversion.messages:
                print(f"pyxform: warning: {name}: {message}", file=sys.stderr)
        except (BrokenPipeError, UsageError):
            raise
        except Exception as error:  # one bad input never stops the batch
            failures.append((name, error))
            _report_any(error, name)
    if not failures:
        return EXIT_OK
    if not several:
        return failures[0][1].exit_code if isinstance(failures[0][1], PyxformError) else EXIT_INTERNAL
    print(f"pyxform: {len(failures)} of {len(args.inputs)} inputs failed: " + ", ".join(n for n, _ in failures),
          file=sys.stderr)
    return EXIT_PARTIAL_FAILURE


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

    step = Step.xslt(args.stylesheet)
    pipeline = Pipeline([step], allow_io=args.allow_io)
    params = _parse_params(args, [], [step.name])
    document = read_source(args.input)
    messages: list[Any] = []
    try:
        result = pipeline.run(document.data, params=params, serialize=True, source=document.uri or args.input,
                              messages=messages)
    finally:
        for message in messages:
            print(message.text, file=sys.stderr)
    if args.output and args.output != "-":
        atomic_write(Path(args.output), result.to_bytes())
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

    document = Path(args.document)
    if not document.is_file():
        raise InputNotFound("no such file", location=args.document)
    xsd = generate_schema(document)
    if args.output == "-":
        write_output(xsd)
    else:
        atomic_write(Path(args.output) if args.output else document.with_suffix(".xsd"), xsd.encode("utf-8"))
    return EXIT_OK


def _validate_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Validate an XML file against an XSD 1.0 schema; errors are printed as FILE:LINE: message (exit code 11). "
        "Without --schema: OUT.xsd beside the document if it exists, else a schema generated from the document.")
    parser.add_argument("document", metavar="OUT.xml")
    parser.add_argument("--schema", metavar="S.xsd")


def _run_validate(args: argparse.Namespace) -> int:
    from .schema import validate

    document = Path(args.document)
    if not document.is_file():
        raise InputNotFound("no such file", location=args.document)
    schema: Path | None = Path(args.schema) if args.schema else document.with_suffix(".xsd")
    if not args.schema and not schema.is_file():
        schema = None
    try:
        validate(document, schema)
    except ValidationError as error:
        report_error(error)
        for line, message in error.errors:
            print(f"{error.location or args.document}:{line if line else '?'}: {message}", file=sys.stderr)
        return error.exit_code
    write_output(f"{args.document}: valid against {schema if schema else 'a schema generated from it'}")
    return EXIT_OK


# -- query --------------------------------------------------------------------------------------------------------
def _query_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Evaluate an XPath 3.1 (or XQuery 3.1) expression with Saxon-HE over one XML file (the context item) or a "
        "folder of .xml files (collection() and $collection; no context item). Expressions cannot open URIs. "
        "Prints one item a line: nodes as XML, atomic values as text.")
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
    result = query(args.target, args.expression, xquery=args.xquery, namespaces=namespaces)
    for line in result.lines(text=args.text):
        write_output(line)
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
)


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


def report_error(error: PyxformError) -> None:
    """Print ``pyxform: error [code]: location: message`` on standard error (``[xslt XTDE0640]``: with Saxon's
    error code for a stylesheet error)."""
    location = f"{error.location}: " if error.location else ""
    detail = getattr(error, "error_code", None)
    code = f"{error.code} {detail}" if detail else error.code
    print(f"pyxform: error [{code}]: {location}{error.message}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (the ``pyxform`` script passes it to ``sys.exit``)."""
    args = build_parser().parse_args(argv)
    try:
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

