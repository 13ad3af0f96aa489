"""What stands between the network and `ari serve`'s app: the socket, bound before anything loads;
limits and deadlines for what a client sends, and the Host header it must send; and the stop on
Ctrl-C or TERM (exit 130, `interrupted`, as every ari command).

Uvicorn, left to itself, reads a body of any size, waits forever for a request head or a body that
stalls, and answers whatever name a request is addressed to. One 10 MB body held the agent's thread
for half a minute; a connection that never finishes its request holds a socket for good; and a page
on another site can reach a server on 127.0.0.1 through a name of its own that it points there (DNS
rebinding), though the browser then sends that name as the Host. So (README, "A warm server"):

- a body of at most `Limits.max_body_kb` KiB: a larger declared Content-Length gets 413 before a
  byte of it is read, a chunked body 413 once it passes the limit;
- a request's head within `Limits.timeout_s` of the connection opening or of the previous reply,
  else the connection is closed (`protocol`); its body within `timeout_s` of its head, else 408;
- a Host header that names this server: the host it was bound to, localhost, 127.0.0.1, [::1], the
  address the request came in on, or a name given with --allow-host; else 400.

The app sees a request only once its body is in (`Guard` hands it over whole), so no endpoint waits
on a slow client.

Start and stop (`bind`, `run`): the port is bound before the store loads, so a port in use is one line
at once rather than uvicorn's error after the loading; "listening on" is said once it is true.
Uvicorn stops gracefully on SIGINT and SIGTERM, then raises the signal again, which ended Ctrl-C with
exit 0 and TERM with a silent 143; here both raise KeyboardInterrupt after the stop instead.
"""

from __future__ import annotations

import asyncio
import errno
import json
import signal
import socket
import sys
import threading
from collections.abc import Awaitable, Callable, Iterator, MutableMapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ari.base.errors import ServerError

if TYPE_CHECKING:
    from uvicorn.protocols.http.h11_impl import H11Protocol

MAX_BODY_KB = 2048  # 1,000 questions of 2,000 characters fit
TIMEOUT_S = 10.0  # for a request's head, then for its body
KEEP_ALIVE_S = 5  # an idle kept-alive connection is closed after this long (uvicorn's default)
LOCAL_NAMES = ("localhost", "127.0.0.1", "::1")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


@dataclass(frozen=True)
class Limits:
    """What `ari serve` takes from a client (its options --max-body-kb, --timeout, --allow-host)."""

    max_body_kb: int = MAX_BODY_KB  # largest request body
    timeout_s: float = TIMEOUT_S  # to send a request's head, and then its body
    allow_hosts: tuple[str, ...] = ()  # names a Host header may give besides the local ones


class Refusal(Exception):
    """A request the guard answers itself, with this status and one-line message."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def error_body(message: str) -> bytes:
    """The body of every error reply: {"error": "one line"}."""
    return json.dumps({"error": message}, ensure_ascii=False).encode("utf-8")


class Guard:
    """ASGI middleware: checks the Host header, then reads the whole body within the limits and only
    then calls the app, which gets the body in one piece."""

    def __init__(self, app: ASGIApp, limits: Limits, bound_host: str) -> None:
        self.app = app
        self.limits = limits
        self.names = {host_name(name) for name in (bound_host, *LOCAL_NAMES, *limits.allow_hosts)}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        try:
            self._check_host(scope)
            body = await self._read_body(scope, receive)
        except Refusal as refusal:
            await _refuse(send, refusal)
            return
        if body is not None:  # None: the client left
            await self.app(scope, _replay(body, receive), send)

    def _check_host(self, scope: Scope) -> None:
        name = host_name(_header(scope, b"host") or "")
        arrived_at = (scope.get("server") or ("",))[0]
        if name not in self.names and name != arrived_at:
            if not name:
                raise Refusal(400, "the request has no Host header")
            raise Refusal(400, f"this server does not answer for the host {name} (ari serve --allow-host {name})")

    async def _read_body(self, scope: Scope, receive: Receive) -> bytes | None:
        limit = self.limits.max_body_kb * 1024
        too_large = Refusal(413, f"the request body is larger than {self.limits.max_body_kb} KiB (--max-body-kb)")
        declared = _header(scope, b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            raise too_large
        chunks: list[bytes] = []
        size, more = 0, True
        try:
            async with asyncio.timeout(self.limits.timeout_s):
                while more:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        return None
                    chunk = message.get("body", b"")
                    size += len(chunk)
                    if size > limit:
                        raise too_large
                    chunks.append(chunk)
                    more = message.get("more_body", False)
        except TimeoutError:
            raise Refusal(408, f"the request body did not arrive within {self.limits.timeout_s:g} s") from None
        return b"".join(chunks)


def host_name(host: str) -> str:
    """The name in a Host header, lower case and without the port: "[::1]:8000" -> "::1"."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].partition("]")[0]
    return host.rpartition(":")[0] if host.count(":") == 1 else host


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope["headers"]:
        if key == name:
            return value.decode("latin-1")
    return None


async def _refuse(send: Send, refusal: Refusal) -> None:
    """The error reply, and the connection closed after it: what the client still sends is not read."""
    body = error_body(str(refusal))
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()), (b"connection", b"close")]
    await send({"type": "http.response.start", "status": refusal.status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def _replay(body: bytes, receive: Receive) -> Receive:
    """A `receive` that gives the body read already, then whatever comes next (a disconnect)."""
    given = False

    async def replay() -> Message:
        nonlocal given
        if given:
            return await receive()
        given = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replay


def protocol(timeout_s: float) -> type[H11Protocol]:
    """Uvicorn's h11 protocol with a deadline for each request's head (uvicorn has none: its
    keep-alive timer stops at the first byte), and its own 400 for a malformed request in JSON."""
    import h11  # here: the CLI imports this module for its defaults, and `ari ask` need not load uvicorn
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class WithDeadline(H11Protocol):
        head_deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._await_head(None)

        def on_response_complete(self) -> None:
            answered = self.cycle
            super().on_response_complete()  # may start the next, pipelined, request
            self._await_head(answered)

        def connection_lost(self, exc: Exception | None) -> None:
            if self.head_deadline is not None:
                self.head_deadline.cancel()
            super().connection_lost(exc)

        def _await_head(self, previous: Any) -> None:
            if self.head_deadline is not None:
                self.head_deadline.cancel()
            if not self.transport.is_closing():
                self.head_deadline = self.loop.call_later(timeout_s, self._head_late, previous)

        def _head_late(self, previous: Any) -> None:
            if self.cycle is previous and not self.transport.is_closing():  # no new request began
                self.transport.close()

        def send_400_response(self, msg: str) -> None:
            body = error_body("not a valid HTTP request")
            headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()), (b"connection", b"close")]
            for event in (h11.Response(status_code=400, headers=headers, reason=b"Bad Request"), h11.Data(data=body), h11.EndOfMessage()):
                self.transport.write(self.conn.send(event) or b"")
            self.transport.close()

    return WithDeadline


def bind(host: str, port: int) -> socket.socket:
    """A socket bound to host:port, not yet listening (clients are refused until `run` listens), or
    a one-line ServerError."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    except socket.gaierror as exc:
        raise ServerError(f"cannot listen on {host}: {exc.strerror}") from None
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn: a port left in TIME_WAIT is free
    try:
        sock.bind(address)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise ServerError(f"port {port} on {host} is in use") from None
        raise ServerError(f"cannot listen on {host} port {port}: {exc.strerror}") from None
    return sock


def url_of(sock: socket.socket, host: str) -> str:
    port = sock.getsockname()[1]  # the port the system chose for --port 0
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def run(app: ASGIApp, sock: socket.socket, limits: Limits, announce: str, log_level: str = "warning") -> None:
    """Serve `app` on the bound `sock`; print `announce` to stderr once listening. Ctrl-C or TERM stops
    it gracefully, then raises KeyboardInterrupt."""
    import uvicorn

    class Server(uvicorn.Server):
        stopped_by: int | None = None

        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            if self.started:
                print(announce, file=sys.stderr, flush=True)

        def handle_exit(self, sig: int, frame: Any) -> None:
            self.stopped_by = sig
            super().handle_exit(sig, frame)

        @contextmanager
        def capture_signals(self) -> Iterator[None]:  # uvicorn's raises the signal again at the end
            with handling(self.handle_exit, signal.SIGINT, signal.SIGTERM):
                yield

    config = uvicorn.Config(app, log_level=log_level, http=protocol(limits.timeout_s), timeout_keep_alive=KEEP_ALIVE_S)
    server = Server(config)
    server.run(sockets=[sock])
    if server.stopped_by is not None:
        raise KeyboardInterrupt


@contextmanager
def handling(handler: Callable[[int, Any], Any], *signals: int) -> Iterator[None]:
    """`handler` for `signals` while inside, the previous handlers after (only the main thread may
    set them: elsewhere nothing changes)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {sig: signal.signal(sig, handler) for sig in signals}
    try:
        yield
    finally:
        for sig, before in previous.items():
            signal.signal(sig, before)


def as_ctrl_c(_signal: int, _frame: Any) -> None:
    """A signal handler that makes TERM what Ctrl-C is: KeyboardInterrupt (ari exits 130, `interrupted`)."""
    raise KeyboardInterrupt
