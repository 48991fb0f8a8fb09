"""Stage 1, clean: page bytes -> annotated XHTML (``docs/formats.md`` section 1).

Steps: decode (:mod:`.decode`, WHATWG order) -> HTML5 parse into lxml (:mod:`.parse`) -> number every table
(``px:index``, ``px:locator``, ``px:depth``) -> remove hidden elements (:mod:`.style`) -> annotate tables and cells
with the formatting features header detection needs (:mod:`.features`) -> page attributes on ``html``.

What a ``str`` means: :func:`clean` takes a ``str`` as the page's HTML *text* (already decoded; encoding reported as
``utf-8``, source ``caller``); bytes are decoded here; a :class:`~pyxform.base.source.Source` brings its bytes, URI and
transport charset. Reading files, standard input and URLs is :func:`pyxform.base.source.read_source`'s job.
A few lines over 500 lines because the tables-only hand-off's shortcuts stay beside the public path they must match.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import repeat
from typing import Final

from lxml import etree

from ...base.limits import DEFAULT_LIMITS, Limits, check_page_bytes, limit_exceeded
from ...base.source import Source
from .decode import Decoded, decode_html
from .features import annotate_tables, collapse, insert_features, insert_features_in_order, text_content
from .parse import PX_NS, XHTML_NS, parse_html
from .style import Cascade

__all__ = ["CleanedPage", "PageLinks", "clean", "clean_for_bytes", "clean_tables_to_bytes", "PX_NS", "locator"]

_PX: Final = "{" + PX_NS + "}"
_X: Final = "{" + XHTML_NS + "}"
_SKELETON: Final = frozenset({_X + "html", _X + "head", _X + "body"})
_CELLS: Final = frozenset({_X + "td", _X + "th"})
_TABLE: Final = _X + "table"
_HEADINGS: Final = tuple(_X + f"h{n}" for n in range(1, 7))
# Attributes of the tables' elements that the normalize stage never reads (stylesheets/normalize reads no attribute by
# a wildcard; clean has read the presentational ones): about a fifth of the bytes of the corpus's tables, most in the
# first three.
_UNREAD_ATTRIBUTES: Final = ("title", "style", "srcset", "align", "data-file-height", "data-file-width", "width",
                             "height", "bgcolor", "cellspacing", "valign", "cellpadding", "border", "role", "nowrap")


@dataclass(frozen=True)
class PageLinks:
    """The links of a page as written in it, for a link graph (PageRank) and the page's own URL.

    Taken from the parsed DOM before hidden elements are removed (a crawler follows the links of hidden navigation
    too); values are the attribute values with leading and trailing ASCII whitespace stripped (HTML "valid URL
    potentially surrounded by spaces"), not resolved: resolving needs the page's URL, which only the caller knows.

    :ivar canonical: the ``href`` of the first ``link`` whose ``rel`` has the token ``canonical`` (RFC 6596), or
        ``None``.
    :ivar base: the ``href`` of the first ``base`` element with one (HTML 4.2.3 "the document base URL"), or ``None``.
    :ivar hrefs: the ``href`` of every ``a`` and ``area`` element that has one, in document order (empty ones
        dropped).
    """

    canonical: str | None = None
    base: str | None = None
    hrefs: tuple[str, ...] = ()


_ASCII_SPACE: Final = " \t\n\x0c\r"


# The href of every HTML a element, in document order, as plain strings: one query in C (a Python loop over the links
# of a large page, a proxy object and a tag string each, cost about as much as the rest of _scan).
_A_HREFS: Final = etree.XPath("descendant::h:a/@href", namespaces={"h": XHTML_NS}, smart_strings=False)


def _scan(root: etree._Element, max_tables: int
          ) -> tuple[list[etree._Element], PageLinks, list[etree._Element], list[etree._Element]]:
    """One walk over a parsed page for what clean reads before it changes the tree: its tables in document order (at
    most ``max_tables`` + 1: one more is a page over the limit), its :class:`PageLinks`, its ``noscript`` elements
    and its ``title`` elements (in document order, for :func:`_page_title`). The links' targets come from
    :data:`_A_HREFS` when the page has no ``area`` element (most pages), else from a walk over ``a`` and ``area``
    elements in document order (:func:`_hrefs`)."""
    canonical = base = None
    canonical_found = base_found = False
    areas = False
    tables: list[etree._Element] = []
    noscripts: list[etree._Element] = []
    titles: list[etree._Element] = []
    link, base_tag, table_tag, noscript, title = _X + "link", _X + "base", _X + "table", _X + "noscript", _X + "title"
    area = _X + "area"
    for element in root.iter(table_tag, link, base_tag, area, noscript, title):  # in document order
        tag = element.tag
        if tag == table_tag:  # most of them: tested first
            if len(tables) <= max_tables:
                tables.append(element)
            continue
        if tag == noscript:
            noscripts.append(element)
            continue
        if tag == title:
            titles.append(element)
            continue
        if tag == area:
            areas = True
            continue
        href = element.get("href")
        if href is None:
            continue
        if tag == link:
            if not canonical_found and "canonical" in (element.get("rel") or "").lower().split():
                canonical, canonical_found = href.strip(_ASCII_SPACE) or None, True
        elif not base_found:  # a base element
            base, base_found = href.strip(_ASCII_SPACE) or None, True
    hrefs = _hrefs(root) if areas else _stripped_nonempty(_A_HREFS(root))
    return tables, PageLinks(canonical, base, tuple(hrefs)), noscripts, titles


def _stripped_nonempty(values: list[str]) -> list[str]:
    """``values`` stripped of ASCII whitespace, the empty ones dropped (what :func:`_hrefs` does to each), by
    ``map`` and ``filter`` (no Python step per value)."""
    return list(filter(None, map(str.strip, values, repeat(_ASCII_SPACE))))


def _hrefs(root: etree._Element) -> list[str]:
    """The ``href`` of every ``a`` and ``area`` element of the page that has a non-empty one, in document order,
    stripped of ASCII whitespace (empty ones dropped)."""
    hrefs = []
    for element in root.iter(_X + "a", _X + "area"):
        href = element.get("href")
        if href:
            href = href.strip(_ASCII_SPACE)
            if href:
                hrefs.append(href)
    return hrefs


def _page_title(root: etree._Element, titles: list[etree._Element], noscripts: list[etree._Element]) -> str:
    """The page's title, read before clean removes anything: the ``title`` in ``head``, else the first HTML ``title``
    in document order outside a ``noscript`` (HTML Standard 4.2.2, "the title element": the first ``title`` of the
    document; CSS does not hide it from ``document.title``, and a browser with scripting reads a ``noscript``'s
    content as text). ``titles`` and ``noscripts`` are :func:`_scan`'s, in document order; each element is visited
    once, however the ``noscript`` elements nest."""
    title = root.find(f"{_X}head/{_X}title")
    if title is None and titles:
        inside: set[etree._Element] = set()
        for noscript in noscripts:
            if noscript not in inside:  # an outer noscript's walk took in the ones nested in it
                inside.update(noscript.iter(_X + "title", _X + "noscript"))
        title = next((element for element in titles if element not in inside), None)
    return collapse(text_content(title)) if title is not None else ""


@dataclass
class CleanedPage:
    """The annotated XHTML of one page.

    :ivar tree: lxml tree rooted at ``{http://www.w3.org/1999/xhtml}html`` (format: ``docs/formats.md`` section 1).
    :ivar encoding: the WHATWG name of the encoding used to decode the bytes.
    :ivar encoding_source: what decided it: ``bom``, ``caller``, ``meta``, ``detected`` or ``default``.
    :ivar source: the page's URI or file name, ``-`` for standard input, ``""`` for bytes.
    :ivar warnings: problems met and repaired (replaced bytes, an overruled charset, kept hidden body ...).
    :ivar links: the page's canonical URL, base URL and link targets, as written (:class:`PageLinks`).
    """

    tree: etree._ElementTree
    encoding: str
    encoding_source: str
    source: str = ""
    warnings: list[str] = field(default_factory=list)
    links: PageLinks = field(default_factory=PageLinks)
    #: The cells' feature attributes not written into ``tree`` (:func:`clean_for_bytes`), by cell: ``(features,
    #: serialized)`` (:func:`.features.serialized_features`). Only the serializations (:meth:`to_bytes`,
    #: :meth:`tables_to_bytes`) hold them.
    pending_features: dict[etree._Element, tuple[dict[bytes, str], bytes]] | None = field(
        default=None, repr=False, compare=False)

    def to_bytes(self) -> bytes:
        """Serialize as UTF-8 XML (no XML declaration, no DTD)."""
        return self._serialized(self.tree)

    def _serialized(self, node: etree._ElementTree | etree._Element) -> bytes:
        """``etree.tostring`` of ``node`` (the tree, or an element without its tail) with the pending features in
        its cells' start tags: the bytes it serializes to with them written into the tree (else, never on a tree of
        clean's, they are written into the tree and ``node`` serialized again)."""
        tree = isinstance(node, etree._ElementTree)
        options = {"encoding": "utf-8"} if tree else {"encoding": "utf-8", "with_tail": False}
        data = etree.tostring(node, **options)
        pending = self.pending_features
        if not pending:
            return data
        element = node.getroot() if tree else node
        inserted = insert_features(data, element.iter("{*}td", "{*}th"), pending)
        if inserted is not None:
            return inserted
        self.write_pending_features()
        return etree.tostring(node, **options)

    def write_pending_features(self) -> None:
        """Write the pending features into the tree, where :func:`clean` writes them: ``tree`` is then the tree
        :func:`clean` gives."""
        pending, self.pending_features = self.pending_features, None
        for cell, (features, _serialized) in (pending or {}).items():
            cell.attrib.update(features)

    def tables_to_bytes(self, *, spend: bool = False) -> bytes:
        """The part of the annotated XHTML that the normalize stage reads, serialized as :meth:`to_bytes` does: the
        ``html`` element with all its attributes (``px:source``, ``px:title`` ...) holding every top-level table
        (``px:depth`` 0, nested tables inside) in document order, and nothing else. Every table keeps its ``px:``
        annotations (index, locator, heading, hidden ...), so normalizing this gives the same grid as the whole page
        at about half the parsing cost (``bench/check_outputs.py`` compares the two on the corpus).

        :param spend: the page is not used afterwards: the attributes of the tables' elements that normalize never
            reads (:data:`_UNREAD_ATTRIBUTES`, some 20% of the bytes) are first removed from the tree (by lxml, in C),
            so Saxon parses less. The tree lacks them afterwards."""
        parts, tables, end = self._tables(spend)
        parts += [self._serialized(table) for table in tables]
        parts.append(end)
        return b"".join(parts)

    def _tables(self, spend: bool, tables: list[etree._Element] | None = None
                ) -> tuple[list[bytes], list[etree._Element], bytes]:
        """For :meth:`tables_to_bytes`: the ``html`` start tag (in a list), the top-level tables (``tables`` if given,
        else found in the tree; their unread attributes removed with ``spend``) and the ``html`` end tag."""
        root = self.tree.getroot()
        wrapper = etree.tostring(etree.Element(root.tag, attrib=dict(root.attrib), nsmap=root.nsmap),
                                 encoding="utf-8")
        if tables is None:
            tables = [table for table in root.iter(_X + "table") if _top_level(table)]
        if spend:
            for table in tables:
                etree.strip_attributes(table, *_UNREAD_ATTRIBUTES)
        # "<html .../>" -> "<html ...>"; the end tag unprefixed: XHTML is the default
        return [wrapper[:-2] + b">"], tables, b"</" + etree.QName(root).localname.encode() + b">"

    def _tables_to_bytes_in_order(self, in_order: list[bytes], tables: list[etree._Element] | None) -> bytes | None:
        """``tables_to_bytes(spend=True)`` of a page cleaned with ``in_order`` (:func:`clean_tables_to_bytes`; its
        top-level tables ``tables``, if known), or ``None`` if the tables' cell start tags are not one per feature
        (:func:`.features.insert_features_in_order`)."""
        parts, tables, end = self._tables(True, tables)
        position = 0
        for table in tables:
            inserted = insert_features_in_order(etree.tostring(table, encoding="utf-8", with_tail=False), in_order,
                                                position)
            if inserted is None:
                return None
            data, position = inserted
            parts.append(data)
        if position != len(in_order):
            return None
        parts.append(end)
        return b"".join(parts)


def locator(element: etree._Element) -> str:
    """An XPath 1.0 path to ``element`` with unprefixed HTML names: ``/html/body[1]/div[2]/table[1]``. For many
    elements of one tree, one :class:`_Locators` shares the work."""
    return _Locators()(element)


class _Locators:
    """:func:`locator` for elements of one tree, in document order: each element's path and its position among its
    siblings of the same name are kept, so an ancestor's path is made once and a position counts back only to the
    previous sibling of that name whose position is known (counting back to the first for every table is quadratic
    in sibling tables)."""

    def __init__(self) -> None:
        self._paths: dict[etree._Element, str] = {}
        self._positions: dict[etree._Element, int] = {}

    def __call__(self, element: etree._Element) -> str:
        paths = self._paths
        found = paths.get(element)
        if found is not None:
            return found
        chain = [element]  # element, then its ancestors up to the first with a known path (or the root)
        parent = element.getparent()
        path = ""
        while parent is not None:
            known = paths.get(parent)
            if known is not None:
                path = known
                break
            chain.append(parent)
            parent = parent.getparent()
        for node in reversed(chain):
            name = etree.QName(node).localname
            path = f"/{name}" if not path and node.getparent() is None else f"{path}/{name}[{self._position(node)}]"
            paths[node] = path
        return path

    def _position(self, node: etree._Element) -> int:
        """1 + the number of preceding siblings with ``node``'s name."""
        positions = self._positions
        position = 1
        for sibling in node.itersiblings(node.tag, preceding=True):
            known = positions.get(sibling)
            if known is not None:
                position += known
                break
            position += 1
        positions[node] = position
        return position


def _top_level(table: etree._Element) -> bool:
    """Whether ``table`` is inside no other table: its ``px:depth`` (:func:`_number_tables`), else its ancestors."""
    depth = table.get(_PX + "depth")
    if depth is not None:
        return depth == "0"
    return not any(True for _ in table.iterancestors(_X + "table"))


_SPAN: Final = re.compile(r"[ \t\n\x0c\r]*\+?([0-9]+)")


def _colspan(value: str) -> int:
    """The colspan the WHATWG table model uses for a ``colspan`` attribute's value: an invalid value or 0 is 1, at
    most 1000 (HTML 4.9.12.1)."""
    match = _SPAN.match(value)
    if not match:
        return 1
    digits = match.group(1).lstrip("0")
    return 1000 if len(digits) > 4 else min(max(int(digits or "0"), 1), 1000)  # no int() of a 5,000-digit value


def _slots_at_least(table: etree._Element) -> int:
    """A lower bound of the table's slots, without the table model: its rows (every ``tr`` is one) times the widest
    row's colspans (a row is at least as wide as its own cells). Exact for tables without rowspan."""
    rows = [row for child in table for row in ([child] if child.tag == _X + "tr" else child.iterchildren(_X + "tr"))]
    widest = 0
    for row in rows:
        width = 0
        for cell in row.iterchildren(_X + "td", _X + "th"):
            span = cell.get("colspan")
            width += 1 if span is None else _colspan(span)
        if width > widest:
            widest = width
    return len(rows) * widest


def _number_tables(tables: list[etree._Element], limits: Limits, location: str) -> list[etree._Element]:
    """``px:index`` (document order among all tables), ``px:locator`` and ``px:depth`` on every table (``tables``: the
    page's tables in document order, :func:`_scan`). Returns the top-level ones (depth 0), in document order.

    :raises LimitExceeded: more than ``max_tables`` tables, a table nested deeper than ``max_depth``, or tables whose
        slots add up to more than ``max_page_slots`` (counted from below, so a page under the limit always passes;
        a table over ``max_slots`` is not counted: it fails alone in normalize, before any of its slots exist).
    """
    page_slots = 0
    locators = _Locators()
    top_level = []
    for index, table in enumerate(tables):
        if index >= limits.max_tables:
            raise limit_exceeded("max_tables", f"the page has more than {limits.max_tables} tables",
                                 limits=limits, location=location)
        depth = sum(1 for _ in table.iterancestors(_X + "table"))
        if depth > limits.max_depth:
            raise limit_exceeded("max_depth", f"table {index} is nested {depth} tables deep", limits=limits,
                                 location=location)
        slots = _slots_at_least(table)
        if slots <= limits.max_slots:  # a larger table fails alone in normalize, before any of its slots exist
            page_slots += slots
        if page_slots > limits.max_page_slots:
            raise limit_exceeded("max_page_slots", f"the tables of the page have more than {limits.max_page_slots} "
                                 f"slots in all (at least {page_slots} up to table {index})", limits=limits,
                                 location=location)
        table.set(_PX + "index", str(index))
        table.set(_PX + "locator", locators(table))
        table.set(_PX + "depth", str(depth))
        if not depth:
            top_level.append(table)
    return top_level


def _remove(element: etree._Element) -> None:
    """Remove ``element`` and its content, keeping the text that follows it."""
    parent = element.getparent()
    if parent is None:
        return
    if element.tail:
        previous = element.getprevious()
        if previous is not None:
            previous.tail = (previous.tail or "") + element.tail
        else:
            parent.text = (parent.text or "") + element.tail
    parent.remove(element)


def clean(source: Source | bytes | str, *, limits: Limits = DEFAULT_LIMITS) -> CleanedPage:
    """Clean one page into annotated XHTML (``docs/formats.md`` section 1).

    :param source: a :class:`~pyxform.base.source.Source` (bytes, URI, transport charset), page bytes, or the page's
        decoded HTML text (``str``).
    :param limits: ``max_page_bytes``, ``max_tables``, ``max_depth`` and ``max_page_slots`` apply here.
    :returns: the :class:`CleanedPage`.
    :raises EmptyInput: no bytes, or only white space.
    :raises UndecodableInput: binary data.
    :raises LimitExceeded: the page is too large, has too many tables, tables nested too deep, or too many slots.
    :raises TypeError: ``source`` is not a Source, bytes or str.
    """
    return _clean(source, limits, False)


def clean_for_bytes(source: Source | bytes | str, *, limits: Limits = DEFAULT_LIMITS) -> CleanedPage:
    """:func:`clean` for a page that is only serialized (:meth:`CleanedPage.to_bytes`,
    :meth:`CleanedPage.tables_to_bytes`: the same bytes as :func:`clean`'s page gives): the cells' feature attributes
    are kept aside (:attr:`CleanedPage.pending_features`) and put into the serialization, not written into the tree
    one lxml call per attribute (some 1,600 a page, each checking its name: about a sixth of clean's instructions).
    Its ``tree`` lacks them until :meth:`CleanedPage.write_pending_features`; tables' attributes are in it."""
    return _clean(source, limits, True)


def _clean(source: Source | bytes | str, limits: Limits, defer_features: bool) -> CleanedPage:
    """:func:`clean`, or :func:`clean_for_bytes` with ``defer_features``."""
    return _cleaned(source, limits, {} if defer_features else None, None)[0]


def clean_tables_to_bytes(source: Source | bytes | str, limits: Limits, *, name: str | None = None,
                           indexes: bool = False) -> tuple[bytes, list[str], PageLinks, list[int]]:
    """``clean_for_bytes(source, limits=limits).tables_to_bytes(spend=True)`` (with ``px:source`` set to ``name``
    first, if given), for the pipeline and :func:`pyxform.stages.normalize.grid`: the tree never leaves here, so
    nothing changes it between annotation and serialization, and the cells' features are kept as a list in document
    order (:func:`.features.annotate_tables`' ``in_order``), put into each table's serialization one per ``td`` or
    ``th`` start tag, without a second walk over the cells. That holds when every cell annotated lies in a top-level
    table and the start tags of the top-level tables are as many as the cells annotated (then each table's start
    tags are its annotated cells', in document order); otherwise (a ``tr`` in a ``template``, a foreign ``td`` ...)
    the page is cleaned again the public way. ``tests/test_clean_deferred_features.py`` compares the two.

    :returns: the bytes, clean's warnings, the page's links and, with ``indexes``, the ``px:index`` of every table
        left in the page (document order; empty without ``indexes``)."""
    in_order: list[bytes] = []
    page, in_tables, top_level = _cleaned(source, limits, None, in_order)
    root = page.tree.getroot()
    if name is not None:
        root.set(_PX + "source", name)
    xhtml = page._tables_to_bytes_in_order(in_order, top_level) if in_tables else None
    if xhtml is None:
        page = _cleaned(source, limits, {}, None)[0]
        root = page.tree.getroot()
        if name is not None:
            root.set(_PX + "source", name)
        xhtml = page.tables_to_bytes(spend=True)
    found = [int(table.get(_PX + "index", "-1")) for table in root.iter(_TABLE)] if indexes else []
    return xhtml, page.warnings, page.links, found


def _cleaned(source: Source | bytes | str, limits: Limits,
             pending: dict[etree._Element, tuple[dict[bytes, str], bytes]] | None,
             in_order: list[bytes] | None) -> tuple[CleanedPage, bool, list[etree._Element] | None]:
    """:func:`clean` with the cells' features written into the tree, or kept in ``pending`` or ``in_order``
    (:func:`.features.annotate_tables`); whether every cell annotated lies in a table; and the top-level tables
    left in the page in document order (``None``: look for them in the tree)."""
    if isinstance(source, str):
        text = source
        check_page_bytes(len(text.encode("utf-8", "surrogatepass")), limits, "<text>")
        if not text.strip():
            from ...base.errors import EmptyInput

            raise EmptyInput("the page holds only white space" if text else "the page is empty", location="<text>")
        decoded = Decoded(text, "utf-8", "caller")
        uri = ""
    else:
        if not isinstance(source, Source):
            if not isinstance(source, (bytes, bytearray, memoryview)):  # bytes(123): 123 zero bytes, not a page
                raise TypeError(f"a page is bytes, str or a Source, not {type(source).__name__}")
            source = Source(bytes(source), "", None)
        uri = source.uri
        check_page_bytes(len(source.data), limits, uri or "<bytes>")
        decoded = decode_html(source.data, charset=source.charset, location=uri or None)
    location = uri or "<bytes>"
    warnings = list(decoded.warnings)
    parsed = parse_html(decoded.text, xml_safe=decoded.xml_safe)
    root = parsed.tree.getroot()
    tables, links, noscripts, titles = _scan(root, limits.max_tables)
    top_level = _number_tables(tables, limits, location)

    title = _page_title(root, titles, noscripts)
    cascade = Cascade(root, parsed.style_sheets, quirks=parsed.quirks, hidden_attributes=parsed.hidden_attributes)
    cascade.match_before_removal()
    for element in noscripts:
        _remove(element)
    kept_hidden: list[etree._Element] = []
    # Only tables serialized (in_order), no author rules (":contains()" reads any text): what is hidden outside the
    # tables and headings (px:heading) is not removed (lxml moves a removed subtree out of the document).
    tables_only = in_order is not None and not cascade.author_rules
    for element in cascade.hidden_elements(outermost=False):
        if element.tag in _SKELETON:
            warnings.append(f"<{etree.QName(element).localname}> is hidden by the page's style: kept")
        elif element.tag == _TABLE or next(element.iterdescendants(_TABLE), None) is not None:
            # A table stays even when CSS hides it (collapsed boxes, metadata tables such as Wikipedia's
            # Persondata): its grid is in the DOM that browsers and users script against, and table indexes must
            # not shift. It is marked, and px:hidden="true" goes on every table inside (see _mark_hidden_tables).
            element.set(_PX + "hidden", "true")
            kept_hidden.append(element)
        elif element.getparent() is not None and not (  # else outside tables and headings: the tables stay the same
                tables_only and element.tag not in _HEADINGS and next(element.iterancestors(_TABLE, *_HEADINGS), None)
                is None and next(element.iterdescendants(*_HEADINGS), None) is None):
            _remove(element)
    _mark_hidden_tables(kept_hidden)
    in_tables = annotate_tables(root, cascade, pending, in_order)

    root.set(_PX + "source", uri)
    root.set(_PX + "encoding", decoded.encoding)
    root.set(_PX + "encoding-source", decoded.source)
    root.set(_PX + "title", title)
    return CleanedPage(tree=parsed.tree, encoding=decoded.encoding, encoding_source=decoded.source, source=uri,
                       warnings=warnings, links=links, pending_features=pending), in_tables, (
        None if noscripts else top_level)  # a table in a noscript went with it


def _mark_hidden_tables(kept_hidden: list[etree._Element]) -> None:
    """Put ``px:hidden="true"`` on every table that sits inside an element kept although CSS hides it
    (``kept_hidden``: those elements, marked already; the order does not matter: a table gets the attribute once,
    and nothing else is set on it meanwhile). A removed hidden element never holds one of them: it holds no table."""
    for element in kept_hidden:
        if element.tag == _TABLE:
            continue
        for table in element.iterdescendants(_TABLE):
            table.set(_PX + "hidden", "true")

