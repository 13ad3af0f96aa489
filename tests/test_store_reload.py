"""Per-store state has one owner: after facts are written through `store.connection` and
`store.reload()` is called, every lookup, neighbourhood, memoised result, relation link and name
link made through the same store sees the new facts (nothing kept from before is served)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from actions.context import ActionContext
from actions.enumerate import enumerate_candidates, neighbours
from agents.analysis.analyzer import QuestionAnalyzer
from tkg_store.memo import memoised
from tkg_store.schema import rebuild_layout
from tkg_store.store import TKGStore, normalize_name
from tkg_store.temporal import Granularity, TimeSpan


def add(store: TKGStore, entities: list[str], relations: list[str], facts: list[tuple]) -> None:
    """Append names and facts through the store's own connection (as an ingest does)."""
    con = store.connection
    known = dict(con.execute("SELECT name, id FROM entities").fetchall())
    known_relations = dict(con.execute("SELECT name, id FROM relations").fetchall())
    for name in entities:
        known[name] = len(known)
        con.execute("INSERT INTO entities VALUES (?, ?, ?, ?)", [known[name], name, name.replace("_", " "), normalize_name(name)])
    for name in relations:
        known_relations[name] = len(known_relations)
        con.execute("INSERT INTO relations VALUES (?, ?, ?)", [known_relations[name], name, name.replace("_", " ").lower()])
    for head, relation, tail, day in facts:
        con.execute("INSERT INTO facts VALUES (?, ?, ?, ?, ?, ?)",
                    [known[head], known_relations[relation], known[tail], day, day, Granularity.DAY.value])
    rebuild_layout(con)


def test_reload_refreshes_every_per_store_state(tmp_path: Path) -> None:
    with TKGStore.open(tmp_path / "kg.duckdb", read_only=False) as store:
        add(store, ["Iran", "Iraq"], ["Make_a_visit"], [("Iran", "Make_a_visit", "Iraq", date(2005, 1, 3))])
        store.reload()
        analyzer = QuestionAnalyzer(store, None, use_default_lexicon=False)
        before = analyzer.analyze("Who visited Zanzibar after Iran?")
        assert [m.best for m in before.entities] == ["Iran"]
        assert [n.neighbour for n in neighbours(store, "Iran")] == ["Iraq"]
        assert memoised(store, "time_range", store.time_range).end == date(2005, 1, 3)
        assert store.relations_of("Iran") == {"Make_a_visit"}
        assert {c.action.render() for c in enumerate_candidates(store, ActionContext(), ["Iran"])}

        add(store, ["Zanzibar"], ["Host_a_visit"], [
            ("Zanzibar", "Host_a_visit", "Iran", date(2009, 6, 1)),
            ("Iran", "Make_a_visit", "Zanzibar", date(2009, 6, 1)),
        ])
        store.reload()

        assert [f.tail for f in store.facts(head="Iran", relation="Make_a_visit")] == ["Iraq", "Zanzibar"]
        assert store.facts(head="Zanzibar", within=TimeSpan(date(2009, 1, 1), date(2009, 12, 31), Granularity.YEAR))
        assert {n.neighbour for n in neighbours(store, "Iran")} == {"Iraq", "Zanzibar"}
        assert memoised(store, "time_range", store.time_range).end == date(2009, 6, 1)
        assert store.relations_between("Zanzibar", "Iran") == {"Host_a_visit", "Make_a_visit"}
        assert store.relations_of("Iran") == {"Host_a_visit", "Make_a_visit"}
        candidates = {c.action.render() for c in enumerate_candidates(store, ActionContext(), ["Iran"])}
        assert any("Zanzibar" in text for text in candidates)
        after = analyzer.analyze("Who visited Zanzibar after Iran?")  # the same analyzer: its linkers are the store's
        assert [m.best for m in after.entities] == ["Zanzibar", "Iran"]
        assert {"Host_a_visit", "Make_a_visit"} <= {r for r, _ in after.relations}
