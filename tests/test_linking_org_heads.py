"""Organisation names (agents.analysis.entities): a one-word capitalised head before a linked name
is part of that name, and a preposition opening the question is no name, on a KG the test writes."""

from __future__ import annotations

import pytest
from bench_support import linker_over

from agents.analysis.entities import EntityLinker

FACTS = [
    ("High_Commission_for_Refugees", "Make_a_visit", "Djibouti", "2009-03-01"),
    ("Mainland_Affairs_Council", "Make_optimistic_comment", "Taiwan", "2007-07-07"),
    ("Japan", "Use_conventional_military_force", "China", "2010-01-01"),
    ("Action_Against_Hunger", "Make_an_appeal_or_request", "China", "2010-02-02"),
    ("Tourist_(Japan)", "Make_a_visit", "China", "2010-03-03"),
    ("China", "Host_a_visit", "Japan", "2010-04-04"),
    ("Okada_Katsuya", "Make_a_visit", "Cambodia", "2009-05-05"),
    ("Foreign_Affairs_(Japan)", "Make_statement", "Cambodia", "2009-06-06"),
    ("Nuri_al-Maliki", "Make_a_visit", "Iran", "2008-01-01"),
    ("Prime_Minister_(Iraq)", "Consult", "Iran", "2008-02-02"),
    ("UN_Security_Council", "Criticize_or_denounce", "Iran", "2008-03-03"),
]


@pytest.fixture(scope="module")
def linker(tmp_path_factory):
    yield from linker_over(tmp_path_factory.mktemp("org_heads") / "kg.duckdb", FACTS)


def texts(linker: EntityLinker, question: str) -> list[str]:
    return [m.text for m in linker.link(question)]


def test_a_one_word_head_joins_the_name_it_starts(linker):
    # "UN" is no party of its own: one mention reads the whole name
    found = linker.link("In which year did the UN High Commission for Refugees last visit Djibouti?")
    assert [m.best for m in found] == ["High_Commission_for_Refugees", "Djibouti"]


def test_a_longer_name_before_of_stays_a_name(linker):
    found = texts(linker, "When did the Mainland Affairs Council of Taiwan praise China?")
    assert "Taiwan" in found and any("Mainland Affairs Council" in t for t in found)


def test_an_opening_preposition_is_no_name(linker):
    assert texts(linker, "Against which country did Japan use conventional military force?") == ["Japan"]


def test_the_noun_of_an_act_is_no_sector_of_its_owner(linker):
    # "the visit of Japan" is Japan's visit, not a sector of Japan (a tourist, say)
    assert texts(linker, "Which country hosted the visit of Japan in 2010?") == ["Japan"]


@pytest.mark.parametrize(
    ("question", "person"),
    [
        ("In what year did Cambodia host Japanese Foreign Minister Katsuya Okada?", "Okada_Katsuya"),
        ("When did Iraqi Prime Minister Nouri al-Maliki visit Iran?", "Nuri_al-Maliki"),
    ],
)
def test_a_role_before_a_persons_name_is_the_persons_title(linker, question, person):
    # the role is said of the person (apposition): one party, the person, not the role's sector as well
    found = linker.link(question)
    assert [m.best for m in found if m.best not in ("Cambodia", "Iran")] == [person]


def test_a_role_apart_from_a_name_stays_a_party(linker):
    found = linker.link("Did the Iraqi prime minister consult Iran before Nouri al-Maliki visited it?")
    assert [m.best for m in found][0] == "Prime_Minister_(Iraq)"


@pytest.mark.parametrize("written", ["UN Security Council", "U.N. Security Council"])
def test_initials_written_with_stops_are_the_initials(linker, written):
    assert [m.best for m in linker.link(f"When did the {written} criticise Iran?")] == ["UN_Security_Council", "Iran"]
