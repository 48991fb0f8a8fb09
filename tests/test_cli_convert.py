"""The convert, schema, validate and query commands (pyxform.cli_convert), on annotated-grid inputs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pyxform.cli import main
from pyxform.base.errors import EXIT_PARTIAL_FAILURE

from .annotated_grids import T, grid_xml, td, th

GRID = Path(__file__).parent / "data" / "grids" / "paper-example.grid.xml"


def test_convert_one_input_to_a_file_with_schema(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "paper.xml"
    assert main(["convert", str(GRID), "--table", "0", "-o", str(out), "--schema"]) == 0
    assert out.read_text().startswith('<?xml version="1.0" encoding="UTF-8"?>\n<population-statistics')
    assert (tmp_path / "paper.xsd").is_file()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary file left
    assert main(["validate", str(out)]) == 0
    assert "valid against" in capsys.readouterr().out


def test_convert_to_stdout_as_pairs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["convert", str(GRID), "--format", "pairs"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert json.loads(lines[0]) == {"table": 0, "row": 2, "col": 1, "row_headers": ["Males"],
                                    "col_headers": ["Average", "Height"], "value": "1.78"}
    assert len(lines) == 6


def test_several_inputs_go_on_after_a_failure(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    other = tmp_path / "in" / "paper-example.grid.xml"
    other.parent.mkdir()
    other.write_text(grid_xml(T([[th("A")], [td("1")]], k=1)))
    empty = tmp_path / "empty.html"
    empty.write_bytes(b"  \n")
    out = tmp_path / "out"
    code = main(["convert", str(GRID), str(tmp_path / "missing.html"), str(empty), str(other), "-o", str(out)])
    assert code == EXIT_PARTIAL_FAILURE
    assert sorted(p.name for p in out.iterdir()) == ["paper-example.grid-2.xml", "paper-example.grid.xml"]
    err = capsys.readouterr().err
    assert f"pyxform: error [not-found]: {tmp_path / 'missing.html'}: no such file" in err
    assert f"pyxform: error [empty]: {empty}: " in err
    assert "2 of 4 inputs failed" in err


def test_single_failure_exit_code_is_the_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["convert", str(GRID), "--table", "9"]) == 6
    assert "no table 9" in capsys.readouterr().err
    assert main(["convert", str(tmp_path / "nope.html")]) == 3


def test_failed_write_leaves_the_old_output(tmp_path: Path) -> None:
    out = tmp_path / "out.xml"
    out.write_text("old")
    assert main(["convert", str(GRID), "--table", "5", "-o", str(out)]) == 6
    assert out.read_text() == "old"


def test_usage_errors() -> None:
    with pytest.raises(SystemExit) as caught:
        main(["convert", str(GRID), str(GRID)])
    assert caught.value.code == 2
    with pytest.raises(SystemExit):
        main(["convert", str(GRID), "--schema"])


def test_schema_validate_query(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "p.xml"
    assert main(["convert", str(GRID), "-o", str(out)]) == 0
    assert main(["schema", str(out)]) == 0
    assert (tmp_path / "p.xsd").read_text().count("<xs:element") > 5
    bad = tmp_path / "bad.xml"
    bad.write_text(out.read_text().replace(">75<", ">seventy-five<"))
    capsys.readouterr()
    assert main(["validate", str(bad), "--schema", str(tmp_path / "p.xsd")]) == 11
    err = capsys.readouterr().err
    assert f"{bad}:17: Element 'weight'" in err
    assert main(["query", str(out), "//females/ratio/string()"]) == 0
    assert capsys.readouterr().out == "40.34%\n"
    assert main(["query", str(tmp_path), "count(collection()//ratio)"]) == 0  # p.xml and bad.xml
    assert capsys.readouterr().out == "4\n"
    assert main(["query", str(out), "//average", "--text"]) == 0
    assert capsys.readouterr().out.split()[:2] == ["1.78", "75"]
    assert main(["query", str(out), "//["]) == 12


def test_validate_without_a_schema_refuses_rather_than_pass_a_check_that_cannot_fail(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "paper.xml"
    assert main(["convert", str(GRID), "--table", "0", "-o", str(out)]) == 0  # no paper.xsd written
    capsys.readouterr()
    assert main(["validate", str(out)]) == 3
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"pyxform: error [not-found]: {tmp_path / 'paper.xsd'}: no schema to validate "
                                   f"{out} against: give --schema S.xsd")
    assert "--generated-schema" in captured.err
    # asked for on purpose, the weak check runs and says what it is
    assert main(["validate", str(out), "--generated-schema"]) == 0
    assert capsys.readouterr().out == (f"{out}: valid against a schema generated from it (--generated-schema: this "
                                       "checks that it is well-formed and that the generator covers it, not its data "
                                       "against an independent schema)\n")
    # a schema beside the document is found; a named one that does not exist is refused
    assert main(["schema", str(out)]) == 0
    assert main(["validate", str(out)]) == 0
    assert capsys.readouterr().out == f"{out}: valid against {tmp_path / 'paper.xsd'}\n"
    assert main(["validate", str(out), "--schema", str(tmp_path / "none.xsd")]) == 3
    assert f"error [not-found]: {tmp_path / 'none.xsd'}: no such file" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["schema", "validate"])
def test_schema_and_validate_say_a_directory_is_a_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                            command: str) -> None:
    assert main([command, str(tmp_path)]) == 3
    assert capsys.readouterr().err == f"pyxform: error [not-found]: {tmp_path}: is a directory, not a file\n"
