"""Robustness and speed of the map, merge and schema stages on real tables, independent of normalize and headers.

For every page of ``../shared/corpus/wikitables`` the browser's grids (``browser-grids.jsonl``: Chromium's table model,
5,603 tables, nested ones included, each treated here as a table of its own) are written as one header-annotated grid
document (``docs/formats.md`` sections 2 and 3) whose header annotations are the WHATWG header assignment of
``pairs_wikitables.py`` (``th`` cells are header cells; each data slot's row and column headers by the scanning
algorithm). Then ``convert_grid`` (map + merge), the generated schema, and validation against it run on each page.

Reports pages that fail, output that does not validate, the pairs' agreement with the annotations they came from (it
must be exact: pairs are a projection of the annotations), and the time of map + merge and of schema + validation,
per page and in all. Run: ``python -m bench.map_browser_grids [--limit N]``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from .pairs_wikitables import DEFAULT_CORPUS, ROOT, Table, clean_headers, own_cell_scopes, page_tables


def annotated_grid(name: str, records: list[dict[str, Any]], scopes: dict[int, list[str]]) -> tuple[str, int]:
    """One page's grid document; returns it and the number of data slots annotated."""
    out = [f'<px:grids xmlns:px="urn:pyxform" source={quoteattr(name)} title="" encoding="utf-8">']
    slots = 0
    for record in records:
        index = record["table_index"]
        cell_scopes = scopes.get(index)
        table = Table(record, cell_scopes if cell_scopes and len(cell_scopes) == len(record["cells"]) else None)
        k = next((y for y in range(table.rows) if any((o := table.owner(x, y)) is None or not o.header
                                                    for x in range(table.cols))), table.rows)
        p = next((x for x in range(table.cols) if any((o := table.owner(x, y)) is None or not o.header
                                                    for y in range(k, table.rows))), table.cols)
        caption = f"<px:caption>{escape(record['caption'])}</px:caption>" if record.get("caption") else ""
        out.append(f'<px:table index="{index}" rows="{table.rows}" cols="{table.cols}" locator="{escape(record["locator"])}"'
                   f' depth="{record["nested_depth"]}" font-size="16" header-rows="{k}" header-cols="{p}"'
                   f' header-method="markup">{caption}')
        for cell in table.cells:
            role = "header" if cell.header else ("data" if cell.text else "empty")
            out.append(f'<px:cell id="t{index}.c{cell.index}" row="{cell.r}" col="{cell.c}" rowspan="{cell.rs}"'
                       f' colspan="{cell.cs}" tag="{cell.tag}" group="0" group-kind="tbody" font-size="16"'
                       f' bold="false" italic="false" role="{role}"><px:text>{escape(cell.text)}</px:text></px:cell>')
        for y in range(table.rows):
            out.append(f'<px:row index="{y}" group="0" group-kind="tbody">')
            for x in range(table.cols):
                cell = table.owner(x, y)
                if cell is None:
                    out.append(f'<px:slot col="{x}"/>')
                elif cell.tag == "td" and cell.text:
                    rows = " ".join(f"t{index}.c{c.index}"
                                    for c in clean_headers(table.scan(cell, x, y, -1, 0), cell)[::-1])
                    cols = " ".join(f"t{index}.c{c.index}"
                                    for c in clean_headers(table.scan(cell, x, y, 0, -1), cell)[::-1])
                    out.append(f'<px:slot col="{x}" cell="t{index}.c{cell.index}" row-headers="{rows}"'
                               f' column-headers="{cols}"/>')
                    slots += 1
                else:
                    out.append(f'<px:slot col="{x}" cell="t{index}.c{cell.index}"/>')
            out.append("</px:row>")
        out.append("</px:table>")
    out.append("</px:grids>")
    return "".join(out), slots


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--names", default="paper")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from pyxform.api.convert import convert_grid
    from pyxform.stages.schema import validate

    by_page: dict[str, list[dict[str, Any]]] = defaultdict(list)
    with open(args.corpus / "browser-grids.jsonl", encoding="utf-8") as stream:
        for line in stream:
            record = json.loads(line)
            by_page[record["file"]].append(record)
    pages = sorted(by_page, key=lambda f: tuple(int(n) for n in Path(f).stem.split("-")))
    if args.limit:
        pages = pages[:args.limit]
    failures, invalid, tables, slots, pairs = 0, 0, 0, 0, 0
    map_time = schema_time = 0.0
    for file in pages:
        html = (args.corpus / file).read_text(encoding="utf-8", errors="replace")
        all_tables, _ = page_tables(html)
        scopes = {i: own_cell_scopes(t) for i, t in enumerate(all_tables)}
        grid, n = annotated_grid(file, by_page[file], scopes)
        try:
            started = time.perf_counter()
            conversion = convert_grid(grid, names=args.names)
            xml = conversion.to_bytes()
            map_time += time.perf_counter() - started
            started = time.perf_counter()
            xsd = conversion.schema()
            try:
                validate(xml, xsd)
            except Exception as error:
                invalid += 1
                print(f"{file}: invalid: {error}", file=sys.stderr)
            schema_time += time.perf_counter() - started
            pairs += len(conversion.pairs())
        except Exception as error:
            failures += 1
            print(f"{file}: {type(error).__name__}: {error}", file=sys.stderr)
            continue
        tables += len(by_page[file])
        slots += n
    done = len(pages) - failures
    print(f"pages: {len(pages)}  failed: {failures}  invalid against generated schema: {invalid}")
    print(f"tables: {tables}  annotated data slots: {slots}  pairs: {pairs}")
    print(f"map + merge + serialize: {map_time:.1f} s ({map_time / max(done, 1) * 1000:.0f} ms a page); "
          f"schema + validate: {schema_time:.1f} s ({schema_time / max(done, 1) * 1000:.0f} ms a page)")
    return 1 if failures or invalid else 0


if __name__ == "__main__":
    sys.exit(main())
