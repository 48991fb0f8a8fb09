"""Building and updating an index: pages in, table documents and the link graph out, PageRank recomputed.

Incremental by content: each page is keyed by its identity (file path or WARC target URI) and the SHA-256 of its
bytes. A page already indexed with the same bytes is left alone (not read into a worker, not converted); a page whose
bytes changed replaces its old tables; a page whose bytes are already indexed under another identity gets a copy of
those tables without a conversion. Adding pages inserts rows into the full-text index; nothing is rebuilt. Only the
PageRank vector, a property of the whole graph, is computed again after an update (sparse, milliseconds).

Pages are converted through the jobs layer (``format="tables"``) in worker processes, so a page that hangs, explodes
or crashes costs only itself; it is recorded in the index with its reason (status ``failed``) and the run goes on.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
import zlib
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...base.errors import InputError, InputNotFound, PyxformError
from ...base.limits import DEFAULT_LIMITS, Limits
from ...base.source import Source
from ... import jobs
from .extract import TableDocument, page_from_output, table_documents
from .fields import FIELD_NAMES
from .links import page_url, pagerank, resolve_links, url_key
from .sources import InputProblem, PageInput, Skipped, crawl_database, crawl_links, read_inputs
from .store import Store, pack
from .text import analyze

__all__ = ["IndexReport", "build_index", "PageFailure"]


@dataclass(frozen=True)
class PageFailure:
    """A page (or an input) that gave no tables: where, the error code, the message."""

    where: str
    code: str
    message: str


@dataclass
class IndexReport:
    """What one ``index`` run did.

    :ivar converted: pages converted (sent to a worker) in this run.
    :ivar read_xml: pyxform output files read (no conversion).
    :ivar unchanged: pages already indexed with the same bytes (no-op).
    :ivar copied: pages whose bytes were already indexed under another identity (tables copied, no conversion).
    :ivar replaced: pages indexed before with other bytes, now replaced.
    :ivar tables_added: table documents added in this run.
    :ivar failures: pages and inputs that failed in this run (the pages are recorded in the index too).
    :ivar no_tables: pages without a table in this run.
    :ivar skipped: files of walked folders that are not pages.
    :ivar pages, tables: what the index holds after the run.
    :ivar seconds: wall-clock time of the run.
    """

    converted: int = 0
    read_xml: int = 0
    unchanged: int = 0
    copied: int = 0
    replaced: int = 0
    tables_added: int = 0
    failures: list[PageFailure] = field(default_factory=list)
    no_tables: int = 0
    skipped: int = 0
    pages: int = 0
    tables: int = 0
    seconds: float = 0.0

    @property
    def pages_seen(self) -> int:
        """Pages met in the inputs (indexed, unchanged, copied or failed)."""
        return self.converted + self.read_xml + self.unchanged + self.copied


def _row(document: TableDocument) -> tuple[dict[str, Any], dict[str, str]]:
    """The ``tables`` row and the analyzed field terms of a document."""
    terms = {name: " ".join(analyze(document.text[name])) for name in FIELD_NAMES}
    row = {
        "position": document.index, "caption": document.caption, "heading": document.heading,
        "locator": document.locator, "headers": json.dumps(document.headers, ensure_ascii=False),
        "key_column": document.key_column, "header_terms": " ".join(document.header_terms),
        "key_terms": " ".join(document.key_terms), "records": len(document.records),
        "columns": len(document.columns), "header_rows": document.header_rows,
        "header_cols": document.header_cols, "depth": document.depth, "hidden": int(document.hidden),
        "body": pack({"kinds": document.kinds, "records": document.records}),
        "xml": None if document.xml is None else zlib.compress(document.xml.encode("utf-8"), 6),
    }
    return row, terms


class _Converter:
    """Runs pages through the jobs layer: in ``jobs`` worker processes (one per thread), in order of submission."""

    def __init__(self, jobs_count: int, limits: Limits, *, isolated: bool = True) -> None:
        self.limits = limits
        self.isolated = isolated
        self.options = jobs.PageOptions(format="tables", limits=limits)
        self.pool = ThreadPoolExecutor(max_workers=jobs_count) if jobs_count > 1 else None
        self._workers: list[jobs.Worker] = []
        self._local = threading.local()

    def _worker(self) -> jobs.Worker:
        worker = getattr(self._local, "worker", None)
        if worker is None:
            worker = jobs.Worker(self.limits)
            self._local.worker = worker
            self._workers.append(worker)
        return worker

    def run(self, page: PageInput) -> jobs.PageResult:
        source = Source(page.data, page.url or page.path or page.key, page.charset)
        if not self.isolated:
            return jobs.run_page(source, self.options)
        return self._worker().run(source, self.options)

    def submit(self, page: PageInput) -> Future[jobs.PageResult]:
        if self.pool is None:
            done: Future[jobs.PageResult] = Future()
            try:
                done.set_result(self.run(page))
            except BaseException as error:  # noqa: BLE001 - handed to the caller through the future
                done.set_exception(error)
            return done
        return self.pool.submit(self.run, page)

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True)
        for worker in self._workers:
            worker.close()


def _error_text(error: BaseException | None) -> tuple[str, str]:
    if isinstance(error, PyxformError):
        return error.code, error.message
    return "crash", f"{type(error).__name__}: {error}" if error else "unknown"


def build_index(folder: str | Path, inputs: list[str], *, limits: Limits = DEFAULT_LIMITS, jobs_count: int = 1,
                isolated: bool = True, on_page: Callable[[str, str], None] | None = None) -> IndexReport:
    """Add the pages of ``inputs`` to the index in ``folder`` (created if missing).

    :param inputs: HTML files or folders, WARC files, crawl folders, pyxform output XML files or folders of them
        (:mod:`.sources`).
    :param limits: applied to every page's conversion (``timeout`` and ``max_memory`` in the worker process).
    :param jobs_count: worker processes converting pages at once.
    :param isolated: convert in worker processes (else in this process: no time or memory cap, no process start).
    :param on_page: called as ``on_page(where, what)`` for each page (``what``: ``converted``, ``unchanged``,
        ``copied``, ``failed``, ``no-tables``, ``xml``), e.g. for progress.
    :returns: an :class:`IndexReport`.
    :raises InputError: the inputs hold no page at all (nothing is created then); ``InputNotFound`` when the
        only inputs are missing.
    :raises SearchIndexError: ``folder`` holds something else than an index of this version, another process is
        updating it, or it is damaged.
    """
    started = time.monotonic()
    report = IndexReport()
    items = read_inputs(inputs, max_bytes=limits.max_page_bytes)
    first = next(items, None)
    problems: list[InputProblem] = []
    while isinstance(first, (Skipped, InputProblem)):  # inputs without a page (empty, missing) create no index
        if isinstance(first, Skipped):
            report.skipped += 1
        else:
            problems.append(first)
        first = next(items, None)
    if first is None:
        if problems:
            error = InputNotFound if problems[0].code == "not-found" else InputError
            others = f" (and {len(problems) - 1} other input(s) without pages)" if len(problems) > 1 else ""
            raise error(problems[0].message + others, location=problems[0].where)
        where = ", ".join(inputs) if inputs else "(no INPUT)"
        raise InputError("no pages to index: looked for HTML files (.html, .htm, .xhtml, .shtml), WARC files "
                         "(.warc, .warc.gz) and pyxform XML outputs (.xml)" +
                         (f"; {report.skipped} other file(s) skipped" if report.skipped else ""), location=where)

    def all_items() -> Iterator[Any]:
        yield from problems
        yield first
        yield from items

    crawl_edges: list[tuple[str, str]] = []
    for name in inputs:
        database = crawl_database(Path(name)) if Path(name).is_dir() else None
        if database is not None:
            crawl_edges.extend(crawl_links(database))
    converter = _Converter(max(1, jobs_count), limits, isolated=isolated)
    pending: list[tuple[PageInput, str, Future[jobs.PageResult]]] = []
    with Store(folder, create=True) as store:
        try:
            for item in all_items():
                if isinstance(item, Skipped):
                    report.skipped += 1
                    continue
                if isinstance(item, InputProblem):
                    report.failures.append(PageFailure(item.where, item.code, item.message))
                    continue
                digest = hashlib.sha256(item.data).hexdigest()
                known = store.page_by_source(item.key)
                if known is not None and known[1] == digest:
                    report.unchanged += 1
                    if on_page:
                        on_page(item.key, "unchanged")
                    continue
                if item.kind == "xml" or store.page_by_hash(digest) is not None:
                    _flush(store, pending, report, on_page, wait_all=True)
                    _add_without_conversion(store, item, digest, report, on_page)
                    continue
                pending.append((item, digest, converter.submit(item)))
                _flush(store, pending, report, on_page, wait_all=len(pending) >= 2 * max(1, jobs_count))
            _flush(store, pending, report, on_page, wait_all=True)
        finally:
            converter.close()
        _store_crawl_edges(store, crawl_edges)
        update_pagerank(store)
        store.commit()
        counts = store.counts()
    report.pages, report.tables = counts["pages"], counts["tables"]
    report.seconds = time.monotonic() - started
    return report


def _flush(store: Store, pending: list[tuple[PageInput, str, Future[jobs.PageResult]]], report: IndexReport,
           on_page: Callable[[str, str], None] | None, *, wait_all: bool) -> None:
    """Store the converted pages at the head of ``pending`` (all of them with ``wait_all``, else those done)."""
    while pending and (wait_all or pending[0][2].done()):
        item, digest, future = pending.pop(0)
        try:
            result = future.result()
        except PyxformError as error:
            result = jobs.PageResult(item.key, "failed", error=error)
        report.converted += 1
        _store_result(store, item, digest, result, report, on_page)


def _replace(store: Store, item: PageInput, report: IndexReport) -> None:
    known = store.page_by_source(item.key)
    if known is not None:
        store.delete_page(known[0])
        report.replaced += 1


def _store_result(store: Store, item: PageInput, digest: str, result: jobs.PageResult, report: IndexReport,
                  on_page: Callable[[str, str], None] | None) -> None:
    _replace(store, item, report)
    if result.status in ("failed", "no-tables") or not result.outputs:
        code, message = _error_text(result.error)
        if result.status == "no-tables":
            report.no_tables += 1
        else:
            report.failures.append(PageFailure(item.path or item.key, code, message))
        url = page_url(canonical=None, fetched=item.url, path=item.path if item.kind == "html" else None)
        store.add_page(source=item.key, path=item.path, url=url, url_key=url_key(url), title="",
                       digest=digest, status=result.status if result.status == "no-tables" else "failed", tables=0,
                       error=f"[{code}] {message}")
        store.commit()
        if on_page:
            on_page(item.url or item.path or item.key, result.status)
        return
    page = json.loads(result.outputs[0].data)
    _store_page(store, item, digest, page, result.status, report)
    if on_page:
        on_page(item.url or item.path or item.key, "converted")


def _store_page(store: Store, item: PageInput, digest: str, page: dict[str, Any], status: str,
                report: IndexReport) -> None:
    """Insert one page in the ``tables`` format, its links and its table documents; commit."""
    fetched = item.url if item.kind == "html" else (page.get("source") if _is_url(page.get("source")) else None)
    url = page_url(canonical=page.get("canonical"), fetched=fetched,
                   path=item.path if item.kind == "html" else None)
    if url is None and item.kind == "xml":
        source = page.get("source") or ""
        url = source if _is_url(source) else (Path(source).resolve().as_uri() if source else None)
    documents = table_documents(page, url=url)
    fetched_url = page_url(canonical=None, fetched=fetched, path=item.path if item.kind == "html" else None)
    page_id = store.add_page(source=item.key, path=item.path, url=url, url_key=url_key(url),
                             alias_key=url_key(fetched_url),
                             title=page.get("title") or "", digest=digest,
                             status="partial" if page.get("failures") or status == "partial" else "ok",
                             tables=len(documents), error=None)
    targets = resolve_links(page.get("links", []), url=url, base=page.get("base"))
    store.add_links(page_id, [key for key in dict.fromkeys(url_key(target) for target in targets) if key])
    for document in documents:
        row, terms = _row(document)
        store.add_table(page_id, row, terms)
    report.tables_added += len(documents)
    store.commit()


def _is_url(text: str | None) -> bool:
    return bool(text) and "://" in str(text)


def _add_without_conversion(store: Store, item: PageInput, digest: str, report: IndexReport,
                            on_page: Callable[[str, str], None] | None) -> None:
    """A pyxform output (read as it is), or a page whose bytes are indexed under another identity (copied)."""
    same = store.page_by_hash(digest)
    if item.kind == "html" and same is not None:
        _replace(store, item, report)
        row = store.db.execute("SELECT url, url_key, title, status, tables, error FROM pages WHERE id = ?",
                               (same,)).fetchone()
        url = item.url or row[0]
        page_id = store.add_page(source=item.key, path=item.path, url=url,
                                 url_key=url_key(url) if item.url else row[1], title=row[2], digest=digest,
                                 status=row[3], tables=row[4], error=row[5])
        store.db.execute("INSERT OR IGNORE INTO links SELECT ?, target FROM links WHERE page = ?", (page_id, same))
        report.tables_added += store.copy_tables(same, page_id)
        report.copied += 1
        store.commit()
        if on_page:
            on_page(item.url or item.path or item.key, "copied")
        return
    try:
        page = page_from_output(item.data, location=item.path or item.key)
    except PyxformError as error:
        _replace(store, item, report)
        report.failures.append(PageFailure(item.path or item.key, error.code, error.message))
        store.add_page(source=item.key, path=item.path, url=None, url_key=None, title="", digest=digest,
                       status="failed", tables=0, error=f"[{error.code}] {error.message}")
        store.commit()
        if on_page:
            on_page(item.url or item.path or item.key, "failed")
        return
    _replace(store, item, report)
    report.read_xml += 1
    _store_page(store, item, digest, page, "ok", report)
    if on_page:
        on_page(item.url or item.path or item.key, "xml")


def _store_crawl_edges(store: Store, edges: list[tuple[str, str]]) -> None:
    """A crawl database's links, as links of the indexed pages they start from."""
    if not edges:
        return
    pages = {key: page for key, page in store.db.execute(
        "SELECT alias_key, id FROM pages WHERE alias_key IS NOT NULL UNION ALL "
        "SELECT url_key, id FROM pages WHERE url_key IS NOT NULL")}
    rows = []
    for source, target in edges:
        page = pages.get(url_key(source))
        key = url_key(target)
        if page is not None and key:
            rows.append((page, key))
    store.db.executemany("INSERT OR IGNORE INTO links VALUES (?, ?)", rows)


def update_pagerank(store: Store) -> None:
    """Compute PageRank over the indexed pages and store each page's score.

    Nodes: the distinct page URLs (``url_key``; a page's ``alias_key``, the URL it was fetched from, names the same
    node); edges: the stored links between them. Pages without a URL get the uniform share."""
    keys = [row[0] for row in store.db.execute("SELECT DISTINCT url_key FROM pages WHERE url_key IS NOT NULL "
                                               "ORDER BY url_key")]
    node = {key: i for i, key in enumerate(keys)}
    for alias, key in store.db.execute("SELECT alias_key, url_key FROM pages WHERE alias_key IS NOT NULL AND "
                                       "url_key IS NOT NULL ORDER BY id"):
        node.setdefault(alias, node[key])
    edges = []
    for page_key, target in store.db.execute(
            "SELECT p.url_key, l.target FROM links l JOIN pages p ON p.id = l.page WHERE p.url_key IS NOT NULL"):
        if target in node:
            edges.append((node[page_key], node[target]))
    scores = pagerank(edges, len(keys))
    store.db.executemany("UPDATE pages SET pagerank = ? WHERE url_key = ?", zip(scores, keys))
    store.db.execute("UPDATE pages SET pagerank = ? WHERE url_key IS NULL", (1.0 / max(1, len(keys)),))
