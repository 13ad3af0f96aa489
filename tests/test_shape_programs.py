"""What a shape question's program reads, on a tiny real KG with a memory learned from the questions it asks itself (no
labelled question, no program written for these questions): an event the question refers to by an act of its own
("after X granted asylum to Y, which countries did X visit"), read through the relation its own words name; two
relations the words name alike that answer a count differently, which ARI does not guess between; a pronoun that takes
up a name set before the question, and one that points to no name."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.bench_support import country_sectors, generated_agent_over, visit

FACTS = [
    *visit("Jack_Straw", "Iran", "2008-01-05"),
    *visit("Jack_Straw", "Iraq", "2008-02-01"),
    *visit("Jack_Straw", "Japan", "2008-06-01"),
    *visit("Jack_Straw", "Japan", "2008-08-01"),
    *visit("Jack_Straw", "Kuwait", "2008-09-01"),
    *visit("Barack_Obama", "Iran", "2008-03-01"),
    ("Jack_Straw", "Criticize_or_denounce", "China", "2008-04-01"),
    ("Jack_Straw", "Criticize_or_denounce", "Iran", "2008-07-01"),
    ("Iran", "Criticize_or_denounce", "Iraq", "2008-02-10"),
    ("Japan", "Criticize_or_denounce", "Iraq", "2008-05-03"),
    ("China", "Criticize_or_denounce", "Iraq", "2008-08-04"),
    ("Iran", "Sign_formal_agreement", "Iraq", "2008-04-20"),
    ("Iraq", "Sign_formal_agreement", "Iran", "2008-04-20"),
    ("Iran", "Threaten_with_sanctions,_boycott,_embargo", "Iraq", "2008-02-01"),
    ("Iran", "Impose_embargo,_boycott,_or_sanctions", "Iraq", "2008-03-01"),
    ("Iran", "Impose_embargo,_boycott,_or_sanctions", "Iraq", "2008-04-01"),
    ("Japan", "Impose_embargo,_boycott,_or_sanctions", "Iraq", "2008-05-01"),
    ("Japan", "Threaten_with_sanctions,_boycott,_embargo", "China", "2008-05-02"),
    ("Iran", "Provide_humanitarian_aid", "Iraq", "2008-06-01"),
    ("Japan", "Provide_humanitarian_aid", "Iraq", "2008-06-02"),
    ("Japan", "Provide_humanitarian_aid", "Iraq", "2008-07-02"),
    ("China", "Express_intent_to_provide_humanitarian_aid", "Iraq", "2008-06-03"),
    ("Iran", "Express_intent_to_provide_humanitarian_aid", "Iraq", "2008-06-04"),
    *country_sectors(("Iran", "Iraq", "Japan", "China", "Kuwait"), "2009-01-01"),
]


@pytest.fixture(scope="module")
def agent(tmp_path_factory: pytest.TempPathFactory) -> Iterator:
    yield from generated_agent_over(tmp_path_factory.mktemp("programs"), FACTS)


def test_answers_are_placed_against_an_event_of_another_act(agent) -> None:  # noqa: ANN001
    # Jack Straw criticised China on 1 April 2008: he visited Japan (twice) and Kuwait after it, Iran and Iraq before
    after = agent.ask("Which countries did Jack Straw visit after he criticised China?")
    assert set(after.answers) == {"Japan", "Kuwait"} and after.is_list
    assert set(agent.ask("Which countries did Jack Straw visit before he criticised China?").answers) == {"Iran", "Iraq"}
    # Iran signed a formal agreement with Iraq on 20 April 2008: Japan and China criticised Iraq after it
    assert set(agent.ask("After Iran signed a formal agreement with Iraq, who criticised Iraq?").answers) == {"Japan", "China"}


def test_yes_no_and_counts_are_placed_against_an_event_of_another_act(agent) -> None:  # noqa: ANN001
    # Jack Straw criticised China on 1 April 2008, visited Japan on 1 June and 1 August, Iraq on 1 February
    assert agent.ask("Did Jack Straw visit Japan after he criticised China?").answers == ["Yes"]
    assert agent.ask("How many times did Jack Straw visit Japan after he criticised China?").answers == ["2"]
    # none after it: No and 0, read against that event (he did visit Iraq, before it)
    assert agent.ask("Did Jack Straw visit Iraq after he criticised China?").answers == ["No"]
    assert agent.ask("How many times did Jack Straw visit Iraq after he criticised China?").answers == ["0"]
    assert agent.ask("Did Jack Straw visit Iraq before he criticised China?").answers == ["Yes"]


def test_a_referred_event_of_another_act_that_never_happened_is_said_to_be_missing(agent) -> None:  # noqa: ANN001
    result = agent.ask("After Japan signed a formal agreement with Iraq, who criticised Iraq?")
    assert result.abstained and "Sign formal agreement" in (result.reason or "") and "Japan" in (result.reason or "")


def test_a_pronoun_stands_for_the_topic_named_before_the_question_and_none_is_guessed(agent) -> None:  # noqa: ANN001
    assert set(agent.ask("Jack Straw, which countries did he visit in 2008?").answers) == {"Iran", "Iraq", "Japan", "Kuwait"}
    assert agent.ask("Jack Straw: which country did he visit first?").answers == ["Iran"]
    nobody = agent.ask("Which countries did he visit after Iraq?")
    assert nobody.abstained and "'he'" in (nobody.reason or "")


def test_a_count_over_two_relations_named_alike_that_answer_differently_is_refused(agent) -> None:  # noqa: ANN001
    # "sanctions" with no act says Impose embargo, boycott, or sanctions (twice) and Threaten with sanctions (once) alike
    result = agent.ask("How many times did Iran use sanctions against Iraq in 2008?")
    assert result.abstained and "alike" in (result.reason or "")
    # the words of one of them tell it apart
    assert agent.ask("How many times did Iran impose sanctions on Iraq in 2008?").answers == ["2"]


def test_a_relation_that_says_more_than_the_words_is_no_rival(agent) -> None:  # noqa: ANN001
    # "gave humanitarian aid" is Provide humanitarian aid; an intent to provide it says more than the question does
    assert agent.ask("How many times did Japan provide humanitarian aid to Iraq in 2008?").answers == ["2"]


def test_a_yes_no_or_a_count_takes_its_value_of_a_program_that_lists_what_it_finds() -> None:
    from actions.programs import Program
    from actions.query import Query
    from agents.analysis.types import QuestionAnalysis
    from agents.methodology import Guide
    from agents.shapes import valued_variants

    listing = Program.parse(["getTime(E1, R, E3)", "getTime(E1, R, E2)", "getBefore(#2, #1)", "answer(#3)"])
    picking = Program.parse(["getTime(E1, R, E2)", "getFirst(#1)", "answer(#2)"])
    guides = [Guide(listing, 3, 1.0), Guide(picking, 3, 1.0)]

    def made(query: Query, masked: str = "Had {E1} visited {E2} before {E1} criticised {E3}?") -> list[tuple[str, ...]]:
        analysis = QuestionAnalysis(question="", masked=masked, query=query)
        return [g.program.texts for g in valued_variants(guides, analysis)[len(guides):]]

    # whether the list holds anything, how many days or entities it holds; a pick answers no list and has no such value
    assert made(Query(asks="yesno")) == [("getTime(E1, R, E3)", "getTime(E1, R, E2)", "getBefore(#2, #1)", "exists(#3)", "answer(#4)")]
    assert made(Query(asks="number", count="days"))[0][-2:] == ("count(#3, days)", "answer(#4)")
    assert made(Query(asks="entity")) == []
    # a yes / no read from its question mark alone is too weak a reading to be given a program no methodology holds
    assert made(Query(asks="yesno"), "{E1} agreements w/ {E2}, same day as {E3}. country?") == []
