"""Subject or object: the grammatical role of each entity in a masked question's active clause.

The answer check (`agents.faithfulness`) needs who did what to whom. The question is already in the
active one-clause form (`agents.analysis.grammar`), so the role is read off the words beside each
placeholder with closed word classes of general English. `head_role` says which role a relation's
head plays: "receive" turns them around, and of a mirror pair the one the clause words is stated.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from agents.analysis.cues import POINTS_AT_NEXT
from agents.analysis.grammar_words import _IRREGULAR_PAST, _PLACEHOLDER, GRAMMAR_WORDS
from agents.analysis.words import patterns
from tkg_store.learned import mirror_relations, one_way_relations, symmetric_relations
from tkg_store.store import TKGStore

# the role readings' patterns (data/role_patterns.json: each with why it is read so, and the questions it is for)
PATTERNS = patterns("role_patterns", {})

SUBJECT, OBJECT, REFERENCE = "subject", "object", "reference"


def clause_roles(masked: str) -> dict[int, str | None]:
    """Entity number (1 for {E1}) -> SUBJECT, OBJECT, REFERENCE or None (unknown). An entity that
    appears more than once keeps a role only when every appearance gives it the same one."""
    found: dict[int, list[str | None]] = {}
    for m in _PLACEHOLDER.finditer(masked):
        found.setdefault(int(m.group(1)), []).append(_role_at(masked[: m.start()], masked[m.end() :]))
    return {n: roles[0] if len(set(roles)) == 1 else None for n, roles in found.items()}


def receives_event(masked: str) -> bool:
    """Whether the clause's verb is one of receiving ("received a visit from", "got aid from")."""
    return bool(PATTERNS["receive"].search(masked))


def head_role(store: TKGStore, masked: str, relation: str) -> str | None:
    """The clause role (SUBJECT / OBJECT) the head of a `relation` fact plays in the asked event; None
    when either may (a symmetric relation, a mirror pair the wording does not tell apart, or a one-way
    relation, whose entities' kinds fix their sides). A mirror of the relation the wording names, and
    "receive" unless the relation names the receiving, swap the roles."""
    if relation in symmetric_relations(store) or relation in one_way_relations(store):
        return None
    mirrors = mirror_relations(store).get(relation, frozenset())
    asked = _worded_member(store, masked, {relation} | mirrors) if mirrors else relation
    if asked is None:
        return None
    direct = asked == relation
    if receives_event(masked) and "receiv" not in store.relation_text(asked).lower():
        direct = not direct
    return SUBJECT if direct else OBJECT


def _worded_member(store: TKGStore, masked: str, family: set[str]) -> str | None:
    """Which of a mirror family the wording states the event as: the one whose own words (not
    shared with the others) the question uses ("host" for Host_a_visit), else the one named by a
    light verb ("make a visit" is what a plain "visit" says)."""
    words = _content_words(masked)
    texts = {r: _content_words(store.relation_text(r)) for r in family}
    named = []
    for relation, own in texts.items():
        others = set().union(*(t for r, t in texts.items() if r != relation))
        # one word's forms: the shorter (of four letters or more, as `_content_words` keeps) begins the longer ("host", "hosted")
        if any(w.startswith(q) or q.startswith(w) for w in own if not any(w.startswith(o) or o.startswith(w) for o in others) for q in words):
            named.append(relation)
    if named:  # one, or several and none sure
        return named[0] if len(named) == 1 else None
    light = [r for r in family if store.relation_text(r).lower().split()[:1] in ([v] for v in GRAMMAR_WORDS["light_verbs"])]
    return light[0] if len(light) == 1 else None


# "get" with a participle is a passive as "be" is ("{E1} got criticised", "did {E1} get visited"); a word may stand before
_GET_PASSIVE = re.compile(r"\s+(?:[a-z]+\s+)?(?:get|got|gets|getting|gotten)\s+(?:\w+ly\s+)?[a-z]+(?:ed|en|wn|ne)\b", re.IGNORECASE)


def _content_words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z]+", text.lower()) if len(w) >= 4}


def _role_at(before: str, after: str) -> str | None:
    if POINTS_AT_NEXT.search(before) or PATTERNS["same_period_of"].search(before):
        return REFERENCE
    if after.startswith("'s") or after.startswith("'"):  # a possessor: "{E1}'s visit"; of one who acts, the one acted on
        return OBJECT if re.match(r"'s?\s+(?:[a-z]+\s+){0,2}?[a-z]{3,}(?:or|ic|ist)s?\b", after) else None  # "{E1}'s most frequent visitor"
    previous = _previous_word(before)
    following = _next_word(after)
    if PATTERNS["seen_doing"].search(before) and PATTERNS["progressive"].match(after):
        return SUBJECT  # "dates that show {E1} criticizing {E2}": the one seen does it, "a record of {E1} criticizing"
    if previous in GRAMMAR_WORDS["do_auxiliaries"]:  # "did {E1} (last) get visited": a get-passive's subject is the one it was done to
        return OBJECT if _GET_PASSIVE.match(after) else SUBJECT
    if previous in GRAMMAR_WORDS["prepositions"]:
        return OBJECT
    if previous in GRAMMAR_WORDS["be_auxiliaries"] and PATTERNS["progressive"].match(after):
        return SUBJECT  # "was {E1} threatening {E2}": active, as "did {E1} threaten"
    if previous in GRAMMAR_WORDS["be_auxiliaries"] or previous in GRAMMAR_WORDS["agent_prepositions"] or previous in GRAMMAR_WORDS["ordinal_adverbs"]:
        return None  # a passive, the doer ("by", "of"), an ordinal before a name ("the last {E1} to visit")
    opens_clause = previous is None or previous in GRAMMAR_WORDS["clause_openers"] or (
        previous in GRAMMAR_WORDS["time_nouns"] and not re.search(r"\bsame\s+\w+\s*$", before, re.IGNORECASE)
    ) or re.match(rf"\s+(?:[a-z]+ly\s+)?(?:[a-z]+ed|had|has|{_IRREGULAR_PAST})\b", after) is not None or (  # "the country {E1} (openly) visited / went to": a relative clause, "that" left out
        following in GRAMMAR_WORDS["be_auxiliaries"] and PATTERNS["progressive"].match(after) is not None  # "how many times {E1} was hosting"
    )
    if opens_clause:  # "the last time {E1} (last) visited": adverbs may stand before the verb
        verb = _next_word(PATTERNS["adverb_run"].sub("", after, count=1))
        if verb in GRAMMAR_WORDS["be_auxiliaries"]:  # "{E1} was visited": passive; "{E1} was hosting": active
            return SUBJECT if PATTERNS["progressive"].match(PATTERNS["adverb_run"].sub("", after, count=1)) else None
        return SUBJECT if _is_open_word(verb) and not _GET_PASSIVE.match(after) else None  # "{E1} got visited": a passive too
    if previous == "":  # another placeholder or a possessive right before: a name read in two parts
        return None
    # after an open-class word (a verb, or a noun that a relative clause follows)
    return OBJECT if not _is_open_word(following) else None


def _previous_word(before: str) -> str | None:
    """The word before a placeholder ("the", "any" skipped), lower case; None at the start of a clause
    (the text's start or a comma), "" when something other than a word stands there."""
    text = re.sub(r"\b(?:the|a|an|any|some)\s*$", "", before.rstrip(), flags=re.IGNORECASE).rstrip()
    if not text or text.endswith((",", ";", ":")):
        return None
    m = re.search(r"([A-Za-z]+)$", text)
    return m.group(1).lower() if m else ""


def _next_word(after: str) -> str | None:
    """The word after a placeholder, lower case; None when punctuation, a time or the end follows."""
    m = re.match(r"\s*([A-Za-z]+)", after)
    return m.group(1).lower() if m else None


def _is_open_word(word: str | None) -> bool:
    """A word that may start a verb phrase: not punctuation, a time, a preposition or an adverb
    that ends an object's phrase."""
    return word is not None and word not in GRAMMAR_WORDS["after_object"] and word not in GRAMMAR_WORDS["prepositions"] and word not in GRAMMAR_WORDS["agent_prepositions"]


class VoiceRoles(NamedTuple):
    read: dict[int, str]  # entity number -> SUBJECT / OBJECT, from a passive or an active past-tense verb
    possessed: list[tuple[int, str]]  # "{E1}'s second visit": (1, "visit")
    acts_by: list[tuple[str, int, int]]  # "visits by {E1} to {E2}": ("visits", doer 1, done to 2); not a participle


def voice_roles(masked: str) -> VoiceRoles:
    """The roles a lookup reads off the verb's voice (`clause_roles` leaves a passive open; for a lookup
    the doer is what counts): a passive's agent the subject and the one it was done to the object, an
    active past-tense verb's two names subject and object; and each possessive before a noun of an
    act ("{E1}'s second visit"), which makes its entity the doer when the KG's relations name the noun; and
    each noun of an act with its doer after "by" or before it ("visits by {E1} to {E2}", "a {E1} visit to {E2}"), alike."""
    read = {int(m.group(1)): OBJECT for m in PATTERNS["passive_patient"].finditer(masked)} | {int(m.group(1)): SUBJECT for m in PATTERNS["passive_agent"].finditer(masked)}
    for m in PATTERNS["active"].finditer(masked):
        read |= {int(m.group(1)): SUBJECT, int(m.group(2)): OBJECT}
    for m in PATTERNS["passive_asked"].finditer(masked):
        if m.group("doer"):
            read |= {int(m.group("done")): OBJECT, int(m.group("doer")): SUBJECT}
        elif m.group("be") or m.group("been"):  # no agent: the one it was done to ("how many times was {E1} visited")
            read |= {int(m.group("done")): OBJECT}
    possessed = [(int(m.group(1)), noun) for m in PATTERNS["possessed_act"].finditer(masked) if not PATTERNS["agent_noun"].search(noun := m.group("noun").lower())]
    acts_by = [
        (noun, int(m.group("doer") or m.group("doer2") or m.group("doer3")), int(m.group("done") or m.group("done2") or m.group("done3")))
        for m in PATTERNS["act_noun_by"].finditer(masked) if not (noun := (m.group("noun") or m.group("noun3")).lower()).endswith("ed")
    ]
    return VoiceRoles(read, possessed, acts_by)
