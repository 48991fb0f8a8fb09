"""Where the commands write: ``-o`` naming a named pipe, a symbolic link or a descriptor is written to, never replaced
(pyxform.files.atomic_write)."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from pyxform.cli import main

PAPER = Path(__file__).parent / "data" / "cases" / "paper-example" / "input.html"
TWO_TABLES = b"<table><tr><th>A<th>B<tr><td>x<td>1</table><p>and<table><tr><th>C<tr><td>2</table>"
IDENTITY = b"""<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
  <xsl:mode on-no-match="shallow-copy"/>
</xsl:stylesheet>"""

needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")


def _read_all(descriptor: int) -> bytes:
    chunks = []
    while True:
        try:
            chunk = os.read(descriptor, 65536)
        except BlockingIOError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks)


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
