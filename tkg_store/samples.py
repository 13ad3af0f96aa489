"""Fact keys drawn from a store to time its lookups with (`benchmarks/store_bench.py`)."""

from __future__ import annotations

from datetime import date

from tkg_store.store import TKGStore

FactKey = tuple[str, str, str, date | None]  # head, relation, tail, start day


def facts_at_rows(store: TKGStore, rows: list[int]) -> list[FactKey]:
    """The facts at the given 0-based positions of the `facts` table."""
    found = store.connection.execute(
        "SELECT head, relation, tail, start_day FROM (SELECT *, row_number() OVER () - 1 AS i FROM facts) "
        "WHERE i IN (SELECT unnest(?))",
        [rows],
    ).fetchall()
    return [_named(store, row) for row in found]


def first_fact_per_pair(store: TKGStore) -> list[FactKey]:
    """One fact per (head, relation): some tail of it and the pair's earliest start."""
    found = store.connection.execute(
        "SELECT head, relation, any_value(tail), min(start_day) FROM facts GROUP BY head, relation"
    ).fetchall()
    return [_named(store, row) for row in found]


def _named(store: TKGStore, row: tuple) -> FactKey:
    head, relation, tail, day = row
    return store.entity_name(head), store.relation_name(relation), store.entity_name(tail), day
