"""When a name or a date fits several readings, let the KG choose: the reading with facts.

"Kumar" names many people; usually only one candidate has facts with the question's other entity:
that one goes first (ties keep the linker's order). "3/7/2009" is the day the entities have facts on.
When the other entities do not tell namesakes apart, `unresolved_namesakes` lists them for the judge.
"""

from __future__ import annotations

from dataclasses import replace

from agents.analysis.types import EntityMention, TimeMention
from tkg_store.store import TKGStore, namesake_base, normalize_name
from tkg_store.temporal import TimeSpan

CLOSE = 0.05  # candidates scoring within this of the best are competing readings of the span
PLAUSIBLE = 3  # a reading of a name written in part with this many times the KG links (relation, neighbour) of the next is the only plausible one
PARTNERS = 2  # best candidates of each other mention a candidate may have facts with


def unresolved_namesakes(index: int, mentions: list[EntityMention], store: TKGStore) -> list[str]:
    """The entities mention `index` may name when the other mentions do not tell them apart: namesakes,
    or names that hold the words written ("Abbas"; not a country's sector for the country), unless one
    has `PLAUSIBLE` times the links of each other; [] when it names one."""
    mention = mentions[index]
    if len(mention.candidates) < 2:
        return []
    best = mention.candidates[0][1]
    competing = [n for n, s in mention.candidates if s >= best - CLOSE]
    bases = {namesake_base(store.display(n)) for n in competing}
    written = set(normalize_name(mention.text).split()) - {"the", "a", "an"}
    partial = all(written < set(normalize_name(store.display(n).split(" (")[0]).split()) for n in competing)
    if len(competing) < 2 or not partial and (len(bases) != 1 or None in bases):
        return []
    partners = [n for k, other in enumerate(mentions) if k != index for n, _ in other.candidates[:PARTNERS]]
    linked = [n for n in competing if any(store.relations_between(n, p) for p in partners if p not in competing)]
    facts = sorted((len(store.neighbourhood(n)) for n in linked or competing), reverse=True)
    return [] if len(linked) == 1 or partial and facts[0] >= PLAUSIBLE * facts[1] else competing


def resolve_by_facts(mentions: list[EntityMention], store: TKGStore) -> None:
    """Reorder, in place, each ambiguous mention's candidates: those with facts linking them to another
    mention's best candidates first (given the best score among them)."""
    for index, mention in enumerate(mentions):
        if len(mention.candidates) < 2:
            continue
        best = mention.candidates[0][1]
        competing = [(n, s) for n, s in mention.candidates if s >= best - CLOSE]
        if len(competing) < 2:
            continue
        partners = [n for k, other in enumerate(mentions) if k != index for n, _ in other.candidates[:PARTNERS] if n not in dict(competing)]
        if not partners:
            continue
        linked = [n for n, _ in competing if any(store.relations_between(n, p) for p in partners)]
        if not linked or len(linked) == len(competing):
            continue
        mention.candidates = [(n, best) for n in linked] + [(n, s) for n, s in mention.candidates if n not in linked]
        chosen, passed = linked[0], [n for n, _ in competing if n not in linked]
        with_whom = next(p for p in partners if store.relations_between(chosen, p))
        reason = f"{chosen} chosen over {', '.join(passed[:3])}: it has facts with {with_whom}"
        mention.why = f"{mention.why}; {reason}" if mention.why else reason


def resolve_dates_by_facts(times: list[TimeMention], mentions: list[EntityMention], store: TKGStore) -> list[TimeMention]:
    """An all-number date with two readings ("3/7/2009") read the other way when the question's
    entities have facts on that day and none on the first reading's: the KG says which was meant."""
    names = [m.best for m in mentions if m.best is not None]

    def has_facts(day: TimeSpan) -> bool:
        return any(store.neighbourhood(name, within=day) for name in names)

    return [
        replace(t, time=t.other_reading, other_reading=t.time)
        if t.other_reading is not None and not has_facts(t.time) and has_facts(t.other_reading) else t
        for t in times
    ]
