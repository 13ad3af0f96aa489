"""An LLM that fails (the endpoint errs past its retries, or every reply names no offered action even
after it was fed back) gives no outcome: an error everywhere, never an abstention. `ari ask` exits 1
with one line, `ari serve` replies 502 `{"error": ...}`, neither records the attempt in the memory,
and `bench run` counts it as an error, apart from the metrics. Real processes against a real local
server speaking the OpenAI protocol (`benchmarks.scripted_llm`)."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from benchmarks.scripted_llm import ANSWERABLE, ScriptedChatServer, is_judge
from memory import HistoryStore, bundled_memory_path
from tkg_store.demo import demo_questions

ROOT = Path(__file__).resolve().parents[1]
QUESTION = "Who was the last to criticise Iran before Pervez Musharraf did?"


def unparseable(body: dict) -> str:
    """A model that judges, then never names an action: 200 replies with no action in the text."""
    return ANSWERABLE if is_judge(body) else "I am not sure which step comes next."


FAILURES = {"unparseable": (unparseable, "replied twice with no offered action"), "endpoint": (None, "InternalServerError")}


@pytest.fixture
def files(tmp_path, demo_store_file) -> dict[str, Path]:
    for built in demo_store_file.parent.glob("demo.duckdb*"):
        shutil.copyfile(built, tmp_path / built.name)
    shutil.copyfile(bundled_memory_path(), tmp_path / "memory.sqlite")
    return {"home": tmp_path, "db": tmp_path / "demo.duckdb", "memory": tmp_path / "memory.sqlite"}


def _traces(memory: Path) -> int:
    with HistoryStore.open(memory, create=False) as history:
        return history.count()


def _environment(home: Path, llm: ScriptedChatServer) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ARI_", "OPENAI_"))}
    return {**env, "ARI_HOME": str(home), "OPENAI_BASE_URL": llm.base_url, "PYTHONPATH": str(ROOT),
            "ARI_LLM_RETRIES": "0", "ARI_LLM_CACHE": "off"}


@pytest.mark.parametrize("failure", FAILURES)
def test_ari_ask_exits_1_in_one_line_and_records_nothing(files, failure):
    policy, message = FAILURES[failure]
    before = _traces(files["memory"])
    with ScriptedChatServer(policy=policy) as llm:
        done = subprocess.run(
            [sys.executable, "-m", "ari", "ask", QUESTION, "--db", str(files["db"]), "--memory", str(files["memory"]),
             "--decider", "openai:scripted"],
            cwd=ROOT, env=_environment(files["home"], llm), capture_output=True, text=True, timeout=300,
        )
    assert done.returncode == 1, done.stdout + done.stderr
    [line] = done.stderr.splitlines()
    assert line.startswith("Error: ") and message in line
    assert done.stdout == ""  # no "No Answer": there is no outcome to print
    assert _traces(files["memory"]) == before


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.parametrize("failure", FAILURES)
def test_ari_serve_replies_502_and_records_nothing(files, failure):
    policy, message = FAILURES[failure]
    before = _traces(files["memory"])
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    with ScriptedChatServer(policy=policy) as llm, open(files["home"] / "serve.log", "w") as log:
        command = [sys.executable, "-m", "ari", "serve", "--db", str(files["db"]), "--memory", str(files["memory"]),
                   "--decider", "openai:scripted", "--port", str(port)]
        process = subprocess.Popen(command, cwd=ROOT, env=_environment(files["home"], llm), stdout=log, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 180
            while time.monotonic() < deadline and process.poll() is None:
                try:
                    if httpx.get(url + "/health", timeout=2).status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.2)
            reply = httpx.post(url + "/ask", json={"question": QUESTION}, timeout=120)
            assert reply.status_code == 502, reply.text
            [(key, error)] = reply.json().items()
            assert key == "error" and message in error and "\n" not in error
            assert httpx.get(url + "/health", timeout=5).json()["questions_answered"] == 1  # answered, then not recorded
        finally:
            process.terminate()
            process.wait(timeout=30)
    assert _traces(files["memory"]) == before, (files["home"] / "serve.log").read_text()


def test_bench_run_counts_unparseable_replies_as_errors_not_abstentions(files, tmp_path):
    from benchmarks.plan import RunSpec, run

    questions = tmp_path / "questions.json"
    questions.write_text(json.dumps(demo_questions()[:2]), encoding="utf-8")
    with ScriptedChatServer(policy=unparseable) as llm:
        llm_settings = {"base_url": llm.base_url, "retries": 0, "timeout_s": 5.0, "cache": None}
        spec = RunSpec(dataset="multitq", out=tmp_path / "run", db=files["db"], questions_file=questions, quiet=True,
                       memory_url=str(files["memory"]), agent={"decider": "openai:scripted", "llm": llm_settings})
        summary = run(spec).summary
    assert summary["errors"] == 2 and summary["n"] == 0 and not summary["complete"]
    assert all("replied twice with no offered action" in e for e in summary["error_examples"])
