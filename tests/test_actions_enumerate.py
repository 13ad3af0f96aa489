"""Candidate enumeration: everything that applies is offered, nothing offered is empty."""

from __future__ import annotations

from datetime import date

import pytest
from test_actions_kg import UKRAINE_MILITARY, build_store

from actions.context import ActionContext
from actions.enumerate import enumerate_candidates, list_operations
from actions.items import Item
from actions.templates import (
    Answer,
    Count,
    Exists,
    GetAfter,
    GetBefore,
    GetBetween,
    GetFirst,
    GetHeadEntity,
    GetLast,
    GetTailEntity,
    GetTime,
)
from tkg_store.store import TKGStore
from tkg_store.temporal import Granularity, parse_time


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory):
    path = build_store(tmp_path_factory.mktemp("kg") / "kg.duckdb")
    with TKGStore.open(path) as opened:
        yield opened


def assert_all_non_empty(store: TKGStore, context: ActionContext, candidates) -> None:
    for candidate in candidates:
        items = candidate.action.execute(store, context)
        assert items, f"{candidate.action.render()} is empty"
        assert candidate.size >= len(items) or isinstance(candidate.action, GetTime)


def test_first_step_lookups_from_one_entity(store: TKGStore) -> None:
    context = ActionContext(times=[parse_time("2005-11")])
    candidates = enumerate_candidates(store, context, ["Ethiopia"])
    actions = {c.action for c in candidates}
    assert GetTailEntity("Ethiopia", "Make_optimistic_comment") in actions
    assert GetTailEntity("Ethiopia", "Make_optimistic_comment", parse_time("2005-11")) in actions
    assert GetTailEntity("Ethiopia", "Accuse") in actions
    assert GetHeadEntity("Ethiopia", "Accuse") in actions
    # with one current entity, getTime goes to every neighbour
    assert GetTime("Ethiopia", "Make_optimistic_comment", "Sudan") in actions
    assert GetTime("Eritrea", "Accuse", "Ethiopia") in actions
    # empty candidates are never offered: Accuse has no fact in 2005-11
    assert GetTailEntity("Ethiopia", "Accuse", parse_time("2005-11")) not in actions
    assert not any(isinstance(a, (GetFirst, GetLast, Answer, GetBefore)) for a in actions)
    assert_all_non_empty(store, context, candidates)
    sizes = {c.action: c.size for c in candidates}
    assert sizes[GetTailEntity("Ethiopia", "Make_optimistic_comment")] == 3


def test_get_time_is_restricted_to_current_entities_when_there_are_two(store: TKGStore) -> None:
    candidates = enumerate_candidates(store, ActionContext(), ["China", UKRAINE_MILITARY])
    times = {c.action for c in candidates if isinstance(c.action, GetTime)}
    assert times == {GetTime(UKRAINE_MILITARY, "Make_a_visit", "China")}
    assert {c.size for c in candidates if isinstance(c.action, GetTime)} == {2}


def test_joins_list_operations_and_answers_after_a_time_result(store: TKGStore) -> None:
    context = ActionContext(granularity=Granularity.MONTH)
    first = GetTime(UKRAINE_MILITARY, "Make_a_visit", "China")
    context = context.with_result(first.execute(store, context), first)
    candidates = enumerate_candidates(store, context, ["China", UKRAINE_MILITARY])
    actions = {c.action for c in candidates}
    assert GetHeadEntity("China", "Make_a_visit", 1) in actions  # same-month join with step 1
    assert GetFirst(1) in actions and GetLast(1) in actions and Answer(1) in actions
    assert first not in actions  # an action already taken is not offered again
    assert_all_non_empty(store, context, candidates)


def test_a_pool_finds_an_offered_candidate_without_laying_itself_out(store: TKGStore) -> None:
    context = ActionContext(granularity=Granularity.MONTH)
    first = GetTime(UKRAINE_MILITARY, "Make_a_visit", "China")
    context = context.with_result(first.execute(store, context), first)
    pool = enumerate_candidates(store, context, ["China", UKRAINE_MILITARY])
    for wanted in (GetHeadEntity("China", "Make_a_visit", 1), Answer(1)):  # a lookup in a block; an extra
        found = pool.candidate_of(wanted)
        assert found is not None and found == next(c for c in pool if c.action == wanted)
    assert pool.candidate_of(first) is None  # taken at step 1: not offered again
    assert pool.candidate_of(GetTailEntity("China", "Accuse")) is None  # never applied


def test_before_after_with_question_times_and_earlier_results(store: TKGStore) -> None:
    context = ActionContext(times=[parse_time("2008-06"), parse_time("2008-05")])
    step1 = GetTime(UKRAINE_MILITARY, "Make_a_visit", "China")
    context = context.with_result(step1.execute(store, context), step1)
    step2 = GetHeadEntity("China", "Make_a_visit")
    context = context.with_result(step2.execute(store, context), step2)
    candidates = enumerate_candidates(store, context, ["China"])
    actions = {c.action for c in candidates}
    assert GetBefore(2, 1) in actions
    assert GetAfter(2, 1) in actions
    assert GetBefore(2, parse_time("2008-06")) in actions
    assert GetBetween(2, parse_time("2008-05"), parse_time("2008-06")) in actions  # ordered by time
    assert GetAfter(2, parse_time("2008-06")) in actions  # Military_(Ukraine) on 2008-07-10
    assert GetBefore(2, parse_time("2008-05")) in actions  # Kenya on 2008-04-30
    assert GetBefore(1, 2) not in actions  # nothing of step 1 starts before 2008-04-30
    assert Answer(2) in actions and Answer(1) in actions
    sizes = {c.action: c.size for c in candidates}
    assert sizes[GetBefore(2, 1)] == 2
    assert_all_non_empty(store, context, candidates)


def test_interval_facts_and_unknown_entities(store: TKGStore) -> None:
    context = ActionContext(times=[parse_time("2030")])
    candidates = enumerate_candidates(store, context, ["Q100", "Not_an_entity"])
    actions = {c.action for c in candidates}
    assert GetHeadEntity("Q100", "P39", parse_time("2030")) in actions  # the open-ended fact
    assert {c.size for c in candidates if c.action == GetHeadEntity("Q100", "P39", parse_time("2030"))} == {1}
    assert_all_non_empty(store, context, candidates)


def test_no_entities_and_no_results_give_no_candidates(store: TKGStore) -> None:
    assert enumerate_candidates(store, ActionContext(), []) == []
    assert enumerate_candidates(store, ActionContext(), ["Not_an_entity"]) == []
    empty = ActionContext().with_result([])
    assert enumerate_candidates(store, empty, []) == []  # an empty result offers no answer


def test_list_operations_on_a_result_without_times(store: TKGStore) -> None:
    context = ActionContext().with_result([Item("X", None, None, Granularity.YEAR)])
    assert {c.action for c in enumerate_candidates(store, context, [], extended=False)} == {Answer(1)}
    # an untimed result has no day to count, rank or pick: only entities are counted
    actions = {c.action for c in enumerate_candidates(store, context, [])}
    assert actions == {Answer(1), Count(1, "entities"), Exists(1)}


def test_list_operations_over_chosen_sources_are_not_executed(store: TKGStore) -> None:
    context = ActionContext(times=[parse_time("2009")])
    context = context.with_result(GetHeadEntity("China", "Make_a_visit").execute(store, context))
    context = context.with_result([Item(None, date(2008, 5, 31), date(2008, 5, 31), Granularity.DAY)])
    actions = list_operations(context, context.times, [2], extended=False)
    assert actions == [
        GetBefore(2, parse_time("2009")),
        GetAfter(2, parse_time("2009")),  # empty, but offered: the caller executes
        GetBefore(2, 1),
        GetAfter(2, 1),
        GetFirst(2),
        GetLast(2),
        Answer(2),
    ]
    assert list_operations(ActionContext().with_result([]), [], [1]) == []
