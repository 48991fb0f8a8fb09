"""The crawl's settings: one frozen object, every limit and weight named (the CLI builds it from its options)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Final, Literal

from ...base.limits import DEFAULT_LIMITS, Limits

__all__ = ["CrawlConfig", "Weights", "ORDERINGS", "Ordering"]

Ordering = Literal["focused", "bfs", "backlinks", "pagerank", "random"]
ORDERINGS: Final[tuple[str, ...]] = ("focused", "bfs", "backlinks", "pagerank", "random")


@dataclass(frozen=True)
class Weights:
    """The weights of the focused ordering's priority (``docs/crawl.md``, "Ordering"). Each is >= 0.

    Link content, per in-link (the best in-link counts):

    :ivar anchor: topic relevance of the link's anchor text (normalized BM25, 0..1).
    :ivar context: topic relevance of the text around the link (normalized BM25, 0..1).
    :ivar url: topic relevance of the words of the target URL (normalized BM25, 0..1).
    :ivar parent: topic relevance of the page that holds the link (normalized BM25, 0..1).

    Web structure:

    :ivar backlinks: the target's in-link count from distinct pages, log-scaled to 0..1.
    :ivar pagerank: the target's PageRank over the link graph seen so far, as a percentile rank 0..1.

    Online learning:

    :ivar learned: the online link classifier's estimate that the target is relevant (0..1), given weight only as
        the classifier gains evidence (``docs/crawl.md``).
    """

    anchor: float = 1.0
    context: float = 0.5
    url: float = 0.5
    parent: float = 1.0
    backlinks: float = 0.2
    pagerank: float = 0.2
    learned: float = 1.0

    def __post_init__(self) -> None:
        for name, value in self.__dict__.items():
            if not value >= 0:
                raise ValueError(f"the weight {name} must be >= 0 (got {value})")


@dataclass(frozen=True)
class CrawlConfig:
    """What to crawl and how (``pyxform crawl``'s options; ``docs/crawl.md``).

    :ivar seeds: the start URLs (http or https), as given.
    :ivar topic: the topic, a short description in words (``--topic`` and/or ``--topic-file``'s text).
    :ivar out: the crawl's folder (SQLite database, WARC files, ``xml/``); an existing one is resumed.
    :ivar max_pages: most HTTP requests (fetches), robots.txt excepted; every redirect hop, error and retry counts.
    :ivar allow_domains: domains whose hosts (the domain and its subdomains) may be fetched, besides the seeds'
        hosts; empty: the seeds' hosts only.
    :ivar max_depth: most links from a seed (a seed has depth 0; a redirect keeps its source's depth).
    :ivar delay: the least time in seconds between two requests to one host (measured from the end of one answer to
        the start of the next); a robots.txt ``Crawl-delay`` that is longer wins.
    :ivar concurrency: most requests in flight at once (one per host at a time).
    :ivar ordering: ``focused`` (content and structure, ``docs/crawl.md``) or a baseline of Cho et al. (1998):
        ``bfs``, ``backlinks``, ``pagerank``, ``random``.
    :ivar allow_private: let requests reach loopback, private and link-local addresses (checked after DNS and after
        every redirect).
    :ivar restart: start afresh in ``out`` even if it holds another crawl (its files are removed first).
    :ivar weights: the focused ordering's weights.
    :ivar relevant_threshold: a page whose relevance (0..1) reaches it counts as relevant (progress, harvest rate,
        online learning).
    :ivar max_pages_per_host: most fetches per host (0: no per-host budget beyond ``max_pages``).
    :ivar max_url_length: longer URLs are not queued (characters).
    :ivar max_query_params: URLs with more query parameters are not queued (faceted listings).
    :ivar retries: more attempts after a 5xx answer, a time-out or a dropped connection (each counts as a fetch).
    :ivar backoff: seconds before the first retry; doubled for each further one.
    :ivar convert: convert each HTML page's tables to XML under ``out/xml`` as it arrives.
    :ivar seed: the seed of the ``random`` ordering.
    :ivar limits: ``fetch_timeout`` (seconds per request), ``max_fetch_bytes`` (body cap), and the conversion's
        limits (``timeout``, ``max_memory``, ...).
    """

    seeds: tuple[str, ...]
    topic: str
    out: str
    max_pages: int
    allow_domains: tuple[str, ...] = ()
    max_depth: int = 20
    delay: float = 1.0
    concurrency: int = 4
    ordering: Ordering = "focused"
    allow_private: bool = False
    restart: bool = False
    weights: Weights = field(default_factory=Weights)
    relevant_threshold: float = 0.3
    max_pages_per_host: int = 0
    max_url_length: int = 512
    max_query_params: int = 4
    retries: int = 2
    backoff: float = 1.0
    convert: bool = True
    seed: int = 0
    limits: Limits = DEFAULT_LIMITS

    def __post_init__(self) -> None:
        """:raises ValueError: a setting out of range, a seed that is not an absolute http(s) URL, a topic without a
            word to look for."""
        if not self.seeds:
            raise ValueError("at least one seed URL is needed")
        if self.max_pages < 1:
            raise ValueError(f"max_pages must be >= 1 (got {self.max_pages})")
        if self.ordering not in ORDERINGS:
            raise ValueError(f"ordering must be one of {', '.join(ORDERINGS)} (got {self.ordering!r})")
        if self.ordering == "focused" and not self.topic.strip():
            raise ValueError("the focused ordering needs a topic")
        for name in ("delay", "backoff", "relevant_threshold"):
            if not math.isfinite(getattr(self, name)):  # an endless delay holds the crawl after its first answer
                raise ValueError(f"{name} must be a finite number (got {getattr(self, name)})")
            if not getattr(self, name) >= 0:
                raise ValueError(f"{name} must be >= 0 (got {getattr(self, name)})")
        for name in ("max_depth", "max_pages_per_host", "retries", "max_query_params"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be >= 0 (got {getattr(self, name)})")
        if self.concurrency < 1:
            raise ValueError(f"concurrency must be >= 1 (got {self.concurrency})")
        if self.max_url_length < 16:
            raise ValueError(f"max_url_length must be >= 16 (got {self.max_url_length})")
        from .relevance import Topic  # the crawler's modules load when a crawl is set up, not with the CLI
        from .urls import canonical

        for seed in self.seeds:
            try:
                canonical(seed)
            except ValueError as error:
                raise ValueError(f"seed {seed!r}: {error}") from None
        if self.topic.strip():
            Topic(self.topic)  # a topic of stop words only is refused
