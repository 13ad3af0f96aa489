"""Neighbourhood linking: a name the linker left unlinked, read among the few entities the KG leaves it.

No rule of English derives "Thomas Cruise Mapother IV" from "Tom Cruise", but the KG narrows the
choice: the span is scored only against the neighbours of the question's linked entities through its
best-ranked relations (with none linked, the entities of those relations), by the words it shares
with each, a word weighing more the fewer KG names hold it. It is linked only where one candidate
shares a rare word, written alike, and stands clearly above the next; otherwise it stays unlinked (the judge abstains).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial

from rapidfuzz import fuzz

from agents.analysis.types import EntityMention, QuestionAnalysis
from tkg_store.memo import memoised
from tkg_store.store import TKGStore, normalize_name

RELATIONS = 2  # the best-ranked relations whose facts hold the candidates
RARE = 3  # a word of at most this many KG names tells one apart: sharing it is evidence
MARGIN = 2.0  # the best candidate scores at least this many times the next (or the next scores 0)
ALIKE = 85  # rapidfuzz ratio at which two words of five letters or more are one word spelt two ways
SCORE = 0.8  # the link's score: below an exact or alias match


def same_word(word: str, other: str) -> bool:
    """One word, or one spelt two ways: the same initial, a letter more or less, rapidfuzz ratio `ALIKE`
    ("Mohamed" / "Mohammed"; not "Hannes" in "Johannes", "Mother" in "Mapother")."""
    if word == other:
        return True
    return min(len(word), len(other)) >= 5 and word[0] == other[0] and abs(len(word) - len(other)) <= 1 and fuzz.ratio(word, other) >= ALIKE


def best_match(span: str, names: dict[str, str], frequency: Callable[[str], int]) -> tuple[str, str] | None:
    """(entity, the rarest word it shares) for the one of `names` (entity -> display) that `span` reads
    clearly as; None when none shares a rare word or two come close."""
    words = [w for w in normalize_name(span).split() if len(w) >= 3]
    scored = sorted(((*_shared(words, display, frequency), name) for name, display in names.items()), key=lambda s: (-s[0], s[2]))
    (best, rarest, name), next_best = scored[0] if scored else (0.0, "", ""), scored[1][0] if len(scored) > 1 else 0.0
    if not rarest or frequency(rarest) > RARE or best < MARGIN * next_best:
        return None
    return name, rarest


def _shared(words: list[str], display: str, frequency: Callable[[str], int]) -> tuple[float, str]:
    """The words of `display` that `words` hold, each weighing 1 / the KG names that hold it: (their
    weight, the rarest of those written exactly alike; "" for none)."""
    own = normalize_name(display).split()
    found = [min(alike, key=frequency) for w in words if (alike := [o for o in own if same_word(w, o)])]
    exact = [o for o in found if o in words]
    return sum(1 / max(1, frequency(o)) for o in found), min(exact, key=frequency, default="")


def neighbourhood_candidates(store: TKGStore, linked: Iterable[str], relations: list[str]) -> set[str]:
    """The entities linked to `linked` by `relations`; with none linked, every entity of those relations."""
    if linked := list(linked):
        return {n.neighbour for name in linked for n in store.neighbourhood(name) if n.relation in relations}
    return set().union(*(memoised(store, ("relation-entities", r), partial(_entities_of, store, r)) for r in relations))


def _entities_of(store: TKGStore, relation: str) -> frozenset[str]:
    return frozenset(name for fact in store.facts(relation=relation) for name in (fact.head, fact.tail))


def link_in_neighbourhood(store: TKGStore, analysis: QuestionAnalysis, frequency: Callable[[str], int]) -> list[EntityMention]:
    """The unlinked mentions of `analysis` read among its neighbourhood, given their candidate in place."""
    relations = [r for r, _ in analysis.relations[:RELATIONS]]
    pool = neighbourhood_candidates(store, (m.best for m in analysis.entities if m.best), relations)
    names = {name: store.display(name) for name in sorted(pool)}
    found = []
    for mention in analysis.unlinked:
        if (match := best_match(mention.text, names, frequency)) is not None:
            mention.candidates = [(match[0], SCORE)]
            mention.why = f"read among the KG neighbours through {', '.join(relations)}: shares '{match[1]}'"
            found.append(mention)
    return found
