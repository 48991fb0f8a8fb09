"""MRR@10 and recall@10 from the rank of each question's relevant table (``None``: not in the top 10)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


def reciprocal_rank(rank: int | None) -> float:
    return 1.0 / rank if rank is not None and rank <= 10 else 0.0


@dataclass(frozen=True)
class Scores:
    mrr: float
    recall: float
    count: int

    def line(self) -> str:
        return f"MRR@10 {self.mrr:.4f}, recall@10 {self.recall:.4f} ({self.count} questions)"


def evaluate(ranks: Sequence[int | None]) -> Scores:
    if not ranks:
        return Scores(0.0, 0.0, 0)
    return Scores(sum(reciprocal_rank(r) for r in ranks) / len(ranks),
                  sum(1 for r in ranks if r is not None and r <= 10) / len(ranks), len(ranks))
