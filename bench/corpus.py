"""The corpus pages the benchmarks and checks read: ``../shared/corpus`` relative to the repository root."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

__all__ = ["DEFAULT_CORPUS", "corpus_pages", "add_sample_arguments", "sample_pages"]

DEFAULT_CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"


def corpus_pages(corpus: Path = DEFAULT_CORPUS, *, web: bool = True) -> list[Path]:
    """The HTML pages of ``corpus``: ``wikitables/pages/*.html``, then (with ``web``) ``web/*.html``, then
    ``misc/*.html``, each part sorted by name. Missing parts are skipped (the list may be empty)."""
    pages = sorted((corpus / "wikitables" / "pages").glob("*.html"))
    if web:
        pages += sorted((corpus / "web").glob("*.html"))
    return pages + sorted((corpus / "misc").glob("*.html"))


def add_sample_arguments(parser: argparse.ArgumentParser, *, repeat: int) -> None:
    """The options of a speed benchmark over the corpus: ``--corpus``, ``--repeat`` (rounds, the best one counts),
    ``--every`` (every Nth page) and ``--limit`` (at most N pages)."""
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--repeat", type=int, default=repeat)
    parser.add_argument("--every", type=int, default=1, help="every Nth page only")
    parser.add_argument("--limit", type=int)


def sample_pages(args: argparse.Namespace) -> list[bytes]:
    """The bytes of the pages :func:`add_sample_arguments`' options choose; an empty list (said on standard error)
    when there are none."""
    paths = corpus_pages(args.corpus)[:: args.every][: args.limit]
    if not paths:
        print(f"no pages under {args.corpus}", file=sys.stderr)
    return [path.read_bytes() for path in paths]
