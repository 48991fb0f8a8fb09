"""Header detection on 27 real non-Wikipedia pages, against their annotations, by how the headers are marked.

Corpus: ``../shared/corpus/web/NAME.html`` and ``NAME.json`` (every table of the page: ``is_data``, ``header_rows``,
``header_cols``, ``header_marking`` = th | bold | font | css-class | colour | colon | mixed | none, ``kind``). The
pages go through the whole pipeline as bytes (clean decodes them) with method auto. A data table is right when k
and p are both exact; layout tables (``is_data`` false) are right when k = p = 0.

Aim (issue 3): >= 90% exact (k, p) on the data tables whose headers are not marked with th. Also reported: the
table kind pyxform finds (``TableHeaders.kind``) against the annotated kind (``kind``; layout for ``is_data`` false).

Run: ``python -m bench.headers_web [--corpus ../shared/corpus] [--show 20] [--method auto|markup|format]``.
"""

from __future__ import annotations

import argparse
import collections
import json
import time
from pathlib import Path

from pyxform.base.errors import PyxformError

from .headers_eval import DEFAULT_CORPUS, page_headers, parse_params, percent, warn


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--show", type=int, default=20, help="list this many wrong data tables")
    parser.add_argument("--method", default="auto", choices=("auto", "markup", "format"))
    parser.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                        help="a stylesheet parameter of headers/params.xsl (to measure another weight)")
    args = parser.parse_args(argv)
    folder = args.corpus / "web"
    if not folder.is_dir():
        warn(f"no corpus at {folder}")
        return 2
    params = parse_params(args.param)
    by_marking: dict[str, list[bool]] = collections.defaultdict(list)
    by_kind: dict[str, list[bool]] = collections.defaultdict(list)
    layout: list[bool] = []
    wrong: list[str] = []
    kinds: collections.Counter = collections.Counter()     # (annotated kind, found kind)
    started = time.perf_counter()
    pages = sorted(folder.glob("*.json"))
    for annotation_path in pages:
        annotation = json.loads(annotation_path.read_text(encoding="utf-8"))
        html_path = annotation_path.with_suffix(".html")
        try:
            results = page_headers(html_path.read_bytes(), method=args.method, params=params)
        except PyxformError as exc:
            warn(f"{html_path.name}: {exc}")
            results = {}
        for table in annotation["tables"]:
            got = results.get(table["table_index"])
            found = (got.header_rows, got.header_cols) if got else None
            kinds[(table["kind"] if table["is_data"] else "layout", got.kind if got else "-")] += 1
            if not table["is_data"]:
                layout.append(found == (0, 0))
                continue
            expected = (table["header_rows"], table["header_cols"])
            right = found == expected
            by_marking[table["header_marking"]].append(right)
            by_kind[table["kind"]].append(right)
            if not right:
                wrong.append(f"{annotation_path.stem} #{table['table_index']} [{table['header_marking']}, "
                             f"{table['kind']}]: expected {expected}, found {found} "
                             f"({got.method if got else 'no result'})")
    elapsed = time.perf_counter() - started

    def line(name: str, values: list[bool]) -> str:
        return f"   {name:<16} {sum(values):>4}/{len(values):<4} {percent(sum(values), len(values))}"

    data = [v for values in by_marking.values() for v in values]
    without_th = [v for marking, values in by_marking.items() if marking != "th" for v in values]
    print(f"web corpus: {len(pages)} pages, {len(data)} data tables, {len(layout)} layout tables "
          f"(method {args.method}, {elapsed:.0f} s)\n")
    print("exact (k, p) by header marking:")
    for marking in sorted(by_marking, key=lambda m: (-len(by_marking[m]), m)):
        print(line(marking, by_marking[marking]))
    print(line("all data", data))
    print(line("without th", without_th) + "   [aim >= 90%]")
    print("\nexact (k, p) by kind:")
    for kind in sorted(by_kind):
        print(line(kind, by_kind[kind]))
    print("\nlayout tables with k = p = 0:")
    print(line("layout", layout))
    agree = sum(count for (annotated, found), count in kinds.items() if annotated == found)
    print(f"\ntable kind (px:table-kind) against the annotation (layout = not a data table): "
          f"{agree}/{sum(kinds.values())} {percent(agree, sum(kinds.values()))}")
    for annotated in sorted({a for a, _ in kinds}):
        row = {found: count for (a, found), count in kinds.items() if a == annotated}
        print(f"   {annotated:<11} -> " + ", ".join(f"{found} {count}" for found, count in sorted(row.items())))
    if wrong and args.show:
        print("\nwrong data tables:")
        for entry in wrong[: args.show]:
            print("   " + entry)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
