"""Run: ``python -m bench.search_eval [--work DIR] [--rebuild] [--jobs N] [--tune] [--commands 60]``.

1. Writes the 440 article pages (``make_articles.py``) and builds the index with ``pyxform index DIR --out INDEX``
   (timed: pages/s), unless ``--work`` already has them (``--rebuild`` builds again).
2. Ranks every question with ``integrative``, ``bm25`` and ``pagerank`` (in-process :class:`Searcher`, warm) and with
   the reference: bm25s over page title + caption + all cell text (header cells included), default parameters
   (``bm25s.tokenize`` and ``bm25s.BM25()`` as they come). Reports MRR@10 and recall@10 on all questions, the tuning
   half and the held-out half (``corpus.is_tuning``), and the ratio of integrative to the reference.
3. Query latency: p50/p95 warm in-process over all questions, and per command (``pyxform search INDEX Q --format
   json -n 10`` as a new process) over ``--commands`` questions.
4. ``--tune``: coordinate ascent over the ranking's parameters on the tuning half only (``tune.py``); prints the
   parameters found and both halves' scores with them. The defaults in ``pyxform/wings/search/rank.py`` are what it
   printed; nothing else is fitted.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pyxform.wings.search.query import Searcher
from pyxform.wings.search.rank import DEFAULT, RANKINGS, Parameters

from .corpus import Question, make_articles, questions, relevant_tables
from .metrics import evaluate


def _children_cpu() -> float:
    """CPU seconds (user + system) of the waited-for child processes so far (their children included)."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _build(articles: Path, index: Path, jobs: int) -> tuple[float, int, float]:
    """Build the index with the command a user runs; (wall seconds, pages, CPU seconds of it and its workers)."""
    if index.exists():
        shutil.rmtree(index)
    cpu = _children_cpu()
    started = time.perf_counter()
    command = [sys.executable, "-m", "pyxform", "index", str(articles), "--out", str(index)]
    if jobs:
        command += ["--jobs", str(jobs)]
    subprocess.run(command, check=True)
    return time.perf_counter() - started, len(list(articles.glob("*.html"))), _children_cpu() - cpu


def reference_ranks(index: Path, items: list[Question]) -> list[int | None]:
    """Rank of the relevant table for each question under the reference (bm25s, default parameters)."""
    import sqlite3
    import zlib

    import bm25s

    db = sqlite3.connect(index / "index.sqlite")
    keys, texts = [], []
    for path, title, position, caption, headers, body in db.execute(
            "SELECT p.path, p.title, t.position, t.caption, t.headers, t.body FROM tables t "
            "JOIN pages p ON p.id = t.page ORDER BY t.id"):
        records = json.loads(zlib.decompress(body))["records"]
        cells = [" ".join(json.loads(headers))] + [" ".join(record) for record in records]
        keys.append((Path(path).stem, position))
        texts.append(" ".join([title, caption or "", *cells]))
    db.close()
    retriever = bm25s.BM25()
    retriever.index(bm25s.tokenize(texts, show_progress=False), show_progress=False)
    results, _ = retriever.retrieve(bm25s.tokenize([q.text for q in items], show_progress=False), k=10,
                                    show_progress=False)
    ranks: list[int | None] = []
    for q, row in zip(items, results):
        found = [keys[int(i)] for i in row]
        ranks.append(found.index((q.page, q.table)) + 1 if (q.page, q.table) in found else None)
    return ranks


def ranking_ranks(searcher: Searcher, items: list[Question], ranking: str, parameters: Parameters = DEFAULT
                  ) -> tuple[list[int | None], list[tuple[float, float]]]:
    """Rank of the relevant table per question, and each query's (wall, CPU) seconds."""
    ranks, seconds = [], []
    for q in items:
        started, cpu = time.perf_counter(), time.process_time()
        hits = searcher.search(q.text, n=10, ranking=ranking, parameters=parameters)
        seconds.append((time.perf_counter() - started, time.process_time() - cpu))
        found = [(Path(hit.path or "").stem, hit.table) for hit in hits]
        ranks.append(found.index((q.page, q.table)) + 1 if (q.page, q.table) in found else None)
    return ranks, seconds


def _percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def command_latency(index: Path, items: list[Question], count: int) -> tuple[list[float], list[float]]:
    """Wall seconds and CPU seconds (user + system) of ``pyxform search INDEX Q --format json -n 10`` as a new
    process, for ``count`` questions spread over the list. CPU time does not grow when other jobs share the machine;
    wall time does."""
    step = max(1, len(items) // max(1, count))
    pyxform = shutil.which("pyxform", path=str(Path(sys.executable).parent)) or "pyxform"
    wall, cpu = [], []
    for q in items[::step][:count]:
        before = _children_cpu()
        started = time.perf_counter()
        subprocess.run([pyxform, "search", str(index), q.text, "--format", "json", "-n", "10"], check=True,
                       stdout=subprocess.DEVNULL)
        wall.append(time.perf_counter() - started)
        cpu.append(_children_cpu() - before)
    return wall, cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.search_eval", description=__doc__.split("\n\n")[0])
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "pyxform-search-eval")
    parser.add_argument("--rebuild", action="store_true", help="build the index again")
    parser.add_argument("--jobs", type=int, default=0, help="pyxform index --jobs (default: its default)")
    parser.add_argument("--tune", action="store_true", help="tune the ranking on the tuning half")
    parser.add_argument("--commands", type=int, default=60, help="questions timed as separate commands")
    args = parser.parse_args(argv)
    work: Path = args.work
    work.mkdir(parents=True, exist_ok=True)
    articles = make_articles(work / "articles")
    index = work / "index"
    build = None
    if args.rebuild or not (index / "index.sqlite").is_file():
        build = _build(articles, index, args.jobs)
    items = questions(relevant_tables(articles, work / "relevant.json"))
    tuning = [q for q in items if q.tuning]
    held = [q for q in items if not q.tuning]
    print(f"questions: {len(items)} ({len(tuning)} tuning, {len(held)} held-out); pages: "
          f"{len(list(articles.glob('*.html')))}")
    if args.tune:
        from .tune import tune

        with Searcher(index) as searcher:
            best = tune(searcher, tuning)
        print("tuned parameters:", json.dumps({"weights": best.weights, **{k: getattr(best, k) for k in (
            "depth", "header", "key", "shape", "shape_rows", "no_header", "nested", "authority", "authority_k")}}))
        with Searcher(index) as searcher:
            for name, part in (("tuning", tuning), ("held-out", held)):
                ranks, _ = ranking_ranks(searcher, part, "integrative", best)
                print(f"  with them, {name}: " + evaluate(ranks).line())
        return 0
    rows = []
    reference = reference_ranks(index, items)
    rows.append(("reference (bm25s: title + caption + cells, defaults)", reference))
    latency: list[tuple[float, float]] = []
    with Searcher(index) as searcher:
        pages, tables = searcher.counts()
        for ranking in RANKINGS:
            ranks, seconds = ranking_ranks(searcher, items, ranking)
            rows.append((ranking, ranks))
            if ranking == "integrative":
                latency = seconds
    print(f"index: {pages} pages, {tables} tables")
    if build is not None:
        print(f"build: {build[1]} pages in {build[0]:.1f} s wall = {build[1] / build[0]:.2f} pages/s "
              f"(pyxform index{' --jobs ' + str(args.jobs) if args.jobs else ''}); CPU {build[2]:.1f} s = "
              f"{build[1] / build[2]:.2f} pages per CPU second")
    print(f"load average during the run: {os.getloadavg()[0]:.1f} (2 CPUs; wall times grow with it, CPU times not)")
    print()
    print("| ranking | MRR@10 all | R@10 all | MRR@10 tuning | MRR@10 held-out | R@10 held-out |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for name, ranks in rows:
        whole = evaluate(ranks)
        tune_part = evaluate([r for r, q in zip(ranks, items) if q.tuning])
        held_part = evaluate([r for r, q in zip(ranks, items) if not q.tuning])
        print(f"| {name} | {whole.mrr:.4f} | {whole.recall:.4f} | {tune_part.mrr:.4f} | {held_part.mrr:.4f} | "
              f"{held_part.recall:.4f} |")
    ref, integ = evaluate(rows[0][1]).mrr, evaluate(rows[1][1]).mrr
    print(f"\nintegrative / reference MRR@10: {integ / ref:.2f}x (aim >= 1.3x and >= 0.45)")
    wall, cpu = [w for w, _ in latency], [c for _, c in latency]
    print(f"latency warm in-process (integrative, {len(latency)} queries): wall p50 {_percentile(wall, 50) * 1000:.1f} "
          f"ms, p95 {_percentile(wall, 95) * 1000:.1f} ms; CPU p50 {_percentile(cpu, 50) * 1000:.1f} ms, p95 "
          f"{_percentile(cpu, 95) * 1000:.1f} ms")
    if args.commands:
        wall, cpu = command_latency(index, items, args.commands)
        print(f"latency per command (pyxform search ... --format json -n 10, {len(wall)} processes): wall p50 "
              f"{_percentile(wall, 50) * 1000:.0f} ms, p95 {_percentile(wall, 95) * 1000:.0f} ms; CPU p50 "
              f"{_percentile(cpu, 50) * 1000:.0f} ms, p95 {_percentile(cpu, 95) * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
