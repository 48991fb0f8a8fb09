"""A converted page -> one document per table: the text of each field, and what the ranking and the results show.

The input is the jobs output format ``tables`` (``docs/formats.md`` section 5, "Tables"): every table of the page,
nested ones included, with its columns (header paths), records, caption, heading and XML. Nothing here converts.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from .fields import FIELD_NAMES
from .text import analyze

__all__ = ["TableDocument", "table_documents", "page_from_output", "url_words", "key_column"]

_NUMERIC: Final = re.compile(r"[\s$€£¥%+\-\u2212.,:/()#~]*\d[\d\s$€£¥%+\-\u2212.,:/()#~]*")
#: Share of a column's non-empty values that must be distinct and not numbers for it to be a key column candidate.
KEY_DISTINCT: Final = 0.8
KEY_TEXT: Final = 0.5


@dataclass
class TableDocument:
    """One table, ready for the index.

    :ivar index: the table's index on its page (0-based, document order, nested tables counted).
    :ivar text: the raw text of each field (:data:`~pyxform.wings.search.fields.FIELD_NAMES`).
    :ivar header_terms: the analyzed terms of the column headers, each once (structure signal "names a column").
    :ivar key_terms: the analyzed terms of the key column's values, each once (structure signal "in the key
        column"); empty when the table has no key column.
    :ivar key_column: the key column's position in ``columns`` (``None``: none).
    :ivar records: the records (one list of texts per row, a text per column).
    :ivar columns: the header path of each column (its non-empty levels).
    """

    index: int
    text: dict[str, str]
    caption: str | None
    heading: str | None
    locator: str | None
    parent: int | None
    depth: int
    hidden: bool
    header_rows: int
    header_cols: int
    header_method: str | None
    columns: list[list[str]]
    kinds: list[str]
    records: list[list[str]]
    key_column: int | None
    header_terms: list[str] = field(default_factory=list)
    key_terms: list[str] = field(default_factory=list)
    xml: str | None = None

    @property
    def headers(self) -> list[str]:
        """One name per column: its header path joined with `` / `` ("" for a column without a header)."""
        return [" / ".join(levels) for levels in self.columns]


def url_words(url: str | None) -> str:
    """The words of a URL for the ``url`` field: host labels (without ``www``), path segments and query values,
    percent-decoded, split on everything but letters and digits. ``https://en.wikipedia.org/wiki/Renaissance_(band)``
    -> ``"en wikipedia org wiki Renaissance band"``. A file path gives its folder and file names."""
    if not url:
        return ""
    from urllib.parse import unquote, urlsplit

    parts = urlsplit(url)
    host = [label for label in (parts.hostname or "").split(".") if label and label != "www"]
    rest = unquote(parts.path + " " + parts.query.replace("=", " ").replace("&", " "))
    words = re.findall(r"[^\W_]+", " ".join(host) + " " + rest)
    return " ".join(words)


def _is_number(value: str) -> bool:
    return bool(_NUMERIC.fullmatch(value))


def key_column(columns: Sequence[Sequence[str]], kinds: Sequence[str], records: Sequence[Sequence[str]]
               ) -> int | None:
    """The table's key (subject) column: the column whose values name what each row is about.

    Rule (after Venetis et al., "Recovering semantics of tables on the web", VLDB 2011, section 3.1, the subject
    column; and Zhang & Balog, "EntiTables", SIGIR 2017, the core column): the first row header column when the
    table has header columns; else the leftmost data column whose non-empty values are at least
    :data:`KEY_TEXT` not numbers and at least :data:`KEY_DISTINCT` distinct; else none. A table without records has
    none.

    :param columns: header path per column; ``kinds``: ``section``, ``row-header`` or ``data`` per column.
    :returns: the column's position, or ``None``.
    """
    if not records:
        return None
    for position, kind in enumerate(kinds):
        if kind == "row-header":
            return position
    for position, kind in enumerate(kinds):
        if kind != "data":
            continue
        values = [record[position].strip() for record in records if position < len(record)]
        values = [value for value in values if value]
        if not values:
            continue
        text = sum(1 for value in values if not _is_number(value)) / len(values)
        distinct = len(set(values)) / len(values)
        if text >= KEY_TEXT and distinct >= KEY_DISTINCT:
            return position
    return None


def _header_path(column: dict[str, Any], header_rows: int) -> list[str]:
    """A column's header path as written, without the names tabular generates (``column-N``, ``section``)."""
    levels = [level for level in column.get("levels", []) if level]
    if column.get("kind") == "section" or header_rows == 0:
        return []
    if column.get("col") is not None and levels == [f"column-{column['col'] + 1}"]:
        return []
    return levels


def table_documents(page: dict[str, Any], *, url: str | None = None) -> list[TableDocument]:
    """The documents of every table of a page.

    :param page: the page in the jobs output format ``tables`` (parsed JSON).
    :param url: the page's URL for the ``url`` field (its canonical URL, resolved; default: ``page["source"]``).
    :returns: one :class:`TableDocument` per table, in table index order.
    """
    title = page.get("title") or ""
    words = url_words(url if url is not None else page.get("source"))
    documents = []
    for table in page.get("tables", []):
        header_rows = int(table.get("header_rows") or 0)
        raw_columns = table.get("columns", [])
        columns = [_header_path(column, header_rows) for column in raw_columns]
        kinds = [str(column.get("kind", "data")) for column in raw_columns]
        records = [list(record) for record in table.get("records", [])]
        row_header_positions = [i for i, kind in enumerate(kinds) if kind != "data"]
        data_positions = [i for i, kind in enumerate(kinds) if kind == "data"]
        key = key_column(columns, kinds, records)
        header_text = "\n".join(" ".join(levels) for levels in columns if levels)
        text = {
            "title": title,
            "url": words,
            "heading": table.get("heading") or "",
            "caption": table.get("caption") or "",
            "headers": header_text,
            "rowheaders": "\n".join(record[i] for record in records for i in row_header_positions if i < len(record)),
            "cells": "\n".join([*(record[i] for record in records for i in data_positions if i < len(record)),
                                *table.get("notes", [])]),  # a note row (source line, footnote) is table text
        }
        assert tuple(text) == FIELD_NAMES
        documents.append(TableDocument(
            index=int(table["index"]), text=text, caption=table.get("caption"), heading=table.get("heading"),
            locator=table.get("locator"), parent=table.get("parent"), depth=int(table.get("depth") or 0),
            hidden=bool(table.get("hidden")), header_rows=header_rows,
            header_cols=int(table.get("header_cols") or 0), header_method=table.get("header_method"),
            columns=columns, kinds=kinds, records=records, key_column=key,
            header_terms=_unique(analyze(header_text)),
            key_terms=_unique(analyze("\n".join(record[key] for record in records if key < len(record))))
            if key is not None else [],
            xml=table.get("xml")))
    return documents


def _unique(terms: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(terms))


_PX_NS: Final = "{urn:pyxform}"


def page_from_output(data: bytes, *, location: str) -> dict[str, Any]:
    """A pyxform output XML document (``pyxform convert`` / ``batch``) as the ``tables`` format, for indexing
    without converting again.

    What the output keeps is indexed: page title (``px:title``), source (``px:source``), each table's element
    (``px:table``, nested ones inside their cell) with its caption or heading (``px:label`` by ``px:name-from``),
    locator and header counts. The output does not say which labels are column and which row headers: every
    ``px:label`` under a table goes to ``headers`` (one column each, in order, each once) and every value to
    ``cells``; a record is an element with ``px:row``, or else each child of the table's element; an entity table
    (``px:table-kind="entity"``, key-value pairs) is one record; a ``<note px:row>`` (a note row) is no record, its
    text goes to ``notes``.

    :raises BadXmlInput: not well-formed, or uses entities.
    :raises InputError: well-formed, but its document element is not ``pyxform``.
    """
    from lxml import etree

    from ...base.errors import InputError
    from ...base.safexml import parse_untrusted

    root = parse_untrusted(data, what="pyxform output", location=location)
    if root.tag != "pyxform":
        raise InputError(f"not a pyxform output (its document element is {etree.QName(root).localname!r})",
                         location=location)
    tables = []
    hrefs: list[str] = []
    for element in root.iter():
        if not isinstance(element.tag, str) or element.get(_PX_NS + "table") is None:
            continue
        ancestors = [a for a in element.iterancestors() if a.get(_PX_NS + "table") is not None]
        own = [node for node in _own_elements(element)]
        labels = list(dict.fromkeys(node.get(_PX_NS + "label") for node in own[1:]
                                    if node.get(_PX_NS + "label")))
        # a note row (docs/formats.md: <note px:row>, a source line or footnote): the table's text, no record
        note_nodes = [node for node in own[1:] if node.tag == "note" and node.get(_PX_NS + "row") is not None
                      and len(node) == 0]
        notes = [" ".join((node.text or "").split()) for node in note_nodes if (node.text or "").strip()]
        if element.get(_PX_NS + "table-kind") == "entity":  # map writes an entity table as one record
            record_roots = [element]
        else:
            record_roots = [node for node in own[1:] if node.get(_PX_NS + "row") is not None
                            and node not in note_nodes] or \
                [child for child in element if isinstance(child.tag, str) and child.get(_PX_NS + "table") is None
                 and child not in note_nodes]
        records: list[list[str]] = []
        for record in record_roots:
            values = [" ".join((node.text or "").split()) for node in _own_elements(record)
                      if len(node) == 0 and (node.text or "").strip() and node not in note_nodes]
            if values:
                records.append(values)
        for node in own:
            href = node.get("href")
            if href:
                hrefs.extend(href.split())
        name_from = element.get(_PX_NS + "name-from")
        label = element.get(_PX_NS + "label")
        width = max((len(record) for record in records), default=0)
        tables.append({
            "index": int(element.get(_PX_NS + "table", "0")),
            "parent": int(element.get(_PX_NS + "parent-table") or ancestors[0].get(_PX_NS + "table"))
            if element.get(_PX_NS + "parent-table") or ancestors else None,
            "depth": len(ancestors), "locator": element.get(_PX_NS + "locator"),
            "heading": label if name_from == "heading" else None,
            "caption": label if name_from == "caption" else None,
            "hidden": element.get(_PX_NS + "hidden") == "true",
            "header_rows": int(element.get(_PX_NS + "header-rows") or 0),
            "header_cols": int(element.get(_PX_NS + "header-cols") or 0),
            "header_method": element.get(_PX_NS + "header-method"),
            "columns": [{"kind": "data", "col": None, "levels": [text]} for text in labels]
            + [{"kind": "data", "col": None, "levels": []} for _ in range(max(0, width - len(labels)))],
            "records": [record + [""] * (max(width, len(labels)) - len(record)) for record in records],
            "notes": notes,
            "xml": etree.tostring(element, encoding="unicode", with_tail=False)})
    tables.sort(key=lambda table: table["index"])
    return {"source": root.get(_PX_NS + "source") or location, "title": root.get(_PX_NS + "title") or "",
            "canonical": None, "base": None, "links": hrefs, "tables": tables, "failures": []}


def _own_elements(table: Any) -> Iterator[Any]:
    """The elements of a table's element that belong to it (not to a table nested in it), itself first."""
    stack = [table]
    while stack:
        node = stack.pop()
        yield node
        children = [child for child in node if isinstance(child.tag, str)
                    and child.get(_PX_NS + "table") is None]
        stack.extend(reversed(children))
