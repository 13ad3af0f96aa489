"""Cheap lexical signals for filtering, where sentence embeddings are weak.

A MiniLM embedding of a whole question barely moves with the single word "before" or "first",
and ranks relations by topic rather than by the verb ("visited" is closer to granting
diplomatic recognition than to making a visit). Two word-level signals correct that: which
template kinds the question's cue words ask for, and how many of a relation's content words
(crudely stemmed) the question contains.
"""

from __future__ import annotations

import re
from functools import lru_cache

_CUES: dict[str, re.Pattern[str]] = {
    "getBefore": re.compile(r"\b(before|prior to|earlier than|preceding)\b"),
    "getAfter": re.compile(r"\b(after|later than|following|since)\b"),
    "getFirst": re.compile(r"\b(first|earliest|initially)\b"),
    "getLast": re.compile(r"\b(last|latest|most recent(ly)?|final(ly)?)\b"),
    "getBetween": re.compile(r"\b(between|from \S+ (to|until|till))\b"),
    "join": re.compile(r"\bsame (day|date|month|year|time)\b|\bat the same time\b"),
    "getTime": re.compile(r"^\s*when\b|\b(what|which) (date|day|month|year|time)\b|\bin which (year|month)\b"),
}

_STOP = frozenset("a an and as at by for from in into of on or such the to with its their".split())


def question_cues(question: str) -> frozenset[str]:
    """The template kinds the question's wording asks for (see `_CUES`)."""
    text = question.lower()
    return frozenset(name for name, pattern in _CUES.items() if pattern.search(text))


def cue_matches(template: str, time_kind: str, cues: frozenset[str]) -> bool:
    """Whether an action of this (template, time kind) answers one of the question's cues."""
    if time_kind == "join":
        return "join" in cues
    return template in cues


def _stem(word: str) -> str:
    return word[:5]


@lru_cache(maxsize=4096)
def content_stems(text: str) -> frozenset[str]:
    """Crude stems of a text's content words ("negotiation" and "negotiate" share "negot")."""
    words = re.findall(r"[a-z]+", text.lower())
    return frozenset(_stem(w) for w in words if w not in _STOP and len(w) > 2)


def word_overlap(question_stems: frozenset[str], relation_text: str) -> float:
    """Share of the relation's content words that the question contains (0..1)."""
    stems = content_stems(relation_text)
    if not stems:
        return 0.0
    return len(stems & question_stems) / len(stems)
