"""The index folder: one SQLite database holding the pages, their tables, their links and the full-text index.

SQLite FTS5 is the inverted index (chosen by measurement, ``docs/search.md`` "Engine"): one column per field of
:data:`~pyxform.wings.search.fields.FIELDS`, holding the analyzed terms (:mod:`.text`), and its ``bm25()`` with
per-column weights as the text score. Everything the ranking and the results need per table is stored at index time:
header and key column terms, shape, previews (compressed records) and the table's XML.

Layout of ``INDEX/``: ``index.sqlite`` (WAL journal: with ``-wal`` and ``-shm`` beside it while open) and
``index.lock`` (the writer's lock). :data:`SCHEMA_VERSION` is checked on open.
"""

from __future__ import annotations

import json
import sqlite3
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final

from ...base.errors import OutputError, SearchIndexError
from .fields import FIELD_NAMES

__all__ = ["Store", "DATABASE", "LOCK", "SCHEMA_VERSION", "pack", "unpack", "damaged_as_index_error"]

DATABASE: Final = "index.sqlite"
#: Held (``flock``) by the one process writing to the index.
LOCK: Final = "index.lock"
SCHEMA_VERSION: Final = "1"

_SCHEMA: Final = f"""
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS pages (
    id INTEGER PRIMARY KEY,
    source TEXT NOT NULL UNIQUE,        -- the page's URI or path as given: its identity in the index
    path TEXT,                          -- the file it came from (HTML file, WARC file, XML output), or NULL
    url TEXT,                           -- the page's URL: canonical link > WARC / crawl URL > file URI
    url_key TEXT,                       -- url as a node of the link graph (links.url_key)
    alias_key TEXT,                     -- the URL it was fetched from (or its file), when not url: the same node
    title TEXT NOT NULL DEFAULT '',
    hash TEXT NOT NULL,                 -- SHA-256 of the page's bytes
    status TEXT NOT NULL,               -- ok | partial | no-tables | failed
    tables INTEGER NOT NULL DEFAULT 0,
    error TEXT,                         -- "[code] message" when failed / no-tables
    pagerank REAL NOT NULL DEFAULT 0.0
);
CREATE INDEX IF NOT EXISTS pages_hash ON pages(hash);
CREATE INDEX IF NOT EXISTS pages_url_key ON pages(url_key);
CREATE INDEX IF NOT EXISTS pages_alias_key ON pages(alias_key);
CREATE TABLE IF NOT EXISTS links (page INTEGER NOT NULL, target TEXT NOT NULL, PRIMARY KEY (page, target))
    WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS tables (
    id INTEGER PRIMARY KEY,             -- the row of the full-text index
    page INTEGER NOT NULL,
    position INTEGER NOT NULL,          -- the table's index on its page (0-based, document order, nested counted)
    caption TEXT, heading TEXT, locator TEXT,
    headers TEXT NOT NULL,              -- JSON: one header path (joined with " / ") per column
    key_column INTEGER,
    header_terms TEXT NOT NULL,         -- analyzed header terms, each once, space-separated
    key_terms TEXT NOT NULL,            -- analyzed key column terms, each once
    records INTEGER NOT NULL, columns INTEGER NOT NULL,
    header_rows INTEGER NOT NULL, header_cols INTEGER NOT NULL, depth INTEGER NOT NULL, hidden INTEGER NOT NULL,
    body BLOB NOT NULL,                 -- zlib(JSON {{"kinds": [...], "records": [[...], ...]}})
    xml BLOB                            -- zlib(the table's XML element), or NULL
);
CREATE INDEX IF NOT EXISTS tables_page ON tables(page);
CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5({", ".join(FIELD_NAMES)},
    tokenize = "unicode61 remove_diacritics 0", detail = full);
CREATE VIRTUAL TABLE IF NOT EXISTS fts_terms USING fts5vocab(fts, 'row');  -- term -> tables holding it
"""


def _writer_lock(folder: Path) -> Any:
    """An exclusive ``flock`` on ``folder/index.lock``, held while the returned file is open (where ``fcntl`` exists;
    elsewhere no lock).

    :raises SearchIndexError: another process holds it.
    """
    try:
        import fcntl
    except ImportError:  # not POSIX
        return None
    try:
        lock = open(folder / LOCK, "a+b")  # noqa: SIM115 - held open for the store's lifetime
    except OSError as error:
        raise OutputError(f"cannot write in the index folder: {error.strerror or error}",
                          location=str(folder)) from None
    try:
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        lock.close()
        raise SearchIndexError("another pyxform index is updating this index: wait until it ends (readers need not)",
                               location=str(folder)) from None
    return lock


@contextmanager
def damaged_as_index_error(location: Path) -> Iterator[None]:
    """Turn SQLite's "database disk image is malformed" (and any other database error met while reading an index
    that opened well) into a :class:`~pyxform.base.errors.SearchIndexError` naming the index."""
    try:
        yield
    except sqlite3.DatabaseError as error:
        raise SearchIndexError(f"the index is damaged ({error}): build it again into a new folder",
                               location=str(location)) from None


def pack(value: Any) -> bytes:
    """JSON, compressed."""
    return zlib.compress(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8"), 6)


def unpack(data: bytes) -> Any:
    return json.loads(zlib.decompress(data))


class Store:
    """An open index database.

    A writable store (``create``) is the index's only writer while it is open: it holds an exclusive lock on
    ``INDEX/index.lock`` (``flock``), so a second ``pyxform index`` into the same folder is refused rather than
    interleaving its pages; readers (``search``, ``serve``) need no lock (SQLite's WAL gives each query a snapshot).

    :param folder: the index folder.
    :param create: create the folder and the database if missing (for ``index``); else a missing index is an error.
    :param readonly: open for searching only.
    :raises SearchIndexError: no index there (and not ``create``), a database that is not an index (another
        program's, damaged), an index of another schema version, or (``create``) another writer holds the index.
    :raises OutputError: ``create`` and the folder cannot be made (a file is in the way, no permission).
    """

    def __init__(self, folder: str | Path, *, create: bool = False, readonly: bool = False) -> None:
        self.folder = Path(folder)
        self.path = self.folder / DATABASE
        self._lock: Any = None
        if not self.path.is_file():
            if not create:
                if self.folder.is_dir():
                    raise SearchIndexError(f"not a search index (no {DATABASE} in it): build one with pyxform index",
                                           location=str(self.folder))
                raise SearchIndexError("no search index there: build one with pyxform index FILES... --out "
                                       f"{self.folder}", location=str(self.folder))
            if self.folder.exists() and not self.folder.is_dir():
                raise OutputError("the index is a folder, and this is a file: choose another --out",
                                  location=str(self.folder))
            try:
                self.folder.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise OutputError(f"cannot create the index folder: {error.strerror or error}",
                                  location=str(self.folder)) from None
        if not readonly:
            self._lock = _writer_lock(self.folder)
        try:
            if readonly:
                self.db = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True,
                                          check_same_thread=False)
            else:
                self.db = sqlite3.connect(self.path, check_same_thread=False)
        except sqlite3.Error as error:
            self._unlock()
            raise SearchIndexError(f"cannot open the index ({error})", location=str(self.path)) from None
        try:
            self._check(create=create and not readonly)
            if not readonly:
                self.db.execute("PRAGMA journal_mode=WAL")
                self.db.execute("PRAGMA synchronous=NORMAL")
        except sqlite3.DatabaseError as error:
            self.close()
            raise SearchIndexError(f"not a pyxform search index ({error})", location=str(self.path)) from None
        except SearchIndexError:
            self.close()
            raise

    def _check(self, *, create: bool) -> None:
        """Refuse a database that is not an index of this version before writing anything to it; create the schema
        in an empty one (``create``)."""
        names = {row[0] for row in self.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if "meta" not in names:
            if names:
                raise SearchIndexError(f"not a pyxform search index (a database with other tables: "
                                       f"{', '.join(sorted(names)[:5])}): choose another folder",
                                       location=str(self.path))
            if not create:
                raise SearchIndexError("not a pyxform search index (an empty database): build one with pyxform index",
                                       location=str(self.path))
            self.db.executescript(_SCHEMA)
            self.db.execute("INSERT INTO meta VALUES ('schema', ?)", (SCHEMA_VERSION,))
            self.db.execute("INSERT INTO meta VALUES ('fields', ?)", (" ".join(FIELD_NAMES),))
            self.db.commit()
        meta = dict(self.db.execute("SELECT key, value FROM meta").fetchall())
        version = meta.get("schema")
        if version != SCHEMA_VERSION or meta.get("fields") != " ".join(FIELD_NAMES):
            raise SearchIndexError(f"a search index of another version ({version or 'unknown'}; this pyxform reads "
                                   f"{SCHEMA_VERSION}): build it again into a new folder", location=str(self.path))

    def close(self) -> None:
        self.db.close()
        self._unlock()

    def _unlock(self) -> None:
        if self._lock is not None:
            self._lock.close()  # closing the file releases its flock
            self._lock = None

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- pages -------------------------------------------------------------------------------------------------------
    def page_by_source(self, source: str) -> tuple[int, str] | None:
        """``(id, hash)`` of the page indexed under ``source``, or ``None``."""
        row = self.db.execute("SELECT id, hash FROM pages WHERE source = ?", (source,)).fetchone()
        return (int(row[0]), str(row[1])) if row else None

    def page_by_hash(self, digest: str) -> int | None:
        """The id of a page indexed with content ``digest`` whose conversion succeeded (tables stored), or ``None``."""
        row = self.db.execute("SELECT id FROM pages WHERE hash = ? AND status IN ('ok', 'partial', 'no-tables') "
                              "ORDER BY id LIMIT 1", (digest,)).fetchone()
        return int(row[0]) if row else None

    def delete_page(self, page: int) -> None:
        """Remove a page, its tables (and their full-text rows) and its links."""
        ids = [row[0] for row in self.db.execute("SELECT id FROM tables WHERE page = ?", (page,))]
        self.db.executemany("DELETE FROM fts WHERE rowid = ?", [(i,) for i in ids])
        self.db.execute("DELETE FROM tables WHERE page = ?", (page,))
        self.db.execute("DELETE FROM links WHERE page = ?", (page,))
        self.db.execute("DELETE FROM pages WHERE id = ?", (page,))

    def add_page(self, *, source: str, path: str | None, url: str | None, url_key: str | None, title: str,
                 digest: str, status: str, tables: int, error: str | None, alias_key: str | None = None) -> int:
        cursor = self.db.execute(
            "INSERT INTO pages (source, path, url, url_key, alias_key, title, hash, status, tables, error) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (source, path, url, url_key, alias_key if alias_key != url_key else None, title, digest, status, tables,
             error))
        assert cursor.lastrowid is not None
        return int(cursor.lastrowid)

    def add_links(self, page: int, targets: list[str]) -> None:
        self.db.executemany("INSERT OR IGNORE INTO links VALUES (?, ?)", [(page, target) for target in targets])

    def add_table(self, page: int, row: dict[str, Any], terms: dict[str, str]) -> int:
        """Store one table (``row``: the columns of ``tables``) and its analyzed field terms; its id."""
        cursor = self.db.execute(
            "INSERT INTO tables (page, position, caption, heading, locator, headers, key_column, header_terms, "
            "key_terms, records, columns, header_rows, header_cols, depth, hidden, body, xml) VALUES "
            "(:page, :position, :caption, :heading, :locator, :headers, :key_column, :header_terms, :key_terms, "
            ":records, :columns, :header_rows, :header_cols, :depth, :hidden, :body, :xml)", {"page": page, **row})
        table_id = cursor.lastrowid
        assert table_id is not None
        self.db.execute(f"INSERT INTO fts (rowid, {', '.join(FIELD_NAMES)}) VALUES (?{', ?' * len(FIELD_NAMES)})",
                        (table_id, *(terms[name] for name in FIELD_NAMES)))
        return int(table_id)

    def copy_tables(self, from_page: int, to_page: int) -> int:
        """Copy the tables of one page to another (same content under another source); how many."""
        rows = self.db.execute("SELECT id FROM tables WHERE page = ? ORDER BY position", (from_page,)).fetchall()
        columns = ("position, caption, heading, locator, headers, key_column, header_terms, key_terms, records, "
                   "columns, header_rows, header_cols, depth, hidden, body, xml")
        for (old,) in rows:
            cursor = self.db.execute(f"INSERT INTO tables (page, {columns}) SELECT ?, {columns} FROM tables "
                                     "WHERE id = ?", (to_page, old))
            self.db.execute(f"INSERT INTO fts (rowid, {', '.join(FIELD_NAMES)}) SELECT ?, {', '.join(FIELD_NAMES)} "
                            "FROM fts WHERE rowid = ?", (cursor.lastrowid, old))
        return len(rows)

    def counts(self) -> dict[str, int]:
        """How many pages (by status) and tables the index holds."""
        counts = {str(status): int(n) for status, n in
                  self.db.execute("SELECT status, count(*) FROM pages GROUP BY status")}
        counts["pages"] = sum(counts.values())
        counts["tables"] = int(self.db.execute("SELECT count(*) FROM tables").fetchone()[0])
        return counts

    def commit(self) -> None:
        self.db.commit()
