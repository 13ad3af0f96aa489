"""`offline`: the built-in decider that needs no LLM.

It follows the matched cluster's methodology: the abstract action programs induced from past
traces (e.g. `getTime(E1, R, E2) -> getHeadEntity(E2, R) -> getAfter(#2, #1) -> getFirst(#3) ->
answer(#4)`), best first. Before the first step it *plans*: it binds each program to the question
(entity roles by linking score, R by the relation ranking, see `agents.planner`), executes the
bound program on the KG, and commits to the first one that yields an answer of the asked kind,
falling back to the next clusters' programs and those induced over all questions when none of the
cluster's fits. Programs whose temporal operations (before, after, first, last, between, a
same-period join) are exactly those the question's cue words ask for are tried first. Each step
then picks, among the offered candidates, the action the plan calls for.

Without a methodology (no memory, or the "without methodology" ablation) it falls back to greedy
choice by similarity score, answering once a list operation has run or the step budget is nearly
spent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from agents.abstract_programs import consistent_joins, dated, program_operations, roles_used, temporal_operations
from agents.deciders.base import Decision, Judgement, register_decider
from agents.planner import LIST_OPERATIONS, Plan, bind_program
from agents.state import Candidate
from ari.base.config import AgentConfig

if TYPE_CHECKING:
    from agents.state import AgentState
    from tkg_store.store import TKGStore

_PLANS_KEPT = 4096  # plans of questions in flight (a batch is a few dozen)
MAX_TRIED = 64  # distinct programs bound before giving up (a binding costs about a millisecond)


class OfflineDecider:
    name = "offline"

    def __init__(self, config: AgentConfig) -> None:
        self.config = config
        # a relation must score at least this share of the best relation's score to be bound
        self.relation_floor = float(config.extra.get("relation_floor", 0.5))
        self.store: "TKGStore | None" = None
        # question -> (plan, why): the agent runs a batch of questions in lockstep, a step of each in turn
        self._plans: dict[str, tuple[Plan | None, str]] = {}

    def attach(self, store: "TKGStore") -> None:
        """The offline decider plans on the KG, so the agent hands it the store."""
        self.store = store

    # -- choosing ----------------------------------------------------------------------------
    def choose(self, state: "AgentState") -> Decision:
        programs = _programs(state.methodology) + _programs(state.fallback_methodology)
        if not programs or self.store is None:
            return self._greedy(state)
        if not state.actions or state.question not in self._plans:
            if len(self._plans) >= _PLANS_KEPT:
                self._plans.clear()
            self._plans[state.question] = self._make_plan(state, programs)
        plan, why = self._plans[state.question]
        if plan is None:
            return Decision(None, error=why)
        step = len(state.actions)
        wanted = plan.actions[step]
        reason = f"{why}; step {step + 1}: {plan.program[step]}"
        for index, candidate in enumerate(state.candidates):
            if candidate.action == wanted:
                return Decision(index, reason=reason)
        widened = _find(state, wanted)  # planned, but not among the filtered top K
        if widened is None:
            return Decision(None, error=f"the planned action {wanted.render()} is not among the candidates")
        state.candidates.append(widened)
        return Decision(len(state.candidates) - 1, reason=reason)

    def _make_plan(self, state: "AgentState", programs) -> tuple[Plan | None, str]:
        seen: set[tuple[str, ...]] = set()
        analysis = state.analysis
        asked = temporal_operations(analysis.cues if analysis else [])
        if analysis is not None and analysis.times:
            programs = [variant for entry in programs for variant in _with_dated(entry)]
        mentions = len(analysis.entities) if analysis is not None else 0
        roles = {f"E{i}" for i in range(1, mentions + 1)}
        programs = [p for p in programs if roles_used(tuple(p[0])) <= roles]
        # programs whose temporal operations are exactly the ones the question asks for come
        # first, and among them those whose same-period joins keep their entity in place
        programs = sorted(
            programs, key=lambda p: (program_operations(tuple(p[0])) != asked, not consistent_joins(tuple(p[0])))
        )
        for rank, (program, support, success, *note) in enumerate(programs, 1):
            if tuple(program) in seen:
                continue
            if len(seen) >= MAX_TRIED:
                break
            seen.add(tuple(program))
            plan = bind_program(self.store, analysis, program, self.relation_floor)
            if plan is not None:
                return plan, f"methodology program {rank}{''.join(note)} (right {support} times, success {success:.2f})"
        return None, (
            f"none of the {len(seen)} programs of the methodology can be carried out on the KG "
            "for this question's entities and relation"
        )

    def _greedy(self, state: "AgentState") -> Decision:
        if not state.candidates:
            return Decision(None, error="no candidate action")
        ran_list_op = any(getattr(a, "template", "") in LIST_OPERATIONS for a in state.actions)
        near_budget = len(state.actions) + 1 >= self.config.max_steps
        answers = [i for i, c in enumerate(state.candidates) if c.action.template == "answer"]
        if answers and (ran_list_op or near_budget):
            last = max(answers, key=lambda i: (getattr(state.candidates[i].action, "source", 0), state.candidates[i].score))
            return Decision(last, reason="greedy: answer the latest result")
        others = [i for i, c in enumerate(state.candidates) if c.action.template != "answer"]
        index = others[0] if others else answers[0]
        return Decision(index, reason=f"greedy: highest similarity ({state.candidates[index].score:.3f})")

    # -- judging -----------------------------------------------------------------------------
    def judge(self, state: "AgentState", audit: Judgement) -> Judgement:
        return audit  # the code audit is the whole judgement when no model is involved


def _find(state: "AgentState", action) -> Candidate | None:
    """`action` as one of the step's candidates, with its size and score (None: not one)."""
    pool = state.all_candidates
    index = pool.index_of(action) if hasattr(pool, "index_of") else next(
        (i for i, c in enumerate(pool) if c.action == action), None
    )
    if index is None:
        return None
    score = 0.0 if state.all_scores is None else float(state.all_scores[index])
    return Candidate(action, pool[index].size, score)


def _with_dated(entry: tuple) -> list[tuple]:
    """For a question that states a time: a program that ignores it, first restricted to it."""
    program, *rest = entry
    variant = dated(tuple(program))
    return [(list(variant), *rest, ", restricted to the question's time"), entry] if variant else [entry]


def _programs(methodology) -> list[tuple[list[str], int, float]]:
    if methodology is None:
        return []
    return [(list(p.program), int(p.support), float(p.success_rate)) for p in getattr(methodology, "programs", [])]


register_decider("offline", lambda _model, config: OfflineDecider(config))
