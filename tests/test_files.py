"""Atomic output writes (pyxform.files.atomic_write)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from pyxform.files import TEMPORARY_PATTERN, atomic_write, remove_stale_temporaries


def test_writes_whole_file_and_leaves_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "out.xml"
    target.write_bytes(b"old")
    atomic_write(target, b"<new/>")
    assert target.read_bytes() == b"<new/>"
    assert [p.name for p in tmp_path.iterdir()] == ["out.xml"]


def test_failure_keeps_old_file_and_removes_temporary(tmp_path: Path) -> None:
    target = tmp_path / "taken"
    target.mkdir()
    (target / "inside").write_text("x")
    with pytest.raises(OSError):
        atomic_write(target, b"data")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["taken"]
    with pytest.raises(FileNotFoundError):
        atomic_write(tmp_path / "missing-folder" / "out.xml", b"data")


def test_temporary_name_says_whose_it_is_and_is_removed_on_interrupt(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "out.xml"
    target.write_bytes(b"old")
    seen: list[str] = []

    def interrupted_replace(source: str, destination: object) -> None:
        seen.append(Path(source).name)
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted_replace)
    with pytest.raises(KeyboardInterrupt):
        atomic_write(target, b"new")
    assert len(seen) == 1 and seen[0].startswith(f".out.xml.pyxform-{os.getpid()}-")
    match = TEMPORARY_PATTERN.match(seen[0])
    assert match is not None and int(match.group(1)) == os.getpid()
    assert [p.name for p in tmp_path.iterdir()] == ["out.xml"] and target.read_bytes() == b"old"


def test_leftovers_of_dead_writers_are_removed_by_the_next_write(tmp_path: Path) -> None:
    dead = subprocess.Popen([sys.executable, "-c", "pass"])  # a process id that no longer runs
    dead.wait()
    names = {
        "dead": f".out.xml.pyxform-{dead.pid}-k3j_x9.tmp",
        "own": f".page.xml.pyxform-{os.getpid()}-a1b2c3.tmp",
        "running": f".page.xml.pyxform-{os.getppid()}-zz.tmp",
        "not ours": ".out.xml.k3j_x9.tmp",
    }
    for name in names.values():
        (tmp_path / name).write_bytes(b"partial")
    atomic_write(tmp_path / "out.xml", b"<new/>")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [names["own"], names["running"], names["not ours"], "out.xml"])
    assert remove_stale_temporaries(tmp_path) == []
    assert remove_stale_temporaries(tmp_path / "missing") == []


@pytest.mark.skipif(sys.platform == "win32", reason="SIGTERM is POSIX")
def test_sigterm_to_the_command_removes_the_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "out.xml"
    target.write_bytes(b"old")
    # the command line's handler, then a write whose fsync takes long: SIGTERM arrives while the file is open
    script = ("import os, sys, time\n"
              "from pyxform import cli, files\n"
              "cli._exit_on_sigterm()\n"
              "os.fsync = lambda fd: (print('writing', flush=True), time.sleep(30))\n"
              f"files.atomic_write({str(target)!r}, b'new')\n")
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE)
    assert child.stdout is not None and child.stdout.readline() == b"writing\n"
    assert len(list(tmp_path.iterdir())) == 2  # the temporary file exists
    child.send_signal(signal.SIGTERM)
    assert child.wait(timeout=20) == 143
    assert [p.name for p in tmp_path.iterdir()] == ["out.xml"] and target.read_bytes() == b"old"
