"""Question typing: what kind of answer is asked and which temporal pattern the question follows.

The pattern is read from the cue words of the one lexicon (`agents.analysis.cues`), combined as MultiTQ
combines them ("first ... after X" is after_first, "last ... before X" before_last, "first ... in
2012" equal_multi): features for the decider and the memory, not hard rules."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from agents.analysis.cues import POINTS_AT_NEXT, same_granularity, temporal_cues
from agents.analysis.grammar_words import GRAMMAR_WORDS
from agents.analysis.times import asked_granularity
from agents.analysis.types import EntityMention, TimeMention
from tkg_store.temporal import Granularity


@dataclass
class QuestionType:
    answer_type: str  # "entity" | "time"
    time_level: Granularity  # answer granularity for time answers; comparison granularity otherwise
    pattern: str  # one of types.PATTERNS
    cue: str | None  # the main temporal cue
    cues: list[str] = field(default_factory=list)  # every cue found, in a fixed order


def classify(question: str, times: list[TimeMention], masked: str | None = None) -> QuestionType:
    """Type a question; cues are read from `masked` when given, so "People First Party" is no "first"."""
    asked = asked_granularity(question)
    question = masked if masked is not None else question
    answer_type = "time" if asked is not None else "entity"
    same = same_granularity(question)
    cues = [f"same_{same}" if word == "same" else word for word in temporal_cues(question) if word != "between" or len(times) >= 2]
    ordinal = "first" if "first" in cues else "last" if "last" in cues else None
    relative = "after" if "after" in cues else "before" if "before" in cues else None
    cue: str | None
    if same:
        pattern, cue = "equal_multi", cues[0]
    elif ordinal and relative and answer_type == "entity":
        pattern, cue = ("after_first" if relative == "after" else "before_last"), relative
    elif ordinal and times and answer_type == "entity":
        pattern, cue = "equal_multi", ordinal
    elif ordinal:
        pattern, cue = "first_last", ordinal
    elif relative:
        pattern, cue = "before_after", relative
    elif "between" in cues:
        pattern, cue = "before_after", "between"
    else:
        pattern, cue = "equal", None
    # the granularity asked, else compared at: the same-period's, the first time's, a day's
    level = asked or (Granularity(same) if same else times[0].time.granularity if times else Granularity.DAY)
    return QuestionType(answer_type, level, pattern, cue, cues)


def without_extremes(kind: QuestionType) -> QuestionType:
    """The typing of a question whose "first" / "last" words belong to an n-th ("second to last")
    or a most-often constraint (`agents.analysis.query`): no first or last is asked."""
    cues = [c for c in kind.cues if c not in ("first", "last")]
    relative = "after" if "after" in cues else "before" if "before" in cues else None
    if kind.pattern not in ("first_last", "after_first", "before_last", "equal_multi") or kind.cue not in ("first", "last", "after", "before"):
        return replace(kind, cues=cues)
    return replace(kind, pattern="before_after" if relative else "equal", cue=relative, cues=cues)


def in_role_order(question: str, entities: list[EntityMention]) -> list[EntityMention]:
    """Mentions in role order: by appearance, except that the one a temporal cue points at ("before
    X", "the same month as X") comes last, so "Before {E2}, which country did {E1} visit last?" and
    "Which country did {E1} visit last before {E2}?" share one program."""
    referenced = [m for m in entities if POINTS_AT_NEXT.search(question[: m.span[0]])]
    if len(referenced) != 1 or len(entities) < 2:
        return list(entities)
    return [m for m in entities if m is not referenced[0]] + referenced


def distinct_entities(entities: list[EntityMention]) -> list[EntityMention]:
    """The first mention of each linked entity: "Who received Thailand's visit from Thailand after Oman did?" has two."""
    return [m for i, m in enumerate(entities) if all(e.best != m.best for e in entities[:i])]


def mask(question: str, entities: list[EntityMention], times: list[TimeMention]) -> str:
    """Entities -> {E1}, {E2}... in the order given (role order; mentions of one entity share a
    number), times -> {T1}... by appearance."""
    numbers: dict[str | None, int] = {}
    role = {id(m): numbers.setdefault(m.best, len(numbers) + 1) for m in entities}
    spans = sorted([(m.span, "E", role[id(m)]) for m in entities] + [(t.span, "T", 0) for t in times], key=lambda s: s[0])
    pieces, cursor, times_seen = [], 0, 0
    for (start, end), kind, number in spans:
        if start < cursor:
            continue
        if kind == "T":
            number = times_seen = times_seen + 1
        pieces += [question[cursor:start], f"{{{kind}{number}}}"]
        cursor = end
    pieces.append(question[cursor:])
    return "".join(pieces)


# the nouns a question asks a country by (data/grammar_words.json "country_nouns"): "which nation" asks what "which country" does
_ASKS_COUNTRY = re.compile(rf"\b(?:which|what)\s+(?:other\s+)?(?:{'|'.join(sorted(GRAMMAR_WORDS['country_nouns']))})\b|\bwhere\b", re.IGNORECASE)
_FOREIGN = re.compile(r"\b(?:foreign|abroad|overseas)\b", re.IGNORECASE)


def asks_foreign(masked: str) -> bool:
    """Whether the question asks for countries other than an actor's own ("which foreign countries", "abroad")."""
    return bool(_FOREIGN.search(masked))


def asks_country(masked: str) -> bool:
    """Whether the question word asks for a country ("which country", "what other nations"; "where", a
    journey's destination, as the query reads it), not a word elsewhere ("who was the first country to")."""
    return bool(_ASKS_COUNTRY.search(masked))


_SHAPE_TOKEN = re.compile(r"\{([A-Z])\d*\}|([A-Za-z']+)|([?,.])")


def question_shape(masked: str) -> str:
    """The reasoning shape of a masked question, what the memory clusters (`memory.clustering`): its
    closed-class and cue words (data/grammar_words.json: shape_words) and placeholders, other words as "…".

    "With which country did {E1} last sign formal agreements before the {E2}?"
    -> "with which country did {E} last … before the {E} ?"
    """
    out: list[str] = []
    for match in _SHAPE_TOKEN.finditer(masked):
        placeholder, word, mark = match.groups()
        if placeholder:
            out.append(f"{{{placeholder}}}")
        elif mark:
            out.append(mark)
        elif word.lower() in GRAMMAR_WORDS["shape_words"]:
            out.append(word.lower())
        elif not out or out[-1] != "…":
            out.append("…")
    return " ".join(out)
