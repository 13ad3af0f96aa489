"""The action templates: typed, frozen, each with its reference rendering and exact execution.

An argument that refers to an earlier step is an int k (1-based, rendered `#k`). A time argument
is a `TimeSpan` (a question time, rendered like `2005-11`), an int k (for getHeadEntity /
getTailEntity: a same-period join with step k's earliest time at the context's join granularity;
for getBefore / getAfter: step k's earliest time) or None (no constraint). The semantics of every
comparison live in `actions.semantics`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date
from functools import partial
from operator import attrgetter
from typing import ClassVar, Union

from actions import semantics
from actions.context import ActionContext
from actions.items import Item
from actions.programs import AbstractStep, render_step
from tkg_store.learned import countries, mirror_relations
from tkg_store.memo import memoised
from tkg_store.store import Fact, TKGStore
from tkg_store.temporal import Granularity, TimeSpan

TimeArg = Union[TimeSpan, int, None]


def _step(k: int) -> str:
    return f"#{k}"


def _render_time(value: TimeSpan | int) -> str:
    return _step(value) if isinstance(value, int) else str(value)


def _abstract_time(value: TimeSpan | int, name: str = "T") -> str:
    return _step(value) if isinstance(value, int) else name


def _describe_time(value: TimeArg) -> str:
    if value is None:
        return ""
    if isinstance(value, int):
        return f" in the same period as step {value}"
    return f" on {value}" if value.granularity.value == "day" else f" in {value}"


def _looked_up(store: TKGStore, key: tuple, read: Callable[[], list[Fact]], entity_of: str) -> list[Item]:
    """A lookup's items, memoised per store: the planner binds a lookup before the agent takes it,
    and questions about one entity repeat its lookups. A copy, so no caller changes the kept list."""
    return list(memoised(store, ("items", *key), lambda: _items(read(), entity_of)))


def _items(facts: list[Fact], entity_of: str) -> list[Item]:
    """Facts to items: the entity at `entity_of` ('head' | 'tail' | None) with the fact's interval."""
    if not entity_of:
        return semantics.dedupe(Item(None, f.start, f.end, f.granularity) for f in facts)
    return semantics.dedupe(map(Item._make, map(attrgetter(entity_of, "start", "end", "granularity"), facts)))


def _window(time: TimeArg, context: ActionContext) -> tuple[bool, TimeSpan | None]:
    """(usable, span) of a lookup's time argument; a join with a timeless step is unusable."""
    if time is None:
        return True, None
    if isinstance(time, int):
        period = context.join_period(time)
        return period is not None, period
    return True, time


def _reference(value: TimeSpan | int, context: ActionContext) -> TimeSpan | None:
    return context.reference(value) if isinstance(value, int) else value


@dataclass(frozen=True, slots=True)
class GetHeadEntity:
    """Heads of the facts (?, relation, tail) at the time constraint."""

    tail: str
    relation: str
    time: TimeArg = None
    template: ClassVar[str] = "getHeadEntity"

    def render(self) -> str:
        parts = [self.tail, self.relation] + ([_render_time(self.time)] if self.time is not None else [])
        return render_step(self.template, parts)

    def describe(self, store: TKGStore) -> str:
        return f"who {store.relation_text(self.relation)} {store.display(self.tail)}{_describe_time(self.time)}"

    def abstract(self, roles: Mapping[str, str]) -> str:
        parts = [roles.get(self.tail, "E?"), "R"] + ([_abstract_time(self.time)] if self.time is not None else [])
        return render_step(self.template, parts)

    def execute(self, store: TKGStore, context: ActionContext) -> list[Item]:
        usable, span = _window(self.time, context)
        if not usable:
            return []
        return _looked_up(store, ("head", self.relation, self.tail, span), partial(store.facts, None, self.relation, self.tail, span), "head")


@dataclass(frozen=True, slots=True)
class GetTailEntity:
    """Tails of the facts (head, relation, ?) at the time constraint."""

    head: str
    relation: str
    time: TimeArg = None
    template: ClassVar[str] = "getTailEntity"

    def render(self) -> str:
        parts = [self.head, self.relation] + ([_render_time(self.time)] if self.time is not None else [])
        return render_step(self.template, parts)

    def describe(self, store: TKGStore) -> str:
        return f"{store.display(self.head)} {store.relation_text(self.relation)} whom{_describe_time(self.time)}"

    def abstract(self, roles: Mapping[str, str]) -> str:
        parts = [roles.get(self.head, "E?"), "R"] + ([_abstract_time(self.time)] if self.time is not None else [])
        return render_step(self.template, parts)

    def execute(self, store: TKGStore, context: ActionContext) -> list[Item]:
        usable, span = _window(self.time, context)
        if not usable:
            return []
        return _looked_up(store, ("tail", self.head, self.relation, span), partial(store.facts, self.head, self.relation, None, span), "tail")


@dataclass(frozen=True, slots=True)
class GetTime:
    """The times (entity None) of the facts (head, relation, tail), at the time constraint.

    Without a time this is the six MultiTQ shapes' lookup, as it always was. Restricted to a time
    (the counting and yes/no shapes: "how many times did X visit Y in 2008") it sees each event
    from both sides: the facts (tail, mirror, head) of the relation's mirrors
    (`tkg_store.learned.mirror_relations`: Host_a_visit for Make_a_visit) count too, so a visit
    the KG recorded only as its hosting is still found."""

    head: str
    relation: str
    tail: str
    time: TimeArg = None
    template: ClassVar[str] = "getTime"

    def render(self) -> str:
        parts = [self.head, self.relation, self.tail] + ([_render_time(self.time)] if self.time is not None else [])
        return render_step(self.template, parts)

    def describe(self, store: TKGStore) -> str:
        return f"when did {store.display(self.head)} {store.relation_text(self.relation)} {store.display(self.tail)}{_describe_time(self.time)}"

    def abstract(self, roles: Mapping[str, str]) -> str:
        parts = [roles.get(self.head, "E?"), "R", roles.get(self.tail, "E?")]
        return render_step(self.template, parts + ([_abstract_time(self.time)] if self.time is not None else []))

    def execute(self, store: TKGStore, context: ActionContext) -> list[Item]:
        if self.time is None:
            return _items(store.facts(head=self.head, relation=self.relation, tail=self.tail), "")
        usable, span = _window(self.time, context)
        if not usable:
            return []
        read = partial(_both_sides, store, self.head, self.relation, self.tail, span)
        return _looked_up(store, ("time", self.head, self.relation, self.tail, span), read, "")


def _both_sides(store: TKGStore, head: str, relation: str, tail: str, span: TimeSpan | None) -> list[Fact]:
    """The facts (head, relation, tail) and (tail, mirror, head) for each mirror of the relation, in
    time order (the relation's own facts first on a day)."""
    facts = store.facts(head, relation, tail, span)
    for mirror in sorted(mirror_relations(store).get(relation, ())):
        facts += store.facts(tail, mirror, head, span)
    return sorted(facts, key=_time_order)


def _time_order(fact: Fact) -> tuple[date, date]:
    return (fact.start or date.min, fact.end or date.max)


@dataclass(frozen=True, slots=True)
class GetRelation:
    """What happened between two entities: one item per fact linking them in either direction
    (head -> tail and tail -> head), its entity the relation's KG name, its interval the fact's;
    in time order. The same relation on the same interval is one item, whichever way it ran."""

    head: str
    tail: str
    time: TimeArg = None
    template: ClassVar[str] = "getRelation"

    def render(self) -> str:
        parts = [self.head, self.tail] + ([_render_time(self.time)] if self.time is not None else [])
        return render_step(self.template, parts)

    def describe(self, store: TKGStore) -> str:
        return f"what happened between {store.display(self.head)} and {store.display(self.tail)}{_describe_time(self.time)}"

    def abstract(self, roles: Mapping[str, str]) -> str:
        parts = [roles.get(self.head, "E?"), roles.get(self.tail, "E?")]
        return render_step(self.template, parts + ([_abstract_time(self.time)] if self.time is not None else []))

    def execute(self, store: TKGStore, context: ActionContext) -> list[Item]:
        usable, span = _window(self.time, context)
        if not usable:
            return []
        read = partial(_between_entities, store, self.head, self.tail, span)
        return _looked_up(store, ("relation", self.head, self.tail, span), read, "relation")


def _between_entities(store: TKGStore, one: str, other: str, span: TimeSpan | None) -> list[Fact]:
    facts = store.facts(head=one, tail=other, within=span)
    if other != one:
        facts += store.facts(head=other, tail=one, within=span)
    return sorted(facts, key=_time_order)


class _BeforeOrAfter:
    """What getBefore and getAfter share: `getBefore(#2, 2005-11)`, `getAfter(#3, #1)` (abstract
    `getAfter(#3, T)`), read against a question time or step k's earliest time."""

    __slots__ = ()
    source: int
    reference: TimeSpan | int
    template: ClassVar[str]
    side: ClassVar[str]  # "before" | "after", as described

    def render(self) -> str:
        return render_step(self.template, (_step(self.source), _render_time(self.reference)))

    def describe(self, store: TKGStore) -> str:
        return f"results of step {self.source} {self.side} {_render_time(self.reference)}"

    def abstract(self, roles: Mapping[str, str]) -> str:
        return render_step(self.template, (_step(self.source), _abstract_time(self.reference)))

    def execute(self, store: TKGStore, context: ActionContext) -> list[Item]:
        reference = _reference(self.reference, context)
        return [] if reference is None else self.kept(context.result(self.source), reference)

    def kept(self, items: list[Item], reference: TimeSpan) -> list[Item]:
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class GetBefore(_BeforeOrAfter):
    """Items of step `source` that started before the reference (a question time or step k's earliest time)."""

    source: int
    reference: TimeSpan | int
    template: ClassVar[str] = "getBefore"
    side: ClassVar[str] = "before"

    def kept(self, items: list[Item], reference: TimeSpan) -> list[Item]:
        return semantics.before(items, reference)


@dataclass(frozen=True, slots=True)
class GetAfter(_BeforeOrAfter):
    """Items of step `source` that started after the reference."""

    source: int
    reference: TimeSpan | int
    template: ClassVar[str] = "getAfter"
    side: ClassVar[str] = "after"

    def kept(self, items: list[Item], reference: TimeSpan) -> list[Item]:
        return semantics.after(items, reference)


@dataclass(frozen=True, slots=True)
class GetDuring:
    """Items of step `source` that held while some item of step `reference` held (their intervals meet)."""

    source: int
    reference: int
    template: ClassVar[str] = "getDuring"

    def render(self) -> str:
        return render_step(self.template, (_step(self.source), _step(self.reference)))

    def describe(self, store: TKGStore) -> str:
        return f"results of step {self.source} while step {self.reference} held, during it"

    def abstract(self, roles: Mapping[str, str]) -> str:
        return self.render()

    def execute(self, store: TKGStore, context: ActionContext) -> list[Item]:
        return semantics.during(context.result(self.source), context.result(self.reference))


@dataclass(frozen=True, slots=True)
class GetBetween:
    """Items of step `source` inside [start, end], inclusive."""

    source: int
    start: TimeSpan
    end: TimeSpan
    template: ClassVar[str] = "getBetween"

    def render(self) -> str:
        return render_step(self.template, (_step(self.source), str(self.start), str(self.end)))

    def describe(self, store: TKGStore) -> str:
        return f"results of step {self.source} between {self.start} and {self.end}"

    def abstract(self, roles: Mapping[str, str]) -> str:
        return render_step(self.template, (_step(self.source), "T1", "T2"))

    def execute(self, store: TKGStore, context: ActionContext) -> list[Item]:
        return semantics.between(context.result(self.source), self.start, self.end)


class _OfOneStep:
    """`render` and `abstract` of an operation whose one argument is the step it reads: `getFirst(#3)`
    (the same in both forms)."""

    __slots__ = ()
    source: int
    template: ClassVar[str]

    def render(self) -> str:
        return render_step(self.template, (_step(self.source),))

    def abstract(self, roles: Mapping[str, str]) -> str:
        return self.render()


@dataclass(frozen=True, slots=True)
class GetFirst(_OfOneStep):
    """Every item of step `source` tying at the earliest time."""

    source: int
    template: ClassVar[str] = "getFirst"

    def describe(self, store: TKGStore) -> str:
        return f"the first, earliest of the results of step {self.source}"

    def execute(self, store: TKGStore, context: ActionContext) -> list[Item]:
        return semantics.first(context.result(self.source))


@dataclass(frozen=True, slots=True)
class GetLast(_OfOneStep):
    """Every item of step `source` tying at the latest time."""

    source: int
    template: ClassVar[str] = "getLast"

    def describe(self, store: TKGStore) -> str:
        return f"the last, latest of the results of step {self.source}"

    def execute(self, store: TKGStore, context: ActionContext) -> list[Item]:
        return semantics.last(context.result(self.source))


@dataclass(frozen=True, slots=True)
class GetNth:
    """Every item of step `source` on its n-th distinct day, from the start (getNth) or from the
    end (getNthLast: "the second to last"). The planner binds n to the ordinal the question states."""

    source: int
    n: int
    from_end: bool = False

    @property
    def template(self) -> str:
        return "getNthLast" if self.from_end else "getNth"

    def render(self) -> str:
        return render_step(self.template, (_step(self.source), str(self.n)))

    def describe(self, store: TKGStore) -> str:
        side = "latest" if self.from_end else "earliest"
        return f"the {_ordinal(self.n)} {side} of the results of step {self.source}, the {_ordinal(self.n)} time"

    def abstract(self, roles: Mapping[str, str]) -> str:
        return render_step(self.template, (_step(self.source), "N"))

    def execute(self, store: TKGStore, context: ActionContext) -> list[Item]:
        return semantics.nth(context.result(self.source), self.n, self.from_end)


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


class _Ranking:
    """`render` and `abstract` of a ranking: `getMost(#1)` ranks the entities of step 1, `getMost(#1, year)` its
    years (months), a literal as a count's unit is (the same in both forms)."""

    __slots__ = ()
    source: int
    period: str | None
    template: ClassVar[str]

    def __post_init__(self) -> None:
        if self.period not in (None, *PERIODS):
            raise ValueError(f"ranked period {self.period!r}: expected one of {', '.join(PERIODS)}")

    def render(self) -> str:
        return render_step(self.template, (_step(self.source), *((self.period,) if self.period else ())))

    def abstract(self, roles: Mapping[str, str]) -> str:
        return self.render()

    def _ranked(self, context: ActionContext, fewest: bool) -> list[Item]:
        items = context.result(self.source)
        if self.period is None:
            return semantics.least(items) if fewest else semantics.most(items)
        return semantics.most_periods(items, Granularity(self.period), fewest)


PERIODS = ("year", "month")  # what a ranking of periods ranks: "which year / month ... the most"


@dataclass(frozen=True, slots=True)
class GetMost(_Ranking):
    """The items of the entities (or the periods) of step `source` on the most distinct days (ties all kept)."""

    source: int
    period: str | None = None
    template: ClassVar[str] = "getMost"

    def describe(self, store: TKGStore) -> str:
        ranked = f"the {self.period}" if self.period else "the one"
        return f"{ranked} that appears most often, the most times, in the results of step {self.source}"

    def execute(self, store: TKGStore, context: ActionContext) -> list[Item]:
        return self._ranked(context, fewest=False)


@dataclass(frozen=True, slots=True)
class GetLeast(_Ranking):
    """The items of the entities (or the periods) of step `source` on the fewest distinct days (ties all kept)."""

    source: int
    period: str | None = None
    template: ClassVar[str] = "getLeast"

    def describe(self, store: TKGStore) -> str:
        ranked = f"the {self.period}" if self.period else "the one"
        return f"{ranked} that appears least often, the fewest times, in the results of step {self.source}"

    def execute(self, store: TKGStore, context: ActionContext) -> list[Item]:
        return self._ranked(context, fewest=True)


COUNT_UNITS = {"days": semantics.count_days, "entities": semantics.count_entities}


@dataclass(frozen=True, slots=True)
class Count:
    """How many distinct days (`unit` "days") or entities ("entities") step `source` holds: one
    value item whose entity is the count in decimal ("0" for an empty source)."""

    source: int
    unit: str
    template: ClassVar[str] = "count"

    def __post_init__(self) -> None:
        if self.unit not in COUNT_UNITS:
            raise ValueError(f"count unit {self.unit!r}: expected one of {', '.join(COUNT_UNITS)}")

    def render(self) -> str:
        return render_step(self.template, (_step(self.source), self.unit))

    def describe(self, store: TKGStore) -> str:
        what = "on how many days, how many times" if self.unit == "days" else "how many different ones"
        return f"{what} in the results of step {self.source}"

    def abstract(self, roles: Mapping[str, str]) -> str:
        return self.render()

    def execute(self, store: TKGStore, context: ActionContext) -> list[Item]:
        return semantics.value(str(COUNT_UNITS[self.unit](context.result(self.source))))


@dataclass(frozen=True, slots=True)
class Exists(_OfOneStep):
    """Whether step `source` found anything: one value item, "Yes" or "No"."""

    source: int
    template: ClassVar[str] = "exists"

    def describe(self, store: TKGStore) -> str:
        return f"whether step {self.source} found anything: yes or no, did it happen"

    def execute(self, store: TKGStore, context: ActionContext) -> list[Item]:
        return semantics.value("Yes" if context.result(self.source) else "No")


ENTITY_KINDS: dict[str, Callable[[TKGStore], frozenset[str]]] = {"country": countries}
"""What `ofType` may keep: a kind's entities, learned from the store (`tkg_store.learned`)."""


@dataclass(frozen=True, slots=True)
class OfType:
    """The items of step `source` whose entity is of `kind` ("country": a country of the KG, never
    a sector of one). Reads the store (which entities are of the kind)."""

    source: int
    kind: str
    template: ClassVar[str] = "ofType"

    def __post_init__(self) -> None:
        if self.kind not in ENTITY_KINDS:
            raise ValueError(f"entity kind {self.kind!r}: expected one of {', '.join(ENTITY_KINDS)}")

    def render(self) -> str:
        return render_step(self.template, (_step(self.source), self.kind))

    def describe(self, store: TKGStore) -> str:
        return f"the {self.kind} among the results of step {self.source}: which {self.kind}"

    def abstract(self, roles: Mapping[str, str]) -> str:
        return self.render()

    def execute(self, store: TKGStore, context: ActionContext) -> list[Item]:
        return semantics.keep_entities(context.result(self.source), ENTITY_KINDS[self.kind](store))


@dataclass(frozen=True, slots=True)
class Exclude:
    """The items of step `source` whose entity is not `entity` ("apart from X")."""

    source: int
    entity: str
    template: ClassVar[str] = "exclude"

    def render(self) -> str:
        return render_step(self.template, (_step(self.source), self.entity))

    def describe(self, store: TKGStore) -> str:
        return f"the results of step {self.source} other than {store.display(self.entity)}, apart from them"

    def abstract(self, roles: Mapping[str, str]) -> str:
        return render_step(self.template, (_step(self.source), roles.get(self.entity, "E?")))

    def execute(self, store: TKGStore, context: ActionContext) -> list[Item]:
        return semantics.exclude(context.result(self.source), self.entity)


@dataclass(frozen=True, slots=True)
class Includes(Exclude):
    """Whether `entity` is among the items of step `source`: one value item, "Yes" or "No" ("Was X
    the first to ...?": X among the first)."""

    template: ClassVar[str] = "includes"

    def describe(self, store: TKGStore) -> str:
        return f"whether {store.display(self.entity)} is among the results of step {self.source}: yes or no, is it one of them"

    def execute(self, store: TKGStore, context: ActionContext) -> list[Item]:
        return semantics.value("Yes" if any(i.entity == self.entity for i in context.result(self.source)) else "No")


@dataclass(frozen=True, slots=True)
class Answer(_OfOneStep):
    """Ends the episode with step `source`'s result (its texts: `semantics.answer_texts`)."""

    source: int
    template: ClassVar[str] = "answer"

    def describe(self, store: TKGStore) -> str:
        return f"answer with the results of step {self.source}"

    def execute(self, store: TKGStore, context: ActionContext) -> list[Item]:
        return semantics.dedupe(context.result(self.source))


Action = Union[
    GetHeadEntity, GetTailEntity, GetTime, GetRelation, GetBefore, GetAfter, GetDuring, GetBetween, GetFirst, GetLast,
    GetNth, GetMost, GetLeast, Count, Exists, OfType, Exclude, Includes, Answer,
]
ACTION_TYPES = (
    GetHeadEntity, GetTailEntity, GetTime, GetRelation, GetBefore, GetAfter, GetDuring, GetBetween, GetFirst, GetLast,
    GetNth, GetMost, GetLeast, Count, Exists, OfType, Exclude, Includes, Answer,
)  # for isinstance
Lookup = Union[GetHeadEntity, GetTailEntity, GetTime]  # the actions that read the KG through a relation
LOOKUP_TYPES = (GetHeadEntity, GetTailEntity, GetTime)  # for isinstance (getRelation reads the KG too, through no relation)
_NAMED_ONCE = (
    GetHeadEntity, GetTailEntity, GetTime, GetRelation, GetBefore, GetAfter, GetDuring, GetBetween, GetFirst, GetLast,
    GetMost, GetLeast, Count, Exists, OfType, Exclude, Includes, Answer,
)  # every template class but GetNth, whose name says which end it counts from
TEMPLATES: dict[str, type] = {**{cls.template: cls for cls in _NAMED_ONCE}, "getNth": GetNth, "getNthLast": GetNth}


def bound_step(step: AbstractStep, bindings: Mapping[str, object]) -> Action:
    """The action an abstract step names with its roles bound (E1, R, T, T1, N ... to KG names,
    times and numbers; `#k` to step k): how a program made from the KG's own facts is run."""
    args: list = [int(a[1:]) if a.startswith("#") and a[1:].isdigit() else bindings.get(a, a) for a in step.args]
    if step.template in ("getNth", "getNthLast"):
        return GetNth(args[0], int(args[1]), step.template == "getNthLast")
    return TEMPLATES[step.template](*args)


_READS_STEP = (
    GetBefore, GetAfter, GetDuring, GetBetween, GetFirst, GetLast, GetNth, GetMost, GetLeast, Count, Exists, OfType, Exclude, Includes, Answer,
)  # the list operations and the answer: each reads an earlier step's result
_READS_KG = (GetHeadEntity, GetTailEntity, GetTime, GetRelation)  # the actions that read facts, with or without a relation


def source_of(action: Action) -> int | None:
    """The step a list operation or answer reads (None for a KG lookup)."""
    return action.source if isinstance(action, _READS_STEP) else None


def relation_of(action: Action) -> str | None:
    """The relation a KG lookup reads (None for getRelation, which finds relations, and list operations)."""
    return action.relation if isinstance(action, LOOKUP_TYPES) else None


def time_of(action: Action) -> TimeArg:
    """The time a KG read is bounded by: a time span, a step whose times it joins, or None."""
    return action.time if isinstance(action, _READS_KG) else None


def reference_of(action: Action) -> TimeSpan | int | None:
    """What a before / after / during operation compares with: a time, or a step's times."""
    return action.reference if isinstance(action, (GetBefore, GetAfter, GetDuring)) else None


def entities_of(action: Action) -> list[str]:
    """The KG names a KG read starts from, head first."""
    if isinstance(action, GetHeadEntity):
        return [action.tail]
    if isinstance(action, GetTailEntity):
        return [action.head]
    if isinstance(action, (GetTime, GetRelation)):
        return [action.head, action.tail]
    return []
