"""The whole corpus under a memory limit (issue 7): every page of ``../shared/corpus`` (the 440 Wikipedia pages and
their 440 one-table extracts, the 27 web pages, the misc pages) converted the way ``pyxform convert`` does it, in a
worker process (:class:`pyxform.jobs.Worker`) under ``RLIMIT_DATA`` and a time limit per page, with the default
resource limits otherwise. The output of each page is checked (well-formed, valid against its generated XSD).

Reports: pages; pages converted, with failed tables, failed (by reason: error code and limit); tables converted and
table failures (by code); crashes (a worker that died: the number to keep at zero); the time per page (median, slowest)
and the peak memory (resident set) of the worker per page (median, largest), read from ``/proc`` (Linux; the peak is
reset before each page where the kernel allows it).

Run: ``python -m bench.corpus_run [--corpus ../shared/corpus] [--max-memory MB] [--timeout S] [--limit N]
[--json FILE]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

DEFAULT_CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"


def corpus_pages(corpus: Path) -> list[Path]:
    """Every HTML file of the corpus, in a stable order."""
    return sorted(corpus.rglob("*.html"))


def _peak_rss_kb(pid: int | None) -> int | None:
    if pid is None:
        return None
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def _reset_peak(pid: int | None) -> None:
    if pid is None:
        return
    try:
        Path(f"/proc/{pid}/clear_refs").write_text("5")  # resets VmHWM to the current RSS (Linux >= 4.0)
    except OSError:
        pass


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--max-memory", type=int, default=2048, metavar="MB",
                        help="RLIMIT_DATA of the worker process (default 2048 MiB)")
    parser.add_argument("--timeout", type=float, default=None, metavar="S",
                        help="seconds per page (default: the default limit)")
    parser.add_argument("--limit", type=int, help="only the first N pages")
    parser.add_argument("--no-validate", action="store_true", help="do not validate each output")
    parser.add_argument("--json", type=Path, help="write one record per page (JSON lines)")
    args = parser.parse_args(argv)
    paths = corpus_pages(args.corpus)[: args.limit]
    if not paths:
        print(f"no pages under {args.corpus}", file=sys.stderr)
        return 2

    from pyxform.base.errors import PyxformError, WorkerCrash
    from pyxform.base.limits import DEFAULT_LIMITS
    from pyxform.base.source import read_source
    from pyxform.jobs import PageOptions, Worker
    from pyxform.stages.schema import validate

    limits = replace(DEFAULT_LIMITS, max_memory=args.max_memory * 2**20,
                     **({"timeout": args.timeout} if args.timeout is not None else {}))
    records = []
    started = time.monotonic()
    with Worker(limits) as worker:
        for number, path in enumerate(paths, 1):
            record: dict[str, object] = {"page": str(path.relative_to(args.corpus))}
            _reset_peak(worker.pid)
            try:
                result = worker.run(read_source(path), PageOptions(schema=not args.no_validate, limits=limits))
                every_table_failed = result.tables == 0 and bool(result.table_failures)
                if result.error is not None and not every_table_failed:  # counted as partial, as before
                    raise result.error
                if result.schema is not None:
                    validate(result.payload, result.schema)
                record.update(status="partial" if result.table_failures else "ok", tables=result.tables,
                              table_failures=[f.code for f in result.table_failures],
                              seconds=round(result.seconds, 3))
            except WorkerCrash as error:
                record.update(status="crash", reason="crash", message=error.message)
            except PyxformError as error:
                reason = error.code + (f" {error.limit}" if getattr(error, "limit", None) else "")
                record.update(status="failed", reason=reason, message=error.message)
            record["peak_rss_mb"] = round((_peak_rss_kb(worker.pid) or 0) / 1024, 1)
            records.append(record)
            if number % 100 == 0:
                print(f"... {number} pages", file=sys.stderr)
    elapsed = time.monotonic() - started

    if args.json:
        args.json.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    statuses = Counter(str(r["status"]) for r in records)
    reasons = Counter(str(r["reason"]) for r in records if "reason" in r)
    table_failures = Counter(code for r in records for code in r.get("table_failures", []))  # type: ignore[attr-defined]
    times = sorted((float(r["seconds"]), str(r["page"])) for r in records if "seconds" in r)
    peaks = sorted(float(r["peak_rss_mb"]) for r in records if r.get("peak_rss_mb"))
    print(f"pages: {len(records)} in {elapsed:.0f} s (worker: RLIMIT_DATA {args.max_memory} MiB, "
          f"timeout {limits.timeout:g} s per page)")
    print(f"converted: {statuses['ok']}, with failed tables: {statuses['partial']}, failed: {statuses['failed']}, "
          f"crashes: {statuses['crash']}")
    print(f"tables converted: {sum(int(r.get('tables', 0)) for r in records)}, "  # type: ignore[call-overload]
          f"table failures: {sum(table_failures.values())} {dict(table_failures)}")
    print("failures by reason: " + (", ".join(f"{k}: {v}" for k, v in reasons.most_common()) or "none"))
    if times:
        print(f"seconds per page: median {statistics.median(t for t, _ in times):.2f}, slowest "
              + ", ".join(f"{t:.1f} ({p})" for t, p in times[-3:][::-1]))
    if peaks:
        print(f"worker peak RSS per page: median {statistics.median(peaks):.0f} MB, largest {peaks[-1]:.0f} MB")
    return 0 if statuses["crash"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
