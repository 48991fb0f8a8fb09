"""What ``pyxform index`` reads: INPUT arguments -> the pages in them, one :class:`PageInput` at a time.

An INPUT is an HTML file, a WARC file (``.warc``, ``.warc.gz``; its pages and broken records as
:mod:`pyxform.base.warc` tells them), a folder, or a file of pyxform's XML output.
A folder is a crawl's folder when it holds a crawl database (a SQLite file with a ``pages`` table): its pages come
from its WARC files and its link graph from the database's ``links`` table. Any other folder is walked (sorted, depth
first) for HTML files (``.html``, ``.htm``, ``.xhtml``, ``.shtml``), WARC files and XML outputs (``.xml`` whose
document element is ``pyxform``); other files are skipped and counted. A file named on the command line is read
whatever its suffix (WARC and XML output by their first bytes, anything else as a page); a file named ``.warc`` or
``.warc.gz`` that holds no WARC record is a problem (skipped when it is empty), never read as a page.

Problems that are not a page's (a missing INPUT, a broken WARC record) are yielded as :class:`InputProblem` so that
the caller records them and goes on.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal

from pyxform.base import warc
from pyxform.base.errors import ArchiveError

__all__ = ["PageInput", "InputProblem", "Skipped", "read_inputs", "crawl_database", "crawl_links", "HTML_SUFFIXES"]

HTML_SUFFIXES: Final = (".html", ".htm", ".xhtml", ".shtml")
WARC_SUFFIXES: Final = (".warc", ".warc.gz")
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


def _warc_pages(path: Path, max_bytes: int) -> Iterator[Item]:
    """The pages of a WARC file, as :func:`pyxform.base.warc.scan` finds them (what a page is; how a broken record
    is found and passed). A broken record, or a file that is no WARC, is an :class:`InputProblem` at
    ``FILE#offset=N`` that says the record's target URI when it is known and what is wrong: a record the file ends
    inside among them, never a shorter page. An empty file (a gzip file of nothing too) is :class:`Skipped`."""
    location, absolute = str(path), str(path.resolve())
    empty = True
    try:
        for record in warc.scan(location):
            empty = False
            where = f"{path}#offset={record.offset}"
            if isinstance(record, warc.WarcPage):
                try:
                    data, uri, charset = warc.read_page(location, record.offset, max_bytes)
                except ArchiveError as error:  # a body that does not inflate by its Content-Encoding
                    yield InputProblem(where, "input", f"{record.uri}: {error.message}")
                    continue
                yield PageInput("html", uri, absolute, uri, charset, data)
            elif isinstance(record, warc.WarcBroken):
                yield InputProblem(where, "input", f"{record.uri}: {record.message}" if record.uri else record.message)
    except OSError as error:
        yield InputProblem(location, "input", f"cannot read the file: {error.strerror or error}")
        return
    if empty:
        yield Skipped(location)


def _sniff(path: Path) -> str:
    """``warc``, ``xml`` (a pyxform output) or ``html``, from a file's first bytes."""
    try:
        with path.open("rb") as stream:
            head = stream.read(4096)
    except OSError:
        return "html"
    if warc.looks_like_warc(head):
        return "warc"
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if text.startswith(b"<?xml") or text.startswith(b"<pyxform"):
        import re

        if re.search(rb"<pyxform[\s>/]", text):
            return "xml"
    return "html"


def _file(path: Path, max_bytes: int, *, named: bool) -> Iterator[Item]:
    """The pages of one file: named on the command line (``named``), or met in a walked folder."""
    name = path.name.lower()
    kind = "warc" if name.endswith(WARC_SUFFIXES) else _sniff(path) if named or name.endswith(".xml") else "html"
    if kind == "warc":  # named a WARC: read as one whatever its bytes (what holds none is said, never read as a page)
        yield from _warc_pages(path, max_bytes)
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
