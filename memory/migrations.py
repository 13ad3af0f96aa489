"""Numbered schema migrations for the history store (after simonw/llm's `migrations.py`).

Each migration is a function `mNNN_what(conn)` registered in order; the names of applied ones are
kept in `_migrations`, so a memory written by an older ARI opens with a newer one: only the missing
migrations run, all inside one transaction that holds a writer lock (SQLite `BEGIN IMMEDIATE`, a
PostgreSQL advisory lock), so several processes opening the same memory at once migrate it once.

Never edit a released migration; add a new one. DDL is written with SQLAlchemy Core or with SQL that
SQLite and PostgreSQL both accept, because the same migrations run on both.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from ari.base.errors import MemoryStoreError

Migration = Callable[[Connection], None]
MIGRATIONS: list[Migration] = []

# An arbitrary constant that names "ARI memory migrations" among PostgreSQL advisory locks.
_PG_LOCK_KEY = 0x4152494D


def migration(fn: Migration) -> Migration:
    MIGRATIONS.append(fn)
    return fn


@migration
def m001_initial(conn: Connection) -> None:
    """Traces as the first ARI memory stored them: question, masked form, steps and outcome."""
    meta = sa.MetaData()
    sa.Table(
        "traces",
        meta,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("created_at", sa.String(32), nullable=False),
        sa.Column("question", sa.Text, nullable=False),
        sa.Column("masked_question", sa.Text, nullable=False),
        sa.Column("steps", sa.Text, nullable=False),  # JSON list of StepRecord dicts
        sa.Column("answers", sa.Text, nullable=False),  # JSON list of strings
        sa.Column("abstained", sa.Boolean, nullable=False),
        sa.Column("reason", sa.Text),
        sa.Column("decider", sa.String(200), nullable=False),
        sa.Column("outcome", sa.String(16)),
    )
    meta.create_all(conn)


@migration
def m002_trace_labels(conn: Connection) -> None:
    """Question type, answer type, dataset provenance, and the abstract program as one column.

    The program is denormalised from the steps so that grouping traces by program (what induction
    does) is a plain column read; existing rows are back-filled from their stored steps.
    """
    for column in ("qtype", "answer_type", "dataset", "split", "question_id", "program"):
        conn.exec_driver_sql(f"ALTER TABLE traces ADD COLUMN {column} TEXT")
    import json

    rows = conn.exec_driver_sql("SELECT id, steps FROM traces").fetchall()
    for trace_id, steps in rows:
        program = program_text([s.get("abstract", "") for s in json.loads(steps or "[]")])
        conn.execute(sa.text("UPDATE traces SET program = :p WHERE id = :id"), {"p": program, "id": trace_id})
    conn.exec_driver_sql("CREATE INDEX ix_traces_question ON traces (dataset, split, question_id)")
    conn.exec_driver_sql("CREATE INDEX ix_traces_outcome ON traces (outcome)")


@migration
def m003_clusterings(conn: Connection) -> None:
    """Versioned K-means clusterings: centroids, and each trace's cluster and 2-D position."""
    meta = sa.MetaData()
    sa.Table(
        "clusterings",
        meta,
        sa.Column("version", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("created_at", sa.String(32), nullable=False),
        sa.Column("k", sa.Integer, nullable=False),
        sa.Column("model", sa.Text, nullable=False),  # embedding model the centroids live in
        sa.Column("dim", sa.Integer, nullable=False),
        sa.Column("n_traces", sa.Integer, nullable=False),
        sa.Column("centroids", sa.LargeBinary, nullable=False),  # float32 [k, dim], row-major
    )
    sa.Table(
        "cluster_members",
        meta,
        sa.Column("version", sa.Integer, primary_key=True),
        sa.Column("trace_id", sa.Integer, primary_key=True),
        sa.Column("cluster_id", sa.Integer, nullable=False),
        sa.Column("x", sa.Float, nullable=False),  # 2-D PCA position, for the cluster picture
        sa.Column("y", sa.Float, nullable=False),
    )
    meta.create_all(conn)


@migration
def m004_methodologies(conn: Connection) -> None:
    """One methodology per cluster and clustering version (cluster -1: induced from all traces)."""
    meta = sa.MetaData()
    sa.Table(
        "methodologies",
        meta,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("created_at", sa.String(32), nullable=False),
        sa.Column("clustering_version", sa.Integer, nullable=False),
        sa.Column("cluster_id", sa.Integer, nullable=False),
        sa.Column("source", sa.String(16), nullable=False),  # induced | llm
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("programs", sa.Text, nullable=False),  # JSON [[program, support, success_rate], ...]
        sa.Column("pitfalls", sa.Text, nullable=False),  # same shape
    )
    meta.create_all(conn)
    conn.exec_driver_sql("CREATE INDEX ix_methodologies_version ON methodologies (clustering_version, cluster_id)")


@migration
def m005_trace_data(conn: Connection) -> None:
    """Trace fields added to `memory.trace.Trace` after the columns above, kept as JSON."""
    conn.exec_driver_sql("ALTER TABLE traces ADD COLUMN data TEXT")


@migration
def m006_clustering_features(conn: Connection) -> None:
    """What each clustering embedded: question shapes from now on; NULL (the masked question) before."""
    conn.exec_driver_sql("ALTER TABLE clusterings ADD COLUMN features TEXT")


@migration
def m007_key_vectors(conn: Connection) -> None:
    """The embedding of each distinct clustering key (question shape) a clustering was made from.

    Kept per embedding model, not per clustering version: a vector depends only on the model and
    the text, so each learn replaces its model's rows instead of copying the same few thousand
    vectors once per version. Matching loads them so that a shape seen in learning is not embedded
    again. `traces` (how many traces had the key) lets a loader keep the commonest when it must
    keep fewer. A memory made before this migration gets an empty table and embeds as before.
    """
    meta = sa.MetaData()
    sa.Table(
        "key_vectors",
        meta,
        sa.Column("model", sa.Text, primary_key=True),  # as `clusterings.model`
        sa.Column("text", sa.Text, primary_key=True),  # memory.clustering.clustering_text(...)
        sa.Column("vector", sa.LargeBinary, nullable=False),  # float32 [dim], dim as the clustering's
        sa.Column("version", sa.Integer, nullable=False),  # the clustering that wrote it
        sa.Column("traces", sa.Integer, nullable=False),
    )
    meta.create_all(conn)


LEGACY_SETTINGS = "*"  # learned_questions rows back-filled from traces: settings unknown, counts as any


@migration
def m008_learned_questions(conn: Connection) -> None:
    """Which labelled questions learning has recorded, under which settings (ari memory learn is
    idempotent: a question is recorded once per settings, even by two runs at once).

    Questions recorded before this table existed are back-filled with settings `*` (unknown), which
    every later run treats as done, as the resume by question id did before.
    """
    meta = sa.MetaData()
    sa.Table(
        "learned_questions",
        meta,
        sa.Column("dataset", sa.Text, primary_key=True),  # '' when none
        sa.Column("split", sa.Text, primary_key=True),  # '' when none
        sa.Column("question_id", sa.Text, primary_key=True),
        sa.Column("settings", sa.Text, primary_key=True),  # what decided the traces, e.g. "agent=offline;search=5/10"
        sa.Column("traces", sa.Integer, nullable=False),
        sa.Column("created_at", sa.String(32), nullable=False),
    )
    meta.create_all(conn)
    conn.execute(
        sa.text(
            "INSERT INTO learned_questions (dataset, split, question_id, settings, traces, created_at) "
            "SELECT COALESCE(dataset, ''), COALESCE(split, ''), question_id, :legacy, COUNT(*), MIN(created_at) "
            "FROM traces WHERE question_id IS NOT NULL GROUP BY COALESCE(dataset, ''), COALESCE(split, ''), question_id"
        ),
        {"legacy": LEGACY_SETTINGS},
    )


@migration
def m009_memory_meta(conn: Connection) -> None:
    """Facts about the memory as a whole, one value per key: which KG it was learned on ("kg": the
    store's `TKGStore.identity()` and path, as JSON), so a memory used with another KG says so."""
    meta = sa.MetaData()
    sa.Table(
        "memory_meta",
        meta,
        sa.Column("key", sa.String(100), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
    )
    meta.create_all(conn)


def program_text(program: list[str]) -> str:
    """A program as one comparable string: "getTime(E1, R, E2) -> answer(#1)"."""
    return " -> ".join(step for step in program if step)


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def applied(conn: Connection) -> list[str] | None:
    """Names of applied migrations, or None when the database has no `_migrations` table."""
    if not sa.inspect(conn).has_table("_migrations"):
        return None
    return [row[0] for row in conn.exec_driver_sql("SELECT name FROM _migrations ORDER BY name")]


def is_current(conn: Connection) -> bool:
    done = applied(conn)
    return done is not None and set(done) == {m.__name__ for m in MIGRATIONS}


def migrate(conn: Connection, where: str) -> list[str]:
    """Apply the missing migrations inside the caller's (locked) transaction; return their names.

    Refuses, without writing anything, a database that holds other tables but no ARI migrations
    (not a memory) or migrations this version does not know (written by a newer ARI).
    """
    if conn.dialect.name == "postgresql":
        conn.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": _PG_LOCK_KEY})
    done = applied(conn)
    known = [m.__name__ for m in MIGRATIONS]
    if done is None:
        tables = sa.inspect(conn).get_table_names()
        if tables:
            raise MemoryStoreError(f"{where} is not an ARI memory (it has tables {', '.join(sorted(tables)[:5])})")
        conn.exec_driver_sql("CREATE TABLE _migrations (name VARCHAR(200) PRIMARY KEY, applied_at VARCHAR(32) NOT NULL)")
        done = []
    if done and (known[0] not in done or not sa.inspect(conn).has_table("traces")):
        raise MemoryStoreError(f"{where} is not an ARI memory (its _migrations table is someone else's)")
    unknown = sorted(set(done) - set(known))
    if unknown:
        raise MemoryStoreError(f"{where} was written by a newer ARI (unknown migrations: {', '.join(unknown)})")
    ran = []
    for fn in MIGRATIONS:
        if fn.__name__ in done:
            continue
        fn(conn)
        conn.execute(sa.text("INSERT INTO _migrations (name, applied_at) VALUES (:n, :t)"), {"n": fn.__name__, "t": now()})
        ran.append(fn.__name__)
    return ran
