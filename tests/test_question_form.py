"""Not a question -> a clear reason (agents.analysis.question_form)."""

from __future__ import annotations

import re

import pytest

from agents.analysis.query import read_query
from agents.analysis.question_form import as_yes_no, not_a_question, without_asides, without_hedges


@pytest.mark.parametrize(
    "text",
    [
        "Who visited Iran in 2010?",
        "In 2010, who visited Iran?",
        "Iran visited whom in 2010?",
        "When did France visit Iran",
        "Could you tell me the exact month when Thailand made a request to Angola?",
        "Did anyone visit Iran in 2010?",  # a yes/no form about an indefinite asks who
        "Can you name the last country to visit Iran?",
        "Could you tell me the exact month Staffan de Mistura visited China?",
        "Name the last country to visit Iran.",
        "last country to praise iraq before the ap",  # a search-box query for an extreme
        "the first one to visit china in 2010",
        "china investigated anyone after may 2012?",
        "first to negotiate with musharraf after kuwait?",
        "the last time Rio Tinto investigated China",  # a definite description of a time
        "I'd like to know the month Iran last visited China.",  # a wish to know: an indirect question
        "I want to know the year France first praised Iran",
        "I'm wondering the month Iran last visited China.",  # the grammar's verbs of knowing, read here too
        "Let us know the year France first praised Iran.",
        "Show us the last country to visit Iran.",
        "Do you know the last year France visited Iran?",
    ],
)
def test_questions_pass(text):
    assert not_a_question(text) is None


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Iran", "a bare name or fragment"),
        ("Iran?", "a bare name or fragment"),
        ("the last", "a bare name or fragment"),
        ("visited Iran in 2010", "a bare name or fragment"),
        ("first did Kuwait formally sign an agreement with", "a bare name or fragment"),  # a clause, its subject cut away
        ("last visited China before 2010", "a bare name or fragment"),
        ("France visited Iran in 2010.", "a statement"),
        ("In the same month, China sent an appeal to Ma Ying Jeou.", "a statement"),
    ],
)
def test_non_questions_are_named(text, kind):
    assert not_a_question(text) == f"{text!r} is {kind}, not a question: ask who, what, which or when"


@pytest.mark.parametrize(
    "text", ["Did France visit Iran in 2010?", "Iran visited China in 2010?", "Was Iran criticised by France?", "Has Kuwait ever praised Iraq?"]
)
def test_yes_no_questions_are_named(text):
    # an entity or a time would answer a question the user did not ask
    assert not_a_question(text) == f"{text!r} is a yes/no question, which ARI does not answer: ask who, what, which or when"


def test_empty_text():
    assert not_a_question("   ") == "the text is empty: ask a question"


@pytest.mark.parametrize(
    ("text", "question"),
    [
        ("True or false: Lee Myung Bak visited Cambodia in 2009.", "Lee Myung Bak visited Cambodia in 2009?"),
        ("Yes or no - did Iran visit Iraq in 2008?", "Did Iran visit Iraq in 2008?"),
        ("true or false, japan praised china", "Japan praised china?"),
        # the answer's form closing the text: a note, a tag, a request to confirm
        ("- Japan, visit to China, 2013 - confirm y/n", "- Japan, visit to China, 2013?"),
        ("Japan praising China in 2009? yes/no", "Japan praising China in 2009?"),
        ("Did Iran visit Iraq in 2008, yes or no?", "Did Iran visit Iraq in 2008?"),
        ("Iran visited Iraq in 2008 (true/false)", "Iran visited Iraq in 2008?"),
        ("Iran visited Iraq in 2008 - please confirm.", "Iran visited Iraq in 2008?"),
    ],
)
def test_a_statement_put_to_be_judged_is_the_yes_no_question_it_puts(text: str, question: str) -> None:
    assert as_yes_no(text) == question


@pytest.mark.parametrize("text", ["Who visited Iran in 2010?", "True Whig Party visited whom?", "True or false:", "yes/no", "Which country did the report confirm?"])
def test_other_text_is_left_as_written(text: str) -> None:
    assert as_yes_no(text) == text


@pytest.mark.parametrize(
    "text",
    [
        "Who criticized the Police (Iraq) in 2010?",  # a bracket of names: part of a KG name
        "Which award did 8 (play) win first?",  # a short note: part of a KG name
        "Who visited Iran in 2008 (not Iraq)?",  # sets a party aside
        "Who visited China (in 2008)?",  # holds a time
        "Which country visited Iran? (the first one)",  # holds an ordinal
    ],
)
def test_a_bracket_that_may_name_or_constrain_is_no_gloss(text: str) -> None:
    assert without_asides(text) == text


def test_a_gloss_is_set_aside_where_it_stands() -> None:
    assert without_asides("Before 5 March 2010 (so up to the 4th), who criticised Kenya?") == "Before 5 March 2010, who criticised Kenya?"
    assert without_asides("Who praised Ghana after Queen Elizabeth II (Britain's monarch at the time) did?") == "Who praised Ghana after Queen Elizabeth II did?"


def test_the_one_word_addressed_after_a_filler_is_set_aside_but_not_a_word_of_order() -> None:
    assert without_hedges("Okay folks, who visited Peru in 2010?") == "Who visited Peru in 2010?"
    assert without_hedges("So, first, who visited Peru?") == "First, who visited Peru?"
    assert without_hedges("Hey, Peru visited Chile when?") == "Peru visited Chile when?"  # a name is no one addressed


@pytest.mark.parametrize(
    "text",
    [
        "Who asked Chile for help?",  # the question word is in the lead: it asks
        "Peru asked Chile for help first in which year?",  # a verb of the event, not a lead-in passing the question on
        "After Peru did, who wants to know more about Chile?",  # a cue before the verb: the question's own words
    ],
)
def test_an_asking_verb_of_the_event_is_no_lead_in(text: str) -> None:
    assert without_asides(text) == text


@pytest.mark.parametrize(
    ("text", "naming", "kept"),
    [
        ("Pop quiz: who visited Chile first? Answer fast!", frozenset({"chile"}), "Who visited Chile first?"),
        ("Peru: who visited Chile first?", frozenset({"chile", "peru"}), "Peru: who visited Chile first?"),  # names a party
        ("In 2009: who visited Chile?", frozenset({"chile"}), "In 2009: who visited Chile?"),  # a time
        ("Pop quiz: who visited Chile first?", None, "Pop quiz: who visited Chile first?"),  # names unknown
    ],
)
def test_a_short_piece_is_an_aside_only_when_it_names_and_places_nothing(text: str, naming: frozenset[str] | None, kept: str) -> None:
    assert without_asides(text, naming) == kept


@pytest.mark.parametrize(
    ("masked", "asks"),
    [
        ("{E1} praised {E2} in {T1}?", "yesno"),  # a statement asked
        ("Year {E1} first criticised {E2}?", "entity"),  # opens with what it asks: the year, not yes or no
    ],
)
def test_a_question_opening_with_the_unit_it_asks_asks_it_not_yes_or_no(masked: str, asks: str) -> None:
    spans = [m.span() for m in re.finditer(r"\{E\d\}", masked)]
    assert read_query(masked, masked, masked.count("{T"), spans).asks == asks
