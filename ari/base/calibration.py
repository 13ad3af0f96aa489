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

import numpy as np

UNSURE_MARGIN, UNSURE_FLOOR = 0.02, 0.25  # see kind_unclear (chosen by benchmarks/unsure_thresholds.py)
CLEAR_COSINE, CLEAR_MARGIN, RIVAL_SHARE = 0.4, 0.1, 0.7  # see clearly_elsewhere (benchmarks/verb_bench.py)
# the signals of a relation reading (`reading_signals`), in the order the weights are written
RELATION_SIGNALS = ("first score", "log lead over another group", "log candidates", "cosine to first", "cosine short of closest", "verb phrase agrees", "unknown share")


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


def reading_signals(scores: list[float], groups: list[str], sims: np.ndarray | None, agrees: float, unknown: float) -> list[float]:
    """A relation reading's `RELATION_SIGNALS` from its ranked candidates' `scores` (best first, in [0, 1]) and kinds of act
    (`groups`), the verb phrase's cosines to the first few (`sims`), whether the verb phrase alone reads the first's kind
    (`agrees`: 1, 0, or 0.5 for no reading) and the share of its words no table knows: independent sources that a
    confident score alone hides (the lead is over the best candidate of another kind: a near kin is no rival)."""
    other = max((s for s, g in zip(scores[1:], groups[1:]) if g != groups[0]), default=0.0)
    near = [float(sims[0]), float(sims.max() - sims[0])] if sims is not None else [0.0, 0.0]
    return [scores[0], math.log((scores[0] + 1e-3) / (other + 1e-3)), math.log(len(scores)), *near, agrees, unknown]


def clearly_elsewhere(scores: list[float], groups: list[str], sims: np.ndarray | None, weak: float) -> int | None:
    """The candidate of another kind of act (CAMEO group) than a weak first reading's (score under `weak`) that the verb phrase
    is clearly closest to of the first few (`sims`: CLEAR_COSINE, CLEAR_MARGIN above the first's) though scored far below the
    first (a near rival, RIVAL_SHARE, is left to the programs and facts); None for none."""
    if sims is None or scores[0] >= weak:
        return None
    best = int(np.argmax(sims))
    if sims[best] < CLEAR_COSINE or sims[best] - sims[0] < CLEAR_MARGIN or scores[best] >= RIVAL_SHARE * scores[0]:
        return None
    return None if groups[best] == groups[0] else best


def kind_unclear(sims: np.ndarray, alike: list[bool]) -> int | None:
    """None where the verb phrase is clearly of the first relation's kind: its best cosine to a candidate `alike` the first
    (of its group, or sharing a name word) is UNSURE_FLOOR or more and UNSURE_MARGIN above every other's; else the index
    of the closest other candidate (-1 for none)."""
    same = max(s for s, one in zip(sims, alike) if one)
    other = max(((s, k) for k, (s, one) in enumerate(zip(sims, alike)) if not one), default=None)
    if same >= UNSURE_FLOOR and (other is None or same - other[0] >= UNSURE_MARGIN):
        return None
    return -1 if other is None else other[1]
