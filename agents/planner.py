"""Binding abstract programs to a question: from `getTime(E1, R, E2) -> ...` to concrete actions.

The offline decider plans before it acts: it takes the methodology's programs best first, binds
each abstract step to the concrete candidate the question supports best (entity roles, relation
fit), executes the bound program on the KG, and commits to the first program that yields an
answer of the kind the question asks for. Acting then follows the plan step by step through the
normal enumerate -> filter -> decide -> execute loop.
"""

from __future__ import annotations

from dataclasses import dataclass

from actions.context import ActionContext
from actions.enumerate import enumerate_candidates, list_operations
from actions.items import Item
from agents.analysis.types import QuestionAnalysis
from agents.roles import binding_scorer, current_entities, entity_roles
from tkg_store.store import TKGStore


@dataclass
class Plan:
    program: list[str]  # the abstract program
    actions: list  # its binding, one concrete action per step
    results: list[list[Item]]
    score: float  # mean binding score of its lookups


def reads(action) -> set[int]:
    """The earlier steps an action reads: its source, a reference step, or a same-period join."""
    steps = set()
    for name in ("source", "reference", "time"):
        value = getattr(action, name, None)
        if isinstance(value, int) and not isinstance(value, bool):
            steps.add(value)
    return steps


def has_dead_steps(actions: list) -> bool:
    """Whether some step's result is never read by a later step (the last step is the answer)."""
    read = set().union(*(reads(a) for a in actions)) if actions else set()
    return any(k not in read for k in range(1, len(actions)))


LIST_OPERATIONS = frozenset({"getBefore", "getAfter", "getBetween", "getFirst", "getLast"})


def question_context(
    analysis: QuestionAnalysis | None, results: list[list[Item]] | None = None, actions: list | None = None
) -> ActionContext:
    """The context actions execute in for a question: its times, the asked answer form, and the
    steps taken so far (the agent, the planner and the program search all build it here)."""
    return ActionContext(
        results=list(results or []),
        times=[t.time for t in analysis.times] if analysis else [],
        granularity=analysis.time_level if analysis else None,
        answer_type=analysis.answer_type if analysis else "entity",
        actions=list(actions or []),
    )


def relation_of(actions: list) -> str | None:
    return next((r for a in actions if isinstance(r := getattr(a, "relation", None), str)), None)


def bind_program(
    store: TKGStore,
    analysis: QuestionAnalysis,
    program: list[str],
    relation_floor: float = 0.5,
    alternatives: int = 3,
) -> Plan | None:
    """The best binding of `program` whose every step is non-empty and whose answer fits the question.

    Each step takes the best-scoring candidate with the wanted signature; when a binding leads to an
    empty step, the next `alternatives` bindings of that step are tried (depth-first).
    """
    roles = entity_roles(analysis)
    entities = current_entities(analysis)
    base = question_context(analysis)
    scorer = binding_scorer(analysis, relation_floor)

    def extend(context: ActionContext, actions: list, scores: list[float]) -> Plan | None:
        step = len(actions)
        if step == len(program):
            if not _answers_fit(analysis, context.results[-1]):
                return None
            mean = sum(scores) / len(scores) if scores else 0.0
            return Plan(program, actions, context.results, mean)
        options = []
        bound_relation = relation_of(actions)
        for action in _step_options(store, context, entities, program[step], roles):
            relation = getattr(action, "relation", None)
            if bound_relation is not None and relation is not None and relation != bound_relation:
                continue
            score = scorer(action)
            if score is not None:
                options.append((score, action))
        options.sort(key=lambda o: (-o[0], o[1].render()))
        for score, action in options[:alternatives]:
            result = action.execute(store, context)
            if not result:
                continue
            lookup_scores = scores + ([score] if getattr(action, "relation", None) else [])
            plan = extend(context.with_result(result, action), actions + [action], lookup_scores)
            if plan is not None:
                return plan
        return None

    return extend(base, [], [])


def _step_options(store: TKGStore, context: ActionContext, entities: list[str], step: str, roles: dict[str, str]):
    """The non-empty actions of the current step whose abstract form is `step`: lookups from the
    candidate pool, list operations over the earlier results (only the matching ones are run)."""
    if step.split("(")[0] not in LIST_OPERATIONS | {"answer"}:
        return [c.action for c in enumerate_candidates(store, context, entities, operations=False).matching(step, roles)]
    sources = range(1, len(context.results) + 1)
    return [
        a for a in list_operations(context, context.times, sources)
        if a not in context.actions and a.abstract(roles) == step and a.execute(store, context)
    ]


def _answers_fit(analysis: QuestionAnalysis, items: list[Item]) -> bool:
    """An entity question needs entities in the answer; a time question needs times."""
    if analysis.answer_type == "entity":
        return any(i.entity is not None for i in items)
    return any(i.start is not None or i.end is not None for i in items)
