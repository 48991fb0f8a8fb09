"""The ``headers`` command of the CLI: ``pyxform headers INPUT [--format xml|json] [--table N] [--method M]``.

Argument parsing only; the work is :func:`pyxform.headers.detect_headers` (and the clean and normalize stages for an
HTML page). ``add_headers_command`` registers the command on the CLI's subparsers.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from .errors import InputNotFound
from .headers import METHODS, HeadersResult, detect_headers, is_grid_document

__all__ = ["add_headers_command", "run_headers_command", "headers_of_input"]


def add_headers_command(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``headers`` command to an ``argparse`` subparsers object and return its parser."""
    parser = subparsers.add_parser(
        "headers",
        help="find each table's header rows and columns (k, p) and the header cells of every data cell",
        description="Find the header region of every table (k header rows, p header columns, Zhang & Li 2007) "
                    "from the markup (th, thead, scope, headers) or, where it marks nothing, from formatting and "
                    "content; print the header-annotated grid (xml) or a summary (json).")
    parser.add_argument("input", metavar="INPUT",
                        help="an HTML page, or a grid document from `pyxform grid`; - reads standard input")
    parser.add_argument("--format", choices=("xml", "json"), default="xml",
                        help="xml: the grid with header annotations (default); json: {tables: [{index, "
                             "header_rows, header_cols, method}]}")
    parser.add_argument("--table", type=int, metavar="N", help="only the table with index N")
    parser.add_argument("--method", choices=METHODS, default="auto",
                        help="auto (default): markup where present, else formatting; markup; format: ignore "
                             "th/thead/scope as if the author had marked nothing")
    parser.set_defaults(func=run_headers_command)
    return parser


def _read_input(name: str) -> bytes:
    if name == "-":
        return sys.stdin.buffer.read()
    path = Path(name)
    if not path.is_file():
        raise InputNotFound(f"no such file: {name}", location=name)
    return path.read_bytes()


def headers_of_input(data: bytes, *, source: str = "", method: str = "auto",
                     table: int | None = None) -> HeadersResult:
    """Header detection for the bytes of an HTML page or of a grid document.

    :raises PyxformError: (subclasses) as the clean, normalize and headers stages raise them.
    """
    if is_grid_document(data):
        return detect_headers(data, method=method, table=table)
    from . import grid as page_grid  # the normalize stage's API (clean + normalize), imported when needed

    grid_document = page_grid(data, source=source)
    return detect_headers(_grid_bytes(grid_document), method=method, table=table)


def _grid_bytes(grid_document: Any) -> bytes | str:
    """The XML of whatever ``pyxform.grid`` returns (bytes, str, an lxml tree, or an object with ``to_bytes``)."""
    for attribute in ("to_bytes", "to_xml"):
        method = getattr(grid_document, attribute, None)
        if callable(method):
            return method()
    if isinstance(grid_document, (bytes, str)):
        return grid_document
    from lxml import etree

    return etree.tostring(grid_document, encoding="utf-8")


def run_headers_command(args: argparse.Namespace) -> int:
    """Run ``pyxform headers`` with parsed arguments; print the result to standard output. Returns the exit code."""
    data = _read_input(args.input)
    result = headers_of_input(data, source="-" if args.input == "-" else args.input, method=args.method,
                              table=args.table)
    if args.format == "json":
        sys.stdout.write(result.to_json_text() + "\n")
    else:
        sys.stdout.buffer.write(result.to_xml() + b"\n")
    return 0
