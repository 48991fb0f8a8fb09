"""The pages of a batch's inputs: HTML files, folders (walked recursively), WARC files and lists of URLs.

:func:`pages` turns the command line's inputs into a stream of items, in a stable order: a :class:`PageRef` for each
page to convert (a reference, not its bytes: the worker reads it), a :class:`Failure` for an input that cannot give
its pages (a file that is no WARC, a broken WARC record, a line of a URL list that is no URL), and a :class:`Skip`
for what is not a page (a WARC request record, a non-HTML response, a file of a folder that is not HTML, a URL
listed twice).

What an input is:

- an ``http(s)://`` URL: one page, fetched by the worker (pyxform's safe fetch);
- a folder: its files, recursively in name order (hidden files and folders, the batch's own output folder and any
  other batch's folder left out): ``.html``, ``.htm``, ``.xhtml``, ``.xht``, ``.shtml`` are pages, ``.warc``,
  ``.warc.gz`` archives; other files are skipped;
- a file: a WARC if it starts with a WARC record (uncompressed or gzip) or its name ends with ``.warc`` or
  ``.warc.gz``; else an HTML page if its name ends as a folder's pages do; else a URL list if its name ends with
  ``.txt``, ``.urls`` or ``.lst``, or its first line that is neither blank nor a ``#`` comment starts with
  ``http://`` or ``https://``; else an HTML page.

A URL list holds one URL a line; blank lines and ``#`` comments are ignored; another line is recorded as a failure
(with its line number). Each page has a key (:attr:`PageRef.key`) that is unique in the batch and the same in every
run over the same inputs: the manifest is keyed by it, and ``--resume`` skips the keys it holds.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal

from pyxform.base import warc
from pyxform.base.errors import ArchiveError, InputError, InputNotFound, InternalError, PyxformError
from pyxform.base.source import looks_like_url

from .names import output_stem

__all__ = ["PageRef", "Failure", "Skip", "pages", "check_inputs", "input_kind", "HTML_SUFFIXES", "WARC_SUFFIXES",
           "URL_LIST_SUFFIXES"]

HTML_SUFFIXES: Final = (".html", ".htm", ".xhtml", ".xht", ".shtml")
WARC_SUFFIXES: Final = (".warc", ".warc.gz")
URL_LIST_SUFFIXES: Final = (".txt", ".urls", ".lst")
_HTTP: Final = re.compile(r"^https?://\S+$", re.IGNORECASE)
_SNIFF: Final = 65536


@dataclass(frozen=True)
class PageRef:
    """A page to convert, as a reference the worker reads it by.

    :ivar key: unique in the batch and stable across runs: the URL (a listed or given URL), the ``file:`` URI of
        the file's real path, or the WARC file's with ``#offset=N`` (the record's byte offset).
    :ivar source: what the manifest calls the page: the URL (listed, given, or a WARC record's target URI), else the
        path as found (relative if the input was).
    :ivar kind: ``file``, ``warc`` or ``url``.
    :ivar location: the absolute path of the file or WARC file, or the URL to fetch.
    :ivar offset: the WARC record's byte offset (``-1`` for the others).
    :ivar size: bytes in the input (file size, record size; 0 for a URL), to size tasks.
    :ivar output: the output's path relative to the batch folder, without suffix (:func:`names.output_stem`).
    """

    key: str
    source: str
    kind: Literal["file", "warc", "url"]
    location: str
    offset: int = -1
    size: int = 0
    output: str = ""


@dataclass(frozen=True)
class Failure:
    """An input (or part of one) that cannot give a page: recorded in the manifest as failed, with ``error``."""

    key: str
    source: str
    error: PyxformError


@dataclass(frozen=True)
class Skip:
    """Something of the inputs that is not a page, and why (counted, not recorded)."""

    reason: str


Item = PageRef | Failure | Skip


def check_inputs(inputs: Sequence[str]) -> None:
    """Refuse, before anything runs, an input that is neither a URL nor an existing file or folder.

    :raises InputNotFound: naming the input.
    :raises InputError: standard input (``-``), which a batch does not read.
    """
    for name in inputs:
        if name == "-":
            raise InputError("a batch does not read standard input: give files, folders, WARC files or URL lists",
                             location="-")
        if looks_like_url(name):
            continue
        if not os.path.lexists(name):
            raise InputNotFound("no such file or folder", location=name)
        if not os.path.exists(name):
            raise InputNotFound("a symbolic link to nothing", location=name)


def _file_key(path: Path) -> str:
    """A file's key: the ``file:`` URI of its real path (symbolic links and ``..`` resolved), so that a file reached
    by two paths is one page. Its :attr:`PageRef.location` stays the path as given, made absolute: on a cluster the
    workers read the inputs through the same paths, which need not resolve alike on every machine."""
    return Path(os.path.realpath(path)).as_uri()


def input_kind(path: str) -> Literal["warc", "urls", "html"]:
    """What an input file holds, from its first bytes and its name (see the module docstring).

    :raises OSError: the file cannot be read.
    """
    lower = path.lower()
    with open(path, "rb") as stream:
        head = stream.read(_SNIFF)
    if warc.looks_like_warc(head) or lower.endswith(WARC_SUFFIXES):
        return "warc"
    if lower.endswith(HTML_SUFFIXES):
        return "html"
    if lower.endswith(URL_LIST_SUFFIXES):
        return "urls"
    for line in head.split(b"\n"):
        text = line.strip()
        if text and not text.startswith(b"#"):
            return "urls" if re.match(rb"https?://", text, re.IGNORECASE) else "html"
    return "html"


def pages(inputs: Sequence[str], *, exclude: Path | None = None) -> Iterator[Item]:
    """The items of ``inputs`` in order (see the module docstring). Each page key comes once: a page met again (the
    same file through two inputs, a URL listed twice) is a :class:`Skip`.

    :param exclude: a folder not to walk into (the batch's own output folder).
    """
    seen: set[str] = set()
    for item in _items(inputs, Path(os.path.realpath(exclude)) if exclude is not None else None):
        if isinstance(item, (PageRef, Failure)):
            if item.key in seen:
                yield Skip("given twice")
                continue
            seen.add(item.key)
        yield item


def _items(inputs: Sequence[str], exclude: Path | None) -> Iterator[Item]:
    for name in inputs:
        if looks_like_url(name):
            yield _url_page(name)
        elif os.path.isdir(name):
            yield from _folder(Path(name), exclude)
        else:
            yield from _file(Path(name), explicit=True)


def _url_page(url: str) -> PageRef:
    return PageRef(url, url, "url", url, output=output_stem(url, url, local_file=False))


def _folder(folder: Path, exclude: Path | None) -> Iterator[Item]:
    unreadable: list[OSError] = []  # folders os.walk cannot list: each is a failure, not pages silently missing
    for root, folders, files in os.walk(folder, onerror=unreadable.append):
        yield from _unreadable_folders(unreadable)
        here = Path(root)
        folders[:] = sorted(name for name in folders if not name.startswith(".")
                            and (exclude is None or Path(os.path.realpath(here / name)) != exclude))
        for name in [name for name in folders if _holds_a_batch(here / name)]:
            folders.remove(name)  # its outputs (.xhtml) are no input
            yield Skip("another batch's folder")
        for name in sorted(files):
            if name.startswith("."):
                continue
            lower = name.lower()
            if lower.endswith(HTML_SUFFIXES) or lower.endswith(WARC_SUFFIXES):
                yield from _file(here / name, explicit=False)
            else:
                yield Skip("file neither HTML nor WARC by its name")
    yield from _unreadable_folders(unreadable)


def _holds_a_batch(folder: Path) -> bool:
    """Whether ``folder`` is a batch folder (its ``batch.json`` and ``manifest.jsonl``)."""
    return (folder / "batch.json").is_file() and (folder / "manifest.jsonl").is_file()


def _unreadable_folders(errors: list[OSError]) -> Iterator[Item]:
    while errors:
        error = errors.pop(0)
        where = str(error.filename)
        yield Failure(_file_key(Path(where)), where,
                      InputNotFound(f"cannot read the folder: {error.strerror or error}", location=where))


def _file(path: Path, *, explicit: bool) -> Iterator[Item]:
    source = str(path)
    key = _file_key(path)
    try:
        status = path.stat()
        if not stat.S_ISREG(status.st_mode):  # a named pipe would block its reader for good
            yield Failure(key, source, InputNotFound("not a regular file (a named pipe, a device or a socket)",
                                                     location=source))
            return
        if explicit:
            kind = input_kind(source)
        else:
            kind = "warc" if source.lower().endswith(WARC_SUFFIXES) else "html"
        size = status.st_size
    except OSError as error:
        yield Failure(key, source, InputNotFound(f"cannot read the file: {error.strerror or error}", location=source))
        return
    if kind == "html":
        yield PageRef(key, source, "file", str(path.absolute()), size=size,
                      output=output_stem(key, source, local_file=True))
    elif kind == "warc":
        yield from _archive(path, key)
    else:
        yield from _url_list(path, key)


def _archive(path: Path, file_key: str) -> Iterator[Item]:
    location = str(path.absolute())
    offset = 0
    empty = True
    try:
        for record in warc.scan(location):
            empty = False
            offset = record.offset
            key = f"{file_key}#offset={record.offset}"
            if isinstance(record, warc.WarcPage):
                yield PageRef(key, record.uri, "warc", location, record.offset, record.length,
                              output_stem(key, record.uri, local_file=False))
            elif isinstance(record, warc.WarcSkip):
                yield Skip(record.reason)
            else:
                where = f"{path}#offset={record.offset}"
                yield Failure(key, record.uri or where, ArchiveError(record.message, location=where))
    except Exception as error:  # noqa: BLE001 - an I/O error, or a bug of the reader: the rest of this file only
        # the records after the last one found cannot be read: recorded once, under a key of their own (the last
        # record's is taken), and the next input is read
        key, where = (f"{file_key}#offset=0", f"{path}#offset=0") if empty else \
            (f"{file_key}#after={offset}", f"{path}#after={offset}")
        why: PyxformError = ArchiveError(f"cannot read the file: {error.strerror or error}", location=where) \
            if isinstance(error, OSError) else \
            InternalError(f"{type(error).__name__}: {error} (please report this)", location=where)
        yield Failure(key, where, why)
        return
    if empty:
        yield Skip("empty WARC file")


def _url_list(path: Path, file_key: str) -> Iterator[Item]:
    try:
        with open(path, "rb") as stream:
            if b"\0" in stream.read(_SNIFF):
                yield Failure(file_key, str(path), InputError("not a list of URLs: the file holds binary data "
                                                              "(NUL bytes)", location=str(path)))
                return
            stream.seek(0)
            for number, raw in enumerate(stream, start=1):
                text = raw.decode("utf-8", "replace").strip().lstrip("\ufeff")
                if not text or text.startswith("#"):
                    continue
                if _HTTP.match(text) or looks_like_url(text) and " " not in text:
                    yield _url_page(text)
                    continue
                where = f"{path}:{number}"
                shown = text if len(text) <= 80 else text[:77] + "..."
                yield Failure(f"{file_key}#line={number}", shown,
                              InputError(f"line {number} is not a URL: {shown!r}", location=where))
    except OSError as error:
        yield Failure(file_key, str(path), InputNotFound(f"cannot read the file: {error.strerror or error}",
                                                         location=str(path)))
