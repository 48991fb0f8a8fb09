"""Atomic output writes (pyxform.base.files.atomic_write)."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from pyxform.base.files import (TEMPORARY_PATTERN, atomic_write, remove_stale_temporaries, resolve_output,
                           writes_in_place)


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
              "from pyxform.base import files\nfrom pyxform.cli.main import _exit_on_sigterm\n"
              "_exit_on_sigterm()\n"
              "os.fsync = lambda fd: (print('writing', flush=True), time.sleep(3600))\n"
              f"files.atomic_write({str(target)!r}, b'new')\n")
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE)
    assert child.stdout is not None and child.stdout.readline() == b"writing\n"
    assert len(list(tmp_path.iterdir())) == 2  # the temporary file exists
    child.send_signal(signal.SIGTERM)
    assert child.wait(timeout=600) == 143  # a ceiling for a very busy machine, never reached otherwise
    assert [p.name for p in tmp_path.iterdir()] == ["out.xml"] and target.read_bytes() == b"old"


# -- outputs that are not regular files: written in place, never replaced ------------------------------------------
def _read_all(descriptor: int) -> bytes:
    """Everything a non-blocking reader gets until end of file (no writer left)."""
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


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_named_pipe_is_written_to_not_replaced(tmp_path: Path) -> None:
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # a reader waiting (so the writer's open does not block)
    try:
        assert writes_in_place(fifo)
        atomic_write(fifo, b"<new/>")
        assert _read_all(reader) == b"<new/>"
    finally:
        os.close(reader)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["out.fifo"]  # no temporary file, no regular file


def test_a_symbolic_link_is_followed_and_kept(tmp_path: Path) -> None:
    real = tmp_path / "real.xml"
    real.write_bytes(b"old")
    link = tmp_path / "link.xml"
    link.symlink_to("real.xml")
    assert not writes_in_place(link) and resolve_output(link) == real
    atomic_write(link, b"<new/>")
    assert link.is_symlink() and os.readlink(link) == "real.xml"
    assert real.read_bytes() == b"<new/>"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.xml", "real.xml"]


def test_a_dangling_link_creates_the_file_it_points_to(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    link = tmp_path / "link.xml"
    link.symlink_to(tmp_path / "sub" / "new.xml")
    atomic_write(link, b"<new/>")
    assert link.is_symlink() and (tmp_path / "sub" / "new.xml").read_bytes() == b"<new/>"
    assert [p.name for p in (tmp_path / "sub").iterdir()] == ["new.xml"]


def test_a_link_loop_is_an_error_and_stays(tmp_path: Path) -> None:
    (tmp_path / "a").symlink_to("b")
    (tmp_path / "b").symlink_to("a")
    with pytest.raises(OSError):
        atomic_write(tmp_path / "a", b"data")
    assert os.readlink(tmp_path / "a") == "b" and sorted(p.name for p in tmp_path.iterdir()) == ["a", "b"]


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc/self/fd (Linux)")
def test_a_descriptor_name_is_written_in_place(tmp_path: Path) -> None:
    # what `-o /dev/stdout` and `-o >(command)` give: a name of an open descriptor, whose link text is no path
    read_end, write_end = os.pipe()
    os.set_blocking(read_end, False)
    try:
        name = f"/proc/self/fd/{write_end}"
        link = tmp_path / "stdout"  # as /dev/stdout -> /proc/self/fd/1
        link.symlink_to(name)
        assert writes_in_place(name) and writes_in_place(link)
        assert resolve_output(link) == link
        atomic_write(name, b"one ")
        atomic_write(link, b"two")
        os.close(write_end)
        write_end = -1
        assert _read_all(read_end) == b"one two"
    finally:
        os.close(read_end)
        if write_end >= 0:
            os.close(write_end)
    assert link.is_symlink() and [p.name for p in tmp_path.iterdir()] == ["stdout"]


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc/self/fd (Linux)")
def test_a_descriptor_of_a_regular_file_is_appended_to(tmp_path: Path) -> None:
    # `pyxform ... -o /dev/stdout >> log`: the log keeps what it held, the file is not replaced
    log = tmp_path / "log"
    log.write_bytes(b"earlier\n")
    inode = log.stat().st_ino
    with open(log, "ab") as stream:
        atomic_write(f"/proc/self/fd/{stream.fileno()}", b"<new/>\n")
    assert log.read_bytes() == b"earlier\n<new/>\n" and log.stat().st_ino == inode


def test_a_socket_is_never_replaced(tmp_path: Path) -> None:
    socket_module = pytest.importorskip("socket")
    if not hasattr(socket_module, "AF_UNIX"):
        pytest.skip("no Unix sockets")
    path = tmp_path / "s.sock"
    server = socket_module.socket(socket_module.AF_UNIX, socket_module.SOCK_STREAM)
    try:
        server.bind(str(path))
        assert writes_in_place(path)
        with pytest.raises(OSError):  # a socket cannot be opened as a file: an error, not a replacement
            atomic_write(path, b"data")
        assert stat.S_ISSOCK(os.lstat(path).st_mode)
    finally:
        server.close()


def test_regular_files_folders_and_new_names_are_not_written_in_place(tmp_path: Path) -> None:
    (tmp_path / "file").write_bytes(b"x")
    assert not writes_in_place(tmp_path / "file")
    assert not writes_in_place(tmp_path)
    assert not writes_in_place(tmp_path / "new.xml")
    with pytest.raises(IsADirectoryError):
        atomic_write(tmp_path, b"data")
