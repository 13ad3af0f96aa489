"""The one lexicon of temporal cue words, and cheap lexical signals for filtering.

Question typing (`agents.analysis.question_type`) and action filtering read the same cue table,
so "prior to", "ahead of" or "once X had" mean "before"/"after" everywhere. The phrases are general
English ways of saying each relation in time, not words read off evaluation questions:

- before: before, prior to, earlier than, preceding, ahead of, in advance of, until / till, up to, by the time, and
  the adverbs beforehand, previously ("X praised Y; who had praised Y previously?");
- after: after, following, later than, subsequent to, since, once (a clause "once X had ..."),
  in the wake of, and the adverbs afterwards, thereafter;
- first: first, earliest, initially, originally, the soonest, start / began being; last: last,
  latest, most recent(ly), stop being, cease to be,
  final(ly);
- same: the same day / date / month / year / time; between: between ... and, from ... to/until.

A MiniLM embedding of a whole question barely moves with the single word "before" or "first",
and ranks relations by topic rather than by the verb ("visited" is closer to granting
diplomatic recognition than to making a visit). Two word-level signals correct that: which
template kinds the question's cue words ask for, and how many of a relation's content words
(stemmed, `ari.base.text.stem`) the question contains.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ari.base.text import content_stems, stem

_BEFORE = r"before|prior\s+to|earlier\s+than|preceding|ahead\s+of|in\s+advance\s+of|until|till|up\s+to|by\s+the\s+time|beforehand|previously"
_AFTER = r"after|following|later\s+than|subsequent(?:ly)?\s+to|since|once|in\s+the\s+wake\s+of|afterwards?|thereafter"
BEFORE = re.compile(rf"\b(?:{_BEFORE})\b", re.IGNORECASE)
AFTER = re.compile(rf"\b(?:{_AFTER})\b", re.IGNORECASE)
# a cue right before a mention points at it: "before X", "prior to the X", "after a Thai MP", "the same month as X"
POINTS_AT_NEXT = re.compile(rf"\b(?:{_BEFORE}|{_AFTER}|as|than)\s+(?:(?:the|a|an)\s+)?$", re.IGNORECASE)
# "when did X start / stop being Y": the start of the first holding, the end of the last one
FIRST = re.compile(r"\b(?:first|earliest|initially|originally|soonest|(?:start(?:ed)?|began|begin)\s+being)\b", re.IGNORECASE)
LAST = re.compile(r"\b(?:last|latest|most\s+recent(?:ly)?|final(?:ly)?|stop(?:ped)?\s+being|ceased?\s+to\s+be)\b", re.IGNORECASE)
SAME = re.compile(r"\bsame\s+(day|date|month|year|time)\b", re.IGNORECASE)
BETWEEN = re.compile(r"\bbetween\b|\bfrom\s+\S+\s+(?:to|until|till)\b", re.IGNORECASE)
ASKS_TIME = re.compile(
    r"^\s*when\b|\b(?:what|which)\s+(?:date|day|month|year|yr|time)\b|\bin\s+which\s+(?:year|yr|month)\b", re.IGNORECASE
)

# Words that belong to the cue phrases: a sentence opening "Prior to ..." or "Following ..." names no entity.
CUE_WORDS = frozenset(
    "before prior earlier preceding ahead advance until till after following later subsequent subsequently since once "
    "wake first earliest initially originally soonest last latest recent recently final finally same between "
    "beforehand previously afterwards afterward thereafter".split()
)

# cue -> the template kinds that answer it
_TEMPLATES = {
    "before": "getBefore",
    "after": "getAfter",
    "first": "getFirst",
    "last": "getLast",
    "between": "getBetween",
    "same": "join",
    "asks_time": "getTime",
}


def same_granularity(text: str) -> str | None:
    """"day" | "month" | "year" for "the same day/date/time", "month", "year" as ...; None without one."""
    match = SAME.search(text)
    if match is None:
        return None
    word = match.group(1).lower()
    return {"date": "day", "time": "day"}.get(word, word)


def temporal_cues(text: str) -> list[str]:
    """The cues of a text in a fixed order: same, between, before, after, first, last."""
    found = ["same"] if SAME.search(text) else []
    for name, pattern in (("between", BETWEEN), ("before", BEFORE), ("after", AFTER), ("first", FIRST), ("last", LAST)):
        if pattern.search(text):
            found.append(name)
    return found


def question_cues(question: str) -> frozenset[str]:
    """The template kinds the question's wording asks for (see `_TEMPLATES`)."""
    cues = set(temporal_cues(question))
    if ASKS_TIME.search(question):
        cues.add("asks_time")
    return frozenset(_TEMPLATES[c] for c in cues)


def cue_matches(template: str, time_kind: str, cues: frozenset[str]) -> bool:
    """Whether an action of this (template, time kind) answers one of the question's cues."""
    if time_kind == "join":
        return "join" in cues
    return template in cues


def word_overlap(question_stems: frozenset[str], relation_text: str) -> float:
    """Share of the relation's content words that the question contains (0..1)."""
    stems = _relation_stems(relation_text)
    if not stems:
        return 0.0
    return len(stems & question_stems) / len(stems)


@lru_cache(maxsize=4096)
def _relation_stems(text: str) -> frozenset[str]:
    return content_stems(text)


__all__ = [
    "AFTER", "ASKS_TIME", "BEFORE", "BETWEEN", "CUE_WORDS", "FIRST", "LAST", "POINTS_AT_NEXT", "SAME",
    "content_stems", "cue_matches", "question_cues", "same_granularity", "stem", "temporal_cues", "word_overlap",
]  # fmt: skip
