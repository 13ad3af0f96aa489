"""Benchmark metrics, by the official MultiTQ / CronQuestions rule, as pure functions.

Hits@k: a question is a hit when one of the top-k predictions is in the gold set. Entity names are
compared in display form (underscores are spaces: `Jack_Straw` == `Jack Straw`). A predicted time is
first cut to the gold answer's granularity (`2008-04-17` against gold `2008-04` compares `2008-04`);
a prediction coarser than the gold (`2008` against `2008-04`) is a miss.

Abstention: a question whose gold set is empty (or marked unanswerable) is answered correctly only
by abstaining ("No Answer"). Hits@k are measured over answerable questions only; `accuracy` counts
every question, abstaining being the right answer to an unanswerable one.

Shape questions (issue 23: counts, yes/no, lists, relations, ...) also get a verdict each, right,
wrong or abstained: an entity or time asked once is right by the hit rule at rank 1; a number or a
yes/no by exact match of the top answer; a list (or the relations between two entities) when the
predicted set equals the gold set, with precision, recall and F1 of the sets beside it; a question
the KG cannot answer is right when the agent abstains and wrong when it answers.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from functools import cached_property
from typing import Literal, TypedDict

from memory.labels import entity_key, first_hit

Verdict = Literal["right", "wrong", "abstained"]
EXACT_TYPES = ("number", "yesno")  # answer types scored by exact match of the top answer


@dataclass(frozen=True)
class Outcome:
    """What the metrics need to know about one question and the agent's output for it."""

    qid: str
    gold: tuple[str, ...]  # display form (entities) or ISO times; empty when unanswerable
    predictions: tuple[str, ...]  # ranked, display form
    abstained: bool
    answer_type: str = "entity"
    time_level: str | None = None
    qtype: str = "unknown"
    qlabel: str | None = None
    answerable: bool = True
    unanswerable_reason: str | None = None
    steps: int = 0
    llm_calls: int = 0
    tokens: int = 0
    elapsed_s: float = 0.0
    confidence: float | None = None  # None: 1 when answered, 0 when abstained
    shape: str | None = None  # shape sets only: count, yesno, list, most, relations, window, nth, unanswerable
    is_list: bool = False  # the question asks for all the answers (scored as a set)
    predicted_is_list: bool | None = None  # the agent's reading, when it says: False scores its top answer alone

    @cached_property
    def rank(self) -> int | None:
        """1-based rank of the first hit among the top 10 predictions (None: no hit, or abstained)."""
        if self.abstained:
            return None
        return first_hit(self.predictions, self.gold, self.answer_type, self.time_level, 10)

    @property
    def hit1(self) -> bool:
        return self.rank == 1

    @property
    def hit10(self) -> bool:
        return self.rank is not None

    @property
    def correct(self) -> bool:
        """Right answer to an answerable question, or an abstention on an unanswerable one."""
        return self.abstained if not self.answerable else self.hit1

    @property
    def scored_as_set(self) -> bool:
        return self.is_list or self.answer_type == "relation"

    @property
    def predicted_set(self) -> tuple[str, ...]:
        """The answers the agent gives: all of them, or its top one when it read a single-answer question."""
        return self.predictions[:1] if self.predicted_is_list is False else self.predictions

    @cached_property
    def set_scores(self) -> "SetScores":
        return set_scores(() if self.abstained else self.predicted_set, self.gold, self.answer_type)

    @property
    def verdict(self) -> Verdict:
        """right / wrong / abstained (module docstring)."""
        if self.abstained:
            return "abstained" if self.answerable else "right"
        if not self.answerable:
            return "wrong"
        if self.scored_as_set:
            right = self.set_scores.equal
        elif self.answer_type in EXACT_TYPES:
            right = exact_match(self.predictions[0] if self.predictions else None, self.gold, self.answer_type)
        else:
            right = self.hit1
        return "right" if right else "wrong"

    @property
    def score(self) -> float:
        """Confidence used to rank questions for the risk-coverage curve."""
        if self.confidence is not None:
            return float(self.confidence)
        return 0.0 if self.abstained else 1.0


def hits_at_k(
    predictions: Sequence[str], gold: Iterable[str], answer_type: str, time_level: str | None, k: int
) -> bool:
    """Whether any of the top-k predictions is a hit."""
    return first_hit(predictions, gold, answer_type, time_level, k) is not None


# -- exact and set answers ---------------------------------------------------------------------

def answer_key(text: str, answer_type: str) -> str:
    """How two answers of a type compare: entities in display form (the hit rule's key), relations
    and yes/no the same but case-blind, numbers by value ("3" == "3.0")."""
    if answer_type == "number":
        try:
            return str(Decimal(text.strip()).normalize())
        except InvalidOperation:
            return text.strip()
    key = entity_key(text)
    return key.casefold() if answer_type in ("yesno", "relation") else key


def exact_match(prediction: str | None, gold: Iterable[str], answer_type: str) -> bool:
    """Whether the (top) prediction equals a gold answer."""
    return prediction is not None and answer_key(prediction, answer_type) in {answer_key(g, answer_type) for g in gold}


@dataclass(frozen=True)
class SetScores:
    precision: float
    recall: float
    f1: float
    equal: bool  # the predicted set is the gold set


def set_scores(predicted: Iterable[str], gold: Iterable[str], answer_type: str) -> SetScores:
    """Precision, recall and F1 of a predicted answer set against the gold set (0 where undefined)."""
    mine = {answer_key(p, answer_type) for p in predicted}
    theirs = {answer_key(g, answer_type) for g in gold}
    common = len(mine & theirs)
    precision = common / len(mine) if mine else 0.0
    recall = common / len(theirs) if theirs else 0.0
    f1 = 2 * precision * recall / (precision + recall) if common else 0.0
    return SetScores(precision, recall, f1, mine == theirs)


# -- abstention ---------------------------------------------------------------------------------

def _ratio(num: int, den: int) -> float | None:
    return num / den if den else None


def abstention_metrics(outcomes: Sequence[Outcome]) -> dict[str, float | int | None]:
    """Precision, recall and F1 of abstaining, with unanswerable questions as the positive class,
    and the false-unknown rate (abstentions among answerable questions). None where undefined."""
    abstained = [o for o in outcomes if o.abstained]
    true_pos = sum(1 for o in abstained if not o.answerable)
    unanswerable = sum(1 for o in outcomes if not o.answerable)
    answerable = len(outcomes) - unanswerable
    precision = _ratio(true_pos, len(abstained))
    recall = _ratio(true_pos, unanswerable)
    if precision is None or recall is None:
        f1 = None
    else:
        f1 = 0.0 if precision + recall == 0 else 2 * precision * recall / (precision + recall)
    false_unknown = sum(1 for o in abstained if o.answerable)
    return {
        "abstained": len(abstained),
        "abstain_rate": _ratio(len(abstained), len(outcomes)),
        "abstain_precision": precision,
        "abstain_recall": recall,
        "abstain_f1": f1,
        "false_unknown_rate": _ratio(false_unknown, answerable),
    }


def risk_coverage(scores: Sequence[float], correct: Sequence[bool]) -> list[tuple[float, float]]:
    """(coverage, risk) after accepting the k most confident questions, k = 1..n.

    Questions tied on confidence have no order of their own, so within a tie the expected risk over
    every ordering is used: the tie's errors are spread evenly over it.
    """
    n = len(scores)
    if n != len(correct):
        raise ValueError("scores and correct differ in length")
    groups: dict[float, list[bool]] = defaultdict(list)
    for score, ok in zip(scores, correct):
        groups[score].append(ok)
    points: list[tuple[float, float]] = []
    accepted = 0
    errors = 0.0
    for score in sorted(groups, reverse=True):
        group = groups[score]
        group_errors = sum(1 for ok in group if not ok)
        for j in range(1, len(group) + 1):
            expected = errors + j * group_errors / len(group)
            points.append(((accepted + j) / n, expected / (accepted + j)))
        accepted += len(group)
        errors += group_errors
    return points


def aurc(points: Sequence[tuple[float, float]]) -> float | None:
    """Area under the risk-coverage curve: the mean risk over k = 1..n (lower is better)."""
    return sum(risk for _, risk in points) / len(points) if points else None


def sample_curve(points: Sequence[tuple[float, float]], steps: int = 20) -> list[list[float]]:
    """The curve at coverage 1/steps, 2/steps, ..., 1 (for reports)."""
    n = len(points)
    if n == 0:
        return []
    picked = sorted({max(1, math.ceil(n * i / steps)) for i in range(1, steps + 1)})
    return [[round(points[k - 1][0], 4), round(points[k - 1][1], 4)] for k in picked]


# -- aggregates ---------------------------------------------------------------------------------

def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


class Hits(TypedDict):
    n: int  # answerable questions
    hits_at_1: float | None  # None when there are none
    hits_at_10: float | None


def hits(outcomes: Sequence[Outcome]) -> Hits:
    """Hits@1 and Hits@10 over the answerable questions."""
    answerable = [o for o in outcomes if o.answerable]
    return {
        "n": len(answerable),
        "hits_at_1": _mean([float(o.hit1) for o in answerable]),
        "hits_at_10": _mean([float(o.hit10) for o in answerable]),
    }


BREAKDOWNS = ("qtype", "qlabel", "answer_type", "time_level", "unanswerable_reason")


def breakdown(outcomes: Sequence[Outcome], attribute: str) -> dict[str, dict]:
    """Per value of `attribute`: question count (and answerable ones), Hits@1/10 (answerable), accuracy
    and abstention rate."""
    groups: dict[str, list[Outcome]] = defaultdict(list)
    for outcome in outcomes:
        value = getattr(outcome, attribute)
        if value is not None:
            groups[str(value)].append(outcome)
    result = {}
    for value in sorted(groups):
        group = groups[value]
        h = hits(group)
        result[value] = {
            "n": len(group),
            "n_answerable": h["n"],
            "hits_at_1": h["hits_at_1"],
            "hits_at_10": h["hits_at_10"],
            "accuracy": _mean([float(o.correct) for o in group]),
            "abstain_rate": _mean([float(o.abstained) for o in group]),
        }
    return result


def verdicts(outcomes: Sequence[Outcome]) -> dict[str, float | int | None]:
    """Rates of right, wrong and abstained; exact match over the number and yes/no questions; mean
    precision, recall and F1 over the set-scored ones (an abstention scores 0). None where undefined."""
    exact = [o for o in outcomes if o.answerable and o.answer_type in EXACT_TYPES and not o.scored_as_set]
    sets = [o.set_scores for o in outcomes if o.answerable and o.scored_as_set]
    return {
        "n": len(outcomes),
        "right": _mean([float(o.verdict == "right") for o in outcomes]),
        "wrong": _mean([float(o.verdict == "wrong") for o in outcomes]),
        "abstained": _mean([float(o.verdict == "abstained") for o in outcomes]),
        "exact_match": _mean([float(o.verdict == "right") for o in exact]),
        "n_sets": len(sets),
        "set_precision": _mean([s.precision for s in sets]),
        "set_recall": _mean([s.recall for s in sets]),
        "set_f1": _mean([s.f1 for s in sets]),
    }


def by_shape(outcomes: Sequence[Outcome]) -> dict[str, dict]:
    """`verdicts` over all the shape questions ("all") and per shape."""
    shaped = [o for o in outcomes if o.shape is not None]
    groups: dict[str, list[Outcome]] = defaultdict(list)
    for outcome in shaped:
        groups[str(outcome.shape)].append(outcome)
    return {"all": verdicts(shaped), **{shape: verdicts(groups[shape]) for shape in sorted(groups)}}


@dataclass
class Throughput:
    """Wall time of the run itself (all sessions of a resumed run), not the agents' own timers."""

    questions: int = 0
    wall_s: float = 0.0
    sessions: list[dict] = field(default_factory=list)


def summarize(outcomes: Sequence[Outcome], throughput: Throughput | None = None) -> dict:
    """Every metric of a run, under stable top-level keys."""
    h = hits(outcomes)
    abstention = abstention_metrics(outcomes)
    curve = risk_coverage([o.score for o in outcomes], [o.correct for o in outcomes])
    by = {attribute: breakdown(outcomes, attribute) for attribute in BREAKDOWNS}
    throughput = throughput or Throughput()
    shapes = by_shape(outcomes) if any(o.shape is not None for o in outcomes) else None
    return {
        "n": len(outcomes),
        "n_answerable": h["n"],
        "n_unanswerable": len(outcomes) - h["n"],
        "hits_at_1": h["hits_at_1"],
        "hits_at_10": h["hits_at_10"],
        "accuracy": _mean([float(o.correct) for o in outcomes]),
        "by_qtype": {k: v["hits_at_1"] for k, v in by["qtype"].items()},
        **abstention,
        "aurc": aurc(curve),
        "risk_coverage": sample_curve(curve),
        "mean_steps": _mean([float(o.steps) for o in outcomes]),
        "llm_calls_per_question": _mean([float(o.llm_calls) for o in outcomes]),
        "tokens_per_question": _mean([float(o.tokens) for o in outcomes]),
        "seconds_per_question": _mean([o.elapsed_s for o in outcomes]),
        "questions_per_second": throughput.questions / throughput.wall_s if throughput.wall_s > 0 else None,
        "breakdown": by,
        **({"by_shape": shapes} if shapes else {}),
    }
