"""An unsure reading: words it does not account for; the judge abstains rather than answer another question.

What the analysis read is masked ({E1}, {T1}); these words left over mean it dropped part of what was asked:
- a time spelled out in words that was not read ("in twenty thirteen", "november twelfth two thousand nine"):
  a month name or a number word followed by a number word;
- a name the linker did not link: two words side by side that are both words of the KG's entity names, at least
  one of them neither English the analysis reads nor a word of the relation lexicon ("the state actor"), or a word no
  English is (inflected or slipped): a name the linker did not know ("the unhcr"); a negation of the event ("said no to X").
Each was chosen on the learning material only, with the criterion that a wrong answer avoided costs at most one
right answer (`benchmarks/accounting_signals.py`; the counts: `benchmarks/results/accounting/README.md`)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from itertools import pairwise, takewhile
from string import ascii_lowercase

from agents.analysis.aliases import NAME_WORD_TABLES
from agents.analysis.entities import KNOWN_ENGLISH
from agents.analysis.question_form import INTERROGATIVE
from agents.analysis.times import MONTHS
from agents.analysis.times import NUMBER_WORDS as CARDINALS
from agents.analysis.words import patterns

# cardinal number words (general English): two of them in a row, or after a month, write a year or a day
NUMBER_WORDS = frozenset(CARDINALS) | {"hundred", "thousand"}
# "may" and the three-letter abbreviations are everyday words too ("mar", "sept" aside): full names only
_MONTH_NAMES = frozenset(m for m in MONTHS if len(m) > 3 and m != "sept")
# closed-class English: the analysis's own words that never make a name (function, calendar, cue and
# request words) without its frequent open-class words, and the pronouns and quantifiers it lacks
_CLOSED = (KNOWN_ENGLISH - NAME_WORD_TABLES["frequent_english"]) | frozenset(
    "i you he she it we they me him us them its his her their our my your all both".split()
)
PATTERNS = patterns("accounting_patterns", {})  # pronouns pointing away, an unread question word, a negation
_LINKING = frozenset("and but or so then now well also yet plus".split())  # a question may open with a conjunction
_TOKEN = re.compile(r"\{[ET]\d+\}|[a-z][a-z'\-]*")
_WORD = re.compile(r"[^\W\d_]+")  # a word in any alphabet ("Médecins" is one), its clitic ("didn't", "I'm") set aside
_CLITIC = re.compile(r"n't\b|'(?:s|re|ve|m|ll|d)\b")


@dataclass(frozen=True)
class Vocabularies:
    """What a left-over word may be: a word of the KG's entity names, or a word the reading reads."""

    name_words: frozenset[str]  # the words of the KG's entity names and aliases, lower case
    read_words: frozenset[str]  # English the analysis reads, and the relation lexicon's words
    english: frozenset[str] = frozenset()  # the embedding model's English words (none: no word is taken for a name)

    @cached_property
    def stems(self) -> frozenset[str]:  # the known words, and English's first four letters: its inflections are known too
        return frozenset(k for w in self.english | self.read_words for k in (w, w[:4])) | self.name_words

    def knows(self, word: str) -> bool:  # English, a name's or read: as written, inflected or with one letter slipped
        if len(word) < 3 or not self.english or word in self.stems or word[:4] in self.stems:
            return True
        return not {word[:i] + c + word[i + k :] for i in range(len(word) + 1) for c in ("", *ascii_lowercase) for k in (0, 1)}.isdisjoint(self.english)


def unaccounted(masked: str, words: Vocabularies) -> str | None:
    """Why the reading does not account for the question's words (None: it does), naming them."""
    if (away := PATTERNS["points_away"].search(masked)) and len(set(re.findall(r"\{E\d+\}", masked))) < 2:
        return f"'{away.group(0)}' points to someone the question does not name: say who"
    if unbound := PATTERNS["unbound_pronoun"].match(masked):
        return f"'{unbound.group('p') or unbound.group('o')}' points to someone the question does not name: say who"
    for inverted in PATTERNS["inverted"].finditer(masked):
        opening = _WORD.findall(_CLITIC.sub("", re.sub(r"\{T\d+\}", "", inverted.group("pre"))))
        if "{E" not in inverted.group("pre") and not INTERROGATIVE.search(inverted.group("pre")) and (unread := [w for w in opening if w.lower() not in _CLOSED | _LINKING]):
            return f"'{' '.join(unread)}' before the question's verb was not read: ask with who, what, which or when"
    tokens = _TOKEN.findall(masked.lower())
    for index, (one, other) in enumerate(pairwise(tokens)):
        if (one in NUMBER_WORDS or one in _MONTH_NAMES) and other in NUMBER_WORDS:
            run = [one, other, *takewhile(NUMBER_WORDS.__contains__, tokens[index + 2 :])]
            return f"the time '{' '.join(run)}' was not read: say it in digits (e.g. 2013, 12 November 2009)"
    for one, other in pairwise(tokens):
        # both words of the KG's names (not closed-class), not both words the reading reads
        if all(len(w) > 1 and w in words.name_words and w not in _CLOSED for w in (one, other)) and not {one, other} <= words.read_words:
            return f"'{one} {other}' reads like part of a name in the KG, but no entity was linked to it: not sure what it names"
    if unknown := [w for w in _WORD.findall(_CLITIC.sub("", masked.lower())) if not words.knows(w)]:
        return f"'{unknown[0]}' was not read: no entity, English word or word of an event is written so"
    for negation in PATTERNS["negation"].finditer(masked):
        if not PATTERNS["not_of_event"].match(masked, negation.end()) and not re.search(r"(?:^|[.?!:;]\s*|\bor\s+)\w*$", masked[: negation.start()]):
            said = " ".join(re.findall(r"[^\s?.,;:!]+", masked[negation.start() :])[:2])
            return f"the negation '{said}' was not read: ask about the event, not its absence"
    return None
