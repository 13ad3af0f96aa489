"""The judge's refusals read the KG they judge for: a marriage is a relation where the KG records one, and a copula
beside a name asks who held what the name says (an interval KG's positions), not an act left unsaid."""

from __future__ import annotations

import pytest

from agents.analysis.analyzer import QuestionAnalyzer
from agents.judge import kinship_asked, no_act_word
from tests.bench_support import build_store
from tkg_store.store import TKGStore

ROWS = [
    ("Rex Harrison", "spouse", "Lilli Palmer", "1943", "1957"),
    ("Rex Harrison", "spouse", "Kay Kendall", "1957", "1959"),
    ("Andrew Motion", "position held", "Poet Laureate of the United Kingdom", "1999", "2009"),
    ("Ted Hughes", "position held", "Poet Laureate of the United Kingdom", "1984", "1998"),
]
EVENTS = [("Jack Straw", "Make a visit", "Iran", "2008-01-02"), ("Iran", "Host a visit", "Jack Straw", "2008-01-02")]


@pytest.fixture(scope="module")
def analyzers(tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201 - (interval KG, event KG) analyzers
    folder = tmp_path_factory.mktemp("holdings")
    with TKGStore.open(build_store(folder / "wd.duckdb", ROWS)) as wd, TKGStore.open(build_store(folder / "ev.duckdb", EVENTS)) as ev:
        yield QuestionAnalyzer(wd, use_default_lexicon=False), QuestionAnalyzer(ev, use_default_lexicon=False)


def test_a_marriage_is_refused_only_by_a_kg_that_records_none(analyzers) -> None:  # noqa: ANN001
    wd, ev = analyzers
    assert kinship_asked(wd.store, wd.analyze("Who was Rex Harrison married to first?")) is None  # "spouse"
    assert "kinship" in (kinship_asked(ev.store, ev.analyze("Who was Jack Straw married to in 2008?")) or "")


@pytest.mark.parametrize("question", [
    "The last Poet Laureate of the United Kingdom had been who",
    "The last Poet Laureate of the United Kingdom was",
    "What's the last year of Andrew Motion being Poet Laureate of the United Kingdom?",
])
def test_a_copula_beside_a_name_asks_who_held_it(analyzers, question: str) -> None:  # noqa: ANN001
    assert no_act_word(analyzers[0].analyze(question)) is None


def test_a_question_with_no_act_and_no_copula_is_still_refused(analyzers) -> None:  # noqa: ANN001
    assert "names an event" in (no_act_word(analyzers[1].analyze("Who did Jack Straw in 2008?")) or "")
