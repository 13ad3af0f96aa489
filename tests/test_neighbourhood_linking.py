"""Neighbourhood linking: a name the KG's name file lacks (an alias, a former name) read among the
entities the question's other names and relation leave, only where one clearly shares a rare word."""

from __future__ import annotations

import pytest

from agents.analysis.analyzer import QuestionAnalyzer
from agents.analysis.neighbourhood import SCORE, best_match, link_in_neighbourhood, spelt_alike
from agents.analysis.types import EntityMention
from tests.bench_support import build_store
from tkg_store.store import TKGStore

FREQUENCY = {"tom": 2, "cruise": 1, "hanks": 1, "thomas": 29, "police": 40, "kenya": 30}.get


def frequency(word: str) -> int:
    return FREQUENCY(word, 0)


def test_a_shared_rare_word_reads_the_span_as_that_name() -> None:
    names = {"Tom_Cruise": "Tom Cruise", "Tom_Hanks": "Tom Hanks", "Thomas_Mann": "Thomas Mann"}
    assert best_match("Thomas Cruise Mapother IV", names, frequency) == ("Tom_Cruise", "cruise")


def test_no_rare_word_or_two_close_candidates_is_no_reading() -> None:
    police = {"Police_(Kenya)": "Police (Kenya)", "Army": "Army"}
    assert best_match("Police (Zorbastan)", police, frequency) is None  # "police" names many entities: no evidence
    assert best_match("Thomas Smith", {"Thomas_Mann": "Thomas Mann"}, frequency) is None
    twins = {"Tom_Cruise": "Tom Cruise", "Cruise_Hanks": "Cruise Hanks"}
    assert best_match("Thomas Cruise", twins, frequency) is None  # both share the rare word: no clear margin
    assert best_match("Zorbatan Kulimo", {"Tom_Cruise": "Tom Cruise"}, frequency) is None
    assert best_match("Cruise Zorbatan", {"Tom_Cruise": "Tom Cruise"}, frequency) is None  # a surname is no given name
    assert best_match("Hon. Tom Zorbatan", {"Tom_Cruise": "Tom Cruise"}, frequency) == ("Tom_Cruise", "tom")  # another surname


@pytest.mark.parametrize(("word", "other", "same"), [
    ("mohamed", "mohammed", True),  # one name spelt two ways
    ("reitherman", "reitherman", True),
    ("johannes", "hannes", False),  # a name inside a longer one is another name
    ("mapother", "mother", False),
    ("riitta", "ritta", True),
    ("maria", "mario", False),  # another name
])
def test_close_spellings(word: str, other: str, same: bool) -> None:
    assert spelt_alike(word, other) is same


ROWS = [
    ("Tom Cruise", "award received", "Saturn Award for Best Actor", "1995", "1995"),
    ("Tom Hanks", "award received", "Academy Award for Best Actor", "1994", "1994"),
    ("Meryl Streep", "award received", "Academy Award for Best Actress", "1983", "1983"),
    ("Riitta Uosukainen", "position held", "Member of the Parliament of Finland", "1983", "2003"),
    ("Paavo Lipponen", "position held", "Member of the Parliament of Finland", "1983", "2007"),
    ("Riitta Hari", "award received", "Academy Award for Best Actress", "1990", "1990"),
    ("Angela Merkel", "position held", "Chancellor of Germany", "2005", "2021"),
    ("René Lévesque", "position held", "Premier of Quebec", "1976", "1985"),
    ("René Lévesque", "award received", "Grand Officer of the National Order of Quebec", "2008", "2008"),
    ("Jean Chrétien", "position held", "Prime Minister of Canada", "1993", "2003"),
    ("Jean Chrétien", "position held", "minister", "1967", "1968"),  # a class, as Wikidata labels it (lower case)
]


@pytest.fixture(scope="module")
def analyzer(tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201 - QuestionAnalyzer over an open store
    db = build_store(tmp_path_factory.mktemp("neighbourhood") / "kg.duckdb", ROWS)
    with TKGStore.open(db) as store:
        yield QuestionAnalyzer(store, use_default_lexicon=False)


def _read(analyzer: QuestionAnalyzer, question: str) -> tuple[list[tuple[str, str | None]], list[str]]:
    analysis = analyzer.analyze(question)
    return [(m.text, m.best) for m in analysis.entities], [m.text for m in analysis.unlinked]


def test_a_name_is_read_among_the_neighbours_of_the_question_s_other_entities(analyzer: QuestionAnalyzer) -> None:
    # Riitta Hari shares "Riitta" too, but is no neighbour of the Parliament through the relation asked
    entities, unlinked = _read(analyzer, "When did Riitta Maria Vainikka first become Member of the Parliament of Finland?")
    assert ("Riitta Maria Vainikka", "Riitta Uosukainen") in entities and unlinked == []


def test_with_no_other_entity_the_relation_s_entities_are_the_candidates(analyzer: QuestionAnalyzer) -> None:
    entities, unlinked = _read(analyzer, "What was the first award received by Thomas Cruise Mapother IV?")
    assert entities == [("Thomas Cruise Mapother IV", "Tom Cruise")] and unlinked == []


def test_a_made_up_name_stays_unlinked(analyzer: QuestionAnalyzer) -> None:
    entities, unlinked = _read(analyzer, "What was the first award received by Zorbatan Kulimo?")
    assert entities == [] and unlinked == ["Zorbatan Kulimo"]


def test_a_common_noun_inside_a_longer_name_is_part_of_it(analyzer: QuestionAnalyzer) -> None:
    # "Minister" inside the longer name is no mention of the class "minister"; the whole name is no KG name,
    # and of René Lévesque's two neighbours with "Quebec" the shorter shares more of its words
    entities, unlinked = _read(analyzer, "When was René Lévesque Prime Minister of Quebec for the last time?")
    assert entities == [("René Lévesque", "René Lévesque"), ("Prime Minister of Quebec", "Premier of Quebec")] and unlinked == []


def test_a_common_noun_alone_is_still_its_class(analyzer: QuestionAnalyzer) -> None:
    entities, _ = _read(analyzer, "When did Jean Chrétien first become a Minister?")
    assert ("Minister", "minister") in entities


@pytest.mark.parametrize(("weak", "read_again"), [
    ("Prime Minister of Canada", True),  # no fact with René Lévesque: read among his neighbours
    ("Grand Officer of the National Order of Quebec", False),  # a fact with him: kept
])
def test_a_weak_link_with_no_fact_with_the_others_is_read_again(analyzer: QuestionAnalyzer, weak: str, read_again: bool) -> None:
    mentions = [EntityMention("René Lévesque", (0, 13), [("René Lévesque", 1.0)]), EntityMention("Prime Minister of Quebec", (20, 44), [(weak, 0.66)])]
    relations = [("position held", 0.2), ("award received", 0.1)]
    assert link_in_neighbourhood(analyzer.store, mentions, relations, lambda word: 1) is read_again
    assert mentions[1].candidates == ([("Premier of Quebec", SCORE)] if read_again else [(weak, 0.66)])


CLUBS = [
    ("Aaron Ramsey", "member of sports team", "Cardiff City F.C.", "2006", "2008"),
    ("Aaron Ramsey", "member of sports team", "Arsenal F.C.", "2008", "2019"),
    ("Aaron Wilbraham", "member of sports team", "Bristol City F.C.", "2014", "2015"),
    ("Aaron Wilbraham", "member of sports team", "Bradford City A.F.C.", "2006", "2006"),
    ("Cardiff", "instance of", "city", "1900", "2020"),  # the class "city", which a short club name also spells
    ("Bristol", "instance of", "city", "1900", "2020"),
]


@pytest.fixture(scope="module")
def clubs(tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201 - QuestionAnalyzer over an open store
    db = build_store(tmp_path_factory.mktemp("clubs") / "kg.duckdb", CLUBS)
    with TKGStore.open(db) as store:
        yield QuestionAnalyzer(store, use_default_lexicon=False)


@pytest.mark.parametrize(("question", "club"), [
    ("Which team did Aaron Ramsey join after City", "Cardiff City F.C."),  # his one club with "City" in its name
    ("Which team did Aaron Wilbraham join after City", "city"),  # two of his clubs hold it: nothing is guessed
])
def test_a_short_name_that_names_a_class_is_read_as_the_one_neighbour_holding_it(clubs: QuestionAnalyzer, question: str, club: str) -> None:
    entities, _ = _read(clubs, question)
    assert ("City", club) in entities


def test_a_rarer_word_of_the_span_missing_from_the_name_is_no_reading() -> None:
    # "cruise" is shared, but "mapper" is rarer in the KG and "Tom Cruise" lacks it
    names = {"Tom Cruise": "Tom Cruise", "Tom Hanks": "Tom Hanks"}
    assert best_match("Thomas Cruise Mapother IV", names, frequency) == ("Tom Cruise", "cruise")
    assert best_match("Thomas Cruise Mapper", names, lambda word: {"mapper": 1, "cruise": 2}.get(word, 0)) is None
