"""A tiny temporal KG written as a real ARI DuckDB store, shared by the actions tests."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from tkg_store import schema
from tkg_store.store import TKGStore, normalize_name

UKRAINE_MILITARY = "Military_(Ukraine)"
ARMED_GANG = "Armed_Gang_(Palestinian_Territory,_Occupied)"

# (head, relation, tail, start, end, granularity); None = open end.
FACTS: list[tuple[str, str, str, str | None, str | None, str]] = [
    ("Ethiopia", "Make_optimistic_comment", "Kenya", "2005-11-03", "2005-11-03", "day"),
    ("Ethiopia", "Make_optimistic_comment", "Sudan", "2005-11-20", "2005-11-20", "day"),
    ("Ethiopia", "Make_optimistic_comment", "Kenya", "2006-01-05", "2006-01-05", "day"),
    ("Ethiopia", "Accuse", "Eritrea", "2005-12-01", "2005-12-01", "day"),
    ("Ethiopia", "Accuse", "Eritrea", "2005-12-20", "2005-12-20", "day"),
    ("Eritrea", "Accuse", "Ethiopia", "2005-12-13", "2005-12-13", "day"),
    ("Kenya", "Make_a_visit", "China", "2008-04-30", "2008-04-30", "day"),
    ("Japan", "Make_a_visit", "China", "2008-05-01", "2008-05-01", "day"),
    ("Iran", "Make_a_visit", "China", "2008-05-31", "2008-05-31", "day"),
    ("Kenya", "Make_a_visit", "China", "2008-06-01", "2008-06-01", "day"),
    (UKRAINE_MILITARY, "Make_a_visit", "China", "2008-05-31", "2008-05-31", "day"),
    (UKRAINE_MILITARY, "Make_a_visit", "China", "2008-07-10", "2008-07-10", "day"),
    (ARMED_GANG, "Praise_or_endorse", "Kenya", "2007-03-03", "2007-03-03", "day"),
    # CronQuestions-like year intervals, one open at each end.
    ("Q1", "P39", "Q100", "2000-01-01", "2004-12-31", "year"),
    ("Q2", "P39", "Q100", "2005-01-01", None, "year"),
    ("Q3", "P39", "Q100", None, "1999-12-31", "year"),
]

RELATION_TEXT = {"P39": "position held"}


def build_store(path: Path, facts: list[tuple] = FACTS) -> Path:
    """Write the facts as a real store (schema and layout from tkg_store.schema) and close it."""
    entities = sorted({f[0] for f in facts} | {f[2] for f in facts})
    relations = sorted({f[1] for f in facts})
    store = TKGStore.open(path, read_only=False)
    con = store.connection
    for i, name in enumerate(entities):
        con.execute("INSERT INTO entities VALUES (?, ?, ?, ?)", [i, name, name.replace("_", " "), normalize_name(name)])
    for i, name in enumerate(relations):
        text = RELATION_TEXT.get(name, name.replace("_", " "))
        con.execute("INSERT INTO relations VALUES (?, ?, ?)", [i, name, text])
    for head, relation, tail, start, end, granularity in facts:
        con.execute(
            "INSERT INTO facts VALUES (?, ?, ?, ?, ?, ?)",
            [
                entities.index(head),
                relations.index(relation),
                entities.index(tail),
                date.fromisoformat(start) if start else None,
                date.fromisoformat(end) if end else None,
                granularity,
            ],
        )
    rebuild = getattr(schema, "rebuild_layout", None)
    if rebuild is not None:  # schema 2 keeps a tail-sorted copy of the facts
        rebuild(con)
    store.close()
    return path


def test_built_store_holds_every_fact(tmp_path: Path) -> None:
    with TKGStore.open(build_store(tmp_path / "kg.duckdb")) as store:
        assert store.counts()["facts"] == len(FACTS)
        assert store.has_entity(ARMED_GANG)
        assert len(store.facts(tail="China")) == 6
