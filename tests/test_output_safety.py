"""Nothing lost (issue 7): ``convert -o`` interrupted (Ctrl-C, kill) or failing to write (disk full) leaves the old
file or the new one, never a half-written one; each input of a batch is independent and the run ends with a summary.

The interrupted runs are real ``pyxform convert`` processes whose writes are slowed down (a patched ``os.fdopen``
writes half the output, says so, and sleeps), so the signal arrives in the middle of the write."""

from __future__ import annotations

import errno
import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pyxform.cli import main

PAGE = b"<table><tr><th>Name</th><th>Size</th></tr>" + b"<tr><td>item</td><td>12</td></tr>" * 200 + b"</table>"
OLD = b"<old>the previous output</old>\n"

# Runs the CLI with every file write cut in two: the first half is written, a marker file appears, then it sleeps.
SLOW_WRITER = """
import os, sys, time
real_fdopen = os.fdopen
class Slow:
    def __init__(self, stream): self.stream = stream
    def write(self, data):
        self.stream.write(data[: len(data) // 2]); self.stream.flush()
        open(sys.argv[1], "w").close()
        time.sleep(3600)  # until the signal: never long enough to finish first, however busy the machine
        self.stream.write(data[len(data) // 2:])
    def __getattr__(self, name): return getattr(self.stream, name)
    def __enter__(self): return self
    def __exit__(self, *exc): return self.stream.__exit__(*exc)
os.fdopen = lambda *a, **k: Slow(real_fdopen(*a, **k))
from pyxform.cli import main
sys.exit(main(sys.argv[2:]))
"""


def interrupted_run(tmp_path: Path, sig: signal.Signals) -> tuple[subprocess.CompletedProcess[bytes] | int, Path]:
    page, out, marker = tmp_path / "page.html", tmp_path / "out.xml", tmp_path / "writing"
    page.write_bytes(PAGE)
    out.write_bytes(OLD)
    process = subprocess.Popen([sys.executable, "-c", SLOW_WRITER, str(marker), "convert", str(page), "-o", str(out)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 600  # a ceiling for a very busy machine, never reached otherwise
    while not marker.exists():
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the write never started"
        time.sleep(0.05)
    temporaries = [p for p in tmp_path.iterdir() if p.name.startswith(".out.xml.")]
    assert len(temporaries) == 1 and 0 < temporaries[0].stat().st_size  # half the output is on disk
    process.send_signal(sig)
    stdout, stderr = process.communicate(timeout=600)
    return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr), out


def test_ctrl_c_during_the_write_keeps_the_old_file(tmp_path: Path) -> None:
    result, out = interrupted_run(tmp_path, signal.SIGINT)
    assert result.returncode == 130
    assert result.stderr.decode().splitlines()[-1] == "pyxform convert: interrupted"  # said, with no traceback
    assert out.read_bytes() == OLD
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.xml", "page.html", "writing"]  # temporary removed


def test_kill_during_the_write_keeps_the_old_file(tmp_path: Path) -> None:
    result, out = interrupted_run(tmp_path, signal.SIGKILL)
    assert result.returncode == -signal.SIGKILL
    assert out.read_bytes() == OLD
    # Only a hidden temporary beside it can remain (nothing can run after SIGKILL); the output is whole.
    assert {p.name for p in tmp_path.iterdir() if not p.name.startswith(".out.xml.")} == {"out.xml", "page.html",
                                                                                         "writing"}


def _small_files() -> None:  # in the child, before exec: writes past 4 KB fail with EFBIG ("file too large")
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))


def test_a_full_disk_keeps_the_old_file_and_says_so(tmp_path: Path) -> None:
    page, out = tmp_path / "page.html", tmp_path / "out.xml"
    page.write_bytes(PAGE)
    out.write_bytes(OLD)
    result = subprocess.run([sys.executable, "-m", "pyxform", "convert", str(page), "-o", str(out)],
                            capture_output=True, text=True, preexec_fn=_small_files, check=False)
    assert result.returncode == 15, result.stderr
    assert result.stderr == (f"pyxform: error [output]: {out}: cannot write the output: File too large "
                             "(the old file is intact)\n")
    assert out.read_bytes() == OLD
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.xml", "page.html"]


def test_no_space_left_in_a_batch_fails_that_output_only(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    pages = []
    for name in ("a", "b", "c"):
        (tmp_path / f"{name}.html").write_bytes(PAGE.replace(b"item", name.encode()))
        pages.append(str(tmp_path / f"{name}.html"))
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / "b.xml").write_bytes(OLD)
    real_fsync = os.fsync
    calls = []

    def fsync(fd: int) -> None:
        calls.append(fd)
        if len(calls) == 2:  # the second output: b.xml
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    report = tmp_path / "report.jsonl"
    status = main(["convert", *pages, "-o", str(folder), "--report", str(report)])
    err = capsys.readouterr().err
    assert status == 13
    assert (folder / "b.xml").read_bytes() == OLD
    assert b"<name px:label" in (folder / "a.xml").read_bytes() and b">c<" in (folder / "c.xml").read_bytes()
    assert sorted(p.name for p in folder.iterdir()) == ["a.xml", "b.xml", "c.xml"]
    assert (f"pyxform: error [output]: {folder / 'b.xml'}: cannot write the output: No space left on device "
            "(the old file is intact)") in err
    assert err.splitlines()[-1] == f"pyxform: 1 of 3 inputs failed (output: 1): {pages[1]}; 2 converted"
    statuses = [json.loads(line)["status"] for line in report.read_text().splitlines()]
    assert statuses == ["ok", "failed", "ok"]


def test_standard_output_on_a_full_device_is_a_clear_error(tmp_path: Path) -> None:
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full on this system")
    page = tmp_path / "page.html"
    page.write_bytes(PAGE)
    for command in (["convert", str(page)], ["grid", str(page)]):
        with open("/dev/full", "wb") as full:
            result = subprocess.run([sys.executable, "-m", "pyxform", *command], stdout=full, stderr=subprocess.PIPE,
                                    text=True, check=False)
        assert result.returncode == 15
        assert result.stderr == ("pyxform: error [output]: standard output: cannot write the output: "
                                 "No space left on device\n")
