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
from collections.abc import Callable
from dataclasses import dataclass, field

from actions.context import ActionContext
from actions.enumerate import enumerate_candidates, list_operations, time_results
from actions.items import Item
from actions.programs import LIST_OPERATIONS, Program
from actions.templates import LOOKUP_TYPES, Action, Lookup
from agents.analysis.types import QuestionAnalysis
from agents.answers import ranked_answers
from agents.planner import question_context
from agents.roles import binding_scorer, current_entities, entity_roles
from ari.base.config import PlannerConfig, SearchConfig
from memory.trace import StepRecord, Trace
from tkg_store.store import TKGStore

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
    store: TKGStore
    analysis: QuestionAnalysis
    roles: dict[str, str]
    entities: list[str]
    bindings_per_step: int
    relation_floor: float
    lookup_cache: dict = field(default_factory=dict)
    result_cache: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.scorer = binding_scorer(self.analysis, self.relation_floor)

    def lookups(self, context: ActionContext) -> list[tuple[Lookup, str, float]]:
        """Scored lookups for this context; they differ between steps only by same-period joins."""
        step = len(context.results) + 1
        key = tuple(context.join_period(k) for k in time_results(context, step))
        if key not in self.lookup_cache:
            options = []
            for candidate in enumerate_candidates(self.store, context, self.entities):
                action = candidate.action
                if not isinstance(action, LOOKUP_TYPES):  # a lookup always names its relation
                    continue
                score = self.scorer(action)
                if score is None:
                    continue
                abstract = action.abstract(self.roles)
                if "E?" not in abstract:
                    options.append((action, abstract, score))
            self.lookup_cache[key] = options
        return self.lookup_cache[key]

    def list_operations(self, context: ActionContext) -> list[tuple[Action, str, float]]:
        """List operations on the latest result that can still change it (see `_redundant`)."""
        latest = len(context.results)
        previous = context.action(latest)
        return [
            (action, action.abstract(self.roles), 0.0)
            for action in list_operations(context, context.times, [latest])
            if not _redundant(previous, action)
        ]

    def execute(self, action, context: ActionContext) -> list[Item]:
        if isinstance(getattr(action, "time", None), int) or getattr(action, "relation", None) is None:
            return action.execute(self.store, context)  # depends on earlier results
        if action not in self.result_cache:
            self.result_cache[action] = action.execute(self.store, context)
        return self.result_cache[action]


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
    search = _Search(store, analysis, entity_roles(analysis), current_entities(analysis), bindings_per_step, relation_floor)
    frontier = [_Partial()]
    found: dict[tuple[str, ...], Trace] = {}
    for depth in range(1, max_steps + 1):
        grown: list[_Partial] = []
        for partial in frontier:
            context = question_context(analysis, partial.results, partial.actions)
            options = search.list_operations(context) if partial.results else []
            if partial.lookups < max_lookups and partial.lookups == len(partial.actions):
                options += [
                    o for o in search.lookups(context)
                    if partial.relation in (None, o[0].relation) and o[0] not in partial.actions
                ]
            for action, abstract, score in _best_bindings(options, bindings_per_step):
                result = search.execute(action, context)
                if not result:
                    continue
                if action.template == "answer":
                    program = tuple(partial.abstracts + [abstract])
                    if program not in found and not Program.parse(program).has_dead_steps:
                        answers = ranked_answers(store, analysis, result)
                        correct = _precise_hit(answers, is_correct, min_precision)
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
    before = getattr(previous, "template", "")
    template = action.template
    if template == "answer":
        return False
    if before in _EXTREMES:
        return True
    return before in _WINDOWS and template in _WINDOWS


def _best_bindings(options, per_step: int):
    by_abstract: dict[str, list[tuple[float, Action]]] = defaultdict(list)
    for action, abstract, score in options:
        by_abstract[abstract].append((score, action))
    for abstract, bound in by_abstract.items():
        bound.sort(key=lambda o: (-o[0], o[1].render()))
        for score, action in bound[:per_step]:
            yield action, abstract, score


def _extend(partial: _Partial, action, abstract: str, result: list[Item], score: float) -> _Partial:
    relation = getattr(action, "relation", None)
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
