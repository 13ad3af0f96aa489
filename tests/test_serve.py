"""`ari serve` as a user runs it: a real server process on a free loopback port over the demo KG,
asked through a real HTTP client (httpx) and through `ari ask --server`."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from serve_support import ROOT, ari, demo_home, environment, free_port, running

QUESTION = "Who was the last to criticise Iran before Pervez Musharraf did?"  # gold: Condoleezza Rice
QUESTIONS = [
    QUESTION,
    "Who criticised Iran before Pervez Musharraf did?",
    "Who was the first to criticise Iran?",
    "Who praised Iran?",
    "When did Pervez Musharraf criticise Iran?",
    "Who visited Kuwait in 2012?",
]


@pytest.fixture(scope="module")
def files(tmp_path_factory, demo_store_file) -> dict[str, Path]:
    """A private home with copies of the demo KG (and its name vectors) and of the bundled memory."""
    return demo_home(tmp_path_factory.mktemp("serve_home"), demo_store_file)


@pytest.fixture(scope="module")
def server(files) -> Iterator[str]:
    """The URL of an `ari serve` process, stopped after the module's tests."""
    with running(files) as url:
        yield url


def _comparable(result: dict) -> dict:
    return {k: v for k, v in result.items() if k != "elapsed_s"}


def test_health_names_what_was_loaded(server, files):
    reply = httpx.get(server + "/health").json()
    assert reply["status"] == "ok"
    assert Path(reply["db"]) == files["db"]
    assert Path(reply["memory"]) == files["memory"]
    assert reply["decider"] == "offline"


def test_ask_returns_the_json_of_ari_ask(server, files):
    served = httpx.post(server + "/ask", json={"question": QUESTION}, timeout=60)
    assert served.status_code == 200
    local = ari(files["home"], "ask", QUESTION, "--db", str(files["db"]), "--memory", str(files["memory"]), "--json")
    assert local.returncode == 0, local.stderr
    assert served.json()["answer"] == "Condoleezza Rice"
    assert _comparable(served.json()) == _comparable(json.loads(local.stdout))


def test_a_reply_says_how_long_the_agent_took(server):
    reply = httpx.post(server + "/ask", json={"question": QUESTION}, timeout=60)
    assert reply.headers["content-type"] == "application/json"
    timings = dict(entry.strip().split(";dur=") for entry in reply.headers["server-timing"].split(","))
    assert 0 < float(timings["agent"]) <= float(timings["queued-and-agent"])


def test_concurrent_requests_each_get_their_own_answer(server):
    sequential = {q: httpx.post(server + "/ask", json={"question": q}, timeout=60).json() for q in QUESTIONS}
    asked = QUESTIONS * 4
    with ThreadPoolExecutor(max_workers=len(asked)) as pool:
        replies = list(pool.map(lambda q: httpx.post(server + "/ask", json={"question": q}, timeout=120), asked))
    assert all(r.status_code == 200 for r in replies)
    for question, reply in zip(asked, replies):
        assert _comparable(reply.json()) == _comparable(sequential[question])


def test_batch_answers_in_order_as_single_asks_do(server):
    reply = httpx.post(server + "/ask/batch", json={"questions": QUESTIONS}, timeout=120)
    assert reply.status_code == 200
    results = reply.json()["results"]
    assert [r["question"] for r in results] == QUESTIONS
    single = httpx.post(server + "/ask", json={"question": QUESTIONS[2]}, timeout=60).json()
    assert _comparable(results[2]) == _comparable(single)


@pytest.mark.parametrize(
    ("path", "body", "status", "message"),
    [
        ("/ask", b'{"question": ', 400, "body is not valid JSON"),
        ("/ask", b'{"question": "   "}', 422, "question is empty"),
        ("/ask", b"{}", 422, "question: Field required"),
        ("/ask", b'{"question": 7}', 422, "question: Input should be a valid string"),
        ("/ask", b'{"question": "\\ud800"}', 422, "question cannot be read: a lone surrogate U+D800 at character 1"),
        ("/ask/batch", b'{"questions": ["Who praised Iran?", ""]}', 422, "questions[1] is empty"),
        ("/ask/batch", json.dumps({"questions": ["Who praised Iran?"] * 1001}).encode(), 422, "at most 1000"),
    ],
)
def test_bad_requests_get_a_one_line_error(server, path, body, status, message):
    reply = httpx.post(server + path, content=body, headers={"Content-Type": "application/json"}, timeout=60)
    assert reply.status_code == status
    error = reply.json()["error"]
    assert message in error and "\n" not in error
    assert httpx.get(server + "/health").json()["status"] == "ok"  # still serving


def test_a_body_not_sent_as_json_is_refused_with_the_header_to_send(server):
    # `curl -d '{"question": ...}' URL/ask` sends application/x-www-form-urlencoded
    reply = httpx.post(server + "/ask", content=json.dumps({"question": QUESTION}).encode(), timeout=60,
                       headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert reply.status_code == 415
    assert reply.json()["error"] == "send the body as JSON, with the header Content-Type: application/json"


def test_memory_clusters_lists_the_latest_clustering(server):
    rows = httpx.get(server + "/memory/clusters", params={"top": 2}).json()
    assert rows and all({"cluster_id", "size", "accuracy", "top_questions"} <= set(r) for r in rows)
    assert all(len(r["top_questions"]) <= 2 for r in rows)
    assert httpx.get(server + "/memory/clusters", params={"top": 0}).status_code == 422


def test_openapi_docs_are_served(server):
    assert httpx.get(server + "/docs").status_code == 200
    paths = httpx.get(server + "/openapi.json").json()["paths"]
    assert {"/ask", "/ask/batch", "/health", "/memory/clusters"} <= set(paths)


def test_ari_ask_server_prints_what_a_local_ask_prints(server, files):
    remote = ari(files["home"], "ask", QUESTION, "--server", server, "--trace")
    local = ari(files["home"], "ask", QUESTION, "--db", str(files["db"]), "--memory", str(files["memory"]), "--trace")
    assert remote.returncode == 0, remote.stderr
    assert remote.stdout == local.stdout
    assert remote.stdout.startswith("Condoleezza Rice")


def test_ari_server_from_the_environment(server, files):
    env = environment(files["home"]) | {"ARI_SERVER": server}
    run = subprocess.run([sys.executable, "-m", "ari", "ask", QUESTION, "--json"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=60, check=False)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["answer"] == "Condoleezza Rice"


def test_ari_ask_server_reports_errors_in_one_line(server, files):
    refused = ari(files["home"], "ask", QUESTION, "--server", f"http://127.0.0.1:{free_port()}")
    assert refused.returncode == 1
    assert refused.stderr.startswith("Error: cannot reach the ARI server") and refused.stderr.count("\n") == 1
    wrong = ari(files["home"], "ask", QUESTION, "--server", server + "/nowhere")
    assert wrong.returncode == 1
    assert wrong.stderr == f"Error: {server}/nowhere/ask: HTTP 404: no such endpoint: /nowhere/ask\n"
    empty = ari(files["home"], "ask", "  ", "--server", server)  # the one rule for a question, checked before sending it
    assert empty.returncode == 2
    assert empty.stderr == "Error: the question is empty\n"


def test_serve_with_a_missing_store_fails_in_one_line(files, tmp_path):
    run = ari(files["home"], "serve", "--db", str(tmp_path / "nowhere.duckdb"), "--port", str(free_port()))
    assert run.returncode == 1
    assert "Traceback" not in run.stderr and "listening" not in run.stderr
    assert run.stderr.strip().splitlines()[-1].startswith("Error: ")
