"""Formatting features of tables and cells, written as ``px:`` attributes (``docs/formats.md`` section 1).

Per cell (``td``/``th`` child of a ``tr``), from the computed style of its visible text (:class:`.style.Cascade`),
weighted by the number of text characters (whitespace not counted; nested tables excluded):
``px:font-size`` (majority, px), ``px:bold`` / ``px:italic`` (at least half the characters), ``px:face`` and
``px:color`` (majority, absent when not set), ``px:background`` (cell, else its ``tr``, else its row group),
``px:indent`` and ``px:align``. An empty cell takes the cell element's own style. These are the formatting cues of
Zhang & Li (2007) section 3.2 (font size, bold, italic, indentation, font face and colour) that header scoring reads.

Per table: ``px:font-size`` (its own computed size) and ``px:heading`` (the nearest ``h1``-``h6`` before it).
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterable
from operator import add, itemgetter
from typing import Final, TypeVar

from lxml import etree

from .parse import XHTML_NS
from .style import STYLE_ATTRIBUTES, STYLED_TAGS, Cascade, Style
from .values import UA_RULES, is_block

__all__ = ["annotate_tables", "collapse", "text_content", "cell_features", "insert_features",
           "insert_features_in_order", "serialized_features"]

_X: Final = "{" + XHTML_NS + "}"
_PX: Final = "{urn:pyxform}"
_TABLE: Final = _X + "table"
_TR: Final = _X + "tr"
_CELLS: Final = frozenset({_X + "td", _X + "th"})
_ROW_GROUPS: Final = frozenset({_X + "thead", _X + "tbody", _X + "tfoot"})
_HEADINGS: Final = frozenset(_X + f"h{n}" for n in range(1, 7))
_ASCII_WHITESPACE: Final = re.compile("[\t\n\x0c\r ]+")
_NBSP: Final = "\u00a0"
_T = TypeVar("_T", bound=Hashable)
# The feature attributes' Clark names as UTF-8 bytes: lxml encodes and checks a str name on every write, a bytes name
# it takes as it is (about 800 of the 6,200 instructions of a write; a page writes some 2,000 features).
_FONT_SIZE, _BOLD, _ITALIC, _FACE, _COLOR, _BACKGROUND, _INDENT, _ALIGN = (
    (_PX + name).encode() for name in ("font-size", "bold", "italic", "face", "color", "background", "indent", "align"))
_HEADING: Final = (_PX + "heading").encode()
_PX_LENGTH: Final = len(_PX)
# The elements whose only user-agent declaration is their display (li, div, p, section ...; not cells, body, html).
# Without attributes, inside a block, such an element is a block with no padding or margin and its parent's font,
# colour, weight and text-indent: the cell walk takes it as its parent (see _features).
_DISPLAY_ONLY_TAGS: Final = frozenset(_X + name for name, rule in UA_RULES.items()
                                      if rule.keys() == {"display"} and name not in ("td", "th", "body", "html"))
_LEADING_SPACE: Final = "\t\n\x0c\r " + _NBSP  # what comes before a cell's first visible character
# Caches kept across pages (read only once stored; at most _CACHE_SIZE entries each, then emptied): formatted numbers,
# and the font features of a cell whose text has one computed style, by the id of that style (kept alive by the entry,
# so its id is never reused while the entry exists).
_CACHE_SIZE: Final = 20_000
_NUMBERS: dict[float, str] = {}
_FONTS: dict[int, tuple[Style, dict[bytes, str]]] = {}


def collapse(text: str) -> str:
    """Collapse runs of ASCII whitespace to one space and trim (non-breaking spaces are kept)."""
    return _ASCII_WHITESPACE.sub(" ", text).strip(" ")


def text_content(element: etree._Element) -> str:
    """``"".join(element.itertext())``: the text of ``element`` and of its descendants (and their tails, not its own),
    as libxml2's text serialization writes it, in C (itertext makes a string per text node in Python: some seven
    times the cost on the corpus's cells)."""
    return etree.tostring(element, method="text", encoding=str, with_tail=False)


def _number(value: float) -> str:
    """A decimal for an attribute: at most 2 decimals, no trailing zeros (``16``, ``13.33``). Pages repeat a few
    sizes and indents: each is formatted once (kept across pages, at most _CACHE_SIZE, then emptied)."""
    text = _NUMBERS.get(value)
    if text is None:
        text = f"{value:.2f}".rstrip("0").rstrip(".")
        if text in ("-0", ""):
            text = "0"
        if len(_NUMBERS) >= _CACHE_SIZE:
            _NUMBERS.clear()
        _NUMBERS[value] = text
    return text


def _majority(weighted: Iterable[tuple[_T, int]]) -> _T:
    """The value with the largest total weight; among equal totals, the one seen first."""
    totals: dict[_T, int] = {}
    for value, weight in weighted:
        totals[value] = totals.get(value, 0) + weight
    return max(totals.items(), key=itemgetter(1))[0]


def cell_features(cell: etree._Element, cascade: Cascade) -> dict[str, str]:
    """The ``px:`` feature attributes of one cell (names without prefix), as ``docs/formats.md`` defines them."""
    own = cascade.style(cell)
    background = own.background
    row = cell.getparent()
    if background is None and row is not None:
        background = cascade.style(row).background
        group = row.getparent()
        if background is None and group is not None and group.tag in _ROW_GROUPS:
            background = cascade.style(group).background
    return {name[_PX_LENGTH:].decode(): value for name, value in _features(cell, own, background, cascade).items()}


def _walk(cell: etree._Element, own: Style, cascade: Cascade) -> tuple[dict[int, list], list[Style] | None, int]:
    """The walk of :func:`_features` over ``cell``'s content (its computed style ``own``). Returns the visible text per
    computed style (``{id(style): [style, [text, ...]]}``, in order of first use; texts made only of whitespace left
    out; a leaf taken as its parent gives its text and tail as one text), the styles from the cell down to the owner
    of the first visible text (``None`` without visible text) and the number of non-breaking spaces before that text.

    Each element comes once, by first child and next sibling (``element[0]``, ``getnext()``: no child iterator is
    made, and each costs about as much as the element's own test); comments and processing instructions are skipped
    with their tails, as ``iterwalk(tag="{*}*")`` skips them. An element with a ``style`` or ``hidden`` attribute is
    told by :meth:`.style.Cascade.own_style_elements`, not by two attribute look-ups. ``tests/test_clean_cell_walk.py``
    checks it against that iterwalk."""
    compute = cascade.child_style
    plain = not cascade.author_rules
    own_style = cascade.own_style_elements() if plain else None
    # the visible text per computed style (cells share Style objects: usually one or two per cell), in order of first
    # use; its characters (whitespace not counted) are counted only when there are two styles or more
    weights: dict[int, list] = {}
    first: list[Style] | None = None  # the styles from the cell to the owner of the first visible text
    leading_nbsp = 0
    stack: list[Style] = [own]  # the styles of the open elements (but those taken as their parent), the cell's first
    # per open element in the cell: (the element, whether its style is on the stack)
    frames: list[tuple[etree._Element, bool]] = []
    element: etree._Element | None = cell[0] if len(cell) else None  # the next element to take
    text: str | None = cell.text
    owner = own
    while True:
        if text:  # the text met last, of the element whose style is owner
            if first is None:
                stripped = text.lstrip(_LEADING_SPACE)
                if len(stripped) != len(text):
                    leading_nbsp += text[:len(text) - len(stripped)].count(_NBSP)
                if stripped:
                    first = stack[:]
            if not text.isspace():  # it has characters
                entry = weights.get(id(owner))
                if entry is None:
                    weights[id(owner)] = [owner, [text]]
                else:
                    entry[1].append(text)
            text = None
        if element is None:  # the end of the open element: its tail comes next, with its parent's style
            if not frames:
                break
            element, pushed = frames.pop()
            if pushed:
                stack.pop()
                owner = stack[-1]
            text = element.tail
            element = element.getnext()
            continue
        tag = element.tag
        if tag.__class__ is not str:  # a comment or processing instruction: no text, and its tail is not walked
            element = element.getnext()
            continue
        if tag == _TABLE:  # its text belongs to its own cells; its tail comes now, with the current style
            text = element.tail
            element = element.getnext()
            continue
        if plain and (tag not in STYLED_TAGS and element not in own_style
                      or tag in _DISPLAY_ONLY_TAGS and not element.attrib and (owner is own or is_block(owner))):
            if not len(element):  # a leaf taken as its parent (most links): its text and tail, with owner's style
                text = element.text
                tail = element.tail
                if tail:
                    text = text + tail if text else tail
                element = element.getnext()
                continue
            frames.append((element, False))  # taken as its parent: owner stays
        else:
            owner = compute(element, owner)  # owner is the style on top of the stack
            stack.append(owner)
            frames.append((element, True))
        text = element.text
        element = element[0] if len(element) else None
    return weights, first, leading_nbsp


def _features(cell: etree._Element, own: Style, background: str | None, cascade: Cascade) -> dict[bytes, str]:
    """The feature attributes (Clark names, UTF-8) of ``cell``, whose computed style is ``own`` and background (its own,
    else its row's or row group's) ``background``.

    One walk (:func:`_walk`) over the cell's content (nested tables skipped: their text belongs to their own cells)
    computes each element's style from its parent's on the way down (a stack of the open elements' styles), counts the
    text characters per style and keeps the styles from the cell down to the owner of the first visible text, from which
    the indentation comes: padding and margin of the cell and of the block boxes on the way, the text-indent of the
    innermost block, and 0.25 em per leading non-breaking space.

    On a page without author rules, an element that is not one of the :data:`.style.STYLED_TAGS` and has neither a
    ``style`` nor a ``hidden`` attribute (most are links) is taken as its parent: it is inline and inherits its
    parent's font, colour and weight unchanged, so its text counts as its parent's (what is counted per style value
    is the same) and it has no place among the styles that give the indentation (:func:`_inherits_only` says the
    same of a whole cell). So is an element of :data:`_DISPLAY_ONLY_TAGS` without attributes whose parent's style
    is the cell's or a block's: a block without padding or margin adds nothing to the indentation, and its
    text-indent, inherited, is that of the block it would replace as the innermost. Their style is not computed."""
    weights, first, leading_nbsp = _walk(cell, own, cascade)
    if len(weights) == 1:
        (only, _texts), = weights.values()
        font = _FONTS.get(id(only))
        if font is None or font[0] is not only:
            if len(_FONTS) >= _CACHE_SIZE:
                _FONTS.clear()
            font = _FONTS[id(only)] = (only, _font_features(only, round(only.font_size, 2)))
        features = font[1].copy()
    elif weights:
        counts = [(style, len("".join("".join(texts).split()))) for style, texts in weights.values()]
        total = sum(count for _style, count in counts)
        features = {_FONT_SIZE: _number(_majority((round(style.font_size, 2), n) for style, n in counts))}
        bold = sum(n for style, n in counts if style.weight >= 600)
        italic = sum(n for style, n in counts if style.italic)
        features[_BOLD] = "true" if 2 * bold >= total else "false"
        features[_ITALIC] = "true" if 2 * italic >= total else "false"
        face = _majority((style.face, n) for style, n in counts)
        color = _majority((style.color, n) for style, n in counts)
        if face:
            features[_FACE] = face
        if color:
            features[_COLOR] = color
    else:
        features = _font_features(own, own.font_size)
    if background:
        features[_BACKGROUND] = background
    if first is None:
        indent = own.padding_left + own.margin_left + own.text_indent
    else:
        indent = own.padding_left + own.margin_left
        innermost_block = own
        for style in first[1:]:
            if is_block(style):
                indent += style.padding_left + style.margin_left
                innermost_block = style
        indent += innermost_block.text_indent + leading_nbsp * 0.25 * first[-1].font_size
    features[_INDENT] = _number(max(indent, 0.0))
    if own.align:
        features[_ALIGN] = own.align
    return features


def _font_features(style: Style, font_size: float) -> dict[bytes, str]:
    """``px:font-size`` (``font_size``, px), ``px:bold``, ``px:italic``, ``px:face`` and ``px:color`` of text whose
    computed style is ``style``."""
    features = {_FONT_SIZE: _number(font_size), _BOLD: "true" if style.weight >= 600 else "false",
                _ITALIC: "true" if style.italic else "false"}
    if style.face:
        features[_FACE] = style.face
    if style.color:
        features[_COLOR] = style.color
    return features


def _text_only_features(own: Style, background: str | None, nbsp: int | None) -> dict[bytes, str]:
    """:func:`cell_features` of a cell whose content is one text node (or nothing), with its own style ``own``:
    ``nbsp`` is the number of non-breaking spaces before its first visible character, ``None`` if it has none."""
    features = _font_features(own, round(own.font_size, 2) if nbsp is not None else own.font_size)
    if background:
        features[_BACKGROUND] = background
    indent = own.padding_left + own.margin_left + own.text_indent
    if nbsp is not None:
        indent += nbsp * 0.25 * own.font_size
    features[_INDENT] = _number(max(indent, 0.0))
    if own.align:
        features[_ALIGN] = own.align
    return features


def _inherits_only(cell: etree._Element, own_style: set[etree._Element]) -> bool:
    """Whether every element in ``cell`` (on a page without author rules) has no style of its own: not one of the
    :data:`.style.STYLED_TAGS` (nor a table), with neither a ``style`` nor a ``hidden`` attribute (not in
    ``own_style``, :meth:`.style.Cascade.own_style_elements`). Its text then has
    the cell's font, colour and weight, and no block box lies between the cell and its text, so :func:`_features`
    gives what the cell's text alone gives (the indentation counts the non-breaking spaces before the first visible
    character, at the cell's font size)."""
    for element in cell.iterdescendants():
        tag = element.tag
        if tag in STYLED_TAGS or tag.__class__ is not str or element in own_style:
            return False
    return True


# The cells' feature attributes as a serializer writes them (:func:`serialized_features`), by their (name, value)
# pairs in order, kept across pages (pages repeat a few combinations), at most _CACHE_SIZE, then emptied.
_SERIALIZED: dict[tuple[tuple[bytes, str], ...], bytes] = {}
# One attribute value as libxml2 serializes it in UTF-8, by value (the same cache rule).
_ESCAPED: dict[str, bytes] = {}
# What etree.tostring writes around the value of the attribute b of an element a.
_ESCAPE_PREFIX: Final = len(b'<a b="')
_ESCAPE_SUFFIX: Final = len(b'"/>')


def _escaped(value: str) -> bytes:
    """``value`` as libxml2's serializer writes an attribute value in UTF-8 (``&``, ``<``, ``>``, ``"``, tab, line
    feed and carriage return as references). Made by that serializer itself, once per value: the same bytes by
    construction."""
    escaped = _ESCAPED.get(value)
    if escaped is None:
        escaped = etree.tostring(etree.Element("a", b=value), encoding="utf-8")[_ESCAPE_PREFIX:-_ESCAPE_SUFFIX]
        if len(_ESCAPED) >= _CACHE_SIZE:
            _ESCAPED.clear()
        _ESCAPED[value] = escaped
    return escaped


def serialized_features(features: dict[bytes, str]) -> tuple[dict[bytes, str], bytes]:
    """The feature attributes ``features`` (Clark names, as :func:`_features` gives them) as ``etree.tostring``
    writes them after a cell's other attributes: `` px:NAME="VALUE"`` each, in order (a new attribute comes last in
    libxml2's list; the root declares ``px`` for pyxform's namespace, which no page attribute can redeclare: names
    with a colon are dropped while parsing). Returns ``(features, the bytes)``."""
    key = tuple(features.items())
    serialized = _SERIALIZED.get(key)
    if serialized is None:
        serialized = b"".join(b" px:" + name[_PX_LENGTH:] + b'="' + _escaped(value) + b'"'
                              for name, value in key)
        if len(_SERIALIZED) >= _CACHE_SIZE:
            _SERIALIZED.clear()
        _SERIALIZED[key] = serialized
    return features, serialized


def annotate_tables(root: etree._Element, cascade: Cascade,
                    pending: dict[etree._Element, tuple[dict[bytes, str], bytes]] | None = None,
                    in_order: list[bytes] | None = None) -> bool:
    """Write ``px:font-size`` and ``px:heading`` on every table, and the feature attributes of every cell (into the
    tree, or into ``pending`` for the serialization).

    A cell whose content is one text node (most cells), or whose elements all inherit its style unchanged
    (:func:`_inherits_only`), takes its features from its own style, its background and the non-breaking spaces that
    start its text alone: they are computed once per distinct combination on the page (the same values
    :func:`cell_features` gives).

    :param pending: when given, the cells' features are not written into the tree but put here, serialized
        (:func:`serialized_features`), for :func:`insert_features` to put into the tree's serialization: a page
        that is only serialized saves lxml's per-attribute writes (some 1,600 a page, each checking its name).
    :param in_order: or the serialized features of every cell annotated, in document order (a tree serialized as is).
    :returns: whether every cell annotated lies in a table (its ``tr``'s parent or grandparent: checked with
        ``in_order`` only)."""
    in_tables = True
    style = cascade.style
    heading: str | None = None
    text_only: dict[tuple[int, str | None, int | None], dict[bytes, str]] = {}
    text_only_bytes: dict[tuple[int, str | None, int | None], tuple[dict[bytes, str], bytes]] = {}
    # The styles whose id() keys the two caches above (and cell_styles below), kept alive for the page: a style found
    # in the cross-page memos of :mod:`.style` may live only there, and when those are emptied (full, or another
    # thread's page) a freed style's id can be taken by a later cell's new style, which would then get the freed
    # one's features.
    alive: list[Style] = []
    last_row: etree._Element | None = None
    row_style: Style | None = None
    row_background: str | None = None
    author_rules = cascade.author_rules
    own_style = cascade.own_style_elements() if not author_rules else set()
    # On a page without author rules, a cell with none of the attributes its specified values read has the style
    # its name and its row's style give (what Cascade.child_style finds in its memo): by the id of the row's style
    # (kept alive in ``alive``), then the cell's name. So has such a row, by the id of its parent's style.
    cell_styles: dict[int, dict[str, Style]] = {}
    row_styles: dict[int, Style] = {}
    row_cells: dict[str, Style] = {}
    for cell in root.iter(*_CELLS, _TABLE, *_HEADINGS):  # one walk: a table comes before its cells
        tag = cell.tag
        if tag == _TABLE:  # not a cell: a table
            cell.set(_FONT_SIZE, _number(style(cell).font_size))
            if heading:
                cell.set(_HEADING, heading)
            continue
        if tag in _HEADINGS:  # not a cell: a heading, for the tables after it
            heading = collapse(text_content(cell)) or heading
            continue
        row = cell.getparent()
        if row is not last_row or row is None:  # a row's cells come one after another: its style and background once
            if row is None or row.tag != _TR:
                continue
            last_row = row
            group = row.getparent()
            if author_rules or group is None or not STYLE_ATTRIBUTES.isdisjoint(row.keys()):
                row_style = style(row)
            else:  # as a cell's below: by its group's (or table's) style
                group_style = style(group)
                row_style = row_styles.get(id(group_style))
                if row_style is None:
                    row_style = row_styles[id(group_style)] = cascade.child_style(row, group_style)
                    alive.append(group_style)
            if in_order is not None and (group is None or group.tag != _TABLE):
                outer = group.getparent() if group is not None else None
                if outer is None or outer.tag != _TABLE:
                    in_tables = False  # a row outside a table (in a template)
            row_background = row_style.background
            if row_background is None and group is not None and group.tag in _ROW_GROUPS:
                row_background = style(group).background
            if not author_rules:
                row_cells = cell_styles.get(id(row_style))  # type: ignore[assignment]
                if row_cells is None:
                    row_cells = cell_styles[id(row_style)] = {}
                    alive.append(row_style)  # type: ignore[arg-type]
        # the cell's style is needed here only (and its content's in _features), so it is not kept in the cascade
        if author_rules or not STYLE_ATTRIBUTES.isdisjoint(cell.keys()):
            own = cascade.child_style(cell, row_style)
        else:
            own = row_cells.get(tag)  # type: ignore[assignment]
            if own is None:
                own = row_cells[tag] = cascade.child_style(cell, row_style)
        background = own.background if own.background is not None else row_background
        if len(cell):
            if author_rules or not _inherits_only(cell, own_style):
                if in_order is not None:
                    in_order.append(serialized_features(_features(cell, own, background, cascade))[1])
                elif pending is None:
                    cell.attrib.update(_features(cell, own, background, cascade))
                else:
                    pending[cell] = serialized_features(_features(cell, own, background, cascade))
                continue
            text = text_content(cell)  # its elements change no feature: it is as one text
        else:
            text = cell.text
        nbsp: int | None = None
        if text:
            stripped = text.lstrip(_LEADING_SPACE)
            if stripped:
                nbsp = text[:len(text) - len(stripped)].count(_NBSP)
        key = (id(own), background, nbsp)
        if pending is not None or in_order is not None:
            serialized = text_only_bytes.get(key)
            if serialized is None:
                serialized = text_only_bytes[key] = serialized_features(_text_only_features(own, background, nbsp))
                alive.append(own)
            if in_order is not None:
                in_order.append(serialized[1])
            else:
                pending[cell] = serialized
            continue
        features = text_only.get(key)
        if features is None:
            features = text_only[key] = _text_only_features(own, background, nbsp)
            alive.append(own)
        cell.attrib.update(features)
    return in_tables


# The start tag of a td or th element in lxml's serialization: "<" is markup there (text and attribute values write
# "&lt;"), comments and processing instructions are not in clean's tree, and HTML, SVG and MathML elements are
# written without a prefix. It ends at its first ">" (attribute values write "&gt;"): its features go before it, or
# before the "/" that comes before it in an empty element's tag. The group is the start tag up to there, so that
# re.split gives [before, tag, between, tag, ..., after], in C: its characters but "/" and ">", and each run of "/"
# with what follows up to the next (a "/" in an attribute value is followed by at least the closing quote).
# Possessive: nothing given back, no test at every character.
_CELL_START: Final = re.compile(rb"(<t[dh](?=[ />])[^>/]*+(?:/++[^>/]++)*+)(?=/?>)")


def insert_features(serialized: bytes, cells: Iterable[etree._Element],
                    pending: dict[etree._Element, tuple[dict[bytes, str], bytes]]) -> bytes | None:
    """``serialized`` (``etree.tostring`` of a subtree, UTF-8) with the features of :func:`annotate_tables`'
    ``pending`` put at the end of their cells' start tags, where writing them into the tree puts them (after the
    cell's other attributes): the bytes the tree with its features written serializes to.

    :param cells: every element of the subtree named ``td`` or ``th`` in any namespace (``iter("{*}td", "{*}th")``),
        in document order, the order of their start tags in ``serialized``.
    :returns: the bytes, or ``None`` if ``serialized`` holds a comment, CDATA section or processing instruction, or
        the start tags found are not as many as ``cells`` (never on a tree of clean's: the caller then writes the
        features into the tree)."""
    cells = list(cells)
    parts = _split(serialized)
    if parts is None or len(parts) // 2 != len(cells):
        return None
    get = pending.get
    parts[1::2] = [tag if (features := get(cell)) is None else tag + features[1]
                   for tag, cell in zip(parts[1::2], cells)]
    return b"".join(parts)


def insert_features_in_order(serialized: bytes, in_order: list[bytes], start: int) -> tuple[bytes, int] | None:
    """:func:`insert_features` for a subtree whose ``td``/``th`` start tags take ``in_order[start:]`` one each, in
    order (:func:`annotate_tables`' ``in_order``): the bytes and the index after its last cell, or ``None`` (a
    comment, CDATA section or processing instruction; more start tags than features left)."""
    parts = _split(serialized)
    if parts is None:
        return None
    end = start + len(parts) // 2
    if end > len(in_order):
        return None
    if end == start:
        return serialized, end
    parts[1::2] = map(add, parts[1::2], in_order[start:end])  # each start tag, then its features
    return b"".join(parts), end


def _split(serialized: bytes) -> list[bytes] | None:
    """``serialized`` split around its ``td``/``th`` start tags, each without its end (:data:`_CELL_START`):
    ``[before, tag, between, tag, ..., after]``; ``None`` if it holds a comment, CDATA section or processing
    instruction."""
    if b"<!" in serialized or b"<?" in serialized:
        # a comment, CDATA section or processing instruction (put into the tree by a caller, never by clean) may hold
        # "<td ": without them every match is a start tag
        return None
    return _CELL_START.split(serialized)
