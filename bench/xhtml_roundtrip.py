"""How faithfully the XHTML rendering (``stylesheets/xhtml.xsl``) says what pyxform understood: every page of the
corpus is converted, rendered back to XHTML (``Conversion.to_xhtml()``), and the rendering converted again; a table
*round-trips* when its attribute-value pairs (``Conversion.pairs()``: slot, value, row and column header texts) are
the same both times.

A table that does not round-trip is one where pyxform, reading clean markup (``th`` with ``scope``, ``headers``,
``thead``), finds other header cells than it found on the page: the header region it detected from formatting or
partial markup is one that markup alone reads otherwise (full-width title rows, header cells that head only some of
the slots of their row). Reported: tables and pages that round-trip, and the first differing tables.

Run: ``python -m bench.xhtml_roundtrip [--corpus ../shared/corpus] [--limit N] [--show 10] [--details FILE.jsonl]``
(``--details``: one JSON line per differing table: page, table, and the pairs that differ before and after).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

from .corpus import DEFAULT_CORPUS, corpus_pages


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--limit", type=int, help="only the first N pages")
    parser.add_argument("--show", type=int, default=10, help="how many differing tables to list")
    parser.add_argument("--details", type=Path, help="write the differing pairs of each differing table (JSON lines)")
    args = parser.parse_args(argv)
    paths = corpus_pages(args.corpus)[: args.limit]
    if not paths:
        print(f"no pages under {args.corpus}", file=sys.stderr)
        return 2
    import pyxform
    from pyxform.base.errors import PyxformError

    tables = same_tables = pages = same_pages = 0
    differing: list[str] = []
    details: list[dict[str, object]] = []
    for path in paths:
        try:
            first = pyxform.convert(path.read_bytes(), source=str(path))
        except PyxformError:
            continue
        again = pyxform.convert(first.to_xhtml().encode("utf-8"))
        before: dict[int, list[object]] = defaultdict(list)
        after: dict[int, list[object]] = defaultdict(list)
        for pair in first.pairs():
            before[pair["table"]].append(pair)
        for pair in again.pairs():
            after[pair["table"]].append(pair)
        indexes = set(before) | set(after)
        same = {index for index in indexes if before[index] == after[index]}
        tables += len(indexes)
        same_tables += len(same)
        pages += 1
        same_pages += len(same) == len(indexes)
        differing += [f"{path.name} table {index}" for index in sorted(indexes - same)]
        for index in sorted(indexes - same):
            details.append({"page": path.name, "table": index,
                             "before": [p for p in before[index] if p not in after[index]],
                             "after": [p for p in after[index] if p not in before[index]]})
    print(f"{pages} pages, {tables} tables with pairs")
    print(f"  tables that round-trip: {same_tables} ({same_tables / max(tables, 1):.1%})")
    print(f"  pages that round-trip:  {same_pages} ({same_pages / max(pages, 1):.1%})")
    for line in differing[: args.show]:
        print(f"  differs: {line}")
    if args.details:
        args.details.write_text("".join(json.dumps(d, ensure_ascii=False) + "\n" for d in details), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
