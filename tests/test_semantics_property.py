"""One temporal semantics: the actions and the program search against a brute-force reading of the
rules in actions/semantics.py, on generated interval KGs.

Each KG has point facts, `start, end` intervals, intervals open at either end and facts with no
time at all, at day, month and year granularity. The reference below is written from the rules in
the docstring of actions/semantics.py, over plain `Fact`s, without numpy or the fact index:

- a fact has a time when at least one end is stated; one without takes part in no comparison;
- open ends count as date.min (start) and date.max (end);
- within(span): shares a day with the span; before(ref): started before ref's first day;
  after(ref): has a stated start after ref's last day;
- first: the earliest start; last: the latest end, then the latest start (ties all kept), each
  fact cut to the year / month / day of its end at its granularity (an open end: as it is);
- a step's reference time is its earliest (start, end) fact, at that fact's granularity;
- a same-period join keeps the facts overlapping the reference's day / month / year (never finer
  than the reference's own granularity).
"""

from __future__ import annotations

import random
from datetime import date, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from actions.context import ActionContext
from actions.program_search import ProgramSearch
from actions.templates import GetAfter, GetBefore, GetFirst, GetHeadEntity, GetLast, GetTailEntity, GetTime
from tkg_store.schema import rebuild_layout
from tkg_store.store import Fact, TKGStore, normalize_name
from tkg_store.temporal import Granularity, TimeSpan, format_time, span_of

ENTITIES = ["A", "B", "C", "D", "E"]
RELATIONS = ["r1", "r2"]
LEVELS = list(Granularity)


# -- the brute-force reference -------------------------------------------------------------------
def timed(f: Fact) -> bool:
    return f.start is not None or f.end is not None


def lo(f: Fact) -> date:
    return f.start if f.start is not None else date.min


def hi(f: Fact) -> date:
    return f.end if f.end is not None else date.max


def ref_within(facts: list[Fact], span: TimeSpan) -> list[Fact]:
    return [f for f in facts if timed(f) and lo(f) <= span.end and hi(f) >= span.start]


def ref_before(facts: list[Fact], ref: TimeSpan) -> list[Fact]:
    return [f for f in facts if timed(f) and lo(f) < ref.start]


def ref_after(facts: list[Fact], ref: TimeSpan) -> list[Fact]:
    return [f for f in facts if f.start is not None and f.start > ref.end]


def ref_first(facts: list[Fact]) -> list[Fact]:
    timed_facts = [f for f in facts if timed(f)]
    return [f for f in timed_facts if lo(f) == min(map(lo, timed_facts))]


def ref_last(facts: list[Fact]) -> list[Fact]:
    timed_facts = [f for f in facts if timed(f)]
    latest = max(((hi(f), lo(f)) for f in timed_facts), default=None)
    return [held_last(f) for f in timed_facts if (hi(f), lo(f)) == latest]


def held_last(f: Fact) -> Fact:
    """The fact in the last granule it holds: from the first day of its end's year / month / day."""
    if f.end is None:
        return f
    start = span_of(f.end, f.granularity).start
    return f._replace(start=start) if f.start is None or f.start < start else f


def ref_reference(facts: list[Fact]) -> TimeSpan | None:
    timed_facts = [f for f in facts if timed(f)]
    if not timed_facts:
        return None
    earliest = min(timed_facts, key=lambda f: (lo(f), hi(f)))
    return TimeSpan(lo(earliest), hi(earliest), earliest.granularity)


def ref_same_period(facts: list[Fact], ref: TimeSpan, level: Granularity) -> list[Fact]:
    return ref_within(facts, span_of(ref.start, ref.granularity.coarser(level)))


# -- generated KGs -------------------------------------------------------------------------------
def random_facts(rng: random.Random, n: int) -> list[tuple]:
    """(head, relation, tail, start, end, granularity), distinct by (head, relation, tail, start, end)."""
    facts: dict[tuple, tuple] = {}
    for _ in range(n):
        head, tail, relation = rng.choice(ENTITIES), rng.choice(ENTITIES), rng.choice(RELATIONS)
        level = rng.choice(LEVELS)
        first = span_of(date(2000, 1, 1) + timedelta(days=rng.randrange(8 * 365)), level)
        kind = rng.random()
        if kind < 0.4:  # a point at its granularity
            start, end = first.start, first.end
        else:
            last = span_of(first.start + timedelta(days=rng.randrange(4 * 365)), level)
            start, end = first.start, last.end
            if kind < 0.55:
                start = None
            elif kind < 0.7:
                end = None
            elif kind < 0.75:
                start = end = None  # no time at all
        facts.setdefault((head, relation, tail, start, end), (head, relation, tail, start, end, level.value))
    return list(facts.values())


def open_kg(facts: list[tuple], path: str = ":memory:", memory_index: bool = True) -> TKGStore:
    store = TKGStore.open(path, read_only=False, memory_index=memory_index)
    con = store.connection
    for i, name in enumerate(ENTITIES):
        con.execute("INSERT INTO entities VALUES (?, ?, ?, ?)", [i, name, name, normalize_name(name)])
    for i, name in enumerate(RELATIONS):
        con.execute("INSERT INTO relations VALUES (?, ?, ?)", [i, name, name])
    for head, relation, tail, start, end, level in facts:
        con.execute("INSERT INTO facts VALUES (?, ?, ?, ?, ?, ?)",
                    [ENTITIES.index(head), RELATIONS.index(relation), ENTITIES.index(tail), start, end, level])
    rebuild_layout(con)
    store.reload()
    return store


def random_span(rng: random.Random) -> TimeSpan:
    return span_of(date(1999, 6, 1) + timedelta(days=rng.randrange(13 * 365)), rng.choice(LEVELS))


def all_facts(store: TKGStore) -> list[Fact]:
    return store.facts()


def keys(items: list) -> set[tuple]:
    """Items or facts as comparable (start, end, granularity) + entity sets."""
    return {(getattr(i, "entity", None), i.start, i.end, i.granularity) for i in items}


def as_items(facts: list[Fact], side: str) -> set[tuple]:
    return {(getattr(f, side) if side else None, f.start, f.end, f.granularity) for f in facts}


EXAMPLES = settings(max_examples=40, deadline=None)


# -- the actions ---------------------------------------------------------------------------------
@EXAMPLES
@given(st.integers(0, 2**32 - 1))
def test_actions_agree_with_the_reference(seed: int) -> None:
    rng = random.Random(seed)
    with open_kg(random_facts(rng, rng.randrange(1, 40))) as store:
        facts = all_facts(store)
        x, y, r = rng.choice(ENTITIES), rng.choice(ENTITIES), rng.choice(RELATIONS)
        span, reference = random_span(rng), random_span(rng)
        out = [f for f in facts if f.head == x and f.relation == r]
        incoming = [f for f in facts if f.tail == x and f.relation == r]
        context = ActionContext()

        assert keys(GetTailEntity(x, r).execute(store, context)) == as_items(out, "tail")
        assert keys(GetTailEntity(x, r, span).execute(store, context)) == as_items(ref_within(out, span), "tail")
        assert keys(GetHeadEntity(x, r, span).execute(store, context)) == as_items(ref_within(incoming, span), "head")

        result = GetTailEntity(x, r).execute(store, context)
        step = context.with_result(result)
        assert keys(GetBefore(1, reference).execute(store, step)) == as_items(ref_before(out, reference), "tail")
        assert keys(GetAfter(1, reference).execute(store, step)) == as_items(ref_after(out, reference), "tail")
        assert keys(GetFirst(1).execute(store, step)) == as_items(ref_first(out), "tail")
        assert keys(GetLast(1).execute(store, step)) == as_items(ref_last(out), "tail")

        # a step's reference time and a same-period join with it
        timeline = [f for f in facts if f.head == x and f.relation == r and f.tail == y]
        times = context.with_result(GetTime(x, r, y).execute(store, context), GetTime(x, r, y))
        assert times.reference(1) == ref_reference(timeline)
        if times.reference(1) is not None:
            joined = ActionContext(results=times.results, granularity=rng.choice(LEVELS))
            expected = ref_same_period(out, times.reference(1), joined.join_granularity)
            assert keys(GetTailEntity(x, r, 1).execute(store, joined)) == as_items(expected, "tail")
            two = joined.with_result(result)
            assert keys(GetBefore(2, 1).execute(store, two)) == as_items(ref_before(out, times.reference(1)), "tail")
            assert keys(GetAfter(2, 1).execute(store, two)) == as_items(ref_after(out, times.reference(1)), "tail")


# -- the program search --------------------------------------------------------------------------
def expected_entity_shapes(facts: list[Fact], x: str, r: str, gold: set[str], span: TimeSpan) -> set[str]:
    shapes: set[str] = set()
    for side, key in (("tail", "head"), ("head", "tail")):
        rows = [f for f in facts if getattr(f, key) == x and f.relation == r]

        def hit(chosen: list[Fact], side: str = side) -> bool:
            return any(getattr(f, side) in gold for f in chosen)

        inside = ref_within(rows, span)
        checks = {
            "first": ref_first(rows), "last": ref_last(rows), "equal_time": inside,
            "equal_time_first": ref_first(inside), "equal_time_last": ref_last(inside),
            "before_time": ref_before(rows, span), "after_time": ref_after(rows, span),
        }
        shapes |= {shape for shape, chosen in checks.items() if hit(chosen)}
    return shapes


def expected_reference_shapes(facts: list[Fact], x: str, r: str, y: str, gold: set[str]) -> set[str]:
    shapes: set[str] = set()
    references = [ref_reference([f for f in facts if f.head == a and f.relation == r and f.tail == b])
                  for a, b in ((x, y), (y, x))]
    for side, key in (("tail", "head"), ("head", "tail")):
        rows = [f for f in facts if getattr(f, key) == x and f.relation == r]
        for ref in filter(None, references):
            before, after = ref_before(rows, ref), ref_after(rows, ref)
            checks = {"before_ref": before, "before_ref_last": ref_last(before),
                      "after_ref": after, "after_ref_first": ref_first(after)}
            checks |= {f"same_{level.value}": ref_same_period(rows, ref, level) for level in LEVELS}
            shapes |= {shape for shape, chosen in checks.items() if any(getattr(f, side) in gold for f in chosen)}
    return shapes


def expected_time_shapes(facts: list[Fact], x: str, r: str, y: str, gold: list[str]) -> set[str]:
    rows = [f for f in facts if f.head == x and f.relation == r and f.tail == y]

    def hit(chosen: list[Fact]) -> bool:
        return any(format_time(f.start or f.end, f.granularity.coarser(level)) == g  # type: ignore[arg-type]
                   for f in chosen if timed(f) for g in gold for level in LEVELS if len(g) == _LENGTH[level])

    checks = {"time": rows, "time_first": ref_first(rows), "time_last": ref_last(rows)}
    return {shape for shape, chosen in checks.items() if hit(chosen)}


_LENGTH = {Granularity.YEAR: 4, Granularity.MONTH: 7, Granularity.DAY: 10}


@EXAMPLES
@given(st.integers(0, 2**32 - 1))
def test_program_search_agrees_with_the_reference(seed: int) -> None:
    rng = random.Random(seed)
    with open_kg(random_facts(rng, rng.randrange(1, 40))) as store:
        facts = all_facts(store)
        search = ProgramSearch(store)
        x, y, r = rng.choice(ENTITIES), rng.choice([e for e in ENTITIES]), rng.choice(RELATIONS)
        gold = set(rng.sample(ENTITIES, rng.randrange(1, 3)))
        span = random_span(rng)

        hits = search.reaching([[x]], [span], sorted(gold), "entity", [r])
        assert {h.shape for h in hits} == expected_entity_shapes(facts, x, r, gold, span)

        if y != x:
            hits = search.reaching([[x], [y]], [], sorted(gold), "entity", [r])
            paired = {h.shape for h in hits if len(h.entities) == 2 and h.entities[0][0] == 0}
            assert paired == expected_reference_shapes(facts, x, r, y, gold)

            timeline = [f for f in facts if f.head == x and f.relation == r and f.tail == y and timed(f)]
            source = rng.choice(timeline) if timeline and rng.random() < 0.8 else None
            day = (source.start or source.end) if source else random_span(rng).start
            gold_times = [format_time(day, rng.choice(LEVELS))]  # type: ignore[arg-type]
            hits = search.reaching([[x], [y]], [], gold_times, "time", [r])
            found = {h.shape for h in hits if h.entities == ((0, 0), (1, 0))}
            assert found == expected_time_shapes(facts, x, r, y, gold_times)


def test_a_fact_without_time_matches_no_window() -> None:
    facts = [("A", "r1", "B", None, None, "year"), ("A", "r1", "C", date(2001, 1, 1), date(2001, 12, 31), "year")]
    with open_kg(facts) as store:
        span = span_of(date(2001, 5, 1), Granularity.MONTH)
        assert [f.tail for f in store.facts(head="A", within=span)] == ["C"]
        assert [n.neighbour for n in store.neighbourhood("A", within=span)] == ["C"]
        assert [i.entity for i in GetTailEntity("A", "r1").execute(store, ActionContext())] == ["B", "C"]


@pytest.mark.parametrize("memory_index", [True, False])
def test_relations_between_and_around(memory_index: bool) -> None:
    facts = [("A", "r1", "B", date(2001, 1, 1), date(2001, 1, 1), "day"), ("C", "r2", "A", None, None, "day")]
    with open_kg(facts, memory_index=memory_index) as store:
        assert store.relations_between("B", "A") == {"r1"}
        assert store.relations_between("A", "C") == {"r2"}
        assert store.relations_between("B", "C") == set()
        assert store.relations_of("A") == {"r1", "r2"}
        assert store.relations_of("nobody") == set()
