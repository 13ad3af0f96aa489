"""The one lexicon of temporal cue words, read by question typing, the grammar rules, the answer check
and action filtering (`question_cues`), so "prior to" or "once X had" mean "before"/"after" everywhere.
The phrases are general English ways of saying each relation in time.
"""

from __future__ import annotations

import re

from agents.analysis.sectors import content_words
from agents.analysis.words import patterns, word_tables
from ari.base.text import stem

# the temporal cue patterns (data/cue_patterns.json: each with why it is read so, and the questions it is for)
PATTERNS = patterns("cue_patterns", {})
CUE_HEAD = PATTERNS["cue_head"].pattern  # a cue that heads a phrase or a clause: "before X", "once X had ..."
AFTER_HEAD = PATTERNS["after_cue_head"]
POINTS_AT_NEXT = PATTERNS["points_at_next"]  # a cue right before a mention points at it: "before X", "the same month as X"
FIRST, LAST = PATTERNS["first"], PATTERNS["last"]
AFTER_FIRST = PATTERNS["after_first"]  # "right after his first visit": the second
WINDOW = PATTERNS["window"]  # two times bound a window, both ends included

# the grammar's word tables, read once here (data/grammar_words.json: what each holds and why): cue words, pro-forms, ...
GRAMMAR_WORDS = word_tables("grammar_words")
CUE_WORDS = GRAMMAR_WORDS["cue_words"]


def same_granularity(text: str) -> str | None:
    """"day" | "month" | "year" for "the same day/date/time", "month", "year" as ...; None without one."""
    if (match := PATTERNS["same"].search(text)) is None:
        return None
    word = match.group(1).lower()
    return {"date": "day", "time": "day"}.get(word, word)


def temporal_cues(text: str) -> list[str]:
    """The cues of a text in a fixed order: same, between, before, after, first, last."""
    return [name for name in ("same", "between", "before", "after", "first", "last") if PATTERNS[name].search(text)]


def question_cues(question: str) -> frozenset[str]:
    """The cues a question's wording asks for, "asks_time" among them when it asks for a time
    (what action filtering favours: `actions.filtering.CUE_TEMPLATES`)."""
    return frozenset(temporal_cues(question) + (["asks_time"] if PATTERNS["asks_time"].search(question) else []))


def time_before_cue(masked: str) -> bool:
    """Whether a time stands right before the cue ("which countries recognised {E1} in {T1} after {E2} did"): it
    places the answers as well as the event referred to."""
    return bool(PATTERNS["time_before_cue"].search(masked))


def referred_clause(masked: str, last: int) -> str:
    """The words after the entity a cue heads, to the clause's end ("after {E2} broke off relations with {E1}, ..."
    -> "broke off relations with {E1}"); "" where no cue heads entity `last`."""
    m = re.search(rf"\b(?:{CUE_HEAD})\s+(?:(?:the|a|an)\s+)?\{{E{last}\}}\s+(?P<rest>[^,;?]*)", masked, re.IGNORECASE)
    return m.group("rest") if m else ""


def repeats_act(clause: str, question: str) -> bool:
    """Whether the clause of the event a cue points at only repeats the question's own act: a pro-form ("did so", "did
    the same") or words the question itself uses for its act ("... expressed a wish to visit {E1} before {E2} expressed
    the same wish", "before its talks with {E2}, whom did {E1} last hold talks with"). It then names no other event."""
    before, _, after = question.rpartition(clause)  # the clause comes last: the same words earlier are the question's act
    own = [stem(w) for w in content_words(f"{before} {after}")]
    said = [stem(w) for w in content_words(clause) if w not in GRAMMAR_WORDS["pro_forms"] and not any(c.isdigit() for c in w)]
    return all(any(same_word(w, o) for o in own) for w in said)


def same_word(one: str, other: str) -> bool:
    """Whether two stems are one word's inflections: the same first five letters ("criticise",
    "criticize"), or the shorter, of four letters or more, opening the longer ("host", "hosted"; a final
    y as i: "deny", "denied")."""
    short, long = sorted((one, other), key=len)
    short = short[:-1] + "i" if short.endswith("y") and long[len(short) - 1 : len(short)] == "i" else short  # "deny", "denied"
    return short[:5] == long[:5] or (len(short) >= 4 and long.startswith(short))
