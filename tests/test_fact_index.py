"""The in-memory fact index on the edges of its input: open intervals, the first and last days a
`date` can hold, self-loops, an empty KG, a reload after writes, and its radix-style sort.

Stores are real DuckDB files written through `TKGStore.connection`; every lookup is compared with
the same store opened on the SQL path (memory_index=False), lists compared whole, order included.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from tkg_store.fact_index import sort_order
from tkg_store.schema import rebuild_layout
from tkg_store.store import Fact, Neighbour, TKGStore, normalize_name
from tkg_store.temporal import Granularity, TimeSpan, span_of

YEAR = Granularity.YEAR
# (head, relation, tail, start, end): CronQuestions-like year intervals, open at either end or both.
EDGE_FACTS = [
    ("Q1", "P39", "Q2", None, date(2001, 12, 31)),
    ("Q1", "P39", "Q3", date(1, 1, 1), date(1, 12, 31)),
    ("Q1", "P39", "Q4", date(2000, 1, 1), None),
    ("Q1", "P39", "Q5", date(9999, 1, 1), date(9999, 12, 31)),
    ("Q1", "P39", "Q1", date(2000, 1, 1), date(2000, 12, 31)),
    ("Q1", "P40", "Q2", date(2000, 1, 1), date(2003, 12, 31)),
    ("Q2", "P40", "Q1", None, None),
    ("Q6", "P39", "Q1", date(1, 1, 1), date(1, 12, 31)),
    ("Q6", "P39", "Q2", None, date(1, 12, 31)),
]
WINDOWS = [None, span_of(date(2000, 6, 1), YEAR), span_of(date(1, 1, 1), YEAR), span_of(date(9999, 12, 31), YEAR),
           TimeSpan(date(1, 1, 1), date(9999, 12, 31), Granularity.DAY), span_of(date(1500, 1, 1), YEAR)]


def write_facts(store: TKGStore, facts: list[tuple], names: list[str] = []) -> None:  # noqa: B006
    """Insert names and facts through the store's connection, sorted as ingest leaves them."""
    con = store.connection
    entities = sorted({f[0] for f in facts} | {f[2] for f in facts} | set(names))
    relations = sorted({f[1] for f in facts})
    for i, name in enumerate(entities):
        con.execute("INSERT INTO entities VALUES (?, ?, ?, ?)", [i, name, name, normalize_name(name)])
    for i, name in enumerate(relations):
        con.execute("INSERT INTO relations VALUES (?, ?, ?)", [i, name, name])
    for head, relation, tail, start, end in facts:
        con.execute("INSERT INTO facts VALUES (?, ?, ?, ?, ?, ?)",
                    [entities.index(head), relations.index(relation), entities.index(tail), start, end, YEAR.value])
    rebuild_layout(con)


def built(path: Path, facts: list[tuple], names: list[str] = []) -> Path:  # noqa: B006
    with TKGStore.open(path, read_only=False) as store:
        write_facts(store, facts, names)
    return path


def test_open_intervals_and_extreme_days_match_sql(tmp_path: Path) -> None:
    db = built(tmp_path / "kg.duckdb", EDGE_FACTS)
    with TKGStore.open(db) as indexed, TKGStore.open(db, memory_index=False) as sql:
        for window in WINDOWS:
            for query in ({"head": "Q1", "relation": "P39"}, {"tail": "Q1", "relation": "P39"}, {"head": "Q1"},
                          {"tail": "Q2"}, {"relation": "P39"}, {"head": "Q6", "relation": "P39", "tail": "Q2"}, {}):
                assert indexed.facts(**query, within=window) == sql.facts(**query, within=window), (query, window)
            for entity in ("Q1", "Q2", "Q6"):
                assert indexed.neighbourhood(entity, within=window) == sql.neighbourhood(entity, within=window)
        # An open start sorts as date.min, tying with a fact that starts on date.min (then: end, ids),
        # so the open-start fact to Q2 comes after the one to Q1.
        assert [f.tail for f in indexed.facts(head="Q6", relation="P39")] == ["Q1", "Q2"]
        assert indexed.facts(head="Q2") == [Fact("Q2", "P40", "Q1", None, None, YEAR)]
        assert indexed.facts(head="Q1", relation="P39", within=span_of(date(1500, 1, 1), YEAR)) == [
            Fact("Q1", "P39", "Q2", None, date(2001, 12, 31), YEAR)
        ]


def test_self_loop_counts_in_both_directions(tmp_path: Path) -> None:
    db = built(tmp_path / "kg.duckdb", EDGE_FACTS)
    with TKGStore.open(db) as store:
        loops = [n for n in store.neighbourhood("Q1") if n.neighbour == "Q1"]
        assert loops == [Neighbour("P39", "Q1", "in", 1), Neighbour("P39", "Q1", "out", 1)]


def test_empty_kg(tmp_path: Path) -> None:
    with TKGStore.open(tmp_path / "empty.duckdb", read_only=False) as store:
        assert store.fact_index is not None and len(store.fact_index) == 0
        assert store.facts() == [] and store.facts(head="Q1") == [] and store.neighbourhood("Q1") == []
    db = built(tmp_path / "names_only.duckdb", [], names=["Q1"])
    with TKGStore.open(db) as store:
        assert store.has_entity("Q1")
        assert store.facts(head="Q1") == [] and store.facts(tail="Q1", within=WINDOWS[1]) == []
        assert store.neighbourhood("Q1") == [] and store.neighbourhood("Q1", within=WINDOWS[1]) == []


def test_reload_rebuilds_the_index_after_writes(tmp_path: Path) -> None:
    with TKGStore.open(tmp_path / "kg.duckdb", read_only=False) as store:
        assert store.facts() == []
        write_facts(store, EDGE_FACTS)
        store.reload()
        assert len(store.fact_index) == len(EDGE_FACTS)
        assert [f.tail for f in store.facts(head="Q1", relation="P40")] == ["Q2"]
        assert store.neighbourhood("Q6") == [Neighbour("P39", "Q1", "out", 1), Neighbour("P39", "Q2", "out", 1)]


COLUMNS = st.integers(1, 5).flatmap(
    lambda width: st.integers(0, 40).flatmap(
        lambda rows: st.lists(
            st.lists(st.integers(-(2**31), 2**31 - 1) | st.integers(-3, 3), min_size=rows, max_size=rows),
            min_size=width, max_size=width,
        )
    )
)


@given(COLUMNS)
def test_sort_order_is_lexsort(columns: list[list[int]]) -> None:
    arrays = [np.array(column, dtype=np.int64) for column in columns]
    assert sort_order(*arrays).tolist() == np.lexsort(arrays[::-1]).tolist()
