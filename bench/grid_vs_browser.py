"""Compare pyxform's grids with the grids a real browser (Chromium) computed for the same pages.

The oracle is ``../shared/corpus/{wikitables,web}/browser-grids.jsonl`` (see that corpus' README): for every table
of every page, the anchor slot, effective spans, tag and text of each cell. Tables are matched by their index
(document order, nested included). A table *agrees on structure* when rows, cols and every slot's origin and tag are
equal (the oracle's dense grid is filled in tree order, a later cell owning an overlapping slot, as in ours); it
*agrees on text* when every slot's text is equal after both sides' whitespace is normalized the same way (the
oracle's ``itext`` is the browser's innerText, which has line breaks where ours has them).

Run: ``python -m bench.grid_vs_browser [--corpus ../shared/corpus] [--limit N] [--show 5]``.
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pyxform.base.errors import PyxformError
from pyxform.stages.normalize import Cell, GridDocument, Normalizer, TableGrid, grid

ORACLES = ("wikitables/browser-grids.jsonl", "web/browser-grids.jsonl")
DEFAULT_CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"

_SPACES = re.compile(r"[ \t\r\f]+")
_BREAKS = re.compile(r"[ \xa0]*\n[ \n\xa0]*")


def normalize_text(text: str) -> str:
    """Text as the oracle normalized it, applied to both sides before comparing: runs of spaces -> one space, runs of
    line feeds -> one line feed, and U+00A0 counted as whitespace next to a line feed and at both ends (the oracle
    trims with JavaScript's ``trim``/``\\s``, which include U+00A0; pyxform keeps every U+00A0)."""
    return _BREAKS.sub("\n", _SPACES.sub(" ", text)).strip(" \n\xa0")


Slot = tuple[tuple[int, int] | None, str | None]


def _is_rendered(entry: dict[str, Any]) -> bool:
    """False for the oracle's tables that the browser did not lay out (display: none, zero box): their innerText is
    not the visible text, so their textContent is compared instead (with line breaks counted as spaces)."""
    return bool(entry.get("layout_agrees", True))


def oracle_grid(entry: dict[str, Any]) -> tuple[list[list[Slot]], list[list[str]]]:
    """The oracle's dense grid: ``(origin, tag)`` per slot (cells filled in tree order, a later cell owning an
    overlapping slot) and the normalized text per slot."""
    rows, cols = entry["rows"], entry["cols"]
    structure: list[list[Slot]] = [[(None, None)] * cols for _ in range(rows)]
    texts = [[""] * cols for _ in range(rows)]
    rendered = _is_rendered(entry)
    for cell in entry["cells"]:
        text = normalize_text(cell.get("itext") or "") if rendered else normalize_text(cell.get("text") or "")
        for r in range(cell["r"], min(rows, cell["r"] + cell["rs"])):
            for c in range(cell["c"], min(cols, cell["c"] + cell["cs"])):
                structure[r][c] = ((cell["r"], cell["c"]), cell["tag"])
                texts[r][c] = text
    return structure, texts


def our_grid(table: TableGrid, rendered: bool = True) -> tuple[list[list[Slot]], list[list[str]]]:
    structure = [[(cell.origin, cell.tag) if cell else (None, None) for cell in row] for row in table.grid]
    texts = [[_our_text(cell, rendered) for cell in row] for row in table.grid]
    return structure, texts


def _our_text(cell: Cell | None, rendered: bool) -> str:
    if cell is None:
        return ""
    text = normalize_text(cell.text)
    return text if rendered else text.replace("\n", " ")


def _subsequence(short: str, long: str) -> bool:
    letters = iter(long)
    return all(ch in letters for ch in short)


def text_difference_kind(cell: Cell | None, ours: str, theirs: str) -> str:
    """Name the reason why our text of a slot differs from the browser's."""
    if cell is not None and cell.table_refs:
        return "nested table text (the browser includes it; pyxform's grid leaves it out by design)"
    if "\ufffd" in ours and "\ufffd" not in theirs:
        return "decoding (the provisional clean decodes every page as UTF-8)"
    if ours.upper() == theirs or ours.lower() == theirs or ours.title() == theirs:
        return "letter case (CSS text-transform, which pyxform does not apply)"
    if ours.replace("\n", " ") == theirs.replace("\n", " "):
        return "line breaks only (CSS display of inline elements, or block boundaries the browser draws otherwise)"
    squeeze = str.maketrans("", "", " \n\xa0")
    if len(ours) > len(theirs) and _subsequence(theirs.translate(squeeze), ours.translate(squeeze)):
        return "text hidden by CSS (display: none etc.; pruned by the full clean stage, not the provisional one)"
    if len(theirs) > len(ours) and _subsequence(ours.translate(squeeze), theirs.translate(squeeze)):
        return "text the browser adds (CSS generated content, form controls, list markers)"
    return "other"


@dataclass
class TableComparison:
    file: str
    index: int
    structure_agrees: bool
    text_agrees: bool  # every slot's text agrees, except slots whose cell holds a nested table
    kind: str = ""  # kind of structural difference
    detail: str = ""
    text_kinds: dict[str, int] = field(default_factory=dict)  # kind -> differing slots
    text_examples: dict[str, str] = field(default_factory=dict)


def classify(entry: dict[str, Any], table: TableGrid | None, failure: str | None) -> TableComparison:
    """Compare one table with its oracle entry and name the kind of each difference."""
    name, index = entry["file"], entry["table_index"]
    if table is None:
        return TableComparison(name, index, False, False, "missing", failure or "no such table in our output")
    ours, our_texts = our_grid(table, _is_rendered(entry))
    theirs, their_texts = oracle_grid(entry)
    if (table.rows, table.cols) != (entry["rows"], entry["cols"]):
        detail = f"ours {table.rows}x{table.cols}, browser {entry['rows']}x{entry['cols']}"
        return TableComparison(name, index, False, False, "size", detail)
    structure_agrees = ours == theirs
    kind = detail = ""
    if not structure_agrees:
        diffs = [(r, c) for r in range(table.rows) for c in range(table.cols) if ours[r][c] != theirs[r][c]]
        r, c = diffs[0]
        kind = "tag" if all(ours[r][c][0] == theirs[r][c][0] for r, c in diffs) else "origin"
        detail = f"{len(diffs)} slots differ, first ({r},{c}): ours {ours[r][c]}, browser {theirs[r][c]}"
    kinds: collections.Counter[str] = collections.Counter()
    examples: dict[str, str] = {}
    for r in range(table.rows):
        for c in range(table.cols):
            if our_texts[r][c] != their_texts[r][c]:
                text_kind = text_difference_kind(table.grid[r][c], our_texts[r][c], their_texts[r][c])
                kinds[text_kind] += 1
                examples.setdefault(text_kind, f"({r},{c}) ours {our_texts[r][c]!r:.70} browser {their_texts[r][c]!r:.70}")
    text_agrees = all(kind.startswith("nested table") for kind in kinds)
    return TableComparison(name, index, structure_agrees, text_agrees, kind, detail, dict(kinds), examples)


def load_oracle(corpus: Path) -> dict[Path, list[dict[str, Any]]]:
    """Oracle entries by page path, in table order."""
    pages: dict[Path, list[dict[str, Any]]] = collections.defaultdict(list)
    for relative in ORACLES:
        oracle = corpus / relative
        if not oracle.is_file():
            continue
        with oracle.open(encoding="utf-8") as lines:
            for line in lines:
                entry = json.loads(line)
                pages[oracle.parent / entry["file"]].append(entry)
    return pages


def compare_page(path: Path, entries: list[dict[str, Any]], normalizer: Normalizer) -> list[TableComparison]:
    """Normalize the page at ``path`` and compare each of its tables with its oracle entry."""
    try:
        document: GridDocument | None = grid(path, normalizer=normalizer)
        error = None
    except PyxformError as exc:
        document, error = None, f"{exc.code}: {exc}"
    tables = {t.index: t for t in document.tables} if document else {}
    failures = {f.index: f"{f.code}: {f.message}" for f in document.failures} if document else {}
    return [classify(e, tables.get(e["table_index"]), failures.get(e["table_index"], error)) for e in entries]


def compare_corpus(corpus: Path, limit: int | None = None) -> Iterator[TableComparison]:
    normalizer = Normalizer()
    pages = load_oracle(corpus)
    for number, (path, entries) in enumerate(sorted(pages.items())):
        if limit is not None and number >= limit:
            break
        yield from compare_page(path, entries, normalizer)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--limit", type=int, help="only the first N pages")
    parser.add_argument("--show", type=int, default=5, help="examples shown per kind of difference")
    args = parser.parse_args(argv)
    if not (args.corpus / ORACLES[0]).is_file():
        print(f"no browser grids under {args.corpus}", file=sys.stderr)
        return 2
    started = time.perf_counter()
    results = list(compare_corpus(args.corpus, args.limit))
    seconds = time.perf_counter() - started
    by_set: dict[str, list[TableComparison]] = collections.defaultdict(list)
    for result in results:
        by_set["wikitables" if result.file.startswith("pages/") else "web"].append(result)
    total = len(results)
    structure = sum(r.structure_agrees for r in results)
    text = sum(r.text_agrees for r in results)
    print(f"tables compared: {total} ({len({r.file for r in results})} pages, {seconds:.1f} s)")
    for name, group in sorted(by_set.items()):
        s = sum(r.structure_agrees for r in group)
        t = sum(r.text_agrees for r in group)
        print(f"  {name}: structure {s}/{len(group)} = {100 * s / len(group):.2f}%, "
              f"text {t}/{len(group)} = {100 * t / len(group):.2f}%")
    print(f"structure agrees (rows, cols, every slot's origin and tag): "
          f"{structure}/{total} = {100 * structure / max(total, 1):.2f}%")
    print(f"text agrees (every slot, cells holding a nested table aside): {text}/{total} = {100 * text / max(total, 1):.2f}%")
    kinds = collections.Counter(r.kind for r in results if not r.structure_agrees)
    print("\nstructural differences by kind:")
    for kind, count in kinds.most_common():
        print(f"  {count:5d}  {kind}")
        for r in [r for r in results if not r.structure_agrees and r.kind == kind][: args.show]:
            print(f"         {r.file} #{r.index}: {r.detail}")
    slot_kinds: collections.Counter[str] = collections.Counter()
    table_kinds: collections.Counter[str] = collections.Counter()
    for r in results:
        slot_kinds.update(r.text_kinds)
        table_kinds.update(r.text_kinds.keys())
    print("\ntext differences by kind (tables, slots):")
    for kind, count in table_kinds.most_common():
        print(f"  {count:5d} tables {slot_kinds[kind]:6d} slots  {kind}")
        for r in [r for r in results if kind in r.text_kinds][: args.show]:
            print(f"         {r.file} #{r.index}: {r.text_examples[kind]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
