"""The search verbs: ``pyxform index``, ``pyxform search``, ``pyxform serve`` (``docs/search.md``).

Arguments and printing only; the work is in :mod:`pyxform.wings.search`, imported when a verb runs (``search`` stays
fast to start: it loads SQLite and the analyzer, never Saxon).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from .common import EXIT_OK, Command, limit_arguments, limits_of, write_output

__all__ = ["INDEX", "SEARCH", "SERVE"]


# -- index ---------------------------------------------------------------------------------------------------------
def _index_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("inputs", nargs="+", metavar="INPUT",
                        help="HTML files or folders, WARC files (.warc, .warc.gz), a crawl's folder, or pyxform XML "
                             "outputs (files or folders)")
    parser.add_argument("--out", required=True, metavar="INDEX",
                        help="the index folder (created if missing; an existing index is updated: pages already "
                             "indexed with the same content are not converted again)")
    parser.add_argument("--jobs", type=_positive, default=_default_jobs(), metavar="N",
                        help=f"worker processes converting pages at once (default {_default_jobs()}: the CPUs, at "
                             "most 4)")
    parser.add_argument("--quiet", action="store_true", help="print only the summary and the failures")
    limit_arguments(parser, worker=True)


def _default_jobs() -> int:
    return max(1, min(4, os.cpu_count() or 1))


def _positive(value: str) -> int:
    number = int(value)
    if number < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return number


def _run_index(args: argparse.Namespace) -> int:
    from ..base.errors import EXIT_PARTIAL_FAILURE
    from ..wings.search.index import build_index

    def progress(where: str, what: str) -> None:
        if not args.quiet and what in ("converted", "copied", "xml"):
            print(f"{what}: {where}", file=sys.stderr)

    report = build_index(args.out, args.inputs, limits=limits_of(args), jobs_count=args.jobs, on_page=progress)
    for failure in report.failures:
        print(f"pyxform: failed [{failure.code}]: {failure.where}: {failure.message}", file=sys.stderr)
    done = [f"{report.converted} converted"]
    if report.read_xml:
        done.append(f"{report.read_xml} read from XML outputs")
    done += [f"{report.unchanged} unchanged", f"{report.copied} copied (same content)",
             f"{len(report.failures)} failed", f"{report.no_tables} without tables"]
    if report.replaced:
        done.append(f"{report.replaced} replaced")
    if report.skipped:
        done.append(f"{report.skipped} other files skipped")
    print(f"pyxform index: {report.tables_added} tables added from {report.pages_seen} pages in "
          f"{report.seconds:.1f} s ({', '.join(done)}); {args.out} holds {report.pages} pages, {report.tables} "
          "tables", file=sys.stderr)
    return EXIT_PARTIAL_FAILURE if report.failures else EXIT_OK


# -- search --------------------------------------------------------------------------------------------------------
def _search_arguments(parser: argparse.ArgumentParser) -> None:
    from ..wings.search.rank import RANKINGS

    parser.add_argument("index", metavar="INDEX", help="the index folder (pyxform index --out)")
    parser.add_argument("query", metavar="QUERY", help="the words to search for")
    parser.add_argument("-n", type=_positive, default=10, metavar="N", help="how many results (default 10)")
    parser.add_argument("--ranking", choices=RANKINGS, default="integrative",
                        help="integrative (default): text fields + table structure + link authority; bm25: the "
                             "field-weighted text score alone; pagerank: the matching tables by their page's "
                             "PageRank")
    parser.add_argument("--format", choices=("text", "json"), default="text",
                        help='text (default): a readable list; json: {"results": [{"rank", "score", "source", '
                             '"path", "title", "table", "caption", "headers", "preview", "xpath"}, ...]}')
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", dest="settings",
                        help="a ranking parameter (docs/search.md): weight_title=8, header=0.2, depth=100, ...; "
                             "repeat for several")


def _ranking_parameters(settings: list[str]) -> Any:
    """The ranking parameters with ``NAME=VALUE`` settings applied. :raises UsageError: for a bad one."""
    from ..base.errors import UsageError
    from ..wings.search.rank import DEFAULT

    values: dict[str, Any] = {}
    for setting in settings:
        name, sep, value = setting.partition("=")
        if not sep:
            raise UsageError(f"--set takes NAME=VALUE, not {setting!r}")
        try:
            values[name.strip()] = int(value) if name.strip() == "depth" else float(value)
        except ValueError:
            raise UsageError(f"--set {name}: {value!r} is not a number") from None
    try:
        return DEFAULT.with_values(**values)
    except ValueError as error:
        raise UsageError(f"--set: {error}") from None


def _run_search(args: argparse.Namespace) -> int:
    from ..wings.search.query import EmptyIndex, Searcher

    parameters = _ranking_parameters(args.settings)
    with Searcher(args.index) as searcher:
        try:
            hits = searcher.search(args.query, n=args.n, ranking=args.ranking, parameters=parameters)
        except EmptyIndex as error:
            print(f"pyxform: {error}: {args.index} (add pages with pyxform index)", file=sys.stderr)
            hits = []
    if args.format == "json":
        write_output(json.dumps({"results": [hit.as_json() for hit in hits]}, ensure_ascii=False))
        return EXIT_OK
    if not hits:
        write_output("no table matches the query")
        return EXIT_OK
    lines = []
    for hit in hits:
        lines.append(f"{hit.rank}. {hit.title or hit.source}  (table {hit.table}, score {hit.score:.3f})")
        if hit.caption or hit.heading:
            lines.append(f"   {hit.caption or hit.heading}")
        named = [_short(header, 60) for header in hit.headers if header]
        if named:
            lines.append("   columns: " + " | ".join(named))
        for record in hit.preview:
            lines.append("   > " + " | ".join(_short(value, 60) for value in record))
        lines.append(f"   {hit.source}" + (f"  ({hit.path})" if hit.path and hit.path != hit.source else "")
                     + (f"  {hit.xpath}" if hit.xpath else ""))
    write_output("\n".join(lines))
    return EXIT_OK


def _short(text: str, width: int) -> str:
    """One line of at most ``width`` characters (an ellipsis where cut)."""
    line = " ".join(text.split())
    return line if len(line) <= width else line[:width - 1] + "…"


# -- serve ---------------------------------------------------------------------------------------------------------
def _serve_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("index", metavar="INDEX", help="the index folder (pyxform index --out)")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=_port, default=8000, help="port to listen on (default 8000; 0: any free port)")


def _port(value: str) -> int:
    number = int(value)
    if not 0 <= number <= 65535:
        raise argparse.ArgumentTypeError("a port is 0 to 65535")
    return number


def _run_serve(args: argparse.Namespace) -> int:
    from ..wings.search.serve import serve

    def listening(url: str) -> None:
        print(f"pyxform serve: searching {args.index} at {url} (Ctrl-C to stop)", file=sys.stderr, flush=True)

    serve(args.index, host=args.host, port=args.port, on_listening=listening)
    return EXIT_OK


INDEX = Command("index", "index the tables of pages for search (HTML, WARC, a crawl, XML outputs)", _index_arguments,
                _run_index, on_interrupt="the pages indexed so far are kept; the same command again goes on")
SEARCH = Command("search", "search an index for tables (integrative, bm25 or pagerank ranking)", _search_arguments,
                 _run_search)
SERVE = Command("serve", "a search page over an index, in the browser", _serve_arguments, _run_serve)
