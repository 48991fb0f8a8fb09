"""An input that starts as a grid document (root ``px:grids`` in ``urn:pyxform``) is read as XML by ``headers``,
``grid`` and ``convert``: a broken or DTD-carrying one is refused as bad XML (exit 14, with file, line and column),
never read as an HTML page that has no table."""

from __future__ import annotations

from pathlib import Path

import pytest

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
