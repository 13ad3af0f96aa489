"""What a question says of the acts and parties it refers to, for the agent's checks: whether an auxiliary asks a yes / no,
who does the asked act again ("after {E2} did"), the clause a cue heads and the pronoun naming a party, two acts joined by
"or", a copula beside a name, an aim said with "to". The checks ask; the English is read here, from data."""

from __future__ import annotations

import re

from agents.analysis.clause_roles import clause_roles, voice_roles
from agents.analysis.cues import CUE_HEAD
from agents.analysis.words import patterns

PATTERNS = patterns("referent_patterns", {"CUE": CUE_HEAD})
_NO_ACT = {w[:4] for w in "first last again also later next most recently whom which what were afterwards".split()}


def asks_by_auxiliary(masked: str) -> bool:
    """Whether an auxiliary heads a clause ("Did ...", "..., had he ...?"): a yes / no read from its question mark alone is weaker."""
    return PATTERNS["auxiliary_asks"].search(masked) is not None


def repeating_doers(masked: str) -> frozenset[int]:
    """The entity numbers said to do the asked act again by a pro-verb ("after {E2} did so"): the doers of the event referred to."""
    return frozenset(int(n) for n in PATTERNS["does_again"].findall(masked))


def pronoun_clause(masked: str) -> tuple[str, str] | None:
    """(the cue's whole clause, its words after the pronoun) where a cue heads a pronoun's clause ("since he took office")."""
    found = PATTERNS["pronoun_clause"].search(masked)
    return (found.group(0), found.group("clause")) if found else None


def either_words(masked: str) -> list[tuple[str, str]]:
    """The pairs of words "or" joins ("consulted or negotiated"), lower-cased."""
    return PATTERNS["either"].findall(masked.lower())


def holds_by_copula(masked: str) -> bool:
    """Whether a copula stands beside a name ("Who was {E1} before {E2}?"): a position's holder is asked, not an act."""
    return PATTERNS["holds"].search(masked) is not None


def aimed_words(masked: str) -> list[str]:
    """The words said as another word's aim ("want to meet": meet)."""
    return [m.group(1) for m in PATTERNS["aims_to"].finditer(masked.lower())]


def reference_clause(masked: str) -> tuple[str, str] | None:
    """(the question outside the clause a cue heads with a party, that clause's words after the party) ("Once {E2} had made a
    trip to {E3}, which ...": " had made a trip to {E3}"): the event referred to, apart from what the rest states."""
    cue = PATTERNS["reference"].search(masked)
    return (masked[: cue.start()] + masked[cue.end() :], cue.group("words")) if cue else None


def _acts(text: str) -> set[str]:
    """The words of a clause that may say its act, by their first four letters ("call" meets "called")."""
    return {w[:4] for w in re.findall(r"[a-z]{4,}", re.sub(r"\{E\d+\}", " ", text.lower()))} - _NO_ACT


def pronoun_anchor(masked: str) -> tuple[list[int], str | None, bool] | None:
    """(the entity numbers a personal pronoun of the asked clause may stand for, its role, whether it is a person's) where
    the asked clause names its party by the pronoun only and a cue's clause names the one party, or two and a person's
    pronoun of another act: "after {E1} first visited {E2}, who criticized him": E1 or E2, the one criticized, a person.
    None: the asked clause names its party, says no pronoun, or the clause roles read it ("it" of two parties)."""
    cue = PATTERNS["cue_clause"].search(masked)
    if cue is None:
        return None
    asked = masked[: cue.start()] + " , " + masked[cue.end() :]
    pronoun = PATTERNS["personal"].search(asked) if "{E" not in asked else None
    named = [int(n) for n in dict.fromkeys(re.findall(r"\{E(\d+)\}", cue.group("clause")))]
    if pronoun is None or not named or len(named) > 1 and (not pronoun.group("person") or _acts(asked) & _acts(cue.group("clause"))):
        return None  # "it" of two, or the clause's act again ("... who else rejected it"): the clause's object, as its roles say
    said = asked[: pronoun.start()] + f"{{E{named[0]}}}" + asked[pronoun.end() :]
    return named, clause_roles(said).get(named[0]) or voice_roles(said).read.get(named[0]), bool(pronoun.group("person"))
