"""Whole phrases: a name the KG writes otherwise is often read in pieces that are names of their own
("President" + "Italian Republic"); the whole phrase is read as the one name it is nearest, closely and sharing
a word; names the KG has as written stay as they are."""

from __future__ import annotations

import pytest

from agents.analysis.analyzer import QuestionAnalyzer
from ari.base.embedding import get_embedder
from tests.bench_support import analyzer_over

ROWS = [
    ("Sergio Mattarella", "position held", "President of Italy", "2015", "2022"),
    ("Rome", "capital of", "Italian Republic", "1946", "2020"),
    ("Jean Chrétien", "position held", "president", "1990", "1991"),  # a class, as Wikidata labels it (lower case)
    ("René Lévesque", "position held", "Premier of Quebec", "1976", "1985"),
    ("Hjalmar Branting", "position held", "member of the Riksdag", "1896", "1925"),
    ("Lars Svensson", "position held", "member", "1950", "1960"),
    ("John Hickenlooper", "position held", "Governor of Colorado", "2011", "2019"),
    ("Pablo Mastroeni", "member of sports team", "Colorado Rapids", "1998", "2007"),
    ("Angela Merkel", "position held", "Chancellor of Germany", "2005", "2021"),
    ("Georg Bednorz", "award received", "Marcel Benoist Prize", "1986", "1986"),
    ("Jean Dupont", "position held", "Professor as a title", "1990", "1991"),
]


@pytest.fixture(scope="module")
def analyzer(tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201 - QuestionAnalyzer over an open store
    yield from analyzer_over(tmp_path_factory.mktemp("phrases") / "kg.duckdb", ROWS, get_embedder())


def _entities(analyzer: QuestionAnalyzer, question: str) -> list[tuple[str, str | None]]:
    return [(m.text, m.best) for m in analyzer.analyze(question).entities]


@pytest.mark.parametrize(("question", "phrase", "name"), [
    ("Who was the last President of the Italian Republic?", "President of the Italian Republic", "President of Italy"),
    ("Who was the first member of the Swedish Riksdag?", "member of the Swedish Riksdag", "member of the Riksdag"),
    ("When did the last Governor of the State of Colorado come to power?", "Governor of the State of Colorado", "Governor of Colorado"),
    ("Who was the Quebec Prime Minister in 1980?", "Quebec Prime Minister", "Premier of Quebec"),
])
def test_pieces_of_a_name_written_otherwise_are_read_as_the_whole(analyzer: QuestionAnalyzer, question: str, phrase: str, name: str) -> None:
    assert _entities(analyzer, question) == [(phrase, name)]


def test_names_of_their_own_stay_as_written(analyzer: QuestionAnalyzer) -> None:
    assert _entities(analyzer, "Since when has Rome been the capital of the Italian Republic?") == [
        ("Rome", "Rome"), ("Italian Republic", "Italian Republic"),
    ]
    assert ("Colorado Rapids", "Colorado Rapids") in _entities(analyzer, "Which team did Pablo Mastroeni first play for after Colorado Rapids?")



def test_names_side_by_side_are_two_parties(analyzer: QuestionAnalyzer) -> None:
    # a keyword query writes its parties next to each other: the phrase may be nearest one of them, yet both are named
    assert _entities(analyzer, "rome italian republic 1950 what happened between them") == [("rome", "Rome"), ("italian republic", "Italian Republic")]


def test_an_english_word_opening_the_sentence_is_no_name(analyzer: QuestionAnalyzer) -> None:
    # capitalised only because it comes first: no longer name that holds it is meant
    assert _entities(analyzer, "Title of the award first received by Georg Bednorz?") == [("Georg Bednorz", "Georg Bednorz")]
