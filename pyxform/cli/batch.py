"""The batch verb: ``pyxform batch`` (docs/batch.md): pages of folders, WARC files and URL lists on a Dask cluster.

This module parses the arguments (``convert``'s output options through :func:`pyxform.cli.pages.conversion_arguments`,
its limits through :func:`~pyxform.cli.common.limit_arguments`), runs :func:`pyxform.wings.batch.run_batch`, shows its
progress (rich on a terminal, plain lines otherwise) and prints its summary.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path

from ..base.errors import EXIT_PARTIAL_FAILURE
from ..jobs import PageOptions
from ..jobs.options import conversion_pipeline
from .common import EXIT_OK, Command, command_line_message, limit_arguments, limits_of, local_file
from .pages import conversion_arguments, separator_of

__all__ = ["BATCH"]


def _batch_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Convert the pages of folders, web archives and URL lists on a Dask cluster: a local cluster of worker "
        "processes by default, or the scheduler at --scheduler. An input is an HTML file, a folder (walked "
        "recursively: .html, .htm, .xhtml files and .warc, .warc.gz archives), a WARC file (its HTML pages: HTTP "
        "200 or 203 responses, resource records), a text file of URLs (one a line, fetched safely), or an http(s) "
        "URL. Each page's output goes to DIR/pages/SITE/NAME-DIGEST.xml (or the --format's suffix), named stably "
        "from its URL or path, written atomically; DIR/manifest.jsonl gets one line per page as it finishes "
        "(source, status ok, no-tables or failed, output, tables, reason, seconds). A killed run goes on with "
        "--resume: the pages the manifest holds are not done again. One bad page never stops the batch; the exit "
        "code is 13 when some pages failed.")
    parser.add_argument("inputs", nargs="+", metavar="INPUT",
                        help="HTML file, folder, WARC or WARC.gz file, text file of URLs, or http(s) URL")
    parser.add_argument("--out", required=True, metavar="DIR",
                        help="the batch folder (created if missing): outputs, manifest.jsonl, batch.json")
    cluster = parser.add_argument_group("the Dask cluster")
    where = cluster.add_mutually_exclusive_group()
    where.add_argument("--workers", type=_whole_number("a number of worker processes"), metavar="N",
                       help=f"worker processes of the local cluster (default: the CPUs, {os.cpu_count()})")
    where.add_argument("--scheduler", metavar="ADDRESS",
                       help="run on the Dask cluster of this scheduler (tcp://HOST:8786) instead of a local one; "
                            "the inputs and DIR must be on a file system every worker shares")
    cluster.add_argument("--worker-memory", type=_mebibytes, metavar="MB",
                         help="memory limit of each local worker process in MiB (default 2048 when pages run in "
                              "isolated processes, else a share of the machine's memory); a worker over it is "
                              "restarted and its task run again")
    cluster.add_argument("--chunk-pages", type=_whole_number("a number of pages"), default=16, metavar="N",
                         help="most pages in one task (default 16)")
    parser.add_argument("--resume", action="store_true",
                        help="go on with the batch DIR holds: the pages its manifest records are not done again")
    conversion_arguments(parser)
    limit_arguments(parser, worker=True)


def _whole_number(what: str) -> Callable[[str], int]:
    """An argument type: a whole number, 1 or more; else the error says what the option takes (``what``)."""

    def parse(value: str) -> int:
        try:
            number = int(value)
        except ValueError:
            number = 0
        if number < 1:
            raise argparse.ArgumentTypeError(f"takes {what}, 1 or more, not {value!r}")
        return number

    return parse


def _mebibytes(value: str) -> int:
    try:
        return _whole_number("a memory size in MiB")(value) * 2**20
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(f"takes a memory size in MiB, 1 or more (e.g. 4096), not {value!r}") from None


def _run_batch(args: argparse.Namespace) -> int:
    from ..runtime.environment import environment_allowed
    from ..wings.batch import PlainProgress, RichProgress, run_batch, summary_lines

    if args.schema and args.format != "xml":
        args.parser.error("--schema goes with --format xml")
    if args.scheduler and args.worker_memory:
        args.parser.error("--worker-memory is for the local cluster: on yours, give `dask worker --memory-limit`")
    xslt = tuple(str(Path(local_file(path, "batch --xslt", "a stylesheet")).resolve()) for path in args.xslt)
    options = PageOptions(table=args.table, names=args.names, method=args.method, format=args.format,
                          separator=separator_of(args), xslt=xslt, params=tuple(args.param), allow_io=args.allow_io,
                          schema=args.schema, limits=limits_of(args))
    param_warnings: list[str] = []
    conversion_pipeline(options, param_warnings)  # usage errors before the cluster starts
    for warning in param_warnings:
        print(f"pyxform: warning: {warning}", file=sys.stderr)
    progress = RichProgress(sys.stderr) if sys.stderr.isatty() else PlainProgress(sys.stderr)
    try:
        with environment_allowed(args.allow_io):  # the local workers inherit the switch
            stats = run_batch(args.inputs, args.out, options=options, workers=args.workers,
                              scheduler=args.scheduler, resume=args.resume, allow_private=args.allow_private,
                              worker_memory=args.worker_memory, chunk_pages=args.chunk_pages,
                              on_progress=progress.update, message=command_line_message)
    finally:
        progress.close()
    for line in summary_lines(stats, str(Path(args.out) / "manifest.jsonl")):
        print(line, file=sys.stderr)
    return EXIT_PARTIAL_FAILURE if stats.total_failed else EXIT_OK


BATCH = Command("batch", "convert folders, web archives (WARC) and URL lists on a Dask cluster, resumably",
                _batch_arguments, _run_batch,
                on_interrupt="the manifest keeps every page done; the same command with --resume goes on")
