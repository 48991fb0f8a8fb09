"""CPU time and memory of each stage of ``convert``, per cell, against what one Saxon pass costs on the same input:
where the time and the memory per cell go.

Stages: clean (page -> annotated XHTML text, tables only), parse (Saxon's parse of that text), normalize, headers,
map, merge (each an XSLT run on the previous stage's document node, in memory), serialize (the output as text).
For each: CPU microseconds per cell, its share, the multiple of the floor, and the peak resident memory during the
stage above the resident memory at its start (``bench.memory.PeakMemory``), in bytes per cell. Saxon's heap (a
GraalVM native image) is not returned to the system at once, so a stage's peak is over what the stages before it
left resident.

The floor is ``../shared/perf/one-pass.xsl`` (issue 17): one XSLT pass over the same annotated XHTML that writes one
element with 8 attributes per cell, run in the same process right after the stages (its CPU microseconds per cell).

Run: ``python -m bench.stage_profile ROWS [plain|spans]`` (one table of ``bench.run.table_page``: ROWS x 20 columns),
``python -m bench.stage_profile --corpus [--every 3]`` (the corpus pages, summed; per cell of their tables), or
``python -m bench.stage_profile --small N`` (a page of N small tables, :func:`small_tables_page`: the fixed cost per
table of each stage, in CPU microseconds per table, best of 5 runs; the floor is left out).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from bench.memory import PeakMemory, resident_bytes
from bench.run import GROWTH_COLUMNS, table_page

__all__ = ["stage_costs", "floor_seconds", "small_tables_page", "STAGES"]

STAGES = ("clean", "parse", "normalize", "headers", "map", "merge", "serialize")
ONE_PASS = Path(__file__).resolve().parent.parent.parent / "shared" / "perf" / "one-pass.xsl"


def stage_costs(page: bytes, *, until: str = "serialize",
                keep: dict[str, Any] | None = None) -> dict[str, tuple[float, int | None]]:
    """``{stage: (CPU seconds, peak bytes over the stage's start)}`` for one run of the conversion stages, up to and
    including ``until``. ``keep`` receives the annotated XHTML text (``"xhtml"``) and the last document node."""
    from pyxform.api.pipeline import _clean
    from pyxform.base.limits import DEFAULT_LIMITS
    from pyxform.base.source import Source
    from pyxform.runtime.runner import runner

    run_on = runner()
    costs: dict[str, tuple[float, int | None]] = {}
    node: Any = None

    def timed(name: str, work: Any) -> Any:
        started = time.process_time()
        with PeakMemory() as memory:
            result = work()
        costs[name] = (time.process_time() - started, memory.peak_bytes)
        return result

    stages = STAGES[: STAGES.index(until) + 1]
    xhtml = timed("clean", lambda: _clean(Source(page, "", None), DEFAULT_LIMITS, tables_only=True)[0])
    if keep is not None:
        keep["xhtml"] = xhtml
    if "parse" in stages:
        node = timed("parse", lambda: run_on.parse(xhtml))
    del xhtml
    for stage, params in (("normalize", {}), ("headers", {}), ("map", {"table": -1, "names": "paper"}),
                          ("merge", {})):
        if stage in stages:
            node = timed(stage, lambda: run_on.run(stage, node, params))  # noqa: B023 - called at once
    if "serialize" in stages:
        timed("serialize", lambda: run_on.serialize(node))
    if keep is not None:
        keep["node"] = node
    return costs


_floor: list[Any] = []

# Small tables as pages hold them around their content tables: a 2 x 2 table with a header row of th, a 3 x 3 table
# without th (the formatting method decides), a key-value box with th row headers and a caption.
_SMALL_TABLES = (
    "<table><tr><th>Name</th><th>Value</th></tr><tr><td>alpha</td><td>1</td></tr></table>",
    "<table><tr><td><b>Year</b></td><td><b>Team</b></td><td><b>Goals</b></td></tr>"
    "<tr><td>2001</td><td>Leeds</td><td>12</td></tr><tr><td>2002</td><td>York</td><td>7</td></tr></table>",
    "<table><caption>Facts</caption><tr><th>Born</th><td>1950</td></tr><tr><th>Died</th><td>2010</td></tr>"
    "<tr><th>Known for</th><td>Tables</td></tr></table>",
)


def small_tables_page(count: int) -> tuple[bytes, int]:
    """A page of ``count`` small tables (the shapes of ``_SMALL_TABLES`` in turn) and the number of their cells."""
    tables = [_SMALL_TABLES[i % len(_SMALL_TABLES)] for i in range(count)]
    body = "".join(f"<h3>Part {i}</h3>{table}" for i, table in enumerate(tables))
    page = f"<!DOCTYPE html><html><head><title>small tables</title></head><body>{body}</body></html>"
    return page.encode("utf-8"), sum(table.count("<td") + table.count("<th") for table in tables)


def floor_seconds(xhtml: bytes) -> float:
    """CPU seconds of one run of ``one-pass.xsl`` (the floor) on the annotated XHTML text, parsed beforehand (in a
    Saxon processor of its own: pyxform's is locked against reading files)."""
    if not _floor:
        from saxonche import PySaxonProcessor

        processor = PySaxonProcessor(license=False)
        _floor.extend((processor, processor.new_xslt30_processor().compile_stylesheet(
            stylesheet_text=ONE_PASS.read_text(encoding="utf-8"))))
    processor, executable = _floor
    document = processor.parse_xml(xml_text=xhtml.decode("utf-8"))
    started = time.process_time()
    executable.transform_to_value(xdm_node=document)
    return time.process_time() - started


def _table(costs: dict[str, tuple[float, int | None]], floor: float, cells: int) -> list[str]:
    total = sum(cpu for cpu, _ in costs.values())
    lines = ["| stage | CPU us/cell | share | x one pass | peak over stage start (B/cell) |",
             "| --- | ---: | ---: | ---: | ---: |"]
    for stage, (cpu, peak) in costs.items():
        lines.append(f"| {stage} | {cpu * 1e6 / cells:.1f} | {100 * cpu / total:.0f}% | {cpu / floor:.1f} | "
                     f"{'-' if peak is None else round(peak / cells)} |")
    lines.append(f"| total | {total * 1e6 / cells:.1f} | | {total / floor:.1f} | |")
    lines.append(f"| one pass (the floor) | {floor * 1e6 / cells:.2f} | | 1.0 | |")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rows", type=int, nargs="?")
    parser.add_argument("variant", nargs="?", default="plain", choices=("plain", "spans"))
    parser.add_argument("--corpus", action="store_true", help="the corpus pages instead of a generated table")
    parser.add_argument("--every", type=int, default=1, help="with --corpus: every Nth page")
    parser.add_argument("--small", type=int, metavar="N", help="a page of N small tables: the cost per table")
    args = parser.parse_args(argv)
    if not args.corpus and args.rows is None and args.small is None:
        parser.error("give ROWS, --corpus or --small N")
    stage_costs(table_page(10, args.variant))  # compile and warm up
    if args.small is not None:
        page, cells = small_tables_page(args.small)
        runs = [stage_costs(page) for _ in range(6)][1:]  # the first run warms up the page's own paths
        best = {stage: min(run[stage][0] for run in runs) for stage in runs[0]}
        print(f"{args.small} small tables, {cells} cells, page {len(page)} bytes; CPU us per table (best of 5)")
        print("| stage | us/table | us/cell |\n| --- | ---: | ---: |")
        for stage, cpu in best.items():
            print(f"| {stage} | {cpu * 1e6 / args.small:.0f} | {cpu * 1e6 / cells:.1f} |")
        total = sum(best.values())
        print(f"| total | {total * 1e6 / args.small:.0f} | {total * 1e6 / cells:.1f} |")
        return 0
    if args.corpus:
        from bench.corpus import corpus_pages
        from pyxform.base.errors import PyxformError

        totals: dict[str, list[float]] = {}
        floor = 0.0
        cells = pages = 0
        for path in corpus_pages()[:: args.every]:
            kept: dict[str, Any] = {}
            try:
                costs = stage_costs(path.read_bytes(), keep=kept)
            except PyxformError:  # a page without tables
                continue
            pages += 1
            for stage, (cpu, peak) in costs.items():
                entry = totals.setdefault(stage, [0.0, 0.0])
                entry[0] += cpu
                entry[1] = max(entry[1], peak or 0)
            floor += floor_seconds(kept["xhtml"])
            cells += int(kept["xhtml"].count(b"<td") + kept["xhtml"].count(b"<th") - kept["xhtml"].count(b"<thead"))
        print(f"{pages} corpus pages, {cells} cells ({cells / pages:.0f} a page); CPU ms per page: "
              + ", ".join(f"{stage} {cpu * 1e3 / pages:.1f}" for stage, (cpu, _) in totals.items()))
        print("\n".join(_table({stage: (cpu, None) for stage, (cpu, _) in totals.items()}, floor, cells)))
        return 0
    page = table_page(args.rows, args.variant)
    cells = args.rows * GROWTH_COLUMNS
    start = resident_bytes() or 0
    kept = {}
    costs = stage_costs(page, keep=kept)
    after = resident_bytes() or 0
    floor = min(floor_seconds(kept["xhtml"]) for _ in range(3))
    print(f"{args.rows} rows x {GROWTH_COLUMNS} columns, {args.variant}: {cells} cells, page {len(page)} bytes")
    print("\n".join(_table(costs, floor, cells)))
    print(f"resident after the stages: +{(after - start) / cells:.0f} B/cell")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
