"""Precision and recall of pyxform's attribute-value pairs on the wikitables corpus, against the markup's headers.

Measures of Zhang & Li 2007, section 5 (recall = correctly converted pairs / all pairs in the tables; precision =
correctly converted pairs / all pairs converted; the paper reports above 95% and 90%).

Tables: the picked table of each page of ``../shared/corpus/wikitables`` (``pages/B-N.json`` ``tableIndex``: the N-th
``table`` of class ``wikitable`` in the page), converted from the whole page: ``convert(page, table=I)`` where I is
that table's index among all ``table`` elements (document order, nested included).

Truth, "the markup's header assignment": the browser's grid of the table (``browser-grids.jsonl``, Chromium's table
model) with each cell's ``scope`` attribute (read from the page with an HTML5 parser, matched to the browser's cells in
tree order; the corpus has no ``headers`` attributes), and the header cells WHATWG HTML assigns (4.9.12.1 "Forming
relationships between data cells and header cells": ``th`` cells are header cells; column header / row header by
``scope`` or, in the auto state, by whether the cell's rows / columns hold no ``td``; the "internal algorithm for
scanning and assigning header cells" with its opaque-header blocking), run from each slot: leftwards for the row
headers (reported outermost first), upwards for the column headers (top first); empty header cells are dropped and
each header cell counts once. Truth pairs: every slot covered by a ``td`` whose text is not empty, one per slot as
Rule 1 reads the normalized table, except that slots of one cell in one row with the same headers are one pair (as
pyxform states them).

pyxform's pairs: ``Conversion.pairs()`` of that table, those with a non-empty value.

A pair of pyxform's is *complete and correct* when the truth has a pair at the same slot (row, column of the grid) and
  - the values are equal, and
  - the row header texts are equal as a sequence, and the column header texts are equal as a sequence,
texts compared after collapsing white space (the browser's ``innerText`` against pyxform's visible text).
Also reported, as a looser measure, "header set": the same with the row and column header texts compared as one set
(it forgives a header put on the other axis, e.g. a full-width section row, which WHATWG scans as a column header
and pyxform treats as a row header).

  precision = complete and correct pairs / pyxform's pairs;  recall = complete and correct pairs / truth pairs.

Two truths are reported. "WHATWG": the algorithm exactly; in its auto state a ``th`` heads its row only if no ``td``
covers any slot of its columns, so one ``td`` in a first column of ``th`` (a "Source:" footer spanning the table, a
"NC" cell) makes the whole column's ``th`` cells head nothing. "th heads its row": the same algorithm with that
condition dropped (a ``th`` that is not a column header is a row header), which is how the authors of such tables
use ``th`` and how browsers' accessibility trees read them.

Run: ``python -m bench.pairs_wikitables [--corpus DIR] [--limit N] [--method auto|markup|format]
[--details FILE.jsonl]``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from selectolax.lexbor import LexborHTMLParser

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus" / "wikitables"


def squash(text: str) -> str:
    return " ".join(text.split())


@dataclass
class Cell:
    index: int
    r: int
    c: int
    rs: int
    cs: int
    tag: str
    text: str
    scope: str

    @property
    def header(self) -> bool:
        return self.tag == "th"


class Table:
    """A browser grid with the WHATWG header assignment."""

    def __init__(self, record: dict[str, Any], scopes: list[str] | None, *, relaxed: bool = False) -> None:
        self.relaxed = relaxed
        self.rows, self.cols = record["rows"], record["cols"]
        self.cells = [Cell(i, c["r"], c["c"], c["rs"], c["cs"], c["tag"], squash(c.get("itext") or c["text"]),
                           (scopes[i] if scopes else ""))
                      for i, c in enumerate(record["cells"])]
        self.cover: dict[tuple[int, int], list[Cell]] = {}
        for cell in self.cells:
            for y in range(cell.r, min(cell.r + cell.rs, self.rows)):
                for x in range(cell.c, min(cell.c + cell.cs, self.cols)):
                    self.cover.setdefault((x, y), []).append(cell)
        self.column_header = {cell.index: self._is_column_header(cell) for cell in self.cells if cell.header}
        self.row_header = {cell.index: self._is_row_header(cell) for cell in self.cells if cell.header}

    def owner(self, x: int, y: int) -> Cell | None:
        """The cell that owns a slot in the dense grid (the later cell in tree order, as the grid format)."""
        cells = self.cover.get((x, y))
        return cells[-1] if cells else None

    def _no_td_in_rows(self, cell: Cell) -> bool:
        return not any(c.tag == "td" for y in range(cell.r, cell.r + cell.rs) for x in range(self.cols)
                       for c in self.cover.get((x, y), []))

    def _no_td_in_cols(self, cell: Cell) -> bool:
        return not any(c.tag == "td" for x in range(cell.c, cell.c + cell.cs) for y in range(self.rows)
                       for c in self.cover.get((x, y), []))

    def _is_column_header(self, cell: Cell) -> bool:
        if cell.scope == "col":
            return True
        return cell.scope not in ("row", "rowgroup", "colgroup") and self._no_td_in_rows(cell)

    def _is_row_header(self, cell: Cell) -> bool:
        if cell.scope == "row":
            return True
        return (cell.scope not in ("col", "rowgroup", "colgroup") and not self.column_header[cell.index]
                and (self.relaxed or self._no_td_in_cols(cell)))

    def scan(self, principal: Cell, x: int, y: int, dx: int, dy: int) -> list[Cell]:
        """WHATWG "internal algorithm for scanning and assigning header cells", from slot (x, y)."""
        found: list[Cell] = []
        opaque: list[Cell] = []
        in_block = principal.header
        block: list[Cell] = [principal] if principal.header else []
        while True:
            x, y = x + dx, y + dy
            if x < 0 or y < 0:
                return found
            covering = self.cover.get((x, y), [])
            if len(covering) != 1:
                continue
            current = covering[0]
            if current.header:
                in_block = True
                block.append(current)
                blocked = False
                if dx == 0:
                    blocked = any(o.c == current.c and o.cs == current.cs for o in opaque) or \
                        not self.column_header[current.index]
                if dy == 0:
                    blocked = any(o.r == current.r and o.rs == current.rs for o in opaque) or \
                        not self.row_header[current.index]
                if not blocked:
                    found.append(current)
            elif in_block:
                in_block = False
                opaque.extend(block)
                block = []

    def truth_pairs(self) -> dict[tuple[int, int], tuple[list[str], list[str], str]]:
        pairs: dict[tuple[int, int], tuple[list[str], list[str], str]] = {}
        for y in range(self.rows):
            seen: set[tuple[int, tuple[str, ...], tuple[str, ...]]] = set()
            for x in range(self.cols):
                cell = self.owner(x, y)
                if cell is None or cell.tag != "td" or not cell.text:
                    continue
                rows = _clean(self.scan(cell, x, y, -1, 0), cell)[::-1]
                cols = _clean(self.scan(cell, x, y, 0, -1), cell)[::-1]
                key = (cell.index, tuple(c.text for c in rows), tuple(c.text for c in cols))
                if key in seen:
                    continue
                seen.add(key)
                pairs[(y, x)] = ([c.text for c in rows], [c.text for c in cols], cell.text)
        return pairs


def _clean(headers: list[Cell], principal: Cell) -> list[Cell]:
    out: list[Cell] = []
    for cell in headers:
        if cell.text and cell is not principal and cell not in out:
            out.append(cell)
    return out


def page_tables(html: str) -> tuple[list[Any], list[Any]]:
    """All ``table`` elements of a page in document order, and those of class wikitable."""
    tables = LexborHTMLParser(html).css("table")
    return tables, [t for t in tables if "wikitable" in (t.attributes.get("class") or "").split()]


def own_cell_scopes(table: Any) -> list[str]:
    """``scope`` of the table's own td/th cells, in tree order (rows of nested tables excluded)."""
    scopes = []
    for node in table.traverse():
        if node.tag in ("td", "th"):
            owner = node.parent
            while owner is not None and owner.tag != "table":
                owner = owner.parent
            if owner is not None and owner.mem_id == table.mem_id:
                scopes.append((node.attributes.get("scope") or "").strip().lower())
    return scopes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--limit", type=int, default=0, help="first N pages only")
    parser.add_argument("--method", default="auto")
    parser.add_argument("--details", type=Path, help="write one JSON line per wrong or missing pair")
    parser.add_argument("--details-truth", default="WHATWG", choices=("WHATWG", "th heads its row"),
                        help="the truth whose differences --details writes")
    args = parser.parse_args(argv)
    if not args.corpus.is_dir():
        print(f"corpus not found: {args.corpus}", file=sys.stderr)
        return 2
    sys.path.insert(0, str(ROOT))
    from pyxform.convert import convert

    grids: dict[tuple[str, int], dict[str, Any]] = {}
    with open(args.corpus / "browser-grids.jsonl", encoding="utf-8") as stream:
        for line in stream:
            record = json.loads(line)
            grids[(record["file"], record["table_index"])] = record
    metas = sorted(args.corpus.glob("pages/*.json"), key=lambda p: tuple(int(n) for n in p.stem.split("-")))
    if args.limit:
        metas = metas[:args.limit]
    truths = ("WHATWG", "th heads its row")
    totals: Counter[str] = Counter()
    verdicts: dict[str, Counter[str]] = {truth: Counter() for truth in truths}
    details = open(args.details, "w", encoding="utf-8") if args.details else None
    started = time.perf_counter()
    for meta_path in metas:
        name = meta_path.stem
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        page_path = args.corpus / "pages" / f"{name}.html"
        data = page_path.read_bytes()
        tables, wikitables = page_tables(data.decode("utf-8", "replace"))
        if meta["tableIndex"] >= len(wikitables):
            totals["pages skipped (picked table not found)"] += 1
            continue
        picked = wikitables[meta["tableIndex"]]
        index = next(i for i, t in enumerate(tables) if t.mem_id == picked.mem_id)
        record = grids.get((f"pages/{name}.html", index))
        if record is None:
            totals["pages skipped (no browser grid)"] += 1
            continue
        scopes = own_cell_scopes(picked)
        if len(scopes) != len(record["cells"]):
            totals["tables whose cells did not match the browser's (scope ignored)"] += 1
            scopes = []
        truth_pairs = {truth: Table(record, scopes, relaxed=(truth != "WHATWG")).truth_pairs() for truth in truths}
        totals["pages"] += 1
        try:
            conversion = convert(data, table=index, method=args.method, source=f"{name}.html")
            ours = [p for p in conversion.pairs() if p["table"] == index and p["value"]]
        except Exception as error:  # a failed page counts as no pairs
            totals["pages failed"] += 1
            print(f"{name}: {type(error).__name__}: {error}", file=sys.stderr)
            ours = []
        totals["pyxform pairs"] += len(ours)
        for truth in truths:
            truth_of = truth_pairs[truth]
            counts = verdicts[truth]
            counts["truth pairs"] += len(truth_of)
            for pair in ours:
                expected = truth_of.get((pair["row"], pair["col"]))
                got = ([squash(t) for t in pair["row_headers"]], [squash(t) for t in pair["col_headers"]],
                       squash(pair["value"]))
                verdict = _verdict(expected, got)
                counts[verdict] += 1
                if details and verdict != "correct" and truth == args.details_truth:
                    details.write(json.dumps({"page": name, "table": index, "slot": [pair["row"], pair["col"]],
                                              "verdict": verdict, "pyxform": got, "truth": expected},
                                             ensure_ascii=False) + "\n")
            matched = {(p["row"], p["col"]) for p in ours}
            for slot, expected in truth_of.items():
                if slot not in matched:
                    counts["missing"] += 1
                    if details and truth == args.details_truth:
                        details.write(json.dumps({"page": name, "table": index, "slot": list(slot),
                                                  "verdict": "missing", "truth": expected}, ensure_ascii=False) + "\n")
    elapsed = time.perf_counter() - started
    if details:
        details.close()
    ours_n = totals["pyxform pairs"] or 1
    print(f"pages: {totals['pages']}  failed: {totals['pages failed']}  pyxform pairs: {totals['pyxform pairs']}  "
          f"time: {elapsed:.1f} s ({elapsed / max(totals['pages'], 1) * 1000:.0f} ms a page; the whole page is "
          f"converted for one table)")
    print(f"{'truth':<18} {'truth pairs':>11}  {'measure':<15} {'correct':>8} {'precision':>9} {'recall':>7}")
    for truth in truths:
        counts = verdicts[truth]
        truth_n = counts["truth pairs"] or 1
        for measure, correct in (("axes and order", counts["correct"]),
                                 ("header set", counts["correct"] + counts["header set only"])):
            print(f"{truth:<18} {counts['truth pairs']:>11}  {measure:<15} {correct:>8} {correct / ours_n:>9.4f} "
                  f"{correct / truth_n:>7.4f}")
        print("   " + ", ".join(f"{key}: {counts[key]}" for key in
                                 ("value differs", "headers differ", "header set only", "no truth pair at this slot",
                                  "missing") if counts[key]))
    for key in ("tables whose cells did not match the browser's (scope ignored)",
                "pages skipped (picked table not found)", "pages skipped (no browser grid)"):
        if totals[key]:
            print(f"{key}: {totals[key]}")
    return 0


def _verdict(expected: tuple[list[str], list[str], str] | None, got: tuple[list[str], list[str], str]) -> str:
    if expected is None:
        return "no truth pair at this slot"
    if expected[2] != got[2]:
        return "value differs"
    if expected[:2] == got[:2]:
        return "correct"
    if set(expected[0] + expected[1]) == set(got[0] + got[1]):
        return "header set only"
    return "headers differ"


if __name__ == "__main__":
    sys.exit(main())
