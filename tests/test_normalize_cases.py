"""Stage 2 on the hand-made cases (tests/data/cases/*/expected-grid.json, exact) and on hand-derived tables for the
rules the cases do not reach: rowspan=0, spans cut at the end of a row group, tfoot last, rows outside any group,
column groups, table model errors, nesting, visible text and the per-table failure."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pyxform.base.limits import Limits
from pyxform.stages.normalize import GridDocument, Normalizer, TableGrid, grid

from .conftest import CASES

CASE_DIRS = sorted(path for path in CASES.iterdir() if (path / "expected-grid.json").is_file())


def test_the_case_set_is_present() -> None:
    assert len(CASE_DIRS) >= 11
    assert {"paper-example", "overlapping-cells", "huge-and-invalid-spans"} <= {p.name for p in CASE_DIRS}


@pytest.mark.parametrize("case", CASE_DIRS, ids=lambda path: path.name)
def test_case_grid_is_exact(case: Path, normalizer: Normalizer) -> None:
    expected = json.loads((case / "expected-grid.json").read_text(encoding="utf-8"))
    assert grid(case / "input.html", normalizer=normalizer).to_json() == expected


def page(body: str) -> str:
    return f"<!DOCTYPE html><html><head><title>t</title></head><body>{body}</body></html>"


def rows_of(table: TableGrid) -> list[list[str]]:
    """Each slot as its cell's text ("." for an uncovered slot)."""
    return [[cell.text if cell else "." for cell in row] for row in table.grid]


def error_set(table: TableGrid) -> set[tuple]:
    return {(e.code, e.row, e.col, e.cells, e.declared, e.effective) for e in table.errors}


ROW_GROUPS = page("""
<table>
<tfoot><tr><td>f1</td><td rowspan=0>f2</td></tr><tr><td>f3</td></tr></tfoot>
<thead><tr><th rowspan=0>H</th><th>h1</th></tr><tr><th>h2</th></tr></thead>
<tr><td rowspan=5>a</td><td>b</td></tr>
<tr><td>c</td></tr>
<tbody><tr><td>d</td><td rowspan="0">e</td><td>x</td></tr><tr><td>g</td><td>i</td></tr></tbody>
</table>""")


def test_rowspan_zero_row_groups_and_tfoot_last(normalizer: Normalizer) -> None:
    # Hand-derived from WHATWG "forming a table": groups thead, implied tbody (the two loose tr), tbody, then the
    # pending tfoot; rowspan=0 runs to the end of its group; rowspan=5 is cut at the end of its group (2 rows).
    table = grid(ROW_GROUPS, normalizer=normalizer).tables[0]
    assert (table.rows, table.cols) == (8, 3)
    assert rows_of(table) == [
        ["H", "h1", "."],
        ["H", "h2", "."],
        ["a", "b", "."],
        ["a", "c", "."],
        ["d", "e", "x"],
        ["g", "e", "i"],
        ["f1", "f2", "."],
        ["f3", "f2", "."],
    ]
    assert [(c.text, c.id) for c in table.cells[:4]] == [("f1", "t0.c0"), ("f2", "t0.c1"), ("f3", "t0.c2"),
                                                         ("H", "t0.c3")]
    assert [kind for kind in table.row_groups] == [(0, "thead"), (0, "thead"), (1, "tbody"), (1, "tbody"),
                                                   (2, "tbody"), (2, "tbody"), (3, "tfoot"), (3, "tfoot")]
    assert error_set(table) == {
        ("rowspan-zero", None, None, ("t0.c1",), 0, 2),
        ("rowspan-zero", None, None, ("t0.c3",), 0, 2),
        ("rowspan-zero", None, None, ("t0.c10",), 0, 2),
        ("rowspan-clipped", None, None, ("t0.c6",), 5, 2),
    }


def xhtml(table: str) -> str:
    return ('<html xmlns="http://www.w3.org/1999/xhtml" xmlns:px="urn:pyxform"><body>' + table + "</body></html>")


def test_rows_outside_any_group_form_one_group(normalizer: Normalizer) -> None:
    # Only XHTML input can have tr children of table (the HTML parser adds tbody). Consecutive loose rows are one
    # group; a tbody between them ends it, so the rowspan=0 cell stops before the tbody.
    document = normalizer.normalize(xhtml(
        "<table><tr><td rowspan='0'>z</td><td>1</td></tr><tr><td>2</td></tr>"
        "<caption>c</caption><tr><td>3</td></tr>"
        "<tbody><tr><td>4</td><td>5</td></tr></tbody><tr><td rowspan='3'>6</td></tr></table>"))
    table = document.tables[0]
    assert table.caption == "c"
    assert rows_of(table) == [["z", "1"], ["z", "2"], ["z", "3"], ["4", "5"], ["6", "."]]
    assert [group for group in table.row_groups] == [(0, "none")] * 3 + [(1, "tbody"), (2, "none")]
    assert error_set(table) == {("rowspan-zero", None, None, ("t0.c0",), 0, 3),
                                ("rowspan-clipped", None, None, ("t0.c6",), 3, 1)}


def test_leading_column_groups_widen_the_table(normalizer: Normalizer) -> None:
    # "column groups" steps: colgroups before the first row count (a col's span, or the colgroup's own span);
    # a colgroup after the rows does not.
    document = grid(page(
        "<table><colgroup span=2></colgroup><colgroup><col span='2;'><col span=0></colgroup>"
        "<tr><td>a</td></tr></table>"
        "<table><tr><td>a</td></tr><colgroup span=9></colgroup></table>"), normalizer=normalizer)
    wide, narrow = document.tables
    assert (wide.rows, wide.cols) == (1, 5)
    assert rows_of(wide) == [["a", ".", ".", ".", "."]]
    assert {("empty-column", None, c, (), None, None) for c in range(1, 5)} <= error_set(wide)
    assert (narrow.rows, narrow.cols) == (1, 1)


def test_overlap_is_recorded_and_the_later_cell_owns_the_slot(normalizer: Normalizer) -> None:
    table = grid(CASES / "overlapping-cells" / "input.html", normalizer=normalizer).tables[0]
    b1, wide = table.cell("t0.c4"), table.cell("t0.c6")
    assert (b1.text, b1.rowspan, wide.text, wide.colspan) == ("b1", 2, "wide", 3)
    assert table.grid[2][1] is wide
    assert ("overlap", 2, 1, ("t0.c4", "t0.c6"), None, None) in error_set(table)


def test_span_limits_are_recorded(normalizer: Normalizer) -> None:
    tables = grid(CASES / "huge-and-invalid-spans" / "input.html", normalizer=normalizer).tables
    assert error_set(tables[0]) == set()  # invalid values are not errors: they mean 1
    wide, tall = tables[1].cell("t1.c0"), tables[1].cell("t1.c1")
    assert (wide.colspan, tall.rowspan) == (1000, 2)
    assert {("colspan-clamped", None, None, ("t1.c0",), 100000, 1000),
            ("rowspan-clamped", None, None, ("t1.c1",), 9007199254740991, 65534),
            ("rowspan-clipped", None, None, ("t1.c1",), 9007199254740991, 2)} <= error_set(tables[1])
    assert len([e for e in tables[1].errors if e.code == "empty-column"]) == 998


def test_empty_rows_are_rows(normalizer: Normalizer) -> None:
    table = grid(CASES / "empty-rows" / "input.html", normalizer=normalizer).tables[0]
    assert {(e.code, e.row) for e in table.errors if e.code == "empty-row"} == {("empty-row", 0), ("empty-row", 3)}


def test_nested_table_is_its_own_table_and_referenced(normalizer: Normalizer) -> None:
    outer, inner = grid(CASES / "nested-table" / "input.html", normalizer=normalizer).tables
    parts = outer.grid[1][1]
    assert parts.text == "two parts" and parts.table_refs == (1,)
    assert (inner.parent_table, inner.parent_cell, inner.depth) == (0, parts.id, 1)
    assert (outer.parent_table, outer.depth) == (None, 0)


def test_caption_summary_and_locator(normalizer: Normalizer) -> None:
    document = grid(page("<div><p>x</p></div><div><table summary='About  it'><caption> Big <b>title</b><br>two "
                         "</caption><tr><td>1</td></tr></table></div>"), normalizer=normalizer)
    table = document.tables[0]
    assert table.caption == "Big title\ntwo"
    assert table.summary == "About  it"
    assert table.locator.endswith("div[2]/table[1]")


def test_visible_text_rules(normalizer: Normalizer) -> None:
    cells = grid(page(
        "<table><tr>"
        "<td>  a \n\t b <br> c<br><br>d </td>"
        "<td><p>one</p><p> two </p><ul><li>x</li><li>y <i>z</i></li></ul></td>"
        "<td>keep\u00a0nbsp <img src='i.png' alt='pic'> <script>var s;</script><style>p{}</style>end</td>"
        "<td>out<table><tr><td>inner</td></tr></table>after</td>"
        "<td><a href='/u'> link <b>text</b></a> and <a>no href</a></td>"
        "<td><ruby>漢<rp>(</rp><rt>kan</rt><rp>)</rp></ruby></td>"
        "</tr></table>"), normalizer=normalizer).tables[0].cells
    assert [cell.text for cell in cells] == [
        "a b\nc\nd", "one\ntwo\nx\ny z", "keep\u00a0nbsp end", "out\nafter", "link text and no href", "漢kan"]
    assert cells[2].images[0].src == "i.png" and cells[2].images[0].alt == "pic"
    assert [(link.href, link.text) for link in cells[4].links] == [("/u", "link text")]
    assert cells[3].table_refs == (1,) and cells[3].links == ()


def test_cell_attributes_are_copied(normalizer: Normalizer) -> None:
    cell = grid(page("<table><tr><th scope=col headers='a b' id=h1 abbr=Q class='x y'>Q1</th><td>1</td></tr>"
                     "</table>"), normalizer=normalizer).tables[0].cells[0]
    assert cell.features == {"scope": "col", "headers": "a b", "html-id": "h1", "abbr": "Q", "class": "x y",
                             # clean's formatting features: the UA stylesheet makes th bold and centred
                             "font-size": "16", "bold": "true", "italic": "false", "align": "center", "indent": "0"}


def test_formatting_features_from_clean_are_copied(normalizer: Normalizer) -> None:
    document = normalizer.normalize(xhtml(
        "<table px:index='0' px:locator='/html/body/table[1]' px:depth='0' px:font-size='16'><tr>"
        "<td px:font-size='20' px:bold='true' px:italic='false' px:align='center' px:color='#ff0000' "
        "px:indent='0'>a</td></tr></table>"))
    table = document.tables[0]
    assert table.font_size == "16" and table.locator == "/html/body/table[1]"
    assert table.cells[0].features == {"font-size": "20", "bold": "true", "italic": "false", "align": "center",
                                       "color": "#ff0000", "indent": "0"}


def test_a_table_over_the_slot_limit_fails_alone() -> None:
    small = Normalizer(limits=Limits(max_slots=100))
    document = grid(CASES / "huge-and-invalid-spans" / "input.html", normalizer=small)
    assert [t.index for t in document.tables] == [0]
    (failure,) = document.failures
    assert (failure.index, failure.code) == (1, "limit")
    assert "max_slots = 100" in failure.message
    assert document.to_json()["failures"][0]["index"] == 1


def test_massive_overlap_is_bounded_by_the_slot_limit(normalizer: Normalizer) -> None:
    # B covers columns 1-20 of all 20 rows; each later row's cell starts in the free column 0 and spans all 21
    # columns, over B. The cells' areas add up to 1 + 400 + 19 x 21 = 800 on a grid of 20 x 21 = 420 slots.
    layered = page("<table><tr><td>a</td><td colspan=20 rowspan=20>B</td></tr>"
                   + "<tr><td colspan=21>c</td></tr>" * 19 + "</table>")
    table = grid(layered, normalizer=normalizer).tables[0]
    assert (table.rows, table.cols) == (20, 21)
    assert sum(e.code == "overlap" for e in table.errors) == 19 * 20
    assert table.grid[5][7].text == "c" and table.grid[0][7].text == "B"
    bounded = grid(layered, normalizer=Normalizer(limits=Limits(max_slots=500)))
    assert bounded.tables == ()
    assert bounded.failures[0].code == "limit" and "overlap" in bounded.failures[0].message


def test_huge_span_values_cost_nothing(normalizer: Normalizer) -> None:
    digits = "9" * 5000
    table = grid(page(f"<table><tr><td colspan='{digits}' rowspan='{digits}'>x</td></tr></table>"),
                 normalizer=normalizer).tables[0]
    assert (table.rows, table.cols) == (1, 1000)


def test_a_table_nested_too_deep_fails_alone() -> None:
    shallow = Normalizer(limits=Limits(max_depth=0))
    document = grid(CASES / "nested-table" / "input.html", normalizer=shallow)
    assert [t.index for t in document.tables] == [0]
    assert [(f.index, f.code) for f in document.failures] == [(1, "limit")]


def test_only_one_table(normalizer: Normalizer) -> None:
    document = grid(CASES / "nested-table" / "input.html", table=1, normalizer=normalizer)
    assert [t.index for t in document.tables] == [1]
    assert document.tables[0].parent_cell == "t0.c3"


def test_the_model_and_the_xml_agree(normalizer: Normalizer) -> None:
    document: GridDocument = grid(CASES / "paper-example" / "input.html", normalizer=normalizer)
    assert document.title == "Population Statistics"
    assert document.xml.startswith("<px:grids")
    table = document.table(0)
    assert table.caption == "Population Statistics"
    assert [c.id for c in table.cells] == [f"t0.c{n}" for n in range(12)]
    assert table.grid[1][3] is table.cell("t0.c2") and table.grid[1][3].origin == (0, 3)


SORT_KEY_CLASSES = ["sortkey", "a sortkey", "sortkey\tb", "\nsortkey\n", "x  sortkey  y", "xsortkey", "sortkeys",
                    "Sortkey", "sort key", "", "sortkeysortkey", "a-sortkey", "sortkey-b", "sortkey\u00a0b"]


def test_a_sort_key_is_an_element_with_the_class_token_sortkey(normalizer: Normalizer) -> None:
    """A cell's sort key is the text of an element whose class has the token sortkey (ASCII whitespace between
    tokens). normalize/cells.xsl tests that the class holds the string sortkey before it tests the token: a longer
    word, another case, a no-break space or no class give no sort key."""
    rows = "".join(f'<tr><td><span class="{cls}">key{n}</span>text</td></tr>'
                   for n, cls in enumerate(SORT_KEY_CLASSES))
    xml = grid(f"<!DOCTYPE html><html><head><title>k</title></head><body><table>{rows}</table></body></html>",
               normalizer=normalizer).xml
    for n, cls in enumerate(SORT_KEY_CLASSES):
        expected = "sortkey" in cls.replace("\t", " ").replace("\n", " ").split(" ")
        assert (f"<px:sort-key>key{n}</px:sort-key>" in xml) == expected, (cls, expected)
