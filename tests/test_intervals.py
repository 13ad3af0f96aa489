"""Interval facts as a Wikidata KG states them: "last" is the latest time held, one-way relations,
CronQuestions' reading of a fact with one stated year, evidence and question forms of interval KGs."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from actions.items import Item
from actions.semantics import first, last
from agents.analysis.question_form import not_a_question
from agents.analysis.times import asked_granularity
from tkg_store.ingest import POINT, ingest
from tkg_store.learned import ONE_WAY_MIN_ENTITIES, one_way_relations
from tkg_store.store import TKGStore
from tkg_store.temporal import Granularity, when_text

YEAR = Granularity.YEAR


def _years(first_year: int, last_year: int | None) -> tuple[date, date | None]:
    return date(first_year, 1, 1), (date(last_year, 12, 31) if last_year is not None else None)


def test_last_is_the_latest_year_held_and_the_item_is_cut_to_it() -> None:
    long = Item("Cristina", *_years(2007, 2015), YEAR)
    earlier_start_later_end = Item("Perón", *_years(1946, 1955), YEAR)
    assert last([earlier_start_later_end, long]) == [Item("Cristina", date(2015, 1, 1), date(2015, 12, 31), YEAR)]
    # the latest START would be 2010; the latest year held is 2015
    later_start = Item("Short", *_years(2010, 2011), YEAR)
    assert [i.entity for i in last([long, later_start])] == ["Cristina"]
    assert [i.entity for i in first([long, later_start, earlier_start_later_end])] == ["Perón"]


def test_an_open_end_is_held_still_and_kept_whole() -> None:
    ongoing = Item("Macri", date(2015, 1, 1), None, YEAR)
    assert last([Item("Cristina", *_years(2007, 2015), YEAR), ongoing]) == [ongoing]


def test_day_points_are_unchanged_by_the_interval_reading() -> None:
    a, b = Item("A", date(2009, 1, 2), date(2009, 1, 2)), Item("B", date(2009, 3, 4), date(2009, 3, 4))
    assert last([a, b]) == [b] and first([a, b]) == [a]


def _write(path: Path, rows: list[tuple[str, str, str, str, str]]) -> Path:
    path.write_text("".join("\t".join(row) + "\n" for row in rows), encoding="utf-8")
    return path


def test_one_way_relations_are_learned_from_the_two_kinds_of_entity(tmp_path: Path) -> None:
    n = ONE_WAY_MIN_ENTITIES
    rows = [(f"Person {i}", "award received", f"Award {i % n + n}", "2000", "2000") for i in range(2 * n)]
    rows += [(f"Award {i + n}", "award received", f"Award {i}", "2001", "2001") for i in range(n // 2)]  # awards receiving awards
    rows += [(f"Person {i}", "spouse", f"Person {i + 1}", "1990", "2000") for i in range(2 * n)]
    rows += [(f"Person {i}", "employer", f"Company {i}", "1990", "2000") for i in range(n - 1)]  # too few a side
    db = tmp_path / "kg.duckdb"
    ingest("tsv", _write(tmp_path / "kg.tsv", rows), db)
    with TKGStore.open(db) as store:
        # awards that receive awards stand on both sides: the kinds trade places, no longer one-way
        assert one_way_relations(store) == frozenset()
    rows = [r for r in rows if not r[0].startswith("Award")]
    db2 = tmp_path / "kg2.duckdb"
    ingest("tsv", _write(tmp_path / "kg2.tsv", rows), db2)
    with TKGStore.open(db2) as store:
        assert one_way_relations(store) == frozenset({"award received"})


def test_ingest_point_reads_a_fact_with_one_stated_year_as_that_year(tmp_path: Path) -> None:
    rows = [("Macri", "position held", "President", "2015", ""), ("Old", "position held", "President", "", "1900"),
            ("Cristina", "position held", "President", "2007", "2015")]
    path = _write(tmp_path / "kg.tsv", rows)
    ingest("tsv", path, tmp_path / "open.duckdb")
    ingest("tsv", path, tmp_path / "point.duckdb", open_ends=POINT)
    with TKGStore.open(tmp_path / "open.duckdb") as store:
        assert {(f.head, f.start, f.end) for f in store.facts(tail="President")} == {
            ("Macri", date(2015, 1, 1), None), ("Old", None, date(1900, 12, 31)), ("Cristina", date(2007, 1, 1), date(2015, 12, 31))}
    with TKGStore.open(tmp_path / "point.duckdb") as store:
        assert {(f.head, f.start, f.end) for f in store.facts(tail="President")} == {
            ("Macri", date(2015, 1, 1), date(2015, 12, 31)), ("Old", date(1900, 1, 1), date(1900, 12, 31)),
            ("Cristina", date(2007, 1, 1), date(2015, 12, 31))}


def test_an_unknown_open_ends_reading_is_refused(tmp_path: Path) -> None:
    from ari.base.errors import UsageError

    with pytest.raises(UsageError, match="open-ends"):
        ingest("tsv", _write(tmp_path / "kg.tsv", [("a", "r", "b", "2000", "")]), tmp_path / "kg.duckdb", open_ends="closed")


def test_evidence_says_when_an_interval_holds() -> None:
    assert when_text(date(2003, 1, 1), date(2007, 12, 31), YEAR) == " from 2003 to 2007"
    assert when_text(date(2015, 1, 1), date(2015, 12, 31), YEAR) == " on 2015"
    assert when_text(date(2015, 1, 1), None, YEAR) == " since 2015"
    assert when_text(None, date(1900, 12, 31), YEAR) == " until 1900"
    assert when_text(date(2009, 2, 4), date(2009, 2, 4), Granularity.DAY) == " on 2009-02-04"
    assert when_text(None, None, YEAR) == ""


@pytest.mark.parametrize("question", [
    "What's the last time René Lévesque was Premier of Quebec?",
    "What is the first time Patrick Cormack held the position of Member of Parliament",
])
def test_what_is_the_first_or_last_time_asks_a_time(question: str) -> None:
    assert asked_granularity(question) is Granularity.DAY


def test_a_noun_phrase_whose_relative_clause_holds_the_ordinal_is_a_question() -> None:
    assert not_a_question("The award that was awarded to Arthur Schawlow for the first time in their life") is None
    assert not_a_question("The team which Victor Moses last played for") is None
    # without an ordinal it names no one thing: still a fragment
    assert not_a_question("the team that visited Iran") is not None


NAMESAKES = [
    ("Moshe_Sharett", "position_held", "Minister of Foreign Affairs (Q15710855)", "1948-01-01"),
    ("Marina_Kaljurand", "position_held", "Minister of Foreign Affairs (Q1760777)", "2015-01-01"),
    ("Rein_Lang", "position_held", "Minister of Foreign Affairs (Q1760777)", "2005-01-01"),
]


@pytest.fixture(scope="module")
def namesakes(tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201 - (analyzer, store)
    from tests.bench_support import analyzer_over

    yield from analyzer_over(tmp_path_factory.mktemp("namesakes") / "kg.duckdb", NAMESAKES)


def test_a_name_shared_by_namesakes_is_asked_about_not_guessed(namesakes) -> None:  # noqa: ANN001
    from agents.judge import audit_answerability

    analysis = namesakes.analyze("Who was the first Minister of Foreign Affairs?")
    judgement = audit_answerability(namesakes.store, analysis)
    assert not judgement.answerable and judgement.missing is not None
    assert "'Minister of Foreign Affairs' names 2 entities" in judgement.missing and "(Q1760777)" in judgement.missing


def test_the_question_s_other_entity_tells_namesakes_apart(namesakes) -> None:  # noqa: ANN001
    from agents.judge import audit_answerability

    analysis = namesakes.analyze("When was Moshe Sharett Minister of Foreign Affairs?")
    assert [m.best for m in analysis.entities] == ["Moshe_Sharett", "Minister of Foreign Affairs (Q15710855)"]
    assert audit_answerability(namesakes.store, analysis).answerable
