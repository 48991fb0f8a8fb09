"""The corpus pages the benchmarks and checks read: ``../shared/corpus`` relative to the repository root."""

from __future__ import annotations

from pathlib import Path

__all__ = ["DEFAULT_CORPUS", "corpus_pages"]

DEFAULT_CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"


def corpus_pages(corpus: Path = DEFAULT_CORPUS, *, web: bool = True) -> list[Path]:
    """The HTML pages of ``corpus``: ``wikitables/pages/*.html``, then (with ``web``) ``web/*.html``, then
    ``misc/*.html``, each part sorted by name. Missing parts are skipped (the list may be empty)."""
    pages = sorted((corpus / "wikitables" / "pages").glob("*.html"))
    if web:
        pages += sorted((corpus / "web").glob("*.html"))
    return pages + sorted((corpus / "misc").glob("*.html"))
