"""Bulk-loading parsed facts into a store in one transaction.

Loaders (multitq.py, cronquestions.py, tsv.py) only parse: they fill a `ParsedKG`. This module
maps names to integer ids in Python (dedupe by name), hands DuckDB whole numpy columns through a
DataFrame (no row-by-row inserts), dedupes facts by (head, relation, tail, start, end) against
the store with an anti-join, re-sorts the lookup tables and updates the metadata, all inside one
transaction: any failure leaves an existing store exactly as it was, and a store that did not
exist before is not left behind.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd

from ari.base.errors import StoreError
from tkg_store.schema import DDL, ROW_GROUP_SIZE, SCHEMA_VERSION, one_row, rebuild_layout
from tkg_store.store import display_name, facts_time_range, normalize_name
from tkg_store.temporal import OPEN_END, OPEN_START, Granularity, TimeSpan

_EPOCH = date(1970, 1, 1).toordinal()
_OPEN = np.iinfo(np.int32).min  # sentinel for an open (NULL) interval end in the int columns
_GRAN_CODE = {Granularity.DAY: 0, Granularity.MONTH: 1, Granularity.YEAR: 2}


@dataclass
class ParsedKG:
    """Facts read from one dataset, still as names; one list entry per fact line."""

    source: str  # multitq | cronquestions | tsv
    paths: list[Path]
    heads: list[str] = field(default_factory=list)
    relations: list[str] = field(default_factory=list)
    tails: list[str] = field(default_factory=list)
    starts: list[date | None] = field(default_factory=list)
    ends: list[date | None] = field(default_factory=list)
    granularities: list[Granularity] = field(default_factory=list)
    entity_display: dict[str, str] = field(default_factory=dict)  # names whose display is not display_name()
    relation_text: dict[str, str] = field(default_factory=dict)
    entity_order: list[str] = field(default_factory=list)  # official id order, may name fact-less entities
    relation_order: list[str] = field(default_factory=list)
    skipped: int = 0  # malformed lines skipped (skip_bad)
    skipped_examples: list[str] = field(default_factory=list)
    # Each distinct name once: a reader splits a new string out of every line, and 10M facts'
    # 30M strings held 2 GB where their 230k distinct names need a few MB.
    _names: dict[str, str] = field(default_factory=dict, repr=False, compare=False)

    def add(self, head: str, relation: str, tail: str, start: date | None, end: date | None, granularity: Granularity) -> None:
        names = self._names
        self.heads.append(names.setdefault(head, head))
        self.relations.append(names.setdefault(relation, relation))
        self.tails.append(names.setdefault(tail, tail))
        self.starts.append(start)
        self.ends.append(end)
        self.granularities.append(granularity)

    def __len__(self) -> int:
        return len(self.heads)


@dataclass(frozen=True)
class IngestSummary:
    """What one ingest added, and the store's totals afterwards."""

    source: str
    paths: list[str]
    facts_read: int
    entities_added: int
    relations_added: int
    facts_added: int
    skipped_lines: int
    entities: int
    relations: int
    facts: int
    time_range: TimeSpan | None
    elapsed_s: float
    skipped_examples: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {
            "source": self.source,
            "paths": self.paths,
            "facts_read": self.facts_read,
            "entities_added": self.entities_added,
            "relations_added": self.relations_added,
            "facts_added": self.facts_added,
            "skipped_lines": self.skipped_lines,
            "entities": self.entities,
            "relations": self.relations,
            "facts": self.facts,
            "time_start": self.time_range.start.isoformat() if self.time_range else None,
            "time_end": self.time_range.end.isoformat() if self.time_range else None,
            "elapsed_s": round(self.elapsed_s, 3),
            "skipped_examples": self.skipped_examples,
        }


Step = Callable[[], None]


def write_kg(parsed: ParsedKG, db: Path, steps: Callable[[list[tuple[str, Step]]], None] | None = None) -> IngestSummary:
    """Append `parsed` to the store at `db` (created if missing) in one transaction.

    `steps` runs the named write phases (the CLI wraps it in a progress bar); by default they run in order.
    """
    started = time.perf_counter()
    db = Path(db)
    existed = db.exists()
    con = _connect_for_write(db)
    state: dict[str, int] = {}
    phases: list[tuple[str, Step]] = [
        ("schema", lambda: _create_schema(con, db)),
        ("entities", lambda: state.update(_add_names(con, parsed))),
        ("facts", lambda: state.update(facts_added=_add_facts(con, parsed, state))),
        ("sorting", lambda: rebuild_layout(con)),
        ("metadata", lambda: _write_meta(con, parsed, state)),
    ]
    try:
        con.execute("BEGIN TRANSACTION")
        (steps or _run_all)(phases)
        con.execute("COMMIT")
    except BaseException as exc:
        _rollback(con)
        con.close()
        if not existed:
            _remove_db_files(db)
        if isinstance(exc, duckdb.Error):  # e.g. the log beside the store could not be written at commit
            raise StoreError(f"cannot write {db} (the store is unchanged): {_first_line(exc)}") from None
        raise
    try:
        summary = _summary(con, parsed, state, time.perf_counter() - started)
        con.execute("CHECKPOINT")  # fold the write-ahead log into the file so readers open it fast
    finally:
        con.close()
    return summary


def _run_all(phases: list[tuple[str, Step]]) -> None:
    for _, step in phases:
        step()


def _connect_for_write(db: Path) -> duckdb.DuckDBPyConnection:
    """Attach the store with ARI's row-group size (it applies to every table ARI writes)."""
    if db.exists() and db.is_dir():
        raise StoreError(f"{db} is a directory, not a KG store file")
    db.parent.mkdir(parents=True, exist_ok=True)
    if not os.access(db.parent, os.W_OK | os.X_OK):  # the store may be writable, but DuckDB's log goes beside it
        raise StoreError(f"cannot write {db}: its folder {db.parent} is not writable (DuckDB writes {db.name}.wal there)")
    con = duckdb.connect(":memory:")
    try:
        con.execute(f"ATTACH ? AS kg (ROW_GROUP_SIZE {ROW_GROUP_SIZE})", [str(db)])
        con.execute("USE kg")
    except duckdb.Error as exc:
        con.close()
        raise StoreError(f"cannot open {db} for writing: {_first_line(exc)}") from None
    return con


def _first_line(exc: Exception) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


def _create_schema(con: duckdb.DuckDBPyConnection, db: Path) -> None:
    tables = {r[0] for r in con.execute("SELECT table_name FROM information_schema.tables WHERE table_catalog = 'kg'").fetchall()}
    if tables and not {"entities", "relations", "facts", "meta"} <= tables:
        raise StoreError(f"{db} is a DuckDB file but not an ARI KG store (tables: {', '.join(sorted(tables))})")
    if "meta" in tables:
        version = con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        if version is not None and int(version[0]) > SCHEMA_VERSION:
            raise StoreError(f"{db} was written by a newer ARI (schema {version[0]})")
    for statement in DDL:
        con.execute(statement)


def _add_names(con: duckdb.DuckDBPyConnection, parsed: ParsedKG) -> dict[str, int]:
    """Give every new entity and relation name the next free id (official order first)."""
    entities_added = _insert_new_names(
        con,
        "entities",
        _ordered_names(parsed.entity_order, _interleave(parsed.heads, parsed.tails)),
        lambda name: _entity_row(name, parsed.entity_display),
    )
    relations_added = _insert_new_names(
        con,
        "relations",
        _ordered_names(parsed.relation_order, parsed.relations),
        lambda name: (name, parsed.relation_text.get(name) or display_name(name)),
    )
    return {"entities_added": entities_added, "relations_added": relations_added}


def _entity_row(name: str, displays: dict[str, str]) -> tuple[str, ...]:
    display = displays.get(name) or display_name(name)
    return (name, display, normalize_name(display))


def _interleave(heads: list[str], tails: list[str]) -> list[str]:
    """Names in the order they first appear in the fact lines (head before tail)."""
    return list(dict.fromkeys(name for pair in zip(heads, tails) for name in pair))


def _ordered_names(official: list[str], seen: list[str]) -> list[str]:
    return list(dict.fromkeys([*official, *seen]))


def _insert_new_names(con: duckdb.DuckDBPyConnection, table: str, names: list[str], row: Callable[[str], tuple]) -> int:
    known = {r[0] for r in con.execute(f"SELECT name FROM {table}").fetchall()}
    new = [name for name in names if name not in known]
    if not new:
        return 0
    first_id = one_row(con, f"SELECT coalesce(max(id) + 1, 0) FROM {table}")[0]
    rows = [row(name) for name in new]
    columns = {"id": np.arange(first_id, first_id + len(new), dtype=np.int32)}
    names_of = ["name", "display", "normalized"] if table == "entities" else ["name", "text"]
    for i, column in enumerate(names_of):
        columns[column] = pd.Series([r[i] for r in rows], dtype=object)
    frame = pd.DataFrame(columns)  # noqa: F841 - read by DuckDB's replacement scan below
    con.execute(f"INSERT INTO {table} ({', '.join(columns)}) SELECT * FROM frame")
    return len(new)


def _add_facts(con: duckdb.DuckDBPyConnection, parsed: ParsedKG, state: dict[str, int]) -> int:
    """Insert the facts the store does not hold yet; returns how many were added."""
    entity_id = dict(con.execute("SELECT name, id FROM entities").fetchall())
    relation_id = dict(con.execute("SELECT name, id FROM relations").fetchall())
    n = len(parsed)
    staged = pd.DataFrame(  # noqa: F841 - read by DuckDB's replacement scan below
        {
            "h": np.fromiter((entity_id[x] for x in parsed.heads), np.int32, n),
            "r": np.fromiter((relation_id[x] for x in parsed.relations), np.int32, n),
            "t": np.fromiter((entity_id[x] for x in parsed.tails), np.int32, n),
            "s": _days(parsed.starts),
            "e": _days(parsed.ends),
            "g": np.fromiter((_GRAN_CODE[g] for g in parsed.granularities), np.int8, n),
        }
    )
    before = one_row(con, "SELECT count(*) FROM facts")[0]
    con.execute(
        f"""INSERT INTO facts
            SELECT DISTINCT ON (h, r, t, s, e) h, r, t, s, e, g FROM (
                SELECT h, r, t,
                       CASE WHEN s = {_OPEN} THEN NULL ELSE DATE '1970-01-01' + s END AS s,
                       CASE WHEN e = {_OPEN} THEN NULL ELSE DATE '1970-01-01' + e END AS e,
                       CASE g WHEN 0 THEN 'day' WHEN 1 THEN 'month' ELSE 'year' END AS g
                FROM staged) new
            WHERE NOT EXISTS (
                SELECT 1 FROM facts f
                WHERE f.head = new.h AND f.relation = new.r AND f.tail = new.t
                  AND f.start_day IS NOT DISTINCT FROM new.s AND f.end_day IS NOT DISTINCT FROM new.e)
            ORDER BY h, r, t, s, e, g"""
    )
    return one_row(con, "SELECT count(*) FROM facts")[0] - before


def _days(days: list[date | None]) -> np.ndarray:
    return np.fromiter((_OPEN if d is None else d.toordinal() - _EPOCH for d in days), np.int32, len(days))


def _write_meta(con: duckdb.DuckDBPyConnection, parsed: ParsedKG, state: dict[str, int]) -> None:
    counts = _counts(con)
    span = facts_time_range(con)
    history = json.loads(_meta_value(con, "ingests") or "[]")
    now = datetime.now(UTC).isoformat(timespec="seconds")
    history.append(
        {
            "source": parsed.source,
            "paths": [str(p) for p in parsed.paths],
            "facts_read": len(parsed),
            "facts_added": state.get("facts_added", 0),
            "skipped_lines": parsed.skipped,
            "at": now,
        }
    )
    sources = list(dict.fromkeys(item["source"] for item in history))
    values = {
        "schema_version": str(SCHEMA_VERSION),
        "source": ",".join(sources),
        "ingests": json.dumps(history, ensure_ascii=False),
        "ingested_at": now,
        "entities": str(counts["entities"]),
        "relations": str(counts["relations"]),
        "facts": str(counts["facts"]),
        "time_start": _meta_day(span.start if span else None, OPEN_START),
        "time_end": _meta_day(span.end if span else None, OPEN_END),
    }
    for key, value in values.items():
        con.execute(
            "INSERT INTO meta VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", [key, value]
        )


def _meta_day(day: date | None, open_day: date) -> str:
    """A range bound as meta stores it: ISO day, "open" (open-ended facts), or "" (no facts)."""
    return "" if day is None else "open" if day == open_day else day.isoformat()


def _meta_value(con: duckdb.DuckDBPyConnection, key: str) -> str | None:
    row = con.execute("SELECT value FROM meta WHERE key = ?", [key]).fetchone()
    return row[0] if row else None


def _counts(con: duckdb.DuckDBPyConnection) -> dict[str, int]:
    row = one_row(
        con, "SELECT (SELECT count(*) FROM entities), (SELECT count(*) FROM relations), (SELECT count(*) FROM facts)"
    )
    return {"entities": row[0], "relations": row[1], "facts": row[2]}


def _summary(con: duckdb.DuckDBPyConnection, parsed: ParsedKG, state: dict[str, int], elapsed: float) -> IngestSummary:
    counts = _counts(con)
    return IngestSummary(
        source=parsed.source,
        paths=[str(p) for p in parsed.paths],
        facts_read=len(parsed),
        entities_added=state.get("entities_added", 0),
        relations_added=state.get("relations_added", 0),
        facts_added=state.get("facts_added", 0),
        skipped_lines=parsed.skipped,
        entities=counts["entities"],
        relations=counts["relations"],
        facts=counts["facts"],
        time_range=facts_time_range(con),
        elapsed_s=elapsed,
        skipped_examples=list(parsed.skipped_examples),
    )


def _rollback(con: duckdb.DuckDBPyConnection) -> None:
    try:
        con.execute("ROLLBACK")
    except duckdb.Error:
        pass  # no transaction was open (the failure came before BEGIN)


def _remove_db_files(db: Path) -> None:
    for path in (db, db.with_name(db.name + ".wal")):
        path.unlink(missing_ok=True)
