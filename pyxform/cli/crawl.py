"""``pyxform crawl``: the focused crawler's command line (the crawl wing, :mod:`pyxform.wings.crawl`): its arguments,
the progress display (a live line on a terminal, plain log lines otherwise) and the summary at the end.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..base.errors import UsageError
from ..base.limits import DEFAULT_LIMITS
from ..wings.crawl.config import ORDERINGS, CrawlConfig, Weights
from .common import Command, command_line_message

if TYPE_CHECKING:  # the crawler's modules (httpx, numpy, scipy, ...) load when a crawl runs, not with the parser
    from ..wings.crawl.crawler import CrawlStats, CrawlSummary

__all__ = ["CRAWL", "add_arguments", "run", "config_of", "summary"]

#: Plain progress lines (not a terminal): at most one per this many seconds.
LOG_EVERY = 5.0


def _positive_int(value: str) -> int:
    number = int(value)
    if number < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return number


def _non_negative_int(value: str) -> int:
    number = int(value)
    if number < 0:
        raise argparse.ArgumentTypeError("must be 0 or more")
    return number


def _non_negative(value: str) -> float:
    number = float(value)
    if not math.isfinite(number):
        raise argparse.ArgumentTypeError("must be a finite number")
    if number < 0:
        raise argparse.ArgumentTypeError("must be 0 or more")
    return number


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare ``pyxform crawl``'s arguments."""
    parser.add_argument("seeds", nargs="+", metavar="SEED_URL", help="where the crawl starts (http or https URLs)")
    parser.add_argument("--topic", default=None, help="the topic, in words (a short description)")
    parser.add_argument("--topic-file", metavar="FILE", help="read the topic's description from FILE (UTF-8)")
    parser.add_argument("--max-pages", type=_positive_int, required=True, metavar="N",
                        help="most fetches: every HTTP request but robots.txt counts (redirect hops, errors, "
                             "retries, non-HTML answers)")
    parser.add_argument("--out", required=True, metavar="DIR",
                        help="the crawl's folder (SQLite, WARC, xml/); running again on it resumes the crawl")
    parser.add_argument("--allow-domain", action="append", default=[], metavar="D",
                        help="also crawl hosts of domain D and its subdomains (default: the seeds' hosts only)")
    parser.add_argument("--max-depth", type=_non_negative_int, default=20, metavar="D",
                        help="most links from a seed (default 20)")
    parser.add_argument("--delay", type=_non_negative, default=1.0, metavar="SECONDS",
                        help="least time between two requests to one host (default 1; a longer robots.txt "
                             "Crawl-delay wins)")
    parser.add_argument("--concurrency", type=_positive_int, default=4, metavar="N",
                        help="most requests in flight, one per host (default 4)")
    parser.add_argument("--ordering", choices=ORDERINGS, default="focused",
                        help="focused (default: content and structure) or a baseline: bfs, backlinks, pagerank, "
                             "random")
    parser.add_argument("--allow-private", action="store_true",
                        help="let requests reach loopback, private and link-local addresses (refused by default)")
    parser.add_argument("--restart", action="store_true",
                        help="start a new crawl in DIR even if it holds another one (its pages are removed)")
    parser.add_argument("--no-convert", dest="convert", action="store_false",
                        help="store the pages only; do not convert their tables to XML")
    group = parser.add_argument_group("focused ordering (docs/crawl.md, 'Ordering')")
    defaults = Weights()
    for name, text in (("anchor", "anchor text relevance"), ("context", "relevance of the text around a link"),
                       ("url", "relevance of the URL's words"), ("parent", "relevance of the linking page"),
                       ("backlinks", "backlink count"), ("pagerank", "PageRank"),
                       ("learned", "the online link classifier")):
        group.add_argument(f"--weight-{name}", dest=f"weight_{name}", type=_non_negative, metavar="W",
                           default=getattr(defaults, name), help=f"weight of {text} (default "
                                                                  f"{getattr(defaults, name):g})")
    group.add_argument("--relevant-threshold", type=_non_negative, default=0.3, metavar="R",
                       help="a page whose relevance (0..1) reaches R counts as relevant (default 0.3)")
    group.add_argument("--seed", type=int, default=0, help="seed of the random ordering (default 0)")
    limits = parser.add_argument_group("limits")
    limits.add_argument("--max-pages-per-host", type=_non_negative_int, default=0, metavar="N",
                        help="most fetches per host (default 0: none beyond --max-pages)")
    limits.add_argument("--max-url-length", type=_positive_int, default=512, metavar="N",
                        help="longer URLs are not queued (default 512)")
    limits.add_argument("--max-query-params", type=_non_negative_int, default=4, metavar="N",
                        help="URLs with more query parameters are not queued (default 4)")
    limits.add_argument("--retries", type=_non_negative_int, default=2, metavar="N",
                        help="more tries after a 5xx answer, a time-out or a dropped connection (default 2)")
    limits.add_argument("--fetch-timeout", type=_non_negative, default=DEFAULT_LIMITS.fetch_timeout,
                        metavar="SECONDS", help=f"seconds one request may take (default "
                                                f"{DEFAULT_LIMITS.fetch_timeout:g})")
    limits.add_argument("--timeout", type=_non_negative, default=DEFAULT_LIMITS.timeout, metavar="SECONDS",
                        help=f"seconds one page's conversion may take (default {DEFAULT_LIMITS.timeout:g})")


def config_of(args: argparse.Namespace) -> CrawlConfig:
    """The :class:`CrawlConfig` of parsed arguments.

    :raises UsageError: a topic file that cannot be read, no topic for the focused ordering, a bad setting.
    """
    topic = args.topic or ""
    if args.topic_file:
        try:
            topic = (topic + "\n" + Path(args.topic_file).read_text(encoding="utf-8")).strip()
        except (OSError, UnicodeDecodeError) as error:
            raise UsageError(f"--topic-file {args.topic_file}: {getattr(error, 'strerror', None) or error}") from None
    limits = replace(DEFAULT_LIMITS, fetch_timeout=args.fetch_timeout, timeout=args.timeout)
    try:
        weights = Weights(**{name: getattr(args, f"weight_{name}") for name in Weights.__dataclass_fields__})
        return _config(args, topic, weights, limits)
    except ValueError as error:
        raise UsageError(str(error)) from None


def _config(args: argparse.Namespace, topic: str, weights: Weights, limits: Any) -> CrawlConfig:
    return CrawlConfig(
        seeds=tuple(args.seeds), topic=topic, out=args.out, max_pages=args.max_pages,
        allow_domains=tuple(args.allow_domain), max_depth=args.max_depth, delay=args.delay,
        concurrency=args.concurrency, ordering=args.ordering, allow_private=args.allow_private,
        restart=args.restart, weights=weights, relevant_threshold=args.relevant_threshold,
        max_pages_per_host=args.max_pages_per_host, max_url_length=args.max_url_length,
        max_query_params=args.max_query_params, retries=args.retries, convert=args.convert, seed=args.seed,
        limits=limits)


class _Display:
    """Progress: a live line on a terminal (rich), plain log lines on standard error otherwise."""

    def __init__(self, max_pages: int) -> None:
        self.max_pages = max_pages
        self.live: Any = None
        self.last = 0.0
        if sys.stderr.isatty():
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            self.progress = Progress(TextColumn("crawl"), BarColumn(), MofNCompleteColumn(),
                                     TextColumn("{task.fields[line]}"), TimeElapsedColumn(),
                                     console=Console(stderr=True), transient=False)
            self.task = self.progress.add_task("crawl", total=max_pages, line="")
            self.progress.start()
            self.live = self.progress

    @staticmethod
    def line(stats: CrawlStats) -> str:
        waiting = f" ({stats.conversion_pending} waiting)" if stats.conversion_pending else ""
        return (f"fetched {stats.fetches}, pages {stats.pages}, relevant {stats.relevant}, queued {stats.queued}, "
                f"{stats.rate:.1f} fetches/s, tables of {stats.converted} pages{waiting}")

    def __call__(self, stats: CrawlStats) -> None:
        if self.live is not None:
            self.progress.update(self.task, completed=min(stats.fetches, self.max_pages),
                                 line=self.line(stats).split(", ", 1)[1])
            return
        now = time.monotonic()
        if now - self.last >= LOG_EVERY:
            self.last = now
            print(f"pyxform crawl: {self.line(stats)}", file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.live is not None:
            self.progress.stop()


def summary(result: CrawlSummary) -> str:
    """The summary printed at the end."""
    s = result.stats
    how = {"max-pages": "the fetch budget (--max-pages) is spent", "done": "nothing left to fetch",
           "interrupted": "interrupted: run the same command again to resume"}[result.ended]
    lines = [f"crawl {'resumed and ' if result.resumed else ''}stopped: {how}",
             f"  fetches       {s.fetches} (+ {s.robots_fetches} robots.txt)",
             f"  HTML pages    {s.pages}, relevant {s.relevant} (harvest rate {s.harvest_rate:.2f})",
             f"  failed        {s.failed}; set aside {s.skipped} (robots.txt, traps, duplicates, depth, scope)",
             f"  queued        {s.queued}",
             f"  tables        {s.converted} pages converted, {s.conversion_failed} failed"
             + (f", {s.conversion_pending} pending" if s.conversion_pending else ""),
             f"  time          {s.seconds:.1f} s ({s.rate:.1f} fetches/s)",
             f"  folder        {result.folder} (crawl.sqlite, warc/, xml/)"]
    common = sorted(s.reasons.items(), key=lambda item: -item[1])[:5]
    if common:
        lines.append("  failures, most common first (this run):")
        lines += [f"    {count:5d}  {command_line_message(reason)}" for reason, count in common]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Run ``pyxform crawl``; the exit code (0; 130 when interrupted).

    :raises UsageError: a bad setting, a seed that is not an http(s) URL, a topic without words.
    :raises PyxformError: as :func:`pyxform.wings.crawl.crawl` (``crawl-state``: another crawl in the folder).
    """
    from ..wings.crawl import crawl

    config = config_of(args)
    display = _Display(config.max_pages)
    try:
        result = crawl(config, progress=display)
    finally:
        display.close()
    for note in result.notes:
        print(f"pyxform crawl: warning: {note}", file=sys.stderr)
    print(summary(result), flush=True)
    return 130 if result.ended == "interrupted" else 0


CRAWL = Command("crawl", "a focused crawler: gather a topic's pages (SQLite, WARC) and convert their tables as they "
                "arrive", add_arguments, run)
