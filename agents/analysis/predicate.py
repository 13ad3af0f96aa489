"""The words of a question's predicate that the shape audit (`agents.shapes`) holds against the KG's
relation names: the verb phrase's words that may name an act, and the words a yes/no question asserts."""

from __future__ import annotations

from agents.analysis.query import CONSTRAINT_WORDS
from agents.analysis.relations import verb_phrase
from agents.analysis.words import patterns, word_tables

# a frame, a tag and a reciprocal around a yes/no question's event (data/predicate_patterns.json: each with why and examples)
PATTERNS = patterns("predicate_patterns", {})

# the words of a yes/no question that assert nothing about its event (data/yes_no_words.json: frequency,
# emphasis, truth, existential "there", politeness, indefinites, and nouns that say when: "at any point")
_NOT_ASSERTED = frozenset().union(*word_tables("yes_no_words").values())


def naming_words(masked: str) -> set[str]:
    """The verb phrase's words that may name an act: not the query's own constraint words ("first", "most often"), nor a tag's ("..., right?")."""
    return {w for w in verb_phrase(PATTERNS["tag"].sub("", masked)).split() if len(w) >= 4 and w not in CONSTRAINT_WORDS}


def asserted_words(masked: str) -> list[str]:
    """The words a yes/no question asserts of its event, in order: its verb phrase without a frame or a tag
    around the question, without constraint words and words that assert nothing ("ever", "really", "at any point")."""
    asserted = verb_phrase(PATTERNS["reciprocal"].sub("", PATTERNS["tag"].sub("", PATTERNS["frame"].sub("", masked))))
    return [w for w in asserted.split() if len(w) >= 4 and w not in CONSTRAINT_WORDS and w not in _NOT_ASSERTED]
