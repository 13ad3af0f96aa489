"""The library entry point: `Agent(store, memory, config).ask(question)`.

The CLI, the benchmark runner and the memory's learning loop all go through this class, so what a
user sees from `ari ask` is exactly what the benchmarks measure.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field
from functools import partial
from itertools import islice
from typing import Any

from agents.analysis.types import QuestionAnalysis
from agents.deciders.base import Decider, get_decider
from agents.graph import build_graph, recursion_limit
from agents.state import AgentContext, AgentState, BatchState
from agents.turns import Turns, in_flight
from ari.base.config import AgentConfig
from ari.base.embedding import PendingVectors, get_embedder
from ari.base.text import readable
from memory.trace import StepRecord, Trace
from tkg_store.store import TKGStore

NO_ANSWER = "No Answer"


@dataclass
class AgentResult:
    question: str
    answer: str | None  # top answer in display form; None when abstaining
    answers: list[str]  # ranked
    abstained: bool
    reason: str | None  # what is missing, when abstaining
    steps: list[StepRecord]
    trace: Trace
    confidence: float = 0.0
    llm_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    elapsed_s: float = 0.0
    judgement: list[str] = field(default_factory=list)  # the answerability audit lines
    unguided: bool = False  # no methodology could guide it (no memory, or the ablation)
    analysis: QuestionAnalysis | None = None
    evidence: list[str] = field(default_factory=list)  # the facts behind the answers; the nearest facts when abstaining
    error: str | None = None  # the LLM endpoint failed: no outcome (neither an answer nor an abstention)

    @property
    def answer_type(self) -> str:
        """What the question asks: entity, time, number, yesno or relation (`agents.analysis.query`)."""
        return self.analysis.asked_type if self.analysis is not None else "entity"

    @property
    def is_list(self) -> bool:
        """Whether every answer is asked for (a list, or the relations between two entities)."""
        return self.analysis is not None and (self.analysis.query.is_list or self.analysis.query.asks == "relation")

    @property
    def shape(self) -> str:
        return self.analysis.query.shape if self.analysis is not None else "six"

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def to_dict(self) -> dict:
        """The stable JSON form printed by `ari ask --json`."""
        return {
            "question": self.question,
            "answer": self.answer,
            "answers": self.answers,
            "answer_type": self.answer_type,
            "is_list": self.is_list,
            "shape": self.shape,
            "abstained": self.abstained,
            "reason": self.reason,
            "evidence": self.evidence,
            "confidence": self.confidence,
            "steps": [asdict(s) for s in self.steps],
            "judgement": self.judgement,
            "unguided": self.unguided,
            "error": self.error,
            "llm_calls": self.llm_calls,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "tokens": self.tokens,
            "elapsed_s": round(self.elapsed_s, 4),
        }


class Agent:
    """Answers temporal questions over one store, optionally guided by a memory."""

    def __init__(
        self,
        store: TKGStore,
        memory: Any = None,
        config: AgentConfig | None = None,
        decider: Decider | None = None,
        analyzer: Any = None,
        embedder: Any = None,
    ) -> None:
        from actions.filtering import get_filter
        from agents.analysis.analyzer import QuestionAnalyzer

        self.store = store
        self.memory = memory
        self.config = config or AgentConfig()
        self.embedder = embedder or get_embedder(self.config.embedding_model)
        self.decider = decider or get_decider(self.config.decider, self.config)
        self.analyzer = analyzer or QuestionAnalyzer(
            store, self.embedder, linking=self.config.linking, judge=self.config.judge_check, names=memory.names() if memory is not None else None,
        )
        self.candidate_filter = get_filter(store, self.embedder, self.config.filter)
        self._context = AgentContext(store, self.decider, self.config, self.analyzer, self.candidate_filter, self.embedder, memory)
        self._graph = build_graph()
        # a planned question may take as many actions as its program has (`agents.graph.step_limit`)
        longest = max((len(s.program.steps) for s in memory.program_library()), default=0) if memory is not None else 0
        self._most_steps = max(self.config.max_steps, longest)

    def warm_up(self) -> "Agent":
        """Build now what the first question would otherwise build for all (the store's entity and
        relation linkers: seconds on MultiTQ), so a batch run counts it as start-up, not solving."""
        _ = self.analyzer.entity_linker, self.analyzer.relation_linker  # built on first access
        return self

    def ask(self, question: str) -> AgentResult:
        return self.ask_many([question])[0]

    @property
    def questions_in_flight(self) -> int:
        """Questions answered at once, each on its own: more than one with a decider that waits on a
        remote LLM (`openai:` with `LLMConfig.concurrency`), else one lockstep batch at a time."""
        return max(1, self.decider.questions_in_flight)

    def ask_many(self, questions: list[str]) -> list[AgentResult]:
        """Answer several questions: in one pass of the graph, analysed and embedded in one batch and
        solved in lockstep; or, with questions in flight, each through the graph on its own, that
        many at a time, so none waits for the slowest of a step (`agents.turns`). One question's
        failure is its own abstention."""
        started = time.perf_counter()
        if self.questions_in_flight > 1 and len(questions) > 1:
            final = list(in_flight(self._prepared(questions), self._alone, self.questions_in_flight, Turns()))
        else:
            final = self._solve(self._states(questions))
        each = (time.perf_counter() - started) / max(1, len(questions))
        return [self._result(state, each) for state in final]

    def ask_stream(self, questions: Iterable[str], batch_size: int = 64) -> Iterator[AgentResult]:
        """Answer questions as they are drawn, the results in their order (a batch run's way): with
        questions in flight, one continuous pool (a question starts as soon as one finishes, across
        any number of questions: `agents.turns.in_flight`); else lockstep batches of `batch_size`.
        A result's `elapsed_s` is the wall time since the previous one, so they add up to the run's."""
        if self.questions_in_flight > 1:
            final: Iterator[AgentState] = in_flight(self._prepared(questions), self._alone, self.questions_in_flight, Turns())
        else:
            final = (state for chunk in _chunks(questions, batch_size) for state in self._solve(self._states(chunk)))
        last = time.perf_counter()
        for state in final:
            now = time.perf_counter()
            yield self._result(state, now - last)
            last = now

    @staticmethod
    def _states(questions: Iterable[str]) -> list[AgentState]:
        return [AgentState(question=readable(question).strip()) for question in questions]

    def _prepared(self, questions: Iterable[str]) -> Iterator[AgentState]:
        """The questions' states with their vectors, embedded a pool's worth at a time on the
        background thread: one model call for many questions, as a lockstep batch makes (the
        graph's `analyse` keeps a vector it is given). Should that call fail, each question's
        vector is embedded alone (`PendingVectors.row`)."""
        for chunk in _chunks(questions, self.questions_in_flight):
            states = self._states(chunk)
            pending = PendingVectors(self.embedder, [s.question for s in states])
            for row, state in enumerate(states):
                state.question_vector = partial(pending.row, row)
            yield from states

    def _solve(self, states: list[AgentState]) -> list[AgentState]:
        """The questions through the graph, in lockstep."""
        limit = {"recursion_limit": recursion_limit(self._most_steps)}
        return self._graph.invoke(BatchState(states), context=self._context, config=limit)["questions"]

    def _alone(self, state: AgentState) -> AgentState:
        """One question through the graph by itself (`in_flight` holds its turn)."""
        return self._solve([state])[0]

    def _result(self, state: AgentState, elapsed: float) -> AgentResult:
        analysis = state.analysis
        trace = Trace(
            question=state.question,
            masked_question=analysis.masked if analysis else state.question,
            steps=state.records,
            answers=state.answers,
            abstained=state.abstained,
            reason=state.reason,
            decider=self.decider.name,
            qtype=analysis.pattern if analysis else None,
            answer_type=analysis.asked_type if analysis else None,
        )
        return AgentResult(
            question=state.question,
            answer=None if state.abstained or not state.answers else state.answers[0],
            answers=[] if state.abstained else state.answers,
            abstained=state.abstained,
            reason=state.reason,
            steps=state.records,
            trace=trace,
            confidence=state.confidence,
            llm_calls=state.llm_calls,
            prompt_tokens=state.prompt_tokens,
            completion_tokens=state.completion_tokens,
            elapsed_s=elapsed,
            judgement=state.judgement.audit if state.judgement else [],
            unguided=self.memory is None or not self.config.use_methodology,
            analysis=analysis,
            evidence=state.evidence,
            error=state.error,
        )


def _chunks(items: Iterable[str], size: int) -> Iterator[list[str]]:
    iterator = iter(items)
    while chunk := list(islice(iterator, max(1, size))):
        yield chunk
