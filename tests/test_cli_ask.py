"""`ari ask` end to end through the console entry point (in process, so the embedder loads once).

Every test runs under its own ARI_HOME; the first one starts from an empty home, as a new user
does: the demo KG is built and the bundled demo memory copied there on first use.
"""

from __future__ import annotations

import json
import shutil
import socket
import sys

import pytest

from ari.cli import main
from memory import bundled_memory_path

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
    assert data["abstained"] is False and data["reason"] is None
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
