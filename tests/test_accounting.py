"""Words the reading leaves unaccounted for make the judge abstain, naming them (`agents.analysis.accounting`)."""

from __future__ import annotations

import pytest

from agents.analysis.accounting import Vocabularies, unaccounted
from agents.analysis.analyzer import QuestionAnalyzer
from agents.analysis.types import EntityMention
from agents.judge import audit_answerability, own_answers

# a KG whose names hold "Citizen (Unidentified State Actor)" and "Defence Minister (ASEAN)"; the
# analysis reads "state" as English and "citizens" from its relation lexicon
WORDS = Vocabularies(
    name_words=frozenset("said she me all citizen citizens unidentified state actor defence minister ministers human rights of the china".split()),
    read_words=frozenset("state citizens human rights the of who which country visited".split()),
)


@pytest.mark.parametrize(
    ("masked", "named", "why"),
    [
        # number words the time reader cannot place (a bare "two thousand" is as likely a count)
        ("so in two thousand who was the last one {E1} appealed to", "'two thousand'", "not read"),
        ("which country denounced {E1} on november twelve two thousand", "'november twelve two thousand'", "not read"),
        ("Before {E1}, which country was condemned by the citizens of the state actor?", "'state actor'", "no entity was linked"),
        ("when did {E1} defence ministers first visit {E2}", "'defence ministers'", "no entity was linked"),
    ],
)
def test_a_time_or_a_name_the_reading_left_out_is_named(masked: str, named: str, why: str) -> None:
    problem = unaccounted(masked, WORDS)
    assert problem is not None and named in problem and why in problem


@pytest.mark.parametrize(
    "masked",
    [
        "In {T1}, who was the last one {E1} said it wanted to negotiate with?",  # a time read; "one" is a pronoun
        "Which country visited {E1} two times in {T1}?",  # one number word alone is no date
        "Who criticised the human rights record of {E1}?",  # both words are words the analysis reads
        "What year did {E1} carry out its investigation of {E2}?",  # a pronoun is no part of a name
        "Who did {E1} criticise in {T1}? Name me all.",
        "After {E1}, who was the first one {E2} said she wanted to negotiate with?",  # a personal pronoun is no part of a name
    ],
)
def test_a_reading_that_accounts_for_every_word_is_left_alone(masked: str) -> None:
    assert unaccounted(masked, WORDS) is None


# the same KG read by a reader that knows general English: a word none of these spell is unread
ENGLISH = Vocabularies(WORDS.name_words, WORDS.read_words, frozenset(
    "after what was first country criticised who wanted visit negotiate diplomatic with never not has no i sure but remember when do did in which it he how many countries counting trips".split()))


@pytest.mark.parametrize(
    ("masked", "named"),
    [
        ("after {E1} what was the first country the unhcr criticised", "'unhcr' was not read"),  # an acronym no entity has
        ("Who said no to {E1} first?", "'no to'"),  # saying no is rejecting: not the relation "said"
        ("Who never visited {E1} after {T1}?", "'never visited'"),
        ("Which country has {E1} not visited?", "'not visited'"),
        # the question word in words the reading does not know, before the auxiliary: no yes / no is asked
        ("Con quién did {E1} sign the most agreements in {T1}?", "'Con quién' before the question's verb"),
        ("Wann did {E1} visit {E2}?", "'Wann' before"),
    ],
)
def test_an_unknown_word_or_a_negated_event_is_named(masked: str, named: str) -> None:
    problem = unaccounted(masked, ENGLISH)
    assert problem is not None and named in problem


@pytest.mark.parametrize(
    "masked",
    [
        "Who negotiated diplomatically with {E1} first?",  # inflections of words it knows
        "after {E1} who first wantd to visit {E2}",  # one letter slipped from an English word
        "I'm not sure, but who visited {E1} first?",  # negations of knowing are hedges about the asker
        "I don't remember when {E1} first visited {E2}",
        "Didn't {E1} visit {E2} in {T1}? Which country was it?",  # a negative question asks as the positive does
        "{E1} criticised {E2}, didn't he? Who criticised {E2} first?",  # a question tag
        "Which country visited {E1} after {T1}, not {E2}?",  # "not {E2}" excludes a name the query reads
        "How many countries did {E1} visit in {T1}? (not counting trips to {E2})",
        "Did {E1} visit {E2} in {T1} or not?",  # after "or" a negation offers the other answer
        # an auxiliary after a time, a conjunction or a question word asks as written
        "In {T1}, did {E1} visit {E2}?", "In {T1} did {E1} visit {E2}?", "So did {E1} visit {E2} in {T1}?", "Which country did {E1} visit in {T1}?",
        "How many countries in {T1} did {E1} visit?",
    ],
)
def test_known_words_and_negations_that_are_not_of_the_event_are_left_alone(masked: str) -> None:
    assert unaccounted(masked, ENGLISH) is None


def test_without_an_english_vocabulary_no_word_is_taken_for_an_unknown_name() -> None:
    assert unaccounted("after {E1} what was the first country the unhcr criticised", WORDS) is None


def test_the_judge_refuses_a_question_with_an_unread_time_on_a_real_store(demo_store) -> None:
    analyzer = QuestionAnalyzer(demo_store, None)
    question = next(n for n in demo_store.entity_names() if "_" not in n)
    analysis = analyzer.analyze(f"Who visited {demo_store.display(question)} in march two thousand?")
    judgement = audit_answerability(demo_store, analysis, None, True)
    assert not judgement.answerable and "'march two thousand' was not read" in (judgement.missing or "")
    said = analyzer.analyze(f"Who visited {demo_store.display(question)} in twenty twelve?")  # a year said in words is read
    assert [str(t.time) for t in said.times] == ["2012"] and said.unaccounted is None


# two people of one surname; only one of them has facts with Japan
LEES = [
    ("Lee_Myung-bak", "Make_a_visit", "China", "2008-05-27"),
    ("Lee_Myung-bak", "Make_a_visit", "Japan", "2008-04-20"),
    ("Lee_Hoi-chang", "Make_a_visit", "China", "2007-11-02"),
]


@pytest.fixture(scope="module")
def lees(tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201 - an iterator of QuestionAnalyzer
    from tests.bench_support import analyzer_over

    yield from analyzer_over(tmp_path_factory.mktemp("lees") / "kg.duckdb", LEES)


def test_a_surname_of_several_people_is_asked_about_not_guessed(lees) -> None:  # noqa: ANN001
    analysis = lees.analyze("When did Lee visit China?")
    judgement = audit_answerability(lees.store, analysis, None, True)
    assert not judgement.answerable and judgement.missing is not None  # asked which one, not guessed
    assert "Lee Myung-bak" in judgement.missing and "Lee Hoi-chang" in judgement.missing


def test_the_facts_with_the_other_entity_tell_the_surname_apart(lees) -> None:  # noqa: ANN001
    analysis = lees.analyze("When did Lee visit Japan?")
    assert [m.best for m in analysis.entities][0] == "Lee_Myung-bak"
    assert audit_answerability(lees.store, analysis, None, True).answerable


def test_an_answer_that_is_only_the_question_s_own_entity_is_refused(demo_store) -> None:
    first, second = sorted(demo_store.entity_names())[:2]
    mentions = [EntityMention(demo_store.display(first), (0, 1), [(first, 1.0)])]
    problem = own_answers([demo_store.display(first)], mentions, demo_store)
    assert problem is not None and demo_store.display(first) in problem and "named in the question" in problem
    assert own_answers([demo_store.display(second), demo_store.display(first)], mentions, demo_store) is None


def test_the_agent_abstains_on_an_unsure_reading_unless_configured_not_to(parts) -> None:  # noqa: ANN001
    from dataclasses import replace

    from agents.agent import Agent
    from ari.base.config import AbstentionConfig

    store, memory, agent = parts
    name = next(n for n in store.entity_names() if "_" not in n)
    question = f"Who visited {store.display(name)} in march two thousand?"
    assert "'march two thousand' was not read" in (agent.ask(question).reason or "")
    config = replace(agent.config, abstention=AbstentionConfig(unsure_reading=False))
    plain = Agent(store, memory, config, analyzer=agent.analyzer, embedder=agent.embedder).ask(question)
    assert "not read" not in (plain.reason or "")
