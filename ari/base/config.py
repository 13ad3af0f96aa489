"""Typed configuration: one field per knob, saved beside every run.

Values come from (lowest to highest precedence) the defaults here, ARI_* environment variables,
and explicit arguments (CLI options). `to_dict()` is what benchmark runs write next to results.
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass, field, fields, is_dataclass, replace
from pathlib import Path
from typing import Any, get_type_hints


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

    checked_bindings: int = 8
    """Complete bindings whose answers the answer check rejects before the planner stops looking
    for one it accepts (and plans the first that bound, which the audit then rejects)."""


@dataclass(frozen=True)
class SearchConfig:
    """The offline program search that learns methodologies from questions with known answers
    (`agents.explore.search_programs`). Its relation floor is the planner's (`PlannerConfig`)."""

    beam: int = 256
    """Partial programs kept at each depth, best linking fit first: bounds the search's cost per
    question (the worst-fitting partial programs beyond it are dropped)."""

    bindings_per_step: int = 2
    """Concrete bindings kept per distinct abstract step (the question's best two candidates)."""

    max_lookups: int = 2
    """KG lookups per program: MultiTQ's shapes need at most two (a getTime and a lookup)."""

    min_precision: float = 0.25
    """Share of a program's answers that must be gold for it to count as correct: a lucky first
    answer among thirty is not a method, while a first/last tying a few entities still is."""

    wrong_traces_kept: int = 10
    """Failing programs kept per question as pitfalls: enough to warn, without flooding the history."""


@dataclass(frozen=True)
class FilterConfig:
    """Weights of the candidate filter's score (`actions.filtering.CandidateFilter`): the similarity
    signals sum to 1.0 and the cue is a bonus on top of them."""

    relation: float = 0.35
    """cosine(question, relation name): the strongest sign of which lookup the question asks."""

    relation_words: float = 0.25
    """Share of the relation's words found in the question: catches names the embedding blurs."""

    entity: float = 0.1
    """Mean cosine(question, entity names): low, as linking already chose the entities."""

    template: float = 0.3
    """cosine(question, the template's text): which kind of step (lookup, before, first, ...)."""

    cue: float = 0.15
    """Bonus when the question's cue words ("first", "before", ...) ask for this template."""


@dataclass(frozen=True)
class LinkingConfig:
    """Entity and relation linking (`agents.analysis.entities`, `agents.analysis.relations`)."""

    max_candidates: int = 5
    """Candidate entities kept per mention (name matches, role phrases, embedding neighbours):
    enough for an ambiguous name's few readings, few enough to rank cheaply."""

    role_floor: float = 0.55
    """Score a role phrase ("the Foreign Ministry of Ethiopia") must reach to stand for a sector
    entity when it is attributive; a bare role phrase needs 0.15 more."""

    embedding_floor: float = 0.62
    """Cosine below which an embedding neighbour of a span is not an entity candidate."""

    max_role_words: int = 7
    """Longest role phrase read around a country name (words)."""

    acted_per_mention: int = 2
    """Candidates of each mention the agent acts from (and the judge checks links between)."""

    relation_candidates_per_mention: int = 3
    """Candidates of each mention whose linking relations are ranked for the question."""

    max_relations: int = 10
    """Ranked relations kept per question."""

    lexicon_weight: float = 0.8
    """Weight of the learned lexicon's posterior against name similarity in relation ranking."""

    fuzzy_floor: int = 88
    """rapidfuzz ratio (0-100) a left-over capitalised name must reach to match a KG name: one slip
    in a name of eight letters or more (measured on linking_bench's typo aliases: 1.000 with, 0.949
    without fuzzy matching)."""


@dataclass(frozen=True)
class JudgeConfig:
    """The judge's relation check (`RelationLinker.unlinked_relation`): is the question clearly
    about a relation that none of the facts linking its entities has?"""

    asked_confidence: float = 0.5
    """The lexicon's P(relation | wording) over all relations must reach this for the question to
    count as clearly asking about that relation."""

    link_share: float = 0.05
    """A linking relation with at least this share of the asked relation's probability may still
    be what the question means (naive Bayes is overconfident), so the question stays answerable."""


@dataclass(frozen=True)
class MemoryConfig:
    """What methodology induction keeps and how many methodologies a question is matched with."""

    max_programs: int = 12
    """Ranked programs kept per methodology: a cluster may hold several wordings of a shape."""

    max_exemplars: int = 8
    """Masked example questions kept per program (shown to an LLM decider)."""

    max_pitfalls: int = 3
    """Failing programs kept per methodology as warnings."""

    nearest_methodologies: int = 3
    """Methodologies matched per question, nearest question shapes first."""


@dataclass
class AbstentionConfig:
    """When the agent abstains although an answer was found and a fact states it."""

    # abstain when `agents.answers.confidence` falls below this; 0.0 never abstains on confidence.
    # Raising it trades coverage for precision along the risk-coverage curve that every benchmark
    # run reports (summary.json: aurc, and the curve in report.png).
    min_confidence: float = 0.0

    unsure_reading: bool = True
    """Abstain when the reading is unsure (`agents.analysis.accounting`, `agents.judge`): words it leaves unaccounted for, a
    span that is part of several KG names, an answer that is only the question's own entity."""


@dataclass
class LLMConfig:
    """How an LLM decider talks to its model (`agents.deciders`); every field is saved with a run
    except the API key. Environment: OPENAI_BASE_URL, OPENAI_API_KEY and ARI_LLM_<FIELD>."""

    base_url: str | None = None
    """OpenAI-compatible endpoint (env OPENAI_BASE_URL); None: the client's default (OpenAI)."""

    api_key: str | None = None
    """Env OPENAI_API_KEY; never written to run configs."""

    timeout_s: float = 30.0
    """Seconds one request may take before it counts as failed (env ARI_LLM_TIMEOUT)."""

    retries: int = 2
    """Retries, with exponential backoff, of timeouts, connection errors, 429 and 5xx (env ARI_LLM_RETRIES)."""

    temperature: float | None = 0.0
    """Sampling temperature; None sends none (reasoning models reject it; env ARI_LLM_TEMPERATURE)."""

    max_tokens: int | None = 512
    """Most completion tokens a reply may take; None sends no limit (env ARI_LLM_MAX_TOKENS)."""

    seed: int | None = 0
    """Sampling seed, for servers that honour it (env ARI_LLM_SEED)."""

    json_replies: bool = True
    """Ask for a JSON reply (`response_format`, guided decoding in vLLM); dropped for a server that
    rejects it. The parser accepts a number, an action or JSON either way (env ARI_LLM_JSON)."""

    concurrency: int = 1
    """Questions whose requests are in flight at once within one worker (`ari bench run --concurrency`)."""

    cache: str | None = "default"
    """The reply cache (SQLite): "default" is $ARI_HOME/llm-cache.sqlite, None bypasses it (--no-cache;
    env ARI_LLM_CACHE, "off" for none)."""

    min_program_support: int = 2
    """A methodology program is shown to the model as advice only when it was right at least this many
    times; programs below it (and pitfalls, which never ran correctly) are not advice."""

    min_program_success: float = 0.5
    """... and only when at least this share of the attempts that followed it were right."""

    price_prompt_per_mtok: float | None = None
    """US dollars per million prompt tokens, for the cost estimate in summaries (None: no estimate)."""

    price_completion_per_mtok: float | None = None
    """US dollars per million completion tokens."""

    @classmethod
    def from_env(cls) -> "LLMConfig":
        config = cls()
        config.base_url = os.environ.get("OPENAI_BASE_URL") or None
        config.api_key = os.environ.get("OPENAI_API_KEY") or None
        for name, field_name, kind in _LLM_ENV:
            raw = os.environ.get(name)
            if raw is not None and raw.strip() != "":
                setattr(config, field_name, _parsed(name, raw.strip(), kind))
        return config

    def sampling(self) -> dict:
        """The settings that change a reply (part of the reply cache's key)."""
        return {"temperature": self.temperature, "max_tokens": self.max_tokens, "seed": self.seed, "json": self.json_replies}


_LLM_ENV = (
    ("ARI_LLM_TIMEOUT", "timeout_s", float),
    ("ARI_LLM_RETRIES", "retries", int),
    ("ARI_LLM_TEMPERATURE", "temperature", float),
    ("ARI_LLM_MAX_TOKENS", "max_tokens", int),
    ("ARI_LLM_SEED", "seed", int),
    ("ARI_LLM_JSON", "json_replies", bool),
    ("ARI_LLM_CONCURRENCY", "concurrency", int),
    ("ARI_LLM_CACHE", "cache", str),
)


def _parsed(name: str, raw: str, kind: type) -> object:
    """An environment value of the field's type; "none" clears optional settings, "off" the cache."""
    from ari.base.errors import UsageError

    if raw.lower() in ("none", "off") and name != "ARI_LLM_JSON":
        return None
    if kind is bool:
        if raw.lower() in ("1", "true", "yes", "on"):
            return True
        if raw.lower() in ("0", "false", "no", "off"):
            return False
        raise UsageError(f"{name}={raw!r} is not a yes/no value")
    try:
        return kind(raw)
    except ValueError:
        raise UsageError(f"{name}={raw!r} is not a valid {kind.__name__}") from None


@dataclass
class AgentConfig:
    decider: str = "offline"  # decider name: offline | openai:<model> | vllm:<model path>
    max_steps: int = 5  # most KG actions per question (the paper uses 5); a planned one runs its whole program
    top_k: int = 10  # candidates kept after similarity filtering
    use_filtering: bool = True  # ablation: False keeps every non-empty candidate
    use_methodology: bool = True  # ablation: False ignores the induced methodologies
    use_clustering: bool = True  # ablation: False uses one methodology for all questions
    judge: bool = True  # Judge-Then-Solve answerability checks before and after solving
    embedding_model: str | None = None  # sentence-transformers path; None: bundled all-MiniLM-L6-v2
    planner: PlannerConfig = field(default_factory=PlannerConfig)  # binding methodology programs
    abstention: AbstentionConfig = field(default_factory=AbstentionConfig)  # the confidence threshold
    llm: LLMConfig = field(default_factory=LLMConfig)  # LLM deciders: endpoint, sampling, failures, cache
    search: SearchConfig = field(default_factory=SearchConfig)  # offline program search (learning)
    filter: FilterConfig = field(default_factory=FilterConfig)  # candidate filter weights
    linking: LinkingConfig = field(default_factory=LinkingConfig)  # entity and relation linking
    judge_check: JudgeConfig = field(default_factory=JudgeConfig)  # the judge's relation check
    memory: MemoryConfig = field(default_factory=MemoryConfig)  # induction limits, matching
    extra: dict = field(default_factory=dict)  # backend-specific options (vllm engine arguments)

    def __post_init__(self) -> None:
        # a config read back from JSON (run.json, a worker process) carries its groups as dicts
        for name, kind in get_type_hints(type(self)).items():
            value = getattr(self, name)
            if isinstance(kind, type) and is_dataclass(kind) and isinstance(value, dict):
                setattr(self, name, kind(**value))

    @classmethod
    def from_env(cls, **overrides: Any) -> "AgentConfig":
        config = cls(llm=LLMConfig.from_env())
        env = {
            "decider": os.environ.get("ARI_DECIDER"),
            "embedding_model": os.environ.get("ARI_EMBEDDING_MODEL"),
        }
        return replace(config, **{k: v for k, v in {**env, **overrides}.items() if v is not None})

    def to_dict(self) -> dict:
        data = asdict(self)
        data["llm"].pop("api_key", None)
        return data

    @classmethod
    def field_names(cls) -> frozenset[str]:
        return frozenset(f.name for f in fields(cls))

    @classmethod
    def from_dict(cls, data: dict) -> "AgentConfig":
        return cls(**{k: v for k, v in data.items() if k in cls.field_names()})
