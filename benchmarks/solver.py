"""What the runner needs from whatever answers the questions.

A `Solver` takes a batch of question texts and returns one result per question with the fields of
`agents.agent.AgentResult` (answer, answers, abstained, reason, steps, llm_calls, tokens,
elapsed_s, optionally confidence). A `SolverFactory` is a picklable callable that builds one solver
per worker process, so each process opens its own read-only DuckDB connection and loads the
embedder once.
"""

from __future__ import annotations

import atexit
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, fields, is_dataclass, replace
from typing import Any, Protocol


class SolverResult(Protocol):
    answer: str | None
    answers: list[str]
    abstained: bool
    reason: str | None
    steps: list[Any]
    llm_calls: int
    elapsed_s: float

    @property
    def tokens(self) -> int: ...  # read-only: AgentResult sums prompt and completion tokens


class Solver(Protocol):
    def __call__(self, questions: list[str]) -> Sequence[SolverResult]: ...


SolverFactory = Callable[[], Solver]


# What building the agent imports: a fork server loads it once for every worker (worker_context).
AGENT_MODULES = ("agents.agent", "tkg_store.store", "memory.api")


@dataclass(frozen=True)
class AgentSolverFactory:
    """Builds the ARI agent over a store (and optional memory) in the process that calls it."""

    db: str
    memory_url: str | None = None
    config: dict = field(default_factory=dict)  # AgentConfig.to_dict() values to apply

    def __call__(self) -> Solver:
        from agents.agent import Agent  # the agent is optional until it is built
        from tkg_store.store import TKGStore

        config = agent_config(self.config)
        store = TKGStore.open(self.db)
        atexit.register(store.close)  # a worker's connection closes before its interpreter does
        memory = open_memory(self.memory_url, use_clustering=config.use_clustering)
        return AgentSolver(Agent(store, memory=memory, config=config).warm_up())


@dataclass(frozen=True)
class AgentSolver:
    """The agent as a solver: a batch per call, or a whole run as one stream (`Agent.ask_stream`:
    with questions in flight, one pool that never drains between batches)."""

    agent: Any  # agents.agent.Agent

    def __call__(self, questions: list[str]) -> Sequence[SolverResult]:
        return self.agent.ask_many(questions)

    def stream(self, questions: Iterable[str], batch_size: int) -> Iterator[SolverResult]:
        return self.agent.ask_stream(questions, batch_size)


def agent_config(values: dict):  # noqa: ANN201 - AgentConfig
    """AgentConfig from the environment, then the run's explicit values (the API key stays in env)."""
    from ari.base.config import AgentConfig

    config = AgentConfig.from_env()
    for key, value in values.items():
        if key not in AgentConfig.field_names():
            continue
        group = getattr(config, key)
        if is_dataclass(group) and not isinstance(group, type) and isinstance(value, dict):  # a section, merged field by field
            known = {f.name for f in fields(group)} - {"api_key"}  # the key stays the environment's
            value = replace(group, **{k: v for k, v in value.items() if k in known})
        setattr(config, key, value)
    return config


def open_memory(url: str | None, use_clustering: bool = True):  # noqa: ANN201 - memory.Memory
    """The memory at `url` (never created by a benchmark), or None when no URL is given."""
    if url is None:
        return None
    try:
        from memory.api import Memory
    except ImportError:
        print("warning: the memory module is not available; running without memory", file=sys.stderr)
        return None
    return Memory.open(url, create=False, use_clustering=use_clustering)
