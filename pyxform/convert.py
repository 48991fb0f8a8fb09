"""Convert one page's tables into XML: clean -> normalize -> headers -> map -> merge (Zhang & Li 2007).

:func:`convert` is a pure function of one page's bytes and its options, cheap to call many times in one process:
every stylesheet is compiled once (:mod:`pyxform.pipeline`) and the documents pass between the stages in memory.
:func:`convert_grid` starts from a header-annotated grid (``docs/formats.md`` sections 2 and 3) instead of a page.
The result, a :class:`Conversion`, gives the output XML, the attribute-value pairs and an XSD for the output.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from functools import cached_property
from typing import Any, Literal

from lxml import etree

from .clean import clean
from .errors import NoTableError, TableError
from .header_detection import METHODS
from .limits import DEFAULT_LIMITS, Limits
from .pipeline import Pipeline, pipeline
from .source import Source

__all__ = ["Conversion", "Pair", "convert", "convert_grid", "NAME_STYLES", "HEADER_METHODS"]

#: Values of ``names``: element names from the header text (the paper's) or ``<field name="...">``.
NAME_STYLES = ("paper", "generic")
#: Values of ``method``: how the headers stage finds the header rows and columns (``pyxform.header_detection``).
HEADER_METHODS = METHODS

Pair = dict[str, Any]

_PX = "{urn:pyxform}"


def _safe_parser() -> etree.XMLParser:
    """An XML parser that resolves no entity, loads no DTD and uses no network (one per call: not thread-safe)."""
    return etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=True)


class Conversion:
    """The result of converting one page (or one annotated grid).

    :ivar source: the page's file name or URL as given (empty for bytes without a name).
    :ivar table: the index of the one table converted, or ``None`` for all tables.
    :ivar names: ``"paper"`` or ``"generic"``.
    :ivar messages: the ``xsl:message`` texts the stages emitted (data problems repaired on the way).
    """

    def __init__(self, *, output: Any, grid: Any, source: str, table: int | None, names: str,
                 messages: list[str], runner: Pipeline) -> None:
        self._output = output
        self._grid = grid
        self._pipeline = runner
        self.source = source
        self.table = table
        self.names = names
        self.messages = messages

    @cached_property
    def xml(self) -> str:
        """The output XML, indented, with an XML declaration: a ``<pyxform>`` document element holding each table's
        element, or (with ``table``) that table's element alone. See the README, "How tables map to XML"."""
        return self._pipeline.serialize(self._output)

    def to_bytes(self) -> bytes:
        """The output XML encoded as UTF-8."""
        return self.xml.encode("utf-8")

    def tree(self) -> etree._ElementTree:
        """The output as an lxml tree (e.g. for :func:`pyxform.query.xpath`)."""
        return etree.ElementTree(etree.fromstring(self.to_bytes(), _safe_parser()))

    def pairs(self) -> list[Pair]:
        """The attribute-value pairs of the data cells (Zhang & Li 2007, section 5), one dict per data slot::

            {"table": 0, "row": 2, "col": 1, "row_headers": ["Males"], "col_headers": ["Average", "Height"],
             "value": "1.78"}

        ``row``/``col`` are the slot's 0-based grid coordinates; header texts are as written, outermost / top first,
        without empty headers and with a header spanning several header rows or columns once; a data cell spanning
        several slots gives one pair per slot whose headers differ (``stylesheets/lib/slots.xsl``). A data cell
        holding tables has ``"nested": [index, ...]`` as well. With ``table``, only that table's pairs.
        """
        return list(self.iter_pairs())

    def iter_pairs(self) -> Iterator[Pair]:
        """Like :meth:`pairs`, one pair at a time."""
        params = {"table": -1 if self.table is None else self.table}
        text = self._pipeline.run_to_string("pairs", self._grid, params, location=self.source or None)
        root = etree.fromstring(text.encode("utf-8"), _safe_parser())
        for element in root.iterchildren(_PX + "pair"):
            pair: Pair = {
                "table": int(element.get("table", "0")),
                "row": int(element.get("row", "0")),
                "col": int(element.get("col", "0")),
                "row_headers": [child.text or "" for child in element.iterchildren(_PX + "row-header")],
                "col_headers": [child.text or "" for child in element.iterchildren(_PX + "column-header")],
                "value": element.findtext(_PX + "value") or "",
            }
            nested = [int(child.get("index", "0")) for child in element.iterchildren(_PX + "nested")]
            if nested:
                pair["nested"] = nested
            yield pair

    def pairs_jsonl(self) -> str:
        """The pairs as JSON Lines (one object a line, UTF-8 text, keys in the order shown by :meth:`pairs`)."""
        return "".join(json.dumps(pair, ensure_ascii=False) + "\n" for pair in self.iter_pairs())

    def schema(self) -> str:
        """An XSD 1.0 schema generated for this output (``stylesheets/schema.xsl``): the output validates against
        it. See :func:`pyxform.schema.generate_schema`."""
        return self._pipeline.run_to_string("schema", self._output, location=self.source or None)


def _check_options(table: int | None, names: str, method: str) -> None:
    if table is not None and (not isinstance(table, int) or table < 0):
        raise ValueError(f"table must be a table index >= 0 or None, not {table!r}")
    if names not in NAME_STYLES:
        raise ValueError(f"names must be one of {', '.join(NAME_STYLES)}, not {names!r}")
    if method not in HEADER_METHODS:
        raise ValueError(f"method must be one of {', '.join(HEADER_METHODS)}, not {method!r}")


def convert(data: bytes | str | Source, *, table: int | None = None, names: Literal["paper", "generic"] = "paper",
            method: Literal["auto", "markup", "format"] = "auto", source: str | None = None,
            limits: Limits = DEFAULT_LIMITS) -> Conversion:
    """Convert the tables of one HTML page into XML.

    :param data: the page: bytes (any encoding; decoded by clean), its decoded HTML text (``str``), or a
        :class:`~pyxform.source.Source` (bytes, URI and transport charset, as :func:`pyxform.source.read_source`
        reads files, standard input and URLs).
    :param table: the index of one table (``px:index``: 0-based, document order, nested tables counted) to convert
        alone, or ``None`` for every table.
    :param names: ``"paper"``: elements named after the header text (Zhang & Li's ``population-statistics``);
        ``"generic"``: ``<table name="...">``, ``<field name="...">`` for headers that make poor names.
    :param method: header detection: ``"auto"`` (markup where the table has it, else formatting), ``"markup"`` or
        ``"format"`` (see :mod:`pyxform.header_detection`).
    :param source: the page's file name or URL, recorded as provenance and used to resolve links (default: the
        ``Source``'s URI, else empty).
    :param limits: resource limits (:class:`pyxform.limits.Limits`).
    :returns: a :class:`Conversion`.
    :raises NoTableError: the page has no table, or ``table`` names none.
    :raises TableError: ``table`` names a table that normalize could not build.
    :raises LimitExceeded, InputError: from clean and normalize (page too large, undecodable, ...).
    :raises StylesheetError: a stylesheet failed (a bug: please report it with the page).
    :raises ValueError: for an option outside the values above.
    """
    _check_options(table, names, method)
    runner = pipeline()
    runner.require("normalize", "headers", "map", "merge")
    if isinstance(data, Source):
        page_source = data if source is None else replace(data, uri=source)
    elif isinstance(data, str):
        page_source = Source(data.encode("utf-8", "surrogatepass"), source or "", "utf-8")
    else:
        page_source = Source(bytes(data), source or "", None)
    source = page_source.uri
    first_message = len(runner.runtime.messages)
    try:
        page = clean(page_source, limits=limits)
        xhtml = runner.parse(page.tables_to_bytes())  # the tables alone: the same grid, half the parsing
        location = source or None
        grid = runner.run("normalize", xhtml, {"max-slots": limits.max_slots, "max-depth": limits.max_depth},
                          location=location)
        annotated = runner.run("headers", grid, {"method": method}, location=location)
        return _map_and_merge(runner, annotated, source=source, table=table, names=names,
                              first_message=first_message)
    finally:
        del runner.runtime.messages[first_message:]


def convert_grid(grid: bytes | str, *, table: int | None = None,
                 names: Literal["paper", "generic"] = "paper",
                 method: Literal["auto", "markup", "format"] = "auto", source: str = "") -> Conversion:
    """Convert a grid document (``docs/formats.md`` section 2, as ``pyxform grid`` writes it) or a header-annotated
    grid (section 3, as ``pyxform headers`` writes it) into XML: the headers stage when the grid has no header
    annotations yet, then map and merge. Options as for :func:`convert`.

    :raises StylesheetError: if ``grid`` is not well-formed XML or not a grid document.
    :raises NoTableError: if the grid has no table, or ``table`` names none of its tables.
    """
    _check_options(table, names, method)
    runner = pipeline()
    first_message = len(runner.runtime.messages)
    try:
        node = runner.parse(grid)
        if runner.has_tables_without_headers(node):
            node = runner.run("headers", node, {"method": method}, location=source or None)
        return _map_and_merge(runner, node, source=source, table=table, names=names, first_message=first_message)
    finally:
        del runner.runtime.messages[first_message:]


def _map_and_merge(runner: Pipeline, annotated: Any, *, source: str, table: int | None,
                   names: str, first_message: int) -> Conversion:
    location = source or None
    indexes = runner.table_indexes(annotated)
    if table is None and not indexes and not runner.table_indexes(annotated, failures=True):
        raise NoTableError("the page has no table", location=location)
    if table is not None and table not in indexes:
        if table in runner.table_indexes(annotated, failures=True):
            raise TableError(f"table {table} could not be normalized (`pyxform grid` says why)", location=location)
        raise NoTableError(f"the page has no table {table} (it has {len(indexes)} table(s)"
                           + (f", indexes {min(indexes)} to {max(indexes)})" if indexes else ")"), location=location)
    params = {"table": -1 if table is None else table, "names": names}
    mapped = runner.run("map", annotated, params, location=location)
    output = runner.run("merge", mapped, location=location)
    messages = [message.text for message in runner.runtime.messages[first_message:]]
    return Conversion(output=output, grid=annotated, source=source, table=table, names=names, messages=messages,
                      runner=runner)
