"""The crawl loop: takes the best URL whose host may be fetched now (frontier, politeness, traps), fetches it
(fetcher), stores the answer (WARC, then one database transaction), scores and queues its links (ordering), and
hands HTML pages to the table converter; resumable (``store``'s order of writes) and stoppable (SIGINT, SIGTERM).
"""

from __future__ import annotations

import asyncio
import signal
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from ...base.errors import PyxformError
from .config import CrawlConfig
from .fetcher import Answer, Fetcher
from .frontier import Frontier
from .learning import LinkClassifier
from .ordering import Candidate, Ordering
from .politeness import ROBOTS_MAX_BYTES, HostSlots, Robots, sleep_unless
from .recording import MAX_REDIRECTS, MAX_RETRY_AFTER, Recording
from .relevance import Topic
from .resume import Resuming
from .structure import LinkGraph
from .tables import ConversionOutcome, TableConverter
from .traps import TrapDetector
from .urls import canonical, host_of, origin, robots_url

__all__ = ["crawl", "CrawlStats", "CrawlSummary", "MAX_REDIRECTS", "ROBOTS_REDIRECTS"]

#: Redirect hops followed for a robots.txt (RFC 9309, section 2.3.1.2: at least five).
ROBOTS_REDIRECTS: Final = 5


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
    :ivar notes: what the run found wrong with the folder but went on past (a WARC file shorter than the database
        says), one sentence each.
    """

    stats: CrawlStats
    ended: str
    folder: str
    resumed: bool
    notes: tuple[str, ...] = ()


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


class _Crawler(Resuming, Recording):
    """One crawl run: the loop, robots.txt, the page requests, the conversions (:class:`Resuming`: setting up and
    resuming; :class:`Recording`: what an answer changes)."""

    def __init__(self, config: CrawlConfig, progress: Callable[[CrawlStats], None] | None) -> None:
        self.config = config
        self.progress = progress
        self.stats = CrawlStats()
        self.stopping = False
        self.stop_now = False
        self.resumed = False
        self.notes: list[str] = []
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
        self.stop_event = asyncio.Event()  # set with stopping: waits end at once
        self.slots = HostSlots(config.delay, config.max_pages_per_host, stop=self.stop_event)
        self.waiting: list[tuple[float, Candidate]] = []  # retries after their backoff
        self.inflight = 0  # page requests dispatched, not yet logged
        self.conversions: set[asyncio.Future[Any]] = set()
        self.tasks: set[asyncio.Task[None]] = set()
        self._conversion_args: dict[int, tuple[int, str, str | None, str, int]] = {}
        self._retried: set[int] = set()
        # resume: fetches a kill interrupted, their answers found in the WARC file, and those to record now
        self._interrupted: list[tuple[int, str, str, str | None]] = []
        self._recovered: dict[int, tuple[str, Any]] = {}
        self._pending_recovered: list[tuple[Candidate, int, Answer, tuple[int, int], str]] = []

        self.since_rescore = 0
        self.started = time.monotonic()

    # -- the loop ------------------------------------------------------------------------------------------------
    async def run(self, handle_signals: bool) -> CrawlSummary:
        self._open()
        installed = []
        loop = asyncio.get_running_loop()
        try:
            self.frontier = Frontier(self.store.db, self.ordering)
            if handle_signals and threading.current_thread() is threading.main_thread():
                for signum in (signal.SIGINT, signal.SIGTERM):
                    try:
                        loop.add_signal_handler(signum, self._signal)
                        installed.append(signum)
                    except (NotImplementedError, RuntimeError):
                        pass
            self.converter = TableConverter(self.store, self.config.limits) if self.config.convert else None
        except BaseException:  # the folder is not left locked
            for signum in installed:
                loop.remove_signal_handler(signum)
            self.store.close()
            self._release_folder()
            raise
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
            self._release_folder()
        if self.stopping:
            ended = "interrupted"
        self._report()
        return CrawlSummary(self.stats, ended, str(self.config.out), self.resumed, tuple(self.notes))

    def _signal(self) -> None:
        if self.stopping:
            self.stop_now = True
            for task in self.tasks:
                task.cancel()
        self.stopping = True
        self.stop_event.set()

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
                await sleep_unless(self.stop_event, wait)
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
        """Fetch the robots.txt of ``origin_`` (its host's slot is taken): redirects followed (at most
        :data:`ROBOTS_REDIRECTS`), an unavailable one (5xx, 429, no answer) tried again ``--retries`` times with
        backoff (and its Retry-After); rules from an answer are kept for resumes, an unavailable one is not."""
        url, robots, sent, attempts = robots_url(origin_), None, False, 0
        try:
            hops = 0
            while robots is None and not self.stopping:  # stopping: not known, asked again on resume
                try:
                    aimed = await self.fetcher.check(url)
                except PyxformError as error:
                    robots = Robots("refused", reason=f"[{error.code}] {error.message}")
                    break
                async with self.slots.on_address(aimed[0].host, host):
                    if self.stopping:
                        break
                    fetch_id = self._log_fetch(url, "robots")
                    sent = True
                    answer = await self.fetcher.get(url, aimed, max_bytes=ROBOTS_MAX_BYTES)
                self._store_answer(fetch_id, answer)
                self.stats.robots_fetches += 1
                target = answer.location
                if target is not None and target.startswith(("http://", "https://")):
                    hops += 1
                    if hops > ROBOTS_REDIRECTS:
                        robots = Robots("disallow-all", reason=f"robots.txt: more than {ROBOTS_REDIRECTS} redirects")
                        break
                    url = target
                    if host_of(target) == host:
                        await sleep_unless(self.stop_event, self.slots.gap(host))
                    continue
                unavailable = answer.retryable or answer.status == 429
                asked = answer.retry_after or 0.0
                if unavailable and attempts < self.config.retries and not self.stopping and asked <= MAX_RETRY_AFTER:
                    attempts += 1
                    await sleep_unless(self.stop_event,
                                       max(self.config.backoff * 2 ** (attempts - 1), asked, self.slots.gap(host)))
                    continue
                robots = Robots.from_answer(answer.status, answer.body, answer.error)
        finally:
            if robots is not None:
                self.slots.set_robots(origin_, host, robots)
                if robots.status in ("rules", "allow-all"):  # refused or unavailable: checked again on resume
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
        place = self._archive(fetch_id, answer)
        with self.store.transaction() as db:
            db.execute("UPDATE fetches SET ended = ?, status = ?, error = ? WHERE id = ?",
                       (answer.ended or time.time(), answer.status, answer.error, fetch_id))
        return place

    def _archive(self, fetch_id: int, answer: Answer) -> tuple[int, int] | None:
        """Append an answer's request and response records to the WARC file; their place (``None``: no answer)."""
        if answer.status is None:
            return None
        return self.store.write_exchange(fetch_id, answer.url, answer.request_line, answer.request_headers,
                                         f"{answer.status} {answer.reason}".strip(), answer.headers, answer.body,
                                         date=answer.started, address=answer.address, truncated=answer.truncated)

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
            async with self.slots.on_address(aimed[0].host, host):
                if self.stopping:  # stopped while waiting for the address: not sent, the URL stays queued
                    self.inflight -= 1
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
        place = self._archive(fetch_id, answer)
        self._process(candidate, fetch_id, answer, place, self.store.warc_name)
        self._progress()

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
