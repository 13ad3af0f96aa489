"""Readers who talk around the question: a statement the question points back to, hedges, stress in capitals,
dates said in words. Each is read as the direct question it asks (the same entities in the same roles, times,
pattern and query), or, where the reading cannot tell what it points to, left unsure (the judge abstains)."""

from __future__ import annotations

import pytest
from bench_support import analyzer_over

from agents.analysis.clauses import _named_antecedent
from agents.analysis.grammar import rewrite

FACTS = [
    ("Benny_Gantz", "Make_a_visit", "China", "2011-05-01"),
    ("Chen_Bingde", "Make_a_visit", "China", "2009-05-01"),
    ("Angela_Merkel", "Criticize_or_denounce", "Iraq", "2009-06-01"),
    ("Angela_Merkel", "Criticize_or_denounce", "Iran", "2008-06-01"),
    ("Iran", "Make_a_visit", "Iraq", "2009-03-03"),
    ("Kuwait", "Make_a_visit", "Iraq", "2009-03-03"),
    ("NATO", "Make_statement", "Iraq", "2010-01-01"),
]


@pytest.fixture(scope="module")
def analyzer(tmp_path_factory: pytest.TempPathFactory):
    yield from analyzer_over(tmp_path_factory.mktemp("discourse_kg") / "kg.duckdb", FACTS)


def reading(analyzer, text: str) -> tuple:  # noqa: ANN001 - a QuestionAnalyzer
    """What a question means to the planner: its entities in role order, times, pattern, cue and query."""
    a = analyzer.analyze(text)
    return [m.best for m in a.entities], [str(t.time) for t in a.times], a.pattern, a.cue, a.answer_type, a.query, a.unaccounted


@pytest.mark.parametrize(
    ("text", "direct"),
    [
        # the statement's party the question does not name is the one "he did", "him", "that" points to
        ("Benny Gantz went to China at some stage, I believe? Who was the first to visit China after he did?", "Who was the first to visit China after Benny Gantz?"),
        ("Iran visited Iraq at one point. Who was the first to visit Iraq after that?", "Who was the first to visit Iraq after Iran?"),
        ("Angela Merkel criticised Iraq. Before that, who was the last one she criticised?", "Before Iraq, who was the last one Angela Merkel criticised?"),
        ("I seem to remember Iran visiting Iraq. Who else visited Iraq on that same day?", "Who visited Iraq on the same day as Iran?"),
        # the statement's own time dates the event pointed back to: the question alone names none
        ("Iran visited Iraq on 3 March 2009. Who else visited Iraq on that same day?", "Who visited Iraq on the same day as Iran?"),
        # hedges say how sure the asker is, nothing of the facts
        ("I'm not 100% sure on this one - who visited Iraq in 2009, if you know?", "Who visited Iraq in 2009?"),
        ("Correct me if I'm wrong, but did Kuwait visit Iraq in 2009? I could be wrong on the details.", "Did Kuwait visit Iraq in 2009?"),
        ("ok so, wait, after Iran who visited Iraq first?", "After Iran who visited Iraq first?"),  # fillers opening the text
        # a hedge naming only what the question names again: its name takes no role
        ("I'm not sure how Angela Merkel fits in exactly, but before Angela Merkel, which country did Iran last visit?",
         "Before Angela Merkel, which country did Iran last visit?"),
        # capitals for stress are the word; an acronym the KG writes so is the name
        ("Which country was the VERY FIRST to visit Iraq?", "Which country was the very first to visit Iraq?"),
        ("What YEAR did NATO make a statement about Iraq?", "What year did NATO make a statement about Iraq?"),
        # a date said in words is the date
        ("so who visited iraq on march the third two thousand and nine", "who visited iraq on 3 March 2009"),
        ("um who did angela merkel criticise in twenty oh eight", "who did angela merkel criticise in 2008"),
    ],
)
def test_a_question_read_as_the_direct_question_it_asks(analyzer, text: str, direct: str) -> None:
    expected = reading(analyzer, direct)
    assert expected[0] and reading(analyzer, text) == expected  # the direct question names its parties


def test_what_cannot_be_told_stays_unsure(analyzer) -> None:
    # no statement says who "him" is: the judge abstains naming it
    assert "points to someone the question does not name" in (analyzer.analyze("Who visited China before him?").unaccounted or "")
    # two parties and nothing saying which one "that" points to: nothing chosen, both stay in the reading
    assert [m.best for m in analyzer.analyze("Iran and Kuwait visited Iraq. Who visited China after that?").entities] == ["Iran", "Kuwait", "Iraq", "China"]


def test_a_pronoun_that_may_point_inside_the_question_is_left_to_it() -> None:
    assert _named_antecedent("I read about {E1}. After {E2} visited {E3}, who was the first to visit {E3} after him?") is None
    # a sentence that names one party states no event to point back to
    assert _named_antecedent("I read about {E1}. Who was the first to visit {E2} after him?") is None


def test_a_verb_left_as_do_that_is_not_resolved() -> None:
    # the act is in the statement only: the question alone would ask another one
    assert _named_antecedent("{E1} visited {E2}. Who was the first to do that after him?") is None


def test_the_statement_s_act_is_kept_for_the_relation() -> None:
    # the question's own verb may be vaguer than the statement's ("go to"): the statement's words go with it
    read = rewrite("{E1} visited {E2}; which country did he go to first after that?")
    assert (read.text, read.dropped) == ("Which country did {E1} go to first after {E2}?", "visited")
    # a name linked with its sentence's full stop ("China." is a name): the capital after it still opens the question
    assert rewrite("The {E1} blamed the {E2} Who did they blame last before that?").text == "Who did {E1} blame last before {E2}?"


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        # the statement's day is the bound the question points back at; its subject is the pronoun's
        ("Jacob Zuma was sworn in on 9 May 2009. Which countries did he visit after that?", "Which countries did Jacob Zuma visit after 9 May 2009?"),
        ("Julia Gillard took office on 24 June 2010. From then until the end of the year, who did she phone?",
         "From 24 June 2010 until the end of the year, who did Julia Gillard phone?"),
        ("Iran threatened Iraq on 3 May 2010. Who threatened Iraq before that?", "Who threatened Iraq before 3 May 2010?"),
        # no day (an event in a month or year has a day the text does not say), or no pointer back: left as written
        ("Jacob Zuma was elected in 2009. Which countries did he visit after that?", "Jacob Zuma was elected in 2009. Which countries did he visit after that?"),
        ("Switzerland visited China. Who was the first to visit China after that?", "Switzerland visited China. Who was the first to visit China after that?"),
        ("Jacob Zuma was sworn in on 9 May 2009. Which countries did he visit in 2010?", "Jacob Zuma was sworn in on 9 May 2009. Which countries did he visit in 2010?"),
    ],
)
def test_a_statement_dating_an_event_gives_its_day_to_the_question_pointing_back(text: str, asked: str) -> None:
    from agents.analysis.discourse import as_checked_claim

    assert as_checked_claim(text) == asked


@pytest.mark.parametrize(
    ("text", "direct"),
    [
        # a statement, then a question that only points back ("when that happened", "which day was it", "do it"): the
        # statement's act is asked, its open value at the unit and ordinal the asker wants, checked or not
        ("Angela Merkel criticised Iraq at some point, and I'd like to know when that first happened... which year?",
         "In which year did Angela Merkel first criticise Iraq?"),
        ("Kuwait visited Iraq, I'm fairly sure. I want the exact date: what day was it?", "On which day did Kuwait visit Iraq?"),
        ("Benny Gantz visited China, I believe, but what I'm after is the latest time. What month and year was that?",
         "In which month did Benny Gantz last visit China?"),
        ("NATO made a statement about Iraq, if I remember right. When did that happen?", "On which day did NATO make a statement about Iraq?"),
        ("Iran went to Iraq, and then someone else visited Iraq after it. Who did it first after Iran?", "Who was the first to visit Iraq after Iran?"),
        ("Iran visited Iraq, and after that some country was the first to visit Iraq. Which country was that?",
         "Which country was the first to visit Iraq after Iran?"),
        ("Chen Bingde visited China; I'd love to know the most recent time. Which month was that?", "In which month did Chen Bingde last visit China?"),
        ("Angela Merkel criticised Iran. Which country did the same first?", "Which country was the first to criticise Iran?"),
        # a statement's own time holds (it is not in doubt, as a checked claim's is): the question asks within it
        ("Kuwait visited Iraq in 2009 - I want to know the month. Which was it?", "In which month did Kuwait visit Iraq in 2009?"),
    ],
)
def test_a_question_pointing_back_asks_the_statement_s_open_value(analyzer, text: str, direct: str) -> None:
    expected = reading(analyzer, direct)
    assert expected[0] and reading(analyzer, text) == expected


@pytest.mark.parametrize(
    "text",
    [
        # the question names its own parties and act: it is asked alone, the statement no source of a second act
        "Iran visited Iraq. When did Angela Merkel criticise Iran?",
        "Kuwait visited Iraq once, and I'd like to know who visited China first.",
        "Iran visited Iraq on 3 March 2009. Who else visited Iraq that day?",
        "Iran made a visit to Iraq; which country was the first to visit it after that?",  # the statement's noun, the question's verb
        # a statement of one act, then a question of another: not read as one question
        "Angela Merkel criticised Iraq, and I want to know which year she visited it?",
        "Iran visited Iraq at one point. Which year did Iran praise it first?",
        # two acts stated: what "it" points back at is not told
        "Iran visited Iraq, and Angela Merkel criticised Iran. Which year was it?",
        # what only points back with no statement before it names nothing
        "I'd like to know when that first happened. Which year?",
    ],
)
def test_a_question_that_stands_alone_or_asks_another_act_is_left_as_written(text: str) -> None:
    from agents.analysis.discourse import as_checked_claim

    assert as_checked_claim(text) == text
