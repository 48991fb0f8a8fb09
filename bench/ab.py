"""Paired before/after timing of two pyxform source trees on the corpus, robust to a busy machine.

Two worker processes, one per tree (``PYTHONPATH`` = the tree), take the pages in turn: page 1 in A, then in B, page
2 in A, then in B ... so both see the same machine load at nearly the same moment. Each worker times, in CPU seconds,
``pyxform.grid(page).xml`` and (where the tree has it) ``pyxform.convert(page).xml``, after compiling its
stylesheets and warming up on the first page. The result is the total per tree and the ratio after / before, with
the share of pages on which the after tree was faster.

A tree is a checkout whose ``pyxform`` package can be imported from its root with its stylesheets: for a plain
``git archive`` of a commit, copy ``stylesheets/`` and ``schemas/`` into ``pyxform/`` (the installed layout).

Run: ``python -m bench.ab BEFORE_TREE AFTER_TREE [--limit N] [--corpus DIR] [--method auto|markup|format]``
(``--method`` times ``convert`` with that header method, e.g. to see a change to the formatting method on pages whose
tables have markup headers).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from bench.corpus import DEFAULT_CORPUS, corpus_pages

WORKER = r"""
import json, os, sys, time
from pathlib import Path
from pyxform.stages.normalize import grid
try:
    from pyxform import convert
except ImportError:
    convert = None

def timed(work):
    started = time.process_time()
    try:
        work()
    except Exception:
        pass
    return time.process_time() - started

METHOD = os.environ.get("BENCH_AB_METHOD")
options = {"method": METHOD} if METHOD else {}

first = True
for line in sys.stdin:
    data = Path(line.strip()).read_bytes()
    if first:
        timed(lambda: grid(data).xml)
        if convert:
            timed(lambda: convert(data, **options).xml)
        first = False
    result = {"grid": timed(lambda: grid(data).xml)}
    if convert:
        result["convert"] = timed(lambda: convert(data, **options).xml)
    print(json.dumps(result), flush=True)
"""


def _worker(tree: Path, method: str | None) -> subprocess.Popen[str]:
    environment = dict(os.environ, PYTHONPATH=str(tree))
    if method:
        environment["BENCH_AB_METHOD"] = method
    return subprocess.Popen([sys.executable, "-c", WORKER], cwd=tree, env=environment, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)


def _ask(worker: subprocess.Popen[str], page: Path) -> dict[str, float]:
    assert worker.stdin is not None and worker.stdout is not None
    worker.stdin.write(f"{page}\n")
    worker.stdin.flush()
    line = worker.stdout.readline()
    if not line:
        raise RuntimeError("a worker stopped")
    return json.loads(line)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--web", action="store_true", help="add the corpus's web/ pages")
    parser.add_argument("--limit", type=int)
    parser.add_argument("--method", help="convert with this header method (auto, markup, format); default: convert's")
    args = parser.parse_args(argv)
    pages = corpus_pages(args.corpus, web=args.web)[: args.limit]
    workers = {"before": _worker(args.before.resolve(), args.method),
               "after": _worker(args.after.resolve(), args.method)}
    totals: dict[str, dict[str, float]] = {"before": {}, "after": {}}
    faster: dict[str, int] = {}
    try:
        for number, page in enumerate(pages, 1):
            results = {name: _ask(worker, page.resolve()) for name, worker in workers.items()}
            for name, result in results.items():
                for stage, seconds in result.items():
                    totals[name][stage] = totals[name].get(stage, 0.0) + seconds
            for stage in results["after"]:
                if stage in results["before"]:
                    faster[stage] = faster.get(stage, 0) + (results["after"][stage] < results["before"][stage])
            if number % 50 == 0:
                print(f"  {number} pages", file=sys.stderr, flush=True)
    finally:
        for worker in workers.values():
            assert worker.stdin is not None
            worker.stdin.close()
            worker.wait()
    method = f"; convert with method={args.method}" if args.method else ""
    print(f"{len(pages)} pages, CPU milliseconds per page, paired (each page in both trees in turn){method}\n")
    print("| work | before | after | after / before | pages faster after |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for stage in totals["after"]:
        if stage not in totals["before"]:
            continue
        before, after = totals["before"][stage], totals["after"][stage]
        print(f"| pyxform {stage} | {1000 * before / len(pages):.1f} | {1000 * after / len(pages):.1f} | "
              f"{after / before:.2f} | {faster[stage]} of {len(pages)} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
