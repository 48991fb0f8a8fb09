"""URL ordering: the priority of each URL in the frontier (``docs/crawl.md``, "Ordering").

``focused`` combines link content, web structure and online learning (Cho, Garcia-Molina & Page 1998; Chakrabarti,
van den Berg & Dom 1999; ACHE's online learning), each term in 0..1, as a weighted mean::

    link(e)  = w_anchor * A(e) + w_context * C(e) + w_parent * P(e)      for each in-link e of the URL
    priority = ( max_e link(e) + w_url * U + w_backlinks * B + w_pagerank * R + w_learned * c * L )
               / ( w_anchor + w_context + w_parent + w_url + w_backlinks + w_pagerank + w_learned * c )

- ``A(e)``, ``C(e)``: the topic's normalized BM25 score (:mod:`.relevance`) of the link's anchor text and of the
  words around it; ``P(e)``: the relevance of the page that holds the link; ``U``: the score of the URL's words.
- ``B``: backlinks from distinct fetched pages, ``log(1 + b) / log(1 + b_max)``; ``R``: the URL's PageRank over the
  graph seen so far as a percentile rank among the known URLs.
- ``L``: the online link classifier's estimate (:mod:`.learning`), ``c`` its confidence (0 until it has seen
  relevant and irrelevant pages).
- A *template link* (a URL linked from half of its host's pages or more: menus, footers) gets no ``P``, ``B`` or
  ``R``: what it links says nothing of the page it is on, and it would top every link count
  (:meth:`Ordering.is_template`).

The baselines of Cho et al.: ``bfs`` (first discovered, first fetched), ``backlinks`` (most backlinks first),
``pagerank`` (highest PageRank first), ``random`` (a seeded random order). Ties go to the URL discovered first. A
redirect's target inherits its source's in-links and place in the discovery order.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from .config import Weights
from .learning import LinkClassifier
from .relevance import Topic
from .structure import LinkGraph

__all__ = ["Evidence", "Candidate", "Ordering", "MAX_EVIDENCE", "TEMPLATE_SHARE", "TEMPLATE_MIN_PAGES"]

#: In-links kept per URL (the best ones by their link score; the max needs only the best).
MAX_EVIDENCE = 4
#: A URL linked from at least this share of its host's pages (and from :data:`TEMPLATE_MIN_PAGES` of them) is a
#: template link: the site's menus and footers (Bar-Yossef & Rajagopalan, "Template detection via data mining and
#: its applications", 2002).
TEMPLATE_SHARE = 0.5
TEMPLATE_MIN_PAGES = 3


@dataclass
class Evidence:
    """One in-link of a frontier URL: the terms of its anchor and context, and its page's relevance."""

    anchor: list[str]
    context: list[str]
    parent: float


@dataclass
class Candidate:
    """A URL in the frontier with what is known of it."""

    url: str
    host: str
    depth: int
    order: int  # discovery order (a redirect target takes its source's)
    hops: int = 0
    attempts: int = 0
    url_terms: list[str] = field(default_factory=list)
    inlinks: list[Evidence] = field(default_factory=list)
    chance: float = 0.0  # the random ordering's draw
    priority: float = 0.0
    features: np.ndarray | None = None  # the link classifier's features, cached


class Ordering:
    """Computes priorities for one of the orderings (the module docstring).

    :param kind: ``focused``, ``bfs``, ``backlinks``, ``pagerank`` or ``random``.
    :param topic: the topic (needed by ``focused``; the others record relevance with it when given).
    :param weights: the focused ordering's weights.
    :param graph: the link graph (backlinks, PageRank).
    :param classifier: the online link classifier (``focused``).
    :param seed: the random ordering's seed.
    """

    def __init__(self, kind: str, topic: Topic | None, weights: Weights, graph: LinkGraph,
                 classifier: LinkClassifier, seed: int = 0) -> None:
        self.kind = kind
        self.topic = topic
        self.weights = weights
        self.graph = graph
        self.classifier = classifier
        self._random = random.Random(seed)
        self._sorted_rank = np.zeros(0)
        self._rank = np.zeros(0)
        self.host_pages: Counter[str] = Counter()  # pages of each host whose links were added to the graph

    def draw(self) -> float:
        """The random ordering's draw for a new URL (drawn for every URL so that the sequence is reproducible)."""
        return self._random.random()

    def observe_page(self, host: str) -> None:
        """Count a fetched page of ``host`` whose links were added to the graph (the template links' share)."""
        self.host_pages[host] += 1

    def is_template(self, candidate: Candidate) -> bool:
        """Whether the URL is a template link of its host: linked from at least :data:`TEMPLATE_SHARE` of the host's
        pages seen (and :data:`TEMPLATE_MIN_PAGES`), as a site's menus and footers are. Such a link says nothing of
        the page that holds it, so neither that page's relevance nor its link count and PageRank (inflated by the
        template) raise the URL's priority (Bar-Yossef & Rajagopalan 2002: template links mislead link analysis)."""
        node = self.graph.ids.get(candidate.url)
        if node is None:
            return False
        count = self.graph.backlinks[node]
        return count >= TEMPLATE_MIN_PAGES and count >= TEMPLATE_SHARE * self.host_pages[candidate.host]

    # -- terms ---------------------------------------------------------------------------------------------------
    def link_score(self, evidence: Evidence, parent: bool = True) -> float:
        """``w_anchor * A + w_context * C + w_parent * P`` of one in-link (``P`` left out if not ``parent``)."""
        assert self.topic is not None
        w = self.weights
        return (w.anchor * self.topic.field_score("anchor", evidence.anchor)
                + w.context * self.topic.field_score("context", evidence.context)
                + (w.parent * evidence.parent if parent else 0.0))

    def backlink_term(self, candidate: Candidate) -> float:
        """``B``: log-scaled backlinks, 0..1."""
        node = self.graph.ids.get(candidate.url)
        count = self.graph.backlinks[node] if node is not None else 0
        top = self.graph.max_backlinks
        return math.log1p(count) / math.log1p(top) if top > 0 else 0.0

    def refresh_rank(self) -> None:
        """Recompute PageRank over the graph as it is now (before a rescoring of the whole frontier)."""
        if self.kind in ("focused", "pagerank"):
            self._rank = self.graph.pagerank()
            self._sorted_rank = np.sort(self._rank)

    def pagerank_value(self, candidate: Candidate) -> float:
        node = self.graph.ids.get(candidate.url)
        return float(self._rank[node]) if node is not None and node < len(self._rank) else 0.0

    def pagerank_term(self, candidate: Candidate) -> float:
        """``R``: the URL's PageRank as a percentile rank among the known URLs, 0..1."""
        if len(self._sorted_rank) < 2:
            return 0.0
        value = self.pagerank_value(candidate)
        return float(np.searchsorted(self._sorted_rank, value, side="left")) / (len(self._sorted_rank) - 1)

    def learned_term(self, candidate: Candidate) -> float:
        """``L``: the link classifier's estimate for the URL's in-links."""
        if candidate.features is None:
            candidate.features = self.features(candidate)
        return self.classifier.predict(candidate.features)

    def features(self, candidate: Candidate) -> np.ndarray:
        anchor = [t for e in candidate.inlinks for t in e.anchor]
        context = [t for e in candidate.inlinks for t in e.context]
        return LinkClassifier.features(anchor, context, candidate.url_terms)

    # -- priority ------------------------------------------------------------------------------------------------
    def priority(self, candidate: Candidate) -> float:
        """The priority of a frontier URL (higher first); ties are broken by discovery order elsewhere."""
        if self.kind == "bfs":
            return 0.0
        if self.kind == "random":
            return candidate.chance
        if self.kind == "backlinks":
            node = self.graph.ids.get(candidate.url)
            return float(self.graph.backlinks[node]) if node is not None else 0.0
        if self.kind == "pagerank":
            return self.pagerank_value(candidate)
        assert self.topic is not None
        w = self.weights
        content = not self.is_template(candidate)  # a template link: its own words only
        best = max((self.link_score(e, parent=content) for e in candidate.inlinks), default=0.0)
        confidence = self.classifier.confidence if w.learned > 0 else 0.0
        total = best + w.url * self.topic.field_score("url", candidate.url_terms)
        if content:
            total += w.backlinks * self.backlink_term(candidate) + w.pagerank * self.pagerank_term(candidate)
        if confidence > 0:
            total += w.learned * confidence * self.learned_term(candidate)
        norm = (w.anchor + w.context + w.parent + w.url + w.backlinks + w.pagerank + w.learned * confidence)
        return total / norm if norm > 0 else 0.0

    def add_evidence(self, candidate: Candidate, evidence: Evidence) -> None:
        """Add an in-link to a URL, keeping the :data:`MAX_EVIDENCE` best (by link score; by arrival if not
        focused)."""
        candidate.inlinks.append(evidence)
        candidate.features = None
        if len(candidate.inlinks) > MAX_EVIDENCE:
            if self.kind == "focused":
                candidate.inlinks.sort(key=self.link_score, reverse=True)
            del candidate.inlinks[MAX_EVIDENCE:]
