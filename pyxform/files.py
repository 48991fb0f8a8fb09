"""Writing output files safely.

An output is written into a temporary file beside it, then renamed over it (:func:`atomic_write`). The temporary
file's name says whose it is: ``.NAME.pyxform-PID-RANDOM.tmp`` (``NAME`` the output's name, at most 100 characters,
``PID`` the writing process). It is removed when the write fails, on Ctrl-C (``KeyboardInterrupt``), and on SIGTERM
to the ``pyxform`` command (:func:`pyxform.cli.main` turns it into ``SystemExit``). A process killed outright
(SIGKILL, a crash, power loss; the worker process stopped at ``--timeout`` while it wrote a ``--keep-stages`` file)
leaves its file behind: the first write of a later process into that folder removes the pyxform temporary files
whose process no longer runs on this machine (:func:`remove_stale_temporaries`). On a folder shared by several
machines a process id may name a process of another machine: such files are left (they may still be written).
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path
from typing import Final

__all__ = ["atomic_write", "remove_stale_temporaries", "TEMPORARY_PATTERN"]

#: The names of pyxform's temporary files: ``.NAME.pyxform-PID-RANDOM.tmp`` (group 1: the process id).
TEMPORARY_PATTERN: Final = re.compile(r"^\..*\.pyxform-([0-9]+)-[^.]+\.tmp$", re.DOTALL)
_NAME_IN_TEMPORARY: Final = 100
_cleaned_folders: set[str] = set()


def atomic_write(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` atomically: into a temporary file in the same folder, flushed and fsync'ed, then
    renamed over ``path`` (``os.replace``). A reader sees the old file or the whole new one, never a part; on error
    (and on ``KeyboardInterrupt``/``SystemExit``) the temporary file is removed and ``path`` is left as it was.
    The first write into a folder in a process removes the temporary files killed writers left there
    (:func:`remove_stale_temporaries`).

    :raises OSError: the folder does not exist or is not writable, the disk is full, ...
    """
    target = Path(path)
    folder = os.path.abspath(target.parent)
    if folder not in _cleaned_folders:
        _cleaned_folders.add(folder)
        remove_stale_temporaries(target.parent)
    prefix = f".{target.name[:_NAME_IN_TEMPORARY]}.pyxform-{os.getpid()}-"
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=prefix, suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, 0o666 & ~_umask())
        os.replace(temporary, target)
    except BaseException:
        try:
            os.unlink(temporary)
        except FileNotFoundError:
            pass
        raise


def remove_stale_temporaries(folder: str | os.PathLike[str]) -> list[Path]:
    """Remove the temporary files of :func:`atomic_write` in ``folder`` whose writing process is no longer running.

    A file is removed only if its name matches :data:`TEMPORARY_PATTERN` and no process with its process id runs
    on this machine (this process's own files and those of running processes are kept). Never raises: a folder or
    file that cannot be read or removed is left.

    :returns: the files removed.
    """
    removed: list[Path] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        match = TEMPORARY_PATTERN.match(entry.name)
        if match is None or _running(int(match.group(1))):
            continue
        try:
            if entry.is_file(follow_symlinks=False):
                os.unlink(entry.path)
                removed.append(Path(entry.path))
        except OSError:
            pass
    return removed


def _running(pid: int) -> bool:
    """Whether a process with this id runs on this machine (one of another user counts as running)."""
    if pid == os.getpid() or os.name == "nt":  # on Windows os.kill(pid, 0) would end the process
        return True
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True
    return True


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
