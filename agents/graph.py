"""The agent loop as a LangGraph graph.

    analyse -> match_methodology -> judge --UNANSWERABLE--> END (abstain, saying what is missing)
                                          \\-> [enumerate -> filter -> decide -> execute]* -> audit -> END

Each node is a plain function of one question's state and the runtime; the store, decider,
analyzer, filter and memory come in through the runtime context, so tests run the whole graph with
real parts. Every failure inside the loop ends in an abstention with a reason instead of an
exception.

The graph runs a *batch* of questions in lockstep (`BatchState`): every node applies its function
to each question still on that path, and the loop goes on while any question is unfinished. Per
question this is exactly the loop above; one graph step for many questions keeps LangGraph's own
cost per step (about 0.2 ms) from adding up to a fifth of a question's time on a dataset run.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any, Literal

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime

from actions.context import ActionContext
from actions.enumerate import enumerate_candidates
from actions.filtering import top
from agents.answers import confidence, format_answers
from agents.judge import audit_answerability, missing_evidence
from agents.planner import question_context, relation_of
from agents.roles import current_entities, entity_roles
from agents.state import AgentContext, AgentState, BatchState, Candidate
from memory.trace import StepRecord
from ari.base.errors import AriError

log = logging.getLogger("ari.agent")


def analyse(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
    ctx = runtime.context
    update: dict = {}
    if state.analysis is None:
        update["analysis"] = ctx.analyzer.analyze(state.question)
    if state.question_vector is None:
        update["question_vector"] = ctx.candidate_filter.embed_question(state.question)
    return update


def match_methodology(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
    ctx = runtime.context
    if ctx.memory is None or not ctx.config.use_methodology or state.methodology is not None:
        return {}
    primary, fallback = guidance(ctx.memory, [state.analysis.masked])[0]
    return {"methodology": primary, "fallback_methodology": fallback}


def guidance(memory, masked: list[str], nearest: int = 3) -> list[tuple[Any, Any]]:
    """(methodology of the nearest cluster, a fallback) for each masked question. The fallback
    holds the next clusters' programs, those induced over all traces, then every other program the
    memory knows (most supported first), so that a question whose nearest clusters lack the kind
    of program it asks for ("the last to ..." near "the last ... before X") can still find one."""
    # without clustering (the ablation) the one methodology induced over all traces is all there is
    library = memory.program_library() if memory.use_clustering else []
    pairs = []
    for found in memory.match_nearest(masked, k=nearest):
        if not found:
            pairs.append((None, None))
            continue
        rest = [p for m in found[1:] for p in m.programs]
        known = {tuple(p.program) for p in found[0].programs + rest}
        rest += [p for p in library if tuple(p.program) not in known]
        fallback = replace(found[0], cluster_id=-2, text="", programs=rest, pitfalls=[]) if rest else None
        pairs.append((found[0], fallback))
    return pairs


def judge(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
    ctx = runtime.context
    if not ctx.config.judge:
        return {}
    linker = getattr(ctx.analyzer, "relation_linker", None)
    audit = audit_answerability(ctx.store, state.analysis, getattr(linker, "unlinked_relation", None))
    verdict = ctx.decider.judge(state, audit)
    update: dict = {
        "judgement": verdict,
        "llm_calls": state.llm_calls + verdict.llm_calls,
        "tokens": state.tokens + verdict.tokens,
    }
    if not verdict.answerable:
        update.update(done=True, abstained=True, reason=verdict.missing)
    return update


def action_context(state: AgentState) -> ActionContext:
    return question_context(state.analysis, state.results, state.actions)


def enumerate_step(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
    """Every non-empty action from the 1-hop subgraph of the question's entities (Algorithm 1)."""
    ctx = runtime.context
    pool = enumerate_candidates(ctx.store, action_context(state), current_entities(state.analysis))
    return {"all_candidates": pool, "all_scores": None, "candidates": []}


def filter_step(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
    """Score every candidate by similarity to the question and keep the top K."""
    ctx = runtime.context
    pool = state.all_candidates
    if not len(pool):
        return {}
    scores = state.question_scores or ctx.candidate_filter.question_scores(state.question_vector)
    values = ctx.candidate_filter.values(scores, pool, action_context(state))
    top_k = ctx.config.top_k if ctx.config.use_filtering else len(pool)
    kept = top(pool, values, top_k, max(1, top_k - 2))
    offered = [Candidate(s.action, s.size, s.score) for s in kept]
    return {"question_scores": scores, "all_scores": values, "candidates": offered}


def decide(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
    ctx = runtime.context
    if not state.candidates and not len(state.all_candidates):
        return _abstain("no KG action applies to the question's entities at this step")
    decision = ctx.decider.choose(state)
    update: dict = {"llm_calls": state.llm_calls + decision.llm_calls, "tokens": state.tokens + decision.tokens}
    if decision.index is None:
        return {**update, **_abstain(f"step {len(state.actions) + 1} failed: {decision.error or 'no choice'}")}
    return {**update, "chosen": state.candidates[decision.index], "choice_reason": decision.reason,
            "candidates": state.candidates}


def execute(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
    """Run the chosen action on the KG and record the step."""
    ctx = runtime.context
    chosen = state.chosen
    result = chosen.action.execute(ctx.store, action_context(state))
    step = len(state.actions) + 1
    record = StepRecord(
        step=step,
        candidates=[c.rendering for c in state.candidates],
        chosen=chosen.rendering,
        abstract=chosen.action.abstract(entity_roles(state.analysis)),
        result_size=len(result),
        reason=state.choice_reason,
    )
    log.info("step=%d action=%s size=%d reason=%s", step, chosen.rendering, len(result), state.choice_reason)
    update: dict = {
        "actions": state.actions + [chosen.action],
        "results": state.results + [result],
        "records": state.records + [record],
        "chosen": None,
    }
    if chosen.action.template == "answer":
        update.update(answers=format_answers(ctx.store, state.analysis, result), done=True)
    elif step >= ctx.config.max_steps:
        update.update(_abstain(f"no answer within {ctx.config.max_steps} steps"))
    return update


def audit(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
    """After solving: keep only the answers some fact states as the question asks
    (agents.faithfulness); abstain, naming what is missing and the nearest facts, when none is
    kept, or when the answer's confidence is below the configured threshold."""
    from agents.faithfulness import check_answers, nearest_facts  # (here while graph.py is being restructured)

    ctx = runtime.context
    if state.abstained:
        return {}
    plausible = getattr(getattr(ctx.analyzer, "relation_linker", None), "plausible", None)
    missing = missing_evidence(state.analysis, state.answers, ctx.store, relation_of(state.actions))
    if missing is not None:
        evidence = nearest_facts(ctx.store, state.analysis, plausible, relation_of(state.actions))
        return {"abstained": True, "reason": missing, "answers": [], "evidence": evidence}
    answers = state.answers
    if ctx.config.judge:
        verdict = check_answers(ctx.store, state.analysis, answers, plausible, relation_of(state.actions))
        if verdict.reason is not None:
            return {"abstained": True, "reason": verdict.reason, "answers": [], "evidence": verdict.evidence}
        answers = verdict.answers
    score = confidence(replace(state, answers=answers))
    floor = ctx.config.abstention.min_confidence
    if score < floor:
        return {"abstained": True, "reason": f"confidence {score:.2f} is below the threshold {floor:.2f}", "answers": []}
    return {"answers": answers, "confidence": score}


def _abstain(why: str) -> dict:
    """End the loop gracefully: abstain, saying why (never raise out of the graph)."""
    return {"done": True, "abstained": True, "reason": why, "answers": []}


def _unfinished(state: AgentState) -> bool:
    return not state.done


def _every(state: AgentState) -> bool:
    return True


def for_each(node, applies=_unfinished):
    """A batch node: `node` applied to every question it `applies` to. One question's bug makes
    that question abstain (and is logged); it never ends the batch."""

    def batch_node(batch: BatchState, runtime: Runtime[AgentContext]) -> dict:
        states = []
        for state in batch.questions:
            if applies(state):
                try:
                    update = node(state, runtime)
                except AriError:
                    raise
                except Exception as exc:  # reported as this question's abstention
                    log.exception("agent failed on %r", state.question)
                    update = _abstain(f"internal error: {type(exc).__name__}: {exc}")
                if update:
                    state = replace(state, **update)
            states.append(state)
        return {"questions": states}

    batch_node.__name__ = node.__name__
    return batch_node


def route_batch(batch: BatchState) -> Literal["enumerate", "audit"]:
    """Around the loop again while any question is unfinished."""
    return "enumerate" if any(map(_unfinished, batch.questions)) else "audit"


def recursion_limit(max_steps: int) -> int:
    """Graph steps a batch can take: three before the loop, four per action step, the audit."""
    return 3 + 4 * max_steps + 2


def build_graph():
    graph = StateGraph(BatchState, context_schema=AgentContext)
    for name, node, applies in (
        ("analyse", analyse, _every),
        ("match_methodology", match_methodology, _every),
        ("judge", judge, _every),
        ("enumerate", enumerate_step, _unfinished),
        ("filter", filter_step, _unfinished),
        ("decide", decide, _unfinished),
        ("execute", execute, _unfinished),
        ("audit", audit, _every),
    ):
        graph.add_node(name, for_each(node, applies))
    graph.add_edge(START, "analyse")
    graph.add_edge("analyse", "match_methodology")
    graph.add_edge("match_methodology", "judge")
    graph.add_conditional_edges("judge", route_batch)
    graph.add_edge("enumerate", "filter")
    graph.add_edge("filter", "decide")
    graph.add_edge("decide", "execute")
    graph.add_conditional_edges("execute", route_batch)
    graph.add_edge("audit", END)
    return graph.compile()
