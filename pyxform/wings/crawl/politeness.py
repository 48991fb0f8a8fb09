"""Politeness: robots.txt (RFC 9309, parsed with protego) per origin, and per-host slots: one request at a time per
host, the least gap between two of its requests, a per-host fetch budget.

robots.txt is fetched before any other request to its origin (``scheme://host:port``) and counts in its host's gap
(not in ``max_pages``). Its answer decides (RFC 9309, section 2.3.1): 2xx -> its rules (the first 500 KiB, the
least a crawler must read); 4xx (404 ...) -> no rules, everything allowed; 5xx, 429 (too many requests: the server is
overloaded, as Google's crawler reads it), no answer, or a redirect chain that ends nowhere -> everything disallowed
for that origin (the crawl records why). An unavailable robots.txt is tried again (``--retries``, with backoff)
before that, and again by a resumed crawl. A body that is not robots.txt at all
(an HTML page) has no rules protego recognizes, so it allows everything, as browsers' and Google's parsers do.

The gap between two requests to a host is counted from the end of one answer to the start of the next, so the
server never sees two requests closer than ``delay`` (nor than the robots.txt ``Crawl-delay``, when longer). The
same holds per IP address (:meth:`HostSlots.on_address`): host names that share a server share its gap.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Final

from protego import Protego

from .fetcher import ROBOTS_TOKEN

__all__ = ["Robots", "HostSlots", "ROBOTS_MAX_BYTES", "MAX_CRAWL_DELAY", "sleep_unless"]

#: How much of a robots.txt is read (RFC 9309, section 2.5: at least 500 kibibytes).
ROBOTS_MAX_BYTES: Final = 500 * 1024
#: The longest ``Crawl-delay`` (seconds) a crawl honours; an origin that asks for more is not crawled (its URLs are
#: set aside with the reason), as Nutch's ``fetcher.max.crawl.delay`` does.
MAX_CRAWL_DELAY: Final = 120.0


async def sleep_unless(stop: asyncio.Event | None, seconds: float) -> None:
    """Sleep ``seconds``, or until ``stop`` is set if that comes first (a crawl that stops waits for nothing)."""
    if stop is None:
        await asyncio.sleep(seconds)
        return
    if stop.is_set():
        return
    try:
        async with asyncio.timeout(max(0.0, seconds)):
            await stop.wait()
    except TimeoutError:
        pass


@dataclass(frozen=True)
class Robots:
    """The robots.txt rules of one origin.

    :ivar status: ``rules`` (a robots.txt was read), ``allow-all`` (none: 4xx), ``disallow-all`` (5xx, no answer),
        ``refused`` (the host is refused before any request: a private address, no DNS answer; its URLs fail).
    :ivar text: the robots.txt text (``rules``).
    :ivar reason: why the rules are what they are (an HTTP status, an error).
    """

    status: str
    text: str = ""
    reason: str = ""

    def parser(self) -> Protego | None:
        return Protego.parse(self.text) if self.status == "rules" else None

    @staticmethod
    def from_answer(status: int | None, body: bytes, error: str | None) -> Robots:
        """The rules an answer to ``/robots.txt`` gives (the module docstring)."""
        if status is not None and 200 <= status < 300 and error is None:
            # RFC 9309, 2.3: UTF-8; a byte order mark before the first line is no part of it
            return Robots("rules", body[:ROBOTS_MAX_BYTES].decode("utf-8-sig", "replace"), f"HTTP {status}")
        if status is not None and 400 <= status < 500 and status != 429:
            return Robots("allow-all", reason=f"HTTP {status}: no robots.txt")
        return Robots("disallow-all", reason=error or f"HTTP {status}: robots.txt unavailable")


class _Rules:
    def __init__(self, robots: Robots) -> None:
        self.robots = robots
        self.parser = robots.parser()
        delay = self.parser.crawl_delay(ROBOTS_TOKEN) if self.parser is not None else None
        self.crawl_delay = float(delay) if delay is not None and float(delay) >= 0 else 0.0
        self.reason = robots.reason
        self.too_slow = self.crawl_delay > MAX_CRAWL_DELAY
        if self.too_slow:
            self.reason = f"Crawl-delay {self.crawl_delay:g} s, longer than a crawl waits ({MAX_CRAWL_DELAY:g} s)"
            self.crawl_delay = 0.0  # no request goes to the origin

    def allowed(self, url: str) -> bool:
        if self.robots.status in ("disallow-all", "refused") or self.too_slow:
            return False
        return self.parser is None or self.parser.can_fetch(url, ROBOTS_TOKEN)


class HostSlots:
    """robots.txt rules per origin and the politeness slot of each host.

    :param delay: the least gap in seconds between two requests to one host.
    :param budget: most fetches per host (0: no limit).
    :param stop: set when the crawl stops: a wait for an address's turn ends at once (the caller then sends nothing).
    """

    def __init__(self, delay: float, budget: int = 0, stop: asyncio.Event | None = None) -> None:
        self.delay = delay
        self.budget = budget
        self.stop = stop
        self.rules: dict[str, _Rules] = {}
        self.busy: set[str] = set()
        self.ready_at: dict[str, float] = {}
        self.fetches: dict[str, int] = {}
        self.host_delay: dict[str, float] = {}
        self.address_ready: dict[str, float] = {}
        self._address_locks: dict[str, asyncio.Lock] = {}

    # -- robots.txt ------------------------------------------------------------------------------------------
    def known(self, origin: str) -> bool:
        return origin in self.rules

    def set_robots(self, origin: str, host: str, robots: Robots) -> None:
        rules = self.rules[origin] = _Rules(robots)
        self.host_delay[host] = max(self.host_delay.get(host, 0.0), rules.crawl_delay)

    def allowed(self, origin: str, url: str) -> bool:
        """Whether robots.txt lets ``url`` be fetched (its origin's rules must be :meth:`known`)."""
        return self.rules[origin].allowed(url)

    def robots_reason(self, origin: str) -> str:
        return self.rules[origin].reason

    def refused(self, origin: str) -> bool:
        """Whether the origin's host was refused before any request (its URLs fail with :meth:`robots_reason`)."""
        return self.rules[origin].robots.status == "refused"

    # -- slots -------------------------------------------------------------------------------------------------
    def gap(self, host: str) -> float:
        """The least time between two requests to ``host``: ``delay`` or its ``Crawl-delay``, whichever is longer."""
        return max(self.delay, self.host_delay.get(host, 0.0))

    def free(self, host: str, now: float | None = None) -> bool:
        """Whether a request to ``host`` may start now."""
        return host not in self.busy and self.ready_at.get(host, 0.0) <= (time.monotonic() if now is None else now)

    def over_budget(self, host: str) -> bool:
        return self.budget > 0 and self.fetches.get(host, 0) >= self.budget

    def take(self, host: str) -> None:
        """Mark ``host`` busy (one request in flight)."""
        self.busy.add(host)

    @asynccontextmanager
    async def on_address(self, address: str, host: str) -> AsyncIterator[None]:
        """Hold the slot of an IP address for one request of ``host``: one request at a time per address, and
        ``gap(host)`` from the end of the last one, whatever host name or port it was for (several names, or a
        redirect to another name, on one server; Scrapy's per-IP concurrency, Heritrix's per-IP politeness). When
        ``stop`` is set the wait ends at once: the caller checks whether the crawl is stopping before it sends."""
        lock = self._address_locks.setdefault(address, asyncio.Lock())
        async with lock:
            wait = self.address_ready.get(address, 0.0) - time.monotonic()
            if wait > 0:
                await sleep_unless(self.stop, wait)
            try:
                yield
            finally:
                self.address_ready[address] = time.monotonic() + self.gap(host)

    def pause(self, host: str, seconds: float) -> None:
        """No request to ``host`` for ``seconds`` from now (the server said it is overloaded: 429, 503)."""
        self.ready_at[host] = max(self.ready_at.get(host, 0.0), time.monotonic() + seconds)

    def release(self, host: str, counted: bool) -> None:
        """The request to ``host`` is over: the next may start ``gap`` seconds from now."""
        self.busy.discard(host)
        self.ready_at[host] = time.monotonic() + self.gap(host)
        if counted:
            self.fetches[host] = self.fetches.get(host, 0) + 1
