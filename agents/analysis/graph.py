"""All facts of a store in memory, grouped for the lookups analysis repeats thousands of times a second.

Relation linking asks "which relations connect these entities?" and the program search asks "which
tails does (X, r) reach, and when?". Issuing SQL for each costs ~1 ms; these tables answer in
microseconds. Built once per store and shared.
"""

from __future__ import annotations

from functools import cached_property
from pathlib import Path

import numpy as np

from tkg_store.store import TKGStore

_OPEN_START = np.iinfo(np.int32).min
_OPEN_END = np.iinfo(np.int32).max
_EPOCH = np.datetime64("1970-01-01", "D")


class FactGraph:
    """Facts as integer arrays sorted by (head, relation) and by (tail, relation); days since 1970.

    What answering needs (which relations link two entities, or touch one) is two sorted code arrays
    searched with numpy; the per-pair tables the program search walks (`by_head`, `by_tail`, `pairs`)
    are built on first use, so a cold `ari ask` does not pay for them."""

    def __init__(self, store: TKGStore) -> None:
        con = store.connection
        entities = con.execute("SELECT id, name FROM entities ORDER BY id").fetchall()
        relations = con.execute("SELECT id, name FROM relations ORDER BY id").fetchall()
        self.entity_id = {name: i for i, name in entities}
        self.entity_name = {i: name for i, name in entities}
        self.relation_id = {name: i for i, name in relations}
        self.relation_name = {i: name for i, name in relations}
        cols = con.execute("SELECT head, relation, tail, start_day, end_day FROM facts").fetchnumpy()
        self._head = np.asarray(cols["head"], dtype=np.int64)
        self._rel = np.asarray(cols["relation"], dtype=np.int64)
        self._tail = np.asarray(cols["tail"], dtype=np.int64)
        self._start = _days(cols["start_day"], _OPEN_START)
        self._end = _days(cols["end_day"], _OPEN_END)
        # codes: (head * E + tail) * R + relation, and entity * R + relation (either side), sorted and unique
        self._E = max((i for i, _ in entities), default=-1) + 1
        self._R = max((i for i, _ in relations), default=-1) + 1
        self._pair_codes = np.unique((self._head * self._E + self._tail) * self._R + self._rel)
        self._entity_codes = np.unique(
            np.concatenate((self._head * self._R + self._rel, self._tail * self._R + self._rel))
        )

    @cached_property
    def by_head(self) -> _Grouped:
        return _Grouped(self._head, self._rel, self._tail, self._start, self._end)

    @cached_property
    def by_tail(self) -> _Grouped:
        return _Grouped(self._tail, self._rel, self._head, self._start, self._end)

    @cached_property
    def pairs(self) -> dict[tuple[int, int], set[int]]:
        """(head id, tail id) -> relation ids."""
        pairs: dict[tuple[int, int], set[int]] = {}
        pair, rel = np.divmod(self._pair_codes, self._R)
        head, tail = np.divmod(pair, self._E)
        for h, t, r in zip(head.tolist(), tail.tolist(), rel.tolist()):
            pairs.setdefault((h, t), set()).add(r)
        return pairs

    def relations_of(self, entity: str) -> set[str]:
        """Relations of every fact the entity takes part in, either side."""
        eid = self.entity_id.get(entity)
        if eid is None:
            return set()
        return {self.relation_name[r] for r in _codes_in(self._entity_codes, eid * self._R, self._R)}

    def relations_between(self, a: str, b: str) -> set[str]:
        """Relations of facts linking a and b in either direction."""
        ia, ib = self.entity_id.get(a), self.entity_id.get(b)
        if ia is None or ib is None:
            return set()
        found: set[int] = set()
        for h, t in ((ia, ib), (ib, ia)):
            found.update(_codes_in(self._pair_codes, (h * self._E + t) * self._R, self._R))
        return {self.relation_name[r] for r in found}


def _codes_in(codes: np.ndarray, first: int, width: int) -> list[int]:
    """The offsets (code - first) of the sorted codes in [first, first + width)."""
    lo, hi = np.searchsorted(codes, [first, first + width])
    return (codes[lo:hi] - first).tolist()


class _Grouped:
    """Facts sorted by (key entity, relation) with the row range of each pair."""

    def __init__(self, key, rel, other, start, end) -> None:
        order = np.lexsort((start, other, rel, key))
        self.key, self.rel = key[order], rel[order]
        self.other, self.start, self.end = other[order], start[order], end[order]
        self.ranges: dict[tuple[int, int], tuple[int, int]] = {}
        if len(order):
            change = np.flatnonzero((np.diff(self.key) != 0) | (np.diff(self.rel) != 0)) + 1
            bounds = np.concatenate(([0], change, [len(order)]))
            for lo, hi in zip(bounds[:-1].tolist(), bounds[1:].tolist()):
                self.ranges[(int(self.key[lo]), int(self.rel[lo]))] = (lo, hi)

    def rows(self, key: int, rel: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(other entity, start day, end day) of every fact (key, rel, *)."""
        lo, hi = self.ranges.get((key, rel), (0, 0))
        return self.other[lo:hi], self.start[lo:hi], self.end[lo:hi]


def _days(values, open_value: int) -> np.ndarray:
    array = np.asarray(values)
    if np.ma.isMaskedArray(values):
        mask = np.ma.getmaskarray(values)
        array = np.asarray(values.filled(_EPOCH) if array.dtype.kind == "M" else values.filled(0))
    else:
        mask = np.zeros(len(array), dtype=bool)
    if array.dtype.kind != "M":
        array = array.astype("datetime64[D]")
    days = (array.astype("datetime64[D]") - _EPOCH).astype(np.int64)
    days[mask] = open_value
    return days


_CACHE: dict[str, FactGraph] = {}


def fact_graph(store: TKGStore) -> FactGraph:
    """One FactGraph per store file per process."""
    key = str(Path(store.path).resolve())
    if key not in _CACHE:
        _CACHE[key] = FactGraph(store)
    return _CACHE[key]
