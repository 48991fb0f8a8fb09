"""The command line of the toolkit: pyxform transform, convert --xslt/--param/--keep-stages, the output formats."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
from pathlib import Path

import pytest
from lxml import etree

from pyxform.cli import main

CASES = Path(__file__).parent / "data" / "cases"
STYLESHEETS = Path(__file__).parent / "data" / "stylesheets"
PAPER = CASES / "paper-example" / "input.html"
TWO_TABLES = b"<table><tr><th>A<th>B<tr><td>x<td>1</table><p>and<table><tr><th>C<tr><td>2</table>"


# -- transform -----------------------------------------------------------------------------------------------------
def test_transform_writes_the_result_and_forwards_messages(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                                           ) -> None:
    document = tmp_path / "doc.xml"
    document.write_bytes(convert_paper(tmp_path))
    out = tmp_path / "out.xml"
    assert main(["transform", str(STYLESHEETS / "rename.xsl"), str(document), "-o", str(out),
                 "--param", "root=stats", "--param", "limit=2"]) == 0
    root = etree.parse(str(out)).getroot()
    assert root.tag == "stats" and [v.get("path") for v in root] == ["Males/Average/Height", "Males/Average/Weight"]
    assert capsys.readouterr().err == "rename: 6 values\n"


def convert_paper(tmp_path: Path) -> bytes:
    out = tmp_path / "paper.xml"
    assert main(["convert", str(PAPER), "-o", str(out)]) == 0
    return out.read_bytes()


def test_transform_errors_show_file_line_and_code(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    document = tmp_path / "a.xml"
    document.write_text("<a/>")
    failing = (STYLESHEETS / "failing.xsl").resolve()
    assert main(["transform", str(failing), str(document)]) == 10
    err = capsys.readouterr().err.splitlines()
    assert err[0] == "starting cast"
    assert err[1].startswith(f"pyxform: error [xslt FORG0001]: {failing}:7:")
    assert err[1].endswith('running the stylesheet failed: Cannot convert string "abc" to an integer')
    assert main(["transform", str(failing), str(document), "--param", "kind=stop"]) == 10
    err = capsys.readouterr().err.splitlines()
    assert err[:2] == ["starting stop", "stopped on purpose"]
    assert err[2].startswith(f"pyxform: error [xslt stop]: {failing}:9:")


def test_transform_reads_no_uri_unless_allowed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    document = tmp_path / "a.xml"
    document.write_text("<a/>")
    secret = tmp_path / "secret.txt"
    secret.write_text("s3cr3t")
    args = ["transform", str(STYLESHEETS / "failing.xsl"), str(document), "--param", "kind=read",
            "--param", f"uri={secret.as_uri()}"]
    assert main(args) == 10
    captured = capsys.readouterr()
    assert "[xslt FOUT1170]" in captured.err and "s3cr3t" not in captured.out + captured.err
    assert main([*args, "--allow-io"]) == 0
    assert "s3cr3t" in capsys.readouterr().out



@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
@pytest.mark.parametrize("command", ["query", "validate"])
def test_a_pipe_is_read_like_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str) -> None:
    """``pyxform query <(command) ...`` gives a pipe (/dev/fd/63): it is read, not called "no such file"."""
    document = tmp_path / "stats.xml"
    document.write_bytes(convert_paper(tmp_path))
    assert main(["schema", str(document), "-o", str(tmp_path / "stats.xsd")]) == 0
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    writer = subprocess.Popen(["sh", "-c", f"cat '{document}' > '{pipe}'"])  # blocks until the pipe is read
    try:
        args = ([str(pipe), "//ratio/string()"] if command == "query"
                else [str(pipe), "--schema", str(tmp_path / "stats.xsd")])
        status = main([command, *args])
    finally:
        # A reader opened without blocking lets a writer still waiting for one go (the document fits in the pipe's
        # buffer); a blocking open would wait for ever when the writer has written and is only slow to exit.
        drain = os.open(pipe, os.O_RDONLY | os.O_NONBLOCK)
        try:
            writer.wait(timeout=600)
        finally:
            os.close(drain)
    captured = capsys.readouterr()
    assert status == 0, captured.err
    expected = "40.46%\n40.34%\n" if command == "query" else f"{pipe}: valid against {tmp_path / 'stats.xsd'}\n"
    assert captured.out == expected

def test_transform_of_text_that_is_not_xml(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    document = tmp_path / "a.xml"
    document.write_text("<a>")
    assert main(["transform", str(STYLESHEETS / "rename.xsl"), str(document)]) == 14  # bad-xml: the input's fault
    assert "not well-formed" in capsys.readouterr().err
    assert main(["transform", str(tmp_path / "none.xsl"), str(document)]) == 3


# -- convert: user steps, parameters, stages -----------------------------------------------------------------------
def test_convert_with_a_user_stylesheet_and_parameters(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    stages = tmp_path / "stages"
    assert main(["convert", str(PAPER), "--xslt", str(STYLESHEETS / "rename.xsl"), "--param", "root=stats",
                 "--method", "markup", "--keep-stages", str(stages)]) == 0
    captured = capsys.readouterr()
    root = etree.fromstring(captured.out.encode())
    assert root.tag == "stats" and len(root) == 6
    assert "pyxform: warning: " in captured.err and "rename: 6 values" in captured.err
    assert sorted(p.name for p in stages.iterdir()) == ["00-clean.xhtml", "01-normalize.xml", "02-headers.xml",
                                                       "03-map.xml", "04-merge.xml", "05-rename.xml"]
    headers = etree.parse(str(stages / "02-headers.xml")).getroot().find("{urn:pyxform}table")
    assert headers.get("header-method") == "markup"


def test_convert_keep_stages_for_several_inputs(tmp_path: Path) -> None:
    other = tmp_path / "other.html"
    other.write_bytes(TWO_TABLES)
    assert main(["convert", str(PAPER), str(other), "-o", str(tmp_path / "out"),
                 "--keep-stages", str(tmp_path / "stages")]) == 0
    assert sorted(p.name for p in (tmp_path / "stages").iterdir()) == ["input", "other"]
    assert len(list((tmp_path / "stages" / "other").iterdir())) == 5


def test_convert_parameter_mistakes_are_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["convert", str(PAPER), "--param", "root=x"])
    assert exited.value.code == 2
    assert "no stylesheet of yours takes it" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["convert", str(PAPER), "--allow-io"])
    with pytest.raises(SystemExit):
        main(["convert", str(PAPER), "--xslt", str(STYLESHEETS / "rename.xsl"), "--format", "csv"])
    with pytest.raises(SystemExit):
        main(["convert", str(PAPER), "--param", "novalue"])


# -- formats -------------------------------------------------------------------------------------------------------
def test_csv_to_standard_output_for_one_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["convert", str(PAPER), "--format", "csv", "--separator", " > "]) == 0
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert rows[0] == ["", "Average > Height", "Average > Weight", "Ratio"]
    assert rows[2] == ["Females", "Not available", "Not available", "40.34%"]


def test_csv_of_several_tables(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "two.html"
    page.write_bytes(TWO_TABLES)
    with pytest.raises(SystemExit) as exited:
        main(["convert", str(page), "--format", "csv"])
    assert exited.value.code == 2
    assert "2 tables (0, 1)" in capsys.readouterr().err
    assert main(["convert", str(page), "--format", "csv", "-o", str(tmp_path / "t.csv")]) == 0
    assert (tmp_path / "t-0.csv").read_bytes() == b"A,B\r\nx,1\r\n"
    assert (tmp_path / "t-1.csv").read_bytes() == b"C\r\n2\r\n"
    assert main(["convert", str(page), "--format", "csv", "--table", "1"]) == 0
    assert capsys.readouterr().out == "C\r\n2\r\n"
    out = tmp_path / "many"
    assert main(["convert", str(page), str(PAPER), "--format", "csv", "-o", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["input.csv", "two-0.csv", "two-1.csv"]


def test_json_and_xhtml(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["convert", str(PAPER), "--format", "json", "--table", "0"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["population-statistics"]["females"]["ratio"] == "40.34%"
    out = tmp_path / "paper.xhtml"
    assert main(["convert", str(PAPER), "--format", "xhtml", "-o", str(out)]) == 0
    page = etree.parse(str(out)).getroot()
    assert page.tag == "{http://www.w3.org/1999/xhtml}html"
    assert main(["convert", str(out), "--format", "pairs"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 6


def test_json_after_a_user_stylesheet(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["convert", str(PAPER), "--format", "json", "--xslt", str(STYLESHEETS / "rename.xsl"),
                 "--param", "limit=1"]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "dataset": {"value": {"@path": "Males/Average/Height", "#text": "1.78"}}}
