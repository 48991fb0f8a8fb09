"""The command-line commands of the conversion: ``convert``, ``schema``, ``validate`` and ``query``.

Each ``add_*_command(subparsers)`` adds one sub-command to an :mod:`argparse` parser (``pyxform.cli`` wires them in)
and sets ``func`` to the function that runs it, which returns the exit code (see :mod:`pyxform.errors`). Argument
parsing stays here; the work is done by :mod:`pyxform.convert`, :mod:`pyxform.schema` and :mod:`pyxform.query`.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from .convert import HEADER_METHODS, NAME_STYLES, Conversion, convert, convert_grid
from .errors import EXIT_PARTIAL_FAILURE, EmptyInput, InputNotFound, PyxformError, ValidationError
from .files import atomic_write
from .source import read_source

__all__ = ["add_convert_command", "add_schema_command", "add_validate_command", "add_query_command", "main"]

_GRID_DOCUMENT = re.compile(rb"\A(?:\xef\xbb\xbf)?\s*(?:<\?xml[^>]*\?>\s*)?(?:<!--.*?-->\s*)*<(?:[\w.-]+:)?grids\b[^>]*"
                            rb"urn:pyxform", re.DOTALL)


def _error(stream: TextIO, where: str | None, error: BaseException) -> None:
    if isinstance(error, PyxformError):
        text = str(error) if (error.location or not where) else f"{where}: {error}"
        stream.write(f"pyxform: {text} [{error.code}]\n")
        if isinstance(error, ValidationError):
            for line, message in error.errors:
                stream.write(f"  {error.location or where}:{line if line else '?'}: {message}\n")
    else:
        stream.write(f"pyxform: {where + ': ' if where else ''}internal error: {type(error).__name__}: {error}"
                     " (a bug: please report it with the input)\n")


def _exit_code(error: BaseException) -> int:
    return error.exit_code if isinstance(error, PyxformError) else 1


# -- convert ------------------------------------------------------------------------------------------------------
def add_convert_command(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add ``convert INPUT... [-o OUT] [--table N] [--format xml|pairs] [--names paper|generic] [--schema]``."""
    parser = subparsers.add_parser(
        "convert", help="convert the tables of HTML pages into XML (or attribute-value pairs)",
        description="Convert the tables of each page into XML (Zhang & Li 2007, Rule 1 and the merge rule). An input "
                    "is an HTML file, an http(s) URL, '-' for standard input, or a header-annotated grid (docs/formats.md). With one "
                    "input, -o names the output file (default: standard output); with several, -o names a folder "
                    "that receives NAME.xml (or NAME.jsonl) for each input. Each input is independent: the others "
                    "go on when one fails, and the exit code is then 13.")
    parser.add_argument("inputs", nargs="+", metavar="INPUT",
                        help="HTML file, http(s) URL, '-' (standard input) or annotated grid file")
    parser.add_argument("-o", "--output", metavar="OUT", help="output file (one input) or folder (several inputs)")
    parser.add_argument("--table", type=int, metavar="N", help="convert table N alone (0-based, document order, "
                        "nested tables counted); its element becomes the document element")
    parser.add_argument("--format", choices=("xml", "pairs"), default="xml",
                        help="xml (default) or pairs: one JSON object a line per data cell")
    parser.add_argument("--names", choices=NAME_STYLES, default="paper",
                        help="paper: elements named after the headers (default); generic: <field name='...'>")
    parser.add_argument("--method", choices=HEADER_METHODS, default="auto",
                        help="header detection: markup, format (the paper's scores), none, or auto (default)")
    parser.add_argument("--schema", action="store_true",
                        help="also write an XSD for each XML output, beside it (OUT with the suffix .xsd)")
    parser.set_defaults(func=run_convert, parser=parser)
    return parser


def _convert_one(name: str, args: argparse.Namespace) -> Conversion:
    page = read_source(name)
    if not page.data.strip():
        raise EmptyInput("the input is empty", location=name)
    if _GRID_DOCUMENT.match(page.data[:4096]):
        return convert_grid(page.data, table=args.table, names=args.names, source=page.uri)
    return convert(page, table=args.table, names=args.names, method=args.method)


def _output_names(inputs: Sequence[str], folder: Path, suffix: str) -> list[Path]:
    taken: set[str] = set()
    names = []
    for name in inputs:
        stem = "stdin" if name == "-" else Path(name).stem or "page"
        candidate, n = stem, 1
        while candidate in taken:
            n += 1
            candidate = f"{stem}-{n}"
        taken.add(candidate)
        names.append(folder / (candidate + suffix))
    return names


def run_convert(args: argparse.Namespace) -> int:
    """Run ``pyxform convert``; returns the exit code."""
    suffix = ".xml" if args.format == "xml" else ".jsonl"
    several = len(args.inputs) > 1
    if args.schema and args.format != "xml":
        args.parser.error("--schema goes with --format xml")
    if args.schema and not args.output:
        args.parser.error("--schema needs -o (the schema is written beside the output)")
    if several and not args.output:
        args.parser.error("several inputs need -o FOLDER")
    if several:
        folder = Path(args.output)
        folder.mkdir(parents=True, exist_ok=True)
        targets: list[Path | None] = list(_output_names(args.inputs, folder, suffix))
    else:
        targets = [Path(args.output) if args.output and args.output != "-" else None]
    failures: list[tuple[str, BaseException]] = []
    for name, target in zip(args.inputs, targets):
        try:
            conversion = _convert_one(name, args)
            payload = conversion.to_bytes() if args.format == "xml" else conversion.pairs_jsonl().encode("utf-8")
            if target is None:
                sys.stdout.buffer.write(payload)
                sys.stdout.buffer.flush()
            else:
                atomic_write(target, payload)
                if args.schema:
                    atomic_write(target.with_suffix(".xsd"), conversion.schema().encode("utf-8"))
            for message in conversion.messages:
                sys.stderr.write(f"pyxform: {name}: {message}\n")
        except Exception as error:  # one bad input never stops the batch
            failures.append((name, error))
            _error(sys.stderr, name, error)
    if not failures:
        return 0
    if not several:
        return _exit_code(failures[0][1])
    sys.stderr.write(f"pyxform: {len(failures)} of {len(args.inputs)} inputs failed: "
                     + ", ".join(name for name, _ in failures) + "\n")
    return EXIT_PARTIAL_FAILURE


# -- schema -------------------------------------------------------------------------------------------------------
def add_schema_command(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add ``schema OUT.xml [-o S.xsd]``."""
    parser = subparsers.add_parser(
        "schema", help="generate an XSD for a convert output",
        description="Write an XSD 1.0 schema generated for a pyxform output file: element names, nesting, repeated "
                    "elements, simple types inferred where a column is consistently integer, decimal or date.")
    parser.add_argument("document", metavar="OUT.xml")
    parser.add_argument("-o", "--output", metavar="S.xsd",
                        help="where to write the schema (default: OUT.xsd beside the document; '-' for standard output)")
    parser.set_defaults(func=run_schema, parser=parser)
    return parser


def run_schema(args: argparse.Namespace) -> int:
    """Run ``pyxform schema``; returns the exit code."""
    from .schema import generate_schema

    try:
        document = Path(args.document)
        if not document.is_file():
            raise InputNotFound("no such file", location=args.document)
        xsd = generate_schema(document)
        if args.output == "-":
            sys.stdout.write(xsd)
        else:
            atomic_write(Path(args.output) if args.output else document.with_suffix(".xsd"), xsd.encode("utf-8"))
    except Exception as error:
        _error(sys.stderr, args.document, error)
        return _exit_code(error)
    return 0


# -- validate -----------------------------------------------------------------------------------------------------
def add_validate_command(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add ``validate OUT.xml [--schema S.xsd]``."""
    parser = subparsers.add_parser(
        "validate", help="validate an XML file against an XSD",
        description="Validate an XML file against an XSD 1.0 schema; errors are printed as FILE:LINE: message. "
                    "Without --schema: OUT.xsd beside the document if it exists, else a schema generated from it.")
    parser.add_argument("document", metavar="OUT.xml")
    parser.add_argument("--schema", metavar="S.xsd")
    parser.set_defaults(func=run_validate, parser=parser)
    return parser


def run_validate(args: argparse.Namespace) -> int:
    """Run ``pyxform validate``; returns the exit code (0 valid, 11 invalid)."""
    from .schema import validate

    document = Path(args.document)
    try:
        if not document.is_file():
            raise InputNotFound("no such file", location=args.document)
        schema: Path | None = Path(args.schema) if args.schema else document.with_suffix(".xsd")
        if not args.schema and schema is not None and not schema.is_file():
            schema = None
        validate(document, schema)
    except Exception as error:
        _error(sys.stderr, args.document, error)
        return _exit_code(error)
    sys.stdout.write(f"{args.document}: valid" + (f" against {schema}" if schema else "") + "\n")
    return 0


# -- query --------------------------------------------------------------------------------------------------------
def add_query_command(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add ``query TARGET EXPR [--xquery] [--text] [--ns PREFIX=URI]``."""
    parser = subparsers.add_parser(
        "query", help="XPath 3.1 / XQuery 3.1 over output files",
        description="Evaluate an XPath 3.1 (or XQuery 3.1) expression with Saxon-HE over one XML file (the context "
                    "item) or a folder of them (collection() and $collection; no context item). Expressions cannot "
                    "open URIs. Prints one item a line: nodes as XML, atomic values as text.")
    parser.add_argument("target", metavar="TARGET", help="an XML file or a folder of .xml files")
    parser.add_argument("expression", metavar="EXPR")
    parser.add_argument("--xquery", action="store_true", help="EXPR is XQuery 3.1 (default: XPath 3.1)")
    parser.add_argument("--text", action="store_true", help="print string values only, also for nodes")
    parser.add_argument("--ns", action="append", default=[], metavar="PREFIX=URI",
                        help="bind a namespace prefix (XPath; px is bound to urn:pyxform)")
    parser.set_defaults(func=run_query, parser=parser)
    return parser


def run_query(args: argparse.Namespace) -> int:
    """Run ``pyxform query``; returns the exit code (12 when the expression fails)."""
    from .query import query

    namespaces = {}
    for binding in args.ns:
        prefix, sep, uri = binding.partition("=")
        if not sep or not prefix:
            args.parser.error(f"--ns takes PREFIX=URI, not {binding!r}")
        namespaces[prefix] = uri
    try:
        result = query(args.target, args.expression, xquery=args.xquery, namespaces=namespaces)
    except Exception as error:
        _error(sys.stderr, args.target, error)
        return _exit_code(error)
    for line in result.lines(text=args.text):
        sys.stdout.write(line + "\n")
    return 0


# -- standalone entry point (until pyxform.cli wires these commands in) ------------------------------------------
def main(argv: Sequence[str] | None = None) -> int:
    """``python -m pyxform.cli_convert COMMAND ...``: the four commands of this module alone."""
    parser = argparse.ArgumentParser(prog="pyxform")
    subparsers = parser.add_subparsers(dest="command", required=True)
    for add in (add_convert_command, add_schema_command, add_validate_command, add_query_command):
        add(subparsers)
    args = parser.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
