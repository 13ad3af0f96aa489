"""Names as MultiTQ writes them (agents.analysis.entities, faith3): British spellings, role phrases
with lists and inner names, a role right before its country, a demonym or a possessive before an
act, and made-up names that only an embedding neighbour would link; on a KG the test writes."""

from __future__ import annotations

import pytest
from bench_support import linker_over

from agents.analysis.entities import EntityLinker, spelling_variant

FACTS = [
    ("International_Government_Organizations", "Sign_formal_agreement", "Iraq", "2014-06-03"),
    ("Citizen_(International)", "Make_statement", "Iraq", "2014-06-04"),
    ("Pattani_United_Liberation_Organization", "Make_an_appeal_or_request", "Thailand", "2009-01-01"),
    ("Finance_/_Economy_/_Commerce_/_Trade_Ministry_(Japan)", "Make_a_visit", "China", "2010-01-01"),
    ("Treasury/Finance_Ministry_(Japan)", "Make_a_visit", "China", "2010-01-02"),
    ("Industry_(China)", "Make_statement", "Japan", "2010-01-03"),
    ("Justice_Department/Ministery_(India)", "Make_a_visit", "Thailand", "2005-03-01"),
    ("Ministry_of_Women_(India)", "Make_a_visit", "Thailand", "2005-03-02"),
    ("Law_and_Justice", "Make_statement", "Poland", "2005-03-03"),
    ("Member_of_Legislative_(Govt)_(Iran)", "Express_intent_to_meet_or_negotiate", "Iraq", "2012-01-01"),
    ("Member_of_Legislative_(Govt)_(Algeria)", "Make_a_visit", "Iraq", "2011-07-01"),
    ("Cambodia", "Use_conventional_military_force", "Thailand", "2010-02-02"),
    ("Cambodian_Development_Council", "Make_statement", "Thailand", "2010-02-03"),
    ("Military_(Cambodia)", "Make_statement", "Thailand", "2010-02-04"),
    ("Kuwait", "Make_a_visit", "Oman", "2012-01-01"),
    ("Tourist_(Kuwait)", "Make_a_visit", "Oman", "2012-01-02"),
    ("William_Ruto", "Make_pessimistic_comment", "China", "2013-01-01"),
    ("Ahmad_Wali_Karzai", "Praise_or_endorse", "China", "2013-01-02"),
]


@pytest.fixture(scope="module")
def linker(tmp_path_factory):
    yield from linker_over(tmp_path_factory.mktemp("role_lists") / "kg.duckdb", FACTS)


def links(linker: EntityLinker, question: str) -> dict[str, str | None]:
    return {m.text: (m.candidates[0][0] if m.candidates else None) for m in linker.link(question)}


def test_british_spellings_and_the_adjective_of_a_ment_noun():
    assert spelling_variant("international governmental organisations") == "international government organizations"
    assert spelling_variant("pattani united liberation organisation") == "pattani united liberation organization"
    assert spelling_variant("national assembly") == "national assembly"  # "-al" alone is left alone


def test_a_name_in_british_spelling_links(linker):
    found = links(linker, "When did international governmental organisations first sign an agreement with Iraq?")
    assert found["international governmental organisations"] == "International_Government_Organizations"
    found = links(linker, "Who made the last appeal to Thailand before the Pattani United Liberation Organisation?")
    assert found["Pattani United Liberation Organisation"] == "Pattani_United_Liberation_Organization"


def test_a_role_phrase_with_a_list_of_role_words(linker):
    found = links(linker, "Who was the last to visit China before the Ministry of Finance, Economy, Trade and Industry of Japan?")
    assert found["Ministry of Finance, Economy, Trade and Industry of Japan"] == "Finance_/_Economy_/_Commerce_/_Trade_Ministry_(Japan)"


def test_a_role_phrase_through_a_name_between_glue_words(linker):
    found = links(linker, "When did the Indian Ministry of Law and Justice visit Thailand?")
    assert found == {"Indian Ministry of Law and Justice": "Justice_Department/Ministery_(India)", "Thailand": "Thailand"}


def test_a_role_right_before_its_country(linker):
    found = links(linker, "Who did the Member of Legislative of Govt Iran wish to negotiate with?")
    assert found["Member of Legislative of Govt Iran"] == "Member_of_Legislative_(Govt)_(Iran)"


def test_a_demonym_before_an_act_is_its_country(linker):
    assert links(linker, "Who did Cambodian conventional forces attack in 2010?")["Cambodian"] == "Cambodia"


def test_a_possessive_before_an_act_is_its_owner(linker):
    assert links(linker, "Which country received Kuwait's visit from Kuwait in 2012?") == {"Kuwait": "Kuwait"}


def test_a_made_up_name_is_not_linked_to_an_embedding_neighbour(linker):
    assert links(linker, "Before Tomisel Ruto, which was the last country to make negative comments about China?")["Tomisel Ruto"] is None
    assert links(linker, "Who was the first to praise China after Dorzanstan?")["Dorzanstan"] is None
