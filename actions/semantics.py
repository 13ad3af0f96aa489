"""The exact temporal semantics of ARI's actions, as pure functions over item lists.

The decider only chooses an action; these functions decide what it means. The rules:

* A time constraint matches at its own granularity: "2005" is the whole year, "2005-11" the month,
  "2005-11-03" the day. An item matches a constraint when its interval shares at least one day with
  the constraint's span, so "in 2000" matches an interval that overlaps 2000 (`within`).
* Open interval ends (None, CronQuestions) count as minus infinity (open start) and plus infinity
  (open end). An item with neither end (no time at all) takes part in no time comparison.
* before(ref): the item STARTED before the reference's first day (it began before). At the
  reference's granularity this means "before 2008-05" = starts on or before 2008-04-30.
* after(ref): the item STARTED after the reference's last day: "after 2008-05" = starts on or after
  2008-06-01. An item with an open start never counts as after anything.
* between(t1, t2) is inclusive: the item's interval overlaps [earliest start, latest end] of the
  two times; for day points (MultiTQ) this is "inside".
* first: every item tying at the earliest start. last: the latest time held, the latest end (an
  open end is still held: plus infinity), ties broken by the latest start; every item tying at
  that (end, start) is returned, each cut to its last granule (year, month or day: a year interval
  1990-1995 becomes 1995). An interval is held in each of its years (CronQuestions' generator
  splits each fact into one fact per year), so "the last year X was Y", "the last team X played
  for" and "when did the last Y come to power" all mean the latest year held. On day points
  (MultiTQ) start and end are one day and nothing changes. Results are in KG order (time, then the
  source's own order within a time), so first keeps the tying items in that order and last
  reverses it: on the last day, the event recorded last is the last one.
* When the reference is a step result with several times, the reference is its EARLIEST time (the
  first time the referenced event happened): the earliest-starting item's interval, at that item's
  granularity (`reference_span`).
* during(reference items): the items whose interval shares at least one day with the interval of
  some timed reference item (CronQuestions' time_join, "who played for Y while X did": every
  holder whose years meet any of X's holdings of Y; open ends as above). On day points it keeps
  the items on a reference's day.
* Same-period joins (MultiTQ equal_multi: "in the same month as ...") take the reference's
  period at the join granularity (never finer than the reference's own) and keep the items that
  overlap it (`same_period`).
* Answers are formatted at the granularity the question asks, never finer than the item's own
  (`answer_texts`).

Counting, ranking and picking the n-th (the shapes of "how many", "most often", "the second time")
go by DAYS: each fact is an event reported on a day, and an item's day is its start (an open start
is one day of its own, before every other; an item with no time has no day). So:

* count_days: the number of distinct days with an item; count_entities: the number of distinct
  entities (items without an entity, pure times, are not counted).
* most / least: entities ranked by the number of distinct days they have an item on; every item of
  every entity tying at the top (bottom) is kept. Only entities with at least one day take part.
* most / least over periods ("which year did X visit Y the most"): the years (months) ranked by the
  number of distinct days with an item in them; every item of every period tying at the top
  (bottom) is kept, so the answer, formatted at that granularity, is the period(s). Only periods
  with at least one day take part (a period with none is no answer of "least"), and an item with an
  open start has no period.
* nth(n): the items on the n-th distinct day from the start (from the end: the n-th latest), every
  item of that day kept, in KG order from the start and reversed from the end (as first / last).
  nth(1) is `first`; nth(1) from the end is `last` on day points (on intervals `last` goes by the
  latest time held): a day is a start, whatever the end.
* exclude / keep_entities: the items whose entity is not the given one / is one of the given ones
  (a pure time has no entity: exclude keeps it, keep_entities drops it).

Every function returns a new list without duplicates (same entity and interval once), keeps the
input order where it does not sort, and maps an empty input to an empty list.

Why before/after compare STARTS (not Allen's "ends before the reference starts"): an interval KG
states years, and a predecessor's term usually ends in the year its successor's begins
(CronQuestions: "who held the post before X?"); "ended strictly before" would drop exactly the
answer. On point events (MultiTQ) both readings coincide.

The same rules exist in a second form, over numpy arrays of day numbers (`*_mask`, used by the
program search over `FactIndex` rows, where building Items would cost too much): open starts are
`START_OPEN` and open ends `END_OPEN`, as the fact index stores them, and a fact with both ends
open has no time. tests/test_semantics_property.py checks both forms against a brute-force
reading of these rules on generated interval KGs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Container, Iterable
from datetime import date

import numpy as np

from actions.items import Item
from tkg_store.fact_index import END_OPEN, START_OPEN, day_number
from tkg_store.temporal import Granularity, TimeSpan, format_time, span_of

_MIN = date.min
_MAX = date.max


def dedupe(items: Iterable[Item]) -> list[Item]:
    """Items in first-seen order, each (entity, interval, granularity) once."""
    return list(dict.fromkeys(items))


def is_timed(item: Item) -> bool:
    return item.start is not None or item.end is not None


def start_of(item: Item) -> date:
    """The item's first day; an open start is minus infinity."""
    return item.start if item.start is not None else _MIN


def end_of(item: Item) -> date:
    """The item's last day; an open end is plus infinity."""
    return item.end if item.end is not None else _MAX


def within(items: Iterable[Item], span: TimeSpan) -> list[Item]:
    """Items whose interval shares at least one day with `span` (a time constraint)."""
    lo, hi = span.start, span.end  # (inlined: list operations run on every candidate enumeration)
    return dedupe(
        i for i in items
        if (i.start is not None or i.end is not None) and (i.start is None or i.start <= hi) and (i.end is None or i.end >= lo)
    )


def before(items: Iterable[Item], reference: TimeSpan) -> list[Item]:
    """Items that started strictly before the reference's first day (an open start always did)."""
    lo = reference.start
    return dedupe(i for i in items if (i.start < lo if i.start is not None else i.end is not None and _MIN < lo))


def after(items: Iterable[Item], reference: TimeSpan) -> list[Item]:
    """Items that started strictly after the reference's last day (open starts never do)."""
    return dedupe(i for i in items if i.start is not None and i.start > reference.end)


def between(items: Iterable[Item], t1: TimeSpan, t2: TimeSpan) -> list[Item]:
    """Items inside [t1, t2] inclusive, the two times taken in either order."""
    lo = min(t1.start, t2.start)
    hi = max(t1.end, t2.end)
    return within(items, TimeSpan(lo, hi, t1.granularity.coarser(t2.granularity)))


def during(items: Iterable[Item], references: Iterable[Item]) -> list[Item]:
    """Items whose interval shares at least one day with some timed reference item's interval."""
    spans = sorted((start_of(r), end_of(r)) for r in references if is_timed(r))
    return dedupe(i for i in items if is_timed(i) and any(lo <= end_of(i) and start_of(i) <= hi for lo, hi in spans))


def first(items: Iterable[Item]) -> list[Item]:
    """Every item tying at the earliest start."""
    # start_of / is_timed inlined: the program search runs this on every partial program
    timed = [i for i in items if i.start is not None or i.end is not None]
    if not timed:
        return []
    starts = [_MIN if i.start is None else i.start for i in timed]
    earliest = min(starts)
    return dedupe(i for i, start in zip(timed, starts) if start == earliest)


def last(items: Iterable[Item]) -> list[Item]:
    """Every item tying at the latest end (the latest time held), ties broken by the latest
    start, each cut to its last granule (`last_held`); the tying items in reverse input order (a
    result is in KG order, so the one recorded last comes first)."""
    timed = [i for i in items if i.start is not None or i.end is not None]
    if not timed:
        return []
    spans = [(_MAX if i.end is None else i.end, _MIN if i.start is None else i.start) for i in timed]
    latest = max(spans)
    return dedupe(last_held(i) for i, span in zip(reversed(timed), reversed(spans)) if span == latest)


def last_held(item: Item) -> Item:
    """The item in the last granule it holds (its end's year, month or day); an open end is held
    still, with no last granule: the item as it is."""
    if item.end is None:
        return item
    start = span_of(item.end, item.granularity).start
    if item.start is not None and item.start >= start:
        return item
    return item._replace(start=start)


def day_of(item: Item) -> date:
    """A timed item's day, for counting and ranking: its start (an open start is date.min)."""
    return item.start if item.start is not None else _MIN


def days(items: Iterable[Item]) -> set[date]:
    """The distinct days of the timed items."""
    return {_MIN if i.start is None else i.start for i in items if i.start is not None or i.end is not None}


def count_days(items: Iterable[Item]) -> int:
    return len(days(items))


def count_entities(items: Iterable[Item]) -> int:
    return len({i.entity for i in items if i.entity is not None})


def nth(items: Iterable[Item], n: int, from_end: bool = False) -> list[Item]:
    """Every item on the n-th distinct day (1-based), counted from the start or from the end."""
    # day_of / is_timed inlined: enumeration sizes six of these over every earlier result
    timed = [i for i in items if i.start is not None or i.end is not None]
    starts = [_MIN if i.start is None else i.start for i in timed]
    ordered = sorted(set(starts), reverse=from_end)
    if not 1 <= n <= len(ordered):
        return []
    day = ordered[n - 1]
    on_day = [i for i, start in zip(timed, starts) if start == day]
    return dedupe(reversed(on_day) if from_end else on_day)


def days_per_entity(items: Iterable[Item]) -> dict[str, int]:
    """Entity -> the number of distinct days it has an item on (entities without a day left out)."""
    seen = {(i.entity, _MIN if i.start is None else i.start) for i in items
            if i.entity is not None and (i.start is not None or i.end is not None)}
    counts: dict[str, int] = {}
    for entity, _ in seen:
        counts[entity] = counts.get(entity, 0) + 1
    return counts


def most(items: Iterable[Item]) -> list[Item]:
    """The items of the entities on the most distinct days (ties all kept)."""
    return _extreme_entities(list(items), max)


def least(items: Iterable[Item]) -> list[Item]:
    """The items of the entities on the fewest distinct days, among those on any (ties all kept)."""
    return _extreme_entities(list(items), min)


def _extreme_entities(items: list[Item], pick: Callable[[Iterable[int]], int]) -> list[Item]:
    counts = days_per_entity(items)
    if not counts:
        return []
    chosen = pick(counts.values())
    return dedupe(i for i in items if i.entity is not None and counts.get(i.entity) == chosen)


def most_periods(items: Iterable[Item], granularity: Granularity, fewest: bool = False) -> list[Item]:
    """The items in the periods (years or months) with the most (fewest) distinct days of an item, ties all kept."""
    dated = [(i, span_of(i.start, granularity).start) for i in items if i.start is not None]
    counts = Counter(period for period, _ in {(period, i.start) for i, period in dated})  # a period's distinct days
    if not counts:
        return []
    chosen = (min if fewest else max)(counts.values())
    return dedupe(i for i, period in dated if counts[period] == chosen)


def exclude(items: Iterable[Item], entity: str) -> list[Item]:
    """The items whose entity is not `entity`."""
    return dedupe(i for i in items if i.entity != entity)


def keep_entities(items: Iterable[Item], names: Container[str]) -> list[Item]:
    """The items whose entity is one of `names`."""
    return dedupe(i for i in items if i.entity is not None and i.entity in names)


def value(text: str) -> list[Item]:
    """The one-item result of an action that produces a value (a count, "Yes" / "No"): its text as
    the entity, no time."""
    return [Item(text, None, None)]


def reference_span(items: Iterable[Item]) -> TimeSpan | None:
    """The earliest time of a step result, as a span at that item's granularity (None: no time).

    Open ends become date.min / date.max, so before an open-started reference nothing is, and
    after an open-ended one nothing is.
    """
    timed = [i for i in items if i.start is not None or i.end is not None]
    if not timed:
        return None
    earliest = min(timed, key=lambda i: (_MIN if i.start is None else i.start, _MAX if i.end is None else i.end))
    return TimeSpan(start_of(earliest), end_of(earliest), earliest.granularity)


def period_of(reference: TimeSpan, granularity: Granularity) -> TimeSpan:
    """The day / month / year containing the reference's first day, never finer than the reference."""
    return span_of(reference.start, reference.granularity.coarser(granularity))


def same_period(items: Iterable[Item], reference: TimeSpan, granularity: Granularity) -> list[Item]:
    """Items in the same day / month / year as the reference (MultiTQ equal_multi joins)."""
    return within(items, period_of(reference, granularity))


def format_item_time(item: Item, granularity: Granularity | None) -> str | None:
    """An item's time as an answer string: its start (or its end when the start is open)."""
    day = item.start if item.start is not None else item.end
    if day is None:
        return None
    level = item.granularity if granularity is None else item.granularity.coarser(granularity)
    return format_time(day, level)


def answer_texts(items: Iterable[Item], answer_type: str, granularity: Granularity | None = None) -> list[str]:
    """The answer strings of a final result: KG entity names, or times at the asked granularity.

    Entities are returned as KG names (`store.display` turns them into the gold form); duplicates
    are dropped and the input order is kept.
    """
    answers: list[str] = []
    for item in items:
        text = item.entity if answer_type == "entity" else format_item_time(item, granularity)
        if text is not None and text not in answers:
            answers.append(text)
    return answers


# -- the same rules over arrays of day numbers ---------------------------------------------------
# start / end: int arrays of day numbers (open ends as START_OPEN / END_OPEN); a window is the
# (first, last) day numbers of a span, open ends kept as the sentinels (`window_of`).
Window = tuple[int, int]


def window_of(span: TimeSpan) -> Window:
    """A span as day numbers; date.min / date.max (open reference ends) become the sentinels."""
    lo = START_OPEN if span.start == _MIN else day_number(span.start)
    hi = END_OPEN if span.end == _MAX else day_number(span.end)
    return lo, hi


def timed_mask(start: np.ndarray, end: np.ndarray) -> np.ndarray:
    """Rows with a time (at least one end stated)."""
    return (start != START_OPEN) | (end != END_OPEN)


def within_mask(start: np.ndarray, end: np.ndarray, window: Window) -> np.ndarray:
    """`within`: timed rows sharing a day with the window."""
    return timed_mask(start, end) & (start <= window[1]) & (end >= window[0])


def before_mask(start: np.ndarray, end: np.ndarray, reference: Window) -> np.ndarray:
    """`before`: timed rows that started strictly before the reference's first day."""
    return timed_mask(start, end) & (start < reference[0])


def after_mask(start: np.ndarray, end: np.ndarray, reference: Window) -> np.ndarray:
    """`after`: rows with a stated start strictly after the reference's last day."""
    return (start != START_OPEN) & (start > reference[1])


def first_mask(start: np.ndarray, end: np.ndarray, among: np.ndarray) -> np.ndarray:
    """`first` of the rows in `among`: the timed ones tying at the earliest start."""
    among = among & timed_mask(start, end)
    if not among.any():
        return among
    return among & (start == start[among].min())


def last_mask(start: np.ndarray, end: np.ndarray, among: np.ndarray) -> np.ndarray:
    """`last` of the rows in `among`: the timed ones tying at the latest end, then latest start
    (a row's time is then its last granule, `last_held`)."""
    among = among & timed_mask(start, end)
    if not among.any():
        return among
    latest = end[among].max()
    among = among & (end == latest)
    return among & (start == start[among].max())


def reference_window(start: np.ndarray, end: np.ndarray, granularity: np.ndarray) -> tuple[Window, int] | None:
    """`reference_span` of rows: the earliest (start, then end) timed row's window and its
    granularity code (None: no row has a time)."""
    earliest = first_mask(start, end, np.ones(len(start), dtype=bool))
    if not earliest.any():
        return None
    row = int(np.flatnonzero(earliest & (end == end[earliest].min()))[0])
    return (int(start[row]), int(end[row])), int(granularity[row])
