"""The analyzer: text -> index terms, the one place where documents and queries are tokenized and stemmed.

Every field of the index and every query goes through :func:`analyze`, so a term found in a query is spelled as the
index spells it. Rule: Unicode NFKD with combining marks removed (``Beyoncé`` -> ``beyonce``), case folded, split into
runs of letters and digits (Unicode ``\\w`` less ``_``), each run stemmed with the Snowball English stemmer (Porter 2,
from PyStemmer: ``albums`` -> ``album``, ``released`` -> ``releas``). Numbers stay terms (``2010``). No stop list:
BM25's inverse document frequency weighs common words down, and a stop list would drop words that name columns
(``no.``, ``to``, ``for``).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Final

__all__ = ["analyze", "analyze_all", "fold", "MAX_TERM_LENGTH", "WORD"]

#: Longer runs (base64 blobs, hashes, glued URLs) are dropped: no query names them, and they bloat the index.
MAX_TERM_LENGTH: Final = 40

#: A word: a run of letters and digits (Unicode ``\\w`` less ``_``).
WORD: Final = re.compile(r"[^\W_]+")


@lru_cache(maxsize=1)
def _stemmer():  # type: ignore[no-untyped-def]
    import Stemmer  # PyStemmer: Snowball stemmers in C

    stemmer = Stemmer.Stemmer("english")
    stemmer.maxCacheSize = 100_000
    return stemmer


def fold(text: str) -> str:
    """Case-folded, combining marks removed (``Päijänne`` -> ``paijanne``): the analyzer's first step."""
    if text.isascii():
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()


def analyze(text: str | None) -> list[str]:
    """The index terms of ``text``, in order (repeats kept: term frequency counts them).

    :param text: any text, ``None`` as empty.
    :returns: stemmed, case-folded terms of at most :data:`MAX_TERM_LENGTH` characters.
    """
    if not text:
        return []
    words = [word for word in WORD.findall(fold(text)) if len(word) <= MAX_TERM_LENGTH]
    return _stemmer().stemWords(words) if words else []


def analyze_all(texts: list[str]) -> list[str]:
    """The terms of several texts, concatenated (one field made of many cells)."""
    return analyze("\n".join(texts))
