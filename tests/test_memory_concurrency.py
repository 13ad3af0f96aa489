"""Several processes writing one memory at once lose nothing: SQLite (always) and PostgreSQL
(when ARI_TEST_PG_URL names a reachable server; `.ci/run` sets one up)."""

from __future__ import annotations

import multiprocessing
import os
import uuid

import pytest

from memory import HistoryStore
from memory.trace import StepRecord, Trace

WORKERS = 4
TRACES_EACH = 50


def _write_traces(target: str, worker: int, n: int, start) -> None:  # noqa: ANN001
    """One process: wait for the others, open the memory itself and add n traces, one transaction each."""
    start.wait(timeout=60)  # all workers open (and maybe create and migrate) the memory at the same moment
    with HistoryStore.open(target) as store:
        for i in range(n):
            trace = Trace(
                question=f"worker {worker} question {i}",
                masked_question="Who did {E1} visit in {T1}?",
                steps=[StepRecord(1, ["answer(#0)"], "answer(#0)", "answer(#0)", 1)],
                answers=[f"answer {worker}-{i}"],
                outcome="correct" if i % 2 else "wrong",
            )
            store.add_trace(trace, dataset="synthetic", split=f"w{worker}", question_id=str(i))


def _run_writers(target: str) -> None:
    ctx = multiprocessing.get_context("spawn")  # fresh interpreters: no state shared with the test process
    start = ctx.Barrier(WORKERS)
    processes = [ctx.Process(target=_write_traces, args=(target, w, TRACES_EACH, start)) for w in range(WORKERS)]
    for p in processes:
        p.start()
    for p in processes:
        p.join(timeout=120)
    assert [p.exitcode for p in processes] == [0] * WORKERS


def _assert_all_written(target: str) -> None:
    with HistoryStore.open(target) as store:
        assert store.count() == WORKERS * TRACES_EACH
        seen = {r.trace.question for r in store.records()}
        for w in range(WORKERS):
            assert store.question_ids("synthetic", f"w{w}") == {str(i) for i in range(TRACES_EACH)}
    assert len(seen) == WORKERS * TRACES_EACH


def test_concurrent_processes_on_one_sqlite_file(tmp_path):
    # The file does not exist yet: the workers also race to create and migrate it.
    target = str(tmp_path / "shared.sqlite")
    _run_writers(target)
    _assert_all_written(target)


@pytest.fixture
def postgres_url():
    """A fresh schema on the test server, dropped afterwards; skips (with the reason) when there is none."""
    url = os.environ.get("ARI_TEST_PG_URL")
    if not url:
        pytest.skip("PostgreSQL test skipped: ARI_TEST_PG_URL is not set (.ci/run sets it when CI=true or ARI_PG_SETUP=1)")
    try:
        import psycopg  # noqa: F401
    except ImportError:
        pytest.skip("PostgreSQL test skipped: psycopg is not installed (pip install 'ari-tkgqa[postgres]')")
    import sqlalchemy as sa

    base = sa.engine.make_url(url)
    schema = f"ari_test_{uuid.uuid4().hex[:10]}"
    admin = sa.create_engine(base, connect_args={"connect_timeout": 5})
    try:
        with admin.begin() as conn:
            conn.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
    except sa.exc.OperationalError as exc:
        admin.dispose()
        pytest.skip(f"PostgreSQL test skipped: no server reachable at {base.render_as_string(hide_password=True)} ({str(exc.orig).strip().splitlines()[0]})")
    scoped = base.update_query_dict({"options": f"-csearch_path={schema}"})
    try:
        yield scoped.render_as_string(hide_password=False)
    finally:
        with admin.begin() as conn:
            conn.exec_driver_sql(f'DROP SCHEMA "{schema}" CASCADE')
        admin.dispose()


def test_concurrent_processes_on_postgresql(postgres_url):
    _run_writers(postgres_url)
    _assert_all_written(postgres_url)


def test_postgresql_round_trip_and_learning_tables(postgres_url):
    import numpy as np

    from actions.programs import Program
    from memory.history import KeyVector, Member
    from memory.types import Methodology, ProgramStat

    with HistoryStore.open(postgres_url) as store:
        [trace_id] = store.add_traces([Trace("q", "m", answers=["a"], outcome="correct")])
        keys = [KeyVector("m", np.array([0.5, 0.25], dtype=np.float32), 1)]
        store.save_clustering("model", np.eye(2, dtype=np.float32), [Member(trace_id, 1, 0.5, -0.5)], keys=keys)
        version = store.save_clustering("model", np.eye(2, dtype=np.float32), [Member(trace_id, 1, 0.5, -0.5)], keys=keys)
        assert {t: v.tolist() for t, v in store.key_vectors("model", 2).items()} == {"m": [0.5, 0.25]}
        store.save_methodologies(version, [Methodology(1, "Overall Instruction: x", [ProgramStat(Program.parse(["answer(#1)"]), 1, 1.0)])])
        assert store.latest_clustering().centroids.tolist() == [[1.0, 0.0], [0.0, 1.0]]
        [stat] = store.methodologies(version)[1].programs
        assert (list(stat.program.texts), stat.support, stat.success_rate) == (["answer(#1)"], 1, 1.0)
        assert [r.id for r in store.records(cluster=1)] == [trace_id]


def test_a_server_that_accepts_and_never_answers_is_a_timeout_not_a_hang():
    """A PostgreSQL URL whose server accepts the connection and then stays silent: opening the
    memory gives up after the connect timeout with a one-line error (it used to wait forever)."""
    pytest.importorskip("psycopg", reason="psycopg is not installed (pip install 'ari-tkgqa[postgres]')")
    import socket
    import threading

    from ari.base.errors import MemoryStoreError

    server = socket.create_server(("127.0.0.1", 0))
    accepted = []
    threading.Thread(target=lambda: accepted.append(server.accept()), daemon=True).start()
    port = server.getsockname()[1]
    outcome: list[BaseException | None] = []

    def open_memory() -> None:
        try:
            HistoryStore.open(f"postgresql+psycopg://ari@127.0.0.1:{port}/ari").close()
            outcome.append(None)
        except BaseException as exc:  # noqa: BLE001 (handed to the test thread)
            outcome.append(exc)

    opener = threading.Thread(target=open_memory, daemon=True)
    opener.start()
    opener.join(timeout=120)  # a guard only: the connect timeout ends it long before
    server.close()
    assert not opener.is_alive(), "opening the memory hung on a silent server"
    assert accepted, "the client never connected"
    [error] = outcome
    assert isinstance(error, MemoryStoreError)
    assert f"127.0.0.1:{port}" in str(error) and "\n" not in str(error)


def test_postgresql_sessions_carry_a_statement_timeout_and_learning_is_idempotent(postgres_url):
    with HistoryStore.open(postgres_url) as store:
        with store.engine.connect() as conn:
            assert conn.exec_driver_sql("SHOW statement_timeout").scalar() == "5min"
            assert conn.exec_driver_sql("SHOW search_path").scalar().startswith("ari_test_")  # the URL's options kept
        trace = Trace("q", "m", answers=["a"], outcome="correct")
        assert store.add_question_traces([trace], dataset="d", split="s", question_id="1", settings="k")
        assert not store.add_question_traces([trace], dataset="d", split="s", question_id="1", settings="k")
        assert store.count() == 1 and store.learned_ids("d", "s", "k") == {"1"}
