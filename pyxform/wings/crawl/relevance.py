"""Topic relevance of a text: BM25F (Robertson & Zaragoza, "The probabilistic relevance framework: BM25 and
beyond", 2009), normalized to 0..1, with document statistics gathered as the crawl goes.

The topic is a query: its terms (``text.terms``: stop words out, Snowball-stemmed) with their counts ``q_t``. For a
text made of fields ``f`` (a page: ``title`` and ``body``; a link: its ``anchor`` alone, its ``context`` alone, its
URL's words alone), each of weight ``w_f``, length ``len_f`` (terms) and average length ``avg_f`` over what was seen::

    tf'_t  = sum_f  w_f * tf_{t,f} / (1 - b + b * len_f / avg_f)
    idf_t  = min(IDF_CAP, ln(1 + (N + N0 - df_t + 0.5) / (df_t + 0.5)))
    score  = sum_t q_t * idf_t * tf'_t / (k1 + tf'_t)  /  sum_t q_t * idf_t

``N`` pages fetched so far, ``df_t`` of them hold ``t``; ``N0`` pseudo-pages without any topic term keep the weights
sane while few pages are known (all terms weigh the same at the start); ``IDF_CAP`` keeps one term that no page has
(yet) from outweighing the rest. The score is the share of the topic's weighted terms that the text holds, each
saturating with its count: 0 (none) .. 1 (all, many times).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Final

from .text import terms

__all__ = ["Topic", "K1", "B", "N0", "IDF_CAP", "PAGE_FIELDS"]

K1: Final = 1.2
B: Final = 0.75
N0: Final = 20
IDF_CAP: Final = 3.0
#: The fields of a page and their weights (the title says what the page is about more than any line of its body).
PAGE_FIELDS: Final = {"title": 3.0, "body": 1.0}


class Topic:
    """The topic as a BM25F query, with the statistics of the pages and links seen so far.

    :param text: the topic's description.
    :raises ValueError: the text has no term (only stop words, numbers or punctuation).
    """

    def __init__(self, text: str) -> None:
        self.query: Counter[str] = Counter(terms(text))
        if not self.query:
            raise ValueError(f"the topic {text!r} has no word to look for (only stop words, numbers or punctuation)")
        self.pages = 0
        self.df: Counter[str] = Counter()  # over the query's terms only: nothing else is ever weighted
        self._lengths: dict[str, list[float]] = {}  # field -> [total length, count]
        self._idf: dict[str, float] | None = None

    # -- statistics ------------------------------------------------------------------------------------------
    def add_page(self, fields: Mapping[str, list[str]]) -> None:
        """Count a fetched page in the document statistics (``df``, ``N``, the fields' average lengths)."""
        self.pages += 1
        present = set().union(*fields.values()) if fields else set()
        for term in self.query:
            if term in present:
                self.df[term] += 1
        for name, field_terms in fields.items():
            self.observe_length(name, len(field_terms))
        self._idf = None

    def restore_page(self, present: Iterable[str], lengths: Mapping[str, int]) -> None:
        """Count a page of an earlier run (resume) from what was stored of it: the query terms it holds and its
        fields' lengths."""
        self.pages += 1
        for term in set(present) & self.query.keys():
            self.df[term] += 1
        for name, length in lengths.items():
            self.observe_length(name, length)
        self._idf = None

    def observe_length(self, field: str, length: int) -> None:
        """Count one text of ``field`` (``anchor``, ``context``, ``url``, ...) in its average length."""
        total = self._lengths.setdefault(field, [0.0, 0.0])
        total[0] += length
        total[1] += 1

    def average_length(self, field: str) -> float:
        total = self._lengths.get(field)
        return total[0] / total[1] if total and total[1] and total[0] else 1.0

    def idf(self) -> dict[str, float]:
        """``idf_t`` of each query term (the module docstring)."""
        if self._idf is None:
            n = self.pages + N0
            self._idf = {t: min(IDF_CAP, math.log(1 + (n - self.df[t] + 0.5) / (self.df[t] + 0.5)))
                         for t in self.query}
        return self._idf

    # -- scores --------------------------------------------------------------------------------------------------
    def score(self, fields: Mapping[str, Iterable[str]], weights: Mapping[str, float] | None = None) -> float:
        """The normalized BM25F score (0..1) of a text given as its fields' terms.

        :param fields: field name -> the field's terms (``text.terms``).
        :param weights: field name -> ``w_f`` (default 1 each).
        """
        idf = self.idf()
        tf: dict[str, float] = {}
        for name, field_terms in fields.items():
            counts = Counter(t for t in field_terms if t in self.query)
            if not counts:
                continue
            length = sum(1 for _ in field_terms) if not isinstance(field_terms, list) else len(field_terms)
            norm = 1 - B + B * length / self.average_length(name)
            weight = (weights or {}).get(name, 1.0)
            for term, count in counts.items():
                tf[term] = tf.get(term, 0.0) + weight * count / norm
        total = sum(q * idf[t] for t, q in self.query.items())
        if total <= 0:
            return 0.0
        return sum(self.query[t] * idf[t] * v / (K1 + v) for t, v in tf.items()) / total

    def page_score(self, title: list[str], body: list[str]) -> float:
        """A page's relevance: :meth:`score` over its ``title`` and ``body`` fields (:data:`PAGE_FIELDS`)."""
        return self.score({"title": title, "body": body}, PAGE_FIELDS)

    def field_score(self, field: str, field_terms: list[str]) -> float:
        """The relevance of one short text (an anchor, a link's context, a URL's words)."""
        return self.score({field: field_terms})
