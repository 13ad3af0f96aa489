"""Who did what to whom, from grammar: a masked question rewritten into the one-clause, active form.

The memory learned its methodologies from a few fixed word orders ("Who visited {E1} in {T1}?"), and
the role order and relation words are read off that order. People restructure (passives, "receive N
from", agent nouns, clefts and requests, temporal clauses: `agents.analysis.clauses`): each rule of
`RULES` undoes one textbook construction of English on the masked question (its docstring shows it),
so the rest of the analysis sees the active clause. A rule that drops a clause keeps its content words
aside (`Rewrite.dropped`) for relation ranking. Verb forms are not re-inflected ("to criticised"):
the shape and relation words are read by word stem, not by tense.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from agents.analysis.clauses import (
    anaphoric_reference,
    clause_reference,
    companion_reference,
    gerund_reference,
    perfect_participle_reference,
    reference_proverb,
    same_period_clause,
    template_cue,
)
from agents.analysis.cues import AFTER_FIRST, AFTER_HEAD, CUE_HEAD, FIRST, LAST, POINTS_AT_NEXT
from agents.analysis.grammar_words import (
    _ADVERB,
    _AGENT_SUFFIX,
    _BE,
    _BE_PASSIVE,
    _ENT,
    _NOT_PARTICIPLES,
    _PLACEHOLDER,
    _POST_ADVERB,
    _RECEIVE,
    _WH,
    GRAMMAR_WORDS,
    _adverbs,
    _cap,
    _object,
    _ordinal,
    _passive_adverbs,
    _spliced,
    _who,
)
from agents.analysis.question_form import KNOWING, REQUEST_VERB
from agents.analysis.words import english


@dataclass
class Rewrite:
    """A masked question after the grammar rules, with the rules that fired (empty: unchanged) and the
    content words they dropped (a folded clause's verb phrase, a gerund's object noun): what the
    question asks still says which relation it means."""

    text: str
    rules: list[str] = field(default_factory=list)
    dropped: str = ""


_FUNCTION_WORDS = GRAMMAR_WORDS["function_words"]  # words that carry no relation: a rule may drop them


def _dropped_words(before: str, after: str) -> str:
    """The content words of `before` that `after` no longer has, in their order."""
    kept = {w.lower() for w in re.findall(r"[A-Za-z]+", after)}
    words = [w for w in re.findall(r"[A-Za-z]+", re.sub(r"\{[ET]\d+\}", " ", before)) if w.lower() not in kept]
    return " ".join(w for w in words if w.lower() not in _FUNCTION_WORDS)


# -- agent passives -----------------------------------------------------------------------------
_PARTICIPLE_BY = rf"(?P<adv>{_ADVERB})(?P<verb>[a-z]+)(?P<post>{_POST_ADVERB})\s+by"  # "(first) visited (there) by"
_PASSIVE_SUBJECT = english(rf"(?P<subj>{_ENT})\s+(?:{_BE})\s+{_PARTICIPLE_BY}\s+(?P<wh>{_WH})\b")
_PASSIVE_STRANDED = english(
    # "was X visited by", and the get- and perfect passives "did X get visited by", "had X been visited by"
    # (a plain "did X speak by telephone" is no passive: its "by" is the means)
    rf"\b(?P<wh>{_WH})\s+(?:(?:{_BE})\s+(?P<subj>{_ENT})|(?:did|does|do)\s+(?P<subj_get>{_ENT})\s+(?:get|be)"
    rf"|(?:has|have|had)\s+(?P<subj_perfect>{_ENT})\s+been)\s+{_PARTICIPLE_BY}\b(?!\s*(?:the\s+)?\{{)",
)
_PASSIVE_FRONTED_BY = re.compile(
    rf"\bby\s+(?P<wh>{_WH})\s+(?:{_BE})\s+(?P<subj>{_ENT})\s+(?P<adv>{_ADVERB})(?P<verb>[a-z]+)\b", re.IGNORECASE
)


# the question words of a time question: "when", "in which year", "what date" ...
_ASKS_WHEN = r"when|(?:in|on|during)\s+(?:which|what)\s+(?:year|month|day|date)|(?:which|what)\s+(?:year|month|day|date)"

# asked when, how often, or yes / no ("Was {E1} criticized or denounced by {E2}?")
_HOW_OFTEN = r"how\s+(?:many\s+times|often|frequently)|(?:on\s+)?how\s+many\s+(?:days|occasions)"
_PASSIVE_NAMED_ASKED = english(
    rf"(?:\b(?P<wh>{_ASKS_WHEN}|{_HOW_OFTEN})\s+|^\W*)"
    rf"(?:{_BE_PASSIVE}|(?:did|does|do)(?=\s+{_ENT}\s+get\s))\s+(?P<obj>{_ENT})\s+(?:get\s+)?(?P<adv>{_ADVERB})(?P<verb>[a-z]+(?:,?\s+(?:or|and)\s+[a-z]+(?:ed|en|wn|ne))*)(?P<post>{_POST_ADVERB})"
    rf"\s+by\s+(?P<agent>{_ENT})",
)
_PASSIVE_NAMED = english(rf"(?P<obj>{_ENT})\s+(?:{_BE_PASSIVE})\s+{_PARTICIPLE_BY}\s+(?P<agent>{_ENT})")


def active_voice(text: str) -> str | None:
    """"{E1} was visited by whom" / "Who was {E1} visited by" / "By whom was {E1} visited" -> "who visited {E1}"."""
    for pattern in (_PASSIVE_FRONTED_BY, _PASSIVE_STRANDED, _PASSIVE_SUBJECT):
        m = pattern.search(text)
        if m and m.group("verb").lower() not in _NOT_PARTICIPLES:
            subject = next(v for k, v in m.groupdict().items() if k.startswith("subj") and v)
            active = f"{_who(m.group('wh'))} {_passive_adverbs(m)}{m.group('verb')} {_object(subject)}"
            return _spliced(m, active)
    return None


def named_agent_active(text: str) -> str | None:
    """"When was {E1} visited by {E2}" -> "When did {E2} visit(ed) {E1}"; "{E1} was visited by {E2}" -> "{E2} visited {E1}"."""
    for pattern in (_PASSIVE_NAMED_ASKED, _PASSIVE_NAMED):
        m = pattern.search(text)
        if m and m.group("verb").lower() not in _NOT_PARTICIPLES:
            asked = f"{m.group('wh') or ''} did " if "wh" in m.groupdict() else ""
            verb = f"{_passive_adverbs(m)}{m.group('verb')}"
            return _spliced(m, f"{asked}{_object(m.group('agent'))} {verb} {_object(m.group('obj'))}")
    return None


# -- passives whose subject is a noun phrase --------------------------------------------------------
# "Negative comments about {E1} were made by whom": the subject is the object noun of the act (a
# relation's own words), and a party named inside it is its prepositional object
_NP_PASSIVE = english(
    rf"^(?P<pre>\W*(?:(?:in|on|during|before|after|prior\s+to|since|until|by)\s+(?:the\s+)?\{{T\d+\}}\s*,\s*)?)"
    rf"(?P<np>(?!(?:{_WH}|when|where|how|in|on|at|during|before|after|by|from|to|with|the|a|an|this|that|it|there)\b)"
    rf"[A-Za-z][a-z]+(?:\s+[a-z]+){{0,3}}?(?:\s+(?:about|against|with|to|towards?|on|of|for)\s+{_ENT})?)"
    rf"\s+(?:{_BE_PASSIVE})\s+(?P<adv>{_ADVERB})(?P<verb>[a-z]+)"
    rf"(?P<pp1>\s+(?:against|with|to|about|on|towards?|for)\s+{_ENT})?"
    rf"\s+by\s+(?P<agent>(?:{_WH})\b|{_ENT})",
)


_PARTICIPLE = r"[a-z]+(?:ed|en)|made|held|sent|paid|met|sought|said|told|brought|fought|led|won|built|sold|bought|struck|done|shown|put|set|cut"
# "On what date was an appeal made to {E1} by {E2}?", "When was the first formal agreement signed with
# {E1} by {E2}?": a time question about a noun-phrase passive with a named agent
_NP_PASSIVE_ASKED = english(
    rf"(?:\b(?P<wh>{_ASKS_WHEN}|{_HOW_OFTEN})\s+|^\W*)"
    rf"(?:{_BE_PASSIVE})\s+(?P<np>(?!(?:it|he|she|they|this|that|there)\b)(?:(?:a|an|the|any|some)\s+)?(?:[a-z]+\s+){{0,3}}?[a-z]+)\s+(?P<adv>{_ADVERB})(?P<verb>{_PARTICIPLE})"
    # the act's object before the agent ("made to {E1} by {E2}"); "the visit to {E1} by {E2}" has no verb
    rf"(?P<pp>\s+(?:against|with|to|about|on|towards?|for|of)\s+{_ENT})\s+by\s+(?P<agent>{_ENT})",
)


def noun_phrase_passive(text: str) -> str | None:
    """"Negative comments about {E1} were made by whom" -> "who made negative comments about {E1}";
    "Formal agreements were signed by {E1} with whom" -> "{E1} signed formal agreements with whom"."""
    if (m := _NP_PASSIVE_ASKED.search(text)) and m.group("verb").lower() not in _NOT_PARTICIPLES:
        clause = f"{m.group('wh') or ''} did {_object(m.group('agent'))} {_adverbs(m.group('adv'))}{m.group('verb')} {m.group('np')}{m.group('pp') or ''}"
        return _spliced(m, clause)
    m = _NP_PASSIVE.search(text)
    if m is None or m.group("verb").lower() in _NOT_PARTICIPLES:
        return None
    np = m.group("np")
    np = np[:1].lower() + np[1:]
    agent = _who(m.group("agent")) if _PLACEHOLDER.search(m.group("agent")) is None else _object(m.group("agent"))
    clause = f"{agent} {_adverbs(m.group('adv'))}{m.group('verb')} {np}{m.group('pp1') or ''}"
    return m.group("pre") + clause + text[m.end() :]


# "criticism of {E1} by {E2}", "praise for {E1} from {E2}": a noun of an act with its doer after "by" or "from" (the
# act's source) names the doer first, as the active voice does ("visits by {E2} to {E1}"; not a participle: "was {E1} visited by")
_ACT_DONE_BY = english(rf"\b(?P<noun>[a-z]+(?<!ed))\s+(?P<p>to|of|on|against|with|towards?|for)\s+(?P<done>{_ENT})\s+(?P<by>by|from)\s+(?P<doer>{_ENT})")
# an act noun that a verb of doing takes as its object ("who made an offer to X from Y", "who issued a warning to X from Y"): that verb's subject did the
# act, and "from" says where it was made, not who made it (a passive's "was made ... by Y" still names the doer)
_DONE_BY_SUBJECT = re.compile(r"\b(?:make|makes|made|making|give|gives|gave|given|pa(?:y|ys|id)|hold|holds|held|issu(?:e|es|ed)|lodg(?:e|es|ed)|launch(?:es|ed)?)"
                              r"\s+(?:(?:a|an|the|any|some|its|their|his|her)\s+)?(?:[a-z]+\s+)?$", re.IGNORECASE)


def act_doer_first(text: str) -> str | None:
    m = _ACT_DONE_BY.search(text)
    if m is None or _CUE_BEFORE_ACT.search(text[: m.start()]):  # "following the visit to X by Y": Y's event, read as the cue's
        return None
    if m.group("by").lower() == "from" and _DONE_BY_SUBJECT.search(text[: m.start()]):
        return None
    return _spliced(m, f"{m.group('noun')} by {m.group('doer')} {m.group('p')} {m.group('done')}")


_CUE_BEFORE_ACT = english(rf"\b(?:{CUE_HEAD})\s+(?:(?:the|a|an|his|her|its|their)\s+)?(?:[a-z]+\s+)?$")


# -- "receive an N from" ---------------------------------------------------------------------------
# The KG states receiving some things with relations of their own (Host_a_visit, Receive_inspectors,
# Receive_deployment_of_peacekeepers): "When did X receive the visit from Y" is a template of its own
_RECEIVED_BY_RELATION = english(r"\b(?:visit|visits|inspectors?|deployments?|peacekeepers?)\b")
_RECEIVE_NAMED = english(
    rf"(?P<subj>{_ENT})\s+(?P<adv>{_ADVERB})(?:{_RECEIVE})\s+(?:(?:a|an|the|any|some|its|their|his|her)\s+)?"
    rf"(?P<adv2>(?:(?:first|last|latest|earliest|final)\s+)?)(?P<np>(?:[a-z]+\s+){{0,2}}?[a-z]+)\s+from\s+(?P<giver>{_ENT})",
)


def named_giver(text: str) -> str | None:
    """"When did {E1} first receive praise from {E2}?" -> "When did {E2} first praise {E1}?": with both
    parties named, the giver of an N does the N to the receiver (not for what the KG receives by a
    relation of its own: visits, inspectors, peacekeepers)."""
    m = _RECEIVE_NAMED.search(text)
    if m is None or _RECEIVED_BY_RELATION.search(m.group("np")):
        return None
    adverb = " ".join(f"{m.group('adv')} {_ordinal(m.group('adv2'))}".split())
    return _spliced(m, f"{_object(m.group('giver'))} {_adverbs(adverb)}{m.group('np')} {_object(m.group('subj'))}")


# -- possessive agent nouns ------------------------------------------------------------------------
_AGENT_NOUN = rf"(?P<noun>{_AGENT_SUFFIX})"
_ORDINAL = r"(?P<adv>(?:(?:first|last|latest|earliest|most\s+recent|recent|final|only)\s+)?)"
_WH_IS = rf"\b(?P<wh>{_WH})\s+(?:was|were|is|are|has\s+been|have\s+been)\s+"
_POSSESSIVE_AGENT = english(rf"{_WH_IS}(?P<subj>{_ENT})'s\s+{_ORDINAL}{_AGENT_NOUN}\b")
_AGENT_TO = english(rf"{_WH_IS}the\s+{_ORDINAL}{_AGENT_NOUN}\s+(?:to|of)\s+(?P<subj>{_ENT})")


def is_agent_noun(word: str) -> bool:
    """A noun of the one who does something, by its English suffix: visitor(s), critic(s), host... no:
    only -or, -er, -ic, -ist ("host" is left to the sector roles)."""
    return re.fullmatch(_AGENT_NOUN, word.lower()) is not None


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
    for pattern in (_POSSESSIVE_AGENT, _AGENT_TO):
        if m := pattern.search(text):
            active = f"{_who(m.group('wh'))} {_adverbs(_ordinal(m.group('adv')))}{verb_of_agent(m.group('noun'))} {_object(m.group('subj'))}"
            return _spliced(m, active)
    return None


# -- cleft and request forms -----------------------------------------------------------------------
_TIME_WH = rf"{_ASKS_WHEN}|(?:which|what)\s+time"
# "Which year was it (that) {E1} visited ...", "When was it that ...": the relative word may be left
# out before a clause with a subject of its own
_CLEFT = re.compile(
    rf"\b(?P<wh>{_TIME_WH}|{_WH})\s+(?:was|is|were|are)\s+it\s+(?:(?:that|who|which|when)\s+|(?=(?:(?:the|a|an)\s+)?\{{E\d+\}}))", re.IGNORECASE
)
# the clause after a cleft has a subject of its own ("... that {E1} visited", "... that it visited"): the
# question then asks with "did", as the templates do ("Which year did {E1} last visit ...")
_OWN_SUBJECT = english(r"(?:(?:the|a|an)\s+)?\{E\d+\}(?!'s)|(?:he|she|it|they)\b")


_ELSE = english(rf"\b(?P<wh>{_WH})\s+else\b|\b(?P<which>which|what)\s+other\s+(?=[a-z])")


# a negative question asks as the positive does ("Wasn't {E1} threatened by {E2}?"): the auxiliary without its "not"
_NEGATIVE_OPENING = english(r"^(?P<aux>\W*(?:was|were|is|are|did|does|do|has|have|had))n['’]t\b")


def plain_question(text: str) -> str | None:
    """"Who was it that visited {E1}" -> "who visited {E1}"; "who else", "which other country" -> "who",
    "which country" (the reference is left out by the temporal comparison itself)."""
    if m := _NEGATIVE_OPENING.search(text):
        return plain_question(text := _spliced(m, m.group("aux"))) or text
    if m := _ELSE.search(text):
        text = _spliced(m, m.group("wh") or f"{m.group('which')} ")
        return plain_question(text) or text
    if m := _CLEFT.search(text):
        did = "did " if _OWN_SUBJECT.match(text, m.end()) else ""
        return _spliced(m, f"{_who(m.group('wh'))} {did}")
    return None


# -- indirect questions, requests and free relatives ------------------------------------------------
# An indirect question or a request keeps a statement's word order ("Tell me when {E1} last visited {E2}");
# the direct question puts "did" before its subject. A noun phrase asked for asks with its own noun.
_FRAME = (
    r"^(?P<pre>\W*)(?:(?:could|can|would|will)\s+you\s+)?(?:please\s+)?"
    rf"(?:find\s+out|{REQUEST_VERB}|{KNOWING}|do\s+you\s+know)\s*[,:]?\s+(?:please\s+)?"
)
# a clause with a subject of its own: "{E1} last visited ...", "the {E1} first praised ...", "it visited ..."
_OWN_SUBJECT_AT = english(rf"(?P<subj>{_ENT}(?!'s)|(?:he|she|it|they)\b)\s+(?P<adv>{_ADVERB})(?=[a-z])")
_INDIRECT_WH = english(
    _FRAME + r"(?P<prep>(?:to|with|against|about|for|from|of|by|on|in)\s+)?(?P<wh>when|who|whom|whoever|(?:which|what)\s+[a-z]+)\s+",
)
_ASKED_NP = english(
    _FRAME + r"(?:the\s+)?(?:(?P<ord>first|last|earliest|latest|most\s+recent|final)\s+)?"
    r"(?P<noun>years?|months?|dates?|days?|times?|countr(?:y|ies)|ones?|persons?|people|part(?:y|ies)|entit(?:y|ies)|actors?)\s+"
    r"(?:(?P<rel>that|which|who|whom|when|(?:in|on|during)\s+which)\s+)?",
)
_NOUN_ASKS = {"year": "in which year", "month": "in which month", "date": "when", "day": "when", "time": "when", "country": "which country"}
# "Who was the (last) one who condemned {E1}": a pronoun "one" heading a subject relative is the asked one
_ONE_WHO = english(
    rf"\b(?P<wh>{_WH})\s+(?:was|were|is|are)\s+the\s+(?:(?P<ord>first|last|earliest|latest|most\s+recent|final)\s+)?"
    rf"(?:one|ones|person|people)\s+(?:who|that)\s+(?=(?!(?:the|a|an|he|she|it|they)\b)[a-z])",
)
# "{E1} made their first request after {E2} to whom?": the question word left in the object's place
# ("... from whom" is left to the receive rules: "{E1} received a visit from whom")
_WH_LAST = english(
    rf"^(?P<pre>\W*)(?P<subj>{_ENT}(?!'s))\s+(?P<vp>(?!(?:{_BE_PASSIVE}|had|did|does|do)\b)[a-z][^?]*?)\s+"
    rf"(?P<prep>to|with|about|against|for|on|at|towards?)\s+(?P<wh>whom|who|(?:which|what)\s+[a-z]+)\s*(?P<end>[?.!]*)\s*$",
)


# a statement with a tag asking for its subject (an indefinite one, "Someone visited X - who was it?", is read
# as its question before the grammar: `agents.analysis.gaps`): the owner of an agent noun "{E1} had a visitor
# in {T1} - who was it?" (the one who visits X is X's visitor: X is the object)
_TAG = r"\s*[-\u2013\u2014,;:]+\s*(?P<wh>who|(?:which|what)\s+[a-z]+)(?:\s+(?:was|were|is|are)\s+(?:it|that|they|this|he|she))?\s*[?.!]*\s*$"
_OWNER_TAGGED = english(
    rf"^(?P<pre>\W*)(?P<subj>{_ENT}(?!'s))\s+(?:had|has|have|received|got|welcomed)\s+(?:(?:a|an|some|its|their|his|her)\s+)?{_ORDINAL}"
    rf"{_AGENT_NOUN}(?P<rest>[^?]*?){_TAG}",
)


def _asked_clause(wh: str, rest: str, ordinal: str = "", subject_relative: bool = True) -> str | None:
    """`wh` asking about the clause `rest`: "did" before the clause's own subject and the ordinal after
    it ("which country did {E1} first visited"); a clause with no subject of its own is a subject
    question ("who last praised {E1}"), unless the noun phrase could only be its object."""
    if m := _OWN_SUBJECT_AT.match(rest):
        return f"{wh} did {_object(m.group('subj'))} {_adverbs(ordinal)}{m.group('adv')}{rest[m.end():]}"
    return f"{wh} {_adverbs(ordinal)}{rest}" if subject_relative else None


def indirect_question(text: str) -> str | None:
    """"Tell me when {E1} last visited {E2}" -> "when did {E1} last visited {E2}"; "Name (the) countries that
    praised {E1}" -> "which country praised {E1}"; "Name whoever first praised {E1}", "Who was the first one
    who praised {E1}" -> "who first praised {E1}"; "{E1} praised whom" -> "whom did {E1} praised"."""
    if m := _OWNER_TAGGED.match(text):
        return f"{m.group('pre')}{_who(m.group('wh'))} {_adverbs(_ordinal(m.group('adv')))}{verb_of_agent(m.group('noun'))} {_object(m.group('subj'))}{m.group('rest')}?"
    if m := _ASKED_NP.match(text):
        noun = m.group("noun").lower()
        singular = re.sub(r"(?:ies|s)$", lambda e: "y" if e.group(0) == "ies" else "", noun) if noun != "people" else "person"
        wh = _NOUN_ASKS.get(singular, "who")
        ordinal = _ordinal(m.group("ord"))
        relative = (m.group("rel") or "").lower()
        asked = _asked_clause(wh, text[m.end():], ordinal, subject_relative=relative in ("that", "which", "who") and wh != "when" and "year" not in wh and "month" not in wh)
        return None if asked is None else m.group("pre") + asked
    if m := _INDIRECT_WH.match(text):
        wh = "who" if m.group("wh").lower() == "whoever" else m.group("wh")
        asked = _asked_clause(f"{m.group('prep') or ''}{wh}", text[m.end():])
        return None if asked is None else m.group("pre") + asked
    if m := _ONE_WHO.search(text):
        ordinal = _ordinal(m.group("ord"))
        return _spliced(m, f"{_who(m.group('wh'))} {_adverbs(ordinal)}")
    if m := _WH_LAST.match(text):
        return f"{m.group('pre')}{m.group('prep')} {m.group('wh')} did {_object(m.group('subj'))} {m.group('vp')}{m.group('end') or '?'}"
    return None


# -- ordinals said another way ---------------------------------------------------------------------
_FOLLOWED = english(
    rf"\b(?P<wh>{_WH})\s+(?:(?:was|were)\s+(?:the\s+)?(?:first|next|one|country|ones)?\s*(?:to\s+)?)?"
    rf"(?P<verb>follow|followed|follows|precede|preceded|precedes)\s+(?P<a>{_ENT})\s+in\s+(?P<ger>[a-z]+ing)\b(?P<rest>[^?.!]*)",
)
_ADJACENT = english(r"\b(?:immediately|just|right|directly)\s+(?P<cue>before|after)\b")
_NEXT = english(r"\bnext\b")


def ordinal_phrase(text: str) -> str | None:
    """"Who followed {E2} in visiting {E1}" -> "who was the first to visiting {E1} after {E2}" (and
    "preceded" -> "the last ... before"); "immediately / just / right after {E2}" -> "first after {E2}";
    "the next to ... after {E2}" -> "the first to ... after {E2}": the one next to a reference in time."""
    if m := _FOLLOWED.search(text):
        after = m.group("verb").lower().startswith("follow")
        ordinal, cue = ("first", "after") if after else ("last", "before")
        clause = f"{_who(m.group('wh'))} was the {ordinal} to {m.group('ger')}{m.group('rest').rstrip()} {cue} {m.group('a')}"
        return _spliced(m, clause)
    if (m := AFTER_FIRST.search(text)) or FIRST.search(text) or LAST.search(text):  # "right after his first visit": his second
        return _spliced(m, "the second") if m else None
    if m := _ADJACENT.search(text):
        ordinal = "first" if m.group("cue").lower() == "after" else "last"
        return _spliced(m, f"{ordinal} {m.group('cue')}")
    if _NEXT.search(text) and AFTER_HEAD.search(text):
        return _NEXT.sub("first", text, count=1)
    return None


# -- a topic taken up by a pronoun -------------------------------------------------------------------
# A name set before the question as its topic and taken up by a personal pronoun inside it (left dislocation: "{E1},
# which country did she visit the most?", "{E1}: who was the last one he visited?", "{E1} {T1} trips - where did he
# go?"): the pronoun stands for the topic. The topic is one name, with at most a time and a few words of its own before
# a comma, colon, dash or the question word; the clause after it names it no other way.
_TOPIC = english(
    rf"^(?P<pre>\W*)(?P<topic>{_ENT})(?P<rest>(?:\s+(?:\{{T\d+\}}|[a-z]+)){{0,3}}?)"
    rf"(?:\s*(?P<mark>[,:;]|[-\u2013\u2014]+(?=\s))|(?=\s+(?:{_WH}|when|how|where|what|which)\b))\s*(?P<main>.+)$",
)
_ASKS_ANEW = english(r"(?:who|whom|what|which|when|where|how)(?:\s+[a-z]+)?\s+(?:did|does|do|was|were|is|are|has|had|have)\b")
_RESUMING = english(r"\b(?:he|she|they|him|(?<!\bof\s)them)\b")  # "all of them" takes up what is asked


def resumed_topic(text: str) -> str | None:
    """"{E1}, which country did she visit the most?" -> "which country did {E1} visit the most?"; "{E1} {T1} trips -
    what was the third place he went to" -> "{T1} trips, what was the third place {E1} went to"."""
    m = _TOPIC.match(text)
    if m is None or _PLACEHOLDER.search(m.group("rest")) or re.search(rf"\b(?:{_WH}|when|how|did|does|do|was|were|is|are|had|has)\b", m.group("rest"), re.I):
        return None
    if not m.group("mark") and re.search(r"[a-z]", re.sub(r"\{T\d+\}", "", m.group("rest")), re.I) and not _ASKS_ANEW.match(m.group("main")):
        return None  # words after the name and no mark: a question must begin after them ("{E1} denounced whom" is one clause)
    main, topic = m.group("main"), _PLACEHOLDER.search(m.group("topic"))
    if topic is None or topic.group(0) in main or (pronoun := _RESUMING.search(main)) is None:
        return None
    rest = m.group("rest").strip()
    return f"{m.group('pre')}{rest + ', ' if rest else ''}{main[: pronoun.start()]}{_object(m.group('topic'))}{main[pronoun.end() :]}"


RULES: tuple[tuple[str, Callable[[str], str | None]], ...] = (
    ("resumed topic", resumed_topic),
    ("indirect question", indirect_question),
    ("plain question", plain_question),
    ("same period clause", same_period_clause),
    ("companion reference", companion_reference),
    ("anaphoric reference", anaphoric_reference),
    ("perfect participle", perfect_participle_reference),
    ("clause reference", clause_reference),
    ("reference pro-verb", reference_proverb),
    ("gerund reference", gerund_reference),
    ("ordinal phrase", ordinal_phrase),
    ("noun phrase passive", noun_phrase_passive),
    ("active voice", active_voice),
    ("named agent", named_agent_active),
    ("act doer first", act_doer_first),
    ("named giver", named_giver),
    ("agent as subject", agent_as_subject),
    ("template cue", template_cue),
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
    order: list[int] = []
    pointed: list[int] = []
    for m in _PLACEHOLDER.finditer(masked):
        number = int(m.group(1))
        if number not in order:
            order.append(number)
        if POINTS_AT_NEXT.search(masked[: m.start()]) and number not in pointed:
            pointed.append(number)
    if len(pointed) == 1 and len(order) >= 2:
        order = [n for n in order if n != pointed[0]] + pointed
    return order


def renumber(masked: str, order: list[int], kind: str = "E") -> str:
    """`{E<order[k]>}` -> `{E<k+1>}` (`kind` "T": the times' placeholders); a number not in `order` stays."""
    new = {old: k + 1 for k, old in enumerate(order)}
    return re.sub(rf"\{{{kind}(\d+)\}}", lambda m: f"{{{kind}{new.get(int(m.group(1)), int(m.group(1)))}}}", masked)
