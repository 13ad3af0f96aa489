"""Each linked entity in its role: the answer check (agents.faithfulness) on a small KG written
through the real ingest, and the clause-role reader (agents.analysis.clause_roles) it relies on."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from agents.analysis.clause_roles import OBJECT, REFERENCE, SUBJECT, clause_roles, receives_event, voice_roles
from agents.analysis.types import EntityMention, QuestionAnalysis
from agents.faithfulness import check_answers
from tests.bench_support import build_store
from tkg_store.learned import mirror_relations, symmetric_relations
from tkg_store.store import TKGStore


def _days(n: int, start: date = date(2008, 1, 1)) -> list[str]:
    return [(start + timedelta(days=i)).isoformat() for i in range(n)]


VISITS = [("Ann", "Xland", "2010-04-10"), ("Xland", "Bob", "2010-04-12")]  # Ann visited Xland; Xland visited Bob
HOSTED_ONLY = [("Cid", "Host_a_visit", "Xland", "2010-04-14")]  # Cid hosted Xland: Xland visited Cid, stated once
FACTS = (
    [(v, "Make_a_visit", h, d) for v, h, d in VISITS]
    + [(h, "Host_a_visit", v, d) for v, h, d in VISITS]
    + HOSTED_ONLY
    + [("Dan", "Criticize", "Xland", "2010-05-01"), ("Xland", "Criticize", "Eve", "2010-05-02")]
    + [("Xland", "Consult", "Fay", "2010-06-01"), ("Fay", "Consult", "Xland", "2010-06-01")]
    + [("Gus", "Consult", "Xland", "2010-06-02")]  # stated one way only; Consult is still symmetric
    # enough unrelated facts for the KG to show Make/Host as mirrors and Consult as symmetric
    + [(f"Guest{i}", "Make_a_visit", "Yland", d) for i, d in enumerate(_days(25))]
    + [("Yland", "Host_a_visit", f"Guest{i}", d) for i, d in enumerate(_days(25))]
    + [(f"Peer{i}", "Consult", "Yland", d) for i, d in enumerate(_days(25))]
    + [("Yland", "Consult", f"Peer{i}", d) for i, d in enumerate(_days(25))]
    + [(f"Critic{i}", "Criticize", "Yland", d) for i, d in enumerate(_days(25))]
)


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    path = build_store(tmp_path_factory.mktemp("roles") / "kg.duckdb", FACTS)
    with TKGStore.open(path) as opened:
        yield opened


def asked(masked: str, family: set[str]) -> bool:
    """The relation the wording names, as the linker's `plausible` would say for these questions."""
    wanted = {"visit": {"Make_a_visit", "Host_a_visit"}, "host": {"Make_a_visit", "Host_a_visit"}, "critici": {"Criticize"}, "consult": {"Consult"}}
    return any(word in masked.lower() and family & relations for word, relations in wanted.items())


def analysis(masked: str, entities: list[str], answer_type: str = "entity") -> QuestionAnalysis:
    return QuestionAnalysis(
        question=masked, masked=masked, entities=[EntityMention(e, (0, 0), [(e, 1.0)]) for e in entities], answer_type=answer_type
    )


def kept(store: TKGStore, masked: str, entities: list[str], answers: list[str], answer_type: str = "entity") -> list[str]:
    return check_answers(store, analysis(masked, entities, answer_type), answers, asked).answers


# -- what the KG says about relations ------------------------------------------------------------

def test_mirrors_and_symmetric_relations_are_learned_from_the_facts(store):
    assert mirror_relations(store)["Make_a_visit"] == {"Host_a_visit"}
    assert symmetric_relations(store) == {"Consult"}  # Criticize is stated one way; visits mirror, not self


# -- right role / wrong role ---------------------------------------------------------------------

def test_the_object_of_the_question_is_the_facts_tail(store):
    assert kept(store, "Who criticised {E1}?", ["Xland"], ["Dan", "Eve"]) == ["Dan"]


def test_the_subject_of_the_question_is_the_facts_head(store):
    assert kept(store, "Which country did {E1} criticise?", ["Xland"], ["Dan", "Eve"]) == ["Eve"]
    assert kept(store, "{E1} criticised whom?", ["Xland"], ["Dan", "Eve"]) == ["Eve"]


def test_a_wrong_role_answer_leaves_an_abstention_with_a_reason(store):
    verdict = check_answers(store, analysis("Who criticised {E1}?", ["Xland"]), ["Eve"], asked)
    assert verdict.answers == [] and verdict.reason is not None


def test_a_time_answer_needs_both_entities_in_their_roles(store):
    assert kept(store, "When did {E1} criticise {E2}?", ["Dan", "Xland"], ["2010-05-01"], "time") == ["2010-05-01"]
    assert kept(store, "When did {E1} criticise {E2}?", ["Xland", "Dan"], ["2010-05-01"], "time") == []


def test_a_passive_the_grammar_did_not_rewrite_is_read_by_its_voice(store):
    # the subject of "was criticised" is the one criticised, the agent after "by" the one who criticised
    assert kept(store, "When was {E1} criticised?", ["Xland"], ["2010-05-01", "2010-05-02"], "time") == ["2010-05-01"]
    assert kept(store, "Which country was last criticised by {E1}?", ["Xland"], ["Dan", "Eve"]) == ["Eve"]
    assert kept(store, "Who was the last one to be criticised by {E1}?", ["Xland"], ["Dan", "Eve"]) == ["Eve"]


def test_an_unknown_role_leaves_either_direction(store):
    # "the criticism of X": X may have criticised or been criticised, so neither answer is ruled out
    assert kept(store, "When was the criticism of {E1}?", ["Xland"], ["2010-05-01", "2010-05-02"], "time") == ["2010-05-01", "2010-05-02"]


# -- mirror relations: the same event from the other side, roles swapped -----------------------

def test_a_mirror_fact_counts_with_the_roles_swapped(store):
    # "Cid Host_a_visit Xland" is Xland visiting Cid: an answer to "whom did Xland visit", not "who visited Xland"
    assert kept(store, "Which country did {E1} visit?", ["Xland"], ["Cid"]) == ["Cid"]
    assert kept(store, "Who visited {E1}?", ["Xland"], ["Cid", "Ann", "Bob"]) == ["Ann"]


def test_the_word_of_one_mirror_picks_it(store):
    # "host" names Host_a_visit: the one who hosted Xland is the one Xland visited
    assert kept(store, "Who hosted {E1}?", ["Xland"], ["Ann", "Bob", "Cid"]) == ["Bob", "Cid"]


def test_receiving_turns_the_roles_around(store):
    # "received a visit from Xland": Xland made the visit
    assert kept(store, "Who received a visit from {E1}?", ["Xland"], ["Ann", "Bob"]) == ["Bob"]
    assert kept(store, "When did {E1} receive a visit from {E2}?", ["Xland", "Ann"], ["2010-04-10"], "time") == ["2010-04-10"]


def test_a_symmetric_relation_takes_either_role(store):
    assert kept(store, "Who consulted {E1}?", ["Xland"], ["Fay", "Gus"]) == ["Fay", "Gus"]
    assert kept(store, "Which country did {E1} consult?", ["Xland"], ["Fay", "Gus"]) == ["Fay", "Gus"]


def test_an_entity_a_cue_points_at_does_not_anchor_the_answer(store):
    # Eve is linked only to the reference (Xland criticised Eve), not to the asked event's Dan
    assert kept(store, "Who criticised {E1} before {E2}?", ["Yland", "Xland"], ["Dan", "Critic3"]) == ["Critic3"]


# -- the clause-role reader ----------------------------------------------------------------------

@pytest.mark.parametrize(
    ("masked", "roles"),
    [
        ("Who visited {E1} on {T1}?", {1: OBJECT}),
        ("Which country did the {E1} visit in {T1}?", {1: SUBJECT}),
        ("When did {E1} first visit {E2}?", {1: SUBJECT, 2: OBJECT}),
        ("Who wanted to negotiate with {E1}?", {1: OBJECT}),
        ("Who visited {E1} last, before {E2}?", {1: OBJECT, 2: REFERENCE}),
        ("After {E2}, which country did {E1} negotiate with?", {2: REFERENCE, 1: SUBJECT}),
        ("Who did {E1} want to meet in the same month of the {E2}?", {1: SUBJECT, 2: REFERENCE}),
        ("When was the last time {E1} visited {E2}?", {1: SUBJECT, 2: OBJECT}),
        ("Could you tell me the month when {E1} last expressed an intention to meet with {E2}?", {1: SUBJECT, 2: OBJECT}),
        ("{E1} visited whom?", {1: SUBJECT}),
        ("Which country hosted {E1}'s visit?", {1: None}),  # a possessor
        ("Who was praised by the {E1}?", {1: None}),  # a passive's agent
        ("{E1} was rejected by the {E2}?", {1: None, 2: None}),
        ("Who made {E1} suffer from violence?", {1: None}),  # a causative: the next word is a verb
        ("In which month was the last {E1} to visit {E2}?", {1: None, 2: OBJECT}),
        # "did" left out: a time noun heads the clause ("what year X last visited Y"), unless it is "the same year"
        ("what year {E1} last visited {E2}", {1: SUBJECT, 2: OBJECT}),
        ("who visited {E1} the same year {E2} did", {1: OBJECT, 2: None}),
        ("How many times did {E1} get visited in {T1}?", {1: OBJECT}),  # a get-passive's subject is the one visited
        ("When did {E1} last get threatened?", {1: OBJECT}),  # an adverb before "get"
        ("{E1} got criticised by someone in {T1}: who was it?", {1: None}),  # a get-passive as "was criticised" is
        ("{E1} got together with {E2} in {T1}", {1: SUBJECT, 2: OBJECT}),  # "got" with no participle: no passive
        # a relative clause with "that" left out, an adverb of manner before its verb: the name is its subject
        ("Name everyone {E1} publicly criticized in {T1}.", {1: SUBJECT}),
        ("Which countries {E1} openly praised in {T1}?", {1: SUBJECT}),
    ],
)
def test_clause_roles(masked, roles):
    assert clause_roles(masked) == roles


def test_receiving_verbs():
    assert receives_event("Who received a visit from {E1}?") and receives_event("Who suffered from {E1}'s attacks?")
    assert not receives_event("Who visited {E1}?")


@pytest.mark.parametrize(
    ("masked", "roles", "possessed"),
    [
        ("In {T1}, {E1} was visited by whom?", {1: OBJECT}, []),  # the one it was done to
        ("Which country was {E1} criticised by {E2}?", {1: OBJECT, 2: SUBJECT}, []),
        ("Was {E1} visited by {E2} in {T1}?", {1: OBJECT, 2: SUBJECT}, []),  # inverted in a question
        ("How many times was {E1} visited in {T1}?", {1: OBJECT}, []),  # inverted, with no agent
        ("Had {E1} visited {E2} before {T1}?", {1: SUBJECT, 2: OBJECT}, []),  # "had" with no "been": active
        ("How many times {E1} accused {E2}?", {1: SUBJECT, 2: OBJECT}, []),  # an active verb with no auxiliary
        # a ranking's adverb around the participle ("visited most frequently by")
        ("In {T1}, which country was visited most frequently by {E1}?", {1: SUBJECT}, []),
        ("Which country was most often visited by {E1}?", {1: SUBJECT}, []),
        ("When was {E1}'s second visit?", {}, [(1, "visit")]),  # an act of E1's, if the KG names it
        ("What was the date of {E1}'s fourth visit to {E2}?", {}, [(1, "visit")]),
        ("{E1}'s third act of praise in {T1} - who was it for?", {}, [(1, "praise")]),  # "an act of": the act is its noun
        ("Who were {E1}'s visitors in {T1}?", {}, []),  # an agent noun: the others did it
        # a report's passive before a gerund: its subject does the gerund's act, which names no passive
        ("On how many days is {E1} recorded expelling {E2}?", {}, []),
        ("{E1} was seen meeting {E2} in {T1}?", {}, []),
        ("How many times was {E1} visited during {T1}?", {1: OBJECT}, []),  # "during" is a preposition
    ],
)
def test_the_voice_says_who_did_it_for_a_lookup(masked: str, roles: dict, possessed: list) -> None:
    assert voice_roles(masked)[:2] == (roles, possessed)


@pytest.mark.parametrize(
    ("masked", "acts_by"),
    [
        ("Were there any visits by {E1} to {E2} in {T1}?", [("visits", 1, 2)]),  # the doer after "by"
        ("the visits {E1} paid to {E2} in {T1}", [("visits", 1, 2)]),  # the subject of a light verb in a relative clause
        ("How many trips that {E1} has made to {E2}?", [("trips", 1, 2)]),
        ("Was {E2} visited by {E1}?", []),  # a participle is the passive's, not a noun of an act
    ],
)
def test_a_noun_of_an_act_takes_its_doer_after_by(masked: str, acts_by: list) -> None:
    assert voice_roles(masked).acts_by == acts_by


@pytest.mark.parametrize("masked", ["What was the date of the first {E1} visit to {E2}?", "Which day saw a {E1} visit to {E2}?", "On which day was the last {E1} visit to {E2}?"])
def test_a_name_before_the_noun_of_an_act_is_its_doer(store, masked: str) -> None:
    # "a Xland visit to Bob": Xland visited Bob on 12 April 2010; no fact has Bob visiting Xland, whatever "for" or "to" says
    from agents.faithfulness import AnswerCheck
    from agents.shapes import act_noun_roles

    def check(entities: list[str]) -> AnswerCheck:
        return AnswerCheck(store, analysis(masked, entities, "time"), asked, acts=act_noun_roles(store, masked))

    assert check(["Xland", "Bob"]).survives("2010-04-12")
    assert not check(["Bob", "Xland"]).survives("2010-04-12")
