"""Every template rendered, abstracted and executed on a small real DuckDB store."""

from __future__ import annotations

from datetime import date

import pytest
from test_actions_kg import ARMED_GANG, UKRAINE_MILITARY, build_store

from actions.context import ActionContext
from actions.items import Item
from actions.semantics import answer_texts
from actions.templates import (
    Action,
    Answer,
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

DAY, MONTH, YEAR = Granularity.DAY, Granularity.MONTH, Granularity.YEAR


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory):
    path = build_store(tmp_path_factory.mktemp("kg") / "kg.duckdb")
    with TKGStore.open(path) as opened:
        yield opened


def d(iso: str) -> date:
    return date.fromisoformat(iso)


def day(entity: str | None, iso: str) -> Item:
    return Item(entity, d(iso), d(iso), DAY)


@pytest.mark.parametrize(
    ("action", "rendered", "abstract"),
    [
        (
            GetTailEntity("Ethiopia", "Make_optimistic_comment", parse_time("2005-11")),
            "getTailEntity(Ethiopia, Make_optimistic_comment, 2005-11)",
            "getTailEntity(E1, R, T)",
        ),
        (GetHeadEntity("China", "Make_a_visit", 1), "getHeadEntity(China, Make_a_visit, #1)", "getHeadEntity(E2, R, #1)"),
        (GetHeadEntity("Kenya", "Praise_or_endorse"), "getHeadEntity(Kenya, Praise_or_endorse)", "getHeadEntity(E?, R)"),
        (
            GetTime(UKRAINE_MILITARY, "Make_a_visit", "China"),
            "getTime(Military_(Ukraine), Make_a_visit, China)",
            "getTime(E1, R, E2)",
        ),
        (GetBefore(2, 1), "getBefore(#2, #1)", "getBefore(#2, #1)"),
        (GetAfter(2, parse_time("2008-05-03")), "getAfter(#2, 2008-05-03)", "getAfter(#2, T)"),
        (GetBetween(1, parse_time("2005"), parse_time("2006-02")), "getBetween(#1, 2005, 2006-02)", "getBetween(#1, T1, T2)"),
        (GetFirst(3), "getFirst(#3)", "getFirst(#3)"),
        (GetLast(3), "getLast(#3)", "getLast(#3)"),
        (Answer(4), "answer(#4)", "answer(#4)"),
    ],
)
def test_render_and_abstract(action, rendered: str, abstract: str) -> None:
    roles = {"Ethiopia": "E1", UKRAINE_MILITARY: "E1", "China": "E2"}
    assert action.render() == rendered
    assert action.abstract(roles) == abstract


def test_describe_uses_readable_names(store: TKGStore) -> None:
    assert GetTailEntity("Ethiopia", "Accuse", parse_time("2005-12")).describe(store) == "Ethiopia Accuse whom in 2005-12"
    assert GetTime("Q1", "P39", "Q100").describe(store) == "when did Q1 position held Q100"
    assert "before" in GetBefore(1, parse_time("2005")).describe(store)


def test_actions_are_hashable_values() -> None:
    assert GetHeadEntity("China", "Make_a_visit", 1) == GetHeadEntity("China", "Make_a_visit", 1)
    assert len({GetFirst(1), GetFirst(1), GetLast(1)}) == 2


@pytest.mark.parametrize(
    ("action", "expected"),
    [
        (
            GetTailEntity("Ethiopia", "Make_optimistic_comment", parse_time("2005-11")),
            [day("Kenya", "2005-11-03"), day("Sudan", "2005-11-20")],
        ),
        (
            GetTailEntity("Ethiopia", "Make_optimistic_comment"),
            [day("Kenya", "2005-11-03"), day("Sudan", "2005-11-20"), day("Kenya", "2006-01-05")],
        ),
        (GetTailEntity("Ethiopia", "Make_optimistic_comment", parse_time("2005-11-20")), [day("Sudan", "2005-11-20")]),
        (GetTailEntity("Ethiopia", "Make_optimistic_comment", parse_time("2007")), []),
        (GetHeadEntity("Kenya", "Praise_or_endorse"), [day(ARMED_GANG, "2007-03-03")]),
        (
            GetHeadEntity("China", "Make_a_visit", parse_time("2008-05")),
            [day("Japan", "2008-05-01"), day("Iran", "2008-05-31"), day(UKRAINE_MILITARY, "2008-05-31")],
        ),
        (GetTime("Ethiopia", "Accuse", "Eritrea"), [day(None, "2005-12-01"), day(None, "2005-12-20")]),
        (GetTime("Eritrea", "Accuse", "Kenya"), []),
        (GetTailEntity("Nowhere", "Accuse"), []),  # unknown names match nothing
        (
            GetHeadEntity("Q100", "P39", parse_time("2002")),
            [Item("Q1", d("2000-01-01"), d("2004-12-31"), YEAR)],
        ),
        (
            GetHeadEntity("Q100", "P39", parse_time("2030")),
            [Item("Q2", d("2005-01-01"), None, YEAR)],  # open end reaches every later year
        ),
        (GetTime("Q3", "P39", "Q100"), [Item(None, None, d("1999-12-31"), YEAR)]),
    ],
)
def test_lookups_execute_on_the_store(store: TKGStore, action, expected: list[Item]) -> None:
    assert sorted(action.execute(store, ActionContext()), key=repr) == sorted(expected, key=repr)


@pytest.mark.parametrize(
    ("granularity", "expected"),
    [
        (DAY, {"Iran"}),  # same day as Military_(Ukraine)'s first visit, 2008-05-31
        (MONTH, {"Japan", "Iran"}),
        (YEAR, {"Kenya", "Japan", "Iran"}),
    ],
)
def test_same_period_join_with_an_earlier_time_result(store: TKGStore, granularity: Granularity, expected: set[str]) -> None:
    context = ActionContext(granularity=granularity)
    times = GetTime(UKRAINE_MILITARY, "Make_a_visit", "China").execute(store, context)
    assert times == [day(None, "2008-05-31"), day(None, "2008-07-10")]
    context = context.with_result(times)
    heads = GetHeadEntity("China", "Make_a_visit", 1).execute(store, context)
    assert {i.entity for i in heads} - {UKRAINE_MILITARY} == expected


def test_join_granularity_falls_back_to_the_question_time_then_days(store: TKGStore) -> None:
    times = [day(None, "2008-05-31")]
    by_month = ActionContext(times=[parse_time("2008-05")]).with_result(times)
    by_day = ActionContext().with_result(times)
    assert len(GetHeadEntity("China", "Make_a_visit", 1).execute(store, by_month)) == 3
    assert len(GetHeadEntity("China", "Make_a_visit", 1).execute(store, by_day)) == 2


def test_a_join_with_a_missing_or_timeless_step_is_empty(store: TKGStore) -> None:
    assert GetHeadEntity("China", "Make_a_visit", 1).execute(store, ActionContext()) == []
    timeless = ActionContext().with_result([Item(None, None, None, YEAR)])
    assert GetHeadEntity("China", "Make_a_visit", 1).execute(store, timeless) == []


def run_program(store: TKGStore, program: list[Action]) -> ActionContext:
    """Execute `program` at day granularity, step by step, as the agent does; the final context."""
    context = ActionContext(granularity=DAY)
    for action in program:
        context = context.with_result(action.execute(store, context), action)
    return context


def test_before_last_program(store: TKGStore) -> None:
    """Which country last visited China before Military_(Ukraine)? (reference = its earliest visit)"""
    context = run_program(store, [
        GetTime(UKRAINE_MILITARY, "Make_a_visit", "China"),
        GetHeadEntity("China", "Make_a_visit"),
        GetBefore(2, 1),
        GetLast(3),
        Answer(4),
    ])
    assert context.results[2] == [day("Kenya", "2008-04-30"), day("Japan", "2008-05-01")]
    assert answer_texts(context.results[-1], context.answer_type, context.granularity) == ["Japan"]


def test_after_first_program(store: TKGStore) -> None:
    context = run_program(store, [
        GetTime("Japan", "Make_a_visit", "China"),
        GetHeadEntity("China", "Make_a_visit"),
        GetAfter(2, 1),
        GetFirst(3),
        Answer(4),
    ])
    assert answer_texts(context.results[-1], context.answer_type, context.granularity) == ["Iran", UKRAINE_MILITARY]  # a tie on 2008-05-31


@pytest.mark.parametrize(
    ("action", "expected"),
    [
        (GetBefore(1, parse_time("2008-05")), ["Kenya"]),
        (GetAfter(1, parse_time("2008-05")), ["Kenya", UKRAINE_MILITARY]),
        (GetBetween(1, parse_time("2008-05-01"), parse_time("2008-06-01")), ["Japan", "Iran", UKRAINE_MILITARY, "Kenya"]),
        (GetFirst(1), ["Kenya"]),
        (GetLast(1), [UKRAINE_MILITARY]),
        (GetBefore(1, 2), ["Kenya", "Japan"]),  # step 2's earliest time is 2008-05-31
        (GetAfter(1, 2), ["Kenya", UKRAINE_MILITARY]),
        (GetFirst(3), []),  # a step that does not exist is empty
        (Answer(1), ["Kenya", "Japan", "Iran", UKRAINE_MILITARY]),
    ],
)
def test_list_operations_read_earlier_results(store: TKGStore, action, expected: list[str]) -> None:
    context = ActionContext()
    context = context.with_result(GetHeadEntity("China", "Make_a_visit").execute(store, context))
    context = context.with_result([day(None, "2008-06-15"), day(None, "2008-05-31")])
    assert list(dict.fromkeys(i.entity for i in action.execute(store, context))) == expected


def test_time_answers_use_the_question_granularity(store: TKGStore) -> None:
    context = ActionContext(granularity=MONTH, answer_type="time")
    items = GetTime("Ethiopia", "Accuse", "Eritrea").execute(store, context)
    context = context.with_result(items)
    assert answer_texts(GetFirst(1).execute(store, context), context.answer_type, context.granularity) == ["2005-12"]
    year = ActionContext(granularity=YEAR, answer_type="time").with_result(items)
    assert answer_texts(Answer(1).execute(store, year), year.answer_type, year.granularity) == ["2005"]
