"""An input that starts as a grid document (root ``px:grids`` in ``urn:pyxform``) is read as XML by ``headers``,
``grid`` and ``convert``: a broken or DTD-carrying one is refused as bad XML (exit 14, with file, line and column),
never read as an HTML page that has no table."""

from __future__ import annotations

from pathlib import Path

import pytest

from pyxform.base.limits import DEFAULT_LIMITS
from pyxform.cli import main
from pyxform.stages.headers import looks_like_grid_document

GRID = (Path(__file__).parent / "data" / "grids" / "paper-example.grid.xml").read_bytes()


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def truncated() -> bytes:
    return GRID[: len(GRID) // 2]


@pytest.mark.parametrize("command", ["headers", "grid", "convert"])
def test_a_truncated_grid_document_is_not_well_formed_xml_with_line_and_column(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str) -> None:
    path = tmp_path / "g-bad.xml"
    path.write_bytes(truncated())
    status, out, err = run(capsys, command, str(path), "--timeout", "0", "--max-memory", "0")
    assert status == 14 and out == ""
    assert err.startswith(f"pyxform: error [bad-xml]: {path}: the grid document is not well-formed XML: ")
    assert " (line " in err and ", column " in err


@pytest.mark.parametrize("command", ["headers", "grid", "convert"])
def test_a_grid_document_with_a_dtd_is_bad_xml_naming_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                               command: str) -> None:
    path = tmp_path / "g-dtd.xml"
    path.write_bytes(b'<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/hostname">]>\n' + GRID.replace(
        b'<?xml version="1.0" encoding="UTF-8"?>', b"", 1).replace(b"</px:caption>", b"&e;</px:caption>", 1))
    status, out, err = run(capsys, command, str(path))
    assert status == 14 and out == ""
    assert err.startswith(f"pyxform: error [bad-xml]: {path}: the grid document uses the entity reference &e;")


def test_headers_refuses_a_dtd_even_without_entities(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g-dtd.xml"
    path.write_bytes(b"<!DOCTYPE px:grids>\n" + GRID.replace(b'<?xml version="1.0" encoding="UTF-8"?>', b"", 1))
    status, _, err = run(capsys, "headers", str(path))
    assert status == 14
    assert err == (f"pyxform: error [bad-xml]: {path}: the grid document has a document type declaration (DTD): "
                   "pyxform reads no DTD and expands no entity\n")


def test_grid_says_a_well_formed_grid_document_is_one_already(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g.xml"
    path.write_bytes(GRID)
    status, out, err = run(capsys, "grid", str(path))
    assert status == 3 and out == ""
    assert f"error [input]: {path}: this is a grid document already" in err
    assert run(capsys, "headers", str(path), "--format", "json")[0] == 0


@pytest.mark.parametrize(("data", "expected"), [
    (GRID, True),
    (truncated(), True),
    (b'\xef\xbb\xbf<!-- c --><?pi x?>\n<p:grids xmlns:p="urn:pyxform"', True),
    ('<grids xmlns="urn:pyxform" source="a">'.encode("utf-16"), True),
    (b'<!DOCTYPE x [<!ENTITY e "<grids>">]><px:grids xmlns:px="urn:pyxform">', True),
    (b'<px:grids xmlns:px="urn:other">', False),  # another namespace
    (b'<px:grids xmlns:q="urn:pyxform">', False),  # the prefix is not the one bound
    (b'<html><body><px:grids xmlns:px="urn:pyxform">', False),  # a page that mentions it
    (b"<table><tr><td>grids</td></tr></table>", False),
    (b'<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"/>', False),
])
def test_looks_like_grid_document(data: bytes, expected: bool) -> None:
    assert looks_like_grid_document(data) is expected


# -- a grid document from outside is checked before any work ------------------------------------------------------
BOMB = b'<px:grids xmlns:px="urn:pyxform"><px:table index="0" rows="99999999" cols="99999999"/></px:grids>'


@pytest.mark.parametrize("command", ["headers", "convert"])
def test_a_tiny_grid_document_declaring_a_huge_table_fails_at_once_on_the_slot_limit(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str) -> None:
    # 98 bytes that declare 10^16 slots: refused on max_slots before any stage runs (it grew to the memory cap);
    # in this process, with no time or memory limit to stop it otherwise
    path = tmp_path / "bomb.xml"
    path.write_bytes(BOMB)
    status, out, err = run(capsys, command, str(path), "--timeout", "0", "--max-memory", "0")
    assert (status, out) == (7, "")
    slots = DEFAULT_LIMITS.max_slots
    assert err == (f"pyxform: error [limit]: {path}: table 0 declares 99999999 rows and 99999999 columns: more than "
                   f"{slots} slots (limit max_slots = {slots}; raise it with --max-slots)\n")


def _with_table(rows: int, cols: int, body: str = "") -> bytes:
    return (f'<px:grids xmlns:px="urn:pyxform"><px:table index="0" rows="{rows}" cols="{cols}" locator="/t" '
            f'depth="0">{body}</px:table></px:grids>').encode()


_CELL = ('<px:cell id="t0.c0" row="{row}" col="0" rowspan="{rowspan}" colspan="1" tag="td" group="0" '
         'group-kind="tbody"><px:text>x</px:text></px:cell>')
_ROW = '<px:row index="{index}" group="0" group-kind="tbody"><px:slot col="0" cell="t0.c0"/></px:row>'


@pytest.mark.parametrize(("document", "expected"), [
    # declared sizes against the limits (before the schema): each table, all tables, the number of tables
    (_with_table(11, 10), "limit: table 0 declares 11 rows and 10 columns: more than 100 slots"),
    (_with_table(1, 1, _CELL.format(row=0, rowspan=1) + _ROW.format(index=0)), ""),
    # the schema
    (b'<px:grids xmlns:px="urn:pyxform"><px:table index="0" rows="1" cols="1"/></px:grids>',
     "bad-xml: the grid document does not follow schemas/grid.xsd: line 1: Element '{urn:pyxform}table': The "
     "attribute 'locator' is required but missing."),  # the first error
    (b'<px:grids xmlns:px="urn:pyxform"><px:row/></px:grids>', "bad-xml: the grid document does not follow "
     "schemas/grid.xsd: line 1: Element '{urn:pyxform}row': This element is not expected. Expected is one of ( "
     "{urn:pyxform}table, {urn:pyxform}table-failure )."),
    # the real size against the declared one
    (_with_table(2, 1, _CELL.format(row=0, rowspan=1) + _ROW.format(index=0)),
     "bad-xml: table 0 declares 2 rows and 1 columns but has 1 px:row elements"),
    (_with_table(1, 2, _CELL.format(row=0, rowspan=1) + _ROW.format(index=0)),
     "bad-xml: table 0 declares 1 rows and 2 columns but its row 0 has 1 px:slot elements"),
    (_with_table(1, 1, _CELL.format(row=0, rowspan=99999999) + _ROW.format(index=0)),
     "bad-xml: table 0 declares 1 rows and 1 columns but its cell t0.c0 spans beyond them"),
])
def test_a_grid_document_is_checked_against_its_schema_and_its_declared_size(document: bytes, expected: str) -> None:
    from pyxform.base.errors import PyxformError
    from pyxform.base.limits import Limits
    from pyxform.stages.grid_input import read_grid_input

    try:
        read_grid_input(document, limits=Limits(max_slots=100))
    except PyxformError as error:
        assert f"{error.code}: {error.message}".split(" (limit ")[0] == expected
    else:
        assert expected == ""


def test_the_page_slot_and_table_limits_count_what_the_tables_declare() -> None:
    from pyxform.base.errors import LimitExceeded
    from pyxform.base.limits import Limits
    from pyxform.stages.grid_input import read_grid_input

    two = _with_table(10, 10).replace(b"</px:grids>", b"") + _with_table(10, 10).split(b">", 1)[1]
    with pytest.raises(LimitExceeded) as caught:
        read_grid_input(two, limits=Limits(max_slots=100, max_page_slots=150))
    assert caught.value.limit == "max_page_slots"
    with pytest.raises(LimitExceeded) as caught:
        read_grid_input(two, limits=Limits(max_tables=1))
    assert caught.value.limit == "max_tables"


@pytest.mark.parametrize("command", ["grid", "headers", "convert"])
def test_every_verb_says_the_same_of_a_table_that_is_not_there_or_that_failed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str) -> None:
    page = tmp_path / "two.html"
    page.write_bytes(b"<table><tr><th>A</th></tr><tr><td>1</td></tr></table>"
                     b"<table><tr><td colspan=3>x</td></tr><tr><td>y</td></tr></table>")
    assert run(capsys, command, str(page), "--table", "5") == (
        6, "", f"pyxform: error [no-table]: {page}: the page has no table 5 (it has 2 table(s), indexes 0 to 1)\n")
    assert run(capsys, command, str(page), "--table", "1", "--max-slots", "4") == (
        7, "", f"pyxform: error [limit]: {page}: table 1 (/html/body[1]/table[2]) could not be normalized: the table "
               "has 2 rows and at least 3 columns: more than max_slots = 4 slots (raise it with --max-slots)\n")
    status, _, err = run(capsys, command, str(page), "--max-slots", "4")
    assert (status, err) == (0, f"pyxform: warning [limit]: {page}: table 1 (/html/body[1]/table[2]): the table has "
                                "2 rows and at least 3 columns: more than max_slots = 4 slots\n")
    if command != "grid":  # and of a grid document
        grid = tmp_path / "two.grid.xml"
        assert main(["grid", str(page)]) == 0
        grid.write_text(capsys.readouterr().out)
        assert run(capsys, command, str(grid), "--table", "5")[2] == (
            f"pyxform: error [no-table]: {grid}: the page has no table 5 (it has 2 table(s), indexes 0 to 1)\n")
