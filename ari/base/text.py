"""Text as ARI reads it: the one normaliser and stemmer, and what makes a question unreadable.

`normalize_name` folds "Kōichirō Genba", "Koichiro Genba" and `Koichiro_Genba` to one key. `stem` is a
deliberately light English stemmer (plural endings only: it must not merge "government" with
"governor"); `word_key` compares words across inflections by the first five letters of their stem
("criticised" / "criticize", "negotiation" / "negotiate", "talks" / "talk").

Question text enters ARI from argv, question files and library calls. Python hands undecodable bytes
in argv over as lone surrogates (surrogateescape: byte 0xff becomes U+DCFF), and a JSON file may spell
one out ("\\ud800"). Neither can be encoded as UTF-8, so the first encoder down the line (the
tokenizer, SQLite, results.jsonl) would fail far from the question that caused it, taking its whole
batch along. A NUL character is refused too: PostgreSQL text cannot hold it.

`question_problem` is the one rule for what a question may be, wherever it enters: `ari ask` makes its
answer a usage error, the question loaders a malformed record, `ari serve` a 422 reply.

Symbols that are not words ("Who visited 😀 Iran in 2008?", "Who visited - Iran ...") are no part of
what a question asks: `without_symbols` takes them out before analysis, so they cannot move a role.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

STOP_WORDS = frozenset("a an and as at by for from in into of on or such the to with its their".split())
_WORD = re.compile(r"[a-z]+")


_NOT_ALNUM = re.compile(r"[\W_]+")  # what str.isalnum() refuses: \w is isalnum() plus "_"


def fold(text: str) -> str:
    """Accents removed, lower case. Most names are ASCII, which has no accents to remove: they take
    the short way (the same result; building a store's name tables folds every entity name)."""
    if text.isascii():
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text)
    if decomposed.isascii():
        return decomposed.lower()
    return "".join(c for c in decomposed if not unicodedata.combining(c)).lower()


def normalize_name(text: str) -> str:
    """Fold a name for matching: accents removed, underscores/punctuation to spaces, lower case."""
    return " ".join(_NOT_ALNUM.sub(" ", fold(text)).split())


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


_ALPHABET = "abcdefghijklmnopqrstuvwxyz"


@lru_cache(maxsize=8192)
def content_stems(text: str) -> frozenset[str]:
    """`word_key`s of a text's content words (stop words and words of two letters dropped)."""
    return frozenset(word_key(w) for w in _WORD.findall(fold(text)) if w not in STOP_WORDS and len(w) > 2)


def one_slip_away(word: str) -> set[str]:
    """Every lower-case spelling one slip (a letter dropped, added, changed, or two swapped) from `word`: a few hundred,
    looked up in a vocabulary rather than indexing it, as a slip is rare."""
    cuts = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    slips = {a + b[1:] for a, b in cuts if b} | {a + b[1] + b[0] + b[2:] for a, b in cuts if len(b) > 1}
    slips |= {a + c + b[1:] for a, b in cuts if b for c in _ALPHABET} | {a + c + b for a, b in cuts for c in _ALPHABET}
    return slips - {word}


def word_keys(words: Iterable[str]) -> frozenset[str]:
    """The `word_key`s of the words of four letters or more: what `share_a_word` compares."""
    return frozenset(word_key(w) for w in words if len(w) >= 4)


def overlap_score(words: frozenset[str], others: frozenset[str]) -> float:
    """Dice coefficient of two word sets (1.0: the same words)."""
    if not words or not others:
        return 0.0
    return 2.0 * len(words & others) / (len(words) + len(others))


def share_a_word(words: frozenset[str], others: frozenset[str]) -> bool:
    """Whether two word sets share a word of four letters or more, compared by `word_key`."""
    return not word_keys(words).isdisjoint(word_keys(others))


# pictographs and what composes them (variation selectors, the keycap mark, skin tones), and format
# characters (the zero-width joiner): categories So, Cf, Co, Cn, and the marks that only follow an emoji
_EMOJI_PARTS = re.compile("[\ufe00-\ufe0f\u20e3\U0001f3fb-\U0001f3ff\U000e0000-\U000e007f]")
_NOT_WORDS = frozenset({"So", "Cf", "Co", "Cn"})
# a dash, bullet or other mark standing alone between words; sentence punctuation stays
_LONE_MARK = re.compile(r"(?<!\S)(?:[-\u2010-\u2015*~#|\u2022\u00b7=+<>^_\\\u2026]+|\.{2,})(?!\S)")


def without_symbols(text: str, kept: frozenset[str] = frozenset()) -> str:
    """`text` without emoji and other pictographs, and without a dash or mark standing alone (the
    text itself when it has none); where something went, the spaces around it close up. A mark
    between two words that `kept` holds as "word mark word" (folded: a KG name's "company - owner",
    see `marked_words`) stays."""
    if text.isascii() and _LONE_MARK.search(text) is None:
        return text
    words = "".join(" " if _EMOJI_PARTS.match(c) or unicodedata.category(c) in _NOT_WORDS else c for c in text)

    def lone(match: re.Match[str]) -> str:
        before, after = _LAST_WORD.search(words, 0, match.start()), _FIRST_WORD.match(words, match.end())
        around = f"{before.group(1) if before else ''} {match.group(0)} {after.group(1) if after else ''}"
        return match.group(0) if fold(around) in kept else " "

    words = _LONE_MARK.sub(lone, words)
    if words == text:
        return text
    return re.sub(r"\s+(?=[?.!,;:])", "", " ".join(words.split()))


_LAST_WORD, _FIRST_WORD = re.compile(r"(\w+)\s*$"), re.compile(r"\s*(\w+)")

# a hashtag runs a word or a name together ("#BorisJohnson", "#UN"): its words; tags after the sentence
# has ended ("... after Iraq? #diplomacy #travel") name topics, not the question's parties
_HASHTAG = re.compile(r"#(\w+)")
_TRAILING_TAGS = re.compile(r"(?<=[.!?])(?:\s*#\w+)+(?=\W*$)")


def without_hashtags(text: str) -> str:
    """`text` with each hashtag as its words ("#LiuYandong" -> "Liu Yandong") and trailing tags left out."""
    if "#" not in text:
        return text
    return _HASHTAG.sub(lambda m: re.sub(r"(?<=[a-z])(?=[A-Z])", " ", m.group(1)), _TRAILING_TAGS.sub("", text))


def marked_words(names: Iterable[str]) -> frozenset[str]:
    """The "word mark word" of names that hold a mark standing alone ("Company - Owner or Operator"
    -> "company - owner"), folded: what `without_symbols` keeps."""
    found: set[str] = set()
    for name in names:
        for match in _LONE_MARK.finditer(name):
            before, after = _LAST_WORD.search(name, 0, match.start()), _FIRST_WORD.match(name, match.end())
            if before and after:
                found.add(fold(f"{before.group(1)} {match.group(0)} {after.group(1)}"))
    return frozenset(found)


_UNREADABLE = re.compile("[\x00\ud800-\udfff]")
_ESCAPED_BYTES = range(0xDC80, 0xDD00)  # how surrogateescape carries the bytes 0x80-0xff
REPLACEMENT = "\ufffd"


def unreadable(text: object) -> str | None:
    """Why `text` cannot be read as question text, or None when it can."""
    if not isinstance(text, str):
        return f"expected text, got {type(text).__name__}"
    found = _UNREADABLE.search(text)
    if found is None:
        return None
    code = ord(found.group())
    where = f"at character {found.start() + 1}"
    if code == 0:
        return f"a NUL character {where}"
    if code in _ESCAPED_BYTES:
        return f"invalid UTF-8 byte 0x{code - 0xDC00:02x} {where}"
    return f"a lone surrogate U+{code:04X} {where}"


def readable(text: str) -> str:
    """`text` with every character that cannot be read replaced by U+FFFD (for library callers that
    must answer something: the question then fails or succeeds on its own)."""
    return _UNREADABLE.sub(REPLACEMENT, text)


MAX_QUESTION_CHARS = 2000  # MultiTQ's longest question has 173 characters; a 10 MB one held the agent for 30 s


def question_problem(text: object) -> str | None:
    """What is wrong with `text` as a question, as the end of a sentence about it ("is empty"), or None."""
    why = unreadable(text)
    if why is not None or not isinstance(text, str):
        return f"cannot be read: {why}"
    if not text.strip():
        return "is empty"
    if len(text) > MAX_QUESTION_CHARS:
        return f"is longer than {MAX_QUESTION_CHARS} characters ({len(text)})"
    return None
