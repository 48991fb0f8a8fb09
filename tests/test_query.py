"""XPath 3.1 / XQuery 3.1 over output files (Saxon) and over lxml trees (elementpath)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pyxform.api.convert import convert_grid
from pyxform.base.errors import InputNotFound, QueryError
from pyxform.stages.query import query, rewrite_collection_calls, xpath

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("outputs")
    xml = convert_grid((DATA / "grids" / "paper-example.grid.xml").read_bytes()).xml
    (folder / "a.xml").write_text(xml, encoding="utf-8")
    (folder / "b.xml").write_text(xml.replace("40.46%", "41.00%"), encoding="utf-8")
    (folder / "notes.txt").write_text("not xml")
    return folder


def test_xpath_over_one_file(outputs: Path) -> None:
    assert query(outputs / "a.xml", "//males/ratio/string()").values() == ["40.46%"]
    assert query(outputs / "a.xml", "/pyxform/population-statistics/*/average/height").lines() == [
        '<height xmlns:px="urn:pyxform" px:label="Height">1.78</height>',
        '<height xmlns:px="urn:pyxform" px:label="Height">Not available</height>']
    assert query(outputs / "a.xml", "//*[@px:label = 'Females']/ratio => string()").values() == ["40.34%"]
    assert query(outputs / "a.xml", "count(//height[. castable as xs:decimal])").values() == ["1"]


def test_folder_is_a_collection(outputs: Path) -> None:
    result = query(outputs, "collection()//males/ratio/string()")
    assert result.values() == ["40.46%", "41.00%"]
    assert query(outputs, "for $d in $collection return tokenize(base-uri($d), '/')[last()]").values() == [
        "a.xml", "b.xml"]
    with pytest.raises(QueryError, match="collection\\(\\)"):
        query(outputs, "//males")


def test_xquery(outputs: Path) -> None:
    result = query(outputs, 'xquery version "3.1"; declare namespace q = "urn:q"; '
                            "<ratios>{for $r in collection()//ratio order by $r return <r>{string($r)}</r>}</ratios>",
                   xquery=True)
    assert result.lines() == [("<ratios>\n   <r>40.34%</r>\n   <r>40.34%</r>\n   <r>40.46%</r>\n   <r>41.00%</r>\n"
                               "</ratios>")]
    assert query(outputs / "a.xml", "string-join(//@px:label[. = 'Ratio'], ',')", xquery=True).values() == [
        "Ratio,Ratio"]


def test_expressions_cannot_open_uris(outputs: Path, tmp_path: Path) -> None:
    other = tmp_path / "other.xml"
    other.write_text("<secret>s</secret>")
    for expression in (f"doc('{other.as_uri()}')", f"unparsed-text('{other.as_uri()}')",
                       f"collection('{tmp_path.as_uri()}')", "unparsed-text('/etc/hostname')"):
        with pytest.raises(QueryError):
            query(outputs / "a.xml", expression)


def test_errors(outputs: Path) -> None:
    with pytest.raises(QueryError, match="a.xml"):
        query(outputs / "a.xml", "//[")
    with pytest.raises(InputNotFound):
        query(outputs / "missing.xml", "1")
    with pytest.raises(QueryError, match="not-xml"):
        bad = outputs / "not-xml.xml"
        bad.write_text("<a>")
        try:
            query(bad, "1")
        finally:
            bad.unlink()


def test_collection_calls_are_rewritten_outside_literals_and_comments() -> None:
    assert rewrite_collection_calls("count(collection()//a) + count(fn:collection( ))") == (
        "count($collection//a) + count($collection)")
    assert rewrite_collection_calls("'collection()', \"x\"\"collection()\" (: collection() :)") == (
        "'collection()', \"x\"\"collection()\" (: collection() :)")
    assert rewrite_collection_calls("my:collection() , collection('x')") == "my:collection() , collection('x')"


def test_elementpath_on_lxml_trees() -> None:
    tree = convert_grid((DATA / "grids" / "paper-example.grid.xml").read_bytes()).tree()
    assert xpath(tree, "//females/average/weight/string()") == ["Not available"]
    assert xpath(tree, "count(//ratio)") == [2]
    assert xpath(tree, "//*[@px:label = $l]/ratio/string()", variables={"l": "Males"}) == ["40.46%"]
    with pytest.raises(QueryError):
        xpath(tree, "//[")


def test_a_bad_file_of_a_folder_is_skipped_and_the_query_runs_over_the_others(
        tmp_path: Path, outputs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from pyxform.cli import main

    folder = tmp_path / "q"
    folder.mkdir()
    (folder / "a.xml").write_bytes((outputs / "a.xml").read_bytes())
    (folder / "b.xml").write_text("<r><a>1</a>\n<b>")  # truncated
    (folder / "c.xml").write_text('<!DOCTYPE r [<!ENTITY e SYSTEM "file:///etc/hostname">]>\n<r>&e;</r>')
    (folder / "d.xml").write_bytes((outputs / "b.xml").read_bytes())
    result = query(folder, "collection()//males/ratio/string()")
    assert result.values() == ["40.46%", "41.00%"]
    assert [(Path(s.path).name, s.message) for s in result.skipped] == [
        ("b.xml", "cannot read the document: the document is not well-formed XML: Premature end of data in tag b "
                  "line 2 (line 2, column 3)"),
        ("c.xml", "cannot read the document: the document uses the entity reference &e; on line 2: pyxform expands "
                  "no entity and reads no DTD (write the character itself)")]
    assert main(["query", str(folder), "count(collection())"]) == 13
    captured = capsys.readouterr()
    assert captured.out == "2\n"
    assert captured.err.splitlines() == [
        f"pyxform: warning [query]: {folder / 'b.xml'}: skipped: cannot read the document: the document is not "
        "well-formed XML: Premature end of data in tag b line 2 (line 2, column 3)",
        f"pyxform: warning [query]: {folder / 'c.xml'}: skipped: cannot read the document: the document uses the "
        "entity reference &e; on line 2: pyxform expands no entity and reads no DTD (write the character itself)",
        f"pyxform: 2 file(s) of {folder} skipped; the result is over the others"]
    # one file given alone still fails as a whole, and a folder with no readable file is an error
    with pytest.raises(QueryError, match="not well-formed"):
        query(folder / "b.xml", "1")
    (folder / "a.xml").unlink()
    (folder / "d.xml").unlink()
    with pytest.raises(QueryError, match="none of the 2 files could be read; first: .*b.xml"):
        query(folder, "1")


@pytest.mark.parametrize(("expression", "xquery", "code", "message"), [
    ("for $x in", True, "XPST0003", "Unexpected token <eof> before ... (near line 1, column 10 of the query)"),
    ("for $x in", False, "XPST0003", "Unexpected token <eof> before ... (near line 1, column 10 of the query)"),
    ("1 +\n (2 * ]", False, "XPST0003", "Unexpected token ] before ... (near line 2, column 8 of the query)"),
    ('declare namespace q="x";\nlet $a := 1\nreturn $a +* 2', True, "XPST0003",
     "Unexpected token 2: no further input expected (near line 3, column 15 of the query)"),
    ("foo:bar()", False, "XPST0081",
     "Namespace prefix 'foo' has not been declared (near line 1, column 8 of the query)"),
    ("count(collection()) + ]", False, "XPST0003",  # collection() is rewritten: the column is still the user's
     "Unexpected token ] before ... (near line 1, column 24 of the query)"),
    ("1 +\n  1 div 0", True, "FOAR0001", "Integer division by zero (near line 2, column 3 of the query)"),
    ("1 div 0", False, None, "Integer division by zero"),  # XPath: Saxon gives no code or position at run time
])
def test_query_errors_give_the_code_and_the_position_in_the_users_query(
        outputs: Path, expression: str, xquery: bool, code: str | None, message: str) -> None:
    with pytest.raises(QueryError) as caught:
        query(outputs / "a.xml", expression, xquery=xquery)
    assert (caught.value.error_code, caught.value.message) == (code, message)
    assert "collection external" not in caught.value.message and "{" not in caught.value.message
