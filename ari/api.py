"""The library API behind the CLI: open a store and a memory, build an agent, answer.

Scripts call these directly; `ari ask` is a thin wrapper around `answer_question`.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ari.base.background import Background
from ari.base.config import AgentConfig, ari_home
from ari.base.errors import AriError
from tkg_store.store import TKGStore


def resolve_db(db: str | Path | None) -> Path:
    """An explicit path, else $ARI_DB, else the bundled demo KG (built on first use)."""
    if db is not None:
        return Path(db)
    if os.environ.get("ARI_DB"):
        return Path(os.environ["ARI_DB"])
    from tkg_store.demo import demo_store_path

    return demo_store_path()


def is_demo(db: Path) -> bool:
    return db.resolve() == (ari_home() / "demo.duckdb").resolve()


def resolve_memory(memory: str | None, db: Path) -> str | None:
    """An explicit path/URL, else $ARI_MEMORY, else the bundled demo memory for the demo KG, else
    `<db>.memory.sqlite` beside the store when one was learned there, else none."""
    if memory:
        return memory
    if os.environ.get("ARI_MEMORY"):
        return os.environ["ARI_MEMORY"]
    if is_demo(db):
        return str(demo_memory_path())
    beside = db.with_name(db.name + ".memory.sqlite")
    return str(beside) if beside.exists() else None


def demo_memory_path() -> Path:
    """A writable copy of the bundled demo memory under ARI_HOME (the package folder may be
    read-only); a newer bundled file replaces it only with the user's own traces carried over."""
    from memory.bundled import user_copy

    return user_copy(ari_home() / "demo-memory.sqlite")


def open_memory(memory: str | None, config: AgentConfig | None = None) -> Any:
    if memory is None:
        return None
    from memory import Memory

    use_clustering = config.use_clustering if config is not None else True
    return Memory.open(memory, use_clustering=use_clustering)


class StoreOpening:
    """`TKGStore.open(path)` started in a thread now, taken with `store()` later.

    Opening MultiTQ's store (reading its facts, sorting them into the fact index) is mostly DuckDB
    and numpy work, which releases the GIL; importing the agent (LangGraph, SQLAlchemy) is Python.
    On two cores a cold `ari ask` does both at once instead of one after the other. The thread then
    loads the embedding model the agent will ask for (`get_embedder` keeps one per process), reading
    its weights meanwhile too; a failure there is left for the agent's own call to report."""

    def __init__(self, path: Path, embedding_model: str | None = None, memory_index: bool | None = None) -> None:
        self._memory_index = memory_index  # None: by the store's size (TKGStore.open)
        self._opening = Background(lambda: self._open(path, embedding_model), "ari-open-store")

    def _open(self, path: Path, embedding_model: str | None) -> TKGStore:
        store = TKGStore.open(path, memory_index=self._memory_index)
        try:
            from ari.base.embedding import get_embedder

            get_embedder(embedding_model)
        except Exception:  # noqa: BLE001, S110 - the agent's own get_embedder call raises it again
            pass
        return store

    def store(self) -> TKGStore:
        """The open store, or the error opening it raised (raised here, in the caller's thread)."""
        return self._opening.result()

    def discard(self) -> None:
        """Close the store if it opened (the caller failed before taking it)."""
        if (store := self._opening.value()) is not None:
            store.close()


def build_agent(
    db: str | Path | None = None,
    memory: str | None = None,
    config: AgentConfig | None = None,
    opening: StoreOpening | None = None,
    memory_index: bool | None = None,
) -> tuple[Any, TKGStore, Any]:
    """(agent, store, memory) for a store path and memory URL, with the defaults above; `opening`:
    the store already being opened (by `StoreOpening(resolve_db(db))`), else it is opened here
    (`memory_index` as TKGStore.open takes it)."""
    path = resolve_db(db)
    config = config or AgentConfig.from_env()
    opening = opening or StoreOpening(path, config.embedding_model, memory_index)  # while the agent's modules are imported
    try:
        from agents.agent import Agent
        from agents.deciders.base import get_decider

        decider = get_decider(config.decider, config)  # an unknown name fails before the store is used
    except BaseException:
        opening.discard()
        raise
    store = opening.store()
    mem = None
    try:
        mem = open_memory(resolve_memory(memory, path), config)
        return Agent(store, mem, config, decider=decider), store, mem
    except BaseException:
        store.close()
        if mem is not None:
            mem.close()
        raise


def answer_question(
    question: str,
    db: str | Path | None = None,
    memory: str | None = None,
    decider: str = "offline",
    max_steps: int = 5,
    top_k: int = 10,
    record: bool = True,
    unguided: bool = False,
    llm: dict | None = None,
    on_record_error: Callable[[AriError], None] | None = None,
    on_warning: Callable[[str], None] | None = None,
):
    """Answer one question; the trace is recorded in the memory (when there is one), unless the
    LLM endpoint failed (`result.error`): a failure says nothing about how to answer.

    The offline decider answers only from a learned memory: without one it raises NoMemoryError.
    `unguided` asks for the greedy walk instead (the best-scored non-empty action at each step, no
    methodology followed, even when the memory has one). `llm`: LLMConfig fields to set over the
    environment's. A memory that cannot be written (damaged, read-only) loses nothing already
    computed: with `on_record_error` the failure is handed to it and the result still returned;
    without, it raises. `on_warning` gets a line when the memory was learned on another KG."""
    config = AgentConfig.from_env(decider=decider, max_steps=max_steps, top_k=top_k)
    for key, value in (llm or {}).items():
        setattr(config.llm, key, value)
    if unguided:
        config.use_methodology = False
    path = resolve_db(db)
    memory = resolve_memory(memory, path)
    opening = StoreOpening(path, config.embedding_model) if path.exists() else None  # loads while the memory is checked and the agent imported
    try:
        if config.decider == "offline" and not unguided and path.exists():  # a missing store is reported first
            require_learned_memory(memory, path)
    except BaseException:
        if opening is not None:
            opening.discard()
        raise
    agent, store, mem = build_agent(path, memory, config, opening)
    try:
        if on_warning is not None and mem is not None:
            from memory.api import warn_of_other_kg

            warn_of_other_kg(mem, store, on_warning)
        result = agent.ask(question)
        if record and mem is not None and result.error is None:
            try:
                mem.record(result.trace)
            except AriError as exc:
                if on_record_error is None:
                    raise
                on_record_error(exc)
        return result
    finally:
        store.close()
        if mem is not None and hasattr(mem, "close"):
            mem.close()


def require_learned_memory(memory: str | None, db: Path) -> None:
    """Raise NoMemoryError, naming the command that builds one, unless `memory` holds a clustering."""
    from ari.base.errors import NoMemoryError

    if memory is not None and ("://" in memory or Path(memory).exists()):
        from memory import Memory

        with Memory.open(memory, create=False) as mem:
            if mem.history.latest_version() is not None:
                return
        where = f"{memory} has no learned methodologies"
    else:
        where = f"no learned memory for {db}"
    target = memory or f"{db}.memory.sqlite"
    raise NoMemoryError(
        f"{where}: build one with `ari memory learn --dataset DATASET --data-dir DIR --search --db {db} "
        f"--memory {target}`, or add --unguided to answer by a greedy walk without one"
    )


def build_store_tables(db: str | Path, quiet: bool = False, config: AgentConfig | None = None) -> dict:
    """Build every per-store table of the store at `db` (`agents.tables`): what `ari ingest` runs
    after loading, so that no question pays for them. The facts are not loaded into memory."""
    from agents.tables import build_tables
    from ari.base.embedding import get_embedder, resolve_device

    config = config or AgentConfig.from_env()
    with TKGStore.open(db, memory_index=False) as store:
        report = build_tables(store, get_embedder(config.embedding_model), quiet=quiet)
    return {**report.to_dict(), "device": resolve_device()}
