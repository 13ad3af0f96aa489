"""The typed query: what a question asks and the constraints it states, read from its masked form."""

from __future__ import annotations

import pytest

from actions.programs import Program
from agents.analysis.query import Query, asked_by_noun, asked_kind, country_by_where, counts_a_quantity, read_query, unread_number


def _read(masked: str, times: int = 1) -> Query:
    spans = [(masked.index(f"{{E{k}}}"), masked.index(f"{{E{k}}}") + 4) for k in (1, 2, 3) if f"{{E{k}}}" in masked]
    return read_query(masked, masked, times, spans)


@pytest.mark.parametrize(
    ("masked", "asks", "count"),
    [
        ("How many times did {E1} visit {E2} in {T1}?", "number", "days"),
        ("how often did {E1} criticise {E2} in {T1}", "number", "days"),
        ("How many countries did {E1} criticise in {T1}?", "number", "entities"),
        ("What is the number of different leaders {E1} hosted in {T1}?", "number", "entities"),
        # an imperative count asks how many as well
        ("Count the days on which {E1} accused {E2}.", "number", "days"),
        ("Count all the countries {E1} visited in {T1}.", "number", "entities"),
        ("Count {E1}'s visits to {E2} in {T1}.", "number", "days"),
        ("How many distinct dates between {T1} and {T2} show {E1} visiting {E2}?", "number", "days"),
        ("Count {E1}'s visitors in {T1}.", "number", "entities"),
    ],
)
def test_counts_are_numbers_of_days_or_of_entities(masked: str, asks: str, count: str) -> None:
    query = _read(masked)
    assert (query.asks, query.count, query.shape) == (asks, count, "count")


@pytest.mark.parametrize(
    "masked",
    ["Did {E1} sign a formal agreement with {E2} in {T1}?", "has {E1} ever visited {E2}?", "{E1} visited {E2} in {T1}?",
     "Could you tell me whether {E1} praised {E2} in {T1}?", "I wonder whether {E1} praised {E2} in {T1}.",
     "I'm curious if {E1} praised {E2} in {T1}", "Do you know if {E1} visited {E2} in {T1}?",
     "Can you tell me whether {E1} visited {E2}?", "Could you check that {E1} visited {E2} in {T1}?"],
)
def test_yes_no_questions_ask_yes_or_no(masked: str) -> None:
    assert _read(masked).asks == "yesno"


@pytest.mark.parametrize(
    "masked",
    ["Did anyone visit {E1} in {T1}?", "Who visited {E1} in {T1}?", "Iran?",
     # a conventional indirect request for a named thing asks for it: the hearer's ability is not in question
     "Could you look up the year {E1} last visited {E2}?", "Do you know the year {E1} last criticised {E2}?",
     "Can you tell me the month {E1} visited {E2}?", "Do you have the date of {E1}'s first visit to {E2}?"],
)
def test_an_indefinite_or_a_question_word_asks_for_an_entity(masked: str) -> None:
    assert _read(masked).asks == "entity"


def test_which_countries_asks_every_country() -> None:
    query = _read("Which countries did {E1} visit in {T1}?")
    assert query.is_list and query.entity_type == "country" and query.shape == "list"


@pytest.mark.parametrize("masked", ["Which people has {E1} accused?", "What children did {E1} abduct in {T1}?"])
def test_an_irregular_plural_asks_a_list(masked: str) -> None:
    assert _read(masked).is_list


def test_a_singular_which_country_asks_one_country() -> None:
    query = _read("Which country did {E1} visit last in {T1}?")
    assert not query.is_list and query.entity_type == "country"


@pytest.mark.parametrize(
    ("masked", "n", "from_end"),
    [
        ("Who was the second to visit {E1} in {T1}?", 2, False),
        ("When did {E1} visit {E2} for the third time?", 3, False),
        ("Which country visited {E1} second to last in {T1}?", 2, True),
        ("Who was the penultimate visitor of {E1} in {T1}?", 2, True),
        ("On what date did {E1} make his second trip to {E2}?", 2, False),
        ("When was {E1}'s third visit to {E2}?", 3, False),
        ("{E1}'s second to last visit in {T1}: whom did she visit?", 2, True),
        ("whom did {E1} praise third in {T1}", 3, False),
        ("Who visited {E1} second?", 2, False),
        ("Who was the next-to-last to visit {E1} in {T1}?", 2, True),
        ("Whom did {E1} visit last but one in {T1}?", 2, True),
        ("Who was the 3rd to visit {E1} in {T1}?", 3, False),
        # counted from the end with no "to": "second last", "third-latest"
        ("Which country was second last to host {E1} in {T1}?", 2, True),
        ("Who was the third-latest to visit {E1}?", 3, True),
        ("What was the date of {E1}'s fourth visit to {E2} in {T1}?", 4, False),
        # the one right after the first is the second
        ("Who was the one to visit {E1} right after the first visitor in {T1}?", 2, False),
        ("Who did {E1} visit in {T1} after his first visit?", 2, False),
        ("When was the visit after {E1}'s first visit to {E2} in {T1}?", 2, False),
        # a place among the others, after a verb of placing or before an infinitive
        ("Who came third among the visitors to {E1} in {T1}?", 3, False),
        ("Which country ranked second to last among {E1}'s visitors in {T1}?", 2, True),
        ("In {T1}, who was third to visit {E1}?", 3, False),
    ],
)
def test_ordinals_are_the_nth(masked: str, n: int, from_end: bool) -> None:
    query = _read(masked)
    assert (query.ordinal, query.from_end, query.shape) == (n, from_end, "nth")


@pytest.mark.parametrize("masked", ["Who met {E1} at a third location in {T1}?", "Which second-hand dealers did {E1} accuse?",
                                    "Whom did {E1} visit on the third of {T1}?", "Who was second to none in visiting {E1}?"])
def test_an_ordinal_adjective_before_its_noun_is_no_nth(masked: str) -> None:
    assert _read(masked).ordinal is None


def test_the_most_recent_is_no_most_often() -> None:
    assert _read("Who was the most recent to visit {E1}?").extreme is None
    assert _read("Did {E1} visit {E2} at least once in {T1}?").extreme is None  # "least once": no ranking


@pytest.mark.parametrize(("masked", "extreme"), [("Who did {E1} visit most in {T1}?", "most"), ("Whom did {E1} praise least, in {T1}?", "least"),
                                                 ("Which country did {E1} visit most often in {T1}?", "most"),
                                                 ("Who criticised {E1} least frequently in {T1}?", "least"),
                                                 # a ranking by number is no count
                                                 ("Which country hosted {E1} the greatest number of times in {T1}?", "most"),
                                                 ("Who visited {E1} the least number of times in {T1}?", "least")])
def test_most_and_least_often(masked: str, extreme: str) -> None:
    query = _read(masked)
    assert (query.extreme, query.asks) == (extreme, "entity")


def test_what_happened_between_two_entities_asks_their_relations() -> None:
    assert _read("What happened between {E1} and {E2} in {T1}?").asks == "relation"
    assert _read("{E1} vs {E2} in {T1} - what kind of things happened?").asks == "relation"
    assert _read("what was the {E1} doing with {E2} in {T1}?").asks == "relation"
    assert _read("What happened to {E1} in {T1}?").asks != "relation"  # one entity: no pair to relate
    # the noun "relations" asks for them, it names no relation of the KG
    assert _read("What were the relations between {E1} and {E2} in {T1}?").asks == "relation"
    assert _read("What was the relationship between {E1} and {E2} in {T1}?").asks == "relation"
    assert _read("Give me the relations between {E1} and {E2} in {T1}.").asks == "relation"
    assert _read("What did {E1} and {E2} do together in {T1}?").asks == "relation"
    assert _read("How did {E1} and {E2} relate to each other in {T1}?").asks == "relation"
    assert _read("Which relations linked {E1} and {E2} in {T1}?").asks == "relation"


def test_a_keyword_query_asks_what_its_noun_names_and_a_statement_with_a_question_mark_asks_yes_or_no() -> None:
    listed = _read("countries {E1} visited in {T1}?")
    assert (listed.asks, listed.is_list, listed.entity_type) == ("entity", True, "country")
    assert _read("date of {E1}'s second visit to {E2} in {T1}?").asks != "yesno"
    assert _read("{E1} visited {E2} in {T1}?").asks == "yesno"
    nth = _read("Second-to-last visitor to {E1} in {T1}?")  # an ordinal opening a noun phrase names the one asked
    assert (nth.asks, nth.ordinal, nth.from_end) == ("entity", 2, True)


def test_two_times_with_between_are_a_window() -> None:
    assert _read("Who threatened {E1} between {T1} and {T2}?", times=2).window
    assert _read("who all was criticizing {E1} in {T1} and {T2}", times=2).window  # "in June and July 2015"
    assert _read("Who visited {E1} in the months of {T1} and {T2}?", times=2).window
    assert not _read("Who threatened {E1} in {T1}?").window


def test_apart_from_excludes_the_entity_named_after_it() -> None:
    assert _read("Who visited {E1} in {T1} apart from {E2}?").excluded == (2,)
    # within a few words of the cue, in a closing remark, or set aside after its name
    assert _read("How many countries did {E1} visit in {T1}? (not counting trips inside {E2})").excluded == (2,)
    assert _read("Which country did {E2} visit most? (not {E1})").excluded == (1,)
    assert _read("Leaving {E1} itself aside, which country did {E2} visit the most?").excluded == (1,)
    assert _read("Other than that, who visited {E1} after {E2}?").excluded == ()
    # a list of names after the cue: each of them; a name after the list's end is the asked event's
    assert _read("Apart from {E1} and {E2}, who did {E3} criticize in {T1}?").excluded == (1, 2)
    assert _read("Which countries did {E3} visit in {T1}, other than {E1}, {E2} or the like?").excluded == (1, 2)
    assert _read("Apart from {E1}, who did {E2} praise in {T1} and {E3} criticize?").excluded == (1,)


@pytest.mark.parametrize(
    ("masked", "asks"),
    [("How much times {E1} has accused {E2} in the year {T1}?", "number"),  # a slip for "how many times"
     ("{E1} went to {E2} again after {T1} or not", "yesno"), ("i wonder did {E1} send aid to {E2} in {T1}", "yesno")],
)
def test_other_wordings_of_counts_and_yes_no(masked: str, asks: str) -> None:
    query = _read(masked)
    assert (query.asks, query.unsupported) == (asks, None)


@pytest.mark.parametrize(
    ("masked", "what"),
    [
        ("Why did {E1} criticise {E2} in {T1}?", "a reason"),
        ("Where did {E1} meet {E2} in {T1}?", "a place"),
        ("Who did {E1} meet in Tehran in {T1}?", "a place"),
        ("How strongly did {E1} condemn {E2} in {T1}?", "a degree or manner"),
        ("How much aid did {E1} give {E2}?", "a quantity"),
        ("How many troops did {E1} send to {E2}?", "a quantity"),
        ("How long did {E1} stay in {E2}?", "a duration"),
        ("At what time of day did {E1} attack {E2}?", "a time of day"),
        ("Which country did {E1} visit after {T1}, within that year?", "a time bound ARI cannot read ('within that year'"),
        ("After {T1}, where did {E1} meet {E2} before the year was out?", "a place"),
        ("Where did {E1} travel with {E2} in {T1}?", "a place"),  # the destination of a journey two named parties made
        ("How many agreements worth over a billion dollars did {E1} sign with {E2}?", "a quantity"),  # a value of each event
        ("Who did {E1} criticize over the border dispute in {T1}?", "what was said"),  # what the act was about
    ],
)
def test_what_the_kg_cannot_represent_is_named(masked: str, what: str) -> None:
    query = _read(masked)
    assert query.shape == "unanswerable" and query.unsupported is not None and query.unsupported.startswith(what)


@pytest.mark.parametrize(
    "masked", ["Where did {E1} travel in {T1}?", "where did {E1} go most often apart from {E2}", "Where did {E1} make a trip to in {T1}?"]
)
def test_where_a_journey_went_asks_a_country(masked: str) -> None:
    # a visit's other party is an entity the KG holds: the destination is answerable, as a country
    query = _read(masked)
    assert query.unsupported is None and query.asks == "entity" and query.entity_type == "country"
    assert country_by_where(masked)  # the country is asked by "where" alone: the party visited may be meant too


@pytest.mark.parametrize("masked", ["Where did {E1} travel in {T1}? Which country, I mean.", "Which country did {E1} visit in {T1}?"])
def test_a_country_said_is_not_asked_by_where_alone(masked: str) -> None:
    assert _read(masked).entity_type == "country" and not country_by_where(masked)


@pytest.mark.parametrize(("masked", "number"), [("Between 10 and {T1}, who appealed to {E1}?", "10"),
                                               ("Who visited {E1} on 12.13.2009?", "12.13.2009"), ("Who visited {E1} in {T1}?", None)])
def test_a_number_no_date_took_is_left_unread(masked: str, number: str | None) -> None:
    assert unread_number(masked) == number


@pytest.mark.parametrize(
    ("masked", "program", "admitted"),
    [
        ("How many times did {E1} visit {E2} in {T1}?", "getTime(E1, R, E2, T) -> count(#1, days) -> answer(#2)", True),
        ("How many times did {E1} visit {E2} in {T1}?", "getTime(E1, R, E2, T) -> count(#1, entities) -> answer(#2)", False),
        ("How many times did {E1} visit {E2} in {T1}?", "getTailEntity(E1, R, T) -> answer(#1)", False),
        ("Who visited {E1} in {T1}?", "getHeadEntity(E1, R, T) -> answer(#1)", True),
        ("Who visited {E1} in {T1}?", "getHeadEntity(E1, R, T) -> getMost(#1) -> answer(#2)", False),
        ("Which country did {E1} visit most often in {T1}?", "getTailEntity(E1, R, T) -> ofType(#1, country) -> getMost(#2) -> answer(#3)", True),
        ("Which country did {E1} visit most often in {T1}?", "getTailEntity(E1, R, T) -> getMost(#1) -> answer(#2)", False),
        ("Who visited {E1} in {T1} apart from {E2}?", "getHeadEntity(E1, R, T) -> exclude(#1, E2) -> answer(#2)", True),
        # a yes / no over an order: whether the named one is among the first, never whether anything happened
        ("Was {E1} the first to visit {E2} in {T1}?", "getHeadEntity(E2, R, T) -> getFirst(#1) -> includes(#2, E1) -> answer(#3)", True),
        ("Was {E1} the first to visit {E2} in {T1}?", "getHeadEntity(E2, R, T) -> getFirst(#1) -> includes(#2, E2) -> answer(#3)", False),
        ("Was {E1} the first to visit {E2} in {T1}?", "getTime(E1, R, E2, T) -> getFirst(#1) -> exists(#2) -> answer(#3)", False),
        ("Did {E1} visit {E2} for the first time in {T1}?", "getHeadEntity(E2, R, T) -> getFirst(#1) -> includes(#2, E1) -> answer(#3)", False),
        ("Did {E1} visit {E2} in {T1}?", "getHeadEntity(E2, R, T) -> includes(#1, E1) -> answer(#2)", False),
    ],
)
def test_a_program_is_admitted_when_it_does_what_the_query_asks_and_nothing_else(masked: str, program: str, admitted: bool) -> None:
    assert _read(masked).admits(Program.parse(program)) is admitted


@pytest.mark.parametrize(("masked", "after"), [("Did {E1} threaten {E2} even once in {T1}?", False), ("Did {E1} threaten {E2} at least once?", False),
                                               ("Who visited {E1} once {E2} had?", True)])
def test_once_counts_occasions_unless_it_opens_a_clause(masked: str, after: bool) -> None:
    from agents.analysis.cues import temporal_cues

    assert ("after" in temporal_cues(masked)) == after


def test_an_object_followed_by_a_comparison_keeps_its_role() -> None:
    from agents.analysis.clause_roles import OBJECT, clause_roles

    assert clause_roles("Who criticised {E1} more than anyone else in {T1}?") == {1: OBJECT}


@pytest.mark.parametrize("masked", ["What was the third country {E1} visited in {T1}?", "who was the 2nd person {E1} had talks with in {T1}"])
def test_a_name_before_a_finite_verb_is_the_subject_of_a_relative_clause(masked: str) -> None:
    from agents.analysis.clause_roles import SUBJECT, clause_roles

    assert clause_roles(masked) == {1: SUBJECT}  # "the country (that) {E1} visited"


@pytest.mark.parametrize(("masked", "receives"), [("From whom did {E1} draw criticism in {T1}?", True), ("Which countries did {E1} face criticism from?", True),
                                                  ("Who did {E1} earn praise from in {T1}?", True), ("Who did {E1} criticise in {T1}?", False)])
def test_verbs_of_receiving_turn_the_roles_around(masked: str, receives: bool) -> None:
    from agents.analysis.clause_roles import receives_event

    assert receives_event(masked) == receives  # "X drew criticism from Y": Y criticised X


@pytest.mark.parametrize(("masked", "role"), [("Who was {E1}'s most frequent visitor in {T1}?", "object"), ("Who was {E1}'s harshest critic?", "object"),
                                              ("When was {E1}'s third visit to {E2}?", None)])
def test_the_possessor_of_one_who_acts_is_acted_on(masked: str, role: str | None) -> None:
    from agents.analysis.clause_roles import clause_roles

    assert clause_roles(masked)[1] == role  # "Angola's visitor" visited Angola; "Angola's visit" was Angola's


@pytest.mark.parametrize(
    ("masked", "attribute", "identity"),
    [
        ("Who is the wife of {E1}?", ("wife",), False),
        ("What was {E1}'s capital in {T1}?", ("capital",), False),
        ("Who was the first host of {E1}?", ("host",), False),  # "first" is the query's constraint, not the noun's
        ("Who was the {E1} in {T1}?", (), True),  # the entity itself: who held an office, or who an actor is
        ("Who visited {E1} in {T1}?", (), False),  # a verb: an event is asked, no noun
    ],
)
def test_a_question_with_no_verb_asks_a_noun_of_its_entity(masked: str, attribute: tuple[str, ...], identity: bool) -> None:
    query = asked_by_noun(_read(masked), masked)
    assert (query.attribute, query.identity) == (attribute, identity)


@pytest.mark.parametrize(
    ("masked", "ranked"),
    [
        ("Was {E1} the first to visit {E2} in {T1}?", 1),
        ("{E1} was the very last to criticize {E2}, right?", 1),
        ("Was {E1} the first that {E2} visited in {T1}?", 1),
        ("In {T1}, was {E2} really the last one {E1} visited?", 2),
        ("Did {E1} visit {E2} for the first time in {T1}?", None),  # when X first did it: no one placed among others
        ("Did {E1} first visit {E2} in {T1}?", None),
        ("Was {E1} the second to visit {E2} in {T1}?", 1),
        ("Who was the first to visit {E1} in {T1}?", None),  # asks who, not yes or no
    ],
)
def test_a_yes_no_placing_a_named_one_first_or_last_asks_of_that_one(masked: str, ranked: int | None) -> None:
    assert _read(masked).ranked == ranked


@pytest.mark.parametrize(
    ("masked", "kind"),
    [
        ("For which luxury brand did {E1} pose in {T1}?", "brand"),  # read to the noun phrase's head
        ("Which football academy did {E1} set up in {T1}?", "academy"),
        ("Which company signed an agreement with {E1}?", "company"),  # the verb ends the noun phrase
        ("Which bodies imposed sanctions on {E1}?", None),
        # kinds every event KG tells: parties, agent nouns, countries, times
        ("Which country visited {E1} first?", None),
        ("Which nation openly criticised {E1}?", None),  # a country's other noun; an adverb ends the noun phrase
        ("Which company publicly praised {E1}?", "company"),
        ("Which world leaders met {E1} in {T1}?", None),
        ("Which organisation did {E1} appeal to?", None),
        ("In which year did {E1} visit {E2}?", None),
        ("What did {E1} say about {E2}?", None),
        # a request for all the things of a kind asks that kind, as "which" does; "all the" asked of nothing is no kind
        ("Tell me all the brands {E1} praised in {T1}.", "brands"),
        ("I need all the places {E1} visited in {T1}", "places"),
        ("Give me all the countries {E1} visited", None),
        ("Who criticized {E1} in all the years {E2} ruled?", None),
        ("Did {E1} visit all the neighbours of {E2}?", None),
    ],
)
def test_which_reads_a_kind_only_names_tell(masked: str, kind: str | None) -> None:
    assert asked_kind(masked) == kind


@pytest.mark.parametrize(
    ("masked", "quantity"),
    [
        ("How many patents were granted to {E1} in {T1}?", "patents"),
        ("how many gold medals did {E1} win in {T1}", "medals"),
        ("What was the number of goals {E1} scored in {T1}?", "goals"),
        # actors: a general noun for a party, or a word of the KG's own names ("ministry"), in the noun phrase
        ("How many different partners did {E1} sign agreements with in {T1}?", None),
        ("How many ministries did {E1} criticise in {T1}?", None),
        ("How many allies did {E1} consult in {T1}?", None),
        # the places of a journey are the ones visited; of any other act, a quantity
        ("How many different places did {E1} travel to in {T1}?", None),
        ("How many places did {E1} criticise in {T1}?", "places"),
        ("how many diff people did {E1} phone in {T1}", None),
        ("How many times did {E1} visit {E2}?", None),
        ("How many did {E1} criticise in {T1}?", None),
    ],
)
def test_a_count_of_what_is_neither_an_occasion_nor_an_actor_is_a_quantity(masked: str, quantity: str | None) -> None:
    query = counts_a_quantity(_read(masked), masked, frozenset({"ministry", "police", "iran"}))
    assert query.unsupported == (None if quantity is None else f"a quantity ({quantity!r}: the KG records events between actors, not how many {quantity})")


@pytest.mark.parametrize(
    ("masked", "entity_type"),
    [
        # people told apart, or named beside another kind of actor, are the facts' actors, not a quantity
        ("How many different people did {E1} call in {T1}?", None),
        ("how many distinct people or groups has {E1} accused?", None),
        ("How many persons or countries did {E1} sign a formal agreement with in {T1}?", None),
        ("How many countries did {E1} sign a formal agreement with in {T1}?", "country"),
    ],
)
def test_people_or_parties_told_apart_are_counted_as_entities(masked: str, entity_type: str | None) -> None:
    query = _read(masked)
    assert (query.asks, query.count, query.unsupported, query.entity_type) == ("number", "entities", None, entity_type)


def test_people_counted_with_no_kind_beside_them_are_a_quantity() -> None:
    assert "quantity" in (_read("How many people were killed by {E1} in {T1}?").unsupported or "")


@pytest.mark.parametrize("masked", ["Who did {E1} talk to over the phone in {T1}?", "Who did {E1} criticize over the course of {T1}?",
                                    "What month did {E1} say pessimistic things about the {E2}?"])
def test_a_means_a_span_of_time_or_a_party_after_about_or_over_is_no_topic(masked: str) -> None:
    assert _read(masked).unsupported is None


def test_an_exclusions_cue_that_names_no_act_is_no_word_of_the_event() -> None:
    from agents.analysis.predicate import asserted_words

    # "apart" and "besides" say what the answers leave out; "excluding" stays a word the unsure check sees
    assert asserted_words("Apart from {E2}, did {E1} phone {E3} in {T1}?") == ["phone"]
    assert asserted_words("Besides {E2}, did {E1} ever phone {E3} in {T1}?") == ["phone"]
    assert "excluding" in asserted_words("Excluding {E2}, did {E1} phone {E3} in {T1}?")


def test_the_relations_are_asked_only_where_the_question_asks_for_them() -> None:
    assert _read("{E1} x {E2}, {T1}: event types?").asks == "relation"
    assert _read("{E1} and {E2} in {T1}, what was going on between them?").asks == "relation"
    assert _read("What has been recorded between {E1} and {E2}?").asks == "relation"
    # a field naming the one type ("event type: make a request") asks for something else
    assert _read("Source: {E1}, target: {E2}, event type: make a request. Which month and year?").asks != "relation"
    assert _read("Who visited {E1} in {T1}, and what did {E2} say about them?").asks != "relation"
