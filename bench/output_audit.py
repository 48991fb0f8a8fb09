"""What a user reads: an audit of the converted output of every corpus page (issue 13), beyond what the pairs score.

Every HTML file under ``../shared/corpus`` (the Wikipedia pages, their one-table extracts, the web and misc pages) is
converted as ``pyxform.convert`` does it, and its outputs are checked:

``collisions``     sibling elements with one name that come from *different* headers: told apart by provenance,
                   ``px:label`` (the header text, white space collapsed and reference marks such as ``[18]`` cut, so
                   ``US[18]`` and ``US`` are one header), a record (``<row px:row>``), a note (``<note px:row>``), a
                   column named by position (``column-N`` without ``px:label``); counted per group of siblings;
``reserved``       elements named after a header whose name is one pyxform uses for its own structure (``row``,
                   ``note``, ``column-N``): ``count(//row)`` would count them as records;
``kinds``          tables by ``px:table-kind`` (relational, entity, matrix, layout; "-" where the output has none);
``sections``       rows of the annotated grid read as section rows (saved per page, so that ``--compare`` lists the
                   rows that were sections before and are data now, and the reverse);
``note records``   CSV/DataFrame records (``Conversion.tables()``) that are note rows of the grid (row kind ``note``,
                   below a data row, not a blank one: a table of wide rows alone has records, not notes), of ``note rows
                   below data``;
``empty columns``  CSV/DataFrame columns with no header text and no value in any record (a note's or title's span);
``marked labels``  ``px:label`` values, pair header texts and CSV column names holding a reference mark
                   (``[18]``, ``[a]``, ``[note 3]``, ``[citation needed]``);
``json shapes``    JSON members whose value is a string in one place and an object in another at the same path.

Run: ``python -m bench.output_audit [--corpus ../shared/corpus] [--limit N] [--save FILE.json]
[--compare FILE.json] [--show 10]``. ``--save`` writes the counts and the per-page section rows; ``--compare``
prints the counts of a saved run beside this one and the rows whose reading changed.
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import sys
import time
from pathlib import Path
from typing import Any

from lxml import etree

from .corpus import DEFAULT_CORPUS

PX = "urn:pyxform"
_PX = "{" + PX + "}"
#: A reference mark as Wikipedia and most sites write them: a bracketed number, letter, roman numeral, "note 3",
#: "nb 1", "n 2" or "... needed" (the audit's own pattern, independent of the stylesheets').
MARK = re.compile(r"\[\s*(\d{1,4}|[a-z]{1,2}|[ivxlc]{1,6}|(note|nb|n|fn)\s*[\w.]{1,4}|[a-z ]{1,30} needed)\s*\]", re.I)
POSITIONAL = re.compile(r"column-\d+$")
RESERVED = re.compile(r"(row|note|column-\d+)$")


def header_key(label: str) -> str:
    """Which header an element comes from, as the audit tells headers apart."""
    return " ".join(MARK.sub(" ", label).split())


def identity(element: etree._Element) -> tuple[str, ...] | None:
    """The provenance of an element: ('header', label), ('record',), ('note',), ('position', name); None for a
    table element (tables are items, like records: two tables with one caption are not a collision)."""
    name = etree.QName(element).localname
    if element.get(_PX + "table") is not None:
        return None
    label = element.get(_PX + "label")
    if name == "row" and element.get(_PX + "row") is not None and label is None:
        return ("record",)
    if name == "note" and element.get(_PX + "row") is not None and label is None:
        return ("note",)
    if label is not None:
        return ("header", header_key(label))
    if POSITIONAL.match(name):
        return ("position", name)
    return ("other", name)


def audit_xml(root: etree._Element, counts: collections.Counter, examples: dict[str, list[str]], page: str) -> None:
    for parent in root.iter():
        if not isinstance(parent.tag, str):
            continue
        groups: dict[str, set[tuple[str, ...]]] = collections.defaultdict(set)
        for child in parent:
            if not isinstance(child.tag, str) or etree.QName(child).namespace:
                continue
            key = identity(child)
            if key is not None:
                groups[etree.QName(child).localname].add(key)
        for name, keys in groups.items():
            if len(keys) > 1:
                counts["collisions"] += 1
                examples["collisions"].append(f"{page}: <{name}> from {sorted(keys)[:4]}")
    for element in root.iter():
        if not isinstance(element.tag, str) or etree.QName(element).namespace:
            continue
        label = element.get(_PX + "label")
        if label is not None and RESERVED.match(etree.QName(element).localname):
            counts["reserved"] += 1
            examples["reserved"].append(f"{page}: <{etree.QName(element).localname} px:label={label!r}>")
        if label is not None and element.get(_PX + "table") is None:
            counts["labels"] += 1
            if MARK.search(label):
                counts["marked labels"] += 1
                examples["marked labels"].append(f"{page}: px:label={label!r}")
        if element.get(_PX + "table") is not None:
            counts["tables"] += 1
            counts["kind " + (element.get(_PX + "table-kind") or "-")] += 1


def json_shapes(value: Any, path: str, shapes: dict[str, set[str]]) -> None:
    if isinstance(value, list):
        for item in value:
            json_shapes(item, path, shapes)
    elif isinstance(value, dict):
        shapes[path].add("object")
        for key, item in value.items():
            json_shapes(item, f"{path}/{key}", shapes)
    elif value is not None:                         # null: no value at that position (a header spanning columns)
        shapes[path].add(type(value).__name__)


def grid_rows(grid: etree._Element) -> tuple[dict[tuple[int, int], str], dict[int, str]]:
    """{(table, row): kind} of the rows that are not header or data rows, and {table: px kind} from the grid."""
    kinds: dict[tuple[int, int], str] = {}
    table_kinds: dict[int, str] = {}
    for table in grid.iterchildren(_PX + "table"):
        index = int(table.get("index", "0"))
        table_kinds[index] = table.get("kind") or "-"
        evidence = table.find(_PX + "header-evidence")
        if evidence is None:
            continue
        for row in evidence.iterchildren(_PX + "row-kind"):
            kinds[(index, int(row.get("row", "0")))] = row.get("kind", "")
    return kinds, table_kinds


def audit_page(path: Path, counts: collections.Counter, examples: dict[str, list[str]]) -> dict[str, Any]:
    import pyxform
    from pyxform import PyxformError

    page = str(path.relative_to(path.parents[1])) if len(path.parents) > 1 else path.name
    try:
        conversion = pyxform.convert(path.read_bytes(), source=path.name)
    except PyxformError as error:
        counts["pages failed"] += 1
        return {"error": f"{error.code}: {error.message}"}
    counts["pages"] += 1
    root = etree.fromstring(conversion.to_bytes(), etree.XMLParser(huge_tree=True, resolve_entities=False))
    audit_xml(root, counts, examples, page)
    grid = etree.fromstring(conversion.result.runner.serialize(conversion.grid).encode("utf-8"),
                            etree.XMLParser(huge_tree=True, resolve_entities=False))
    row_kinds, _ = grid_rows(grid)
    counts["section rows"] += sum(1 for kind in row_kinds.values() if kind == "section")
    counts["note rows"] += sum(1 for kind in row_kinds.values() if kind == "note")
    for table in conversion.tables():
        for column in table.columns:
            counts["csv columns"] += 1
            for level in column.levels:
                if MARK.search(level):
                    counts["marked csv names"] += 1
                    examples["marked csv names"].append(f"{page} table {table.index}: {level!r}")
        positions = range(len(table.columns))
        for position in positions:
            column = table.columns[position]
            named = any(level for level in column.levels) and not POSITIONAL.match(column.name())
            if not named and not any(record[position] for record in table.records):
                counts["empty columns"] += 1
                examples["empty columns"].append(f"{page} table {table.index}: {column.name()!r}")
        data_rows = [row for row in table.rows if row_kinds.get((table.index, row)) not in ("note", "blank")]
        notes = [(table.index, row) for (index, row), kind in row_kinds.items()
                 if index == table.index and kind == "note" and data_rows and row > min(data_rows)]
        counts["note rows below data"] += len(notes)
        for row in table.rows:
            counts["csv records"] += 1
            if (table.index, row) in notes:
                counts["note records"] += 1
                examples["note records"].append(f"{page} table {table.index} row {row}")
    for pair in conversion.iter_pairs():
        for text in (*pair["row_headers"], *pair["col_headers"]):
            if MARK.search(text):
                counts["marked pair headers"] += 1
                examples["marked pair headers"].append(f"{page} table {pair['table']}: {text!r}")
                break
    shapes: dict[str, set[str]] = collections.defaultdict(set)
    json_shapes(json.loads(conversion.to_json(indent=None)), "", shapes)
    for json_path, kinds in shapes.items():
        if len(kinds) > 1:
            counts["json shapes"] += 1
            examples["json shapes"].append(f"{page}: {json_path} is {sorted(kinds)}")
    return {"rows": {f"{table}:{row}": kind for (table, row), kind in sorted(row_kinds.items())}}


ORDER = ("pages", "pages failed", "tables", "kind -", "kind relational", "kind entity", "kind matrix", "kind layout",
         "collisions", "reserved", "labels", "marked labels", "marked pair headers", "csv columns", "marked csv names",
         "empty columns", "csv records", "note rows below data", "note records", "section rows", "note rows",
         "json shapes")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--limit", type=int, help="only the first N files")
    parser.add_argument("--save", type=Path, help="write the counts and section rows to this JSON file")
    parser.add_argument("--compare", type=Path, help="a file --save wrote: show its counts beside these")
    parser.add_argument("--show", type=int, default=5, help="examples to list per finding")
    args = parser.parse_args(argv)
    paths = sorted(args.corpus.rglob("*.html"))[: args.limit]
    if not paths:
        print(f"no pages under {args.corpus}", file=sys.stderr)
        return 2
    counts: collections.Counter = collections.Counter()
    examples: dict[str, list[str]] = collections.defaultdict(list)
    pages: dict[str, Any] = {}
    started = time.perf_counter()
    for path in paths:
        pages[str(path.relative_to(args.corpus))] = audit_page(path, counts, examples)
    elapsed = time.perf_counter() - started
    before = json.loads(args.compare.read_text(encoding="utf-8")) if args.compare else None
    print(f"{len(paths)} files under {args.corpus} ({elapsed:.0f} s)")
    names = [name for name in ORDER if name in counts or (before and name in before["counts"])]
    names += sorted(name for name in counts if name not in names)
    for name in names:
        line = f"  {name:<22} {counts.get(name, 0):>8}"
        if before is not None:
            line += f"   (before {before['counts'].get(name, 0)})"
        print(line)
    for name, lines in examples.items():
        for text in lines[: args.show]:
            print(f"  e.g. {name}: {text}")
    if before is not None:
        changed: collections.Counter = collections.Counter()
        shown = 0
        for page, saved in before["pages"].items():
            now = pages.get(page, {}).get("rows", {})
            for row, kind in saved.get("rows", {}).items():
                if kind == "section" and now.get(row) != "section":
                    changed[f"section -> {now.get(row, 'data')}"] += 1
                    if shown < args.show:
                        print(f"  was section, now {now.get(row, 'data')}: {page} table:row {row}")
                        shown += 1
            for row, kind in now.items():
                if kind == "section" and saved.get("rows", {}).get(row) != "section":
                    changed[f"{saved.get('rows', {}).get(row, 'data')} -> section"] += 1
        for change, number in sorted(changed.items()):
            print(f"  rows {change}: {number}")
    if args.save:
        args.save.write_text(json.dumps({"counts": dict(counts), "pages": pages}, ensure_ascii=False, indent=1),
                             encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
