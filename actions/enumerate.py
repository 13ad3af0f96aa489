"""Candidate enumeration (ARI Algorithm 1): every action that applies now and returns something.

KG lookups come from the 1-hop subgraph of the current entities, one `store.neighbourhood` query
per (entity, time window); its fact counts tell exactly which (template, relation, time) triples
are non-empty, so no lookup is executed here. List operations and answers read earlier results
already in memory, so they are executed and the empty ones dropped. Every candidate returned is
non-empty when executed; `size` is its fact count (lookups) or its exact item count (list ops).

Time windows of a lookup: none, each question time, and a same-period join (`#k`) with every
earlier *time result* (a step whose items are all pure times, i.e. a getTime result).
"""

from __future__ import annotations

import weakref
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from actions.context import ActionContext
from actions.semantics import is_timed
from actions.templates import (
    Action,
    Answer,
    GetAfter,
    GetBefore,
    GetBetween,
    GetFirst,
    GetHeadEntity,
    GetLast,
    GetTailEntity,
    GetTime,
    TimeArg,
)
from tkg_store.store import Neighbour, TKGStore
from tkg_store.temporal import TimeSpan


@dataclass(frozen=True, slots=True)
class Candidate:
    """An applicable action and how many facts / items it returns (always > 0)."""

    action: Action
    size: int


_NEIGHBOURS: "weakref.WeakKeyDictionary[TKGStore, dict]" = weakref.WeakKeyDictionary()
_NEIGHBOUR_CACHE_SIZE = 256


def neighbours(store: TKGStore, entity: str, within: TimeSpan | None = None) -> list[Neighbour]:
    """`store.neighbourhood`, memoised per store: an agent asks for the same entity at every step."""
    cache = _NEIGHBOURS.setdefault(store, {})
    key = (entity, within)
    hit = cache.get(key)
    if hit is None:
        if len(cache) >= _NEIGHBOUR_CACHE_SIZE:
            cache.pop(next(iter(cache)))
        hit = cache[key] = store.neighbourhood(entity, within=within)
    return hit


def time_results(context: ActionContext, before_step: int) -> list[int]:
    """Earlier steps whose results are non-empty pure times (what a same-period join may use)."""
    steps = []
    for k in range(1, before_step):
        items = context.result(k)
        if items and all(i.entity is None for i in items) and any(is_timed(i) for i in items):
            steps.append(k)
    return steps


def enumerate_candidates(
    store: TKGStore,
    context: ActionContext,
    entities: Sequence[str],
    times: Sequence[TimeSpan] | None = None,
    step: int | None = None,
    lookups: bool = True,
) -> list[Candidate]:
    """Every non-empty candidate for step `step` (default: the next one), lookups first.

    `entities` are the current entities (KG names in role order); `times` the question's times
    (default: the context's). Unknown entity names are skipped, and so are actions the context
    records as already taken (repeating a step cannot add anything). `lookups=False` enumerates
    only list operations and answers (for a program search that has used up its lookups).
    """
    times = list(context.times if times is None else times)
    step = len(context.results) + 1 if step is None else step
    current = [e for e in dict.fromkeys(entities) if store.has_entity(e)]
    candidates: dict[Action, int] = {}
    windows: list[tuple[TimeArg, TimeSpan | None]] = [(None, None)]
    windows += [(t, t) for t in dict.fromkeys(times)]
    for k in time_results(context, step):
        period = context.join_period(k)
        if period is not None:
            windows.append((k, period))
    for entity in current if lookups else []:
        for arg, span in windows:
            _add_lookups(candidates, entity, arg, neighbours(store, entity, span))
        _add_times(candidates, entity, current, neighbours(store, entity))
    for action, size in _list_operations(context, times, step):
        candidates.setdefault(action, size)
    taken = set(context.actions[: step - 1])
    return [Candidate(a, size) for a, size in candidates.items() if size > 0 and a not in taken]


def _add_lookups(out: dict[Action, int], entity: str, time: TimeArg, edges: list[Neighbour]) -> None:
    sizes: dict[tuple[str, str], int] = defaultdict(int)
    for edge in edges:
        sizes[(edge.relation, edge.direction)] += edge.count
    for (relation, direction), size in sizes.items():
        if direction == "out":
            action: Action = GetTailEntity(entity, relation, time)
        else:
            action = GetHeadEntity(entity, relation, time)
        out.setdefault(action, size)


def _add_times(out: dict[Action, int], entity: str, current: list[str], edges: list[Neighbour]) -> None:
    """getTime per edge; with two or more current entities only edges between them."""
    restrict = set(current) if len(current) >= 2 else None
    for edge in edges:
        if restrict is not None and edge.neighbour not in restrict:
            continue
        if edge.direction == "out":
            action = GetTime(entity, edge.relation, edge.neighbour)
        else:
            action = GetTime(edge.neighbour, edge.relation, entity)
        out.setdefault(action, edge.count)


def list_operations(context: ActionContext, times: Sequence[TimeSpan], sources: Sequence[int]) -> list[Action]:
    """List operations and answers over the given source steps (not executed; may be empty).

    References of getBefore / getAfter: each question time and every other earlier step with a time.
    """
    earlier = [k for k in range(1, len(context.results) + 1) if context.result(k)]
    timed = [k for k in earlier if any(is_timed(i) for i in context.result(k))]
    ordered_times = sorted(dict.fromkeys(times))
    actions: list[Action] = []
    for k in sources:
        if not context.result(k):
            continue
        if k in timed:
            references: list[TimeSpan | int] = [*ordered_times, *(j for j in timed if j != k)]
            for reference in references:
                actions += [GetBefore(k, reference), GetAfter(k, reference)]
            for i, t1 in enumerate(ordered_times):
                for t2 in ordered_times[i + 1 :]:
                    actions.append(GetBetween(k, t1, t2))
            actions += [GetFirst(k), GetLast(k)]
        actions.append(Answer(k))
    return actions


def _list_operations(context: ActionContext, times: list[TimeSpan], step: int) -> list[tuple[Action, int]]:
    """List operations over every earlier result, executed (they read memory: cheap), with sizes."""
    sources = [k for k in range(1, min(step, len(context.results) + 1))]
    return [
        (action, len(action.execute(None, context)))  # type: ignore[arg-type]  # list operations never read the store
        for action in list_operations(context, times, sources)
    ]
