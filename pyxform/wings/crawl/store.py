"""The crawl's folder: a SQLite database (WAL) and WARC files.

Layout of ``DIR``::

    crawl.sqlite        meta, frontier, pages, links, prints, fetches (the tables below)
    warc/crawl-NNNNN.warc.gz   one file per run (a resume starts the next): warcinfo, then a request and a
                        response record per HTTP answer, robots.txt included (ISO 28500, written with warcio)
    xml/                the tables of each HTML page as pyxform XML (``PAGEID-NAME.xml``)

The order of writes makes a crawl resumable after SIGKILL without losing or refetching anything: a fetch is
logged (``fetches``, committed) before its request is sent; its answer is appended to the WARC file (flushed) before
the one transaction that records the page, its links and the frontier's changes. A fetch logged but not finished
is found again on resume: if its response is in the WARC file it is processed from there, else the URL is recorded
as interrupted and not fetched again. A partial record at the end of a WARC file is cut off.
"""

from __future__ import annotations

import io
import json
import os
import sqlite3
import time
from datetime import datetime, timezone
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from warcio.archiveiterator import ArchiveIterator
from warcio.exceptions import ArchiveLoadFailed
from warcio.statusandheaders import StatusAndHeaders
from warcio.timeutils import datetime_to_iso_date
from warcio.warcwriter import WARCWriter

__all__ = ["Store", "WarcResponse", "SCHEMA", "FETCH_ID_HEADER", "WARC_VERSION"]

#: The version of the WARC records written (ISO 28500:2017).
WARC_VERSION: Final = "1.1"
#: The WARC header naming the ``fetches`` row of a record (an extension field, ignored by other WARC readers).
FETCH_ID_HEADER: Final = "WARC-Pyxform-Fetch"

SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS frontier (
    id INTEGER PRIMARY KEY,         -- discovery order
    url TEXT NOT NULL UNIQUE,       -- canonical URL: the duplicate filter
    depth INTEGER NOT NULL,         -- links from a seed
    seq INTEGER NOT NULL,           -- place in the discovery order (a redirect target takes its source's)
    state TEXT NOT NULL,            -- frontier.STATES
    priority REAL NOT NULL DEFAULT 0,
    hops INTEGER NOT NULL DEFAULT 0,    -- redirects that led here
    attempts INTEGER NOT NULL DEFAULT 0,
    reason TEXT                     -- why failed / not fetched
);
CREATE INDEX IF NOT EXISTS frontier_state ON frontier(state);
CREATE TABLE IF NOT EXISTS pages (
    id INTEGER PRIMARY KEY,
    url TEXT NOT NULL UNIQUE,       -- the canonical URL fetched
    final_url TEXT,                 -- where it leads: a redirect's Location (canonical), else the URL itself
    status INTEGER,                 -- HTTP status (NULL: no answer)
    content_type TEXT,
    fetched_at TEXT,                -- ISO 8601, UTC
    relevance REAL,                 -- topic relevance 0..1 (HTML pages)
    priority REAL,                  -- priority when taken from the frontier
    depth INTEGER,
    failure TEXT,                   -- why it failed (NULL: it did not)
    bytes INTEGER,
    title TEXT,
    duplicate_of TEXT,              -- an earlier page with the same text (its links were not followed)
    warc_file TEXT, warc_offset INTEGER, warc_length INTEGER,
    conversion TEXT,                -- pending | ok | partial | no-tables | failed | NULL (not HTML)
    tables INTEGER,
    xml TEXT,                       -- path of the XML under DIR
    conversion_error TEXT,
    stats TEXT                      -- JSON: field lengths, topic terms present, text digest (to resume)
);
CREATE TABLE IF NOT EXISTS links (
    source INTEGER NOT NULL,        -- pages.id
    target TEXT NOT NULL,           -- canonical URL
    anchor TEXT NOT NULL,
    context TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS links_target ON links(target);
CREATE TABLE IF NOT EXISTS prints (
    page INTEGER PRIMARY KEY,       -- pages.id
    print BLOB NOT NULL             -- the page's text fingerprint (traps.pack_print), for the trap detector on resume
);
CREATE TABLE IF NOT EXISTS fetches (
    id INTEGER PRIMARY KEY,
    url TEXT NOT NULL,              -- the URL requested
    kind TEXT NOT NULL,             -- page | robots
    started REAL NOT NULL,          -- Unix time
    ended REAL,                     -- NULL: no answer recorded (interrupted)
    status INTEGER,
    error TEXT,
    warc_file TEXT
);
"""


@dataclass(frozen=True)
class WarcResponse:
    """A response record read back from a WARC file (resume, conversion of pages left pending)."""

    fetch_id: int | None
    url: str
    status: int
    headers: list[tuple[str, str]]
    body: bytes
    offset: int
    length: int


def utc_now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


class Store:
    """The crawl's database and WARC files (the module docstring).

    :param folder: ``DIR``; created if missing.
    :raises sqlite3.DatabaseError: ``crawl.sqlite`` is not a database, or holds tables of another program.
    """

    def __init__(self, folder: str | os.PathLike[str]) -> None:
        self.folder = Path(folder)
        (self.folder / "warc").mkdir(parents=True, exist_ok=True)
        (self.folder / "xml").mkdir(exist_ok=True)
        self.db = sqlite3.connect(self.folder / "crawl.sqlite", isolation_level=None, check_same_thread=False)
        tables = {name for (name,) in self.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if tables and "meta" not in tables:
            self.db.close()
            raise sqlite3.DatabaseError(f"it holds other tables ({', '.join(sorted(tables)[:5])})")
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(SCHEMA)
        self._warc: Any = None
        self._writer: WARCWriter | None = None
        self.warc_name: str | None = None

    # -- meta ------------------------------------------------------------------------------------------------
    def get(self, key: str, default: Any = None) -> Any:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return json.loads(row[0]) if row else default

    def put(self, key: str, value: Any) -> None:
        self.db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, json.dumps(value)))

    def transaction(self) -> sqlite3.Connection:
        """``with store.transaction():`` one atomic commit."""
        return _Transaction(self.db)  # type: ignore[return-value]

    # -- WARC ------------------------------------------------------------------------------------------------
    def open_warc(self, run: int, info: dict[str, str]) -> None:
        """Start this run's WARC file (``warc/crawl-RUN.warc.gz``) with its warcinfo record."""
        self.warc_name = f"warc/crawl-{run:05d}.warc.gz"
        self._warc = open(self.folder / self.warc_name, "ab")
        self._writer = WARCWriter(self._warc, gzip=True, warc_version=WARC_VERSION)
        record = self._writer.create_warcinfo_record(self.warc_name.split("/")[-1], info)
        self._writer.write_record(record)
        self._warc.flush()

    def write_exchange(self, fetch_id: int, url: str, method_line: str, request_headers: list[tuple[str, str]],
                       status_line: str, response_headers: list[tuple[str, str]], body: bytes, *,
                       date: float | None = None, address: str | None = None, truncated: str | None = None
                       ) -> tuple[int, int]:
        """Append a response record and its request record (``WARC-Concurrent-To`` the response); flushed.

        The response's HTTP headers are those received, except that a body stored decoded loses its
        ``Content-Encoding`` and ``Transfer-Encoding`` and gets its own ``Content-Length``, so that the headers
        describe the stored body (ISO 28500:2017, WARC 1.1: the records hold what a reader can replay).

        :param date: the Unix time the request started (``WARC-Date``, in microseconds: WARC 1.1).
        :param address: the IP address the request went to (``WARC-IP-Address``).
        :param truncated: why the body is not whole (``WARC-Truncated``: ``length``, ``time``, ``disconnect``,
            ``unspecified``).
        :returns: ``(offset, length)`` of the response record in the file.
        """
        assert self._writer is not None and self._warc is not None
        headers = [(k, v) for k, v in response_headers
                   if k.lower() not in ("content-encoding", "transfer-encoding", "content-length")]
        headers.append(("Content-Length", str(len(body))))
        http = StatusAndHeaders(status_line, headers, protocol="HTTP/1.1")
        extra = {FETCH_ID_HEADER: str(fetch_id)}
        if date is not None:
            extra["WARC-Date"] = datetime_to_iso_date(datetime.fromtimestamp(date, timezone.utc).replace(tzinfo=None),
                                                      use_micros=True)
        if address:
            extra["WARC-IP-Address"] = address
        response_extra = {**extra, "WARC-Truncated": truncated} if truncated else dict(extra)
        response = self._writer.create_warc_record(url, "response", payload=io.BytesIO(body), http_headers=http,
                                                   warc_headers_dict=response_extra)
        request_http = StatusAndHeaders(method_line, request_headers, is_http_request=True)
        request = self._writer.create_warc_record(url, "request", payload=io.BytesIO(b""),
                                                  http_headers=request_http, warc_headers_dict=dict(extra))
        request.rec_headers.add_header("WARC-Concurrent-To", response.rec_headers.get_header("WARC-Record-ID"))
        offset = self._warc.tell()
        self._writer.write_record(response)
        length = self._warc.tell() - offset
        self._writer.write_record(request)
        self._warc.flush()
        return offset, length

    def read_response(self, name: str, offset: int) -> WarcResponse | None:
        """The response record at ``offset`` of WARC file ``name`` (relative to the folder), or ``None``."""
        with open(self.folder / name, "rb") as stream:
            stream.seek(offset)
            iterator = ArchiveIterator(stream)
            for record in iterator:
                if record.rec_type != "response" or record.http_headers is None:
                    return None
                body = record.content_stream().read()
                return _response(record, body, offset, iterator.get_record_length())
        return None

    def scan_responses(self, name: str, start: int) -> list[WarcResponse]:
        """The response records of WARC file ``name`` from offset ``start`` on (``start``: a record's offset).

        A record that a kill cut short (its gzip member or its block shorter than its ``Content-Length`` says) and
        everything after it are cut off the file, so that the file ends with whole records.

        :returns: the whole response records, in file order, with their offsets and lengths in the file.
        """
        path = self.folder / name
        if not path.exists():
            return []
        responses = []
        end, size = start, path.stat().st_size
        with open(path, "rb") as stream:
            stream.seek(start)
            iterator = ArchiveIterator(stream)
            try:
                for record in iterator:
                    response = record.rec_type == "response" and record.http_headers is not None
                    body = record.content_stream().read() if response else None
                    if not response:
                        record.raw_stream.read()
                    if record.raw_stream.limit:  # the block ended before its Content-Length: cut short
                        break
                    offset, length = iterator.get_record_offset(), iterator.get_record_length()
                    if not _whole_member(stream, offset, length):  # its gzip member's end is missing
                        break
                    end = offset + length
                    if response:
                        assert body is not None
                        responses.append(_response(record, body, offset, length))
            except (ArchiveLoadFailed, EOFError, OSError, ValueError, zlib.error):
                pass  # a record cut short: everything before it stands
        if size > end:
            with open(path, "r+b") as stream:
                stream.truncate(end)
        return responses

    def missing_records(self) -> list[tuple[str, int, int | None]]:
        """The WARC files that no longer hold every record the database says they hold (cut or removed by hand):
        ``(name, pages whose response record is gone, the file's size in bytes or None when it is missing)``."""
        missing = []
        for name, ends in self.db.execute("SELECT warc_file, GROUP_CONCAT(warc_offset + warc_length) FROM pages "
                                          "WHERE warc_file IS NOT NULL GROUP BY warc_file ORDER BY warc_file"):
            path = self.folder / name
            size = path.stat().st_size if path.is_file() else None
            gone = sum(1 for end in ends.split(",") if size is None or int(end) > size)
            if gone:
                missing.append((name, gone, size))
        return missing

    def close(self) -> None:
        if self._warc is not None:
            self._warc.close()
            self._warc = self._writer = None
        self.db.close()


def _whole_member(stream: Any, offset: int, length: int) -> bool:
    """Whether the bytes ``offset .. offset + length`` of ``stream`` are one whole gzip member (its trailer
    included); the stream's position is kept."""
    here = stream.tell()
    try:
        stream.seek(offset)
        member = zlib.decompressobj(16 + zlib.MAX_WBITS)
        member.decompress(stream.read(length))
        return member.eof
    except zlib.error:
        return False
    finally:
        stream.seek(here)


def _response(record: Any, body: bytes, offset: int, length: int) -> WarcResponse:
    fetch = record.rec_headers.get_header(FETCH_ID_HEADER)
    status = int(record.http_headers.get_statuscode() or 0)
    return WarcResponse(int(fetch) if fetch and fetch.isdigit() else None, record.rec_headers.get_header(
        "WARC-Target-URI"), status, list(record.http_headers.headers), body, offset, length)


class _Transaction:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> sqlite3.Connection:
        self.db.execute("BEGIN IMMEDIATE")
        return self.db

    def __exit__(self, kind: object, value: object, traceback: object) -> None:
        if kind is None:
            self.db.execute("COMMIT")
        else:
            self.db.execute("ROLLBACK")
