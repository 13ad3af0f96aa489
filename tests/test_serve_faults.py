"""`ari serve` against faults and hostile input (issue 27): request limits, deadlines for stalled
clients, the Host header, one shape for every error reply, the agent's thread kept for questions,
and how the server starts and stops. Real server processes on free loopback ports, real sockets."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from serve_support import demo_home, running

TIMEOUT_S = 2  # the module server's --timeout: a stalled client is cut off after this long
WITHIN_S = TIMEOUT_S + 15  # how long a test waits for the server to cut it off (a busy machine)
QUESTION = "Who was the last to criticise Iran before Pervez Musharraf did?"


@pytest.fixture(scope="module")
def files(tmp_path_factory, demo_store_file) -> dict[str, Path]:
    return demo_home(tmp_path_factory.mktemp("faults_home"), demo_store_file)


@pytest.fixture(scope="module")
def server(files) -> Iterator[str]:
    with running(files) as url:
        yield url


def _error(reply: httpx.Response | bytes) -> str:
    """The one-line message of an error reply, which must be exactly {"error": "..."}."""
    data = json.loads(reply if isinstance(reply, bytes) else reply.content)
    assert list(data) == ["error"] and "\n" not in data["error"], data
    return data["error"]


# -- one error shape -----------------------------------------------------------------------------


def test_a_question_over_the_length_limit_is_refused(server):
    long = "Who praised Iran? " * 200  # 3,600 characters
    reply = httpx.post(server + "/ask", json={"question": long}, timeout=60)
    assert reply.status_code == 422
    assert _error(reply) == "question is longer than 2000 characters (3600)"
    batch = httpx.post(server + "/ask/batch", json={"questions": [QUESTION, long]}, timeout=60)
    assert batch.status_code == 422
    assert _error(batch) == "questions[1] is longer than 2000 characters (3600)"


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
