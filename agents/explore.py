"""Bounded search over action programs, for learning without an LLM.

Given a question with known answers, walk the same candidate space the agent walks (lookups from
the question's entities, list operations over earlier results) but keep many partial programs at
once. Every program that reaches `answer(#k)` becomes a trace, correct or wrong against the gold
answers; both kinds feed the memory, which turns them into methodologies (programs that succeed)
and pitfalls (programs that fail).

The space is bounded by rules that only remove redundant programs:
- at most `max_lookups` KG lookups per program, never the same lookup twice, and one relation
  for the whole program (R);
- lookups come first, then list operations (any program can be written so, a same-period join
  reading the time step directly); list operations and the answer read the latest result, while a
  *reference* time may come from any earlier step;
- a program with a dead step (a result no later step reads) is not a method and is not kept;
- lookups whose relation fits the question poorly, or that name an entity the question does not
  mention (`E?`), are not explored;
- each distinct abstract step keeps its best `bindings_per_step` bindings by linking fit, and the
  best `beam` partial programs survive each depth.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import cast

from actions.context import ActionContext
from actions.enumerate import CandidatePool, enumerate_candidates, list_operations
from actions.items import Item
from actions.programs import LIST_OPERATIONS, Program
from actions.semantics import is_timed
from actions.templates import Action, GetBetween, GetTime, Lookup, reference_of, relation_of, time_of
from agents.analysis.types import QuestionAnalysis
from agents.answers import ranked_answers
from agents.planner import question_context
from agents.roles import binding_scorer, current_entities, entity_roles
from ari.base.config import PlannerConfig, SearchConfig
from memory.trace import StepRecord, Trace
from tkg_store.store import TKGStore
from tkg_store.temporal import TimeSpan

IsCorrect = Callable[[str], bool]  # is one answer (display form) in the gold set?


@dataclass
class _Partial:
    actions: list = field(default_factory=list)
    results: list[list[Item]] = field(default_factory=list)
    abstracts: list[str] = field(default_factory=list)
    score: float = 0.0  # mean linking fit of the program's lookups (list operations keep it)
    lookups: int = 0
    relation: str | None = None

    def rank(self, mentioned: int) -> float:
        """Linking fit plus how much of what the question mentions the program uses: a program
        that reads every entity and time of the question is better grounded than one that
        ignores some."""
        return self.score + len(Program.parse(self.abstracts).mentioned) / max(1, mentioned)


@dataclass
class _Search:
    """One question's search state. Results are never changed once made, so everything computed
    from a result list (its facts, the list operations over it, its answers) is kept by the list's
    identity: partial programs share their lookups' results, and a list operation or an answer over
    a shared result is worked out once (the lists are held, so an identity is never reused)."""

    store: TKGStore
    analysis: QuestionAnalysis
    roles: dict[str, str]
    entities: list[str]
    bindings_per_step: int
    relation_floor: float
    is_correct: IsCorrect
    min_precision: float
    lookup_cache: dict = field(default_factory=dict)
    result_cache: dict = field(default_factory=dict)
    bound_lookups: dict = field(default_factory=dict)  # (join key, relation) -> lookups grouped by abstract step
    bound_operations: dict = field(default_factory=dict)  # (kinds of the results, previous template) -> bindings
    operation_cache: dict = field(default_factory=dict)  # (template, source id, reference) -> (result, held lists)
    answer_cache: dict = field(default_factory=dict)  # source id -> (result, answers, correct, source)
    facts: dict = field(default_factory=dict)  # result id -> _Facts

    def __post_init__(self) -> None:
        self.scorer = binding_scorer(self.analysis, self.relation_floor)

    def _facts(self, result: list[Item]) -> _Facts:
        facts = self.facts.get(id(result))
        if facts is None:
            facts = self.facts[id(result)] = _Facts(result)
        return facts

    def _join_period(self, context: ActionContext, step: int) -> TimeSpan | None:
        """`context.join_period(step)`, once per result list (the join granularity is the question's)."""
        facts = self._facts(context.result(step))
        if facts.period is _UNSET:
            facts.period = context.join_period(step)
        return facts.period  # type: ignore[return-value]

    def lookups(self, context: ActionContext) -> list[tuple[Lookup, str, float]]:
        """Scored lookups for this context; they differ between steps only by same-period joins."""
        step = len(context.results) + 1
        key = tuple(self._join_period(context, k) for k in range(1, step) if self._facts(context.result(k)).pure_time)
        if key not in self.lookup_cache:
            pool = enumerate_candidates(self.store, context, self.entities, operations=False, extended=False)
            self.lookup_cache[key] = [option for index in range(len(pool.blocks)) for option in self._scored(pool, index)]
        return self.lookup_cache[key]

    def _scored(self, pool: CandidatePool, index: int) -> Iterator[tuple[Lookup, str, float]]:
        """A block's lookups not taken, with their abstract step and linking fit; those whose
        relation fits poorly or that name an entity the question does not mention are left out.
        A getHeadEntity / getTailEntity block has one anchor and one time argument, so one
        abstract step and one entity fit; only the relations differ."""
        block, skip = pool.blocks[index], pool.excluded.get(index, frozenset())
        actions = cast(list[Lookup], [c.action for c in block.candidates])  # a block holds lookups only
        if block.template == "getTime":
            roles = self.roles
            for position, timed in enumerate(cast(list[GetTime], actions)):
                # an edge to an entity the question does not name abstracts to "E?" and is left out:
                # tested first, as most edges of a well-connected entity are such (cheaper than scoring)
                if timed.head not in roles or timed.tail not in roles or position in skip:
                    continue
                score = self.scorer(timed)
                abstract = timed.abstract(roles)
                if score is not None and "E?" not in abstract:
                    yield timed, abstract, score
            return
        abstract = actions[0].abstract(self.roles)
        if "E?" in abstract:
            return
        anchor = self.scorer.entities_fit([block.entity])
        for position, (action, relation) in enumerate(zip(actions, block.relations)):
            fit = self.scorer.relation_fit(relation)
            if fit is not None and position not in skip:
                yield action, abstract, anchor + fit

    def lookup_bindings(self, context: ActionContext, partial: _Partial) -> Iterator[tuple[Action, str, float]]:
        """`_best_bindings` of the lookups `partial` may take next (its relation, none it took):
        the lookups of the relation are grouped once; a partial program only skips what it took."""
        lookups = self.lookups(context)
        key = (id(lookups), partial.relation)
        if key not in self.bound_lookups:
            kept = [o for o in lookups if partial.relation in (None, o[0].relation)]
            in_order: dict[str, list[tuple[int, Action]]] = {}
            for position, (action, abstract, _) in enumerate(kept):
                in_order.setdefault(abstract, []).append((position, action))
            self.bound_lookups[key] = [(abstract, bound, in_order[abstract]) for abstract, bound in _grouped(kept)]
        groups = self.bound_lookups[key]
        if partial.actions:  # a group comes where its first lookup not taken came
            order = []
            for group in groups:
                first = next((p for p, action in group[2] if action not in partial.actions), None)
                if first is not None:
                    order.append((first, group))
            groups = [group for _, group in sorted(order, key=lambda o: o[0])]
        for abstract, bound, _ in groups:
            taken = 0
            for score, action in bound:
                if action in partial.actions:
                    continue
                yield action, abstract, score
                taken += 1
                if taken == self.bindings_per_step:
                    break

    def operation_bindings(self, context: ActionContext) -> list[tuple[Action, str, float]]:
        """`_best_bindings` of the list operations on the latest result that can still change it
        (see `_redundant`); they depend only on which results are empty or timed, and the latest step."""
        latest = len(context.results)
        previous = context.action(latest)
        key = (tuple(self._facts(r).kind for r in context.results), previous.template if previous is not None else None)
        if key not in self.bound_operations:
            options = [
                (action, action.abstract(self.roles), 0.0)
                for action in list_operations(context, context.times, [latest], extended=False)
                if not _redundant(previous, action)
            ]
            self.bound_operations[key] = list(_best_bindings(options, self.bindings_per_step))
        return self.bound_operations[key]

    def execute(self, action, context: ActionContext) -> list[Item]:
        if relation_of(action) is None:  # a list operation or an answer: reads earlier results
            return self._operation(action, context)
        time = time_of(action)
        key = (action, self._join_period(context, time)) if isinstance(time, int) else action
        if key not in self.result_cache:
            self.result_cache[key] = action.execute(self.store, context)
        return self.result_cache[key]

    def _operation(self, action, context: ActionContext) -> list[Item]:
        source = context.result(action.source)
        reference: object = reference_of(action)
        held = [source]
        if isinstance(reference, int):  # a step's earliest time: the same list, the same time
            held.append(context.result(reference))
            reference = ("#", id(held[-1]))
        elif isinstance(action, GetBetween):
            reference = (action.start, action.end)
        key = (action.template, id(source), reference)
        if key not in self.operation_cache:
            self.operation_cache[key] = (action.execute(self.store, context), held)
        return self.operation_cache[key][0]

    def answers(self, result: list[Item]) -> tuple[list[str], bool]:
        """The ranked answers of an answer step's result and whether they count as correct."""
        if id(result) not in self.answer_cache:
            answers = ranked_answers(self.store, self.analysis, result)
            self.answer_cache[id(result)] = (answers, _precise_hit(answers, self.is_correct, self.min_precision), result)
        answers, correct, _ = self.answer_cache[id(result)]
        return answers, correct


_UNSET = object()


class _Facts:
    """What the search asks of one result list, worked out once."""

    __slots__ = ("kind", "pure_time", "period", "result")

    def __init__(self, result: list[Item]) -> None:
        self.result = result  # held: the list's identity keys the caches
        timed = any(is_timed(i) for i in result)
        self.kind = 0 if not result else 2 if timed else 1  # empty, untimed, timed (what list operations apply)
        self.pure_time = bool(result) and timed and all(i.entity is None for i in result)  # may be joined on
        self.period: object = _UNSET


def search_programs(
    store: TKGStore,
    analysis: QuestionAnalysis,
    is_correct: IsCorrect,
    max_steps: int = 5,
    config: SearchConfig = SearchConfig(),
    relation_floor: float = PlannerConfig.relation_floor,
    decider: str = "search",
) -> list[Trace]:
    """Traces of the complete programs found (one per abstract program, its best binding); the
    bounds are `AgentConfig.search`, the relation floor the planner's (`AgentConfig.planner`)."""
    beam, bindings_per_step = config.beam, config.bindings_per_step
    max_lookups, min_precision = config.max_lookups, config.min_precision
    search = _Search(
        store, analysis, entity_roles(analysis), current_entities(analysis), bindings_per_step, relation_floor,
        is_correct, min_precision,
    )
    frontier = [_Partial()]
    found: dict[tuple[str, ...], Trace] = {}
    for depth in range(1, max_steps + 1):
        grown: list[_Partial] = []
        for partial in frontier:
            context = question_context(analysis, partial.results, partial.actions)
            options = search.operation_bindings(context) if partial.results else []
            if partial.lookups < max_lookups and partial.lookups == len(partial.actions):
                options = [*options, *search.lookup_bindings(context, partial)]
            for action, abstract, score in options:
                result = search.execute(action, context)
                if not result:
                    continue
                if action.template == "answer":
                    program = tuple(partial.abstracts + [abstract])
                    if program not in found and not Program.parse(program).has_dead_steps:
                        answers, correct = search.answers(result)
                        found[program] = _trace(analysis, partial, action, abstract, result, answers, correct, decider)
                    continue
                if depth < max_steps:
                    grown.append(_extend(partial, action, abstract, result, score))
        mentioned = len(analysis.entities) + len(analysis.times)
        grown.sort(key=lambda p: -p.rank(mentioned))
        frontier = grown[:beam]
        if not frontier:
            break
    return list(found.values())


_EXTREMES = {"getFirst", "getLast"}
_WINDOWS = LIST_OPERATIONS - _EXTREMES


def _redundant(previous, action) -> bool:
    """A first/last result sits at one time, so no list operation can usefully refine it; a
    before/after/between result is refined only by first/last."""
    before = previous.template if previous is not None else ""
    template = action.template
    if template == "answer":
        return False
    if before in _EXTREMES:
        return True
    return before in _WINDOWS and template in _WINDOWS


def _best_bindings(options, per_step: int):
    for abstract, bound in _grouped(options):
        for score, action in bound[:per_step]:
            yield action, abstract, score


def _grouped(options) -> list[tuple[str, list[tuple[float, Action]]]]:
    """Options by abstract step (in order of first appearance), each best first (fit, then rendering)."""
    by_abstract: dict[str, list[tuple[float, Action]]] = defaultdict(list)
    for action, abstract, score in options:
        by_abstract[abstract].append((score, action))
    for bound in by_abstract.values():
        bound.sort(key=lambda o: (-o[0], o[1].render()))
    return list(by_abstract.items())


def _extend(partial: _Partial, action, abstract: str, result: list[Item], score: float) -> _Partial:
    relation = relation_of(action)
    lookups = partial.lookups + (relation is not None)
    mean = (partial.score * partial.lookups + score) / lookups if relation is not None else partial.score
    return _Partial(
        partial.actions + [action],
        partial.results + [result],
        partial.abstracts + [abstract],
        mean,
        lookups,
        partial.relation or relation,
    )


def _precise_hit(answers: list[str], is_correct: IsCorrect, min_precision: float) -> bool:
    """Top-1 in the gold set AND enough of the returned answers too.

    A program that returns thirty entities whose first happens to be gold is not a method; the
    precision bar keeps such lucky programs out of the correct traces (they become pitfalls), while
    a first/last that ties a few entities still counts.
    """
    if not answers or not is_correct(answers[0]):
        return False
    return sum(1 for a in answers if is_correct(a)) / len(answers) >= min_precision


def _trace(analysis, partial, action, abstract, result, answers, correct, decider) -> Trace:
    done = list(zip(partial.actions, partial.abstracts, partial.results)) + [(action, abstract, result)]
    steps = [
        StepRecord(step=i + 1, candidates=[], chosen=a.render(), abstract=s, result_size=len(r), reason="program search")
        for i, (a, s, r) in enumerate(done)
    ]
    return Trace(
        question=analysis.question,
        masked_question=analysis.masked,
        steps=steps,
        answers=answers,
        abstained=False,
        decider=decider,
        outcome="correct" if correct else "wrong",
        qtype=analysis.pattern,
        answer_type=analysis.answer_type,
    )
