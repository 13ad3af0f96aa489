"""The words of a question's predicate that the shape audit (`agents.shapes`) holds against the KG's
relation names: the verb phrase's words that may name an act, and the words a yes/no question asserts."""

from __future__ import annotations

from agents.analysis.query import CONSTRAINT_WORDS
from agents.analysis.relations import verb_phrase
from agents.analysis.words import english, word_tables

# nouns that say "when" in a phrase ("at any point", "at some stage"): the time, not the event
_WHEN_NOUNS = frozenset({"point", "points", "time", "times", "moment", "stage", "period", "occasion"})
# the words of a yes/no question that assert nothing about its event (data/yes_no_words.json: frequency,
# emphasis, truth, existential "there", politeness)
_NOT_ASSERTED = frozenset().union(*word_tables("yes_no_words").values())
# a frame around the question asks it of the listener and asserts nothing: "I wonder whether ...",
# "Could you check if ...", "Do you know whether ...", "Is it true that ...", "Did it happen that ..."
_FRAME = english(
    r"^\W*(?:(?:i|we)\s*(?:(?:was|am|were)\s+)?(?:wonder(?:ing)?|(?:would|['’]d)\s+like\s+to\s+know|want\s+to\s+know|(?:am|['’]m)\s+curious)"
    r"|(?:(?:can|could|would|will)\s+you\s+)?(?:please\s+)?(?:tell\s+(?:me|us)|check|confirm|verify|find\s+out|say|let\s+me\s+know)"
    r"|(?:do|does)\s+(?:you|anyone)\s+know|(?:is|was)\s+it\s+(?:true|the\s+case|correct|right)|did\s+it\s+(?:ever\s+)?happen"
    r"|(?:is|was|are|were)\s+there\s+(?:any\s+|an?\s+)?(?:record|evidence|report|sign)s?\s+(?:of|that))"
    r"[\s,]*(?:whether|if|that)?\b",
)
# a tag after the question ("..., right?", "... or not?", "..., didn't he?"): asks for confirmation only
# a reciprocal ("did X and Y consult each other"): the two parties, already named, not a word of the act
_RECIPROCAL = english(r"\b(?:each\s+other|one\s+another)\b")
# ("..., did that happen?", "... -- has this ever occurred?": whether the stated event took place, no word of it)
_TAG = english(
    r"[\s,—–-]*(?:(?:right|correct|true|true\s+or\s+false|yes\s+or\s+no|or\s+not)|(?:did|was|were|has|had|is)n['’]?t\s+(?:it|he|she|they)"
    r"|(?:did|does|has|had)\s+(?:that|this|it)\s+(?:ever\s+|really\s+|actually\s+)?(?:happen(?:ed)?|occur(?:red)?|t[ao]ken?\s+place|took\s+place))\s*[?.!]*\s*$",
)


def naming_words(masked: str) -> set[str]:
    """The verb phrase's words that may name an act: not the query's own constraint words ("first", "most often")."""
    return {w for w in verb_phrase(masked).split() if len(w) >= 4 and w not in CONSTRAINT_WORDS}


def asserted_words(masked: str) -> list[str]:
    """The words a yes/no question asserts of its event, in order: its verb phrase without a frame or a tag
    around the question, without when-nouns, constraint words and words that assert nothing ("ever", "really")."""
    asserted = verb_phrase(_RECIPROCAL.sub("", _TAG.sub("", _FRAME.sub("", masked))))
    return [w for w in asserted.split() if len(w) >= 4 and w not in _WHEN_NOUNS and w not in CONSTRAINT_WORDS and w not in _NOT_ASSERTED]
