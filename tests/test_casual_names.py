"""Casual names of organisations and role phrases (issue 13, helper casual4).

The rules are read off a small KG written by the test and ingested into a real DuckDB file: a
qualifier's initials ("isil"), a UN body without "UN", a country's army, and a plural role noun
followed by the clause's verb."""

from __future__ import annotations

import pytest
from bench_support import analyzer_over, linked

from agents.analysis.analyzer import QuestionAnalyzer

FACTS = [
    ("Extremist_(Islamic_State_of_Iraq_and_the_Levant)", "Use_conventional_military_force", "Iraq", "2014-08-01"),
    ("Combatant_(Islamic_State_of_Iraq_and_the_Levant)", "Make_statement", "Syria", "2014-09-01"),
    ("UN_Security_Council", "Express_intent_to_meet_or_negotiate", "Burundi", "2005-10-01"),
    ("Security_Council_(Iraq)", "Criticize_or_denounce", "Iran", "2009-01-01"),
    ("Military_of_Hungary", "Express_intent_to_meet_or_negotiate", "Iraq", "2006-03-01"),
    ("Military_Advisor_(Hungary)", "Make_a_visit", "Iraq", "2006-04-01"),
    ("Militant_(Taliban)", "fight_with_small_arms_and_light_weapons", "Afghanistan", "2008-05-01"),
    ("Attack_Helicopter_(Afghanistan)", "Make_statement", "Afghanistan", "2008-06-01"),  # "attack" is a role word
    ("Human_Rights_Activist_(Iraq)", "Criticize_or_denounce", "Iraq", "2010-01-01"),
]


@pytest.fixture(scope="module")
def analyzer(tmp_path_factory: pytest.TempPathFactory):
    yield from analyzer_over(tmp_path_factory.mktemp("casual_kg") / "kg.duckdb", FACTS)


def test_a_qualifier_written_by_its_initials(analyzer: QuestionAnalyzer) -> None:
    assert linked(analyzer, "what month did isil extremists first use military force against iraq") == [
        "Extremist_(Islamic_State_of_Iraq_and_the_Levant)", "Iraq"]
    assert str(linked(analyzer, "wat month did isil first use military force against iraq")[0]).endswith("(Islamic_State_of_Iraq_and_the_Levant)")
    assert linked(analyzer, "what month did isl extremists visit iraq") == ["Iraq"]  # made-up initials stay unlinked


def test_a_un_body_without_un(analyzer: QuestionAnalyzer) -> None:
    assert linked(analyzer, "what month did the security council first want to meet w burundi") == ["UN_Security_Council", "Burundi"]
    # only "the Security Council" alone: a longer name keeps its own words
    assert "UN_Security_Council" not in linked(analyzer, "when did china negotiate with the national security council")
    # a country's own council keeps its country
    assert linked(analyzer, "when did the iraqi security council criticize iran") == ["Security_Council_(Iraq)", "Iran"]


def test_a_countrys_army_is_its_military(analyzer: QuestionAnalyzer) -> None:
    assert linked(analyzer, "who wanted to negotiate w iraq before the hungarian army")[1] == "Military_of_Hungary"
    assert linked(analyzer, "who wanted to negotiate w iraq before the hungarian military")[1] == "Military_of_Hungary"


def test_a_verb_after_a_plural_role_noun_ends_the_role(analyzer: QuestionAnalyzer) -> None:
    mention = analyzer.analyze("when did taliban militants attack afghanistan for the first time").entities[0]
    assert mention.text == "taliban militants" and mention.best == "Militant_(Taliban)"
    # a plural the KG's role names use before another noun stays inside the role
    mention = analyzer.analyze("when did iraqi human rights activists criticize iraq").entities[0]
    assert mention.text == "iraqi human rights activists" and mention.best == "Human_Rights_Activist_(Iraq)"
