"""The history store: round trips, provenance, migrations from an old schema, refusing non-memories."""

from __future__ import annotations

import json
import sqlite3

import pytest

from ari.base.errors import MemoryStoreError
from memory import HistoryStore
from memory.migrations import MIGRATIONS
from memory.trace import StepRecord, Trace


def make_trace(question: str = "Who did Iran criticise in 2005?", outcome: str | None = "correct") -> Trace:
    steps = [
        StepRecord(1, ["getTailEntity(Iran, Criticize, 2005)", "getHeadEntity(Iran, Criticize, 2005)"],
                   "getTailEntity(Iran, Criticize, 2005)", "getTailEntity(E1, R, T)", 7, "methodology step 1"),
        StepRecord(2, ["answer(#1)"], "answer(#1)", "answer(#1)", 7, "end"),
    ]
    return Trace(question, "Who did {E1} criticise in {T1}?", steps, ["Iraq", "Israel"], outcome=outcome,
                 qtype="equal", answer_type="entity", decider="offline")


def test_round_trip_keeps_every_field(tmp_path):
    trace = make_trace()
    with HistoryStore.open(tmp_path / "m.sqlite") as store:
        trace_id = store.add_trace(trace, dataset="multitq", split="dev", question_id=42)
        [record] = store.records()
    assert record.id == trace_id
    assert record.trace == trace
    assert (record.dataset, record.split, record.question_id) == ("multitq", "dev", "42")
    assert list(record.trace.program.texts) == ["getTailEntity(E1, R, T)", "answer(#1)"]
    assert record.trace.steps[0].candidates[1] == "getHeadEntity(Iran, Criticize, 2005)"


def test_filters_counts_and_stats(tmp_path):
    with HistoryStore.open(str(tmp_path / "m.sqlite")) as store:
        store.add_traces([make_trace(outcome="correct"), make_trace(outcome="wrong"), make_trace(outcome="correct")],
                         dataset="multitq", split="dev", question_ids=["1", "2", "3"])
        store.add_trace(make_trace(outcome=None))
        assert store.count() == 4
        assert store.count(outcome="correct") == 2
        assert [t.outcome for t in store.traces(outcome="wrong")] == ["wrong"]
        assert len(store.traces(limit=2)) == 2
        assert store.question_ids("multitq", "dev") == {"1", "2", "3"}
        assert store.question_ids("multitq", "test") == set()
        stats = store.stats()
    assert stats["traces"] == 4 and stats["labelled"] == 3
    assert stats["accuracy"] == pytest.approx(2 / 3, abs=1e-4)
    assert stats["outcomes"] == {"correct": 2, "wrong": 1, "None": 1}
    assert stats["latest_clustering"] is None


def test_reopening_keeps_data_and_runs_no_migration_twice(tmp_path):
    path = tmp_path / "m.sqlite"
    with HistoryStore.open(path) as store:
        store.add_trace(make_trace())
    with HistoryStore.open(path) as store:
        assert store.count() == 1
    with sqlite3.connect(path) as conn:
        names = [r[0] for r in conn.execute("SELECT name FROM _migrations ORDER BY name")]
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert names == [m.__name__ for m in MIGRATIONS]


_V1_SCHEMA = """
CREATE TABLE _migrations (name VARCHAR(200) PRIMARY KEY, applied_at VARCHAR(32) NOT NULL);
INSERT INTO _migrations VALUES ('m001_initial', '2024-05-01T00:00:00+00:00');
CREATE TABLE traces (
    id INTEGER PRIMARY KEY AUTOINCREMENT, created_at VARCHAR(32) NOT NULL, question TEXT NOT NULL,
    masked_question TEXT NOT NULL, steps TEXT NOT NULL, answers TEXT NOT NULL, abstained BOOLEAN NOT NULL,
    reason TEXT, decider VARCHAR(200) NOT NULL, outcome VARCHAR(16));
"""


def test_old_schema_memory_opens_after_migration(tmp_path):
    path = tmp_path / "v1.sqlite"
    old_steps = [{"step": 1, "candidates": ["getTime(A, R, B)"], "chosen": "getTime(A, R, B)",
                  "abstract": "getTime(E1, R, E2)", "result_size": 2},  # v1 steps had no `reason`
                 {"step": 2, "candidates": ["getFirst(#1)"], "chosen": "getFirst(#1)", "abstract": "getFirst(#1)",
                  "result_size": 1},
                 {"step": 3, "candidates": ["answer(#2)"], "chosen": "answer(#2)", "abstract": "answer(#2)",
                  "result_size": 1}]
    with sqlite3.connect(path) as conn:
        conn.executescript(_V1_SCHEMA)
        conn.execute(
            "INSERT INTO traces (created_at, question, masked_question, steps, answers, abstained, reason, decider, outcome) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            ("2024-05-01T00:00:00+00:00", "When did A first visit B?", "When did {E1} first visit {E2}?",
             json.dumps(old_steps), json.dumps(["2005-03-02"]), 0, None, "openai:gpt-4o-mini", "correct"),
        )
    with HistoryStore.open(path) as store:
        [record] = store.records()
        store.add_trace(make_trace())  # the migrated schema takes new traces
        assert store.count() == 2
    trace = record.trace
    assert trace.question == "When did A first visit B?"
    assert trace.decider == "openai:gpt-4o-mini" and trace.outcome == "correct"
    assert trace.answers == ["2005-03-02"]
    assert list(trace.program.texts) == ["getTime(E1, R, E2)", "getFirst(#1)", "answer(#2)"]
    assert trace.steps[0].reason == ""  # the field v1 lacked takes its default
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT program FROM traces WHERE id = 1").fetchone()[0] == (
            "getTime(E1, R, E2) -> getFirst(#1) -> answer(#2)"
        )
        applied = {r[0] for r in conn.execute("SELECT name FROM _migrations")}
    assert applied == {m.__name__ for m in MIGRATIONS}


def test_corrupt_file_is_refused_and_left_untouched(tmp_path):
    path = tmp_path / "notes.sqlite"
    content = b"these are my notes, not a database\n" * 20
    path.write_bytes(content)
    with pytest.raises(MemoryStoreError, match="not an ARI memory"):
        HistoryStore.open(path)
    assert path.read_bytes() == content
    assert not (tmp_path / "notes.sqlite-wal").exists()


def test_someone_elses_sqlite_database_is_refused(tmp_path):
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
        conn.execute("INSERT INTO invoices VALUES (1, 9.5)")
    with pytest.raises(MemoryStoreError, match="not an ARI memory.*invoices"):
        HistoryStore.open(path)
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT total FROM invoices").fetchall() == [(9.5,)]
        assert [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")] == ["invoices"]


def test_memory_from_a_newer_version_is_refused(tmp_path):
    path = tmp_path / "m.sqlite"
    HistoryStore.open(path).close()
    with sqlite3.connect(path) as conn:
        conn.execute("INSERT INTO _migrations VALUES ('m999_from_the_future', '2030-01-01')")
    with pytest.raises(MemoryStoreError, match="newer ARI.*m999_from_the_future"):
        HistoryStore.open(path)


def test_missing_memory_with_create_false(tmp_path):
    with pytest.raises(MemoryStoreError, match="no memory at"):
        HistoryStore.open(tmp_path / "typo.sqlite", create=False)
    assert not (tmp_path / "typo.sqlite").exists()


def test_bad_url_is_one_clear_error():
    with pytest.raises(MemoryStoreError, match="cannot open memory"):
        HistoryStore.open("nosuchdialect://user@host/db")
