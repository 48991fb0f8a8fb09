"""Property: any input either cleans to well-formed, namespace-correct XHTML or raises a PyxformError."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from lxml import etree

from .html5_tree import dump
from pyxform.stages.clean import clean
from pyxform.stages.clean.parse import XHTML_NS, parse_html, parse_html_slow
from pyxform.base.errors import PyxformError

TAGS = ["table", "tr", "td", "th", "tbody", "thead", "tfoot", "caption", "p", "b", "i", "font", "div", "span",
        "svg", "math", "foreignObject", "noscript", "script", "style", "template", "select", "form", "a", "br",
        "fb:like", "h1", "big", "small", "center"]
ATTRS = ['', ' style="display:none"', ' style="font-size:2em;font-weight:bold"', ' xmlns="urn:x"', ' a:b="1"',
         ' class="c"', ' hidden', ' colspan=2', ' size=+2', ' bgcolor=red', ' "q"=1', ' xmlns:p="u"',
         ' style="visibility:hidden"', ' xlink:href="#u"', ' xml:lang=en', ' xml:a:b=1', ' xlink:foo=2', ' 中=1']
# Attribute names HTML allows and XML may not: colons (xml:, xlink:, xmlns:), non-ASCII, digit-first, "/" and "=".
ATTRIBUTE = st.builds(lambda name, value: f" {name}={value}",
                      st.lists(st.sampled_from(list("ax1:.-_\u4e2d\u00b7/=\"") + ["xml:", "xlink:", "xmlns", "href"]),
                               min_size=1, max_size=4).map("".join),
                      st.sampled_from(["1", '"a b"', "'\t'", ""]))
TEXT = st.text(alphabet=st.sampled_from(list("ab <>&;\"'=/\u00a0\x00\x01\u4e2d\ud800\ufffe-!")), max_size=6)
markup = st.lists(st.one_of(
    st.builds(lambda t, a: f"<{t}{a}>", st.sampled_from(TAGS), st.sampled_from(ATTRS) | ATTRIBUTE),
    st.builds(lambda t: f"</{t}>", st.sampled_from(TAGS)),
    st.just("<style>td{color:blue} .c{display:none} :hover{x:y} td>>p{}</style>"),
    st.just("<!-- c -->"), st.just("<!DOCTYPE html>"),
    TEXT,
), max_size=30).map("".join)


def _check(page_bytes: bytes) -> None:
    root = etree.fromstring(page_bytes)
    assert root.tag == "{" + XHTML_NS + "}html"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=300))
def test_any_bytes_clean_or_raise_a_pyxform_error(data: bytes) -> None:
    try:
        page = clean(data)
    except PyxformError:
        return
    _check(page.to_bytes())


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(markup, st.sampled_from(["utf-8", "utf-16-le", "gb18030", "windows-1252"]))
def test_any_markup_cleans_to_well_formed_xhtml(text: str, codec: str) -> None:
    data = text.encode(codec, "surrogatepass" if codec.startswith("utf") else "replace")
    try:
        page = clean(data)
    except PyxformError:
        return
    _check(page.to_bytes())


@settings(max_examples=300, deadline=None)
@given(markup)
@example('<a<table xlink:href="#u">')  # found by this test: an element to rename hid its attributes from the repair
def test_fast_route_and_walk_build_the_same_tree(text: str) -> None:
    assert dump(parse_html(text).tree.getroot()) == dump(parse_html_slow(text).tree.getroot())


@pytest.mark.parametrize("text", ['<a<table xlink:href="#u">', '<p<q><b xml:lang="en" x:y="1" ok="2">t</b></p<q>'])
def test_an_element_to_rename_does_not_keep_attributes_xml_cannot_name(text: str) -> None:
    # the serialization that tells which attribute names to repair leaves out an element XML cannot name, with its
    # subtree: a plain "xlink:href" on an HTML element there must be dropped as everywhere (HTML 13.2.6.5 puts it in
    # the XLink namespace on SVG and MathML elements only)
    root = parse_html(text).tree.getroot()
    names = {name for element in root.iter() for name in element.attrib}
    assert names <= {"ok"}
    assert not any(":" in name or name.startswith("{") for name in names)


_XLINK = "{http://www.w3.org/1999/xlink}"
_XML = "{http://www.w3.org/XML/1998/namespace}"


@pytest.mark.parametrize(("text", "tag", "attributes"), [
    # Shrunk hypothesis examples: "中" is an XML name libxml2 takes but the walk (and Saxon's parser) do not;
    # "xml:a:b" once crashed the walk and was silently dropped by libxml2.
    ("<b/中=<style>td{color:blue} .c{display:none} :hover{x:y} td>>p{}</style>", "b", {}),
    ("<b 中=1 a=2>", "b", {"a": "2"}),
    ("<table xml:a:b=1>", "table", {}),
    ("<svg xlink:a:b=1>", "{http://www.w3.org/2000/svg}svg", {}),
    # HTML 13.2.6.5: only the listed xlink:/xml: names of SVG/MathML elements get a namespace; elsewhere they are
    # plain names with a colon, which XML cannot hold.
    ("<svg xlink:href=u xlink:foo=2 xml:lang=en xml:base=b>", "{http://www.w3.org/2000/svg}svg",
     {_XLINK + "href": "u", _XML + "lang": "en"}),
    ("<p xml:lang=en xlink:href=u>", "p", {}),
    ("<svg><p xmlns=x xmlns:a=y>", "p", {}),
    # Shrunk hypothesis example "<a</table>": the serializer leaves out an element named "a<" (the fast route lost it
    # with its attributes); both routes rename it.
    ("<a<b c=d>x", "a_b", {"c": "d"}),
    ("<p<q>x</p<q>", "p_q", {}),
    # Found by the fuzzer (tests/data/fuzz/attribute-name-with-replacement-characters.html): turbohtml's CSS selector
    # finds no element for a long escaped name (here 60 x U+FFFD), so the fast route kept the attribute and Saxon's
    # parser refused the XHTML.
    ("<table><tr><th rows" + "\ufffd" * 60 + "pan=2 id=a>", "th", {"id": "a"}),
])
def test_both_routes_keep_the_same_attributes(text: str, tag: str, attributes: dict[str, str]) -> None:
    fast, slow = parse_html(text).tree.getroot(), parse_html_slow(text).tree.getroot()
    assert dump(fast) == dump(slow)
    name = tag if tag.startswith("{") else "{" + XHTML_NS + "}" + tag
    element = next(fast.iter(name))
    assert dict(element.attrib) == attributes


@settings(max_examples=500, deadline=None)
@given(st.lists(st.lists(st.sampled_from(list("ax1:.-_=\"<> \u4e2d\u00b7") + ["xmlns", "href"]), min_size=1,
                        max_size=5).map("".join), max_size=4))
def test_the_cheap_test_for_bad_attribute_names_misses_none(names: list[str]) -> None:
    # _bad_attribute_names only collects the names when a cheap search says some may be bad: it gives the names the
    # full collection does (every ` NAME="` of the serialization, kept when not an ASCII XML name or xmlns...).
    from pyxform.stages.clean.parse import _SERIALIZED_ATTRIBUTE_REVERSED, _XML_NAME, _bad_attribute_names

    markup = ("<html><body" + "".join(f' {name}="v"' for name in names) + ">t</body></html>").encode()
    every = {name[::-1].decode() for name in _SERIALIZED_ATTRIBUTE_REVERSED.findall(markup[::-1])}
    assert _bad_attribute_names(markup) == {name for name in every if not _XML_NAME.match(name)
                                            or name.startswith("xmlns")}


# Selectors of type, id and class selectors with descendant and child combinators: the cascade tests one element with
# them in Python (sheets._element_test) instead of running their XPath over the page.
COMPOUND = st.builds(lambda tag, ids, classes: tag + "".join(f"#{i}" for i in ids) + "".join(f".{c}" for c in classes)
                     or "*", st.sampled_from(["", "*", "div", "DIV", "span", "p", "a", "b", "td", "html", "svg"]),
                     st.lists(st.sampled_from(["x", "y", "X"]), max_size=2),
                     st.lists(st.sampled_from(["c", "d", "C", "c-d"]), max_size=2))
SELECTOR = st.builds(lambda first, rest: first + "".join(f"{combinator}{compound}" for combinator, compound in rest),
                     COMPOUND, st.lists(st.tuples(st.sampled_from([" ", " > ", ">"]), COMPOUND), max_size=4))
CLASS = st.sampled_from(["c", "d", "c d", " c\t", "C", "c\xa0d", "c\u2003d", "c-d", "dc", ""])
ELEMENT = st.builds(lambda tag, id_, class_: (tag, id_, class_), st.sampled_from(["div", "span", "p", "a", "b", "svg"]),
                    st.sampled_from([None, "x", "y", "X", "x y"]), st.none() | CLASS)
NESTING = st.lists(st.tuples(ELEMENT, st.sampled_from(["open", "open", "close"])), max_size=25)


def _page(nesting: list) -> str:
    parts = ["<table><tr><td>"]
    for (tag, id_, class_), action in nesting:
        if action == "close":
            parts.append(f"</{tag}>")
            continue
        id_attribute = f' id="{id_}"' if id_ is not None else ""
        class_attribute = f' class="{class_}"' if class_ is not None else ""
        parts.append(f"<{tag}{id_attribute}{class_attribute}>t")
    return "".join(parts)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(SELECTOR, min_size=1, max_size=4), NESTING.map(_page))
@example(["div > b a", "div b > a", "div > b span > a", "p > b a"], "<div><b><span><b><a>x</a>")  # farther b
@example([".c", ".d", "#x", "#X"], '<b class="c\xa0d" id="x y">x</b><b class=" c\td ">x</b>')  # XPath's spaces
def test_element_test_of_a_selector_gives_what_its_xpath_gives(selectors: list[str], page: str) -> None:
    from pyxform.stages.clean.sheets import compiled_sheet

    root = parse_html(page).tree.getroot()
    _count, rules = compiled_sheet("".join(f"{selector} {{color: red}}\n" for selector in selectors))
    compiled = [selector for rule in rules for selector in rule.selectors]
    assert len(compiled) == len(selectors)
    for selector in compiled:
        assert selector.test is not None
        matches = set(selector.xpath(root))
        for element in root.iter(etree.Element):
            assert selector.test(element) == (element in matches), (selector.xpath.path, etree.tostring(element))


def _count_compound_tests(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Make every compound selector test compiled from now on count its calls into the returned one-item list."""
    from pyxform.stages.clean import sheets

    calls = [0]
    compound_test = sheets._compound_test

    def counted(node: object) -> Callable[[etree._Element], bool] | None:
        test = compound_test(node)

        def count(element: etree._Element) -> bool:
            calls[0] += 1
            return test(element)

        return None if test is None else count

    monkeypatch.setattr(sheets, "_compound_test", counted)
    return calls


def test_element_test_tries_each_ancestor_once_per_combinator(monkeypatch: pytest.MonkeyPatch) -> None:
    # "p > div div > div ... div > div .h" on 30 nested divs, no p: after each child combinator every div ancestor
    # is tried; without remembering the failures that is about 30 ** 4 / 4! compound tests (210,651), with it at most
    # each of the 10 parts' compounds on the ancestors of each ancestor.
    from pyxform.stages.clean import sheets

    calls = _count_compound_tests(monkeypatch)
    selector = "p > div " + " ".join(["div > div"] * 4) + " .h"
    root = parse_html("<div>" * 30 + "<span class='h'>x</span>" + "</div>" * 30).tree.getroot()
    element_test = sheets._element_test(sheets.cssselect.parse(selector)[0].parsed_tree)
    assert element_test is not None
    span = next(root.iter("{http://www.w3.org/1999/xhtml}span"))
    assert element_test(span) is False
    assert calls[0] <= 10 * 30 * 30 // 2


def test_hiding_rule_on_a_frequent_class_runs_its_query(monkeypatch: pytest.MonkeyPatch) -> None:
    # "p .h" on 200 nested elements of class h, none under a p: testing each of them walks its ancestors (~200 * 200 / 2
    # compound tests); past style._TESTED_BY_NAME elements the rule's query answers instead, and the cascade's own
    # tests stop after style._TESTS_BEFORE_QUERY elements. The page cleans the same either way.
    from pyxform.stages.clean import clean, sheets

    calls = _count_compound_tests(monkeypatch)
    monkeypatch.setattr(sheets, "_SHEET_CACHE", {})  # compiled here, with the counting tests
    depth = 200
    page = ("<style>p .h {display: none}</style><table><tr><td>"
            + "<span class='h'>" * depth + "x" + "</span>" * depth + "</td></tr></table>")
    cleaned = clean(page)
    assert b">x<" in cleaned.tables_to_bytes()
    assert calls[0] <= 8 * 2 * depth


CELL_TAGS = ["a", "span", "abbr", "img", "br", "b", "i", "small", "div", "ul", "li", "font", "p", "table", "td", "section",
             "dt"]
CELL_CONTENT = st.lists(st.one_of(
    st.tuples(st.sampled_from(CELL_TAGS), st.sampled_from(["", "padding-left:5px", "font-size:20px", "color:red",
                                                           "margin-left:1em;text-indent:2px", "display:block",
                                                           "text-indent:5px", "display:inline"])),
    st.sampled_from(["x", "yy zz", " ", "\u00a0\u00a0w", "\n"]),
    st.sampled_from(["</a>", "</span>", "</b>", "</div>", "</li>", "</ul>", "</table>"]),
), max_size=20)


def _cell_page(content: list, *, style_everywhere: bool) -> str:
    parts = []
    for item in content:
        if isinstance(item, tuple):
            tag, style = item
            parts.append(f"<{tag} style='{style}'>" if style or style_everywhere else f"<{tag}>")
        else:
            parts.append(item)
    body = "".join(parts)
    return f"<table><tr><td style='padding-left:3px'>{body}</td><th align=right><div>{body}</div></th></table>"


@settings(max_examples=300, deadline=None)
@given(CELL_CONTENT)
@example([("div", "padding-left:5px"), ("a", ""), "\u00a0x", ("b", ""), "yy"])  # a link inside a padded block
@example([("span", "text-indent:5px"), ("li", ""), "x"])  # a block inside an inline that sets text-indent
@example([("div", "margin-left:1em;text-indent:2px"), ("li", ""), ("li", ""), "\u00a0x"])  # blocks in a block
def test_elements_without_style_of_their_own_do_not_change_a_cells_features(content: list) -> None:
    """On a page without author rules, the cell walk takes an element without a style of its own (``a``, ``span``
    ...), and a ``li``, ``div`` ... without attributes in a block, as its parent and does not compute its style. Giving every element an empty ``style`` attribute makes the
    walk compute every element's style: the features must be the same."""
    from pyxform.stages.clean.features import cell_features
    from pyxform.stages.clean.style import Cascade

    def features(page: str) -> list[dict[str, str]]:
        parsed = parse_html(page)
        root = parsed.tree.getroot()
        cascade = Cascade(root, parsed.style_sheets, quirks=parsed.quirks)
        return [cell_features(cell, cascade) for cell in root.iter(f"{{{XHTML_NS}}}td", f"{{{XHTML_NS}}}th")]

    assert features(_cell_page(content, style_everywhere=False)) == features(_cell_page(content,
                                                                                       style_everywhere=True))


# Cells with fonts, colours and backgrounds whose values hold what the serializer escapes (&, <, >, ", tab, line feed,
# carriage return) and non-ASCII, empty cells (written "<td/>"), SVG elements named td inside cells, nested tables.
CELL_STYLE = st.sampled_from(["", "font-family:'a&b<c>'", 'font-family:"x\\"y\\9 z\\a\\d"', "color:#abc",
                              "background-color:red", "font-weight:bold", "font-family:中文", "padding-left:2em",
                              "text-align:right", "font-style:italic"])
FEATURE_MARKUP = st.lists(st.one_of(
    st.builds(lambda tag, style: f"<{tag} style='{style}'>", st.sampled_from(["td", "th", "tr", "table", "span", "b"]),
              CELL_STYLE),
    st.sampled_from(["<td>", "<th>", "<td/>", "</td>", "</tr>", "</table>", "<svg><td>s</td><th/></svg>",
                     "<math><td>m</td></math>", "<thead>", "x", "\u00a0y", " ", "<td colspan=2>",
                     "<font face='f&quot;g'>", "<td bgcolor='#fff'>"]),
    st.just("<style>td { color: blue } .k { font-family: 'p<q' }</style>"),
    markup,
), max_size=25).map(lambda parts: "<table><tr><td>" + "".join(parts))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(FEATURE_MARKUP)
@example("<table><tr><td><svg><td>x</td></svg><td/><th style='font-family:\"a&b\"'>y")
def test_features_put_into_the_serialization_give_the_bytes_of_the_written_tree(page: str) -> None:
    """``clean_for_bytes`` keeps the cells' features out of the tree and puts them into the serialization; both
    serializations must be the bytes of :func:`clean`'s tree, which has them written, without falling back to
    writing them."""
    from pyxform.stages.clean import clean_for_bytes

    try:
        written = clean(page)
    except PyxformError:
        return
    whole, tables = clean_for_bytes(page), clean_for_bytes(page)
    assert whole.to_bytes() == written.to_bytes()
    assert tables.tables_to_bytes() == written.tables_to_bytes()
    assert whole.pending_features is not None and tables.pending_features is not None  # no fallback taken
    whole.write_pending_features()
    assert etree.tostring(whole.tree) == etree.tostring(written.tree)


@settings(max_examples=500, deadline=None)
@given(st.dictionaries(st.sampled_from(["font-size", "bold", "face", "color", "background", "align"]),
                       st.text(alphabet=st.sampled_from(list("a1 &<>\"'\t\n\r;#\u00e9\u4e2d\U0001f600")), max_size=8)))
def test_serialized_features_are_what_lxml_writes(features: dict[str, str]) -> None:
    """:func:`.features.serialized_features` gives the attributes as lxml writes them at the end of a start tag."""
    from pyxform.stages.clean.features import serialized_features

    element = etree.Element("td", nsmap={"px": "urn:pyxform"})
    element.set("class", "c")
    for name, value in features.items():
        element.set(f"{{urn:pyxform}}{name}", value)
    expected = etree.tostring(element, encoding="utf-8")
    _features, serialized = serialized_features({f"{{urn:pyxform}}{name}".encode(): value
                                                 for name, value in features.items()})
    assert expected == b'<td xmlns:px="urn:pyxform" class="c"' + serialized + b"/>"


def test_features_are_written_into_the_tree_when_the_start_tags_do_not_line_up(monkeypatch: pytest.MonkeyPatch
                                                                                ) -> None:
    """If the cells' start tags could not be matched with the cells (never on a tree of clean's), the features are
    written into the tree and it is serialized again: the same bytes."""
    import pyxform.stages.clean as clean_module
    from pyxform.stages.clean import clean_for_bytes

    page = "<table><tr><td style='color:red'>a<td>b<table><tr><th>c</table></table><table><tr><td>d</table>"
    monkeypatch.setattr(clean_module, "insert_features", lambda *_arguments: None)
    fallback = clean_for_bytes(page)
    assert fallback.tables_to_bytes() == clean(page).tables_to_bytes()
    assert fallback.pending_features is None
    assert clean_for_bytes(page).to_bytes() == clean(page).to_bytes()
