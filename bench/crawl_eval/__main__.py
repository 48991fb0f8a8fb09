"""python -m bench.crawl_eval: the focused crawler against the baselines of Cho et al. on a reproducible test web.

For each topic and each ordering a new server is started on 127.0.0.1 (bench/crawl_eval/site.py) and the crawl runs
with ``--max-pages`` = half the site (``--delay``, default 0.02 s, and ``--allow-private``; tables are not
converted: that is not what is measured). Everything is scored from the server's access log: relevant pages
fetched after 10 %, 25 % and 50 % of the site's size in fetches (harvest rate = relevant pages / fetches), robots
violations (requests to disallowed paths), trap fetches (requests into the four traps), the shortest gap between
two requests to the host. The plot (relevant pages found against fetches, one line per ordering, one panel per
topic) goes to ``docs/crawl-eval.png``.

    python -m bench.crawl_eval [--delay S] [--topics music,film] [--orderings focused,bfs] [--plot PATH] [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from typing import Any
from pathlib import Path
from urllib.parse import unquote, urlsplit

from pyxform.wings.crawl import ORDERINGS, CrawlConfig, crawl

from . import portal, site as wiki
from .web import TestWeb

#: The test webs: (how to build one from a seed, its topics).
WEBS = {"wiki": (wiki.build_site, wiki.TOPICS), "portal": (portal.build_site, portal.TOPICS)}

FRACTIONS = (0.10, 0.25, 0.50)
ROOT = Path(__file__).resolve().parents[2]


def score(site: Any, web: TestWeb, topic: str) -> dict[str, object]:
    """The scores of one crawl, from the server's log."""
    relevant = site.relevant[topic]
    found: set[str] = set()
    curve = []
    requests = 0
    traps = violations = soft_404 = 0
    for hit in web.log:
        if hit.path == "/robots.txt":
            continue
        requests += 1
        path = unquote(hit.path)
        if path not in relevant:
            path = unquote(urlsplit(hit.path).path)
        traps += site.is_trap(hit.path)
        violations += site.disallowed(hit.path)
        soft_404 += bool(getattr(site, "is_soft_404", None) and site.is_soft_404(hit.path))
        if path in relevant:
            found.add(path)
        curve.append(len(found))
    size = site.size
    at = {}
    for fraction in FRACTIONS:
        budget = round(fraction * size)
        hits = curve[min(budget, len(curve)) - 1] if curve else 0
        at[f"{fraction:.0%}"] = {"relevant": hits, "harvest": hits / budget}
    return {"requests": requests, "curve": curve, "at": at, "traps": traps, "robots_violations": violations,
            "soft_404": soft_404,
            "shortest_gap": web.shortest_gap(), "relevant_total": len(relevant),
            "robots_first": bool(web.log) and web.log[0].path == "/robots.txt"}


def run_one(site: Any, topic: str, description: str, ordering: str, delay: float) -> dict[str, object]:
    with TestWeb(site.serve) as web, tempfile.TemporaryDirectory() as out:
        started = time.monotonic()
        crawl(CrawlConfig(seeds=(web.url + "/",), topic=description, out=out, max_pages=round(0.5 * site.size),
                          delay=delay, allow_private=True, ordering=ordering, convert=False),  # type: ignore[arg-type]
              handle_signals=False)
        result = score(site, web, topic)
        result["seconds"] = time.monotonic() - started
    return result


def table(results: dict[str, dict[str, dict[str, object]]], orderings: list[str]) -> str:
    """The markdown results table: relevant pages found (mean over topics) and their ratio to BFS."""
    lines = ["| ordering | relevant at 10% | at 25% | at 50% | harvest 10% / 25% / 50% | x BFS at 10% / 25% | "
             "trap fetches | soft-404 fetches | robots violations | shortest gap (s) |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    topics = list(results)
    for ordering in orderings:
        rows = [results[t][ordering] for t in topics]
        mean = {f: sum(r["at"][f]["relevant"] for r in rows) / len(rows) for f in ("10%", "25%", "50%")}
        harvest = {f: sum(r["at"][f]["harvest"] for r in rows) / len(rows) for f in ("10%", "25%", "50%")}
        ratio = ""
        if "bfs" in orderings:
            bfs = {f: sum(results[t]["bfs"]["at"][f]["relevant"] for t in topics) / len(topics) for f in ("10%", "25%")}
            ratio = " / ".join(f"{mean[f] / bfs[f]:.1f}" if bfs[f] else "-" for f in ("10%", "25%"))
        gaps = [r["shortest_gap"] for r in rows if r["shortest_gap"] is not None]
        lines.append(f"| {ordering} | {mean['10%']:.1f} | {mean['25%']:.1f} | {mean['50%']:.1f} | "
                     f"{harvest['10%']:.2f} / {harvest['25%']:.2f} / {harvest['50%']:.2f} | {ratio} | "
                     f"{sum(r['traps'] for r in rows)} | {sum(r['soft_404'] for r in rows)} | "
                     f"{sum(r['robots_violations'] for r in rows)} | "
                     f"{min(gaps):.3f} |")
    return "\n".join(lines)


def per_topic(results: dict[str, dict[str, dict[str, object]]], orderings: list[str]) -> str:
    lines = ["| topic (relevant pages) | " + " | ".join(orderings) + " |", "|---" * (len(orderings) + 1) + "|"]
    for topic, by_ordering in results.items():
        total = next(iter(by_ordering.values()))["relevant_total"]
        cells = [" / ".join(str(by_ordering[o]["at"][f]["relevant"]) for f in ("10%", "25%", "50%"))
                 for o in orderings]
        lines.append(f"| {topic} ({total}) | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def plot(results: dict[str, dict[str, dict[str, object]]], orderings: list[str], size: int, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    topics = list(results)
    columns = 2
    rows = (len(topics) + 1) // columns
    figure, axes = plt.subplots(rows, columns, figsize=(11, 4 * rows), squeeze=False)
    for k, topic in enumerate(topics):
        axis = axes[k // columns][k % columns]
        for ordering in orderings:
            curve = results[topic][ordering]["curve"]
            axis.plot(range(1, len(curve) + 1), curve, label=ordering, linewidth=2 if ordering == "focused" else 1)
        for fraction in FRACTIONS:
            axis.axvline(fraction * size, color="grey", linestyle=":", linewidth=0.8)
        axis.set_title(f"{topic} ({results[topic][orderings[0]]['relevant_total']} relevant pages)")
        axis.set_xlabel("fetches")
        axis.set_ylabel("relevant pages found")
        axis.legend(loc="upper left", fontsize=8)
    for k in range(len(topics), rows * columns):
        axes[k // columns][k % columns].axis("off")
    figure.suptitle(f"pyxform crawl: relevant pages found against fetches ({size}-page test web; dotted: 10, 25, "
                    "50 % of the site)")
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=90)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--delay", type=float, default=0.02)
    parser.add_argument("--web", choices=sorted(WEBS), default="wiki", help="which test web (default wiki)")
    parser.add_argument("--topics", default=None, help="comma-separated topic names (default: all of the web's)")
    parser.add_argument("--orderings", default=",".join(ORDERINGS))
    parser.add_argument("--plot", default=None, help="the plot's path (default docs/crawl-eval.png, "
                                                     "docs/crawl-eval-portal.png for the portal)")
    parser.add_argument("--json", default=None, help="write every result (curves included) to this file")
    parser.add_argument("--seed", type=int, default=14, help="the test web's seed")
    args = parser.parse_args()
    build, all_topics = WEBS[args.web]
    site = build(args.seed)
    orderings = args.orderings.split(",")
    topics = [t for t in all_topics if args.topics is None or t.name in args.topics.split(",")]
    print(f"test web {args.web}: {site.size} pages (home, hubs, {len(site.articles)} articles) + traps, redirects, "
          f"404s, files; budget {round(0.5 * site.size)} fetches, delay {args.delay} s")
    for topic in topics:
        sample = sorted(site.titles[p] for p in site.relevant[topic.name])[:6]
        print(f"  topic {topic.name}: {len(site.relevant[topic.name])} relevant pages, e.g. {'; '.join(sample)}")
    results: dict[str, dict[str, dict[str, object]]] = {}
    for topic in topics:
        results[topic.name] = {}
        for ordering in orderings:
            result = run_one(site, topic.name, topic.description, ordering, args.delay)
            results[topic.name][ordering] = result
            at = result["at"]
            print(f"  {topic.name:8s} {ordering:9s} relevant at 10/25/50%: "
                  f"{at['10%']['relevant']:3d} {at['25%']['relevant']:3d} {at['50%']['relevant']:3d}  "
                  f"traps {result['traps']:3d}  soft-404 {result['soft_404']:3d}  "
                  f"robots violations {result['robots_violations']}  "
                  f"robots.txt first {result['robots_first']}  gap {result['shortest_gap']:.3f}s  "
                  f"{result['seconds']:.0f}s", flush=True)
    print()
    print(table(results, orderings))
    print()
    print(per_topic(results, orderings))
    name = "crawl-eval.png" if args.web == "wiki" else f"crawl-eval-{args.web}.png"
    plot(results, orderings, site.size, Path(args.plot) if args.plot else ROOT / "docs" / name)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
