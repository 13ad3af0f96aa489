"""Abstract programs: parsed and rendered in one place, and what the planner reads off them."""

from __future__ import annotations

import pytest

from actions.programs import AbstractStep, Program, asked_operations, describe_step

JOIN_HEADS = Program.parse(("getTime(E2, R, E1)", "getHeadEntity(E1, R, #1)", "answer(#2)"))
JOIN_MIXED = Program.parse(("getTime(E2, R, E1)", "getTailEntity(E1, R, #1)", "answer(#2)"))
BEFORE_LAST = Program.parse("getTime(E2, R, E1) -> getHeadEntity(E1, R) -> getBefore(#2, #1) -> getLast(#3) -> answer(#4)")


def test_parse_and_render_round_trip() -> None:
    text = "getTime(E1, R, E2) -> getHeadEntity(E2, R, T) -> getAfter(#2, #1) -> getFirst(#3) -> answer(#4)"
    program = Program.parse(text)
    assert program.render() == str(program) == text
    assert Program.parse(program.texts) == program  # the memory stores the step texts
    assert program[1] == AbstractStep("getHeadEntity", ("E2", "R", "T"))
    assert AbstractStep.parse("not a step").render() == "not a step"


def test_steps_know_what_they_read_and_name() -> None:
    step = AbstractStep.parse("getAfter(#2, #1)")
    assert step.reads == (2, 1) and step.operation == "after" and step.is_list_operation
    join = AbstractStep.parse("getHeadEntity(E1, R, #1)")
    assert join.joins == 1 and join.operation == "same" and join.roles == {"E1"} and join.is_lookup
    assert AbstractStep.parse("getTailEntity(E?, R)").roles == frozenset()
    assert AbstractStep.parse("getBetween(#1, T1, T2)").times == {"T1", "T2"}


def test_operations_of_questions_and_programs_meet() -> None:
    assert asked_operations(["before", "last"]) == BEFORE_LAST.operations == {"before", "last"}
    assert asked_operations(["same_month"]) == JOIN_HEADS.operations == {"same"}
    assert Program.parse(("getTailEntity(E1, R, T)", "answer(#1)")).operations == frozenset()


def test_time_and_roles_used() -> None:
    assert Program.parse(("getTailEntity(E1, R)", "getBefore(#1, T)", "answer(#2)")).uses_time
    assert Program.parse(("getTailEntity(E1, R)", "getBetween(#1, T1, T2)", "answer(#2)")).uses_time
    assert not BEFORE_LAST.uses_time
    assert BEFORE_LAST.roles == {"E1", "E2"}
    assert Program.parse(("getHeadEntity(E1, R)", "getFirst(#1)", "answer(#2)")).roles == {"E1"}
    assert Program.parse(("getTailEntity(E1, R, T)", "answer(#1)")).mentioned == {"E1", "T"}


def test_dead_steps() -> None:
    assert not BEFORE_LAST.has_dead_steps
    assert Program.parse(("getTailEntity(E1, R)", "getTailEntity(E2, R)", "answer(#2)")).has_dead_steps
    assert not JOIN_HEADS.has_dead_steps  # the join reads #1


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
        # the dates of an event between two entities are the answer lookup: "when ... for the third time in 2015"
        (("getTime(E1, R, E2)", "getNth(#1, N)", "answer(#2)"), ("getTime(E1, R, E2, T)", "getNth(#1, N)", "answer(#2)")),
        # a getTime that places another lookup's answers is a reference, not the answer: not restricted
        (("getTime(E2, R, E1)", "getTailEntity(E1, R, T)", "getBefore(#2, #1)", "answer(#3)"), None),
        (("getTailEntity(E?, R)", "answer(#1)"), None),  # an entity the question does not mention
    ],
)
def test_dated_variant(program: tuple[str, ...], expected: tuple[str, ...] | None) -> None:
    dated = Program.parse(program).dated()
    assert (dated.texts if dated is not None else None) == expected


def test_a_join_keeps_its_entity_where_get_time_had_it() -> None:
    assert JOIN_HEADS.consistent_joins
    assert Program.parse(("getTime(E1, R, E2)", "getTailEntity(E1, R, #1)", "answer(#2)")).consistent_joins
    assert not JOIN_MIXED.consistent_joins
    assert not Program.parse(("getTime(E1, R, E2)", "getHeadEntity(E1, R, #1)", "answer(#2)")).consistent_joins
    assert BEFORE_LAST.consistent_joins  # no join at all


REVERSED = Program.parse("getTime(E1, R, E2) -> getHeadEntity(E2, R) -> getBefore(#2, #1) -> getLast(#3) -> answer(#4)")


@pytest.mark.parametrize(
    ("program", "consistent"),
    [
        # "who last criticised {E1} before {E2} did": E2 criticising E1 dates the answers
        (BEFORE_LAST, True),
        ("getTime(E1, R, E2) -> getTailEntity(E1, R) -> getAfter(#2, #1) -> getFirst(#3) -> answer(#4)", True),
        # who last criticised E2 before E1 did: the question reversed
        (REVERSED, False),
        # the event with E2 where E1 stands (E1 criticising E2), the answers criticising E1
        ("getTime(E1, R, E2) -> getHeadEntity(E1, R) -> getBefore(#2, #1) -> getLast(#3) -> answer(#4)", False),
        ("getTime(E2, R, E1) -> getTailEntity(E1, R) -> getAfter(#2, #1) -> answer(#3)", False),
        # when did E1 visit E2 after E3 did: E3 takes E1's place, E2 keeps its own
        ("getTime(E3, R, E2) -> getTime(E1, R, E2) -> getAfter(#2, #1) -> answer(#3)", True),
        # which participant E3 stands for is the wording's (the answer check reads it): E1 keeps its place
        ("getTime(E1, R, E3) -> getTime(E1, R, E2) -> getAfter(#2, #1) -> answer(#3)", True),
        ("getTime(E1, R, E2) -> getTime(E3, R, E2) -> getAfter(#2, #1) -> answer(#3)", False),  # E3's visits dated by E1's
        ("getTime(E3, R, E1) -> getTime(E1, R, E2) -> getAfter(#2, #1) -> answer(#3)", False),  # E1 moved
        # no event referred to: a stated time, or a lookup of all E2's facts
        (("getTailEntity(E1, R)", "getBefore(#1, T)", "answer(#2)"), True),
        ("getTailEntity(E2, R) -> getHeadEntity(E1, R) -> getBefore(#2, #1) -> getLast(#3) -> answer(#4)", True),
    ],
)
def test_a_referred_event_has_the_referenced_entity_in_the_answers_place(program, consistent: bool) -> None:
    assert Program.parse(program).consistent_references is consistent


def test_the_event_variant_dates_the_referred_event() -> None:
    assert BEFORE_LAST.dated_event().texts[0] == "getTime(E2, R, E1, T)"
    assert BEFORE_LAST.dated_event().texts[1:] == BEFORE_LAST.texts[1:]
    assert Program.parse(("getTailEntity(E1, R)", "getBefore(#1, T)", "answer(#2)")).dated_event() is None
    assert JOIN_HEADS.dated_event() is None  # a same-period join refers to no event by before / after


def test_steps_in_words() -> None:
    assert describe_step("getTime(E1, R, E2)") == "Find when E1 did R to E2."
    assert describe_step(AbstractStep.parse("getFirst(#3)")) == "Keep the earliest result(s) of step 3."
    assert describe_step("somethingNew(#1)") == "Apply somethingNew(#1)."


@pytest.mark.parametrize(
    ("program", "operation", "times", "placed"),
    [
        # "how many times in {T}" learnt, "between {T1} and {T2}" asked: the lookup is freed and windowed,
        # and what read the lookup reads the window
        ("getTime(E1, R, E2, T) -> count(#1, days) -> answer(#2)", "getBetween", ("T1", "T2"),
         "getTime(E1, R, E2) -> getBetween(#1, T1, T2) -> count(#2, days) -> answer(#3)"),
        ("getTime(E1, R, E2) -> getLast(#1) -> answer(#2)", "getBefore", ("T",),
         "getTime(E1, R, E2) -> getBefore(#1, T) -> getLast(#2) -> answer(#3)"),
        ("getTailEntity(E1, R, T) -> ofType(#1, country) -> getMost(#2) -> answer(#3)", "getAfter", ("T",),
         "getTailEntity(E1, R) -> getAfter(#1, T) -> ofType(#2, country) -> getMost(#3) -> answer(#4)"),
        ("getRelation(E1, E2, T) -> answer(#1)", "getBetween", ("T1", "T2"), "getRelation(E1, E2) -> getBetween(#1, T1, T2) -> answer(#2)"),
        # no time at all: the time dropped
        ("getTailEntity(E1, R, T) -> getMost(#1) -> answer(#2)", None, (), "getTailEntity(E1, R) -> getMost(#1) -> answer(#2)"),
        # nothing to change, or already placed against an event: no variant
        ("getTailEntity(E1, R) -> getMost(#1) -> answer(#2)", None, (), None),
        ("getTime(E2, R, E1) -> getHeadEntity(E1, R) -> getBefore(#2, #1) -> answer(#3)", "getBefore", ("T",), None),
        ("getTime(E2, R, E1) -> getHeadEntity(E1, R, #1) -> answer(#2)", "getBetween", ("T1", "T2"), None),
    ],
)
def test_a_program_placed_in_time_as_a_question_states_it(program: str, operation: str | None, times: tuple[str, ...], placed: str | None) -> None:
    variant = Program.parse(program).placed(operation, times)
    assert (variant.render() if variant is not None else None) == placed
    if variant is not None:
        assert not variant.has_dead_steps  # every step is still read by a later one
