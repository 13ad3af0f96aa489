"""`ari serve` as a user runs it, for the server tests: a private home with copies of the demo KG and
memory, the server as a subprocess on a free loopback port, and raw HTTP over a socket (what a
stalled or hostile client sends, which an HTTP client library would not)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from memory import bundled_memory_path

ROOT = Path(__file__).resolve().parents[1]
STARTUP_S = 180  # generous: a cold start on a busy 2-core machine


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def environment(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ARI_", "OPENAI_"))}
    env.update(ARI_HOME=str(home), PYTHONPATH=str(ROOT) + os.pathsep + env.get("PYTHONPATH", ""))
    return env


def ari(home: Path, *args: str, timeout: float = STARTUP_S) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ari", *args],
        cwd=ROOT, env=environment(home), capture_output=True, text=True, timeout=timeout, check=False,
    )


def demo_home(home: Path, demo_store_file: Path) -> dict[str, Path]:
    """`home` with copies of the demo KG (and its name vectors) and of the bundled memory."""
    for built in demo_store_file.parent.glob("demo.duckdb*"):
        shutil.copyfile(built, home / built.name)
    shutil.copyfile(bundled_memory_path(), home / "memory.sqlite")
    return {"home": home, "db": home / "demo.duckdb", "memory": home / "memory.sqlite"}


def serve_command(files: dict[str, Path], port: int, *options: str) -> list[str]:
    return [sys.executable, "-m", "ari", "serve", "--db", str(files["db"]), "--memory", str(files["memory"]),
            "--port", str(port), *options]


@contextmanager
def running(files: dict[str, Path], *options: str) -> Iterator[str]:
    """The URL of an `ari serve` process (with `options`), stopped on leaving."""
    port = free_port()
    log_path = files["home"] / f"serve-{port}.log"
    with open(log_path, "w") as log:
        process = subprocess.Popen(serve_command(files, port, *options), cwd=ROOT, env=environment(files["home"]),
                                   stdout=log, stderr=subprocess.STDOUT)
        url = f"http://127.0.0.1:{port}"
        try:
            wait_until_up(url, process, log_path)
            yield url
        finally:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def wait_until_up(url: str, process: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + STARTUP_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"ari serve exited with {process.returncode}: {log.read_text()}")
        try:
            if httpx.get(url + "/health", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    pytest.fail(f"ari serve did not answer within {STARTUP_S} s: {log.read_text()}")


def port_of(url: str) -> int:
    return int(url.rsplit(":", 1)[1])


def request_head(method: str, path: str, port: int, **headers: str) -> bytes:
    """The head of an HTTP/1.1 request to the loopback server (headers given as Content_Length="9")."""
    lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{port}"]
    lines += [f"{name.replace('_', '-')}: {value}" for name, value in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("ascii")


def exchange(port: int, data: bytes, within: float) -> tuple[int | None, bytes]:
    """Send `data` on a new connection, then read until a whole reply is in or the server closes the
    connection: (status, body), status None when it closed without replying. Fails the test when
    neither happens `within` seconds."""
    deadline = time.monotonic() + within
    received = b""
    with socket.create_connection(("127.0.0.1", port), timeout=within) as sock:
        sock.sendall(data)
        while not _whole_reply(received):
            left = deadline - time.monotonic()
            if left <= 0:
                pytest.fail(f"no reply and the connection still open after {within} s (got {received[:200]!r})")
            sock.settimeout(left)
            try:
                chunk = sock.recv(65536)
            except TimeoutError:
                continue
            if not chunk:
                break
            received += chunk
    if not received:
        return None, b""
    head, _, body = received.partition(b"\r\n\r\n")
    return int(head.split()[1]), body


def _whole_reply(received: bytes) -> bool:
    head, found, body = received.partition(b"\r\n\r\n")
    if not found:
        return False
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return len(body) >= int(value)
    return False
