"""Stage headers: grid -> grid with header annotations (``docs/formats.md`` section 3).

For every normalized table: k header rows and p header columns (Zhang & Li 2007, Table 2), how they were found
(``markup``, ``format`` or ``none``), the role of every cell and the header cells of every data slot. The rules live in
``stylesheets/headers.xsl`` and its modules (see ``docs/headers.md``); this module runs the stylesheet, compiled
once in the pipeline's shared Saxon runtime, and reads the result into a typed model:

    headers(page)            clean -> normalize -> headers, for an HTML page (or a grid document as it is)
    detect_headers(grid)     the headers stage alone, on a grid document
    result.to_json()         {"tables": [{"index": 0, "header_rows": 2, "header_cols": 1, "method": "markup"}]}
"""

from __future__ import annotations

import json
import os
import re
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from lxml import etree

from ..base.errors import BadXmlInput, InputError, LimitExceeded, NoTableError, StylesheetError, TableError
from ..base.limits import DEFAULT_LIMITS, Limits
from ..base.safexml import parse_untrusted
from ..base.source import Source
from ..runtime.saxon import SaxonRuntime

__all__ = [
    "METHODS",
    "HeaderDetector",
    "HeadersResult",
    "Method",
    "TableFailureNote",
    "TableHeaders",
    "detect_headers",
    "headers",
    "is_grid_document",
    "looks_like_grid_document",
]

PX_NS = "urn:pyxform"
_PX = "{" + PX_NS + "}"


def _safe_parser() -> etree.XMLParser:
    """An XML parser that resolves no entity, loads no DTD and uses no network (one per call: parsers are not
    thread-safe)."""
    return etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=True)


Method = Literal["auto", "markup", "format"]
#: The values of ``method``: auto (markup where it marks something useful, else formatting), markup, format.
METHODS: tuple[str, ...] = ("auto", "markup", "format")


@dataclass(frozen=True)
class TableHeaders:
    """The header region of one table.

    :ivar index: the table's ``px:table/@index`` (its position among the page's tables, nested included).
    :ivar header_rows: k, the number of leading rows that are column-header rows.
    :ivar header_cols: p, the number of leading columns that are row-header columns.
    :ivar method: how they were found: ``markup`` (th/thead), ``format`` (formatting and content scores) or ``none``
        (no header: k = p = 0).
    :ivar evidence: the table's ``px:header-evidence`` element (scores and thresholds), or ``None``.
    :ivar kind: how its data is laid out (``stylesheets/headers/kind.xsl``): ``relational`` (records under column
        labels, or headerless rows), ``entity`` (key-value pairs describing one thing), ``matrix`` (values under row
        and column headers) or ``layout`` (no grid of values); ``""`` for a grid annotated without it.
    """

    index: int
    header_rows: int
    header_cols: int
    method: str
    evidence: etree._Element | None = field(default=None, compare=False, repr=False)
    kind: str = ""

    def to_dict(self) -> dict[str, Any]:
        """``{"index": I, "header_rows": k, "header_cols": p, "method": "markup|format|none", "kind": ...}``."""
        return {"index": self.index, "header_rows": self.header_rows, "header_cols": self.header_cols,
                "method": self.method, "kind": self.kind}


@dataclass(frozen=True)
class TableFailureNote:
    """A table that the normalize stage could not build (``px:table-failure``): it has no header annotations."""

    index: int
    locator: str
    code: str
    message: str


@dataclass
class HeadersResult:
    """The header-annotated grid of one page.

    :ivar document: the annotated grid as an lxml tree (``px:grids``).
    :ivar tables: one :class:`TableHeaders` per annotated table, in ``index`` order.
    :ivar failures: the tables normalize could not build, which therefore have no header annotations.
    :ivar warnings: data problems the stylesheet reported (``[px:CODE] where: what``), e.g. a slot naming no cell.
    """

    document: etree._ElementTree
    tables: list[TableHeaders]
    failures: list[TableFailureNote] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """``{"tables": [{"index": I, "header_rows": k, "header_cols": p, "method": ...}, ...]}``, plus
        ``"failures": [{"index", "locator", "code", "message"}, ...]`` only when some table failed (the shape of
        :meth:`pyxform.stages.normalize.GridDocument.to_json`)."""
        result: dict[str, Any] = {"tables": [table.to_dict() for table in self.tables]}
        if self.failures:
            result["failures"] = [{"index": f.index, "locator": f.locator, "code": f.code, "message": f.message}
                                  for f in self.failures]
        return result

    def to_json_text(self) -> str:
        """:meth:`to_json` serialized (compact, one line)."""
        return json.dumps(self.to_json(), ensure_ascii=False)

    def to_xml(self) -> bytes:
        """The annotated grid document as UTF-8 XML bytes (no XML declaration)."""
        return etree.tostring(self.document, encoding="utf-8")

    def table(self, index: int) -> TableHeaders:
        """The result of the table with ``px:table/@index`` = ``index``.

        :raises NoTableError: if there is no such table in the result.
        """
        for table in self.tables:
            if table.index == index:
                return table
        raise NoTableError(f"no table with index {index}")


def is_grid_document(data: bytes | str) -> bool:
    """True if ``data`` is well-formed XML whose root element is ``px:grids`` (a grid document), else False."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    if b"urn:pyxform" not in raw[:4096]:
        return False
    try:
        root = etree.fromstring(raw, parser=_safe_parser())
    except etree.XMLSyntaxError:
        return False
    return root.tag == _PX + "grids"


_PROLOG_MARKUP = re.compile(rb"<!--.*?-->|<\?.*?\?>|<!DOCTYPE(?:[^\[>]|\[.*?\])*>", re.DOTALL | re.IGNORECASE)
_FIRST_START_TAG = re.compile(rb"<((?:[A-Za-z_][\w.-]*:)?)grids[\s/>]")


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


class HeaderDetector:
    """The headers stage, compiled once: call :meth:`run` as often as needed.

    :param runtime: a :class:`~pyxform.runtime.saxon.SaxonRuntime` in which ``headers.xsl`` is compiled under the name
        ``headers``; the pipeline's shared runtime (:func:`pyxform.runtime.runner.shared_runtime`) if ``None``.
    :raises StylesheetError: if the runtime does not hold the headers stylesheet.

    Thread safety: one run at a time per detector (an internal lock serializes calls).
    """

    STYLESHEET = "headers"

    def __init__(self, runtime: SaxonRuntime | None = None) -> None:
        if runtime is None:
            from ..runtime.runner import shared_runtime  # the pipeline's one processor, headers.xsl compiled in it

            runtime = shared_runtime()
        if not runtime.has(self.STYLESHEET):
            raise StylesheetError("headers.xsl is not compiled in this runtime", location=self.STYLESHEET)
        self.runtime = runtime
        self._lock = threading.Lock()

    def run(self, grid: bytes | str | etree._ElementTree | etree._Element, *, method: str = "auto",
            table: int | None = None, params: Mapping[str, str | int | float] | None = None) -> HeadersResult:
        """Annotate a grid document with its header regions.

        :param grid: a ``px:grids`` document (``docs/formats.md`` section 2): XML bytes/str or an lxml tree/element.
        :param method: ``auto``, ``markup`` or ``format`` (see :data:`METHODS`).
        :param table: annotate and report only the table with this index (the others are copied unchanged).
        :param params: other stylesheet parameters by name (the weights and thresholds of
            ``stylesheets/headers/params.xsl``), for evaluations; the defaults are the documented ones. Checked as
            ``convert``'s are (:func:`pyxform.runtime.params.check_stage_params`).
        :returns: the annotated document and one :class:`TableHeaders` per annotated table.
        :raises ValueError: for an unknown ``method``.
        :raises ParameterError: a parameter the stage does not declare, or a value it cannot take.
        :raises InputError: if ``grid`` is not a grid document.
        :raises NoTableError: if ``table`` names no table of the grid.
        :raises TableError: if ``table`` names a table that normalize could not build (``px:table-failure``).
        :raises StylesheetError: if the stylesheet fails (a bug: the message says where).
        """
        if method not in METHODS:
            raise ValueError(f"method must be one of {', '.join(METHODS)}, not {method!r}")
        if params:
            from ..runtime.params import check_stage_params

            params = check_stage_params("headers", params)
        text = _as_text(grid)
        root = _check_grid(text)
        if table is not None:
            _check_table(root, table)
        with self._lock:
            node = self.runtime.parse(text)
            values: dict[str, Any] = dict(params or {})
            values.update(method=method, table=-1 if table is None else int(table))
            logged = len(self.runtime.messages)
            try:
                output = self.runtime.transform_to_string(self.STYLESHEET, node, values)
            finally:  # this run's messages go into the result; the shared log does not grow
                warnings = [message.text for message in self.runtime.messages[logged:]]
                del self.runtime.messages[logged:]
        try:
            document = etree.ElementTree(etree.fromstring(output.encode("utf-8"), parser=_safe_parser()))
        except etree.XMLSyntaxError as exc:  # the stylesheet always writes well-formed XML; a bug if not
            raise StylesheetError(f"the headers stage wrote XML that is not well-formed: {exc}") from None
        tables = [_table_headers(element) for element in document.getroot().iter(_PX + "table")
                  if element.get("header-rows") is not None and (table is None or element.get("index") == str(table))]
        tables.sort(key=lambda t: t.index)
        failures = [TableFailureNote(int(e.get("index", "-1")), e.get("locator", ""), e.get("code", ""),
                                     e.get("message", ""))
                    for e in document.getroot().iter(_PX + "table-failure")]
        return HeadersResult(document=document, tables=tables, failures=failures, warnings=warnings)


def _as_text(grid: bytes | str | etree._ElementTree | etree._Element) -> str:
    if isinstance(grid, etree._ElementTree):
        grid = grid.getroot()
    if isinstance(grid, etree._Element):
        return etree.tostring(grid, encoding="unicode")
    if isinstance(grid, bytes):
        return grid.decode("utf-8")
    return grid


def _check_grid(text: str) -> etree._Element:
    try:
        root = etree.fromstring(text.encode("utf-8"), parser=_safe_parser())
    except etree.XMLSyntaxError as exc:
        raise InputError(f"not a grid document: the XML is not well-formed ({exc})") from None
    if root.tag != _PX + "grids":
        raise InputError(f"not a grid document: the root element is {root.tag!r}, not px:grids ({PX_NS})")
    if root.getroottree().docinfo.doctype:
        raise BadXmlInput("the grid document has a document type declaration (DTD): pyxform reads no DTD and "
                          "expands no entity")
    return root


def _check_table(root: etree._Element, index: int) -> None:
    for element in root:
        if element.get("index") == str(index):
            if element.tag == _PX + "table-failure":
                message = f"table {index} could not be normalized: {element.get('message', '')}"
                location = f"table {index} ({element.get('locator', '')})"
                if element.get("code") == "limit":
                    raise LimitExceeded(message, limit="max_slots", location=location)
                raise TableError(message, location=location)
            return
    raise NoTableError(f"the page has no table with index {index}")


def _table_headers(element: etree._Element) -> TableHeaders:
    evidence = element.find(_PX + "header-evidence")
    return TableHeaders(index=int(element.get("index", "0")), header_rows=int(element.get("header-rows", "0")),
                        header_cols=int(element.get("header-cols", "0")),
                        method=element.get("header-method", "none"), evidence=evidence,
                        kind=element.get("kind", ""))


_detector: HeaderDetector | None = None
_detector_lock = threading.Lock()


def _default_detector() -> HeaderDetector:
    global _detector
    with _detector_lock:
        if _detector is None:
            _detector = HeaderDetector()
        return _detector


def detect_headers(grid: bytes | str | etree._ElementTree | etree._Element, *, method: str = "auto",
                   table: int | None = None, params: Mapping[str, str | int | float] | None = None) -> HeadersResult:
    """Run the headers stage on a grid document with the process-wide compiled stylesheet.

    See :meth:`HeaderDetector.run` for the parameters, the result and the errors.
    """
    return _default_detector().run(grid, method=method, table=table, params=params)


def headers(page: Source | bytes | str | os.PathLike[str], *, method: str = "auto", table: int | None = None,
            source: str | None = None, limits: Limits = DEFAULT_LIMITS) -> HeadersResult:
    """Find the header region of every table of a page: clean, normalize (``pyxform.grid``), then this stage.

    :param page: a :class:`~pyxform.base.source.Source`, the page's bytes, its decoded text (``str``) or a path; a grid
        document (``px:grids``, as ``pyxform grid`` writes it) is taken as it is.
    :param method: ``auto``, ``markup`` or ``format`` (see :data:`METHODS`).
    :param table: only the table with this index (0-based, document order, nested tables included).
    :param source: the page's name recorded in the grid (default: the path, or empty).
    :param limits: resource limits of the clean and normalize stages.
    :returns: :class:`HeadersResult`; ``.to_json()`` is ``{"tables": [{"index", "header_rows", "header_cols",
        "method"}]}``.
    :raises InputNotFound, EmptyInput, UndecodableInput, LimitExceeded, NoTableError: as :func:`pyxform.grid`.
    :raises TableError, LimitExceeded: if ``table`` names a table that could not be normalized.
    :raises TypeError: ``page`` is none of the above.
    """
    from ..base.source import read_source
    from .normalize import grid

    if isinstance(page, os.PathLike):
        page = read_source(page, limits=limits)
    data = page.data if isinstance(page, Source) else page
    if not isinstance(data, (bytes, bytearray, memoryview, str)):
        raise TypeError(f"headers() takes a page as a Source, bytes, str or a path, not {type(page).__name__}")
    if looks_like_grid_document(bytes(data) if not isinstance(data, str) else data):
        location = (page.uri if isinstance(page, Source) else source) or None
        root = parse_untrusted(data, what="grid document", location=location)  # BadXmlInput: line and column
        if root.getroottree().docinfo.doctype:
            raise BadXmlInput("the grid document has a document type declaration (DTD): pyxform reads no DTD and "
                              "expands no entity", location=location)
        return detect_headers(root, method=method, table=table)

    document = grid(page, table=table, source=source, limits=limits)
    return detect_headers(document.xml, method=method, table=table)
