"""A name given in full and then shortened in the same question (a surname, a word, initials) names the same party."""

from __future__ import annotations

import pytest

from agents.analysis.aliases import shortens
from agents.analysis.entities import EntityLinker
from tests.bench_support import analyzer_over, linker_over

FACTS = [
    ("Zoe Park", "Make a visit", "Japan", "2010-03-01"),
    ("Amy Park", "Make a visit", "Japan", "2010-04-01"),
    ("Amy Park", "Make a visit", "Japan", "2010-04-02"),
    ("Park Lin", "Make a visit", "Japan", "2010-05-01"),
    ("World Food Programme", "Make a visit", "Kenya", "2011-01-02"),
    ("Office of the UN High Commissioner for Refugees", "Make a visit", "Kenya", "2011-02-03"),
    ("Education Ministry (Japan)", "Criticize or denounce", "Japan", "2012-01-02"),
]


@pytest.fixture(scope="module")
def linker(tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201 - EntityLinker over an open store
    yield from linker_over(tmp_path_factory.mktemp("short_forms") / "kg.duckdb", FACTS)


def _best(linker: EntityLinker, question: str) -> dict[str, str | None]:
    return {m.text: m.candidates[0][0] if m.candidates else None for m in linker.link(question)}


@pytest.mark.parametrize(("question", "short", "party"), [
    ("Zoe Park went to Japan. Who visited Japan before Park did?", "Park", "Zoe Park"),
    ("Before Park, who went to Japan? I mean Zoe Park.", "Park", "Zoe Park"),
    ("The World Food Programme visited Kenya; when did the WFP go there?", "WFP", "World Food Programme"),
    ("The Office of the UN High Commissioner for Refugees went to Kenya. When did the OHCR go?", "OHCR",
     "Office of the UN High Commissioner for Refugees"),  # initials, one left out
    ("The World Food Programme visited Kenya; when did the WP go there?", "WP", None),  # two letters are no initials
])
def test_a_short_form_names_the_party_given_in_full(linker: EntityLinker, question: str, short: str, party: str | None) -> None:
    best = _best(linker, question)
    if party is None:
        assert best.get(short) != "World Food Programme"
    else:
        assert best[short] == party


def test_a_name_of_its_own_is_not_a_short_form(linker: EntityLinker) -> None:
    """A country that is a word of a ministry's name is still the country."""
    assert _best(linker, "When did the Japanese Education Ministry criticise Japan?")["Japan"] == "Japan"


@pytest.mark.parametrize(("word", "full", "short"), [
    ("Merkel", "Angela Merkel", True),
    ("merkel", "Angela Merkel", False),  # lower case: a word, not a name
    ("Angela", "Angela Merkel", False),  # a given name alone is many people's
    ("China", "South China Sea", False),  # no surname: a place's word
    ("OHCR", "Office of the UN High Commissioner for Refugees", True),  # "UN" left out
    ("HCR", "Office of the UN High Commissioner for Refugees", False),  # the first initial kept
    ("OCH", "Office of the UN High Commissioner for Refugees", False),  # initials out of order
])
def test_what_shortens_a_name(word: str, full: str, short: bool) -> None:
    assert shortens(word, full) is short


@pytest.fixture(scope="module")
def analyzer(tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201 - QuestionAnalyzer over an open store
    yield from analyzer_over(tmp_path_factory.mktemp("short_forms_analysis") / "kg.duckdb", FACTS)


@pytest.mark.parametrize("question", [
    "Zoe Park went to Japan. Who was the last to visit Japan before Park?",  # a statement set aside
    "I've been reading about Zoe Park. Who visited Japan before Park did?",  # an aside about the asker
    "Who visited Japan before Park did? Zoe Park, I mean.",
])
def test_a_name_given_in_full_in_a_sentence_set_aside_still_says_who_is_meant(analyzer, question: str) -> None:
    assert {e.best for e in analyzer.analyze(question).entities} == {"Zoe Park", "Japan"}  # no other Park


def test_a_name_inside_a_longer_phrase_set_aside_stays_itself(analyzer) -> None:
    """A country named again inside a heading ("NOTE for the Japan file") is the country, not the heading."""
    assert {e.best for e in analyzer.analyze("NOTE for the Japan file: find out who visited Japan in 2010").entities} == {"Japan"}
