"""Usage errors as a new user meets them: one line and a pointer to the command's ``--help`` (as git does), never
the whole usage; ``--table abc`` says what it takes; ``grid`` and ``headers`` refuse ``-o`` saying what to do;
``--separator`` outside CSV is refused; an unknown option is named by the command it was given to."""

from __future__ import annotations

from pathlib import Path

import pytest

from pyxform.cli import main
from pyxform.cli.main import COMMANDS

from .cli_helpers import page  # noqa: F401 (a fixture)


def usage(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """Standard error of a usage error (exit 2), with nothing on standard output."""
    with pytest.raises(SystemExit) as exited:
        main(list(argv))
    assert exited.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    return captured.err


@pytest.mark.parametrize(("argv", "line"), [
    (["convert", "{page}", "--table", "abc"], "pyxform convert: error: argument --table: takes a table's index, a "
                                             "whole number 0 or more (0 is the first table of the page), not 'abc'"),
    (["grid", "{page}", "--table", "-1"], "pyxform grid: error: argument --table: takes a table's index, a whole "
                                         "number 0 or more (0 is the first table of the page), not '-1'"),
    (["convert", "{page}", "--max-slots", "many"],
     "pyxform convert: error: argument --max-slots: takes a whole number, 0 or more, not 'many'"),
    (["headers", "{page}", "--timeout", "soon"],
     "pyxform headers: error: argument --timeout: takes a number of seconds, 0 or more (e.g. 30 or 0.5), not 'soon'"),
    (["convert", "{page}", "--bogus"], "pyxform convert: error: unrecognized arguments: --bogus"),
    (["grid", "{page}", "-o", "out.xml"], "pyxform grid: error: `pyxform grid` writes to standard output and takes no "
                                         "-o: redirect it instead (pyxform grid {page} > out.xml)"),
    (["headers", "{page}", "--output", "h.xml"], "pyxform headers: error: `pyxform headers` writes to standard "
                                                "output and takes no -o: redirect it instead (pyxform headers {page} > "
                                                "h.xml)"),
    (["convert", "{page}", "--separator", ";"], "pyxform convert: error: --separator joins the levels of a header "
                                               "path in CSV: it goes with --format csv"),
    (["convert", "{page}", "--param", "x"], "pyxform convert: error: --param takes NAME=VALUE, not 'x'"),
    (["frob"], "pyxform: error: argument COMMAND: invalid choice: 'frob' (choose from "
               + ", ".join(repr(command.name) for command in COMMANDS) + ")"),
])
def test_a_usage_error_is_one_line_and_a_pointer_to_help(page: Path, capsys: pytest.CaptureFixture[str],
                                                         argv: list[str], line: str) -> None:
    argv = [word.format(page=page) for word in argv]
    command = "pyxform" if argv[0] == "frob" else f"pyxform {argv[0]}"
    assert usage(capsys, *argv) == f"{line.format(page=page)}\nSee '{command} --help'.\n"


def test_the_separator_goes_with_csv(page: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    two = tmp_path / "two.html"
    two.write_bytes(b"<table><tr><th colspan=2>Size</th></tr><tr><th>W</th><th>H</th></tr><tr><td>1</td><td>2</td>"
                    b"</tr></table>")
    assert main(["convert", str(two), "--format", "csv", "--separator", " > ", "--timeout", "0",
                 "--max-memory", "0"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "Size > W,Size > H"
