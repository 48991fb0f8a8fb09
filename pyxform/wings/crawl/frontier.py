"""The frontier: every URL the crawl has seen (the duplicate filter) and those still to fetch, best first.

Persistent in the ``frontier`` table (a URL's row is written when it is first seen and changes state as it is
fetched or set aside); in memory, one lazy priority heap per host, so that the best URL of a host that may be fetched
now is found without scanning (priorities change as pages arrive: a changed URL is pushed again, the old entry is
skipped when it comes up).
"""

from __future__ import annotations

import heapq
import sqlite3
from collections.abc import Callable, Iterable

from .ordering import Candidate, Ordering

__all__ = ["Frontier", "STATES"]

#: The states of a frontier row: still to fetch, or what became of it.
STATES = ("queued", "fetched", "failed", "refused", "robots", "trap", "duplicate", "scope", "depth", "interrupted")


class Frontier:
    """The frontier over a database connection (the caller groups writes in transactions).

    :param db: the crawl's database (table ``frontier``).
    :param ordering: computes each URL's priority.
    """

    def __init__(self, db: sqlite3.Connection, ordering: Ordering) -> None:
        self.db = db
        self.ordering = ordering
        self.queued: dict[str, Candidate] = {}
        self.seen: set[str] = set()
        self._heaps: dict[str, list[tuple[float, int, int, str]]] = {}
        self._version: dict[str, int] = {}
        self._next_order = 0

    def __len__(self) -> int:
        return len(self.queued)

    def next_order(self) -> int:
        order = self._next_order
        self._next_order += 1
        return order

    def load(self, candidates: Iterable[Candidate]) -> None:
        """Fill the memory side on resume: every URL seen, and the queued ones as ``candidates``."""
        self.seen = {row[0] for row in self.db.execute("SELECT url FROM frontier")}
        row = self.db.execute("SELECT MAX(seq) FROM frontier").fetchone()
        self._next_order = (row[0] + 1) if row and row[0] is not None else 0
        for candidate in candidates:
            self.queued[candidate.url] = candidate
        self.rescore()

    # -- adding and changing ---------------------------------------------------------------------------------
    def add(self, candidate: Candidate, *, state: str = "queued", reason: str | None = None) -> bool:
        """Record a URL seen for the first time (``state`` ``queued``: to fetch; else set aside for ``reason``).

        :returns: false if the URL was seen before (nothing is changed).
        """
        if candidate.url in self.seen:
            return False
        self.seen.add(candidate.url)
        self.db.execute("INSERT INTO frontier(url, depth, seq, state, priority, hops, reason) VALUES (?,?,?,?,?,?,?)",
                        (candidate.url, candidate.depth, candidate.order, state, 0.0, candidate.hops, reason))
        if state == "queued":
            self.queued[candidate.url] = candidate
            self.update(candidate)
        return True

    def update(self, candidate: Candidate) -> None:
        """Recompute a queued URL's priority (its in-links or the graph changed)."""
        candidate.priority = self.ordering.priority(candidate)
        self._push(candidate)

    def _push(self, candidate: Candidate) -> None:
        version = self._version.get(candidate.url, 0) + 1
        self._version[candidate.url] = version
        heapq.heappush(self._heaps.setdefault(candidate.host, []),
                       (-candidate.priority, candidate.order, version, candidate.url))

    def rescore(self) -> None:
        """Recompute every queued URL's priority (the topic statistics, the classifier or PageRank changed)."""
        self.ordering.refresh_rank()
        self._heaps.clear()
        self._version.clear()
        for candidate in self.queued.values():
            candidate.priority = self.ordering.priority(candidate)
            self._version[candidate.url] = 1
            self._heaps.setdefault(candidate.host, []).append((-candidate.priority, candidate.order, 1, candidate.url))
        for heap in self._heaps.values():
            heapq.heapify(heap)

    def requeue(self, candidate: Candidate) -> None:
        """Put back a URL taken out (a retry), keeping its priority."""
        self.queued[candidate.url] = candidate
        self._push(candidate)
        self.db.execute("UPDATE frontier SET state = 'queued', attempts = ? WHERE url = ?",
                        (candidate.attempts, candidate.url))

    # -- taking ------------------------------------------------------------------------------------------------
    def _top(self, host: str) -> tuple[float, int, int, str] | None:
        heap = self._heaps.get(host)
        while heap:
            entry = heap[0]
            if entry[3] in self.queued and self._version.get(entry[3]) == entry[2]:
                return entry
            heapq.heappop(heap)
        if heap is not None:
            del self._heaps[host]
        return None

    def hosts(self) -> list[str]:
        """The hosts that have queued URLs."""
        return [host for host in list(self._heaps) if self._top(host) is not None]

    def pick(self, eligible: Callable[[str], bool]) -> Candidate | None:
        """Take the best queued URL among the hosts for which ``eligible(host)`` holds (``None`` if none)."""
        best: tuple[float, int, int, str] | None = None
        for host in list(self._heaps):
            entry = self._top(host)
            if entry is not None and (best is None or entry[:2] < best[:2]) and eligible(host):
                best = entry
        if best is None:
            return None
        candidate = self.queued.pop(best[3])
        self._version.pop(best[3], None)
        return candidate

    def set_state(self, url: str, state: str, reason: str | None = None, priority: float | None = None) -> None:
        """Record what became of a URL taken out of the queue (or set aside)."""
        self.queued.pop(url, None)
        if priority is None:
            self.db.execute("UPDATE frontier SET state = ?, reason = ? WHERE url = ?", (state, reason, url))
        else:
            self.db.execute("UPDATE frontier SET state = ?, reason = ?, priority = ? WHERE url = ?",
                            (state, reason, priority, url))
