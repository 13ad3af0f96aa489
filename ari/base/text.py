"""The one text normaliser and the one stemmer, shared by name matching, question analysis and filtering.

`normalize_name` folds "Kōichirō Genba", "Koichiro Genba" and `Koichiro_Genba` to one key. `stem` is a
deliberately light English stemmer (plural endings only: it must not merge "government" with
"governor"); `word_key` compares words across inflections by the first five letters of their stem
("criticised" / "criticize", "negotiation" / "negotiate", "talks" / "talk").
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

STOP_WORDS = frozenset("a an and as at by for from in into of on or such the to with its their".split())
_WORD = re.compile(r"[a-z]+")


def fold(text: str) -> str:
    """Accents removed, lower case."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).lower()


def normalize_name(text: str) -> str:
    """Fold a name for matching: accents removed, underscores/punctuation to spaces, lower case."""
    cleaned = "".join(c if c.isalnum() else " " for c in fold(text))
    return " ".join(cleaned.split())


def stem(word: str) -> str:
    """Plural and possessive endings only ("ministries" -> "ministry", "judges" -> "judge")."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def word_key(word: str) -> str:
    """The first five letters of a word's stem: inflections of one word meet here."""
    return stem(word)[:5]


@lru_cache(maxsize=8192)
def content_stems(text: str) -> frozenset[str]:
    """`word_key`s of a text's content words (stop words and words of two letters dropped)."""
    return frozenset(word_key(w) for w in _WORD.findall(fold(text)) if w not in STOP_WORDS and len(w) > 2)


def share_a_word(words: frozenset[str], others: frozenset[str]) -> bool:
    """Whether two word sets share a word of four letters or more, compared by `word_key`."""
    keys = {word_key(w) for w in words if len(w) >= 4}
    return any(word_key(w) in keys for w in others if len(w) >= 4)
