"""CPU time and memory of each stage of ``convert`` on one generated table, in one process: where the time and the
memory per cell go.

Stages: clean (page -> annotated XHTML text, tables only), parse (Saxon's parse of that text), normalize, headers,
map, merge (each an XSLT run on the previous stage's document node, in memory), serialize (the output as text).
For each: CPU microseconds per cell, its share, and the peak resident memory during the stage above the resident
memory at its start (``bench.memory.PeakMemory``), in bytes per cell. Saxon's heap (a GraalVM native image) is not
returned to the system at once, so a stage's peak is over what the stages before it left resident.

Run: ``python -m bench.stage_profile ROWS [plain|spans]`` (tables of ``bench.run.table_page``: ROWS x 20 columns).
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from bench.memory import PeakMemory, resident_bytes
from bench.run import GROWTH_COLUMNS, table_page

__all__ = ["stage_costs"]


def stage_costs(page: bytes) -> dict[str, tuple[float, int | None]]:
    """``{stage: (CPU seconds, peak bytes over the stage's start)}`` for one run of the conversion stages."""
    from pyxform.base.limits import DEFAULT_LIMITS
    from pyxform.api.pipeline import _clean
    from pyxform.runtime.runner import runner
    from pyxform.base.source import Source

    run_on = runner()
    costs: dict[str, tuple[float, int | None]] = {}
    node: Any = None

    def timed(name: str, work: Any) -> Any:
        started = time.process_time()
        with PeakMemory() as memory:
            result = work()
        costs[name] = (time.process_time() - started, memory.peak_bytes)
        return result

    xhtml = timed("clean", lambda: _clean(Source(page, "", None), DEFAULT_LIMITS, tables_only=True)[0])
    node = timed("parse", lambda: run_on.parse(xhtml))
    del xhtml
    for stage, params in (("normalize", {}), ("headers", {}), ("map", {"table": -1, "names": "paper"}),
                          ("merge", {})):
        node = timed(stage, lambda: run_on.run(stage, node, params))  # noqa: B023 - called at once
    timed("serialize", lambda: run_on.serialize(node))
    return costs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rows", type=int)
    parser.add_argument("variant", nargs="?", default="plain", choices=("plain", "spans"))
    args = parser.parse_args(argv)
    stage_costs(table_page(10, args.variant))  # compile and warm up
    page = table_page(args.rows, args.variant)
    cells = args.rows * GROWTH_COLUMNS
    start = resident_bytes() or 0
    costs = stage_costs(page)
    total = sum(cpu for cpu, _ in costs.values())
    print(f"{args.rows} rows x {GROWTH_COLUMNS} columns, {args.variant}: {cells} cells, page {len(page)} bytes")
    print("| stage | CPU us/cell | share | peak over stage start (B/cell) |")
    print("| --- | ---: | ---: | ---: |")
    for stage, (cpu, peak) in costs.items():
        print(f"| {stage} | {cpu * 1e6 / cells:.1f} | {100 * cpu / total:.0f}% | "
              f"{'-' if peak is None else round(peak / cells)} |")
    print(f"| total | {total * 1e6 / cells:.1f} | | resident after: +{((resident_bytes() or 0) - start) / cells:.0f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
