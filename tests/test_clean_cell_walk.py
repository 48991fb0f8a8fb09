"""The cell walk of the features (:func:`pyxform.stages.clean.features._walk`: first child and next sibling, a leaf
taken as its parent in one turn) gives what the walk it replaced gives: ``etree.iterwalk`` with "start" and "end"
events over the cell's elements (comments and processing instructions skipped with their tails, nested tables' content
skipped)."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st
from lxml import etree

from .test_clean_properties import CELL_CONTENT, _cell_page
from pyxform.stages.clean.features import _DISPLAY_ONLY_TAGS, _LEADING_SPACE, _NBSP, _TABLE, _walk
from pyxform.stages.clean.parse import XHTML_NS, parse_html
from pyxform.stages.clean.style import STYLED_TAGS, Cascade, Style
from pyxform.stages.clean.values import is_block


def _iterwalk_reference(cell: etree._Element, own: Style, cascade: Cascade
                        ) -> tuple[dict[int, list], list[Style] | None, int]:
    """The walk as it was (pyxform 8297ef3, inside ``_features``): iterwalk's start and end events."""
    compute = cascade.child_style
    plain = not cascade.author_rules
    weights: dict[int, list] = {}
    first: list[Style] | None = None
    leading_nbsp = 0
    stack: list[Style] = [own]
    pushed: list[bool] = []
    text: str | None = cell.text
    owner = own
    walker = etree.iterwalk(cell, events=("start", "end"), tag="{*}*")
    next(walker)
    for event, element in walker:
        if text:
            if first is None:
                stripped = text.lstrip(_LEADING_SPACE)
                if len(stripped) != len(text):
                    leading_nbsp += text[:len(text) - len(stripped)].count(_NBSP)
                if stripped:
                    first = stack[:]
            if not text.isspace():
                weights.setdefault(id(owner), [owner, []])[1].append(text)
            text = None
        if event == "start":
            tag = element.tag
            if tag == _TABLE:
                walker.skip_subtree()
                pushed.append(False)
                continue
            if plain and (tag not in STYLED_TAGS and (not element.attrib or (
                    element.get("style") is None and element.get("hidden") is None))
                          or tag in _DISPLAY_ONLY_TAGS and not element.attrib and (owner is own or is_block(owner))):
                pushed.append(False)
            else:
                owner = compute(element, owner)
                stack.append(owner)
                pushed.append(True)
            text = element.text
        elif element is cell:
            break
        else:
            if pushed.pop():
                stack.pop()
                owner = stack[-1]
            text = element.tail
    return weights, first, leading_nbsp


SHEETS = ["", "<style>span { color: red } li { padding-left: 3px } b { font-size: 30px }</style>"]
# Where to put a comment or processing instruction (with a tail) into the parsed tree: the parser drops them, a
# caller's tree may hold them.
INSERTS = st.lists(st.tuples(st.integers(0, 1000), st.integers(0, 5), st.booleans(),
                             st.sampled_from([None, "t", " \u00a0u"])), max_size=6)


def _with_inserts(root: etree._Element, inserts: list) -> None:
    elements = list(root.iter(f"{{{XHTML_NS}}}*"))
    for where, position, comment, tail in inserts:
        parent = elements[where % len(elements)]
        node = etree.Comment(" c ") if comment else etree.ProcessingInstruction("p", "q")
        node.tail = tail
        parent.insert(min(position, len(parent)), node)


@settings(max_examples=300, deadline=None)
@given(CELL_CONTENT, st.sampled_from(SHEETS), st.booleans(), INSERTS)
@example([("div", ""), ("a", ""), "x", ("table", ""), "y", "</table>", "z"], "", False, [(3, 0, True, "w")])
@example([("a", ""), "x", "</a>", "yy zz", ("b", ""), "x"], "", False, [])  # a leaf link with text and tail
@example([("a", ""), " ", "</a>", "\u00a0\u00a0w", ("span", ""), "\n", "</span>", "x"], "", False, [])
def test_the_cell_walk_gives_what_iterwalk_gives(content: list, sheet: str, style_everywhere: bool,
                                                  inserts: list) -> None:
    """For every cell: the same characters per computed style (the same Style objects, in the same order; a leaf's
    text and tail may come as one text: what the features read is the characters but whitespace), the same styles
    down to the first visible text and the same number of leading non-breaking spaces."""
    parsed = parse_html(sheet + _cell_page(content, style_everywhere=style_everywhere))
    root = parsed.tree.getroot()
    _with_inserts(root, inserts)
    cascade = Cascade(root, parsed.style_sheets, quirks=parsed.quirks)
    for cell in root.iter(f"{{{XHTML_NS}}}td", f"{{{XHTML_NS}}}th"):
        own = cascade.style(cell)
        weights, first, nbsp = _walk(cell, own, cascade)
        expected_weights, expected_first, expected_nbsp = _iterwalk_reference(cell, own, cascade)
        assert [(id(style), "".join("".join(texts).split())) for style, texts in weights.values()] == [
            (id(style), "".join("".join(texts).split())) for style, texts in expected_weights.values()]
        assert all(texts and not any(text.isspace() for text in texts) for _style, texts in weights.values())
        assert list(weights) == list(expected_weights)
        assert (None if first is None else [id(style) for style in first]) == (
            None if expected_first is None else [id(style) for style in expected_first])
        assert nbsp == expected_nbsp


# Attributes of the elements below: those the specified values read (a style, hidden, and the presentational hints of
# font, td, div ...) and others that read nothing (class, colspan, href, title).
ATTRIBUTES = st.dictionaries(
    st.sampled_from(["style", "hidden", "size", "face", "color", "text", "bgcolor", "align", "class", "colspan",
                     "href", "title"]),
    st.sampled_from(["", "3", "red", "right", "font-size:20px", "display:none", "Arial"]), max_size=3)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["td", "th", "font", "div", "span", "body", "b", "p", "table"]), ATTRIBUTES),
                min_size=1, max_size=12), st.booleans())
@example([("td", {}), ("td", {"align": "right"}), ("td", {"class": "x", "bgcolor": "red"}), ("font", {"size": "3"}),
          ("td", {"style": "font-size:20px"}), ("td", {"hidden": ""}), ("font", {"face": "Arial"}),
          ("font", {"color": "red"}), ("body", {"text": "red"})], False)
def test_the_computed_style_memo_tells_apart_what_the_attributes_change(elements: list, quirks: bool) -> None:
    """On a page without author rules :meth:`Cascade.child_style` finds a computed style in a memo keyed by the
    element's name and the attributes its specified values read (looked up only when the element has one of them):
    each element gets the style computed from its specified values without the memo."""
    root = etree.Element(f"{{{XHTML_NS}}}html")
    cascade = Cascade(root, quirks=quirks)
    parent = cascade.style(root)
    for name, attributes in elements:
        element = etree.SubElement(root, f"{{{XHTML_NS}}}{name}", attributes)
        style = cascade.child_style(element, parent)
        expected = cascade._compute_new(cascade.specified(element), name == "th", parent)
        assert style == expected


# Rows of cells with attributes: the cell's name, those its specified values read (style, hidden, bgcolor, align) and
# others (class, colspan); rows with or without a style of their own, in row groups with or without one (else in the
# parser's tbody), on pages with and without author rules.
CELL_ATTRIBUTES = st.dictionaries(st.sampled_from(["style", "hidden", "bgcolor", "align", "class", "colspan"]),
                                  st.sampled_from(["", "2", "red", "right", "font-weight:bold", "color:blue"]),
                                  max_size=2)
ROWS = st.lists(st.tuples(st.sampled_from(["", " style='font-style:italic'", " align=center", " bgcolor=#eee",
                                           " class=k"]),
                          st.sampled_from(["", "<tbody bgcolor=#abc>", "<tbody align=right>",
                                           "<thead style='font-weight:bold'>"]),
                          st.lists(st.tuples(st.sampled_from(["td", "th"]), CELL_ATTRIBUTES,
                                             st.sampled_from(["x", "", "\u00a0y", "<b>z</b>"])),
                                   min_size=1, max_size=4)),
                min_size=1, max_size=5)


@settings(max_examples=300, deadline=None)
@given(ROWS, st.sampled_from(["", "<style>.k { font-size: 20px }</style>"]), st.booleans())
@example([("", "", [("td", {}, "x"), ("th", {}, "x"), ("td", {"align": "right"}, "x"), ("td", {"class": "k"}, "")]),
          (" style='font-style:italic'", "", [("td", {}, "x"), ("th", {"colspan": "2"}, "x")]),
          ("", "<tbody align=right>", [("td", {}, "x")])], "", False)
def test_the_cells_styles_by_row_give_the_cascades_features(rows: list, sheet: str, quirks: bool) -> None:
    """:func:`annotate_tables` finds the style of a cell with none of the attributes its specified values read (on a
    page without author rules) by its row's style and its name, and that of such a row by its parent's style: each
    cell gets the features :func:`cell_features` gives from the cascade's computed styles (:meth:`Cascade.style`)."""
    from html import escape

    from pyxform.stages.clean.features import annotate_tables, cell_features

    markup = []
    for row_attributes, group, cells in rows:
        cells_markup = "".join(f"<{name}" + "".join(f' {key}="{escape(value)}"' for key, value in attributes.items())
                               + f">{content}</{name}>" for name, attributes, content in cells)
        row = f"<tr{row_attributes}>{cells_markup}</tr>"
        markup.append(f"{group}{row}</{group[1:6]}>" if group else row)
    page = ("" if quirks else "<!DOCTYPE html>") + sheet + "<table>" + "".join(markup) + "</table>"
    parsed = parse_html(page)
    assert parsed.quirks == quirks
    root = parsed.tree.getroot()
    annotate_tables(root, Cascade(root, parsed.style_sheets, quirks=parsed.quirks))
    general = Cascade(root, parsed.style_sheets, quirks=parsed.quirks)
    for cell in root.iter(f"{{{XHTML_NS}}}td", f"{{{XHTML_NS}}}th"):
        written = {etree.QName(name).localname: value for name, value in cell.attrib.items()
                   if name.startswith("{urn:pyxform}")}
        assert written == cell_features(cell, general)
