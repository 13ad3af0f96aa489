"""ICEWS sector roles: how well a phrase ("finance ministry", "MP", "citizens") names a sector role
("Treasury/Finance Ministry") of names such as `Treasury/Finance_Ministry_(Japan)`.

Not the E1/E2 slots of abstract programs (`agents.roles`). Two signals: word overlap after light
stemming and general-English equivalences ("MP" / member of parliament), and embedding similarity;
a phrase is compared only with its qualifier's few dozen roles, so a modest similarity is decisive.
"""

from __future__ import annotations

import numpy as np

from agents.analysis.words import DATA, data
from ari.base.text import normalize_name, overlap_score, stem

_FUNCTION_WORDS = frozenset({"of", "the", "a", "an", "and", "for", "s", "in", "on", "to"})

# General-English equivalences (spelling variants, abbreviations, plural forms the stemmer misses) and
# multi-word paraphrases of role names, applied before them (data/role_words.json)
ROLE_WORDS = DATA / "role_words.json"
_TABLES = data("role_words")
_EQUIVALENT: dict[str, str] = _TABLES["equivalents"]
_PHRASES: dict[str, str] = _TABLES["phrases"]


def role_vocabulary(role_texts) -> frozenset[str]:
    """Every content word of every role name, and every word with a listed equivalent: the words a role phrase is made of."""
    words: set[str] = set().union(*map(content_words, role_texts))
    for phrase, meaning in (*_EQUIVALENT.items(), *_PHRASES.items()):
        words.update(stem(w) for w in f"{phrase} {meaning}".split() if w not in _FUNCTION_WORDS)
    return frozenset(words)


def content_words(text: str) -> frozenset[str]:
    words: list[str] = []
    folded = f" {normalize_name(text)} "
    for phrase, meaning in _PHRASES.items():
        folded = folded.replace(f" {phrase} ", f" {meaning} ")
    for word in folded.split():
        if word in _FUNCTION_WORDS:
            continue
        # an equivalent's own words are read through the table too: "mp" -> "member parliament" ->
        # "member legislature", as "Member of Parliament" is read
        for part in _EQUIVALENT.get(word, word).split():
            words.extend(stem(w) for w in (_EQUIVALENT.get(part, part) if part != word else part).split())
    return frozenset(words)


def role_scores(
    phrase: str,
    roles: list[tuple[str, frozenset[str], int]],
    phrase_vector: np.ndarray | None,
    role_matrix: np.ndarray | None,
) -> list[float]:
    """Score `phrase` against each (role text, role words, role vector row); in [0, 1]."""
    words = content_words(phrase)
    sims = [0.0] * len(roles)
    if phrase_vector is not None and role_matrix is not None and roles:
        sims = [float(s) for s in role_matrix[np.array([row for _, _, row in roles])] @ phrase_vector]
    lexical = [overlap_score(words, role_words) for _, role_words, _ in roles]
    return [max(word, 0.5 * (word + semantic), semantic * 0.95) for word, semantic in zip(lexical, sims)]
