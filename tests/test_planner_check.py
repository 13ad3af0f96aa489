"""The planner with the answer check (issue 12), on a small KG ingested here: a program that loosens
the question's time gives way to one that keeps it; when none is accepted the first binding is the
plan (the audit then abstains); a relation the wording names is bound even when the ranking puts
it far below its best."""

from __future__ import annotations

from dataclasses import replace

import pytest
from bench_support import build_store

from actions.programs import Program
from actions.templates import GetHeadEntity
from agents.analysis.query import Query
from agents.analysis.types import EntityMention, QuestionAnalysis, TimeMention
from agents.faithfulness import AnswerCheck
from agents.methodology import Guide
from agents.planner import bind_program, by_wording, make_plan, named_relations, wording_holds
from agents.roles import binding_scorer
from agents.shapes import unsaid
from ari.base.config import PlannerConfig
from tkg_store.store import TKGStore
from tkg_store.temporal import parse_time

FACTS = [
    ("Ann", "Make_a_visit", "Xland", "2010-03-21"),
    ("Bob", "Make_a_visit", "Xland", "2010-04-10"),
    ("Cid", "Make_a_visit", "Xland", "2010-04-20"),
    ("Dee", "Make_a_visit", "Xland", "2010-05-03"),
    ("Eve", "Criticize", "Xland", "2010-04-12"),
]
LOOSE = Guide(Program.parse(["getHeadEntity(E1, R)", "getAfter(#1, T)", "answer(#2)"]), 9, 0.9)  # "in April" read as "after April"
EXACT = Guide(Program.parse(["getHeadEntity(E1, R, T)", "answer(#1)"]), 5, 0.8)


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    db = build_store(tmp_path_factory.mktemp("plan_check") / "kg.duckdb", FACTS)
    with TKGStore.open(db) as opened:
        yield opened


def visited(month: str, relations: list[tuple[str, float]]) -> QuestionAnalysis:
    return QuestionAnalysis(
        question=f"Who visited Xland in {month}?",
        masked="Who visited {E1} in {T1}?",
        entities=[EntityMention("Xland", (12, 17), [("Xland", 1.0)])],
        times=[TimeMention(month, (21, 21 + len(month)), parse_time(month))],
        relations=relations,
    )


def check(store: TKGStore, analysis: QuestionAnalysis):  # noqa: ANN201
    """The audit's test, as the graph hands it to the planner."""
    answer_check = AnswerCheck(store, analysis, lambda masked, family: "Make_a_visit" in family)
    return lambda results, actions: any(answer_check.survives(store.display(i.entity)) for i in results[-1] if i.entity)


def answers(plan) -> list[str]:  # noqa: ANN001
    return sorted({i.entity for i in plan.results[-1] if i.entity})


def test_a_program_that_loosened_the_time_gives_way_to_one_that_keeps_it(store):
    analysis = visited("2010-04", [("Make_a_visit", 0.9)])
    loose, _ = make_plan(store, analysis, [LOOSE, EXACT], PlannerConfig())
    assert loose.program == LOOSE.program and answers(loose) == ["Dee"]  # May: after April, not in it
    kept, why = make_plan(store, analysis, [LOOSE, EXACT], PlannerConfig(), check(store, analysis))
    assert kept.program == EXACT.program and answers(kept) == ["Bob", "Cid"]
    assert why.startswith("methodology program 2")


def test_when_no_binding_is_accepted_the_first_that_bound_is_the_plan(store):
    analysis = visited("2010-04", [("Make_a_visit", 0.9)])
    plan, why = make_plan(store, analysis, [LOOSE, EXACT], PlannerConfig(), lambda results, actions: False)
    assert plan.program == LOOSE.program and why.startswith("methodology program 1")


def test_the_planner_stops_looking_after_the_configured_rejections(store):
    analysis = visited("2010-04", [("Make_a_visit", 0.9)])
    tried: list[object] = []

    def reject(results, actions) -> bool:  # noqa: ANN001
        tried.append(actions)
        return False

    make_plan(store, analysis, [LOOSE, EXACT], replace(PlannerConfig(), checked_bindings=1), reject)
    assert len(tried) == 1


def test_a_relation_the_wording_names_is_bound_below_the_floor(store):
    # the ranking puts Criticize first; "visited" names Make_a_visit, whose score is far below the floor
    analysis = visited("2010-03", [("Criticize", 0.8), ("Make_a_visit", 0.05)])
    assert named_relations(store, analysis) == {"Make_a_visit"}
    action = GetHeadEntity("Xland", "Make_a_visit")  # who visited Xland
    assert binding_scorer(analysis, 0.5)(action) is None
    assert binding_scorer(analysis, 0.5, named_relations(store, analysis))(action) is not None
    assert make_plan(store, analysis, [EXACT], PlannerConfig())[0] is None  # without the check: the floor holds
    plan, why = make_plan(store, analysis, [EXACT], PlannerConfig(), check(store, analysis))
    assert plan is not None and answers(plan) == ["Ann"] and plan.bindings["R"] == "Make_a_visit"
    assert why.endswith("binding a relation the wording names")


def test_named_relations_are_bound_only_when_the_floor_gives_no_accepted_answer(store):
    # April: Criticize (best-ranked) binds but Eve fails the check (the question asks for a visit);
    # a loose program within the floor is not tried before the named relation either
    analysis = visited("2010-04", [("Criticize", 0.8), ("Make_a_visit", 0.05)])
    plan, _ = make_plan(store, analysis, [EXACT], PlannerConfig(), check(store, analysis))
    assert answers(plan) == ["Bob", "Cid"]
    accepted_first = visited("2010-04", [("Make_a_visit", 0.8), ("Criticize", 0.05)])
    plan, why = make_plan(store, accepted_first, [EXACT], PlannerConfig(), check(store, accepted_first))
    assert answers(plan) == ["Bob", "Cid"] and not why.endswith("names")


def test_a_relation_the_wording_does_not_name_stays_below_the_floor(store):
    analysis = visited("2010-04", [("Make_a_visit", 0.8), ("Criticize", 0.05)])
    assert named_relations(store, analysis) == {"Make_a_visit"}
    action = GetHeadEntity("Xland", "Criticize")
    assert binding_scorer(analysis, 0.5, named_relations(store, analysis))(action) is None


def test_the_once_more_binding_binds_the_named_relations_alone(store):
    # April: Criticize ranks first and binds a non-empty answer (Eve); bound once more with the relations the
    # wording names, only those may bind, else the best-ranked one would crowd the named one out again
    analysis = visited("2010-04", [("Criticize", 0.8), ("Make_a_visit", 0.05)])
    first = bind_program(store, analysis, EXACT.program, PlannerConfig(), named=frozenset({"Criticize", "Make_a_visit"}))
    assert first is not None and first.bindings["R"] == "Criticize" and answers(first) == ["Eve"]
    alone = bind_program(store, analysis, EXACT.program, PlannerConfig(), named=frozenset({"Make_a_visit"}))
    assert alone is not None and alone.bindings["R"] == "Make_a_visit" and answers(alone) == ["Bob", "Cid"]
    assert bind_program(store, analysis, EXACT.program, PlannerConfig(), named=frozenset({"Host_a_visit"})) is None


SANCTIONS = [
    ("Gov", "Impose_administrative_sanctions", "Aland", "2010-04-01"),
    ("Gov", "Impose_embargo,_boycott,_or_sanctions", "Bland", "2010-04-02"),
    ("Gov", "Criticize", "Cland", "2010-04-03"),
    ("Org", "Impose_administrative_sanctions", "Aland", "2010-04-04"),
    ("Org", "Impose_embargo,_boycott,_or_sanctions", "Aland", "2010-04-05"),
    ("Gov", "Reduce_or_break_diplomatic_relations", "Aland", "2010-04-06"),
    ("Gov", "Threaten_to_reduce_or_break_relations", "Bland", "2010-04-07"),
]
TARGETS = Guide(Program.parse(["getTailEntity(E1, R, T)", "answer(#1)"]), 5, 0.8)


def sanctioned(store: TKGStore, who: str, act: str = "impose sanctions on", query: Query | None = None) -> tuple:  # noqa: ANN001
    """(plan, why) for "Whom did {who} {act} in April 2010?", the ranking putting Criticize first (`query`: what the
    question computes over the facts, a lookup's answers by default)."""
    named = [r for r in store.relation_names() if r != "Criticize"]
    analysis = QuestionAnalysis(
        question=f"Whom did {who} {act} in April 2010?",
        masked=f"Whom did {{E1}} {act} in {{T1}}?",
        entities=[EntityMention(who, (9, 9 + len(who)), [(who, 1.0)])],
        times=[TimeMention("April 2010", (len(act) + 17, len(act) + 27), parse_time("2010-04"))],
        relations=[("Criticize", 0.8), *((r, 0.01) for r in sorted(named))],
        query=query or Query(),
    )
    return make_plan(store, analysis, [TARGETS], PlannerConfig(), lambda results, actions: "Criticize" not in actions[0].render())


def test_two_relations_the_wording_names_alike_that_answer_differently_are_not_guessed_between(tmp_path) -> None:  # noqa: ANN001
    with TKGStore.open(build_store(tmp_path / "kg.duckdb", SANCTIONS)) as store:
        # Gov's administrative sanctions hit Aland, its embargo Bland: "impose sanctions" names both alike
        plan, why = sanctioned(store, "Gov")
        assert plan.rivals == ("Impose_administrative_sanctions", "Impose_embargo,_boycott,_or_sanctions")
        assert "names Impose administrative sanctions and Impose embargo, boycott, or sanctions alike" in why
        # Org's both hit Aland: either reading gives one answer
        plan, why = sanctioned(store, "Org")
        assert plan.rivals is None and answers(plan) == ["Aland"] and why.endswith("binding a relation the wording names")
        # a threat to reduce relations is another act than reducing them, which the words say
        plan, why = sanctioned(store, "Gov", "reduce or break relations with")
        assert plan.rivals is None and answers(plan) == ["Aland"]


def test_a_computed_answer_binds_the_relation_that_reads_the_wording_best(tmp_path) -> None:  # noqa: ANN001
    with TKGStore.open(build_store(tmp_path / "kg.duckdb", SANCTIONS)) as store:
        # "impose sanctions" says Impose embargo, boycott, or sanctions whole (one of its list), and leaves the
        # administrative sanctions' qualifier unsaid: who Gov sanctioned most is Bland, its embargo's target
        most = Query(asks="entity", extreme="most")
        plan, why = sanctioned(store, "Gov", query=most)
        assert plan.rivals is None and answers(plan) == ["Bland"] and why.endswith("binding a relation the wording names")
        # in any inflection: "sanctioned" and "imposing" are the name's "sanctions" and "impose"
        plan, _ = sanctioned(store, "Gov", "have imposed sanctions on", most)
        assert plan.rivals is None and answers(plan) == ["Bland"]
        # "administrative sanctions" says that one's every word, and holds more of the wording than the embargo
        plan, _ = sanctioned(store, "Gov", "impose administrative sanctions on", most)
        assert plan.rivals is None and answers(plan) == ["Aland"]


def test_two_relations_that_read_the_wording_alike_are_not_guessed_between_in_a_computed_answer(tmp_path) -> None:  # noqa: ANN001
    threat = ("Gov", "Threaten_with_sanctions,_boycott,_embargo", "Cland", "2010-04-08")
    with TKGStore.open(build_store(tmp_path / "kg.duckdb", [*SANCTIONS, threat])) as store:
        # "hit with sanctions" says neither act, and both lists whole: the threat and the embargo read it alike
        plan, why = sanctioned(store, "Gov", "hit with sanctions", Query(asks="entity", extreme="most"))
        assert plan.rivals is not None and "alike, and they answer differently" in why


@pytest.mark.parametrize(
    ("masked", "held", "acted"),
    [
        # an inflection of the name's words is its word: the passive, the progressive, the perfect, the third person
        ("How many times was {E2} sanctioned by {E1} in {T1}?", 1, False),
        ("Was {E1} imposing sanctions on {E2}?", 2, True),
        ("How often has {E1} imposed sanctions on {E2}?", 2, True),
        ("Who does {E1} impose sanctions on?", 2, True),
        # words that only begin alike are other words
        ("Did {E1} commend {E2}?", 0, False),
    ],
)
def test_the_wording_holds_a_name_s_words_in_any_inflection(masked: str, held: int, acted: bool) -> None:
    assert wording_holds(masked, "Impose administrative sanctions") == (held, acted)
    assert wording_holds(masked, "Comment on administrative sanctions")[0] == held - acted


def test_the_wording_holds_the_words_of_two_relations_alike_but_says_the_act_of_one():
    """What `_rival_reading` weighs: as many of the wording's words in both texts, the act said in one only."""
    masked = "Who did {E1} reduce or break relations with after {T1}?"
    reduce, threaten = (wording_holds(masked, text) for text in ("Reduce or break diplomatic relations", "Threaten to reduce or break relations"))
    assert reduce[0] == threaten[0] >= 3
    assert reduce[1] and not threaten[1]
    assert wording_holds(masked, "Make a visit") == (0, False)


@pytest.mark.parametrize(
    ("text", "masked", "left"),
    [
        # one alternative of a name's list says the list: nothing of "embargo, boycott, or sanctions" is missing
        ("Impose embargo, boycott, or sanctions", "How many times did {E1} impose sanctions on {E2}?", 0),
        ("Impose administrative sanctions", "How many times did {E1} impose sanctions on {E2}?", 1),
        ("Impose embargo, boycott, or sanctions", "Did {E1} impose a boycott on {E2}?", 0),
        ("Express intent to provide humanitarian aid", "Did {E1} provide humanitarian aid to {E2}?", 2),
        # an inflected word says the name's word: "sanctioned" says the list, "providing" the act
        ("Impose embargo, boycott, or sanctions", "How often was {E2} sanctioned by {E1}?", 1),
        ("Impose administrative sanctions", "How often was {E2} sanctioned by {E1}?", 2),
        ("Express intent to provide humanitarian aid", "Was {E1} providing humanitarian aid to {E2}?", 2),
    ],
)
def test_the_words_of_a_relation_a_wording_leaves_unsaid(text: str, masked: str, left: int) -> None:
    assert unsaid(text, masked) == left


def test_two_acts_joined_by_or_are_not_a_list_of_alternatives() -> None:
    # an intent to meet or negotiate leaves "express", "intent" and "meet" unsaid by "negotiate with"
    assert unsaid("Express intent to meet or negotiate", "Who did {E1} negotiate with after {T1}?") == 3


PEACEKEEPING = [
    ("Xland", "Receive_deployment_of_peacekeepers", "Aland", "2010-04-01"),
    ("Xland", "Express_intent_to_provide_military_protection_or_peacekeeping", "Dland", "2010-04-02"),
    ("Xland", "Criticize", "Cland", "2010-04-03"),
]


def test_the_relation_that_reads_the_most_of_the_wording_is_bound_first(tmp_path) -> None:  # noqa: ANN001
    # "receive peacekeepers" says the act and the noun of Receive_deployment_of_peacekeepers; an intent to provide
    # peacekeeping shares a word only, though the alphabet puts it first
    with TKGStore.open(build_store(tmp_path / "kg.duckdb", PEACEKEEPING)) as store:
        plan, why = sanctioned(store, "Xland", "receive peacekeepers from", Query(asks="entity", extreme="most"))
        assert plan.rivals is None and answers(plan) == ["Aland"] and why.endswith("binding a relation the wording names")
        # a lookup's answers are checked one by one after: there the ranking's order stands
        plan, _ = sanctioned(store, "Xland", "receive peacekeepers from")
        assert answers(plan) == ["Dland"]
        analysis = QuestionAnalysis(question="", masked="Whom did {E1} receive peacekeepers from?", entities=[], times=[], relations=[])
        tiers = by_wording(store, analysis, frozenset(store.relation_names()) - {"Criticize"})
        assert tiers[0] == {"Receive_deployment_of_peacekeepers"}


def test_joining_words_of_a_name_hold_nothing_of_the_wording(tmp_path) -> None:  # noqa: ANN001
    # "with" in "hit with sanctions" is no word of Threaten_with_sanctions,_boycott,_embargo's act: the embargo, which
    # leaves less unsaid, is read first
    with TKGStore.open(build_store(tmp_path / "kg.duckdb", SANCTIONS + [("Gov", "Threaten_with_sanctions,_boycott,_embargo", "Cland", "2010-04-08")])) as store:
        analysis = QuestionAnalysis(question="", masked="Whom did {E1} hit with sanctions?", entities=[], times=[], relations=[])
        named = frozenset({"Impose_embargo,_boycott,_or_sanctions", "Threaten_with_sanctions,_boycott,_embargo", "Impose_administrative_sanctions"})
        assert by_wording(store, analysis, named)[0] == {"Impose_embargo,_boycott,_or_sanctions", "Threaten_with_sanctions,_boycott,_embargo"}


NEGOTIATIONS = [
    ("Gov", "Engage_in_negotiation", "Aland", "2010-04-01"),
    ("Gov", "Engage_in_negotiation", "Aland", "2010-04-09"),
    ("Gov", "Halt_negotiations", "Bland", "2010-04-02"),
    ("Gov", "Halt_negotiations", "Bland", "2010-04-03"),
    ("Gov", "Halt_negotiations", "Bland", "2010-04-04"),
    ("Gov", "Demand_meeting,_negotiation", "Cland", "2010-04-05"),
    ("Gov", "Demand_meeting,_negotiation", "Cland", "2010-04-06"),
    ("Gov", "Demand_meeting,_negotiation", "Cland", "2010-04-07"),
    ("Gov", "Criticize", "Dland", "2010-04-08"),
]


@pytest.mark.parametrize("act", ["negotiate with", "negotiated with", "hold negotiations with", "engage in negotiations with"])
def test_a_light_verb_left_unsaid_leaves_the_act_said_and_a_halt_or_a_demand_is_another_act(tmp_path, act: str) -> None:  # noqa: ANN001
    with TKGStore.open(build_store(tmp_path / "kg.duckdb", NEGOTIATIONS)) as store:
        # "whom did Gov negotiate with most": those it negotiated with (Aland), not those it halted talks with or asked to
        # meet, though they are more often; "negotiate" leaves nothing of Engage in negotiation unsaid but its light verb
        plan, why = sanctioned(store, "Gov", act, Query(asks="entity", extreme="most"))
        assert plan.rivals is None and answers(plan) == ["Aland"], why


@pytest.mark.parametrize(("act", "named"), [("halt negotiations with", "Halt negotiations"), ("demand a meeting with", "Demand meeting")])
def test_a_halt_or_a_demand_said_is_read_as_said(tmp_path, act: str, named: str) -> None:  # noqa: ANN001
    with TKGStore.open(build_store(tmp_path / "kg.duckdb", NEGOTIATIONS)) as store:
        plan, why = sanctioned(store, "Gov", act, Query(asks="entity", extreme="most"))
        assert plan.rivals is None and answers(plan) == (["Bland"] if named.startswith("Halt") else ["Cland"]), why
