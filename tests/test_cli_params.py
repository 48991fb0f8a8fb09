"""``convert --param STEP.NAME=VALUE`` for pyxform's own steps: a parameter the step does not declare, a value its
declared type (``as``) cannot take, or a parameter one of pyxform's options sets (``--table``, ``--names``,
``--method``, the limits) is refused up front naming the parameter; a stylesheet's message reaches the terminal
unescaped."""

from __future__ import annotations

from pathlib import Path

import pytest

from pyxform.cli import main
from pyxform.runtime.registry import stage_parameters

from .cli_helpers import page  # noqa: F401 (a fixture)


def usage_error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """The one line of a usage error (then a pointer to the command's --help, and nothing else)."""
    with pytest.raises(SystemExit) as exited:
        main(list(argv))
    assert exited.value.code == 2
    *_, line, pointer = capsys.readouterr().err.splitlines()
    assert pointer == f"See 'pyxform {argv[0]} --help'."
    return line


def test_the_declared_parameters_are_read_from_the_stage_and_its_modules() -> None:
    headers = stage_parameters("headers")
    assert headers["threshold"] == "xs:double" and headers["method"] == "xs:string"
    assert headers["max-header-rows"] == "xs:integer"  # declared in a module the driver includes
    assert stage_parameters("merge") == {}


def test_an_unknown_parameter_of_a_step_is_refused_listing_the_steps_parameters(
        page: Path, capsys: pytest.CaptureFixture[str]) -> None:
    line = usage_error(capsys, "convert", str(page), "--param", "headers.nosuch=1")
    assert line.startswith("pyxform convert: error: --param headers.nosuch=1: the headers step has no parameter "
                           "'nosuch' (its parameters: ")
    listed = line.split("(its parameters: ")[1].rstrip(")").split(", ")
    assert listed == sorted(set(stage_parameters("headers")) - {"method", "table"})  # not those --method, --table set
    assert usage_error(capsys, "convert", str(page), "--param", "map.a=1").endswith(
        "the map step has no parameter 'a' (its parameters: none)")  # names and table: --names and --table set them
    assert usage_error(capsys, "convert", str(page), "--param", "merge.a=1").endswith(
        "the merge step has no parameter 'a' (its parameters: none)")
    assert usage_error(capsys, "convert", str(page), "--param", "clean.a=1").endswith(
        "the clean step has no parameter 'a' (its parameters: none)")


WHOLE = "xs:integer, a whole number (e.g. 3)"


@pytest.mark.parametrize(("binding", "declared"), [("headers.threshold=abc", "xs:double, a number (e.g. 2.5 or 1e3)"),
                                                   ("headers.max-header-rows=1.5", WHOLE)])
def test_a_value_its_declared_type_cannot_take_is_refused_naming_the_parameter(
        page: Path, capsys: pytest.CaptureFixture[str], binding: str, declared: str) -> None:
    name, value = binding.split("=")
    assert usage_error(capsys, "convert", str(page), "--param", binding) == (
        f"pyxform convert: error: --param {binding}: {name} is {declared}; {value!r} is not a value of that type")


@pytest.mark.parametrize(("binding", "values"), [("headers.size-difference=both", "signed or absolute")])
def test_a_value_outside_a_parameters_fixed_set_is_refused_up_front_naming_the_values(
        tmp_path: Path, page: Path, capsys: pytest.CaptureFixture[str], binding: str, values: str) -> None:
    name, value = binding.split("=")
    expected = f"pyxform convert: error: --param {binding}: {name} takes {values}; {value!r} is none of them"
    assert usage_error(capsys, "convert", str(page), "--param", binding) == expected
    # a batch: refused before any page is read (no output folder, no per-page failure, exit 2 rather than 13)
    assert usage_error(capsys, "convert", str(page), str(page), "-o", str(tmp_path / "out"), "--param",
                       binding) == expected
    assert not (tmp_path / "out").exists()


def test_the_fixed_sets_come_from_the_stylesheets_declarations() -> None:
    from pyxform.runtime.registry import stage_parameter_declarations

    assert stage_parameter_declarations("headers")["method"].values == ("auto", "markup", "format")
    assert stage_parameter_declarations("headers")["size-difference"].values == ("signed", "absolute")
    assert stage_parameter_declarations("map")["names"].values == ("paper", "generic")
    assert stage_parameter_declarations("headers")["threshold"].values == ()
    from pyxform.runtime.docs import DOCS_PAGE

    assert "`method` `xs:string = 'auto', one of auto markup format`" in DOCS_PAGE.read_text(encoding="utf-8")


def test_every_value_of_a_fixed_set_is_accepted(page: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for value in ("signed", "absolute"):
        assert main(["convert", str(page), "--param", f"headers.size-difference={value}", "--timeout", "0",
                     "--max-memory", "0"]) == 0


@pytest.mark.parametrize(("binding", "option"), [
    ("map.names=paper", "--names"), ("map.table=0", "--table"), ("headers.table=3", "--table"),
    ("headers.method=markup", "--method"), ("normalize.only-table=5", "--table"),
    ("normalize.max-slots=10", "--max-slots"), ("normalize.max-depth=2", "--max-depth")])
def test_a_parameter_one_of_the_options_sets_is_refused_naming_the_option(
        tmp_path: Path, page: Path, capsys: pytest.CaptureFixture[str], binding: str, option: str) -> None:
    # they disagreed silently (--names generic --param map.names=paper: the parameter won), or gave a table failure,
    # an internal error or "the page has no table"
    name = binding.split("=")[0]
    expected = (f"pyxform convert: error: --param {binding}: {name} is not a parameter of yours: pyxform's option "
                f"{option} sets it")
    assert usage_error(capsys, "convert", str(page), "--names", "generic", "--param", binding) == expected
    assert usage_error(capsys, "convert", str(page), str(page), "-o", str(tmp_path / "out"), "--param",
                       binding) == expected  # before any page
    assert not (tmp_path / "out").exists()


def test_a_parameter_your_stylesheet_does_not_declare_is_warned_about_not_refused(
        tmp_path: Path, page: Path, capsys: pytest.CaptureFixture[str]) -> None:
    post = tmp_path / "post.xsl"
    post.write_text('<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">'
                    '<xsl:param name="prefix" select="\'x\'"/>'
                    '<xsl:template match="/"><out p="{$prefix}"/></xsl:template></xsl:stylesheet>')
    assert main(["convert", str(page), "--xslt", str(post), "--param", "nosuch=1", "--param", "prefix=y",
                 "--timeout", "0", "--max-memory", "0"]) == 0
    captured = capsys.readouterr()
    assert 'p="y"' in captured.out
    assert captured.err == ("pyxform: warning: --param nosuch=1: the stylesheet post.xsl (step post) declares no "
                            "parameter 'nosuch' (its parameters: prefix): it is ignored\n")
    assert main(["transform", str(post), str(post), "--param", "other=2"]) == 0
    assert capsys.readouterr().err == ("pyxform: warning: --param other=2: the stylesheet post.xsl (step post) "
                                       "declares no parameter 'other' (its parameters: prefix): it is ignored\n")


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


def test_a_stylesheet_message_is_shown_unescaped(tmp_path: Path, page: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    post = tmp_path / "post.xsl"
    post.write_text('<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform" '
                    'expand-text="yes"><xsl:param name="mode"/><xsl:template match="/">'
                    '<xsl:message terminate="yes">[px:bad-mode] mode must be a or b, not "{$mode}"</xsl:message>'
                    '</xsl:template></xsl:stylesheet>')
    assert main(["convert", str(page), "--xslt", str(post), "--param", "mode=<x/>", "--timeout", "0",
                 "--max-memory", "0"]) == 10
    assert capsys.readouterr().err == (f"pyxform: error [xslt px:bad-mode]: {page}: mode must be a or b, not "
                                       '"<x/>"\n')
