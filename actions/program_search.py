"""Which short action programs over a question's linked candidates reach a known answer.

Used twice: to learn which relations a question's wording means (a relation that reaches a gold
answer through some program is evidence for it), and by the linking benchmark to measure the ceiling
of the whole agent (if no program over the linked candidates reaches the answer, no decider can).

The shapes are MultiTQ's, each at most 5 steps (answer included):
  neighbours(X, r[, T])                          equal
  neighbours(X, r) -> before/after(T)            before_after with a time
  neighbours(X, r[, T]) -> first/last            first_last, equal_multi with a time
  getTime(X, r, Y) -> neighbours(X, r) -> before/after(#1) [-> first/last]   before_after, after_first, before_last
  getTime(X, r, Y) -> neighbours(X, r, same day|month|year as #1)            equal_multi
  getTime(X, r, Y) [-> first/last]               time answers
Every temporal comparison is `actions.semantics`' (its array form over the store's `FactIndex`
rows): the same rules the actions execute, for point events and `start, end` intervals alike. A
getTime step is directional, as the action is: (X, r, Y) and (Y, r, X) are two programs, each with
its own reference time (its earliest fact).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

import numpy as np

from actions import semantics
from actions.items import Item
from ari.base.errors import StoreError
from tkg_store.fact_index import END_OPEN, START_OPEN, Side
from tkg_store.store import TKGStore
from tkg_store.temporal import Granularity, TimeSpan, format_time, parse_time

_EPOCH = date(1970, 1, 1).toordinal()
_GRANULARITIES = list(Granularity)  # the fact index's granularity codes
_JOIN_LEVELS = (Granularity.DAY, Granularity.MONTH, Granularity.YEAR)


@dataclass(frozen=True, slots=True)
class ProgramHit:
    """One program that reaches a gold answer."""

    shape: str
    relation: str
    entities: tuple[tuple[int, int], ...]  # (mention index, candidate rank) of each entity used


class ProgramSearch:
    """Finds the programs that reach gold answers, over one store's in-memory fact index."""

    def __init__(self, store: TKGStore) -> None:
        if store.fact_index is None:
            raise StoreError("the program search needs the in-memory fact index (open the store with memory_index=True)")
        self.store = store
        self.index = store.fact_index
        self._by_display: dict[str, set[int]] = {}
        for name in store.entity_names():
            self._by_display.setdefault(store.display(name), set()).add(store.entity_id(name))  # type: ignore[arg-type]

    def reaching(
        self,
        mentions: list[list[str]],
        times: list[TimeSpan],
        gold: list[str],
        answer_type: str,
        relations: list[str] | None = None,
    ) -> list[ProgramHit]:
        """Every program (of the shapes above) over these candidates that yields a gold answer.

        `mentions` holds each mention's ranked candidate entities; `relations` the allowed relations
        (None: any relation of the KG).
        """
        allowed = None
        if relations is not None:
            allowed = {i for i in map(self.store.relation_id, relations) if i is not None}
        linked = [
            (m, k, eid)
            for m, names in enumerate(mentions)
            for k, name in enumerate(names)
            if (eid := self.store.entity_id(name)) is not None
        ]
        self._sides: dict[tuple[int, int, bool], Side] = {}  # one question's lookups, asked repeatedly
        if answer_type == "time":
            return self._time_hits(linked, gold, allowed)
        return self._entity_hits(linked, times, gold, allowed)

    def _side(self, entity: int, relation: int, as_head: bool) -> Side:
        key = (entity, relation, as_head)
        if key not in self._sides:
            self._sides[key] = self.index.side(entity, relation, as_head)
        return self._sides[key]

    # -- entity answers ---------------------------------------------------------------------
    def _entity_hits(self, linked, times, gold, allowed) -> list[ProgramHit]:
        gold_ids = set().union(*(self._by_display.get(g, set()) for g in gold)) if gold else set()
        if not gold_ids:
            return []
        gold_list = sorted(gold_ids)
        windows = [semantics.window_of(t) for t in times]
        hits: list[ProgramHit] = []
        references: dict[tuple[int, int, int], list] = {}
        for m, k, x in linked:
            rels: set[int] = set()
            for g in gold_ids:
                rels |= self.index.relations_between(x, g)
            if allowed is not None:
                rels &= allowed
            for r in sorted(rels):
                name = self.store.relation_name(r)
                for as_head in (True, False):
                    rows = self._side(x, r, as_head)
                    is_gold = _among(rows.other, gold_list)
                    if not is_gold.any():
                        continue
                    for shape in _entity_shapes(rows, is_gold, windows):
                        hits.append(ProgramHit(shape, name, ((m, k),)))
                    for m2, k2, y in linked:
                        if m2 == m:
                            continue
                        if (x, r, y) not in references:
                            references[(x, r, y)] = self._references(x, r, y)
                        shapes = [s for ref in references[(x, r, y)] for s in _reference_shapes(rows, is_gold, ref)]
                        for shape in dict.fromkeys(shapes):
                            hits.append(ProgramHit(shape, name, ((m, k), (m2, k2))))
        return hits

    def _references(self, x: int, r: int, y: int) -> list[tuple[semantics.Window, Granularity]]:
        """The reference time of getTime(x, r, y) and of getTime(y, r, x), where they have one."""
        references = []
        for a, b in ((x, y), (y, x)):
            rows = _facts_between(self._side(a, r, True), b)
            reference = semantics.reference_window(rows.start, rows.end, rows.granularity)
            if reference is not None:
                references.append((reference[0], _GRANULARITIES[reference[1]]))
        return references

    # -- time answers -----------------------------------------------------------------------
    def _time_hits(self, linked, gold, allowed) -> list[ProgramHit]:
        gold_by_level: dict[Granularity, set[str]] = {}
        for g in gold:
            try:
                span = parse_time(g)
            except Exception:
                continue
            gold_by_level.setdefault(span.granularity, set()).add(format_time(span.start, span.granularity))
        if not gold_by_level:
            return []
        hits = []
        for m, k, x in linked:
            for m2, k2, y in linked:
                if m2 == m:
                    continue
                rels = self.index.relations_between(x, y)
                if allowed is not None:
                    rels &= allowed
                for r in sorted(rels):
                    rows = _facts_between(self._side(x, r, True), y)
                    if not len(rows.other):
                        continue
                    name = self.store.relation_name(r)
                    entities = ((m, k), (m2, k2))
                    every = np.ones(len(rows.other), dtype=bool)
                    for shape, chosen in (
                        ("time", every),
                        ("time_first", semantics.first_mask(rows.start, rows.end, every)),
                        ("time_last", semantics.last_mask(rows.start, rows.end, every)),
                    ):
                        if _any_time_matches(rows, chosen, gold_by_level, held_last=shape == "time_last"):
                            hits.append(ProgramHit(shape, name, entities))
        return hits


def _among(ids: np.ndarray, wanted: list[int]) -> np.ndarray:
    """ids == any of `wanted` (a gold answer has one or a few entities: cheaper than np.isin)."""
    mask = ids == wanted[0]
    for other in wanted[1:]:
        mask |= ids == other
    return mask


def _facts_between(rows: Side, other: int) -> Side:
    keep = rows.other == other
    return Side(*(column[keep] for column in rows))


def _date(day: int) -> date | None:
    return None if day in (START_OPEN, END_OPEN) else date.fromordinal(day + _EPOCH)


def _any_time_matches(rows: Side, chosen: np.ndarray, gold_by_level: dict[Granularity, set[str]], held_last: bool = False) -> bool:
    """Whether a chosen row's time (after `last`: its last granule), as the answer formats it at
    some gold granularity, is gold."""
    for start, end, code in set(zip(rows.start[chosen].tolist(), rows.end[chosen].tolist(), rows.granularity[chosen].tolist())):
        item = Item(None, _date(start), _date(end), _GRANULARITIES[code])
        item = semantics.last_held(item) if held_last else item
        for level, wanted in gold_by_level.items():
            if semantics.format_item_time(item, level) in wanted:
                return True
    return False


def _entity_shapes(rows: Side, is_gold: np.ndarray, windows: list[semantics.Window]) -> list[str]:
    start, end = rows.start, rows.end
    every = np.ones(len(start), dtype=bool)
    shapes = []
    if is_gold[semantics.first_mask(start, end, every)].any():
        shapes.append("first")
    if is_gold[semantics.last_mask(start, end, every)].any():
        shapes.append("last")
    for window in windows:
        inside = semantics.within_mask(start, end, window)
        if is_gold[inside].any():
            shapes.append("equal_time")
            if is_gold[semantics.first_mask(start, end, inside)].any():
                shapes.append("equal_time_first")
            if is_gold[semantics.last_mask(start, end, inside)].any():
                shapes.append("equal_time_last")
        if is_gold[semantics.before_mask(start, end, window)].any():
            shapes.append("before_time")
        if is_gold[semantics.after_mask(start, end, window)].any():
            shapes.append("after_time")
    return shapes


def _reference_shapes(rows: Side, is_gold: np.ndarray, reference: tuple[semantics.Window, Granularity]) -> list[str]:
    start, end = rows.start, rows.end
    window, granularity = reference
    shapes = []
    before = semantics.before_mask(start, end, window)
    after = semantics.after_mask(start, end, window)
    if is_gold[before].any():
        shapes.append("before_ref")
        if is_gold[semantics.last_mask(start, end, before)].any():
            shapes.append("before_ref_last")
    if is_gold[after].any():
        shapes.append("after_ref")
        if is_gold[semantics.first_mask(start, end, after)].any():
            shapes.append("after_ref_first")
    span = TimeSpan(_date(window[0]) or date.min, _date(window[1]) or date.max, granularity)
    for level in _JOIN_LEVELS:
        period = semantics.window_of(semantics.period_of(span, level))
        if is_gold[semantics.within_mask(start, end, period)].any():
            shapes.append(f"same_{level.value}")
    return shapes


# Which program shapes realise each MultiTQ pattern (per answer type), for pattern-consistent checks.
SHAPES_BY_PATTERN: dict[tuple[str, str], frozenset[str]] = {
    ("equal", "entity"): frozenset({"equal_time"}),
    ("equal", "time"): frozenset({"time"}),
    ("before_after", "entity"): frozenset({"before_time", "after_time", "before_ref", "after_ref"}),
    ("first_last", "entity"): frozenset({"first", "last"}),
    ("first_last", "time"): frozenset({"time_first", "time_last"}),
    ("equal_multi", "entity"): frozenset({"same_day", "same_month", "same_year", "equal_time_first", "equal_time_last"}),
    ("after_first", "entity"): frozenset({"after_ref_first"}),
    ("before_last", "entity"): frozenset({"before_ref_last"}),
}
