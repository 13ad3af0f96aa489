"""Which way a wording says an act goes, on the axes of `data/polarity_words.json`: a verb phrase saying the
opposite of a relation's own name and description ("cut back ties", "improve ties") cannot be read as it."""

import re
from functools import lru_cache

from agents.analysis.words import data


def _forms(word: str) -> set[str]:
    """A base form's regular inflections ("cut" -> "cuts", "cutting"; "deny" -> "denied"; "ease" -> "eased")."""
    stem = word[:-1] if word[-1] in "ey" else word
    return {word, word + "s", word + "es", word + "ed", word + "d", word + "ing", stem + "ing", stem + "ied", stem + "ies", word + word[-1] + "ed", word + word[-1] + "ing"}


_DATA = {k: v for k, v in data("polarity_words").items() if k[0] != "_"}
_YES_OR_NO = list(_DATA).index("yes_or_no")
AXES = [tuple(frozenset(f for w in pole for f in _forms(w)) for pole in poles) for poles in _DATA.values()]


@lru_cache(maxsize=8192)
def poles(text: str) -> tuple[int, ...]:
    """Per axis +1 (first pole only), -1 (second only) or 0; a refusal ("refused to lift") takes no side on the others."""
    words = set(re.findall(r"[a-z]+", text.lower()))
    sides = [int(not words.isdisjoint(first)) - int(not words.isdisjoint(second)) for first, second in AXES]
    return tuple(side if axis == _YES_OR_NO or sides[_YES_OR_NO] >= 0 else 0 for axis, side in enumerate(sides))


def contradicts(phrase: str, relation_text: str) -> bool:
    """Whether the phrase says the opposite of the relation's text on some axis both take a side on."""
    return any(a * b < 0 for a, b in zip(poles(phrase), poles(relation_text)))
