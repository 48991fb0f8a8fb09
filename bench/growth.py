"""Growth with table size (issue 17): one table of 1,000, 10,000 and 100,000 rows x 20 columns, each size in a fresh
process, CPU microseconds per cell and peak resident memory per cell, against pandas in the same run.

Contenders (each size and contender a child process of its own, killed over ``--max-mb`` of resident memory or
``--timeout`` seconds):

- ``pyxform stages``: the stages of ``convert`` one after the other as ``bench.stage_profile`` runs them (clean,
  parse, normalize, headers, map, merge, serialize), stopping after ``--until`` (default ``serialize``: the whole
  conversion); CPU time per stage;
- ``pyxform convert``: ``pyxform.convert(page).xml`` with the default limits, as a user calls it (the default
  pipeline runs headers and map as one stage, ``headers-map.xsl``, which the stage by stage run above cannot show);
- ``pandas lxml``: ``pandas.read_html(flavor="lxml")``, the peer.

Per child: CPU microseconds per cell (the whole run, and per stage), the peak resident memory of the process above
its resident memory after a warm-up on a 10-row table (``bench.memory.PeakMemory``), per cell, the process's
whole peak per cell, and the stage whose peak over its own start is the largest (that peak per cell). Issue 17's
aims: at 100,000 rows at most 25 us and 2 kB per cell for ``convert``, and the per-cell time from 1,000 to 100,000 rows growing by at most 1.3x.

Run: ``python -m bench.growth [--rows 1000 10000 100000] [--until normalize] [--variant plain|spans]``.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from typing import Any

from bench.memory import PeakMemory
from bench.run import GROWTH_COLUMNS, _run_capped, table_page

STAGES = ("clean", "parse", "normalize", "headers", "map", "merge", "serialize")
CONTENDERS = ("pyxform stages", "pyxform convert", "pandas lxml")


def child(contender: str, variant: str, rows: int, until: str) -> dict[str, Any]:
    """In a fresh process: warm up on 10 rows, then one run on ``rows`` rows; the costs as a JSON-able dict."""
    if contender == "pyxform stages":
        from bench.stage_profile import stage_costs

        stage_costs(table_page(10, variant), until=until)
        page = table_page(rows, variant)
        with PeakMemory() as memory:
            started = time.process_time()
            costs = stage_costs(page, until=until)
            cpu = time.process_time() - started
        stages = {name: cpu_seconds for name, (cpu_seconds, _peak) in costs.items()}
        stage_peaks = {name: peak for name, (_cpu, peak) in costs.items() if peak is not None}
    elif contender == "pyxform convert":
        import pyxform

        _ = pyxform.convert(table_page(10, variant)).xml
        page = table_page(rows, variant)
        with PeakMemory() as memory:
            started = time.process_time()
            _ = pyxform.convert(page).xml
            cpu = time.process_time() - started
        stages = {}
        stage_peaks = {}
    else:
        import io
        import warnings

        import pandas

        def run(data: bytes) -> None:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                pandas.read_html(io.StringIO(data.decode("utf-8")), flavor="lxml")

        run(table_page(10, variant))
        page = table_page(rows, variant)
        with PeakMemory() as memory:
            started = time.process_time()
            run(page)
            cpu = time.process_time() - started
        stages = {}
        stage_peaks = {}
    # ru_maxrss is reset with VmHWM by each stage's PeakMemory: the nested blocks' peak is the process's peak
    max_rss = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024, memory.peak_resident or 0)
    return {"cpu_seconds": cpu, "peak_bytes": memory.peak_bytes, "page_bytes": len(page), "stages": stages,
            "stage_peaks": stage_peaks, "max_rss": max_rss}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    parser.add_argument("--variant", choices=("plain", "spans"), default="plain")
    parser.add_argument("--until", choices=STAGES, default="serialize", help="last pyxform stage run")
    parser.add_argument("--contenders", nargs="+", choices=CONTENDERS, default=list(CONTENDERS))
    parser.add_argument("--timeout", type=float, default=1800.0, help="seconds per child")
    parser.add_argument("--max-mb", type=float, default=8000.0, help="resident memory at which a child is killed")
    parser.add_argument("--child", nargs=4, metavar=("CONTENDER", "VARIANT", "ROWS", "UNTIL"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        contender, variant, rows, until = args.child
        print(json.dumps(child(contender, variant, int(rows), until)))
        return 0

    results: dict[tuple[str, int], dict[str, Any] | str] = {}
    for rows in args.rows:
        for contender in args.contenders:
            command = [sys.executable, "-m", "bench.growth", "--child", contender, args.variant, str(rows), args.until]
            try:
                results[contender, rows] = json.loads(
                    _run_capped(command, args.timeout, int(args.max_mb * 1e6)).strip().splitlines()[-1])
            except (subprocess.TimeoutExpired, RuntimeError, ValueError, IndexError) as error:
                results[contender, rows] = f"{type(error).__name__}: {error}"[:100]
            print(f"  {contender} {rows} rows: done", file=sys.stderr, flush=True)

    stages = STAGES[: STAGES.index(args.until) + 1]
    print(f"One table of N rows x {GROWTH_COLUMNS} columns ({args.variant}), a fresh process per run; pyxform runs "
          f"{', '.join(stages)}")
    print("| contender | rows | page (MB) | CPU us/cell | x pandas | peak over start (B/cell) | process peak "
          "(B/cell) | stage of the largest peak (over its start, B/cell) | "
          + " | ".join(f"{stage} us/cell" for stage in stages) + " |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | " + " | ".join("---:" for _ in stages) + " |")
    for rows in args.rows:
        cells = rows * GROWTH_COLUMNS
        peer = results.get(("pandas lxml", rows))
        for contender in args.contenders:
            result = results[contender, rows]
            if isinstance(result, str):
                print(f"| {contender} | {rows:,} | - | {result} | | | | | " + " | ".join("" for _ in stages) + " |")
                continue
            ratio = (f"{result['cpu_seconds'] / peer['cpu_seconds']:.1f}" if isinstance(peer, dict) else "-")
            peak = "-" if result["peak_bytes"] is None else f"{result['peak_bytes'] / cells:,.0f}"
            top = max(result["stage_peaks"].items(), key=lambda item: item[1], default=None)
            top_peak = "-" if top is None else f"{top[0]} ({top[1] / cells:,.0f})"
            per_stage = [f"{result['stages'][stage] * 1e6 / cells:.1f}" if stage in result["stages"] else ""
                         for stage in stages]
            print(f"| {contender} | {rows:,} | {result['page_bytes'] / 1e6:.1f} | "
                  f"{result['cpu_seconds'] * 1e6 / cells:.2f} | {ratio} | {peak} | {result['max_rss'] / cells:,.0f} | "
                  f"{top_peak} | "
                  + " | ".join(per_stage) + " |")
    mine = [results.get(("pyxform stages", rows)) for rows in args.rows]
    if len(mine) >= 2 and all(isinstance(r, dict) for r in (mine[0], mine[-1])):
        first, last = mine[0], mine[-1]
        growth = (last["cpu_seconds"] / args.rows[-1]) / (first["cpu_seconds"] / args.rows[0])  # type: ignore[index]
        print(f"\npyxform per-cell time, {args.rows[-1]:,} rows over {args.rows[0]:,} rows: x{growth:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
