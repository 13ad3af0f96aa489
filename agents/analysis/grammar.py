"""Who did what to whom, from grammar: a masked question rewritten into the one-clause, active form.

The memory learned its methodologies from a few fixed word orders ("Who visited {E1} in {T1}?"), and the role order
and relation words are read off that order. People restructure (passives, "receive N from", agent nouns, clefts and
requests, temporal clauses: `agents.analysis.clauses`): each rule of `RULES` undoes one textbook construction of
English on the masked question (its docstring shows it), so the rest of the analysis sees the active clause. A rule
that drops a clause keeps its content words aside (`Rewrite.dropped`) for relation ranking. Verb forms are not
re-inflected ("to criticised"): the shape and relation words are read by word stem, not by tense.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from agents.analysis import clauses
from agents.analysis.cues import AFTER_FIRST, AFTER_HEAD, CUE_HEAD, FIRST, LAST, POINTS_AT_NEXT
from agents.analysis.grammar_words import (
    _PLACEHOLDER,
    GRAMMAR_WORDS,
    SHARED,
    _adverbs,
    _cap,
    _object,
    _ordinal,
    _passive_adverbs,
    _spliced,
    _who,
)
from agents.analysis.question_form import KNOWING, REQUEST_VERB
from agents.analysis.words import patterns

# the grammar rules' patterns (data/grammar_patterns.json: each with why it is read so, and the questions it is for)
PATTERNS = patterns("grammar_patterns", SHARED | {"CUE_HEAD": CUE_HEAD, "REQUEST_VERB": REQUEST_VERB, "KNOWING": KNOWING})


@dataclass
class Rewrite:
    """A masked question after the grammar rules, with the rules that fired (empty: unchanged) and the
    content words they dropped (a folded clause's verb phrase, a gerund's object noun): what the
    question asks still says which relation it means."""

    text: str
    rules: list[str] = field(default_factory=list)
    dropped: str = ""


def _dropped_words(before: str, after: str) -> str:
    """The content words of `before` that `after` no longer has, in their order (function words carry no relation)."""
    kept = {w.lower() for w in re.findall(r"[A-Za-z]+", after)}
    words = [w for w in re.findall(r"[A-Za-z]+", re.sub(r"\{[ET]\d+\}", " ", before)) if w.lower() not in kept]
    return " ".join(w for w in words if w.lower() not in GRAMMAR_WORDS["function_words"])


# -- agent passives -----------------------------------------------------------------------------


def active_voice(text: str) -> str | None:
    """"{E1} was visited by whom" / "Who was {E1} visited by" / "By whom was {E1} visited" -> "who visited {E1}"."""
    for pattern in (PATTERNS["passive_fronted_by"], PATTERNS["passive_stranded"], PATTERNS["passive_subject"]):
        m = pattern.search(text)
        if m and m.group("verb").lower() not in GRAMMAR_WORDS["not_participles"]:
            subject = next(v for k, v in m.groupdict().items() if k.startswith("subj") and v)
            active = f"{_who(m.group('wh'))} {_passive_adverbs(m)}{m.group('verb')} {_object(subject)}"
            return _spliced(m, active)
    return None


def named_agent_active(text: str) -> str | None:
    """"When was {E1} visited by {E2}" -> "When did {E2} visit(ed) {E1}"; "{E1} was visited by {E2}" -> "{E2} visited {E1}"."""
    for pattern in (PATTERNS["passive_named_asked"], PATTERNS["passive_named"]):
        m = pattern.search(text)
        if m and m.group("verb").lower() not in GRAMMAR_WORDS["not_participles"]:
            asked = f"{m.group('wh') or ''} did " if "wh" in m.groupdict() else ""
            verb = f"{_passive_adverbs(m)}{m.group('verb')}"
            return _spliced(m, f"{asked}{_object(m.group('agent'))} {verb} {_object(m.group('obj'))}")
    return None


# -- passives whose subject is a noun phrase --------------------------------------------------------


def noun_phrase_passive(text: str) -> str | None:
    """"Negative comments about {E1} were made by whom" -> "who made negative comments about {E1}";
    "Formal agreements were signed by {E1} with whom" -> "{E1} signed formal agreements with whom"."""
    if (m := PATTERNS["np_passive_asked"].search(text)) and m.group("verb").lower() not in GRAMMAR_WORDS["not_participles"]:
        clause = f"{m.group('wh') or ''} did {_object(m.group('agent'))} {_adverbs(m.group('adv'))}{m.group('verb')} {m.group('np')}{m.group('pp') or ''}"
        return _spliced(m, clause)
    m = PATTERNS["np_passive"].search(text)
    if m is None or m.group("verb").lower() in GRAMMAR_WORDS["not_participles"]:
        return None
    np = m.group("np")
    np = np[:1].lower() + np[1:]
    agent = _who(m.group("agent")) if _PLACEHOLDER.search(m.group("agent")) is None else _object(m.group("agent"))
    clause = f"{agent} {_adverbs(m.group('adv'))}{m.group('verb')} {np}{m.group('pp1') or ''}"
    return m.group("pre") + clause + text[m.end() :]


def act_doer_first(text: str) -> str | None:
    m = PATTERNS["act_done_by"].search(text)
    if m is None or PATTERNS["cue_before_act"].search(text[: m.start()]):  # "following the visit to X by Y": Y's event, read as the cue's
        return None
    if m.group("by").lower() == "from" and PATTERNS["done_by_subject"].search(text[: m.start()]):
        return None
    return _spliced(m, f"{m.group('noun')} by {m.group('doer')} {m.group('p')} {m.group('done')}")


# -- "receive an N from" ---------------------------------------------------------------------------


def named_giver(text: str) -> str | None:
    """"When did {E1} first receive praise from {E2}?" -> "When did {E2} first praise {E1}?": with both
    parties named, the giver of an N does the N to the receiver (not for what the KG receives by a
    relation of its own: visits, inspectors, peacekeepers)."""
    m = PATTERNS["receive_named"].search(text)
    if m is None or PATTERNS["received_by_relation"].search(m.group("np")):
        return None
    adverb = " ".join(f"{m.group('adv')} {_ordinal(m.group('adv2'))}".split())
    return _spliced(m, f"{_object(m.group('giver'))} {_adverbs(adverb)}{m.group('np')} {_object(m.group('subj'))}")


# -- possessive agent nouns ------------------------------------------------------------------------


def is_agent_noun(word: str) -> bool:
    """A noun of the one who does something, by its English suffix: visitor(s), critic(s), host... no:
    only -or, -er, -ic, -ist ("host" is left to the sector roles)."""
    return PATTERNS["agent_noun"].fullmatch(word.lower()) is not None


def verb_of_agent(noun: str) -> str:
    """"visitors" -> "visit", "critics" -> "critic", "supporters" -> "support": the word stem is
    what the relation words are matched by (`ari.base.text.word_key`)."""
    word = noun.lower().removesuffix("s")
    for suffix in ("or", "er"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)]
    return word


def agent_as_subject(text: str) -> str | None:
    """"Who were {E1}'s visitors" / "Who was the first visitor to {E1}" -> "who (first) visit {E1}"."""
    for pattern in (PATTERNS["possessive_agent"], PATTERNS["agent_to"]):
        if m := pattern.search(text):
            active = f"{_who(m.group('wh'))} {_adverbs(_ordinal(m.group('adv')))}{verb_of_agent(m.group('noun'))} {_object(m.group('subj'))}"
            return _spliced(m, active)
    return None


# -- cleft and request forms -----------------------------------------------------------------------


def plain_question(text: str) -> str | None:
    """"Who was it that visited {E1}" -> "who visited {E1}"; "who else", "which other country" -> "who",
    "which country" (the reference is left out by the temporal comparison itself)."""
    if m := PATTERNS["negative_opening"].search(text):
        return plain_question(text := _spliced(m, m.group("aux"))) or text
    if m := PATTERNS["else"].search(text):
        return plain_question(text := _spliced(m, m.group("wh") or f"{m.group('which')} ")) or text
    if m := PATTERNS["cleft"].search(text):
        did = "did " if PATTERNS["own_subject"].match(text, m.end()) else ""
        return _spliced(m, f"{_who(m.group('wh'))} {did}")
    return None


# -- indirect questions, requests and free relatives ------------------------------------------------
_NOUN_ASKS = {"year": "in which year", "month": "in which month", "date": "when", "day": "when", "time": "when", "country": "which country"}


def _asked_clause(wh: str, rest: str, ordinal: str = "", subject_relative: bool = True) -> str | None:
    """`wh` asking about the clause `rest`: "did" before the clause's own subject and the ordinal after
    it ("which country did {E1} first visited"); a clause with no subject of its own is a subject
    question ("who last praised {E1}"), unless the noun phrase could only be its object."""
    if m := PATTERNS["own_subject_at"].match(rest):
        return f"{wh} did {_object(m.group('subj'))} {_adverbs(ordinal)}{m.group('adv')}{rest[m.end():]}"
    return f"{wh} {_adverbs(ordinal)}{rest}" if subject_relative else None


def indirect_question(text: str) -> str | None:
    """"Tell me when {E1} last visited {E2}" -> "when did {E1} last visited {E2}"; "Name (the) countries that
    praised {E1}" -> "which country praised {E1}"; "Name whoever first praised {E1}", "Who was the first one
    who praised {E1}" -> "who first praised {E1}"; "{E1} praised whom" -> "whom did {E1} praised"."""
    if m := PATTERNS["owner_tagged"].match(text):
        return f"{m.group('pre')}{_who(m.group('wh'))} {_adverbs(_ordinal(m.group('adv')))}{verb_of_agent(m.group('noun'))} {_object(m.group('subj'))}{m.group('rest')}?"
    if m := PATTERNS["asked_np"].match(text):
        noun = m.group("noun").lower()
        singular = re.sub(r"(?:ies|s)$", lambda e: "y" if e.group(0) == "ies" else "", noun) if noun != "people" else "person"
        wh = _NOUN_ASKS.get(singular, "who")
        ordinal = _ordinal(m.group("ord"))
        relative = (m.group("rel") or "").lower()
        asked = _asked_clause(wh, text[m.end():], ordinal, subject_relative=relative in ("that", "which", "who") and wh != "when" and "year" not in wh and "month" not in wh)
        return None if asked is None else m.group("pre") + asked
    if m := PATTERNS["indirect_wh"].match(text):
        wh = "who" if m.group("wh").lower() == "whoever" else m.group("wh")
        asked = _asked_clause(f"{m.group('prep') or ''}{wh}", text[m.end():])
        return None if asked is None else m.group("pre") + asked
    if m := PATTERNS["one_who"].search(text):
        return _spliced(m, f"{_who(m.group('wh'))} {_adverbs(_ordinal(m.group('ord')))}")
    if m := PATTERNS["wh_last"].match(text):
        return f"{m.group('pre')}{m.group('prep')} {m.group('wh')} did {_object(m.group('subj'))} {m.group('vp')}{m.group('end') or '?'}"
    return None


# -- ordinals said another way ---------------------------------------------------------------------


def ordinal_phrase(text: str) -> str | None:
    """"Who followed {E2} in visiting {E1}" -> "who was the first to visiting {E1} after {E2}" (and
    "preceded" -> "the last ... before"); "immediately / just / right after {E2}" -> "first after {E2}";
    "the next to ... after {E2}" -> "the first to ... after {E2}": the one next to a reference in time."""
    if m := PATTERNS["followed"].search(text):
        after = m.group("verb").lower().startswith("follow")
        ordinal, cue = ("first", "after") if after else ("last", "before")
        clause = f"{_who(m.group('wh'))} was the {ordinal} to {m.group('ger')}{m.group('rest').rstrip()} {cue} {m.group('a')}"
        return _spliced(m, clause)
    if (m := AFTER_FIRST.search(text)) or FIRST.search(text) or LAST.search(text):  # "right after his first visit": his second
        return _spliced(m, "the second") if m else None
    if m := PATTERNS["adjacent"].search(text):
        ordinal = "first" if m.group("cue").lower() == "after" else "last"
        return _spliced(m, f"{ordinal} {m.group('cue')}")
    if PATTERNS["next"].search(text) and AFTER_HEAD.search(text):
        return PATTERNS["next"].sub("first", text, count=1)
    return None


# -- a topic taken up by a pronoun -------------------------------------------------------------------


def resumed_topic(text: str) -> str | None:
    """"{E1}, which country did she visit the most?" -> "which country did {E1} visit the most?"; "{E1} {T1} trips -
    what was the third place he went to" -> "{T1} trips, what was the third place {E1} went to"."""
    m = PATTERNS["topic"].match(text)
    if m is None or _PLACEHOLDER.search(m.group("rest")) or re.search(rf"\b(?:{SHARED['WH']}|when|how|did|does|do|was|were|is|are|had|has)\b", m.group("rest"), re.I):
        return None
    if not m.group("mark") and re.search(r"[a-z]", re.sub(r"\{T\d+\}", "", m.group("rest")), re.I) and not PATTERNS["asks_anew"].match(m.group("main")):
        return None  # words after the name and no mark: a question must begin after them ("{E1} denounced whom" is one clause)
    main, topic = m.group("main"), _PLACEHOLDER.search(m.group("topic"))
    if topic is None or topic.group(0) in main or (pronoun := PATTERNS["resuming"].search(main)) is None:
        return None
    rest = m.group("rest").strip()
    return f"{m.group('pre')}{rest + ', ' if rest else ''}{main[: pronoun.start()]}{_object(m.group('topic'))}{main[pronoun.end() :]}"


RULES: tuple[tuple[str, Callable[[str], str | None]], ...] = (
    ("resumed topic", resumed_topic),
    ("indirect question", indirect_question),
    ("plain question", plain_question),
    ("same period clause", clauses.same_period_clause),
    ("companion reference", clauses.companion_reference),
    ("anaphoric reference", clauses.anaphoric_reference),
    ("perfect participle", clauses.perfect_participle_reference),
    ("clause reference", clauses.clause_reference),
    ("reference pro-verb", clauses.reference_proverb),
    ("gerund reference", clauses.gerund_reference),
    ("ordinal phrase", ordinal_phrase),
    ("noun phrase passive", noun_phrase_passive),
    ("active voice", active_voice),
    ("named agent", named_agent_active),
    ("act doer first", act_doer_first),
    ("named giver", named_giver),
    ("agent as subject", agent_as_subject),
    ("template cue", clauses.template_cue),
)


def rewrite(masked: str) -> Rewrite:
    """Apply every rule that fires, each once, in the order of `RULES`."""
    text = masked
    fired: list[str] = []
    for name, rule in RULES:
        changed = rule(text)
        if changed is not None and changed != text:
            text, fired = " ".join(changed.split()), fired + [name]
    if fired:
        text = _cap(re.sub(r"\s*,\s*(?=[?.!]\s*$)", "", text.strip()))  # a comma left before the closing mark by a moved phrase
    return Rewrite(text, fired, _dropped_words(masked, text) if fired else "")


def role_order(masked: str) -> list[int]:
    """Entity numbers in role order, read off a masked question as `question_type.in_role_order`
    reads a question: by first appearance, except that the one a temporal cue points at ("before
    {E2}", "the same month as {E2}") comes last."""
    order = list(dict.fromkeys(int(m.group(1)) for m in _PLACEHOLDER.finditer(masked)))
    pointed = list(dict.fromkeys(int(m.group(1)) for m in _PLACEHOLDER.finditer(masked) if POINTS_AT_NEXT.search(masked[: m.start()])))
    if len(pointed) == 1 and len(order) >= 2:
        order = [n for n in order if n != pointed[0]] + pointed
    return order


def renumber(masked: str, order: list[int], kind: str = "E") -> str:
    """`{E<order[k]>}` -> `{E<k+1>}` (`kind` "T": the times' placeholders); a number not in `order` stays."""
    new = {old: k + 1 for k, old in enumerate(order)}
    return re.sub(rf"\{{{kind}(\d+)\}}", lambda m: f"{{{kind}{new.get(int(m.group(1)), int(m.group(1)))}}}", masked)
