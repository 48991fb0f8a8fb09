"""The integrative ranking: a field-weighted text score, structure signals of the table and a link authority prior,
combined into one score per table (``docs/search.md`` "Ranking" gives the formula and every parameter).

    score(q, t) = text(q, t)                      BM25F-style text score, divided by the best candidate's
                + phrase · phrases(q, t)          adjacent query terms found as a phrase in t (IDF-weighted share)
                + header · names(q, t)            query terms that name a column of t (IDF-weighted share)
                + key · subject(q, t)             query terms found in t's key column (IDF-weighted share)
                + shape · rows(t) / (rows(t) + shape_rows) · (1 if t has a header row else no_header)
                        · (nested if t sits in another table else 1)
                + authority · s / (s + authority_k),    s = PageRank(page of t) × pages in the index

The text score is SQLite FTS5's ``bm25()`` with one weight per field (weighted term frequencies summed over the
fields, one saturation and one length normalization per table: Robertson, Zaragoza & Taylor, "Simple BM25 extension
to multiple weighted fields", CIKM 2004, with FTS5's k1 = 1.2, b = 0.75). Only the ``depth`` best tables by text are
ranked; the other terms re-order them. The phrase term is the ordered-window feature of Metzler & Croft's sequential
dependence model ("A Markov random field model for term dependencies", SIGIR 2005) as a share. The saturating
transform of PageRank is Craswell, Robertson, Zaragoza & Taylor, "Relevance weighting for query independent
evidence", SIGIR 2005, section 3 (w · S / (S + k)).

This module is pure: it scores candidates that :mod:`.query` fetched; nothing here reads the index.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any, Final, Literal

from .fields import FIELD_NAMES

__all__ = ["Parameters", "DEFAULT", "Candidate", "Query", "RANKINGS", "PAIR_MIN_IDF", "idf", "term_share",
           "shape_prior", "authority_prior", "score", "rank"]

Ranking = Literal["integrative", "bm25", "pagerank"]
#: The rankings ``search --ranking`` offers.
RANKINGS: Final[tuple[str, ...]] = ("integrative", "bm25", "pagerank")


def _default_weights() -> dict[str, float]:
    return {"title": 8.0, "url": 8.0, "heading": 8.0, "caption": 1.5, "headers": 16.0, "rowheaders": 2.0,
            "cells": 1.0}


@dataclass(frozen=True)
class Parameters:
    """Every parameter of the ranking (``docs/search.md`` "Ranking"). Defaults: tuned on the tuning half of the
    development questions only (``python -m bench.search_eval --tune``).

    :ivar weights: the weight of each field in the text score (:data:`~pyxform.wings.search.fields.FIELD_NAMES`).
    :ivar depth: how many tables, best by text score, are ranked.
    :ivar phrase: weight of the share of the query's adjacent term pairs found as phrases in the table.
    :ivar header: weight of the share of the query's terms that name a column (its IDF-weighted share).
    :ivar key: weight of the share of the query's terms found in the table's key column.
    :ivar shape: weight of the table shape prior.
    :ivar shape_rows: the number of records at which the shape prior reaches half its weight.
    :ivar no_header: the shape prior's factor for a table without a header row (0 to 1).
    :ivar nested: the shape prior's factor for a table inside another table's cell (0 to 1).
    :ivar authority: weight of the link authority prior.
    :ivar authority_k: the PageRank (as a multiple of the mean PageRank) at which the prior reaches half its weight.
    """

    weights: Mapping[str, float] = field(default_factory=_default_weights)
    depth: int = 100
    phrase: float = 1.0
    header: float = 0.75
    key: float = 0.1
    shape: float = 0.75
    shape_rows: float = 2.0
    no_header: float = 0.5
    nested: float = 0.5
    authority: float = 0.0
    authority_k: float = 1.0

    def __post_init__(self) -> None:
        unknown = sorted(set(self.weights) - set(FIELD_NAMES))
        if unknown:
            raise ValueError(f"unknown field(s) {', '.join(unknown)}: the fields are {', '.join(FIELD_NAMES)}")
        object.__setattr__(self, "weights", {name: float(self.weights.get(name, 0.0)) for name in FIELD_NAMES})
        if any(weight < 0 for weight in self.weights.values()) or not any(self.weights.values()):
            raise ValueError("field weights are >= 0 and at least one is > 0")
        if self.depth < 1:
            raise ValueError(f"depth must be >= 1, not {self.depth}")
        for name in ("phrase", "header", "key", "shape", "authority"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be >= 0, not {getattr(self, name)}")
        for name in ("shape_rows", "authority_k"):
            if getattr(self, name) <= 0:
                raise ValueError(f"{name} must be > 0, not {getattr(self, name)}")
        for name in ("no_header", "nested"):
            if not 0 <= getattr(self, name) <= 1:
                raise ValueError(f"{name} must be between 0 and 1, not {getattr(self, name)}")

    def with_values(self, **values: float | int | Mapping[str, float]) -> Parameters:
        """A copy with some parameters changed; a field's weight as ``weight_NAME=W`` (or ``weights={...}``)."""
        weights = dict(self.weights)
        rest: dict[str, object] = {}
        for name, value in values.items():
            if name.startswith("weight_"):
                weights[name[len("weight_"):]] = float(value)  # type: ignore[arg-type]
            elif name == "weights":
                weights.update(value)  # type: ignore[arg-type]
            elif name in {f.name for f in fields(self)}:
                rest[name] = value
            else:
                raise ValueError(f"unknown ranking parameter {name!r}")
        return replace(self, weights=weights, **rest)  # type: ignore[arg-type]


DEFAULT: Final = Parameters()


@dataclass(frozen=True)
class Candidate:
    """One table to rank, with what the ranking reads (all stored at index time).

    :ivar id: the table's row in the index; ``order``: a stable tie-break (page identity, table index).
    :ivar text: the raw text score (higher is better; FTS5's ``-bm25()``).
    :ivar header_terms, key_terms: the table's analyzed header terms and key column terms (sets).
    :ivar phrases: the query's adjacent term pairs that occur as phrases in the table.
    :ivar records: how many records; ``header_rows``: k; ``depth``: tables it sits in.
    :ivar pagerank: its page's PageRank (the scores of all pages sum to 1); ``pages``: pages in the index.
    """

    id: int
    order: tuple[str, int]
    text: float
    header_terms: frozenset[str]
    key_terms: frozenset[str]
    phrases: frozenset[tuple[str, str]]
    records: int
    header_rows: int
    depth: int
    pagerank: float
    pages: int


#: A pair of adjacent query terms counts for the phrase term only when both terms have at least this IDF (each is
#: in at most about 37% of the tables): a pair of common words ("of the") says little and is costly to look up.
PAIR_MIN_IDF: Final = 1.0


@dataclass(frozen=True)
class Query:
    """A query as the ranking reads it: each distinct term with its IDF, and each distinct pair of adjacent terms
    with its weight (the smaller IDF of the two; only pairs whose terms both have an IDF of at least
    :data:`PAIR_MIN_IDF`)."""

    terms: Mapping[str, float]
    pairs: Mapping[tuple[str, str], float] = field(default_factory=dict)

    @classmethod
    def of(cls, sequence: Sequence[str], idfs: Mapping[str, float]) -> Query:
        """From the analyzed terms in query order and each term's IDF."""
        pairs: dict[tuple[str, str], float] = {}
        for a, b in zip(sequence, sequence[1:]):
            weight = min(idfs.get(a, 0.0), idfs.get(b, 0.0))
            if a != b and weight >= PAIR_MIN_IDF:
                pairs.setdefault((a, b), weight)
        return cls({term: idfs.get(term, 0.0) for term in dict.fromkeys(sequence)}, pairs)


def idf(documents: int, containing: int) -> float:
    """BM25's inverse document frequency, kept positive: ln(1 + (N - n + 0.5) / (n + 0.5))."""
    return math.log(1.0 + (documents - containing + 0.5) / (containing + 0.5))


def term_share(query: Mapping[Any, float], terms: frozenset[Any]) -> float:
    """The weighted share of the query's terms (or pairs) that are in ``terms``: the sum of the weights of those in
    ``terms`` / the sum of all weights (0 for a query without weight)."""
    total = sum(query.values())
    if total <= 0:
        return 0.0
    return sum(weight for term, weight in query.items() if term in terms) / total


def shape_prior(candidate: Candidate, parameters: Parameters) -> float:
    """How much the table looks like a data table, from 0 to 1: rows / (rows + shape_rows), times ``no_header``
    without a header row and ``nested`` inside another table."""
    value = candidate.records / (candidate.records + parameters.shape_rows)
    if candidate.header_rows == 0:
        value *= parameters.no_header
    if candidate.depth > 0:
        value *= parameters.nested
    return value


def authority_prior(candidate: Candidate, parameters: Parameters) -> float:
    """The saturating transform of PageRank, from 0 to 1: s / (s + authority_k) with s = PageRank × pages (1 for a
    page of average rank)."""
    s = candidate.pagerank * candidate.pages
    return s / (s + parameters.authority_k)


def score(candidate: Candidate, query: Query, best_text: float, parameters: Parameters) -> float:
    """The integrative score of one candidate (module docstring).

    :param query: the query's terms and pairs with their weights.
    :param best_text: the best raw text score among the candidates (the text score is divided by it).
    """
    text = candidate.text / best_text if best_text > 0 else 0.0
    return (text
            + parameters.phrase * term_share(query.pairs, candidate.phrases)
            + parameters.header * term_share(query.terms, candidate.header_terms)
            + parameters.key * term_share(query.terms, candidate.key_terms)
            + parameters.shape * shape_prior(candidate, parameters)
            + parameters.authority * authority_prior(candidate, parameters))


def rank(candidates: Sequence[Candidate], query: Query, parameters: Parameters = DEFAULT,
         ranking: str = "integrative") -> list[tuple[float, Candidate]]:
    """Order candidates, best first, with their scores.

    ``integrative``: :func:`score`. ``bm25``: the text score alone (divided by the best). ``pagerank``: the
    candidates (tables matching the query, best ``depth`` by text) by their page's PageRank, text score breaking
    ties; its score is the page's PageRank. Equal scores are ordered by page identity, then table index, so results
    are deterministic.

    :raises ValueError: for an unknown ``ranking``.
    """
    if ranking not in RANKINGS:
        raise ValueError(f"unknown ranking {ranking!r} (rankings: {', '.join(RANKINGS)})")
    best = max((candidate.text for candidate in candidates), default=0.0)
    if ranking == "bm25":
        scored = [(candidate.text / best if best > 0 else 0.0, candidate) for candidate in candidates]
        return sorted(scored, key=lambda item: (-item[0], item[1].order))
    if ranking == "pagerank":
        scored = [(candidate.pagerank, candidate) for candidate in candidates]
        return sorted(scored, key=lambda item: (-item[0], -item[1].text, item[1].order))
    scored = [(score(candidate, query, best, parameters), candidate) for candidate in candidates]
    return sorted(scored, key=lambda item: (-item[0], item[1].order))
