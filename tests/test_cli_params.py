"""``convert --param STEP.NAME=VALUE`` for pyxform's own steps: a parameter the step does not declare, or a value its
declared type (``as``) cannot take, is refused up front naming the parameter; a stylesheet's message reaches the
terminal unescaped."""

from __future__ import annotations

from pathlib import Path

import pytest

from pyxform.cli import main
from pyxform.docs import stage_parameters

PAGE = b"<table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr></table>"


@pytest.fixture()
def page(tmp_path: Path) -> Path:
    path = tmp_path / "p.html"
    path.write_bytes(PAGE)
    return path


def usage_error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    with pytest.raises(SystemExit) as exited:
        main(list(argv))
    assert exited.value.code == 2
    return capsys.readouterr().err.splitlines()[-1]


def test_the_declared_parameters_are_read_from_the_stage_and_its_modules() -> None:
    headers = stage_parameters("headers")
    assert headers["threshold"] == "xs:double" and headers["method"] == "xs:string"
    assert headers["max-header-rows"] == "xs:integer"  # declared in a module the driver includes
    assert stage_parameters("merge") == {}


def test_an_unknown_parameter_of_a_step_is_refused_listing_the_steps_parameters(
        page: Path, capsys: pytest.CaptureFixture[str]) -> None:
    line = usage_error(capsys, "convert", str(page), "--param", "headers.nosuch=1")
    assert line.startswith("pyxform convert: error: --param headers.nosuch=...: the headers step has no parameter "
                           "'nosuch' (its parameters: ")
    assert all(name in line for name in stage_parameters("headers"))
    assert usage_error(capsys, "convert", str(page), "--param", "merge.a=1").endswith(
        "the merge step has no parameter 'a' (its parameters: none)")
    assert usage_error(capsys, "convert", str(page), "--param", "clean.a=1").endswith(
        "the clean step has no parameter 'a' (its parameters: none)")


@pytest.mark.parametrize(("binding", "declared"), [("headers.threshold=abc", "xs:double"),
                                                   ("headers.max-header-rows=1.5", "xs:integer"),
                                                   ("map.table=x", "xs:integer")])
def test_a_value_its_declared_type_cannot_take_is_refused_naming_the_parameter(
        page: Path, capsys: pytest.CaptureFixture[str], binding: str, declared: str) -> None:
    name, value = binding.split("=")
    assert usage_error(capsys, "convert", str(page), "--param", binding) == (
        f"pyxform convert: error: --param {binding}: {name} is {declared}; {value!r} is not a value of that type")


def test_values_of_the_declared_type_are_accepted_and_used(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    import json

    bold = tmp_path / "bold.html"  # a header row marked by formatting only
    bold.write_bytes(b"<table><tr><td><b>Name</b></td><td><b>Age</b></td></tr><tr><td>x</td><td>2</td></tr>"
                     b"<tr><td>y</td><td>3</td></tr></table>")
    found = []
    for threshold in ("5", "1e9"):  # the default, and one no score reaches
        assert main(["convert", str(bold), "--param", f"headers.threshold={threshold}", "--format", "pairs",
                     "--timeout", "0", "--max-memory", "0"]) == 0
        found.append([json.loads(line)["col_headers"] for line in capsys.readouterr().out.splitlines()][0])
    assert found == [["Name"], []]


def test_a_stylesheet_message_is_shown_unescaped(page: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["convert", str(page), "--param", "headers.method=<x/>", "--timeout", "0", "--max-memory", "0"]) == 10
    assert capsys.readouterr().err == (f"pyxform: error [xslt px:bad-method]: {page}: method must be auto, markup or "
                                       'format, not "<x/>"\n')
