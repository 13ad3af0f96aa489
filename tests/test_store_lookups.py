"""TKGStore lookups checked against a brute-force Python filter over generated KGs.

Each KG is written as a TSV file and loaded through the real ingest into a real DuckDB file, so the
sorted layout (facts / facts_by_tail) is what is being checked. Every KG is opened twice: with the
in-memory fact index (the default) and with memory_index=False (SQL per lookup); both must agree
with the brute force and return identical lists, order included.
"""

from __future__ import annotations

import random
from collections import Counter
from datetime import date, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tkg_store.ingest import ingest
from tkg_store.schema import ROW_GROUP_SIZE
from tkg_store.store import Neighbour, TKGStore
from tkg_store.temporal import Granularity, TimeSpan, format_time, span_of

ENTITIES = ["Iran", "China", "Jack_Straw", "Citizen_(Belgium)", "Armed_Gang_(Palestinian_Territory,_Occupied)", "Q42", "Côte_d'Ivoire"]
RELATIONS = ["Make_a_visit", "Criticize_or_denounce", "P39"]

Row = tuple[str, str, str, date | None, date | None, str]


def _stated(day: date, level: Granularity) -> tuple[str, date, date]:
    span = span_of(day, level)
    return format_time(day, level), span.start, span.end


def random_kg(rng: random.Random, n: int, entities: list[str], relations: list[str]) -> tuple[list[str], list[Row]]:
    """TSV lines and the facts they state (deduped by (head, relation, tail, start, end))."""
    lines: list[str] = []
    rows: dict[tuple, Row] = {}
    for _ in range(n):
        head, tail = rng.choice(entities), rng.choice(entities)
        relation = rng.choice(relations)
        day = date(2005, 1, 1) + timedelta(days=rng.randrange(11 * 365))
        level = rng.choice([Granularity.DAY, Granularity.DAY, Granularity.MONTH, Granularity.YEAR])
        text, start, end = _stated(day, level)
        if rng.random() < 0.15:  # an interval, possibly open at either end
            other = day + timedelta(days=rng.randrange(3000))
            end_text, _, end = _stated(other, level)
            if rng.random() < 0.3:
                text, start = "", None
            elif rng.random() < 0.3:
                end_text, end = "", None
            lines.append(f"{head}\t{relation}\t{tail}\t{text}\t{end_text}")
        else:
            lines.append(f"{head}\t{relation}\t{tail}\t{text}")
        rows.setdefault((head, relation, tail, start, end), (head, relation, tail, start, end, level.value))
    return lines, list(rows.values())


def build(tmp: Path, lines: list[str]) -> Path:
    tsv = tmp / "kg.tsv"
    tsv.write_text("\n".join(lines) + "\n", encoding="utf-8")
    db = tmp / "kg.duckdb"
    ingest("tsv", tsv, db)
    return db


def overlaps(row: Row, within: TimeSpan | None) -> bool:
    return within is None or within.overlaps(row[3], row[4])


def _key(row: tuple) -> tuple:
    return tuple((x is None, x or date.min) if i in (3, 4) else x for i, x in enumerate(row))


def expected_facts(rows: list[Row], head=None, relation=None, tail=None, within=None) -> list[tuple]:  # noqa: ANN001
    return sorted(
        (r
        for r in rows
        if (head is None or r[0] == head) and (relation is None or r[1] == relation) and (tail is None or r[2] == tail) and overlaps(r, within)),
        key=_key,
    )


def got_facts(store: TKGStore, **query) -> list[tuple]:  # noqa: ANN003
    facts = store.facts(**query)
    keys = [(f.start or date.min, f.end or date.max) for f in facts]
    assert keys == sorted(keys), "facts must come in time order"
    return sorted(((f.head, f.relation, f.tail, f.start, f.end, f.granularity.value) for f in facts), key=_key)


def expected_neighbourhood(rows: list[Row], entity: str, within: TimeSpan | None) -> list[Neighbour]:
    counts: Counter = Counter()
    for h, r, t, *_ in (row for row in rows if overlaps(row, within)):
        if h == entity:
            counts[(r, t, "out")] += 1
        if t == entity:
            counts[(r, h, "in")] += 1
    groups = [Neighbour(r, n, d, c) for (r, n, d), c in counts.items()]
    return sorted(groups, key=lambda n: (-n.count, n.direction, n.relation, n.neighbour))


def check_facts(stores: tuple[TKGStore, TKGStore], rows: list[Row], **query) -> None:  # noqa: ANN003
    indexed, sql = stores
    assert got_facts(indexed, **query) == expected_facts(rows, **query), query
    assert indexed.facts(**query) == sql.facts(**query), query


def check_neighbourhood(
    stores: tuple[TKGStore, TKGStore], rows: list[Row], entity: str, within: TimeSpan | None
) -> None:
    indexed, sql = stores
    assert indexed.neighbourhood(entity, within=within) == expected_neighbourhood(rows, entity, within)
    assert sql.neighbourhood(entity, within=within) == expected_neighbourhood(rows, entity, within)


def open_both(db: Path) -> tuple[TKGStore, TKGStore]:
    """The store with its in-memory index, and the same file on the SQL path."""
    return TKGStore.open(db), TKGStore.open(db, memory_index=False)


WINDOWS = st.one_of(
    st.none(),
    st.builds(
        lambda y, m, level: span_of(date(y, m, 1), level),
        st.integers(2004, 2016),
        st.integers(1, 12),
        st.sampled_from(list(Granularity)),
    ),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**6), size=st.integers(1, 60), window=WINDOWS, data=st.data())  # a file with no facts is an ingest error
def test_lookups_match_brute_force(tmp_path_factory: pytest.TempPathFactory, seed: int, size: int, window, data) -> None:  # noqa: ANN001
    lines, rows = random_kg(random.Random(seed), size, ENTITIES, RELATIONS)
    indexed, sql = stores = open_both(build(tmp_path_factory.mktemp("kg"), lines))
    with indexed, sql:
        assert indexed.fact_index is not None and sql.fact_index is None
        head = data.draw(st.sampled_from(ENTITIES + ["Atlantis"]))
        tail = data.draw(st.sampled_from(ENTITIES))
        relation = data.draw(st.sampled_from(RELATIONS + ["Unknown_relation"]))
        for query in (
            {"head": head, "relation": relation},
            {"tail": tail, "relation": relation},
            {"head": head, "relation": relation, "tail": tail},
            {"head": head, "tail": tail},
            {"head": head},
            {"tail": tail},
            {"relation": relation},
            {},
        ):
            check_facts(stores, rows, **query, within=window)
        check_neighbourhood(stores, rows, head, window)
        check_neighbourhood(stores, rows, tail, None)


def test_lookups_across_many_row_groups(tmp_path: Path) -> None:
    """A KG several row groups long: zone-map pruning must never drop a matching row."""
    rng = random.Random(7)
    entities = [f"Entity_{i}_(X,_Y)" for i in range(300)]
    relations = [f"Rel_{i}" for i in range(20)]
    lines, rows = random_kg(rng, 3 * ROW_GROUP_SIZE, entities, relations)
    indexed, sql = stores = open_both(build(tmp_path, lines))
    with indexed, sql:
        assert indexed.counts()["facts"] == len(rows) == len(indexed.fact_index)
        for _ in range(60):
            e, r = rng.choice(entities), rng.choice(relations)
            window = span_of(date(rng.randrange(2005, 2016), rng.randrange(1, 13), 1), Granularity.MONTH) if rng.random() < 0.5 else None
            check_facts(stores, rows, head=e, relation=r, within=window)
            check_facts(stores, rows, tail=e, relation=r, within=window)
            check_facts(stores, rows, head=e, relation=r, tail=rng.choice(entities), within=window)
            check_neighbourhood(stores, rows, e, window)
        check_neighbourhood(stores, rows, entities[0], None)


def test_names_display_and_find(tmp_path: Path) -> None:
    lines = ["Armed_Gang_(Palestinian_Territory,_Occupied)\tPraise_or_endorse\tMahmoud_Abbas\t2005-01-01",
             "Militant_(Xinjiang\xa0Uyghur)\tMake_a_visit\tChina\t2006"]
    with TKGStore.open(build(tmp_path, lines)) as store:
        assert store.has_entity("Militant_(Xinjiang\xa0Uyghur)")
        assert store.display("Armed_Gang_(Palestinian_Territory,_Occupied)") == "Armed Gang (Palestinian Territory, Occupied)"
        assert store.relation_text("Praise_or_endorse") == "Praise or endorse"
        assert store.find_entities("mahmoud abbas") == ["Mahmoud_Abbas"]
        assert store.find_entities("Xinjiang Uyghur") == ["Militant_(Xinjiang\xa0Uyghur)"]
        assert store.time_range() == TimeSpan(date(2005, 1, 1), date(2006, 12, 31), Granularity.DAY)
        assert store.facts(head="Nobody") == [] and store.neighbourhood("Nobody") == []


def test_names_read_as_a_display_text_come_by_one_lookup(tmp_path: Path) -> None:
    """KG names that read alike ("John_Kerry" and "John Kerry" both show as "John Kerry") are all
    found by their display text, in id order; `entity_rows` says each name's position while the
    ids are those positions, and nothing once they are not."""
    lines = ["John_Kerry\tPraise_or_endorse\tJohn Kerry\t2005-01-01", "Iran\tMake_a_visit\tJohn_Kerry\t2006"]
    db = build(tmp_path, lines)
    for held in (True, False):  # a table in memory beside the fact index, else a query
        with TKGStore.open(db, memory_index=held) as store:
            assert store.entities_displayed("John Kerry") == ["John_Kerry", "John Kerry"]  # id order: first seen first
            assert store.entities_displayed("Iran") == ["Iran"]
            assert store.entities_displayed("John_Kerry") == [] and store.entities_displayed("Nobody") == []
    with TKGStore.open(db) as store:
        rows = store.entity_rows()
        assert rows is not None and [rows[n] for n in store.entity_names()] == [0, 1, 2]
        with pytest.raises(TypeError):
            rows["Iran"] = 5  # type: ignore[index]  # a view of the store's own map: read-only
    with TKGStore.open(tmp_path / "kg.duckdb", read_only=False) as store:
        store.connection.execute("UPDATE entities SET id = 7 WHERE name = 'Iran'")
        store.reload()
        assert store.entity_rows() is None and store.entity_names()[-1] == "Iran"


def test_the_names_digest_of_a_store_is_the_one_memories_recorded(tmp_path: Path) -> None:
    """`identity()["names"]` hashes each sorted name and a newline (entities, a blank, relations):
    memories learned earlier recorded exactly that, so it must not change with how it is computed."""
    import hashlib

    lines = ["Zhou_Enlai\tConsult\tÉmile\t2005-01-01", "Abe\tMake_a_visit\tZhou_Enlai\t2006"]
    with TKGStore.open(build(tmp_path, lines)) as store:
        expected = hashlib.sha1()
        for name in ["Abe", "Zhou_Enlai", "Émile", "", "Consult", "Make_a_visit"]:
            expected.update(name.encode() + b"\n")
        assert store.identity()["names"] == expected.hexdigest()[:16]


def test_entity_fact_counts_and_sample_keys_match_the_facts(tmp_path: Path) -> None:
    from tkg_store.samples import facts_at_rows, first_fact_per_pair

    lines, rows = random_kg(random.Random(7), 40, ENTITIES, RELATIONS)
    with TKGStore.open(build(tmp_path, lines)) as store:
        sides = Counter(name for h, _, t, *_ in rows for name in (h, t))
        assert store.entity_fact_counts() == dict(sides)
        stated = {(h, r, t, start) for h, r, t, start, *_ in rows}
        picked = facts_at_rows(store, [0, 1, len(rows) - 1])
        assert len(picked) == 3 and set(picked) <= stated
        pairs = first_fact_per_pair(store)
        assert {(h, r) for h, r, *_ in pairs} == {(h, r) for h, r, *_ in rows}
        for h, r, t, day in pairs:
            starts = [s for hh, rr, _, s, *_ in rows if (hh, rr) == (h, r) and s is not None]
            assert day == min(starts, default=None)
            assert any((hh, rr, tt) == (h, r, t) for hh, rr, tt, *_ in rows)
        displays = store.sample_displays(3, seed=1)
        assert displays == store.sample_displays(3, seed=1) and len(displays) == 3
        assert set(displays) <= {store.display(n) for n in store.entity_names()}
