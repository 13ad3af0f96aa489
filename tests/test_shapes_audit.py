"""The shape audit (`agents.shapes`): a program answers a question only when it places its answers
in time exactly as the question does, uses each time the question states, and gives an answer of
the asked type. Analyses are written by hand so each test states the meaning it checks."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from actions.programs import Program
from agents.analysis.cues import same_word
from agents.analysis.query import Query
from agents.analysis.relations import RelationLexicon
from agents.analysis.types import EntityMention, QuestionAnalysis, TimeMention
from agents.faithfulness import AnswerCheck
from agents.judge import sectors_only
from agents.methodology import Guide
from agents.shapes import (
    _time_on_reference,
    absent_answer,
    admitted,
    aim_only,
    bounded_variants,
    constraint_problem,
    counted_variants,
    credited,
    described_by,
    excluding_variants,
    reference_relations,
    said_together_first,
    shared_doer_variants,
    swapped_variants,
    type_problem,
    typed_variants,
    unrecorded_reference,
    wording_problem,
)
from tests.bench_support import build_store, visit
from tkg_store.learned import MIRROR_MIN_FACTS
from tkg_store.store import TKGStore
from tkg_store.temporal import parse_time


def _analysis(masked: str, cues: tuple[str, ...] = (), query: Query | None = None) -> QuestionAnalysis:
    entities = [EntityMention(f"E{k}", (0, 0), [(f"Entity{k}", 1.0)]) for k in (1, 2, 3) if f"{{E{k}}}" in masked]
    times = [TimeMention(f"200{k}", (0, 0), parse_time(f"200{k}")) for k in (1, 2) if f"{{T{k}}}" in masked]
    return QuestionAnalysis(masked, masked, entities=entities, times=times, cues=list(cues), query=query or Query())


@pytest.mark.parametrize(
    ("masked", "cues", "query", "program", "kept"),
    [
        # a stated time must be used: "in 2009" is no question about every year
        ("Who visited {E1} in {T1}?", (), Query(is_list=True), "getHeadEntity(E1, R, T) -> answer(#1)", True),
        ("Who visited {E1} in {T1}?", (), Query(is_list=True), "getHeadEntity(E1, R) -> answer(#1)", False),
        # no "last" and no same-period join that the question never asked for
        ("Whom did {E1} meet in {T1}?", (), Query(is_list=True),
         "getTime(E1, R, E2) -> getTailEntity(E1, R, #1) -> getLast(#2) -> answer(#3)", False),
        # every cue is carried out: "after ... the first" needs both
        ("After {T1}, who was the first that {E1} consulted?", ("after", "first"), Query(),
         "getTailEntity(E1, R) -> getAfter(#1, T) -> getFirst(#2) -> answer(#3)", True),
        ("After {T1}, who was the first that {E1} consulted?", ("after", "first"), Query(),
         "getTailEntity(E1, R, T) -> getFirst(#1) -> answer(#2)", False),
        # "after D and before D'" excludes both days: a first pick or one bound only is another question
        ("After {T1} and before {T2}, whom did {E1} abduct?", ("before", "after"), Query(is_list=True),
         "getTailEntity(E1, R, T) -> getFirst(#1) -> answer(#2)", False),
        ("After {T1} and before {T2}, whom did {E1} abduct?", ("before", "after"), Query(is_list=True),
         "getTailEntity(E1, R) -> getAfter(#1, T) -> answer(#2)", False),
        ("After {T1} and before {T2}, whom did {E1} abduct?", ("before", "after"), Query(is_list=True),
         "getTailEntity(E1, R) -> getAfter(#1, T) -> getBefore(#2, T) -> answer(#3)", True),
        # a window is read by its own "between", with both ends
        ("Who praised {E1} from {T1} until {T2}?", ("between", "before"), Query(is_list=True, window=True),
         "getHeadEntity(E1, R) -> getBetween(#1, T1, T2) -> answer(#2)", True),
        ("Who praised {E1} from {T1} until {T2}?", ("between", "before"), Query(is_list=True, window=True),
         "getHeadEntity(E1, R, T1) -> answer(#1)", False),
        # "second to last" picks by days itself: its "last" is no getLast
        ("Whom did {E1} visit second to last in {T1}?", ("last",), Query(ordinal=2, from_end=True),
         "getTailEntity(E1, R, T) -> getNthLast(#1, N) -> answer(#2)", True),
        # a time outside the clause of the event referred to bounds the answers, not that event
        ("After {E2} made a trip abroad, which countries did {E1} visit {T1}?", ("after",), Query(is_list=True, entity_type="country"),
         "getTime(E1, R, E2, T) -> getTailEntity(E1, R) -> getAfter(#2, #1) -> ofType(#3, country) -> answer(#4)", False),
    ],
)
def test_a_program_must_place_answers_in_time_as_the_question_does(
    masked: str, cues: tuple[str, ...], query: Query, program: str, kept: bool
) -> None:
    assert (constraint_problem(_analysis(masked, cues, query), Program.parse(program)) is None) == kept


def test_the_problem_names_what_is_not_carried_out() -> None:
    analysis = _analysis("After {T1}, who was the first that {E1} consulted?", ("after", "first"))
    problem = constraint_problem(analysis, Program.parse("getTailEntity(E1, R, T) -> getFirst(#1) -> answer(#2)"))
    assert problem == "the program does not carry out the question's after"
    extra = constraint_problem(_analysis("Who visited {E1} in {T1}?"), Program.parse("getHeadEntity(E1, R, T) -> getLast(#1) -> answer(#2)"))
    assert extra == "the program performs last, which the question does not ask"


@pytest.mark.parametrize(
    ("asked", "answers", "fits"),
    [
        ("entity", ["Iran", "Iraq"], True),
        ("entity", ["2014"], False),  # asked which country, answered a year
        ("time", ["2013-07-30"], True),
        ("time", ["Japan"], False),
        ("number", ["3"], True),
        ("number", ["Iran"], False),
        ("yesno", ["No"], True),
        ("yesno", ["Iran"], False),
    ],
)
def test_the_answer_is_of_the_asked_type(asked: str, answers: list[str], fits: bool) -> None:
    assert (type_problem(asked, answers) is None) == fits


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TKGStore]:
    facts = [
        ("Boko_Haram", "Abduct,_hijack,_or_take_hostage", "Citizen_(Nigeria)", "2014-04-14"),
        ("Boko_Haram", "Make_an_appeal_or_request", "Government_(Nigeria)", "2014-04-09"),
        ("Kuwait", "Make_pessimistic_comment", "Qatar", "2012-03-31"),
        ("Qatar", "Threaten", "Iran", "2012-05-01"),
        ("Iran", "Praise_or_endorse", "Iraq", "2012-05-02"),
        ("Iran", "Meet_at_a_'third'_location", "Iraq", "2012-05-04"),
        ("Iran", "Appeal_for_diplomatic_cooperation_(such_as_policy_support)", "Iraq", "2012-05-03"),
        ("Evo_Morales", "Make_statement", "Barack_Obama", "2009-01-19"),
        ("Evo_Morales", "Make_optimistic_comment", "Barack_Obama", "2009-01-20"),
        ("Government_(Thailand)", "Impose_state_of_emergency_or_martial_law", "Citizen_(Thailand)", "2010-04-07"),
        ("Iran", "Threaten_with_sanctions,_boycott,_embargo", "Iraq", "2013-02-02"),
        ("Iran", "Provide_aid", "Iraq", "2013-03-03"),
        ("Iran", "Make_empathetic_comment", "Iraq", "2013-04-04"),
        # enough visits, each recorded from both sides, for the KG to show the two relations mirror each other
        *(f for day in range(1, MIRROR_MIN_FACTS + 2) for f in visit("Jack_Straw", "Iran", f"2008-01-{day:02d}")),
    ]
    with TKGStore.open(build_store(tmp_path_factory.mktemp("audit") / "kg.duckdb", facts)) as opened:
        yield opened


@pytest.mark.parametrize(
    ("masked", "relation", "accounted"),
    [
        # a verb the lexicon never saw is accounted for by the relation it names, and by no other
        ("Who did {E1} abduct in {T1}?", "Abduct,_hijack,_or_take_hostage", True),
        ("Who did {E1} abduct in {T1}?", "Make_an_appeal_or_request", False),
        # a verb named by its general-English synonym ("kidnap": abduct) is read as the relation that names it
        ("Whom did {E1} kidnap in {T1}?", "Abduct,_hijack,_or_take_hostage", True),
        ("Whom did {E1} kidnap in {T1}?", "Make_an_appeal_or_request", False),
        ("Did {E1} threaten {E2} in {T1}?", "Make_pessimistic_comment", False),
        ("Did {E1} threaten {E2} in {T1}?", "Threaten", True),
        # an inflection still names it ("hosted": Host_a_visit), and a mirror answers for it
        ("Who were hosted by {E1} in {T1}?", "Host_a_visit", True),
        ("Who were hosted by {E1} in {T1}?", "Make_a_visit", True),
        # a wording that names no relation leaves the ranking to decide
        ("Who did {E1} talk to in {T1}?", "Make_pessimistic_comment", True),
        # what the lexicon learned a word to mean counts as much as a relation's name
        ("Who supported {E1} in {T1}?", "Praise_or_endorse", True),
        ("Who supported {E1} in {T1}?", "Make_pessimistic_comment", False),
        # an ordinal is the query's constraint, not a word of the event ("a 'third' location")
        ("Who was the third to visit {E1} in {T1}?", "Meet_at_a_'third'_location", False),
        ("Who was the third to visit {E1} in {T1}?", "Make_a_visit", True),
    ],
)
def test_a_relation_the_wording_names_is_the_one_asked(store: TKGStore, masked: str, relation: str, accounted: bool) -> None:
    lexicon = RelationLexicon(counts={"supported": {"Praise_or_endorse": 9.0, "Make_statement": 1.0}})
    assert (wording_problem(store, _analysis(masked), relation, lexicon) is None) == accounted


@pytest.mark.parametrize(
    ("relation", "accounted"),
    [("Make_statement", True), ("Make_optimistic_comment", False), ("Impose_state_of_emergency_or_martial_law", False)],
)
def test_a_count_asks_about_the_relation_whose_whole_name_it_says(store: TKGStore, relation: str, accounted: bool) -> None:
    # "statements" is what the lexicon saw of optimistic comments (a kind of statement), and shares its first letters
    # with a state of emergency; "make statements" says the whole of Make_statement's name
    lexicon = RelationLexicon(counts={"statements": {"Make_optimistic_comment": 1.4}})
    analysis = _analysis("How many times did {E1} make statements about {E2} in {T1}?", query=Query(asks="number", count="days"))
    assert (wording_problem(store, analysis, relation, lexicon) is None) == accounted


def test_the_problem_names_the_relations_the_wording_asks_about(store: TKGStore) -> None:
    problem = wording_problem(store, _analysis("Who did {E1} abduct in {T1}?"), "Make_an_appeal_or_request")
    assert problem == "the question names Abduct, hijack, or take hostage, and the program read Make an appeal or request"


def test_the_lexicon_credits_a_word_with_its_main_relations_only() -> None:
    lexicon = RelationLexicon(counts={"requested": {"Meet": 35.0, "Appeal": 17.5, "Visit": 8.0}})
    assert credited(lexicon, "requested") == {"Meet", "Appeal"}
    assert credited(lexicon, "abduct") == frozenset() and credited(None, "requested") == frozenset()


@pytest.mark.parametrize(("one", "other", "same"), [("host", "hosted", True), ("criticise", "criticize", True),
                                                    ("visit", "visitor", True), ("meet", "mediate", False), ("aid", "aide", False),
                                                    ("deny", "denied", True), ("deny", "denounce", False)])
def test_inflections_of_one_word_are_the_same_word(one: str, other: str, same: bool) -> None:
    assert same_word(one, other) == same


@pytest.mark.parametrize(
    ("masked", "accounted"),
    [
        ("Did {E1} threaten {E2} in {T1}?", True),  # named by a relation
        ("Did {E1} praise {E2} in {T1}?", True),  # a word the lexicon learned
        ("Did {E1} praise {E2} at any point in {T1}?", True),  # "at any point" says when
        ("Did {E1} speak approvingly of {E2} in {T1}?", False),  # "approvingly": neither
        # words that assert nothing about the event: frequency, emphasis, truth, a frame, a tag
        ("Did {E1} ever threaten {E2} in {T1}?", True),
        ("Did {E1} actually threaten {E2} even once in {T1}?", True),
        ("I wonder whether {E1} threatened {E2} in {T1}.", True),
        ("I'd like to know if {E1} threatened {E2} in {T1}.", True),
        ("Could you please check if {E1} threatened {E2} in {T1}?", True),
        ("Do you know whether {E1} threatened {E2} in {T1}?", True),
        ("Is it true that {E1} threatened {E2} in {T1}?", True),
        ("{E1} threatened {E2} in {T1}, right?", True),
        ("Did {E1} threaten {E2} in {T1} or not?", True),
        # a manner adverb asserts how it happened, which no fact states; so does a frame word inside the predicate
        ("Did {E1} secretly threaten {E2} in {T1}?", False),
        ("Did {E1} ever secretly threaten {E2} in {T1}?", False),
        ("Did {E1} check whether {E2} threatened Laos in {T1}?", False),
    ],
)
def test_a_yes_no_question_asserts_every_word_of_its_predicate(store: TKGStore, masked: str, accounted: bool) -> None:
    lexicon = RelationLexicon(counts={"praise": {"Praise_or_endorse": 3.0}, "speak": {"Make_statement": 2.0}})
    analysis = _analysis(masked, query=Query(asks="yesno"))
    assert (wording_problem(store, analysis, "Threaten" if "threaten" in masked else "Praise_or_endorse", lexicon) is None) == accounted


@pytest.mark.parametrize(
    ("masked", "unread"),
    [
        ("Did {E1} travel to {E2} in {T1}?", []),  # "travel": a synonym of "visited", which the lexicon knows
        ("{E1} visited {E2} in {T1} — true or false?", []),  # a tag
        ("Did {E1} downgrade ties with {E2} in {T1}?", ["downgrade", "ties"]),  # no synonym the lexicon knows
    ],
)
def test_a_yes_no_word_is_accounted_for_by_a_synonym_the_lexicon_knows(store: TKGStore, masked: str, unread: list[str]) -> None:
    from agents.shapes import unaccounted_words

    lexicon = RelationLexicon(counts={"visited": {"Make_a_visit": 5.0}})
    assert unaccounted_words(store, _analysis(masked, query=Query(asks="yesno")), lexicon) == unread


@pytest.mark.parametrize(
    ("program", "excluding"),
    [
        ("getTailEntity(E1, R, T) -> getMost(#1) -> answer(#2)", "getTailEntity(E1, R, T) -> exclude(#1, E2) -> getMost(#2) -> answer(#3)"),
        ("getHeadEntity(E1, R) -> getBetween(#1, T1, T2) -> count(#2, entities) -> answer(#3)",
         "getHeadEntity(E1, R) -> getBetween(#1, T1, T2) -> exclude(#2, E2) -> count(#3, entities) -> answer(#4)"),
        ("getTailEntity(E1, R, T) -> exclude(#1, E2) -> answer(#2)", None),  # excludes already
        ("getTime(E2, R, E1) -> getHeadEntity(E1, R) -> getBefore(#2, #1) -> answer(#3)", None),  # E2 is another event's
    ],
)
def test_a_program_leaves_the_excluded_entity_out_before_what_it_computes(program: str, excluding: str | None) -> None:
    made = Program.parse(program).excluding("E2")
    assert (made.render() if made else None) == excluding


def test_most_often_apart_from_x_is_answered_by_a_program_learnt_without_the_exclusion() -> None:
    # "Which country did {E1} visit most often in {T1} apart from {E2}?": the memory holds the ranking alone
    analysis = _analysis("Which country did {E1} visit most often in {T1} apart from {E2}?", query=Query(extreme="most", excluded=(2,)))
    ranking = Guide(Program.parse("getTailEntity(E1, R, T) -> getMost(#1) -> answer(#2)"), 5, 0.9)
    assert admitted([ranking], analysis) == []
    (kept,) = admitted(excluding_variants([ranking], analysis), analysis)
    assert kept.program.render() == "getTailEntity(E1, R, T) -> exclude(#1, E2) -> getMost(#2) -> answer(#3)"


def test_apart_from_two_entities_leaves_out_both_and_only_a_program_leaving_out_both_is_admitted() -> None:
    # "Apart from {E1} and {E2}, who did {E3} criticize in {T1}?": the memory holds the list learnt about one entity
    analysis = _analysis("Apart from {E1} and {E2}, who did {E3} criticize in {T1}?", query=Query(is_list=True, excluded=(1, 2)))
    listing = Guide(Program.parse("getTailEntity(E1, R, T) -> answer(#1)"), 5, 0.9)
    (kept,) = admitted(excluding_variants([listing], analysis), analysis)
    assert kept.program.render() == "getTailEntity(E3, R, T) -> exclude(#1, E2) -> exclude(#2, E1) -> answer(#3)"
    one = Guide(Program.parse("getTailEntity(E3, R, T) -> exclude(#1, E1) -> answer(#2)"), 5, 0.9)
    assert admitted([one], analysis) == []  # E2 would be among the answers


@pytest.mark.parametrize(
    ("masked", "typed"),
    [
        # the question word asks a country: the first country, not the first of anyone
        ("Which country did {E1} visit first in {T1}?", True),
        # "who ... country" asks whoever; MultiTQ's own questions of this wording name sectors and people too
        ("Who was the first country to visit {E1} in {T1}?", False),
    ],
)
def test_which_country_first_is_the_first_country(masked: str, typed: bool) -> None:
    analysis = _analysis(masked, ("first",), Query(entity_type="country"))
    plain = Guide(Program.parse("getTailEntity(E1, R, T) -> getFirst(#1) -> answer(#2)"), 5, 0.9)
    (kept,) = admitted(typed_variants([plain], analysis), analysis)
    expected = "getTailEntity(E1, R, T) -> ofType(#1, country) -> getFirst(#2) -> answer(#3)" if typed else plain.program.render()
    assert kept.program.render() == expected


def test_apart_from_the_first_named_entity_reads_the_program_of_the_other() -> None:
    # "Apart from {E1}, which country did {E2} visit most often in {T1}?": the ranking learnt of E1 is read of E2
    analysis = _analysis("Apart from {E1}, which country did {E2} visit most often in {T1}?", query=Query(extreme="most", excluded=(1,)))
    ranking = Guide(Program.parse("getTailEntity(E1, R, T) -> getMost(#1) -> answer(#2)"), 5, 0.9)
    (kept,) = admitted(excluding_variants([ranking], analysis), analysis)
    assert kept.program.render() == "getTailEntity(E2, R, T) -> exclude(#1, E1) -> getMost(#2) -> answer(#3)"


@pytest.mark.parametrize(
    ("masked", "query", "program", "counted"),
    [
        # the first after another event is its first pick: the second is the same program counted on
        ("Who was the second to visit {E1} after {E2} did?", Query(ordinal=2),
         "getTime(E2, R, E1) -> getHeadEntity(E1, R) -> getAfter(#2, #1) -> getFirst(#3) -> answer(#4)",
         "getTime(E2, R, E1) -> getHeadEntity(E1, R) -> getAfter(#2, #1) -> getNth(#3, N) -> answer(#4)"),
        ("Who was the second to last to visit {E1} before {E2} did?", Query(ordinal=2, from_end=True),
         "getTime(E2, R, E1) -> getHeadEntity(E1, R) -> getBefore(#2, #1) -> getLast(#3) -> answer(#4)",
         "getTime(E2, R, E1) -> getHeadEntity(E1, R) -> getBefore(#2, #1) -> getNthLast(#3, N) -> answer(#4)"),
        # counted from the other end
        ("Whom did {E1} visit second to last in {T1}?", Query(ordinal=2, from_end=True),
         "getTailEntity(E1, R, T) -> getNth(#1, N) -> answer(#2)", "getTailEntity(E1, R, T) -> getNthLast(#1, N) -> answer(#2)"),
        # a program that picks the n-th already, or picks nothing, has no such variant
        ("Whom did {E1} visit second in {T1}?", Query(ordinal=2), "getTailEntity(E1, R, T) -> getNth(#1, N) -> answer(#2)", None),
        ("Whom did {E1} visit second in {T1}?", Query(ordinal=2), "getTailEntity(E1, R, T) -> answer(#1)", None),
    ],
)
def test_an_nth_is_read_by_the_program_of_the_first_or_last(masked: str, query: Query, program: str, counted: str | None) -> None:
    analysis = _analysis(masked, query=query)
    offered = counted_variants([Guide(Program.parse(program), 5, 0.9)], analysis)
    assert [g.program.render() for g in offered[1:]] == ([counted] if counted else [])


@pytest.mark.parametrize(
    ("masked", "query", "program", "swapped"),
    [
        # the one acted on named first: the n-th time the other did it to it
        ("The second criticism of {E1} in {T1}, when did {E2} next criticize {E1}?", Query(asks="time", ordinal=2),
         "getTime(E1, R, E2, T) -> getNth(#1, N) -> answer(#2)", "getTime(E2, R, E1, T) -> getNth(#1, N) -> answer(#2)"),
        ("In {T1}, was {E1} criticized by {E2}?", Query(asks="yesno"),
         "getTime(E1, R, E2, T) -> exists(#1) -> answer(#2)", "getTime(E2, R, E1, T) -> exists(#1) -> answer(#2)"),
        # an excluded entity keeps its role: "apart from {E2}" is never the one acting
        ("Who visited {E1} most in {T1} apart from {E2}?", Query(extreme="most", excluded=(2,)),
         "getHeadEntity(E1, R, T) -> exclude(#1, E2) -> getMost(#2) -> answer(#3)", None),
        # MultiTQ's six keep the programs they learnt: their role order is the templates'
        ("When did {E1} first visit {E2}?", Query(), "getTime(E1, R, E2) -> getFirst(#1) -> answer(#2)", None),
    ],
)
def test_two_named_entities_may_be_read_in_each_others_roles(masked: str, query: Query, program: str, swapped: str | None) -> None:
    analysis = _analysis(masked, query=query)
    learnt = Guide(Program.parse(program), 5, 0.9)
    offered = swapped_variants([learnt], analysis)
    assert offered[0] == learnt  # the program as learnt is tried first
    assert [g.program.render() for g in offered[1:]] == ([swapped] if swapped else [])


def test_no_is_answered_only_when_no_relation_ranked_near_the_best_holds(store: TKGStore) -> None:
    # "hold talks" names no relation outright: Iran met Iraq at a third location in 2012, ranked second, so no "No"
    analysis = QuestionAnalysis(
        "?", "Did {E1} hold talks with {E2} in {T1}?", entities=[EntityMention(n, (0, 0), [(n, 1.0)]) for n in ("Iran", "Iraq")],
        times=[TimeMention("2012", (0, 0), parse_time("2012"))], relations=[("Make_pessimistic_comment", 0.3), ("Meet_at_a_'third'_location", 0.2)],
        query=Query(asks="yesno"),
    )
    assert absent_answer(store, analysis, AnswerCheck(store, analysis)) is None
    far = replace(analysis, relations=[("Make_pessimistic_comment", 0.3), ("Meet_at_a_'third'_location", 0.1)])
    assert absent_answer(store, far, AnswerCheck(store, far)) == "No"


@pytest.mark.parametrize(
    ("masked", "absent"),
    [
        # Iran never threatened Iraq: a known verb's absence is "No"; a journey's verb is a visit, which no fact of theirs is
        ("Did {E1} threaten {E2} in {T1}?", "No"),
        ("{E1} went to {E2} in {T1} or not?", "No"),
        # "take up" names no act (though "take" is a word of Abduct,_hijack,_or_take_hostage), and "painting" none the
        # reading knows: the best-ranked relation is a guess, and no fact's absence answers it
        ("Did {E1} take up painting in {T1}?", None),
    ],
)
def test_no_is_answered_only_about_an_act_the_wording_names_in_words_the_reading_knows(store: TKGStore, masked: str, absent: str | None) -> None:
    analysis = QuestionAnalysis(
        "?", masked, entities=[EntityMention(n, (0, 0), [(n, 1.0)]) for n in ("Iran", "Iraq")],
        times=[TimeMention("2012", (0, 0), parse_time("2012"))], relations=[("Threaten", 0.6), ("Make_a_visit", 0.3)], query=Query(asks="yesno"),
    )
    lexicon = RelationLexicon(counts={"threaten": {"Threaten": 5.0}, "visited": {"Make_a_visit": 5.0}})
    assert absent_answer(store, analysis, AnswerCheck(store, analysis), lexicon) == absent


_INTENT_TO_MEET = ("Express intent to meet or negotiate", "Say one is willing to meet or hold talks.", "Offer to meet, propose a meeting.")
_ATTEMPT = ("Attempt to assassinate", "Try to kill a prominent person.")


@pytest.mark.parametrize(
    ("masked", "texts", "only_aim"),
    [
        # the words name the act an intent or an attempt aims at, not the intent: a meeting is no intent to meet
        ("How many times did {E1} and {E2} meet up before {T1}?", _INTENT_TO_MEET, True),
        ("Did {E1} assassinate {E2} in {T1}?", _ATTEMPT, True),
        # in any inflection: the progressive, the noun, the past
        ("Was {E1} meeting {E2} in {T1}?", _INTENT_TO_MEET, True),
        ("How many times has {E1} assassinated someone?", _ATTEMPT, True),
        # the intent said: by the name's own act, by its description's words, or as an aim of the wording's own
        ("How many times did {E1} express intent to meet {E2}?", _INTENT_TO_MEET, False),
        ("Did {E1} offer talks to {E2} in {T1}?", _INTENT_TO_MEET, False),
        ("Did {E1} vow to negotiate with {E2} in {T1}?", _INTENT_TO_MEET, False),
        ("Did {E1} try to assassinate {E2}?", _ATTEMPT, False),
        # a name with no aim, or words that name none of it
        ("Did {E1} meet {E2} in {T1}?", ("Meet at a 'third' location", "Meet someone abroad."), False),
        ("Did {E1} criticize {E2} in {T1}?", _INTENT_TO_MEET, False),
    ],
)
def test_a_relation_whose_name_only_aims_at_the_act_asked_does_not_answer_it(masked: str, texts: tuple[str, ...], only_aim: bool) -> None:
    assert aim_only(_analysis(masked, query=Query(asks="number")), texts, "R") is only_aim


def test_the_clause_of_an_event_about_the_one_party_named_says_its_act(store: TKGStore) -> None:
    # "after {E1} was abducted": the event referred to is an abduction of E1, and only a relation of it reads that event
    analysis = QuestionAnalysis("?", "After {E1} was abducted, who threatened it?", entities=[EntityMention("Iran", (6, 10), [("Iran", 1.0)])],
                                times=[], relations=[("Threaten", 0.9)], cue="after", cues=["after"], query=Query(is_list=True))
    referred = reference_relations(store, analysis)
    assert referred == {"Abduct,_hijack,_or_take_hostage"}
    check = AnswerCheck(store, analysis, referred_relations=referred)
    assert check.refers_to("Abduct,_hijack,_or_take_hostage") and not check.refers_to("Threaten")
    # the asked act said again names no event of its own: any asked relation reads it ("after it was threatened")
    again = replace(analysis, masked="After {E1} was threatened, who threatened it?")
    assert reference_relations(store, again) == frozenset()


@pytest.mark.parametrize(
    ("candidates", "absent"),
    [
        # the one entity the name reads: Iran never threatened Iraq
        ([("Iran", 1.0)], "No"),
        # a country the KG names only by its sectors reads as each of them alike: that the first never threatened Iraq
        # says nothing of the others, nor of the country
        ([("Police_(Iran)", 0.5), ("Military_(Iran)", 0.5)], None),
        # the entity of that name first, and its own sectors after it: the name is the entity's
        ([("Iran", 0.75), ("Military_(Iran)", 0.72)], "No"),
        # another reading scored far below is no rival
        ([("Iran", 1.0), ("Iranian_Airlines", 0.5)], "No"),
    ],
)
def test_no_is_answered_only_about_the_entity_the_name_reads(store: TKGStore, candidates: list[tuple[str, float]], absent: str | None) -> None:
    analysis = QuestionAnalysis(
        "?", "Did {E1} threaten {E2} in {T1}?", entities=[EntityMention("E1", (0, 0), candidates), EntityMention("Iraq", (0, 0), [("Iraq", 1.0)])],
        times=[TimeMention("2012", (0, 0), parse_time("2012"))], relations=[("Threaten", 0.6)], query=Query(asks="yesno"),
    )
    lexicon = RelationLexicon(counts={"threaten": {"Threaten": 5.0}})
    assert absent_answer(store, analysis, AnswerCheck(store, analysis), lexicon) == absent


MEETINGS = [
    ("Iran", "Consult", "Iraq", "2012-05-05"),
    ("Iran", "Express_intent_to_meet_or_negotiate", "Iraq", "2011-05-05"),
    ("Iran", "Meet_at_a_'third'_location", "Iraq", "2011-05-06"),
    ("Iran", "Provide_humanitarian_aid", "Iraq", "2011-05-07"),
    ("Iran", "Express_intent_to_provide_humanitarian_aid", "Iraq", "2011-05-08"),
]
_TEXTS = {"Express_intent_to_meet_or_negotiate": _INTENT_TO_MEET, "Express_intent_to_provide_humanitarian_aid": ("Express intent to provide humanitarian aid",)}


@pytest.mark.parametrize(
    ("masked", "absent"),
    [
        # "meet" names an intent to meet by its aim, and a meeting at a third place: neither in 2012 is no evidence that
        # they never met (they consulted); in any inflection
        ("Did {E1} meet {E2} in {T1}?", None),
        ("Was {E1} meeting {E2} in {T1}?", None),
        # "provide humanitarian aid" is Provide_humanitarian_aid, every word of its name: none in 2012 is "No", though the
        # words also say the aim of an intent to provide it
        ("Did {E1} provide humanitarian aid to {E2} in {T1}?", "No"),
    ],
)
def test_no_is_not_answered_from_words_read_as_the_aim_of_an_intent(tmp_path: Path, masked: str, absent: str | None) -> None:
    with TKGStore.open(build_store(tmp_path / "kg.duckdb", MEETINGS)) as store:
        analysis = QuestionAnalysis(
            "?", masked, entities=[EntityMention(n, (0, 0), [(n, 1.0)]) for n in ("Iran", "Iraq")],
            times=[TimeMention("2012", (0, 0), parse_time("2012"))], relations=[("Express_intent_to_meet_or_negotiate", 0.6)], query=Query(asks="yesno"),
        )
        lexicon = RelationLexicon(counts={"meet": {"Express_intent_to_meet_or_negotiate": 9.0, "Consult": 1.0}, "aid": {"Provide_humanitarian_aid": 5.0}})

        def aimed(relation: str) -> bool:
            return relation in _TEXTS and aim_only(analysis, _TEXTS[relation], relation, lexicon)

        assert absent_answer(store, analysis, AnswerCheck(store, analysis), lexicon, aimed) == absent
        assert absent_answer(store, analysis, AnswerCheck(store, analysis), lexicon) == "No"  # when nothing is read as an aim


@pytest.mark.parametrize(
    ("masked", "relations", "counts", "absent"),
    [
        # Iran threatened Iraq with sanctions in 2013: a threat too, though the relation read is Threaten
        ("Did {E1} threaten {E2} in {T1}?", [("Threaten", 0.6)], {"threaten": {"Threaten": 5.0}}, None),
        ("How many times did {E1} threaten {E2} in {T1}?", [("Threaten", 0.6)], {"threaten": {"Threaten": 5.0}}, None),
        # "give aid", read as humanitarian aid: Iran gave Iraq aid in 2013, which Provide_aid records
        ("Did {E1} give aid to {E2} in {T1}?", [("Provide_humanitarian_aid", 0.8)], {"give": {"Provide_humanitarian_aid": 5.0}}, None),
        # an act of which the KG holds no instance between them in 2013
        ("Did {E1} criticize {E2} in {T1}?", [("Criticize_or_denounce", 0.6)], {"criticize": {"Criticize_or_denounce": 5.0}}, "No"),
    ],
)
def test_no_is_answered_only_where_no_instance_of_the_act_holds(
    store: TKGStore, masked: str, relations: list[tuple[str, float]], counts: dict[str, dict[str, float]], absent: str | None
) -> None:
    analysis = QuestionAnalysis(
        "?", masked, entities=[EntityMention(n, (0, 0), [(n, 1.0)]) for n in ("Iran", "Iraq")],
        times=[TimeMention("2013", (0, 0), parse_time("2013"))], relations=relations, query=Query(asks="number" if "many" in masked else "yesno"),
    )
    answer = absent_answer(store, analysis, AnswerCheck(store, analysis), RelationLexicon(counts=counts))
    assert answer == (absent and ("0" if "many" in masked else absent))


@pytest.mark.parametrize(
    ("masked", "unrecorded"),
    [
        # a pronoun's act no relation names: no fact dates it, and "after" some other event would answer another question
        ("Who did {E1} criticize after he won the election?", "'after he won the election'"),
        ("How many times has {E1} threatened {E2} since she became president?", "'since she became president'"),
        # a pro-verb, an act a relation names, the question's own act said again: each is read as an event
        ("Who visited {E1} after he did?", None),
        ("Who did {E1} criticize after he visited {E2}?", None),
        ("Who had {E1} sued before it sued that judge?", None),
    ],
)
def test_a_time_placed_against_an_act_no_relation_records_is_refused_naming_it(store: TKGStore, masked: str, unrecorded: str | None) -> None:
    reason = unrecorded_reference(store, QuestionAnalysis("?", masked), RelationLexicon(counts={}))
    assert (reason is None) if unrecorded is None else (reason is not None and unrecorded in reason)


def test_a_word_only_a_relations_description_says_is_an_instance_of_it_too(store: TKGStore) -> None:
    # Iran made an empathetic comment on Iraq in 2013: "express sympathy" names no relation, its description says it
    texts = {"Make_empathetic_comment": ("Make empathetic comment", "Express sympathy.", "Offer condolences."), "Threaten": ("Threaten", "Warn.")}
    assert described_by(texts, "sympathy") == {"Make_empathetic_comment"} and described_by(texts, "condolence") == {"Make_empathetic_comment"}
    analysis = QuestionAnalysis(
        "?", "Did {E1} express sympathy for {E2} in {T1}?", entities=[EntityMention(n, (0, 0), [(n, 1.0)]) for n in ("Iran", "Iraq")],
        times=[TimeMention("2013", (0, 0), parse_time("2013"))], relations=[("Express_intent_to_cooperate", 0.6)], query=Query(asks="yesno"),
    )
    lexicon = RelationLexicon(counts={"express": {"Express_intent_to_cooperate": 5.0}})
    assert absent_answer(store, analysis, AnswerCheck(store, analysis), lexicon) == "No"  # the relations read hold nothing
    assert absent_answer(store, analysis, AnswerCheck(store, analysis), lexicon, described=lambda w: described_by(texts, w)) is None


def test_a_time_inside_the_clause_of_the_event_referred_to_dates_that_event() -> None:
    program = Program.parse("getTime(E1, R, E2, T) -> getTailEntity(E1, R) -> getAfter(#2, #1) -> answer(#3)")
    assert _time_on_reference(_analysis("After {E2} made a trip to {E3}, which countries did {E1} visit {T1}?", ("after",)), program)
    assert not _time_on_reference(_analysis("After {E1} visited {E2} in {T1}, which countries did {E1} visit?", ("after",)), program)
    # a pro-verb repeats the asked act with its time: the event referred to is in that time too
    assert not _time_on_reference(_analysis("Which countries recognised {E1} in {T1} after {E2} did so?", ("after",)), program)


@pytest.mark.parametrize(
    ("text", "candidates", "sectors"),
    [
        ("Russia", [("Military_(Russia)", 0.5), ("Police_(Russia)", 0.5)], True),  # no entity of the country itself
        ("Nigerian", [("Citizen_(Nigeria)", 0.5), ("Government_(Nigeria)", 0.5)], False),  # an adjective: its noun says which
        ("Russian military", [("Military_(Russia)", 1.0), ("Military_Transport_Plane_(Russia)", 0.5)], False),  # one sector said
        ("Japan", [("Japan", 1.0), ("Military_(Japan)", 0.5)], False),  # the country is an entity
    ],
)
def test_a_country_the_kg_names_only_by_its_sectors(text: str, candidates: list[tuple[str, float]], sectors: bool) -> None:
    assert bool(sectors_only(EntityMention(text, (0, len(text)), candidates))) == sectors


@pytest.mark.parametrize(
    ("masked", "cues", "query", "program", "composed"),
    [
        # "first" in the clause of the event referred to picks that event, where the answers are all asked or counted
        ("After {E1} first visited {E3}, how many times did he visit {E2}?", ("after", "first"), Query(asks="number", count="days"),
         "getTime(E1, R, E3) -> getTime(E1, R, E2) -> getAfter(#2, #1) -> count(#3, days) -> answer(#4)",
         "getTime(E1, R, E3) -> getFirst(#1) -> getTime(E1, R, E2) -> getAfter(#3, #2) -> count(#4, days) -> answer(#5)"),
        ("Which countries did {E1} visit before his last trip to {E2}?", ("before", "last"), Query(is_list=True),
         "getTime(E1, R, E2) -> getTailEntity(E1, R) -> getBefore(#2, #1) -> answer(#3)",
         "getTime(E1, R, E2) -> getLast(#1) -> getTailEntity(E1, R) -> getBefore(#3, #2) -> answer(#4)"),
        # one answer asked: the "first" is the answer's ("who first visited {E1} after {E2} did")
        ("Who was the first to visit {E1} after {E2} did?", ("after", "first"), Query(),
         "getTime(E2, R, E1) -> getHeadEntity(E1, R) -> getAfter(#2, #1) -> answer(#3)", None),
        # two bounds said: the answers placed after the one and before the other
        ("Which countries did {E1} visit after {T1}, and before {T2}?", ("before", "after"), Query(is_list=True),
         "getTailEntity(E1, R) -> getAfter(#1, T) -> answer(#2)",
         "getTailEntity(E1, R) -> getAfter(#1, T) -> getBefore(#2, T) -> answer(#3)"),
        # a window says both ends by its own "between"
        ("Who praised {E1} from {T1} until {T2}?", ("between", "before"), Query(is_list=True, window=True),
         "getHeadEntity(E1, R) -> getBefore(#1, T) -> answer(#2)", None),
    ],
)
def test_bounds_the_memory_holds_one_at_a_time_are_composed(masked: str, cues: tuple[str, ...], query: Query, program: str, composed: str | None) -> None:
    analysis = _analysis(masked, cues, query)
    offered = bounded_variants([Guide(Program.parse(program), 5, 0.9)], analysis)
    assert [g.program.render() for g in offered[1:]] == ([composed] if composed else [])


@pytest.mark.parametrize(
    ("masked", "order", "swapped"),
    [
        # "she" is the subject of the clause the cue heads: the one who visited both
        ("After {E3} visited {E1}, how many times did she visit {E2}?", [1, 3, 2],
         "getTime(E3, R, E1) -> getTime(E3, R, E2) -> getAfter(#2, #1) -> count(#3, days) -> answer(#4)"),
        ("Once {E3} had made his first trip to {E1}, how many days was he in {E2} after that?", [1, 3, 2],
         "getTime(E3, R, E1) -> getTime(E3, R, E2) -> getAfter(#2, #1) -> count(#3, days) -> answer(#4)"),
        # the asked clause names its own doer: the roles are as learnt
        ("After {E1} visited {E3}, how many times did {E1} visit {E2}?", [1, 2, 3], None),
        # "after {E3} did" repeats the asked act with the asked clause's other party
        ("How many times did {E1} visit {E2} after {E3} did?", [1, 2, 3], None),
    ],
)
def test_the_doer_a_pronoun_shares_with_a_cues_clause_does_both_acts(masked: str, order: list[int], swapped: str | None) -> None:
    assert said_together_first(masked, 3) == order
    learnt = Guide(Program.parse("getTime(E1, R, E3) -> getTime(E1, R, E2) -> getAfter(#2, #1) -> count(#3, days) -> answer(#4)"), 5, 0.9)
    offered = shared_doer_variants([learnt], _analysis(masked, ("after",), Query(asks="number", count="days")))
    assert [g.program.render() for g in offered[1:]] == ([swapped] if swapped else [])
