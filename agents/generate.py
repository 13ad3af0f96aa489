"""Questions a store asks itself: a memory learned from the KG alone, with no labelled question.

For every shape ARI answers (the six temporal shapes: the same time, before / after a time or an
event, the first / last, the same period as another event, the first after / last before another
event; and counts, yes / no, lists, most and least often, the relations between two entities, date
windows, the n-th, "apart from X"), a blueprint holds the shape's program and a few plain English
wordings. A question is made from a fact drawn at random: its entities, relation and time fill the
blueprint, the program is run on the store with those bindings, and its result is the gold (the
actions' semantics are exact, so the program's result is the answer by definition). The wording
comes from the relation's own name made into English (`agents.relation_wording`: "criticized or
denounced" for a subject question, "criticize or denounce" after "did"), so any KG can be worded.

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
import re
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
from agents.relation_wording import RelationWording, kg_verbs, relation_wording
from agents.roles import entity_roles
from agents.shapes import ranked_query
from ari.base.config import PlannerConfig
from memory.labels import hit
from memory.learn import GoldQuestion, Solved
from memory.trace import StepRecord, Trace
from tkg_store.learned import country_names
from tkg_store.store import Fact, TKGStore
from tkg_store.temporal import Granularity, TimeSpan, span_of

MAX_LIST = 10  # a generated list question asks for at most this many answers
MAX_ANY = 25  # a question of the six shapes whose gold is any of its answers has at most this many
MIN_PER_BLUEPRINT = 6  # generated questions of each blueprint, at least (when the KG has them)


@dataclass(frozen=True)
class Blueprint:
    """One way to ask a shape: its program, who E1 / E2 are in the drawn fact, and its wordings
    ({h} / {t} the fact's head and tail, {x} E2's name, {r} the relation after "did", {rp} its past
    tense, {T} the time, {onT} / {OnT} the time with its preposition, {same} "on the same day as"
    at the level, {n} an ordinal, {z} a third party, E3)."""

    shape: str
    program: str
    first: str  # "head" | "tail": which side of the fact is E1 (E2 is the other, or the excluded one)
    wordings: tuple[str, ...]
    answer_type: str = "entity"  # entity | time | number | yesno | relation
    level: Granularity = Granularity.YEAR  # the granularity of {T} (and of a same-period join)
    most: int = MAX_LIST  # the most gold answers a question of this blueprint may have
    lasting: bool | None = None  # made only from facts that last more than a day (True), only from day points (False), or any
    family: str = ""  # blueprints written together for one way of asking the shape ("" the shape's first); each has its own quota


_FIXED = (
    Blueprint("count", "getTime(E1, R, E2, T) -> count(#1, days) -> answer(#2)", "head",
              ("How many times did {h} {r} {t} in {T}?", "How often did {h} {r} {t} in {T}?"), "number"),
    # one party named, the other left open: the acts of the named one, or the acts done to it ("how many
    # times was X visited"); the open side is worded "anyone", which asks a yes / no only after "whether"
    Blueprint("count", "getTailEntity(E1, R, T) -> count(#1, days) -> answer(#2)", "head",
              ("How many times did {h} {r} anyone in {T}?", "On how many days did {h} {r} anyone in {T}?"), "number", family="one party"),
    Blueprint("count", "getHeadEntity(E1, R, T) -> count(#1, days) -> answer(#2)", "tail",
              ("How many times did anyone {r} {t} in {T}?", "On how many days did anyone {r} {t} in {T}?"), "number", family="one party"),
    Blueprint("yesno", "getTime(E1, R, E2, T) -> exists(#1) -> answer(#2)", "head",
              ("Did {h} {r} {t} in {T}?", "Is it true that {h} did {r} {t} in {T}?"), "yesno", Granularity.MONTH),
    Blueprint("yesno", "getTailEntity(E1, R, T) -> exists(#1) -> answer(#2)", "head",
              ("Tell me whether {h} {rp} anyone in {T}.", "Can you check if {h} {rp} anyone in {T}?"), "yesno", Granularity.MONTH, family="one party"),
    Blueprint("yesno", "getHeadEntity(E1, R, T) -> exists(#1) -> answer(#2)", "tail",
              ("Tell me whether anyone {rp} {t} in {T}.", "Can you check if anyone {rp} {t} in {T}?"), "yesno", Granularity.MONTH, family="one party"),
    Blueprint("relations", "getRelation(E1, E2, T) -> answer(#1)", "head",
              ("What happened between {h} and {t} in {T}?", "How did {h} and {t} interact in {T}?"), "relation", Granularity.MONTH),
    Blueprint("nth", "getTime(E1, R, E2, T) -> getNth(#1, N) -> answer(#2)", "head",
              ("When did {h} {r} {t} for the {n} time in {T}?",), "time", Granularity.DAY),
    Blueprint("nth", "getTime(E1, R, E2) -> getNth(#1, N) -> answer(#2)", "head",
              ("When did {h} {r} {t} for the {n} time?",), "time", Granularity.DAY),
    Blueprint("window", "getTime(E1, R, E2) -> getBetween(#1, T1, T2) -> getFirst(#2) -> answer(#3)", "head",
              ("When did {h} first {r} {t} between {T1} and {T2}?",), "time", Granularity.MONTH),
    # a ranking of periods: the years of the event ranked by their days (a family of its own: no other family's draws change)
    Blueprint("most", "getTime(E1, R, E2) -> getMost(#1, year) -> answer(#2)", "head",
              ("In which year did {h} {r} {t} the most?", "Which year did {h} {r} {t} most often?"), "time", family="periods"),
    Blueprint("most", "getTime(E1, R, E2) -> getLeast(#1, year) -> answer(#2)", "head",
              ("In which year did {h} {r} {t} the least?", "Which year did {h} {r} {t} least often?"), "time", family="periods"),
)

# MultiTQ's six shapes, as general English asks them. Who is asked (a fact's head, "who criticized
# Iran", or its tail, "whom did Iran criticize"), the time's level (day, month, year) and, for the
# shapes placed against another event, whose event that is (E2: the drawn fact's other party) vary.
_LEVELS = (Granularity.DAY, Granularity.MONTH, Granularity.YEAR)
_ASKS_HEAD, _ASKS_TAIL = "tail", "head"  # E1 when the fact's head is asked (its tail), and when its tail is asked (its head)
_WHEN = {Granularity.DAY: ("When did {h} {r} {t}?", "On which day did {h} {r} {t}?", "What date did {h} {r} {t}?"),
         Granularity.MONTH: ("In which month did {h} {r} {t}?", "What month did {h} {r} {t}?"),
         Granularity.YEAR: ("In which year did {h} {r} {t}?", "What year did {h} {r} {t}?")}
_WHEN_FIRST = {Granularity.DAY: ("When did {h} first {r} {t}?", "When did {h} {r} {t} for the first time?"),
               Granularity.MONTH: ("In which month did {h} first {r} {t}?", "What month did {h} {r} {t} for the first time?"),
               Granularity.YEAR: ("In which year did {h} first {r} {t}?", "What year did {h} {r} {t} for the first time?")}


def _six() -> tuple[Blueprint, ...]:
    return (*[b for level in _LEVELS for b in _at_level(level)], *_extreme_in_period(), *_extreme_ever(), *_against_an_event())


def _at_level(level: Granularity) -> list[Blueprint]:
    """At a time of this level: who / whom then, when, the first / last time, the same period as E2, before / after it."""
    made = [
        Blueprint("equal", "getHeadEntity(E1, R, T) -> answer(#1)", _ASKS_HEAD,
                  ("Who {rp} {t} {onT}?", "{OnT}, who {rp} {t}?", "Which country {rp} {t} {onT}?"), "entity", level, MAX_ANY),
        Blueprint("equal", "getTailEntity(E1, R, T) -> answer(#1)", _ASKS_TAIL,
                  ("Whom did {h} {r} {onT}?", "Who did {h} {r} {onT}?", "{OnT}, which country did {h} {r}?"), "entity", level, MAX_ANY),
        Blueprint("equal", "getTime(E1, R, E2) -> answer(#1)", "head", _WHEN[level], "time", level, 1),
        Blueprint("first_last", "getTime(E1, R, E2) -> getFirst(#1) -> answer(#2)", "head", _WHEN_FIRST[level], "time", level, 1),
        Blueprint("first_last", "getTime(E1, R, E2) -> getLast(#1) -> answer(#2)", "head",
                  tuple(w.replace("first", "last") for w in _WHEN_FIRST[level]), "time", level, 1),
        Blueprint("equal_multi", "getTime(E2, R, E1) -> getHeadEntity(E1, R, #1) -> answer(#2)", _ASKS_HEAD,
                  ("Who {rp} {t} {same} {x}?", "Who {rp} {t} {same} {x} did?", "Which country {rp} {t} {same} {x}?"), "entity", level, MAX_ANY),
        Blueprint("equal_multi", "getTime(E1, R, E2) -> getTailEntity(E1, R, #1) -> answer(#2)", _ASKS_TAIL,
                  ("Whom did {h} {r} {same} {x}?", "Which country did {h} {r} {same} {x}?"), "entity", level, MAX_ANY),
    ]
    for cue, operation in (("before", "getBefore"), ("after", "getAfter")):
        made += [
            Blueprint("before_after", f"getHeadEntity(E1, R) -> {operation}(#1, T) -> answer(#2)", _ASKS_HEAD,
                      (f"Who {{rp}} {{t}} {cue} {{T}}?", f"{cue.title()} {{T}}, who {{rp}} {{t}}?", f"Which country {{rp}} {{t}} {cue} {{T}}?"), "entity", level, MAX_ANY),
            Blueprint("before_after", f"getTailEntity(E1, R) -> {operation}(#1, T) -> answer(#2)", _ASKS_TAIL,
                      (f"Whom did {{h}} {{r}} {cue} {{T}}?", f"{cue.title()} {{T}}, which country did {{h}} {{r}}?"), "entity", level, MAX_ANY),
        ]
    return made


def _extreme_in_period() -> list[Blueprint]:
    """The first / last to do it in a month or a year."""
    made = []
    for level in (Granularity.MONTH, Granularity.YEAR):
        for cue, operation in (("first", "getFirst"), ("last", "getLast")):
            made += [
                Blueprint("equal_multi", f"getHeadEntity(E1, R, T) -> {operation}(#1) -> answer(#2)", _ASKS_HEAD,
                          (f"Who was the {cue} to {{r}} {{t}} {{onT}}?", f"Who {cue} {{rp}} {{t}} {{onT}}?"), "entity", level, 3),
                Blueprint("equal_multi", f"getTailEntity(E1, R, T) -> {operation}(#1) -> answer(#2)", _ASKS_TAIL,
                          (f"Whom did {{h}} {cue} {{r}} {{onT}}?", f"Which country did {{h}} {{r}} {cue} {{onT}}?"), "entity", level, 3),
            ]
    return made


def _extreme_ever() -> list[Blueprint]:
    """The first / last ever to do it."""
    made = []
    for cue, operation in (("first", "getFirst"), ("last", "getLast")):
        made += [
            Blueprint("first_last", f"getHeadEntity(E1, R) -> {operation}(#1) -> answer(#2)", _ASKS_HEAD,
                      (f"Who was the {cue} to {{r}} {{t}}?", f"Who {cue} {{rp}} {{t}}?", f"Which country {{rp}} {{t}} {cue}?"), "entity", Granularity.DAY, 3),
            Blueprint("first_last", f"getTailEntity(E1, R) -> {operation}(#1) -> answer(#2)", _ASKS_TAIL,
                      (f"Whom did {{h}} {cue} {{r}}?", f"Which country did {{h}} {{r}} {cue}?", f"Who was the {cue} that {{h}} {{rp}}?"), "entity", Granularity.DAY, 3),
        ]
    return made


def _against_an_event() -> list[Blueprint]:
    """Before / after E2's own such event (its first), and the first after / last before it.

    Of events (day points) "who did it before X did" is everyone who did it earlier; of holdings that
    last (an office, a team), "who held it before X" is the holder just before: the last of those who
    started before X's first holding (the first of those who started after it ended)."""
    made = []
    for cue in ("before", "after"):
        operation = "getBefore" if cue == "before" else "getAfter"
        nearest = "getLast" if cue == "before" else "getFirst"
        made += [
            Blueprint("before_after", f"getTime(E2, R, E1) -> getHeadEntity(E1, R) -> {operation}(#2, #1) -> answer(#3)", _ASKS_HEAD,
                      (f"Who {{rp}} {{t}} {cue} {{x}} did?", f"{cue.title()} {{x}}, who {{rp}} {{t}}?", f"Which country {{rp}} {{t}} {cue} {{x}}?"),
                      "entity", Granularity.DAY, MAX_ANY, lasting=False),
            Blueprint("before_after", f"getTime(E1, R, E2) -> getTailEntity(E1, R) -> {operation}(#2, #1) -> answer(#3)", _ASKS_TAIL,
                      (f"Whom did {{h}} {{r}} {cue} {{x}}?", f"{cue.title()} {{x}}, which country did {{h}} {{r}}?"), "entity", Granularity.DAY, MAX_ANY,
                      lasting=False),
            Blueprint("before_after", f"getTime(E2, R, E1) -> getHeadEntity(E1, R) -> {operation}(#2, #1) -> {nearest}(#3) -> answer(#4)", _ASKS_HEAD,
                      (f"Who {{rp}} {{t}} {cue} {{x}} did?", f"Who {{rp}} {{t}} {cue} {{x}}?"), "entity", Granularity.YEAR, 3, lasting=True),
            Blueprint("before_after", f"getTime(E1, R, E2) -> getTailEntity(E1, R) -> {operation}(#2, #1) -> {nearest}(#3) -> answer(#4)", _ASKS_TAIL,
                      (f"Whom did {{h}} {{r}} {cue} {{x}}?", f"What did {{h}} {{r}} {cue} {{x}}?"), "entity", Granularity.YEAR, 3, lasting=True),
        ]
    for shape, cue, extreme, operation in (("after_first", "after", "first", "getAfter"), ("before_last", "before", "last", "getBefore")):
        pick = "getFirst" if extreme == "first" else "getLast"
        made += [
            Blueprint(shape, f"getTime(E2, R, E1) -> getHeadEntity(E1, R) -> {operation}(#2, #1) -> {pick}(#3) -> answer(#4)", _ASKS_HEAD,
                      (f"Who was the {extreme} to {{r}} {{t}} {cue} {{x}}?", f"{cue.title()} {{x}}, who was the {extreme} to {{r}} {{t}}?",
                       f"Which country {{rp}} {{t}} {extreme} {cue} {{x}} did?"), "entity", Granularity.DAY, 3),
            Blueprint(shape, f"getTime(E1, R, E2) -> getTailEntity(E1, R) -> {operation}(#2, #1) -> {pick}(#3) -> answer(#4)", _ASKS_TAIL,
                      (f"Whom did {{h}} {extreme} {{r}} {cue} {{x}}?", f"Which country did {{h}} {{r}} {extreme} {cue} {{x}}?",
                       f"{cue.title()} {{x}}, who was the {extreme} that {{h}} {{rp}}?"), "entity", Granularity.DAY, 3),
        ]
    return made


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


def _placed_in_order() -> tuple[Blueprint, ...]:
    """Yes / no over an order: whether a named one was the first / last (the n-th) to do it (to whom
    it was done), in a year or ever; "No" when another was, and when it never did it then."""
    made = [
        Blueprint("yesno", "getHeadEntity(E2, R, T) -> getNth(#1, N) -> includes(#2, E1) -> answer(#3)", "head",
                  ("Was {h} the {n} to {r} {t} in {T}?",), "yesno", family="order"),
        Blueprint("yesno", "getHeadEntity(E2, R, T) -> getNthLast(#1, N) -> includes(#2, E1) -> answer(#3)", "head",
                  ("Was {h} the {n} to last to {r} {t} in {T}?",), "yesno", family="order"),
    ]
    for cue, operation in (("first", "getFirst"), ("last", "getLast")):
        made += [
            Blueprint("yesno", f"getHeadEntity(E2, R, T) -> {operation}(#1) -> includes(#2, E1) -> answer(#3)", "head",
                      (f"Was {{h}} the {cue} to {{r}} {{t}} in {{T}}?", f"{{h}} was the {cue} to {{r}} {{t}} in {{T}}, right?"), "yesno", family="order"),
            Blueprint("yesno", f"getTailEntity(E2, R, T) -> {operation}(#1) -> includes(#2, E1) -> answer(#3)", "tail",
                      (f"Was {{t}} the {cue} that {{h}} {{rp}} in {{T}}?",), "yesno", Granularity.MONTH, family="order"),
            Blueprint("yesno", f"getHeadEntity(E2, R) -> {operation}(#1) -> includes(#2, E1) -> answer(#3)", "head",
                      (f"Was {{h}} the {cue} to {{r}} {{t}}?", f"Is it true that {{h}} was the {cue} to {{r}} {{t}}?"), "yesno", Granularity.DAY,
                      family="order"),
        ]
    return tuple(made)


# Yes / no, counts and the n-th placed against another event of the one named first: "did {h} {r} {t} after {h} {rp}
# {z}?", where E3 ({z}) is another party of E1's acts of the relation (`_third_party`) and E1's first act towards it is
# the reference. Asked of people with a referred event of another act ("after he criticised {E3}"), the program's
# referred event then reads that act (`Program.referring_apart`).
_AGAINST_OWN_EVENT = tuple(
    Blueprint(shape, f"getTime(E1, R, E3) -> getTime(E1, R, E2) -> {operation}(#2, #1) -> {final} -> answer(#4)", "head",
              (wording,), answer_type, Granularity.DAY, 1, lasting=False, family="against its own event")
    for cue, operation in (("after", "getAfter"), ("before", "getBefore"))
    for shape, final, answer_type, wording in (
        ("yesno", "exists(#3)", "yesno", f"Did {{h}} {{r}} {{t}} {cue} {{h}} {{rp}} {{z}}?"),
        ("count", "count(#3, days)", "number", f"How many times did {{h}} {{r}} {{t}} {cue} {{h}} {{rp}} {{z}}?"),
        ("nth", "getNth(#3, N)", "time", f"When did {{h}} {{r}} {{t}} for the {{n}} time {cue} {{h}} {{rp}} {{z}}?"),
    )
)

# An interval KG's "while": who held the same thing while E2 held it (CronQuestions' time_join), made only
# from a fact that lasts (on day points a same-period join asks it). E2 is one of the answers, as
# every holder whose years meet E2's is.
_DURING = (
    Blueprint("during", "getTime(E2, R, E1) -> getHeadEntity(E1, R) -> getDuring(#2, #1) -> answer(#3)", _ASKS_HEAD,
              ("Who {rp} {t} while {x} did?", "Who else {rp} {t} while {x} did?"), "entity", Granularity.YEAR, MAX_ANY, lasting=True),
)

BLUEPRINTS = _six() + _FIXED + _placed_in_order() + _composed() + _DURING + _AGAINST_OWN_EVENT
SHAPES = tuple(dict.fromkeys(b.shape for b in BLUEPRINTS))
_ORDINAL_WORDS = {2: "second", 3: "third"}


def blueprints_key(blueprints: Sequence[Blueprint] = BLUEPRINTS) -> str:
    """A short fingerprint of the blueprints: a memory records generated questions once per set."""
    text = "\n".join(f"{b.shape}|{b.program}|{b.first}|{'|'.join(b.wordings)}|{b.answer_type}|{b.level.value}|{b.family}" for b in blueprints)
    return hashlib.sha1(text.encode()).hexdigest()[:12]


@dataclass
class Generated:
    """A question made from the KG, its gold, and the program that computed it."""

    gold: GoldQuestion
    program: Program
    shape: str
    is_list: bool


def generate(store: TKGStore, per_shape: int, seed: int = 0, shapes: Sequence[str] = SHAPES) -> list[Generated]:
    """About `per_shape` questions of each family of blueprints of each shape, spread over its
    blueprints (at least a few each, so every composition of a shape is learnt), from facts drawn
    with `seed`."""
    rng = random.Random(seed)
    facts = store.sample_facts(max(400, per_shape * 12), seed)
    rng.shuffle(facts)  # drawn in time order: every blueprint gets every period
    made: list[Generated] = []
    # each family its own quota and its own draws (the blueprints of facts that last, intervals, are
    # a family apart): a blueprint added to one family, or a new family, changes no other family's
    # questions, so a memory regenerated for a new way of asking keeps the programs of the old ones
    families: dict[tuple[str, str, bool], list[Blueprint]] = {}
    for blueprint in BLUEPRINTS:
        if blueprint.shape in shapes:
            families.setdefault((blueprint.shape, blueprint.family, blueprint.lasting is True), []).append(blueprint)
    for (shape, family, held), blueprints in families.items():
        prefix = f"gen-{shape}-{family.replace(' ', '_')}{'held' if held else ''}"
        made += _drawn(store, blueprints, per_shape, facts, random.Random(f"{prefix}-{seed}"), prefix, seed)
    return made


def _drawn(store: TKGStore, blueprints: list[Blueprint], per_shape: int, facts: list[Fact], rng: random.Random, prefix: str, seed: int) -> list[Generated]:
    """About `per_shape` questions over one family's blueprints, at least a few of each."""
    made: list[Generated] = []
    quota = max(MIN_PER_BLUEPRINT, -(-per_shape // len(blueprints)))
    for index, blueprint in enumerate(blueprints):
        count = 0
        offset = rng.randrange(len(facts)) if facts else 0  # each blueprint its own facts, not all the first ones
        for fact in facts[offset:] + facts[:offset]:
            if count >= quota:
                break
            question = _make(store, blueprint, fact, rng, f"{prefix}{index}-{seed}-{count}")
            if question is not None:
                made.append(question)
                count += 1
    return made


def _make(store: TKGStore, blueprint: Blueprint, fact: Fact, rng: random.Random, qid: str) -> Generated | None:
    if fact.start is None or fact.head == fact.tail or (blueprint.lasting is not None and blueprint.lasting != (fact.start != fact.end)):
        return None
    if blueprint.level.rank < fact.granularity.rank and _states_time(blueprint):
        return None  # "on 1 January 1955" of a fact the KG dates by its year only
    first, second = (fact.head, fact.tail) if blueprint.first == "head" else (fact.tail, fact.head)
    program = Program.parse(blueprint.program)
    bindings: dict[str, object] = {"E1": first, "E2": second, "R": fact.relation, "T": span_of(fact.start, blueprint.level)}
    n = rng.choice((2, 3))
    bindings["N"] = n
    if "T1" in blueprint.program:
        start = span_of(fact.start, Granularity.MONTH)
        later = date(start.start.year + (start.start.month + 2) // 12, (start.start.month + 2) % 12 + 1, 1)
        bindings["T1"], bindings["T2"] = start, span_of(later, Granularity.MONTH)
    if "E3" in blueprint.program:
        third = _third_party(store, fact, rng)
        if third is None:
            return None
        bindings["E3"] = third
    if "exclude" in blueprint.program:  # E2, excluded, is one of several who did it then
        span = bindings["T"]
        assert isinstance(span, TimeSpan)
        if not any(f.head != fact.head for f in store.facts(relation=fact.relation, tail=fact.tail, within=span)):
            return None
    result = _run(store, blueprint, program, bindings)
    if result is None:
        return None
    asked = {store.display(first)} | ({store.display(second)} if "E2" in blueprint.program else set()) | {store.display(str(bindings.get("E3", first)))}
    answers = _gold(store, blueprint, result, asked)
    if not answers or len(answers) > blueprint.most or (blueprint.shape in ("most", "nth") and len(answers) > 3):
        return None
    text = rng.choice(_wordings(store, blueprint, answers)).format_map(_fact_words(store, fact, bindings, blueprint.level, second) | {"n": _ORDINAL_WORDS[n]})
    is_list = blueprint.shape in ("list", "relations")
    gold = GoldQuestion(qid, text, answers, blueprint.answer_type, blueprint.shape, blueprint.level.value)
    return Generated(gold, program, blueprint.shape, is_list)


def _third_party(store: TKGStore, fact: Fact, rng: random.Random) -> str | None:
    """Another party the fact's head did the fact's act to, drawn with `rng`; None when there is none."""
    others = sorted({f.tail for f in store.facts(head=fact.head, relation=fact.relation)} - {fact.head, fact.tail})
    return rng.choice(others) if others else None


def _states_time(blueprint: Blueprint) -> bool:
    """Whether the question or its answer says a time at the blueprint's level."""
    return blueprint.answer_type == "time" or any(_TIME_SAID.search(w) for w in blueprint.wordings)


def _run(store: TKGStore, blueprint: Blueprint, program: Program, bindings: dict[str, object]) -> list[Item] | None:
    """The program's result on the store, or None when a step finds nothing or a first / last has
    only one time to choose from (that question would be the plain one)."""
    times = [bindings[t] for t in ("T1", "T2") if t in bindings] or [bindings["T"]]
    context = ActionContext(results=[], times=times, granularity=blueprint.level, answer_type=blueprint.answer_type, actions=[])  # type: ignore[arg-type]
    for step in program.steps:
        action = bound_step(step, bindings)
        if step.template in ("getFirst", "getLast") and len({i.start for i in context.result(action.source)}) < 2:  # type: ignore[union-attr]
            return None
        if step.template in ("getMost", "getLeast") and step.args[1:] == ("year",) and len({i.start.year for i in context.result(action.source) if i.start}) < 2:  # type: ignore[union-attr]
            return None  # a ranking of the years of an event in one year only
        items = action.execute(store, context)
        if not items:
            return None
        context = context.with_result(items, action)
    return context.results[-1]


def _wordings(store: TKGStore, blueprint: Blueprint, answers: list[str]) -> tuple[str, ...]:
    """The blueprint's wordings; those asking "which country" only when every answer is a country."""
    if blueprint.answer_type == "entity" and not all(a in country_names(store) for a in answers):
        plain = tuple(w for w in blueprint.wordings if "country" not in w and "countries" not in w)
        return plain or blueprint.wordings
    return blueprint.wordings


def _fact_words(store: TKGStore, fact: Fact, bindings: dict[str, object], level: Granularity, second: str) -> dict[str, str]:
    wording = _relation_wording(store, fact.relation)
    time = bindings["T"]
    assert isinstance(time, TimeSpan)
    on = f"on {_said(time)}" if level == Granularity.DAY else f"in {_said(time)}"
    return {
        "h": store.display(fact.head), "t": store.display(fact.tail), "x": store.display(second),
        "r": wording.base, "rp": wording.past, "T": _said(time), "onT": on, "OnT": on[0].upper() + on[1:],
        "same": _SAME[level], "T1": _said(bindings.get("T1")), "T2": _said(bindings.get("T2")),  # type: ignore[arg-type]
        "z": store.display(str(bindings["E3"])) if "E3" in bindings else "",
    }


_TIME_SAID = re.compile(r"\{(?:[Oo]nT|T\d?|same)\}")
_SAME = {Granularity.DAY: "on the same day as", Granularity.MONTH: "in the same month as", Granularity.YEAR: "in the same year as"}


def _relation_wording(store: TKGStore, relation: str) -> RelationWording:
    verbs = store.derived(("kg_verbs",), lambda: kg_verbs(store.relation_text(r) for r in store.relation_names()))
    return relation_wording(store.relation_text(relation), verbs)


def _gold(store: TKGStore, blueprint: Blueprint, items: list[Item], asked: set[str]) -> list[str]:
    if blueprint.answer_type in ("number", "yesno"):
        return [i.entity for i in items if i.entity is not None][:1]
    if blueprint.answer_type == "relation":
        return list(dict.fromkeys(store.relation_text(i.entity) for i in items if i.entity is not None))
    if blueprint.answer_type == "time":
        return list(dict.fromkeys(t for i in items if (t := format_item_time(i, blueprint.level)) is not None))
    answers = list(dict.fromkeys(store.display(i.entity) for i in items if i.entity is not None))
    # the agent never answers with the question's own entities when anything else answers
    # (agents.answers.ranked_answers); a question only they answer asks nothing
    return [a for a in answers if a not in asked]


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
    if not ranked_query(analysis).admits(question.program):
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

