"""The crawl loop: takes the best URL whose host may be fetched now (frontier, politeness, traps), fetches it
(fetcher), stores the answer (WARC, then one database transaction), scores and queues its links (ordering), and
hands HTML pages to the table converter; resumable (``store``'s order of writes) and stoppable (SIGINT, SIGTERM).
"""

from __future__ import annotations

import asyncio
import json
import shutil
import signal
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from ...errors import CrawlStateError, OutputError, PyxformError
from .config import CrawlConfig
from .fetcher import USER_AGENT, Answer, Fetcher, is_html
from .frontier import Frontier
from .learning import LinkClassifier
from .ordering import Candidate, Evidence, Ordering
from .politeness import ROBOTS_MAX_BYTES, HostSlots, Robots
from .relevance import Topic
from .store import Store, utc_now
from .structure import LinkGraph
from .tables import ConversionOutcome, TableConverter
from .text import parse_page, terms
from .traps import TrapDetector, url_trap
from .urls import canonical, host_in_scope, host_of, in_scope, origin, robots_url, url_words

__all__ = ["crawl", "CrawlStats", "CrawlSummary", "MAX_REDIRECTS", "ROBOTS_REDIRECTS"]

#: Redirect hops followed from one URL (each a fetch of its own).
MAX_REDIRECTS: Final = 10
#: Redirect hops followed for a robots.txt (RFC 9309, section 2.3.1.2: at least five).
ROBOTS_REDIRECTS: Final = 5
_FORMAT_VERSION: Final = 1


@dataclass
class CrawlStats:
    """Counts of the crawl so far (this run and the ones it resumes).

    :ivar fetches: HTTP requests sent, robots.txt excepted (what ``max_pages`` bounds).
    :ivar robots_fetches: robots.txt requests.
    :ivar pages: HTML pages fetched; ``relevant``: those whose relevance reached the threshold.
    :ivar queued: URLs in the frontier.
    :ivar failed: fetches that ended in an error or an HTTP error status.
    :ivar skipped: URLs set aside without a fetch (robots.txt, traps, duplicates, depth, budgets).
    :ivar converted, conversion_failed, conversion_pending: pages whose tables were converted, failed, wait.
    :ivar seconds: this run's time; ``run_fetches``: its fetches (for fetches per second).
    """

    fetches: int = 0
    robots_fetches: int = 0
    pages: int = 0
    relevant: int = 0
    queued: int = 0
    failed: int = 0
    skipped: int = 0
    converted: int = 0
    conversion_failed: int = 0
    conversion_pending: int = 0
    seconds: float = 0.0
    fetch_seconds: float = 0.0  # this run's time until its last fetch (then conversions may still be waited for)
    run_fetches: int = 0
    reasons: dict[str, int] = field(default_factory=dict)  # failure reason -> URLs (this run)

    @property
    def harvest_rate(self) -> float:
        """Relevant pages per fetch."""
        return self.relevant / self.fetches if self.fetches else 0.0

    @property
    def rate(self) -> float:
        """Fetches per second in this run (while it fetched)."""
        seconds = self.fetch_seconds or self.seconds
        return self.run_fetches / seconds if seconds > 0 else 0.0


@dataclass(frozen=True)
class CrawlSummary:
    """How a crawl run ended.

    :ivar stats: the counts at the end.
    :ivar ended: ``max-pages`` (the fetch budget is spent), ``done`` (nothing left to fetch), ``interrupted``
        (SIGINT / SIGTERM: run the same command again to resume).
    :ivar folder: the crawl's folder.
    :ivar resumed: this run resumed an earlier one.
    """

    stats: CrawlStats
    ended: str
    folder: str
    resumed: bool


def crawl(config: CrawlConfig, *, progress: Callable[[CrawlStats], None] | None = None,
          handle_signals: bool = True) -> CrawlSummary:
    """Run (or resume) a crawl.

    :param config: what to crawl and how.
    :param progress: called with the counts after each answer (and on robots.txt fetches), in the crawl's thread.
    :param handle_signals: stop gracefully on SIGINT / SIGTERM (a second one stops at once); in the main thread
        only.
    :returns: the :class:`CrawlSummary`.
    :raises CrawlStateError: ``config.out`` holds a crawl of other seeds or another topic (and not ``restart``), or
        its database is not a crawl's.
    :raises ValueError: a seed is not an absolute http(s) URL, or the topic has no word to look for.
    :raises OutputError: the folder cannot be written.
    """
    return asyncio.run(_Crawler(config, progress).run(handle_signals))


class _Stop(Exception):
    pass


class _Crawler:
    def __init__(self, config: CrawlConfig, progress: Callable[[CrawlStats], None] | None) -> None:
        self.config = config
        self.progress = progress
        self.stats = CrawlStats()
        self.stopping = False
        self.stop_now = False
        self.resumed = False
        seeds = []
        for seed in config.seeds:
            try:
                seeds.append(canonical(seed))
            except ValueError as error:
                raise ValueError(f"seed {seed!r}: {error}") from None
        self.seeds = list(dict.fromkeys(seeds))
        self.seed_hosts = frozenset(host_of(s) for s in self.seeds)
        self.domains = tuple(d.lower().strip(".") for d in config.allow_domains)
        self.topic = Topic(config.topic) if config.topic.strip() else None
        self.graph = LinkGraph()
        self.classifier = LinkClassifier()
        self.ordering = Ordering(config.ordering, self.topic, config.weights, self.graph, self.classifier,
                                 config.seed)
        self.traps = TrapDetector()
        self.slots = HostSlots(config.delay, config.max_pages_per_host)
        self.waiting: list[tuple[float, Candidate]] = []  # retries after their backoff
        self.inflight = 0  # page requests dispatched, not yet logged
        self.conversions: set[asyncio.Future[Any]] = set()
        self.tasks: set[asyncio.Task[None]] = set()
        self._conversion_args: dict[int, tuple[int, str, str | None, str, int]] = {}
        self._retried: set[int] = set()

        self.since_rescore = 0
        self.started = time.monotonic()

    # -- setting up --------------------------------------------------------------------------------------------
    def _open(self) -> None:
        folder = Path(self.config.out)
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
                store.put("format", _FORMAT_VERSION)
                store.put("seeds", self.seeds)
                store.put("topic", self.config.topic)
                store.put("run", 0)
        else:
            self.resumed = True
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
        pages: dict[int, tuple[str, float]] = {}
        rows = db.execute("SELECT id, url, relevance, stats, duplicate_of, priority FROM pages ORDER BY id").fetchall()
        for page_id, url, relevance, stats, duplicate_of, _priority in rows:
            pages[page_id] = (url, relevance or 0.0)
            if stats:
                data = json.loads(stats)
                if self.topic is not None:
                    self.topic.restore_page(data.get("present", []),
                                            {"title": data.get("title", 0), "body": data.get("body", 0)})
                self.traps.restore(url, data.get("text"), data.get("near_duplicate", False), duplicate_of)
        evidence: dict[str, list[Evidence]] = {}
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
        # URLs of refused hosts had no request: they are tried again (with --allow-private, a DNS answer ...)
        db.execute("UPDATE frontier SET state = 'queued', reason = NULL WHERE state = 'refused'")
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
        self._recovered: dict[int, Any] = {}
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

    # -- the loop ------------------------------------------------------------------------------------------------
    async def run(self, handle_signals: bool) -> CrawlSummary:
        self._open()
        self._interrupted: list[Any] = []
        self._recovered = {}
        self.frontier = Frontier(self.store.db, self.ordering)
        installed = []
        loop = asyncio.get_running_loop()
        if handle_signals and threading.current_thread() is threading.main_thread():
            for signum in (signal.SIGINT, signal.SIGTERM):
                try:
                    loop.add_signal_handler(signum, self._signal)
                    installed.append(signum)
                except (NotImplementedError, RuntimeError):
                    pass
        self.converter = TableConverter(self.store, self.config.limits) if self.config.convert else None
        ended = "done"
        try:
            limits = self.config.limits
            async with Fetcher(allow_private=self.config.allow_private, timeout=limits.fetch_timeout,
                               max_bytes=min(limits.max_fetch_bytes, limits.max_page_bytes),
                               connections=max(8, self.config.concurrency * 2)) as fetcher:
                self.fetcher = fetcher
                with self.store.transaction():
                    self._restore()
                    self._finish_interrupted()
                    if not self.resumed:
                        for seed in self.seeds:
                            self._discover(seed, depth=0, evidence=None, source=None)
                self._queue_pending_conversions()
                ended = await self._dispatch()
        finally:
            if self.converter is not None:  # the signal handlers stay: a signal while waiting leaves pages pending
                if not self.stopping:
                    await self._drain_conversions()
                self.converter.close(wait=not self.stopping)
                self._collect_conversions()
            for signum in installed:
                loop.remove_signal_handler(signum)
            self.stats.queued = len(self.frontier)
            self.stats.seconds = time.monotonic() - self.started
            self.store.close()
        if self.stopping:
            ended = "interrupted"
        self._report()
        return CrawlSummary(self.stats, ended, str(self.config.out), self.resumed)

    def _signal(self) -> None:
        if self.stopping:
            self.stop_now = True
            for task in self.tasks:
                task.cancel()
        self.stopping = True

    async def _dispatch(self) -> str:
        tasks = self.tasks
        ended = "done"
        while not self.stopping:
            now = time.monotonic()
            for item in [w for w in self.waiting if w[0] <= now]:
                self.waiting.remove(item)
                with self.store.transaction():
                    self.frontier.requeue(item[1])
            while len(tasks) < self.config.concurrency and not self.stopping:
                if self.stats.fetches + self.inflight >= self.config.max_pages:
                    break
                job = self._next_job()
                if job is None:
                    break
                tasks.add(asyncio.create_task(job))
            if self.stats.fetches + self.inflight >= self.config.max_pages and not tasks:
                ended = "max-pages"
                break
            wait = self._next_wake()
            if not tasks:
                if wait is None:
                    break  # nothing left that may ever be fetched
                await asyncio.sleep(max(0.0, wait))
                continue
            done, _ = await asyncio.wait(tasks, timeout=wait, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                tasks.discard(task)
                task.result()
        if tasks:  # stopping: let the requests in flight finish (a second signal cancels them)
            results = await asyncio.gather(*tasks, return_exceptions=True)
            for result in results:
                if isinstance(result, BaseException) and not isinstance(result, asyncio.CancelledError):
                    raise result
        self.stats.fetch_seconds = time.monotonic() - self.started
        return ended

    def _next_wake(self) -> float | None:
        """Seconds until a queued URL's host may be fetched, or a retry is due (``None``: nothing queued)."""
        now = time.monotonic()
        times = [w[0] - now for w in self.waiting]
        for host in self.frontier.hosts():
            if host in self.slots.busy:
                times.append(0.05)  # woken by its task's end anyway
            elif not self.slots.over_budget(host):
                times.append(self.slots.ready_at.get(host, 0.0) - now)
        return max(0.0, min(times)) if times else None

    def _next_job(self) -> Any:
        """The next request to start: a robots.txt or a page (URLs found unfit on the way are set aside)."""
        now = time.monotonic()
        while True:
            candidate = self.frontier.pick(lambda h: self.slots.free(h, now) and not self.slots.over_budget(h))
            if candidate is None:
                return None
            origin_ = origin(candidate.url)
            if not self.slots.known(origin_):
                self.frontier.queued[candidate.url] = candidate  # back in place: robots.txt first
                self.frontier.update(candidate)
                self.slots.take(candidate.host)
                return self._robots(origin_, candidate.host)
            reason, state = self._unfit(candidate, origin_)
            if reason is not None:
                with self.store.transaction():
                    if state == "refused":
                        self._record_failure(candidate, reason, state="refused")
                    else:
                        self.frontier.set_state(candidate.url, state, reason, candidate.priority)
                        self.stats.skipped += 1
                continue
            self.slots.take(candidate.host)
            self.inflight += 1
            return self._page(candidate)

    def _unfit(self, candidate: Candidate, origin_: str) -> tuple[str | None, str]:
        host = candidate.host
        ignored = self.traps.ignored_parameters(host)
        if ignored:
            try:
                key = canonical(candidate.url, ignored)
            except ValueError:
                key = candidate.url
            if key != candidate.url and key in self.frontier.seen:
                return f"the same page as {key} (a session-id parameter)", "duplicate"
        if self.slots.refused(origin_):
            return self.slots.robots_reason(origin_), "refused"
        if not self.slots.allowed(origin_, candidate.url):
            return f"disallowed by robots.txt ({self.slots.robots_reason(origin_)})", "robots"
        stopped = self.traps.stopped(candidate.url)
        if stopped is not None:
            return stopped, "trap"
        return None, "queued"

    # -- robots.txt ----------------------------------------------------------------------------------------------
    async def _robots(self, origin_: str, host: str) -> None:
        url, robots, sent = robots_url(origin_), None, False
        try:
            for _hop in range(ROBOTS_REDIRECTS + 1):
                try:
                    aimed = await self.fetcher.check(url)
                except PyxformError as error:
                    robots = Robots("refused", reason=f"[{error.code}] {error.message}")
                    break
                fetch_id = self._log_fetch(url, "robots")
                sent = True
                answer = await self.fetcher.get(url, aimed, max_bytes=ROBOTS_MAX_BYTES, html_only=False)
                self._store_answer(fetch_id, answer)
                self.stats.robots_fetches += 1
                target = answer.location
                if target is not None and target.startswith(("http://", "https://")):
                    url = target
                    if host_of(target) == host:
                        await asyncio.sleep(self.slots.gap(host))
                    continue
                robots = Robots.from_answer(answer.status, answer.body, answer.error)
                break
            else:
                robots = Robots("disallow-all", reason=f"robots.txt: more than {ROBOTS_REDIRECTS} redirects")
        finally:
            if robots is not None:
                self.slots.set_robots(origin_, host, robots)
                if robots.status != "refused":  # a refused host is checked again on resume
                    with self.store.transaction():
                        self.store.put("robots:" + origin_, robots.__dict__)
            if sent:
                self.slots.release(host, counted=False)
            else:
                self.slots.busy.discard(host)
        self._progress()

    def _log_fetch(self, url: str, kind: str) -> int:
        with self.store.transaction() as db:
            cursor = db.execute("INSERT INTO fetches(url, kind, started, warc_file) VALUES (?, ?, ?, ?)",
                                (url, kind, time.time(), self.store.warc_name))
        return int(cursor.lastrowid or 0)

    def _store_answer(self, fetch_id: int, answer: Answer) -> tuple[int, int] | None:
        """Append the answer to the WARC file (before the database learns of it); its place there."""
        place = None
        if answer.status is not None:
            status_line = f"{answer.status} {answer.reason}".strip()
            place = self.store.write_exchange(fetch_id, answer.url, answer.request_line, answer.request_headers,
                                              status_line, answer.headers, answer.body)
        with self.store.transaction() as db:
            db.execute("UPDATE fetches SET ended = ?, status = ?, error = ? WHERE id = ?",
                       (answer.ended or time.time(), answer.status, answer.error, fetch_id))
        return place

    # -- pages ---------------------------------------------------------------------------------------------------
    async def _page(self, candidate: Candidate) -> None:
        host, url = candidate.host, candidate.url
        sent = False
        try:
            try:
                aimed = await self.fetcher.check(url)
            except PyxformError as error:  # no request went out: tried again on resume
                self.inflight -= 1
                with self.store.transaction():
                    self._record_failure(candidate, f"[{error.code}] {error.message}", state="refused")
                return
            fetch_id = self._log_fetch(url, "page")
            self.inflight -= 1
            self.stats.fetches += 1
            self.stats.run_fetches += 1
            sent = True
            answer = await self.fetcher.get(url, aimed)
        finally:
            if sent:
                self.slots.release(host, counted=True)
            else:
                self.slots.busy.discard(host)
        place = self.store.write_exchange(fetch_id, url, answer.request_line, answer.request_headers,
                                          f"{answer.status} {answer.reason}".strip(), answer.headers, answer.body) \
            if answer.status is not None else None
        self._process(candidate, fetch_id, answer, place, self.store.warc_name)
        self._progress()

    def _record_failure(self, candidate: Candidate, reason: str, status: int | None = None,
                        content_type: str | None = None, state: str = "failed") -> None:
        self.store.db.execute(
            "INSERT OR REPLACE INTO pages(url, final_url, status, content_type, fetched_at, priority, depth, failure)"
            " VALUES (?,?,?,?,?,?,?,?)", (candidate.url, candidate.url, status, content_type, utc_now(),
                                          candidate.priority, candidate.depth, reason))
        self.frontier.set_state(candidate.url, state, reason, candidate.priority)
        self.stats.failed += 1
        self.stats.reasons[reason[:160]] = self.stats.reasons.get(reason[:160], 0) + 1

    def _process(self, candidate: Candidate, fetch_id: int, answer: Answer, place: tuple[int, int] | None,
                 warc_file: str | None) -> None:
        """Record an answer in one transaction: the fetch, the page, its links, the frontier's changes."""
        convert: tuple[int, str, str | None, str, int] | None = None
        with self.store.transaction() as db:
            db.execute("UPDATE fetches SET ended = ?, status = ?, error = ? WHERE id = ?",
                       (answer.ended or time.time(), answer.status, answer.error, fetch_id))
            if answer.error is not None and answer.retryable and candidate.attempts < self.config.retries \
                    and not self.stopping:
                candidate.attempts += 1
                db.execute("UPDATE frontier SET attempts = ? WHERE url = ?", (candidate.attempts, candidate.url))
                delay = self.config.backoff * 2 ** (candidate.attempts - 1)
                self.waiting.append((time.monotonic() + max(delay, self.slots.gap(candidate.host)), candidate))
                return
            content_type = answer.content_type
            if answer.error is not None:
                self._record_failure(candidate, answer.error, answer.status, content_type)
                return
            assert answer.status is not None
            target = answer.location
            if answer.status in (301, 302, 303, 307, 308):
                self._redirect(candidate, answer, target, place, warc_file)
                return
            if answer.status >= 400 or answer.status < 200:
                self._record_failure(candidate, f"HTTP status {answer.status} {answer.reason}".strip(),
                                     answer.status, content_type)
                return
            row = (candidate.url, candidate.url, answer.status, content_type, utc_now(), candidate.priority,
                   candidate.depth, warc_file, place[0] if place else None, place[1] if place else None,
                   len(answer.body))
            if not answer.html:
                db.execute("INSERT OR REPLACE INTO pages(url, final_url, status, content_type, fetched_at, priority,"
                           " depth, warc_file, warc_offset, warc_length, bytes) VALUES (?,?,?,?,?,?,?,?,?,?,?)", row)
                self.frontier.set_state(candidate.url, "fetched", None, candidate.priority)
                return
            page_id, relevant = self._html(candidate, answer, row)
            if self.converter is not None and place is not None and warc_file is not None:
                convert = (page_id, candidate.url, _charset(content_type), warc_file, place[0])
        if convert is not None:
            self._convert(*convert)
        self.since_rescore += 1
        if self.config.ordering in ("focused", "pagerank") and \
                self.since_rescore >= max(10, len(self.frontier) // 200):
            self.since_rescore = 0
            self.frontier.rescore()

    def _redirect(self, candidate: Candidate, answer: Answer, target: str | None,
                  place: tuple[int, int] | None, warc_file: str | None) -> None:
        db = self.store.db
        failure = None
        key = None
        if target is None:
            failure = f"HTTP status {answer.status} without a usable Location"
        else:
            try:
                key = canonical(target, self.traps.ignored_parameters(host_of(target)))
            except ValueError:
                failure = f"redirect to {target[:200]!r}: pyxform crawls http and https URLs only"
        if key is not None:
            if candidate.hops + 1 > MAX_REDIRECTS:
                failure = f"more than {MAX_REDIRECTS} redirects"
            elif key == candidate.url:
                failure = "redirect to itself"
            elif key not in self.frontier.seen:
                new = self._candidate(key, candidate.depth, candidate.order, candidate.hops + 1)
                new.inlinks = list(candidate.inlinks)
                reason = self._scope_reason(key)
                self.frontier.add(new, state="queued" if reason is None else reason[1],
                                  reason=None if reason is None else reason[0])
                if reason is not None:
                    self.stats.skipped += 1
        db.execute("INSERT OR REPLACE INTO pages(url, final_url, status, content_type, fetched_at, priority, depth, "
                   "failure, warc_file, warc_offset, warc_length) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                   (candidate.url, key or target, answer.status, answer.content_type, utc_now(), candidate.priority,
                    candidate.depth, failure, warc_file, place[0] if place else None, place[1] if place else None))
        if key is not None:
            self.graph.add_edge(candidate.url, key)
        self.frontier.set_state(candidate.url, "failed" if failure else "fetched", failure, candidate.priority)
        if failure:
            self.stats.failed += 1

    def _html(self, candidate: Candidate, answer: Answer, row: tuple[Any, ...]) -> tuple[int, bool]:
        db = self.store.db
        parsed = parse_page(answer.body, candidate.url, answer.content_type, keep=self._keep)
        title_terms, body_terms = terms(parsed.title), terms(parsed.text)
        relevance = 0.0
        if self.topic is not None:
            relevance = self.topic.page_score(title_terms, body_terms)
            self.topic.add_page({"title": title_terms, "body": body_terms})
        relevant = relevance >= self.config.relevant_threshold
        duplicate_of = self.traps.observe(candidate.url, parsed.text)
        present = sorted(set(title_terms + body_terms) & set(self.topic.query)) if self.topic is not None else []
        stats = {"title": len(title_terms), "body": len(body_terms), "present": present,
                 "text": self.traps.last_digest, "near_duplicate": self.traps.last_near_duplicate}
        cursor = db.execute(
            "INSERT OR REPLACE INTO pages(url, final_url, status, content_type, fetched_at, priority, depth, warc_file,"
            " warc_offset, warc_length, bytes, relevance, title, duplicate_of, conversion, stats)"
            " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (*row, relevance, parsed.title[:500], duplicate_of,
             "pending" if self.converter is not None and duplicate_of is None else None, json.dumps(stats)))
        page_id = int(cursor.lastrowid or 0)
        self.frontier.set_state(candidate.url, "fetched", None, candidate.priority)
        self.stats.pages += 1
        self.stats.relevant += relevant
        if self.config.ordering == "focused" and candidate.inlinks:
            self.classifier.learn(self.ordering.features(candidate), relevant)
        if duplicate_of is None and parsed.follow:
            links = []
            for link in parsed.links:
                try:
                    key = canonical(link.url, self.traps.ignored_parameters(host_of(link.url)))
                except ValueError:
                    continue
                if key == candidate.url or not in_scope(key, self.seed_hosts, self.domains):
                    continue
                anchor_terms, context_terms = terms(link.anchor), terms(link.context)
                if self.topic is not None:
                    self.topic.observe_length("anchor", len(anchor_terms))
                    self.topic.observe_length("context", len(context_terms))
                links.append((page_id, key, link.anchor, link.context))
                self._discover(key, candidate.depth + 1, Evidence(anchor_terms, context_terms, relevance),
                               candidate.url)
            db.executemany("INSERT INTO links(source, target, anchor, context) VALUES (?,?,?,?)", links)
        return page_id, relevant

    def _keep(self, url: str) -> bool:
        """Whether a link's URL is in scope (before canonicalization: most links of a page are not)."""
        netloc = url.split("/", 3)[2].rsplit("@", 1)[-1] if url.count("/") >= 2 else ""
        host = netloc[1:netloc.find("]")] if netloc.startswith("[") else netloc.split(":", 1)[0]
        return host_in_scope(host.lower(), self.seed_hosts, self.domains)

    def _scope_reason(self, url: str) -> tuple[str, str] | None:
        if not in_scope(url, self.seed_hosts, self.domains):
            return "outside the allowed hosts and domains", "scope"
        trap = url_trap(url, max_length=self.config.max_url_length, max_query_params=self.config.max_query_params)
        if trap is not None:
            return f"trap: {trap}", "trap"
        return None

    def _candidate(self, url: str, depth: int, order: int, hops: int) -> Candidate:
        candidate = Candidate(url, host_of(url), depth, order, hops, url_terms=terms(url_words(url)),
                              chance=self.ordering.draw())
        if self.topic is not None:
            self.topic.observe_length("url", len(candidate.url_terms))
        return candidate

    def _discover(self, url: str, depth: int, evidence: Evidence | None, source: str | None) -> None:
        """A link to ``url`` (or a seed): add it to the frontier, or add the in-link to a queued URL."""
        if source is not None:
            self.graph.add_edge(source, url)
        else:
            self.graph.node(url)
        queued = self.frontier.queued.get(url)
        if queued is not None:
            if evidence is not None:
                self.ordering.add_evidence(queued, evidence)
            self.frontier.update(queued)
            return
        if url in self.frontier.seen:
            return
        candidate = self._candidate(url, depth, self.frontier.next_order(), 0)
        if evidence is not None:
            self.ordering.add_evidence(candidate, evidence)
        reason = self._scope_reason(url) if source is not None else None
        if reason is None and depth > self.config.max_depth:
            reason = (f"deeper than {self.config.max_depth} links from a seed", "depth")
        self.frontier.add(candidate, state="queued" if reason is None else reason[1],
                          reason=None if reason is None else reason[0])
        if reason is not None:
            self.stats.skipped += 1

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
                answer.html = 200 <= response.status < 300 and is_html(answer.content_type, response.body[:1024])
                self._pending_recovered = getattr(self, "_pending_recovered", [])
                self._pending_recovered.append((candidate, fetch_id, answer, (response.offset, 0), warc_name))
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
        for candidate, fetch_id, answer, place, warc_name in getattr(self, "_pending_recovered", []):
            self._process(candidate, fetch_id, answer, place, warc_name)
        self._pending_recovered = []
        if self.converter is None:
            return
        rows = self.store.db.execute("SELECT id, url, content_type, warc_file, warc_offset FROM pages "
                                     "WHERE conversion = 'pending' ORDER BY id").fetchall()
        for page_id, url, content_type, warc_file, offset in rows:
            if warc_file is not None and offset is not None:
                self._convert(page_id, url, _charset(content_type), warc_file, offset)

    # -- conversion ----------------------------------------------------------------------------------------------
    def _convert(self, page_id: int, url: str, charset: str | None, warc_file: str, offset: int) -> None:
        assert self.converter is not None
        future = asyncio.wrap_future(self.converter.submit(page_id, url, charset, warc_file, offset))
        self.conversions.add(future)
        self.stats.conversion_pending += 1
        self._conversion_args[page_id] = (page_id, url, charset, warc_file, offset)
        future.add_done_callback(self._converted)

    def _converted(self, future: asyncio.Future[Any]) -> None:
        self.conversions.discard(future)
        self.stats.conversion_pending -= 1
        if future.cancelled() or future.exception() is not None:
            return
        outcome: ConversionOutcome | None = future.result()
        if outcome is None or self.stopping:
            return  # stopped: the page stays pending, converted on resume
        arguments = self._conversion_args.pop(outcome.page_id, None)
        if outcome.status == "failed" and (outcome.error or "").startswith("[crash]") and arguments is not None \
                and outcome.page_id not in self._retried:
            # a worker that died (a signal from outside: Ctrl-C reaches the whole process group) gets one more try
            self._retried.add(outcome.page_id)
            self._convert(*arguments)
            return
        try:
            with self.store.transaction() as db:
                db.execute("UPDATE pages SET conversion = ?, tables = ?, xml = ?, conversion_error = ? WHERE id = ?",
                           (outcome.status, outcome.tables, outcome.xml, outcome.error, outcome.page_id))
        except sqlite3.ProgrammingError:  # the store is closed: the page stays pending, converted on resume
            return
        if outcome.status == "failed":
            self.stats.conversion_failed += 1
        else:
            self.stats.converted += 1

    async def _drain_conversions(self) -> None:
        while self.conversions and not self.stopping:
            await asyncio.wait(set(self.conversions), timeout=0.5)
            self._progress()

    def _collect_conversions(self) -> None:
        for future in list(self.conversions):
            if future.done():
                self._converted(future)

    # -- progress ------------------------------------------------------------------------------------------------
    def _progress(self) -> None:
        self.stats.queued = len(self.frontier)
        self.stats.seconds = time.monotonic() - self.started
        if self.progress is not None:
            self.progress(self.stats)

    def _report(self) -> None:
        if self.progress is not None:
            self.progress(self.stats)


def _charset(content_type: str | None) -> str | None:
    if not content_type:
        return None
    for part in content_type.split(";")[1:]:
        name, _, value = part.partition("=")
        if name.strip().lower() == "charset" and value.strip():
            return value.strip().strip("\"'")
    return None
