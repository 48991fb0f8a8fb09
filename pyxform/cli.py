"""The ``pyxform`` command line: ``pyxform COMMAND ...``.

Each command is one :class:`Command`: a function that adds its arguments to an ``argparse`` sub-parser and a
function that runs it and returns the exit code. Adding a command (headers, convert, schema, validate, query,
transform) is adding one pair and listing it in :data:`COMMANDS`.

Errors are printed as ``pyxform: error [CODE]: LOCATION: MESSAGE`` on standard error, and the exit code is the
error's ``exit_code`` (see :mod:`pyxform.errors`): 3 missing input, 4 empty input, 5 undecodable input, 6 no table,
7 a limit, 9 a failed table, 10 a stylesheet error; 2 is a usage error, 1 an internal error.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from .errors import InputNotFound, LimitExceeded, PyxformError, TableError
from .limits import DEFAULT_LIMITS, Limits
from .source import read_source

__all__ = ["main", "build_parser", "Command", "COMMANDS", "write_output", "report_error"]

EXIT_OK = 0
EXIT_INTERNAL = 1


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


COMMANDS: tuple[Command, ...] = (
    Command("grid", "normalize every table of a page into a dense grid (WHATWG table model)", _grid_arguments,
            _run_grid),
    Command("headers", "find each table's header rows and columns (k, p) and the header cells of every data cell",
            _headers_arguments, _run_headers),
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
    """Print ``pyxform: error [code]: location: message`` on standard error."""
    location = f"{error.location}: " if error.location else ""
    print(f"pyxform: error [{error.code}]: {location}{error.message}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (the ``pyxform`` script passes it to ``sys.exit``)."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args))
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

