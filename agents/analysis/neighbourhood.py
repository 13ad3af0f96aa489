"""Neighbourhood linking: a name left unlinked, or linked weakly or outside the question's relation and with no fact
with its other entities, read among the few entities the KG leaves it: the neighbours of the question's other entities
through its best-ranked relations (with none linked, those relations' entities). No rule of English derives "Thomas
Cruise Mapother IV" from "Tom Cruise"; a rare word they share, clearly more than any other neighbour shares, does, and
"City" is a player's one club with that word. Otherwise the span stays as it was and the judge abstains."""

from __future__ import annotations

from collections.abc import Callable

from rapidfuzz import fuzz

from agents.analysis.aliases import NAME_WORD_TABLES
from agents.analysis.types import EntityMention
from tkg_store.store import TKGStore, normalize_name

RELATIONS = 2  # the best-ranked relations whose facts hold the candidates
RARE = 10  # a word of at most this many KG names tells one apart: sharing it is evidence
MARGIN = 2.0  # the best candidate scores at least this many times the next (or the next scores 0)
ALIKE = 85  # rapidfuzz ratio at which two words of five letters or more are one word spelt two ways
SCORE = 0.8  # the link's score: below an exact or alias match


def spelt_alike(word: str, other: str) -> bool:
    """One word of a name, or one spelt two ways (a spelling, not an inflection: `agents.analysis.cues.same_word`): the
    same initial, a letter more or less, rapidfuzz ratio `ALIKE` ("Mohamed" / "Mohammed"; not "Hannes" in
    "Johannes", "Mother" in "Mapother")."""
    close = min(len(word), len(other)) >= 5 and word[0] == other[0] and abs(len(word) - len(other)) <= 1
    return word == other or close and fuzz.ratio(word, other) >= ALIKE


def best_match(span: str, names: dict[str, str], frequency: Callable[[str], int]) -> tuple[str, str] | None:
    """(entity, the rarest word it shares) for the one of `names` (entity -> display) that `span` reads
    clearly as; None when none shares a rare word, two come close, or a rarer KG word of the span is not in the
    name ("Lord High Chancellor of Great Britain" is no "The Great Pumpkin")."""
    words = [w for w in normalize_name(span).split() if len(w) >= 3 and w not in NAME_WORD_TABLES["formal_honorifics"]]
    scored = sorted(((*_shared(words, display, frequency), name) for name, display in names.items()), key=lambda s: (-s[0], s[2]))
    (best, rarest, name), next_best = scored[0] if scored else (0.0, "", ""), scored[1][0] if len(scored) > 1 else 0.0
    own = normalize_name(names.get(name, "")).split()
    rarer_left = any(0 < frequency(w) < frequency(rarest) and not any(spelt_alike(w, o) for o in own) for w in words)
    return (name, rarest) if rarest and frequency(rarest) <= RARE and best >= MARGIN * next_best and not rarer_left else None


def only_holder(span: str, names: dict[str, str]) -> tuple[str, str] | None:
    """(entity, the span) for the one of `names` (entity -> display) holding every word of `span` (spelt alike), else None."""
    words = [w for w in normalize_name(span).split() if len(w) >= 3]
    holders = [n for n, d in names.items() if words and all(any(spelt_alike(w, o) for o in normalize_name(d).split()) for w in words)]
    return (holders[0], span) if len(holders) == 1 else None


def _shared(words: list[str], display: str, frequency: Callable[[str], int]) -> tuple[float, str]:
    """(The weight of the words of `display` that `words` hold, each 1 / the KG names holding it, over its words;
    the rarest written alike that opens both names or neither, as a given name is no surname, or "")."""
    own = [w for w in normalize_name(display).split() if len(w) >= 3]
    found = [min(alike, key=frequency) for w in words if (alike := [o for o in own if spelt_alike(w, o)])]
    exact = [o for o in found if o in words and (o == words[0]) == (o == own[0])]
    return sum(1 / max(1, frequency(o)) for o in found) / max(1, len(own)), min(exact, key=frequency, default="")


def link_in_neighbourhood(store: TKGStore, mentions: list[EntityMention], ranked: list[tuple[str, float]], frequency: Callable[[str], int]) -> bool:
    """Read again, in place, each mention left unlinked, or linked weakly (under `SCORE`) or outside the best
    relation to entities none of which has a fact with the question's other entities, among their neighbours through
    the best `ranked` relations (`best_match`, or for the latter `only_holder`); whether any was read."""
    relations = [r for r, _ in ranked[:RELATIONS]]
    found = False
    for mention in mentions:
        others = [m.best for m in mentions if m.best is not None and m is not mention]
        weak = bool(mention.candidates) and mention.candidates[0][1] < SCORE
        factless = bool(others) and not any(store.relations_between(n, o) for n, _ in mention.candidates for o in others)
        roleless = factless and bool(mention.candidates) and not any(set(relations[:1]) & store.relations_of(n) for n, _ in mention.candidates)
        if mention.candidates and not (weak and factless or roleless):
            continue
        names = {name: store.display(name) for name in sorted(store.neighbours_through(others, relations))}
        if (match := best_match(mention.text, names, frequency) or (only_holder(mention.text, names) if roleless else None)) is not None:
            mention.candidates, found = [(match[0], SCORE)], True
            mention.why = f"read among the KG neighbours through {', '.join(relations)}: shares '{match[1]}'"
    return found
