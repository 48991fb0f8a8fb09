"""The headers stage's Python API and CLI command: result shapes, JSON, options and errors."""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from pyxform.cli import main
from pyxform.base.errors import InputError, LimitExceeded, NoTableError, TableError
from pyxform.stages.headers import HeadersResult, TableHeaders, detect_headers, is_grid_document

from .grid_builder import cell, grid_xml, grids_xml
from .headers_helpers import PX

PAPER = [[cell("th", "", rowspan=2), cell("th", "Average", colspan=2), cell("th", "Ratio", rowspan=2)],
         ["th:Height", "th:Weight"],
         ["th:Males", "td:1.78", "td:75", "td:40.46%"],
         ["th:Females", cell("td", "Not available", colspan=2), "td:40.34%"]]


def test_json_has_exactly_the_issue_shape() -> None:
    result = detect_headers(grids_xml([PAPER, [["td:a", "td:b"], ["td:c", "td:d"]]]))
    assert result.to_json() == {"tables": [
        {"index": 0, "header_rows": 2, "header_cols": 1, "method": "markup", "kind": "matrix"},
        {"index": 1, "header_rows": 0, "header_cols": 0, "method": "none", "kind": "relational"}]}
    assert json.loads(result.to_json_text()) == result.to_json()


def test_result_model_and_annotated_document() -> None:
    result = detect_headers(grid_xml(PAPER))
    assert isinstance(result, HeadersResult)
    assert result.tables == [TableHeaders(index=0, header_rows=2, header_cols=1, method="markup", kind="matrix")]
    table = result.document.getroot().find(f"{PX}table")
    assert (table.get("header-rows"), table.get("header-cols"), table.get("header-method"), table.get("kind")) == (
        "2", "1", "markup", "matrix")
    assert {c.get("role") for c in table.iter(f"{PX}cell")} == {"header", "data"}
    assert table[0].tag == f"{PX}header-evidence"
    assert result.to_xml().startswith(b"<px:grids")


def test_annotated_grid_is_valid_against_grid_xsd() -> None:
    from pyxform.runtime.saxon import builtin_schema

    schema = etree.XMLSchema(etree.parse(str(builtin_schema("grid.xsd"))))
    rows = [[cell("td", "Title", colspan=3)], ["th:a", "th:b", "th:c"], [cell("th", "Group", colspan=3)],
            ["td:1", "td:", "td:3"]]
    for method in ("auto", "format"):
        for document in (grid_xml(PAPER), grid_xml(rows)):
            annotated = detect_headers(document, method=method).document
            assert schema.validate(annotated), schema.error_log


def test_running_twice_gives_the_same_document() -> None:
    once = detect_headers(grid_xml(PAPER)).to_xml()
    assert detect_headers(once).to_xml() == once


def test_table_option_annotates_only_that_table() -> None:
    result = detect_headers(grids_xml([PAPER, PAPER]), table=1)
    assert [t.index for t in result.tables] == [1]
    tables = result.document.getroot().findall(f"{PX}table")
    assert tables[0].get("header-rows") is None and tables[1].get("header-rows") == "2"


def test_unknown_table_and_failed_table() -> None:
    with pytest.raises(NoTableError):
        detect_headers(grid_xml(PAPER), table=3)
    failed = grid_xml(PAPER).replace("</px:grids>", '<px:table-failure index="1" locator="/x" code="limit" '
                                                    'limit="max_depth" message="too deep"/><px:table-failure '
                                                    'index="2" locator="/y" code="table" message="broken"/></px:grids>')
    with pytest.raises(LimitExceeded) as caught:  # by the failure's code and limit (data), not by its message
        detect_headers(failed, table=1)
    assert caught.value.limit == "max_depth"
    assert caught.value.message == ("table 1 (/x) could not be normalized: too deep (raise it with "
                                    "limits=Limits(max_depth=...))")
    with pytest.raises(TableError, match="broken"):
        detect_headers(failed, table=2)
    with pytest.raises(NoTableError, match=r"^the page has no table 3 \(it has 3 table\(s\), indexes 0 to 2\)$"):
        detect_headers(failed, table=3)
    result = detect_headers(failed)
    assert [(f.index, f.code, f.limit) for f in result.failures] == [(1, "limit", "max_depth"), (2, "table", None)]


def test_bad_method_and_bad_input() -> None:
    with pytest.raises(ValueError, match="method"):
        detect_headers(grid_xml(PAPER), method="guess")
    with pytest.raises(InputError, match="not a grid"):
        detect_headers("<html><body><table/></body></html>")
    with pytest.raises(InputError, match="well-formed"):
        detect_headers("<px:grids xmlns:px='urn:pyxform'>")


def test_a_dtd_is_refused_so_no_entity_reaches_the_file_system() -> None:
    evil = ('<!DOCTYPE g [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
            + grid_xml([["th:&x;", "th:b"], ["td:1", "td:2"]]).replace("&amp;x;", "&x;"))
    with pytest.raises(InputError, match="DTD"):
        detect_headers(evil)


def test_is_grid_document() -> None:
    assert is_grid_document(grid_xml(PAPER))
    assert not is_grid_document(b"<html><table><tr><td>x</table>")
    assert not is_grid_document("<a xmlns='urn:pyxform'/>")


def test_cli_headers_prints_json(tmp_path, capsysbinary) -> None:
    path = tmp_path / "grid.xml"
    path.write_text(grids_xml([PAPER, PAPER]), encoding="utf-8")
    assert main(["headers", str(path), "--format", "json", "--table", "1", "--method", "format"]) == 0
    assert json.loads(capsysbinary.readouterr().out) == {
        "tables": [{"index": 1, "header_rows": 2, "header_cols": 1, "method": "format", "kind": "matrix"}]}


def test_cli_headers_prints_the_annotated_grid(tmp_path, capsysbinary) -> None:
    path = tmp_path / "grid.xml"
    path.write_text(grid_xml(PAPER), encoding="utf-8")
    assert main(["headers", str(path)]) == 0
    root = etree.fromstring(capsysbinary.readouterr().out)
    assert root.find(f"{PX}table").get("header-method") == "markup"


def test_cli_headers_of_an_html_page(tmp_path, capsysbinary) -> None:
    path = tmp_path / "page.html"
    path.write_text("<table><tr><th>Name<th>Age<tr><td>Ann<td>31<tr><td>Bob<td>42</table>", encoding="utf-8")
    assert main(["headers", str(path), "--format", "json"]) == 0
    assert json.loads(capsysbinary.readouterr().out) == {
        "tables": [{"index": 0, "header_rows": 1, "header_cols": 0, "method": "markup", "kind": "relational"}]}


def test_cli_headers_errors(tmp_path, capsys) -> None:
    assert main(["headers", str(tmp_path / "missing.html")]) == 3
    assert "not-found" in capsys.readouterr().err
    path = tmp_path / "grid.xml"
    path.write_text(grid_xml(PAPER), encoding="utf-8")
    assert main(["headers", str(path), "--table", "4"]) == 6


def test_api_headers_of_a_page_and_of_a_grid() -> None:
    import pyxform

    page = "<table><tr><td><b>Name</b><td><b>Age</b><tr><td>Ann<td>31<tr><td>Bob<td>42</table>"
    assert pyxform.headers(page).to_json() == {
        "tables": [{"index": 0, "header_rows": 1, "header_cols": 0, "method": "format", "kind": "relational"}]}
    assert pyxform.headers(grid_xml(PAPER), method="markup").tables[0].header_rows == 2


# --- properties ---------------------------------------------------------------------------------------------------

TEXTS = st.sampled_from(["", "Name", "Age", "x", "12", "3.5", "alpha beta", "Total:", "2020", "—"])
CELLS = st.builds(lambda tag, text, bold: cell(tag, text, bold=bold),
                  st.sampled_from(["td", "td", "th"]), TEXTS, st.booleans())


@settings(max_examples=int(os.environ.get("PYXFORM_PROPERTY_EXAMPLES", "60")), deadline=None)
@given(rows=st.integers(1, 6).flatmap(lambda n: st.lists(st.lists(CELLS, min_size=n, max_size=n), min_size=1,
                                                        max_size=7)),
       method=st.sampled_from(["auto", "markup", "format"]))
def test_annotations_are_consistent(rows, method) -> None:
    """For any small table: 0 <= k <= rows, 0 <= p < cols (or 0), method none iff k = p = 0, every cell has a role,
    and every header listed for a data slot is a header or section cell with text."""
    result = detect_headers(grid_xml(rows), method=method)
    (table_result,) = result.tables
    table = result.document.getroot().find(f"{PX}table")
    m, n = int(table.get("rows")), int(table.get("cols"))
    k, p = table_result.header_rows, table_result.header_cols
    assert 0 <= k <= m and 0 <= p <= max(0, n - 1)
    assert (table_result.method == "none") == (k == 0 and p == 0)
    cells = {c.get("id"): c for c in table.iter(f"{PX}cell")}
    assert all(c.get("role") in {"header", "data", "section", "empty"} for c in cells.values())
    for slot in table.iter(f"{PX}slot"):
        owner = cells.get(slot.get("cell"))
        has_lists = slot.get("row-headers") is not None
        assert has_lists == (owner is not None and owner.get("role") in {"data", "empty"})
        for ids in (slot.get("row-headers") or "", slot.get("column-headers") or ""):
            for header in ids.split():
                assert cells[header].get("role") in {"header", "section"}
                assert (cells[header].findtext(f"{PX}text") or "").strip()


def test_a_slot_naming_no_cell_is_read_as_empty_and_reported() -> None:
    broken = grid_xml([["th:a", "th:b"], ["td:1", "td:2"]]).replace('cell="t0.c3"', 'cell="t0.c99"')
    result = detect_headers(broken)
    assert result.to_json()["tables"][0]["header_rows"] == 1
    assert any("px:unknown-cell" in warning and "t0.c99" in warning for warning in result.warnings)
