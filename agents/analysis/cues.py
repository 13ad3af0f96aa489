"""The one lexicon of temporal cue words, read by question typing, the grammar rules, the answer check
and action filtering (`question_cues`), so "prior to" or "once X had" mean "before"/"after" everywhere.
The phrases are general English ways of saying each relation in time.
"""

from __future__ import annotations

import re

from agents.analysis.sectors import content_words
from agents.analysis.words import english, word_tables
from ari.base.text import stem

_BEFORE_HEAD = r"before|prior\s+to|earlier\s+than|preceding|ahead\s+of|in\s+advance\s+of|until|till|by\s+the\s+time"
_AFTER_HEAD = r"after|following|later\s+than|subsequent\s+to|since|(?<!even\s)(?<!least\s)(?<!than\s)(?<!just\s)once|in\s+the\s+wake\s+of"  # "even once": no "after"
CUE_HEAD = f"{_BEFORE_HEAD}|{_AFTER_HEAD}"  # a cue that heads a phrase or a clause: "before X", "once X had ..."
_BEFORE = rf"{_BEFORE_HEAD}|up\s+to|beforehand|previously"
_AFTER = rf"{_AFTER_HEAD}|subsequently\s+to|afterwards?|thereafter"
AFTER_HEAD = english(rf"\b(?:{_AFTER_HEAD})\b")
BEFORE = english(rf"\b(?:{_BEFORE})\b")
AFTER = english(rf"\b(?:{_AFTER})\b")
# a cue right before a mention points at it: "before X", "prior to the X", "after a Thai MP", "the same month as X";
# "other than X", "rather than X" set X aside or apart, in no time
POINTS_AT_NEXT = english(rf"\b(?:{_BEFORE}|{_AFTER}|as|(?<!other\s)(?<!rather\s)than)\s+(?:(?:the|a|an)\s+)?$")
# "when did X start / stop being Y": the start of the first holding, the end of the last one
FIRST = english(r"\b(?:first|earliest|initially|originally|soonest|(?:start(?:ed)?|began|begin)\s+being)\b")
LAST = english(r"\b(?:last|latest|most\s+recent(?:ly)?|final(?:ly)?|stop(?:ped)?\s+being|ceased?\s+to\s+be)\b")
# "right after his first visit", "the one after the first": the second (`grammar.ordinal_phrase`, the query's n-th)
AFTER_FIRST = english(r"\b(?:(?:immediately|just|right|directly)\s+)?after\s+(?:the|his|her|its|their|\{E\d+\}['’]s?)\s+first\b(?!\s+(?:of|to)\b)")
SAME = english(r"\bsame\s+(day|date|month|year|time)\b")
_BETWEEN = r"\bbetween\b|\bfrom\s+\S+\s+(?:to|until|till)\b"
BETWEEN = english(_BETWEEN)
# two times bound a window, both ends included: the "between" cue, or "from ... through", "until", "{T1}-{T2}", "in (the months of) {T1} and {T2}"
WINDOW = english(rf"{_BETWEEN}|\bfrom\b.*\b(?:to|until|till|through|thru|and)\b|\b(?:until|till|through|thru)\b|\{{T1\}}\s*(?:-|–|to)\s*\{{T2\}}|\b(?:in|during)\s+(?:the\s+(?:months|years)\s+(?:of\s+)?)?\{{T1\}}\s*(?:and|&)\s*\{{T2\}}")
ASKS_TIME = english(r"^\s*when\b|\b(?:what|which)\s+(?:date|day|month|year|yr|time)\b|\bin\s+which\s+(?:year|yr|month)\b")

# the grammar's word tables, read once here (data/grammar_words.json: what each holds and why): cue words, pro-forms, ...
GRAMMAR_WORDS = word_tables("grammar_words")
CUE_WORDS = GRAMMAR_WORDS["cue_words"]


def same_granularity(text: str) -> str | None:
    """"day" | "month" | "year" for "the same day/date/time", "month", "year" as ...; None without one."""
    if (match := SAME.search(text)) is None:
        return None
    word = match.group(1).lower()
    return {"date": "day", "time": "day"}.get(word, word)


def temporal_cues(text: str) -> list[str]:
    """The cues of a text in a fixed order: same, between, before, after, first, last."""
    cues = (("same", SAME), ("between", BETWEEN), ("before", BEFORE), ("after", AFTER), ("first", FIRST), ("last", LAST))
    return [name for name, pattern in cues if pattern.search(text)]


def question_cues(question: str) -> frozenset[str]:
    """The cues a question's wording asks for, "asks_time" among them when it asks for a time
    (what action filtering favours: `actions.filtering.CUE_TEMPLATES`)."""
    return frozenset(temporal_cues(question) + (["asks_time"] if ASKS_TIME.search(question) else []))


_TIME_BEFORE_CUE = english(r"\{T1\}\s*,?\s*(?:after|before)\b")


def time_before_cue(masked: str) -> bool:
    """Whether a time stands right before the cue ("which countries recognised {E1} in {T1} after {E2} did"): it
    places the answers as well as the event referred to."""
    return bool(_TIME_BEFORE_CUE.search(masked))


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
