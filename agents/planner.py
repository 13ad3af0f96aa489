"""Planning: binding a methodology's abstract programs to a question, before any action is taken.

The plan node of the graph takes the question's programs best first (`agents.methodology`), binds
each abstract step to the concrete candidate the question supports best (entity roles, relation fit),
executes the bound program on the KG, and keeps the first program that yields an answer of the kind
the question asks for. The plan lives in the question's state: the filter gives its next action a
seat among the candidates every decider sees, the offline decider follows it, and an LLM decider
is shown it as grounded guidance.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from actions.context import ActionContext
from actions.enumerate import enumerate_candidates, list_operations
from actions.items import Item
from actions.programs import AbstractStep, Program
from agents.analysis.types import QuestionAnalysis
from agents.methodology import Guide
from agents.roles import binding_scorer, current_entities, entity_roles
from ari.base.config import PlannerConfig
from tkg_store.store import TKGStore


@dataclass
class Plan:
    program: Program  # the abstract program
    actions: list  # its binding, one concrete action per step
    results: list[list[Item]]
    score: float  # mean binding score of its lookups
    why: str = ""  # which methodology program it is, and its record
    bindings: dict[str, str] = field(default_factory=dict)  # "E1" -> KG name, "R" -> relation
    guide: Guide | None = None  # the methodology program it binds, with its record (support, success)

    def next_action(self, step: int):  # noqa: ANN201 - an actions.templates action, or None
        """The planned action of step `step` (0-based), None past the plan's end."""
        return self.actions[step] if step < len(self.actions) else None


def make_plan(
    store: TKGStore, analysis: QuestionAnalysis, guides: list[Guide], config: PlannerConfig
) -> tuple[Plan | None, str]:
    """The first of `guides` that binds, with why it was chosen; or None and why none did."""
    seen: set[Program] = set()
    for rank, guide in enumerate(guides, 1):
        if guide.program in seen:
            continue
        if len(seen) >= config.max_programs:
            break
        seen.add(guide.program)
        plan = bind_program(store, analysis, guide.program, config)
        if plan is not None:
            plan.why, plan.guide = guide.describe(rank), guide
            return plan, plan.why
    return None, (
        f"none of the {len(seen)} programs of the methodology can be carried out on the KG "
        "for this question's entities and relation"
    )


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


def bind_program(store: TKGStore, analysis: QuestionAnalysis, program: Program, config: PlannerConfig) -> Plan | None:
    """The best binding of `program` whose every step is non-empty and whose answer fits the question.

    Each step takes the best-scoring candidate with the wanted signature; when a binding leads to an
    empty step, the next `config.alternatives` bindings of that step are tried (depth-first).
    """
    roles = entity_roles(analysis)
    entities = current_entities(analysis)
    scorer = binding_scorer(analysis, config.relation_floor)

    def extend(context: ActionContext, actions: list, scores: list[float]) -> Plan | None:
        step = len(actions)
        if step == len(program):
            if not _answers_fit(analysis, context.results[-1]):
                return None
            mean = sum(scores) / len(scores) if scores else 0.0
            return Plan(program, actions, context.results, mean, bindings=_bindings(program, actions))
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
        for score, action in options[: config.alternatives]:
            result = action.execute(store, context)
            if not result:
                continue
            lookup_scores = scores + ([score] if getattr(action, "relation", None) else [])
            plan = extend(context.with_result(result, action), actions + [action], lookup_scores)
            if plan is not None:
                return plan
        return None

    return extend(question_context(analysis), [], [])


def _step_options(store: TKGStore, context: ActionContext, entities: list[str], step: AbstractStep, roles: dict[str, str]):
    """The non-empty actions of the current step whose abstract form is `step`: lookups from the
    candidate pool, list operations over the earlier results (only the matching ones are run)."""
    if step.is_lookup:
        return [c.action for c in enumerate_candidates(store, context, entities, operations=False).matching(step, roles)]
    text = step.render()
    sources = range(1, len(context.results) + 1)
    return [
        a for a in list_operations(context, context.times, sources)
        if a not in context.actions and a.abstract(roles) == text and a.execute(store, context)
    ]


def _bindings(program: Program, actions: list) -> dict[str, str]:
    """Which KG name plays each role of the program, and which relation R is ("E1" -> "Iran")."""
    bound: dict[str, str] = {}
    for step, action in zip(program, actions):
        if not step.is_lookup:
            continue
        names = [getattr(action, f) for f in ("head", "tail") if isinstance(getattr(action, f, None), str)]
        for role, name in zip([a for a in step.args if a.startswith("E")], names):
            if role in step.roles:  # "E?" is an entity the question does not mention
                bound.setdefault(role, name)
        relation = getattr(action, "relation", None)
        if isinstance(relation, str):
            bound.setdefault("R", relation)
    return bound


def _answers_fit(analysis: QuestionAnalysis, items: list[Item]) -> bool:
    """An entity question needs entities in the answer; a time question needs times."""
    if analysis.answer_type == "entity":
        return any(i.entity is not None for i in items)
    return any(i.start is not None or i.end is not None for i in items)
