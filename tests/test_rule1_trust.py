"""Rule 1 output a user can trust (issue 13): every example of the issue, as its exact input, through the public API.

Each test stands for a class of tables (docs/mapping.md says the rule); tests/test_rule1_properties.py generates
members of each class.
"""

from __future__ import annotations

import csv
import io
import json

import pytest
from lxml import etree

import pyxform

PX = "{urn:pyxform}"


def convert(html: str, **options: object) -> pyxform.Conversion:
    return pyxform.convert(html.encode("utf-8"), **options)


def xml(html: str, **options: object) -> etree._Element:
    return etree.fromstring(convert(html, **options).to_bytes())


def children(element: etree._Element) -> list[tuple[str, str]]:
    """(name, text) of the element children of an element."""
    return [(etree.QName(child).localname, (child.text or "").strip()) for child in element]


# -- 1. rows read right --------------------------------------------------------------------------------------------

ROW_HEADED = ("<table><tr><th>Name<th>Details<th>Score<tr><th>Ann<td>x<td>3<tr><th>Bob<td><table><tr><td>inner"
              "</table><td><tr><th>Cy<td>plain<td>4</table>")


def test_a_th_row_with_a_nested_table_is_a_data_row_with_a_row_header() -> None:
    conversion = convert(ROW_HEADED)
    root = etree.fromstring(conversion.to_bytes())
    table = root.find("table")
    assert [etree.QName(e).localname for e in table] == ["ann", "bob", "cy"]
    assert children(table.find("cy")) == [("details", "plain"), ("score", "4")]
    nested = table.find("bob/details/table")                     # Bob's table stays in Bob's cell
    assert nested is not None and nested.get(PX + "table") == "1"
    assert [t.get(PX + "table") for t in root.findall("table")] == ["0"]
    pairs = [(p["row_headers"], p["col_headers"], p["value"], p.get("nested")) for p in conversion.pairs()
             if p["table"] == 0]
    assert pairs == [(["Ann"], ["Details"], "x", None), (["Ann"], ["Score"], "3", None),
                     (["Bob"], ["Details"], "", [1]), (["Cy"], ["Details"], "plain", None),
                     (["Cy"], ["Score"], "4", None)]


def test_a_th_row_with_empty_cells_is_a_data_row_not_a_section() -> None:
    html = ("<table><tr><th>Name<th>Details<th>Score<tr><th>Ann<td>x<td>3<tr><th>Bob</th><td></td><td></td></tr>"
            "<tr><th>Cy<td>plain<td>4<tr><th>Dan<td>p<td>5<tr><th>Eve<td>q<td>6</table>")
    conversion = convert(html)
    rows = list(csv.reader(io.StringIO(conversion.tables()[0].to_csv())))
    assert rows == [["Name", "Details", "Score"], ["Ann", "x", "3"], ["Bob", "", ""], ["Cy", "plain", "4"],
                    ["Dan", "p", "5"], ["Eve", "q", "6"]]
    assert [p["row_headers"] for p in conversion.pairs()][-2:] == [["Eve"], ["Eve"]]
    assert [etree.QName(e).localname for e in xml(html).find("table")] == ["ann", "cy", "dan", "eve"]


def test_a_row_spanning_the_table_is_still_a_section() -> None:
    html = ("<table><tr><th>Name<th>Score<tr><th colspan=2>Group A<tr><td>Ann<td>3<tr><td>Bob<td>4</table>")
    group = xml(html).find("table/group-a")
    assert group is not None and [children(r) for r in group] == [[("name", "Ann"), ("score", "3")],
                                                                   [("name", "Bob"), ("score", "4")]]


# -- 2. entity tables -----------------------------------------------------------------------------------------------

def test_an_infobox_is_one_record_named_after_its_title_with_one_element_per_key() -> None:
    """The issue's example: examples/crazy-town.html --table 0 (title row, image row, th key + td value rows,
    sub-heading rows)."""
    from pathlib import Path

    page = Path(__file__).resolve().parents[1] / "examples" / "crazy-town.html"
    conversion = pyxform.convert(page.read_bytes(), table=0)
    record = etree.fromstring(conversion.to_bytes())
    assert (etree.QName(record).localname, record.get(PX + "name-from"), record.get(PX + "table-kind")) == (
        "crazy-town", "title-row", "entity")
    assert [etree.QName(e).localname for e in record] == ["note", "background-information", "members",
                                                          "past-members"]
    assert record[0].text == "Crazy Town performing live in Germany" and record[0].get("alt") == "CrazytownGERMANY.JPG"
    assert children(record.find("background-information")) == [
        ("origin", "Los Angeles, California, United States"),
        ("genres", "Rap rock,[1] nu metal,[1] rap metal,[1] alternative rock, hip hop, rapcore"),
        ("years-active", "1995–2003, 2007[2]–present"), ("labels", "Columbia"),
        ("website", "http://www.myspace.com/cxt")]
    assert record.find("members").text.startswith('Bret Mazur (a.k.a. "Epic")')
    assert record.find(".//column-2") is None
    kinds = [t["kind"] for t in pyxform.headers(page.read_bytes()).to_json()["tables"]]
    assert kinds[0] == "entity"


def test_a_spec_sheet_groups_its_keys_under_its_sub_headings() -> None:
    html = ("<table><caption>Specs</caption><tr><td>Price<td>€ 68.490</tr><tr><td colspan=2><b>Engine</b></tr>"
            "<tr><td>Cylinders<td>4</tr><tr><td>Power<td>180 PS</tr><tr><td colspan=2><b>Size</b></tr>"
            "<tr><td>Length<td>478 cm</tr></table>")
    record = xml(html).find("specs")
    assert record.get(PX + "table-kind") == "entity"
    assert [(etree.QName(e).localname, children(e) or e.text) for e in record] == [
        ("price", "€ 68.490"), ("engine", [("cylinders", "4"), ("power", "180 PS")]), ("size", [("length", "478 cm")])]



def test_a_spec_sheet_that_repeats_a_key_in_another_group_is_still_one_record() -> None:
    """Keys are different within a group, not across groups: "Type" and "Resolution" under "Camera" and "Display"."""
    html = ("<table><caption>X200</caption><tr><th colspan=2>Camera</tr><tr><th>Type<td>CMOS</tr>"
            "<tr><th>Resolution<td>12 MP</tr><tr><th colspan=2>Display</tr><tr><th>Type<td>OLED</tr>"
            "<tr><th>Resolution<td>1080 x 2400</tr></table>")
    assert [t["kind"] for t in pyxform.headers(html.encode()).to_json()["tables"]] == ["entity"]
    record = xml(html).find("x200")
    assert [(etree.QName(e).localname, children(e)) for e in record] == [
        ("camera", [("type", "CMOS"), ("resolution", "12 MP")]),
        ("display", [("type", "OLED"), ("resolution", "1080 x 2400")])]
    # within one group a repeated key still tells a two-column list from a key-value table
    listing = html.replace("<th>Resolution<td>12 MP", "<th>Type<td>BSI")
    assert [t["kind"] for t in pyxform.headers(listing.encode()).to_json()["tables"]] != ["entity"]

# -- 3. notes kept out of the data ---------------------------------------------------------------------------------

NOTES = ("<table><tr><th>Year<th>Title<th>US<th>UK</tr><tr><td>2001<td>A<td>1<td>2</tr><tr><td>2002<td>B<td>—<td>5"
         "</tr><tr><td colspan=6>\"—\" denotes the single failed to chart</td></tr><tr><td colspan=6>Source: "
         "Billboard</td></tr></table>")


def test_note_rows_are_notes_in_csv_json_and_dataframes() -> None:
    conversion = convert(NOTES)
    table = conversion.tables()[0]
    assert list(csv.reader(io.StringIO(table.to_csv()))) == [["Year", "Title", "US", "UK"], ["2001", "A", "1", "2"],
                                                            ["2002", "B", "—", "5"]]
    assert table.notes == ('"—" denotes the single failed to chart', "Source: Billboard")
    data = json.loads(conversion.to_json())["pyxform"]["table"]
    assert data["note"] == ['"—" denotes the single failed to chart', "Source: Billboard"]
    assert [record["year"] for record in data["row"]] == ["2001", "2002"]
    frame = table.to_dataframe()
    assert list(frame.columns) == ["Year", "Title", "US", "UK"] and len(frame) == 2
    assert frame.attrs["notes"] == list(table.notes)


# -- 4. the corner cell ---------------------------------------------------------------------------------------------

def test_the_corner_cell_labels_the_row_header_level() -> None:
    html = ("<table><tr><td><b>Final</b><td><b>1</b><td><b>2</b><td><b>T</b></tr><tr><td><b>Bears</b><td>7<td>3"
            "<td>10</tr><tr><td><b>Lions</b><td>0<td>14<td>14</tr></table>")
    table = xml(html).find("table")
    assert [(etree.QName(e).localname, e.get(PX + "level")) for e in table] == [("bears", "Final"),
                                                                                 ("lions", "Final")]
    assert table.get(PX + "table-kind") == "matrix"


# -- 5. names that never collide -----------------------------------------------------------------------------------

NAMES_TABLE = ("<table><tr><th></th><th>Column 1</th><th>Row</th><th>Note</th><th>Total</th><th>TOTAL</th></tr>"
               "<tr><td>a</td><td>b</td><td>c</td><td>d</td><td>e</td><td>f</td></tr></table>")


def test_an_empty_header_and_a_header_column_1_give_two_names() -> None:
    record = xml(NAMES_TABLE).find("table/row")
    assert children(record) == [("column-1", "a"), ("column-1_", "b"), ("row_", "c"), ("note_", "d"),
                                ("total", "e"), ("total_2", "f")]


def test_json_keeps_every_header_apart() -> None:
    record = json.loads(convert(NAMES_TABLE).to_json())["pyxform"]["table"]["row"][0]
    assert record == {"column-1": "a", "column-1_": "b", "row_": "c", "note_": "d", "total": "e", "total_2": "f"}


def test_headers_named_row_and_note_are_not_records_or_notes() -> None:
    html = ("<table><tr><th>Row</th><th>Note</th></tr><tr><td>1</td><td>x</td></tr><tr><td>2</td><td>y</td></tr>"
            "</table>")
    root = xml(html)
    assert len(root.findall(".//row")) == 2                     # the two records, nothing else
    assert [e.text for e in root.iter("row_")] == ["1", "2"]
    assert root.find(".//note") is None



def test_a_header_named_table_and_a_table_captioned_row_are_no_structure() -> None:
    """"Table" is the name of an unnamed table, "Row" of a record: a header or a caption takes neither."""
    html = ("<table><tr><th>Table</th><th>Seats</th></tr><tr><td>1</td><td>4</td></tr><tr><td>2</td><td>6</td></tr>"
            "</table><table><caption>Row</caption><tr><th>Oars</th></tr><tr><td>8</td></tr></table>")
    root = xml(html)
    assert [t.get(PX + "table") for t in root.iter("table")] == ["0"]  # the tables named table, nothing else
    assert [e.text for e in root.iter("table_")] == ["1", "2"]
    assert [e.get(PX + "row") for e in root.iter("row")] == ["1", "2", "1"]  # records only
    captioned = root.find("row_")
    assert (captioned.get(PX + "label"), captioned.get(PX + "table")) == ("Row", "1")

def test_headers_that_differ_after_64_characters_stay_apart() -> None:
    common = "word " * 13                                         # 65 characters: the names agree up to the cut
    html = (f"<table><tr><th>{common}alpha</th><th>{common}beta</th></tr><tr><td>1</td><td>2</td></tr>"
            f"<tr><td>3</td><td>4</td></tr></table>")
    records = xml(html).findall("table/row")
    first = children(records[0])
    assert first[0][0] != first[1][0]
    assert [name for name, _ in first] == [name for name, _ in children(records[1])]   # the same in every record
    assert [text for _, text in first] == ["1", "2"]


# -- 6. name escaping -----------------------------------------------------------------------------------------------

def test_a_non_bmp_character_followed_by_x_keeps_the_x() -> None:
    html = "<table><tr><th>\U00020000x</th><th>\U00020000y</th></tr><tr><td>1</td><td>2</td></tr></table>"
    assert children(xml(html).find("table/row")) == [("_x00020000_x", "1"), ("_x00020000_y", "2")]


# -- 7. labels without reference marks ------------------------------------------------------------------------------

def test_reference_marks_are_cut_from_labels_names_and_pair_headers() -> None:
    html = "<table><tr><th>US<br>[18]</th><th>Total area[2]</th></tr><tr><td>1</td><td>2</td></tr></table>"
    conversion = convert(html)
    record = etree.fromstring(conversion.to_bytes()).find("table/row")
    assert [(etree.QName(e).localname, e.get(PX + "label")) for e in record] == [("us", "US"),
                                                                                ("total-area", "Total area")]
    assert [p["col_headers"] for p in conversion.pairs()] == [["US"], ["Total area"]]
    assert next(csv.reader(io.StringIO(conversion.tables()[0].to_csv()))) == ["US", "Total area"]


# -- 8. one JSON shape per field -----------------------------------------------------------------------------------

def test_a_field_has_one_json_shape_in_every_record() -> None:
    html = ("<table><tr><th>Name<th>Site</tr><tr><td>A<td><a href='http://a.example/'>a</a></tr><tr><td>B<td>none"
            "</tr></table>")
    records = json.loads(convert(html).to_json())["pyxform"]["table"]["row"]
    assert [record["site"] for record in records] == [{"@href": "http://a.example/", "#text": "a"},
                                                      {"#text": "none"}]


def test_a_missing_first_value_under_a_two_column_header_does_not_shift_the_next() -> None:
    html = ("<table><tr><th>Team<th colspan=2>Score</tr><tr><td>A<td>1<td>2</tr><tr><td>B<td><td>3</tr>"
            "<tr><td>C<td>4<td></tr></table>")
    conversion = convert(html)
    records = json.loads(conversion.to_json())["pyxform"]["table"]["row"]
    assert [record["score"] for record in records] == [["1", "2"], [None, "3"], ["4", None]]
    scores = etree.fromstring(conversion.to_bytes()).iter("score")
    assert [(e.get(PX + "col"), e.text) for e in scores] == [("1", "1"), ("2", "2"), ("2", "3"), ("1", "4")]


def test_sort_keys_are_cut_from_labels_as_marks_are() -> None:
    html = ("<table><tr><th>Name</th><th>Service</th></tr><tr><th scope=row><span class=sortkey>Gablenz, Eccard"
            "</span><a href=/g>Eccard Gablenz</a>[1]</th><td>Heer</td></tr><tr><th scope=row><span class=sortkey>"
            "Gabriel, Erdmann</span>Erdmann Gabriel</th><td><span class=sortkey>Navy</span>Marine</td></tr></table>")
    conversion = convert(html)
    table = etree.fromstring(conversion.to_bytes()).find("table")
    assert [(etree.QName(e).localname, e.get(PX + "label")) for e in table] == [
        ("eccard-gablenz", "Eccard Gablenz"), ("erdmann-gabriel", "Erdmann Gabriel")]
    assert [(p["row_headers"], p["value"]) for p in conversion.pairs()] == [
        (["Eccard Gablenz"], "Heer"), (["Erdmann Gabriel"], "NavyMarine")]      # values as written
    assert pyxform.convert(conversion.to_xhtml().encode()).pairs() == conversion.pairs()    # the rendering keeps it


# -- 9. form feed ---------------------------------------------------------------------------------------------------

def test_a_form_feed_in_a_cell_is_a_space_without_warning() -> None:
    conversion = convert("<table><tr><th>A\x0cB</th></tr><tr><td>x\x0cy</td></tr></table>")
    record = etree.fromstring(conversion.to_bytes()).find("table/row")
    assert children(record) == [("a-b", "x y")]
    assert conversion.messages == []
    assert "\ufffd" not in conversion.xml


# -- header detection without markup --------------------------------------------------------------------------------

def kp(html: str) -> tuple[int, int]:
    table = pyxform.headers(html.encode()).tables[0]
    return table.header_rows, table.header_cols


def test_a_header_row_marked_only_by_its_own_background_is_a_header() -> None:
    rows = "".join(f"<tr><td>{a}</td><td>{b}</td><td>{c}</td></tr>" for a, b, c in (
        ("Bears", "Smith", "Chicago"), ("Lions", "Jones", "Detroit"), ("Packers", "Brown", "Boston"),
        ("Vikings", "Green", "Seattle")))
    assert kp(f'<table><tr style="background:#dde"><td>Team</td><td>Coach</td><td>Town</td></tr>{rows}</table>') \
        == (1, 0)
    # a colour no row has on its own (every row painted alike) marks nothing
    painted = rows.replace("<tr>", '<tr style="background:#dde">')
    assert kp(f'<table><tr style="background:#dde"><td>Team</td><td>Coach</td><td>Town</td></tr>{painted}'
              "</table>") == (0, 0)


def test_a_key_column_of_links_is_not_a_header_column() -> None:
    rows = "".join(f'<tr><td class="name"><a href="/{n}">{n} widget</a></td><td>{p}</td><td>{s}</td></tr>'
                   for n, p, s in (("Alpha", "12.50", "3"), ("Beta", "7.25", "10"), ("Gamma", "3.10", "0"),
                                   ("Delta", "9.99", "5")))
    html = ("<html><head><style>a{color:#0645ad}</style></head><body><table><tr><td><b>Product</b></td>"
            f"<td><b>Price</b></td><td><b>Stock</b></td></tr>{rows}</table></body></html>")
    assert kp(html) == (1, 0)


def test_a_column_of_coloured_results_is_data_not_a_header_column() -> None:
    results = ["Win", "Loss", "Win", "Win", "Loss", "Win"]
    rows = "".join(f'<tr><td class="result-{r.lower()}" style="background:{"#bfd" if r == "Win" else "#fdd"};'
                   f'color:#000">{r}</td><td>{i}–{i}</td><td>Opponent {i}</td><td>KO</td></tr>'
                   for i, r in enumerate(results))
    html = (f"<table><tr><td><b>Result</b></td><td><b>Record</b></td><td><b>Opponent</b></td><td><b>Method</b></td>"
            f"</tr>{rows}</table>")
    assert kp(html) == (1, 0)


def test_a_sub_header_row_in_smaller_bold_type_is_a_header_row() -> None:
    words = ["Alpha", "Bravo", "Delta", "Gamma", "Kappa", "Omega"]
    body = "".join(f"<tr><td>Song {w}</td><td>{w}</td><td>{words[i - 1]}</td></tr>" for i, w in enumerate(words))
    html = ("<table><tr><td rowspan=2><b>Single</b></td><td colspan=2><b>Released on</b></td></tr>"
            "<tr><td><small><b>Chart</b></small></td><td><small><b>Label</b></small></td></tr>"
            f"{body}</table>")
    assert kp(html) == (2, 0)
