"""Table-driven tests of the temporal semantics every action relies on."""

from __future__ import annotations

from datetime import date

import pytest

from actions import semantics as sem
from actions.items import Item
from tkg_store.temporal import Granularity, TimeSpan, parse_time

DAY, MONTH, YEAR = Granularity.DAY, Granularity.MONTH, Granularity.YEAR


def day(entity: str | None, iso: str) -> Item:
    d = date.fromisoformat(iso)
    return Item(entity, d, d, DAY)


def years(entity: str | None, first: int | None, last: int | None) -> Item:
    start = date(first, 1, 1) if first is not None else None
    end = date(last, 12, 31) if last is not None else None
    return Item(entity, start, end, YEAR)


OPEN_START = years("A", None, 1999)
CLOSED = years("B", 2000, 2004)
OPEN_END = years("C", 2005, None)
TIMELESS = Item("D", None, None, YEAR)


@pytest.mark.parametrize(
    ("item", "reference", "expected"),
    [
        (day("x", "2008-04-30"), "2008-05", True),  # before the month = before its first day
        (day("x", "2008-05-01"), "2008-05", False),
        (day("x", "2008-05-31"), "2008-05", False),
        (day("x", "2007-12-31"), "2008", True),
        (day("x", "2008-01-01"), "2008", False),
        (day("x", "2008-05-02"), "2008-05-03", True),
        (day("x", "2008-05-03"), "2008-05-03", False),  # strictly before
        (OPEN_START, "2000", True),  # open start = minus infinity
        (CLOSED, "2000", False),  # started in 2000: not before it
        (CLOSED, "2001", True),  # began before 2001 although it lasts past it
        (OPEN_END, "2004", False),
        (TIMELESS, "2004", False),  # no time: takes part in no comparison
    ],
)
def test_before_compares_the_start_with_the_reference_first_day(item: Item, reference: str, expected: bool) -> None:
    assert (sem.before([item], parse_time(reference)) == [item]) is expected


@pytest.mark.parametrize(
    ("item", "reference", "expected"),
    [
        (day("x", "2008-05-31"), "2008-05", False),  # after the month = after its last day
        (day("x", "2008-06-01"), "2008-05", True),
        (day("x", "2008-12-31"), "2008", False),
        (day("x", "2009-01-01"), "2008", True),
        (day("x", "2008-05-04"), "2008-05-03", True),
        (day("x", "2008-05-03"), "2008-05-03", False),  # strictly after
        (OPEN_START, "1990", False),  # an open start is never after anything
        (CLOSED, "1999", True),
        (CLOSED, "2000", False),
        (OPEN_END, "2004", True),
        (TIMELESS, "1000", False),
    ],
)
def test_after_compares_the_start_with_the_reference_last_day(item: Item, reference: str, expected: bool) -> None:
    assert (sem.after([item], parse_time(reference)) == [item]) is expected


@pytest.mark.parametrize(
    ("item", "t1", "t2", "expected"),
    [
        (day("x", "2008-05-01"), "2008-05-01", "2008-06-30", True),  # inclusive at the start
        (day("x", "2008-06-30"), "2008-05-01", "2008-06-30", True),  # inclusive at the end
        (day("x", "2008-07-01"), "2008-05-01", "2008-06-30", False),
        (day("x", "2008-04-30"), "2008-05", "2008-06", False),
        (day("x", "2008-06-30"), "2008-05", "2008-06", True),  # a month bound covers the month
        (day("x", "2008-06-30"), "2008-06", "2008-05", True),  # either order
        (day("x", "2006-12-31"), "2005", "2006", True),
        (CLOSED, "2004", "2010", True),  # an interval overlapping the range
        (CLOSED, "2005", "2010", False),
        (OPEN_END, "2020", "2021", True),
        (OPEN_START, "1900", "1901", True),
        (OPEN_START, "2000", "2001", False),
    ],
)
def test_between_is_inclusive_and_intervals_overlap(item: Item, t1: str, t2: str, expected: bool) -> None:
    assert (sem.between([item], parse_time(t1), parse_time(t2)) == [item]) is expected


@pytest.mark.parametrize(
    ("item", "constraint", "expected"),
    [
        (day("x", "2005-11-03"), "2005", True),  # a year constraint is the whole year
        (day("x", "2005-11-03"), "2005-11", True),
        (day("x", "2005-11-03"), "2005-11-03", True),
        (day("x", "2005-11-03"), "2005-11-04", False),
        (day("x", "2005-11-03"), "2005-10", False),
        (CLOSED, "2000", True),  # "in 2000" matches an interval that overlaps 2000
        (CLOSED, "2002-06", True),
        (CLOSED, "2005", False),
        (OPEN_END, "2030", True),
        (OPEN_START, "1800", True),
        (TIMELESS, "2000", False),
    ],
)
def test_a_time_constraint_matches_at_its_own_granularity(item: Item, constraint: str, expected: bool) -> None:
    assert (sem.within([item], parse_time(constraint)) == [item]) is expected


@pytest.mark.parametrize(
    ("items", "expected_first", "expected_last"),
    [
        ([], [], []),
        ([day("a", "2005-01-02")], ["a"], ["a"]),
        ([day("a", "2005-01-02"), day("b", "2005-01-01"), day("c", "2005-01-03")], ["b"], ["c"]),
        # ties at the extreme: every tying item; first keeps the input (KG) order, last reverses it
        ([day("a", "2005-01-01"), day("b", "2005-01-01"), day("c", "2005-01-03")], ["a", "b"], ["c"]),
        ([day("a", "2005-01-01"), day("b", "2005-01-09"), day("c", "2005-01-09")], ["a"], ["c", "b"]),
        # intervals: order by start; last breaks start ties by the latest end (open = infinity)
        ([CLOSED, OPEN_END, OPEN_START], ["A"], ["C"]),
        ([years("x", 2000, 2001), years("y", 2000, 2003), years("z", 2000, None)], ["x", "y", "z"], ["z"]),
        ([years("x", 2000, 2001), years("y", 2000, 2003)], ["x", "y"], ["y"]),
        ([TIMELESS, day("a", "2001-01-01")], ["a"], ["a"]),
        ([TIMELESS], [], []),
    ],
)
def test_first_and_last_return_every_item_tying_at_the_extreme(
    items: list[Item], expected_first: list[str], expected_last: list[str]
) -> None:
    assert [i.entity for i in sem.first(items)] == expected_first
    assert [i.entity for i in sem.last(items)] == expected_last


@pytest.mark.parametrize(
    ("item", "reference", "granularity", "expected"),
    [
        (day("x", "2008-05-31"), "2008-05-31", DAY, True),
        (day("x", "2008-05-30"), "2008-05-31", DAY, False),
        (day("x", "2008-05-01"), "2008-05-31", MONTH, True),
        (day("x", "2008-06-01"), "2008-05-31", MONTH, False),
        (day("x", "2008-01-01"), "2008-05-31", YEAR, True),
        (day("x", "2007-12-31"), "2008-05-31", YEAR, False),
        # a reference coarser than the join granularity: never finer than the reference
        (day("x", "2008-12-31"), "2008", DAY, True),
        (CLOSED, "2003-02-02", MONTH, True),
        (OPEN_END, "2003-02-02", YEAR, False),
    ],
)
def test_same_period_joins(item: Item, reference: str, granularity: Granularity, expected: bool) -> None:
    assert (sem.same_period([item], parse_time(reference), granularity) == [item]) is expected


def test_reference_of_a_step_result_is_its_earliest_time() -> None:
    items = [day("a", "2008-05-20"), day("b", "2008-05-03"), day("c", "2009-01-01")]
    assert sem.reference_span(items) == TimeSpan(date(2008, 5, 3), date(2008, 5, 3), DAY)
    assert sem.reference_span([CLOSED, OPEN_END]) == TimeSpan(date(2000, 1, 1), date(2004, 12, 31), YEAR)
    assert sem.reference_span([OPEN_END]) == TimeSpan(date(2005, 1, 1), date.max, YEAR)
    assert sem.reference_span([]) is None
    assert sem.reference_span([TIMELESS]) is None


def test_after_an_open_ended_reference_nothing_is() -> None:
    reference = sem.reference_span([OPEN_END])
    assert reference is not None
    assert sem.after([day("x", "2100-01-01")], reference) == []
    assert sem.before([day("x", "2004-12-31")], reference) == [day("x", "2004-12-31")]


@pytest.mark.parametrize(
    "operation",
    [
        lambda items: sem.before(items, parse_time("2005")),
        lambda items: sem.after(items, parse_time("2005")),
        lambda items: sem.between(items, parse_time("2005"), parse_time("2006")),
        lambda items: sem.within(items, parse_time("2005")),
        lambda items: sem.same_period(items, parse_time("2005"), MONTH),
        sem.first,
        sem.last,
        sem.dedupe,
    ],
)
def test_empty_inputs_give_empty_lists(operation) -> None:
    assert operation([]) == []


def test_results_hold_each_entity_and_interval_once() -> None:
    items = [day("a", "2005-01-01"), day("a", "2005-01-01"), day("a", "2005-01-02"), day("b", "2005-01-01")]
    assert sem.before(items, parse_time("2006")) == [items[0], items[2], items[3]]
    assert sem.first(items) == [items[0], items[3]]


@pytest.mark.parametrize(
    ("items", "answer_type", "granularity", "expected"),
    [
        ([day(None, "2005-11-03")], "time", DAY, ["2005-11-03"]),
        ([day(None, "2005-11-03")], "time", MONTH, ["2005-11"]),
        ([day(None, "2005-11-03"), day(None, "2005-11-20")], "time", MONTH, ["2005-11"]),
        ([day(None, "2005-11-03")], "time", YEAR, ["2005"]),
        ([day(None, "2005-11-03")], "time", None, ["2005-11-03"]),
        ([CLOSED], "time", DAY, ["2000"]),  # never finer than the item's own granularity
        ([years(None, None, 1999)], "time", YEAR, ["1999"]),  # open start: its end
        ([day("Kenya", "2005-11-03"), day("Kenya", "2006-01-05"), day("Sudan", "2005-11-20")], "entity", DAY, ["Kenya", "Sudan"]),
        ([day("Kenya", "2005-11-03")], "time", DAY, ["2005-11-03"]),
        ([], "entity", None, []),
        ([TIMELESS], "time", YEAR, []),
    ],
)
def test_answers_are_formatted_at_the_asked_granularity(
    items: list[Item], answer_type: str, granularity: Granularity | None, expected: list[str]
) -> None:
    assert sem.answer_texts(items, answer_type, granularity) == expected
