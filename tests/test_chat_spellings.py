"""Chat spellings and short names of casual questions (issue 13, helper casual3).

The spelling rules are general English (chat and newspaper abbreviations); the name rules are read
off a small KG written by the test and ingested into a real DuckDB file."""

from __future__ import annotations

import pytest
from bench_support import analyzer_over, linked

from agents.analysis.analyzer import QuestionAnalyzer
from agents.analysis.chat_spellings import protected_ngrams, standard_spelling

FACTS = [
    ("Mohamed_Ould_Abdel_Aziz", "Make_a_visit", "China", "2011-04-01"),
    ("Sheikh_Hamad_bin_Isa_al_Khalifah", "Express_intent_to_meet_or_negotiate", "Thailand", "2013-04-02"),
    ("Michael_D._Higgins", "Make_a_visit", "Ethiopia", "2014-11-03"),
    ("Wang_Yi", "Make_a_visit", "Cambodia", "2013-09-09"),
    ("South_Korea", "Sign_formal_agreement", "Malaysia", "2010-07-01"),
    ("Labor_Union_(South_Korea)", "Make_a_visit", "China", "2008-05-01"),
    ("Police_(South_Korea)", "Investigate", "South_Korea", "2008-06-01"),
    ("Wen_Jiabao", "Make_a_visit", "Malaysia", "2009-05-01"),
    ("Iraqi_Communist_Party", "Engage_in_negotiation", "Iraq", "2010-01-01"),
    ("Party_Member_(Iraq)", "Engage_in_negotiation", "Iraq", "2010-02-01"),
    ("Islamic_Party_of_Iraq", "Make_statement", "Iraq", "2010-02-01"),
    ("Germán_Verdugo", "Make_a_visit", "Iraq", "2010-03-01"),
    ("Rupiah_Banda", "Express_intent_to_meet_or_negotiate", "China", "2010-04-01"),
    ("Banda_(Malawi)", "Make_a_visit", "Iraq", "2010-05-01"),
    ("Media_Personnel_(International)", "Make_a_visit", "Iraq", "2007-05-01"),
    ("Militant_(Taliban)", "Use_conventional_military_force", "Iraq", "2008-05-01"),
]


@pytest.fixture(scope="module")
def analyzer(tmp_path_factory: pytest.TempPathFactory):
    yield from analyzer_over(tmp_path_factory.mktemp("chat_kg") / "kg.duckdb", FACTS)


def test_chat_spellings_are_written_out() -> None:
    assert standard_spelling("wat yr did merkel visit kuwait b4 08") == "what year did merkel visit kuwait before 2008"
    assert standard_spelling("wen did iraq talk w iran abt oil") == "when did iraq talk with iran about oil"
    assert standard_spelling("who was the 1st to visit the intl media dept") == "who was the first to visit the international media department"
    assert standard_spelling("who visited iraq back in 06") == "who visited iraq back in 2006"
    assert standard_spelling("Wat yr did merkel visit kuwait") == "What year did merkel visit kuwait"  # capitalised as it opens
    assert standard_spelling("who visited iraq after october of 99") == "who visited iraq after october of 1999"


def test_what_is_not_a_chat_spelling_stays() -> None:
    assert standard_spelling("who visited iraq on may 1st 2008") == "who visited iraq on may 1st 2008"  # a date
    assert standard_spelling("who visited iraq on the 1st of may 2008") == "who visited iraq on the 1st of may 2008"
    assert standard_spelling("who visited iraq between the 1st and 10th of may 2008") == "who visited iraq between the 1st and 10th of may 2008"
    assert standard_spelling("who visited iraq from the 1st to the 10th of may 2008") == "who visited iraq from the 1st to the 10th of may 2008"
    assert standard_spelling("Who did W visit?") == "Who did W visit?"  # written with a capital: a name
    assert standard_spelling("who visited iraq in 09 may 2008") == "who visited iraq in 09 may 2008"  # a day
    assert standard_spelling("who visited iraq in 10 days") == "who visited iraq in 10 days"  # a count
    protected = protected_ngrams(["george w bush", "wen jiabao"])
    assert standard_spelling("who did george w bush visit", protected) == "who did george w bush visit"
    assert standard_spelling("wen did wen jiabao visit iraq", protected) == "when did wen jiabao visit iraq"
    assert standard_spelling("Wen visited iraq in 2008", protected) == "Wen visited iraq in 2008"  # a KG name's word


def test_casual_names_from_the_kg(analyzer: QuestionAnalyzer) -> None:
    assert linked(analyzer, "wat yr did abdel aziz first visit china") == ["Mohamed_Ould_Abdel_Aziz", "China"]  # "Abdel Aziz": one name
    assert linked(analyzer, "wen did hamad bin isa first want to meet thailand")[0] == "Sheikh_Hamad_bin_Isa_al_Khalifah"  # five words with particles
    assert linked(analyzer, "which month did pres higgins visit ethiopia")[0] == "Michael_D._Higgins"  # an initial is no role word
    assert linked(analyzer, "who signed an agreement w s korea") == ["South_Korea"]  # a compass word as its initial
    assert linked(analyzer, "what yr did s korean unions first visit china")[0] == "Labor_Union_(South_Korea)"
    assert linked(analyzer, "wen did wen jiabao visit malaysia")[0] == "Wen_Jiabao"
    mention = analyzer.analyze("when did fm wang yi last visit cambodia").entities[0]
    assert mention.text == "fm wang yi" and mention.best == "Wang_Yi"  # the title is part of the name


def test_an_organisation_named_after_its_country(analyzer: QuestionAnalyzer) -> None:
    assert linked(analyzer, "who did iraq's communist party negotiate with") == ["Iraqi_Communist_Party"]
    assert linked(analyzer, "who did the communist party of iraq negotiate with") == ["Iraqi_Communist_Party"]
    assert linked(analyzer, "what did the iraqi islamic party say") == ["Islamic_Party_of_Iraq"]
    assert linked(analyzer, "who did germany's verdugo visit") != ["Germán_Verdugo"]  # a person's name has no other form


def test_a_surname_that_is_a_role_word_after_a_title(analyzer: QuestionAnalyzer) -> None:
    mention = analyzer.analyze("who did pres banda want to meet after china").entities[0]
    assert mention.text == "pres banda" and mention.best == "Rupiah_Banda"
    assert "Rupiah_Banda" not in linked(analyzer, "who did banda want to meet after china")
    # the KG must confirm it: no fact links Rupiah Banda and Iraq
    assert "Rupiah_Banda" not in linked(analyzer, "who did pres banda visit after iraq")


def test_a_qualifier_that_is_no_country_qualifies_a_role(analyzer: QuestionAnalyzer) -> None:
    # "International" and "Taliban" have roles but no entity of their own: said before a role, they qualify it
    assert analyzer.analyze("when did the international media last visit iraq").entities[0].best == "Media_Personnel_(International)"
    assert analyzer.analyze("when did taliban militants use military force against iraq").entities[0].best == "Militant_(Taliban)"


def test_analysis_reads_the_written_out_question(analyzer: QuestionAnalyzer) -> None:
    analysis = analyzer.analyze("wat month did wang yi last visit cambodia")
    assert analysis.answer_type == "time" and analysis.cue == "last"
    assert analysis.question.startswith("what month")
    assert analyzer.analyze("who visited china b4 06").cue == "before"
    # "n" is chat for "and": a month and a year asked is a month
    assert str(analyzer.analyze("what month n yr did wang yi last visit cambodia").time_level) == str(analysis.time_level) == "Granularity.MONTH"


def test_a_made_up_short_name_stays_unlinked(analyzer: QuestionAnalyzer) -> None:
    analysis = analyzer.analyze("wen did s dorzania visit china")
    assert "China" in [m.best for m in analysis.entities]
    assert all(m.best != "South_Korea" for m in analysis.entities)
