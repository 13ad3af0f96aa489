"""The bundled demo KG: builds on first use, answers lookups, and its questions' gold answers hold."""

from __future__ import annotations

import json
from pathlib import Path

from tkg_store.demo import DEMO_QUESTIONS, DEMO_TSV, demo_questions, demo_store_path
from tkg_store.demo.generate import README_QUESTION, write
from tkg_store.store import TKGStore

QTYPES = {"equal", "before_after", "first_last", "equal_multi", "after_first", "before_last"}


def test_demo_store_answers_the_readme_lookup(demo_store: TKGStore) -> None:
    counts = demo_store.counts()
    assert 200 <= counts["facts"] <= 1000
    span = demo_store.time_range()
    assert (span.start.year, span.end.year) == (2005, 2015)
    critics = demo_store.facts(relation="Criticize_or_denounce", tail="Iran")
    musharraf = [f for f in critics if f.head == "Pervez_Musharraf"]
    before = [f for f in critics if f.start < musharraf[0].start]
    assert before[-1].head == "Condoleezza_Rice"  # facts come in time order
    assert {g.value for g in {f.granularity for f in demo_store.facts()}} == {"day", "month", "year"}


def test_demo_questions_schema_and_coverage() -> None:
    questions = demo_questions()
    keys = {"quid", "question", "answers", "answer_type", "time_level", "qtype", "qlabel"}
    assert all(set(q) == keys for q in questions)
    assert len({q["quid"] for q in questions}) == len(questions)
    for qtype in QTYPES:
        assert sum(q["qtype"] == qtype and bool(q["answers"]) for q in questions) >= 4, qtype
    assert {q["answer_type"] for q in questions if q["answers"]} == {"entity", "time"}
    assert sum(not q["answers"] for q in questions) >= 3
    assert all("_" not in a for q in questions for a in q["answers"])
    [readme] = [q for q in questions if q["question"] == README_QUESTION]
    assert readme["answers"] == ["Condoleezza Rice"] and readme["qtype"] == "before_last"


def test_gold_answers_name_demo_entities(demo_store: TKGStore) -> None:
    displays = {demo_store.display(name) for name in demo_store.entity_names()}
    for q in demo_questions():
        if q["answer_type"] == "entity":
            assert set(q["answers"]) <= displays, q


def test_generator_is_deterministic_and_matches_the_bundled_files(tmp_path: Path) -> None:
    tsv, questions = write(tmp_path)
    assert tsv.read_bytes() == DEMO_TSV.read_bytes()
    assert json.loads(questions.read_text(encoding="utf-8")) == json.loads(DEMO_QUESTIONS.read_text(encoding="utf-8"))


def test_demo_store_rebuilds_when_the_tsv_changes(tmp_path: Path, monkeypatch) -> None:  # noqa: ANN001
    import tkg_store.demo as demo

    monkeypatch.setenv("ARI_HOME", str(tmp_path))
    first = demo_store_path()
    assert demo_store_path() == first and first.stat().st_mtime_ns == demo_store_path().stat().st_mtime_ns
    changed = tmp_path / "changed.tsv"
    changed.write_text(DEMO_TSV.read_text(encoding="utf-8") + "Iran\tMake_a_visit\tAtlantis\t2010-01-01\n", encoding="utf-8")
    monkeypatch.setattr(demo, "DEMO_TSV", changed)
    with TKGStore.open(demo.demo_store_path()) as store:
        assert store.has_entity("Atlantis")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["changed.tsv", "demo.duckdb"]  # no temporary files left
