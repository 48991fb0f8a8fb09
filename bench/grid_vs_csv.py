"""Compare pyxform's grid of each Wikipedia page's picked table with the dataset's own normalized CSV.

Corpus: ``../shared/corpus/wikitables`` (WikiTableQuestions pages; ``pages/B-N.json`` names the picked table by
``tableIndex``, its position among the page's tables of class ``wikitable``; ``tables/B-N.csv`` is the dataset's
normalized version of it). The CSV is a peer's output, not ground truth: it drops rows whose cells are all equal
and near-empty columns, merges some adjacent columns, joins multi-row headers with a line feed, and strips hidden
text and footnote markers. So shapes are compared first, the kind of every shape difference is named, and text is
compared only where the shapes agree (the CSV neither dropped nor merged rows or columns).

Run: ``python -m bench.grid_vs_csv [--corpus ../shared/corpus] [--show 5]``.
"""

from __future__ import annotations

import argparse
import collections
import csv
import json
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from pyxform.base.errors import PyxformError
from pyxform.stages.normalize import Normalizer, TableGrid, grid

DEFAULT_CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"
_FOOTNOTE = re.compile(r"\[(?:\d+|[a-z]|[A-Z]|note \d+|citation needed|nb \d+|\w{1,3})\]")
_SPACE = re.compile(r"\s+")


def simple(text: str) -> str:
    """Compare texts loosely: every whitespace run (line feeds and U+00A0 included) -> one space, trimmed."""
    return _SPACE.sub(" ", text).strip()


def read_csv(path: Path) -> list[list[str]]:
    with path.open(encoding="utf-8", newline="") as stream:
        return [row for row in csv.reader(stream, escapechar="\\")]


def picked_table(tables: tuple[TableGrid, ...], page: bytes, table_index: int) -> TableGrid | None:
    """The table_index-th table of class wikitable (WikiTableQuestions' way of counting) of the page."""
    from pyxform.stages.clean import clean

    all_tables = list(clean(page).tree.iter("{http://www.w3.org/1999/xhtml}table"))
    wikitables = [n for n, t in enumerate(all_tables) if "wikitable" in (t.get("class") or "").split()]
    if table_index >= len(wikitables):
        return None
    return next((t for t in tables if t.index == wikitables[table_index]), None)


@dataclass
class Result:
    page: str
    kind: str
    shape_agrees: bool = False
    text_agrees: bool = False
    text_agrees_without_footnotes: bool = False
    detail: str = ""
    text_kinds: dict[str, int] = field(default_factory=dict)


def shape_kind(table: TableGrid, rows: list[list[str]]) -> str:
    csv_rows, csv_cols = len(rows), max((len(r) for r in rows), default=0)
    header_joined = any("\n" in cell for cell in (rows[0] if rows else []))
    if (csv_rows, csv_cols) == (table.rows, table.cols):
        return "same shape"
    if csv_rows < table.rows and csv_cols == table.cols:
        return "CSV has fewer rows: header rows joined" if header_joined else "CSV has fewer rows: rows dropped"
    if csv_rows == table.rows and csv_cols < table.cols:
        return "CSV has fewer columns: columns dropped or merged"
    if csv_rows < table.rows and csv_cols < table.cols:
        return "CSV has fewer rows and columns"
    return "CSV is larger than our grid"


def compare(page: Path, normalizer: Normalizer) -> Result:
    meta = json.loads(page.with_suffix(".json").read_text(encoding="utf-8"))
    name = page.stem
    csv_path = page.parent.parent / "tables" / f"{name}.csv"
    try:
        document = grid(page, normalizer=normalizer)
    except PyxformError as exc:
        return Result(name, f"error: {exc.code}", detail=str(exc))
    table = picked_table(document.tables, page.read_bytes(), meta["tableIndex"])
    if table is None:
        return Result(name, "picked table not found")
    rows = read_csv(csv_path)
    kind = shape_kind(table, rows)
    result = Result(name, kind, shape_agrees=kind == "same shape",
                    detail=f"ours {table.rows}x{table.cols}, CSV {len(rows)}x{max((len(r) for r in rows), default=0)}")
    if not result.shape_agrees:
        return result
    kinds: collections.Counter[str] = collections.Counter()
    without_footnotes = True
    for r, row in enumerate(rows):
        for c, theirs in enumerate(row):
            cell = table.grid[r][c]
            ours = simple(cell.text if cell else "")
            theirs = simple(theirs)
            if ours == theirs:
                continue
            if simple(_FOOTNOTE.sub("", ours)) == theirs:
                kinds["footnote markers (the CSV strips them)"] += 1
                continue
            without_footnotes = False
            letters = iter(ours.replace(" ", ""))
            if len(ours) > len(theirs) and all(ch in letters for ch in theirs.replace(" ", "")):
                kinds["text hidden by CSS (the full clean stage prunes it) or dropped by the CSV"] += 1
            else:
                kinds["other"] += 1
    result.text_kinds = dict(kinds)
    result.text_agrees = not kinds
    result.text_agrees_without_footnotes = without_footnotes
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--show", type=int, default=5)
    args = parser.parse_args(argv)
    pages = sorted((args.corpus / "wikitables" / "pages").glob("*.html"))
    if not pages:
        print(f"no pages under {args.corpus / 'wikitables'}", file=sys.stderr)
        return 2
    normalizer = Normalizer()
    started = time.perf_counter()
    results = [compare(page, normalizer) for page in pages]
    seconds = time.perf_counter() - started
    total = len(results)
    same = [r for r in results if r.shape_agrees]
    print(f"picked tables: {total} ({seconds:.1f} s)")
    print(f"shape agrees (rows and columns): {len(same)}/{total} = {100 * len(same) / total:.1f}%")
    text = sum(r.text_agrees for r in same)
    loose = sum(r.text_agrees_without_footnotes for r in same)
    print(f"text agrees, where the shapes agree: {text}/{len(same)} = {100 * text / max(len(same), 1):.1f}% exactly; "
          f"{loose}/{len(same)} = {100 * loose / max(len(same), 1):.1f}% once footnote markers are set aside")
    print("\nshape comparison by kind:")
    for kind, count in collections.Counter(r.kind for r in results).most_common():
        print(f"  {count:4d}  {kind}")
        if kind != "same shape":
            for r in [r for r in results if r.kind == kind][: args.show]:
                print(f"          {r.page}: {r.detail}")
    slots: collections.Counter[str] = collections.Counter()
    tables: collections.Counter[str] = collections.Counter()
    for r in same:
        slots.update(r.text_kinds)
        tables.update(r.text_kinds.keys())
    print("\ntext differences where the shapes agree (tables, slots):")
    for kind, count in tables.most_common():
        print(f"  {count:4d} tables {slots[kind]:6d} slots  {kind}")
        print("          " + ", ".join([r.page for r in same if kind in r.text_kinds][: args.show]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
