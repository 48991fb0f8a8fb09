"""Where a page's outputs go, and writing them: stable names, atomic writes, and the overwrite policy.

- Names: one output file per input in a folder, named after the input (:func:`output_paths`: ``page.xml``,
  ``page-2.xml`` for a repeated name); a CSV output of several tables is one file per table (:func:`csv_paths`:
  ``OUT-INDEX.csv``).
- Writing: :func:`write_file` writes atomically (an interrupted run leaves the old file or the new one; a device,
  named pipe or ``/dev/stdout`` is written in place, :func:`pyxform.base.files.writes_in_place`);
  :func:`write_page` puts a :class:`~pyxform.jobs.page.PageResult`'s outputs where they belong.
- Overwrite policy: an output that is the same file as an input, or as another output of the run, is refused before
  anything is read or written (:func:`refuse_inputs_as_outputs`, :func:`refuse_colliding_outputs`); an existing output
  file is replaced.
"""

from __future__ import annotations

import os
import re
import stat
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import BinaryIO, Final

from ..base.errors import OutputError, UsageError
from ..base.files import atomic_write, writes_in_place
from .page import PageResult

__all__ = ["OUTPUT_SUFFIXES", "FILE_SUFFIXES", "output_paths", "output_folder", "csv_paths", "csv_pattern",
           "write_file", "write_page", "refuse_inputs_as_outputs", "refuse_colliding_outputs", "prepare_stage_folders",
           "is_file_input"]

#: The suffix of the file written for each output format into an output folder.
OUTPUT_SUFFIXES: Final = {"xml": ".xml", "pairs": ".jsonl", "json": ".json", "csv": ".csv", "xhtml": ".xhtml"}
#: Suffixes that make ``-o NAME`` the name of one file: with several inputs such a NAME is refused (give a folder).
FILE_SUFFIXES: Final = (".xml", ".json", ".csv", ".jsonl", ".xhtml", ".html")
_URL: Final = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")


# -- names ----------------------------------------------------------------------------------------------------------
def output_paths(inputs: Sequence[str], folder: Path, suffix: str) -> list[Path]:
    """One output file per input in ``folder``, named after the input (``-2``, ``-3`` ... for repeated names;
    ``stdin`` for ``-``; a URL's last path segment, its query left out)."""
    taken: set[str] = set()
    paths = []
    for name in inputs:
        stem = "stdin" if name == "-" else Path(name.split("?")[0].rstrip("/")).stem or "page"
        candidate, n = stem, 1
        while candidate in taken:
            n += 1
            candidate = f"{stem}-{n}"
        taken.add(candidate)
        paths.append(folder / (candidate + suffix))
    return paths


def output_folder(output: str | None, several: bool) -> Path | None:
    """The folder ``convert -o OUTPUT`` names, or ``None`` when it names one file (or standard output, ``-``).

    ``OUTPUT`` is a folder when it ends with a slash or is an existing folder (one file per input is written into
    it, ``NAME.xml``; it is created if missing), also with one input. With several inputs any other ``OUTPUT`` is a
    folder too (created), unless it exists and is not a folder, or ends with a file suffix (:data:`FILE_SUFFIXES`).

    :raises UsageError: several inputs and an ``OUTPUT`` that names one file.
    """
    if not output or output == "-":
        return None
    path = Path(output)
    if output.endswith(("/", os.sep)) or path.is_dir():
        return path
    if not several:
        return None
    if os.path.lexists(output):
        raise UsageError(f"several inputs write one output each: -o {output} is a file, not a folder; give a folder "
                         "(-o DIR/)")
    if path.suffix.lower() in FILE_SUFFIXES:
        raise UsageError(f"several inputs write one output each: -o {output} names a file (its suffix is "
                         f"{path.suffix}); give a folder (-o DIR/, created if missing)")
    return path


def csv_paths(output: str, indexes: list[int]) -> dict[int, str]:
    """Where a CSV output named ``output`` writes each table: ``output`` itself for a single table, else
    ``STEM-INDEX.SUFFIX`` beside it for each table index (``stats.csv`` -> ``stats-0.csv``, ``stats-3.csv``)."""
    if len(indexes) == 1:
        return {indexes[0]: output}
    stem, dot, suffix = output.rpartition(".")
    if not dot or "/" in suffix or "\\" in suffix:
        stem, suffix = output, "csv"
    return {index: f"{stem}-{index}.{suffix}" for index in indexes}


def csv_pattern(target: Path) -> re.Pattern[str]:
    """The names :func:`csv_paths` gives the tables of a page written to ``target`` (``OUT-N.csv``)."""
    example = Path(csv_paths(str(target), [0, 1])[1]).name
    stem, _, suffix = example.rpartition("-1.")
    return re.compile(re.escape(stem) + r"-[0-9]+\." + re.escape(suffix))


# -- writing --------------------------------------------------------------------------------------------------------
def write_file(target: Path | None, data: bytes, stream: BinaryIO | None = None) -> None:
    """Write one output atomically to ``target`` (or to ``stream``, standard output, when ``target`` is ``None``).

    :raises OutputError: the file or the stream cannot be written (disk full, no permission, ...); an old file is
        intact.
    :raises BrokenPipeError: the reader of ``stream`` went away.
    """
    try:
        if target is None:
            assert stream is not None, "an output without a file needs a stream"
            stream.write(data)
            stream.flush()
        else:
            atomic_write(target, data)
    except BrokenPipeError:
        raise
    except OSError as error:
        where = str(target) if target is not None else "standard output"
        replaced = target is not None and target.is_file() and not writes_in_place(target)
        raise OutputError(f"cannot write the output: {error.strerror or error}"
                          + (" (the old file is intact)" if replaced else ""), location=where) from None


def write_page(result: PageResult, target: Path | None, *, output_format: str,
               stream: BinaryIO | None = None) -> list[str]:
    """Write a page's outputs: to ``target`` (with ``csv`` and several tables, :func:`csv_paths` beside it), or
    ``stream`` when ``target`` is ``None``; the schema, if any, beside ``target`` (``OUT.xsd``).

    :returns: what was written, as the report names it: each path, ``-`` for the stream.
    :raises UsageError: a CSV output of several tables into one stream (standard output, a device, a pipe).
    :raises OutputError, BrokenPipeError: as :func:`write_file`.
    """
    outputs = result.outputs
    if output_format == "csv" and outputs and (target is None or writes_in_place(target)):
        if len(outputs) > 1:  # one stream: room for one table
            where = "" if target is None else f" (-o {target} is not a regular file: one stream, not a file each)"
            raise UsageError(f"the page has {len(outputs)} tables ({', '.join(str(o.table) for o in outputs)})"
                             f"{where}: write them with -o OUT.csv (one file per table) or choose one with --table N")
    paths: list[str | None]
    if output_format == "csv" and target is not None and not writes_in_place(target):
        named = csv_paths(str(target), [output.table for output in outputs if output.table is not None])
        paths = [named[output.table] if output.table is not None else str(target) for output in outputs]
    else:
        paths = [str(target) if target is not None else None for _ in outputs]
    for path, output in zip(paths, outputs):
        write_file(Path(path) if path is not None else None, output.data, stream)
    if result.schema is not None and target is not None:
        write_file(target.with_suffix(".xsd"), result.schema)
    return [path or "-" for path in paths]


# -- the overwrite policy -------------------------------------------------------------------------------------------
def is_file_input(name: str) -> bool:
    """Whether the input ``name`` is read from the file system (not ``-`` nor a URL)."""
    return name != "-" and not _URL.match(name)


def _file_identity(path: str | os.PathLike[str]) -> tuple[int, int] | None:
    """``(device, inode)`` of the regular file ``path`` names (symbolic links followed), or ``None`` if it names no
    regular file."""
    try:
        status = os.stat(path)
    except (OSError, ValueError):
        return None
    return (status.st_dev, status.st_ino) if stat.S_ISREG(status.st_mode) else None


def refuse_inputs_as_outputs(inputs: Sequence[str], outputs: Sequence[tuple[str, Path]],
                             patterns: Sequence[tuple[str, Path, re.Pattern[str]]] = ()) -> None:
    """Refuse, before anything is read or written, an output that is the same file as an input: writing it would
    destroy the input (before it is read, or for the next run). Inputs that are not regular files (``-``, URLs,
    devices, pipes) are not compared.

    :param outputs: ``(what, path)``: each output file, named by the option that gives it (``-o``, ``--report``).
    :param patterns: ``(what, folder, name pattern)``: outputs whose names are known only when they are written
        (``OUT-3.csv``, the ``--keep-stages`` files); every file of ``folder`` whose name matches counts.
    :raises OutputError: naming the output and the input.
    """
    identities = {}
    for name in inputs:
        identity = _file_identity(name) if is_file_input(name) else None
        if identity is not None:
            identities.setdefault(identity, name)
    if not identities:
        return
    for what, path in outputs:
        name = identities.get(_file_identity(path))  # type: ignore[arg-type]
        if name is not None:
            raise _overwrites_input(what, path, name)
    by_folder: dict[str, list[tuple[str, re.Pattern[str]]]] = {}
    for what, folder, pattern in patterns:
        by_folder.setdefault(os.path.abspath(folder), []).append((what, pattern))
    inodes = {inode for _, inode in identities}
    for folder_name, checks in by_folder.items():  # each folder read once; only files that may be an input stat'ed
        try:
            entries = list(os.scandir(folder_name))
        except OSError:
            continue
        for entry in entries:
            try:
                if not (entry.is_symlink() or entry.inode() in inodes):
                    continue
            except OSError:
                continue
            name = identities.get(_file_identity(entry.path))  # type: ignore[arg-type]
            if name is None:
                continue
            for what, pattern in checks:
                if pattern.fullmatch(entry.name):
                    raise _overwrites_input(what, Path(entry.path), name)


def refuse_colliding_outputs(outputs: Sequence[tuple[str, Path]],
                             patterns: Sequence[tuple[str, Path, re.Pattern[str]]] = (),
                             folders: Sequence[tuple[str, Path]] = ()) -> None:
    """Refuse, before anything is read or written, two outputs of one run that are the same file (``-o same.xml
    --report same.xml``, ``-o x.xml --schema --report x.xsd``), an output file where an output folder goes (``-o
    ks.xml --keep-stages ks.xml``), or an output whose name one of the ``patterns`` gives (a report named like a CSV
    file of the output, ``OUT-3.csv``): one would overwrite the other. Devices and pipes (written in place) are not
    compared.

    :param outputs: ``(what, path)``: each output file, named by the option that gives it.
    :param patterns: ``(what, folder, name pattern)``: outputs whose names are known only when they are written.
    :param folders: ``(what, path)``: folders the run writes into (``--keep-stages``).
    :raises OutputError: naming both options and the file.
    """
    seen: dict[str, str] = {}
    for what, path in outputs:
        if writes_in_place(path):
            continue
        key = os.path.realpath(path)
        if key in seen:
            raise _collision(seen[key], what, path)
        seen[key] = what
        for other, folder, pattern in patterns:
            if other != what and os.path.realpath(folder) == os.path.dirname(key) and pattern.fullmatch(path.name):
                raise _collision(other, what, path)
    for what, folder in folders:
        found = seen.get(os.path.realpath(folder))
        if found is not None:
            raise _collision(found, what, folder)


def _collision(first: str, second: str, path: Path) -> OutputError:
    return OutputError(f"{second} {path} is also {first}: two outputs of this run would write the same file; give "
                       "each its own")


def _overwrites_input(what: str, path: Path, name: str) -> OutputError:
    output = f"{what} {path}" if what else f"the output {path}"
    same = (f"{output} is the input {name}" if os.path.abspath(path) == os.path.abspath(name) else
            f"{output} is the input {name} (the same file)")
    return OutputError(f"{same}: writing it would destroy the input; give another output")


def prepare_stage_folders(folder: Path, subfolders: Sequence[Path]) -> None:
    """Create the ``--keep-stages`` folder and check that files can be written into it (and that no file stands
    where a per-input sub-folder goes), before any page is read.

    :raises OutputError: naming the folder.
    """
    if os.path.lexists(folder) and not folder.is_dir():
        raise OutputError("--keep-stages needs a folder: this is a file", location=str(folder))
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle, probe = tempfile.mkstemp(dir=folder, prefix=f".keep-stages.pyxform-{os.getpid()}-", suffix=".tmp")
        os.close(handle)
        os.unlink(probe)
    except OSError as error:
        raise OutputError(f"cannot write into the --keep-stages folder: {error.strerror or error}",
                          location=str(folder)) from None
    for subfolder in subfolders:
        if os.path.lexists(subfolder) and not subfolder.is_dir():
            raise OutputError("--keep-stages: a file stands where this input's folder of stages goes",
                              location=str(subfolder))
