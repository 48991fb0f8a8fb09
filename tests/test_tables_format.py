"""The page's links (clean -> Conversion.links) and the jobs output format ``tables`` (Conversion.to_tables_json)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pyxform import convert, convert_grid

DATA = Path(__file__).resolve().parent / "data" / "search"

PAGE = b"""<!DOCTYPE html><html><head><title> Two  tables </title>
<link rel="alternate stylesheet" href="/s.css"><link rel="Canonical" href=" https://x.org/p ">
<base href="/base/"></head><body><h2>Results</h2>
<a href="/a">a</a><a name="no-href">x</a><a href="">empty</a><div hidden><a href="hidden.html">h</a></div>
<map><area href="area.html"></map>
<table><caption>Scores</caption><tr><th>Name</th><th>Score</th></tr><tr><td>Ann</td>
<td><table><tr><th>Try</th></tr><tr><td><a href="#t1">1</a></td></tr></table></td></tr></table>
</body></html>"""


def test_links_are_taken_as_written_hidden_ones_included() -> None:
    links = convert(PAGE).links
    assert links.canonical == "https://x.org/p" and links.base == "/base/"
    assert links.hrefs == ("/a", "hidden.html", "area.html", "#t1")


def test_tables_json() -> None:
    document = json.loads(convert(PAGE, source="page.html").to_tables_json())
    assert (document["source"], document["title"], document["canonical"], document["base"]) == (
        "page.html", "Two tables", "https://x.org/p", "/base/")
    assert document["links"] == ["/a", "hidden.html", "area.html", "#t1"] and document["failures"] == []
    outer, inner = document["tables"]
    assert {key: outer[key] for key in ("index", "parent", "depth", "locator", "heading", "caption", "hidden",
                                        "header_rows", "header_cols", "header_method")} == {
        "index": 0, "parent": None, "depth": 0, "locator": "/html/body[1]/table[1]", "heading": "Results",
        "caption": "Scores", "hidden": False, "header_rows": 1, "header_cols": 0, "header_method": "markup"}
    assert [column["levels"] for column in outer["columns"]] == [["Name"], ["Score"]]
    assert outer["records"] == [["Ann", ""]] and outer["rows"] == [1]
    assert outer["xml"].startswith("<scores ") and 'px:table="0"' in outer["xml"] and "Ann" in outer["xml"]
    assert (inner["index"], inner["parent"], inner["depth"], inner["records"]) == (1, 0, 1, [["1"]])
    assert inner["xml"].startswith("<") and 'px:table="1"' in inner["xml"]


def test_a_grid_document_has_no_page_links() -> None:
    conversion = convert_grid(convert(PAGE).grid.to_string())
    assert conversion.links.hrefs == () and conversion.links.canonical is None


def test_the_jobs_layer_renders_the_tables_format() -> None:
    from pyxform.base.errors import UsageError
    from pyxform.base.source import Source
    from pyxform.jobs import PageOptions, run_page

    result = run_page(Source(PAGE, "page.html", None), PageOptions(format="tables"))
    assert (result.status, result.tables, len(result.outputs)) == ("ok", 2, 1)
    document = json.loads(result.outputs[0].data)
    assert [table["index"] for table in document["tables"]] == [0, 1] and document["canonical"] == "https://x.org/p"
    empty = run_page(Source(b"<p>no table</p>", "none.html", None), PageOptions(format="tables"))
    assert empty.status == "no-tables" and empty.outputs == ()
    with pytest.raises(UsageError, match="not 'tables'"):
        run_page(Source(PAGE, "page.html", None), PageOptions(command="grid", format="tables"))


NOTED = """<!DOCTYPE html><html><head><title>Rainfall</title></head><body><table><caption>Monthly rainfall</caption>
<tr><th>Month</th><th>Rain (mm)</th></tr><tr><td>January</td><td>41</td></tr><tr><td>February</td><td>30</td></tr>
<tr><td>March</td><td>28</td></tr>
<tr><td colspan="2">Source: Finnish Meteorological Institute, 1991–2020 normals</td></tr></table></body></html>"""


def test_tables_json_keeps_the_note_rows_beside_the_records() -> None:
    """A note row (a source line after the data) is no record; its text is kept as the table's ``notes``."""
    table = json.loads(convert(NOTED.encode("utf-8"), source="rain.html").to_tables_json())["tables"][0]
    assert table["records"] == [["January", "41"], ["February", "30"], ["March", "28"]]
    assert table["notes"] == ["Source: Finnish Meteorological Institute, 1991–2020 normals"]
    assert json.loads(convert(PAGE).to_tables_json())["tables"][0]["notes"] == []
