"""The focused crawler (``pyxform crawl``, issue 14): gathers the pages of a topic, politely and resumably, stores
them (SQLite, WARC) and converts their tables to XML as they arrive. The manual is ``docs/crawl.md``.

Modules, one job each: :mod:`.config` (the settings), :mod:`.urls` (canonical form, scope), :mod:`.text` (a page's
text and links, terms), :mod:`.relevance` (BM25F topic relevance), :mod:`.structure` (backlinks, PageRank),
:mod:`.learning` (the online link classifier), :mod:`.ordering` (priorities; the baselines), :mod:`.frontier` (the
persistent priority queue), :mod:`.politeness` (robots.txt, per-host slots), :mod:`.traps` (trap detection),
:mod:`.fetcher` (one request), :mod:`.store` (SQLite and WARC), :mod:`.tables` (tables to XML through the jobs
layer's worker), :mod:`.crawler` (the loop). The names below are imported lazily (the command line's start stays
cheap).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

__all__ = ["crawl", "CrawlConfig", "Weights", "CrawlStats", "CrawlSummary", "ORDERINGS"]

_WHERE = {"crawl": ".crawler", "CrawlStats": ".crawler", "CrawlSummary": ".crawler", "CrawlConfig": ".config",
          "Weights": ".config", "ORDERINGS": ".config"}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        return getattr(import_module(_WHERE[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


if TYPE_CHECKING:
    from .config import ORDERINGS, CrawlConfig, Weights
    from .crawler import CrawlStats, CrawlSummary, crawl
