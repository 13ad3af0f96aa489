"""An unsure reading: words it does not account for; the judge abstains rather than answer another question.

What the analysis read is masked ({E1}, {T1}); two kinds of word left over mean it dropped part of what was asked:
- a time spelled out in words that was not read ("in twenty thirteen", "november twelfth two thousand nine"):
  a month name or a number word followed by a number word;
- a name the linker did not link: two words side by side that are both words of the KG's entity names, at least
  one of them neither English the analysis reads nor a word of the relation lexicon ("the state actor").
Each was chosen on the learning material only, with the criterion that a wrong answer avoided costs at most one
right answer (`benchmarks/accounting_signals.py`; the counts: `benchmarks/results/accounting/README.md`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise, takewhile

from agents.analysis.aliases import NAME_WORD_TABLES
from agents.analysis.entities import KNOWN_ENGLISH
from agents.analysis.times import MONTHS
from agents.analysis.times import NUMBER_WORDS as CARDINALS

# cardinal number words (general English): two of them in a row, or after a month, write a year or a day
NUMBER_WORDS = frozenset(CARDINALS) | {"hundred", "thousand"}
# "may" and the three-letter abbreviations are everyday words too ("mar", "sept" aside): full names only
_MONTH_NAMES = frozenset(m for m in MONTHS if len(m) > 3 and m != "sept")
# closed-class English: the analysis's own words that never make a name (function, calendar, cue and
# request words) without its frequent open-class words, and the pronouns and quantifiers it lacks
_CLOSED = (KNOWN_ENGLISH - frozenset(NAME_WORD_TABLES["frequent_english"].split())) | frozenset(
    "i you he she it we they me him us them its his her their our my your all both".split()
)
# "before him", "after they did" in a question naming one party: it points to one it does not name (no statement said who)
_POINTS_AWAY = re.compile(r"\b(?:after|before|prior\s+to)\s+(?:him|her|them|(?:he|she|they)\s+did)\b", re.IGNORECASE)
_TOKEN = re.compile(r"\{[ET]\d+\}|[a-z][a-z'\-]*")


@dataclass(frozen=True)
class Vocabularies:
    """What a left-over word may be: a word of the KG's entity names, or a word the reading reads."""

    name_words: frozenset[str]  # the words of the KG's entity names and aliases, lower case
    read_words: frozenset[str]  # English the analysis reads, and the relation lexicon's words


def unaccounted(masked: str, words: Vocabularies) -> str | None:
    """Why the reading does not account for the question's words (None: it does), naming them."""
    if (away := _POINTS_AWAY.search(masked)) and len(set(re.findall(r"\{E\d+\}", masked))) < 2:
        return f"'{away.group(0)}' points to someone the question does not name: say who"
    tokens = _TOKEN.findall(masked.lower())
    for index, (one, other) in enumerate(pairwise(tokens)):
        if (one in NUMBER_WORDS or one in _MONTH_NAMES) and other in NUMBER_WORDS:
            run = [one, other, *takewhile(NUMBER_WORDS.__contains__, tokens[index + 2 :])]
            return f"the time '{' '.join(run)}' was not read: say it in digits (e.g. 2013, 12 November 2009)"
    for one, other in pairwise(tokens):
        if _name_like(one, words) and _name_like(other, words) and not {one, other} <= words.read_words:
            return f"'{one} {other}' reads like part of a name in the KG, but no entity was linked to it: not sure what it names"
    return None


def _name_like(word: str, words: Vocabularies) -> bool:
    return len(word) > 1 and word in words.name_words and word not in _CLOSED
