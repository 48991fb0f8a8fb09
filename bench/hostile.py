"""Full-size hostile pages through ``pyxform convert`` with the default limits (issue 7): what stops each, how fast,
and how much memory the run took. The unit tests (``tests/test_limits.py``) use smaller versions.

Each page is written to a temporary folder and converted by ``python -m pyxform convert PAGE --report R`` in its own
process; the result is the report's status and reason (or the table failures), the wall time and the peak resident
memory of the run's processes (``ru_maxrss`` of the children: the largest of the CLI and its worker).

Run: ``python -m bench.hostile [--timeout S] [--only NAME ...]``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path


def _span_bomb_rows() -> bytes:
    rows = "<tr><td>y</td></tr>" * 70_000
    return f"<table><tr><td colspan=1000 rowspan=65534>x</td></tr>{rows}</table>".encode()


def _span_bomb_cells() -> bytes:
    return ("<table><tr>" + "<td colspan=1000 rowspan=65534>x</td>" * 1000 + "</tr>" + "<tr></tr>" * 3
            + "</table>").encode()


def _span_bomb_tables() -> bytes:
    one = "<table><tr><td colspan=1000 rowspan=65534>x</td></tr>" + "<tr><td>y</td></tr>" * 3 + "</table>"
    return (one * 2000).encode()


def _nested_tables() -> bytes:
    return ("<table><tr><td>" * 5000 + "x" + "</td></tr></table>" * 5000).encode()


def _deep_elements() -> bytes:
    return ("<table><tr><th>h</th></tr><tr><td>" + "<span>" * 100_000 + "x</td></tr></table>").encode()


def _million_cells() -> bytes:
    head = "<tr>" + "".join(f"<th>h{j}</th>" for j in range(1000)) + "</tr>"
    return ("<table>" + head + ("<tr>" + "<td>1</td>" * 1000 + "</tr>") * 1000 + "</table>").encode()


def _fifty_megabytes() -> bytes:
    return b"<table><tr><td>x</td></tr></table>" + b"<p>filler</p>" * (50 * 2**20 // 13)


def _billion_laughs() -> bytes:
    laughs = "".join(f'<!ENTITY lol{i} "{f"&lol{i - 1};" * 10}">' for i in range(1, 10))
    return (f'<?xml version="1.0"?><!DOCTYPE html [<!ENTITY lol0 "lol">{laughs}]>'
            "<html><body><table><tr><th>a</th></tr><tr><td>&lol9;</td></tr></table></body></html>").encode()


# Runs one command and prints the peak resident memory (KiB) of its process tree (children waited for).
_MEASURE = ("import json, resource, subprocess, sys; subprocess.run(json.loads(sys.argv[1]), capture_output=True); "
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")

PAGES: dict[str, Callable[[], bytes]] = {
    "span-bomb-70000-rows": _span_bomb_rows,
    "span-bomb-1000-cells": _span_bomb_cells,
    "span-bomb-2000-tables": _span_bomb_tables,
    "nested-5000-tables": _nested_tables,
    "deep-100000-elements": _deep_elements,
    "million-cells": _million_cells,
    "page-50-mb": _fifty_megabytes,
    "billion-laughs-xhtml": _billion_laughs,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--timeout", type=float, help="--timeout for convert (default: the default limit)")
    parser.add_argument("--only", nargs="+", choices=sorted(PAGES), help="run only these pages")
    args = parser.parse_args(argv)
    names = args.only or list(PAGES)
    print(f"{'page':<24} {'MB':>6} {'seconds':>8} {'peak MB':>8}  outcome")
    with tempfile.TemporaryDirectory() as folder:
        for name in names:
            page = Path(folder) / f"{name}.html"
            page.write_bytes(PAGES[name]())
            report = Path(folder) / f"{name}.jsonl"
            command = [sys.executable, "-m", "pyxform", "convert", str(page), "-o", str(Path(folder) / "out.xml"),
                       "--report", str(report)]
            if args.timeout is not None:
                command += ["--timeout", str(args.timeout)]
            started = time.monotonic()
            wrapper = subprocess.run([sys.executable, "-c", _MEASURE, json.dumps(command)], capture_output=True,
                                     text=True, check=False)
            seconds = time.monotonic() - started
            peak = int(wrapper.stdout.strip() or 0) / 1024
            record = json.loads(report.read_text(encoding="utf-8"))
            if record["status"] == "failed":
                outcome = f"failed: {record['code']}" + (f" {record['limit']}" if record.get("limit") else "")
            else:
                failures = ", ".join(f"table {f['index']} {f['code']}" for f in record["table_failures"][:3])
                outcome = f"{record['status']}: {record['tables']} tables" + (f"; {failures}" if failures else "")
            print(f"{name:<24} {page.stat().st_size / 1e6:>6.1f} {seconds:>8.1f} {peak:>8.0f}  {outcome}")
            page.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main())
