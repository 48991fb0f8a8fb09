"""Writing output files safely.

An output is written into a temporary file beside it, then renamed over it (:func:`atomic_write`). The temporary
file's name says whose it is: ``.NAME.pyxform-PID-RANDOM.tmp`` (``NAME`` the output's name, at most 100 characters,
``PID`` the writing process). It is removed when the write fails, on Ctrl-C (``KeyboardInterrupt``), and on SIGTERM
to the ``pyxform`` command (:func:`pyxform.cli.main.main` turns it into ``SystemExit``). A process killed outright
(SIGKILL, a crash, power loss; the worker process stopped at ``--timeout`` while it wrote a ``--keep-stages`` file)
leaves its file behind: the first write of a later process into that folder removes the pyxform temporary files
whose process no longer runs on this machine (:func:`remove_stale_temporaries`). On a folder shared by several
machines a process id may name a process of another machine: such files are left (they may still be written).

Only a regular file (or a name that does not exist yet) is replaced so. A symbolic link is followed: the file it points
to is written atomically and the link stays. An output that exists and is not a regular file (a character or block
device such as ``/dev/null``, a named pipe, a socket) and a name of an open file descriptor (``/dev/stdout``,
``/dev/fd/N`` of a shell's ``>(command)``, ``/proc/PID/fd/N``) are written to in place, as ``cat > NAME`` would:
never removed nor replaced by a regular file (:func:`writes_in_place`); a descriptor that names a regular file is
appended to (the shell opened it, with ``>`` or ``>>``). A named pipe with no reader blocks until one opens it.
"""

from __future__ import annotations

import os
import re
import stat
import tempfile
from pathlib import Path
from typing import Final

__all__ = ["atomic_write", "writes_in_place", "resolve_output", "remove_stale_temporaries", "TEMPORARY_PATTERN"]

#: The names of pyxform's temporary files: ``.NAME.pyxform-PID-RANDOM.tmp`` (group 1: the process id).
TEMPORARY_PATTERN: Final = re.compile(r"^\..*\.pyxform-([0-9]+)-[^.]+\.tmp$", re.DOTALL)
_NAME_IN_TEMPORARY: Final = 100
#: The folders whose entries are a process's open file descriptors (Linux ``/proc/PID/fd``, BSD and macOS ``/dev/fd``).
_DESCRIPTOR_FOLDER: Final = re.compile(r"/proc/(?:self|thread-self|[0-9]+)(?:/task/[0-9]+)?/fd|/dev/fd")
_MAX_LINKS: Final = 40  # as Linux's limit on symbolic links followed in one path
_cleaned_folders: set[str] = set()


def writes_in_place(path: str | os.PathLike[str]) -> bool:
    """Whether :func:`atomic_write` writes ``path`` in place (opened and written, no temporary file, no rename)
    rather than replacing it: ``path`` names an open file descriptor (``/dev/stdout``, ``/dev/fd/N``,
    ``/proc/PID/fd/N``, or a symbolic link to one), or exists (symbolic links followed) and is neither a regular file
    nor a folder (a device, a named pipe, a socket). A regular file, a folder and a name that does not exist give
    ``False``. Never raises.
    """
    if _names_descriptor(path):
        return True
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def resolve_output(path: str | os.PathLike[str]) -> Path:
    """The file an output named ``path`` is written to: ``path`` with its symbolic links resolved (also a link to a
    name that does not exist yet), as an absolute path. For a path :func:`writes_in_place` writes, ``path`` itself
    (absolute), since the link of a descriptor (``pipe:[1234]``) is no path.

    :raises OSError: the symbolic links make a loop (``ELOOP``), or a folder on the way cannot be read.
    """
    if writes_in_place(path):
        return Path(os.path.abspath(path))
    try:
        return Path(os.path.realpath(path, strict=True))
    except FileNotFoundError:  # a new file, or a link to one: resolve what exists
        return Path(os.path.realpath(path))


def _names_descriptor(path: str | os.PathLike[str]) -> bool:
    """Whether ``path``, or a symbolic link it leads through, is an entry of a descriptor folder (``/dev/fd/1``,
    ``/proc/self/fd/3``): such an entry is the open file of a descriptor, whatever its link text says."""
    current = os.path.abspath(path)
    for _ in range(_MAX_LINKS):
        try:
            folder = os.path.realpath(os.path.dirname(current))
        except (OSError, ValueError):
            return False
        if _DESCRIPTOR_FOLDER.fullmatch(folder):
            return True
        try:
            link = os.readlink(current)
        except (OSError, ValueError):  # not a link (or gone): the end of the chain
            return False
        current = os.path.normpath(os.path.join(os.path.dirname(current), link))
    return False


def _write_in_place(path: str | os.PathLike[str], data: bytes) -> None:
    """Open ``path`` for writing without creating, truncating or replacing it, and write all of ``data`` (a regular
    file reached through a descriptor's name is appended to)."""
    flags = os.O_WRONLY | getattr(os, "O_CLOEXEC", 0)
    if stat.S_ISREG(os.stat(path).st_mode):
        flags |= os.O_APPEND
    descriptor = os.open(path, flags)  # a named pipe: waits for a reader
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(descriptor, view):]
    finally:
        os.close(descriptor)


def atomic_write(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` atomically: into a temporary file in the same folder, flushed and fsync'ed, then
    renamed over ``path`` (``os.replace``). A reader sees the old file or the whole new one, never a part; on error
    (and on ``KeyboardInterrupt``/``SystemExit``) the temporary file is removed and ``path`` is left as it was.
    The first write into a folder in a process removes the temporary files killed writers left there
    (:func:`remove_stale_temporaries`).

    A symbolic link is followed (the file it points to is replaced; the link stays). A device, named pipe, socket
    or file descriptor's name (:func:`writes_in_place`) is written to in place, never replaced: a named pipe's reader
    gets the data (the write waits for a reader to open it), ``/dev/null`` stays a device.

    :raises IsADirectoryError: ``path`` is a folder.
    :raises OSError: the folder does not exist or is not writable, the disk is full, ...
    """
    if writes_in_place(path):
        _write_in_place(path, data)
        return
    target = resolve_output(path)
    if target.is_dir():
        raise IsADirectoryError(21, "Is a directory", str(path))
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
