"""Atomic output writes (pyxform.files.atomic_write)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pyxform.files import atomic_write


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
