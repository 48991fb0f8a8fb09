"""A grid document from outside (``docs/formats.md`` sections 2 and 3, as ``pyxform grid`` and ``pyxform headers``
write it), recognised and checked before any stage runs on it.

:func:`looks_like_grid_document` tells a grid document from an HTML page by its first start tag; :func:`read_grid_input`
parses it safely and checks, before any work: the slot limits against the size each table declares (so a 100-byte
document declaring a table of 99999999 x 99999999 slots fails at once, on ``max_slots``), the number of tables, the
document against ``schemas/grid.xsd``, and each table's real size against its declared one (rows, slots per row,
cells inside the table), since the stages size their work by both.
"""

from __future__ import annotations

import re
import threading
from functools import cache
from typing import Final

from lxml import etree

from ..base.errors import BadXmlInput
from ..base.limits import Limits, limit_exceeded
from ..base.safexml import parse_untrusted
from ..runtime.saxon import builtin_schema

__all__ = ["PX_NS", "looks_like_grid_document", "is_grid_document", "read_grid_input"]

PX_NS: Final = "urn:pyxform"
_PX: Final = "{" + PX_NS + "}"
_PROLOG_MARKUP: Final = re.compile(rb"<!--.*?-->|<\?.*?\?>|<!DOCTYPE(?:[^\[>]|\[.*?\])*>", re.DOTALL | re.IGNORECASE)
_FIRST_START_TAG: Final = re.compile(rb"<((?:[A-Za-z_][\w.-]*:)?)grids[\s/>]")
_schema_lock = threading.Lock()


def looks_like_grid_document(data: bytes | str) -> bool:
    """True if ``data`` starts as a grid document: its first element (after the XML declaration, comments,
    processing instructions and a document type declaration) is ``grids`` in the namespace ``urn:pyxform``, declared
    in that start tag. Well-formed or not: such an input is read as XML (and refused as not well-formed, with line
    and column, if it is broken), never as an HTML page. Looks at the first 4 KiB only.

    :param data: the input's bytes (UTF-8 or an ASCII-compatible encoding) or text.
    """
    head = (data.encode("utf-8") if isinstance(data, str) else data)[:4096]
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):  # UTF-16: the start tag's ASCII is interleaved
        head = head.decode("utf-16", "replace").encode("utf-8")
    rest = _PROLOG_MARKUP.sub(b"", head.removeprefix(b"\xef\xbb\xbf")).lstrip()
    match = _FIRST_START_TAG.match(rest)
    if match is None:
        return False
    prefix = match.group(1)[:-1]
    end = rest.find(b">")
    start_tag = rest if end < 0 else rest[:end]
    declaration = b"xmlns:" + prefix if prefix else b"xmlns"
    return re.search(re.escape(declaration) + rb"\s*=\s*[\"']urn:pyxform[\"']", start_tag) is not None


def is_grid_document(data: bytes | str) -> bool:
    """True if ``data`` is well-formed XML whose root element is ``px:grids`` (a grid document), else False."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    if b"urn:pyxform" not in raw[:4096]:
        return False
    try:
        return parse_untrusted(raw).tag == _PX + "grids"
    except BadXmlInput:
        return False


@cache
def _grid_schema() -> etree.XMLSchema:
    return etree.XMLSchema(etree.parse(str(builtin_schema("grid.xsd"))))


def _declared(table: etree._Element, name: str) -> int:
    """A table's declared size attribute; one that is not a whole number is left to the schema (0 here)."""
    value = (table.get(name) or "").strip()
    return int(value) if value.isdigit() else 0


def read_grid_input(data: bytes | str, *, limits: Limits, location: str | None = None) -> etree._Element:
    """Parse and check a grid document from outside, before any stage runs on it.

    :param data: the document's bytes or text.
    :param limits: ``max_slots`` (each table), ``max_page_slots`` (all tables), ``max_tables``.
    :param location: where it comes from (a path), for messages.
    :returns: the root element (``px:grids``).
    :raises BadXmlInput: not well-formed XML, entities or a DTD, not a grid document (the root element), not valid
        against ``schemas/grid.xsd`` (the first error, with its line), or a table whose rows, slots or cells do not
        fit the size it declares.
    :raises LimitExceeded: a table declaring more slots than ``max_slots``, tables declaring more than
        ``max_page_slots`` in all, or more tables than ``max_tables`` (checked before the schema).
    """
    root = parse_untrusted(data, what="grid document", location=location)
    if root.getroottree().docinfo.doctype:
        raise BadXmlInput("the grid document has a document type declaration (DTD): pyxform reads no DTD and "
                          "expands no entity", location=location)
    if root.tag != _PX + "grids":
        raise BadXmlInput(f"not a grid document: the root element is {root.tag!r}, not px:grids ({PX_NS})",
                          location=location)
    tables = [child for child in root if child.tag == _PX + "table"]
    if len(tables) > limits.max_tables:
        raise limit_exceeded("max_tables", f"the grid document has more than {limits.max_tables} tables",
                             limits=limits, location=location)
    page_slots = 0
    for table in tables:
        rows, cols = _declared(table, "rows"), _declared(table, "cols")
        if rows * cols > limits.max_slots:
            raise limit_exceeded("max_slots", f"table {table.get('index')} declares {rows} rows and {cols} columns: "
                                 f"more than {limits.max_slots} slots", limits=limits, location=location)
        page_slots += rows * cols
        if page_slots > limits.max_page_slots:
            raise limit_exceeded("max_page_slots", f"the tables of the grid document declare more than "
                                 f"{limits.max_page_slots} slots in all", limits=limits, location=location)
    schema = _grid_schema()
    with _schema_lock:  # one validation at a time: the schema object keeps its error log
        valid = schema.validate(root.getroottree())
        first = None if valid else next(iter(schema.error_log))
    if first is not None:
        raise BadXmlInput(f"the grid document does not follow schemas/grid.xsd: line {first.line}: {first.message}",
                          location=location)
    for table in tables:
        _check_size(table, location)
    return root


def _check_size(table: etree._Element, location: str | None) -> None:
    """:raises BadXmlInput: the table's rows, slots or cells do not fit the size it declares."""
    rows, cols = _declared(table, "rows"), _declared(table, "cols")
    where = f"table {table.get('index')} declares {rows} rows and {cols} columns"
    found = [row for row in table if row.tag == _PX + "row"]
    if len(found) != rows:
        raise BadXmlInput(f"{where} but has {len(found)} px:row elements", location=location)
    for row in found:
        slots = sum(1 for slot in row if slot.tag == _PX + "slot")
        if slots != cols:
            raise BadXmlInput(f"{where} but its row {row.get('index')} has {slots} px:slot elements",
                              location=location)
    for cell in table.iterchildren(_PX + "cell"):
        if (int(cell.get("row", "0")) + int(cell.get("rowspan", "1")) > rows
                or int(cell.get("col", "0")) + int(cell.get("colspan", "1")) > cols):
            raise BadXmlInput(f"{where} but its cell {cell.get('id')} spans beyond them", location=location)
