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
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from lxml import etree

from ..base.errors import NoTableError, StylesheetError, no_table_error
from ..base.limits import DEFAULT_LIMITS, Limits
from ..base.safexml import parse_xml, serialize_root
from ..base.source import Source
from ..runtime.saxon import SaxonRuntime, per_process
from .grid_input import is_grid_document, looks_like_grid_document, read_grid_input
from .normalize import TableFailure, read_table_failure

__all__ = [
    "METHODS",
    "HeaderDetector",
    "HeadersResult",
    "Method",
    "TableHeaders",
    "detect_headers",
    "headers",
    "is_grid_document",
    "looks_like_grid_document",
]

PX_NS = "urn:pyxform"
_PX = "{" + PX_NS + "}"


Method = Literal["auto", "markup", "format"]
#: The values of ``method``: auto (markup where it marks something useful, else formatting), markup, format.
METHODS: tuple[str, ...] = get_args(Method)


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
    failures: list[TableFailure] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """``{"tables": [{"index": I, "header_rows": k, "header_cols": p, "method": ...}, ...]}``, plus
        ``"failures": [{"index", "locator", "code", "message"}, ...]`` only when some table failed (the shape of
        :meth:`pyxform.stages.normalize.GridDocument.to_json`)."""
        result: dict[str, Any] = {"tables": [table.to_dict() for table in self.tables]}
        if self.failures:
            result["failures"] = [failure.to_dict() for failure in self.failures]
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
            table: int | None = None, params: Mapping[str, str | int | float] | None = None,
            limits: Limits = DEFAULT_LIMITS, location: str | None = None) -> HeadersResult:
        """Annotate a grid document with its header regions.

        :param grid: a ``px:grids`` document (``docs/formats.md`` section 2): XML bytes/str or an lxml tree/element,
            checked before any work (:func:`pyxform.stages.grid_input.read_grid_input`: its schema, its tables'
            sizes against ``limits``).
        :param method: ``auto``, ``markup`` or ``format`` (see :data:`METHODS`).
        :param table: annotate and report only the table with this index (the others are copied unchanged).
        :param params: other stylesheet parameters by name (the weights and thresholds of
            ``stylesheets/headers/params.xsl``), for evaluations; the defaults are the documented ones. Checked as
            ``convert``'s are (:func:`pyxform.runtime.params.check_stage_params`).
        :param location: where the grid comes from (a path), for messages.
        :returns: the annotated document and one :class:`TableHeaders` per annotated table.
        :raises ValueError: for an unknown ``method``.
        :raises ParameterError: a parameter the stage does not declare, a value it cannot take, or ``method`` or
            ``table`` (the options above) among ``params``.
        :raises BadXmlInput: ``grid`` is not a grid document, or not a sound one.
        :raises LimitExceeded: a table of ``grid`` declares more slots than ``limits`` allow.
        :raises NoTableError: if ``table`` names no table of the grid.
        :raises TableError, LimitExceeded: if ``table`` names a table that normalize could not build
            (``px:table-failure``: by its code and limit).
        :raises StylesheetError: if the stylesheet fails (a bug: the message says where).
        """
        if isinstance(grid, etree._ElementTree):
            grid = grid.getroot()
        root = read_grid_input(etree.tostring(grid) if isinstance(grid, etree._Element) else grid, limits=limits,
                               location=location)
        return self.annotate(serialize_root(root), method=method, table=table, params=params, root=root,
                             location=location)

    def annotate(self, grid: str, *, method: str = "auto", table: int | None = None,
                 params: Mapping[str, str | int | float] | None = None, root: etree._Element | None = None,
                 location: str | None = None) -> HeadersResult:
        """:meth:`run` on a grid document pyxform wrote itself (the normalize stage's result), not checked again.

        :param root: ``grid`` parsed, if it already is (to find ``table``).
        """
        if method not in METHODS:
            raise ValueError(f"method must be one of {', '.join(METHODS)}, not {method!r}")
        if params:
            from ..runtime.params import check_option_params, check_stage_params

            check_option_params({"headers": params})  # method and table are this function's own
            params = check_stage_params("headers", params)
        if table is not None:
            _check_table(parse_xml(grid) if root is None else root, table, location)
        with self._lock:
            node = self.runtime.parse(grid)
            values: dict[str, Any] = dict(params or {})
            values.update(method=method, table=-1 if table is None else int(table))
            logged = len(self.runtime.messages)
            try:
                output = self.runtime.transform_to_string(self.STYLESHEET, node, values)
            finally:  # this run's messages go into the result; the shared log does not grow
                warnings = [message.text for message in self.runtime.messages[logged:]]
                del self.runtime.messages[logged:]
        try:
            document = etree.ElementTree(parse_xml(output))
        except etree.XMLSyntaxError as exc:  # the stylesheet always writes well-formed XML; a bug if not
            raise StylesheetError(f"the headers stage wrote XML that is not well-formed: {exc}") from None
        tables = [_table_headers(element) for element in document.getroot().iter(_PX + "table")
                  if element.get("header-rows") is not None and (table is None or element.get("index") == str(table))]
        tables.sort(key=lambda t: t.index)
        failures = [read_table_failure(element) for element in document.getroot().iter(_PX + "table-failure")]
        return HeadersResult(document=document, tables=tables, failures=failures, warnings=warnings)


def _check_table(root: etree._Element, index: int, location: str | None) -> None:
    """:raises NoTableError: no table ``index``; :raises LimitExceeded, TableError: it is a ``px:table-failure``."""
    indexes = []
    for element in root:
        if element.tag in (_PX + "table", _PX + "table-failure"):
            if element.get("index") == str(index):
                if element.tag == _PX + "table-failure":
                    raise read_table_failure(element).error(location)
                return
            indexes.append(int(element.get("index", "-1")))
    raise no_table_error(index, indexes, location=location)


def _table_headers(element: etree._Element) -> TableHeaders:
    evidence = element.find(_PX + "header-evidence")
    return TableHeaders(index=int(element.get("index", "0")), header_rows=int(element.get("header-rows", "0")),
                        header_cols=int(element.get("header-cols", "0")),
                        method=element.get("header-method", "none"), evidence=evidence,
                        kind=element.get("kind", ""))


_default_detector = per_process(HeaderDetector)


def detect_headers(grid: bytes | str | etree._ElementTree | etree._Element, *, method: str = "auto",
                   table: int | None = None, params: Mapping[str, str | int | float] | None = None,
                   limits: Limits = DEFAULT_LIMITS) -> HeadersResult:
    """Run the headers stage on a grid document with the process-wide compiled stylesheet.

    See :meth:`HeaderDetector.run` for the parameters, the result and the errors.
    """
    return _default_detector().run(grid, method=method, table=table, params=params, limits=limits)


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
        return _default_detector().run(bytes(data) if not isinstance(data, str) else data, method=method,
                                       table=table, limits=limits, location=location)
    document = grid(page, table=table, source=source, limits=limits)
    location = (page.uri if isinstance(page, Source) else source) or None
    return _default_detector().annotate(document.xml, method=method, table=table, location=location)
