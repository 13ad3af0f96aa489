"""Casual questions (issue 13): the names, titles, peoples and dates people type in lower case.

A small KG written by the test and ingested into a real DuckDB file; the bundled embedder. Each
rule is one of general English naming (aliases.py, names.py, entities.py), not of any question."""

from __future__ import annotations

import pytest
from bench_support import analyzer_over, linked

from agents.analysis.aliases import compass_acronym, has_regnal_number, nested_acronym, patronymic, without_honorific
from agents.analysis.analyzer import QuestionAnalyzer
from agents.analysis.clause_roles import clause_roles
from agents.analysis.demonyms import as_country_names, demonym_plural

FACTS = [
    ("Tan_Sri_Muhyiddin_Yassin", "Engage_in_diplomatic_cooperation", "Malaysia", "2010-01-01"),
    ("Juan_Carlos_I", "Engage_in_negotiation", "Iraq", "2008-01-01"),
    ("Sheikh_Hamad_bin_Khalifa_al-Thani", "Make_a_visit", "Thailand", "2012-01-01"),
    ("Karl-Theodor_zu_Guttenberg", "Make_a_visit", "China", "2010-06-01"),
    ("UN_Security_Council", "Engage_in_negotiation", "Kuwait", "2007-01-01"),
    ("Office_of_the_United_Nations_High_Commissioner_for_Human_Rights", "Make_an_appeal_or_request", "Cambodia", "2007-02-01"),
    ("Cambodia", "Sign_formal_agreement", "Kuwait", "2009-01-01"),
    ("Citizen_(Cambodia)", "Criticize_or_denounce", "Kuwait", "2009-02-01"),
    ("Angela_Merkel", "Make_a_visit", "Kuwait", "2007-05-01"),
    ("Abhisit_Vejjajiva", "Make_a_visit", "Malaysia", "2009-07-21"),
    ("Head_of_Government_(Thailand)", "Make_a_visit", "Malaysia", "2009-08-07"),
    ("Foreign_Affairs_(Ethiopia)", "Engage_in_negotiation", "Ethiopia", "2011-01-01"),
    ("Company_-_Owner_or_Operator_(Thailand)", "Praise_or_endorse", "Thailand", "2012-01-01"),
    ("Industry_(Thailand)", "Praise_or_endorse", "Thailand", "2012-02-01"),
    ("Citizen_(Singapore)", "Make_optimistic_comment", "China", "2007-05-16"),
    ("Envoy_(United_States)", "Make_a_visit", "China", "2008-05-16"),
    ("Foreign_Affairs_(South_Korea)", "Praise_or_endorse", "China", "2008-06-16"),
    ("Foreign_Affairs_(Singapore)", "Make_optimistic_comment", "China", "2007-06-16"),
    ("South_Korea", "Sign_formal_agreement", "Malaysia", "2010-07-01"),
    ("Nonaligned_Movement", "Make_optimistic_comment", "Malaysia", "2009-01-01"),
    ("Angus_King", "Make_a_visit", "Iraq", "2013-01-01"),
    ("Linda_Lingle", "Make_a_visit", "China", "2010-01-01"),
    ("Pervez_Musharraf", "Criticize_or_denounce", "Iraq", "2007-01-01"),
    ("Security_Council_of_the_Russian_Federation", "Criticize_or_denounce", "Kuwait", "2009-03-01"),
]


@pytest.fixture(scope="module")
def analyzer(tmp_path_factory: pytest.TempPathFactory):
    yield from analyzer_over(tmp_path_factory.mktemp("casual_kg") / "kg.duckdb", FACTS)


def test_naming_rules() -> None:
    assert without_honorific("Tan Sri Muhyiddin Yassin") == "Muhyiddin Yassin"
    assert without_honorific("Juan Carlos I") == "Juan Carlos" and has_regnal_number("Juan Carlos I")
    assert without_honorific("Tan Keng Yam") == "Tan Keng Yam"  # "Tan" alone is a surname, not "Tan Sri"
    assert patronymic("Hamad bin Khalifa al-Thani") == "hamad bin khalifa"
    assert nested_acronym("UN Security Council") == "unsc" and nested_acronym("International Monetary Fund") is None
    assert compass_acronym("Association of Southeast Asian Nations") == "asean"  # a compound of compass points: both parts
    assert demonym_plural("Cambodian") == "Cambodians" and demonym_plural("South Korean") == "South Koreans"
    assert demonym_plural("Chinese") is None and demonym_plural("UAE") is None
    assert [demonym_plural(d) for d in ("Greek", "Dane", "Turk", "Czech", "Danish", "French", "Icelandic", "America")] == [
        "Greeks", "Danes", "Turks", "Czechs", None, None, None, None]


@pytest.mark.parametrize(
    ("question", "entities"),
    [
        ("which country was first to engage in diplomatic cooperation w/ malaysia after muhyiddin", ["Malaysia", "Tan_Sri_Muhyiddin_Yassin"]),
        ("after king juan carlos who was first to negotiate w/ iraq", ["Iraq", "Juan_Carlos_I"]),
        ("when did hamad bin khalifa visit thailand", ["Sheikh_Hamad_bin_Khalifa_al-Thani", "Thailand"]),
        ("which country was first to visit china after guttenberg", ["China", "Karl-Theodor_zu_Guttenberg"]),
        ("who did kuwait negotiate w/ first after unsc", ["Kuwait", "UN_Security_Council"]),
        ("what year did the office of the un high commissioner for human rights appeal to cambodia",
         ["Office_of_the_United_Nations_High_Commissioner_for_Human_Rights", "Cambodia"]),
        ("before non aligned movement which country did malaysia last speak positively of", ["Malaysia", "Nonaligned_Movement"]),
        ("which month did seoul first sign a formal agreement w/ malaysia", ["South_Korea", "Malaysia"]),
    ],
)
def test_names_people_use_in_lower_case(analyzer: QuestionAnalyzer, question: str, entities: list[str]) -> None:
    assert sorted(map(str, linked(analyzer, question))) == sorted(entities)


def test_a_title_belongs_to_the_name_after_it(analyzer: QuestionAnalyzer) -> None:
    analysis = analyzer.analyze("what year did chancellor merkel last visit kuwait")
    assert [m.text for m in analysis.entities] == ["chancellor merkel", "kuwait"]
    assert analysis.masked == "what year did {E1} last visit {E2}"
    assert [m.text for m in analyzer.analyze("what year did gov lingle last visit china").entities] == ["gov lingle", "china"]
    # a country's adjective and an office before the title: the person, not the head of government
    (person, _) = analyzer.analyze("when did thai pm abhisit last visit malaysia").entities
    assert person.text == "thai pm abhisit" and person.best == "Abhisit_Vejjajiva"
    # "former", "ex-" and descriptive titles ("opposition leader") belong to the name as well
    assert [m.text for m in analyzer.analyze("when did former pm abhisit last visit malaysia").entities][0] == "former pm abhisit"
    assert [m.text for m in analyzer.analyze("what year did ex-chancellor merkel visit kuwait").entities][0] == "ex-chancellor merkel"
    # a title word with no name after it may still be a surname
    assert linked(analyzer, "which country did king visit last") == ["Angus_King"]


def test_a_people_stands_for_its_nation_or_its_citizens(analyzer: QuestionAnalyzer) -> None:
    (kuwait, cambodia) = analyzer.analyze("after the cambodians which country first signed a formal agreement w/ kuwait").entities
    assert cambodia.text == "cambodians" and cambodia.best == "Cambodia"
    # without "the", the people themselves: the country's citizens first
    (people, _) = analyzer.analyze("when were singaporeans first optimistic about china").entities
    assert people.best == "Citizen_(Singapore)"


def test_abbreviations_of_offices_and_icews_role_names(analyzer: QuestionAnalyzer) -> None:
    assert "Foreign_Affairs_(Ethiopia)" in linked(analyzer, "after ethiopia's fm which country was first to negotiate w/ ethiopia")
    assert "Company_-_Owner_or_Operator_(Thailand)" in linked(analyzer, "who did thai companies praise")


def test_a_dash_inside_a_kg_name_stays_a_lone_one_goes(analyzer: QuestionAnalyzer) -> None:
    # symbols that are no words go in the one normalisation; a KG name's own " - " stays
    analysis = analyzer.analyze("Who did the Company - Owner or Operator of Thailand - praise 😀 in 2012?")
    assert [m.best for m in analysis.entities] == ["Company_-_Owner_or_Operator_(Thailand)"]
    assert clause_roles(analysis.masked) == {1: "subject"} and [str(t.time) for t in analysis.times] == ["2012"]


def test_initials_and_capitals_before_a_role(analyzer: QuestionAnalyzer) -> None:
    # "us" before a role word is the country, not the pronoun; a capital stands for its country's roles
    assert "Envoy_(United_States)" in linked(analyzer, "who did us envoys visit")
    assert "Envoy_(United_States)" in linked(analyzer, "who did washington's envoy visit")
    assert "Foreign_Affairs_(South_Korea)" in linked(analyzer, "who did seoul's foreign ministry praise")
    assert linked(analyzer, "who told us about china") == ["China"]


def test_a_misspelt_name_in_a_lower_case_question(analyzer: QuestionAnalyzer) -> None:
    # no capital marks the name: a long unexplained word spelt almost like a name, confirmed by the KG
    assert linked(analyzer, "when did musharaf criticise iraq") == ["Pervez_Musharraf", "Iraq"]
    assert linked(analyzer, "when did musharaf criticise malaysia") == ["Malaysia"]  # no fact links them



@pytest.mark.parametrize(("written", "plain"), [
    ("Who did the People's Republic of China visit?", "Who did China visit?"),  # a listed formal name
    ("Who did the Federal Republic of Germany criticise?", "Who did Germany criticise?"),
    ("When did the Gulf emirate of Qatar sign?", "When did Qatar sign?"),  # a description before the state's noun
    ("who praised the kingdom of thailand", "who praised thailand"),  # lower case stays lower case
    ("Who visited the Malaysian federation?", "Who visited Malaysia?"),  # its adjective before the noun
    ("Who met the Geneva-based WHO?", "Who met the WHO?"),  # where an organisation is based
    ("When did the Republic of China sign?", "When did Taiwan sign?"),  # listed: another state than China
    ("Who met the Democratic Republic of the Congo?", "Who met Democratic Republic of Congo?"),  # not the Republic of the Congo
])
def test_a_state_named_formally_is_its_plain_name(written: str, plain: str) -> None:
    assert as_country_names(written) == plain


@pytest.mark.parametrize("kept", [
    "Did the US Secretary of State visit China?",  # "state" names an office too
    "Who did the African Union praise?", "Who did the United Kingdom praise?",  # a union, a state's own name
    "Who did the citizens of Cambodia criticise?", "What did a Chinese nationalist say?",  # no state noun
])
def test_names_with_no_formal_state_name_stay(kept: str) -> None:
    assert as_country_names(kept) == kept


def test_a_formal_name_or_a_capital_links_the_country(analyzer: QuestionAnalyzer) -> None:
    assert linked(analyzer, "Which country did the Kingdom of Cambodia sign a formal agreement with in 2009?") == ["Cambodia"]
    assert linked(analyzer, "Who did the Cambodian kingdom sign a formal agreement with in 2009?") == ["Cambodia"]
    assert linked(analyzer, "When did Phnom Penh sign a formal agreement with Kuwait?") == ["Cambodia", "Kuwait"]
    # a KG name that holds a formal state name is that name, not the state
    assert linked(analyzer, "When did the Security Council of the Russian Federation criticise Kuwait?") == [
        "Security_Council_of_the_Russian_Federation", "Kuwait"]


def test_a_name_and_its_description_are_one_party(analyzer: QuestionAnalyzer) -> None:
    # a description set off by commas or brackets names the same party: the mention the KG names closest stands for both
    assert linked(analyzer, "When did Abhisit Vejjajiva, the Thai prime minister, visit Malaysia?") == ["Abhisit_Vejjajiva", "Malaysia"]
    assert linked(analyzer, "When did Abhisit Vejjajiva (the head of government of Thailand) visit Malaysia?") == ["Abhisit_Vejjajiva", "Malaysia"]
    assert linked(analyzer, "When did Cambodia, the Southeast Asian kingdom, sign a formal agreement with Kuwait?") == ["Cambodia", "Kuwait"]
    # a list and a clause after a comma are no description
    assert linked(analyzer, "Did Angela Merkel, Abhisit Vejjajiva and Juan Carlos visit Kuwait?") == [
        "Angela_Merkel", "Abhisit_Vejjajiva", "Juan_Carlos_I", "Kuwait"]
    assert sorted(map(str, linked(analyzer, "After Cambodia, Kuwait signed a formal agreement with whom?"))) == ["Cambodia", "Kuwait"]
    assert sorted(map(str, linked(analyzer, "Who first signed a formal agreement with Kuwait, Cambodia having done so?"))) == ["Cambodia", "Kuwait"]


def test_title_words_between_a_role_and_a_person_are_the_person_s_title(analyzer: QuestionAnalyzer) -> None:
    assert linked(analyzer, "When did Thai government spokesman Abhisit Vejjajiva visit Malaysia?") == ["Abhisit_Vejjajiva", "Malaysia"]
    assert linked(analyzer, "When did Cambodia criticise Abhisit Vejjajiva?") == ["Cambodia", "Abhisit_Vejjajiva"]  # an act between
    assert linked(analyzer, "Were any Thai companies welcomed by Abhisit Vejjajiva in 2012?") == [  # a verb between: no title
        "Company_-_Owner_or_Operator_(Thailand)", "Abhisit_Vejjajiva"]


def test_a_formal_state_name_the_kg_holds_as_a_state_of_its_own_is_that_state(tmp_path) -> None:  # noqa: ANN001 - pytest's Path
    facts = [
        ("Victor Emmanuel III", "position held", "King of Italy", "1900", "1946"),
        ("Kingdom of Italy (Q172579)", "participant in", "World War I", "1915", "1918"),
        ("Italy", "participant in", "World War II", "1943", "1945"),
    ]
    for analyzer in analyzer_over(tmp_path / "kg.duckdb", facts):
        assert linked(analyzer, "When did the Kingdom of Italy take part in World War I?") == ["Kingdom of Italy (Q172579)", "World War I"]
