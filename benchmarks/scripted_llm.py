"""A real local HTTP server speaking the OpenAI chat-completions protocol, replying from a script or
a policy: the LLM path measured without an LLM (tests and `benchmarks/llm_path_bench.py`).

A scripted entry is a reply text, an int HTTP status to fail with, ("sleep", seconds, entry) to
answer late, ("error", status, message) to fail with that message, ("garbage",) for a body that is not JSON, or a callable that gets the request body
and returns one of those. When the script is empty the server's policy answers (by default every
request fails with 500). Policies read the prompt the way a model would: the numbered candidates
and the one marked as the methodology's suggestion.

- `follow`: the suggested candidate when one is marked, else candidate 1;
- `first`: always candidate 1;
- `random`: a candidate drawn with a seed (the same prompt always draws the same one);
- `faulty`: `follow`, except that a seeded share of requests fail: HTTP 500, a body that is not
  JSON, or a reply later than the client's timeout. The same prompt always fails the same way, so
  the client's retries do not rescue it.

Every request body is kept in `requests`, so tests can check the prompts the decider sent.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import threading
import time
from collections import deque
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

JUDGE_MARK = "Conclusion: ANSWERABLE or UNANSWERABLE"
SUGGESTED_MARK = "<- suggested by the methodology"
ANSWERABLE = "Entities: found\nRelation: found\nTime: inside\nConclusion: ANSWERABLE"
Entry = object  # str | int | tuple | Callable[[dict], Entry]


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256  # the listen backlog: many clients connect at once (the default 5 refuses them)


class ScriptedChatServer:
    def __init__(self, script: list | None = None, policy: Callable[[dict], Entry] | None = None, latency_s: float = 0.0) -> None:
        self.script: deque = deque(script or [])
        self.policy = policy
        self.latency_s = latency_s
        self.requests: list[dict] = []
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keep-alive, as real servers: a client reuses its connections
            disable_nagle_algorithm = True  # headers and body go out at once, not 40 ms apart (delayed ACK)

            def log_message(self, *args) -> None:  # keep output clean
                pass

            def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                entry = server._next(body)
                if server.latency_s:
                    time.sleep(server.latency_s)
                while callable(entry):
                    entry = entry(body)
                while isinstance(entry, tuple) and entry[0] == "sleep":
                    time.sleep(entry[1])
                    entry = entry[2]
                if isinstance(entry, tuple) and entry[0] == "error":  # ("error", status, message)
                    self._send(entry[1], {"error": {"message": entry[2], "type": "invalid_request_error"}})
                elif isinstance(entry, tuple) and entry[0] == "garbage":
                    self._send_raw(200, b"<html>upstream proxy error</html> {not json")
                elif isinstance(entry, int):
                    self._send(entry, {"error": {"message": f"scripted status {entry}", "type": "server_error"}})
                else:
                    self._send(200, completion(body, str(entry)))

            def _send(self, status: int, payload: dict) -> None:
                self._send_raw(status, json.dumps(payload).encode())

            def _send_raw(self, status: int, data: bytes) -> None:
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout)

        self._httpd = _Server(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    def _next(self, body: dict) -> Entry:
        with self._lock:
            self.requests.append(body)
            if self.script:
                return self.script.popleft()
        return self.policy if self.policy is not None else 500

    @property
    def base_url(self) -> str:
        host, port = self._httpd.server_address[:2]
        if isinstance(host, bytes):  # typeshed allows a bytes host; an AF_INET server has a str one
            host = host.decode()
        return f"http://{host}:{port}/v1"

    def __enter__(self) -> "ScriptedChatServer":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()


def completion(body: dict, text: str) -> dict:
    """A chat completion for `text`, with token counts estimated as a tokenizer would (~4 chars a token)."""
    prompt_chars = sum(len(str(m.get("content", ""))) for m in body.get("messages", []))
    prompt_tokens, completion_tokens = max(1, prompt_chars // 4), max(1, len(text) // 4)
    return {
        "id": "chatcmpl-scripted",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model", "scripted"),
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                  "total_tokens": prompt_tokens + completion_tokens},
    }


# -- reading a request as a model would ------------------------------------------------------------

def prompt_text(body: dict) -> str:
    """The first user message: the decision (or judge) prompt, whatever corrections followed it."""
    return next((str(m["content"]) for m in body.get("messages", []) if m.get("role") == "user"), "")


def is_judge(body: dict) -> bool:
    return JUDGE_MARK in prompt_text(body)


def candidates(body: dict) -> list[tuple[str, bool]]:
    """The numbered candidates of a decision prompt: (action, marked as suggested)."""
    prompt = prompt_text(body)
    if "Candidate actions:\n" not in prompt:
        return []
    listing = prompt.split("Candidate actions:\n", 1)[1].split("\n\n", 1)[0]
    found = []
    for line in listing.splitlines():
        match = re.match(r"^\d+\. (.*?)(\s+" + re.escape(SUGGESTED_MARK) + r")?$", line)
        if match:
            found.append((match.group(1), match.group(2) is not None))
    return found


def choice(number: int, why: str) -> str:
    return json.dumps({"action": number, "reason": why})


# -- policies ----------------------------------------------------------------------------------------

def follow(body: dict) -> Entry:
    if is_judge(body):
        return ANSWERABLE
    offered = candidates(body)
    marked = next((i for i, (_, suggested) in enumerate(offered, 1) if suggested), None)
    return choice(marked, "the methodology suggests it") if marked else choice(1, "no suggestion; the top candidate")


def first(body: dict) -> Entry:
    return ANSWERABLE if is_judge(body) else choice(1, "the top candidate")


def seeded_random(seed: int) -> Callable[[dict], Entry]:
    def policy(body: dict) -> Entry:
        if is_judge(body):
            return ANSWERABLE
        offered = candidates(body)
        rng = random.Random(_digest(seed, body))
        return choice(rng.randint(1, max(1, len(offered))), "a random candidate")

    return policy


def faulty(seed: int, rate: float = 0.2, timeout_s: float = 1.0) -> Callable[[dict], Entry]:
    """`follow`, but a seeded `rate` of the requests fail: 500, a non-JSON body, or too late."""

    def policy(body: dict) -> Entry:
        rng = random.Random(_digest(seed, body))
        if rng.random() < rate:
            return [500, ("garbage",), ("sleep", timeout_s * 1.5, ANSWERABLE)][rng.randrange(3)]
        return follow(body)

    return policy


def _digest(seed: int, body: dict) -> int:
    text = json.dumps([seed, body.get("messages", [])], sort_keys=True)
    return int(hashlib.sha256(text.encode()).hexdigest()[:12], 16)


POLICIES: dict[str, Callable[[int], Callable[[dict], Entry]]] = {
    "follow": lambda seed: follow,
    "first": lambda seed: first,
    "random": seeded_random,
    "faulty": faulty,
}
