"""When a name fits several entities, let the KG choose: the one that has facts with the question's
other entities.

"Kumar" is the surname of many people and "the Indian police" may be one of several sectors; a
question names them beside another entity ("... criticised by Kumar in 2012", "... visited India"),
and usually only one of the candidates has facts with that entity. That one goes first; ties keep the
linker's order (closest name, then most facts). The mention's `why` says what was chosen and why.
"""

from __future__ import annotations

from agents.analysis.types import EntityMention
from tkg_store.store import TKGStore

CLOSE = 0.05  # candidates scoring within this of the best are competing readings of the span
PARTNERS = 2  # best candidates of each other mention a candidate may have facts with


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
        partners = [n for k, other in enumerate(mentions) if k != index for n, _ in other.candidates[:PARTNERS]]
        partners = [p for p in partners if p not in dict(competing)]
        if not partners:
            continue
        linked = [n for n, _ in competing if any(store.relations_between(n, p) for p in partners)]
        if not linked or len(linked) == len(competing):
            continue
        rest = [(n, s) for n, s in mention.candidates if n not in linked]
        mention.candidates = [(n, best) for n in linked] + rest
        chosen, passed = linked[0], [n for n, _ in competing if n not in linked]
        with_whom = next(p for p in partners if store.relations_between(chosen, p))
        reason = f"{chosen} chosen over {', '.join(passed[:3])}: it has facts with {with_whom}"
        mention.why = f"{mention.why}; {reason}" if mention.why else reason
