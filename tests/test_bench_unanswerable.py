"""Unanswerable questions built from answerable ones against a real store, each labelled with why."""

from __future__ import annotations

import json
import random

import pytest
from bench_support import BruteForceSolver, build_store, question_records

from benchmarks.loaders import get_loader
from benchmarks.unanswerable import MentionFinder, build, move_time
from tkg_store.store import TKGStore


@pytest.fixture()
def source(tmp_path):
    db = build_store(tmp_path / "kg.duckdb")
    qfile = tmp_path / "q.json"
    qfile.write_text(json.dumps(question_records()), encoding="utf-8")
    return db, get_loader("multitq").load(qfile).questions


def test_labelled_unanswerable_set(source, tmp_path):
    db, questions = source
    out = tmp_path / "un.json"
    build(questions, db, out, per_kind=2, seed=3)
    records = json.loads(out.read_text())
    assert {r["unanswerable_reason"] for r in records} == {"time_outside_kg", "entity_not_in_kg", "facts_hidden"}
    assert all(r["answers"] == [] and r["answerable"] is False for r in records)
    assert len({r["source_quid"] for r in records}) == len(records)  # each source used once
    with TKGStore.open(db) as store:
        span = store.time_range()
        for r in records:
            if r["unanswerable_reason"] == "time_outside_kg":
                years = [int(w[:4]) for w in r["question"].replace("?", "").split() if w[:4].isdigit()]
                assert years and all(y < span.start.year or y > span.end.year for y in years)
            if r["unanswerable_reason"] == "entity_not_in_kg":
                old, new = r["unanswerable_detail"].split(" (")[0].split(" -> ")
                assert r["question"] == r["source_question"].replace(old.strip("'"), new.strip("'"))
                assert store.find_entities(new.strip("'")) == []
                assert len(MentionFinder(store).find(r["question"])) < len(MentionFinder(store).find(r["source_question"]))
    loaded = get_loader("multitq").load(out).questions
    assert all(not q.answerable for q in loaded)


def test_hidden_facts_store_drops_only_the_question_entities_facts(source, tmp_path):
    db, questions = source
    out = tmp_path / "un.json"
    result = build(questions, db, out, per_kind=1, seed=0, kinds=("facts_hidden",))
    (record,) = json.loads(out.read_text())
    assert record["db"] == str(result.hidden_db)
    with TKGStore.open(db) as original, TKGStore.open(result.hidden_db) as hidden:
        assert original.counts()["facts"] == 7  # the source store is untouched
        assert hidden.counts()["facts"] == 7 - result.hidden_facts > 0
        for entity in result.hidden_entities:
            assert hidden.has_entity(entity)  # the entity stays, its facts go
            assert not hidden.facts(head=entity) and not hidden.facts(tail=entity)
        assert json.loads(hidden.meta()["hidden_entities"]) == result.hidden_entities
    # The brute-force solver, right on the source question, must now abstain on the hidden store.
    source_text = record["source_question"]
    assert not BruteForceSolver(db).solve(source_text).abstained
    assert BruteForceSolver(result.hidden_db).solve(record["question"]).abstained


def test_time_outside_range_questions_are_unanswerable_for_a_real_solver(source, tmp_path):
    db, questions = source
    out = tmp_path / "un.json"
    build(questions, db, out, per_kind=3, seed=1, kinds=("time_outside_kg", "entity_not_in_kg"))
    solver = BruteForceSolver(db)
    for record in json.loads(out.read_text()):
        assert solver.solve(record["question"]).abstained, record


def test_same_seed_same_output(source, tmp_path):
    db, questions = source
    build(questions, db, tmp_path / "a.json", per_kind=2, seed=5, hidden_db=tmp_path / "a.duckdb")
    build(questions, db, tmp_path / "b.json", per_kind=2, seed=5, hidden_db=tmp_path / "b.duckdb")
    a = json.loads((tmp_path / "a.json").read_text())
    b = json.loads((tmp_path / "b.json").read_text())
    assert [{k: v for k, v in r.items() if k != "db"} for r in a] == [{k: v for k, v in r.items() if k != "db"} for r in b]


def test_before_and_after_move_the_right_way():
    rng = random.Random(0)
    for _ in range(20):
        before, _ = move_time("Before 22 October 2008, who visited China?", 2005, 2015, rng)
        after, _ = move_time("Who supported Malaysia after Feb, 2014?", 2005, 2015, rng)
        assert int(before.split()[3].rstrip(",")) < 2005
        assert int(after.rstrip("?").split()[-1]) > 2015
    leap, _ = move_time("Who visited Kenya on 29 February 2008?", 2005, 2015, rng)
    year = int(leap.rstrip("?").split()[-1])
    assert year % 4 == 0 and not 2005 <= year <= 2015
    assert move_time("Who first visited China?", 2005, 2015, rng) is None


def test_move_time_only_crosses_a_closed_bound():
    for seed in range(20):
        text, _ = move_time("Who visited China after 2009?", 2005, None, random.Random(seed))
        assert int(text[-5:-1]) < 2005  # no time lies after an open end
        text, _ = move_time("Who visited China before 2009?", None, 2015, random.Random(seed))
        assert int(text[-5:-1]) > 2015
    assert move_time("Who visited China in 2009?", None, None, random.Random(0)) is None
