"""FactIndex: a store's facts held in memory as sorted numpy columns, so a lookup is a binary search.

Why: DuckDB spends ~400 us on every query issued from Python, however few rows it touches, while a
pandas mask over MultiTQ takes ~23 ms; a 100x margin over pandas needs lookups of tens of
microseconds. So the integer `facts` table is read once, with one SQL query, when the store opens,
and kept as:

- the fact columns sorted by (head, relation, start, end, tail): a (head, relation) lookup is one
  slice found by `np.searchsorted` on a (head, relation) key, already in time order; a
  (head, relation, tail) lookup masks that slice by tail, which keeps the order;
- a permutation sorted by (tail, relation, start, end, head), with its (tail, relation) keys, for
  tail-side lookups;
- the 1-hop edge groups: one row per (entity, direction, relation, neighbour) with its fact count,
  grouped by entity and already in the order `TKGStore.neighbourhood` returns, so a neighbourhood
  without a window is one slice. With a window, the entity's facts are filtered and counted per
  (relation, neighbour).

Times are day numbers (days since 1970-01-01); an open start is the int32 minimum and an open end
the int32 maximum, so the SQL overlap test `(start IS NULL OR start <= w.end) AND (end IS NULL OR
end >= w.start)` becomes two comparisons. Day numbers become `datetime.date`s through a table of
the KG's distinct days (a few thousand), not one conversion per row.

Trade-off: memory and open time. For MultiTQ (461,329 facts) the arrays take 23.7 MiB and the
store's ready `Neighbour` objects (store.py) another ~23 MiB, 46.7 MiB of Python heap in all; building
both adds 0.30 s to opening the store (0.34 s against 0.04 s; benchmarks/results/store_bench.md).
Lookups then take 4-120 us at p50 instead of 0.5-2.3 ms. A KG too large for RAM opens with
`TKGStore.open(path, memory_index=False)`: every lookup is then one SQL query, nothing is held.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from functools import cached_property
from typing import NamedTuple

import duckdb
import numpy as np

from tkg_store.temporal import Granularity

START_OPEN = int(np.iinfo(np.int32).min)  # day number of an open (NULL) start
END_OPEN = int(np.iinfo(np.int32).max)  # day number of an open (NULL) end

_EPOCH = date(1970, 1, 1).toordinal()
# `_fact_order` in store.py sorts an open start as date.min and an open end as date.max: clipping the
# sentinels to those days gives exactly its order, even for a KG that states date.min itself.
_FIRST_DAY = date.min.toordinal() - _EPOCH
_LAST_DAY = date.max.toordinal() - _EPOCH
_GRANULARITIES = list(Granularity)
_DIRECTIONS = np.array(["in", "out"], dtype=object)  # code 0 sorts first, as "in" < "out"

_LOAD_SQL = """
    SELECT head, relation, tail,
           coalesce(CAST(start_day - DATE '1970-01-01' AS INTEGER), ?) AS start,
           coalesce(CAST(end_day - DATE '1970-01-01' AS INTEGER), ?) AS "end",
           CAST(list_position(?, granularity) - 1 AS TINYINT) AS granularity
    FROM facts"""

Window = tuple[int, int]  # first and last day number, both inclusive
# heads, relations, tails, starts, ends, granularities: parallel lists, one entry per fact.
FactColumns = tuple[list[str], list[str], list[str], list[date | None], list[date | None], list[Granularity]]
# relations, neighbours, directions ("in" | "out"), counts: parallel lists, one entry per edge group.
EdgeColumns = tuple[list[str], list[str], list[str], list[int]]


class Side(NamedTuple):
    """The facts (entity, relation, *) or (*, relation, entity) as arrays, in time order: the other
    entity's id, start and end day numbers (open ends as sentinels) and granularity codes."""

    other: np.ndarray
    start: np.ndarray
    end: np.ndarray
    granularity: np.ndarray


class Columns(NamedTuple):
    """The integer facts table as arrays; start/end are day numbers with open ends as sentinels."""

    head: np.ndarray
    relation: np.ndarray
    tail: np.ndarray
    start: np.ndarray
    end: np.ndarray
    granularity: np.ndarray  # index into list(Granularity)


def day_number(day: date) -> int:
    return day.toordinal() - _EPOCH


_DTYPES = {"head": np.int32, "relation": np.int32, "tail": np.int32, "start": np.int32, "end": np.int32,
           "granularity": np.int8}


def read_columns(con: duckdb.DuckDBPyConnection) -> Columns:
    """The facts table in one query (granularities as codes, so no string column crosses over)."""
    raw = con.execute(_LOAD_SQL, [START_OPEN, END_OPEN, [g.value for g in _GRANULARITIES]]).fetchnumpy()
    if np.ma.isMaskedArray(raw["granularity"]):
        raise ValueError(f"unknown granularity in facts (expected one of {[g.value for g in _GRANULARITIES]})")
    return Columns(*(np.asarray(raw[name], dtype=dtype) for name, dtype in _DTYPES.items()))


class FactIndex:
    """Every fact of one store in memory; lookups take integer ids and return names and dates."""

    def __init__(self, columns: Columns, entity_names: Mapping[int, str], relation_names: Mapping[int, str]) -> None:
        self._entity = _names_array(entity_names, columns.head, columns.tail)
        self._relation_name = _names_array(relation_names, columns.relation)
        self._n_relations = len(self._relation_name)
        order = sort_order(columns.head, columns.relation, *_time_keys(columns.start, columns.end), columns.tail)
        head, relation, tail, start, end, granularity = (column[order] for column in columns)
        self._head, self._relation, self._tail = head, relation, tail
        self._start, self._end, self._granularity = start, end, granularity
        self._head_key = self._key(head, relation)
        self._by_tail = sort_order(tail, relation, *_time_keys(start, end), head).astype(np.int32)
        self._tail_key = self._key(tail, relation)[self._by_tail]
        self._days, self._dates = _day_table(start, end)
        self._granularities = np.array(_GRANULARITIES, dtype=object)
        self._entity_rank = _ranks(self._entity)
        self._relation_rank = _ranks(self._relation_name)
        self._edges, self._edge_offsets = self._edge_groups()

    @classmethod
    def load(cls, con: duckdb.DuckDBPyConnection, entity_names: Mapping[int, str],
             relation_names: Mapping[int, str]) -> "FactIndex":
        return cls(read_columns(con), entity_names, relation_names)

    def __len__(self) -> int:
        return len(self._head)

    @property
    def nbytes(self) -> int:
        """Bytes held by the index's arrays (name strings are shared with the store, not counted)."""
        arrays = [value for value in vars(self).values() if isinstance(value, np.ndarray)]
        return sum(a.nbytes for a in arrays) + sum(a.nbytes for a in self._edges)

    # -- facts -------------------------------------------------------------------------------
    def facts(self, head: int | None = None, relation: int | None = None, tail: int | None = None,
              window: Window | None = None) -> FactColumns:
        """Facts matching every given id and overlapping `window`, in `_fact_order` time order."""
        positions, in_time_order = self._positions(head, relation, tail)
        if window is not None:
            positions = positions[self._overlapping(positions, window)]
        if not in_time_order:
            positions = positions[self._time_order(positions)]
        return (
            self._entity[self._head[positions]].tolist(),
            self._relation_name[self._relation[positions]].tolist(),
            self._entity[self._tail[positions]].tolist(),
            self.dates(self._start[positions]),
            self.dates(self._end[positions]),
            self._granularities[self._granularity[positions]].tolist(),
        )

    def dates(self, days: np.ndarray) -> list[date | None]:
        """Day numbers as dates (None for an open end), through the table of the KG's days."""
        return self._dates[np.searchsorted(self._days, days)].tolist()

    def side(self, entity: int, relation: int, as_head: bool) -> Side:
        """The facts (entity, relation, *) when `as_head`, else (*, relation, entity), as arrays in
        time order: what the program search compares with `actions.semantics`' array rules."""
        if as_head:
            lo, hi = self._range(self._head_key, entity, relation)
            return Side(self._tail[lo:hi], self._start[lo:hi], self._end[lo:hi], self._granularity[lo:hi])
        lo, hi = self._range(self._tail_key, entity, relation)
        rows = self._by_tail[lo:hi]
        return Side(self._head[rows], self._start[rows], self._end[rows], self._granularity[rows])

    def relations_between(self, a: int, b: int) -> set[int]:
        """Ids of the relations of facts linking entities a and b, in either direction."""
        keys, relations = self._pairs
        found: set[int] = set()
        for key in (a * len(self._entity) + b, b * len(self._entity) + a):
            lo, hi = np.searchsorted(keys, key, "left"), np.searchsorted(keys, key, "right")
            found.update(relations[lo:hi].tolist())
        return found

    def relations_of(self, entity: int) -> set[int]:
        """Ids of the relations of every fact the entity takes part in, either side."""
        lo, hi = self.neighbour_range(entity)
        return set(np.unique(self._edges.relation[lo:hi]).tolist())

    @cached_property
    def _pairs(self) -> tuple[np.ndarray, np.ndarray]:
        """(head * entities + tail) keys, sorted, with each distinct key's relations: a pair lookup
        is a binary search. Built on first use (relation linking and the program search ask)."""
        key = self._head.astype(np.int64) * len(self._entity) + self._tail
        order = sort_order(key, self._relation)
        key, relation = key[order], self._relation[order]
        keep = np.concatenate(([True], (key[1:] != key[:-1]) | (relation[1:] != relation[:-1]))) if len(key) else key
        return key[keep], relation[keep]

    def _positions(self, head: int | None, relation: int | None, tail: int | None) -> tuple[np.ndarray, bool]:
        """Rows matching the ids, and whether they already come in time order."""
        if head is not None:
            lo, hi = self._range(self._head_key, head, relation)
            positions = np.arange(lo, hi)
            if tail is not None:
                positions = positions[self._tail[lo:hi] == tail]
            return positions, relation is not None
        if tail is not None:
            lo, hi = self._range(self._tail_key, tail, relation)
            return self._by_tail[lo:hi], relation is not None
        if relation is not None:
            return np.flatnonzero(self._relation == relation), False
        return np.arange(len(self._head)), False

    def _key(self, entity: np.ndarray, relation: np.ndarray) -> np.ndarray:
        return entity.astype(np.int64) * self._n_relations + relation

    def _range(self, keys: np.ndarray, entity: int, relation: int | None) -> tuple[int, int]:
        """The run of sorted `keys` for one entity (and relation)."""
        if relation is None:
            first, last = entity * self._n_relations, (entity + 1) * self._n_relations - 1
        else:
            first = last = entity * self._n_relations + relation
        return int(np.searchsorted(keys, first, "left")), int(np.searchsorted(keys, last, "right"))

    def _overlapping(self, positions: np.ndarray, window: Window) -> np.ndarray:
        """Facts sharing a day with the window; a fact with no time at all shares none."""
        start, end = self._start[positions], self._end[positions]
        return (start <= window[1]) & (end >= window[0]) & ((start != START_OPEN) | (end != END_OPEN))

    def _time_order(self, positions: np.ndarray) -> np.ndarray:
        """`_fact_order`: start, end, then head, relation, tail ids."""
        start, end = _time_keys(self._start[positions], self._end[positions])
        return _row_order(start, end, self._head[positions], self._relation[positions], self._tail[positions])

    # -- neighbourhood ---------------------------------------------------------------------------
    def neighbours(self, entity: int, window: Window | None = None) -> EdgeColumns:
        """The entity's (relation, neighbour, direction) groups with fact counts, ordered by -count,
        direction, relation name, neighbour name (as `TKGStore.neighbourhood` returns them)."""
        if window is None:
            lo, hi = self.neighbour_range(entity)
            return self._edge_columns(Edges(*(column[lo:hi] for column in self._edges)))
        return self._edge_columns(self._windowed_edges(entity, window))

    def neighbour_range(self, entity: int) -> tuple[int, int]:
        """Where the entity's groups lie in `all_neighbours()`."""
        return int(self._edge_offsets[entity]), int(self._edge_offsets[entity + 1])

    def all_neighbours(self) -> EdgeColumns:
        """Every entity's groups without a window, entity after entity (see `neighbour_range`)."""
        return self._edge_columns(self._edges)

    def _edge_columns(self, edges: "Edges") -> EdgeColumns:
        return (
            self._relation_name[edges.relation].tolist(),
            self._entity[edges.neighbour].tolist(),
            _DIRECTIONS[edges.direction].tolist(),
            edges.n_facts.tolist(),
        )

    def _edge_groups(self) -> tuple["Edges", np.ndarray]:
        """Every entity's groups, both directions, in neighbourhood order; and where each entity's start."""
        order = sort_order(self._head, self._relation, self._tail)
        head, relation, tail, count = _runs(self._head[order], self._relation[order], self._tail[order])
        out_edges = Edges(head, relation, tail, np.ones(len(head), np.int8), count)
        in_edges = Edges(tail, relation, head, np.zeros(len(head), np.int8), count)
        edges = self._ordered(Edges(*(np.concatenate(pair) for pair in zip(out_edges, in_edges))))
        offsets = np.searchsorted(edges.entity, np.arange(len(self._entity) + 1, dtype=edges.entity.dtype))
        return edges, offsets.astype(np.int64)

    def _windowed_edges(self, entity: int, window: Window) -> "Edges":
        lo, hi = self._range(self._head_key, entity, None)
        outgoing = np.arange(lo, hi)
        outgoing = outgoing[self._overlapping(outgoing, window)]
        lo, hi = self._range(self._tail_key, entity, None)
        incoming = self._by_tail[lo:hi]
        incoming = incoming[self._overlapping(incoming, window)]
        parts = [self._count_groups(entity, self._relation[outgoing], self._tail[outgoing], 1),
                 self._count_groups(entity, self._relation[incoming], self._head[incoming], 0)]
        return self._ordered(Edges(*(np.concatenate(pair) for pair in zip(*parts))))

    def _count_groups(self, entity: int, relation: np.ndarray, neighbour: np.ndarray, direction: int) -> "Edges":
        """Facts of one direction counted per (relation, neighbour)."""
        n_entities = len(self._entity)
        keys, counts = np.unique(relation.astype(np.int64) * n_entities + neighbour, return_counts=True)
        size = len(keys)
        return Edges(np.full(size, entity, np.int32), (keys // n_entities).astype(np.int32),
                     (keys % n_entities).astype(np.int32), np.full(size, direction, np.int8), counts.astype(np.int32))

    def _ordered(self, edges: "Edges") -> "Edges":
        order = _row_order(edges.entity, -edges.n_facts, edges.direction, self._relation_rank[edges.relation],
                           self._entity_rank[edges.neighbour])
        return Edges(*(column[order] for column in edges))


class Edges(NamedTuple):
    """Edge groups as parallel arrays; direction 1 = out (entity is the head), 0 = in."""

    entity: np.ndarray
    relation: np.ndarray
    neighbour: np.ndarray
    direction: np.ndarray
    n_facts: np.ndarray  # facts in the group (a field named `count` would hide tuple.count)


def sort_order(*columns: np.ndarray) -> np.ndarray:
    """Positions that sort the rows by `columns`, most significant first: np.lexsort's answer, faster.

    Integer columns (each with a range below 2**63) are packed, value - min scaled by the ranges of
    the columns after it, into as few int64 keys as hold them; the keys are then sorted least
    significant first with a stable argsort, as a radix sort does. On MultiTQ this is ~5x faster than
    np.lexsort, which sorts once per column.
    """
    size = len(columns[0])
    keys: list[np.ndarray] = []
    key, span = np.zeros(size, np.int64), 1
    for column in reversed(columns):
        low, high = (int(column.min()), int(column.max())) if size else (0, 0)
        if span * (high - low + 1) >= 2**63:
            keys.append(key)
            key, span = np.zeros(size, np.int64), 1
        key += (column.astype(np.int64) - low) * span
        span *= high - low + 1
    keys.append(key)
    order = np.argsort(keys[0], kind="stable")
    for key in keys[1:]:
        order = order[np.argsort(key[order], kind="stable")]
    return order


def _row_order(*columns: np.ndarray) -> np.ndarray:
    """`sort_order` for many rows; np.lexsort, whose fixed cost is lower, for the few a lookup sorts."""
    return sort_order(*columns) if len(columns[0]) > 2048 else np.lexsort(columns[::-1])


def _time_keys(start: np.ndarray, end: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Start and end as `_fact_order` compares them (open ends as date.min / date.max)."""
    return np.maximum(start, _FIRST_DAY), np.minimum(end, _LAST_DAY)


def _runs(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Run-length encode rows sorted by (a, b, c): each distinct row once, with its count."""
    if len(a) == 0:
        return a, b, c, np.zeros(0, np.int32)
    starts = np.flatnonzero(np.concatenate(([True], (a[1:] != a[:-1]) | (b[1:] != b[:-1]) | (c[1:] != c[:-1]))))
    counts = np.diff(np.append(starts, len(a))).astype(np.int32)
    return a[starts], b[starts], c[starts], counts


def _names_array(names: Mapping[int, str], *used: np.ndarray) -> np.ndarray:
    """Names indexed by id, as an object array (numpy picks many names in one step)."""
    size = max([max(names, default=-1) + 1, *(int(ids.max()) + 1 for ids in used if len(ids))])
    array = np.full(size, "", dtype=object)
    for key, name in names.items():
        array[key] = name
    return array


def _ranks(names: np.ndarray) -> np.ndarray:
    """Each id's position among the names sorted as Python compares strings."""
    listed = names.tolist()
    ranks = np.empty(len(listed), np.int32)
    ranks[sorted(range(len(listed)), key=listed.__getitem__)] = np.arange(len(listed), dtype=np.int32)
    return ranks


def _day_table(start: np.ndarray, end: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The KG's distinct day numbers (sorted) and their dates (None for the open-end sentinels)."""
    days = np.unique(np.concatenate((start, end, [START_OPEN, END_OPEN]))).astype(np.int32)
    dates = np.array([None if d in (START_OPEN, END_OPEN) else date.fromordinal(d + _EPOCH) for d in days.tolist()],
                     dtype=object)
    return days, dates
