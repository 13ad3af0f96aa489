"""Verdicts, exact match and set scores of the shape questions, and how a run records them."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from benchmarks.loaders.types import Question
from benchmarks.metrics import Outcome, answer_key, by_shape, exact_match, set_scores, summarize
from benchmarks.report import markdown
from benchmarks.runner import make_record, outcome_from_record


def outcome(gold, predictions, answer_type="entity", shape="list", abstained=False, **fields) -> Outcome:
    return Outcome(qid="q", gold=tuple(gold), predictions=tuple(predictions), abstained=abstained,
                   answer_type=answer_type, shape=shape, answerable=bool(gold), **fields)


def test_answer_keys_compare_numbers_by_value_and_yes_no_case_blind():
    assert answer_key("3", "number") == answer_key("3.0", "number") != answer_key("30", "number")
    assert exact_match("yes", ["Yes"], "yesno") and not exact_match("No", ["Yes"], "yesno")
    assert exact_match("make_a_visit", ["Make a visit"], "relation")
    assert not exact_match(None, ["3"], "number")
    assert not exact_match("jack straw", ["Jack Straw"], "entity")  # entities by the official rule


def test_set_scores():
    scores = set_scores(["Iran", "Chinas", "Japan"], ["Iran", "China"], "entity")
    assert (scores.precision, scores.recall) == pytest.approx((1 / 3, 1 / 2)) and not scores.equal
    assert scores.f1 == pytest.approx(0.4)
    assert set_scores(["China", "Iran"], ["Iran", "China"], "entity").equal
    empty = set_scores([], ["Iran"], "entity")
    assert (empty.precision, empty.recall, empty.f1, empty.equal) == (0.0, 0.0, 0.0, False)


@pytest.mark.parametrize(
    ("case", "expected"),
    [
        (outcome(["Iran", "China"], ["China", "Iran"], is_list=True), "right"),  # the same set
        (outcome(["Iran", "China"], ["China"], is_list=True), "wrong"),
        (outcome(["Iran", "China"], ["China", "Iran"], is_list=True, predicted_is_list=False), "wrong"),  # top one only
        (outcome(["Iran", "China"], ["China", "Japan"], shape="most"), "right"),  # single: top-1 in gold
        (outcome(["Iran"], ["Japan", "Iran"], shape="most"), "wrong"),
        (outcome(["2008-03"], ["2008-03-10"], answer_type="time", shape="nth", time_level="month"), "right"),
        (outcome(["3"], ["3"], answer_type="number", shape="count"), "right"),
        (outcome(["3"], ["4", "3"], answer_type="number", shape="count"), "wrong"),  # the top answer only
        (outcome(["No"], ["no"], answer_type="yesno", shape="yesno"), "right"),
        (outcome(["Consult", "Host a visit"], ["Host_a_visit", "consult"], answer_type="relation", shape="relations"), "right"),
        (outcome(["Iran"], [], abstained=True), "abstained"),
        (outcome([], [], answer_type="none", shape="unanswerable", abstained=True), "right"),
        (outcome([], ["Iran"], answer_type="none", shape="unanswerable"), "wrong"),
    ],
)
def test_verdicts(case, expected):
    assert case.verdict == expected


def test_per_shape_rates_and_mean_f1():
    outcomes = [
        outcome(["Iran", "China"], ["Iran", "China"], is_list=True),
        outcome(["Iran", "China"], ["Iran"], is_list=True),  # F1 2/3
        outcome(["Iran", "China"], [], is_list=True, abstained=True),  # F1 0
        outcome(["3"], ["3"], answer_type="number", shape="count"),
        outcome([], [], answer_type="none", shape="unanswerable", abstained=True),
    ]
    shapes = by_shape(outcomes)
    assert shapes["list"]["right"] == pytest.approx(1 / 3) and shapes["list"]["abstained"] == pytest.approx(1 / 3)
    assert shapes["list"]["set_f1"] == pytest.approx((1 + 2 / 3 + 0) / 3) and shapes["list"]["n_sets"] == 3
    assert shapes["count"]["exact_match"] == 1.0 and shapes["count"]["set_f1"] is None
    assert shapes["all"]["n"] == 5 and shapes["all"]["right"] == pytest.approx(3 / 5)
    summary = summarize(outcomes)
    assert summary["by_shape"] == shapes
    assert "## by shape" in markdown(summary)
    assert "by_shape" not in summarize([Outcome("q", ("Iran",), ("Iran",), False)])  # MultiTQ runs unchanged


@dataclass
class Result:
    answers: list[str]
    abstained: bool = False
    answer: str | None = None
    steps: list = field(default_factory=list)
    is_list: bool | None = None


def test_a_run_record_keeps_the_whole_list_and_its_verdict():
    question = Question("q1", "Which countries did Alice visit?", [f"C{i}" for i in range(12)], "entity", qtype="list",
                        extra={"shape": "list", "is_list": True})
    record = make_record(question, Result(answers=[f"C{i}" for i in range(12)], is_list=True))
    assert len(record["answers"]) == 12 and record["verdict"] == "right" and record["predicted_is_list"] is True
    assert outcome_from_record(record).verdict == "right"
    single = Question("q2", "Who visited Iran?", ["Alice"], "entity", qtype="list", extra={"shape": "list", "is_list": False})
    assert make_record(single, Result(answers=["Alice"]))["predicted_is_list"] is None  # not given: not required
    plain = make_record(Question("q3", "Who visited Iran?", ["Alice"], "entity"), Result(answers=["Alice"]))
    assert "verdict" not in plain and "shape" not in plain
