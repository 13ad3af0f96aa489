"""A relation's name made into English verb phrases, for the questions a store asks itself.

A KG names its relations as a dictionary names acts: "Criticize_or_denounce", "Make_a_visit",
"Arrest,_detain,_or_charge_with_legal_action", "worksAt". A question needs the phrase in two forms:
the base form after "did" ("When did X criticize or denounce Y?") and the past tense for a subject
question ("Who criticized or denounced Y?"). Only general English is used: regular inflection, the
common irregular verbs, and which words start a relation name in this KG (those are its verbs).

Which words of a name are verbs: the first (after an adverb: "Physically assault"); in a list
("Abduct, hijack, or take hostage") every item when the first item is a bare verb, since the items
are parallel; after a longer first item ("Accuse of crime, corruption") only an item of several words that starts
with a word starting a relation name of the KG, since such a list usually goes on naming objects. A
name made of a noun and a participle ("position held") is had: "had position held".
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from ari.base.text import stem

# The commonest irregular English verbs (base -> past).
IRREGULAR = {
    "be": "was", "is": "was", "are": "were", "am": "was", "have": "had", "has": "had", "do": "did", "does": "did",
    "make": "made", "give": "gave", "meet": "met", "bring": "brought", "fight": "fought", "hold": "held", "win": "won",
    "take": "took", "sell": "sold", "send": "sent", "begin": "began", "lead": "led", "become": "became", "build": "built",
    "buy": "bought", "get": "got", "go": "went", "see": "saw", "tell": "told", "say": "said", "keep": "kept",
    "leave": "left", "lose": "lost", "pay": "paid", "put": "put", "set": "set", "speak": "spoke", "stand": "stood",
    "teach": "taught", "think": "thought", "write": "wrote", "run": "ran", "grow": "grew", "know": "knew",
    "draw": "drew", "break": "broke", "choose": "chose", "forgive": "forgave", "withdraw": "withdrew",
    "undertake": "undertook", "rise": "rose", "shoot": "shot", "spend": "spent", "strike": "struck", "sit": "sat",
    "wear": "wore", "seek": "sought", "catch": "caught", "feel": "felt", "find": "found", "hear": "heard",
    "hit": "hit", "cut": "cut", "let": "let", "quit": "quit", "bear": "bore", "beat": "beat", "bind": "bound",
    "deal": "dealt", "lend": "lent", "mean": "meant", "ride": "rode", "sing": "sang", "steal": "stole",
    "sweep": "swept", "swear": "swore", "throw": "threw", "understand": "understood", "wake": "woke",
    "overthrow": "overthrew", "uphold": "upheld", "withhold": "withheld", "foresee": "foresaw",
}
# Verbs stressed on their last syllable double its consonant ("expel" -> "expelled").
_DOUBLED = frozenset("expel compel propel repel commit admit permit submit omit emit transmit control patrol refer prefer confer defer occur incur deter regret".split())
_VOWELS = "aeiou"
_SEPARATOR = re.compile(r"(,\s*(?:or\s+|and\s+)?|\s+or\s+|\s+and\s+)")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def past_tense(verb: str) -> str:
    """The simple past of an English verb, by the irregular table or the regular spelling rules."""
    word = verb.lower()
    if word in IRREGULAR:
        return IRREGULAR[word]
    if word.endswith("ed"):  # already a past form ("died", "graduated")
        return word
    if word.endswith("e"):
        return word + "d"
    if len(word) > 2 and word.endswith("y") and word[-2] not in _VOWELS:
        return word[:-1] + "ied"
    if word in _DOUBLED or _short_closed(word):
        return word + word[-1] + "ed"
    return word + "ed"


def _short_closed(word: str) -> bool:
    """One syllable ending consonant-vowel-consonant ("ban", "stop"): the consonant doubles."""
    if len(word) < 3 or len(word) > 4 or word[-1] in _VOWELS + "wxy" or word[-2] not in _VOWELS or word[-3] in _VOWELS:
        return False
    return sum(c in _VOWELS for c in word) == 1


def base_form(verb: str) -> str:
    """The base form of a third-person verb ("works" -> "work", "is" -> "be"); others as they are."""
    word = verb.lower()
    if word in ("is", "are", "was", "were"):
        return "be"
    if word == "has":
        return "have"
    return stem(word)  # "-ies" and "-s" come off as a plural's do ("carries" -> "carry", "dies" -> "die")


def name_words(name: str) -> str:
    """A relation name as plain lower-case words: underscores, camelCase and angle brackets undone."""
    text = name.strip().strip("<>").replace("_", " ")
    return " ".join(_CAMEL.sub(" ", text).split()).lower()


@dataclass(frozen=True)
class RelationWording:
    """How questions say a relation: `base` after "did", `past` for a subject question."""

    base: str
    past: str


def relation_wording(name: str, verbs: Iterable[str] = ()) -> RelationWording:
    """The base and past phrases of relation `name`; `verbs`: words known to be verbs (the first
    words of the KG's relation names, `kg_verbs`)."""
    known = frozenset(verbs)
    parts = _SEPARATOR.split(name_words(name))
    items = parts[0::2]
    separators = parts[1::2] + [""]
    parallel = len(items[0].split()) == 1  # "Abduct, hijack, or take hostage": a list of acts
    base: list[str] = []
    past: list[str] = []
    words_of = name_words(name).split()
    if len(words_of) > 1 and _is_past(words_of[-1]) and not _is_past(words_of[0]):  # "position held": a noun and a participle
        return RelationWording(f"have {' '.join(words_of)}", f"had {' '.join(words_of)}")
    for index, (item, separator) in enumerate(zip(items, separators)):
        words = item.split()
        verb_at = _verb_position(words)
        is_verb = verb_at is not None and (index == 0 or parallel or _goes_on_acting(words, verb_at, items[index - 1], known))
        if is_verb and verb_at is not None:
            plain = base_form(words[verb_at])
            base.append(" ".join([*words[:verb_at], plain, *words[verb_at + 1:]]))
            past.append(" ".join([*words[:verb_at], past_tense(plain), *words[verb_at + 1:]]))
        else:
            base.append(item)
            past.append(item)
        base.append(separator)
        past.append(separator)
    return RelationWording("".join(base).strip(), "".join(past).strip())


def _goes_on_acting(words: list[str], verb_at: int, previous: str, known: frozenset[str]) -> bool:
    """Whether a later item of a list after a longer first item is another act ("impose blockade,
    restrict movement") rather than more objects ("with political dissent, protest") or a verb
    under the previous item's "to" ("threaten to reduce or break relations")."""
    return len(words) > 1 and words[verb_at] in known and " to " not in f" {previous} "


def _is_past(word: str) -> bool:
    return word.endswith("ed") or word in IRREGULAR.values()


def _verb_position(words: list[str]) -> int | None:
    if not words:
        return None
    if words[0].endswith("ly") and len(words) > 1:  # "physically assault"
        return 1
    return 0


def kg_verbs(relation_names: Iterable[str]) -> frozenset[str]:
    """The words that start the KG's relation names: in a KG that names its relations as acts, its verbs."""
    return frozenset(base_form(words.split()[0]) for name in relation_names if (words := name_words(name)))
