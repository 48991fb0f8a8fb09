"""Rule 1 (Zhang & Li 2007, section 3) and the merge rule, from header-annotated grids to output XML."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from lxml import etree

from pyxform.api.convert import convert, convert_grid
from pyxform.base.errors import NoTableError, StylesheetError
from pyxform.runtime.runner import runner

from .annotated_grids import T, grid_xml, td, th
from .xmlcompare import canonical

DATA = Path(__file__).parent / "data"
PX = "{urn:pyxform}"


def xml_of(*tables: T, table: int | None = None, names: str = "paper", **kw: str) -> etree._Element:
    conversion = convert_grid(grid_xml(*tables, **kw), table=table, names=names)
    return etree.fromstring(conversion.to_bytes())


def shape(element: etree._Element) -> str:
    """A compact rendering: name(children) or name=text, px attributes left out."""
    children = list(element)
    text = (element.text or "").strip()
    if not children:
        return f"{element.tag}={text}"
    inner = ",".join(shape(child) for child in children)
    return f"{element.tag}[{text}]({inner})" if text else f"{element.tag}({inner})"


PAPER = T([[th("", rowspan=2), th("Average", colspan=2), th("Ratio", rowspan=2)],
           [th("Height"), th("Weight")],
           [th("Males"), td("1.78"), td("75"), td("40.46%")],
           [th("Females"), td("Not available", colspan=2), td("40.34%")]],
          k=2, p=1, caption="Population Statistics")


def test_paper_example_hand_written_grid_gives_expected_xml() -> None:
    grid = (DATA / "grids" / "paper-example.grid.xml").read_bytes()
    expected = (DATA / "cases" / "paper-example" / "expected.xml").read_bytes()
    assert canonical(convert_grid(grid, table=0).to_bytes()) == canonical(expected)


def test_paper_example_built_grid_gives_expected_xml() -> None:
    expected = (DATA / "cases" / "paper-example" / "expected.xml").read_bytes()
    output = etree.tostring(xml_of(PAPER, table=0))
    assert canonical(output) == canonical(expected)


def test_document_element_holds_tables_with_provenance() -> None:
    root = xml_of(PAPER, source="http://example.org/p.html", title="Stats")
    assert root.tag == "pyxform"
    assert root.get(PX + "source") == "http://example.org/p.html"
    assert root.get(PX + "title") == "Stats"
    (table,) = root
    assert table.tag == "population-statistics"
    assert {key.replace(PX, ""): value for key, value in table.attrib.items()} == {
        "label": "Population Statistics", "name-from": "caption", "source": "http://example.org/p.html",
        "table": "0", "locator": "/html/body/table[1]", "header-rows": "2", "header-cols": "1",
        "header-method": "markup"}
    assert not [e for e in root.iter() if e.get(PX + "key") is not None]


def test_null_tag_and_header_spanning_header_rows_give_one_element() -> None:
    table = xml_of(PAPER, table=0)
    assert [e.tag for e in table.iter("ratio")] == ["ratio", "ratio"]
    assert not next(iter(table.iter("ratio"))).findall("ratio")
    # the empty corner header makes no element: rows sit directly under the table
    assert [e.tag for e in table] == ["males", "females"]


def test_header_listed_twice_in_a_slot_gives_one_element() -> None:
    grid = (DATA / "grids" / "paper-example.grid.xml").read_text()
    grid = grid.replace('column-headers="t0.c2"', 'column-headers="t0.c2 t0.c2"')
    table = etree.fromstring(convert_grid(grid, table=0).to_bytes())
    assert shape(table.find("males")) == "males(average(height=1.78,weight=75),ratio=40.46%)"


def test_original_header_text_kept_in_px_label_and_values_exact() -> None:
    t = T([[th("Région (km²)"), th("Ville")], [td("Île-de-France"), td("PARIS\nla Ville")]], k=1)
    (table,) = xml_of(t)
    row = table[0]
    assert row.tag == "row"
    assert [(e.tag, e.get(PX + "label"), e.text) for e in row] == [
        ("région-km2", "Région (km²)", "Île-de-France"), ("ville", "Ville", "PARIS\nla Ville")]


def test_rows_without_row_headers_become_separate_records() -> None:
    t = T([[th("Name"), th("Score")], [td("Ann"), td("3")], [td("Ann"), td("3")], [td("Bob"), td("5")]], k=1,
          caption="Results")
    (table,) = xml_of(t)
    assert shape(table) == "results(row(name=Ann,score=3),row(name=Ann,score=3),row(name=Bob,score=5))"
    assert [r.get(PX + "row") for r in table] == ["1", "2", "3"]


def test_two_rows_headed_by_equal_text_in_different_cells_stay_apart() -> None:
    t = T([[th("Region"), th("Sales")], [th("Total"), td("10")], [th("Total"), td("20")]], k=1, p=1,
          caption="Sales")
    (table,) = xml_of(t)
    assert shape(table) == "sales(total(sales=10),total(sales=20))"


def test_equal_column_groups_of_different_cells_stay_apart_under_row_headers() -> None:
    t = T([[th(""), th("2019", colspan=2), th("2019", colspan=2)],
           [th(""), th("Low"), th("High"), th("Low"), th("High")],
           [th("Oslo"), td("1"), td("2"), td("3"), td("4")],
           [th("Rome"), td("5"), td("6"), td("7"), td("8")]], k=2, p=1, caption="Temps")
    (table,) = xml_of(t)
    assert shape(table) == ("temps(oslo(_2019(low=1,high=2),_2019(low=3,high=4)),"
                            "rome(_2019(low=5,high=6),_2019(low=7,high=8)))")


def test_row_header_spanning_rows_groups_them_and_keeps_records_apart() -> None:
    t = T([[th("Continent"), th("Country"), th("Capital")],
           [th("Europe", rowspan=2), th("France"), td("Paris")],
           [th("Germany"), td("Berlin")],
           [th("Asia"), th("Japan"), td("Tokyo")]], k=1, p=2, caption="Capitals")
    (table,) = xml_of(t)
    assert shape(table) == "capitals(europe(france(capital=Paris),germany(capital=Berlin)),asia(japan(capital=Tokyo)))"


def test_innermost_row_header_spanning_rows_gets_record_elements() -> None:
    t = T([[th("Year"), th("Title"), th("Role")],
           [th("2001", rowspan=2), td("A"), td("x")],
           [td("B"), td("y")]], k=1, p=1, caption="Films")
    (table,) = xml_of(t)
    assert shape(table) == "films(_2001(row(title=A,role=x),row(title=B,role=y)))"


def test_section_rows_become_grouping_elements() -> None:
    t = T([[th("Name"), th("Age")],
           [th("Staff", colspan=2, section=True)],
           [td("Ann"), td("40")], [td("Bob"), td("41")],
           [th("Students", colspan=2, section=True)],
           [td("Cid"), td("20")]], k=1, caption="People")
    (table,) = xml_of(t)
    assert shape(table) == ("people(staff(row(name=Ann,age=40),row(name=Bob,age=41)),"
                            "students(row(name=Cid,age=20)))")


def test_table_without_column_headers_names_values_by_position() -> None:
    t = T([[th("A"), td("1"), td("2")], [th("B"), td("3"), td("")]], k=0, p=1, caption="Grid")
    (table,) = xml_of(t)
    assert shape(table) == "grid(a(column-2=1,column-3=2),b(column-2=3))"


def test_table_without_any_headers_gives_records_of_positional_values() -> None:
    t = T([[td("1"), td("2")], [td("3"), td("4")]], k=0, p=0)
    (table,) = xml_of(t, title="")
    assert shape(table) == "table(row(column-1=1,column-2=2),row(column-1=3,column-2=4))"
    assert table.get(PX + "name-from") == "default"


def test_data_column_under_empty_header_is_named_by_position() -> None:
    t = T([[th("Name"), th("")], [td("Ann"), td("note")]], k=1)
    (table,) = xml_of(t)
    assert shape(table[0]) == "row(name=Ann,column-2=note)"


def test_value_spanning_columns_under_one_spanning_header_is_stated_once() -> None:
    t = T([[th("Name"), th("Score", colspan=2)], [td("Ann"), td("3"), td("5")], [td("Bob"), td("n/a", colspan=2)]],
          k=1)
    (table,) = xml_of(t, title="")
    assert shape(table) == "table(row(name=Ann,score=3,score=5),row(name=Bob,score=n/a))"


def test_table_name_falls_back_to_heading_then_title() -> None:
    t = T([[th("A")], [td("1")]], k=1)
    assert xml_of(T(t.rows, k=1, heading="Medal table"), title="Page")[0].tag == "medal-table"
    assert xml_of(t, title="2012 Summer Olympics")[0].tag == "_2012-summer-olympics"
    assert xml_of(t, title="2012 Summer Olympics")[0].get(PX + "name-from") == "title"


def test_nested_table_maps_recursively_inside_its_cell() -> None:
    inner = T([[th("From"), th("To")], [td("5"), td("80")]], k=1)
    outer = T([[th("Part"), th("Detail")], [td("one"), td("plain")],
               [td("two"), td("two parts", nested=[inner])]], k=1, caption="Parts")
    root = xml_of(outer)
    assert [e.tag for e in root] == ["parts"]  # the nested table is not a top-level table
    detail = root[0][1].find("detail")
    assert detail.text == "two parts"
    assert shape(detail) == "detail[two parts](table(row(from=5,to=80)))"
    assert detail[0].get(PX + "table") == "1"
    alone = xml_of(outer, table=1)
    assert shape(alone) == "table(row(from=5,to=80))"


def test_nested_tables_any_depth() -> None:
    level2 = T([[th("Z")], [td("deep")]], k=1, caption="L2")
    level1 = T([[th("Y")], [td("", nested=[level2])]], k=1, caption="L1")
    level0 = T([[th("X")], [td("", nested=[level1])]], k=1, caption="L0")
    root = xml_of(level0)
    assert shape(root) == "pyxform(l0(row(x(l1(row(y(l2(row(z=deep)))))))))"


def test_links_and_images_keep_their_urls() -> None:
    t = T([[th("Country"), th("Flag")],
           [th("France", links=[("/wiki/France", "France")]),
            td("", images=[("//upload.example.org/fr.svg", "Flag of France")])],
           [th("Chad"), td("Chad flag", links=[("/a b", "x"), ("http://c.org/", "y")])]], k=1, p=1)
    root = xml_of(t, source="https://en.wikipedia.org/wiki/Flags")
    france, chad = root[0]
    assert france.get("href") == "https://en.wikipedia.org/wiki/France"
    flag = france.find("flag")
    assert flag.get("src") == "https://upload.example.org/fr.svg"
    assert flag.get("alt") == "Flag of France"
    assert chad.find("flag").get("href") == "https://en.wikipedia.org/a%20b http://c.org/"


def test_generic_names() -> None:
    table = xml_of(PAPER, table=0, names="generic")
    assert table.tag == "table" and table.get("name") == "Population Statistics"
    males = table[0]
    assert (males.tag, males.get("name")) == ("field", "Males")
    assert [(e.get("name"), e.text) for e in males.iter("field") if len(e) == 0] == [
        ("Height", "1.78"), ("Weight", "75"), ("Ratio", "40.46%")]
    positional = xml_of(T([[td("1")]]), table=0, names="generic")
    assert positional[0][0].get("column") == "1"


def test_untrusted_header_text_never_gives_ill_formed_output() -> None:
    texts = ['xml:lang', '"quoted" <b> & \'amp\'', "XMLSchema", "---", "Ⅻ", "٣ أرقام", "İstanbul", "ª", "a\u0301"]
    t = T([[th(text) for text in texts], [td(str(i)) for i in range(len(texts))]], k=1,
          caption='pyxform')
    root = xml_of(t)
    (table,) = root
    assert table.tag == "pyxform"  # a table may share the document element's name: it is a different level
    row = table[0]
    assert [e.tag for e in row] == ["_xml-lang", "quoted-b-and-amp", "_xmlschema", "field", "xii", "_٣-أرقام",
                                    "i̇stanbul", "a", "á"]
    assert [e.get(PX + "label") for e in row] == texts


def test_missing_table_index_is_a_no_table_error() -> None:
    with pytest.raises(NoTableError, match="no table 7"):
        convert_grid(grid_xml(PAPER), table=7)


def test_grid_without_header_annotations_is_a_table_failure_in_map() -> None:
    grid = grid_xml(PAPER, PAPER).replace(' header-rows="2" header-cols="1"', "", 1)
    run_on = runner()
    mapped = run_on.run("map", run_on.parse(grid), {"table": -1, "names": "paper"})
    root = etree.fromstring(run_on.serialize(mapped).encode())
    assert [e.tag for e in root] == ["population-statistics", PX + "table-failure"]
    assert (root[1].get("index"), root[1].get("code")) == ("0", "no-header-annotations")
    with pytest.raises(StylesheetError, match="no header annotations"):
        run_on.run("map", run_on.parse(grid), {"table": 0, "names": "paper"})


def test_grid_without_header_annotations_goes_through_the_headers_stage() -> None:
    plain = grid_xml(PAPER)
    for attribute in (' header-rows="2"', ' header-cols="1"', ' header-method="markup"'):
        plain = plain.replace(attribute, "")
    plain = plain.replace(' role="header"', "").replace(' role="data"', "")
    plain = re.sub(r' (row|column)-headers="[^"]*"', "", plain)
    expected = (DATA / "cases" / "paper-example" / "expected.xml").read_bytes()
    assert canonical(convert_grid(plain, table=0).to_bytes()) == canonical(expected)


def test_table_nested_in_a_header_cell_is_listed_at_the_top_level() -> None:
    inner = T([[th("Flag")], [td("red")]], k=1, caption="Flag")
    outer = T([[th("Country", nested=[inner]), th("Capital")], [td("X"), td("Y")]], k=1, caption="Countries")
    root = xml_of(outer)
    assert [(e.tag, e.get(PX + "parent-table")) for e in root] == [("countries", None), ("flag", "0")]
    assert shape(root[1]) == "flag(row(flag=red))"


def test_slots_of_one_cell_with_the_same_headers_give_one_pair_also_when_not_adjacent() -> None:
    """A note spanning the table: its first and last slots lie under empty headers (the same headers: none), the
    middle one under "Score"; the first and last are one pair, stated once."""
    t = T([[th(""), th("Score"), th("")], [td("Ann"), td("3"), td("x")], [td("Source: the club", colspan=3)]], k=1)
    conversion = convert_grid(grid_xml(t))
    note = [(p["col"], p["col_headers"]) for p in conversion.pairs() if p["value"] == "Source: the club"]
    assert note == [(0, []), (1, ["Score"])]
    (table,) = xml_of(t, title="")
    assert shape(table[-1]) == "row(column-1=Source: the club,score=Source: the club)"


def test_note_row_after_the_data_gives_one_note_element_not_a_value_per_column() -> None:
    """A footnote spanning the table after the last data row (row kind "note", docs/headers.md section 4) is stated
    once, as <note px:row="R">, after the records; its links are kept; the pairs still give it per header set."""
    page = b"""<table><tr><th>Title</th><th>US</th><th>UK</th></tr>
      <tr><th>Alpha</th><td>1</td><td>4</td></tr>
      <tr><th>Beta</th><td>2</td><td>\xe2\x80\x94</td></tr>
      <tr><td colspan="3">"\xe2\x80\x94" denotes a release that did not chart (<a href="/notes">notes</a>).</td></tr>
      </table>"""
    conversion = convert(page)
    table = etree.fromstring(conversion.to_bytes())[0]
    assert shape(table) == "table(alpha(us=1,uk=4),beta(us=2,uk=\u2014),note=\"\u2014\" denotes a release that did " \
                           "not chart (notes).)"
    note = table[-1]
    assert note.get(f"{PX}row") == "3" and note.get("href") == "/notes"
    assert [(p["row"], p["col"]) for p in conversion.pairs() if p["row"] == 3] == [(3, 0), (3, 1), (3, 2)]


def test_note_rows_of_two_tables_and_a_heading_like_note_stay_apart() -> None:
    page = b"""<table><tr><th>A</th><th>B</th><th>C</th></tr><tr><td>1</td><td>2</td><td>3</td></tr>
      <tr><td colspan="3">Source: one</td></tr><tr><td colspan="3">Source: two</td></tr></table>"""
    table = etree.fromstring(convert(page).to_bytes())[0]
    assert [(e.tag, e.text, e.get(f"{PX}row")) for e in table if e.tag == "note"] == [
        ("note", "Source: one", "2"), ("note", "Source: two", "3")]


def test_a_table_of_one_wide_row_is_a_record_not_a_note() -> None:
    """A note is a row below the records; a table whose only rows are wide (a one-cell layout table) has records."""
    table = etree.fromstring(convert(b'<table><tr><td colspan="3">Only text</td></tr></table>').to_bytes())[0]
    assert shape(table) == "table(row(column-1=Only text))"


def test_a_table_that_fails_in_map_is_recorded_and_the_others_are_mapped() -> None:
    """map/document.xsl maps a page's tables in one try; when one fails, the page is mapped again table by table:
    the failing table becomes a px:table-failure (code map) after the tables, and the other tables are kept."""
    grid = grid_xml(PAPER, PAPER, PAPER).replace(' header-rows="2"', ' header-rows="two"', 1)
    run_on = runner()
    mapped = run_on.run("map", run_on.parse(grid), {"table": -1, "names": "paper"})
    root = etree.fromstring(run_on.serialize(mapped).encode())
    assert [e.tag for e in root] == ["population-statistics", "population-statistics", PX + "table-failure"]
    assert (root[2].get("index"), root[2].get("code")) == ("0", "map")
    intact = etree.fromstring(run_on.serialize(run_on.run("map", run_on.parse(grid_xml(PAPER, PAPER, PAPER)),
                                                           {"table": -1, "names": "paper"})).encode())
    def text(elements: list) -> list[bytes]:
        return [etree.tostring(e, with_tail=False) for e in elements]

    assert text(root[:2]) == text(intact[1:])


@pytest.mark.parametrize("k, p", [(1, 0), (1, 1), (2, 1)])
@pytest.mark.parametrize("value", ["v", "", " ", "a  b", "1,234", "<&>", "x\ny"])
def test_a_text_only_value_is_the_same_by_the_shortcut_and_by_fp_value(k: int, p: int, value: str) -> None:
    """map/table.xsl writes a data cell whose only child is px:text without fp:value; a link with a blank href adds
    nothing to a value (no href attribute, text from px:text) but sends the cell through fp:value. Both give the
    same output, in tables with column headers only (flat parts) and with row headers (fp:nest)."""

    def page(link: bool) -> str:
        links = [(" ", "z")] if link else []
        head = [th(f"H{c}") for c in range(3)]
        rows = [head] * k + [[th(f"R{r}") if c < p else td(f"{value}{r}{c}" if c % 2 else value, links=links)
                              for c in range(3)] for r in range(3)]
        return grid_xml(T(rows, k=k, p=p))

    assert convert_grid(page(False)).xml == convert_grid(page(True)).xml
