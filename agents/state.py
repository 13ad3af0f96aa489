"""The state that flows through the agent graph, and what the graph's nodes may read beside it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from actions.enumerate import Candidate, CandidatePool
from actions.items import Item
from agents.analysis.types import QuestionAnalysis
from agents.deciders.base import Judgement
from agents.planner import Plan
from memory.trace import StepRecord

if TYPE_CHECKING:
    from actions.filtering import CandidateFilter, QuestionScores
    from actions.templates import Action
    from agents.analysis.analyzer import QuestionAnalyzer
    from agents.deciders.base import Decider
    from agents.faithfulness import AnswerCheck
    from ari.base.config import AgentConfig
    from ari.base.embedding import Embedder
    from memory.api import Memory
    from memory.types import Methodology
    from tkg_store.store import TKGStore


@dataclass
class AgentState:
    question: str
    """The question as the user asked it."""

    analysis: QuestionAnalysis | None = None
    """Linked entities, times, relations and the question's type."""

    question_vector: Callable[[], np.ndarray] | None = None
    """The question's embedding, computed once (on a background thread: it waits when called)
    and reused at every filtering step; read it through `embedded()`."""

    question_scores: QuestionScores | None = None
    """Its cosines with every relation, entity and template (`actions.filtering.QuestionScores`),
    computed at the first filtering step and reused at the others."""

    judgement: Judgement | None = None
    """The answerability verdict made before any KG action."""

    methodology: Methodology | None = None
    """The matched cluster's methodology (memory.Methodology), or None."""

    fallback_methodology: Methodology | None = None
    """The next clusters' programs and every other program the memory knows, tried when the
    cluster's programs do not fit (`agents.methodology.match_methodologies`)."""

    plan: Plan | None = None
    """The methodology program bound to this question (`agents.planner`), or None."""

    plan_note: str = ""
    """Why the plan was chosen, or why no program of the methodology could be bound."""

    answer_check: AnswerCheck | None = None
    """The question's answer check (`agents.faithfulness.AnswerCheck`), built by the planner and
    reused by the audit with the verdicts it has kept."""

    actions: list[Action] = field(default_factory=list)
    """Actions executed so far, in order; action k's result is results[k-1] (step #k)."""

    results: list[list[Item]] = field(default_factory=list)
    """Result of each executed action."""

    records: list[StepRecord] = field(default_factory=list)
    """One record per step, for the trace and `--trace`."""

    candidates: list[Candidate] = field(default_factory=list)
    """The filtered candidates offered at the current step, best first."""

    all_candidates: CandidatePool = field(default_factory=CandidatePool)
    """Every non-empty candidate of the current step, in enumeration order."""

    operation_sizes: dict[Action, int] = field(default_factory=dict)
    """The size of every list operation enumerated so far (an earlier step's result never changes,
    so neither does an operation over it): filled by the enumerate node, step after step."""

    chosen: Candidate | None = None
    """The decider's choice, waiting to be executed."""

    choice_reason: str = ""

    answers: list[str] = field(default_factory=list)
    """Ranked answers in display form."""

    done: bool = False
    abstained: bool = False
    reason: str | None = None
    """Why the agent abstained, or notes about the evidence."""

    evidence: list[str] = field(default_factory=list)
    """When abstaining because no fact states an answer: the nearest facts that do exist."""

    confidence: float = 0.0
    llm_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0

    error: str | None = None
    """The LLM endpoint failed: the question has no outcome yet (not an answer, not an abstention)."""

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    @property
    def analysed(self) -> QuestionAnalysis:
        """The analysis, which every node after `analyse` may rely on."""
        if self.analysis is None:
            raise RuntimeError(f"question not analysed yet: {self.question!r}")
        return self.analysis

    def embedded(self) -> np.ndarray:
        """The question's embedding, which every node after `analyse` may rely on."""
        if self.question_vector is None:
            raise RuntimeError(f"question not embedded yet: {self.question!r}")
        return self.question_vector()


@dataclass
class BatchState:
    """The graph's state: the questions of one batch, each with its own `AgentState`."""

    questions: list[AgentState] = field(default_factory=list)


@dataclass
class AgentContext:
    """What the graph's nodes need beside the state; passed in so tests can run the whole graph."""

    store: "TKGStore"
    decider: "Decider"
    config: "AgentConfig"
    analyzer: QuestionAnalyzer
    candidate_filter: CandidateFilter
    embedder: Embedder
    memory: Memory | None = None
