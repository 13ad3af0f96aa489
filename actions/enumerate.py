"""Candidate enumeration (ARI Algorithm 1): every action that applies now and returns something.

KG lookups come from the 1-hop subgraph of the current entities, one `store.neighbourhood` query
per (entity, time window); its fact counts tell exactly which (template, relation, time) triples
are non-empty, so no lookup is executed here. List operations and answers read earlier results
already in memory, so they are executed and the empty ones dropped. Every candidate returned is
non-empty when executed; `size` is its fact count (lookups) or its exact item count (list ops).

Time windows of a lookup: none, each question time, and a same-period join (`#k`) with every
earlier *time result* (a step whose items are all pure times, i.e. a getTime result). getTime is
offered at no time and at each question time; getRelation between each pair of current entities,
at no time and at each question time.

The operations of the counting and listing shapes (issue 23: getNth / getNthLast with n up to
`MAX_NTH`, getMost, getLeast, count, exists, ofType, exclude, includes, getRelation and a dated getTime) come
with `extended=True` (the default); `extended=False` offers exactly the six MultiTQ shapes' actions
(the program search learns with those alone).

A hub entity offers thousands of lookups at every step, so lookups are kept as `LookupBlock`s:
the lookups of one entity, template and time argument, built once per store and reused across
steps and questions (a bounded cache). The filter scores a block with array arithmetic and the
planner matches an abstract step against a block at once; only the few candidates that are
offered or chosen become Python objects in the agent's hot path.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import partial

from actions.context import ActionContext
from actions.programs import AbstractStep
from actions.semantics import is_timed
from actions.templates import (
    ENTITY_KINDS,
    PERIODS,
    Action,
    Answer,
    Count,
    Exclude,
    Exists,
    GetAfter,
    GetBefore,
    GetBetween,
    GetDuring,
    GetFirst,
    GetHeadEntity,
    GetLast,
    GetLeast,
    GetMost,
    GetNth,
    GetRelation,
    GetTailEntity,
    GetTime,
    Includes,
    OfType,
    TimeArg,
)
from tkg_store.learned import mirror_relations
from tkg_store.memo import memoised
from tkg_store.store import Neighbour, TKGStore
from tkg_store.temporal import TimeSpan


@dataclass(frozen=True, slots=True)
class Candidate:
    """An applicable action and how many facts / items it returns (always > 0); once filtered, its
    similarity score, and whether it is the plan's next action (the matched methodology's step,
    bound to the question). Hubs offer thousands a step, so the rendering is made only when asked."""

    action: Action
    size: int
    score: float = 0.0
    suggested: bool = False

    @property
    def rendering(self) -> str:
        return self.action.render()


class LookupBlock:
    """Lookups sharing a template, an anchor entity and a time argument, held as columns.

    `relations[i]` is action i's relation; for getTime blocks `others[i]` is its other entity
    (head or tail). Blocks are immutable once built and shared between pools.
    """

    __slots__ = ("template", "entity", "time", "candidates", "relations", "others", "_positions", "_by_other", "__weakref__")

    def __init__(self, template: str, entity: str, time: TimeArg, candidates: list[Candidate], others: list[str]) -> None:
        self.template = template
        self.entity = entity
        self.time = time
        self.candidates = tuple(candidates)
        self.relations = tuple(c.action.relation for c in candidates)  # type: ignore[union-attr]
        self.others = tuple(others)
        self._positions: dict[Action, int] | None = None
        self._by_other: dict[str, list[int]] | None = None

    def __len__(self) -> int:
        return len(self.candidates)

    def position(self, action: Action) -> int | None:
        if self._positions is None:
            self._positions = {c.action: i for i, c in enumerate(self.candidates)}
        return self._positions.get(action)

    def matching(self, step: AbstractStep, roles: Mapping[str, str]) -> list[int]:
        """Positions of the actions whose abstract form (`Action.abstract(roles)`) is `step`."""
        if not self.candidates or step.template != self.template:
            return []
        text = step.render()
        if self.template != "getTime":  # one anchor and one time argument: one abstract form
            return list(range(len(self))) if self.candidates[0].action.abstract(roles) == text else []
        if "E?" in step.args:  # an unnamed other entity: any neighbour may play it
            positions: Sequence[int] = range(len(self))
        else:
            if self._by_other is None:
                self._by_other = {}
                for i, other in enumerate(self.others):
                    self._by_other.setdefault(other, []).append(i)
            positions = sorted(i for name in roles if name in self._by_other for i in self._by_other[name])
        return [i for i in positions if self.candidates[i].action.abstract(roles) == text]


class CandidatePool(Sequence[Candidate]):
    """One step's candidates: lookup blocks (minus the actions already taken), then list
    operations and answers. A read-only sequence of `Candidate`s in that order."""

    def __init__(self, blocks: Sequence[LookupBlock] = (), extras: Sequence[Candidate] = (), taken: frozenset = frozenset()) -> None:
        self.blocks = tuple(b for b in blocks if len(b))
        self.extras = tuple(extras)
        self.excluded: dict[int, frozenset[int]] = {}  # block index -> positions of taken lookups
        for index, block in enumerate(self.blocks):
            positions = frozenset(p for a in taken if (p := block.position(a)) is not None)
            if positions:
                self.excluded[index] = positions
        self._flat: list[Candidate] | None = None
        # the pool never changes once built, and scoring asks its length per block and candidate
        self._len = sum(len(b) - len(self.excluded.get(i, ())) for i, b in enumerate(self.blocks)) + len(self.extras)

    @classmethod
    def of(cls, candidates: Sequence[Candidate]) -> "CandidatePool":
        """A pool of arbitrary candidates (no blocks): how a plain list is scored."""
        return candidates if isinstance(candidates, CandidatePool) else cls(extras=candidates)

    def _all(self) -> list[Candidate]:
        if self._flat is None:
            flat: list[Candidate] = []
            for index, block in enumerate(self.blocks):
                skip = self.excluded.get(index)
                if skip:
                    flat += [c for i, c in enumerate(block.candidates) if i not in skip]
                else:
                    flat += block.candidates
            self._flat = flat + list(self.extras)
        return self._flat

    def __len__(self) -> int:
        return self._len

    def __getitem__(self, index):  # type: ignore[override]
        return self._all()[index]

    def __iter__(self) -> Iterator[Candidate]:
        return iter(self._all())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (list, tuple, CandidatePool)):
            return list(self) == list(other)
        return NotImplemented

    def candidate_of(self, action: Action) -> Candidate | None:
        """The pool's candidate for `action` (None: not offered at this step), found through its block
        without laying the whole pool out (a hub's pool holds thousands)."""
        for index, block in enumerate(self.blocks):
            position = block.position(action)
            if position is not None and position not in self.excluded.get(index, ()):
                return block.candidates[position]
        return next((c for c in self.extras if c.action == action), None)

    def matching(self, step: AbstractStep, roles: Mapping[str, str]) -> Iterator[Candidate]:
        """The candidates whose abstract form is `step` (e.g. getTime(E1, R, E2))."""
        for index, block in enumerate(self.blocks):
            skip = self.excluded.get(index, frozenset())
            for position in block.matching(step, roles):
                if position not in skip:
                    yield block.candidates[position]
        for candidate in self.extras:
            if candidate.action.abstract(roles) == step.render():
                yield candidate


def neighbours(store: TKGStore, entity: str, within: TimeSpan | None = None) -> list[Neighbour]:
    """`store.neighbourhood`, memoised per store."""
    return memoised(store, ("neighbours", entity, within), lambda: store.neighbourhood(entity, within=within))


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
    operations: bool = True,
    sizes: dict[Action, int] | None = None,
    extended: bool = True,
) -> CandidatePool:
    """Every non-empty candidate for step `step` (default: the next one), lookups first.

    `entities` are the current entities (KG names in role order); `times` the question's times
    (default: the context's). Unknown entity names are skipped, and so are actions the context
    records as already taken (repeating a step cannot add anything). `lookups=False` enumerates
    only list operations and answers (for a program search that has used up its lookups),
    `operations=False` only lookups. `sizes`, kept by the caller across one question's steps,
    remembers each list operation's size: earlier results never change, and every step would
    otherwise run again the operations over all of them. `extended=False` leaves out the
    operations of the counting and listing shapes (module docstring).
    """
    times = list(context.times if times is None else times)
    step = len(context.results) + 1 if step is None else step
    current = tuple(e for e in dict.fromkeys(entities) if store.has_entity(e))
    windows: list[tuple[TimeArg, TimeSpan | None]] = [(None, None)]
    windows += [(t, t) for t in dict.fromkeys(times)]
    for k in time_results(context, step):
        period = context.join_period(k)
        if period is not None:
            windows.append((k, period))
    blocks: list[LookupBlock] = []
    for position, entity in enumerate(current if lookups else ()):
        for arg, span in windows:
            blocks += memoised(store, ("lookups", entity, arg, span), partial(_lookup_blocks, store, entity, arg, span))
        # with two or more current entities, getTime only between them, each pair once
        # (edges to entities listed earlier belong to their block)
        restrict = frozenset(current[position:]) if len(current) >= 2 else None
        blocks.append(memoised(store, ("times", entity, restrict), partial(_time_block, store, entity, restrict)))
        for time in dict.fromkeys(times) if extended else ():
            key = ("times", entity, restrict, time)
            blocks.append(memoised(store, key, partial(_time_block, store, entity, restrict, time)))
    taken = frozenset(context.actions[: step - 1])
    extras = _relation_lookups(store, current, times) if lookups and extended else []
    if operations:
        extras += [Candidate(a, n) for a, n in _list_operations(store, context, times, step, current, sizes, extended) if n > 0]
    return CandidatePool(blocks, [c for c in extras if c.action not in taken], taken)


def _lookup_blocks(store: TKGStore, entity: str, time: TimeArg, span: TimeSpan | None) -> tuple[LookupBlock, LookupBlock]:
    """getHeadEntity and getTailEntity lookups of `entity` per relation, sized by fact count."""
    sizes: dict[tuple[str, str], int] = {}
    for edge in neighbours(store, entity, span):
        key = (edge.relation, edge.direction)
        sizes[key] = sizes.get(key, 0) + edge.count
    heads = [Candidate(GetHeadEntity(entity, r, time), n) for (r, d), n in sizes.items() if d == "in"]
    tails = [Candidate(GetTailEntity(entity, r, time), n) for (r, d), n in sizes.items() if d == "out"]
    return LookupBlock("getHeadEntity", entity, time, heads, []), LookupBlock("getTailEntity", entity, time, tails, [])


def _time_block(store: TKGStore, entity: str, restrict: frozenset[str] | None, time: TimeSpan | None = None) -> LookupBlock:
    """getTime per edge of `entity` (only to the `restrict` entities when given), at `time`.

    A dated getTime also reads the facts of its relation's mirrors, the other way round, so an
    edge also offers the mirror relation's getTime (the same events) even where the KG recorded
    them on this side only."""
    found: dict[Action, tuple[int, str]] = {}
    mirrors = mirror_relations(store) if time is not None else {}
    for edge in neighbours(store, entity, time):
        if restrict is not None and edge.neighbour not in restrict:
            continue
        head, tail = (entity, edge.neighbour) if edge.direction == "out" else (edge.neighbour, entity)
        found.setdefault(GetTime(head, edge.relation, tail, time), (edge.count, edge.neighbour))
        for mirror in sorted(mirrors.get(edge.relation, ())):
            found.setdefault(GetTime(tail, mirror, head, time), (edge.count, edge.neighbour))
    return LookupBlock(
        "getTime", entity, time, [Candidate(a, n) for a, (n, _) in found.items()], [o for _, o in found.values()]
    )


def _relation_lookups(store: TKGStore, current: Sequence[str], times: Sequence[TimeSpan]) -> list[Candidate]:
    """getRelation between each pair of current entities (in role order), at no time and at each
    question time, sized by the facts linking them."""
    found = []
    for position, one in enumerate(current):
        for time in [None, *dict.fromkeys(times)]:
            linked = memoised(store, ("linked", one, time), partial(_facts_per_neighbour, store, one, time))
            found += [Candidate(GetRelation(one, other, time), linked[other]) for other in current[position + 1 :] if other in linked]
    return found


def _facts_per_neighbour(store: TKGStore, entity: str, within: TimeSpan | None) -> dict[str, int]:
    counts: dict[str, int] = {}
    for edge in neighbours(store, entity, within):
        counts[edge.neighbour] = counts.get(edge.neighbour, 0) + edge.count
    return counts


MAX_NTH = 10  # getNth / getNthLast are offered up to the tenth day from either end, as far as the typed query reads ordinals


def list_operations(
    context: ActionContext,
    times: Sequence[TimeSpan],
    sources: Sequence[int],
    entities: Sequence[str] = (),
    extended: bool = True,
) -> list[Action]:
    """List operations and answers over the given source steps (not executed; may be empty).

    References of getBefore / getAfter: each question time and every other earlier step with a time.
    With `extended`, each source's answer is followed by the operations of the counting and listing
    shapes (`_counting_operations`); `exclude` and `includes` take each of `entities` (the current entities).
    """
    earlier = [k for k in range(1, len(context.results) + 1) if context.result(k)]
    timed = [k for k in earlier if context.timed(k)]
    lasting = [j for j in timed if context.lasting(j)]
    ordered_times = sorted(dict.fromkeys(times))
    actions: list[Action] = []
    for k in sources:
        if not context.result(k):
            continue
        if k in timed:
            references: list[TimeSpan | int] = [*ordered_times, *(j for j in timed if j != k)]
            for reference in references:
                actions += [GetBefore(k, reference), GetAfter(k, reference)]
            # "while X held it": offered where the reference holds over an interval (on day points
            # a same-period join says it)
            actions += [GetDuring(k, j) for j in lasting if j != k]
            for i, t1 in enumerate(ordered_times):
                for t2 in ordered_times[i + 1 :]:
                    actions.append(GetBetween(k, t1, t2))
            actions += [GetFirst(k), GetLast(k)]
        actions.append(Answer(k))
        if extended:
            actions += _counting_operations(context, k, k in timed, entities)
    return actions


def _counting_operations(context: ActionContext, k: int, timed: bool, entities: Sequence[str]) -> list[Action]:
    """The operations of the counting and listing shapes over step k's non-empty result; none over
    a count or a yes / no (a value has nothing left to count)."""
    if isinstance(context.action(k), (Count, Exists, Includes)):
        return []
    named = any(i.entity is not None for i in context.result(k))
    actions: list[Action] = []
    if timed:
        actions += [GetNth(k, n, from_end) for from_end in (False, True) for n in range(1, MAX_NTH + 1)]
        actions.append(Count(k, "days"))
        actions += [rank(k, period) for rank in (GetMost, GetLeast) for period in PERIODS]  # "which year ... the most"
    if timed and named:
        actions += [GetMost(k), GetLeast(k)]
    if named:
        actions.append(Count(k, "entities"))
        actions += [OfType(k, kind) for kind in ENTITY_KINDS]
        actions += [kind(k, entity) for kind in (Exclude, Includes) for entity in dict.fromkeys(entities)]
    actions.append(Exists(k))
    return actions


def _list_operations(
    store: TKGStore,
    context: ActionContext,
    times: list[TimeSpan],
    step: int,
    entities: Sequence[str],
    sizes: dict[Action, int] | None = None,
    extended: bool = True,
) -> list[tuple[Action, int]]:
    """List operations over every earlier result, executed (they read memory, and ofType the
    store's learned kinds: cheap), with sizes."""
    sources = [k for k in range(1, min(step, len(context.results) + 1))]
    sizes = {} if sizes is None else sizes
    found = []
    for action in list_operations(context, times, sources, entities, extended):
        size = sizes.get(action)
        if size is None:
            size = sizes[action] = len(action.execute(store, context))
        found.append((action, size))
    return found
