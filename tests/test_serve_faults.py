"""`ari serve` against faults and hostile input (issue 27): request limits, deadlines for stalled
clients, the Host header, one shape for every error reply, the agent's thread kept for questions,
and how the server starts and stops. Real server processes on free loopback ports, real sockets."""

from __future__ import annotations

import asyncio
import json
import queue
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from serve_support import (
    ROOT,
    STARTUP_S,
    ari,
    demo_home,
    environment,
    exchange,
    free_port,
    port_of,
    request_head,
    running,
    serve_command,
)

from ari.serve_http import Guard, Limits

TIMEOUT_S = 2  # the module server's --timeout: a stalled client is cut off after this long
WITHIN_S = TIMEOUT_S + 15  # how long a test waits for the server to cut it off (a busy machine)
QUESTION = "Who was the last to criticise Iran before Pervez Musharraf did?"


@pytest.fixture(scope="module")
def files(tmp_path_factory, demo_store_file) -> dict[str, Path]:
    return demo_home(tmp_path_factory.mktemp("faults_home"), demo_store_file)


@pytest.fixture(scope="module")
def server(files) -> Iterator[str]:
    with running(files, "--timeout", str(TIMEOUT_S), "--allow-host", "ari.example") as url:
        yield url


def _error(reply: httpx.Response | bytes) -> str:
    """The one-line message of an error reply, which must be exactly {"error": "..."}."""
    data = json.loads(reply if isinstance(reply, bytes) else reply.content)
    assert list(data) == ["error"] and "\n" not in data["error"], data
    return data["error"]


# -- limits --------------------------------------------------------------------------------------


def test_a_body_over_the_limit_is_refused_before_it_is_read(server):
    port = port_of(server)
    head = request_head("POST", "/ask", port, Content_Type="application/json", Content_Length="10000000")
    status, body = exchange(port, head + b'{"question": "', within=WITHIN_S)  # the other 10 MB never come
    assert status == 413
    assert _error(body) == "the request body is larger than 2048 KiB (--max-body-kb)"


def test_a_question_over_the_length_limit_is_refused(server):
    long = "Who praised Iran? " * 200  # 3,600 characters
    reply = httpx.post(server + "/ask", json={"question": long}, timeout=60)
    assert reply.status_code == 422
    assert _error(reply) == "question is longer than 2000 characters (3600)"
    batch = httpx.post(server + "/ask/batch", json={"questions": [QUESTION, long]}, timeout=60)
    assert batch.status_code == 422
    assert _error(batch) == "questions[1] is longer than 2000 characters (3600)"


def test_a_stalled_body_gets_408_and_the_connection_is_closed(server):
    port = port_of(server)
    head = request_head("POST", "/ask", port, Content_Type="application/json", Content_Length="100")
    started = time.monotonic()
    status, body = exchange(port, head + b'{"question": ', within=WITHIN_S)  # 13 of the 100 bytes
    assert status == 408
    assert _error(body) == f"the request body did not arrive within {TIMEOUT_S} s"
    assert time.monotonic() - started >= TIMEOUT_S - 0.5


@pytest.mark.parametrize("sent", [b"", b"GET /health HTTP/1.1\r\nHost: 127.0"], ids=["nothing", "half a head"])
def test_a_connection_that_sends_no_whole_request_head_is_closed(server, sent):
    started = time.monotonic()
    assert exchange(port_of(server), sent, within=WITHIN_S) == (None, b"")
    assert time.monotonic() - started >= TIMEOUT_S - 0.5


@pytest.mark.parametrize(
    ("host", "status"),
    [("127.0.0.1", 200), ("localhost", 200), ("[::1]", 200), ("ari.example", 200), ("ARI.example", 200),
     ("evil.example", 400), ("127.0.0.1.evil.example", 400)],
)
def test_only_requests_for_this_server_s_names_are_answered(server, host, status):
    # a page on another site that rebinds its name to 127.0.0.1 still sends its own name as Host
    reply = httpx.get(server + "/health", headers={"Host": f"{host}:{port_of(server)}"}, timeout=30)
    assert reply.status_code == status
    if status == 400:
        name = host.lower()
        assert _error(reply) == f"this server does not answer for the host {name} (ari serve --allow-host {name})"


def test_a_chunked_body_is_refused_once_it_passes_the_limit():
    # no Content-Length to refuse it by: the guard counts what arrives, and the app never sees it
    chunks = [{"type": "http.request", "body": b"x" * 700, "more_body": True} for _ in range(5)]
    replies: list[dict] = []

    async def receive() -> dict:
        return chunks.pop(0)

    async def send(message: dict) -> None:
        replies.append(message)

    async def app(scope, receive, send) -> None:
        raise AssertionError("the app was called")

    scope = {"type": "http", "headers": [(b"host", b"localhost:8000"), (b"transfer-encoding", b"chunked")], "server": ("127.0.0.1", 8000)}
    asyncio.run(Guard(app, Limits(max_body_kb=2), "127.0.0.1")(scope, receive, send))
    assert replies[0]["status"] == 413 and (b"connection", b"close") in replies[0]["headers"]
    assert _error(replies[1]["body"]) == "the request body is larger than 2 KiB (--max-body-kb)"
    assert len(chunks) == 2  # three chunks read (2,100 bytes), then no more


# -- one error shape -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "message"),
    [
        ("GET", "/nowhere", None, 404, "no such endpoint: /nowhere"),
        ("POST", "/health", b"{}", 405, "POST is not allowed on /health (allowed: GET)"),
        ("POST", "/ask", b'{"question": "Who visited \xff China?"}', 400, "the body is not UTF-8 text"),
        ("GET", "/memory/clusters?top=abc", None, 422, "top: Input should be a valid integer"),
        ("POST", "/ask", json.dumps({"question": "Who\u0000 praised Iran?"}).encode(), 422,
         "question cannot be read: a NUL character at character 4"),
        ("POST", "/ask", b'{"question": ""}', 422, "question is empty"),
    ],
)
def test_every_error_reply_is_one_json_line(server, method, path, body, status, message):
    reply = httpx.request(method, server + path, content=body, headers={"Content-Type": "application/json"}, timeout=60)
    assert reply.status_code == status
    assert _error(reply).startswith(message)


def test_a_request_that_is_not_http_gets_a_json_400(server):
    status, body = exchange(port_of(server), b"NOT HTTP AT ALL\r\n\r\n", within=WITHIN_S)
    assert status == 400 and _error(body) == "not a valid HTTP request"


# -- the agent's thread --------------------------------------------------------------------------


def test_memory_clusters_are_read_while_the_agent_answers(server):
    # 999 questions keep the agent's thread busy for seconds; before, the clusters waited for all
    questions = [QUESTION, "Who praised Iran?", "Who visited Kuwait in 2012?"] * 333
    with ThreadPoolExecutor(1) as pool:
        batch = pool.submit(httpx.post, server + "/ask/batch", json={"questions": questions}, timeout=600)
        deadline = time.monotonic() + 60
        while httpx.get(server + "/health", timeout=30).json()["pending"] < 200:
            assert not batch.done() and time.monotonic() < deadline, "the batch never queued up"
            time.sleep(0.01)
        clusters = httpx.get(server + "/memory/clusters", params={"top": 1}, timeout=60)
        still_pending = httpx.get(server + "/health", timeout=30).json()["pending"]
        assert clusters.status_code == 200 and clusters.json()
        assert still_pending > 0 and not batch.done()
        assert batch.result().status_code == 200


# -- /docs ---------------------------------------------------------------------------------------


def test_docs_need_nothing_from_another_site(server):
    page = httpx.get(server + "/docs", timeout=30)
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "http://" not in page.text and "https://" not in page.text and "//cdn" not in page.text
    assert 'href="/openapi.json"' in page.text
    assert all(path in page.text for path in ("/ask", "/ask/batch", "/health", "/memory/clusters"))
    assert httpx.get(server + "/redoc", timeout=30).status_code == 404  # ReDoc, also from a CDN, is gone


# -- start and stop ------------------------------------------------------------------------------


def test_a_port_in_use_is_said_in_one_line_before_loading(files, tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        # a missing store would fail the loading: the port is checked first
        run = ari(files["home"], "serve", "--db", str(tmp_path / "nowhere.duckdb"), "--port", str(port), timeout=60)
    assert run.returncode == 1
    assert run.stderr == f"Error: port {port} on 127.0.0.1 is in use\n"


def _lines(stream) -> queue.Queue:
    """The stream's lines as they come, on a queue (None at its end), so reads can have deadlines."""
    lines: queue.Queue = queue.Queue()

    def pump() -> None:
        for line in stream:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=pump, daemon=True).start()
    return lines


def _next_line(lines: queue.Queue, deadline: float) -> str | None:
    try:
        return lines.get(timeout=max(0.0, deadline - time.monotonic()))
    except queue.Empty:
        pytest.fail("ari serve said nothing more before the deadline")


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "term"])
def test_listening_is_said_once_listening_and_a_stop_signal_exits_130(files, stop):
    port = free_port()
    process = subprocess.Popen(serve_command(files, port), cwd=ROOT, env=environment(files["home"]), stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True,
                               # SIGINT's default action, even when this suite runs in a background job (which ignores it)
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        lines, said = _lines(process.stderr), []
        deadline = time.monotonic() + STARTUP_S
        while not said or "listening on" not in said[-1]:
            line = _next_line(lines, deadline)
            assert line is not None, f"ari serve ended: {''.join(said)}"
            said.append(line)
        assert httpx.get(f"http://127.0.0.1:{port}/health", timeout=30).status_code == 200  # already up
        assert said[-1] == f"ari serve: listening on http://127.0.0.1:{port} (docs at /docs)\n"
        process.send_signal(stop)
        assert process.wait(timeout=60) == 130
        rest = []
        while (line := _next_line(lines, time.monotonic() + 30)) is not None:
            rest.append(line)
        assert rest == ["interrupted\n"]
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
