"""Typed configuration: one field per knob, saved beside every run.

Values come from (lowest to highest precedence) the defaults here, ARI_* environment variables,
and explicit arguments (CLI options). `to_dict()` is what benchmark runs write next to results.
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path


def ari_home() -> Path:
    """Where ARI keeps its own files (the built demo store, the default memory)."""
    return Path(os.environ.get("ARI_HOME", Path.home() / ".local" / "share" / "ari"))


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
    extra: dict = field(default_factory=dict)  # backend-specific options
    abstention: AbstentionConfig = field(default_factory=AbstentionConfig)  # the confidence threshold

    @classmethod
    def from_env(cls, **overrides: object) -> "AgentConfig":
        config = cls()
        env = {
            "decider": os.environ.get("ARI_DECIDER"),
            "embedding_model": os.environ.get("ARI_EMBEDDING_MODEL"),
            "llm_base_url": os.environ.get("OPENAI_BASE_URL"),
            "llm_api_key": os.environ.get("OPENAI_API_KEY"),
        }
        for key, value in {**env, **overrides}.items():
            if value is not None:
                setattr(config, key, value)
        return config

    def to_dict(self) -> dict:
        data = asdict(self)
        data.pop("llm_api_key", None)
        return data

    @classmethod
    def from_dict(cls, data: dict) -> "AgentConfig":
        names = {f.name for f in fields(cls)}
        return cls(**{k: _typed(k, v) for k, v in data.items() if k in names})

    def apply(self, values: dict) -> None:
        """Set the known fields of `values` (as `to_dict()` wrote them; the API key never)."""
        names = {f.name for f in fields(self)}
        for key, value in values.items():
            if key in names and key != "llm_api_key":
                setattr(self, key, _typed(key, value))


def _typed(key: str, value: object) -> object:
    """A nested config written as a dict by `to_dict()`, read back as its dataclass."""
    if key == "abstention" and isinstance(value, dict):
        known = {f.name for f in fields(AbstentionConfig)}
        return AbstentionConfig(**{k: v for k, v in value.items() if k in known})
    return value
