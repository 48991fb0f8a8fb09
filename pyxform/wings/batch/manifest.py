"""The batch folder's record of what is done: ``manifest.jsonl`` (one JSON object a line per page, appended as each
page finishes) and ``batch.json`` (the options the outputs were made with).

A line is written once its page's outputs are written, and flushed at once, so after a kill every line stands for
finished work; the pages that were in flight have no line and are done again by ``--resume``. A line cut short by
the kill (the last one, without its line feed) is dropped when the manifest is opened again. A page's line::

    {"key": ..., "source": ..., "status": "ok" | "no-tables" | "failed", "output": PATH | [PATH, ...] | null,
     "tables": N, "reason": null | {"code": ..., "message": ..., "limit": ...}, "seconds": S}

(``table_failures`` is added when some tables of a page failed and the others were converted.)
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Any, Final

from pyxform.base.errors import OutputError
from pyxform.base.files import atomic_write

__all__ = ["Manifest", "MANIFEST", "STATE", "read_records"]

MANIFEST: Final = "manifest.jsonl"
STATE: Final = "batch.json"


def read_records(path: Path) -> tuple[list[dict[str, Any]], int]:
    """The records of a manifest file and the length in bytes of its whole lines (a last line without its line
    feed, cut short by a kill, is not counted).

    :raises OutputError: a whole line that is not a JSON object with a ``key`` (the manifest was edited or is not
        one), naming the line.
    """
    records: list[dict[str, Any]] = []
    good = 0
    with open(path, "rb") as stream:
        for number, line in enumerate(stream, start=1):
            if not line.endswith(b"\n"):
                break
            try:
                record = json.loads(line)
            except ValueError:
                record = None
            if not isinstance(record, dict) or not isinstance(record.get("key"), str):
                raise OutputError(f"line {number} is not a page record of pyxform batch: the manifest was edited or "
                                  "is not one", location=str(path))
            records.append(record)
            good += len(line)
    return records, good


def _line(record: Mapping[str, Any]) -> str:
    """A record as one line of JSON: UTF-8 text, or ``\\u`` escapes where a string holds what UTF-8 cannot
    (a file name's undecodable bytes, kept by Python as lone surrogates)."""
    line = json.dumps(record, ensure_ascii=False)
    try:
        line.encode("utf-8")
    except UnicodeEncodeError:
        line = json.dumps(record)
    return line + "\n"


class Manifest:
    """The manifest of a batch folder, open for appending.

    :param folder: the batch folder (created if missing).
    :param options: the options that decide the outputs (format, names, ...), kept in ``batch.json``.
    :param resume: continue the batch the folder holds (its done pages are :attr:`done`); without it, a folder that
        holds a batch is refused.
    :raises OutputError: the folder cannot be created or written, it holds a batch and ``resume`` is false, it
        holds one made with other options, or another process runs a batch on it.
    """

    def __init__(self, folder: Path, options: Mapping[str, Any], *, resume: bool) -> None:
        self.folder = folder
        self.path = folder / MANIFEST
        self.done: set[str] = set()
        self.previous: Counter[str] = Counter()  # statuses of the pages done by earlier runs
        self.previous_tables = 0
        self._stream: IO[str] | None = None
        try:
            folder.mkdir(parents=True, exist_ok=True)
            self._stream = open(self.path, "a", encoding="utf-8")
        except OSError as error:
            raise OutputError(f"cannot {'write into' if folder.is_dir() else 'create'} the batch folder: "
                              f"{error.strerror or error}", location=str(folder)) from None
        try:
            self._lock()
            self._open(options, resume=resume)
        except BaseException:
            self.close()
            raise

    def _lock(self) -> None:
        """Hold an exclusive lock on the manifest while the batch runs (``flock``; over NFS Linux takes it on the
        server): a second ``pyxform batch`` on the same folder would write every page twice.

        :raises OutputError: another process holds it.
        """
        try:
            import fcntl
        except ImportError:  # not on this platform: no lock
            return
        assert self._stream is not None
        try:
            fcntl.flock(self._stream.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise OutputError("another pyxform batch is running on this folder (its manifest is locked): wait for "
                              "it to end, or give another folder", location=str(self.folder)) from None
        except OSError:  # a file system without locks: go on without
            pass

    def _open(self, options: Mapping[str, Any], *, resume: bool) -> None:
        """Check the folder's batch against ``options`` and ``resume``, read what it has done, and drop a last line
        cut short (see the class)."""
        folder = self.folder
        state_path = folder / STATE
        held = self.path.stat().st_size > 0
        if held and not resume:
            raise OutputError("this folder holds a batch already (manifest.jsonl): continue it with --resume, or give "
                              "another folder", location=str(folder))
        state = {"options": dict(options)}
        if held and state_path.exists():  # (held implies resume here)
            try:
                earlier = json.loads(state_path.read_text(encoding="utf-8"))
            except (OSError, ValueError) as error:
                raise OutputError(f"cannot read {STATE}: {error}", location=str(state_path)) from None
            earlier_options = earlier.get("options") if isinstance(earlier, dict) else None
            if earlier_options != state["options"]:
                changed = sorted(name for name in set(state["options"]) | set(earlier_options or {})
                                 if (earlier_options or {}).get(name) != state["options"].get(name))
                raise OutputError("--resume with other output options than the batch in this folder was made with ("
                                  + ", ".join(f"{name}: {(earlier_options or {}).get(name)!r} then, "
                                              f"{state['options'].get(name)!r} now" for name in changed)
                                  + "): give the same options, or another folder", location=str(folder))
        if held:
            records, good = read_records(self.path)
            if good != self.path.stat().st_size:  # a line cut short by a kill: its page is done again
                with open(self.path, "r+b") as stream:
                    stream.truncate(good)
            for record in records:
                self.done.add(record["key"])
                self.previous[str(record.get("status"))] += 1
                self.previous_tables += int(record.get("tables") or 0)
        try:
            if not held or not state_path.exists():  # a batch without a page yet takes these options
                atomic_write(state_path, (json.dumps(state, indent=2, sort_keys=True) + "\n").encode("utf-8"))
        except OSError as error:
            raise OutputError(f"cannot write into the batch folder: {error.strerror or error}",
                              location=str(folder)) from None

    def write(self, records: list[dict[str, Any]]) -> None:
        """Append page records (one line each) and flush them to the operating system.

        :raises OutputError: the manifest cannot be written (disk full, ...).
        """
        assert self._stream is not None
        try:
            self._stream.write("".join(_line(record) for record in records))
            self._stream.flush()
        except OSError as error:
            raise OutputError(f"cannot write the manifest: {error.strerror or error}",
                              location=str(self.path)) from None
        for record in records:
            self.done.add(record["key"])

    def close(self) -> None:
        """Flush and close the manifest (its data reaches the disk: ``fsync``)."""
        if self._stream is not None:
            try:
                self._stream.flush()
                os.fsync(self._stream.fileno())
            except OSError:
                pass
            self._stream.close()
            self._stream = None

    def __enter__(self) -> Manifest:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
