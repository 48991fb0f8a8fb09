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


# -- 9. form feed ---------------------------------------------------------------------------------------------------

def test_a_form_feed_in_a_cell_is_a_space_without_warning() -> None:
    conversion = convert("<table><tr><th>A\x0cB</th></tr><tr><td>x\x0cy</td></tr></table>")
    record = etree.fromstring(conversion.to_bytes()).find("table/row")
    assert children(record) == [("a-b", "x y")]
    assert conversion.messages == []
    assert "\ufffd" not in conversion.xml
