"""docs/mapping.md, "Tables of header cells only": a table whose cells are all th gets no header region (the markup marks everything, so
it tells nothing; the formatting method finds no boundary), and its cells become data named by position."""

from __future__ import annotations

import pytest

import pyxform


@pytest.mark.parametrize("page", [b"<table><tr><th>a</th><th>b</th></tr></table>",
                                  b"<table><tr><th>a</th><th>b</th></tr><tr><th>c</th><th>d</th></tr></table>"])
def test_a_table_of_header_cells_only_gets_no_header_region_and_its_cells_become_data(page: bytes) -> None:
    found = pyxform.headers(page)
    assert found.to_json() == {"tables": [{"index": 0, "header_rows": 0, "header_cols": 0, "method": "none",
                                           "kind": "layout" if b"<th>c" not in page else "relational"}]}
    evidence = found.tables[0].evidence
    assert evidence is not None
    markup = evidence.find("{urn:pyxform}markup")
    assert markup is not None and markup.get("usable") == "false"
    conversion = pyxform.convert(page)
    texts = [text.decode() for text in (b"a", b"b", b"c", b"d") if text in page]
    assert [(pair["col_headers"], pair["row_headers"], pair["value"]) for pair in conversion.pairs()] == [
        ([], [], text) for text in texts]
    assert b'<row px:row="0">' in conversion.to_bytes() and b"<column-1>a</column-1>" in conversion.to_bytes()
