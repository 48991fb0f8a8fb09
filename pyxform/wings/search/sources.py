"""What ``pyxform index`` reads: INPUT arguments -> the pages in them, one :class:`PageInput` at a time.

An INPUT is an HTML file, a WARC file (``.warc``, ``.warc.gz``; warcio), a folder, or a file of pyxform's XML output.
A folder is a crawl's folder when it holds a crawl database (a SQLite file with a ``pages`` table): its pages come
from its WARC files and its link graph from the database's ``links`` table. Any other folder is walked (sorted, depth
first) for HTML files (``.html``, ``.htm``, ``.xhtml``, ``.shtml``), WARC files and XML outputs (``.xml`` whose
document element is ``pyxform``); other files are skipped and counted. A file named on the command line is read
whatever its suffix (WARC and XML output by their first bytes, anything else as a page); a file named ``.warc`` or
``.warc.gz`` that holds no WARC record is a problem (skipped when it is empty), never read as a page.

Problems that are not a page's (a missing INPUT, a WARC that stops being readable) are yielded as
:class:`InputProblem` so that the caller records them and goes on.
"""

from __future__ import annotations

import gzip
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal

__all__ = ["PageInput", "InputProblem", "Skipped", "read_inputs", "crawl_database", "crawl_links", "HTML_SUFFIXES"]

HTML_SUFFIXES: Final = (".html", ".htm", ".xhtml", ".shtml")
WARC_SUFFIXES: Final = (".warc", ".warc.gz")
_HTML_TYPES: Final = ("text/html", "application/xhtml+xml")
_DB_SUFFIXES: Final = (".sqlite", ".sqlite3", ".db")


@dataclass(frozen=True)
class PageInput:
    """One page to index.

    :ivar kind: ``html`` (a page to convert) or ``xml`` (pyxform's output XML, read as it is).
    :ivar key: the page's identity in the index: the absolute file path, or for a WARC record its target URI.
    :ivar path: the file it came from (the HTML file, the WARC file, the XML file), absolute.
    :ivar url: the URL it was fetched from (WARC-Target-URI), or ``None`` for a file.
    :ivar charset: the transport charset (the HTTP ``Content-Type`` of a WARC record), or ``None``.
    :ivar data: the page's bytes (HTTP body after content and transfer decoding).
    """

    kind: Literal["html", "xml"]
    key: str
    path: str | None
    url: str | None
    charset: str | None
    data: bytes


@dataclass(frozen=True)
class InputProblem:
    """An input that gave no page: ``where`` (a path), ``code`` (a pyxform error code) and ``message``."""

    where: str
    code: str
    message: str


@dataclass(frozen=True)
class Skipped:
    """A file that is not a page: in a walked folder by its suffix, or an XML file that is not pyxform's output;
    anywhere, an empty WARC file."""

    path: str


Item = PageInput | InputProblem | Skipped


def crawl_database(folder: Path) -> Path | None:
    """The crawl database of a folder: a SQLite file at its top with a ``pages`` table, or ``None``."""
    try:
        candidates = sorted(path for path in folder.iterdir() if path.suffix in _DB_SUFFIXES and path.is_file())
    except OSError:
        return None
    for path in candidates:
        try:
            with sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True) as db:
                names = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")}
        except sqlite3.Error:
            continue
        if "pages" in names:
            return path
    return None


_LINK_COLUMNS: Final = (("source", "target"), ("src", "dst"), ("from_url", "to_url"), ("source_url", "target_url"),
                        ("url", "target"), ("from", "to"))


def crawl_links(database: Path) -> list[tuple[str, str]]:
    """The ``(from URL, to URL)`` pairs of a crawl database's ``links`` table (empty if it has none). Its two URL
    columns are found by name (``source``/``target``, ``src``/``dst``, ``from_url``/``to_url`` ...); a table whose
    column that holds page ids is joined to ``pages`` (``id``, ``url``), as the crawler writes its links table
    (``source`` a page id, ``target`` a URL)."""
    try:
        with sqlite3.connect(f"{database.resolve().as_uri()}?mode=ro", uri=True) as db:
            columns = [row[1] for row in db.execute("PRAGMA table_info(links)")]
            if not columns:
                return []
            for a, b in _LINK_COLUMNS:
                if a in columns and b in columns:
                    rows = db.execute(f'SELECT "{a}", "{b}" FROM links').fetchall()
                    break
            else:
                return []
            if any(isinstance(x, int) or isinstance(y, int) for x, y in rows):  # page ids: their URLs
                urls = dict(db.execute("SELECT id, url FROM pages").fetchall())
                rows = [(urls.get(x) if isinstance(x, int) else x, urls.get(y) if isinstance(y, int) else y)
                        for x, y in rows]
    except sqlite3.Error:
        return []
    return [(str(x), str(y)) for x, y in rows if x and y]


#: Broken stretches of one WARC file skipped before the rest of it is given up.
MAX_WARC_RESYNCS: Final = 100
_WARC_ERRORS: Final = (OSError, EOFError, ValueError, gzip.BadGzipFile, UnicodeDecodeError, AttributeError,
                       TypeError, KeyError, IndexError)  # what warcio raises on a broken archive, besides its own


def _warc_records(path: Path, max_bytes: int) -> Iterator[Item]:
    """The HTML responses of a WARC file (status 2xx, ``text/html`` or ``application/xhtml+xml``).

    A broken record (a bad header, a wrong length, a damaged gzip member) costs only itself: it is reported as an
    :class:`InputProblem` and reading goes on at the next record found after it (the next gzip member of a
    ``.warc.gz``, the next line starting ``WARC/1.`` of a ``.warc``), at most :data:`MAX_WARC_RESYNCS` times.
    """
    from warcio.archiveiterator import ArchiveIterator
    from warcio.exceptions import ArchiveLoadFailed

    gzipped = _gzipped(path)
    offset, read, resyncs = 0, 0, 0
    broken: tuple[int, str] | None = None  # the broken stretch being skipped: where it starts, the first error
    while True:
        good_end = offset  # where the last good record ends: what is broken starts there
        try:
            with path.open("rb") as stream:
                stream.seek(offset)
                records = ArchiveIterator(stream, arc2warc=True)
                for record in records:
                    page = _warc_page(record, path, max_bytes)
                    if gzipped and getattr(getattr(records, "reader", None), "decompressor", 0) is None:
                        # warcio reads a gzip member it cannot inflate as plain bytes, and with it the rest of
                        # the file as one record: the member is damaged, the next one is read on its own
                        raise _DamagedMember("a gzip member that does not inflate")
                    start, length = records.get_record_offset(), records.get_record_length()
                    if length <= 0:  # a length warcio could not make sense of: this record is the broken one
                        continue
                    good_end = start + length
                    if broken is not None:  # read well again: the stretch before is skipped
                        yield InputProblem(str(path), "input", f"broken record(s) from byte {broken[0]} to byte "
                                           f"{offset} skipped ({broken[1]})")
                        broken = None
                    if isinstance(page, PageInput):
                        read += 1
                    if page is not None:
                        yield page
            break
        except (ArchiveLoadFailed, *_WARC_ERRORS) as error:
            if broken is None:
                broken = (good_end, f"{type(error).__name__}: {error}".strip())
        # the next record strictly after where this attempt started: every attempt moves on
        restart = _next_warc_record(path, max(good_end, offset) + 1) if resyncs < MAX_WARC_RESYNCS else None
        if restart is None:
            break
        offset, resyncs = restart, resyncs + 1
    if broken is not None:
        yield InputProblem(str(path), "input", f"broken record(s) from byte {broken[0]} to the end of the file "
                           f"({broken[1]}); {read} page(s) read")


def _warc_page(record: Any, path: Path, max_bytes: int) -> PageInput | InputProblem | None:
    """One WARC record as a page, or ``None`` when it is not an HTML response (2xx) or resource; a record the file
    ends inside (fewer bytes than its ``Content-Length``: a WARC cut short, one a crawl is still writing) is an
    :class:`InputProblem`, never a shorter page."""
    if record.rec_type not in ("response", "resource"):
        return None
    uri = (record.rec_headers.get_header("WARC-Target-URI") or "").strip("<>")
    if not uri:
        return None
    if record.rec_type == "response":
        if record.http_headers is None:
            return None
        status = record.http_headers.get_statuscode() or ""
        content_type = record.http_headers.get_header("Content-Type") or ""
        if not status.startswith("2"):
            return None
    else:
        content_type = record.rec_headers.get_header("Content-Type") or ""
    if content_type.split(";")[0].strip().lower() not in _HTML_TYPES:
        return None
    charset = None
    for parameter in content_type.split(";")[1:]:
        name, _, value = parameter.partition("=")
        if name.strip().lower() == "charset" and value.strip():
            charset = value.strip().strip("\"'")
    data = record.content_stream().read(max_bytes + 1)
    raw = record.raw_stream
    while raw.read(65536):  # the rest of the record (warcio reads it too before the next one)
        pass
    if getattr(raw, "limit", 0) > 0:  # warcio's LimitReader: bytes of the Content-Length the file does not have
        return InputProblem(str(path), "input", f"{uri}: the record is truncated: the file ends before its "
                                                "Content-Length")
    return PageInput("html", uri, str(path.resolve()), uri, charset, data)


class _DamagedMember(ValueError):
    """A gzip member of a ``.warc.gz`` that does not inflate (:func:`_warc_records`)."""


def _gzipped(path: Path) -> bool:
    """Whether a WARC file is gzipped: by its first bytes or its name."""
    try:
        with path.open("rb") as stream:
            return stream.read(2) == b"\x1f\x8b" or path.name.lower().endswith(".gz")
    except OSError:
        return path.name.lower().endswith(".gz")


def _next_warc_record(path: Path, start: int) -> int | None:
    """The byte offset of the first record that may start at or after ``start``: a gzip member's magic bytes in a
    gzipped WARC (by its first bytes or its name), a line beginning ``WARC/1.`` in a plain one; ``None`` if there is
    none."""
    import mmap

    gzipped = _gzipped(path)
    try:
        with path.open("rb") as stream:
            if start >= path.stat().st_size:
                return None
            with mmap.mmap(stream.fileno(), 0, access=mmap.ACCESS_READ) as data:
                if gzipped:
                    found = data.find(b"\x1f\x8b\x08", start)
                    return found if found >= 0 else None
                if data[start:start + 7] == b"WARC/1." and (start == 0 or data[start - 1:start] == b"\n"):
                    return start
                found = data.find(b"\nWARC/1.", start)
                return found + 1 if found >= 0 else None
    except (OSError, ValueError):
        return None


def _sniff(path: Path) -> str:
    """``warc``, ``xml`` (a pyxform output) or ``html``, from a file's first bytes."""
    try:
        with path.open("rb") as stream:
            head = stream.read(4096)
    except OSError:
        return "html"
    if head.startswith(b"\x1f\x8b"):
        try:
            with gzip.open(path, "rb") as stream:
                head = stream.read(16)
        except (OSError, EOFError):
            return "html"
        return "warc" if head.startswith(b"WARC/") else "html"
    if head.startswith(b"WARC/"):
        return "warc"
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if text.startswith(b"<?xml") or text.startswith(b"<pyxform"):
        import re

        if re.search(rb"<pyxform[\s>/]", text):
            return "xml"
    return "html"


def _holds_nothing(path: Path) -> bool:
    """Whether a file is empty, or a gzip file that inflates to nothing (an empty ``.warc.gz``)."""
    try:
        if path.stat().st_size == 0:
            return True
        with gzip.open(path, "rb") as stream:
            return stream.read(1) == b""
    except (OSError, EOFError):
        return False


def _file(path: Path, max_bytes: int, *, named: bool) -> Iterator[Item]:
    """The pages of one file: named on the command line (``named``), or met in a walked folder."""
    name = path.name.lower()
    kind = _sniff(path) if named or name.endswith(".xml") or name.endswith(WARC_SUFFIXES) else "html"
    if kind == "warc":
        yield from _warc_records(path, max_bytes)
        return
    if name.endswith(WARC_SUFFIXES):  # named a WARC, but its bytes hold none: said, never read as a page
        if _holds_nothing(path):
            yield Skipped(str(path))
        else:
            yield InputProblem(str(path), "input", "not a WARC file: it does not start with a WARC record "
                                                   "(a WARC/1.0 or WARC/1.1 line, plain or gzipped)")
        return
    if not named and not name.endswith(HTML_SUFFIXES) and kind != "xml":
        yield Skipped(str(path))
        return
    try:
        with path.open("rb") as stream:
            data = stream.read(max_bytes + 1)
    except OSError as error:
        yield InputProblem(str(path), "not-found", f"cannot read the file: {error.strerror or error}")
        return
    absolute = str(path.resolve())
    yield PageInput(kind if kind == "xml" else "html", absolute, absolute, None, None, data)


def read_inputs(inputs: list[str], *, max_bytes: int) -> Iterator[Item]:
    """Every page of the INPUT arguments, in order (a folder's files sorted by path).

    :param max_bytes: read at most this many bytes + 1 of a page (the conversion refuses a longer one as a limit).
    """
    for name in inputs:
        path = Path(name)
        if path.is_dir():
            database = crawl_database(path)
            files = sorted(p for p in path.rglob("*") if p.is_file())
            if database is not None:  # a crawl: its pages are in its WARC files
                files = [p for p in files if p.name.lower().endswith(WARC_SUFFIXES)]
            for file in files:
                if database is not None or file.name.lower().endswith(WARC_SUFFIXES + HTML_SUFFIXES + (".xml",)):
                    yield from _file(file, max_bytes, named=False)
                else:
                    yield Skipped(str(file))
        elif path.is_file():
            yield from _file(path, max_bytes, named=True)
        elif path.exists():
            yield InputProblem(name, "input", "not a regular file or folder")
        else:
            yield InputProblem(name, "not-found", "no such file or folder")
