"""A statement with its unknown marked (a gap, "this <noun>" to be named, a record's missing field) is
read as the question it asks: the same parties in the same roles, the same relation and the same
constraints as the plain question; text with no marker is read as written.

A small KG written by the test; the real analyzer with no embedder (no relation lexicon either)."""

from __future__ import annotations

import pytest
from bench_support import analyzer_over

from agents.analysis.analyzer import QuestionAnalyzer
from agents.analysis.gaps import as_question
from agents.analysis.question_form import not_a_question

FACTS = [
    ("Chile", "Make_a_visit", "Peru", "2010-03-01"),
    ("Norway", "Make_a_visit", "Peru", "2010-05-01"),
    ("Peru", "Criticize_or_denounce", "Bolivia", "2011-02-01"),
    ("Peru", "Criticize_or_denounce", "Chile", "2011-06-01"),
    ("Chile", "Sign_formal_agreement", "Norway", "2012-01-01"),
    ("Boris_Johnson", "Make_a_visit", "Chile", "2012-03-01"),
]


@pytest.fixture(scope="module")
def analyzer(tmp_path_factory: pytest.TempPathFactory):
    yield from analyzer_over(tmp_path_factory.mktemp("gaps_kg") / "kg.duckdb", FACTS)


def _reading(analyzer: QuestionAnalyzer, text: str) -> tuple[object, ...]:
    a = analyzer.analyze(text)
    return (a.masked.rstrip("?. ").lower(), [m.best for m in a.entities], a.pattern, a.answer_type, a.query.asks, a.time_level)


@pytest.mark.parametrize(
    ("marked", "question"),
    [
        # a gap where the subject stands, after an instruction that names nothing
        ("Fill in the gap: after Chile, ____ was the first to visit Peru.", "After Chile, who was the first to visit Peru?"),
        ("In 2011, _____ criticised Chile.", "In 2011, who criticised Chile?"),
        # the copula's subject is what a gap after "was" asks
        ("After Bolivia, the next country Peru criticised was ______.", "After Bolivia, who was the next country Peru criticised?"),
        # a gap for a time, with its unit
        ("Chile signed a formal agreement with Norway in the year [blank].", "In which year did Chile sign a formal agreement with Norway?"),
        # "this <noun>" and the request to name it
        ("After Chile had done so, this country was the first to visit Peru. Name this country.", "After Chile, which country was the first to visit Peru?"),
        ("This nation visited Peru in May 2010. For ten points, identify this nation.", "Which nation visited Peru in May 2010?"),
        # a record: fields by name in any order, or an arrowed triple; the missing value is asked
        ("target=Peru | event=visit | actor=? (country) | order=first after Chile", "Which country was the first to visit Peru after Chile?"),
        ("Peru -> criticise -> ? ; sequence: first after Bolivia. Whom?", "Whom did Peru criticise first after Bolivia?"),
        ("Visitor: ?. Destination: Peru. Date: May 2010.", "Who visited Peru in May 2010?"),
        # a participle key names the one acted on and the act; a key that names no role fills the open one
        ("Critic: Peru; Criticised: ? (country); Order: last before Chile. Which country?", "Which country did Peru last criticise before Chile?"),
        ("Party: ? | Event: sign formal agreement | With: Norway | Year: 2012", "Who signed a formal agreement with Norway in 2012?"),
        # a record whose missing value is a time: the unit asked
        ("Chile | visit | Peru | first | which month?", "In which month did Chile first visit Peru?"),
        # an indefinite subject and a tag asking for it
        ("Someone visited Peru in May 2010 - who was it?", "Who visited Peru in May 2010?"),
        ("A country criticised Chile first after Bolivia; which country was that?", "Which country criticised Chile first after Bolivia?"),
        ("Whoever last visited Peru before Norway - who was that?", "Who last visited Peru before Norway?"),
        # a noun phrase asked with a question mark asks for what it names, not yes or no
        ("Peru criticism: last country before Chile?", "Who was the last country Peru criticised before Chile?"),
        ("Chile's first Peru visit: year?", "In which year did Chile first visit Peru?"),
        ("Second visitor to Peru in 2012?", "Who was the second visitor to Peru in 2012?"),
        ("Boris Johnson visits to Chile in 2012: dates?", "When did Boris Johnson visit Chile in 2012?"),
    ],
)
def test_a_marked_unknown_is_read_as_the_question_it_asks(analyzer: QuestionAnalyzer, marked: str, question: str) -> None:
    assert _reading(analyzer, marked)[1:] == _reading(analyzer, question)[1:]
    assert not_a_question(analyzer.analyze(marked).question) is None


@pytest.mark.parametrize(
    "text",
    ["Who visited Peru this year? Name this country.", "first visit peru chile year", "Did Chile visit Peru ?", "Peru visited Chile.", "a=b",
     "First, did Chile visit Peru?", "Chile visited Peru first?", "Who visited Peru ? in 2010"],
)
def test_text_without_a_marked_unknown_is_left_as_written(text: str) -> None:
    assert as_question(text) == text


def test_a_closing_remark_goes_unless_it_sets_a_party_aside() -> None:
    assert as_question("Peru was visited by ____. (2 marks)") == as_question("Peru was visited by ____.")
    kept = "How many countries did Chile visit in 2010? (not counting trips inside Peru)"
    assert as_question(kept) == kept


@pytest.mark.parametrize("text", ["Which country did Chile visit? (after 3 Feb 2010)", "Who visited Peru? (the first one)", "Who visited Peru? (in 2009)"])
def test_a_closing_parenthesis_that_holds_a_time_or_an_order_is_part_of_the_question(text: str) -> None:
    assert as_question(text) == text


def test_a_record_with_two_missing_values_is_left_to_be_refused() -> None:
    assert as_question("actor=? | event=visit | target=?") == "actor=? | event=visit | target=?"


def test_a_hashtag_is_read_as_its_words_and_trailing_tags_are_left_out(analyzer: QuestionAnalyzer) -> None:
    tagged = _reading(analyzer, "After #BorisJohnson, who was the first to visit #Chile? #diplomacy #travel")
    assert tagged == _reading(analyzer, "After Boris Johnson, who was the first to visit Chile?")
    assert tagged[1] == ["Chile", "Boris_Johnson"]
