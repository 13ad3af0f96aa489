"""The counting and listing semantics (count, nth, most / least, exists, exclude, ofType) against a
brute-force reading of the rules in actions/semantics.py, on generated item lists and stores.

The items mix points, intervals, intervals open at either end and items with no time, at every
granularity, with entities, repeated entities and pure times. The reference, written from the rules:

- an item has a day when it has a time (either end stated); its day is its start, an open start
  being one day before all others (date.min);
- count days: distinct days; count entities: distinct entity names;
- nth(n): the items on the n-th day of the sorted distinct days (descending from the end);
- most / least: each entity's number of distinct days (entities without one left out), the items
  of every entity at the maximum / minimum;
- exists: whether there is any item; exclude(e): items whose entity is not e;
- a country: an entity that at least MIN_COUNTRY_SECTORS entities name as "Sector_(Country)".
"""

from __future__ import annotations

import random
import tempfile
from datetime import date, timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_actions_kg import build_store

from actions import semantics
from actions.context import ActionContext
from actions.items import Item
from actions.templates import Count, Exclude, Exists, GetLeast, GetMost, GetNth, Includes, OfType
from tkg_store.learned import MIN_COUNTRY_SECTORS, countries
from tkg_store.store import TKGStore
from tkg_store.temporal import Granularity, span_of

NAMES = ["A", "B", "C", "D", None]
EXAMPLES = settings(max_examples=150, deadline=None)


@st.composite
def items(draw: st.DrawFn) -> Item:
    entity = draw(st.sampled_from(NAMES))
    level = draw(st.sampled_from(list(Granularity)))
    first = span_of(date(2000, 1, 1) + timedelta(days=draw(st.integers(0, 60))), level)  # few days: many ties
    kind = draw(st.sampled_from(["point", "interval", "open start", "open end", "no time"]))
    if kind == "point":
        return Item(entity, first.start, first.end, level)
    end = span_of(first.start + timedelta(days=draw(st.integers(0, 400))), level).end
    start = None if kind in ("open start", "no time") else first.start
    end = None if kind in ("open end", "no time") else end  # type: ignore[assignment]
    return Item(entity, start, end, level)


item_lists = st.lists(items(), max_size=25)


# -- the reference ---------------------------------------------------------------------------------
def has_day(i: Item) -> bool:
    return i.start is not None or i.end is not None


def day(i: Item) -> date:
    return date.min if i.start is None else i.start


def ref_days(xs: list[Item]) -> list[date]:
    return sorted({day(i) for i in xs if has_day(i)})


def ref_nth(xs: list[Item], n: int, from_end: bool) -> set[Item]:
    ordered = ref_days(xs)[::-1] if from_end else ref_days(xs)
    if n < 1 or n > len(ordered):
        return set()
    return {i for i in xs if has_day(i) and day(i) == ordered[n - 1]}


def ref_extreme(xs: list[Item], pick) -> set[Item]:  # noqa: ANN001
    per = {e: len({day(i) for i in xs if i.entity == e and has_day(i)}) for e in NAMES if e is not None}
    per = {e: n for e, n in per.items() if n > 0}
    if not per:
        return set()
    chosen = pick(per.values())
    return {i for i in xs if i.entity in per and per[i.entity] == chosen}


def run(action, xs: list[Item], store=None) -> list[Item]:  # noqa: ANN001
    return action.execute(store, ActionContext().with_result(xs))


def value_of(result: list[Item]) -> str:
    (only,) = result
    assert only.start is None and only.end is None
    return only.entity


# -- the properties --------------------------------------------------------------------------------
@EXAMPLES
@given(item_lists)
def test_counts(xs: list[Item]) -> None:
    assert semantics.count_days(xs) == len(ref_days(xs))
    assert semantics.count_entities(xs) == len({i.entity for i in xs if i.entity is not None})
    assert value_of(run(Count(1, "days"), xs)) == str(len(ref_days(xs)))
    assert value_of(run(Count(1, "entities"), xs)) == str(len({i.entity for i in xs if i.entity}))


@EXAMPLES
@given(item_lists, st.integers(0, 6), st.booleans())
def test_nth(xs: list[Item], n: int, from_end: bool) -> None:
    found = run(GetNth(1, n, from_end), xs)
    assert set(found) == ref_nth(xs, n, from_end)
    assert len(found) == len(set(found))
    # KG order from the start, reversed from the end (as first / last keep it: an item seen twice
    # stands where it is seen first in that order)
    order = list(dict.fromkeys(xs[::-1] if from_end else xs))
    assert found == [i for i in order if i in set(found)]


@EXAMPLES
@given(item_lists)
def test_nth_one_is_first(xs: list[Item]) -> None:
    assert GetNth(1, 1).execute(None, ActionContext().with_result(xs)) == semantics.first(xs)  # type: ignore[arg-type]
    points = [i for i in xs if i.start is not None and i.start == i.end]  # one day each: last is nth from the end
    assert semantics.nth(points, 1, from_end=True) == semantics.last(points)


@EXAMPLES
@given(item_lists)
def test_most_and_least_with_ties(xs: list[Item]) -> None:
    assert set(run(GetMost(1), xs)) == ref_extreme(xs, max)
    assert set(run(GetLeast(1), xs)) == ref_extreme(xs, min)
    assert run(GetMost(1), xs) == [i for i in dict.fromkeys(xs) if i in ref_extreme(xs, max)]  # input order


@st.composite
def spread_items(draw: st.DrawFn) -> Item:
    """An item as `items` draws it, moved to a day anywhere in three years: periods of a year or a month to rank."""
    item = draw(items())
    shift = timedelta(days=draw(st.integers(0, 3 * 365)))
    return Item(item.entity, item.start and item.start + shift, item.end and item.end + shift, item.granularity)


def ref_periods(xs: list[Item], level: str, pick) -> set[Item]:  # noqa: ANN001
    """The items in the years (months) with the most / fewest distinct start days, read off the rule: an item's
    period is the year (month) of its start, and an item with an open start has none."""
    def period(i: Item) -> tuple[int, ...]:
        assert i.start is not None
        return (i.start.year,) if level == "year" else (i.start.year, i.start.month)

    dated = [i for i in xs if i.start is not None]
    per: dict[tuple[int, ...], set[date]] = {}
    for i in dated:
        per.setdefault(period(i), set()).add(i.start)  # type: ignore[arg-type]
    if not per:
        return set()
    chosen = pick(len(d) for d in per.values())
    return {i for i in dated if len(per[period(i)]) == chosen}


@EXAMPLES
@given(st.lists(spread_items(), max_size=25), st.sampled_from(["year", "month"]))
def test_most_and_least_periods_with_ties(xs: list[Item], level: str) -> None:
    assert set(run(GetMost(1, level), xs)) == ref_periods(xs, level, max)
    assert set(run(GetLeast(1, level), xs)) == ref_periods(xs, level, min)
    assert run(GetMost(1, level), xs) == [i for i in dict.fromkeys(xs) if i in ref_periods(xs, level, max)]  # input order


def test_a_ranked_period_is_a_year_or_a_month() -> None:
    with pytest.raises(ValueError):
        GetMost(1, "day")


@EXAMPLES
@given(item_lists, st.sampled_from(NAMES[:-1] + ["Z"]))
def test_exists_exclude_and_includes(xs: list[Item], entity: str) -> None:
    assert value_of(run(Exists(1), xs)) == ("Yes" if xs else "No")
    assert run(Exclude(1, entity), xs) == list(dict.fromkeys(i for i in xs if i.entity != entity))
    assert value_of(run(Includes(1, entity), xs)) == ("Yes" if any(i.entity == entity for i in xs) else "No")


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_countries_and_of_type_on_a_generated_store(seed: int) -> None:
    rng = random.Random(seed)
    places = ["Aland", "Bland", "Cland", "Dland", "Eland"]
    sectors = ["Military", "Police", "Government", "Citizen", "Media", "Foreign_Affairs", "Ministry", "Women"]
    named = {p: rng.sample(sectors, rng.randrange(0, len(sectors) + 1)) for p in places}
    in_kg = {p for p in places if rng.random() < 0.8}  # a qualifier that is no entity is no country
    parts = sorted({f"{s}_({p})" for p, ss in named.items() for s in ss})
    # a country has enough sectors, one of them a civil state body (a region has an army, no ministry)
    expected = {p for p in in_kg if len(named[p]) >= MIN_COUNTRY_SECTORS and {"Police", "Government", "Foreign_Affairs", "Ministry"} & set(named[p])}
    facts = [(n, "r1", "Some_Person", "2001-01-01", "2001-01-01", "day") for n in sorted(in_kg) + parts]
    with tempfile.TemporaryDirectory() as folder, TKGStore.open(build_store(Path(folder) / "kg.duckdb", facts)) as store:
        assert countries(store) == expected
        names = store.entity_names()
        xs = [Item(n, date(2001, 1, 1), date(2001, 1, 1)) for n in rng.sample(names, min(8, len(names)))]
        assert run(OfType(1, "country"), xs, store) == [i for i in xs if i.entity in expected]
