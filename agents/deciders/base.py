"""The one interface every decider implements, and the exact-name registry that finds them.

A decider only *chooses* among the candidates the agent has enumerated and filtered; executing the
action and all temporal arithmetic stay in our code. Backends live one per file beside this one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from ari.base.config import AgentConfig
from ari.base.errors import UnknownDeciderError

if TYPE_CHECKING:
    from agents.state import AgentState


@dataclass
class Decision:
    """What a decider chose: an index into `state.candidates` (None: it could not choose)."""

    index: int | None
    reason: str = ""
    raw: str = ""  # the model's reply, for the trace
    llm_calls: int = 0  # requests sent to the model (a cached reply costs none)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    error: str | None = None  # why no choice was made (unparseable replies, no plan)
    failed: bool = False  # the endpoint failed: the question's outcome is an error, not an answer

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


@dataclass
class Judgement:
    """A Judge-Then-Solve verdict with the audit that supports it."""

    answerable: bool
    audit: list[str]
    missing: str | None = None  # what the KG lacks, said to the user when abstaining
    raw: str = ""
    llm_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    error: str | None = None  # the model's endpoint failed: the question's outcome is an error

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


class Decider(Protocol):
    """What the agent asks of a decider. `BaseDecider` gives every part but `choose` and `judge` a
    default, so a backend states only what it does otherwise."""

    name: str

    @property
    def questions_in_flight(self) -> int:
        """Questions that may wait on their decisions at once (`Agent.ask_many`)."""
        ...

    def ranks_every_question(self) -> bool:
        """True for a decider that reads a ranking at every step (its questions' vectors are
        embedded in the background from the start)."""
        ...

    def needs_ranking(self, state: "AgentState") -> bool:
        """Whether the ranked top-K is read for `state`'s next step."""
        ...

    def choose(self, state: "AgentState") -> Decision:
        """Pick one of `state.candidates` for the next step."""
        ...

    def choose_many(self, states: list["AgentState"], display: Callable[[str], str] | None = None) -> list[Decision]:
        """One decision per state (an LLM's requests in flight together)."""
        ...

    def judge(self, state: "AgentState", audit: Judgement) -> Judgement:
        """Return the answerability verdict; `audit` is the code's own check, which the decider may
        only make stricter (code, not the model, decides that UNANSWERABLE stops the run)."""
        ...

    def judge_many(self, states: list["AgentState"], audits: list[Judgement]) -> list[Judgement]:
        """One verdict per state."""
        ...


class BaseDecider:
    """The defaults: one question in flight, a ranking read at every step (an LLM compares the
    candidates it is offered), and batches decided one state at a time."""

    name = "base"

    @property
    def questions_in_flight(self) -> int:
        return 1

    def ranks_every_question(self) -> bool:
        return True

    def needs_ranking(self, state: "AgentState") -> bool:
        return True

    def choose(self, state: "AgentState") -> Decision:
        raise NotImplementedError

    def choose_many(self, states: list["AgentState"], display: Callable[[str], str] | None = None) -> list[Decision]:
        return [self.choose(state) for state in states]

    def judge(self, state: "AgentState", audit: Judgement) -> Judgement:
        raise NotImplementedError

    def judge_many(self, states: list["AgentState"], audits: list[Judgement]) -> list[Judgement]:
        return [self.judge(state, audit) for state, audit in zip(states, audits)]


DeciderFactory = Callable[[str, AgentConfig], Decider]
_REGISTRY: dict[str, DeciderFactory] = {}


def register_decider(prefix: str, factory: DeciderFactory) -> None:
    """Register a backend under an exact prefix: `offline`, or `openai` for names `openai:<model>`."""
    _REGISTRY[prefix] = factory


def get_decider(name: str, config: AgentConfig | None = None) -> Decider:
    """Resolve `offline`, `openai:<model>` or `vllm:<model path>` by exact prefix; never by substring."""
    _load_builtin_backends()
    prefix, _, argument = name.partition(":")
    factory = _REGISTRY.get(prefix)
    if factory is None:
        known = ", ".join(sorted(f"{p}:<model>" if p != "offline" else p for p in _REGISTRY))
        raise UnknownDeciderError(f"unknown decider {name!r} (known: {known})")
    if prefix != "offline" and not argument:
        raise UnknownDeciderError(f"decider {name!r} needs a model: {prefix}:<model>")
    return factory(argument, config or AgentConfig())


def _load_builtin_backends() -> None:
    if _REGISTRY.keys() >= {"offline", "openai", "vllm"}:
        return
    from agents.deciders import offline, openai_compatible, vllm_local  # noqa: F401  (they register)
