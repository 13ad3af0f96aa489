"""Questions a store asks itself: a memory learned from the KG alone, with no labelled question.

For every shape ARI answers beyond MultiTQ's templates (counts, yes / no, lists, most and least
often, the relations between two entities, date windows, the n-th, "apart from X"), a blueprint
holds the shape's program and a few plain wordings. A question is made from a fact drawn at random:
its entities, relation and time fill the blueprint, the program is run on the store with those
bindings, and its result is the gold (the actions' semantics are exact, so the program's result is
the answer by definition). The wording comes from the relation's own text ("criticize or
denounce"), so any KG can be worded.

Learning then treats each generated question as a labelled one: it is analysed as any question is
(linking, times, relations, the typed query), the shape's program is bound to that analysis by the
planner, and the trace is labelled against the gold. Only correct traces are kept: a wording the
analysis misreads, or a binding that takes another relation, says more about the machine wording
than about the program, and kept as a pitfall it would lower the success of the very programs that
answer people's questions of that shape.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import date

from actions.context import ActionContext
from actions.items import Item
from actions.programs import Program
from actions.semantics import format_item_time
from actions.templates import bound_step
from agents.analysis.types import QuestionAnalysis
from agents.answers import ranked_answers
from agents.planner import bind_program
from agents.roles import entity_roles
from ari.base.config import PlannerConfig
from memory.labels import hit
from memory.learn import GoldQuestion, Solved
from memory.trace import StepRecord, Trace
from tkg_store.store import Fact, TKGStore
from tkg_store.temporal import Granularity, TimeSpan, span_of

MAX_LIST = 10  # a generated list question asks for at most this many answers
MIN_PER_BLUEPRINT = 6  # generated questions of each blueprint, at least (when the KG has them)


@dataclass(frozen=True)
class Blueprint:
    """One way to ask a shape: its program, who E1 / E2 are in the drawn fact, and its wordings
    ({h} / {t} the fact's head and tail, {r} the relation's text, {T} the time, {n} an ordinal)."""

    shape: str
    program: str
    first: str  # "head" | "tail": which side of the fact is E1 (E2 is the other, or the excluded one)
    wordings: tuple[str, ...]
    answer_type: str = "entity"  # entity | time | number | yesno | relation
    level: Granularity = Granularity.YEAR  # the granularity of {T}


_FIXED = (
    Blueprint("count", "getTime(E1, R, E2, T) -> count(#1, days) -> answer(#2)", "head",
              ("How many times did {h} {r} {t} in {T}?", "How often did {h} {r} {t} in {T}?"), "number"),
    Blueprint("yesno", "getTime(E1, R, E2, T) -> exists(#1) -> answer(#2)", "head",
              ("Did {h} {r} {t} in {T}?", "Is it true that {h} did {r} {t} in {T}?"), "yesno", Granularity.MONTH),
    Blueprint("relations", "getRelation(E1, E2, T) -> answer(#1)", "head",
              ("What happened between {h} and {t} in {T}?", "How did {h} and {t} interact in {T}?"), "relation", Granularity.MONTH),
    Blueprint("nth", "getTime(E1, R, E2, T) -> getNth(#1, N) -> answer(#2)", "head",
              ("When did {h} {r} {t} for the {n} time in {T}?",), "time", Granularity.DAY),
    Blueprint("nth", "getTime(E1, R, E2) -> getNth(#1, N) -> answer(#2)", "head",
              ("When did {h} {r} {t} for the {n} time?",), "time", Granularity.DAY),
    Blueprint("window", "getTime(E1, R, E2) -> getBetween(#1, T1, T2) -> getFirst(#2) -> answer(#3)", "head",
              ("When did {h} first {r} {t} between {T1} and {T2}?",), "time", Granularity.MONTH),
)

# The entity shapes are composed: a lookup of the asked side, then what the question adds to it
# (a window, a type, an exclusion), then what it asks of the result; each part has its words.
_FINALS = {  # final step, shape, answer type, wording for the asked head / the asked tail
    "list": (None, "list", "entity", "{who} did {r} {t}{when}{but}?", "{whom} did {h} {r}{when}{but}?"),
    "most": ("getMost", "most", "entity", "{who1} did {r} {t} most often{when}{but}?", "{whom1} did {h} {r} most often{when}{but}?"),
    "least": ("getLeast", "most", "entity", "{who1} did {r} {t} least often{when}{but}?", "{whom1} did {h} {r} least often{when}{but}?"),
    "nth": ("getNth", "nth", "entity", "{who1} was the {n} to {r} {t}{when}{but}?", "{whom1} did {h} {r} for the {n} time{when}{but}?"),
    "nthLast": ("getNthLast", "nth", "entity", "{who1} was the {n} to last to {r} {t}{when}{but}?", "{whom1} did {h} {r} {n} to last{when}{but}?"),
    "count": ("count", "count", "number", "How many {ones} did {r} {t}{when}{but}?", "How many {ones} did {h} {r}{when}{but}?"),
}


def _composed() -> tuple[Blueprint, ...]:
    made = []
    for asked in ("head", "tail"):
        lookup = "getHeadEntity" if asked == "head" else "getTailEntity"
        for window in (False, True):
            for country in (False, True):
                for excluded in (False, True):
                    for final, (template, shape, answer_type, ask_head, ask_tail) in _FINALS.items():
                        steps = [f"{lookup}(E1, R)" if window else f"{lookup}(E1, R, T)"]
                        if window:
                            steps.append(f"getBetween(#{len(steps)}, T1, T2)")
                        if country:
                            steps.append(f"ofType(#{len(steps)}, country)")
                        if excluded:
                            steps.append(f"exclude(#{len(steps)}, E2)")
                        if template == "count":
                            steps.append(f"count(#{len(steps)}, entities)")
                        elif template is not None:
                            steps.append(f"{template}(#{len(steps)}{', N' if final.startswith('nth') else ''})")
                        steps.append(f"answer(#{len(steps)})")
                        wording = (ask_head if asked == "head" else ask_tail).format_map(_Words(country, window, excluded))
                        level = Granularity.MONTH if window else Granularity.YEAR
                        made.append(Blueprint(shape, " -> ".join(steps), "tail" if asked == "head" else "head", (wording,), answer_type, level))
    return tuple(made)


class _Words(dict):
    """The words of one composed wording; the fact's own ({h}, {r}, {T} ...) are left for `_make`."""

    def __init__(self, country: bool, window: bool, excluded: bool) -> None:
        super().__init__(
            who="Which countries" if country else "Who", whom="Which countries" if country else "Whom",
            who1="Which country" if country else "Who", whom1="Which country" if country else "Whom",
            ones="countries" if country else "different ones",
            when=" between {T1} and {T2}" if window else " in {T}", but=" apart from {x}" if excluded else "",
        )

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


BLUEPRINTS = _FIXED + _composed()
SHAPES = tuple(dict.fromkeys(b.shape for b in BLUEPRINTS))
_ORDINAL_WORDS = {2: "second", 3: "third"}


def blueprints_key(blueprints: Sequence[Blueprint] = BLUEPRINTS) -> str:
    """A short fingerprint of the blueprints: a memory records generated questions once per set."""
    text = "\n".join(f"{b.shape}|{b.program}|{b.first}|{'|'.join(b.wordings)}|{b.answer_type}|{b.level.value}" for b in blueprints)
    return hashlib.sha1(text.encode()).hexdigest()[:12]


@dataclass
class Generated:
    """A question made from the KG, its gold, and the program that computed it."""

    gold: GoldQuestion
    program: Program
    shape: str
    is_list: bool


def generate(store: TKGStore, per_shape: int, seed: int = 0, shapes: Sequence[str] = SHAPES) -> list[Generated]:
    """About `per_shape` questions of each shape, spread over its blueprints (at least a few each,
    so every composition of a shape is learnt), from facts drawn with `seed`."""
    rng = random.Random(seed)
    facts = store.sample_facts(max(400, per_shape * 12), seed)
    rng.shuffle(facts)  # drawn in time order: every blueprint gets every period
    made: list[Generated] = []
    for shape in shapes:
        blueprints = [b for b in BLUEPRINTS if b.shape == shape]
        quota = max(MIN_PER_BLUEPRINT, -(-per_shape // len(blueprints)))
        for index, blueprint in enumerate(blueprints):
            count = 0
            for fact in facts:
                if count >= quota:
                    break
                question = _make(store, blueprint, fact, rng, f"gen-{shape}-{index}-{seed}-{count}")
                if question is not None:
                    made.append(question)
                    count += 1
    return made


def _make(store: TKGStore, blueprint: Blueprint, fact: Fact, rng: random.Random, qid: str) -> Generated | None:
    if fact.start is None or fact.head == fact.tail:
        return None
    first, second = (fact.head, fact.tail) if blueprint.first == "head" else (fact.tail, fact.head)
    program = Program.parse(blueprint.program)
    bindings: dict[str, object] = {"E1": first, "E2": second, "R": fact.relation, "T": span_of(fact.start, blueprint.level)}
    n = rng.choice((2, 3))
    bindings["N"] = n
    if "T1" in blueprint.program:
        start = span_of(fact.start, Granularity.MONTH)
        later = date(start.start.year + (start.start.month + 2) // 12, (start.start.month + 2) % 12 + 1, 1)
        bindings["T1"], bindings["T2"] = start, span_of(later, Granularity.MONTH)
    if "exclude" in blueprint.program:  # E2, excluded, is one of several who did it then
        span = bindings["T"]
        assert isinstance(span, TimeSpan)
        if not any(f.head != fact.head for f in store.facts(relation=fact.relation, tail=fact.tail, within=span)):
            return None
    times = [bindings[t] for t in ("T1", "T2") if t in bindings] or [bindings["T"]]
    context = ActionContext(results=[], times=times, granularity=blueprint.level, answer_type=blueprint.answer_type, actions=[])  # type: ignore[arg-type]
    for step in program.steps:
        action = bound_step(step, bindings)
        items = action.execute(store, context)
        if not items:
            return None
        context = context.with_result(items, action)
    answers = _gold(store, blueprint, context.results[-1])
    if not answers or len(answers) > MAX_LIST or (blueprint.shape in ("most", "nth") and len(answers) > 3):
        return None
    text = rng.choice(blueprint.wordings).format(
        h=store.display(fact.head), t=store.display(fact.tail), r=store.relation_text(fact.relation).lower(),
        T=_said(bindings["T"]), T1=_said(bindings.get("T1")), T2=_said(bindings.get("T2")),  # type: ignore[arg-type]
        n=_ORDINAL_WORDS[n], x=store.display(second),
    )
    is_list = blueprint.shape in ("list", "relations")
    gold = GoldQuestion(qid, text, answers, blueprint.answer_type, blueprint.shape, blueprint.level.value)
    return Generated(gold, program, blueprint.shape, is_list)


def _gold(store: TKGStore, blueprint: Blueprint, items: list[Item]) -> list[str]:
    if blueprint.answer_type in ("number", "yesno"):
        return [i.entity for i in items if i.entity is not None][:1]
    if blueprint.answer_type == "relation":
        return list(dict.fromkeys(store.relation_text(i.entity) for i in items if i.entity is not None))
    if blueprint.answer_type == "time":
        return list(dict.fromkeys(t for i in items if (t := format_item_time(i, blueprint.level)) is not None))
    return list(dict.fromkeys(store.display(i.entity) for i in items if i.entity is not None))


def _said(span: TimeSpan | None) -> str:
    if span is None:
        return ""
    if span.granularity == Granularity.YEAR:
        return str(span.start.year)
    if span.granularity == Granularity.MONTH:
        return span.start.strftime("%B %Y")
    return f"{span.start.day} {span.start.strftime('%B %Y')}"


# -- solving: a generated question, analysed and planned like any question ---------------------------

def solve_generated(
    store: TKGStore, generated: Sequence[Generated], analyses: Sequence[QuestionAnalysis], config: PlannerConfig
) -> Iterator[Solved]:
    """The correct trace of each generated question, if any: its program bound to the question's analysis."""
    for question, analysis in zip(generated, analyses):
        trace = _solved_trace(store, question, analysis, config)
        yield Solved(question.gold, None, [trace] if trace is not None else [])


def _solved_trace(store: TKGStore, question: Generated, analysis: QuestionAnalysis, config: PlannerConfig) -> Trace | None:
    if not analysis.query.admits(question.program):
        return None  # the analysis reads another shape: nothing learnt about this program from it
    plan = bind_program(store, analysis, question.program, config)
    if plan is None:
        return None
    answers = ranked_answers(store, analysis, plan.results[-1])
    gold = question.gold
    if question.is_list:
        correct = set(answers) == set(gold.answers)
    else:
        correct = bool(answers) and hit(answers[0], gold.answers, "time" if gold.answer_type == "time" else "entity")
    if not correct:  # see the module docstring: only correct traces are kept
        return None
    roles = entity_roles(analysis)
    steps = [
        StepRecord(step=k, candidates=[], chosen=a.render(), abstract=a.abstract(roles), result_size=len(r), reason="generated from the KG")
        for k, (a, r) in enumerate(zip(plan.actions, plan.results), 1)
    ]
    return Trace(
        question=gold.text, masked_question=analysis.masked, steps=steps, answers=answers, decider="search",
        outcome="correct", qtype=question.shape, answer_type=gold.answer_type,
    )

