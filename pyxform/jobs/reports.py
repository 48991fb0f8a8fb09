"""The report of a run over several inputs: one JSON object a line per input, and the summary of a run.

A record (``pyxform convert --report FILE``)::

    {"input": "a.html", "status": "ok", "output": "out/a.xml", "tables": 2, "table_failures": [], "seconds": 0.41}
    {"input": "b.html", "status": "failed", "output": null, "code": "limit", "exit_code": 7,
     "message": "...", "location": "b.html", "limit": "max_slots"}

``status`` is ``ok``, ``partial`` (some tables failed: ``table_failures`` lists ``index``, ``code``, ``message``) or
``failed`` (``code``, ``exit_code``, ``message``, ``location``, and ``limit`` for a limit).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TextIO

from ..base.errors import InternalError, LimitExceeded, OutputError, PyxformError
from .page import PageResult

__all__ = ["ok_record", "failed_record", "open_report", "summary"]


def _same(message: str) -> str:
    return message


def ok_record(name: str, result: PageResult, written: Sequence[str]) -> dict[str, Any]:
    """The record of an input whose outputs were written (``written``: the paths, ``-`` for standard output)."""
    return {"input": name, "status": "partial" if result.table_failures else "ok",
            "output": written[0] if len(written) == 1 else list(written), "tables": result.tables,
            "table_failures": [{"index": f.index, "code": f.code, "message": f.message}
                               for f in result.table_failures],
            "seconds": round(result.seconds, 3)}


def failed_record(name: str, error: BaseException, words: Callable[[str], str] = _same) -> dict[str, Any]:
    """The record of an input that failed with ``error``.

    :param words: turns a message into the caller's words (the command line names its options where the Python
        API names keyword arguments).
    """
    record: dict[str, Any] = {"input": name, "status": "failed", "output": None}
    if isinstance(error, PyxformError):
        record.update(code=error.code, exit_code=error.exit_code, message=words(error.message),
                      location=None if isinstance(error, InternalError) else error.location)
        if isinstance(error, LimitExceeded):
            record["limit"] = error.limit
        return record
    record.update(code=InternalError.code, exit_code=InternalError.exit_code,
                  message=f"{type(error).__name__}: {error}", location=None)
    return record


def open_report(path: str) -> TextIO:
    """Open (truncate) the report file.

    :raises OutputError: it cannot be written.
    """
    try:
        return open(path, "w", encoding="utf-8")
    except OSError as error:
        raise OutputError(f"cannot write the report: {error.strerror or error}", location=path) from None


def summary(records: Sequence[dict[str, Any]]) -> str:
    """One line on the records of a run: ``F of N inputs failed (CODE: n, ...): NAME, ...; C converted (P with
    failed tables)``, or ``N inputs: C converted`` when none failed."""
    failed = [r for r in records if r["status"] == "failed"]
    converted = len(records) - len(failed)
    partial = sum(1 for r in records if r["status"] == "partial")
    done = f"{converted} converted" + (f" ({partial} with failed tables)" if partial else "")
    if not failed:
        return f"{len(records)} inputs: {done}"
    reasons: dict[str, int] = {}
    for record in failed:
        reason = record["code"] + (f" {record['limit']}" if record.get("limit") else "")
        reasons[reason] = reasons.get(reason, 0) + 1
    return (f"{len(failed)} of {len(records)} inputs failed ("
            + ", ".join(f"{reason}: {count}" for reason, count in sorted(reasons.items())) + "): "
            + ", ".join(r["input"] for r in failed) + f"; {done}")
