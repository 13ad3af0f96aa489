"""`ari ask` end to end through the console entry point (in process, so the embedder loads once).

Every test runs under its own ARI_HOME; the first one starts from an empty home, as a new user
does: the demo KG is built and the bundled demo memory copied there on first use.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from ari.cli import main
from memory import bundled_memory_path
from tests.model_support import copied_model

QUESTION = "Who was the last to criticise Iran before Pervez Musharraf did?"  # gold: Condoleezza Rice


def ari(monkeypatch, capsys, *args: str) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of `ari ARGS` as the console script runs it."""
    monkeypatch.setattr(sys, "argv", ["ari", *args])
    code = 0
    try:
        main()
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def home(monkeypatch, tmp_path, demo_store_file):
    """A private ARI_HOME holding the (already built) demo KG, no other ARI settings."""
    for name in ("ARI_DB", "ARI_MEMORY", "ARI_DECIDER", "OPENAI_BASE_URL", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    for built in demo_store_file.parent.glob("demo.duckdb*"):  # the store and its name vectors
        shutil.copyfile(built, tmp_path / built.name)
    monkeypatch.setenv("ARI_HOME", str(tmp_path))
    return tmp_path


def test_out_of_the_box_answer_uses_the_bundled_memory(monkeypatch, capsys, tmp_path):
    for name in ("ARI_DB", "ARI_MEMORY", "ARI_DECIDER", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("ARI_HOME", str(tmp_path))  # empty: nothing built yet
    code, out, err = ari(monkeypatch, capsys, "ask", QUESTION)
    assert code == 0, err
    assert out.strip().startswith("Condoleezza Rice")
    assert (tmp_path / "demo.duckdb").is_file()
    copy = tmp_path / "demo-memory.sqlite"
    assert copy.is_file()
    from memory import Memory

    with Memory.open(copy, create=False) as mem:
        assert mem.methodologies(), "the copied memory has the bundled methodologies"
        recorded = mem.history.traces(limit=100_000)
        assert any(t.question == QUESTION for t in recorded)  # the run was recorded in the user's copy


def test_trace_prints_the_steps_table(monkeypatch, capsys, home):
    code, out, _ = ari(monkeypatch, capsys, "ask", "--trace", QUESTION)
    assert code == 0
    assert "Condoleezza Rice" in out.splitlines()[0]
    assert "Trace" in out and "chosen because" in out
    assert "answer(#" in out and "getBefore(" in out
    assert "entities found" in out  # the judge's audit lines


def test_json_output(monkeypatch, capsys, home):
    code, out, _ = ari(monkeypatch, capsys, "ask", "--json", QUESTION)
    assert code == 0
    data = json.loads(out)
    assert data["answer"] == "Condoleezza Rice"
    assert data["answers"][0] == "Condoleezza Rice"
    assert data["abstained"] is False and data["reason"] is None and data["unguided"] is False
    assert data["steps"] and data["steps"][-1]["chosen"].startswith("answer(#")
    assert all(s["abstract"] and s["result_size"] > 0 for s in data["steps"])


def test_abstention_prints_no_answer_and_why(monkeypatch, capsys, home):
    code, out, _ = ari(monkeypatch, capsys, "ask", "When did Iran criticise Thailand?")
    assert code == 0
    assert out.strip() == "No Answer — no fact links Iran and Thailand"


def test_unknown_decider_is_a_usage_error(monkeypatch, capsys, home):
    code, out, err = ari(monkeypatch, capsys, "ask", "--decider", "nope", QUESTION)
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "unknown decider 'nope'" in lines[0]


def test_explicit_db_and_memory(monkeypatch, capsys, home, tmp_path):
    memory = tmp_path / "mine.sqlite"
    shutil.copyfile(bundled_memory_path(), memory)
    code, out, _ = ari(monkeypatch, capsys, "ask", "--db", str(home / "demo.duckdb"), "--memory", str(memory), "--json", QUESTION)
    assert code == 0 and json.loads(out)["answer"] == "Condoleezza Rice"


def memory_learnt_with(model: Path, at: Path) -> Path:
    """The bundled memory as if learnt with the model folder `model` (its clusterings name that path)
    and keeping no question-shape vectors, so each question's shape is embedded with that model."""
    shutil.copyfile(bundled_memory_path(), at)
    with closing(sqlite3.connect(at)) as db, db:
        db.execute("update clusterings set model = ?", (str(model),))
        db.execute("delete from key_vectors")
    return at


def test_a_memory_learnt_with_a_copy_of_the_model_answers_without_sentence_transformers(monkeypatch, capsys, home, tmp_path):
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)  # as where it is not installed
    memory = memory_learnt_with(copied_model(tmp_path / "elsewhere" / "model"), tmp_path / "moved.sqlite")
    code, out, err = ari(monkeypatch, capsys, "ask", "--memory", str(memory), "--json", QUESTION)
    assert code == 0, err
    assert json.loads(out)["answer"] == "Condoleezza Rice"
    # a model only sentence-transformers runs: one line saying so, not an abstention per question
    memory = memory_learnt_with(copied_model(tmp_path / "cls", pooling="cls"), tmp_path / "cls.sqlite")
    code, out, err = ari(monkeypatch, capsys, "ask", "--memory", str(memory), "--json", QUESTION)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "needs sentence-transformers" in err


def test_missing_db_is_one_line_error(monkeypatch, capsys, home, tmp_path):
    code, _, err = ari(monkeypatch, capsys, "ask", "--db", str(tmp_path / "absent.duckdb"), QUESTION)
    assert code != 0
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_unreachable_endpoint_is_an_error_exit_1_and_not_recorded(monkeypatch, capsys, home):
    from memory import Memory

    port = _closed_port()
    monkeypatch.setenv("OPENAI_BASE_URL", f"http://127.0.0.1:{port}/v1")
    monkeypatch.setenv("ARI_LLM_RETRIES", "0")
    ari(monkeypatch, capsys, "ask", QUESTION)  # the offline answer records one trace in the demo memory
    with Memory.open(str(home / "demo-memory.sqlite"), create=False) as memory:
        before = memory.history.stats()["traces"]
    code, out, err = ari(monkeypatch, capsys, "ask", "--decider", "openai:x", "--json", QUESTION)
    assert "Traceback" not in err
    assert code == 1
    assert len(err.strip().splitlines()) == 1 and f"127.0.0.1:{port}" in err and "APIConnectionError" in err
    data = json.loads(out)
    assert data["abstained"] is True and data["answer"] is None
    assert f"127.0.0.1:{port}" in data["error"] and "APIConnectionError" in data["error"]
    with Memory.open(str(home / "demo-memory.sqlite"), create=False) as memory:
        assert memory.history.stats()["traces"] == before  # a failure says nothing about how to answer


@pytest.fixture
def bare_store(home, tmp_path):
    """A copy of the demo KG elsewhere: no memory beside it, none bundled for it."""
    bare = tmp_path / "bare" / "kg.duckdb"
    bare.parent.mkdir()
    shutil.copyfile(home / "demo.duckdb", bare)
    return bare


def test_no_learned_memory_no_answer_but_the_command_that_builds_one(monkeypatch, capsys, bare_store):
    code, out, err = ari(monkeypatch, capsys, "ask", "--db", str(bare_store), QUESTION)
    assert code == 1 and out == ""
    assert err.strip() == (
        f"Error: no learned memory for {bare_store}: build one with `ari memory learn --dataset DATASET --data-dir DIR "
        f"--search --db {bare_store} --memory {bare_store}.memory.sqlite`, or add --unguided to answer by a greedy "
        "walk without one"
    )
    empty = bare_store.parent / "empty.sqlite"
    from memory import Memory

    Memory.open(empty).close()  # traces may come later; nothing learnt yet
    code, _, err = ari(monkeypatch, capsys, "ask", "--db", str(bare_store), "--memory", str(empty), QUESTION)
    assert code == 1 and err.startswith(f"Error: {empty} has no learned methodologies: build one with")


def test_unguided_answers_and_says_so(monkeypatch, capsys, bare_store):
    code, out, _ = ari(monkeypatch, capsys, "ask", "--db", str(bare_store), "--unguided", QUESTION)
    assert code == 0 and out.strip().endswith("(unguided: a greedy walk, no learned methodology)")
    code, out, _ = ari(monkeypatch, capsys, "ask", "--db", str(bare_store), "--unguided", "--json", QUESTION)
    assert code == 0 and json.loads(out)["unguided"] is True
    assert not (bare_store.parent / "kg.duckdb.memory.sqlite").exists()  # nothing made up beside the store


def test_unguided_ignores_a_learned_memory_too(monkeypatch, capsys, home):
    code, out, _ = ari(monkeypatch, capsys, "ask", "--unguided", "--json", QUESTION)
    data = json.loads(out)
    assert code == 0 and data["unguided"] is True
    assert not any("methodology" in step["reason"] for step in data["steps"])  # the greedy walk, as marked


def test_no_fact_in_the_stated_month_abstains_with_the_nearest_facts(monkeypatch, capsys, home):
    # Iran has facts in September 2008 (an appeal), but nobody criticised it that month
    code, out, _ = ari(monkeypatch, capsys, "ask", "Who criticised Iran in September 2008?")
    assert code == 0
    assert out.strip() == (
        "No Answer — no fact of 'Criticize or denounce' involving Iran in 2008-09 supports an answer "
        "(nearest: Egypt Criticize or denounce Iran on 2009-02-04; Iran Criticize or denounce Pakistan on 2007-11-12; "
        "Pervez Musharraf Criticize or denounce Iran on 2007-11-05)"
    )


def test_json_carries_the_evidence_as_a_list(monkeypatch, capsys, home):
    code, out, _ = ari(monkeypatch, capsys, "ask", "--json", "Who criticised Iran in 2008-09?")
    assert code == 0
    data = json.loads(out)
    assert data["abstained"] is True and data["answer"] is None
    assert data["reason"].startswith("no fact of 'Criticize or denounce' involving Iran in 2008-09")
    assert data["evidence"][0] == "Egypt Criticize or denounce Iran on 2009-02-04"
    assert len(data["evidence"]) == 3


@pytest.mark.parametrize(
    ("question", "reason"),
    [
        ("Iran", "'Iran' is a bare name or fragment, not a question: ask who, what, which or when"),
        ("Angela Merkel criticised Iran in 2007.", "'Angela Merkel criticised Iran in 2007.' is a statement, not a question: ask who, what, which or when"),
        ("Who criticised Iran in early 2008?", "cannot read the time 'early 2008' (no such date, or vaguer than a day, month or year)"),
        ("Who criticised Iran on 2012-13-45?", "cannot read the time '2012-13-45' (no such date, or vaguer than a day, month or year)"),
    ],
)
def test_what_cannot_be_asked_is_named(monkeypatch, capsys, home, question, reason):
    code, out, _ = ari(monkeypatch, capsys, "ask", "--json", question)
    assert code == 0
    data = json.loads(out)
    assert data["abstained"] is True and data["reason"] == reason and data["evidence"] == []


def test_a_stated_decade_outside_the_kg_is_read_not_dropped(monkeypatch, capsys, home):
    code, out, _ = ari(monkeypatch, capsys, "ask", "Who criticised Iran in the 1850s?")
    assert code == 0
    assert out.startswith("No Answer — the KG covers") and "1850" in out


def test_one_question_starts_numpy_blas_on_one_thread(monkeypatch, capsys, home):
    # OpenBLAS reads this when numpy loads: a cold `ari ask` then starts no pool of spinning threads
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "")  # recorded, so what the command sets is undone after the test
    monkeypatch.delenv("OPENBLAS_NUM_THREADS")
    code, _, err = ari(monkeypatch, capsys, "ask", QUESTION, "--no-record")
    assert code == 0, err
    assert os.environ["OPENBLAS_NUM_THREADS"] == "1"


def test_a_blas_thread_count_the_user_set_is_kept(monkeypatch, capsys, home):
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "3")
    code, _, err = ari(monkeypatch, capsys, "ask", QUESTION, "--no-record")
    assert code == 0, err
    assert os.environ["OPENBLAS_NUM_THREADS"] == "3"


def test_numpy_loaded_after_the_setting_runs_blas_on_one_thread():
    script = ("from ari.base.processes import blas_on_one_thread; blas_on_one_thread(); import numpy; "
              "from threadpoolctl import threadpool_info; "
              "print([p['num_threads'] for p in threadpool_info() if p['user_api'] == 'blas'])")
    env = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS")}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=60, check=True)
    assert json.loads(done.stdout) == [1]
