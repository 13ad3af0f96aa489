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
class PlannerConfig:
    """How the planner binds a methodology's abstract programs to one question (`agents.planner`)."""

    relation_floor: float = 0.5
    """A lookup's relation must score at least this share of the question's best relation to be
    bound: below it the question is not about that relation. Also bounds the program search."""

    max_programs: int = 64
    """Distinct programs bound per question before giving up (a binding costs about a millisecond)."""

    alternatives: int = 3
    """Bindings of one step tried, best first, when the best one leads to an empty step."""


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
    search: SearchConfig = field(default_factory=SearchConfig)  # offline program search (learning)
    filter: FilterConfig = field(default_factory=FilterConfig)  # candidate filter weights
    linking: LinkingConfig = field(default_factory=LinkingConfig)  # entity and relation linking
    judge_check: JudgeConfig = field(default_factory=JudgeConfig)  # the judge's relation check
    memory: MemoryConfig = field(default_factory=MemoryConfig)  # induction limits, matching
    extra: dict = field(default_factory=dict)  # backend-specific options (vllm engine arguments)

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
        """From `to_dict()` output: nested sections may be dicts (as saved in run.json)."""
        config = cls()
        for key, value in data.items():
            config.set(key, value)
        return config

    def set(self, key: str, value: object) -> None:
        """Set one field; a nested section (planner, search, ...) may be given as a dict. Unknown
        keys are ignored (a run file written by another version)."""
        if key not in _FIELDS:
            return
        section = _SECTIONS.get(key)
        if section is not None and isinstance(value, dict):
            names = {f.name for f in fields(section)}
            value = section(**{k: v for k, v in value.items() if k in names})
        setattr(self, key, value)


_FIELDS = {f.name for f in fields(AgentConfig)}
_SECTIONS: dict[str, type] = {
    "planner": PlannerConfig, "search": SearchConfig, "filter": FilterConfig, "linking": LinkingConfig,
    "judge_check": JudgeConfig, "memory": MemoryConfig,
}
