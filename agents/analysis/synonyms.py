"""Words the relation lexicon never saw, read as the closest word it did ("slammed" -> "criticised").

The lexicon (`agents.analysis.relations`) learns from template questions: it knows "criticised" but
not "slammed". An unseen word maps to its general-English synonym among the KG's relation verbs
(`GENERAL_SYNONYMS`), else a word with the same `word_key`, else its nearest neighbour by embedding
at cosine SYNONYM_FLOOR or more. Embedding starts at the first unseen word: templates never pay for it.
"""

from __future__ import annotations

import re
from functools import cache
from os.path import commonprefix

import numpy as np

from agents.analysis.cues import CUE_WORDS
from agents.analysis.grammar_words import GRAMMAR_WORDS
from agents.analysis.words import data
from ari.base.embedding import Embedder
from ari.base.text import STOP_WORDS, word_key

SYNONYM_FLOOR = 0.6

# General English: an unseen word or phrasal verb -> the word the lexicon knows for that act
# (data/synonyms.json). Single MiniLM word vectors cannot be trusted here ("positive" is nearest
# "negative", "condemned" is as near "praised" as "criticised"). Consulted only for n-grams the lexicon
# never saw, so a question worded as the learning split's templates are never reads it; an entry whose
# target the lexicon does not know is ignored.
GENERAL_SYNONYMS = {word: known for known, words in data("synonyms")["synonyms"].items() for word in words}
_PHRASES = {phrase: known for phrase, known in GENERAL_SYNONYMS.items() if " " in phrase}  # "went to": visited


def said_phrases(text: str) -> dict[str, str]:
    """The thesaurus's phrases of several words that `text` says whole ("went to {E2}": "went to" -> visited): its
    single words say less ("went" alone is no visit: "went out with")."""
    said = f" {' '.join(re.findall(r'[a-z]+', text.lower()))} "
    return {phrase: known for phrase, known in _PHRASES.items() if f" {phrase} " in said}


# WordNet's plainer words for a verb (data/wordnet_verbs.json, `benchmarks/wordnet_verbs.py`): its most
# frequent sense's synonyms and the verb it is a kind of ("haggle": bargain; "implore": beg, plead).
# Read at the first verb no other table knows, not at start-up (600 KiB: about 11 ms of every command).
@cache
def wordnet_verbs() -> dict[str, dict]:
    """The bundled WordNet table: "verbs" (lemma -> plainer words) and "forms" (irregular form -> lemma)."""
    return data("wordnet_verbs")
_SUFFIXES = (("ies", "y"), ("ied", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"), ("ing", ""), ("s", ""))


def plainer_words(verb: str) -> list[str]:
    """WordNet's plainer words for a verb or phrasal verb in any inflection ("haggled", "brushed off"); [] for none."""
    table = wordnet_verbs()
    head, _, rest = verb.partition(" ")
    bases = [table["forms"].get(head, head)]
    for suffix, ending in _SUFFIXES:
        if head.endswith(suffix) and len(head) > len(suffix) + 2:
            base = head[: -len(suffix)] + ending
            bases += [base, base[:-1]] if base[-1] == base[-2] else [base]  # "slapped" -> "slap"
    return next((found for b in bases if (found := table["verbs"].get(f"{b} {rest}".strip()))), [])


def content_word(word: str, shortest: int = 4) -> bool:
    """A word that may name an act: letters only, `shortest` or more ("ask", "say" have three), no
    function, cue or question word."""
    return len(word) >= shortest and word.isascii() and word.isalpha() and word.islower() and word not in STOP_WORDS and word not in GRAMMAR_WORDS["no_relation"] and word not in CUE_WORDS


class SynonymMap:
    """Unseen word -> known word, by stem then by embedding (None: nothing close)."""

    def __init__(self, known: dict[str, float], embedder: Embedder | None) -> None:
        self.known = sorted((w for w in known if content_word(w)), key=lambda w: (-known[w], w))
        self.embedder = embedder
        self._general = {w: known_word for w, known_word in GENERAL_SYNONYMS.items() if known_word in known}
        self._by_key: dict[str, list[str]] = {}
        for word in self.known:  # most credited first: "criticise" before "criticize" under the key "criti"
            self._by_key.setdefault(word_key(word), []).append(word)
        self._matrix: np.ndarray | None = None
        self._cache: dict[str, str | None] = {}

    def __call__(self, word: str) -> str | None:
        if word not in self._cache:
            self._cache[word] = self._general.get(word) or self._inflected(word) or self._nearest(word)
        return self._cache[word]

    def listed(self, word: str) -> bool:
        """Whether the thesaurus or a known word's stem reads `word` (not a mere embedding neighbour)."""
        return word in self._general or self._inflected(word) is not None

    def _inflected(self, word: str) -> str | None:
        """The most credited known word `word` differs from in its ending only (four letters at most): "invested" is no "investigated"."""
        return next((k for k in self._by_key.get(word_key(word), ()) if len(commonprefix([word, k])) >= max(len(word), len(k)) - 4), None)

    def phrase(self, gram: str) -> str | None:
        """The known word a two-word phrasal verb stands for ("turned down" -> "rejected"), or None."""
        return self._general.get(gram)

    def _nearest(self, word: str) -> str | None:
        if self.embedder is None or not self.known:
            return None
        if self._matrix is None:
            self._matrix = self.embedder.embed_batch(self.known)
        sims = self._matrix @ self.embedder.embed_batch([word])[0]
        best = int(np.argmax(sims))
        return self.known[best] if sims[best] >= SYNONYM_FLOOR else None


def carries_no_act(word: str) -> bool:
    """A light or receiving verb ("made", "received"): the noun after it says what the act is."""
    return word in GRAMMAR_WORDS["carrier_verbs"]
