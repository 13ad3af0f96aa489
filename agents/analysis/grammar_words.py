"""The shared vocabulary of the grammar rules (`agents.analysis.grammar`, `agents.analysis.clauses`):
patterns for a masked question's parties, question words, auxiliaries, adverbs and pro-verbs, the small
helpers that put a moved phrase back into a clause, and the word tables of data/grammar_words.json."""

from __future__ import annotations

import re

from agents.analysis.cues import CUE_HEAD
from agents.analysis.cues import GRAMMAR_WORDS as GRAMMAR_WORDS  # the word tables of data/grammar_words.json
from agents.analysis.words import patterns

# the parts the grammar's patterns are written with (data/grammar_parts.json: a masked question's parties, question
# words, auxiliaries, adverbs, pro-verbs), as the rules' data files write them: <ENT>, <WH>, <CUE>, ...
PATTERNS = patterns("grammar_parts", {"CUE": CUE_HEAD})
SHARED = {"CUE": CUE_HEAD} | {key.upper(): part.pattern for key, part in PATTERNS.items()}
_AGENT_SUFFIX = SHARED["AGENT_SUFFIX"]  # the noun of one who does something: visitor(s), critic(s)
_IRREGULAR_PAST = SHARED["IRREGULAR_PAST"]  # "went", "made": a regular past tense ends in "ed"
_PLACEHOLDER = PATTERNS["placeholder"]
_PROVERB = PATTERNS["proverb"]


# the templates say "first" and "last": each other way of saying an ordinal, in their word
_ORDINAL_OF = {"earliest": "first", "latest": "last", "most recent": "last", "most recently": "last", "recent": "last", "final": "last"}


def _ordinal(words: str | None) -> str:
    """An ordinal adverb as the templates say it ("most recent" -> "last"); "only" says none."""
    word = " ".join((words or "").split()).lower()
    return "" if word == "only" else _ORDINAL_OF.get(word, word)


def _who(wh: str) -> str:
    return "who" if wh.lower() in ("who", "whom") else wh


def _object(subject: str) -> str:
    """A moved subject loses its sentence-initial capital ("The {E1} was ..." -> "... the {E1}")."""
    return re.sub(r"^(?:The|An|A) ", lambda m: m.group(0).lower(), subject)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def _adverbs(text: str | None) -> str:
    return f"{text.strip()} " if text and text.strip() else ""


def _passive_adverbs(m: re.Match[str]) -> str:
    """The adverbs of a passive, before and after its participle ("was first rejected by", "was rejected first by")."""
    return _adverbs(" ".join(part for part in (m.group("adv"), m.groupdict().get("post")) if part and part.strip()))


def _spliced(m: re.Match[str], replacement: str = "") -> str:
    """The text `m` was found in, with what it matched put back as `replacement` (every rule's last step)."""
    return m.string[: m.start()] + replacement + m.string[m.end() :]
