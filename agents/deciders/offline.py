"""`offline`: the built-in decider that needs no LLM.

It follows the plan the graph's plan node made from the matched methodology (`agents.planner`):
at each step it picks, among the offered candidates, the action the plan calls for (the filter
guarantees it a seat; it is then the only candidate offered, as no other is read, and the question
is not embedded for a ranking). With a methodology but no plan (no program of it binds to the question) it
abstains, saying so. Without a methodology (no memory, or the "without methodology" ablation) it
chooses greedily by similarity score, answering once a list operation has run or the step budget
is nearly spent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from actions.programs import LIST_OPERATIONS
from actions.templates import source_of
from agents.deciders.base import BaseDecider, Decision, Judgement, register_decider
from ari.base.config import AgentConfig

if TYPE_CHECKING:
    from agents.state import AgentState


class OfflineDecider(BaseDecider):
    name = "offline"

    def __init__(self, config: AgentConfig) -> None:
        self.config = config

    def ranks_every_question(self) -> bool:
        return False

    def needs_ranking(self, state: "AgentState") -> bool:
        """Only the greedy walk reads the similarity ranking: a plan names each step's action, and
        a methodology with no plan abstains. So a planned question is never embedded."""
        return state.plan is None and not state.plan_note

    def choose(self, state: "AgentState") -> Decision:
        if state.plan is None:
            if state.plan_note:  # a methodology was there, and none of its programs binds
                return Decision(None, error=state.plan_note)
            return self._greedy(state)
        step = len(state.actions)
        wanted = state.plan.next_action(step)
        reason = f"{state.plan.why}; step {step + 1}: {state.plan.program[step]}" if wanted is not None else ""
        for index, candidate in enumerate(state.candidates):
            if candidate.action == wanted:
                return Decision(index, reason=reason)
        shown = wanted.render() if wanted is not None else "(past the plan's end)"
        return Decision(None, error=f"the planned action {shown} is not among the candidates")

    def _greedy(self, state: "AgentState") -> Decision:
        if not state.candidates:
            return Decision(None, error="no candidate action")
        ran_list_op = any(a.template in LIST_OPERATIONS for a in state.actions)
        near_budget = len(state.actions) + 1 >= self.config.max_steps
        answers = [i for i, c in enumerate(state.candidates) if c.action.template == "answer"]
        if answers and (ran_list_op or near_budget):
            last = max(answers, key=lambda i: (source_of(state.candidates[i].action) or 0, state.candidates[i].score))
            return Decision(last, reason="greedy: answer the latest result")
        others = [i for i, c in enumerate(state.candidates) if c.action.template != "answer"]
        index = others[0] if others else answers[0]
        return Decision(index, reason=f"greedy: highest similarity ({state.candidates[index].score:.3f})")

    def judge(self, state: "AgentState", audit: Judgement) -> Judgement:
        return audit  # the code audit is the whole judgement when no model is involved


register_decider("offline", lambda _model, config: OfflineDecider(config))
