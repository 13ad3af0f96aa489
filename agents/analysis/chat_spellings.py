"""Chat spellings, abbreviations and typing slips written out: "wat yr did merkel vistied kuwait b4 08" -> "what year did
merkel visited kuwait before 2008".

Text-message spellings and newspaper abbreviations ("wat", "b4", "w", "yr", "govt", "in 09") are rewritten once before
analysis, except where the KG's own names use the form as a word ("w" in "George W Bush": `protected_ngrams`). Other
abbreviations ("bef.", "ctry") and a typing slip ("vistied") are read as the one known word they stand for
(`Vocabulary.corrected`); a word of English, or one with no single such word, is left as written: a wrong correction
would answer another question, a word left alone at worst goes unread.
"""
from __future__ import annotations

import re
from collections.abc import Iterable

from agents.analysis.aliases import TITLE_ABBREVIATIONS
from agents.analysis.times import MONTHS
from agents.analysis.words import DATA, data, patterns
from ari.base.text import one_slip_away, stem, word_key
from tkg_store.temporal import full_year

# chat and newspaper abbreviations -> the standard word (lower case: they are only written so)
CHAT_WORDS = DATA / "chat_spellings.json"
SPELLINGS: dict[str, str] = data("chat_spellings")["spellings"]
_MONTHS = frozenset(MONTHS)  # month names and their abbreviations, as the time reader knows them
# the patterns that find what to write out (data/spelling_patterns.json: each with why it is read so, and the texts it is for)
PATTERNS = patterns("spelling_patterns", {"MONTHS": "|".join(sorted(_MONTHS))})
_BEFORE_AFTER = {"pre": "before ", "post": "after ", "Pre": "Before ", "Post": "After "}  # "pre-2007": before it


def protected_ngrams(name_keys: Iterable[str]) -> frozenset[str]:
    """The word bigrams of KG names that hold a chat form as a word ("george w", "w bush")."""
    pairs = (zip(words, words[1:]) for words in (key.split() for key in name_keys))
    return frozenset(f"{a} {b}" for bigrams in pairs for a, b in bigrams if a in SPELLINGS or b in SPELLINGS)


def standard_spelling(text: str, protected: frozenset[str] = frozenset()) -> str:
    """The question with its chat spellings written out (the text itself when it has none)."""
    lowered = text.lower()
    words = [(m.start(), m.end(), m.group(0)) for m in PATTERNS["word"].finditer(lowered)]
    out, last = [], 0
    for i, (start, end, word) in enumerate(words):
        if (standard := SPELLINGS.get(word)) is None:
            continue
        if text[start:end] != word:  # written with capitals: a name or an initial ("W."), unless it opens
            opening = not text[:start].strip() and text[start:end] == word.capitalize()  # the question ("Wat year ...")
            if not opening or any(word in pair.split() for pair in protected):
                continue
            standard = standard.capitalize()
        before = words[i - 1][2] if i > 0 else ""
        after = words[i + 1][2] if i + 1 < len(words) else ""
        if f"{before} {word}" in protected or f"{word} {after}" in protected:
            continue
        if word == "1st" and (before in _MONTHS or after in _MONTHS or after == "of" or re.match(r"(?:the )?\d{1,2}(?:st|nd|rd|th)?\b", " ".join(w for _, _, w in words[i + 2 : i + 4]))):
            continue  # "may 1st", "1st of may", "the 1st and 10th of may": a date
        if word == "w" and end < len(text) and text[end] == ".":
            continue  # "w." an initial
        out.append(text[last:start] + standard)
        last = end
    out.append(text[last:])
    written = PATTERNS["time_prefix"].sub(lambda m: _BEFORE_AFTER[m.group(1)], "".join(out))
    return PATTERNS["short_year"].sub(lambda m: f"{m.group(1)} {full_year(int(m.group(2)))}", written)


# a shorter word is one slip from too many others ("diff", "natl"): of four letters only a dropped one is
# put back ("japn", "vist"); of three none ("wen": when, went, ...)
SLIP_MIN_LENGTH = 5
_LETTERS = re.compile(r"(?<![\w'’\-./])([A-Za-z]+)(?:(\.)(?=[\s/,]\s*(\S?)))?(?![\w'’\-])")  # a word; an abbreviation's full stop, the mark after


class Vocabulary:
    """Known words, and the English words that are no slip though no vocabulary of the KG holds them."""

    def __init__(self, known: Iterable[str], english: Iterable[str] = (), reading: Iterable[str] = ()) -> None:
        self.known = frozenset(w for w in known if w.isalpha() and w.islower())
        self.english = frozenset(english)
        self.reading = frozenset(w for w in reading if w.isalpha() and len(w) > 3)  # the words an abbreviation may stand for

    def abbreviated(self, word: str, cut: bool, within: bool = False) -> str | None:
        """The one reading word (its forms one) `word` abbreviates by its start (`cut`, a full stop after it: "bef.", "dipl.")
        or its consonants ("ctry", "mtg"); None if none or several. No title ("Sen."); an English word only `within` a sentence."""
        if len(word) < 3 or word in self.known or word in TITLE_ABBREVIATIONS or word in self.english and not (cut and within) or not cut and re.search("[aeiou]", word):
            return None
        meant = {w for w in self.reading if w.startswith(word) and len(w) > len(word)} if cut else {
            w for w in self.reading if w[0] == word[0] and w[-1] == word[-1] and re.fullmatch(".*?".join(word), w)}
        return min(meant, key=lambda w: (len(w), w)) if len({word_key(w) for w in meant}) == 1 else None

    def corrected(self, text: str) -> str:
        """`text`, each word no vocabulary holds read as the word it abbreviates or the one a slip away (none without English)."""
        return _LETTERS.sub(self._word, text) if self.english else text

    def _word(self, m: re.Match[str]) -> str:
        word, stop = m.group(1), m.group(2) or ""
        lower = word.lower()
        if not word.isupper() and (meant := self.abbreviated(lower, bool(stop), not (m.group(3) or "A").isupper())) is not None:
            return meant.capitalize() if word[0].isupper() else meant
        if len(word) < SLIP_MIN_LENGTH - 1 or word.isupper() or any(w in self.known or w in self.english for w in (lower, stem(lower), lower.removesuffix("s"))):
            return word + stop  # a word, a plural of one, or an acronym
        # a thumb rarely misses the first letter: a slip there ("laud", "saud") is more often another word
        near = {w for w in one_slip_away(lower) & self.known if (w[0] == lower[0] or w[:2] == lower[1::-1]) and (len(w) > len(word) or len(word) >= SLIP_MIN_LENGTH)}
        if len({word_key(w) for w in near}) != 1:  # none, or two words ("chian": china, chain); forms of one are one
            return word + stop
        # forms of one word ("threatend": threaten, threatened): a dropped letter is the likelier slip
        standard = max(near, key=lambda w: (len(w), w))
        return (standard.capitalize() if word[0].isupper() else standard) + stop
