"""Planning: binding a methodology's abstract programs to a question, before any action is taken.

The plan node of the graph takes the question's programs best first (`agents.methodology`), binds
each abstract step to the concrete candidate the question supports best (entity roles, relation fit),
executes the bound program on the KG, and keeps the first program that yields an answer of the kind
the question asks for. The plan lives in the question's state: the filter gives its next action a
seat among the candidates every decider sees, the offline decider follows it, and an LLM decider
is shown it as grounded guidance.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from actions.context import ActionContext
from actions.enumerate import enumerate_candidates, list_operations
from actions.items import Item
from actions.programs import AbstractStep, Program
from actions.templates import Action, OfType, entities_of, reference_of, relation_of
from agents.analysis.predicate import naming_words
from agents.analysis.query import Query
from agents.analysis.relations import predicate_text, word_root
from agents.analysis.sectors import content_words
from agents.analysis.synonyms import GENERAL_SYNONYMS
from agents.analysis.types import QuestionAnalysis
from agents.answers import ranked_answers
from agents.methodology import Guide
from agents.roles import binding_scorer, current_entities, entity_roles
from agents.shapes import JOINING, asked_query, fits, relations_naming, unsaid
from ari.base.config import PlannerConfig
from ari.base.text import share_a_word
from tkg_store.learned import mirror_relations
from tkg_store.store import TKGStore


@dataclass
class Plan:
    program: Program  # the abstract program
    actions: list[Action]  # its binding, one concrete action per step
    results: list[list[Item]]
    score: float  # mean binding score of its lookups
    why: str = ""  # which methodology program it is, and its record
    bindings: dict[str, str] = field(default_factory=dict)  # "E1" -> KG name, "R" -> relation (and "R2" -> a referred event's)
    guide: Guide | None = None  # the methodology program it binds, with its record (support, success)
    rivals: tuple[str, str] | None = None  # two relations the wording names alike that answer differently (`_rival_reading`)

    def next_action(self, step: int):  # noqa: ANN201 - an actions.templates action, or None
        """The planned action of step `step` (0-based), None past the plan's end."""
        return self.actions[step] if step < len(self.actions) else None


Accept = Callable[[list[list[Item]], list], bool]
"""Whether a bound program's answers (its results, its actions) may stand: the answer check."""


def make_plan(
    store: TKGStore,
    analysis: QuestionAnalysis,
    guides: list[Guide],
    config: PlannerConfig,
    accept: Accept | None = None,
    worded: frozenset[str] = frozenset(),
    referred: frozenset[str] = frozenset(),
) -> tuple[Plan | None, str]:
    """The first of `guides` that binds, with why it was chosen; or None and why none did.

    With `accept` (the answer check), the first binding whose answers it accepts: a program that
    loosened the question ("in April" read as "after April") gives way to a later one that keeps
    every stated constraint. When none is accepted, the programs are bound once more admitting the
    relations the wording names however low they rank (`named_relations`, and `worded`: ones the
    ranking may not hold at all); when still none is,
    the first that bound is the plan (the audit then rejects its answers, saying what is missing). `referred`: the
    relations the words of the event a cue points at name, which a program's `R2` binds (`Program.referring_apart`)."""
    plan, why, accepted = _first_binding(store, analysis, guides, config, accept, referred=referred)
    if accept is not None and accepted and plan is not None and analysis.query.operations():
        # a count, yes / no, ranking or n-th computes over one relation's facts: when its words name another alike
        # ("imposed sanctions": administrative ones, or an embargo) that answers otherwise, the ranking's pick is a guess
        bound = first_relation(plan.actions)
        others = worded - ({bound} | set(mirror_relations(store).get(bound, ()))) if bound is not None else frozenset()
        rival = _rival_reading(store, analysis, guides, config, accept, others, plan, referred, as_close=True) if others else None
        if rival is None and not any(relations_naming(store, w) for w in naming_words(analysis.masked)):
            # no word names a relation outright ("hold talks"): a near-best one its words' synonyms name too is read alike
            rival = _ranked_rival(store, analysis, guides, config, plan, referred)
            if rival is not None:
                plan.rivals = rival
                return plan, rival_note(store, rival)
        if rival is not None:
            better = _better_reading(store, analysis, guides, config, accept, others, rival, referred)
            if better is not None:
                return better, better.why + ", binding the relation that reads the wording best"
            plan.rivals = rival
            return plan, rival_note(store, rival)
    if accept is None or accepted:
        return plan, why
    best = max((score for _, score in analysis.relations), default=0.0)
    ranked = dict(analysis.relations)
    named = frozenset(r for r in named_relations(store, analysis) | worded if ranked.get(r, 0.0) < config.relation_floor * best)
    # only those the floor kept out: the others were bound already. A count, yes / no, ranking or n-th computes over one
    # relation's facts, which the audit cannot check answer by answer: the relation that reads the wording best is tried
    # first; a lookup's answers are checked one by one after, and the ranking's order stands
    computed = bool(analysis.query.operations())
    tiers = by_wording(store, analysis, named) if computed else [named] if named else []
    for tier in tiers:
        again, again_why, accepted = _first_binding(store, analysis, guides, config, accept, tier, referred)
        if accepted and again is not None:
            rival = _rival_reading(store, analysis, guides, config, accept, named, again, referred, as_close=computed)
            better = _better_reading(store, analysis, guides, config, accept, named, rival, referred) if rival and computed else None
            if rival is None or better is not None:
                chosen = again if better is None else better
                return chosen, chosen.why + ", binding a relation the wording names"
            if plan is not None:
                plan.rivals = rival
            return plan, rival_note(store, rival)
    return plan, why


def by_wording(store: TKGStore, analysis: QuestionAnalysis, named: frozenset[str]) -> list[frozenset[str]]:
    """`named` in tiers, the relations that read the wording best first: holding more of its words, then its act said,
    then leaving fewer of their own words unsaid ("receive peacekeepers" is Receive_deployment_of_peacekeepers before an
    intent to provide peacekeeping, which "peacekeepers" names too). The floor ranks them all alike, so within one
    binding the first in the alphabet would win."""

    def fit(relation: str) -> tuple[int, bool, int]:
        text = store.relation_text(relation)
        held, acted = wording_holds(analysis.masked, text, JOINING)  # "with" in "hit with sanctions" names no act
        return -held, not acted, unsaid(text, analysis.masked)

    tiers: dict[tuple[int, bool, int], set[str]] = {}
    for relation in named:
        tiers.setdefault(fit(relation), set()).add(relation)
    return [frozenset(tiers[key]) for key in sorted(tiers)]


def _better_reading(
    store: TKGStore, analysis: QuestionAnalysis, guides: list[Guide], config: PlannerConfig, accept: Accept, named: frozenset[str],
    rivals: tuple[str, str], referred: frozenset[str],
) -> Plan | None:
    """The rival's binding when it reads the wording strictly better than the bound relation (`by_wording`'s order: it
    leaves fewer of its own words unsaid, "sanctions" is Impose embargo, boycott, or sanctions, which says it whole, before
    Impose administrative sanctions, whose qualifier is unsaid) and no third relation reads it as well and answers
    otherwise. None: the words do not tell them apart."""
    bound, rival = rivals
    order = by_wording(store, analysis, frozenset(rivals))
    if len(order) < 2 or rival not in order[0]:
        return None
    plan, _, accepted = _first_binding(store, analysis, guides, config, accept, frozenset({rival}), referred)
    if not accepted or plan is None or _rival_reading(store, analysis, guides, config, accept, named - {bound}, plan, referred, as_close=True):
        return None
    return plan


def wording_holds(masked: str, relation_text: str, ignored: frozenset[str] = frozenset()) -> tuple[int, bool]:
    """How many of the wording's content words (by `word_root`: "sanctioned" meets "sanctions"; `ignored` words aside) a relation's
    text holds, and whether its act (its first word) is one: "imposed sanctions" holds two of Impose_administrative_sanctions."""
    words = {word_root(w) for w in content_words(predicate_text(masked)) if w not in ignored}
    act = word_root(relation_text.split()[0].strip(",.")) if relation_text.split() else ""
    return len(words & {word_root(w) for w in content_words(relation_text) if w not in ignored}), act in words


def rival_note(store: TKGStore, rivals: tuple[str, str]) -> str:
    """Why a question whose words name two relations alike is not answered."""
    return f"the wording names {store.relation_text(rivals[0])} and {store.relation_text(rivals[1])} alike, and they answer differently: say which"


def _rival_reading(
    store: TKGStore, analysis: QuestionAnalysis, guides: list[Guide], config: PlannerConfig, accept: Accept, named: frozenset[str], found: Plan,
    referred: frozenset[str] = frozenset(),
    as_close: bool = False,
) -> tuple[str, str] | None:
    """(the relation `found` bound, a rival) when another relation the ranking also put below its floor shares as many
    of the wording's words, its act (its name's first word) said or unsaid alike, and its accepted binding answers
    otherwise ("impose sanctions": Impose_administrative_sanctions and Impose_embargo,_boycott,_or_sanctions): the
    words alone do not tell which act is meant, and the first that binds would be a guess. With `as_close`, a rival
    also says no more the wording leaves unsaid than the bound one ("humanitarian aid" is Provide_humanitarian_aid
    rather than an intent to provide it). None when no such rival answers differently."""
    bound = first_relation(found.actions)
    if bound is None:
        return None

    def holds(relation: str) -> tuple[int, bool]:
        return wording_holds(analysis.masked, store.relation_text(relation))

    least, acted = holds(bound)
    # a rival names as many of the words, and its act is said as the bound one's is: "reduce or break relations" says
    # Reduce_or_break_diplomatic_relations, and Threaten_to_reduce_or_break_relations is another act
    rivals = sorted(r for r in named if r != bound and (shared := holds(r))[0] >= max(1, least) and shared[1] == acted)
    if as_close:
        rivals = [r for r in rivals if unsaid(store.relation_text(r), analysis.masked) <= unsaid(store.relation_text(bound), analysis.masked)]
    return _answering_otherwise(store, analysis, guides, config, accept, found, rivals, referred)


def _ranked_rival(
    store: TKGStore, analysis: QuestionAnalysis, guides: list[Guide], config: PlannerConfig, found: Plan,
    referred: frozenset[str] = frozenset(),
) -> tuple[str, str] | None:
    """(the relation `found` bound, a rival) when no word of the question names a relation, and another that a word's
    general-English synonym names is ranked at least half as high as the best and answers
    otherwise ("hold talks": "negotiate" names an intent to meet or negotiate and negotiations alike): a count, yes / no,
    ranking or n-th over the ranking's pick would be a guess. The bound one's mirrors are no rivals; nor is a relation no
    word points to ("phone": Make_statement, ranked near Discuss_by_telephone by the frame alone)."""
    bound = first_relation(found.actions)
    if bound is None or not analysis.relations:
        return None
    family = {bound} | set(mirror_relations(store).get(bound, ()))
    words = [v for w in naming_words(analysis.masked) for v in (w, GENERAL_SYNONYMS.get(w)) if v]
    pointed = set().union(*(relations_naming(store, w) for w in words))
    near = [r for r, score in analysis.relations if r not in family and r in pointed and score >= analysis.relations[0][1] / 2]
    # the check accepts only what the wording was read as: a rival of the ranking is bound as the question's program binds it
    return _answering_otherwise(store, analysis, guides, config, None, found, near, referred)


def _answering_otherwise(
    store: TKGStore, analysis: QuestionAnalysis, guides: list[Guide], config: PlannerConfig, accept: Accept | None, found: Plan,
    rivals: list[str], referred: frozenset[str],
) -> tuple[str, str] | None:
    """(the relation `found` bound, the first of `rivals` whose accepted binding answers otherwise), or None."""
    bound, answers = first_relation(found.actions), set(ranked_answers(store, analysis, found.results[-1]))
    for relation in rivals:
        other, _, accepted = _first_binding(store, analysis, guides, config, accept, frozenset({relation}), referred)
        if (accepted or accept is None) and other is not None and bound is not None and set(ranked_answers(store, analysis, other.results[-1])) != answers:
            return bound, relation
    return None




def _first_binding(
    store: TKGStore,
    analysis: QuestionAnalysis,
    guides: list[Guide],
    config: PlannerConfig,
    accept: Accept | None,
    named: frozenset[str] = frozenset(),
    referred: frozenset[str] = frozenset(),
) -> tuple[Plan | None, str, bool]:
    """(plan, why, whether `accept` accepted it): see `make_plan`."""
    seen: set[Program] = set()
    rejected: list[Plan] = []
    for rank, guide in enumerate(guides, 1):
        if guide.program in seen:
            continue
        if len(seen) >= config.max_programs or len(rejected) >= config.checked_bindings:
            break
        seen.add(guide.program)
        before = len(rejected)
        plan = bind_program(store, analysis, guide.program, config, accept, rejected, named, referred)
        for each in rejected[before:]:
            each.why, each.guide = guide.describe(rank), guide
        if plan is not None:
            plan.why, plan.guide = guide.describe(rank), guide
            return plan, plan.why, True
    if rejected:
        return rejected[0], rejected[0].why, False
    return None, (
        f"none of the {len(seen)} programs of the methodology can be carried out on the KG "
        "for this question's entities and relation"
    ), False


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


def untyped_result(store: TKGStore, analysis: QuestionAnalysis, actions: Sequence[Action], results: list[list[Item]]) -> list[Item] | None:
    """What the executed program answers with its kind kept out: each `ofType` step keeps every item of its source, and
    the steps after it run again. None when no step keeps a kind."""
    typed = [k for k, a in enumerate(actions) if isinstance(a, OfType)]
    if not typed:
        return None
    context = question_context(analysis, results[: typed[0]], list(actions[: typed[0]]))
    for k in range(typed[0], len(actions)):
        action = actions[k]
        items = context.result(action.source) if isinstance(action, OfType) else action.execute(store, context)
        context = context.with_result(items, action)
    return context.results[-1]


def first_relation(actions: Sequence[Action]) -> str | None:
    """The relation a plan reads: of its first KG lookup that is no event a before / after refers to (that event may be
    another act: "after {E1} granted asylum to {E2}, which countries did {E1} visit"), else of its first lookup."""
    events = _referred_steps(actions)
    asked = (r for k, a in enumerate(actions, 1) if k not in events and (r := relation_of(a)) is not None)
    return next(asked, None) or next((r for a in actions if (r := relation_of(a)) is not None), None)


def referred_relation(actions: Sequence[Action]) -> str | None:
    """The relation of the event a before / after of the plan refers to (None: it refers to none)."""
    events = _referred_steps(actions)
    return next((r for k, a in enumerate(actions, 1) if k in events and (r := relation_of(a)) is not None), None)


def _referred_steps(actions: Sequence[Action]) -> frozenset[int]:
    """The steps (1-based) whose times a before / after compares with."""
    return frozenset(k for a in actions if isinstance(k := reference_of(a), int))


def bind_program(
    store: TKGStore,
    analysis: QuestionAnalysis,
    program: Program,
    config: PlannerConfig,
    accept: Accept | None = None,
    rejected: list[Plan] | None = None,
    named: frozenset[str] = frozenset(),
    referred: frozenset[str] = frozenset(),
) -> Plan | None:
    """The best binding of `program` whose every step is non-empty and whose answer fits the question
    (and, with `accept`, passes it; the bindings it rejects are appended to `rejected`). Relations
    in `named` are bound even below `config.relation_floor`, and then only they. Every lookup reads one
    relation, but a step of `R2` reads one of `referred`, the relations of the event the question refers to.

    Each step takes the best-scoring candidate with the wanted signature; when a binding leads to an
    empty step, the next `config.alternatives` bindings of that step are tried (depth-first).
    """
    roles = entity_roles(analysis)
    entities, query = current_entities(analysis), asked_query(analysis)
    scorer = binding_scorer(analysis, config.relation_floor, named)

    def extend(context: ActionContext, actions: list, scores: list[float]) -> Plan | None:
        step = len(actions)
        if rejected is not None and len(rejected) >= config.checked_bindings:
            return None
        if step == len(program):
            if not _answers_fit(analysis, context.results[-1]):
                return None
            mean = sum(scores) / len(scores) if scores else 0.0
            plan = Plan(program, actions, context.results, mean, bindings=_bindings(program, actions))
            if accept is not None and not accept(context.results, actions):
                if rejected is not None:
                    rejected.append(plan)
                return None
            return plan
        options = []
        apart = _reads_referred(program[step])
        bound_relation = next((r for s, a in zip(program, actions) if not _reads_referred(s) and (r := relation_of(a)) is not None), None)
        for action in _step_options(store, context, entities, program[step], roles, query):
            relation = relation_of(action)
            if apart:  # the referred event's act, named by its own words: its fit is theirs, its entities' the question's
                if relation in referred:
                    options.append((scorer.entities_fit(entities_of(action)) + 1.0, action))
                continue
            if bound_relation is not None and relation is not None and relation != bound_relation:
                continue
            if named and relation is not None and relation not in named:
                continue  # the once-more binding of the relations the wording names: the others were bound already
            score = scorer(action)
            if score is not None:
                options.append((score, action))
        options.sort(key=lambda o: (-o[0], o[1].render()))
        for score, action in options[: config.alternatives]:
            result = action.execute(store, context)
            if not result:
                continue
            lookup_scores = scores + ([score] if relation_of(action) else [])
            found = extend(context.with_result(result, action), actions + [action], lookup_scores)
            if found is not None:
                return found
        return None

    return extend(question_context(analysis), [], [])


def named_relations(store: TKGStore, analysis: QuestionAnalysis) -> frozenset[str]:
    """The question's ranked relations whose text shares a content word with its wording ("wish
    to meet" names Express_intent_to_meet_or_negotiate): the lexicon's posterior may rank them far
    below its best ("Provide_economic_aid"), but the question may be about them, so when no
    binding within the floor passes the answer check, the planner binds them too and the check
    decides. Only then: "make" in "make a request" also names Make_statement."""
    wording = predicate_text(analysis.masked)
    return frozenset(r for r, _ in analysis.relations if share_a_word(content_words(wording), content_words(store.relation_text(r))))


def _reads_referred(step: AbstractStep) -> bool:
    """Whether a step looks up the event the question refers to by an act of its own (`R2`)."""
    return step.is_lookup and "R2" in step.args


def extended_lookup(step: AbstractStep) -> bool:
    """Whether a lookup step is one of the shapes beyond the six (the relations between two
    entities, a dated getTime), which only the extended enumeration offers."""
    return step.template == "getRelation" or (step.template == "getTime" and step.uses_time)


def _step_options(store: TKGStore, context: ActionContext, entities: list[str], step: AbstractStep, roles: dict[str, str], query: Query):
    """The non-empty actions of the current step whose abstract form is `step` and whose literals
    are the query's: lookups from the candidate pool, list operations over the earlier results
    (only the matching ones are run)."""
    if step.is_lookup:
        step = AbstractStep(step.template, tuple("R" if a == "R2" else a for a in step.args))  # an action's abstract form names one relation, R
        return [c.action for c in enumerate_candidates(store, context, entities, operations=False, extended=extended_lookup(step)).matching(step, roles)]
    text = step.render()
    sources = range(1, len(context.results) + 1)
    return [
        a for a in list_operations(context, context.times, sources, entities, extended=bool(query.operations()))
        if a not in context.actions and a.abstract(roles) == text and fits(a, query) and a.execute(store, context)
    ]


def _bindings(program: Program, actions: list) -> dict[str, str]:
    """Which KG name plays each role of the program, and which relation R is ("E1" -> "Iran")."""
    bound: dict[str, str] = {}
    for step, action in zip(program, actions):
        if not step.is_lookup:
            continue
        for role, name in zip([a for a in step.args if a.startswith("E")], entities_of(action)):
            if role in step.roles:  # "E?" is an entity the question does not mention
                bound.setdefault(role, name)
        relation = relation_of(action)
        if relation is not None:
            bound.setdefault("R2" if "R2" in step.args else "R", relation)
    return bound


def _answers_fit(analysis: QuestionAnalysis, items: list[Item]) -> bool:
    """An entity question needs entities in the answer; a time question needs times."""
    if analysis.answer_type == "entity":
        return any(i.entity is not None for i in items)
    return any(i.start is not None or i.end is not None for i in items)
