"""Chat spellings written out: "wat yr did merkel visit kuwait b4 08" -> "what year did merkel visit kuwait before 2008".

People typing fast use the spellings of text messages and the abbreviations of newspapers ("wat",
"b4", "abt", "w" for "with", "1st", "yr", "govt", "in 09"): general-English conventions, rewritten
once before analysis so every later stage reads the standard word. A form is left as written where the
KG's own names use it as a word ("w" in "George W Bush": `protected_ngrams`), and "1st" in a date.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from agents.analysis.times import MONTHS, full_year

# chat and newspaper abbreviations -> the standard word (lower case: they are only written so)
SPELLINGS: dict[str, str] = {
    "wat": "what", "wot": "what", "wht": "what", "wen": "when", "whn": "when", "wich": "which", "wer": "where",
    "b4": "before", "abt": "about", "w": "with", "w/": "with", "thru": "through", "til": "until", "till": "until",
    "1st": "first", "yr": "year", "yrs": "years", "mth": "month", "mths": "months", "ppl": "people",
    "govt": "government", "govts": "governments", "gov't": "government", "intl": "international",
    "int'l": "international", "natl": "national", "nat'l": "national", "dept": "department",
    "depts": "departments", "pls": "please", "plz": "please",
}  # fmt: skip
_MONTHS = frozenset(MONTHS)  # month names and their abbreviations, as the time reader knows them
_WORD = re.compile(r"(?<![\w'’/])(?:gov't|int'l|nat'l|w/|[a-z0-9]+)(?![\w'’/])")
# a two-digit year after a preposition ("in 09", "back in 06", "of 05", "since 07"); not a day
# ("in 09 may") or a count ("in 10 days"): the word after it is no month, unit or number
_SHORT_YEAR = re.compile(
    r"\b(in|of|since|before|after|until|during|by)\s+'?(\d{2})\b(?![/\-.:]\d|\s*(?:st|nd|rd|th)\b)"
    r"(?!\s+(?:" + "|".join(sorted(_MONTHS)) + r"|days?|weeks?|months?|years?|times?|countries|people|\d)\b)",
    re.IGNORECASE,
)


def protected_ngrams(name_keys: Iterable[str]) -> frozenset[str]:
    """The word bigrams of KG names that hold a chat form as a word ("george w", "w bush")."""
    found: set[str] = set()
    for key in name_keys:
        words = key.split()
        for i, word in enumerate(words):
            if word in SPELLINGS:
                if i > 0:
                    found.add(f"{words[i - 1]} {word}")
                if i + 1 < len(words):
                    found.add(f"{word} {words[i + 1]}")
    return frozenset(found)


def standard_spelling(text: str, protected: frozenset[str] = frozenset()) -> str:
    """The question with its chat spellings written out (the text itself when it has none)."""
    lowered = text.lower()
    words = [(m.start(), m.end(), m.group(0)) for m in _WORD.finditer(lowered)]
    out, last = [], 0
    for i, (start, end, word) in enumerate(words):
        standard = SPELLINGS.get(word)
        if standard is None:
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
        if word == "1st" and (before in _MONTHS or after in _MONTHS or after == "of"):
            continue  # "may 1st", "1st of may": a date
        if word == "w" and end < len(text) and text[end] == ".":
            continue  # "w." an initial
        out.append(text[last:start] + standard)
        last = end
    out.append(text[last:])
    written = "".join(out)
    return _SHORT_YEAR.sub(lambda m: f"{m.group(1)} {full_year(int(m.group(2)))}", written)

