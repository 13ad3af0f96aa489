"""The agent, as a LangGraph graph: this file is the whole path a question takes.

    analyse -> judge --UNANSWERABLE--> answer (abstain, saying what is missing)
                    \\-> match_methodology -> plan -> [enumerate -> filter -> decide -> execute]* -> audit -> answer

- analyse: link entities, times and relations; embed the question (one batch call for the batch).
- judge: Judge-Then-Solve before solving: can the KG support an answer at all?
- match_methodology: the nearest cluster's methodology and a fallback (`agents.methodology`).
- plan: bind the methodology's programs to the question, best first (`agents.planner`); the plan
  lives in the state.
- enumerate: every non-empty action from the 1-hop subgraph of the question's entities.
- filter: the top K by similarity to the question, plus the plan's next action (marked suggested):
  the candidate list every decider sees. A decider that reads no ranking for the step (the offline
  decider following a plan) is offered the plan's action alone, and the question is not embedded.
- decide: the decider picks one candidate (`agents.deciders`).
- execute: run it on the KG and record the step.
- audit: keep only the answers a KG fact states as the question asks (`agents.faithfulness`);
  abstain, with the nearest facts, when none is.
- answer: the final answers and their confidence (abstain below the configured threshold).

Every node reads the state and returns an update; nothing else changes it. The store, decider,
analyzer, filter, embedder and memory come in through the runtime context, so tests run the whole graph with
real parts. The graph runs a *batch* of questions in lockstep (`BatchState`): each node applies to
every question still on its path, and the loop goes on while any question is unfinished, so
LangGraph's own cost per step is paid once per batch. One question's failure is its own abstention
("internal error: ..."), never the batch's; `AriError`s (a misconfigured decider, an unreachable
endpoint) still end the call.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Literal

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime

from actions.context import ActionContext
from actions.enumerate import enumerate_candidates
from actions.programs import Program
from actions.query import VALUE_ASKS
from actions.templates import ENTITY_KINDS
from agents.analysis.cues import question_cues
from agents.analysis.query import country_by_where
from agents.analysis.relations import RelationLexicon
from agents.analysis.types import QuestionAnalysis
from agents.answers import confidence, ranked_answers
from agents.deciders.base import Decision, Judgement
from agents.evidence import supporting_facts
from agents.faithfulness import AnswerCheck, check_answers, nearest_facts
from agents.holdings import nearest_holdings
from agents.judge import audit_answerability, contested_sector, missing_evidence, own_answers
from agents.methodology import match_methodologies, programs_for
from agents.planner import (
    extended_lookup,
    first_relation,
    make_plan,
    question_context,
    referred_relation,
    rival_note,
    untyped_result,
)
from agents.roles import current_entities, entity_roles
from agents.shapes import (
    absent_answer,
    act_noun_roles,
    admitted,
    aim_only,
    asked_query,
    bounded_variants,
    composed_bounds,
    counted_variants,
    described_by,
    excluding_variants,
    lookups_in_roles,
    of_asked_kind,
    period_variants,
    placed_variants,
    reference_relations,
    referred_variants,
    shape_problem,
    shared_doer_variants,
    swapped_variants,
    typed_variants,
    unnamed_act,
    unrecorded_reference,
    valued_variants,
    worded_relations,
    wording_problem,
)
from agents.state import AgentContext, AgentState, BatchState
from ari.base.embedding import PendingVectors
from ari.base.errors import AriError
from memory.trace import StepRecord
from tkg_store.learned import country_names, qualifier_of

log = logging.getLogger("ari.agent")
Update = dict


# -- the nodes, in path order (a node over `states` makes one call for the batch) -------------------

def analyse(states: list[AgentState], ctx: AgentContext) -> list[Update]:
    """Analyse and embed the questions in one batch call each. The embedding (the model is the
    cost) runs on a background thread until the first filtering step needs it; a question that
    comes with its vector (`Agent._prepared`, questions in flight) keeps it. For a decider that may
    read no ranking (offline: not when it follows a plan), the batch is embedded only when a
    question first needs a ranking (~5 ms a question saved, a third of an offline answer's CPU)."""
    texts = [s.question for s in states]
    vectors = [s.question_vector for s in states]
    missing = [i for i, v in enumerate(vectors) if v is None]
    if missing:
        pending = PendingVectors(ctx.embedder, [texts[i] for i in missing], eager=ctx.decider.ranks_every_question())
        for row, i in enumerate(missing):
            vectors[i] = partial(pending.row, row)
    analyses = nearest_holdings(ctx.store, ctx.analyzer.analyze_batch(texts))
    return [{"analysis": a, "question_vector": v} for a, v in zip(analyses, vectors)]


def judge(states: list[AgentState], ctx: AgentContext) -> list[Update]:
    """Judge-Then-Solve before solving: the code's audit, then the decider's verdicts (one batch)."""
    if not ctx.config.judge:
        return [{} for _ in states]
    linker = ctx.analyzer.relation_linker
    unsure = ctx.config.abstention.unsure_reading
    audits = [audit_answerability(ctx.store, s.analysed, linker.unlinked_relation, unsure) for s in states]
    updates = []
    for state, verdict in zip(states, ctx.decider.judge_many(states, audits)):
        update: Update = {"judgement": verdict, **_usage(state, verdict)}
        if verdict.error is not None:
            update.update(_failed(verdict.error))
        elif not verdict.answerable:
            update.update(done=True, abstained=True, reason=verdict.missing)
        updates.append(update)
    return updates


def match_methodology(states: list[AgentState], ctx: AgentContext) -> list[Update]:
    """The nearest cluster's methodology and a fallback, matched for the batch at once."""
    if ctx.memory is None or not ctx.config.use_methodology:
        return [{} for _ in states]
    pairs = match_methodologies(ctx.memory, [s.analysed.masked for s in states], ctx.config.memory.nearest_methodologies)
    return [{"methodology": primary, "fallback_methodology": fallback} for primary, fallback in pairs]


def plan(state: AgentState, ctx: AgentContext) -> Update:
    """Bind the methodology's programs to the question; the first that yields an answer of the
    asked kind is the plan. Only programs that carry out what the typed query asks are tried
    (`agents.shapes`). `plan_note` says why there is none when a methodology was there. When the
    event a cue points at never happened ("before China did"), the question is abstained on here,
    naming that event."""
    methodologies = [m for m in (state.methodology, state.fallback_methodology) if m is not None and m.programs]
    if not methodologies:
        return {}
    query = state.analysed.query
    check = _answer_check(state, ctx) if ctx.config.judge else None
    referred = check.referred_relations if check is not None else frozenset()
    placed = referred_variants(placed_variants(programs_for(state.analysed, *methodologies), state.analysed), referred)
    placed = bounded_variants(shared_doer_variants(placed, state.analysed), state.analysed)
    offered = swapped_variants(period_variants(valued_variants(counted_variants(placed, state.analysed), state.analysed), state.analysed), state.analysed)
    guides = admitted(typed_variants(excluding_variants(offered, state.analysed), state.analysed), state.analysed)
    missing = check.missing_reference() or unrecorded_reference(ctx.store, state.analysed, _lexicon(ctx)) if check is not None else None
    if check is not None and missing is not None:  # "before China did", and China never did: no program can be right
        evidence = check.nearest(check.asked_relation(r for r, _ in state.analysed.relations))
        return _abstain(missing) | {"plan_note": missing, "evidence": evidence}
    if not guides:
        return {"plan_note": f"the memory holds no program that carries out every constraint of this {query.shape} question"
                             " (the shapes beyond MultiTQ's six are learnt by: ari memory learn --generate)"}
    accept = _accepts(state, ctx, check) if ctx.config.judge else None
    worded = worded_relations(ctx.store, state.analysed, _lexicon(ctx))
    found, why = make_plan(ctx.store, state.analysed, guides, ctx.config.planner, accept, worded, referred)
    misread = False
    if found is not None and accept is not None and query.operations() and not accept(found.results, found.actions):
        # a count, yes / no, ranking or n-th is computed over every fact the binding read, which the
        # audit cannot check answer by answer: only an accepted binding gives it
        problem = _wording(ctx, state.analysed, first_relation(found.actions))
        why = rival_note(ctx.store, found.rivals) if found.rivals else problem or f"no program reads the relation the question asks about in its roles ({found.program})"
        found, misread = None, True
    described = partial(described_by, ctx.analyzer.relation_linker.texts.texts)
    learnt = not all(composed_bounds(g.program) for g in guides)
    absent = absent_answer(ctx.store, state.analysed, check, _lexicon(ctx), lambda r: _aimed(ctx, state.analysed, r), described) if found is None and learnt else None
    if absent is not None:  # no fact matches what a yes/no or count question asks
        evidence = nearest_facts(ctx.store, state.analysed, _plausible(ctx))
        return {"plan_note": why, "answers": [absent], "done": True, "evidence": evidence}
    # no program binds, and a decider that only follows plans abstains: say what the KG lacks, with the nearest facts
    if found is None and check is not None and not misread and not ctx.decider.ranks_every_question():
        relation = check.asked_relation(r for r, _ in state.analysed.relations)
        reason = unnamed_act(ctx.store, state.analysed, _lexicon(ctx)) or check.reason([], relation)
        return _abstain(reason) | {"plan_note": why, "evidence": check.nearest(relation)}
    return {"plan": found, "plan_note": why, "answer_check": check}


def _answer_check(state: AgentState, ctx: AgentContext) -> AnswerCheck | None:
    """The question's answer check (None: it names no entity, and every answer is kept). One per
    question, shared by the planner and the audit: its verdicts on relations and answers are kept."""
    if not state.analysed.entities:
        return None
    if state.answer_check is None:
        query = asked_query(state.analysed)
        kind = ENTITY_KINDS[query.entity_type](ctx.store) if query.entity_type and "type" in query.operations() else None
        referred = reference_relations(ctx.store, state.analysed, _lexicon(ctx))
        return AnswerCheck(ctx.store, state.analysed, _plausible(ctx), kind, referred, act_noun_roles(ctx.store, state.analysed.masked))
    return state.answer_check


def _plausible(ctx: AgentContext) -> Callable[[str, set[str]], bool | None] | None:
    """The relation linker's verdict on whether a wording may mean a relation."""
    return ctx.analyzer.relation_linker.plausible


def _lexicon(ctx: AgentContext) -> RelationLexicon | None:
    """The relation lexicon the question analysis reads (None: it reads none)."""
    return ctx.analyzer.relation_linker.lexicon


def _wording(ctx: AgentContext, analysis: QuestionAnalysis, relation: str | None) -> str | None:
    """Why `relation` does not read the question's words (`agents.shapes.wording_problem`), or says their opposite: a
    word may name an act and its opposite alike ("sanctions": imposed or eased), and the verb phrase's polarity ("hit
    with sanctions") refuses the opposite, as the ranking does (`RelationLinker.contradicted`)."""
    if relation is not None and ctx.analyzer.relation_linker.contradicted(analysis.masked, relation):
        return f"the question's words say the opposite of {ctx.store.relation_text(relation)}"
    if relation is not None and _aimed(ctx, analysis, relation):
        head, _, aim = ctx.analyzer.relation_linker.texts.texts[relation][0].partition(" to ")
        return f"the question asks whether one did '{aim}', and {head} {aim} records only '{head}' to do it: ask in its own words"
    return wording_problem(ctx.store, analysis, relation, _lexicon(ctx))


def _aimed(ctx: AgentContext, analysis: QuestionAnalysis, relation: str) -> bool:
    """Whether a count, yes / no, ranking or n-th names of `relation` only the act its name aims at (`aim_only`)."""
    texts = ctx.analyzer.relation_linker.texts.texts.get(relation, ())
    return bool(texts) and bool(analysis.query.operations() - {"type", "between"}) and aim_only(analysis, texts, relation, _lexicon(ctx))


def _referred_problem(ctx: AgentContext, check: AnswerCheck | None, actions: list) -> str | None:
    """Why the program does not read the event a before / after refers to as the question words it, where the cue's
    clause is about the one party named and says an act of its own (None: it does, or the question has no such clause;
    an event of another party named is the answer check's `refers_to`): the event is of a relation the clause names, and
    the asked one is not ("after {E1} was sanctioned, who criticized it" is no question about sanctions)."""
    relation, referred = first_relation(actions), referred_relation(actions)
    if check is None or relation is None or check.referred or not check.referred_relations:
        return None
    if relation in check.referred_relations or not check.refers_to(referred or relation):
        return f"the program reads the event the question refers to as {ctx.store.relation_text(referred or relation)}, which its words do not say"
    return None


def _accepts(state: AgentState, ctx: AgentContext, check: AnswerCheck | None) -> Callable[[list, list], bool]:
    """The audit's answer check, for the planner: a bound program whose answers it would reject
    gives way to the next one that keeps every constraint the question states."""
    if check is None:
        return lambda results, actions: True  # check_answers keeps every answer
    query = state.analysed.query
    strict = bool(query.operations() - {"type", "between"})  # a count, yes / no, ranking, n-th or exclusion

    def worded(actions: list) -> bool:  # a relation the wording names is the one asked, and the one of the event referred to
        relation = first_relation(actions)
        return _wording(ctx, state.analysed, relation) is None and check.refers_to(referred_relation(actions) or relation) and (
            _referred_problem(ctx, check, actions) is None
        )

    if query.asks in VALUE_ASKS:  # a count or yes / no over the relation the question asks about, in its roles
        return lambda results, actions: (
            ((relation := first_relation(actions)) is None or check.asks_relation(relation)) and lookups_in_roles(check, actions, strict)
            and worded(actions)
        )
    # what a program computes over its facts (a count, the most, every one) must read them as asked
    in_roles = bool(query.operations() or query.is_list or check.pronoun)

    def accept(results: list, actions: list) -> bool:
        if in_roles and not lookups_in_roles(check, actions, strict):
            return False
        if not worded(actions):
            return False
        return any(check.survives(a) for a in ranked_answers(ctx.store, state.analysis, results[-1]))

    return accept


def action_context(state: AgentState) -> ActionContext:
    return question_context(state.analysis, state.results, state.actions)


def enumerate_step(state: AgentState, ctx: AgentContext) -> Update:
    """Every non-empty action from the 1-hop subgraph of the question's entities (Algorithm 1).
    The actions of the shapes beyond the six (counts, the n-th ...) are offered when the query asks
    for one of them or the decider ranks the candidates; a plan for another question never takes
    them (`agents.shapes.admitted`), and sizing them costs a third of an offline answer."""
    pool = enumerate_candidates(
        ctx.store,
        action_context(state),
        current_entities(state.analysis, ctx.config.linking.acted_per_mention),
        sizes=state.operation_sizes,
        extended=bool(asked_query(state.analysed).operations()) or ctx.decider.needs_ranking(state) or _plans_extended(state),
    )
    return {"all_candidates": pool, "candidates": []}


def _plans_extended(state: AgentState) -> bool:
    """Whether the plan's next step is a lookup only the extended enumeration offers (a dated getTime:
    "in which month of 2012 did X first visit Y"), which the planner bound: the candidates must hold it."""
    step = len(state.actions)
    return state.plan is not None and step < len(state.plan.program) and extended_lookup(state.plan.program[step])


def filter_step(state: AgentState, ctx: AgentContext) -> Update:
    """Score every candidate by similarity to the question and keep the top K; the plan's next
    action always has a seat (marked suggested), whatever its score, for every decider. A decider
    that reads no ranking for this step gets the plan's action alone: no score is computed."""
    pool = state.all_candidates
    if not len(pool):
        return {}
    wanted = state.plan.next_action(len(state.actions)) if state.plan is not None else None
    planned = pool.candidate_of(wanted) if wanted is not None else None
    if not ctx.decider.needs_ranking(state):
        return {"candidates": [] if planned is None else [replace(planned, suggested=True)]}
    scores = state.question_scores or ctx.candidate_filter.question_scores(
        state.embedded(), state.question, dict(state.analysed.relations), cues=question_cues(state.question)
    )
    context = action_context(state)
    top_k = ctx.config.top_k if ctx.config.use_filtering else len(pool)
    offered = ctx.candidate_filter.keep(scores, pool, context, top_k)
    if wanted is not None:
        seat = next((i for i, c in enumerate(offered) if c.action == wanted), None)
        if seat is not None:
            offered[seat] = replace(offered[seat], suggested=True)
        elif planned is not None:
            score = float(ctx.candidate_filter.values(scores, [planned], context)[0])
            offered.append(replace(planned, score=score, suggested=True))
    return {"question_scores": scores, "candidates": offered}


def decide(states: list[AgentState], ctx: AgentContext) -> list[Update]:
    """The decider picks one candidate for every question of the step at once (an LLM decider
    keeps their requests in flight together)."""
    updates: list[Update] = [_abstain("no KG action applies to the question's entities at this step") for _ in states]
    asking = [i for i, s in enumerate(states) if s.candidates or len(s.all_candidates)]
    decisions = ctx.decider.choose_many([states[i] for i in asking], ctx.store.display)
    for i, decision in zip(asking, decisions):
        state, update = states[i], _usage(states[i], decision)
        if decision.failed:
            update.update(_failed(decision.error or "the LLM endpoint failed"))
        elif decision.index is None:
            update.update(_abstain(f"step {len(state.actions) + 1} failed: {decision.error or 'no choice'}"))
        else:
            update.update(chosen=state.candidates[decision.index], choice_reason=decision.reason)
        updates[i] = update
    return updates


def _usage(state: AgentState, spent: Decision | Judgement) -> Update:
    return {
        "llm_calls": state.llm_calls + spent.llm_calls,
        "prompt_tokens": state.prompt_tokens + spent.prompt_tokens,
        "completion_tokens": state.completion_tokens + spent.completion_tokens,
    }


def _failed(error: str) -> Update:
    """The LLM endpoint failed: the question stops with an error, which is not an answer."""
    return {"done": True, "abstained": True, "error": error, "reason": f"error: {error}", "answers": []}


def execute(state: AgentState, ctx: AgentContext) -> Update:
    """Run the chosen action on the KG and record the step."""
    chosen = state.chosen
    if chosen is None:
        return _abstain("no action was chosen")
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
    update: Update = {
        "actions": state.actions + [chosen.action],
        "results": state.results + [result],
        "records": state.records + [record],
        "chosen": None,
    }
    if chosen.action.template == "answer":
        update.update(answers=ranked_answers(ctx.store, state.analysis, result), done=True)
    elif step >= (limit := step_limit(state, ctx.config.max_steps)):
        update.update(_abstain(f"no answer within {limit} steps"))
    return update


def step_limit(state: AgentState, max_steps: int) -> int:
    """The most actions this question may take: the configured budget, or its plan's length when
    the memory's program is longer (a program the memory learnt is never cut short)."""
    return max(max_steps, len(state.plan.program.steps)) if state.plan is not None else max_steps


def audit(state: AgentState, ctx: AgentContext) -> Update:
    """After solving: the answer is of the shape the query asks and the program kept every constraint
    the question states (`agents.shapes`), and only the
    answers some fact states as the question asks stay (`agents.faithfulness`); abstain, naming
    what is missing and the nearest facts, when none does. Each answer comes with its facts."""
    query = state.analysed.query
    # an unguided walk ignores what the question asks of time by design (README): only the query's own operations hold it
    guided = ctx.memory is not None and ctx.config.use_methodology
    if state.actions and (guided or query.operations()):
        problem = shape_problem(state.analysed, Program.parse([r.abstract for r in state.records]), state.answers)
        if problem is None and state.plan is not None and state.plan.rivals is not None:
            problem = rival_note(ctx.store, state.plan.rivals)
        if problem is None:
            problem = _wording(ctx, state.analysed, first_relation(state.actions)) or _where_problem(state, ctx)
        if problem is None and state.answer_check is not None:
            problem = _referred_problem(ctx, state.answer_check, state.actions)
        if problem is not None:
            return {"abstained": True, "reason": problem, "answers": []}
    if query.asks in VALUE_ASKS:
        return {"evidence": state.evidence or _support(state, ctx, state.answers)}
    answers, wrong_kind = of_asked_kind(ctx.store, state.analysed, state.answers)
    if wrong_kind is not None:
        return {"abstained": True, "reason": wrong_kind, "answers": []}
    asks_others = ctx.config.abstention.unsure_reading and state.analysed.answer_type == "entity"
    own = own_answers(answers, state.analysed.entities, ctx.store) if asks_others else None
    if own is not None:
        return {"abstained": True, "reason": own, "answers": []}
    plausible = _plausible(ctx)
    relation = first_relation(state.actions)
    missing = missing_evidence(state.analysis, answers, ctx.store, relation)
    if missing is not None:
        evidence = nearest_facts(ctx.store, state.analysed, plausible, relation)
        return {"abstained": True, "reason": missing, "answers": [], "evidence": evidence}
    if not ctx.config.judge:
        return {"answers": answers, "evidence": _support(state, ctx, answers)}
    verdict = check_answers(ctx.store, state.analysed, answers, plausible, relation, _answer_check(state, ctx))
    if verdict.reason is not None:
        return {"abstained": True, "reason": verdict.reason, "answers": [], "evidence": verdict.evidence}
    guess = contested_sector(ctx.store, state.analysed, state.actions)
    if guess is not None:  # with the facts of every answer found, so the asker can say which
        return {"abstained": True, "reason": guess, "answers": [], "evidence": supporting_facts(ctx.store, state.actions, state.results, verdict.answers, False)}
    return {"answers": verdict.answers, "evidence": _support(state, ctx, verdict.answers)}


def _where_problem(state: AgentState, ctx: AgentContext) -> str | None:
    """Why "where" a journey went, read as the country visited, is not answered (None: it is): the KG records the party a
    visit went to, and a party with no country of its own in the KG (a person, a region, an organisation) may be what
    "where" asks as well, so which one is meant would be a guess. A sector is in the country its name says ("Military (Iran)")."""
    if state.analysed.query.entity_type != "country" or not country_by_where(state.analysed.masked):
        return None
    untyped = untyped_result(ctx.store, state.analysed, state.actions, state.results)
    countries = country_names(ctx.store)
    placeless = [p for p in ranked_answers(ctx.store, state.analysis, untyped or []) if p not in countries and qualifier_of(p) is None]
    if not placeless:
        return None
    return f"'where' may ask the country or the party visited, and some parties are in no country the KG names ({', '.join(placeless[:3])}): ask which country, or whom"


def _support(state: AgentState, ctx: AgentContext, answers: list[str]) -> list[str]:
    """The facts behind the answers, as lines (`agents.evidence`)."""
    value = state.analysed.query.asks in VALUE_ASKS
    return supporting_facts(ctx.store, state.actions, state.results, answers if state.analysed.query.is_list or value else answers[:1], value)


def answer(state: AgentState, ctx: AgentContext) -> Update:
    """The final answers: none when abstaining, else ranked, with a confidence for risk-coverage;
    below the configured confidence the agent abstains (coverage traded for precision)."""
    if state.abstained:
        return {"answers": [], "confidence": 0.0}
    score = confidence(state)
    floor = ctx.config.abstention.min_confidence
    if score < floor:
        return _abstain(f"confidence {score:.2f} is below the threshold {floor:.2f}") | {"confidence": 0.0}
    return {"confidence": score}


def _abstain(why: str) -> Update:
    """End the loop gracefully: abstain, saying why (never raise out of the graph)."""
    return {"done": True, "abstained": True, "reason": why, "answers": []}


# -- batching: which questions a node applies to, and one question's failure as its own -------------

def _unfinished(state: AgentState) -> bool:
    return not state.done


def _solved(state: AgentState) -> bool:
    return not state.abstained


def _every(state: AgentState) -> bool:
    return True


def _guarded(state: AgentState, work: Callable[[], Update]) -> Update:
    try:
        return work()
    except AriError:
        raise
    except Exception as exc:  # reported as this question's abstention
        log.exception("agent failed on %r", state.question)
        return _abstain(f"internal error: {type(exc).__name__}: {exc}")


def for_each(node: Callable[[AgentState, AgentContext], Update], applies: Callable[[AgentState], bool] = _unfinished):
    """A batch node: `node` applied to every question it `applies` to."""

    def batch_node(batch: BatchState, runtime: Runtime[AgentContext]) -> dict:
        states = []
        for state in batch.questions:
            if applies(state):
                update = _guarded(state, partial(node, state, runtime.context))
                if update:
                    state = replace(state, **update)
            states.append(state)
        return {"questions": states}

    batch_node.__name__ = node.__name__
    return batch_node


def for_all(node: Callable[[list[AgentState], AgentContext], list[Update]], applies: Callable[[AgentState], bool] = _unfinished):
    """A batch node whose work is one call for all the questions it applies to (embedding, memory
    matching). When that call fails, each question is retried alone, so a bad one fails by itself."""

    def batch_node(batch: BatchState, runtime: Runtime[AgentContext]) -> dict:
        states = list(batch.questions)
        chosen = [i for i, s in enumerate(states) if applies(s)]
        if not chosen:
            return {"questions": states}
        try:
            updates = node([states[i] for i in chosen], runtime.context)
        except AriError:
            raise
        except Exception:
            updates = [_guarded(states[i], partial(_alone, node, states[i], runtime.context)) for i in chosen]
        for i, update in zip(chosen, updates):
            if update:
                states[i] = replace(states[i], **update)
        return {"questions": states}

    batch_node.__name__ = node.__name__
    return batch_node


def _alone(node: Callable[[list[AgentState], AgentContext], list[Update]], state: AgentState, ctx: AgentContext) -> Update:
    return node([state], ctx)[0]


def after_judge(batch: BatchState) -> Literal["match_methodology", "answer"]:
    return "match_methodology" if any(map(_unfinished, batch.questions)) else "answer"


def around_the_loop(batch: BatchState) -> Literal["enumerate", "audit"]:
    """Around the loop again while any question is unfinished."""
    return "enumerate" if any(map(_unfinished, batch.questions)) else "audit"


def recursion_limit(max_steps: int) -> int:
    """Graph steps a batch can take: four before the loop, four per action step, audit and answer."""
    return 4 + 4 * max_steps + 3


def build_graph():  # noqa: ANN201 - a compiled LangGraph graph
    graph = StateGraph(BatchState, context_schema=AgentContext)
    graph.add_node("analyse", for_all(analyse, _every))
    graph.add_node("judge", for_all(judge))
    graph.add_node("match_methodology", for_all(match_methodology))
    graph.add_node("plan", for_each(plan))
    graph.add_node("enumerate", for_each(enumerate_step))
    graph.add_node("filter", for_each(filter_step))
    graph.add_node("decide", for_all(decide))
    graph.add_node("execute", for_each(execute))
    graph.add_node("audit", for_each(audit, _solved))
    graph.add_node("answer", for_each(answer, _every))
    graph.add_edge(START, "analyse")
    graph.add_edge("analyse", "judge")
    graph.add_conditional_edges("judge", after_judge)
    graph.add_edge("match_methodology", "plan")
    graph.add_edge("plan", "enumerate")
    graph.add_edge("enumerate", "filter")
    graph.add_edge("filter", "decide")
    graph.add_edge("decide", "execute")
    graph.add_conditional_edges("execute", around_the_loop)
    graph.add_edge("audit", "answer")
    graph.add_edge("answer", END)
    return graph.compile()
