"""Where the commands write: ``-o`` naming a named pipe, a symbolic link or a descriptor is written to, never replaced
(pyxform.base.files.atomic_write)."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from pyxform.cli import main

from .test_files import _read_all

try:
    import resource
except ImportError:  # not POSIX
    resource = None  # type: ignore[assignment]

PAPER = Path(__file__).parent / "data" / "cases" / "paper-example" / "input.html"
TWO_TABLES = b"<table><tr><th>A<th>B<tr><td>x<td>1</table><p>and<table><tr><th>C<tr><td>2</table>"
IDENTITY = b"""<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
  <xsl:mode on-no-match="shallow-copy"/>
</xsl:stylesheet>"""

needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")


def _run_into_fifo(tmp_path: Path, argv: list[str]) -> tuple[int, bytes, Path]:
    """Run the command with ``-o FIFO`` while a reader waits on the named pipe; the exit code, what the reader got,
    and the pipe."""
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        code = main([*argv, "-o", str(fifo)])
        received = _read_all(reader)
    finally:
        os.close(reader)
    return code, received, fifo


# -- 1: named pipes, symbolic links, descriptors -----------------------------------------------------------------
@needs_fifo
def test_convert_into_a_named_pipe_feeds_its_reader(tmp_path: Path) -> None:
    code, received, fifo = _run_into_fifo(tmp_path, ["convert", str(PAPER), "--format", "csv"])
    assert code == 0
    assert received == (b",Average / Height,Average / Weight,Ratio\r\nMales,1.78,75,40.46%\r\n"
                        b"Females,Not available,Not available,40.34%\r\n")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["out.fifo"]


@needs_fifo
def test_transform_and_schema_into_a_named_pipe(tmp_path: Path) -> None:
    stylesheet, document = tmp_path / "id.xsl", tmp_path / "doc.xml"
    stylesheet.write_bytes(IDENTITY)
    document.write_bytes(b"<stats><males><ratio>40.46%</ratio></males></stats>")
    code, received, fifo = _run_into_fifo(tmp_path, ["transform", str(stylesheet), str(document)])
    assert code == 0 and b"<ratio>40.46%</ratio>" in received
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    fifo.unlink()
    code, received, fifo = _run_into_fifo(tmp_path, ["schema", str(document)])
    assert code == 0 and b'<xs:element name="stats"' in received
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["doc.xml", "id.xsl", "out.fifo"]


@needs_fifo
def test_csv_of_several_tables_into_one_stream_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                                          ) -> None:
    page = tmp_path / "two.html"
    page.write_bytes(TWO_TABLES)
    with pytest.raises(SystemExit) as stopped:
        _run_into_fifo(tmp_path, ["convert", str(page), "--format", "csv"])
    assert stopped.value.code == 2
    assert "the page has 2 tables (0, 1) (-o " in capsys.readouterr().err
    # nothing named after the pipe (out.fifo-0.csv) beside it, and the pipe stays a pipe
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.fifo", "two.html"]
    assert stat.S_ISFIFO(os.lstat(tmp_path / "out.fifo").st_mode)


@needs_fifo
def test_schema_beside_a_named_pipe_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    with pytest.raises(SystemExit) as stopped:
        main(["convert", str(PAPER), "-o", str(fifo), "--schema"])
    assert stopped.value.code == 2
    assert "--schema writes the schema beside the output" in capsys.readouterr().err
    assert [p.name for p in tmp_path.iterdir()] == ["out.fifo"]  # no out.xsd created beside it


def test_convert_through_a_symbolic_link_keeps_the_link(tmp_path: Path) -> None:
    real = tmp_path / "data" / "stats.xml"
    real.parent.mkdir()
    real.write_bytes(b"<old/>")
    link = tmp_path / "stats.xml"
    link.symlink_to(real)
    assert main(["convert", str(PAPER), "-o", str(link), "--schema"]) == 0
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_bytes().startswith(b'<?xml version="1.0" encoding="UTF-8"?>\n<pyxform')
    assert (tmp_path / "stats.xsd").is_file()  # the schema goes beside the name given


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc/self/fd (Linux)")
def test_convert_to_the_name_of_its_standard_output(tmp_path: Path) -> None:
    # `pyxform convert page.html -o /dev/stdout >> log`, with /proc/self/fd/1 (what /dev/stdout links to)
    log = tmp_path / "log"
    log.write_bytes(b"earlier\n")
    with open(log, "ab") as stream:
        result = subprocess.run([sys.executable, "-m", "pyxform", "convert", str(PAPER), "--format", "csv",
                                 "-o", "/proc/self/fd/1"], stdout=stream, stderr=subprocess.PIPE, check=False)
    assert result.returncode == 0, result.stderr
    assert log.read_bytes() == (b"earlier\n,Average / Height,Average / Weight,Ratio\r\nMales,1.78,75,40.46%\r\n"
                                b"Females,Not available,Not available,40.34%\r\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["log"]


# -- 2: an output that is one of the inputs is refused before anything is read or written -----------------------
def _refused(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """Run ``argv``; it must fail with exit code 15 ([output]); its standard error."""
    assert main(argv) == 15
    captured = capsys.readouterr()
    assert captured.out == ""
    return captured.err


def test_convert_onto_its_own_input_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "same.html"
    page.write_bytes(PAPER.read_bytes())
    err = _refused(capsys, ["convert", str(page), "-o", str(page)])
    assert err == (f"pyxform: error [output]: -o {page} is the input {page}: writing it would destroy the input; "
                   "give another output\n")
    assert page.read_bytes() == PAPER.read_bytes()
    # the same file under another name: a symbolic link, a hard link
    link, hard = tmp_path / "link.html", tmp_path / "hard.html"
    link.symlink_to(page)
    os.link(page, hard)
    for other in (link, hard):
        err = _refused(capsys, ["convert", str(page), "-o", str(other)])
        assert f"-o {other} is the input {page} (the same file)" in err
    assert page.read_bytes() == PAPER.read_bytes() and link.is_symlink()


def test_a_report_onto_an_input_is_refused_before_any_page_is_read(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    first, second = tmp_path / "a.html", tmp_path / "same2.html"
    first.write_bytes(PAPER.read_bytes())
    second.write_bytes(TWO_TABLES)
    err = _refused(capsys, ["convert", str(first), str(second), "-o", str(tmp_path / "out"),
                            "--report", str(second)])
    assert f"--report {second} is the input {second}" in err
    assert second.read_bytes() == TWO_TABLES  # not emptied
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.html", "same2.html"]  # no output folder either


def test_outputs_in_a_folder_schema_csv_and_stages_are_checked_against_the_inputs(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    out.mkdir()
    inside = out / "input.xml"  # convert out/input.xml page.html -o out/ would write out/input.xml
    inside.write_bytes(b"<not-read/>")
    page = tmp_path / "page.html"
    page.write_bytes(PAPER.read_bytes())
    err = _refused(capsys, ["convert", str(inside), str(page), "-o", f"{out}/"])
    assert f"-o {out / 'input.xml'} is the input {inside}" in err
    # --schema writes OUT.xsd beside OUT.xml
    xsd = tmp_path / "stats.xsd"
    xsd.write_bytes(b"<not-read/>")
    err = _refused(capsys, ["convert", str(xsd), "-o", str(tmp_path / "stats.xml"), "--schema"])
    assert f"--schema {xsd} is the input {xsd}" in err
    # --format csv writes OUT-N.csv for a page of several tables
    table_file = tmp_path / "stats-3.csv"
    table_file.write_bytes(b"<not-read/>")
    err = _refused(capsys, ["convert", str(table_file), "--format", "csv", "-o", str(tmp_path / "stats.csv")])
    assert f"-o {table_file} is the input {table_file}" in err
    # --keep-stages writes NN-STEP.xml
    stages = tmp_path / "stages"
    stages.mkdir()
    kept = stages / "00-clean.xhtml"
    kept.write_bytes(b"<not-read/>")
    err = _refused(capsys, ["convert", str(kept), "--keep-stages", str(stages)])
    assert f"--keep-stages {kept} is the input {kept}" in err
    assert [p.read_bytes() for p in (inside, xsd, table_file, kept)] == [b"<not-read/>"] * 4
    assert sorted(p.name for p in out.iterdir()) == ["input.xml"] and sorted(p.name for p in stages.iterdir()) == [
        "00-clean.xhtml"]


def test_transform_and_schema_onto_their_inputs_are_refused(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    stylesheet, document = tmp_path / "id.xsl", tmp_path / "doc.xml"
    stylesheet.write_bytes(IDENTITY)
    document.write_bytes(b"<stats><ratio>1</ratio></stats>")
    assert "-o " + str(stylesheet) + " is the input" in _refused(
        capsys, ["transform", str(stylesheet), str(document), "-o", str(stylesheet)])
    assert "-o " + str(document) + " is the input" in _refused(
        capsys, ["transform", str(stylesheet), str(document), "-o", str(document)])
    assert "-o " + str(document) + " is the input" in _refused(capsys, ["schema", str(document), "-o", str(document)])
    named_xsd = tmp_path / "doc.xsd"  # `pyxform schema doc.xsd` would write doc.xsd beside itself
    named_xsd.write_bytes(b"<stats><ratio>1</ratio></stats>")
    assert f"the output {named_xsd} is the input {named_xsd}" in _refused(capsys, ["schema", str(named_xsd)])
    assert stylesheet.read_bytes() == IDENTITY and document.read_bytes() == b"<stats><ratio>1</ratio></stats>"
    assert named_xsd.read_bytes() == b"<stats><ratio>1</ratio></stats>"


def test_standard_input_and_urls_are_not_compared_with_outputs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                               ) -> None:
    from pyxform.jobs.outputs import refuse_inputs_as_outputs

    out = tmp_path / "out.xml"
    out.write_bytes(b"x")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "-").write_bytes(b"x")  # a file named "-" is not the input "-" (standard input)
    refuse_inputs_as_outputs(["-", "https://example.org/out.xml"], [("-o", Path("-")), ("-o", out)])


# -- 4: -o FOLDER/ and -o FILE --------------------------------------------------------------------------------------
def test_a_trailing_slash_or_an_existing_folder_is_a_folder_also_for_one_input(tmp_path: Path) -> None:
    assert main(["convert", str(PAPER), "-o", f"{tmp_path / 'new'}/"]) == 0
    assert [p.name for p in (tmp_path / "new").iterdir()] == ["input.xml"]
    assert (tmp_path / "new" / "input.xml").read_bytes().startswith(b'<?xml version="1.0" encoding="UTF-8"?>')
    existing = tmp_path / "existing"
    existing.mkdir()
    assert main(["convert", str(PAPER), "-o", str(existing), "--format", "csv"]) == 0
    assert [p.name for p in existing.iterdir()] == ["input.csv"]


def test_several_inputs_and_a_file_name_are_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                                          ) -> None:
    page = tmp_path / "two.html"
    page.write_bytes(TWO_TABLES)
    for name in ("single.xml", "out.JSON", "tables.csv"):
        with pytest.raises(SystemExit) as stopped:
            main(["convert", str(PAPER), str(page), "-o", str(tmp_path / name)])
        assert stopped.value.code == 2
        assert f"-o {tmp_path / name} names a file" in capsys.readouterr().err
    existing = tmp_path / "existing"
    existing.write_bytes(b"keep")
    with pytest.raises(SystemExit) as stopped:
        main(["convert", str(PAPER), str(page), "-o", str(existing)])
    assert stopped.value.code == 2
    assert f"-o {existing} is a file, not a folder; give a folder (-o DIR/)" in capsys.readouterr().err
    assert existing.read_bytes() == b"keep"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["existing", "two.html"]


def test_several_inputs_and_a_new_name_without_file_suffix_make_a_folder(tmp_path: Path) -> None:
    page = tmp_path / "two.html"
    page.write_bytes(TWO_TABLES)
    assert main(["convert", str(PAPER), str(page), "-o", str(tmp_path / "results")]) == 0
    assert sorted(p.name for p in (tmp_path / "results").iterdir()) == ["input.xml", "two.xml"]


# -- 3: --keep-stages DIR is checked before any page is read; a failed stage write is an [output] error -----------
def test_keep_stages_onto_a_file_fails_once_before_any_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                                            ) -> None:
    taken = tmp_path / "stages"
    taken.write_bytes(b"keep")
    missing = tmp_path / "missing.html"  # read first, it would fail with exit code 3
    for inputs in ([str(missing)], [str(PAPER), str(missing)]):
        output = ["-o", str(tmp_path / "out")] if len(inputs) > 1 else []
        err = _refused(capsys, ["convert", *inputs, *output, "--keep-stages", str(taken)])
        assert err == f"pyxform: error [output]: {taken}: --keep-stages needs a folder: this is a file\n"
    assert taken.read_bytes() == b"keep" and sorted(p.name for p in tmp_path.iterdir()) == ["stages"]


def test_keep_stages_that_cannot_be_created_fails_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "file").write_bytes(b"")
    folder = tmp_path / "file" / "stages"
    err = _refused(capsys, ["convert", str(PAPER), str(PAPER), "-o", str(tmp_path / "out"),
                            "--keep-stages", str(folder)])
    assert err == (f"pyxform: error [output]: {folder}: cannot write into the --keep-stages folder: "
                   "Not a directory\n")
    assert "crash" not in err and not (tmp_path / "out").exists()


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root writes into any folder")
def test_keep_stages_in_a_read_only_folder_fails_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "stages"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        err = _refused(capsys, ["convert", str(PAPER), "--keep-stages", str(folder)])
    finally:
        folder.chmod(0o700)
    assert err == f"pyxform: error [output]: {folder}: cannot write into the --keep-stages folder: Permission denied\n"


def test_a_file_where_an_inputs_stage_folder_goes_fails_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                                              ) -> None:
    stages = tmp_path / "stages"
    stages.mkdir()
    (stages / "input").write_bytes(b"keep")  # convert input.html two.html --keep-stages stages: stages/input/
    page = tmp_path / "two.html"
    page.write_bytes(TWO_TABLES)
    err = _refused(capsys, ["convert", str(PAPER), str(page), "-o", str(tmp_path / "out"),
                            "--keep-stages", str(stages)])
    assert err.startswith(f"pyxform: error [output]: {stages / 'input'}: --keep-stages: a file stands where")
    assert (stages / "input").read_bytes() == b"keep"


def _files_up_to_4_kib() -> None:  # in the child, before exec: a write past 4 KiB fails with EFBIG (a full disk)
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))


@pytest.mark.skipif(resource is None, reason="needs RLIMIT_FSIZE (POSIX)")
@pytest.mark.parametrize("isolated", [True, False], ids=["worker", "in-process"])
def test_a_stage_that_cannot_be_written_is_an_output_error(tmp_path: Path, isolated: bool) -> None:
    # The paper example's stages: 00-clean.xhtml has 3 kB, 01-normalize.xml 6 kB: the second write fails.
    limits = [] if isolated else ["--timeout", "0", "--max-memory", "0"]
    stages = tmp_path / "stages"
    result = subprocess.run([sys.executable, "-m", "pyxform", "convert", str(PAPER), "--keep-stages", str(stages),
                             *limits], capture_output=True, text=True, preexec_fn=_files_up_to_4_kib, check=False)
    assert result.returncode == 15, result.stderr
    assert result.stdout == ""
    assert result.stderr == (f"pyxform: error [output]: {stages / '01-normalize.xml'}: cannot write the stage "
                             "normalize (--keep-stages): File too large\n")
    assert [p.name for p in stages.iterdir()] == ["00-clean.xhtml"]  # and no temporary file left


def test_pipeline_keep_stages_into_a_file_raises_output_error(tmp_path: Path) -> None:
    from pyxform.base.errors import OutputError
    from pyxform.api.pipeline import CONVERSION

    (tmp_path / "file").write_bytes(b"")
    with pytest.raises(OutputError) as raised:
        CONVERSION.run(PAPER.read_bytes(), keep_stages=tmp_path / "file")
    assert raised.value.location == str(tmp_path / "file" / "00-clean.xhtml")
    assert raised.value.exit_code == 15


# -- 5: a page whose every table failed is a failed page; headers --format json lists failures as grid does -------
ONE_TABLE = b"<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>"
SLOT_FAILURE = "the table has 2 rows and at least 2 columns: more than max_slots = 2 slots"


@pytest.mark.parametrize("output_format", ["csv", "xml", "pairs"])
def test_a_page_whose_every_table_failed_exits_with_the_limit_code(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                   output_format: str) -> None:
    page = tmp_path / "one.html"
    page.write_bytes(ONE_TABLE)
    assert main(["convert", str(page), "--max-slots", "2", "--format", output_format]) == 7
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines()[-1] == (
        f"pyxform: error [limit]: {page}: no table of the page could be converted (1 table failed): table 0: "
        f"{SLOT_FAILURE} (raise it with --max-slots)")
    out = tmp_path / f"out.{output_format}"
    assert main(["convert", str(page), "--max-slots", "2", "--format", output_format, "-o", str(out)]) == 7
    assert not out.exists()  # nothing written for a failed page


def test_a_page_with_some_tables_converted_stays_a_success(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                                           ) -> None:
    page = tmp_path / "two.html"
    page.write_bytes(ONE_TABLE + b"<table><tr><td>x</td></tr></table>")
    assert main(["convert", str(page), "--max-slots", "2", "--format", "csv"]) == 0
    captured = capsys.readouterr()
    assert captured.out == "column-1\r\nx\r\n"
    assert SLOT_FAILURE in captured.err and "error" not in captured.err
    # the warning says it as grid and headers do
    assert captured.err == f"pyxform: warning [limit]: {page}: table 0 (/html/body[1]/table[1]): {SLOT_FAILURE}\n"


def test_in_a_batch_a_page_whose_tables_all_failed_counts_as_failed(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    import json

    page = tmp_path / "wide.html"
    page.write_bytes(b"<table><tr>" + b"<th>h</th>" * 20 + b"</tr><tr>" + b"<td>1</td>" * 20 + b"</tr></table>")
    report = tmp_path / "report.jsonl"
    out = tmp_path / "out"
    # the paper example has 16 slots, the wide page 40
    code = main(["convert", str(PAPER), str(page), "-o", f"{out}/", "--max-slots", "30", "--report", str(report)])
    assert code == 13
    records = [json.loads(line) for line in report.read_text().splitlines()]
    assert [(r["status"], r.get("code"), r.get("limit")) for r in records] == [("ok", None, None),
                                                                             ("failed", "limit", "max_slots")]
    assert sorted(p.name for p in out.iterdir()) == ["input.xml"]
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"pyxform: 1 of 2 inputs failed (limit max_slots: 1): {page}; 1 converted")


@pytest.mark.parametrize("command", ["grid", "headers"])
def test_grid_and_headers_of_a_page_whose_every_table_failed(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                             command: str) -> None:
    page = tmp_path / "one.html"
    page.write_bytes(ONE_TABLE)
    assert main([command, str(page), "--max-slots", "2", "--format", "json"]) == 7
    captured = capsys.readouterr()
    assert captured.out == ""
    assert f"pyxform: error [limit]: {page}: no table of the page could be converted" in captured.err


def test_headers_json_lists_the_failed_tables_as_grid_does(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                                           ) -> None:
    import json

    page = tmp_path / "two.html"
    page.write_bytes(ONE_TABLE + b"<table><tr><th>h</th></tr><tr><td>x</td></tr></table>")
    assert main(["grid", str(page), "--max-slots", "2", "--format", "json"]) == 0
    grid = json.loads(capsys.readouterr().out)
    assert main(["headers", str(page), "--max-slots", "2", "--format", "json"]) == 0
    headers = json.loads(capsys.readouterr().out)
    expected = [{"index": 0, "locator": "/html/body[1]/table[1]", "code": "limit", "message": SLOT_FAILURE,
                 "limit": "max_slots"}]
    assert grid["failures"] == headers["failures"] == expected
    assert [table["index"] for table in headers["tables"]] == [1]
    # a page without failures keeps the short shape
    assert main(["headers", str(PAPER), "--format", "json"]) == 0
    assert "failures" not in json.loads(capsys.readouterr().out)


def test_tables_that_failed_otherwise_than_on_a_limit_give_the_table_code() -> None:
    from pyxform.jobs import TableFailureInfo, every_table_failed

    mixed = [TableFailureInfo(0, "limit", "more than max_depth = 1 tables deep", limit="max_depth"),
             TableFailureInfo(2, "map", "bad")]
    error = every_table_failed(mixed, "p.html")
    assert (error.code, error.exit_code, error.location) == ("table", 9, "p.html")
    assert error.message == ("no table of the page could be converted (2 tables failed): table 0: more than "
                             "max_depth = 1 tables deep; table 2: bad")
    limits = every_table_failed(mixed[:1], None)
    assert (limits.code, limits.exit_code, getattr(limits, "limit")) == ("limit", 7, "max_depth")
    # the limit is data: a failure that does not name its limit is not read from its message
    unnamed = every_table_failed([TableFailureInfo(0, "limit", "more than max_depth = 1 tables deep")], None)
    assert (unnamed.code, unnamed.exit_code) == ("table", 9)


# -- outputs of one run that collide with each other: refused before anything is read -----------------------------
@pytest.mark.parametrize(("argv", "message"), [
    (["-o", "same.xml", "--report", "same.xml"], "--report same.xml is also -o"),
    (["-o", "x.xml", "--schema", "--report", "x.xsd"], "--report x.xsd is also --schema"),
    (["-o", "ks.xml", "--keep-stages", "ks.xml"], "--keep-stages {tmp}/ks.xml is also -o"),
    (["-o", "t.csv", "--format", "csv", "--report", "t-1.csv"], "--report t-1.csv is also -o"),
    (["-o", "sub/../same.xml", "--report", "same.xml"], "--report same.xml is also -o"),
])
def test_two_outputs_of_one_run_that_are_the_same_file_are_refused_up_front(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, argv: list[str],
        message: str) -> None:
    # the report was lost (-o and --report the same file, exit 0), or all the work done before failing (--keep-stages)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub").mkdir()
    page = tmp_path / "p.html"
    page.write_bytes(ONE_TABLE)
    assert main(["convert", str(page), *argv]) == 15
    assert capsys.readouterr().err == (f"pyxform: error [output]: {message.format(tmp=tmp_path)}: two outputs of this "
                                       "run would write the same file; give each its own\n")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["p.html", "sub"]  # nothing read, nothing written
