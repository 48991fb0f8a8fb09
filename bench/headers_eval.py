"""Shared pieces of the header-detection evaluations (bench/headers_wikitables.py, bench/headers_web.py).

* :func:`page_headers` runs a page through clean, normalize and headers and returns the per-table results;
* :func:`strip_markup` removes the header markup of an HTML page or table the way the evaluation of the formatting
  method prescribes: every ``th`` becomes a ``td`` whose content is wrapped in ``<b>`` (what a browser shows stays
  bold), ``scope``/``headers`` attributes go, and ``thead`` is kept or dropped (its rows moved into the body).
"""

from __future__ import annotations

import sys
from pathlib import Path

import lxml.html
from lxml import etree

from pyxform.stages.headers import HeadersResult, TableHeaders, detect_headers

__all__ = ["DEFAULT_CORPUS", "page_headers", "parse_params", "percent", "strip_markup", "warn"]

DEFAULT_CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"


def page_headers(page: bytes | str, *, method: str = "auto",
                 params: dict[str, str | float] | None = None) -> dict[int, TableHeaders]:
    """{table index: result} for every table of an HTML page (clean -> normalize -> headers); ``str`` is the page's
    decoded text."""
    import pyxform

    document = pyxform.grid(page)
    xml = getattr(document, "xml", None) or document
    result: HeadersResult = detect_headers(xml, method=method, params=params)
    return {table.index: table for table in result.tables}


def strip_markup(html: bytes | str, *, keep_thead: bool) -> str:
    """The page with its header markup removed (see the module docstring), as text."""
    text = html.decode("utf-8", "replace") if isinstance(html, bytes) else html
    root = lxml.html.document_fromstring(text)
    for th in list(root.iter("th")):
        th.tag = "td"
        bold = etree.Element("b")
        bold.text, th.text = th.text, None
        for child in list(th):
            bold.append(child)  # moves the child (and its tail) into <b>
        th.append(bold)
    for element in root.iter("td", "tr", "col", "colgroup"):
        for name in ("scope", "headers"):
            element.attrib.pop(name, None)
    if not keep_thead:
        for thead in list(root.iter("thead")):
            thead.tag = "tbody"
    return lxml.html.tostring(root, encoding="unicode", doctype="<!DOCTYPE html>")


def percent(part: int, whole: int) -> str:
    return f"{100.0 * part / whole:5.1f}%" if whole else "    -"


def warn(message: str) -> None:
    print(message, file=sys.stderr)


def parse_params(items: list[str]) -> dict[str, str | float]:
    """``["threshold=4", "size-difference=absolute"]`` -> {"threshold": 4.0, "size-difference": "absolute"}."""
    params: dict[str, str | float] = {}
    for item in items:
        name, _, value = item.partition("=")
        try:
            params[name] = float(value)
        except ValueError:
            params[name] = value
    return params
