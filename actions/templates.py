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
from functools import partial
from operator import attrgetter
from typing import ClassVar, Union

from actions import semantics
from actions.context import ActionContext
from actions.items import Item
from actions.programs import render_step
from tkg_store.memo import memoised
from tkg_store.store import Fact, TKGStore
from tkg_store.temporal import TimeSpan

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
    """The times (entity None) of the facts (head, relation, tail)."""

    head: str
    relation: str
    tail: str
    template: ClassVar[str] = "getTime"

    def render(self) -> str:
        return render_step(self.template, (self.head, self.relation, self.tail))

    def describe(self, store: TKGStore) -> str:
        return f"when did {store.display(self.head)} {store.relation_text(self.relation)} {store.display(self.tail)}"

    def abstract(self, roles: Mapping[str, str]) -> str:
        return render_step(self.template, (roles.get(self.head, "E?"), "R", roles.get(self.tail, "E?")))

    def execute(self, store: TKGStore, context: ActionContext) -> list[Item]:
        return _items(store.facts(head=self.head, relation=self.relation, tail=self.tail), "")


@dataclass(frozen=True, slots=True)
class GetBefore:
    """Items of step `source` that started before the reference (a question time or step k's earliest time)."""

    source: int
    reference: TimeSpan | int
    template: ClassVar[str] = "getBefore"

    def render(self) -> str:
        return render_step(self.template, (_step(self.source), _render_time(self.reference)))

    def describe(self, store: TKGStore) -> str:
        return f"results of step {self.source} before {_render_time(self.reference)}"

    def abstract(self, roles: Mapping[str, str]) -> str:
        return render_step(self.template, (_step(self.source), _abstract_time(self.reference)))

    def execute(self, store: TKGStore, context: ActionContext) -> list[Item]:
        reference = _reference(self.reference, context)
        return [] if reference is None else semantics.before(context.result(self.source), reference)


@dataclass(frozen=True, slots=True)
class GetAfter:
    """Items of step `source` that started after the reference."""

    source: int
    reference: TimeSpan | int
    template: ClassVar[str] = "getAfter"

    def render(self) -> str:
        return render_step(self.template, (_step(self.source), _render_time(self.reference)))

    def describe(self, store: TKGStore) -> str:
        return f"results of step {self.source} after {_render_time(self.reference)}"

    def abstract(self, roles: Mapping[str, str]) -> str:
        return render_step(self.template, (_step(self.source), _abstract_time(self.reference)))

    def execute(self, store: TKGStore, context: ActionContext) -> list[Item]:
        reference = _reference(self.reference, context)
        return [] if reference is None else semantics.after(context.result(self.source), reference)


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


@dataclass(frozen=True, slots=True)
class GetFirst:
    """Every item of step `source` tying at the earliest time."""

    source: int
    template: ClassVar[str] = "getFirst"

    def render(self) -> str:
        return render_step(self.template, (_step(self.source),))

    def describe(self, store: TKGStore) -> str:
        return f"the first, earliest of the results of step {self.source}"

    def abstract(self, roles: Mapping[str, str]) -> str:
        return self.render()

    def execute(self, store: TKGStore, context: ActionContext) -> list[Item]:
        return semantics.first(context.result(self.source))


@dataclass(frozen=True, slots=True)
class GetLast:
    """Every item of step `source` tying at the latest time."""

    source: int
    template: ClassVar[str] = "getLast"

    def render(self) -> str:
        return render_step(self.template, (_step(self.source),))

    def describe(self, store: TKGStore) -> str:
        return f"the last, latest of the results of step {self.source}"

    def abstract(self, roles: Mapping[str, str]) -> str:
        return self.render()

    def execute(self, store: TKGStore, context: ActionContext) -> list[Item]:
        return semantics.last(context.result(self.source))


@dataclass(frozen=True, slots=True)
class Answer:
    """Ends the episode with step `source`'s result (its texts: `semantics.answer_texts`)."""

    source: int
    template: ClassVar[str] = "answer"

    def render(self) -> str:
        return render_step(self.template, (_step(self.source),))

    def describe(self, store: TKGStore) -> str:
        return f"answer with the results of step {self.source}"

    def abstract(self, roles: Mapping[str, str]) -> str:
        return self.render()

    def execute(self, store: TKGStore, context: ActionContext) -> list[Item]:
        return semantics.dedupe(context.result(self.source))


Action = Union[GetHeadEntity, GetTailEntity, GetTime, GetBefore, GetAfter, GetBetween, GetFirst, GetLast, Answer]
ACTION_TYPES = (GetHeadEntity, GetTailEntity, GetTime, GetBefore, GetAfter, GetBetween, GetFirst, GetLast, Answer)  # for isinstance
Lookup = Union[GetHeadEntity, GetTailEntity, GetTime]  # the actions that read the KG through a relation
LOOKUP_TYPES = (GetHeadEntity, GetTailEntity, GetTime)  # for isinstance: exactly the `programs.LOOKUPS` templates
TEMPLATES: dict[str, type] = {
    cls.template: cls
    for cls in (GetHeadEntity, GetTailEntity, GetTime, GetBefore, GetAfter, GetBetween, GetFirst, GetLast, Answer)
}


def source_of(action: Action) -> int | None:
    """The step a list operation or answer reads (None for a KG lookup)."""
    return getattr(action, "source", None)
