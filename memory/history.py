"""The history store: every trace the agent leaves, its clusterings and methodologies.

One SQLAlchemy engine (`memory.engine`) over a SQLite file (the default: one person, one machine) or any SQLAlchemy
URL such as `postgresql+psycopg://...` (several workers or machines sharing one memory). SQLite runs
in WAL mode with a busy timeout and takes its write lock at the start of a write transaction
(`BEGIN IMMEDIATE`), so concurrent writers from several processes wait for each other instead of
failing or losing rows.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, fields
from pathlib import Path

import numpy as np
import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from actions.programs import Program
from ari.base.errors import MemoryReadOnlyError, MemoryStoreError
from memory.clustering import FEATURES, RAW
from memory.engine import engine_for, fault, write_transaction
from memory.migrations import LEGACY_SETTINGS, is_current, migrate, now
from memory.trace import StepRecord, Trace
from memory.types import Methodology, ProgramStat

# The current schema, as the migrations leave it (used for queries, never to create tables).
_meta = sa.MetaData()
traces_table = sa.Table(
    "traces",
    _meta,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("created_at", sa.String),
    sa.Column("question", sa.Text),
    sa.Column("masked_question", sa.Text),
    sa.Column("steps", sa.Text),
    sa.Column("answers", sa.Text),
    sa.Column("abstained", sa.Boolean),
    sa.Column("reason", sa.Text),
    sa.Column("decider", sa.String),
    sa.Column("outcome", sa.String),
    sa.Column("qtype", sa.Text),
    sa.Column("answer_type", sa.Text),
    sa.Column("dataset", sa.Text),
    sa.Column("split", sa.Text),
    sa.Column("question_id", sa.Text),
    sa.Column("program", sa.Text),
    sa.Column("data", sa.Text),
)
clusterings_table = sa.Table(
    "clusterings",
    _meta,
    sa.Column("version", sa.Integer, primary_key=True),
    sa.Column("created_at", sa.String),
    sa.Column("k", sa.Integer),
    sa.Column("model", sa.Text),
    sa.Column("dim", sa.Integer),
    sa.Column("n_traces", sa.Integer),
    sa.Column("centroids", sa.LargeBinary),
    sa.Column("features", sa.Text),
)
members_table = sa.Table(
    "cluster_members",
    _meta,
    sa.Column("version", sa.Integer, primary_key=True),
    sa.Column("trace_id", sa.Integer, primary_key=True),
    sa.Column("cluster_id", sa.Integer),
    sa.Column("x", sa.Float),
    sa.Column("y", sa.Float),
)
methodologies_table = sa.Table(
    "methodologies",
    _meta,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("created_at", sa.String),
    sa.Column("clustering_version", sa.Integer),
    sa.Column("cluster_id", sa.Integer),
    sa.Column("source", sa.String),
    sa.Column("text", sa.Text),
    sa.Column("programs", sa.Text),
    sa.Column("pitfalls", sa.Text),
)
key_vectors_table = sa.Table(
    "key_vectors",
    _meta,
    sa.Column("model", sa.Text, primary_key=True),
    sa.Column("text", sa.Text, primary_key=True),
    sa.Column("vector", sa.LargeBinary),
    sa.Column("version", sa.Integer),
    sa.Column("traces", sa.Integer),
)
learned_table = sa.Table(
    "learned_questions",
    _meta,
    sa.Column("dataset", sa.Text, primary_key=True),
    sa.Column("split", sa.Text, primary_key=True),
    sa.Column("question_id", sa.Text, primary_key=True),
    sa.Column("settings", sa.Text, primary_key=True),
    sa.Column("traces", sa.Integer),
    sa.Column("created_at", sa.String),
)
meta_table = sa.Table(
    "memory_meta",
    _meta,
    sa.Column("key", sa.String(100), primary_key=True),
    sa.Column("value", sa.Text),
)
# Names the key_vectors rewrite among PostgreSQL advisory locks (SQLite's BEGIN IMMEDIATE serialises it).
_PG_KEYS_LOCK = 0x4152494B

# Trace fields stored in their own columns; any other (later, additive) field goes to `data` as JSON.
_COLUMN_FIELDS = {"question", "masked_question", "steps", "answers", "abstained", "reason", "decider", "outcome", "qtype", "answer_type"}
_TRACE_FIELDS = {f.name for f in fields(Trace)}
_STEP_FIELDS = {f.name for f in fields(StepRecord)}
_EXTRA_FIELDS = sorted(_TRACE_FIELDS - _COLUMN_FIELDS)


@dataclass
class TraceRecord:
    """A stored trace with its row id and provenance."""

    id: int
    trace: Trace
    created_at: str
    dataset: str | None = None
    split: str | None = None
    question_id: str | None = None


@dataclass
class Clustering:
    """One K-means run over the history: its version, model and centroids."""

    version: int
    created_at: str
    k: int
    model: str
    n_traces: int
    centroids: np.ndarray  # float32 [k, dim]
    features: str  # what was embedded: memory.clustering.FEATURES (question shapes) or RAW


@dataclass
class KeyVector:
    """The embedding of one distinct clustering key, and how many of the clustered traces had it."""

    text: str
    vector: np.ndarray  # float32 [dim]
    traces: int


@dataclass
class Member:
    trace_id: int
    cluster_id: int
    x: float
    y: float


class HistoryStore:
    """Traces, clusterings and methodologies in one SQL database."""

    def __init__(self, engine: Engine, where: str, read_only: bool = False) -> None:
        self.engine = engine
        self.where = where  # the path or URL (password hidden), for messages
        self.read_only = read_only  # opened for reading only: every write is a MemoryReadOnlyError

    @classmethod
    def open(cls, target: str | Path, create: bool = True, read_only: bool | None = None) -> "HistoryStore":
        """Open (and migrate) the memory at a SQLite path or SQLAlchemy URL.

        `create=False` refuses a SQLite path that does not exist yet, so that inspection commands do
        not leave an empty memory behind a mistyped path. `read_only=None` opens a SQLite file that
        this process may not write (the file or its folder) for reading only, without switching it
        to WAL or migrating it; True asks for that whatever the permissions.
        """
        engine, where, read_only = engine_for(str(target), create, read_only)
        try:
            with engine.connect() as conn:
                current = is_current(conn)
            if not current and read_only:
                raise MemoryReadOnlyError(
                    f"memory {where} is read-only and was written by an older ARI: it needs migrating, "
                    "which writes; open it once where it is writable"
                )
            if not current:
                with write_transaction(engine) as conn:
                    migrate(conn, where)
        except MemoryStoreError:
            engine.dispose()
            raise
        except sa.exc.SQLAlchemyError as exc:
            engine.dispose()
            raise fault(exc, where, "open") from None
        return cls(engine, where, read_only)

    def close(self) -> None:
        self.engine.dispose()

    def __enter__(self) -> "HistoryStore":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- traces ------------------------------------------------------------------------------

    def add_trace(self, trace: Trace, dataset: str | None = None, split: str | None = None, question_id: str | None = None) -> int:
        """Store one trace; returns its id."""
        return self.add_traces([trace], dataset=dataset, split=split, question_ids=[question_id])[0]

    def add_traces(
        self,
        traces: Iterable[Trace],
        dataset: str | None = None,
        split: str | None = None,
        question_ids: Iterable[str | None] | None = None,
    ) -> list[int]:
        """Store several traces in one transaction; returns their ids in order."""
        traces = list(traces)
        qids = list(question_ids) if question_ids is not None else [None] * len(traces)
        if len(qids) != len(traces):
            raise ValueError("question_ids must have one entry per trace")
        created = now()
        ids = []
        with self._writing() as conn:
            for trace, qid in zip(traces, qids):
                row = _trace_row(trace, created, dataset, split, None if qid is None else str(qid))
                ids.append(_new_id(conn.execute(traces_table.insert().values(**row))))
        return ids

    def add_question_traces(
        self, traces: Iterable[Trace], *, dataset: str | None, split: str | None, question_id: str, settings: str
    ) -> bool:
        """Store one labelled question's traces, unless that question was already recorded with the
        same learning settings; returns whether they were stored.

        The check and the writes share one write transaction, and (dataset, split, question id,
        settings) is a primary key, so two runs at once, or a run repeated, store a question once.
        """
        traces = list(traces)
        created = now()
        key = {"dataset": dataset or "", "split": split or "", "question_id": str(question_id)}
        try:
            with self._writing() as conn:
                if str(question_id) in self._learned(conn, dataset, split, settings, question_id):
                    return False
                rows = [_trace_row(t, created, dataset, split, str(question_id)) for t in traces]
                if rows:
                    conn.execute(traces_table.insert(), rows)
                conn.execute(learned_table.insert().values(**key, settings=settings, traces=len(rows), created_at=created))
        except sa.exc.IntegrityError:
            return False  # another process recorded it between our check and our insert
        return True

    def learned_ids(self, dataset: str | None, split: str | None, settings: str) -> set[str]:
        """Ids of the questions recorded by learning with these settings (or by an older ARI, whose
        settings were not kept: `LEGACY_SETTINGS`)."""
        with self._reading() as conn:
            return self._learned(conn, dataset, split, settings)

    @staticmethod
    def _learned(conn: Connection, dataset: str | None, split: str | None, settings: str, question_id: str | None = None) -> set[str]:
        t = learned_table
        query = sa.select(t.c.question_id).where(
            t.c.dataset == (dataset or ""), t.c.split == (split or ""), t.c.settings.in_([settings, LEGACY_SETTINGS])
        )
        if question_id is not None:
            query = query.where(t.c.question_id == str(question_id))
        return {row[0] for row in conn.execute(query)}

    def records(
        self,
        cluster: int | None = None,
        outcome: str | None = None,
        limit: int | None = None,
        version: int | None = None,
    ) -> list[TraceRecord]:
        """Stored traces in insertion order, optionally those of one cluster (latest clustering
        unless `version` is given) and/or with one outcome."""
        query = sa.select(traces_table).order_by(traces_table.c.id)
        if cluster is not None:
            version = version if version is not None else self.latest_version()
            if version is None:
                return []
            query = query.join(members_table, members_table.c.trace_id == traces_table.c.id).where(
                members_table.c.version == version, members_table.c.cluster_id == cluster
            )
        if outcome is not None:
            query = query.where(traces_table.c.outcome == outcome)
        if limit is not None:
            query = query.limit(limit)
        with self._reading() as conn:
            return [_record(row) for row in conn.execute(query).mappings()]

    def traces(self, cluster: int | None = None, outcome: str | None = None, limit: int | None = None) -> list[Trace]:
        return [r.trace for r in self.records(cluster=cluster, outcome=outcome, limit=limit)]

    def count(self, outcome: str | None = None) -> int:
        query = sa.select(sa.func.count()).select_from(traces_table)
        if outcome is not None:
            query = query.where(traces_table.c.outcome == outcome)
        with self._reading() as conn:
            return int(conn.execute(query).scalar_one())

    def question_ids(self, dataset: str | None, split: str | None) -> set[str]:
        """Ids of the questions already recorded for a dataset split (to resume a learning run)."""
        t = traces_table
        query = sa.select(t.c.question_id).distinct().where(
            t.c.question_id.is_not(None), _eq(t.c.dataset, dataset), _eq(t.c.split, split)
        )
        with self._reading() as conn:
            return {row[0] for row in conn.execute(query)}

    def stats(self) -> dict:
        """Counts by outcome, decider and question type, and the latest clustering."""
        t = traces_table
        with self._reading() as conn:
            def grouped(column: sa.Column) -> dict[str, int]:
                rows = conn.execute(sa.select(column, sa.func.count()).group_by(column))
                return {str(key): int(n) for key, n in sorted(rows, key=lambda r: -r[1])}

            total = int(conn.execute(sa.select(sa.func.count()).select_from(t)).scalar_one())
            outcomes = grouped(t.c.outcome)
            deciders = grouped(t.c.decider)
            qtypes = grouped(t.c.qtype)
            n_clusterings = int(conn.execute(sa.select(sa.func.count()).select_from(clusterings_table)).scalar_one())
        latest = self.latest_clustering()
        labelled = sum(n for key, n in outcomes.items() if key != "None")
        return {
            "memory": self.where,
            "traces": total,
            "labelled": labelled,
            "accuracy": round(outcomes.get("correct", 0) / labelled, 4) if labelled else None,
            "outcomes": outcomes,
            "deciders": deciders,
            "qtypes": qtypes,
            "clusterings": n_clusterings,
            "latest_clustering": None
            if latest is None
            else {"version": latest.version, "k": latest.k, "model": latest.model, "traces": latest.n_traces, "created_at": latest.created_at},
        }

    # -- clusterings -------------------------------------------------------------------------

    def save_clustering(
        self,
        model: str,
        centroids: np.ndarray,
        members: list[Member],
        features: str = FEATURES,
        keys: Iterable[KeyVector] = (),
    ) -> int:
        """Store a new clustering version with its members; returns the version.

        `keys`, the embedded clustering keys, replace the model's stored key vectors in the same
        transaction, so the table holds what the latest clustering of each model embedded.
        """
        centroids = np.ascontiguousarray(centroids, dtype=np.float32)
        keys = list(keys)
        if any(np.asarray(k.vector).shape != (centroids.shape[1],) for k in keys):
            raise ValueError(f"key vectors must have the centroids' {centroids.shape[1]} dimensions")
        with self._writing() as conn:
            version = _new_id(
                conn.execute(
                    clusterings_table.insert().values(
                        created_at=now(),
                        k=int(centroids.shape[0]),
                        model=model,
                        dim=int(centroids.shape[1]),
                        n_traces=len(members),
                        centroids=centroids.tobytes(),
                        features=features,
                    )
                )
            )
            if members:
                conn.execute(
                    members_table.insert(),
                    [{"version": version, "trace_id": m.trace_id, "cluster_id": m.cluster_id, "x": m.x, "y": m.y} for m in members],
                )
            if keys:
                _replace_key_vectors(conn, model, version, keys)
        return version

    def key_vectors(self, model: str, dim: int, limit: int | None = None) -> dict[str, np.ndarray]:
        """Stored embeddings of clustering keys for a model (the commonest first when limited)."""
        t = key_vectors_table
        query = sa.select(t.c.text, t.c.vector).where(t.c.model == model).order_by(t.c.traces.desc(), t.c.text)
        if limit is not None:
            query = query.limit(limit)
        with self._reading() as conn:
            rows = conn.execute(query).all()
        # rows of another dimension cannot be compared with the centroids; they are embedded afresh
        return {text: np.frombuffer(blob, dtype=np.float32) for text, blob in rows if len(blob) == 4 * dim}

    def latest_version(self) -> int | None:
        with self._reading() as conn:
            return conn.execute(sa.select(sa.func.max(clusterings_table.c.version))).scalar_one()

    def latest_clustering(self) -> Clustering | None:
        version = self.latest_version()
        return None if version is None else self.clustering(version)

    def clustering(self, version: int) -> Clustering:
        with self._reading() as conn:
            row = conn.execute(sa.select(clusterings_table).where(clusterings_table.c.version == version)).mappings().first()
        if row is None:
            raise MemoryStoreError(f"{self.where} has no clustering version {version}")
        centroids = np.frombuffer(row["centroids"], dtype=np.float32).reshape(row["k"], row["dim"]).copy()
        features = row["features"] or RAW
        return Clustering(row["version"], row["created_at"], row["k"], row["model"], row["n_traces"], centroids, features)

    def members(self, version: int) -> list[Member]:
        m = members_table
        query = sa.select(m.c.trace_id, m.c.cluster_id, m.c.x, m.c.y).where(m.c.version == version).order_by(m.c.trace_id)
        with self._reading() as conn:
            return [Member(*row) for row in conn.execute(query)]

    # -- facts about the memory as a whole ------------------------------------------------------

    def meta(self, key: str) -> str | None:
        with self._reading() as conn:
            return conn.execute(sa.select(meta_table.c.value).where(meta_table.c.key == key)).scalar_one_or_none()

    def set_meta(self, key: str, value: str) -> None:
        with self._writing() as conn:
            conn.execute(meta_table.delete().where(meta_table.c.key == key))
            conn.execute(meta_table.insert().values(key=key, value=value))

    # -- methodologies -----------------------------------------------------------------------

    def save_methodologies(self, version: int, methodologies: Iterable[Methodology]) -> None:
        rows = [
            {
                "created_at": now(),
                "clustering_version": version,
                "cluster_id": m.cluster_id,
                "source": m.source,
                "text": m.text,
                "programs": json.dumps([_stat_row(p) for p in m.programs]),
                "pitfalls": json.dumps([_stat_row(p) for p in m.pitfalls]),
            }
            for m in methodologies
        ]
        if rows:
            with self._writing() as conn:
                conn.execute(methodologies_table.insert(), rows)

    def methodologies(self, version: int) -> dict[int, Methodology]:
        """The newest methodology of each cluster of a clustering version."""
        t = methodologies_table
        query = sa.select(t).where(t.c.clustering_version == version).order_by(t.c.id)
        found: dict[int, Methodology] = {}
        with self._reading() as conn:
            for row in conn.execute(query).mappings():  # later rows replace earlier ones
                earlier = found.get(row["cluster_id"])
                found[row["cluster_id"]] = Methodology(
                    cluster_id=row["cluster_id"],
                    text=row["text"],
                    programs=[_program_stat(*row) for row in json.loads(row["programs"])],
                    pitfalls=[_program_stat(*row) for row in json.loads(row["pitfalls"])],
                    source=row["source"],
                    clustering_version=version,
                    # an LLM's text is saved right after the induced one it was written beside
                    induced_text=earlier.text if earlier is not None and earlier.source == "induced" and row["source"] == "llm" else "",
                )
        return found

    @contextmanager
    def _reading(self) -> Iterator[Connection]:
        """A connection whose database errors become one-line memory errors (damage names the fix)."""
        try:
            with self.engine.connect() as conn:
                yield conn
        except sa.exc.SQLAlchemyError as exc:
            raise fault(exc, self.where, "read") from None

    @contextmanager
    def _writing(self) -> Iterator[Connection]:
        if self.read_only:
            raise MemoryReadOnlyError(
                f"memory {self.where} is read-only (the file or its folder is not writable): nothing can be recorded in it"
            )
        try:
            with write_transaction(self.engine) as conn:
                yield conn
        except sa.exc.IntegrityError:
            raise  # a constraint the caller relies on (a question recorded twice at once)
        except sa.exc.SQLAlchemyError as exc:
            raise fault(exc, self.where, "write to") from None


# -- helpers ---------------------------------------------------------------------------------


def _replace_key_vectors(conn: Connection, model: str, version: int, keys: list[KeyVector]) -> None:
    if conn.dialect.name == "postgresql":  # two learners must not interleave delete and insert
        conn.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": _PG_KEYS_LOCK})
    conn.execute(key_vectors_table.delete().where(key_vectors_table.c.model == model))
    rows = {
        k.text: {"model": model, "text": k.text, "vector": np.asarray(k.vector, dtype=np.float32).tobytes(),
                 "version": version, "traces": int(k.traces)}
        for k in keys
    }
    conn.execute(key_vectors_table.insert(), list(rows.values()))


def _new_id(inserted: sa.CursorResult) -> int:
    """The id the database gave the row just inserted."""
    key = inserted.inserted_primary_key
    if key is None:
        raise MemoryStoreError("the history store returned no id for the row it inserted")
    return int(key[0])


def _trace_row(trace: Trace, created: str, dataset: str | None, split: str | None, question_id: str | None) -> dict:
    # Fields that have no column of their own go to `data` (none today). Read one by one: converting
    # the whole trace first (Trace.to_dict) would copy every step only to drop it again.
    extra = {k: getattr(trace, k) for k in _EXTRA_FIELDS}
    return {
        "created_at": created,
        "question": trace.question,
        "masked_question": trace.masked_question,
        "steps": json.dumps([s.__dict__ for s in trace.steps], ensure_ascii=False),
        "answers": json.dumps(list(trace.answers), ensure_ascii=False),
        "abstained": bool(trace.abstained),
        "reason": trace.reason,
        "decider": trace.decider,
        "outcome": trace.outcome,
        "qtype": trace.qtype,
        "answer_type": trace.answer_type,
        "dataset": dataset,
        "split": split,
        "question_id": question_id,
        "program": trace.program.render(),
        "data": json.dumps(extra, ensure_ascii=False) if extra else None,
    }


def _record(row) -> TraceRecord:  # noqa: ANN001
    # learning reads every stored trace: empty columns (most `data`) skip the JSON parser
    steps = [_step(s) for s in json.loads(row["steps"])] if row["steps"] else []
    extra = {k: v for k, v in json.loads(row["data"]).items() if k in _TRACE_FIELDS} if row["data"] else {}
    trace = Trace(
        question=row["question"],
        masked_question=row["masked_question"],
        steps=steps,
        answers=json.loads(row["answers"]) if row["answers"] else [],
        abstained=bool(row["abstained"]),
        reason=row["reason"],
        decider=row["decider"],
        outcome=row["outcome"],
        qtype=row["qtype"],
        answer_type=row["answer_type"],
        **extra,
    )
    return TraceRecord(row["id"], trace, row["created_at"], row["dataset"], row["split"], row["question_id"])


def _step(data: dict) -> StepRecord:
    """A stored step; keys a newer or older ARI wrote and this one lacks are dropped (checked only
    when the keys differ: learning reads every step of every trace)."""
    if data.keys() != _STEP_FIELDS:
        data = {k: v for k, v in data.items() if k in _STEP_FIELDS}
    return StepRecord(**data)


def _eq(column: sa.Column, value: str | None) -> sa.ColumnElement:
    return column.is_(None) if value is None else column == value


def _program_stat(program: list[str], support: int, success_rate: float, exemplars: list[str] | None = None) -> ProgramStat:
    """A stored program row; rows written before exemplars were kept have three fields."""
    return ProgramStat(Program.parse(program), int(support), float(success_rate), tuple(exemplars or ()))


def _stat_row(stat: ProgramStat) -> list:
    """How a program's record is stored: [step texts, support, success rate, exemplars]."""
    return [list(stat.program.texts), stat.support, stat.success_rate, list(stat.exemplars)]
