"""make-unanswerable's kinds with answerable twins, on a small KG ingested here: each rewrite has
no fact that answers it, each twin has the facts its gold answers come from."""

from __future__ import annotations

import json
import random

import pytest
from bench_support import build_store

from benchmarks.loaders import get_loader
from benchmarks.loaders.types import Question
from benchmarks.unanswerable import MentionFinder, build
from benchmarks.unanswerable_twins import TwinMaker, possessor
from tkg_store.store import TKGStore
from tkg_store.temporal import parse_time

FACTS = [
    ("Barack_Obama", "Make_a_visit", "China", "2009-11-15"),
    ("Angela_Merkel", "Make_a_visit", "China", "2009-11-20"),
    ("Jack_Straw", "Make_a_visit", "China", "2010-03-03"),
    ("Japan", "Criticize_or_denounce", "China", "2009-12-05"),
    ("Japan", "Criticize_or_denounce", "China", "2010-02-10"),
    ("Barack_Obama", "Make_a_visit", "Kenya", "2006-08-26"),
    ("Barack_Obama", "Make_a_visit", "Kenya", "2008-01-03"),
    ("Barack_Obama", "Criticize_or_denounce", "Japan", "2008-05-05"),
]
QUESTIONS = [
    {"quid": 1, "question": "Who visited China in November 2009?", "answers": ["Barack Obama", "Angela Merkel"],
     "answer_type": "entity", "time_level": "month", "qtype": "equal", "qlabel": "Single"},
    {"quid": 2, "question": "When did Barack Obama visit China?", "answers": ["2009-11-15"],
     "answer_type": "time", "time_level": "day", "qtype": "equal", "qlabel": "Single"},
]


@pytest.fixture()
def kg(tmp_path):
    db = build_store(tmp_path / "kg.duckdb", FACTS)
    qfile = tmp_path / "q.json"
    qfile.write_text(json.dumps(QUESTIONS), encoding="utf-8")
    return db, get_loader("multitq").load(qfile).questions


def test_no_event_time_moves_to_a_month_without_the_event_and_its_twin_to_one_with_it(kg):
    db, questions = kg
    with TKGStore.open(db) as store:
        made = TwinMaker(store, MentionFinder(store), random.Random(0)).make("no_event_time", questions[0])
        (text, gold, detail), (twin, twin_gold) = made
        (empty,) = [m for m in ("2009-12", "2010-02") if m in _iso(text)]
        assert store.facts(relation="Make_a_visit", tail="China", within=parse_time(empty)) == []
        assert store.facts(tail="China", within=parse_time(empty)) != []  # China is in the news that month
        assert "2010-03" in _iso(twin) and twin_gold == ["Jack Straw"]
        assert gold == [] and "Make_a_visit" in detail


def test_no_event_pair_swaps_in_an_entity_never_linked_by_the_relation(kg):
    db, questions = kg
    with TKGStore.open(db) as store:
        made = TwinMaker(store, MentionFinder(store), random.Random(0), min_degree=1).make("no_event_pair", questions[1])
        (text, gold, _), (twin, twin_gold) = made
        assert text == "When did Barack Obama visit Japan?" and gold == []
        assert twin == "When did Barack Obama visit Kenya?" and twin_gold == ["2006-08-26", "2008-01-03"]


def test_build_writes_each_rewrite_beside_its_answerable_twin(kg, tmp_path):
    db, questions = kg
    out = tmp_path / "twins.json"
    build(questions, db, out, per_kind=1, seed=0, kinds=("unreadable_time", "not_a_question"))
    records = {r["quid"]: r for r in json.loads(out.read_text())}
    assert set(records) == {"1-unreadable_time", "1-unreadable_time-twin", "2-not_a_question", "2-not_a_question-twin"}
    assert records["1-unreadable_time"]["answerable"] is False and records["1-unreadable_time"]["answers"] == []
    assert "November 2009" not in records["1-unreadable_time"]["question"]
    assert records["1-unreadable_time-twin"]["question"] == QUESTIONS[0]["question"]
    assert records["1-unreadable_time-twin"]["answerable"] is True
    assert records["2-not_a_question"]["question"] in ("Barack Obama", "Barack Obama visit China", "Did Barack Obama visit China?")


def test_not_a_question_wordings_are_no_questions_and_no_search_queries(kg, tmp_path):
    # "the first to visit China" (left of "Who was the first to visit China?") is a search-box query for
    # the first visitor, not a fragment; "When did X visit Y?" gives the yes/no question "Did X visit Y?"
    db, questions = kg
    first = Question(qid="4", text="Who was the first to visit China?", answers=["Barack Obama"], answer_type="entity")
    with TKGStore.open(db) as store:
        seen = set()
        for seed in range(20):
            maker = TwinMaker(store, MentionFinder(store), random.Random(seed))
            seen |= {maker.make("not_a_question", q)[0][0] for q in (first, questions[1])}
    assert "the first to visit China" not in seen and "Did Barack Obama visit China?" in seen


def _iso(text: str) -> str:
    """The text with its month names as ISO months, so a test can look for "2010-03" in any wording."""
    from agents.analysis.times import read_times

    return " ".join(str(m.time)[:7] for m in read_times(text).found)


def test_a_name_written_as_the_possessor_of_another_is_not_rewritten(kg, tmp_path):
    # "the government of Japan" is not Japan: a twin labelled from Japan's facts would misread it
    db, _ = kg
    qfile = tmp_path / "of.json"
    qfile.write_text(json.dumps([
        {"quid": 3, "question": "When did the government of Japan criticise China?", "answers": ["2009-12-05"],
         "answer_type": "time", "time_level": "day", "qtype": "equal", "qlabel": "Single"},
        {"quid": 4, "question": "When did Japan criticise China?", "answers": ["2009-12-05"],
         "answer_type": "time", "time_level": "day", "qtype": "equal", "qlabel": "Single"},
    ]), encoding="utf-8")
    possessed, plain = get_loader("multitq").load(qfile).questions
    with TKGStore.open(db) as store:
        maker = TwinMaker(store, MentionFinder(store), random.Random(0), min_degree=1)
        assert [m.text for m in MentionFinder(store).find(possessed.text)] == ["Japan", "China"]
        assert possessor(possessed.text, MentionFinder(store).find(possessed.text)[0])
        assert maker.make("no_event_pair", possessed) is None
        assert not possessor(plain.text, MentionFinder(store).find(plain.text)[0])


def test_a_question_whose_gold_facts_reverse_its_wording_is_not_rewritten(kg):
    # "When did China visit Barack Obama?" labelled from "Barack Obama visited China": a twin would
    # ask what no fact states
    db, _ = kg
    reversed_gold = Question(qid="5", text="When did China visit Barack Obama?", answers=["2009-11-15"], answer_type="time", qtype="equal")
    with TKGStore.open(db) as store:
        maker = TwinMaker(store, MentionFinder(store), random.Random(0), min_degree=1)
        assert maker.make("no_event_pair", reversed_gold) is None
        as_worded = Question(qid="6", text="When did Barack Obama visit China?", answers=["2009-11-15"], answer_type="time", qtype="equal")
        assert maker.make("no_event_pair", as_worded) is not None


def test_a_source_question_whose_gold_is_no_answer_to_its_wording_is_no_twin(kg):
    # unreadable_time / not_a_question keep the source question and its gold as the twin: a gold
    # taken from a reversed fact, or linked by no fact to the question's name, labels it wrongly
    db, _ = kg
    reversed_gold = Question(qid="7", text="Which country did China criticise in December 2009?", answers=["Japan"],
                             answer_type="entity", qtype="equal", time_level="month")
    unlinked_gold = Question(qid="8", text="Who visited China in November 2009?", answers=["Jack Straw"],
                             answer_type="entity", qtype="equal", time_level="month")
    as_worded = Question(qid="9", text="Who visited China in November 2009?", answers=["Barack Obama"],
                         answer_type="entity", qtype="equal", time_level="month")
    with TKGStore.open(db) as store:
        maker = TwinMaker(store, MentionFinder(store), random.Random(0), min_degree=1)
        for kind in ("unreadable_time", "not_a_question"):
            assert maker.make(kind, reversed_gold) is None
            assert maker.make(kind, unlinked_gold) is None
            assert maker.make(kind, as_worded) is not None
