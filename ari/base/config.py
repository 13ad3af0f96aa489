"""Typed configuration: one field per knob, saved beside every run.

Values come from (lowest to highest precedence) the defaults here, ARI_* environment variables,
and explicit arguments (CLI options). `to_dict()` is what benchmark runs write next to results.
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass, field, fields, is_dataclass, replace
from typing import Any, get_type_hints
from pathlib import Path


def ari_home() -> Path:
    """Where ARI keeps its own files (the built demo store, the default memory)."""
    return Path(os.environ.get("ARI_HOME", Path.home() / ".local" / "share" / "ari"))


@dataclass
class PlannerConfig:
    """How the planner binds a methodology's abstract programs to one question (`agents.planner`)."""

    relation_floor: float = 0.5
    """A lookup's relation must score at least this share of the question's best relation to be
    bound: below it the question is not about that relation. Also bounds the program search."""

    max_programs: int = 64
    """Distinct programs bound per question before giving up (a binding costs about a millisecond)."""

    alternatives: int = 3
    """Bindings of one step tried, best first, when the best one leads to an empty step."""


@dataclass
class AbstentionConfig:
    """When the agent abstains although an answer was found and a fact states it."""

    # abstain when `agents.answers.confidence` falls below this; 0.0 never abstains on confidence.
    # Raising it trades coverage for precision along the risk-coverage curve that every benchmark
    # run reports (summary.json: aurc, and the curve in report.png).
    min_confidence: float = 0.0


@dataclass
class AgentConfig:
    decider: str = "offline"  # decider name: offline | openai:<model> | vllm:<model path>
    max_steps: int = 5  # most KG actions per question (the paper uses 5)
    top_k: int = 10  # candidates kept after similarity filtering
    use_filtering: bool = True  # ablation: False keeps every non-empty candidate
    use_methodology: bool = True  # ablation: False ignores the induced methodologies
    use_clustering: bool = True  # ablation: False uses one methodology for all questions
    judge: bool = True  # Judge-Then-Solve answerability checks before and after solving
    embedding_model: str | None = None  # sentence-transformers path; None: bundled all-MiniLM-L6-v2
    llm_base_url: str | None = None  # OpenAI-compatible endpoint (env OPENAI_BASE_URL)
    llm_api_key: str | None = None  # env OPENAI_API_KEY; never written to run configs
    llm_timeout_s: float = 60.0  # per request
    llm_retries: int = 3  # retries with exponential backoff on timeouts and 5xx
    llm_temperature: float = 0.0
    planner: PlannerConfig = field(default_factory=PlannerConfig)  # binding methodology programs
    abstention: AbstentionConfig = field(default_factory=AbstentionConfig)  # the confidence threshold
    extra: dict = field(default_factory=dict)  # backend-specific options (vllm engine arguments)

    def __post_init__(self) -> None:
        # a config read back from JSON (run.json, a worker process) carries its groups as dicts
        for name, kind in get_type_hints(type(self)).items():
            value = getattr(self, name)
            if isinstance(kind, type) and is_dataclass(kind) and isinstance(value, dict):
                setattr(self, name, kind(**value))

    @classmethod
    def from_env(cls, **overrides: Any) -> "AgentConfig":
        config = cls()
        env = {
            "decider": os.environ.get("ARI_DECIDER"),
            "embedding_model": os.environ.get("ARI_EMBEDDING_MODEL"),
            "llm_base_url": os.environ.get("OPENAI_BASE_URL"),
            "llm_api_key": os.environ.get("OPENAI_API_KEY"),
        }
        return replace(config, **{k: v for k, v in {**env, **overrides}.items() if v is not None})

    def to_dict(self) -> dict:
        data = asdict(self)
        data.pop("llm_api_key", None)
        return data

    @classmethod
    def field_names(cls) -> frozenset[str]:
        return frozenset(f.name for f in fields(cls))

    @classmethod
    def from_dict(cls, data: dict) -> "AgentConfig":
        return cls(**{k: v for k, v in data.items() if k in cls.field_names()})
