"""Outputs people use: tables as CSV and DataFrames (tabular.xsl), JSON (json.xsl), XHTML (xhtml.xsl)."""

from __future__ import annotations

import csv
import io
import json
import os
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from pyxform import convert, convert_grid
from pyxform.api.dataframes import to_dataframe, to_dataframes
from pyxform.jobs.outputs import csv_paths
from pyxform.stages.tabular import Column

from .annotated_grids import C, T, grid_xml, td, th

CASES = Path(__file__).parent / "data" / "cases"
CASE_NAMES = sorted(p.name for p in CASES.iterdir() if (p / "input.html").is_file())
PAPER = (CASES / "paper-example" / "input.html").read_bytes()
XHTML = "{http://www.w3.org/1999/xhtml}"

ROW_WISE = grid_xml(T([[th("Name"), th("Score")], [td("Ann"), td("3")], [td("Bob"), td("1,204")]], k=1))
SECTIONS = grid_xml(T([[th("Group"), th("Value")], [td("Staff", colspan=2, section=True)], [td("Ann"), td("3")],
                       [td("Bob"), td("4")], [td("Students", colspan=2, section=True)], [td("Cy"), td("5.5")]],
                      k=1, p=1))

try:
    import pandas
except ImportError:  # pragma: no cover - pandas is in the test extra
    pandas = None
needs_pandas = pytest.mark.skipif(pandas is None, reason="pandas is not installed (pip install 'pyxform[pandas]')")


# -- tabular and CSV -----------------------------------------------------------------------------------------------
def test_paper_example_as_columns_and_records() -> None:
    (table,) = convert(PAPER).tables()
    assert (table.index, table.header_rows, table.header_cols) == (0, 2, 1)
    assert table.columns == (Column("row-header", ("", ""), 0), Column("data", ("Average", "Height"), 1),
                             Column("data", ("Average", "Weight"), 2), Column("data", ("Ratio", ""), 3))
    assert table.records == (("Males", "1.78", "75", "40.46%"),
                             ("Females", "Not available", "Not available", "40.34%"))
    assert table.rows == (2, 3)
    assert table.caption == "Population Statistics"
    assert table.to_csv() == (",Average / Height,Average / Weight,Ratio\r\n"
                              "Males,1.78,75,40.46%\r\nFemales,Not available,Not available,40.34%\r\n")
    assert table.header(" > ") == ["", "Average > Height", "Average > Weight", "Ratio"]


def test_row_wise_table_and_quoting() -> None:
    (table,) = convert_grid(ROW_WISE).tables()
    assert [c.kind for c in table.columns] == ["data", "data"]
    assert list(csv.reader(io.StringIO(table.to_csv()))) == [["Name", "Score"], ["Ann", "3"], ["Bob", "1,204"]]


def test_sections_become_the_outer_row_header_column() -> None:
    (table,) = convert_grid(SECTIONS).tables()
    assert table.header() == ["section", "Group", "Value"]
    assert table.records == (("Staff", "Ann", "3"), ("Staff", "Bob", "4"), ("Students", "Cy", "5.5"))
    assert table.rows == (2, 3, 5)


def test_columns_without_headers_are_named_by_position() -> None:
    (table,) = convert_grid(grid_xml(T([[td("a"), td("b")], [td("c"), td("d")]]))).tables()
    assert table.header() == ["column-1", "column-2"]
    assert table.records == (("a", "b"), ("c", "d"))


def test_repeated_header_rows_and_empty_rows_are_not_records() -> None:
    page = b"<table><tr><th>A<th>B<tr><td>1<td>2<tr><th>A<th>B<tr><td>3<td><tr></tr></table>"
    (table,) = convert(page).tables()
    assert table.records == (("1", "2"), ("3", ""))
    assert table.rows == (1, 3)


def test_nested_tables_are_tables_of_their_own() -> None:
    inner = T([[th("X")], [td("x1")]], k=1)
    grid = grid_xml(T([[th("Item"), th("Detail")], [td("a"), C("see", nested=[inner])]], k=1))
    tables = convert_grid(grid).tables()
    assert [(t.index, t.parent_table) for t in tables] == [(0, None), (1, 0)]
    assert tables[0].records == (("a", "see"),) and tables[1].records == (("x1",),)


def test_csv_paths() -> None:
    assert csv_paths("out/stats.csv", [0]) == {0: "out/stats.csv"}
    assert csv_paths("out/stats.csv", [0, 3]) == {0: "out/stats-0.csv", 3: "out/stats-3.csv"}
    assert csv_paths("out.d/stats", [1, 2]) == {1: "out.d/stats-1.csv", 2: "out.d/stats-2.csv"}


# -- DataFrames ----------------------------------------------------------------------------------------------------
@needs_pandas
def test_paper_example_as_a_dataframe() -> None:
    frame = to_dataframe(PAPER)
    assert frame.shape == (2, 3)
    assert list(frame.columns) == [("Average", "Height"), ("Average", "Weight"), ("Ratio", "")]
    assert list(frame.index) == ["Males", "Females"] and frame.index.name is None
    assert frame.loc["Males", ("Average", "Height")] == "1.78"  # "Not available" keeps the column text
    assert list(frame["Ratio"]) == ["40.46%", "40.34%"]  # a header spanning both rows: a Series
    assert frame.attrs == {"table": 0, "caption": "Population Statistics", "notes": []}


@needs_pandas
def test_numbers_and_section_index() -> None:
    frame = to_dataframe(convert_grid(SECTIONS))
    assert frame.index.names == ["section", "Group"]
    assert frame.loc[("Students", "Cy"), "Value"] == 5.5 and str(frame["Value"].dtype) == "float64"
    rows = to_dataframe(convert_grid(ROW_WISE))
    assert list(rows["Score"]) == [3, 1204] and str(rows["Score"].dtype) == "int64"
    assert list(rows.index) == [0, 1]
    assert list(to_dataframe(convert_grid(ROW_WISE), numbers=False)["Score"]) == ["3", "1,204"]


@needs_pandas
def test_several_tables() -> None:
    page = (b"<table><tr><th>A<th>B<tr><td>x<td>1</table>"
            b"<table><tr><th>C<tr><td>2<tr><td>\xe2\x88\x923<tr><td></table>")
    frames = to_dataframes(page)
    assert sorted(frames) == [0, 1]
    assert frames[1]["C"].tolist()[:2] == [2.0, -3.0] and pandas.isna(frames[1]["C"].iloc[2])  # U+2212 minus
    assert str(frames[1]["C"].dtype) == "float64"
    with pytest.raises(ValueError, match="2 tables; choose one with table=N"):
        to_dataframe(page)
    first = to_dataframe(page, table=0)
    assert list(first.columns) == ["A", "B"] and first["B"].tolist() == [1] and first["A"].tolist() == ["x"]


# -- JSON ----------------------------------------------------------------------------------------------------------
def test_paper_example_as_json() -> None:
    assert json.loads(convert(PAPER, table=0).to_json()) == {"population-statistics": {
        "males": {"average": {"height": "1.78", "weight": "75"}, "ratio": "40.46%"},
        "females": {"average": {"height": "Not available", "weight": "Not available"}, "ratio": "40.34%"}}}


def test_records_are_arrays_even_when_alone_and_links_are_members() -> None:
    one = grid_xml(T([[th("Name"), th("Home")], [td("Ann"), C("site", links=[("http://a.example/", "site")])]],
                     k=1))
    assert json.loads(convert_grid(one, table=0).to_json()) == {"page": {"row": [
        {"name": "Ann", "home": {"@href": "http://a.example/", "#text": "site"}}]}}
    assert convert_grid(one, table=0).to_json(indent=None).count("\n") == 0


def test_a_name_repeated_in_one_record_is_an_array_in_every_record() -> None:
    grid = grid_xml(T([[th("Total"), th("Total")], [td("1"), td("2")], [td("3"), td("")]], k=1))
    data = json.loads(convert_grid(grid, table=0).to_json())["page"]
    assert data == {"row": [{"total": ["1", "2"]}, {"total": ["3"]}]}
    grid = grid_xml(T([[th(""), th("Total"), th("Total")], [th("a"), td("1"), td("2")], [th("b"), td("3"), td("")]],
                      k=1, p=1))
    data = json.loads(convert_grid(grid, table=0).to_json())["page"]
    assert data == {"a": {"total": ["1", "2"]}, "b": {"total": "3"}}  # paths differ: a/total, b/total


# -- XHTML ---------------------------------------------------------------------------------------------------------
def test_paper_example_as_accessible_xhtml() -> None:
    page = etree.fromstring(convert(PAPER).to_xhtml().encode())
    table = page.find(f".//{XHTML}table")
    assert table.findtext(f"{XHTML}caption") == "Population Statistics"
    head = table.find(f"{XHTML}thead")
    assert [(th.text, th.get("scope"), th.get("colspan"), th.get("rowspan")) for th in head.iter(f"{XHTML}th")] == [
        ("Average", "col", "2", None), ("Ratio", "col", None, "2"), ("Height", "col", None, None),
        ("Weight", "col", None, None)]
    ids = {th.get("id"): th.text for th in table.iter(f"{XHTML}th")}
    body = table.find(f"{XHTML}tbody")
    cells = [[(c.tag.removeprefix(XHTML), c.text, c.get("scope"), c.get("headers")) for c in tr]
             for tr in body.iter(f"{XHTML}tr")]
    assert cells[0] == [("th", "Males", "row", None), ("td", "1.78", None, "t0.c5 t0.c1 t0.c3"),
                        ("td", "75", None, "t0.c5 t0.c1 t0.c4"), ("td", "40.46%", None, "t0.c5 t0.c2")]
    assert cells[1][1] == ("td", "Not available", None, None)  # spans two columns with different headers
    assert [ids[i] for i in cells[0][1][3].split()] == ["Males", "Average", "Height"]


def test_rendering_keeps_only_links_and_images_that_are_safe_to_open_in_a_browser() -> None:
    """javascript:, vbscript: and data: links (any case, with tabs or spaces, as browsers read them) stay text;
    images other than http(s), relative and data:image/ are left out; the XML keeps every URL as it was."""
    page = b"""<table><tr><th>A</th><th>B</th></tr>
      <tr><td><a href="javascript:alert(1)">x</a> <a href=" JaVaScRiPt:alert(2)">y</a></td>
          <td><a href="data:text/html,&lt;script&gt;alert(3)&lt;/script&gt;">z</a> <a href="java&#9;script:alert(4)">w</a>
              <a href="vbscript:msgbox(5)">v</a></td></tr>
      <tr><td><a href="/ok">ok</a> <a href="https://example.org/">e</a> <a href="mailto:a@example.org">m</a></td>
          <td><img src="data:image/png;base64,AAAA" alt="i"><img src="javascript:alert(6)" alt="j"></td></tr>
      </table>"""
    conversion = convert(page)
    rendered = etree.fromstring(conversion.to_xhtml().encode())
    assert [a.get("href") for a in rendered.iter(f"{XHTML}a")] == ["/ok", "https://example.org/",
                                                                   "mailto:a@example.org"]
    assert [(i.get("src"), i.get("alt")) for i in rendered.iter(f"{XHTML}img")] == [
        ("data:image/png;base64,AAAA", "i")]
    cells = [" ".join("".join(td.itertext()).split()) for td in rendered.iter(f"{XHTML}td")]
    assert cells[:2] == ["x y", "z w v"]
    assert "javascript:alert(1)" in conversion.to_bytes().decode()  # the XML keeps what the page said


@pytest.mark.parametrize("name", CASE_NAMES)
def test_the_rendering_converts_back_to_the_same_pairs(name: str) -> None:
    conversion = convert((CASES / name / "input.html").read_bytes())
    again = convert(conversion.to_xhtml().encode())
    assert again.pairs() == conversion.pairs()


def _rendered_cells(page: bytes | str) -> tuple[list[list[tuple[str, str, str | None, str | None]]], bool]:
    """The rendering's cells per row as (tag, text, scope, headers), and whether it converts back to the same pairs."""
    conversion = convert(page)
    rendered = conversion.to_xhtml()
    table = etree.fromstring(rendered.encode()).find(f".//{XHTML}table")
    rows = [[(c.tag.removeprefix(XHTML), "".join(c.itertext()), c.get("scope"), c.get("headers")) for c in tr]
            for tr in table.iter(f"{XHTML}tr")]
    return rows, convert(rendered.encode()).pairs() == conversion.pairs()


def test_a_th_with_scope_row_among_the_header_rows_stays_a_row_header() -> None:
    # the group heading "UK stations" sits in the header rows (thead) but its author declared that it heads its own
    # row, which the markup method honours; the rendering says so, not scope=col from its position
    rows, same = _rendered_cells(
        "<table><thead><tr><th scope=col colspan=2>Radio</th></tr><tr><th scope=row>UK stations</th><td></td></tr>"
        "</thead><tr><th scope=row>World</th><td>Service, Alba</td></tr><tr><td colspan=2>Category</td></tr></table>")
    assert rows[1] == [("th", "UK stations", "row", None), ("td", "", None, None)]
    assert rows[2] == [("th", "World", "row", None), ("td", "Service, Alba", None, "t0.c3 t0.c0")]
    assert same


def test_a_header_cell_with_an_image_and_no_text_stays_a_header_cell() -> None:
    # a flag column marked th: a header cell that heads nothing (no text), rendered as an empty th, not as a td
    # (which would make it a data cell with an empty value under "Flag")
    rows, same = _rendered_cells(
        "<table><tr><th>Flag<th>Country<th>Pop</tr><tr><th><img src='a.png' alt='A'></th><td>Aland<td>1</tr>"
        "<tr><th><img src='b.png' alt='B'></th><td>Bea<td>2</tr></table>")
    assert rows[1] == [("th", "", None, None), ("td", "Aland", None, "t0.c1"), ("td", "1", None, "t0.c2")]
    assert same


def test_a_th_in_a_data_column_heads_its_row() -> None:
    # a th right of the header columns (p = 0: column 0 is data): a row header by the WHATWG auto state, as the
    # rendering's scope says
    rows, same = _rendered_cells("<table><tr><th>Arms<th>Name<th>Area</tr><tr><td>x<th>Diekirch<td>12.42</tr>"
                                 "<tr><td>y<th>Wiltz<td>19.37</tr></table>")
    assert rows[1] == [("td", "x", None, "t0.c0"), ("th", "Diekirch", "row", None),
                       ("td", "12.42", None, "t0.c4 t0.c2")]
    assert same


# -- properties over generated tables ------------------------------------------------------------------------------
# Column headers, row headers and values from different vocabularies (pyxform reads a body row that repeats the
# column headers' texts as a repeated header row, rightly; the generated tables are not meant to test that).
_HEADER = st.text("ABCDEFGH", min_size=1, max_size=4).map(lambda s: s.capitalize())
_ROW_HEADER = st.text("klmn", min_size=1, max_size=3).map(lambda s: "R" + s)
_VALUE = st.one_of(st.integers(-999, 99999).map(str), st.decimals(-100, 100, places=2).map(str),
                   st.text("xyz", min_size=1, max_size=3).map(lambda s: s + "1"), st.just(""))


@st.composite
def _tables(draw: st.DrawFn) -> T:
    """Tables with k header rows (th, some spanning columns) over data rows (p th row headers, then td values).
    A header row is never one cell spanning the whole width of a wider table: pyxform reads that as a title (a
    caption-like row), by design (docs/headers.md), which the annotation of these tables does not."""
    cols = draw(st.integers(1, 4))
    k = draw(st.integers(0, 2))
    p = draw(st.integers(0, min(2, cols - 1)))
    rows: list[list[C]] = []
    for _ in range(k):  # header rows: th cells, some spanning columns
        row, left = [], cols
        while left:
            span = draw(st.integers(1, left if left < cols or cols == 1 else cols - 1))
            row.append(th(draw(_HEADER), colspan=span))
            left -= span
        rows.append(row)
    for _ in range(draw(st.integers(1, 4))):
        rows.append([th(draw(_ROW_HEADER)) for _ in range(p)] + [td(draw(_VALUE)) for _ in range(cols - p)])
    return T(rows, k=k, p=p)


# PYXFORM_PROPERTY_EXAMPLES: more examples for a local search (CI keeps 40, for speed).
_SECTION = st.text("pqrs", min_size=1, max_size=3).map(lambda s: "S" + s)


@st.composite
def _tables_with_sections(draw: st.DrawFn) -> T:
    """Marked tables of :func:`_tables` (as in the property below) of at least two columns with section rows (one td spanning the table) before some
    of their data rows that hold a value. A section row is only placed before such a row: after the last one, or
    over rows without values, pyxform reads a spanning row as a note (a source line, a footnote), by design."""
    table = draw(_tables().filter(lambda t: len(t.rows[-1]) >= 2 and (t.k > 0 or t.p > 0)
                                  and any(c.text for row in t.rows[t.k:] for c in row[t.p:])))
    cols = len(table.rows[-1])
    rows = table.rows[:table.k]
    for row in table.rows[table.k:]:
        if any(c.text for c in row[table.p:]) and draw(st.booleans()):
            rows.append([td(draw(_SECTION), colspan=cols, section=True)])
        rows.append(row)
    return T(rows, k=table.k, p=table.p)


_SETTINGS = settings(max_examples=int(os.environ.get("PYXFORM_PROPERTY_EXAMPLES", "40")), deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_SETTINGS
@given(_tables())
def test_every_pair_is_in_its_record_under_its_header_path(table: T) -> None:
    conversion = convert_grid(grid_xml(table))
    (tabular,) = conversion.tables()
    cols = len(table.rows[-1])
    assert len(tabular.records) == len(table.rows) - table.k
    assert all(len(record) == len(tabular.columns) for record in tabular.records)
    # every grid column, but a data column that carries nothing (no header label, no value in any record)
    kept = [c.col for c in tabular.columns]
    for x in set(range(cols)) - set(kept):
        assert x >= table.p and not any(table.rows[y][x].text.strip() for y in range(len(table.rows)))
    assert kept == sorted(kept)
    assert [c.kind for c in tabular.columns] == ["row-header"] * table.p + ["data"] * (len(kept) - table.p)
    position = {col: i for i, col in enumerate(kept)}
    by_row = dict(zip(tabular.rows, tabular.records))
    for pair in conversion.pairs():
        record = by_row[pair["row"]]
        assert record[position[pair["col"]]] == pair["value"]
        column = tabular.columns[position[pair["col"]]]
        assert [level for level in column.levels if level] == pair["col_headers"] or (
            not pair["col_headers"] and column.levels[0] == f"column-{pair['col'] + 1}")
        assert list(record[:table.p]) == pair["row_headers"]
    parsed = list(csv.reader(io.StringIO(tabular.to_csv())))
    assert parsed == [tabular.header(), *map(list, tabular.records)]


@_SETTINGS
@given(_tables())
def test_json_holds_exactly_the_values_of_the_xml(table: T) -> None:
    conversion = convert_grid(grid_xml(table))
    xml_values = Counter(e.text for e in conversion.tree().iter() if isinstance(e.tag, str) and len(e) == 0
                         and e.text)

    def strings(value: object) -> list[str]:
        if value is None:                          # a position with no value under a header spanning columns
            return []
        if isinstance(value, str):
            return [value] if value else []
        if isinstance(value, list):
            return [s for item in value for s in strings(item)]
        assert isinstance(value, dict)
        return [s for key, item in value.items() if not key.startswith("@") for s in strings(item)]

    assert Counter(strings(json.loads(conversion.to_json()))) == xml_values


@_SETTINGS
@given(_tables().filter(lambda t: (t.k > 0 or t.p > 0) and any(c.text for row in t.rows[t.k:] for c in row[t.p:])))
def test_the_rendering_of_a_marked_table_converts_back_to_the_same_pairs(table: T) -> None:
    conversion = convert_grid(grid_xml(table))
    rendered = conversion.to_xhtml()
    etree.fromstring(rendered.encode())  # well-formed XML
    assert convert(rendered.encode()).pairs() == conversion.pairs()


@_SETTINGS
@given(_tables_with_sections())
def test_the_rendering_of_a_table_with_sections_converts_back_to_the_same_pairs(table: T) -> None:
    conversion = convert_grid(grid_xml(table))
    assert convert(conversion.to_xhtml().encode()).pairs() == conversion.pairs()


def test_column_names_of_a_real_page_are_one_line_labels() -> None:
    """examples/crazy-town.html (Wikipedia): header texts "US\\n[18]" give the column name "US"."""
    page = (Path(__file__).parent.parent / "examples" / "crazy-town.html").read_bytes()
    (table,) = convert(page, table=1).tables()
    assert table.header()[:4] == ["Title", "Album details", "Peak chart positions / US",
                                  "Peak chart positions / AUS"]
    assert table.records[0][:1] == ("The Gift of Game",)
    assert [c.kind for c in table.columns[:2]] == ["row-header", "data"]


def test_section_rows_are_rendered_as_rowgroup_headers_each_opening_a_row_group() -> None:
    # "Europe" spans the table, "Asia" is a bold td alone in its row: both section cells, rendered as th
    # scope=rowgroup at the top of a tbody of their own, which is what they head (WHATWG: the rest of the row group)
    page = convert("<table><tr><th>Name<th>Gold<th>Silver</tr><tr><td colspan=3><b>Europe</b></td></tr>"
                   "<tr><td>Norway<td>16<td>8</tr><tr><td><b>Asia</b></td><td></td><td></td></tr>"
                   "<tr><td>Japan<td>3<td>6</tr></table>")
    rendered = page.to_xhtml()
    table = etree.fromstring(rendered.encode()).find(f".//{XHTML}table")
    groups = [[[(c.tag.removeprefix(XHTML), c.text, c.get("scope")) for c in tr] for tr in group]
              for group in table.iterfind(f"{XHTML}tbody")]
    assert groups == [[[("th", "Europe", "rowgroup")], [("td", "Norway", None), ("td", "16", None), ("td", "8", None)]],
                      [[("th", "Asia", "rowgroup"), ("td", None, None), ("td", None, None)],
                       [("td", "Japan", None), ("td", "3", None), ("td", "6", None)]]]
    assert [(p["row_headers"], p["value"]) for p in page.pairs() if p["col"] == 1] == [(["Europe"], "16"),
                                                                                       (["Asia"], "3")]
    assert convert(rendered.encode()).pairs() == page.pairs()
