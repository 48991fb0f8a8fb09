"""Stage 2, normalize: annotated XHTML -> grid, and the typed Python model of the grid.

The table model itself (WHATWG HTML "forming a table", 4.9.12.1, with spans cut at the end of their row group as
browsers draw them) lives in ``stylesheets/normalize.xsl``; this module runs it and reads its output
(``docs/formats.md`` section 2, ``schemas/grid.xsd``) into frozen dataclasses, on first use (writing the grid XML
needs no model):

    GridDocument                 one page
    ├── tables: TableGrid ...    one per table that could be normalized, in document order (nested ones included)
    │   ├── cells: Cell ...      the table's td/th in tree order, each with its anchor slot and effective spans
    │   ├── grid                 rows x cols slots, each the Cell covering it or None
    │   └── errors               table model errors (overlap, rowspan-clipped, colspan-clamped, ...)
    └── failures: TableFailure   tables that could not be normalized (a limit, an error); the others are unaffected

Use :func:`grid` for a page (bytes, text or a path); :class:`Normalizer` to reuse one compiled runtime explicitly.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from ..base.errors import PyxformError, no_table_error, table_failure_error
from ..base.limits import DEFAULT_LIMITS, Limits
from ..base.memory import RELEASE_AFTER_BYTES, release_free_memory
from ..base.safexml import parse_xml
from ..base.source import Source, read_source
from ..runtime.runner import shared_runtime
from ..runtime.saxon import SaxonRuntime

__all__ = [
    "Cell",
    "Link",
    "Image",
    "TableModelError",
    "TableGrid",
    "TableFailure",
    "GridDocument",
    "Normalizer",
    "grid",
    "read_grid_xml",
    "read_table_failure",
    "PX_NS",
]

PX_NS = "urn:pyxform"
_PX = "{" + PX_NS + "}"

# Optional px:cell attributes, as written in the grid, in the order of docs/formats.md section 2.
CELL_FEATURES: tuple[str, ...] = (
    "font-size", "bold", "italic", "align", "face", "color", "background", "indent",
    "scope", "headers", "html-id", "abbr", "class",
)


# -- the model ----------------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Link:
    """An ``a[@href]`` inside a cell: its target and visible text."""

    href: str
    text: str


@dataclass(frozen=True, slots=True)
class Image:
    """An ``img`` inside a cell: its ``src`` and ``alt`` (``None`` where the attribute is absent)."""

    src: str | None
    alt: str | None


@dataclass(frozen=True, slots=True)
class Cell:
    """One ``td``/``th`` of a table (WHATWG: a cell), placed on the grid.

    :ivar id: ``t{table index}.c{n}``, n = position of the cell in tree order (0-based).
    :ivar row, col: the anchor slot, 0-based, in the table's row order (row groups in tree order, tfoot last).
    :ivar rowspan, colspan: effective spans: colspan 1..1000, rowspan 1..65534, ``rowspan=0`` run to the end of the
        row group, a rowspan cut at the end of its row group.
    :ivar tag: ``"td"`` or ``"th"``.
    :ivar text: the visible text (``docs/formats.md`` section 2): line feeds for ``br`` and block boundaries, other
        whitespace collapsed, trimmed, nested tables left out.
    :ivar group, group_kind: the row group's index and kind (``thead``, ``tbody``, ``tfoot``, ``none`` for rows that
        are children of the table).
    :ivar features: the optional attributes (formatting features from clean: ``font-size``, ``bold``, ...; and
        ``scope``, ``headers``, ``html-id``, ``abbr``, ``class``), present only where the source has them.
    :ivar table_refs: indexes of the tables nested in this cell.
    """

    id: str
    row: int
    col: int
    rowspan: int
    colspan: int
    tag: str
    text: str
    group: int
    group_kind: str
    features: Mapping[str, str] = field(default_factory=dict)
    links: tuple[Link, ...] = ()
    images: tuple[Image, ...] = ()
    table_refs: tuple[int, ...] = ()

    @property
    def origin(self) -> tuple[int, int]:
        """The anchor slot as ``(row, column)``."""
        return (self.row, self.col)

    def covers(self, row: int, col: int) -> bool:
        """True if the slot ``(row, col)`` lies inside this cell's span."""
        return self.row <= row < self.row + self.rowspan and self.col <= col < self.col + self.colspan


@dataclass(frozen=True, slots=True)
class TableModelError:
    """A table model error (WHATWG 4.9.12.1) found while forming the table; the grid is still complete.

    :ivar code: ``overlap``, ``rowspan-clipped``, ``colspan-clamped``, ``rowspan-clamped``, ``rowspan-zero``,
        ``empty-row`` or ``empty-column``.
    :ivar row, col: the slot (overlap), the row (empty-row) or the column (empty-column).
    :ivar cells: the cell ids concerned (for overlap: every cell covering the slot, in tree order).
    :ivar declared, effective: the span the source gives and the span used (span errors).
    """

    code: str
    row: int | None = None
    col: int | None = None
    cells: tuple[str, ...] = ()
    declared: int | None = None
    effective: int | None = None


@dataclass(frozen=True, slots=True)
class TableGrid:
    """The normalized grid of one table.

    :ivar index: 0-based position among all ``table`` elements of the page, document order, nested included.
    :ivar rows, cols: the grid's size; ``grid`` has ``rows`` rows of ``cols`` slots each.
    :ivar grid: ``grid[r][c]`` is the :class:`Cell` covering slot (r, c) (the later cell in tree order where cells
        overlap), or ``None`` where no cell covers it.
    :ivar locator: an XPath to the table in the source page.
    :ivar parent_table, parent_cell: for a nested table, the enclosing table's index and the id of the cell it sits
        in (``parent_cell`` is ``None`` if it sits elsewhere, e.g. in a caption).
    """

    index: int
    rows: int
    cols: int
    locator: str
    depth: int
    cells: tuple[Cell, ...]
    grid: tuple[tuple[Cell | None, ...], ...]
    errors: tuple[TableModelError, ...] = ()
    caption: str | None = None
    summary: str | None = None
    heading: str | None = None
    font_size: str | None = None
    parent_table: int | None = None
    parent_cell: str | None = None
    row_groups: tuple[tuple[int, str], ...] = ()
    row_classes: tuple[str | None, ...] = ()

    def cell(self, cell_id: str) -> Cell:
        """The cell with id ``cell_id``. :raises KeyError: if this table has no such cell."""
        for cell in self.cells:
            if cell.id == cell_id:
                return cell
        raise KeyError(cell_id)

    def to_json(self) -> dict[str, Any]:
        """``{"index", "rows", "cols", "grid": [[{"text", "tag", "origin": [r, c]}, ...], ...]}``; an uncovered slot
        is ``{"text": "", "tag": None, "origin": None}``."""
        return {
            "index": self.index,
            "rows": self.rows,
            "cols": self.cols,
            "grid": [[_slot_json(cell) for cell in row] for row in self.grid],
        }


def _slot_json(cell: Cell | None) -> dict[str, Any]:
    if cell is None:
        return {"text": "", "tag": None, "origin": None}
    return {"text": cell.text, "tag": cell.tag, "origin": [cell.row, cell.col]}


@dataclass(frozen=True, slots=True)
class TableFailure:
    """A table that could not be normalized (``px:table-failure``, ``docs/formats.md`` section 2); the page's other
    tables are not affected. Also the jobs layer's ``TableFailureInfo``.

    :ivar index: the table's ``px:index``.
    :ivar code: ``limit`` (a resource limit) or ``table`` (the table model could not be formed).
    :ivar message: why.
    :ivar locator: an XPath to the table in the page.
    :ivar limit: for ``limit``: the limit's name (``max_slots``, ``max_depth``), else ``None``.
    """

    index: int
    code: str
    message: str
    locator: str = ""
    limit: str | None = None

    def error(self, location: str | None = None) -> PyxformError:
        """This table, asked for alone, as an error: :class:`~pyxform.base.errors.LimitExceeded` naming the limit
        (exit 7), else :class:`~pyxform.base.errors.TableError` (exit 9); ``location``: the page."""
        return table_failure_error(self.index, self.locator, self.code, self.message, limit=self.limit,
                                   location=location)

    def to_dict(self) -> dict[str, Any]:
        """``{"index", "locator", "code", "message"}``, and ``"limit"`` for a limit."""
        found = {"index": self.index, "locator": self.locator, "code": self.code, "message": self.message}
        return {**found, "limit": self.limit} if self.limit else found


def read_table_failure(element: etree._Element) -> TableFailure:
    """A ``px:table-failure`` element as a :class:`TableFailure`."""
    return TableFailure(int(element.get("index", "-1")), element.get("code", ""), element.get("message", ""),
                        element.get("locator", ""), element.get("limit"))


class GridDocument:
    """The grids of one page, and the grid XML they were read from (``xml``, ``docs/formats.md`` section 2).

    :ivar tables: the tables that could be normalized (:class:`TableGrid`), in index order.
    :ivar failures: the tables that could not (:class:`TableFailure`).
    :ivar source, title, encoding: the page's, from the grid's ``px:grids`` element.
    :ivar xml: the grid document as text.

    A document made by :meth:`from_xml` (what :func:`grid` and :meth:`Normalizer.normalize` return) reads ``xml``
    into the model only when one of the other attributes is first used: writing the grid XML costs no model.
    """

    __slots__ = ("xml", "_model")

    def __init__(self, tables: tuple[TableGrid, ...] = (), failures: tuple[TableFailure, ...] = (), source: str = "",
                 title: str | None = None, encoding: str | None = None, xml: str = "") -> None:
        self.xml = xml
        self._model: tuple[tuple[TableGrid, ...], tuple[TableFailure, ...], str, str | None, str | None] | None = (
            tuple(tables), tuple(failures), source, title, encoding)

    @classmethod
    def from_xml(cls, xml: str) -> GridDocument:
        """A document over well-formed grid XML (a stylesheet's result), read on first use of the model.

        :raises lxml.etree.XMLSyntaxError: on that first use, if ``xml`` is not well-formed.
        """
        document = cls(xml=xml)
        document._model = None
        return document

    def _loaded(self) -> tuple[tuple[TableGrid, ...], tuple[TableFailure, ...], str, str | None, str | None]:
        model = self._model
        if model is None:
            read = read_grid_xml(self.xml)
            model = self._model = (read.tables, read.failures, read.source, read.title, read.encoding)
        return model

    @property
    def tables(self) -> tuple[TableGrid, ...]:
        return self._loaded()[0]

    @property
    def failures(self) -> tuple[TableFailure, ...]:
        return self._loaded()[1]

    @property
    def source(self) -> str:
        return self._loaded()[2]

    @property
    def title(self) -> str | None:
        return self._loaded()[3]

    @property
    def encoding(self) -> str | None:
        return self._loaded()[4]

    def __repr__(self) -> str:
        if self._model is None:
            return f"GridDocument(<{len(self.xml)} characters of grid XML, not read yet>)"
        return (f"GridDocument(tables={len(self.tables)}, failures={len(self.failures)}, source={self.source!r}, "
                f"title={self.title!r})")

    def __iter__(self) -> Iterator[TableGrid]:
        return iter(self.tables)

    def __len__(self) -> int:
        return len(self.tables)

    def table(self, index: int) -> TableGrid:
        """The table whose page index is ``index``. :raises KeyError: if it is not among ``tables``."""
        for table in self.tables:
            if table.index == index:
                return table
        raise KeyError(index)

    def to_json(self) -> dict[str, Any]:
        """``{"tables": [TableGrid.to_json(), ...]}``, plus ``"failures": [{"index", "locator", "code",
        "message"}, ...]`` only when some table failed."""
        result: dict[str, Any] = {"tables": [table.to_json() for table in self.tables]}
        if self.failures:
            result["failures"] = [failure.to_dict() for failure in self.failures]
        return result


# -- reading the grid XML -----------------------------------------------------------------------------------------
def _int(value: str | None) -> int | None:
    return None if value is None else int(value)


def _read_cell(element: etree._Element) -> Cell:
    get = element.get
    links: list[Link] = []
    images: list[Image] = []
    refs: list[int] = []
    text = ""
    for child in element:
        tag = child.tag
        if tag == _PX + "text":
            text = child.text or ""
        elif tag == _PX + "link":
            links.append(Link(child.get("href", ""), child.text or ""))
        elif tag == _PX + "image":
            images.append(Image(child.get("src"), child.get("alt")))
        elif tag == _PX + "table-ref":
            refs.append(int(child.get("index")))
    return Cell(
        id=get("id"), row=int(get("row")), col=int(get("col")), rowspan=int(get("rowspan")),
        colspan=int(get("colspan")), tag=get("tag"), text=text, group=int(get("group")),
        group_kind=get("group-kind"),
        features={name: get(name) for name in CELL_FEATURES if get(name) is not None},
        links=tuple(links), images=tuple(images), table_refs=tuple(refs),
    )


def _read_error(element: etree._Element) -> TableModelError:
    get = element.get
    cells = tuple(get("cells").split()) if get("cells") else ((get("cell"),) if get("cell") else ())
    return TableModelError(code=get("code"), row=_int(get("row")), col=_int(get("col")), cells=cells,
                           declared=_int(get("declared")), effective=_int(get("effective")))


def _read_table(element: etree._Element) -> TableGrid:
    get = element.get
    cells: list[Cell] = []
    by_id: dict[str, Cell] = {}
    rows: list[tuple[Cell | None, ...]] = []
    groups: list[tuple[int, str]] = []
    classes: list[str | None] = []
    errors: list[TableModelError] = []
    caption = summary = None
    for child in element:
        tag = child.tag
        if tag == _PX + "cell":
            cell = _read_cell(child)
            cells.append(cell)
            by_id[cell.id] = cell
        elif tag == _PX + "row":
            rows.append(tuple(by_id[slot.get("cell")] if slot.get("cell") else None for slot in child))
            groups.append((int(child.get("group")), child.get("group-kind")))
            classes.append(child.get("class"))
        elif tag == _PX + "error":
            errors.append(_read_error(child))
        elif tag == _PX + "caption":
            caption = child.text or ""
        elif tag == _PX + "summary":
            summary = child.text or ""
    return TableGrid(
        index=int(get("index")), rows=int(get("rows")), cols=int(get("cols")), locator=get("locator"),
        depth=int(get("depth")), cells=tuple(cells), grid=tuple(rows), errors=tuple(errors), caption=caption,
        summary=summary, heading=get("heading"), font_size=get("font-size"),
        parent_table=_int(get("parent-table")), parent_cell=get("parent-cell"),
        row_groups=tuple(groups), row_classes=tuple(classes),
    )


def read_grid_xml(xml: str | bytes) -> GridDocument:
    """Read a grid document (``px:grids``, ``docs/formats.md`` section 2) into a :class:`GridDocument`.

    :raises lxml.etree.XMLSyntaxError: if ``xml`` is not well-formed.
    """
    data = xml.encode("utf-8") if isinstance(xml, str) else xml
    root = parse_xml(data)
    tables: list[TableGrid] = []
    failures: list[TableFailure] = []
    for child in root:
        if child.tag == _PX + "table":
            tables.append(_read_table(child))
        elif child.tag == _PX + "table-failure":
            failures.append(read_table_failure(child))
    return GridDocument(tables=tuple(tables), failures=tuple(failures), source=root.get("source", ""),
                        title=root.get("title"), encoding=root.get("encoding"),
                        xml=data.decode("utf-8") if isinstance(xml, bytes) else xml)


class Normalizer:
    """Runs stage 2 with one compiled runtime: ``Normalizer().normalize(xhtml)``.

    :param runtime: a runtime in which ``normalize`` is compiled (default:
        :func:`pyxform.runtime.runner.shared_runtime`).
    :param limits: ``max_slots`` (slots per table) and ``max_depth`` (table nesting) become ``px:table-failure``
        with code ``limit`` for the tables that exceed them.
    """

    def __init__(self, runtime: SaxonRuntime | None = None, *, limits: Limits = DEFAULT_LIMITS) -> None:
        self.runtime = runtime or shared_runtime()
        self.limits = limits

    def params(self, table: int | None) -> dict[str, int]:
        return {"max-slots": self.limits.max_slots, "max-depth": self.limits.max_depth,
                "only-table": -1 if table is None else table}

    def normalize_node(self, xhtml_node: Any, *, table: int | None = None) -> Any:
        """Annotated XHTML as a Saxon ``PyXdmNode`` -> grid as a ``PyXdmNode`` (for the next stage, in memory)."""
        return self.runtime.transform("normalize", xhtml_node, self.params(table))

    def normalize(self, xhtml: str | bytes, *, table: int | None = None) -> GridDocument:
        """Annotated XHTML (``docs/formats.md`` section 1) -> :class:`GridDocument`.

        :param table: normalize only the table with this index (the others are not listed).
        :raises pyxform.base.errors.BadXmlInput: if the input is not well-formed XML or declares a document type.
        """
        node = self.runtime.parse(xhtml)
        logged = len(self.runtime.messages)
        xml = self.runtime.transform_to_string("normalize", node, self.params(table))
        del self.runtime.messages[logged:]  # failures are in the result; keep the shared log from growing
        return GridDocument.from_xml(xml)


def grid(page: Source | bytes | str | os.PathLike[str], *, table: int | None = None, source: str | None = None,
         limits: Limits = DEFAULT_LIMITS, normalizer: Normalizer | None = None) -> GridDocument:
    """Clean one HTML page and normalize every table in it into a dense grid (WHATWG HTML 4.9.12.1 "forming a
    table"; docs/formats.md section 2).

    :param page: a :class:`~pyxform.base.source.Source`, the page's bytes, its decoded text (``str``), or a path
        (``os.PathLike``) to read.
    :param table: only the table with this index (0-based, document order, nested tables included).
    :param source: the name of the page recorded in the result (default: the path, or empty).
    :param limits: resource limits; a table over ``max_slots`` or ``max_depth`` is listed in ``failures``.
    :returns: a :class:`GridDocument`; ``.to_json()`` gives ``{"tables": [{"index", "rows", "cols", "grid"}]}``.
    :raises InputNotFound: a path that cannot be read.
    :raises EmptyInput: no bytes, or only whitespace.
    :raises UndecodableInput: binary data.
    :raises LimitExceeded: the page is over ``limits.max_page_bytes`` (or has too many or too deep tables).
    :raises NoTableError: the page has no ``table`` element, or none with index ``table``.
    """
    from .clean import clean_tables_to_bytes

    if isinstance(page, os.PathLike):
        page = read_source(page, limits=limits)
    name = source if source is not None else page.uri if isinstance(page, Source) else ""
    normalizer = normalizer or Normalizer(limits=limits)
    # only the tables serialized (the page's lxml tree freed inside, released below for a large page before Saxon's
    # heap grows), and the tables' px:index for the message of a table that is not there
    xhtml, _warnings, _links, indexes = clean_tables_to_bytes(page, limits, name=name, indexes=table is not None)
    if len(xhtml) >= RELEASE_AFTER_BYTES:
        release_free_memory()
    document = normalizer.normalize(xhtml, table=table)
    if "<px:table" not in document.xml:  # neither a px:table nor a px:table-failure (the model is not read)
        raise no_table_error(table, indexes, location=name or None)
    return document
