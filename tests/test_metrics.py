"""The official hit rule and the aggregate metrics on hand-made cases."""

from __future__ import annotations

import pytest

from benchmarks.metrics import (
    Outcome,
    Throughput,
    abstention_metrics,
    aurc,
    breakdown,
    hits_at_k,
    risk_coverage,
    summarize,
)
from memory.labels import gold_matcher, hit


def test_multi_answer_gold_hits_on_any_member():
    gold = ["China", "Sudan"]
    assert hit("Sudan", gold, "entity")
    assert hit("China", gold, "entity")
    assert not hit("Ethiopia", gold, "entity")

def test_entity_underscores_and_spaces_compare_equal():
    assert hit("Jack_Straw", ["Jack Straw"], "entity")
    assert hit("Jack Straw", ["Jack_Straw"], "entity")
    assert hit("Defense_/_Security_Ministry_(Denmark)", ["Defense / Security Ministry (Denmark)"], "entity")
    assert not hit("Jack Straws", ["Jack Straw"], "entity")
    assert not hit("jack straw", ["Jack Straw"], "entity")  # the official rule is exact

@pytest.mark.parametrize(
    ("prediction", "gold", "expected"),
    [
        ("2015-12-13", "2015-12-13", True),  # day vs day
        ("2015-12-14", "2015-12-13", False),
        ("2008-04-17", "2008-04", True),  # day cut to month
        ("2008-05-01", "2008-04", False),
        ("2008-04", "2008-04", True),
        ("2010-06-30", "2010", True),  # day cut to year
        ("2010-06", "2010", True),  # month cut to year
        ("2011-01-01", "2010", False),
        ("2008", "2008-04", False),  # coarser than the gold is a miss
        ("2008-04", "2008-04-17", False),
        ("not a time", "2008", False),
    ],
)
def test_time_prediction_is_cut_to_the_gold_granularity(prediction, gold, expected):
    assert hit(prediction, [gold], "time", None) is expected

def test_time_with_several_gold_granularities():
    assert hit("2009-11-15", ["2007", "2009-11"], "time", "month")

def test_a_gold_matcher_judges_as_hit_does_and_keeps_its_verdicts():
    """The program search's matcher (gold keys made once, verdicts kept) is the official rule."""
    cases = [
        (["Jack Straw", "Defense / Security Ministry (Denmark)"], "entity", None,
         ["Jack_Straw", "Jack Straw", "Jack Straws", "jack straw", "Defense_/_Security_Ministry_(Denmark)", "Jack_Straw"]),
        (["2007", "2009-11"], "time", "month", ["2009-11-15", "2009-12-01", "2007-03", "2007", "2006", "not a time", "2009-11-15"]),
        (["2008-04-17"], "time", None, ["2008-04", "2008-04-17", "2008"]),
    ]
    for gold, answer_type, level, predictions in cases:
        matches = gold_matcher(gold, answer_type, level)
        assert [matches(p) for p in predictions] == [hit(p, gold, answer_type, level) for p in predictions]
    assert [matches(p) for p in ("2008-04", "2008-04-17")] == [False, True]  # asked again: the same verdicts


def test_hits_at_10_looks_at_the_top_ten_only():
    preds = [f"Wrong {i}" for i in range(20)]
    preds[4] = "Jack Straw"
    assert not hits_at_k(preds, ["Jack Straw"], "entity", None, 1)
    assert hits_at_k(preds, ["Jack Straw"], "entity", None, 10)
    late = [f"Wrong {i}" for i in range(10)] + ["Jack Straw"]
    assert not hits_at_k(late, ["Jack Straw"], "entity", None, 10)

def _o(qid, answerable=True, abstained=False, preds=("A",), gold=("A",), **kw) -> Outcome:
    return Outcome(qid=qid, gold=tuple(gold) if answerable else (), predictions=tuple(preds), abstained=abstained,
                   answerable=answerable, **kw)

def test_abstention_precision_recall_f1_and_false_unknown():
    outcomes = [
        _o("1", answerable=False, abstained=True),  # true positive
        _o("2", answerable=False, abstained=True),  # true positive
        _o("3", answerable=False, abstained=False),  # missed unanswerable
        _o("4", answerable=True, abstained=True),  # false unknown
        _o("5", answerable=True),
        _o("6", answerable=True),
        _o("7", answerable=True),
        _o("8", answerable=True),
    ]
    m = abstention_metrics(outcomes)
    assert m["abstained"] == 3
    assert m["abstain_precision"] == pytest.approx(2 / 3)
    assert m["abstain_recall"] == pytest.approx(2 / 3)
    assert m["abstain_f1"] == pytest.approx(2 / 3)
    assert m["false_unknown_rate"] == pytest.approx(1 / 5)

def test_abstention_metrics_undefined_without_positives():
    m = abstention_metrics([_o("1"), _o("2")])
    assert m["abstain_precision"] is None and m["abstain_recall"] is None and m["abstain_f1"] is None
    assert m["false_unknown_rate"] == 0.0

def test_correctness_of_abstaining():
    assert _o("1", answerable=False, abstained=True).correct
    assert not _o("2", answerable=False, abstained=False).correct
    assert not _o("3", answerable=True, abstained=True).correct
    assert _o("4", preds=("B", "A"), gold=("A",)).hit10 and not _o("4", preds=("B", "A"), gold=("A",)).correct

def test_risk_coverage_and_aurc_by_hand():
    # confidences 0.9, 0.8, 0.1 with correct, wrong, correct:
    # k=1 risk 0, k=2 risk 1/2, k=3 risk 1/3 -> AURC = (0 + 1/2 + 1/3) / 3
    points = risk_coverage([0.1, 0.9, 0.8], [True, True, False])
    assert [round(c, 4) for c, _ in points] == [0.3333, 0.6667, 1.0]
    assert [r for _, r in points] == pytest.approx([0.0, 0.5, 1 / 3])
    assert aurc(points) == pytest.approx((0 + 0.5 + 1 / 3) / 3)

def test_risk_coverage_spreads_errors_evenly_over_ties():
    # two tied at 1.0 (one wrong), then one correct at 0: k=1 expected risk 1/2, k=2 1/2, k=3 1/3
    points = risk_coverage([1.0, 1.0, 0.0], [True, False, True])
    assert [r for _, r in points] == pytest.approx([0.5, 0.5, 1 / 3])
    assert aurc(points) == pytest.approx((0.5 + 0.5 + 1 / 3) / 3)
    assert aurc([]) is None

def test_default_confidence_ranks_answers_before_abstentions():
    answered_wrong = _o("1", preds=("B",))
    abstained_right = _o("2", answerable=False, abstained=True)
    assert answered_wrong.score == 1.0 and abstained_right.score == 0.0
    assert _o("3", confidence=0.25).score == 0.25

def test_breakdown_and_summary_keys():
    outcomes = [
        _o("1", qtype="equal", qlabel="Single", answer_type="entity", time_level="day", steps=2, elapsed_s=0.1),
        _o("2", qtype="equal", qlabel="Multiple", preds=("B",), steps=4, elapsed_s=0.3),
        _o("3", qtype="first_last", answer_type="time", gold=("2008",), preds=("2008-03-02",), time_level="year",
           llm_calls=2, tokens=100),
        _o("4", qtype="first_last", answerable=False, abstained=True, unanswerable_reason="time_outside_kg"),
    ]
    s = summarize(outcomes, Throughput(questions=4, wall_s=2.0))
    for key in ("n", "hits_at_1", "hits_at_10", "by_qtype", "abstain_precision", "abstain_recall",
                "false_unknown_rate", "mean_steps", "questions_per_second", "aurc", "risk_coverage"):
        assert key in s
    assert s["n"] == 4 and s["n_answerable"] == 3
    assert s["hits_at_1"] == pytest.approx(2 / 3)
    assert s["accuracy"] == pytest.approx(3 / 4)
    assert s["by_qtype"] == {"equal": 0.5, "first_last": 1.0}
    assert s["mean_steps"] == pytest.approx(6 / 4)
    assert s["llm_calls_per_question"] == pytest.approx(0.5)
    assert s["tokens_per_question"] == pytest.approx(25)
    assert s["questions_per_second"] == pytest.approx(2.0)
    assert s["abstain_precision"] == 1.0 and s["abstain_recall"] == 1.0 and s["false_unknown_rate"] == 0.0
    by_label = breakdown(outcomes, "qlabel")
    assert by_label["Single"]["hits_at_1"] == 1.0 and by_label["Multiple"]["hits_at_1"] == 0.0
    assert s["breakdown"]["time_level"]["year"]["n"] == 1
    assert s["breakdown"]["unanswerable_reason"]["time_outside_kg"]["accuracy"] == 1.0
