"""The counting and listing templates (issue 23) on a small real DuckDB store: what they return, their
abstract forms, their enumeration, and a decider's reply naming them read back."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from test_actions_kg import FACTS, UKRAINE_MILITARY, build_store

from actions.context import ActionContext
from actions.enumerate import enumerate_candidates, list_operations
from actions.items import Item
from actions.parse import parse_action
from actions.programs import AbstractStep, Program
from actions.semantics import answer_texts
from actions.templates import (
    TEMPLATES,
    Action,
    Answer,
    Count,
    Exclude,
    Exists,
    GetHeadEntity,
    GetLeast,
    GetMost,
    GetNth,
    GetRelation,
    GetTime,
    OfType,
)
from tkg_store.learned import MIRROR_MIN_FACTS, countries, mirror_relations
from tkg_store.store import TKGStore
from tkg_store.temporal import Granularity, parse_time

IRAN_SECTORS = ["Military_(Iran)", "Police_(Iran)", "Government_(Iran)", "Citizen_(Iran)", "Foreign_Affairs_(Iran)"]
# Iran is named by five sectors (a country); Kenya by one (no country here); a sector visits China.
SECTOR_FACTS = [(s, "Make_statement", "Iran", "2009-01-01", "2009-01-01", "day") for s in IRAN_SECTORS] + [
    ("Citizen_(Kenya)", "Make_statement", "Kenya", "2009-01-01", "2009-01-01", "day"),
    ("Military_(Iran)", "Make_a_visit", "China", "2008-05-31", "2008-05-31", "day"),
]
# Forty visits seen from both sides make Host_a_visit the mirror of Make_a_visit (each covers the
# other); then Japan's 2010-03-03 visit to Egypt is recorded only as Egypt hosting it.
PAIRS = 2 * MIRROR_MIN_FACTS
MIRRORED = [
    fact
    for k in range(PAIRS)
    for day in [(date(2010, 1, 1) + timedelta(days=k)).isoformat()]
    for fact in [("Japan", "Make_a_visit", "Egypt", day, day, "day"), ("Egypt", "Host_a_visit", "Japan", day, day, "day")]
] + [("Egypt", "Host_a_visit", "Japan", "2010-03-03", "2010-03-03", "day")]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory):
    path = build_store(tmp_path_factory.mktemp("kg") / "kg.duckdb", FACTS + SECTOR_FACTS + MIRRORED)
    with TKGStore.open(path) as opened:
        yield opened


def after_step(store: TKGStore, action: Action, **context: object) -> ActionContext:
    first = ActionContext(**context)  # type: ignore[arg-type]
    return first.with_result(action.execute(store, first), action)


def visitors(store: TKGStore) -> ActionContext:
    """Step 1: who visited China (Kenya twice, Japan, Iran, Military_(Ukraine) twice, Military_(Iran))."""
    return after_step(store, GetHeadEntity("China", "Make_a_visit"), granularity=Granularity.DAY)


def entities(items: list[Item]) -> list[str | None]:
    return list(dict.fromkeys(i.entity for i in items))


def value(store: TKGStore, action: Action, context: ActionContext) -> str | None:
    (item,) = action.execute(store, context)
    return item.entity


def test_counts_are_distinct_days_and_entities(store: TKGStore) -> None:
    context = visitors(store)
    # days: 04-30, 05-01, 05-31 (three visitors), 06-01, 07-10
    assert value(store, Count(1, "days"), context) == "5"
    assert value(store, Count(1, "entities"), context) == "5"
    counted = context.with_result(Count(1, "days").execute(store, context), Count(1, "days"))
    assert answer_texts(Answer(2).execute(store, counted), "entity") == ["5"]
    assert value(store, Count(2, "days"), ActionContext().with_result([]).with_result([])) == "0"


def test_count_refuses_an_unknown_unit() -> None:
    with pytest.raises(ValueError, match="count unit"):
        Count(1, "weeks")


def test_most_and_least_often_keep_ties(store: TKGStore) -> None:
    context = visitors(store)
    assert set(entities(GetMost(1).execute(store, context))) == {"Kenya", UKRAINE_MILITARY}  # two days each
    assert set(entities(GetLeast(1).execute(store, context))) == {"Japan", "Iran", "Military_(Iran)"}


def test_nth_day_from_the_start_and_from_the_end(store: TKGStore) -> None:
    context = visitors(store)
    assert entities(GetNth(1, 3).execute(store, context)) == ["Iran", "Military_(Iran)", UKRAINE_MILITARY]  # 05-31
    assert entities(GetNth(1, 2, from_end=True).execute(store, context)) == ["Kenya"]  # 06-01, second to last
    assert GetNth(1, 6).execute(store, context) == []  # only five days


def test_exists_says_yes_or_no(store: TKGStore) -> None:
    assert value(store, Exists(1), visitors(store)) == "Yes"
    empty = after_step(store, GetTime("Eritrea", "Accuse", "Kenya"))
    assert value(store, Exists(1), empty) == "No"


def test_exclude_and_countries(store: TKGStore) -> None:
    context = visitors(store)
    assert "Kenya" not in entities(Exclude(1, "Kenya").execute(store, context))
    assert len(entities(Exclude(1, "Kenya").execute(store, context))) == 4
    assert countries(store) == {"Iran"}  # five sectors; Kenya has one, and no sector is a country
    assert entities(OfType(1, "country").execute(store, context)) == ["Iran"]  # not Military_(Iran)
    with pytest.raises(ValueError, match="entity kind"):
        OfType(1, "city")


def test_get_relation_reads_both_directions(store: TKGStore) -> None:
    items = GetRelation("Ethiopia", "Eritrea").execute(store, ActionContext())
    assert [(i.entity, i.start) for i in items] == [
        ("Accuse", date(2005, 12, 1)), ("Accuse", date(2005, 12, 13)), ("Accuse", date(2005, 12, 20)),
    ]  # Eritrea accused Ethiopia on 12-13
    dated = GetRelation("Eritrea", "Ethiopia", parse_time("2005-12-13")).execute(store, ActionContext())
    assert [(i.entity, i.start) for i in dated] == [("Accuse", date(2005, 12, 13))]
    assert GetRelation("Ethiopia", "Japan").execute(store, ActionContext()) == []


def test_a_dated_get_time_counts_an_event_recorded_from_either_side(store: TKGStore) -> None:
    assert mirror_relations(store)["Make_a_visit"] == {"Host_a_visit"}
    undated = GetTime("Japan", "Make_a_visit", "Egypt").execute(store, ActionContext())
    assert len(undated) == PAIRS  # the six shapes' lookup is as it was
    in_2010 = after_step(store, GetTime("Japan", "Make_a_visit", "Egypt", parse_time("2010")))
    assert len(in_2010.result(1)) == PAIRS + 1  # 2010-03-03, recorded as hosting only
    assert value(store, Count(1, "days"), in_2010) == str(PAIRS + 1)
    in_march = after_step(store, GetTime("Japan", "Make_a_visit", "Egypt", parse_time("2010-03")))
    assert value(store, Exists(1), in_march) == "Yes"
    # China's visitors have no mirror facts: dated and undated agree inside the window
    may = GetTime("Kenya", "Make_a_visit", "China", parse_time("2008-05")).execute(store, ActionContext())
    assert may == []


@pytest.mark.parametrize(
    ("action", "abstract", "operation"),
    [
        (GetNth(1, 2), "getNth(#1, N)", "nth"),
        (GetNth(2, 2, from_end=True), "getNthLast(#2, N)", "nth"),
        (GetMost(1), "getMost(#1)", "most"),
        (GetLeast(1), "getLeast(#1)", "least"),
        (Count(1, "days"), "count(#1, days)", "count"),
        (Count(1, "entities"), "count(#1, entities)", "count"),
        (Exists(1), "exists(#1)", "exists"),
        (OfType(1, "country"), "ofType(#1, country)", "type"),
        (Exclude(1, "Kenya"), "exclude(#1, E2)", "exclude"),
        (GetRelation("China", "Kenya", parse_time("2008")), "getRelation(E1, E2, T)", None),
        (GetRelation("China", "Kenya"), "getRelation(E1, E2)", None),
        (GetTime("China", "Make_a_visit", "Kenya", parse_time("2008")), "getTime(E1, R, E2, T)", None),
        (GetTime("China", "Make_a_visit", "Kenya", 1), "getTime(E1, R, E2, #1)", "same"),
    ],
)
def test_abstract_forms_parse_to_their_operation(action: Action, abstract: str, operation: str | None) -> None:
    roles = {"China": "E1", "Kenya": "E2"}
    assert action.abstract(roles) == abstract
    step = AbstractStep.parse(abstract)
    assert step.render() == abstract and step.operation == operation
    assert step.is_lookup == isinstance(action, (GetRelation, GetTime))
    assert TEMPLATES[action.template] is type(action)


def test_programs_of_the_new_shapes() -> None:
    program = Program.parse("getTime(E1, R, E2, T) -> count(#1, days) -> answer(#2)")
    assert program.uses_time and program.roles == {"E1", "E2"} and program.operations == {"count"}
    assert not program.has_dead_steps and program.dated() is None
    listing = Program.parse("getHeadEntity(E2, R) -> ofType(#1, country) -> exclude(#2, E1) -> answer(#3)")
    assert listing.operations == {"type", "exclude"} and listing.roles == {"E1", "E2"}
    # the time of a dated getTime is its fourth argument: a join there is a same-period join
    assert Program.parse("getTime(E1, R, E2) -> getTime(E1, R, E2, #1) -> answer(#2)").consistent_joins


def test_the_undated_get_time_keeps_its_old_forms(store: TKGStore) -> None:
    action = GetTime("Ethiopia", "Accuse", "Eritrea")
    assert action.render() == "getTime(Ethiopia, Accuse, Eritrea)"
    assert action.abstract({"Ethiopia": "E1", "Eritrea": "E2"}) == "getTime(E1, R, E2)"
    assert action.describe(store) == "when did Ethiopia Accuse Eritrea"


NEW_ACTIONS: list[Action] = [
    GetNth(1, 2), GetNth(1, 3), GetNth(1, 2, from_end=True), GetMost(1), GetLeast(1), Count(1, "days"),
    Count(1, "entities"), Exists(1), OfType(1, "country"), Exclude(1, "Kenya"), Exclude(1, UKRAINE_MILITARY),
    GetRelation("China", "Kenya"), GetRelation("China", "Kenya", parse_time("2008-05")),
    GetTime("Japan", "Make_a_visit", "Egypt", parse_time("2010")), GetTime("Japan", "Make_a_visit", "Egypt"),
]


@pytest.mark.parametrize("action", NEW_ACTIONS, ids=lambda a: a.render())
def test_a_rendered_action_parses_back_to_itself(action: Action) -> None:
    assert parse_action(f"Thought: this one.\nAction: {action.render()}", NEW_ACTIONS) == action
    assert parse_action(f"Action: `{action.render()}`", list(reversed(NEW_ACTIONS))) == action


def test_new_list_operations_are_offered_over_an_earlier_result(store: TKGStore) -> None:
    context = visitors(store)
    pool = enumerate_candidates(store, context, ["China", "Kenya"])
    offered = {c.action for c in pool}
    expected = {
        GetNth(1, 1), GetNth(1, 2), GetNth(1, 3), GetNth(1, 1, True), GetNth(1, 2, True), GetNth(1, 3, True),
        GetMost(1), GetLeast(1), Count(1, "days"), Count(1, "entities"), Exists(1), OfType(1, "country"),
        Exclude(1, "Kenya"),
    }
    assert expected <= offered
    # every current entity may be excluded, one that is no visitor too ("apart from China": all of them)
    assert pool.candidate_of(Exclude(1, "China")).size == len(context.result(1))  # type: ignore[union-attr]
    for action in expected:  # the offline decider with a plan finds its action without laying the pool out
        candidate = pool.candidate_of(action)
        assert candidate is not None and candidate.size == len(action.execute(store, context))
    # over a count, only its answer
    counted = context.with_result(Count(1, "days").execute(store, context), Count(1, "days"))
    assert {a for a in list_operations(counted, [], [2], ["Kenya"])} == {Answer(2)}


def test_lookups_between_the_question_entities_are_offered(store: TKGStore) -> None:
    context = ActionContext(times=[parse_time("2008-05")])
    pool = enumerate_candidates(store, context, ["China", "Kenya"], operations=False)  # as the planner asks
    offered = {c.action for c in pool}
    assert GetRelation("China", "Kenya") in offered
    assert GetRelation("China", "Kenya", parse_time("2008-05")) not in offered  # Kenya visited in April and June
    assert GetTime("Kenya", "Make_a_visit", "China", parse_time("2008-05")) not in offered
    roles = {"China": "E1", "Kenya": "E2"}
    assert [c.action for c in pool.matching(AbstractStep.parse("getRelation(E1, E2)"), roles)] == [GetRelation("China", "Kenya")]
    for candidate in pool:
        assert candidate.action.execute(store, context), candidate.action.render()


def test_dated_get_time_is_offered_from_either_side(store: TKGStore) -> None:
    context = ActionContext(times=[parse_time("2010-03")])
    offered = {c.action for c in enumerate_candidates(store, context, ["Japan", "Egypt"])}
    # only "Egypt hosted Japan" is recorded in March 2010; the visit is offered as well
    assert GetTime("Egypt", "Host_a_visit", "Japan", parse_time("2010-03")) in offered
    assert GetTime("Japan", "Make_a_visit", "Egypt", parse_time("2010-03")) in offered
    assert GetRelation("Japan", "Egypt", parse_time("2010-03")) in offered


def test_the_six_shapes_enumeration_is_unchanged(store: TKGStore) -> None:
    context = visitors(store)
    old = {c.action for c in enumerate_candidates(store, context, ["China", "Kenya"], extended=False)}
    new = {c.action for c in enumerate_candidates(store, context, ["China", "Kenya"])}
    assert old < new
    assert not any(isinstance(a, (GetRelation, Count, Exists, GetNth, OfType, Exclude)) for a in old)
    assert not any(isinstance(a, GetTime) and a.time is not None for a in old)
