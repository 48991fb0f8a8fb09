"""A batch's counts as it runs (:class:`BatchStats`), shown as a live line on a terminal (rich) or as plain lines in
a log, and the summary at its end (:func:`summary_lines`). Nothing here prints by itself: the renderers write to the
stream they are given (the command line gives standard error)."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import IO, Any

__all__ = ["BatchStats", "RichProgress", "PlainProgress", "summary_lines", "reason_key"]


def reason_key(reason: dict[str, Any] | None) -> str:
    """How a failure is counted: its code, with the limit for a limit (``limit timeout``)."""
    if not reason:
        return "unknown"
    return f"{reason.get('code')} {reason['limit']}" if reason.get("limit") else str(reason.get("code"))


@dataclass
class BatchStats:
    """The counts of a batch run.

    :ivar found: pages found in the inputs so far that this run has to do (not done by an earlier run).
    :ivar reading: the inputs are still being read (``found`` may grow).
    :ivar done, ok, no_tables, failed, tables: pages recorded by this run, by status; tables converted.
    :ivar from_tasks: pages of :attr:`done` that workers did (not inputs that failed before: a broken WARC record).
    :ivar previous: pages the manifest held before this run (``--resume``), by status in ``previous_statuses``.
    :ivar failures: failed pages of this run by :func:`reason_key`.
    :ivar skipped: what the inputs held that is not a page, by reason (a WARC request record, a non-HTML response ...).
    :ivar threads: worker threads (Dask) when the run started.
    :ivar seconds: wall time from the first task submitted to the last page recorded (start-up not included).
    :ivar startup_seconds: time to start or reach the cluster and get its workers ready (stylesheets compiled).
    :ivar task_seconds: the tasks' wall time in the workers, summed; ``convert_seconds``: the pages' conversion time
        in the isolated children, summed.
    :ivar retried_tasks: tasks that failed (a worker died) and whose pages were submitted again one by one.
    """

    found: int = 0
    reading: bool = True
    done: int = 0
    ok: int = 0
    no_tables: int = 0
    failed: int = 0
    tables: int = 0
    previous: int = 0
    previous_statuses: Counter[str] = field(default_factory=Counter)
    failures: Counter[str] = field(default_factory=Counter)
    skipped: Counter[str] = field(default_factory=Counter)
    threads: int = 0
    started: float | None = None
    seconds: float = 0.0
    startup_seconds: float = 0.0
    task_seconds: float = 0.0
    convert_seconds: float = 0.0
    retried_tasks: int = 0
    from_tasks: int = 0

    def count(self, record: dict[str, Any], *, from_task: bool = True) -> None:
        """Count one page record of this run (``from_task``: a worker did it)."""
        self.done += 1
        self.from_tasks += from_task
        status = record.get("status")
        if status == "ok":
            self.ok += 1
        elif status == "no-tables":
            self.no_tables += 1
        else:
            self.failed += 1
            self.failures[reason_key(record.get("reason"))] += 1
        self.tables += int(record.get("tables") or 0)
        if self.started is not None:
            self.seconds = time.monotonic() - self.started

    @property
    def pages_per_second(self) -> float:
        """Pages recorded by this run per second of :attr:`seconds` (0 before a worker has done one: inputs that
        fail before they reach a worker are recorded at once, and would make a rate that means nothing)."""
        return self.done / self.seconds if self.seconds > 0 and self.from_tasks else 0.0

    @property
    def seconds_left(self) -> float | None:
        """The time left at the rate so far, for the pages found so far (``None`` before a rate is known)."""
        rate = self.pages_per_second
        return (self.found - self.done) / rate if rate > 0 else None

    @property
    def total_failed(self) -> int:
        """Failed pages in the whole manifest (earlier runs and this one)."""
        return self.failed + self.previous_statuses.get("failed", 0)


def _duration(seconds: float | None) -> str:
    if seconds is None:
        return "?"
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"


def _status_line(stats: BatchStats) -> str:
    total = f"{stats.found}{'+' if stats.reading else ''}"
    left = _duration(stats.seconds_left)
    return (f"{stats.done}/{total} pages, {stats.failed} failed, {stats.pages_per_second:.1f} pages/s, "
            f"{('at least ' if stats.reading and stats.seconds_left is not None else '')}{left} left")


class PlainProgress:
    """Progress as plain lines (``pyxform batch: 120/473 pages, 3 failed, 6.1 pages/s, 58 s left``), at most one
    every ``every`` seconds, for logs and pipes."""

    def __init__(self, stream: IO[str], every: float = 10.0) -> None:
        self.stream = stream
        self.every = every
        self._last = time.monotonic()

    def update(self, stats: BatchStats) -> None:
        now = time.monotonic()
        if now - self._last >= self.every:
            self._last = now
            self.stream.write(f"pyxform batch: {_status_line(stats)}\n")
            self.stream.flush()

    def close(self) -> None:
        pass


class RichProgress:
    """Progress on a terminal: a live bar with pages done of found, failed, pages per second and time left (rich)."""

    def __init__(self, stream: IO[str]) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

        self._progress = Progress(TextColumn("[bold]pyxform batch"), BarColumn(), MofNCompleteColumn(),
                                  TextColumn("{task.fields[detail]}"),
                                  console=Console(file=stream), transient=False, refresh_per_second=4)
        self._task = self._progress.add_task("pages", total=None, detail="reading the inputs ...")
        self._progress.start()

    def update(self, stats: BatchStats) -> None:
        detail = (f"[red]{stats.failed} failed[/red], {stats.pages_per_second:.1f} pages/s, "
                  f"{'at least ' if stats.reading and stats.seconds_left is not None else ''}"
                  f"{_duration(stats.seconds_left)} left" + (" (reading the inputs)" if stats.reading else ""))
        self._progress.update(self._task, completed=stats.done, total=stats.found or None, detail=detail)

    def close(self) -> None:
        self._progress.stop()


def summary_lines(stats: BatchStats, manifest: str) -> list[str]:
    """The summary of a run, as lines: pages by status, tables, failures by reason, pages per second, what was
    skipped, and the earlier runs' pages on ``--resume``."""
    if stats.threads:
        lines = [f"pyxform batch: {stats.done} pages in {stats.seconds:.1f} s ({stats.pages_per_second:.2f} pages/s, "
                 f"{stats.threads} worker thread{'s' if stats.threads != 1 else ''}): {stats.ok} ok, "
                 f"{stats.no_tables} without tables, {stats.failed} failed; {stats.tables} tables"]
    else:  # no page to convert: no cluster was started
        lines = ["pyxform batch: no page to convert" + (f", {stats.failed} inputs failed" if stats.failed else "")]
    if stats.failures:
        lines.append("  failed: " + ", ".join(f"{reason}: {count}" for reason, count in
                                              sorted(stats.failures.items(), key=lambda item: (-item[1], item[0]))))
    if stats.skipped:
        lines.append("  skipped (not pages): " + ", ".join(
            f"{reason}: {count}" for reason, count in sorted(stats.skipped.items(),
                                                             key=lambda item: (-item[1], item[0]))))
    if stats.previous:
        statuses = ", ".join(f"{count} {status}" for status, count in sorted(stats.previous_statuses.items()))
        lines.append(f"  done by earlier runs: {stats.previous} pages ({statuses})")
    if stats.retried_tasks:
        lines.append(f"  {stats.retried_tasks} task(s) lost a worker and were run again page by page")
    lines.append(f"  manifest: {manifest}")
    return lines
