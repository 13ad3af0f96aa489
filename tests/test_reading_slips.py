"""Typing slips (a letter dropped, doubled, changed or two swapped) read back to the word meant,
tested by what is read: the entities linked, the temporal cues, the asked time, the relation. The
questions are written for this test; the KG is a small one the test writes."""

from __future__ import annotations

import pytest
from bench_support import analyzer_over, linked

from agents.analysis.chat_spellings import Vocabulary
from ari.base.embedding import get_embedder

FACTS = [
    ("Kuwait", "Make_a_visit", "Iraq", "2009-03-07"),
    ("Iraq", "Make_a_visit", "Kuwait", "2010-05-02"),
    ("Angela_Merkel", "Criticize_or_denounce", "Kazakhstan", "2012-01-11"),
    ("Government_(Iraq)", "Threaten", "Kuwait", "2011-06-01"),
    ("Chain_Store_Group", "Make_statement", "Kuwait", "2011-06-01"),
    ("China", "Make_statement", "Kuwait", "2011-06-01"),
]


@pytest.fixture(scope="module")
def analyzer(tmp_path_factory: pytest.TempPathFactory):
    yield from analyzer_over(tmp_path_factory.mktemp("slips_kg") / "kg.duckdb", FACTS, get_embedder())


def test_slips_in_question_and_cue_words_are_read_as_the_words_meant(analyzer) -> None:
    slipped = analyzer.analyze("Whihc country vistied Kuwait lastt befroe Iraq did?")
    written = analyzer.analyze("Which country visited Kuwait last before Iraq did?")
    assert linked(analyzer, slipped.question) == ["Kuwait", "Iraq"]
    assert (slipped.pattern, slipped.cues, slipped.answer_type) == (written.pattern, written.cues, written.answer_type) == ("before_last", ["before", "last"], "entity")
    assert slipped.relations[0][0] == written.relations[0][0] == "Make_a_visit"


@pytest.mark.parametrize(
    ("question", "names"),
    [
        ("When did Angela Merkle criticise Kazakstan?", ["Angela_Merkel", "Kazakhstan"]),  # swapped, dropped
        ("Did the goverment of Iraq threaten Kuwait?", ["Government_(Iraq)", "Kuwait"]),
        ("when did kuwait last visit iraq", ["Kuwait", "Iraq"]),
        ("when did kuwat last visit iraq", ["Kuwait", "Iraq"]),  # a letter dropped
    ],
)
def test_slips_in_names_link_the_names_meant(analyzer, question, names) -> None:
    assert linked(analyzer, question) == names


def test_a_slip_close_to_two_words_is_left_as_written(analyzer) -> None:
    # "chian" is one slip from both "china" and "chain": no guess
    assert "chian" in analyzer.analyze("Who made a statement about Kuwait with chian?").question.lower()


def test_the_month_asked_survives_a_slip(analyzer) -> None:
    assert analyzer.analyze("In which mnoth did Iraq visit Kuwait?").time_level == analyzer.analyze("In which month did Iraq visit Kuwait?").time_level


def test_english_words_are_never_corrected() -> None:
    vocabulary = Vocabulary({"few", "visited", "threaten", "threatened"}, english={"flew", "the"})
    assert vocabulary.corrected("Who flew to Iraq?") == "Who flew to Iraq?"  # a word, though one slip from "few"
    assert vocabulary.corrected("Who visted Iraq?") == "Who visited Iraq?"
    assert Vocabulary({"visit", "vast"}, english={"the"}).corrected("vist vasy") == "visit vasy"  # four letters: a dropped one only
    assert vocabulary.corrected("Who bisited Iraq?") == "Who bisited Iraq?"  # the first letter: another word more likely
    assert vocabulary.corrected("Who threatend Iraq?") == "Who threatened Iraq?"  # two forms of one word: a letter dropped
    assert Vocabulary({"visited"}).corrected("Who visted Iraq?") == "Who visted Iraq?"  # no English to tell words from slips


def test_an_abbreviation_is_read_as_the_one_reading_word_it_stands_for() -> None:
    vocabulary = Vocabulary(
        {"visited", "sent", "aid"}, english={"the", "who", "won", "mil", "bet", "my", "lost"},
        reading={"before", "military", "militarily", "country", "between", "month", "more"},
    )
    assert vocabulary.corrected("Who visited Chile bef. Peru did?") == "Who visited Chile before Peru did?"  # its start, cut
    assert vocabulary.corrected("Which ctry sent mil. aid?") == "Which country sent military aid?"  # its consonants; forms of one
    assert vocabulary.corrected("Mo. Chile visited Peru?") == "Mo. Chile visited Peru?"  # month or more: not told
    assert vocabulary.corrected("I lost my bet. Who won?") == "I lost my bet. Who won?"  # an English word ending a sentence
