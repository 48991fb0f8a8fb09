"""Helpers of the search tests: the test pages, index builds in this process, the CLI as a process."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data" / "search"
LINKED = ("lakes.html", "rivers.html", "fells.html", "notables.html")


def copy_pages(folder: Path, names: tuple[str, ...] = LINKED) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        shutil.copyfile(DATA / name, folder / name)
    return folder


def build(index: Path, inputs: list[Path | str], **options):
    """``build_index`` with pages converted in this process (no worker start)."""
    from pyxform.wings.search.index import build_index

    return build_index(index, [str(item) for item in inputs], isolated=False, **options)


def pyxform(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """The ``pyxform`` command as a new process (UTF-8 output)."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run([sys.executable, "-m", "pyxform", *args], capture_output=True, text=True,
                          encoding="utf-8", timeout=timeout, env=env)
