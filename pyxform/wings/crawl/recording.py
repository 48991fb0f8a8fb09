"""What an answer changes, in one database transaction: the fetch's row, the page (status, relevance, its place in
the WARC file), a redirect's target queued behind its source, the page's links scored and queued (or their
in-links added to URLs already queued), the classifier's lesson, and the page handed to the table converter.
"""

from __future__ import annotations

import json
import time
from typing import Any

from .fetcher import OVERLOADED, REDIRECTS, Answer
from .ordering import Candidate, Evidence
from .store import utc_now
from .text import charset_of, nofollow, parse_page, terms
from .traps import pack_print, url_trap
from .urls import canonical, host_in_scope, host_of, in_scope, link_host, url_words

__all__ = ["Recording", "MAX_REDIRECTS", "MAX_RETRY_AFTER"]

#: Redirect hops followed from one URL (each a fetch of its own).
MAX_REDIRECTS = 10
#: The longest ``Retry-After`` (seconds) a crawl waits for; a URL whose server asks for more fails at once.
MAX_RETRY_AFTER = 120.0


class Recording:
    """The recording part of a crawl run (a mixin of the crawl loop: it uses the loop's attributes)."""

    config: Any
    store: Any
    frontier: Any
    stats: Any
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
            content_type = answer.content_type
            if answer.error is not None and answer.retryable:
                delay = self.config.backoff * 2 ** candidate.attempts
                asked = answer.retry_after
                if asked is not None and asked > MAX_RETRY_AFTER:
                    self._record_failure(candidate, f"{answer.error}; the server asks to wait {asked:.0f} s "
                                         f"(Retry-After), longer than a crawl waits ({MAX_RETRY_AFTER} s)",
                                         answer.status, content_type)
                    return
                if answer.status in OVERLOADED:  # the server is overloaded: its whole host waits
                    self.slots.pause(candidate.host, max(delay, asked or 0.0))
                if candidate.attempts < self.config.retries:
                    candidate.attempts += 1
                    db.execute("UPDATE frontier SET attempts = ? WHERE url = ?", (candidate.attempts, candidate.url))
                    if self.stopping:  # stays queued: the resume tries it again (a graceful stop loses nothing)
                        return
                    wait = max(delay, asked or 0.0, self.slots.gap(candidate.host))
                    self.waiting.append((time.monotonic() + wait, candidate))
                    return
            if answer.error is not None:
                self._record_failure(candidate, answer.error, answer.status, content_type)
                return
            assert answer.status is not None
            target = answer.location
            if answer.status in REDIRECTS:
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
                convert = (page_id, candidate.url, charset_of(content_type), warc_file, place[0])
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
            except ValueError as error:
                why = "pyxform crawls http and https URLs only"
                if target.lower().startswith(("http://", "https://")):  # credentials, a bad port or host
                    why = str(error).removesuffix(f": {target!r}")
                failure = f"redirect to {target[:200]!r}: {why}"
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
        host = host_of(candidate.url)
        ignored = self.traps.ignored_parameters(host)
        duplicate_of = self.traps.observe(candidate.url, parsed.text)
        if duplicate_of is not None and self.traps.ignored_parameters(host) != ignored:
            self._alias(candidate, duplicate_of)
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
        db.execute("INSERT OR REPLACE INTO prints(page, print) VALUES (?, ?)",
                   (page_id, pack_print(self.traps.last_print)))
        self.frontier.set_state(candidate.url, "fetched", None, candidate.priority)
        self.stats.pages += 1
        self.stats.relevant += relevant
        if self.config.ordering == "focused" and candidate.inlinks:
            self.classifier.learn(self.ordering.features(candidate), relevant)
        follow = parsed.follow and not nofollow([v for k, v in answer.headers if k.lower() == "x-robots-tag"])
        followed = duplicate_of is None and not self.traps.last_near_duplicate and follow
        if followed:
            self.ordering.observe_page(host)
        # a meta refresh is followed even from a page without text of its own (then it is a redirect)
        chosen = ([parsed.refresh] if parsed.refresh is not None and follow else []) + \
            (list(parsed.links) if followed else [])
        if chosen:
            links = []
            for link in chosen:
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

    def _alias(self, candidate: Candidate, earlier: str) -> None:
        """A session-id parameter was just learned from two URLs of one page: the URL without it names that page
        too (known, so that a link to it is not fetched again)."""
        ignored = self.traps.ignored_parameters(host_of(earlier))
        key = canonical(earlier, ignored)
        if key not in self.frontier.seen:
            alias = self._candidate(key, candidate.depth, self.frontier.next_order(), 0)
            self.frontier.add(alias, state="duplicate", reason=f"the same page as {earlier} (a session-id parameter)")
            self.stats.skipped += 1

    def _keep(self, url: str) -> bool:
        """Whether a link's URL is in scope (before canonicalization: most links of a page are not)."""
        return host_in_scope(link_host(url), self.seed_hosts, self.domains)

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
