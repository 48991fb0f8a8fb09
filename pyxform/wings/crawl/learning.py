"""Online learning of the link classifier: which links lead to relevant pages, learned from the crawl's own results
(after ACHE's online learning of its link classifier, and Chakrabarti, Punera & Subramanyam's "apprentice",
"Accelerated focused crawling through online relevance feedback", 2002).

Each fetched page is one example: the features of the links that led to it (their anchor, context and URL terms,
each field's terms apart) and whether the page turned out relevant. The model is a logistic regression on hashed
features, trained by stochastic gradient descent one example at a time as pages arrive (L2-regularized, with
class weights that balance relevant and irrelevant pages). Its estimate gets weight in the priority only as
evidence grows: ``confidence = min(1, min(positives, negatives) / MIN_EXAMPLES)``.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Iterable
from typing import Final

import numpy as np

__all__ = ["LinkClassifier", "MIN_EXAMPLES"]

_DIMENSIONS: Final = 1 << 18
#: Examples of each class (relevant, irrelevant) after which the classifier's estimate has its full weight.
MIN_EXAMPLES: Final = 10
_RATE: Final = 0.2
_L2: Final = 1e-4


def _hash(feature: str) -> int:
    return zlib.crc32(feature.encode("utf-8")) & (_DIMENSIONS - 1)


class LinkClassifier:
    """A logistic regression over hashed link features, updated one fetched page at a time."""

    def __init__(self) -> None:
        self.weights = np.zeros(_DIMENSIONS)
        self.bias = 0.0
        self.positives = 0
        self.negatives = 0

    @staticmethod
    def features(anchor: Iterable[str], context: Iterable[str], url: Iterable[str]) -> np.ndarray:
        """The hashed feature ids of a link (each distinct term of each field once, prefixed by its field)."""
        names = {"a:" + t for t in anchor} | {"c:" + t for t in context} | {"u:" + t for t in url}
        return np.fromiter((_hash(name) for name in names), dtype=np.int64, count=len(names))

    @property
    def confidence(self) -> float:
        """How much the estimate is trusted, 0..1 (the module docstring)."""
        return min(1.0, min(self.positives, self.negatives) / MIN_EXAMPLES)

    def predict(self, features: np.ndarray) -> float:
        """The estimated probability (0..1) that a link with these features leads to a relevant page."""
        z = self.bias + float(self.weights[features].sum()) / math.sqrt(max(1, len(features)))
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))

    def learn(self, features: np.ndarray, relevant: bool) -> None:
        """One SGD step on one example (a fetched page and the features of the links that led to it)."""
        if relevant:
            self.positives += 1
        else:
            self.negatives += 1
        # class weights: each class counts as much as the other, whatever their shares
        total = self.positives + self.negatives
        weight = total / (2.0 * (self.positives if relevant else self.negatives))
        error = (1.0 if relevant else 0.0) - self.predict(features)
        scale = math.sqrt(max(1, len(features)))
        step = _RATE * weight * error
        if len(features):
            self.weights[features] *= 1 - _RATE * _L2
            np.add.at(self.weights, features, step / scale)
        self.bias += step * 0.1
