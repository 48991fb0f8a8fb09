"""The command line: ``pyxform grid INPUT [--format xml|json] [--table N]``, its output and its exit codes."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from lxml import etree

from pyxform.cli import main
from pyxform.runtime.saxon import builtin_schema

from .conftest import CASES

PAPER = CASES / "paper-example" / "input.html"
NESTED = CASES / "nested-table" / "input.html"
HUGE = CASES / "huge-and-invalid-spans" / "input.html"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_json_has_exactly_the_documented_shape(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "grid", str(PAPER), "--format", "json")
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert data == json.loads((CASES / "paper-example" / "expected-grid.json").read_text(encoding="utf-8"))
    assert list(data) == ["tables"]
    assert list(data["tables"][0]) == ["index", "rows", "cols", "grid"]
    assert list(data["tables"][0]["grid"][0][0]) == ["text", "tag", "origin"]


def test_xml_output_is_a_valid_grid(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "grid", str(NESTED))
    assert code == 0
    root = etree.fromstring(out.encode("utf-8"))
    schema = etree.XMLSchema(etree.parse(str(builtin_schema("grid.xsd"))))
    assert schema.validate(root), schema.error_log
    assert [t.get("index") for t in root] == ["0", "1"]


def test_one_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "grid", str(NESTED), "--format", "json", "--table", "1")
    assert code == 0
    (table,) = json.loads(out)["tables"]
    assert (table["index"], table["rows"], table["cols"]) == (1, 3, 2)
    assert table["grid"][0][0] == {"text": "From", "tag": "th", "origin": [0, 0]}


def test_standard_input(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"<table><tr><td>x<td>y</table>")))
    code, out, _ = run(capsys, "grid", "-", "--format", "json")
    assert code == 0
    assert json.loads(out)["tables"][0]["grid"] == [[{"text": "x", "tag": "td", "origin": [0, 0]},
                                                     {"text": "y", "tag": "td", "origin": [0, 1]}]]


@pytest.mark.parametrize(("content", "argv", "exit_code", "code"), [
    (None, [], 3, "not-found"),
    (b"", [], 4, "empty"),
    (b"  \n\t ", [], 4, "empty"),
    (b"\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00<table>", [], 5, "undecodable"),
    (b"<p>no table here</p>", [], 6, "no-table"),
    (b"<table><tr><td>1</td></tr></table>", ["--table", "3"], 6, "no-table"),
], ids=["missing", "empty", "whitespace", "binary", "no-table", "no-such-table"])
def test_errors_have_distinct_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes | None,
                                         argv: list[str], exit_code: int, code: str) -> None:
    path = tmp_path / "page.html"
    if content is not None:
        path.write_bytes(content)
    status, out, err = run(capsys, "grid", str(path), *argv)
    assert status == exit_code
    assert out == ""
    assert err.startswith(f"pyxform: error [{code}]: {path}: ")


def test_a_failed_table_does_not_stop_the_others(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "grid", str(HUGE), "--format", "json", "--max-slots", "100")
    assert code == 0
    data = json.loads(out)
    assert [t["index"] for t in data["tables"]] == [0]
    assert data["failures"][0]["index"] == 1 and data["failures"][0]["code"] == "limit"
    assert "pyxform: warning [limit]" in err


def test_asking_for_a_failed_table_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "grid", str(HUGE), "--table", "1", "--max-slots", "100")
    assert (code, out) == (7, "")
    assert err.startswith("pyxform: error [limit]: ") and "table 1" in err


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["grid", str(PAPER), "--format", "yaml"])
    assert exit_info.value.code == 2
    with pytest.raises(SystemExit) as exit_info:
        main(["grid", str(PAPER), "--table", "-1"])
    assert exit_info.value.code == 2


def test_the_module_entry_point_runs(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "pyxform", "grid", str(PAPER), "--format", "json"],
                            capture_output=True, check=False)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["tables"][0]["rows"] == 4
    missing = subprocess.run([sys.executable, "-m", "pyxform", "grid", str(tmp_path / "nope.html")],
                             capture_output=True, text=True, check=False)
    assert missing.returncode == 3
    assert missing.stderr.startswith("pyxform: error [not-found]: ")
