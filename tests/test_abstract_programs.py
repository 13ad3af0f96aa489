"""What the planner reads off abstract programs (pure functions, no KG)."""

from __future__ import annotations

import pytest

from agents.abstract_programs import (
    consistent_joins,
    dated,
    program_operations,
    roles_used,
    temporal_operations,
    uses_time,
)

JOIN_HEADS = ("getTime(E2, R, E1)", "getHeadEntity(E1, R, #1)", "answer(#2)")
JOIN_MIXED = ("getTime(E2, R, E1)", "getTailEntity(E1, R, #1)", "answer(#2)")
BEFORE_LAST = ("getTime(E2, R, E1)", "getHeadEntity(E1, R)", "getBefore(#2, #1)", "getLast(#3)", "answer(#4)")


def test_operations_of_questions_and_programs_meet() -> None:
    assert temporal_operations(["before", "last"]) == program_operations(BEFORE_LAST) == {"before", "last"}
    assert temporal_operations(["same_month"]) == program_operations(JOIN_HEADS) == {"same"}
    assert program_operations(("getTailEntity(E1, R, T)", "answer(#1)")) == frozenset()


def test_time_and_roles_used() -> None:
    assert uses_time(("getTailEntity(E1, R)", "getBefore(#1, T)", "answer(#2)"))
    assert uses_time(("getTailEntity(E1, R)", "getBetween(#1, T1, T2)", "answer(#2)"))
    assert not uses_time(BEFORE_LAST)
    assert roles_used(BEFORE_LAST) == {"E1", "E2"}
    assert roles_used(("getHeadEntity(E1, R)", "getFirst(#1)", "answer(#2)")) == {"E1"}


@pytest.mark.parametrize(
    ("program", "expected"),
    [
        (("getTailEntity(E1, R)", "getFirst(#1)", "answer(#2)"), ("getTailEntity(E1, R, T)", "getFirst(#1)", "answer(#2)")),
        # the answer lookup (the last undated one) takes the time
        (
            ("getHeadEntity(E2, R)", "getHeadEntity(E1, R)", "getAfter(#2, #1)", "answer(#3)"),
            ("getHeadEntity(E2, R)", "getHeadEntity(E1, R, T)", "getAfter(#2, #1)", "answer(#3)"),
        ),
        (("getTailEntity(E1, R)", "getBefore(#1, T)", "answer(#2)"), None),  # uses the time already
        (("getTime(E1, R, E2)", "getLast(#1)", "answer(#2)"), None),  # no entity lookup to restrict
    ],
)
def test_dated_variant(program: tuple[str, ...], expected: tuple[str, ...] | None) -> None:
    assert dated(program) == expected


def test_a_join_keeps_its_entity_where_get_time_had_it() -> None:
    assert consistent_joins(JOIN_HEADS)
    assert consistent_joins(("getTime(E1, R, E2)", "getTailEntity(E1, R, #1)", "answer(#2)"))
    assert not consistent_joins(JOIN_MIXED)
    assert not consistent_joins(("getTime(E1, R, E2)", "getHeadEntity(E1, R, #1)", "answer(#2)"))
    assert consistent_joins(BEFORE_LAST)  # no join at all
