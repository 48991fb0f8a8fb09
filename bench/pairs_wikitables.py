"""Precision and recall of pyxform's attribute-value pairs on the wikitables corpus, against the markup's headers.

Measures of Zhang & Li 2007, section 5 (recall = correctly converted pairs / all pairs in the tables; precision =
correctly converted pairs / all pairs converted; the paper reports above 95% and 90%).

Tables: the picked table of each page of ``../shared/corpus/wikitables`` (``pages/B-N.json`` ``tableIndex``: the N-th
``table`` of class ``wikitable`` in the page), converted from the whole page: ``convert(page, table=I)`` where I is
that table's index among all ``table`` elements (document order, nested included).

Truth, "the markup's header assignment" (``bench/pairs_truth.py`` defines it exactly): the browser's grid of the table
(``browser-grids.jsonl``, Chromium's table model) with each cell's ``scope`` (read from the page with an HTML5 parser,
matched to the browser's cells in tree order; the corpus has no ``headers`` attributes), and the header cells that
the markup assigns to each data slot, read three ways:

``WHATWG``    the HTML algorithm for assigning header cells exactly (th = header cell, td = data cell);
``issue``     the issue's reading: WHATWG, except that section rows (a wide row in the body) head the rows below
              them as their outermost row header, and repeated header rows (in th or td) are header rows; the
              strict measure;
``reviewed``  the issue's reading, corrected where a hand review of the disagreements found the truth wrong
              (``bench/data/pairs_review.json``: every disagreement of a reviewed table classified as pyxform's
              error, the truth's error or ambiguous, with the reason; only the truth's errors change the truth, by a
              reading option of ``pairs_truth.Reading`` for that table). Never fitted to pyxform's output: a reading
              says how the table's author used the markup.

pyxform's pairs: ``Conversion.pairs()`` of that table, those with a non-empty value.

A pair of pyxform's is *complete and correct* when the truth has a pair at the same slot (row, column of the grid) and
  - the values are equal, and
  - the row header texts are equal as a sequence, and the column header texts are equal as a sequence,
texts compared after collapsing white space (the browser's ``innerText`` against pyxform's visible text), header texts
as pyxform labels them (``stylesheets/lib/labels.xsl``, applied to the truth's texts too: reference marks such as
``[18]`` cut, and a cell's MediaWiki sort key, an element of class ``sortkey`` that the site's style sheet hides, left
out).
Also reported, as a looser measure, "header set": the same with the row and column header texts compared as one set
(it forgives a header put on the other axis).

  precision = complete and correct pairs / pyxform's pairs;  recall = complete and correct pairs / truth pairs.

The review's categories are counted over the slots that disagree with the ``issue`` truth (each disagreement of the
review names the rows and columns it covers); slots of reviewed tables that no disagreement covers, and tables
that disagree but were not reviewed, are listed as unreviewed.

Run: ``python -m bench.pairs_wikitables [--corpus DIR] [--limit N] [--pages B-N,...] [--method auto|markup|format]
[--details FILE.jsonl] [--details-truth issue] [--pairs-cache FILE.json]``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from selectolax.lexbor import LexborHTMLParser

from .pairs_truth import Reading, Table, clean_headers, labels, squash

__all__ = ["DEFAULT_CORPUS", "ROOT", "Table", "clean_headers", "main", "own_cell_scopes", "page_tables"]

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus" / "wikitables"


def page_tables(html: str) -> tuple[list[Any], list[Any]]:
    """All ``table`` elements of a page in document order, and those of class wikitable."""
    tables = LexborHTMLParser(html).css("table")
    return tables, [t for t in tables if "wikitable" in (t.attributes.get("class") or "").split()]


def own_cells(table: Any) -> list[Any]:
    """The table's own td/th cells, in tree order (cells of nested tables excluded)."""
    cells = []
    for node in table.traverse():
        if node.tag in ("td", "th"):
            owner = node.parent
            while owner is not None and owner.tag != "table":
                owner = owner.parent
            if owner is not None and owner.mem_id == table.mem_id:
                cells.append(node)
    return cells


def own_cell_scopes(table: Any) -> list[str]:
    """``scope`` of the table's own td/th cells, in tree order (rows of nested tables excluded)."""
    return [(node.attributes.get("scope") or "").strip().lower() for node in own_cells(table)]


REVIEW = Path(__file__).resolve().parent / "data" / "pairs_review.json"
TRUTHS = ("WHATWG", "issue", "reviewed")
Pair = tuple[list[str], list[str], str]


def own_cell_sort_keys(table: Any) -> dict[int, str]:
    """{position in tree order: text} of the table's own td/th cells that hold a sort key (an element of class
    ``sortkey``, MediaWiki's, which its style sheet hides; a browser without that style sheet shows it)."""
    keys: dict[int, str] = {}
    for position, node in enumerate(own_cells(table)):
        key = node.css_first(".sortkey")
        if key is not None:
            keys[position] = squash(key.text(separator=""))
    return keys


def picked_table(corpus: Path, name: str, grids: dict[tuple[str, int], dict[str, Any]]
                 ) -> tuple[bytes, int, dict[str, Any], list[str], dict[int, str]] | None:
    """A page's bytes, the index of its picked table, the table's browser grid, its cells' scopes and sort keys."""
    meta = json.loads((corpus / "pages" / f"{name}.json").read_text(encoding="utf-8"))
    data = (corpus / "pages" / f"{name}.html").read_bytes()
    tables, wikitables = page_tables(data.decode("utf-8", "replace"))
    if meta["tableIndex"] >= len(wikitables):
        return None
    picked = wikitables[meta["tableIndex"]]
    index = next(i for i, t in enumerate(tables) if t.mem_id == picked.mem_id)
    record = grids.get((f"pages/{name}.html", index))
    if record is None:
        return None
    return data, index, record, own_cell_scopes(picked), own_cell_sort_keys(picked)


def pyxform_pairs(data: bytes, index: int, name: str, method: str) -> list[dict[str, Any]]:
    """pyxform's pairs with a value for one table of a page."""
    from pyxform.api.convert import convert

    conversion = convert(data, table=index, method=method, source=f"{name}.html")
    return [p for p in conversion.pairs() if p["table"] == index and p["value"]]


def in_group(group: dict[str, Any], slot: tuple[int, int]) -> bool:
    """True if a review group's ``where`` rectangles ([[row from, row to], [col from, col to]], inclusive) hold
    the slot; a group without ``where`` holds every slot of its table."""
    where = group.get("where")
    if not where:
        return True
    return any(r0 <= slot[0] <= r1 and c0 <= slot[1] <= c1 for (r0, r1), (c0, c1) in where)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--limit", type=int, default=0, help="first N pages only")
    parser.add_argument("--pages", default="", help="only these pages (comma-separated B-N names)")
    parser.add_argument("--method", default="auto")
    parser.add_argument("--review", type=Path, default=REVIEW)
    parser.add_argument("--details", type=Path, help="write one JSON line per wrong or missing pair")
    parser.add_argument("--details-truth", default="issue", choices=TRUTHS,
                        help="the truth whose differences --details writes")
    parser.add_argument("--candidates", action="store_true",
                        help="list the tables where a review reading applied to every table changes the issue truth "
                             "(where pyxform agrees with the issue truth there, both may be wrong: review them too)")
    parser.add_argument("--pairs-cache", type=Path,
                        help="read pyxform's pairs from this JSON file if it exists, else write them to it")
    args = parser.parse_args(argv)
    if not args.corpus.is_dir():
        print(f"corpus not found: {args.corpus}", file=sys.stderr)
        return 2
    sys.path.insert(0, str(ROOT))
    review: dict[str, Any] = json.loads(args.review.read_text(encoding="utf-8"))["tables"] \
        if args.review.is_file() else {}

    grids: dict[tuple[str, int], dict[str, Any]] = {}
    with open(args.corpus / "browser-grids.jsonl", encoding="utf-8") as stream:
        for line in stream:
            record = json.loads(line)
            grids[(record["file"], record["table_index"])] = record
    metas = sorted(args.corpus.glob("pages/*.json"), key=lambda p: tuple(int(n) for n in p.stem.split("-")))
    if args.pages:
        wanted = set(args.pages.split(","))
        metas = [m for m in metas if m.stem in wanted]
    if args.limit:
        metas = metas[:args.limit]
    cache: dict[str, list[dict[str, Any]]] = {}
    cached = bool(args.pairs_cache and args.pairs_cache.is_file())
    if cached:
        cache = json.loads(args.pairs_cache.read_text(encoding="utf-8"))
    totals: Counter[str] = Counter()
    verdicts: dict[str, Counter[str]] = {truth: Counter() for truth in TRUTHS}
    categories: Counter[tuple[str, str]] = Counter()
    unreviewed: Counter[str] = Counter()
    details = open(args.details, "w", encoding="utf-8") if args.details else None
    started = time.perf_counter()
    issue = Reading(issue_rules=True)
    for meta_path in metas:
        name = meta_path.stem
        found = picked_table(args.corpus, name, grids)
        if found is None:
            totals["pages skipped (picked table or its browser grid not found)"] += 1
            continue
        data, index, record, scopes, sort_keys = found
        if len(scopes) != len(record["cells"]):
            totals["tables whose cells did not match the browser's (scope ignored)"] += 1
            scopes = []
        entry = review.get(name)
        if entry is not None and entry.get("table", index) != index:
            raise SystemExit(f"{args.review}: {name}: table {entry['table']} is not the picked table {index}")
        readings = {"WHATWG": Reading(), "issue": issue,
                    "reviewed": Reading.from_json((entry or {}).get("reading"), base=issue)}
        truth_pairs = {truth: Table(record, scopes, reading).truth_pairs() for truth, reading in readings.items()}
        # header texts compared as pyxform labels them (lib/labels.xsl: reference marks cut, white space collapsed;
        # a cell's sort key, which the browser without the site's style sheet shows, left out)
        keyed = {}
        if len(sort_keys) and len(scopes) == len(record["cells"]):
            for position, key in sort_keys.items():
                text = squash(record["cells"][position]["text"])
                if key and text.startswith(key) and text[len(key):].strip():
                    keyed[text] = text[len(key):]
        texts = {text for pairs in truth_pairs.values() for rows, cols, _ in pairs.values() for text in (*rows, *cols)}
        cut = labels([keyed.get(squash(text), text) for text in texts])
        label = {text: cut[keyed.get(squash(text), text)] for text in texts}
        truth_pairs = {truth: {slot: ([label[t] for t in rows], [label[t] for t in cols], value)
                               for slot, (rows, cols, value) in pairs.items()}
                       for truth, pairs in truth_pairs.items()}
        totals["pages"] += 1
        if cached and name in cache:
            ours = cache[name]
        else:
            try:
                ours = pyxform_pairs(data, index, name, args.method)
            except Exception as error:  # a failed page counts as no pairs
                totals["pages failed"] += 1
                print(f"{name}: {type(error).__name__}: {error}", file=sys.stderr)
                ours = []
            cache[name] = ours
        totals["pyxform pairs"] += len(ours)
        got_at = {(p["row"], p["col"]): ([squash(t) for t in p["row_headers"]], [squash(t) for t in p["col_headers"]],
                                         squash(p["value"])) for p in ours}
        disagreeing: set[tuple[int, int]] = set()
        for truth in TRUTHS:
            truth_of = truth_pairs[truth]
            counts = verdicts[truth]
            counts["truth pairs"] += len(truth_of)
            wrong: dict[tuple[int, int], dict[str, Any]] = {}
            for slot, got in got_at.items():
                verdict = _verdict(truth_of.get(slot), got)
                counts[verdict] += 1
                if verdict != "correct":
                    wrong[slot] = {"verdict": verdict, "pyxform": got, "truth": truth_of.get(slot)}
            for slot, expected in truth_of.items():
                if slot not in got_at:
                    counts["missing"] += 1
                    wrong[slot] = {"verdict": "missing", "truth": expected}
            if truth in ("issue", "reviewed"):
                disagreeing.update(wrong)
            if details and truth == args.details_truth:
                for slot, item in sorted(wrong.items()):
                    details.write(json.dumps({"page": name, "table": index, "slot": list(slot), **item},
                                             ensure_ascii=False) + "\n")
        if disagreeing:
            totals["tables disagreeing with the issue or the reviewed truth"] += 1
        for slot in disagreeing:
            # a slot on which pyxform agrees with the reviewed truth was the truth's error; any other is pyxform's
            # error or ambiguous: the first group of the review that covers the slot with such a verdict names it
            fits = ("truth",) if got_at.get(slot) == truth_pairs["reviewed"].get(slot) else ("ours", "ambiguous")
            group = next((g for g in (entry or {}).get("disagreements", [])
                          if g["verdict"] in fits and in_group(g, slot)), None)
            if group is None:
                unreviewed[name] += 1
            else:
                categories[(group["verdict"], group["category"])] += 1
        if args.candidates:
            _candidates(name, record, scopes, truth_pairs["issue"], got_at, entry)
    elapsed = time.perf_counter() - started
    if details:
        details.close()
    if args.pairs_cache and not cached:
        args.pairs_cache.write_text(json.dumps(cache, ensure_ascii=False), encoding="utf-8")
    ours_n = totals["pyxform pairs"] or 1
    print(f"pages: {totals['pages']}  failed: {totals['pages failed']}  pyxform pairs: {totals['pyxform pairs']}  "
          f"time: {elapsed:.1f} s ({elapsed / max(totals['pages'], 1) * 1000:.0f} ms a page; the whole page is "
          f"converted for one table{', pairs from cache' if cached else ''})")
    print(f"{'truth':<10} {'truth pairs':>11}  {'measure':<15} {'correct':>8} {'precision':>9} {'recall':>7}")
    for truth in TRUTHS:
        counts = verdicts[truth]
        truth_n = counts["truth pairs"] or 1
        for measure, correct in (("axes and order", counts["correct"]),
                                 ("header set", counts["correct"] + counts["header set only"])):
            print(f"{truth:<10} {counts['truth pairs']:>11}  {measure:<15} {correct:>8} {correct / ours_n:>9.4f} "
                  f"{correct / truth_n:>7.4f}")
        print("   " + ", ".join(f"{key}: {counts[key]}" for key in
                                 ("value differs", "headers differ", "header set only", "no truth pair at this slot",
                                  "missing") if counts[key]))
    print(f"\nreview ({args.review.name}): slots that disagree with the issue or the reviewed truth, by verdict and "
          "category")
    for (verdict, category), count in sorted(categories.items(), key=lambda item: (item[0][0], -item[1])):
        print(f"   {verdict:<10} {count:>6}  {category}")
    print(f"   {'unreviewed':<10} {sum(unreviewed.values()):>6}  in {len(unreviewed)} table(s)"
          + (": " + ", ".join(f"{n} ({c})" for n, c in unreviewed.most_common(12)) if unreviewed else ""))
    for key in ("tables disagreeing with the issue or the reviewed truth",
                "tables whose cells did not match the browser's (scope ignored)",
                "pages skipped (picked table or its browser grid not found)"):
        if totals[key]:
            print(f"{key}: {totals[key]}")
    return 0


def _candidates(name: str, record: dict[str, Any], scopes: list[str], issue_pairs: dict[tuple[int, int], Pair],
                got_at: dict[tuple[int, int], Pair], entry: dict[str, Any] | None) -> None:
    """Print, for each reading option, how many slots of this table it would change and how many of those pyxform
    agrees with the issue truth on (errors the two may share, invisible among the disagreements)."""
    for option in ("th_heads_row", "summary_rows"):
        changed = Table(record, scopes, Reading(issue_rules=True, **{option: True})).truth_pairs()
        slots = {s for s in set(changed) | set(issue_pairs) if changed.get(s) != issue_pairs.get(s)}
        if slots:
            shared = sum(1 for s in slots if got_at.get(s) == issue_pairs.get(s))
            print(f"candidate {name} {option}: {len(slots)} slot(s) change, pyxform agrees with the issue truth on "
                  f"{shared}{' (reviewed)' if entry else ''}")


def _verdict(expected: Pair | None, got: Pair) -> str:
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
