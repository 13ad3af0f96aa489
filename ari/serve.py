"""`ari serve`: the agent behind an HTTP JSON API, loaded once and kept warm.

Loading MultiTQ's store, its memory and the embedder takes seconds; answering one question takes
milliseconds. The server pays the first once. The Agent is not thread-safe, so one worker thread
owns it (and records in the memory): requests queue their questions, and the worker answers everything
queued while it was busy as one `Agent.ask_many` batch, which embeds and analyses the questions together.
Nothing else runs on that thread: /memory/clusters reads the memory on a thread of its own.
It can also wait `gather_s` for more after the first; benchmarks/serve_bench.py found no larger
batches from waiting 3 ms (1.77 vs 1.73 questions per batch with 8 clients), so by default it does not.

    POST /ask          {"question": "..."}           -> the JSON of `ari ask --json`
    POST /ask/batch    {"questions": ["...", ...]}   -> {"results": [...]}
    GET  /health                                     -> {"status": "ok", ...}
    GET  /memory/clusters                            -> the rows of `ari memory clusters --json`
    GET  /docs                                       -> the endpoints on one page (no CDN), /openapi.json
"""

from __future__ import annotations

import asyncio
import json
import os
import queue
import signal
import sys
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import partial
from html import escape
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException

from ari.base.errors import AriError
from ari.base.text import question_problem
from ari.serve_http import Guard, Limits, as_ctrl_c, bind, handling, run, url_of

GATHER_S = 0.0  # how long the worker waits for more questions after the first of a batch
MAX_BATCH = 64  # questions per Agent.ask_many call
MAX_REQUEST_BATCH = 1000  # questions per POST /ask/batch


@dataclass
class ServeSettings:
    """What `ari serve` loads once at start-up."""

    db: str | Path | None = None  # DuckDB store (default: $ARI_DB, else the demo KG)
    memory: str | None = None  # history store path/URL (default as `ari ask`)
    decider: str = "offline"
    record: bool = True  # store each answer's trace in the memory, as `ari ask` does
    gather_s: float = GATHER_S
    max_batch: int = MAX_BATCH


@dataclass
class _Job:
    """A question to answer on the agent's thread."""

    future: Future
    question: str | None = None
    agent_s: float = 0.0  # seconds of the `ask_many` call that answered it (shared by its batch)


_STOP = _Job(Future())  # put on the queue to end the worker (compared by identity)


class AgentWorker:
    """One thread that owns the agent and memory; questions that arrive together are asked together."""

    def __init__(self, agent: Any, memory: Any, record: bool, gather_s: float = GATHER_S, max_batch: int = MAX_BATCH) -> None:
        self.agent, self.memory, self.record = agent, memory, record
        self.gather_s, self.max_batch = gather_s, max_batch
        self.batches = 0
        self.questions = 0
        self._jobs: queue.Queue[_Job] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="ari-agent", daemon=True)
        self._thread.start()

    def ask(self, question: str) -> Future:
        return self.submit(question).future

    def submit(self, question: str) -> _Job:
        """Queue a question; the job's future gets the answer's dict, its `agent_s` the agent's time."""
        job = _Job(Future(), question=question)
        self._jobs.put(job)
        return job

    def stop(self) -> None:
        self._jobs.put(_STOP)
        self._thread.join(timeout=30)

    def pending(self) -> int:
        return self._jobs.qsize()

    def _run(self) -> None:
        held: _Job | None = None
        while True:
            job, held = (held if held is not None else self._jobs.get()), None
            if job is _STOP:
                return
            batch = [job]
            deadline = time.perf_counter() + self.gather_s
            while len(batch) < self.max_batch:
                try:
                    more = self._jobs.get(timeout=max(0.0, deadline - time.perf_counter()))
                except queue.Empty:
                    break
                if more is _STOP:
                    held = more  # ends the worker after this batch
                    break
                batch.append(more)
            self._answer(batch)

    def _answer(self, batch: list[_Job]) -> None:
        """Answer first, then record: a reply never waits for the memory, nor is lost when it fails."""
        questions = [job.question or "" for job in batch]
        started = time.perf_counter()
        try:
            results: list[Any] = self.agent.ask_many(questions)
        except Exception:  # noqa: BLE001 - one bad question must not fail the others: ask them one by one
            results = [_attempt(self.agent.ask, q) for q in questions]
        agent_s = time.perf_counter() - started
        for job, result in zip(batch, results):
            job.agent_s = agent_s
            _settle(job.future, partial(_result_dict, result))
        self.batches += 1
        self.questions += len(batch)
        if self.record and self.memory is not None:
            for result in results:
                if not isinstance(result, BaseException) and result.error is None:  # an LLM failure is no attempt to learn from
                    self._record(result)

    def _record(self, result: Any) -> None:
        try:
            self.memory.record(result.trace)
        except Exception as exc:  # noqa: BLE001 - the answer is out; say why its trace is not kept
            print(f"ari serve: trace not recorded: {exc}".splitlines()[0], file=sys.stderr)


def _attempt(fn: Callable[[str], Any], question: str) -> Any:
    try:
        return fn(question)
    except Exception as exc:  # noqa: BLE001 - returned, raised to the request that asked
        return exc


def _raise_or(result: Any) -> Any:
    if isinstance(result, BaseException):
        raise result
    return result


def _result_dict(result: Any) -> dict:
    return _raise_or(result).to_dict()


def _settle(future: Future, fn: Callable[[], Any]) -> None:
    try:
        future.set_result(fn())
    except BaseException as exc:  # noqa: BLE001 - handed to the request that asked
        future.set_exception(exc)


class AskRequest(BaseModel):
    question: str = Field(description="The question, in free text.", examples=["Who visited China in 2010?"])


class BatchRequest(BaseModel):
    questions: list[str] = Field(description=f"Questions, at most {MAX_REQUEST_BATCH}.")


class ClientError(AriError):
    """A request the server cannot answer as sent (HTTP 4xx)."""

    exit_code = 2

    def __init__(self, message: str, status: int = 422) -> None:
        super().__init__(message)
        self.status = status


def check_question(question: str, where: str = "question") -> str:
    """`question`, or a 422 saying what is wrong with it by the rule `ari ask` and the loaders follow."""
    why = question_problem(question)
    if why is not None:
        raise ClientError(f"{where} {why}")
    return question


class ClusterReader:
    """`GET /memory/clusters` on a thread of its own, never the agent's: reading a clustering takes
    ~2 s on MultiTQ's 151,732 traces, and three such calls queued with the questions delayed an /ask
    from 0.03 s to 5.7 s. The rows change only with a new clustering version, so each (version, top)
    is read once and kept. The memory's engine gives this thread a connection of its own."""

    KEPT = 16  # (version, top) pairs kept

    def __init__(self, memory: Any) -> None:
        self.memory = memory
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="ari-clusters")
        self._kept: dict[tuple[int, int], list[dict]] = {}

    def rows(self, top: int) -> Future:
        """A future of the latest clustering's rows, as `ari memory clusters --json` prints them."""
        return self._thread.submit(self._rows, top)

    def _rows(self, top: int) -> list[dict]:
        from memory.inspection import cluster_summaries, require_clustering

        version = require_clustering(self.memory.history, None)
        if (version, top) not in self._kept:
            if len(self._kept) >= self.KEPT:
                self._kept.clear()
            self._kept[version, top] = [row.__dict__ for row in cluster_summaries(self.memory.history, version, top)]
        return self._kept[version, top]

    def close(self) -> None:
        self._thread.shutdown(cancel_futures=True)


@dataclass
class Loaded:
    """The store, memory and agent a server answers from, and the worker thread that owns them."""

    db: str
    memory_url: str | None
    decider: str
    store: Any
    memory: Any
    worker: AgentWorker
    clusters: ClusterReader

    @classmethod
    def open(cls, settings: ServeSettings) -> Loaded:
        """Everything loaded up front, so a bad --db or --memory fails before the server listens."""
        from ari.api import build_agent, resolve_db, resolve_memory
        from ari.base.config import AgentConfig

        config = AgentConfig.from_env(decider=settings.decider)
        db = resolve_db(settings.db)
        memory_url = resolve_memory(settings.memory, db)
        # a server opens once and answers many: it holds the fact index whatever the store's size,
        # unless ARI_MEMORY_INDEX says otherwise
        agent, store, memory = build_agent(db, memory_url, config, memory_index=None if os.environ.get("ARI_MEMORY_INDEX") else True)
        worker = AgentWorker(agent, memory, settings.record, settings.gather_s, settings.max_batch)
        return cls(str(db), memory_url, settings.decider, store, memory, worker, ClusterReader(memory))

    def close(self) -> None:
        self.clusters.close()
        self.worker.stop()
        self.store.close()
        if self.memory is not None:
            self.memory.close()


def create_app(loaded: Loaded, limits: Limits = Limits(), host: str = "127.0.0.1") -> FastAPI:
    """The FastAPI app over what `Loaded.open` loaded, behind the `Guard` of `limits` for a server
    bound to `host`; closes what was loaded when the app stops."""

    @asynccontextmanager
    async def lifespan(_app: FastAPI):
        try:
            yield
        finally:
            loaded.close()

    app = FastAPI(
        title="ARI",
        description="Temporal knowledge-graph question answering by abstract reasoning induction.",
        lifespan=lifespan,
        docs_url=None,  # Swagger UI and ReDoc load from a CDN: blank on an offline machine
        redoc_url=None,
    )
    app.add_middleware(Guard, limits=limits, bound_host=host)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        if _about_body(exc) and "json" not in request.headers.get("content-type", ""):
            # FastAPI reads a body as JSON only when told so: a page in a browser cannot post one
            # to this local server without a CORS preflight
            return _error("send the body as JSON, with the header Content-Type: application/json", 415)
        return _error(_validation_message(exc), 400 if _is_json_error(exc) else 422)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
        """Starlette's and FastAPI's own refusals (no such path, wrong method, a body that is not
        text), in the same {"error": ...} shape as every other reply."""
        return _error(_http_message(request, exc), exc.status_code, exc.headers)

    @app.exception_handler(AriError)
    async def ari_error(_request: Request, exc: AriError) -> JSONResponse:
        return _error(str(exc), exc.status if isinstance(exc, ClientError) else 500)

    @app.exception_handler(Exception)
    async def internal_error(_request: Request, exc: Exception) -> JSONResponse:
        return _error(f"internal error: {type(exc).__name__}: {exc}".splitlines()[0], 500)

    @app.post("/ask", summary="Answer one question (the JSON of `ari ask --json`).", response_model=dict)
    async def ask(body: AskRequest) -> Response:
        check_question(body.question)
        started = time.perf_counter()
        job = loaded.worker.submit(body.question)
        result = await asyncio.wrap_future(job.future)
        if result.get("error") is not None:  # the LLM failed (endpoint, or no usable reply): no answer to give
            return _error(result["error"], 502)
        return _json_reply(result, agent_s=job.agent_s, total_s=time.perf_counter() - started)

    @app.post("/ask/batch", summary="Answer several questions, in order.", response_model=dict)
    async def ask_batch(body: BatchRequest) -> Response:
        if len(body.questions) > MAX_REQUEST_BATCH:
            raise ClientError(f"questions: at most {MAX_REQUEST_BATCH} per request, got {len(body.questions)}")
        for n, question in enumerate(body.questions):
            check_question(question, f"questions[{n}]")
        futures = [asyncio.wrap_future(loaded.worker.ask(q)) for q in body.questions]
        return _json_reply({"results": list(await asyncio.gather(*futures))})

    @app.get("/health", summary="Liveness and what the server has loaded.")
    async def health() -> dict:
        worker = loaded.worker
        return {
            "status": "ok",
            "db": loaded.db,
            "memory": loaded.memory_url,
            "decider": loaded.decider,
            "questions_answered": worker.questions,
            "batches": worker.batches,
            "pending": worker.pending(),
        }

    @app.get("/memory/clusters", summary="The latest clustering of the memory, one row per cluster.")
    async def clusters(top: int = 3) -> list[dict]:
        if loaded.memory is None:
            raise ClientError("this server has no memory", status=404)
        if top < 1:
            raise ClientError("top must be at least 1")
        return await asyncio.wrap_future(loaded.clusters.rows(top))

    @app.get("/docs", include_in_schema=False)
    async def docs() -> HTMLResponse:
        return HTMLResponse(docs_page(app.openapi()))

    return app


def docs_page(schema: dict) -> str:
    """/docs: every endpoint with what it takes, on one page that needs nothing from another site,
    and the link to the whole schema (/openapi.json)."""
    rows = "".join(
        f"<tr><td>{method.upper()}</td><td><code>{escape(path)}</code></td><td><code>{escape(_takes(operation, schema))}</code></td>"
        f"<td>{escape(operation.get('summary', ''))}</td></tr>\n"
        for path, operations in schema["paths"].items()
        for method, operation in operations.items()
    )
    title, description = escape(schema["info"]["title"]), escape(schema["info"].get("description", ""))
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>body {{ font-family: sans-serif; max-width: 60em; margin: 2em auto; }} td, th {{ padding: .2em .8em; text-align: left; }}</style>
</head><body><h1>{title}</h1><p>{description}</p>
<table><tr><th>method</th><th>path</th><th>takes</th><th>answers</th></tr>
{rows}</table>
<p>Every error is <code>{{"error": "one line"}}</code> with its HTTP status. Request and reply schemas:
<a href="/openapi.json">/openapi.json</a>.</p>
</body></html>
"""


def _takes(operation: dict, schema: dict) -> str:
    """What an operation takes, in short: '{"question": string}', '?top=integer'."""
    query = "&".join(f"{p['name']}={p.get('schema', {}).get('type', '')}" for p in operation.get("parameters", []))
    ref = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema", {}).get("$ref", "")
    fields = schema.get("components", {}).get("schemas", {}).get(ref.rsplit("/", 1)[-1], {}).get("properties", {})
    body = ", ".join(f'"{name}": {spec.get("type", "")}' for name, spec in fields.items())
    return ("?" + query if query else "") + ("{" + body + "}" if body else "")


def _json_reply(data: dict, agent_s: float | None = None, total_s: float | None = None) -> Response:
    """The answer's JSON, encoded once as `ari ask --json` encodes it (the dict is JSON-ready, so
    FastAPI's generic encoder and response validation would only walk it again). A `Server-Timing`
    header says how long the agent took and how long the request waited for it in all, so a client
    can tell the agent's time from the HTTP stack's."""
    headers = {}
    if agent_s is not None and total_s is not None:
        headers["Server-Timing"] = f"agent;dur={agent_s * 1000:.2f}, queued-and-agent;dur={total_s * 1000:.2f}"
    body = json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode("utf-8")
    return Response(body, media_type="application/json", headers=headers)


def _error(message: str, status: int, headers: Mapping[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers)


def _http_message(request: Request, exc: HTTPException) -> str:
    path = request.url.path
    if exc.status_code == 404:
        return f"no such endpoint: {path}"
    if exc.status_code == 405:
        return f"{request.method} is not allowed on {path} (allowed: {(exc.headers or {}).get('Allow', 'none')})"
    if isinstance(exc.__cause__, UnicodeDecodeError):  # FastAPI's "There was an error parsing the body"
        return "the body is not UTF-8 text"
    return str(exc.detail).splitlines()[0]


def _is_json_error(exc: RequestValidationError) -> bool:
    return any(e.get("type") == "json_invalid" for e in exc.errors())


def _about_body(exc: RequestValidationError) -> bool:
    return any(tuple(e.get("loc", ()))[:1] == ("body",) for e in exc.errors())


def _validation_message(exc: RequestValidationError) -> str:
    """The first problem, in one line: "question: Field required", "body is not valid JSON: ..."."""
    errors = exc.errors()
    if not errors:
        return "invalid request"
    first = errors[0]
    if first.get("type") == "json_invalid":
        why = (first.get("ctx") or {}).get("error", "")
        return f"body is not valid JSON{': ' + str(why) if why else ''}"
    loc = list(first.get("loc", ()))
    if loc and loc[0] in ("body", "query", "path", "header"):
        loc = loc[1:]  # where FastAPI looked: "query.top" reads as "top"
    where = ".".join(map(str, loc)) or "body"
    return f"{where}: {first.get('msg', 'invalid')}".replace("\n", " ")


def serve(
    settings: ServeSettings, host: str = "127.0.0.1", port: int = 8000, limits: Limits = Limits(), log_level: str = "warning",
) -> None:
    """Bind, load, then answer until Ctrl-C or TERM, which raise KeyboardInterrupt once stopped
    (uvicorn: one process, one event loop, one agent thread)."""
    # The agent's thread and the event loop's share the GIL: a reply ready on the loop would wait up
    # to the default 5 ms switch interval while the agent thread records a trace or starts the next
    # question. 1 ms bounds that wait; the extra switches cost nothing measurable.
    sys.setswitchinterval(0.001)
    with handling(as_ctrl_c, signal.SIGTERM):
        sock = bind(host, port)  # before loading: a port in use fails at once
        try:
            print("ari serve: loading", file=sys.stderr, flush=True)
            loaded = Loaded.open(settings)
        except BaseException:
            sock.close()
            raise
        announce = f"ari serve: listening on {url_of(sock, host)} (docs at /docs)"
        run(create_app(loaded, limits, host), sock, limits, announce, log_level)
