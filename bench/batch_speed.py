"""Speed of ``pyxform batch`` on Dask against sequential ``pyxform convert`` over the same pages, in one run.

The corpus pages (``../shared/corpus``: wikitables, web, misc) are written into one WARC file (gzip, one member per
record, as ``pyxform crawl`` and Common Crawl write them), each page an HTTP 200 ``text/html`` response. Then:

- **sequential convert, in process**: for each page, what ``pyxform convert PAGE -o OUT --timeout 0 --max-memory 0``
  does: convert it in this process (stylesheets compiled once, before the timing) and write its output atomically.
  The floor: no isolation, no Dask.
- **sequential convert, isolated**: the same through one worker child under the default time and memory limits, as
  ``pyxform convert`` runs by default (and as batch runs each page).
- **batch, N workers**: ``run_batch([warc], DIR, workers=N)``: a new LocalCluster of N worker processes, each with
  one isolated child. Timed from the first task submitted to the last page recorded (``stats.seconds``); the
  start-up (cluster, children, compiling) is reported apart, and the end-to-end time with it.

Ratios are pages per second over the sequential in-process pass of the same run. The Dask overhead is the share of the
workers' time not spent in tasks: ``1 - sum(task seconds in the workers) / (N x wall seconds)`` (scheduling,
serialization, the driver's round trips, workers idle at the tail); per page it is that time divided by the pages.
The driver's CPU time (this process: the scheduler of the local cluster, walking the WARC, the manifest) is reported
per page too: on a machine with as many cores as workers it is taken from them.
The time a task spends outside the conversion itself (reading the record, the pipe to the child, writing the
output) is reported as well.

CPU: every contender's CPU time (this process, and the processes it started and waited for: the local cluster's
worker processes and their isolated children) per page, and the cores it used (CPU seconds over wall seconds, end to
end). On a machine others use too, the cores a run gets are what limits it: 2 workers can be 2x one worker only when
the run gets 2 cores. A CPU time per page that stays the same from 1 to 2 workers says the batch itself adds no
contention.

Every contender runs ``--rounds`` times, in turn (batch with each worker count, then the sequential passes), and the
best round of each is kept: on a machine others use too, the best round is the one least disturbed.

Run: ``python -m bench.batch_speed [--corpus ../shared/corpus] [--limit N] [--workers 1 2] [--rounds 1]``.
"""

from __future__ import annotations

import argparse
import io
import os
import platform
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.corpus import DEFAULT_CORPUS, corpus_pages


def build_warc(paths: list[Path], target: Path) -> list[tuple[bytes, str]]:
    """Write the pages into a gzip WARC; returns ``(bytes, target URI)`` of each page."""
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    pages = []
    with open(target, "wb") as stream:
        writer = WARCWriter(stream, gzip=True)
        for path in paths:
            uri = f"https://corpus.test/{path.parent.name}/{path.name}"
            data = path.read_bytes()
            headers = StatusAndHeaders("200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1")
            writer.write_record(writer.create_warc_record(uri, "response", payload=io.BytesIO(data),
                                                          http_headers=headers))
            pages.append((data, uri))
    return pages


def cpu_seconds() -> float:
    """CPU seconds (user and system) of this process and of its children that ended and were waited for."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def sequential(pages: list[tuple[bytes, str]], folder: Path, *, isolated: bool) -> tuple[float, float]:
    """Convert and write every page one after the other; returns the seconds and the CPU seconds (the child's with
    ``isolated``: counted once it has ended)."""
    from pyxform.base.files import atomic_write
    from pyxform.base.limits import DEFAULT_LIMITS, Limits
    from pyxform.base.source import Source
    from pyxform.jobs import PageOptions, Worker, run_page

    limits = DEFAULT_LIMITS if isolated else Limits(timeout=0, max_memory=0)
    options = PageOptions(limits=limits)
    warm = Source(b"<table><tr><th>a</th></tr><tr><td>1</td></tr></table>", "warm-up")
    worker = Worker(limits) if isolated else None
    try:
        (worker.run(warm, options) if worker is not None else run_page(warm, options))
        folder.mkdir(parents=True, exist_ok=True)
        started, cpu = time.perf_counter(), cpu_seconds()
        for number, (data, uri) in enumerate(pages):
            source = Source(data, uri)
            result = worker.run(source, options) if worker is not None else run_page(source, options)
            for output in result.outputs:
                atomic_write(folder / f"{number}.xml", output.data)
        seconds = time.perf_counter() - started
        if worker is not None:
            worker.close()  # its CPU time counts once it has ended
            worker = None
        return seconds, cpu_seconds() - cpu
    finally:
        if worker is not None:
            worker.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--limit", type=int, help="only the first N pages")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2], help="local cluster sizes (default 1 2)")
    parser.add_argument("--rounds", type=int, default=1,
                        help="rounds of every contender in turn; the best of each is kept (default 1)")
    args = parser.parse_args(argv)
    paths = corpus_pages(args.corpus)[: args.limit]
    if not paths:
        print(f"no pages under {args.corpus}", file=sys.stderr)
        return 2
    from pyxform.wings.batch import run_batch

    best: dict[str, tuple[float, float]] = {}
    batches: dict[int, tuple[Any, float, float, float]] = {}
    with tempfile.TemporaryDirectory(prefix="pyxform-batch-bench-") as scratch:
        root = Path(scratch)
        archive = root / "corpus.warc.gz"
        pages = build_warc(paths, archive)
        megabytes = sum(len(data) for data, _ in pages) / 1e6
        print(f"{len(pages)} pages ({megabytes:.1f} MB) in one WARC; {os.cpu_count()} CPUs; Python "
              f"{platform.python_version()}; load average {os.getloadavg()[0]:.1f} at the start", flush=True)
        for round_number in range(args.rounds):
            for count in args.workers:  # each batch in new worker processes
                started, cpu, all_cpu = time.perf_counter(), time.process_time(), cpu_seconds()
                stats = run_batch([str(archive)], root / f"batch-{count}-{round_number}", workers=count)
                total, driver_cpu = time.perf_counter() - started, time.process_time() - cpu
                total_cpu = cpu_seconds() - all_cpu  # the cluster has ended: its processes' CPU is counted
                if count not in batches or stats.seconds < batches[count][0].seconds:
                    batches[count] = (stats, total, driver_cpu, total_cpu)
                print(f"  round {round_number + 1}: batch, {count} worker(s): {stats.seconds:.2f} s converting, "
                      f"{stats.startup_seconds:.2f} s start-up, {total:.2f} s end to end ({stats.done} pages, "
                      f"{stats.failed} failed), {total_cpu / total:.2f} cores used; load average "
                      f"{os.getloadavg()[0]:.1f}", flush=True)
            for label, isolated in (("in process", False), ("isolated", True)):
                seconds, cpu = sequential(pages, root / f"sequential-{label}-{round_number}", isolated=isolated)
                if label not in best or seconds < best[label][0]:
                    best[label] = (seconds, cpu)
                print(f"  round {round_number + 1}: sequential convert, {label}: {seconds:.2f} s, "
                      f"{cpu / seconds:.2f} cores used; load average {os.getloadavg()[0]:.1f}", flush=True)
        print(f"load average {os.getloadavg()[0]:.1f} at the end", flush=True)

    (in_process, in_process_cpu), (isolated, isolated_cpu) = best["in process"], best["isolated"]
    base = len(pages) / in_process
    print()
    print("| run | pages/s | x sequential (in process) | Dask overhead | overhead per page | outside conversion "
          "in tasks | driver CPU per page | CPU per page | cores used | start-up | end to end |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    print(f"| sequential convert, in process | {base:.2f} | 1.00 | | | | | {in_process_cpu / len(pages) * 1000:.0f} ms "
          f"| {in_process_cpu / in_process:.2f} | | {in_process:.1f} s |")
    print(f"| sequential convert, isolated | {len(pages) / isolated:.2f} | {in_process / isolated:.2f} | | | | | "
          f"{isolated_cpu / len(pages) * 1000:.0f} ms | {isolated_cpu / isolated:.2f} | | {isolated:.1f} s |")
    for count in args.workers:
        stats, total, driver_cpu, total_cpu = batches[count]
        rate = stats.done / stats.seconds
        capacity = count * stats.seconds
        overhead = 1 - stats.task_seconds / capacity
        per_page_ms = (capacity - stats.task_seconds) / stats.done * 1000
        outside = 1 - stats.convert_seconds / stats.task_seconds
        print(f"| batch, {count} worker{'s' if count > 1 else ''} | {rate:.2f} | {rate / base:.2f} | "
              f"{overhead:.1%} | {per_page_ms:.1f} ms | {outside:.1%} | {driver_cpu / stats.done * 1000:.1f} ms | "
              f"{total_cpu / stats.done * 1000:.0f} ms | {total_cpu / total:.2f} | {stats.startup_seconds:.1f} s | "
              f"{total:.1f} s |")
    if len(args.workers) > 1:
        first, last = args.workers[0], args.workers[-1]
        ratio = batches[first][0].seconds / batches[last][0].seconds
        print(f"\nbatch, {last} workers over {first}: {ratio:.2f}x (converting time of the best rounds)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
