"""Many inputs, one after another: read each, run it (in the isolated worker when the limits say so), write its
outputs, record it. One input that fails never stops the others: it is recorded with its reason and the loop goes on.
This is ``pyxform convert A B C``; the command line prints what each :class:`InputOutcome` says.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, BinaryIO, TextIO

from ..base.errors import InternalError, PyxformError, UsageError
from ..base.source import read_source
from .options import PageOptions
from .outputs import write_page
from .page import PageResult, TableFailureInfo
from .reports import failed_record, ok_record
from .worker import page_runner

__all__ = ["InputOutcome", "run_inputs"]


@dataclass(frozen=True)
class InputOutcome:
    """What became of one input.

    :ivar input: the input as given (a path, a URL, ``-``).
    :ivar record: its report record (:mod:`pyxform.jobs.reports`).
    :ivar result: the page's result, ``None`` if the input could not be read.
    :ivar error: why the input failed, or ``None``; its ``location`` is the input when it had none (not for an
        :class:`~pyxform.base.errors.InternalError`, which is pyxform's, not the input's).
    :ivar messages: the page's warnings to show (none when its outputs could not be written).
    :ivar table_failures: the tables that failed, to show with the warnings (as ``messages``).
    """

    input: str
    record: dict[str, Any]
    result: PageResult | None
    error: BaseException | None
    messages: tuple[str, ...]
    table_failures: tuple[TableFailureInfo, ...] = ()


def run_inputs(inputs: Sequence[str], options: PageOptions, targets: Sequence[Path | None],
               stage_folders: Sequence[Path | None] | None = None, *, allow_private: bool = False,
               stream: BinaryIO | None = None, report: TextIO | None = None,
               words: Callable[[str], str] = lambda message: message) -> Iterator[InputOutcome]:
    """Run every input with ``options`` and write its outputs; yield each input's outcome as it finishes.

    :param inputs: paths, http(s) URLs or ``-`` (:func:`pyxform.base.source.read_source`).
    :param options: the page options; ``options.limits`` are the limits of every page, and when they set
        ``timeout`` or ``max_memory`` the pages run in one :class:`~pyxform.jobs.worker.Worker`.
    :param targets: the output path of each input, ``None`` for ``stream`` (:func:`pyxform.jobs.outputs.write_page`).
    :param stage_folders: the ``keep_stages`` folder of each input (default: ``options.keep_stages`` for all).
    :param allow_private: let URLs reach private addresses.
    :param stream: where an output without a path goes (standard output).
    :param report: receives each input's record as a JSON line, flushed at once.
    :param words: turns messages into the caller's words in the records (:func:`~pyxform.jobs.reports.failed_record`).
    :raises UsageError: options that cannot be served, or a CSV output of several tables into one stream.
    :raises BrokenPipeError: the reader of ``stream`` went away.
    """
    folders = list(stage_folders) if stage_folders is not None else [None] * len(inputs)
    with page_runner(options.limits) as run:
        for name, target, keep_stages in zip(inputs, targets, folders):
            outcome = _one(name, options if keep_stages is None else replace(options, keep_stages=str(keep_stages)),
                           target, run, allow_private, stream, words)
            if report is not None:
                report.write(json.dumps(outcome.record, ensure_ascii=False) + "\n")
                report.flush()
            yield outcome


def _one(name: str, options: PageOptions, target: Path | None, run: Callable[..., PageResult], allow_private: bool,
         stream: BinaryIO | None, words: Callable[[str], str]) -> InputOutcome:
    result: PageResult | None = None
    messages: tuple[str, ...] = ()
    failures: tuple[TableFailureInfo, ...] = ()
    try:
        page = read_source(name, limits=options.limits, allow_private=allow_private)
        result = run(page, options)
        error = result.error
        if error is None:
            written = write_page(result, target, output_format=options.format, stream=stream)
            return InputOutcome(name, ok_record(name, result, written), result, None, result.messages,
                                result.table_failures)
        if result.table_failures and result.tables == 0:  # tables, and none converted: named by the input as given
            error.location = name
            messages, failures = result.messages, result.table_failures
    except (BrokenPipeError, UsageError):
        raise
    except PyxformError as failure:
        error = failure
    except Exception as failure:  # a bug: recorded, and the next input goes on
        error = InternalError(f"{type(failure).__name__}: {failure}")
    if not error.location and not isinstance(error, InternalError):
        error.location = name
    return InputOutcome(name, failed_record(name, error, words), result, error, messages, failures)
