"""The official hit rule (MultiTQ / CronQuestions): is a predicted answer in the gold set?

One implementation for the memory, which labels traces correct or wrong with it while learning, and
the benchmarks, which score runs with it. Entity names are compared in display form (underscores are
spaces); a predicted time is cut to the gold's granularity first, and a coarser prediction misses.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from ari.base.errors import UsageError
from tkg_store.temporal import Granularity, parse_time, truncate


def entity_key(name: str) -> str:
    """Display form used to compare entity names: underscores are spaces, runs of spaces collapsed."""
    return " ".join(name.replace("_", " ").split())


def _granularity(text: str, fallback: str | None) -> Granularity | None:
    try:
        return parse_time(text).granularity
    except UsageError:
        return Granularity(fallback) if fallback in ("day", "month", "year") else None


def time_matches(prediction: str, gold: str, time_level: str | None = None) -> bool:
    """A predicted time cut to the gold's granularity equals the gold (invalid times never match)."""
    granularity = _granularity(gold, time_level)
    if granularity is None:
        return prediction.strip() == gold.strip()
    try:
        return truncate(prediction, granularity) == truncate(gold, granularity)
    except UsageError:
        return False


def hit(prediction: str, gold: Iterable[str], answer_type: str, time_level: str | None = None) -> bool:
    """Whether one prediction is in the gold set by the official rule."""
    if answer_type == "time":
        return any(time_matches(prediction, g, time_level) for g in gold)
    key = entity_key(prediction)
    return any(key == entity_key(g) for g in gold)


def gold_matcher(gold: Iterable[str], answer_type: str, time_level: str | None = None) -> Callable[[str], bool]:
    """`hit` against one fixed gold set, as a function of the prediction: the gold's keys are made
    once and each prediction's verdict is kept (the program search asks about the same answers of
    one question thousands of times)."""
    gold = list(gold)
    keys = {entity_key(g) for g in gold} if answer_type != "time" else set()
    verdicts: dict[str, bool] = {}

    def matches(prediction: str) -> bool:
        verdict = verdicts.get(prediction)
        if verdict is None:
            if answer_type == "time":
                verdict = any(time_matches(prediction, g, time_level) for g in gold)
            else:
                verdict = entity_key(prediction) in keys
            verdicts[prediction] = verdict
        return verdict

    return matches


def first_hit(
    predictions: Sequence[str], gold: Iterable[str], answer_type: str, time_level: str | None, k: int
) -> int | None:
    """1-based rank of the first top-k prediction that is a hit, or None."""
    gold = list(gold)
    for rank, prediction in enumerate(predictions[:k], start=1):
        if hit(prediction, gold, answer_type, time_level):
            return rank
    return None
