"""Coordinate ascent over the ranking's parameters, on the tuning half of the questions only.

Each parameter in turn takes each value of its grid with the others fixed, and keeps the value with the best MRR@10
(ties keep the current value); two rounds. A field weight tries 0, half and twice its value. Field weights change
the candidates (a search per question per value);
the other parameters only re-order cached candidates. Nothing looks at the held-out half.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from pyxform.wings.search.fields import FIELD_NAMES
from pyxform.wings.search.query import Searcher
from pyxform.wings.search.rank import DEFAULT, Parameters, rank

from .corpus import Question
from .metrics import reciprocal_rank

GRIDS: dict[str, tuple[float, ...]] = {
    "phrase": (0.0, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0),
    "header": (0.0, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 1.5),
    "key": (0.0, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0),
    "shape": (0.0, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 1.5),
    "shape_rows": (1.0, 2.0, 5.0, 10.0, 20.0, 50.0),
    "no_header": (0.0, 0.25, 0.5, 0.75, 1.0),
    "nested": (0.0, 0.25, 0.5, 0.75, 1.0),
    "authority": (0.0, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2),
    "authority_k": (0.25, 0.5, 1.0, 2.0, 4.0),
}


def _candidates(searcher: Searcher, items: list[Question], parameters: Parameters) -> list[tuple]:
    out = []
    for q in items:
        _, weights, candidates = searcher.candidates(q.text, parameters=parameters, phrases=True)
        out.append((q, weights, candidates))
    return out


def _mrr(cached: list[tuple], parameters: Parameters) -> float:
    total = 0.0
    for q, weights, candidates in cached:
        ranked = rank(candidates, weights, parameters)[:10]
        found = [(Path(c.order[0]).stem, c.order[1]) for _, c in ranked]
        total += reciprocal_rank(found.index((q.page, q.table)) + 1 if (q.page, q.table) in found else None)
    return total / max(1, len(cached))


def tune(searcher: Searcher, items: list[Question], start: Parameters = DEFAULT, rounds: int = 2) -> Parameters:
    best = start
    cached = _candidates(searcher, items, best)
    score = _mrr(cached, best)
    print(f"start: MRR@10 {score:.4f}", flush=True)
    for round_number in range(rounds):
        for name in FIELD_NAMES:
            current = best.weights[name]
            for value in sorted({0.0, current / 2, current * 2} - {current}):
                trial = best.with_values(**{f"weight_{name}": value})
                if not any(trial.weights.values()):
                    continue
                trial_cached = _candidates(searcher, items, trial)
                trial_score = _mrr(trial_cached, trial)
                if trial_score > score + 1e-9:
                    best, score, cached = trial, trial_score, trial_cached
            print(f"round {round_number + 1}, weight {name} = {best.weights[name]}: MRR@10 {score:.4f}", flush=True)
        for name, grid in GRIDS.items():
            for value in grid:
                if value == getattr(best, name):
                    continue
                trial = replace(best, **{name: value})
                trial_score = _mrr(cached, trial)
                if trial_score > score + 1e-9:
                    best, score = trial, trial_score
            print(f"round {round_number + 1}, {name} = {getattr(best, name)}: MRR@10 {score:.4f}", flush=True)
    return best
