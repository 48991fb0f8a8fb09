"""Header detection on the WikiTableQuestions pages: markup against a careful reading, formatting against markup.

Corpus: ``../shared/corpus/wikitables/tables/B-N.html`` (each page's picked table, alone). Two measurements:

1. **Markup** (method auto, which uses th/thead/scope/headers where present): k and p of the tables of the careful
   reading (``bench/data/wikitables_reading.json``: a sample read by eye, each entry with k, p and the reason) must
   agree exactly.
2. **Formatting without markup**: every th becomes a td with its content in ``<b>`` and scope/headers go
   (``strip_markup``); thead is dropped (``--keep-thead`` keeps it). The formatting method (method format) must find
   the k and p that the markup method finds on the original table, over all 440 tables.

Aims (issue 3): >= 97% exact (k, p) with markup; >= 90% without.

Run: ``python -m bench.headers_wikitables [--corpus ../shared/corpus] [--show 10] [--keep-thead] [--limit N]``.
"""

from __future__ import annotations

import argparse
import collections
import json
import time
from pathlib import Path

from pyxform.base.errors import PyxformError

from .headers_eval import DEFAULT_CORPUS, page_headers, parse_params, percent, strip_markup, warn

READING = Path(__file__).resolve().parent / "data" / "wikitables_reading.json"


def first_table(results: dict) -> tuple[int, int] | None:
    """(k, p) of the picked table: the file holds it alone, so it is the top-level table with the lowest index."""
    if not results:
        return None
    table = results[min(results)]
    return table.header_rows, table.header_cols


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--show", type=int, default=10, help="list this many disagreements of each kind")
    parser.add_argument("--keep-thead", action="store_true", help="keep thead when removing the markup")
    parser.add_argument("--limit", type=int, default=0, help="only the first N tables (0: all)")
    parser.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                        help="a stylesheet parameter of headers/params.xsl (to measure another weight)")
    args = parser.parse_args(argv)
    folder = args.corpus / "wikitables" / "tables"
    if not folder.is_dir():
        warn(f"no corpus at {folder}")
        return 2
    reading = json.loads(READING.read_text(encoding="utf-8"))["tables"]
    names = sorted((p.stem for p in folder.glob("*.html")), key=lambda s: tuple(int(x) for x in s.split("-")))
    if args.limit:
        names = names[: args.limit]
    params = parse_params(args.param)
    started = time.perf_counter()
    markup: dict[str, tuple[int, int] | None] = {}
    formatting: dict[str, tuple[int, int] | None] = {}
    methods = collections.Counter()
    for name in names:
        html = (folder / f"{name}.html").read_text(encoding="utf-8")  # UTF-8 without a charset declaration
        try:
            results = page_headers(html, method="auto", params=params)
            markup[name] = first_table(results)
            if results:
                methods[results[min(results)].method] += 1
            formatting[name] = first_table(page_headers(strip_markup(html, keep_thead=args.keep_thead),
                                                        method="format", params=params))
        except PyxformError as exc:
            warn(f"{name}: {exc}")
            markup.setdefault(name, None)
            formatting.setdefault(name, None)
    elapsed = time.perf_counter() - started

    print(f"WikiTableQuestions picked tables: {len(names)} ({elapsed:.0f} s); methods with markup: "
          + ", ".join(f"{m} {c}" for m, c in sorted(methods.items())))
    # 1. markup against the careful reading
    sample = [name for name in reading if name in markup]
    agree = [name for name in sample if markup[name] == (reading[name]["header_rows"], reading[name]["header_cols"])]
    print(f"\n1. markup vs careful reading: {len(agree)}/{len(sample)} exact (k, p) = {percent(len(agree), len(sample))}"
          f"   [aim >= 97%]")
    for part in ("random", "strata"):
        names_part = [n for n in sample if reading[n].get("sample") == part]
        right = [n for n in names_part if n in agree]
        print(f"   {part:<7} {len(right)}/{len(names_part)} = {percent(len(right), len(names_part))}")
    k_only = sum(1 for n in sample if markup[n] and markup[n][0] == reading[n]["header_rows"])
    p_only = sum(1 for n in sample if markup[n] and markup[n][1] == reading[n]["header_cols"])
    print(f"   k exact {percent(k_only, len(sample))}, p exact {percent(p_only, len(sample))}")
    for name in [n for n in sample if n not in agree][: args.show]:
        entry = reading[name]
        print(f"   {name}: markup {markup[name]} reading ({entry['header_rows']}, {entry['header_cols']}): "
              f"{entry['reason']}")
    # 2. formatting (markup removed) against markup
    both = [name for name in names if markup[name] is not None]
    same = [name for name in both if formatting[name] == markup[name]]
    print(f"\n2. formatting without markup ({'thead kept' if args.keep_thead else 'thead dropped'}) vs markup: "
          f"{len(same)}/{len(both)} exact (k, p) = {percent(len(same), len(both))}   [aim >= 90%]")
    k_same = sum(1 for n in both if formatting[n] and formatting[n][0] == markup[n][0])
    p_same = sum(1 for n in both if formatting[n] and formatting[n][1] == markup[n][1])
    print(f"   k exact {percent(k_same, len(both))}, p exact {percent(p_same, len(both))}")
    confusion = collections.Counter((markup[n], formatting[n]) for n in both if n not in same)
    print("   most frequent disagreements (markup -> formatting): "
          + ", ".join(f"{a}->{b} x{c}" for (a, b), c in confusion.most_common(8)))
    for name in [n for n in both if n not in same][: args.show]:
        print(f"   {name}: markup {markup[name]} formatting {formatting[name]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
