"""Hidden content and per-cell formatting features (docs/formats.md section 1), each on a small page."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pyxform
from pyxform.stages.clean import clean
from pyxform.stages.clean.parse import XHTML_NS
from pyxform.stages.clean.values import first_family, legacy_color

X = "{" + XHTML_NS + "}"
PX = "{urn:pyxform}"


def cells(html: str) -> list[dict[str, str]]:
    """The px: attributes of every cell of the cleaned page, in document order."""
    root = clean(html).tree.getroot()
    return [{k[len(PX):]: v for k, v in c.attrib.items() if k.startswith(PX)} for c in root.iter(X + "td", X + "th")]


def one(html: str) -> dict[str, str]:
    return cells(html)[0]


def texts(html: str) -> list[str]:
    return [" ".join("".join(c.itertext()).split()) for c in clean(html).tree.getroot().iter(X + "td", X + "th")]


@pytest.mark.parametrize(("markup", "size"), [
    ("<td>x", "16"),
    ("<td><font size=1>x</font>", "10"), ("<td><font size=3>x</font>", "16"), ("<td><font size=7>x</font>", "48"),
    ("<td><font size=+2>x</font>", "24"), ("<td><font size=-1>x</font>", "13"), ("<td><font size=9>x</font>", "48"),
    ("<td><big>x</big>", "19.2"), ("<td><small>x</small>", "13.33"), ("<td><big><big>x</big></big>", "23.04"),
    ("<td><h1>x</h1>", "32"), ("<td><h2>x</h2>", "24"), ("<td><h3>x</h3>", "18.72"), ("<td><h6>x</h6>", "10.72"),
    ("<td style='font-size:12pt'>x", "16"), ("<td style='font-size:20px'>x", "20"),
    ("<td style='font-size:1.5em'>x", "24"), ("<td style='font-size:150%'>x", "24"),
    ("<td style='font-size:x-large'>x", "24"), ("<td style='font-size:smaller'>x", "13.33"),
    ("<td style='font-size:2rem'><span style='font-size:50%'>x</span>", "16"),
    ("<td style='font:italic bold 18px/2 Georgia, serif'>x", "18"),
])
def test_font_size(markup: str, size: str) -> None:
    assert one(f"<!DOCTYPE html><table><tr>{markup}</table>")["font-size"] == size


def test_font_size_of_the_majority_of_characters() -> None:
    assert one("<!DOCTYPE html><table><tr><td><big>ab</big>cdef</table>")["font-size"] == "16"
    assert one("<!DOCTYPE html><table><tr><td><big>abcde</big>f</table>")["font-size"] == "19.2"


def test_style_rules_with_specificity_order_and_importance() -> None:
    page = """<!DOCTYPE html><style>
      td { font-size: 10px } .a { font-size: 11px } #i { font-size: 12px } td.a { font-size: 13px }
      table td.b { font-size: 14px } td.b { font-size: 15px } .c { font-size: 16px !important } #j { font-size: 9px }
      .later { font-size: 20px } .later { font-size: 21px }
      @media print { .p { font-size: 40px } } @media screen and (min-width: 800px) { .m { font-size: 30px } }
      @media (max-width: 600px) { .m { font-size: 31px } }
    </style><table><tr><td>x<td class=a>x<td class=a id=i>x<td class=b>x<td class='c' id=j style='font-size:8px'>x
    <td class=later>x<td class=p>x<td class=m>x</table>"""
    assert [c["font-size"] for c in cells(page)] == ["10", "13", "12", "14", "16", "21", "10", "30"]


def test_quirks_mode_tables_do_not_inherit_font_size() -> None:
    assert one("<font size=6><table><tr><td>x</table></font>")["font-size"] == "16"
    assert one("<!DOCTYPE html><font size=6><table><tr><td>x</table></font>")["font-size"] == "32"


@pytest.mark.parametrize(("markup", "bold"), [
    ("<td>x", "false"), ("<th>x", "true"), ("<td><b>x</b>", "true"), ("<td><strong>x</strong>", "true"),
    ("<td><h4>x</h4>", "true"), ("<td style='font-weight:700'>x", "true"), ("<td style='font-weight:500'>x", "false"),
    ("<th style='font-weight:normal'>x", "false"), ("<td><b>ab</b>cd", "true"), ("<td><b>a</b>bcd", "false"),
    ("<td><b style='font-weight:lighter'>x</b>", "false"), ("<td style='font:bold 12px serif'>x", "true"),
    ("<th><b>x</b></th>", "true"), ("<td></td>", "false"), ("<th></th>", "true"),
])
def test_bold(markup: str, bold: str) -> None:
    assert one(f"<!DOCTYPE html><table><tr>{markup}</table>")["bold"] == bold


@pytest.mark.parametrize(("markup", "italic"), [
    ("<td>x", "false"), ("<td><i>x</i>", "true"), ("<td><em>x</em>", "true"), ("<td><cite>x</cite>", "true"),
    ("<td style='font-style:oblique'>x", "true"), ("<td><i style='font-style:normal'>x</i>", "false"),
])
def test_italic(markup: str, italic: str) -> None:
    assert one(f"<!DOCTYPE html><table><tr>{markup}</table>")["italic"] == italic


def test_face_color_background_and_align() -> None:
    page = """<!DOCTYPE html><style>.h { color: rgb(255, 0, 0); font-family: 'Open Sans', Arial }
      tbody.g { background: #abc url(x.png) }</style>
    <table><tr bgcolor=silver align=right><td>a<td bgcolor="#00ff00" class=h>b<td style="background:none">c
    <tbody class=g><tr><td><font face="Verdana, sans" color=blue>d</font><th>e<td style="text-align:justify">f
    <tr align=left><th>g<td><code>h</code></table>"""
    got = cells(page)
    assert got[0].get("background") == "#c0c0c0" and got[0].get("align") == "right" and "color" not in got[0]
    assert (got[1]["background"], got[1]["color"], got[1]["face"]) == ("#00ff00", "#ff0000", "open sans")
    assert "background" not in got[2] or got[2]["background"] == "#c0c0c0"
    assert (got[3]["background"], got[3]["color"], got[3]["face"]) == ("#aabbcc", "#0000ff", "verdana")
    assert got[4]["align"] == "center" and got[5]["align"] == "justify"
    assert got[6]["align"] == "left"  # a th under an aligned row inherits, the UA centring applies only otherwise
    assert got[7]["face"] == "monospace"
    assert "align" not in cells("<!DOCTYPE html><table><tr><td>x</table>")[0]


@pytest.mark.parametrize(("markup", "indent"), [
    ("<td>x", "0"), ("<td style='padding-left:10px'>x", "10"), ("<td style='padding:1px 2px 3px 4px'>x", "4"),
    ("<td style='padding:1px 2px'>x", "2"), ("<td style='text-indent:2em'>x", "32"),
    ("<td>&nbsp;&nbsp;&nbsp;&nbsp;x", "16"), ("<td><div style='margin-left:12px'>x</div>", "12"),
    ("<td><blockquote>x</blockquote>", "40"), ("<td><ul><li>x</ul>", "40"),
    ("<td><span style='margin-left:30px'>x</span>", "0"),  # inline: not counted
    ("<td style='padding-left:5%'>x", "0"), ("<td style='padding-left:1em;font-size:20px'>x", "20"),
])
def test_indent(markup: str, indent: str) -> None:
    assert one(f"<!DOCTYPE html><table><tr>{markup}</table>")["indent"] == indent


def test_hidden_content_is_removed_and_tail_text_kept() -> None:
    page = """<!DOCTYPE html><style>.x { display: none } .v { visibility: hidden } .show { visibility: visible }</style>
    <table><tr><td>a<span style="display:none">SORTKEY</span>b<td class=x>gone<td>c<span class=v>V</span>d
    <td><span hidden>H</span>e<td><div class=v>hid <span class=show>shown</span></div>
    <tr style="DISPLAY: NONE"><td>row gone<tr style="visibility:collapse"><td>collapsed</table>"""
    assert texts(page) == ["ab", "cd", "e", "hid shown"]


def test_hidden_tables_keep_the_others_index() -> None:
    page = """<!DOCTYPE html><table><tr><td>0</table><div style="display:none"><table><tr><td>1</table></div>
    <noscript><table><tr><td>2</table></noscript><table><tr><td>3</table>"""
    root = clean(page).tree.getroot()
    # The table hidden by CSS stays, marked (its grid exists in the browser's DOM too); the one in noscript goes.
    assert [(t.get(PX + "index"), t.get(PX + "locator"), t.get(PX + "hidden"))
            for t in root.iter(X + "table")] == [
        ("0", "/html/body[1]/table[1]", None), ("1", "/html/body[1]/div[1]/table[1]", "true"),
        ("3", "/html/body[1]/table[2]", None)]


def test_table_annotations() -> None:
    page = """<!DOCTYPE html><html><head><title>  The   title </title></head><body><h1>Main</h1>
    <table style="font-size:13px"><tr><td><h3>Inner heading</h3><table><tr><td>n</table></table>
    <h2>Second <b>part</b></h2><table><tr><td>x</table></body></html>"""
    root = clean(page).tree.getroot()
    assert root.get(PX + "title") == "The title"
    assert (root.get(PX + "encoding"), root.get(PX + "encoding-source")) == ("utf-8", "caller")
    tables = list(root.iter(X + "table"))
    assert [(t.get(PX + "index"), t.get(PX + "depth"), t.get(PX + "heading"), t.get(PX + "font-size"))
            for t in tables] == [("0", "0", "Main", "13"), ("1", "1", "Inner heading", "13"),
                                 ("2", "0", "Second part", "16")]
    assert tables[1].get(PX + "locator") == "/html/body[1]/table[1]/tbody[1]/tr[1]/td[1]/table[1]"


@pytest.mark.parametrize(("page", "title"), [
    # no title in head: the first one in document order outside noscript (CSS does not hide a title from
    # document.title)
    ("<p>x</p><noscript><title>A</title></noscript><div style='display:none'><title>B</title></div><p><title>C</title>"
     "<title>D</title><table><tr><td>x</table>", "B"),
    ("<p>x</p><noscript><div><noscript><title>A</title></noscript><title>A2</title></div></noscript><title>C</title>"
     "<table><tr><td>x</table>", "C"),
    # hidden by the page's style or the hidden attribute: still the page's title
    ("<head><style>title{display:none}</style><title>My page</title></head><body><table><tr><td>x</table>",
     "My page"),
    ("<head><title hidden>Kept</title></head><body><table><tr><td>x</table>", "Kept"),
    ("<head><title>H</title></head><body><title>Z</title><table><tr><td>x</table>", "H"),
    ("<svg><title>S</title></svg><table><tr><td>x</table>", ""),  # an SVG title is no page title
])
def test_page_title_outside_head(page: str, title: str) -> None:
    assert clean("<!DOCTYPE html>" + page).tree.getroot().get(PX + "title") == title


def test_nested_table_text_is_not_the_outer_cells_text() -> None:
    outer = one("<!DOCTYPE html><table><tr><td>o<table><tr><td><b>nested nested nested</b></table></table>")
    assert outer["bold"] == "false"


@pytest.mark.parametrize(("value", "color"), [
    ("red", "#ff0000"), ("#fff", "#ffffff"), ("#ABCDEF", "#abcdef"), ("ff0000", "#ff0000"),
    ("chucknorris", "#c00000"), ("transparent", None), ("", None), ("#12345", "#123450"),
])
def test_legacy_colour_parsing(value: str, color: str | None) -> None:
    assert legacy_color(value) == color


@pytest.mark.parametrize("content", [
    "\u00a0\u00a0<a href='#'>name</a>", "<span>a</span> <a>b</a>", "<a>\u00a0</a>", "<a>\u2003</a>", "<a></a>",
    "<img src=x> \u00a0 <a>x</a>", "<span><a>x</a></span>y", "<svg><text>x</text></svg>", "<br>",
    "<a style='font-size:20px'>x</a>", "<b>x</b> y", "<div>x</div>", "<ul><li>x</ul>",
])
def test_a_cell_whose_elements_inherit_its_style_has_the_features_of_its_text(content: str) -> None:
    from pyxform.stages.clean.features import cell_features
    from pyxform.stages.clean.parse import parse_html
    from pyxform.stages.clean.style import Cascade

    html = f"<table><tr><td style='padding-left:3px'>{content}</td><th align=right>{content}</th></table>"
    parsed = parse_html(html)
    cascade = Cascade(parsed.tree.getroot(), parsed.style_sheets, quirks=parsed.quirks)
    walked = [cell_features(cell, cascade) for cell in parsed.tree.getroot().iter(X + "td", X + "th")]
    assert cells(html) == walked


@pytest.mark.parametrize(("value", "face"), [
    ("'Open Sans', Arial", "open sans"),
    ('"a, b", serif', "a, b"),  # a comma inside a string does not end the name
    ("Times   New\tRoman, serif", "times new roman"),  # identifiers joined by single spaces (CSS Fonts 4, 2.1)
    ("Gill\\ Sans", "gill sans"),  # an escaped space inside an identifier
    ('"a\\\\b"', "a\\b"),  # an escaped backslash is one backslash
    ("/* c */ Verdana", "verdana"),
    ('""', ""),  # an empty string names no font
    ("'Georgia", "georgia"), ('"a b\\', "a b"),  # a string the value's end closes (CSS Syntax 3, 4.3.5)
    ('"a\nb", serif', None),  # a line feed in a string makes a bad string
    ("12px, serif", None), ("f(x)", None), ('"a" b', None), ('a "b"', None), ("", None), (", serif", None),
])
def test_first_family_follows_the_family_name_grammar(value: str, face: str | None) -> None:
    assert first_family(value) == face


def test_an_unreadable_font_family_keeps_the_inherited_face() -> None:
    page = ("<table style='font-family: Georgia'><tr><td style='font-family: 12px'>a<td style='font-family: \"\"'>b"
            "<td style='font-family: Arial'>c</table>")
    assert [cell.get("face") for cell in cells(page)] == ["georgia", None, "arial"]


@settings(max_examples=200, deadline=None)
@given(code_point=st.one_of(st.integers(1, 0x1F), st.integers(0xD800, 0xDFFF), st.sampled_from([0xFFFE, 0xFFFF]),
                            st.integers(0x20, 0x10FFFF)))
def test_a_css_escape_to_any_code_point_gives_a_face_xml_can_hold(code_point: int) -> None:
    """CSS Syntax 3 (4.3.7) lets an escape write control characters and (in tinycss2) surrogates, which XML 1.0 cannot
    hold in px:face: they become U+FFFD (form feed a space, as in the page's text), in an inline style and in an author
    sheet, for clean() and convert(); the others are the character itself, lower-cased."""
    xml_char = (code_point in (0x9, 0xA, 0xD) or 0x20 <= code_point <= 0xD7FF or 0xE000 <= code_point <= 0xFFFD
                or code_point >= 0x10000)
    for page in (f"<table><tr><td style='font-family:\"a\\{code_point:X} b\"'>x</table>",
                 f"<style>td {{ font-family: 'a\\{code_point:X} b' }}</style><table><tr><td>x</table>"):
        cell = next(clean(page).tree.getroot().iter(f"{{{XHTML_NS}}}td"))
        face = cell.get("{urn:pyxform}face")
        assert face is not None and face.startswith("a") and face.endswith("b"), (page, face)
        assert all(ch in "\t\n\r" or 0x20 <= ord(ch) <= 0xD7FF or 0xE000 <= ord(ch) <= 0xFFFD or ord(ch) >= 0x10000
                   for ch in face), (page, face)
        expected = " " if code_point == 0xC else chr(code_point).lower() if xml_char else "\ufffd"
        assert face == f"a{expected}b", (page, face)  # decoded, whether the escape starts with a digit or a letter
        assert pyxform.convert(page).xml  # serialized and parsed by Saxon: no error


@pytest.mark.parametrize(("page", "color"), [
    # the b is not its cell's first child in the page (a browser keeps the hidden span and the noscript in the DOM)
    ("<style>.h {display:none} td > b:first-child {color:red}</style><table><tr><td><span class=h>h</span><b>b</b>"
     "</table>", None),
    ("<style>td > b:first-child {color:red}</style><table><tr><td><noscript>n</noscript><b>b</b></table>", None),
    ("<style>td > b:first-child {color:red}</style><table><tr><td><span hidden>h</span><b>b</b></table>", None),
    ("<style>b + i {color:red}</style><table><tr><td><b>x</b><span hidden>h</span><i>a longer text</i></table>", None),
    ("<style>td > b:last-child {color:red}</style><table><tr><td><b>b</b><span hidden>h</span></table>", None),
    # and where it is, the rule applies
    ("<style>.h {display:none} td > b:first-child {color:red}</style><table><tr><td><b>b</b><span class=h>h</span>"
     "</table>", "#ff0000"),
    ("<style>b + i {color:red}</style><table><tr><td><b>x</b><i>a longer text</i><span hidden>h</span></table>",
     "#ff0000"),
])
def test_structural_selectors_match_the_page_before_elements_are_removed(page: str, color: str | None) -> None:
    """Sibling combinators and child-indexed pseudo-classes (Selectors 4, 14 and 15.2) match the whole page, as in a
    browser, not the page after clean removed noscript and hidden elements (review13)."""
    assert one(page).get("color") == color
