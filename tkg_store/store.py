"""TKGStore: read access to one temporal KG kept in a DuckDB file.

Entity and relation names are held in memory (id <-> name) so every lookup works on integer ids.
By default the facts themselves are held in memory too (`tkg_store/fact_index.py`): `facts` and
`neighbourhood` are then binary searches over numpy arrays, tens of microseconds where one DuckDB
query from Python costs ~0.5 ms. `TKGStore.open(path, memory_index=False)` keeps every lookup in
SQL, for KGs too large for RAM (the index costs memory and time at open). By default
(`memory_index=None`, or ARI_MEMORY_INDEX=auto) a store of at most MEMORY_INDEX_MAX_FACTS facts is
indexed and a larger one is not; ARI_MEMORY_INDEX=on or off decides for every store.
All SQL is assembled from fixed clauses chosen by which arguments were given; user or LLM text only
ever reaches DuckDB as a bound parameter.
"""

from __future__ import annotations

import gc
import hashlib
import os
import re
import sys
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from datetime import date
from functools import partial
from itertools import combinations
from pathlib import Path
from types import MappingProxyType
from typing import NamedTuple, TypeVar

import duckdb

from ari.base.errors import StoreError
from ari.base.text import normalize_name
from tkg_store.fact_index import EdgeColumns, FactIndex, Window, day_number
from tkg_store.memo import Memo
from tkg_store.schema import DDL, INDEXES, SCHEMA_VERSION, one_row
from tkg_store.temporal import OPEN_END, OPEN_START, Granularity, TimeSpan

T = TypeVar("T")

# Above this many facts a store opens without the in-memory fact index (every lookup one SQL
# query, ~0.5 ms, a few dozen a question). The index is read and sorted at every open, so its cost
# grows with the KG: 0.34 s of a quiet machine's open at MultiTQ's 461,329 facts
# (benchmarks/results/store_bench.md), 5x that at 2.3M facts (5.6 s against 29.1 s, 23 against
# 118 MiB of arrays, on a loaded machine; without the index 0.5 and 2.0 s). At one million
# facts the index adds ~0.75 s and ~50 MiB to every cold start, and beyond it the start-up would
# outgrow the few seconds a cold `ari ask` has.
MEMORY_INDEX_MAX_FACTS = 1_000_000

class Fact(NamedTuple):
    """One temporal fact; `start`/`end` are None where the source leaves the interval open.
    (A named tuple: lookups build thousands per question, and a tuple is built in C.)"""

    head: str
    relation: str
    tail: str
    start: date | None
    end: date | None
    granularity: Granularity


_new_fact = partial(tuple.__new__, Fact)  # Fact(*row) without the named tuple's Python-level __new__: 40% less per fact


@dataclass(frozen=True, slots=True)
class Neighbour:
    """One (relation, neighbour, direction) edge group of an entity's 1-hop subgraph."""

    relation: str
    neighbour: str
    direction: str  # "out": entity is the head; "in": entity is the tail
    count: int


def display_name(name: str) -> str:
    """MultiTQ names use underscores for spaces (the gold answers use spaces)."""
    return name.replace("_", " ")


# a note that tells namesakes apart: a Wikidata id ("Minister of Foreign Affairs (Q15710855)") or, as
# Wikipedia titles do, words with no capital letter ("8 (play)", "Hawiye (ethnic)", "(1940 film)"); a
# capitalised one names a party the entity belongs to ("Police (Iraq)"): a qualifier (agents.analysis.names)
_NOTED = re.compile(r"^(?P<base>[^()]*?\w[^()]*?) \((?P<note>Q\d+|[^A-Z()]+)\)$")


def noted(display: str) -> bool:
    """Whether the name ends in a note that tells namesakes apart (no qualifier)."""
    return _NOTED.match(display) is not None


def namesake_base(display: str) -> str | None:
    """The name an entity shares with its namesakes, without the note that tells them apart; None
    when its name has no such note, or the rest is too short to name anything ("8" of "8 (play)")."""
    match = _NOTED.match(display)
    base = match.group("base").strip() if match else ""
    return base if len(base) >= 3 and not base.isdigit() else None


_FACT_COLUMNS = "head, relation, tail, start_day, end_day, granularity"
# A fact overlaps a window [?, ?] (end, start bound in that order); a fact with no time overlaps none.
_SQL_WINDOW = ("(start_day IS NULL OR start_day <= ?) AND (end_day IS NULL OR end_day >= ?)"
               " AND (start_day IS NOT NULL OR end_day IS NOT NULL)")
_GRANULARITY = {g.value: g for g in Granularity}  # a dict lookup is several times faster than Granularity(text)


class TKGStore:
    """One temporal KG. Open with `TKGStore.open(path)`; use as a context manager to close it.

    Everything computed from the store's contents is owned by the store and rebuilt (or dropped)
    by `reload()`: the fact index, the bounded `memo` of repeated queries, and the `derived`
    objects that layers above build once per store (name vectors, entity linkers, candidate
    filters). No module keeps per-store state of its own.
    """

    def __init__(self, path: Path, connection: duckdb.DuckDBPyConnection, memory_index: bool = True) -> None:
        self.path = path
        self._con = connection
        self._memory_index = memory_index
        self._index: FactIndex | None = None
        self._neighbours: dict[int, list[Neighbour]] = {}  # with the index: each asked entity's Neighbours, see reload()
        self.memo = Memo()
        """Repeated read-only queries (neighbourhoods, candidate blocks, the time range); see memo.py."""
        self._derived: dict[Hashable, object] = {}
        # Schema 2 keeps a copy of the facts sorted by tail; older stores serve tail lookups from `facts`.
        version = connection.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        self._tail_table = "facts_by_tail" if version is not None and int(version[0]) >= 2 else "facts"
        self.reload()

    # -- opening ---------------------------------------------------------------------------
    @classmethod
    def open(cls, path: str | Path, read_only: bool = True, memory_index: bool | None = None) -> "TKGStore":
        """Open a store; `memory_index` holds its facts in memory for fast lookups (see fact_index.py);
        None decides by ARI_MEMORY_INDEX, else by size (`wants_memory_index`)."""
        path = Path(path)
        if read_only and not path.exists():
            raise StoreError(f"no KG store at {path} (build one with `ari ingest`)")
        try:
            con = duckdb.connect(str(path), read_only=read_only)
        except duckdb.Error as exc:
            raise StoreError(f"cannot open KG store {path}: {_first_line(exc)}") from None
        try:
            if not read_only:
                create_schema(con)
            _check_schema(con, path)
            con.execute("SET threads = 1")  # point lookups: thread start-up costs more than it saves
        except BaseException:
            con.close()
            raise
        try:
            return cls(path, con, memory_index=wants_memory_index(con) if memory_index is None else memory_index)
        except BaseException:
            con.close()
            raise

    def close(self) -> None:
        self._con.close()

    def __enter__(self) -> "TKGStore":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def connection(self) -> duckdb.DuckDBPyConnection:
        """The DuckDB connection; after writing facts through it, call `reload()`."""
        return self._con

    @property
    def fact_index(self) -> FactIndex | None:
        """The in-memory fact index (None when opened with memory_index=False)."""
        return self._index

    def derived(self, key: Hashable, build: Callable[[], T]) -> T:
        """An object built once from this store's contents (`build()`), kept until `reload()`.

        Layers above the store hang their per-store state here (keyed by what else it depends on,
        e.g. ("name_vectors", embedder name)), so it is built once and never outlives the facts.
        """
        if key not in self._derived:
            self._derived[key] = build()
        return self._derived[key]  # type: ignore[return-value]

    def _load_names(self) -> None:
        rows = self._con.execute("SELECT id, name, display FROM entities ORDER BY id").fetchall()
        self._entity_name: dict[int, str] = {r[0]: r[1] for r in rows}
        self._entity_display: dict[int, str] = {r[0]: r[2] for r in rows}
        self._entity_id: dict[str, int] = {r[1]: r[0] for r in rows}
        rels = self._con.execute("SELECT id, name, text FROM relations ORDER BY id").fetchall()
        self._relation_name: dict[int, str] = {r[0]: r[1] for r in rels}
        self._relation_text: dict[str, str] = {r[1]: r[2] for r in rels}
        self._relation_id: dict[str, int] = {r[1]: r[0] for r in rels}

    # -- names -----------------------------------------------------------------------------
    def has_entity(self, name: str) -> bool:
        return name in self._entity_id

    def has_relation(self, name: str) -> bool:
        return name in self._relation_id

    def entity_names(self) -> list[str]:
        return list(self._entity_id)

    def relation_names(self) -> list[str]:
        return list(self._relation_id)

    def entity_id(self, name: str) -> int | None:
        return self._entity_id.get(name)

    def relation_id(self, name: str) -> int | None:
        return self._relation_id.get(name)

    def entity_name(self, entity_id: int) -> str:
        return self._entity_name[entity_id]

    def relation_name(self, relation_id: int) -> str:
        return self._relation_name[relation_id]

    def display(self, entity: str) -> str:
        """The human form of an entity name (as gold answers write it)."""
        eid = self._entity_id.get(entity)
        return self._entity_display[eid] if eid is not None else display_name(entity)

    def entities_displayed(self, display: str) -> list[str]:
        """The KG names shown as `display` (`display(name) == display`), in id order; several
        names may read alike. With the fact index (a store small enough to hold in memory) from a
        table of every display text, built once: a dict lookup per answer, as `ari serve` wants.
        Without it, one indexed query (`entities_by_display`; a store written before the index
        scans the column): building that table cost a cold process 1 s at 230k names."""
        if self._index is not None:
            return list(self.derived(("names_by_display",), self._names_by_display).get(display, ()))
        return self.memo.get(("displayed", display), lambda: [
            r[0] for r in self._con.execute("SELECT name FROM entities WHERE display = ? ORDER BY id", [display]).fetchall()])

    def _names_by_display(self) -> dict[str, list[str]]:
        names: dict[str, list[str]] = {}
        for eid, name in self._entity_name.items():  # id order
            names.setdefault(self._entity_display[eid], []).append(name)
        return names

    def entity_rows(self) -> Mapping[str, int] | None:
        """Name -> position in `entity_names()`, when the ids are those positions (0, 1, ...: every
        store ARI writes numbers its names so); else None. A read-only view, built at no cost."""
        count = len(self._entity_id)
        if count and (min(self._entity_name) != 0 or max(self._entity_name) != count - 1):
            return None
        return MappingProxyType(self._entity_id)

    def relation_text(self, relation: str) -> str:
        return self._relation_text.get(relation, display_name(relation))

    def find_entities(self, text: str, limit: int = 10) -> list[str]:
        """Entities whose name matches `text` exactly, then after normalisation, then as a substring."""
        if text in self._entity_id:
            return [text]
        key = normalize_name(text)
        if not key:
            return []
        rows = self._con.execute(
            """SELECT name FROM entities
               WHERE normalized = ? OR normalized LIKE '%' || ? || '%'
               ORDER BY (normalized = ?) DESC, length(normalized), name LIMIT ?""",
            [key, key, key, limit],
        ).fetchall()
        return [r[0] for r in rows]

    # -- facts -----------------------------------------------------------------------------
    def facts(
        self,
        head: str | None = None,
        relation: str | None = None,
        tail: str | None = None,
        within: TimeSpan | None = None,
    ) -> list[Fact]:
        """Facts matching every given part; `within` keeps facts whose interval overlaps the span.

        Returned in time order (start, then end; an open start counts as earliest, an open end as latest).
        An unknown name matches nothing (it is not an error: the agent asks about arbitrary text).
        """
        ids: list[int | None] = []
        for value, known in ((head, self._entity_id), (relation, self._relation_id), (tail, self._entity_id)):
            key = None if value is None else known.get(value)
            if value is not None and key is None:
                return []
            ids.append(key)
        head_id, relation_id, tail_id = ids
        if self._index is not None:
            return list(map(_new_fact, zip(*self._index.facts(head_id, relation_id, tail_id, window=_window(within)))))
        return self._sql_facts(head_id, relation_id, tail_id, within=within)

    def _sql_facts(
        self, head: int | None, relation: int | None, tail: int | None, within: TimeSpan | None
    ) -> list[Fact]:
        clauses: list[str] = []
        params: list[object] = []
        for column, key in (("head", head), ("relation", relation), ("tail", tail)):
            if key is not None:
                clauses.append(f"{column} = ?")
                params.append(key)
        if within is not None:
            clauses.append(_SQL_WINDOW)
            params += [within.end, within.start]
        where = " AND ".join(clauses) if clauses else "TRUE"
        table = self._tail_table if head is None and tail is not None else "facts"
        rows = self._con.execute(f"SELECT {_FACT_COLUMNS} FROM {table} WHERE {where}", params).fetchall()
        rows.sort(key=_fact_order)  # in Python: cheaper than an SQL sort for the few rows a lookup returns
        return [self._fact(row) for row in rows]

    def sample_facts(self, n: int, seed: int = 0) -> list[Fact]:
        """`n` facts drawn at random, the same ones for the same seed (questions a store asks itself)."""
        rows = self._con.execute(
            f"SELECT {_FACT_COLUMNS} FROM facts USING SAMPLE reservoir({int(n)} ROWS) REPEATABLE ({int(seed)})"
        ).fetchall()
        rows.sort(key=_fact_order)
        return [self._fact(row) for row in rows]

    def _fact(self, row: tuple) -> Fact:
        h, r, t, start, end, gran = row
        return Fact(
            self._entity_name[h], self._relation_name[r], self._entity_name[t], start, end, _GRANULARITY[gran]
        )

    def neighbourhood(self, entity: str, within: TimeSpan | None = None) -> list[Neighbour]:
        """The 1-hop subgraph of `entity`: (relation, neighbour, direction) with fact counts."""
        eid = self._entity_id.get(entity)
        if eid is None:
            return []
        if self._index is None:
            return self._sql_neighbourhood(eid, within)
        if within is None:
            known = self._neighbours.get(eid)
            if known is None:
                known = self._neighbours[eid] = _neighbour_list(self._index.neighbours(eid))
            return list(known)
        return list(map(Neighbour, *self._index.neighbours(eid, _window(within))))

    def _sql_neighbourhood(self, eid: int, within: TimeSpan | None) -> list[Neighbour]:
        window = ""
        params: list[object] = [eid, eid]
        if within is not None:
            window = "AND " + _SQL_WINDOW
            params = [eid, within.end, within.start, eid, within.end, within.start]
        rows = self._con.execute(
            f"""SELECT relation, tail, 'out', count(*) FROM facts WHERE head = ? {window} GROUP BY relation, tail
                UNION ALL
                SELECT relation, head, 'in', count(*) FROM {self._tail_table} WHERE tail = ? {window}
                GROUP BY relation, head""",
            params,
        ).fetchall()
        result = [
            Neighbour(self._relation_name[r], self._entity_name[n], d, int(c)) for r, n, d, c in rows
        ]
        result.sort(key=lambda n: (-n.count, n.direction, n.relation, n.neighbour))
        return result

    def relations_between(self, a: str, b: str) -> set[str]:
        """Relations of the facts linking a and b, in either direction."""
        ia, ib = self._entity_id.get(a), self._entity_id.get(b)
        if ia is None or ib is None:
            return set()
        if self._index is not None:
            return {self._relation_name[r] for r in self._index.relations_between(ia, ib)}
        rows = self._con.execute(
            "SELECT DISTINCT relation FROM facts WHERE (head = ? AND tail = ?) OR (head = ? AND tail = ?)",
            [ia, ib, ib, ia],
        ).fetchall()
        return {self._relation_name[r[0]] for r in rows}

    def relations_of(self, entity: str) -> set[str]:
        """Relations of every fact the entity takes part in, either side."""
        eid = self._entity_id.get(entity)
        if eid is None:
            return set()
        if self._index is not None:
            return {self._relation_name[r] for r in self._index.relations_of(eid)}
        rows = self._con.execute(
            f"SELECT relation FROM facts WHERE head = ? UNION SELECT relation FROM {self._tail_table} WHERE tail = ?",
            [eid, eid],
        ).fetchall()
        return {self._relation_name[r[0]] for r in rows}

    def neighbours_through(self, names: list[str], relations: list[str]) -> set[str]:
        """The entities linked to `names` by `relations`; with no names, every entity of those relations."""
        if names:
            return {n.neighbour for name in names for n in self.neighbourhood(name) if n.relation in relations}
        return set().union(*(self.memo.get(("relation-entities", r), partial(self.relation_entities, r)) for r in relations))

    def relations_linking(self, mentions: list[list[str]], per_mention: int) -> list[str]:
        """Relations linking candidates (entity names, best first) of two different mentions; else those around any
        candidate (the first `per_mention` of each); else every relation."""
        linked = [names[:per_mention] for names in mentions if names]
        between = set().union(*(self.relations_between(x, y) for a, b in combinations(linked, 2) for x in a for y in b))
        if between:
            return sorted(between)
        around = set().union(*(self.relations_of(name) for names in linked for name in names))
        return sorted(around) if around else sorted(self.relation_names())

    def relation_entities(self, relation: str) -> frozenset[str]:
        """Every entity of a fact of `relation`, either side (none for an unknown relation)."""
        rid = self._relation_id.get(relation)
        if rid is None:
            return frozenset()
        rows = self._con.execute("SELECT head FROM facts WHERE relation = ? UNION SELECT tail FROM facts WHERE relation = ?", [rid, rid]).fetchall()
        return frozenset(self._entity_name[r[0]] for r in rows)

    # -- KG-wide ---------------------------------------------------------------------------
    def entity_fact_counts(self) -> dict[str, int]:
        """Facts each entity takes part in (as head or tail); entities without facts are absent."""
        rows = self._con.execute(
            """SELECT e.name, count(*) FROM (SELECT head AS id FROM facts UNION ALL SELECT tail FROM facts) f
               JOIN entities e ON e.id = f.id GROUP BY e.name"""
        ).fetchall()
        return {name: int(count) for name, count in rows}

    def sample_displays(self, n: int, seed: int = 0) -> list[str]:
        """`n` entities' display names drawn at random, the same ones for the same seed."""
        rows = self._con.execute(
            f"SELECT display FROM entities USING SAMPLE reservoir({int(n)} ROWS) REPEATABLE ({int(seed)})"
        ).fetchall()
        return [row[0] for row in rows]

    def time_range(self) -> TimeSpan | None:
        """The days the KG covers (None for an empty KG); see `facts_time_range`."""
        return facts_time_range(self._con)

    def counts(self) -> dict[str, int]:
        return {
            "entities": len(self._entity_id),
            "relations": len(self._relation_id),
            "facts": one_row(self._con, "SELECT count(*) FROM facts")[0],
        }

    def meta(self) -> dict[str, str]:
        return dict(self._con.execute("SELECT key, value FROM meta ORDER BY key").fetchall())

    def identity(self) -> dict[str, str | int]:
        """What tells this KG from another wherever its file lies: its source, counts and a digest
        of its entity and relation names (a memory records the KG it was learned on by it)."""
        return self.derived(("identity",), self._identity)

    def _identity(self) -> dict[str, str | int]:
        from tkg_store.saved import saved  # saved.py builds on this module

        # a cold `ari ask` checks its memory's KG by this; sorting and hashing 230k names took it
        # 0.2 s, so the digest is saved beside the store like the other per-store tables
        names = saved(self, "names-digest", self._names_digest, [sys.modules[__name__]])
        return {"source": self.meta().get("source", ""), **self.counts(), "names": names}

    def _names_digest(self) -> str:
        # each name and a newline, hashed as one text (one update per name cost twice the time)
        text = "\n".join([*sorted(self._entity_id), "", *sorted(self._relation_id)]) + "\n"
        return hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]

    def reload(self) -> None:
        """Re-read names and rebuild the fact index after the store was written (ingest); the memo
        and every derived object are dropped, to be rebuilt from the new facts when next asked."""
        self.memo = Memo()
        self._derived = {}
        self._load_names()
        if self._memory_index:
            self._index = FactIndex.load(self._con, self._entity_name, self._relation_name)
            # Each entity's neighbourhood is kept as ready objects once asked for: building ~600
            # objects per call would cost more than the 100x budget over pandas.
            self._neighbours = {}


def _neighbour_list(columns: EdgeColumns) -> list[Neighbour]:
    """One entity's neighbours as ready objects (frozen, so shared safely), built on its first lookup
    and kept: a later lookup is a list copy. Building all 333k of MultiTQ up front cost a cold start
    ~0.4 s. The garbage collector is paused meanwhile: it would only re-scan the new objects, which
    hold no cycles."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return list(map(Neighbour, *columns))
    finally:
        if was_enabled:
            gc.enable()


def _window(within: TimeSpan | None) -> Window | None:
    return None if within is None else (day_number(within.start), day_number(within.end))


def _fact_order(row: tuple) -> tuple:
    """Facts in time order: by start (an open start first), end (an open end last), then ids."""
    h, r, t, start, end, _ = row
    return (start or date.min, end or date.max, h, r, t)


def create_schema(con: duckdb.DuckDBPyConnection) -> None:
    for statement in DDL:
        con.execute(statement)
    for statement in INDEXES:
        con.execute(statement)
    con.execute(
        "INSERT INTO meta VALUES ('schema_version', ?) ON CONFLICT (key) DO NOTHING", [str(SCHEMA_VERSION)]
    )


def wants_memory_index(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether a store opened without saying should hold its facts in memory: ARI_MEMORY_INDEX
    (on | off | auto), and for auto whether it has at most MEMORY_INDEX_MAX_FACTS facts (DuckDB
    counts a table's rows from its metadata, at no cost that grows with it)."""
    setting = os.environ.get("ARI_MEMORY_INDEX", "auto")
    if setting not in ("auto", "on", "off"):
        raise StoreError(f"ARI_MEMORY_INDEX must be auto, on or off, not {setting!r}")
    if setting != "auto":
        return setting == "on"
    return one_row(con, "SELECT count(*) FROM facts")[0] <= MEMORY_INDEX_MAX_FACTS


def _check_schema(con: duckdb.DuckDBPyConnection, path: Path) -> None:
    tables = {r[0] for r in con.execute("SELECT table_name FROM information_schema.tables").fetchall()}
    missing = {"entities", "relations", "facts", "meta"} - tables
    if missing:
        raise StoreError(f"{path} is not an ARI KG store (missing tables: {', '.join(sorted(missing))})")
    version = con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    if version is None or int(version[0]) > SCHEMA_VERSION:
        raise StoreError(f"{path} was written by a newer ARI (schema {version and version[0]})")


def _first_line(exc: BaseException) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__



def facts_time_range(con: duckdb.DuckDBPyConnection) -> TimeSpan | None:
    """The days the facts cover, None when there are none. A fact with a start and no end is still
    true, as the lookups treat it, so the range then runs on to OPEN_END (and back to OPEN_START for
    an end with no start): a question about a later time is inside the KG, not outside it."""
    lo, hi, open_end, open_start = one_row(
        con,
        "SELECT min(coalesce(start_day, end_day)), max(coalesce(end_day, start_day)), "
        "bool_or(start_day IS NOT NULL AND end_day IS NULL), bool_or(end_day IS NOT NULL AND start_day IS NULL) "
        "FROM facts",
    )
    if lo is None:
        return None
    return TimeSpan(OPEN_START if open_start else lo, OPEN_END if open_end else hi, Granularity.DAY)
