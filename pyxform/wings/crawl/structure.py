"""The link graph seen so far: backlink counts and PageRank (Page, Brin, Motwani & Winograd 1999), the structure
terms of the ordering (Cho, Garcia-Molina & Page, "Efficient crawling through URL ordering", 1998, section 2.2).

Nodes are the canonical URLs seen (fetched pages and the frontier); an edge ``u -> v`` is a link of fetched page
``u`` to ``v`` (several links between two pages count once). PageRank is recomputed as the graph grows, by power
iteration on a scipy sparse matrix, warm-started from the last vector; pages without known out-links (the frontier)
spread their rank evenly, as the random surfer's jump does.
"""

from __future__ import annotations

from typing import Final

import numpy as np
import scipy.sparse as sparse

__all__ = ["LinkGraph", "DAMPING"]

#: PageRank's damping factor d (the surfer follows a link with probability d, jumps anywhere with 1 - d).
DAMPING: Final = 0.85
_TOLERANCE: Final = 1e-8
_MAX_ITERATIONS: Final = 100


class LinkGraph:
    """A growing directed graph of URLs with backlink counts and PageRank."""

    def __init__(self) -> None:
        self.ids: dict[str, int] = {}
        self._src: list[int] = []
        self._dst: list[int] = []
        self._edges: set[tuple[int, int]] = set()
        self.backlinks: list[int] = []  # in-degree from distinct pages, by node id
        self.max_backlinks = 0  # the most of any node (counts only grow)
        self._rank = np.zeros(0)
        self._ranked_edges = -1

    def node(self, url: str) -> int:
        """The id of ``url``, added if new."""
        node = self.ids.get(url)
        if node is None:
            node = self.ids[url] = len(self.ids)
            self.backlinks.append(0)
        return node

    def add_edge(self, source: str, target: str) -> bool:
        """Add the link ``source -> target``; false if it was known (or is a self-link, which is not counted)."""
        s, t = self.node(source), self.node(target)
        if s == t or (s, t) in self._edges:
            return False
        self._edges.add((s, t))
        self._src.append(s)
        self._dst.append(t)
        self.backlinks[t] += 1
        self.max_backlinks = max(self.max_backlinks, self.backlinks[t])
        return True

    @property
    def edges(self) -> int:
        return len(self._src)

    def pagerank(self) -> np.ndarray:
        """PageRank of every node (by id; sums to 1), recomputed if edges were added since the last call.

        :returns: a float array of shape ``(nodes,)``.
        """
        n = len(self.ids)
        if n == 0:
            return np.zeros(0)
        if self._ranked_edges == self.edges and len(self._rank) == n:
            return self._rank
        src = np.fromiter(self._src, dtype=np.int64, count=len(self._src))
        dst = np.fromiter(self._dst, dtype=np.int64, count=len(self._dst))
        out_degree = np.bincount(src, minlength=n).astype(float)
        weights = 1.0 / out_degree[src] if len(src) else np.zeros(0)
        matrix = sparse.csr_matrix((weights, (dst, src)), shape=(n, n))
        dangling = out_degree == 0
        rank = np.full(n, 1.0 / n)
        if len(self._rank):  # warm start: the old vector, the new nodes at the mean
            rank[: len(self._rank)] = self._rank * (len(self._rank) / n)
            rank /= rank.sum()
        for _ in range(_MAX_ITERATIONS):
            new = DAMPING * (matrix @ rank + rank[dangling].sum() / n) + (1 - DAMPING) / n
            delta = np.abs(new - rank).sum()
            rank = new
            if delta < _TOLERANCE:
                break
        self._rank = rank / rank.sum()
        self._ranked_edges = self.edges
        return self._rank
