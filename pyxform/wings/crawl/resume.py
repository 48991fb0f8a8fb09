"""Setting up and resuming a crawl: the folder (a new crawl, or the same seeds and topic again), the memory side
rebuilt from the database (robots.txt rules, topic statistics, the link graph, the trap detector, the classifier,
the frontier), and the fetches a kill interrupted (processed from the WARC file when their answer is there, else
recorded as interrupted and never sent again: ``store``'s order of writes).
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import time
from pathlib import Path
from typing import IO, Any, Final

try:
    import fcntl
except ImportError:  # pragma: no cover - not a POSIX system: no folder lock
    fcntl = None  # type: ignore[assignment]

from ...base.errors import CrawlStateError, OutputError
from ...base.warc import SNIFF_BYTES
from .fetcher import USER_AGENT, Answer, is_page
from .ordering import Candidate, Evidence
from .politeness import Robots
from .store import Store, utc_now
from .text import charset_of, terms
from .traps import unpack_print
from .urls import host_of, url_words

__all__ = ["Resuming", "FORMAT_VERSION"]

#: The version of the crawl folder's layout (``meta.format``).
FORMAT_VERSION: Final = 1
#: The file a running crawl holds locked (``flock``: released by the system however the process ends).
LOCK_FILE: Final = "crawl.lock"


class Resuming:
    """The setting-up part of a crawl run (a mixin of the crawl loop: it uses the loop's attributes)."""

    config: Any
    store: Store
    notes: list[str]
    _lock: IO[str] | None = None

    def _take_folder(self, folder: Path) -> None:
        """Hold the folder's lock for this run.

        :raises CrawlStateError: another crawl runs in the folder.
        :raises OutputError: the folder cannot be made or written.
        """
        try:
            folder.mkdir(parents=True, exist_ok=True)
            lock = open(folder / LOCK_FILE, "a+", encoding="utf-8")
        except OSError as error:
            raise OutputError(f"cannot use the crawl folder: {error.strerror or error}", location=str(folder)) \
                from None
        if fcntl is not None:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                lock.seek(0)
                holder = lock.read().strip() or "?"
                lock.close()
                raise CrawlStateError(f"another crawl is running in this folder (process {holder}): wait for it to "
                                      "end, or stop it (Ctrl-C) and run the command again to resume",
                                      location=str(folder)) from None
        lock.seek(0)
        lock.truncate()
        lock.write(f"{os.getpid()}\n")
        lock.flush()
        self._lock = lock

    def _release_folder(self) -> None:
        if self._lock is not None:
            self._lock.close()  # the lock goes with the file
            self._lock = None

    def _open(self) -> None:
        folder = Path(self.config.out)
        self._take_folder(folder)
        try:
            self._open_store(folder)
        except BaseException:
            self._release_folder()
            raise

    def _open_store(self, folder: Path) -> None:
        if self.config.restart and folder.exists():
            for name in ("crawl.sqlite", "crawl.sqlite-wal", "crawl.sqlite-shm"):
                (folder / name).unlink(missing_ok=True)
            for name in ("warc", "xml"):
                shutil.rmtree(folder / name, ignore_errors=True)
        try:
            self.store = Store(folder)
        except sqlite3.DatabaseError as error:
            raise CrawlStateError(f"not a crawl database: {error}", location=str(folder / "crawl.sqlite")) from None
        except OSError as error:
            raise OutputError(f"cannot use the crawl folder: {error.strerror or error}", location=str(folder)) \
                from None
        store = self.store
        seeds, topic = store.get("seeds"), store.get("topic")
        if seeds is None:
            with store.transaction():
                store.put("format", FORMAT_VERSION)
                store.put("seeds", self.seeds)
                store.put("topic", self.config.topic)
                store.put("run", 0)
        else:
            self.resumed = True
            made = store.get("format")
            if made != FORMAT_VERSION:
                store.close()
                raise CrawlStateError(
                    f"this folder holds a crawl of format {made} (this pyxform reads format {FORMAT_VERSION}): "
                    "resume it with the pyxform that made it, or add --restart to start a new crawl here (its pages "
                    "are removed)", location=str(folder))
            if sorted(seeds) != sorted(self.seeds) or topic != self.config.topic:
                what = "seeds" if sorted(seeds) != sorted(self.seeds) else "topic"
                shown = ", ".join(seeds) if what == "seeds" else repr(topic)
                store.close()
                raise CrawlStateError(
                    f"this folder holds a crawl with other {what} ({shown}): run the same command to resume it, or "
                    "add --restart to start a new crawl here (its pages are removed)", location=str(folder))
        run = int(store.get("run", 0)) + 1
        with store.transaction():
            store.put("run", run)
            store.put("ordering", self.config.ordering)
        store.open_warc(run, {"software": USER_AGENT, "format": "WARC File Format 1.1",
                              "description": f"pyxform crawl, run {run}; topic: {self.config.topic}",
                              "robots": "obey", "http-header-user-agent": USER_AGENT})

    def _restore(self) -> None:
        """Rebuild the memory side from the database (resume): robots rules, topic statistics, the link graph,
        the trap detector, the classifier, the frontier; recover fetches a kill interrupted."""
        db = self.store.db
        for key, value in db.execute("SELECT key, value FROM meta WHERE key LIKE 'robots:%'"):
            origin_ = key[len("robots:"):]
            self.slots.set_robots(origin_, host_of(origin_), Robots(**json.loads(value)))
        self._recover()
        for name, gone, size in self.store.missing_records():
            where = "is missing" if size is None else f"ends at byte {size}"
            self.notes.append(f"{name} {where}: the response records of {gone} page(s) the crawl recorded are no "
                              "longer in it (the file was cut or removed); their rows and XML stay, they are not "
                              "fetched again")
        # URLs of refused hosts had no request: they are tried again (with --allow-private, a DNS answer ...)
        db.execute("DELETE FROM pages WHERE url IN (SELECT url FROM frontier WHERE state = 'refused')")
        db.execute("UPDATE frontier SET state = 'queued', reason = NULL WHERE state = 'refused'")
        pages: dict[int, tuple[str, float]] = {}
        rows = db.execute("SELECT id, url, relevance, stats, duplicate_of, print FROM pages LEFT JOIN prints "
                          "ON prints.page = pages.id ORDER BY id").fetchall()
        for page_id, url, relevance, stats, duplicate_of, mark in rows:
            pages[page_id] = (url, relevance or 0.0)
            if stats:
                data = json.loads(stats)
                if self.topic is not None:
                    self.topic.restore_page(data.get("present", []),
                                            {"title": data.get("title", 0), "body": data.get("body", 0)})
                if mark is not None and data.get("text"):  # the trap detector sees the page again, as it was
                    self.traps.replay(url, data["text"], unpack_print(mark))
                else:
                    self.traps.restore(url, data.get("text"), data.get("near_duplicate", False), duplicate_of)
        evidence: dict[str, list[Evidence]] = {}
        for (source,) in db.execute("SELECT DISTINCT source FROM links"):
            if source in pages:
                self.ordering.observe_page(host_of(pages[source][0]))
        for source, target, anchor, context in db.execute("SELECT source, target, anchor, context FROM links"):
            source_url, relevance = pages.get(source, ("", 0.0))
            if source_url:
                self.graph.add_edge(source_url, target)
            evidence.setdefault(target, []).append(Evidence(terms(anchor), terms(context), relevance))
            if self.topic is not None:
                self.topic.observe_length("anchor", len(terms(anchor)))
        stats = self.stats
        stats.fetches = db.execute("SELECT COUNT(*) FROM fetches WHERE kind = 'page'").fetchone()[0]
        stats.robots_fetches = db.execute("SELECT COUNT(*) FROM fetches WHERE kind = 'robots'").fetchone()[0]
        stats.pages = db.execute("SELECT COUNT(*) FROM pages WHERE stats IS NOT NULL").fetchone()[0]
        stats.relevant = db.execute("SELECT COUNT(*) FROM pages WHERE relevance >= ?",
                                    (self.config.relevant_threshold,)).fetchone()[0]
        stats.failed = db.execute("SELECT COUNT(*) FROM pages WHERE failure IS NOT NULL").fetchone()[0]
        stats.skipped = db.execute("SELECT COUNT(*) FROM frontier WHERE state NOT IN ('queued', 'fetched', "
                                   "'failed')").fetchone()[0]
        stats.converted = db.execute("SELECT COUNT(*) FROM pages WHERE conversion IN ('ok', 'partial', "
                                     "'no-tables')").fetchone()[0]
        stats.conversion_failed = db.execute("SELECT COUNT(*) FROM pages WHERE conversion = 'failed'").fetchone()[0]
        for host, count in db.execute("SELECT url, 1 FROM fetches WHERE kind = 'page'"):
            self.slots.fetches[host_of(host)] = self.slots.fetches.get(host_of(host), 0) + count
        # the classifier learns again, in fetch order, from the pages and the links that led to them
        if self.config.ordering == "focused":
            for _page_id, (url, relevance) in pages.items():
                inlinks = evidence.get(url)
                if inlinks is not None and relevance is not None:
                    candidate = Candidate(url, host_of(url), 0, 0, url_terms=terms(url_words(url)), inlinks=inlinks)
                    self.classifier.learn(self.ordering.features(candidate),
                                          relevance >= self.config.relevant_threshold)
        queued = []
        interrupted = {row[1] for row in self._interrupted if row[2] == "page"}
        for url, depth, seq, hops, attempts in db.execute(
                "SELECT url, depth, seq, hops, attempts FROM frontier WHERE state = 'queued'"):
            if url in interrupted:
                continue  # settled by _finish_interrupted
            candidate = self._candidate(url, depth, seq, hops)
            candidate.attempts = attempts
            for item in evidence.get(url, [])[:8]:
                self.ordering.add_evidence(candidate, item)
            queued.append(candidate)
        self.frontier.load(queued)

    def _recover(self) -> None:
        """Fetches logged but not finished (a kill): processed from the WARC file if their answer is there, else
        recorded as interrupted (not fetched again)."""
        db = self.store.db
        rows = db.execute("SELECT id, url, kind, warc_file FROM fetches WHERE ended IS NULL").fetchall()
        if not rows:
            return
        by_file: dict[str, list[int]] = {}
        for fetch_id, _url, _kind, warc_file in rows:
            if warc_file:
                by_file.setdefault(warc_file, []).append(fetch_id)
        for warc_file in by_file:
            done = db.execute("SELECT MAX(warc_offset) FROM pages WHERE warc_file = ?", (warc_file,)).fetchone()[0]
            for response in self.store.scan_responses(warc_file, int(done or 0)):
                if response.fetch_id in by_file[warc_file]:
                    self._recovered[response.fetch_id] = (warc_file, response)
        self._interrupted = rows

    def _finish_interrupted(self) -> None:
        """Settle the fetches a kill interrupted (see :meth:`_recover`)."""
        for fetch_id, url, kind, warc_file in self._interrupted:
            recovered = self._recovered.get(fetch_id)
            if kind == "robots":
                self.store.db.execute("UPDATE fetches SET ended = ?, error = ? WHERE id = ?",
                                      (time.time(), "interrupted", fetch_id))
                continue
            row = self.store.db.execute("SELECT depth, seq, hops, attempts, state FROM frontier WHERE url = ?",
                                        (url,)).fetchone()
            if row is None:
                continue
            candidate = self._candidate(url, row[0], row[1], row[2])
            candidate.attempts = row[3]
            if recovered is not None:
                warc_name, response = recovered
                answer = Answer(url, response.status, "", response.headers, response.body, sent=True,
                                ended=time.time())
                answer.html = is_page(response.status, answer.content_type, response.body[:SNIFF_BYTES])
                self._pending_recovered.append((candidate, fetch_id, answer, (response.offset, response.length),
                                                warc_name))
            else:
                self.store.db.execute("UPDATE fetches SET ended = ?, error = ? WHERE id = ?",
                                      (time.time(), "interrupted: the crawl stopped before the answer was stored",
                                       fetch_id))
                self.store.db.execute(
                    "INSERT OR REPLACE INTO pages(url, final_url, fetched_at, depth, failure) VALUES (?,?,?,?,?)",
                    (url, url, utc_now(), row[0], "interrupted: the crawl stopped while fetching it; not fetched "
                     "again (nothing is fetched twice)"))
                self.store.db.execute("UPDATE frontier SET state = 'interrupted', reason = ? WHERE url = ?",
                                      ("the crawl stopped while fetching it", url))

    def _queue_pending_conversions(self) -> None:
        for candidate, fetch_id, answer, place, warc_name in self._pending_recovered:
            self._process(candidate, fetch_id, answer, place, warc_name)
        self._pending_recovered = []
        if self.converter is None:
            return
        rows = self.store.db.execute("SELECT id, url, content_type, warc_file, warc_offset FROM pages "
                                     "WHERE conversion = 'pending' ORDER BY id").fetchall()
        for page_id, url, content_type, warc_file, offset in rows:
            if warc_file is not None and offset is not None:
                self._convert(page_id, url, charset_of(content_type), warc_file, offset)
