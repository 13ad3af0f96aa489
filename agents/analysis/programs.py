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
The reference time of a getTime step is its earliest fact, as in actions/.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

import numpy as np

from agents.analysis.graph import FactGraph
from tkg_store.store import TKGStore
from tkg_store.temporal import Granularity, TimeSpan, format_time, parse_time, span_of

_EPOCH = date(1970, 1, 1)


@dataclass(frozen=True, slots=True)
class ProgramHit:
    """One program that reaches a gold answer."""

    shape: str
    relation: str
    entities: tuple[tuple[int, int], ...]  # (mention index, candidate rank) of each entity used


def day_number(day: date) -> int:
    return (day - _EPOCH).days


def from_day_number(days: int) -> date:
    return _EPOCH + timedelta(days=int(days))


class ProgramSearch:
    """Finds the programs that reach gold answers; one per store."""

    def __init__(self, store: TKGStore, graph: FactGraph) -> None:
        self.graph = graph
        self._by_display: dict[str, set[int]] = {}
        for name, eid in graph.entity_id.items():
            self._by_display.setdefault(store.display(name), set()).add(eid)

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
            allowed = {self.graph.relation_id[r] for r in relations if r in self.graph.relation_id}
        linked = [
            (m, k, self.graph.entity_id[name])
            for m, names in enumerate(mentions)
            for k, name in enumerate(names)
            if name in self.graph.entity_id
        ]
        if answer_type == "time":
            return self._time_hits(linked, gold, allowed)
        return self._entity_hits(linked, times, gold, allowed)

    # -- entity answers ---------------------------------------------------------------------
    def _entity_hits(self, linked, times, gold, allowed) -> list[ProgramHit]:
        gold_ids = set().union(*(self._by_display.get(g, set()) for g in gold)) if gold else set()
        if not gold_ids:
            return []
        gold_array = np.fromiter(gold_ids, dtype=np.int64)
        spans = [(day_number(t.start), day_number(t.end)) for t in times]
        hits: list[ProgramHit] = []
        pair = self.graph.pairs
        for m, k, x in linked:
            rels = set()
            for g in gold_ids:
                rels |= pair.get((x, g), set()) | pair.get((g, x), set())
            if allowed is not None:
                rels &= allowed
            for r in sorted(rels):
                name = self.graph.relation_name[r]
                for grouped in (self.graph.by_head, self.graph.by_tail):
                    other, start, end = grouped.rows(x, r)
                    is_gold = np.isin(other, gold_array)
                    if not is_gold.any():
                        continue
                    for shape in _entity_shapes(start, end, is_gold, spans):
                        hits.append(ProgramHit(shape, name, ((m, k),)))
                    for m2, k2, y in linked:
                        if m2 == m:
                            continue
                        ref = self._reference(x, r, y)
                        if ref is None:
                            continue
                        for shape in _reference_shapes(start, end, is_gold, ref):
                            hits.append(ProgramHit(shape, name, ((m, k), (m2, k2))))
        return hits

    def _reference(self, x: int, r: int, y: int) -> int | None:
        """Earliest day of a fact (x, r, y) or (y, r, x)."""
        best = None
        for a, b in ((x, y), (y, x)):
            other, start, _ = self.graph.by_head.rows(a, r)
            mask = other == b
            if mask.any():
                day = int(start[mask].min())
                best = day if best is None else min(best, day)
        return best

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
                rels = self.graph.pairs.get((x, y), set())
                if allowed is not None:
                    rels = rels & allowed
                for r in sorted(rels):
                    other, start, _ = self.graph.by_head.rows(x, r)
                    days = start[other == y]
                    if not len(days):
                        continue
                    name = self.graph.relation_name[r]
                    entities = ((m, k), (m2, k2))
                    for shape, chosen in (("time", days), ("time_first", days[[days.argmin()]]), ("time_last", days[[days.argmax()]])):
                        if _any_time_matches(chosen, gold_by_level):
                            hits.append(ProgramHit(shape, name, entities))
        return hits


def _any_time_matches(days: np.ndarray, gold_by_level: dict[Granularity, set[str]]) -> bool:
    for day in set(days.tolist()):
        d = from_day_number(day)
        for level, wanted in gold_by_level.items():
            if format_time(d, level) in wanted:
                return True
    return False


def _ties(start: np.ndarray, mask: np.ndarray, earliest: bool) -> np.ndarray:
    """Rows that tie at the earliest (or latest) start among `mask`."""
    if not mask.any():
        return mask
    chosen = start[mask].min() if earliest else start[mask].max()
    return mask & (start == chosen)


def _entity_shapes(start, end, is_gold, spans) -> list[str]:
    shapes = []
    everything = np.ones(len(start), dtype=bool)
    if is_gold[_ties(start, everything, True)].any():
        shapes.append("first")
    if is_gold[_ties(start, everything, False)].any():
        shapes.append("last")
    for lo, hi in spans:
        inside = (start <= hi) & (end >= lo)
        if is_gold[inside].any():
            shapes.append("equal_time")
            if is_gold[_ties(start, inside, True)].any():
                shapes.append("equal_time_first")
            if is_gold[_ties(start, inside, False)].any():
                shapes.append("equal_time_last")
        if is_gold[end < lo].any():
            shapes.append("before_time")
        if is_gold[start > hi].any():
            shapes.append("after_time")
    return shapes


def _reference_shapes(start, end, is_gold, ref: int) -> list[str]:
    shapes = []
    before, after = end < ref, start > ref
    if is_gold[before].any():
        shapes.append("before_ref")
        if is_gold[_ties(start, before, False)].any():
            shapes.append("before_ref_last")
    if is_gold[after].any():
        shapes.append("after_ref")
        if is_gold[_ties(start, after, True)].any():
            shapes.append("after_ref_first")
    ref_day = from_day_number(ref)
    for level in (Granularity.DAY, Granularity.MONTH, Granularity.YEAR):
        period = span_of(ref_day, level)
        lo, hi = day_number(period.start), day_number(period.end)
        if is_gold[(start <= hi) & (end >= lo)].any():
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
