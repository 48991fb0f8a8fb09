"""Searching an index: the query path of ``pyxform search`` and of the search page.

Fast to start: it needs SQLite and the analyzer only (no Saxon, no lxml, no numpy), so a ``pyxform search`` process
answers in a fraction of a second. :class:`Searcher` keeps the database open for many queries (the search page).
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from ...base.errors import EmptyQuery
from .fields import FIELD_NAMES
from .rank import DEFAULT, PAIR_MIN_IDF, Candidate, Parameters, Query, idf, rank
from .store import Store, damaged_as_index_error, unpack
from .text import WORD, MAX_TERM_LENGTH, analyze, fold

__all__ = ["Searcher", "Hit", "EmptyQuery", "EmptyIndex", "PREVIEW_ROWS", "mark_cells"]

#: Rows of a table shown in a result's preview: the rows that hold the most query terms.
PREVIEW_ROWS: Final = 3
#: Characters of a cell kept in a preview.
PREVIEW_CELL: Final = 200
#: Terms of a query used (the first ones): a longer query costs more and ranks no better.
MAX_QUERY_TERMS: Final = 64


class EmptyIndex(ValueError):
    """The index holds no table."""


@dataclass(frozen=True)
class Hit:
    """One result (``search --format json`` has exactly :meth:`as_json`'s keys).

    :ivar id: the table's row in the index (for the search page's links); ``rank``: 1 for the best.
    :ivar source: the page's URL (canonical link, WARC URL), else its path (for a pyxform XML output: the page it
        was converted from, ``px:source``).
    :ivar path: the file it came from (page, WARC file or XML output), or ``None``.
    :ivar table: the table's index among all tables of its page (0-based, document order, nested counted).
    :ivar headers: one name per column (header path joined with `` / ``, ``""`` for none).
    :ivar preview: up to :data:`PREVIEW_ROWS` records, the ones holding the most query terms.
    :ivar xpath: where the table is in its page: an XPath 1.0 path (``px:locator``).
    :ivar marks: per preview row, the positions of the cells that hold a query term.
    """

    id: int
    rank: int
    score: float
    source: str
    path: str | None
    title: str
    table: int
    caption: str | None
    heading: str | None
    headers: list[str]
    preview: list[list[str]]
    xpath: str | None
    marks: list[list[int]]

    def as_json(self) -> dict[str, Any]:
        return {"rank": self.rank, "score": self.score, "source": self.source, "path": self.path,
                "title": self.title, "table": self.table, "caption": self.caption, "headers": self.headers,
                "preview": self.preview, "xpath": self.xpath}


def _fts_query(terms: Sequence[str]) -> str:
    return " OR ".join('"' + term.replace('"', '""') + '"' for term in terms)


def mark_cells(records: Sequence[Sequence[str]], query: Mapping[str, float], rows: int = PREVIEW_ROWS
               ) -> tuple[list[int], list[list[int]]]:
    """The records that hold the most query terms (in table order) and, for each, the positions of the cells that
    hold one.

    Rows are chosen by a cheap estimate, the IDF-weighted count of query terms whose first letters occur in the
    row's folded text (the best ``rows``, ties by position; the first rows when none holds any); only the chosen rows'
    cells are analyzed (:func:`~pyxform.wings.search.text.analyze`) to mark them. Terms as common as
    :data:`~pyxform.wings.search.rank.PAIR_MIN_IDF` says (``the``, ``of``) mark nothing unless the query has no other.

    :param query: each query term with its weight (IDF).
    """
    telling = {term: weight for term, weight in query.items() if weight >= PAIR_MIN_IDF} or dict(query)
    probes = [(term[:max(3, len(term) - 2)], weight) for term, weight in telling.items()]
    estimates = []
    for position, record in enumerate(records):
        folded = fold(" ".join(dict.fromkeys(record)))  # a spanning cell once
        found = sum(weight for probe, weight in probes if probe in folded)
        if found > 0:
            estimates.append((-found, position))
    estimates.sort()
    chosen = sorted(position for _, position in estimates[:rows]) or list(range(min(rows, len(records))))
    terms = frozenset(telling)
    marks = [[i for i, value in enumerate(records[position]) if value and terms.intersection(analyze(value))]
             for position in chosen]
    return chosen, marks


def _file_path(url: str) -> str:
    """The local path a ``file:`` URL names (a page read from a file, or the page a pyxform XML output came from)."""
    from urllib.parse import unquote, urlsplit

    return unquote(urlsplit(url).path)


def _no_words(query: str) -> str:
    """Why ``query`` gives no term (for :class:`EmptyQuery`), quoting at most 60 characters of it."""
    if not query.strip():
        return "the query has no word to search for"
    shown = repr(query if len(query) <= 60 else query[:59] + "…")
    if WORD.search(fold(query)):
        return (f"the query {shown} has no word to search for (words longer than {MAX_TERM_LENGTH} characters are "
                "not indexed)")
    return f"the query {shown} has no word to search for (only punctuation or symbols)"


class Searcher:
    """An open index for searching.

    :param folder: the index folder (``pyxform index --out``).
    :raises SearchIndexError: no index there, or not an index of this version.
    """

    def __init__(self, folder: str | Path) -> None:
        self.store = Store(folder, readonly=True)
        self.db = self.store.db

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> Searcher:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _snapshot(self) -> Iterator[None]:
        """One read transaction: every statement inside sees the same state of the index, even while ``pyxform
        index`` commits pages (SQLite's WAL keeps the snapshot)."""
        self.db.execute("BEGIN")
        try:
            yield
        finally:
            self.db.execute("COMMIT")

    def counts(self) -> tuple[int, int]:
        """(pages, tables) in the index, of one state of it."""
        with damaged_as_index_error(self.store.path), self._snapshot():
            pages = int(self.db.execute("SELECT count(*) FROM pages").fetchone()[0])
            tables = int(self.db.execute("SELECT count(*) FROM tables").fetchone()[0])
        return pages, tables

    def search(self, query: str, *, n: int = 10, ranking: str = "integrative",
               parameters: Parameters = DEFAULT) -> list[Hit]:
        """The ``n`` best tables for ``query``.

        :param ranking: ``integrative``, ``bm25`` or ``pagerank`` (:func:`~pyxform.wings.search.rank.rank`).
        :raises EmptyQuery: the query has no word (only spaces or punctuation).
        :raises EmptyIndex: the index holds no table.
        :raises SearchIndexError: the index is damaged.
        :raises ValueError: ``n`` < 1, or an unknown ranking.
        """
        if n < 1:
            raise ValueError(f"the number of results must be >= 1, not {n}")
        with damaged_as_index_error(self.store.path), self._snapshot():
            terms, weighted, candidates = self.candidates(query, parameters=parameters,
                                                          depth=max(n, parameters.depth))
            ranked = rank(candidates, weighted, parameters, ranking)[:n]
            return [self._hit(position + 1, value, candidate.id, weighted.terms)
                    for position, (value, candidate) in enumerate(ranked)]

    def candidates(self, query: str, *, parameters: Parameters = DEFAULT, depth: int | None = None,
                   phrases: bool | None = None) -> tuple[list[str], Query, list[Candidate]]:
        """The query's distinct terms, the query as the ranking reads it (terms and adjacent pairs with their
        weights), and the ``depth`` best tables by text score as :class:`~pyxform.wings.search.rank.Candidate`
        objects (what :meth:`search` ranks). ``phrases``: look up the pairs found as phrases (default: when the
        ``phrase`` weight is not 0).

        :raises EmptyQuery, EmptyIndex: as :meth:`search`.
        """
        sequence = analyze(query)
        terms = list(dict.fromkeys(sequence))[:MAX_QUERY_TERMS]
        sequence = [term for term in sequence if term in set(terms)]
        if not terms:
            raise EmptyQuery(_no_words(query))
        tables = int(self.db.execute("SELECT count(*) FROM tables").fetchone()[0])
        if tables == 0:
            raise EmptyIndex("the index holds no table" + ("" if self.db.execute(
                "SELECT count(*) FROM pages").fetchone()[0] else " (no page has been indexed)"))
        weights = ", ".join(repr(parameters.weights[name]) for name in FIELD_NAMES)
        rows = self.db.execute(
            f"SELECT rowid, -bm25(fts, {weights}) FROM fts WHERE fts MATCH ? ORDER BY bm25(fts, {weights}), rowid "
            "LIMIT ?", (_fts_query(terms), depth or parameters.depth)).fetchall()
        placeholders = ", ".join("?" * len(terms))
        counts = dict(self.db.execute(f"SELECT term, doc FROM fts_terms WHERE term IN ({placeholders})", terms))
        weighted = Query.of(sequence, {term: idf(tables, int(counts.get(term, 0))) for term in terms})
        if not rows:
            return terms, weighted, []
        pages = int(self.db.execute("SELECT count(*) FROM pages").fetchone()[0])
        text = dict(rows)
        ids = list(text)
        found: dict[int, set[tuple[str, str]]] = {}
        if parameters.phrase > 0 if phrases is None else phrases:
            wanted = set(ids)
            for pair in weighted.pairs:  # unfiltered phrase queries are faster in FTS5 than with "rowid IN (...)"
                for (rowid,) in self.db.execute("SELECT rowid FROM fts WHERE fts MATCH ?",
                                                ('"' + " ".join(pair).replace('"', '""') + '"',)):
                    if rowid in wanted:
                        found.setdefault(rowid, set()).add(pair)
        details = {row[0]: row for row in self.db.execute(
            f"SELECT t.id, p.source, t.position, t.header_terms, t.key_terms, t.records, t.header_rows, t.depth, "
            f"p.pagerank FROM tables t JOIN pages p ON p.id = t.page WHERE t.id IN ({', '.join('?' * len(ids))})",
            ids)}
        candidates = [Candidate(id=i, order=(details[i][1], details[i][2]), text=float(text[i]),
                                header_terms=frozenset(details[i][3].split()),
                                key_terms=frozenset(details[i][4].split()),
                                phrases=frozenset(found.get(i, ())), records=int(details[i][5]),
                                header_rows=int(details[i][6]), depth=int(details[i][7]),
                                pagerank=float(details[i][8]), pages=pages) for i in ids]
        return terms, weighted, candidates

    def _hit(self, position: int, value: float, table_id: int, terms: Mapping[str, float]) -> Hit:
        row = self.db.execute(
            "SELECT p.source, p.path, p.url, p.title, t.position, t.caption, t.heading, t.headers, t.body, "
            "t.locator FROM tables t JOIN pages p ON p.id = t.page WHERE t.id = ?", (table_id,)).fetchone()
        key, path, url, title, table, caption, heading, headers, body, locator = row
        records = unpack(body)["records"]
        chosen, marks = mark_cells(records, terms)
        preview = [[value[:PREVIEW_CELL] for value in records[i]] for i in chosen]
        source = _file_path(url) if url and url.startswith("file:") else (url or path or key)
        return Hit(id=table_id, rank=position, score=round(float(value), 6), source=source, path=path,
                   title=title, table=int(table), caption=caption, heading=heading, headers=json.loads(headers),
                   preview=preview, xpath=locator, marks=marks)

    def table_xml(self, table_id: int) -> str | None:
        """The XML of an indexed table (its element in the output XML), or ``None`` if the index has none."""
        row = self.db.execute("SELECT xml FROM tables WHERE id = ?", (table_id,)).fetchone()
        if row is None or row[0] is None:
            return None
        return zlib.decompress(row[0]).decode("utf-8")

    def table(self, table_id: int) -> Mapping[str, Any] | None:
        """What the index stores about one table (for the search page), or ``None``."""
        row = self.db.execute(
            "SELECT p.source, p.path, p.url, p.title, t.position, t.caption, t.headers FROM tables t "
            "JOIN pages p ON p.id = t.page WHERE t.id = ?", (table_id,)).fetchone()
        if row is None:
            return None
        return {"key": row[0], "path": row[1], "url": row[2], "title": row[3], "table": row[4], "caption": row[5],
                "headers": json.loads(row[6])}
