"""Which way a wording says an act goes, on the axes of `data/polarity_words.json` (more or less of a
tie, yes or no, pressure on or off, speaking well or ill): a verb phrase that says the opposite of a
relation's own name and description ("cut back ties" against "strengthen relations, improve ties")
cannot be read as that relation, however close the two are in embedding or n-gram evidence."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

_DATA = json.loads((Path(__file__).parent / "data" / "polarity_words.json").read_text(encoding="utf-8"))
_WORD = re.compile(r"[a-z]+")


def _forms(word: str) -> set[str]:
    """A base form's regular inflections ("cut" -> "cuts", "cutting"; "deny" -> "denied"; "ease" -> "eased")."""
    stem = word[:-1] if word[-1] in "ey" else word
    return {word, word + "s", word + "es", word + "ed", word + "d", word + "ing", stem + "ing", stem + "ied", stem + "ies", word + word[-1] + "ed", word + word[-1] + "ing"}


AXES = [tuple(frozenset(f for w in pole for f in _forms(w)) for pole in poles) for axis, poles in _DATA.items() if not axis.startswith("_")]
_YES_OR_NO = [axis for axis in _DATA if not axis.startswith("_")].index("yes_or_no")


@lru_cache(maxsize=8192)
def poles(text: str) -> tuple[int, ...]:
    """Per axis, +1 (the first pole's words only), -1 (the second's only) or 0 (neither, or both); a refusal
    ("refused to lift") takes no side on the other axes: it denies the act its words name."""
    words = set(_WORD.findall(text.lower()))
    sides = [int(not words.isdisjoint(first)) - int(not words.isdisjoint(second)) for first, second in AXES]
    return tuple(side if axis == _YES_OR_NO or sides[_YES_OR_NO] >= 0 else 0 for axis, side in enumerate(sides))


def contradicts(phrase: str, relation_text: str) -> bool:
    """Whether the phrase says the opposite of the relation's text on some axis both take a side on."""
    return any(a * b < 0 for a, b in zip(poles(phrase), poles(relation_text)))
