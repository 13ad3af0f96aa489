"""A learned calibration: how likely a reading is right, from independent signals of it.

A logistic regression over a reading's signals, its weights and cut-off a data file written by the script that fits
them (for the relation reading, `benchmarks/relation_calibration.py`, on learning material only). A reading is in
doubt when it is more likely wrong than right by the signals (the probability below the cut-off), whatever one
source's own score says: a confident lexicon can be confidently wrong about a wording it never learned.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Calibration:
    """P(reading right | signals) = logistic(weights . signals + intercept); in doubt below `cut_off`."""

    signals: tuple[str, ...]
    weights: tuple[float, ...]
    intercept: float
    cut_off: float

    @classmethod
    def load(cls, path: Path) -> Calibration:
        data = json.loads(path.read_text(encoding="utf-8"))
        return cls(tuple(data["signals"]), tuple(data["weights"]), float(data["intercept"]), float(data["cut_off"]))

    def probability(self, signals: list[float]) -> float:
        """The probability that the reading is right."""
        z = self.intercept + sum(w * s for w, s in zip(self.weights, signals, strict=True))
        return 1.0 / (1.0 + math.exp(-z))

    def doubts(self, signals: list[float]) -> bool:
        """Whether the reading is more likely wrong than the cut-off allows."""
        return self.probability(signals) < self.cut_off
