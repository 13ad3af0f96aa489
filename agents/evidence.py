"""The facts behind an answer, one line a person reads: who did what to whom, on which day.

An answer is only as good as the facts that state it, so every answer shows them. A program's
items keep the entity and the interval of the fact they came from, and its lookup says the rest
(the relation and the entity looked up from), so the facts are rebuilt from the program itself,
without a second search: the items of the step the answer (or the count, or the existence test)
was computed from, for the answers given.
"""

from __future__ import annotations

from collections.abc import Sequence

from actions.items import Item
from actions.semantics import format_item_time
from actions.templates import GetAfter, GetBefore, GetHeadEntity, GetRelation, GetTailEntity, GetTime, reference_of, source_of
from tkg_store.store import TKGStore
from tkg_store.temporal import Granularity, when_text

MAX_LINES = 30  # a count over many days lists the first ones and says how many more


def supporting_facts(store: TKGStore, actions: Sequence, results: Sequence[list[Item]], answers: Sequence[str], value: bool) -> list[str]:
    """Lines for the facts behind `answers`: for a value (a count, yes / no, relations) every
    item the value was computed from, else the items whose entity or time is an answer."""
    if not actions or not results:
        return []
    source = _evidence_step(actions, value)
    if not 0 < source <= len(results):
        return []
    items, lookup = results[source - 1], _origin(actions, source)
    wanted = set(answers)
    lines: list[str] = []
    for item in items:
        line = _fact_line(store, lookup, item)
        if line is None or line in lines:
            continue
        if value or store.display(item.entity or "") in wanted or _time_text(item) in wanted or any(a in line for a in wanted):
            lines.append(line)
    if len(lines) > MAX_LINES:
        lines = lines[:MAX_LINES] + [f"... and {len(lines) - MAX_LINES} more"]
    return lines + _reference_lines(store, actions, results)


def _reference_lines(store: TKGStore, actions: Sequence, results: Sequence[list[Item]]) -> list[str]:
    """When the answer was placed before or after another event ("before Musharraf did"), when that
    event happened: the earliest fact of the referred step, the one the comparison used."""
    lines = []
    for action in actions:
        reference = reference_of(action)
        if isinstance(action, (GetBefore, GetAfter)) and isinstance(reference, int) and 0 < reference <= len(results):
            timed = [(i.start, i) for i in results[reference - 1] if i.start is not None]
            if timed:
                line = _fact_line(store, _origin(actions, reference), min(timed, key=lambda pair: pair[0])[1])
                if line is not None:
                    lines.append(f"referred event: {line}")
    return lines


def _evidence_step(actions: Sequence, value: bool) -> int:
    """The step whose items the answer came from: the answer's source, and for a value (count,
    exists, includes: whether one is among them) the source of that value's step."""
    step = len(actions)
    source = source_of(actions[-1]) or step
    if value and 0 < source <= len(actions):
        inner = source_of(actions[source - 1])
        if inner is not None and actions[source - 1].template in ("count", "exists", "includes"):
            return inner
    return source


def _origin(actions: Sequence, step: int) -> object:
    """The lookup whose facts step `step`'s items came from (list operations keep their items)."""
    while (source := source_of(actions[step - 1])) is not None and 0 < source < step:
        step = source
    return actions[step - 1]


def _time_text(item: Item) -> str:
    return (format_item_time(item, item.granularity or Granularity.DAY) or "") if item.start is not None else ""


def _fact_line(store: TKGStore, lookup: object, item: Item) -> str | None:
    when = when_text(item.start, item.end, item.granularity or Granularity.DAY)
    if isinstance(lookup, GetTailEntity) and item.entity is not None:
        return f"{store.display(lookup.head)} {store.relation_text(lookup.relation)} {store.display(item.entity)}{when}"
    if isinstance(lookup, GetHeadEntity) and item.entity is not None:
        return f"{store.display(item.entity)} {store.relation_text(lookup.relation)} {store.display(lookup.tail)}{when}"
    if isinstance(lookup, GetTime):
        return f"{store.display(lookup.head)} {store.relation_text(lookup.relation)} {store.display(lookup.tail)}{when}"
    if isinstance(lookup, GetRelation) and item.entity is not None:
        return f"{store.display(lookup.head)} and {store.display(lookup.tail)}: {store.relation_text(item.entity)}{when}"
    return None
