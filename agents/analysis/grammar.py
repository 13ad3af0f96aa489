"""Who did what to whom, from grammar: a masked question rewritten into the one-clause, active form.

The memory learned its methodologies from questions in a few fixed word orders ("Who visited {E1}
in {T1}?", "Before {E2}, who did {E1} meet?"), and the role order (E1, E2) and the relation words are
read off that order. People restructure: "In {T1}, {E1} was visited by whom?", "Who did {E1} receive
a visit from?", "Before meeting {E2}, who did {E1} meet?". Each rule below undoes one construction
of general English grammar, on the masked question (entities are `{E<n>}`, times `{T<n>}`), so the
rest of the analysis sees the same clause it would have seen in the active word order:

- agent passive with the asked one as agent: "{E1} was visited by whom", "Who was {E1} visited by",
  "By whom was {E1} visited" -> "who visited {E1}" (a passive's by-phrase is the active subject);
- "receive N from": "Who did {E1} receive a visit from", "{E1} got a call from whom", "From whom did
  {E1} receive a visit" -> "who visit {E1}" (X received an N from Y: Y did the N to X);
- possessive agent nouns: "Who were {E1}'s visitors", "Who was {E1}'s first visitor", "Who were the
  visitors to {E1}" -> "who (first) visit {E1}" (the owner of an agent noun -or/-er is its object);
- cleft and request forms: "Who was it that ...", "Name the country that ..." -> "who ...", "which
  country ...";
- a gerund after a temporal cue: "Before meeting {E2}, ...", "after paying a visit to {E2}" ->
  "Before {E2}, ...", "after {E2}" (the gerund's subject is the main clause's, so only its object
  stays: the template's reference);
- a temporal clause with a verb of its own: "After {E2} had criticised {E1}, who was the first to do
  the same?" -> "After {E2}, who was the first to criticised {E1}?" (a pro-verb "do the same / do so /
  did too" stands for the clause's verb phrase; when the main clause repeats the clause's object, the
  clause is only the reference), and "in the same month in which / that / when {E2} did" -> "in the
  same month as {E2}".

None of these was read off evaluation questions: each is a textbook construction, checked on the
learning split (dev shard 0/2), where a rule that fires must leave the template's meaning as it was
(`rewrite` on the memory's 2,778 distinct masked questions: see benchmarks/results/paraphrases/grammar).
Verb forms are not re-inflected ("to criticised"): the question shape and the relation words are read
by word stem, not by tense.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from actions.cues import POINTS_AT_NEXT

_ENT = r"(?:the\s+)?\{E\d+\}"
_WH = r"who|whom|which\s+[a-z]+|what\s+[a-z]+"
_BE_PASSIVE = r"was|were|is|are|has\s+been|have\s+been|had\s+been"  # the auxiliaries of a be-passive
_BE = _BE_PASSIVE + r"|got|gets|get"
_ADVERB = r"(?:(?:first|last|initially|originally|finally|ever|also|most\s+recently|recently|previously|[a-z]+ly)\s+)*"
_POST_ADVERB = r"(?:\s+(?:first|last|initially|finally|most\s+recently|recently))?"  # "was rejected first by"
_CUE = r"before|after|prior\s+to|earlier\s+than|later\s+than|ahead\s+of|following|subsequent\s+to|since|once|until|till|by\s+the\s+time"
_RECEIVE = r"receive|received|receives|receiving|get|got|gets|accept|accepted|welcome|welcomed"
# "do the same", "did so", "did too", "do likewise": a pro-verb standing for an earlier verb phrase
# ("did it want to ...": "it" is then the subject of a do-question, not the object of a pro-verb)
_PROVERB = re.compile(
    r"\b(?:do|did|does|done|doing)\s+(?:the\s+same(?:\s+thing)?|so|it|likewise|that|this|too|as\s+well|also)\b"
    r"(?!\s+(?!(?:too|again|also|as|in|on|at|during|before|after|with|to|for|about|against|first|last|then)\b)[a-z])"
    r"|\b(?:also|too)\s+did\b|\bfollow(?:ed|s|ing)?\s+suit\b",
    re.IGNORECASE,
)
_AUX = r"(?:(?:had|has|have|did|does|do|would|was|were|first|last|also|already|once)\s+)*"
_NOT_PARTICIPLES = frozenset({"been", "being", "the", "a", "an", "first", "last"})
_PLACEHOLDER = re.compile(r"\{E(\d+)\}")
_NOT_GERUNDS = frozenset({"being", "having", "during", "following", "preceding", "according", "including", "nothing", "something", "anything", "king", "thing", "spring", "evening", "morning", "beijing", "wing"})


@dataclass
class Rewrite:
    """A masked question after the grammar rules, with the rules that fired (empty: unchanged) and the
    content words they dropped (a folded clause's verb phrase, a gerund's object noun): what the
    question asks still says which relation it means."""

    text: str
    rules: list[str] = field(default_factory=list)
    dropped: str = ""


# words that carry no relation: what a rule may drop without losing what the question asks
_FUNCTION_WORDS = frozenset(
    "a an the who whom whose which what when where was were is are be been being did do does done had has have "
    "having by to of in on at with for from it its they them their he him his she her so same else other that "
    "this then too also as than before after once since until prior ahead following first last next one ones "
    "country countries person people party month year day date week time".split()
)


def _dropped_words(before: str, after: str) -> str:
    """The content words of `before` that `after` no longer has, in their order."""
    kept = {w.lower() for w in re.findall(r"[A-Za-z]+", after)}
    words = [w for w in re.findall(r"[A-Za-z]+", re.sub(r"\{[ET]\d+\}", " ", before)) if w.lower() not in kept]
    return " ".join(w for w in words if w.lower() not in _FUNCTION_WORDS)


def _who(wh: str) -> str:
    return "who" if wh.lower() in ("who", "whom") else wh


def _object(subject: str) -> str:
    """A moved subject loses its sentence-initial capital ("The {E1} was ..." -> "... the {E1}")."""
    return "the" + subject[3:] if subject.startswith("The") else subject


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def _adverbs(text: str | None) -> str:
    return f"{text.strip()} " if text and text.strip() else ""


def _passive_adverbs(m: re.Match[str]) -> str:
    """The adverbs of a passive, before and after its participle ("was first rejected by", "was rejected first by")."""
    return _adverbs(" ".join(part for part in (m.group("adv"), m.groupdict().get("post")) if part and part.strip()))


# -- agent passives -----------------------------------------------------------------------------
_PASSIVE_SUBJECT = re.compile(
    rf"(?P<subj>{_ENT})\s+(?:{_BE})\s+(?P<adv>{_ADVERB})(?P<verb>[a-z]+)(?P<post>{_POST_ADVERB})\s+by\s+(?P<wh>{_WH})\b", re.IGNORECASE
)
_PASSIVE_STRANDED = re.compile(
    # "was X visited by", and the get- and perfect passives "did X get visited by", "had X been visited by"
    # (a plain "did X speak by telephone" is no passive: its "by" is the means)
    rf"\b(?P<wh>{_WH})\s+(?:(?:{_BE})\s+(?P<subj>{_ENT})|(?:did|does|do)\s+(?P<subj_get>{_ENT})\s+(?:get|be)"
    rf"|(?:has|have|had)\s+(?P<subj_perfect>{_ENT})\s+been)\s+(?P<adv>{_ADVERB})(?P<verb>[a-z]+)(?P<post>{_POST_ADVERB})\s+by\b(?!\s*(?:the\s+)?\{{)",
    re.IGNORECASE,
)
_PASSIVE_FRONTED_BY = re.compile(
    rf"\bby\s+(?P<wh>{_WH})\s+(?:{_BE})\s+(?P<subj>{_ENT})\s+(?P<adv>{_ADVERB})(?P<verb>[a-z]+)\b", re.IGNORECASE
)


_PASSIVE_NAMED_ASKED = re.compile(
    rf"\b(?P<wh>when|(?:in|on|during)\s+(?:which|what)\s+(?:year|month|day|date)|(?:which|what)\s+(?:year|month|day|date))"
    rf"\s+(?:{_BE_PASSIVE})\s+(?P<obj>{_ENT})\s+(?P<adv>{_ADVERB})(?P<verb>[a-z]+)(?P<post>{_POST_ADVERB})\s+by\s+(?P<agent>{_ENT})",
    re.IGNORECASE,
)
_PASSIVE_NAMED = re.compile(
    rf"(?P<obj>{_ENT})\s+(?:{_BE_PASSIVE})\s+(?P<adv>{_ADVERB})(?P<verb>[a-z]+)(?P<post>{_POST_ADVERB})\s+by\s+(?P<agent>{_ENT})",
    re.IGNORECASE,
)


def active_voice(text: str) -> str | None:
    """"{E1} was visited by whom" / "Who was {E1} visited by" / "By whom was {E1} visited" -> "who visited {E1}"."""
    for pattern in (_PASSIVE_FRONTED_BY, _PASSIVE_STRANDED, _PASSIVE_SUBJECT):
        m = pattern.search(text)
        if m and m.group("verb").lower() not in _NOT_PARTICIPLES:
            subject = next(v for k, v in m.groupdict().items() if k.startswith("subj") and v)
            active = f"{_who(m.group('wh'))} {_passive_adverbs(m)}{m.group('verb')} {_object(subject)}"
            return text[: m.start()] + active + text[m.end() :]
    return None


def named_agent_active(text: str) -> str | None:
    """"When was {E1} visited by {E2}" -> "When did {E2} visit(ed) {E1}"; "{E1} was visited by {E2}" -> "{E2} visited {E1}"."""
    m = _PASSIVE_NAMED_ASKED.search(text)
    if m and m.group("verb").lower() not in _NOT_PARTICIPLES:
        active = f"{m.group('wh')} did {_object(m.group('agent'))} {_passive_adverbs(m)}{m.group('verb')} {_object(m.group('obj'))}"
        return text[: m.start()] + active + text[m.end() :]
    m = _PASSIVE_NAMED.search(text)
    if m and m.group("verb").lower() not in _NOT_PARTICIPLES:
        active = f"{_object(m.group('agent'))} {_passive_adverbs(m)}{m.group('verb')} {_object(m.group('obj'))}"
        return text[: m.start()] + active + text[m.end() :]
    return None


# -- passives whose subject is a noun phrase --------------------------------------------------------
# "Negative comments about {E1} were made by whom", "Formal agreements were signed by {E1} with whom",
# "Conventional military force was used against {E1} by which country": the subject is the object
# noun of the act (a relation's own words), and a party named inside it is its prepositional object
_NP_PASSIVE = re.compile(
    rf"^(?P<pre>\W*(?:(?:in|on|during|before|after|prior\s+to|since|until|by)\s+(?:the\s+)?\{{T\d+\}}\s*,\s*)?)"
    rf"(?P<np>(?!(?:{_WH}|when|where|how|in|on|at|during|before|after|by|from|to|with|the|a|an|this|that|it|there)\b)"
    rf"[A-Za-z][a-z]+(?:\s+[a-z]+){{0,3}}?(?:\s+(?:about|against|with|to|towards?|on|of|for)\s+{_ENT})?)"
    rf"\s+(?:{_BE_PASSIVE})\s+(?P<adv>{_ADVERB})(?P<verb>[a-z]+)"
    rf"(?P<pp1>\s+(?:against|with|to|about|on|towards?|for)\s+{_ENT})?"
    rf"\s+by\s+(?P<agent>(?:{_WH})\b|{_ENT})",
    re.IGNORECASE,
)


def noun_phrase_passive(text: str) -> str | None:
    """"Negative comments about {E1} were made by whom" -> "who made negative comments about {E1}";
    "Formal agreements were signed by {E1} with whom" -> "{E1} signed formal agreements with whom"."""
    m = _NP_PASSIVE.search(text)
    if m is None or m.group("verb").lower() in _NOT_PARTICIPLES:
        return None
    np = m.group("np")
    np = np[:1].lower() + np[1:]
    agent = _who(m.group("agent")) if _PLACEHOLDER.search(m.group("agent")) is None else _object(m.group("agent"))
    clause = f"{agent} {_adverbs(m.group('adv'))}{m.group('verb')} {np}{m.group('pp1') or ''}"
    return m.group("pre") + clause + text[m.end() :]


# -- "receive an N from" ---------------------------------------------------------------------------
_NOUN_PHRASE = r"(?:(?:a|an|the|any|some)\s+)?(?P<np>(?:[a-z]+\s+){0,2}?[a-z]+)"
_RECEIVE_ASKED = re.compile(
    rf"\b(?P<wh>{_WH})\s+(?:did|does|do|had|has|have|would|was|were)\s+(?P<subj>{_ENT})\s+(?P<adv>{_ADVERB})"
    rf"(?:{_RECEIVE})\s+{_NOUN_PHRASE}\s+from\b(?!\s*(?:the\s+)?\{{)",
    re.IGNORECASE,
)
_NOUN_PHRASE_END = r"(?=\s*(?:[?.,!]|$)|\s+(?:(?:in|on|at|during|before|after|since|until|for|first|last)\b|\{))"
_RECEIVE_FROM_WH = re.compile(
    rf"\bfrom\s+(?P<wh>{_WH})\s+(?:did|does|do|had|has|have|would)\s+(?P<subj>{_ENT})\s+(?P<adv>{_ADVERB})"
    rf"(?:{_RECEIVE})\s+(?:(?:a|an|the|any|some)\s+)?(?P<np>(?:[a-z]+\s+){{0,2}}?[a-z]+){_NOUN_PHRASE_END}",
    re.IGNORECASE,
)
_RECEIVE_SUBJECT = re.compile(
    rf"(?P<subj>{_ENT})\s+(?P<adv>{_ADVERB})(?:{_RECEIVE})\s+{_NOUN_PHRASE}\s+from\s+(?P<wh>{_WH})\b", re.IGNORECASE
)


# The KG states receiving some things with relations of their own (Host_a_visit, Receive_inspectors,
# Receive_deployment_of_peacekeepers): "When did X receive the visit from Y" is a template of its own
_RECEIVED_BY_RELATION = re.compile(r"\b(?:visit|visits|inspectors?|deployments?|peacekeepers?)\b", re.IGNORECASE)
_RECEIVE_NAMED = re.compile(
    rf"(?P<subj>{_ENT})\s+(?P<adv>{_ADVERB})(?:{_RECEIVE})\s+(?:(?:a|an|the|any|some|its|their|his|her)\s+)?"
    rf"(?P<adv2>(?:(?:first|last|latest|earliest|final)\s+)?)(?P<np>(?:[a-z]+\s+){{0,2}}?[a-z]+)\s+from\s+(?P<giver>{_ENT})",
    re.IGNORECASE,
)


def named_giver(text: str) -> str | None:
    """"When did {E1} first receive praise from {E2}?" -> "When did {E2} first praise {E1}?": with both
    parties named, the giver of an N does the N to the receiver (not for what the KG receives by a
    relation of its own: visits, inspectors, peacekeepers)."""
    m = _RECEIVE_NAMED.search(text)
    if m is None or _RECEIVED_BY_RELATION.search(m.group("np")):
        return None
    adverb = " ".join(f"{m.group('adv')} {_ADVERB_OF.get(m.group('adv2').strip().lower(), m.group('adv2'))}".split())
    return text[: m.start()] + f"{_object(m.group('giver'))} {_adverbs(adverb)}{m.group('np')} {_object(m.group('subj'))}" + text[m.end() :]


def giver_as_subject(text: str) -> str | None:
    """"Who did {E1} receive a visit from" -> "who visit {E1}": the giver of an N does the N."""
    for pattern in (_RECEIVE_FROM_WH, _RECEIVE_ASKED, _RECEIVE_SUBJECT):
        m = pattern.search(text)
        if m:
            active = f"{_who(m.group('wh'))} {_adverbs(m.group('adv'))}{m.group('np')} {_object(m.group('subj'))}"
            return text[: m.start()] + active + text[m.end() :]
    return None


# -- possessive agent nouns ------------------------------------------------------------------------
_AGENT_NOUN = r"(?P<noun>[a-z]{3,}(?:or|er|ic|ist)s?)"
_ORDINAL = r"(?P<adv>(?:(?:first|last|latest|earliest|most\s+recent|recent|final|only)\s+)?)"
_POSSESSIVE_AGENT = re.compile(
    rf"\b(?P<wh>{_WH})\s+(?:was|were|is|are|has\s+been|have\s+been)\s+(?P<subj>{_ENT})'s\s+{_ORDINAL}{_AGENT_NOUN}\b",
    re.IGNORECASE,
)
_AGENT_TO = re.compile(
    rf"\b(?P<wh>{_WH})\s+(?:was|were|is|are|has\s+been|have\s+been)\s+the\s+{_ORDINAL}{_AGENT_NOUN}\s+(?:to|of)\s+(?P<subj>{_ENT})",
    re.IGNORECASE,
)
_ADVERB_OF = {"latest": "last", "earliest": "first", "most recent": "last", "recent": "last", "final": "last"}


def is_agent_noun(word: str) -> bool:
    """A noun of the one who does something, by its English suffix: visitor(s), critic(s), host... no:
    only -or, -er, -ic, -ist ("host" is left to the sector roles)."""
    return re.fullmatch(_AGENT_NOUN, word.lower()) is not None


def verb_of_agent(noun: str) -> str:
    """"visitors" -> "visit", "critics" -> "critic", "supporters" -> "support": the word stem is
    what the relation words are matched by (`ari.base.text.word_key`)."""
    word = noun.lower()
    if word.endswith("s"):
        word = word[:-1]
    for suffix in ("or", "er"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)]
    return word


def agent_as_subject(text: str) -> str | None:
    """"Who were {E1}'s visitors" / "Who was the first visitor to {E1}" -> "who (first) visit {E1}"."""
    for pattern in (_POSSESSIVE_AGENT, _AGENT_TO):
        m = pattern.search(text)
        if m:
            adverb = " ".join(m.group("adv").split()).lower()
            adverb = _ADVERB_OF.get(adverb, adverb)
            if adverb == "only":
                adverb = ""
            active = f"{_who(m.group('wh'))} {_adverbs(adverb)}{verb_of_agent(m.group('noun'))} {_object(m.group('subj'))}"
            return text[: m.start()] + active + text[m.end() :]
    return None


# -- an event noun owned by its doer ---------------------------------------------------------------
_OWNED_EVENT = re.compile(
    rf"\b(?P<wh>when|(?:in|on|during)\s+(?:which|what)\s+(?:year|month|day|date)|(?:which|what)\s+(?:year|month|day|date))"
    rf"\s+(?:was|were|did|is|does)\s+(?P<a>{_ENT})'s\s+(?P<adv>(?:(?:first|last|latest|earliest|most\s+recent|final)\s+)?)"
    rf"(?P<noun>[a-z]+)\s+(?P<prep>to|of|with|against|on|about|toward|towards)\s+(?P<b>{_ENT})(?:\s+(?:take\s+place|happen|occur))?",
    re.IGNORECASE,
)


def doer_of_event(text: str) -> str | None:
    """"When was {E1}'s first visit to {E2}?" -> "When did {E1} first visit {E2}?": the owner of an
    event noun is its doer, the object of its preposition its object ("to" and "of" only mark it)."""
    m = _OWNED_EVENT.search(text)
    if m is None:
        return None
    adverb = " ".join(m.group("adv").split()).lower()
    adverb = _ADVERB_OF.get(adverb, adverb)
    prep = "" if m.group("prep").lower() in ("to", "of") else f"{m.group('prep')} "
    clause = f"{m.group('wh')} did {_object(m.group('a'))} {_adverbs(adverb)}{m.group('noun')} {prep}{m.group('b')}"
    return text[: m.start()] + clause + text[m.end() :]


# -- the one an act is aimed at -----------------------------------------------------------------
_TARGET_OF = re.compile(
    rf"\b(?P<wh>{_WH})\s+(?:was|were|is|are|became|has\s+been|had\s+been)\s+the\s+{_ORDINAL}"
    rf"(?:target|recipient|object|focus|subject)s?\s+of\s+(?P<a>{_ENT})'s\s+(?P<noun>(?:[a-z]+\s+){{0,2}}?[a-z]+){_NOUN_PHRASE_END}",
    re.IGNORECASE,
)


def target_as_object(text: str) -> str | None:
    """"Who was the first target of {E1}'s criticism" -> "who did {E1} first criticism": the target of
    an act is its object, the owner of the act its doer."""
    m = _TARGET_OF.search(text)
    if m is None:
        return None
    adverb = " ".join(m.group("adv").split()).lower()
    adverb = "" if adverb == "only" else _ADVERB_OF.get(adverb, adverb)
    clause = f"{_who(m.group('wh'))} did {_object(m.group('a'))} {_adverbs(adverb)}{m.group('noun')}"
    return text[: m.start()] + clause + text[m.end() :]


# -- cleft and request forms -----------------------------------------------------------------------
_CLEFT = re.compile(rf"\b(?P<wh>{_WH})\s+(?:was|is|were|are)\s+it\s+(?:that|who|which)\s+", re.IGNORECASE)
_REQUEST = re.compile(
    r"^(?P<pre>\W*)(?:please\s+)?(?:name|list|identify|tell\s+me|give\s+me|find)\s+(?:the\s+)?"
    r"(?P<noun>country|countries|one|ones|person|people|entity|entities|actor|actors|party|parties)\s+(?:that|which|who)\s+",
    re.IGNORECASE,
)


_ELSE = re.compile(rf"\b(?P<wh>{_WH})\s+else\b|\b(?P<which>which|what)\s+other\s+(?=[a-z])", re.IGNORECASE)


def plain_question(text: str) -> str | None:
    """"Who was it that visited {E1}" -> "who visited {E1}"; "Name the country that ..." -> "which country
    ..."; "who else", "which other country" -> "who", "which country" (the reference is left out by the
    temporal comparison itself)."""
    m = _ELSE.search(text)
    if m:
        text = text[: m.start()] + (m.group("wh") or f"{m.group('which')} ") + text[m.end() :]
        return plain_question(text) or text
    m = _CLEFT.search(text)
    if m:
        return text[: m.start()] + f"{_who(m.group('wh'))} " + text[m.end() :]
    m = _REQUEST.search(text)
    if m:
        noun = m.group("noun").lower()
        wh = "which country" if noun.startswith("countr") else "who"
        return f"{m.group('pre')}{wh} " + text[m.end() :]
    return None


# -- gerunds after a temporal cue ------------------------------------------------------------------
_GERUND = re.compile(
    rf"\b(?P<cue>{_CUE})\s+(?P<adv>{_ADVERB})(?P<ger>[a-z]{{3,}}ing)\s+(?P<rest>(?:[a-z]+\s+){{0,4}}?)(?=(?:the\s+)?\{{E\d+\}})",
    re.IGNORECASE,
)


_EVENT_BY = re.compile(
    rf"\b(?P<cue>{_CUE})\s+(?:the|a|an)\s+(?:[a-z]+\s+){{1,3}}?(?:by|from)\s+(?P<a>{_ENT})"
    rf"(?P<obj>\s+(?:to|with|about|on|against|toward|towards|in)\s+(?P<b>{_ENT}))?",
    re.IGNORECASE,
)
_EVENT_OF = re.compile(
    rf"\b(?P<cue>{_CUE})\s+(?P<a>{_ENT})'s\s+(?:[a-z]+\s+){{0,2}}?[a-z]+"
    rf"(?P<obj>\s+(?:to|with|about|on|against|toward|towards|of|in)\s+(?P<b>{_ENT}))",
    re.IGNORECASE,
)


def gerund_reference(text: str) -> str | None:
    """"Before meeting {E2}, ..." -> "Before {E2}, ...": the gerund's object is the reference entity.
    The same for an event noun: "after the visit by {E2} (to {E1})", "after {E2}'s visit to {E1}" ->
    "after {E2}", when {E1} is named again by the main clause."""
    for m in _GERUND.finditer(text):
        if m.group("ger").lower() in _NOT_GERUNDS or re.search(r"\b(?:who|whom|which|what|when)\b", m.group("rest"), re.I):
            continue
        return text[: m.start()] + f"{m.group('cue')} " + text[m.end() :]
    for pattern in (_EVENT_BY, _EVENT_OF):
        event = pattern.search(text)
        if event is None:
            continue
        rest = text[: event.start()] + text[event.end() :]
        if event.group("obj") and _placeholders(event.group("b")) - _placeholders(rest):
            continue  # the event's other party is named only here: it is part of the reference
        return text[: event.start()] + f"{event.group('cue')} {event.group('a')}" + text[event.end() :]
    return None


# -- temporal clauses with a verb of their own -----------------------------------------------------
_FRONTED_CLAUSE = re.compile(
    rf"^(?P<pre>\W*)(?P<cue>{_CUE})\s+(?P<a>{_ENT})\s+{_AUX}(?P<vp>[^,?]*?\{{E\d+\}}[^,?]*?)\s*,\s*(?P<main>.+)$",
    re.IGNORECASE,
)
_TRAILING_CLAUSE = re.compile(
    rf"^(?P<main>.+?),?\s+(?P<cue>{_CUE})\s+(?P<a>{_ENT})\s+{_AUX}(?P<vp>[^,?]*?\{{E\d+\}}[^,?]*?)(?P<end>\s*[?.!]*\s*)$",
    re.IGNORECASE,
)
_SAME = r"(?P<prep>in|on|during|at|within)\s+the\s+(?:same\s+(?:calendar\s+)?|very\s+)?(?P<unit>day|date|week|month|year|time)"
_RELATIVE = r"(?:(?:in|on|during)\s+which\s+|that\s+|when\s+|as\s+|in\s+that\s+)?"  # "the month (that) X did": may be left out
# at the front the preposition may be left out: "The same month X visited Y, who ..."
_SAME_AT_FRONT = r"(?:(?P<prep>in|on|during|at|within)\s+)?the\s+(?:same\s+(?:calendar\s+)?|very\s+)?(?P<unit>day|date|week|month|year|time)"
_SAME_FRONTED = re.compile(
    rf"^(?P<pre>\W*){_SAME_AT_FRONT}\s+{_RELATIVE}(?P<a>{_ENT})\s+{_AUX}(?P<vp>[^,?]*?)\s*,\s*(?P<main>.+?)(?P<end>\s*[?.!]*\s*)$",
    re.IGNORECASE,
)
_SAME_CLAUSE = re.compile(
    rf"\b{_SAME}\s+{_RELATIVE}(?P<a>{_ENT})(?P<tail>\s+{_AUX}(?P<vp>[^,?]*?))?(?P<end>\s*(?:[,?.!]|$))",
    re.IGNORECASE,
)


def _placeholders(text: str) -> set[str]:
    return set(_PLACEHOLDER.findall(text))


# a personal pronoun of the main clause stands for one party of the clause: as the subject of a
# do-question ("which country did it visit", "who else did he call") or a passive's agent ("by
# them") it is the clause's subject; after a verb or preposition ("who else praised it") its object
_SUBJECT_PRONOUN = re.compile(
    r"\b(?:did|does|do|had|has|have|was|were|is|are|would|will|could)\s+(?P<p>he|she|it|they)\b"
    r"|\b(?P<p2>he|she|they)\b|\b(?P<p3>it)(?=\s+[a-z]+(?:ed|s)\b)",
    re.IGNORECASE,
)
_AGENT_PRONOUN = re.compile(r"\bby\s+(?P<p>him|her|it|them)\b", re.IGNORECASE)  # a passive's agent: the doer
_OBJECT_PRONOUN = re.compile(r"(?<=[a-z])\s+(?P<p>it|him|her|them)\b(?=\s*(?:[?.!,]|$)|\s+(?:in|on|during|first|last|too|again|as|after|before)\b)", re.IGNORECASE)
# verb-phrase ellipsis closing the main clause: "who else wanted to?", "which country did too?", "who had?"
_ELLIPSIS = re.compile(
    r"\s+(?:(?:also|too|then)\s+)?(?:(?:[a-z]+ed|want|wants|wish|wishes|tried|tries|planned|hoped|intended)\s+to"
    r"|did|does|do|had|has|have|would|could|was|were)(?:\s+(?:too|also|as\s+well|again))?(?=\s*[?.!]*\s*$)",
    re.IGNORECASE,
)
_ORDINAL_ELLIPSIS = re.compile(
    rf"^(?P<pre>\W*)(?P<wh>{_WH})\s+(?:(?:was|were|came)\s+(?:the\s+)?(?P<ordinal>first|next|last)(?:\s+(?:one|ones|country|person|party))?"
    rf"|followed(?:\s+(?:next|then))?)(?P<end>\s*[?.!]*\s*)$",
    re.IGNORECASE,
)
_WH_ANYWHERE = re.compile(rf"\b(?:{_WH})\b", re.IGNORECASE)


_CLAUSE_PASSIVE = re.compile(
    # the clause's auxiliaries may already be read off ("had been", "was": `_AUX`)
    rf"^(?:(?:{_BE}|been|being)\s+)?(?P<adv>{_ADVERB})(?P<verb>[a-z]+)\s+by\s+(?P<b>{_ENT})(?P<rest>.*)$", re.IGNORECASE
)


def _active_clause(subject: str, vp: str) -> tuple[str, str]:
    """(subject, verb phrase) of a clause in the active voice: "{E1} was praised by {E2}" -> ({E2}, "praised {E1}")."""
    m = _CLAUSE_PASSIVE.match(vp.strip())
    if m is None:
        return subject, vp
    return m.group("b"), f"{_adverbs(m.group('adv'))}{m.group('verb')} {_object(subject)}{m.group('rest')}"


def _party(text: str, number: str) -> str:
    """The mention of entity `number` in `text`, with its article ("the {E2}")."""
    m = re.search(rf"(?:the\s+)?\{{E{number}\}}", text, re.IGNORECASE)
    return m.group(0) if m else f"{{E{number}}}"


def _fold_clause(vp: str, main: str, subject: str) -> tuple[str, str] | None:
    """(the main clause with the temporal clause folded in, the reference), or None when it cannot
    be: a pro-verb or an ellipsis takes the clause's verb phrase, and the clause's subject is the
    reference; a main clause that already names the clause's objects needs nothing from it; a
    pronoun takes the party it stands for, and the clause's other party is the reference."""
    subject, vp = _active_clause(subject, vp.strip())
    if _PROVERB.search(main):
        return _PROVERB.sub(lambda _: vp, main, count=1), subject
    if _placeholders(vp) <= _placeholders(main):
        return main, subject
    unshared = _placeholders(vp) - _placeholders(main)
    if _placeholders(subject) <= _placeholders(main) and len(unshared) == 1:
        return main, _party(vp, unshared.pop())  # the main clause repeats the subject: the object is the reference
    objects = _PLACEHOLDER.findall(vp)
    if _placeholders(main) or len(set(objects)) != 1 or not _WH_ANYWHERE.search(main):
        return None
    pronoun = _SUBJECT_PRONOUN.search(main) or _AGENT_PRONOUN.search(main)
    if pronoun:
        group = next(g for g in ("p", "p2", "p3") if pronoun.groupdict().get(g))
        return main[: pronoun.start(group)] + _object(subject) + main[pronoun.end(group) :], _party(vp, objects[0])
    pronoun = _OBJECT_PRONOUN.search(main)
    if pronoun:
        return main[: pronoun.start("p")] + _party(vp, objects[0]) + main[pronoun.end("p") :], subject
    ordinal = _ORDINAL_ELLIPSIS.match(main)
    if ordinal and not re.match(r"to\b", vp, re.IGNORECASE):  # "who was next?", "who followed?" ("... after X to V" is no clause)
        word = (ordinal.group("ordinal") or "first").lower()
        return f"{ordinal.group('pre')}{ordinal.group('wh')} was the {'first' if word == 'next' else word} to {vp}{ordinal.group('end')}", subject
    ellipsis = _ELLIPSIS.search(main)
    if ellipsis:
        return main[: ellipsis.start()] + f" {vp}" + main[ellipsis.end() :], subject
    return None


_PERIOD_OF_EVENT = re.compile(rf"\b{_SAME}\s+of\s+(?P<a>{_ENT})'s\s+[a-z]+", re.IGNORECASE)
# "in the year (that) it did so with {E2}": the pronoun is the main clause's subject, so the clause's
# other party is the reference
_SAME_PRONOUN_CLAUSE = re.compile(
    rf"\b{_SAME}\s+{_RELATIVE}(?:he|she|it|they)\s+{_AUX}[^,?{{]*?(?P<a>{_ENT})(?P<end>\s*(?:[,?.!]|$))",
    re.IGNORECASE,
)


def same_period_clause(text: str) -> str | None:
    """"in the same month in which {E2} did" / "in the month {E2} did" / "in the month of {E2}'s visit"
    -> "in the same month as {E2}"."""
    m = _PERIOD_OF_EVENT.search(text)
    if m:
        return text[: m.start()] + f"{m.group('prep')} the same {m.group('unit')} as {m.group('a')}" + text[m.end() :]
    m = _SAME_FRONTED.match(text)
    if m:
        vp = m.group("vp").strip()
        main = m.group("main").rstrip(" ,")
        folded = _fold_clause(vp, main, m.group("a")) if vp else (_PROVERB.sub("", main).strip(), m.group("a"))
        if folded and folded[0]:
            main, reference = folded
            main = main.rstrip(" ,")
            prep = (m.group("prep") or ("on" if m.group("unit").lower() in ("day", "date") else "in")).lower()
            return f"{m.group('pre')}{_cap(main)} {prep} the same {m.group('unit').lower()} as {reference}{m.group('end') or '?'}"
    m = _SAME_CLAUSE.search(text)
    if m:
        vp = (m.group("vp") or "").strip()
        rest = text[: m.start()] + text[m.end() :]
        subject, vp = _active_clause(m.group("a"), vp)
        unshared = _placeholders(vp) - _placeholders(rest)
        reference = None
        if not vp or _PROVERB.fullmatch(vp) or not unshared:
            reference = subject
        elif _placeholders(subject) <= _placeholders(rest) and len(unshared) == 1:
            reference = _party(vp, unshared.pop())  # "who did {E1} praise in the month that {E1} praised {E2}"
        if reference is not None:
            same = f"{m.group('prep')} the same {m.group('unit')} as {_object(reference)}"
            return text[: m.start()] + same + m.group("end") + text[m.end() :]
    m = _SAME_PRONOUN_CLAUSE.search(text)
    if m and _placeholders(text[: m.start()]):
        same = f"{m.group('prep')} the same {m.group('unit')} as {m.group('a')}"
        return text[: m.start()] + same + m.group("end") + text[m.end() :]
    return None


# "..., after it was rejected by {E2}?": the clause's pronoun subject is a party the main clause
# names, so the clause's named party is the reference
_TRAILING_PRONOUN_CLAUSE = re.compile(
    rf"^(?P<main>.+?),?\s+(?P<cue>{_CUE})\s+(?:he|she|it|they)\s+{_AUX}[^,?{{]*?(?P<a>{_ENT})(?P<end>\s*[?.!]*\s*)$",
    re.IGNORECASE,
)


def clause_reference(text: str) -> str | None:
    """"After {E2} had criticised {E1}, who was the first to do the same?" -> "After {E2}, who was the
    first to criticised {E1}?"; "After {E2} visited {E1}, which country did he visit?" -> "After
    {E1}, which country did {E2} visit?"."""
    m = _FRONTED_CLAUSE.match(text)
    if m:
        folded = _fold_clause(m.group("vp"), m.group("main"), m.group("a"))
        if folded is not None:
            return f"{m.group('pre')}{m.group('cue')} {folded[1]}, {folded[0]}"
    m = _TRAILING_CLAUSE.match(text)
    if m:
        folded = _fold_clause(m.group("vp"), m.group("main"), m.group("a"))
        if folded is not None:
            return f"{folded[0]} {m.group('cue')} {folded[1]}{m.group('end')}"
    m = _TRAILING_PRONOUN_CLAUSE.match(text)
    if m and _placeholders(m.group("main")) - _placeholders(m.group("a")):
        return f"{m.group('main')} {m.group('cue')} {m.group('a')}{m.group('end')}"
    return None


# -- a reference made by a clause of its own -------------------------------------------------------
_ANAPHORIC_CUE = (
    r"(?P<after>afterwards?|after\s+(?:that|this)|thereafter|subsequently|later(?:\s+on)?|next)"
    r"|(?P<before>beforehand|before\s+(?:that|this)|previously|earlier|prior\s+to\s+(?:that|this))"
    r"|(?:(?P<prep>in|on|during|at)\s+)?(?:that|the)\s+(?:same\s+|very\s+)?(?P<unit>day|date|week|month|year)(?!\s+(?:as|of|that|when|in\s+which)\b)"
)
_TWO_CLAUSES = re.compile(
    rf"^(?P<pre>\W*)(?:(?:when|while|as|at\s+the\s+time)\s+)?(?P<a>{_ENT})\s+(?P<vp>[^;:.?!,]*?\{{E\d+\}}[^;:.?!,]*?)\s*(?:[;:.,]\s*|\s+(?:and|so|then)\s+|\s+)"
    rf"(?P<main>(?:(?:with|to|from|by|for|of|about|against)\s+)?(?:{_WH})\b.*?)(?P<end>\s*[?.!]*\s*)$",
    re.IGNORECASE,
)
def anaphoric_reference(text: str) -> str | None:
    """"{E2} praised {E1}; who was the first to praise it afterwards?" -> "After {E2}, who was the first
    to praise {E1}?"; "... who else praised {E1} that same month?" -> "... in the same month as {E2}":
    an adverb that points back ("afterwards", "before that", "that month") makes the first clause the
    reference, as a temporal clause would."""
    m = _TWO_CLAUSES.match(text)
    if m is None:
        return None
    cue = re.search(rf"\s*,?\s*\b(?:{_ANAPHORIC_CUE})\b", m.group("main"), re.IGNORECASE)
    if cue is None:
        return None
    is_next = cue.group(0).strip(" ,").lower() == "next"  # "who was (the) next": the first after the reference
    main = (m.group("main")[: cue.start()] + (" first" if is_next else "") + m.group("main")[cue.end() :]).strip(" ,")
    folded = _fold_clause(m.group("vp"), main, m.group("a"))
    if folded is None:
        return None
    main, reference = folded[0], _object(folded[1])
    if cue.group("unit"):
        unit = cue.group("unit").lower()
        prep = (cue.group("prep") or ("on" if unit in ("day", "date") else "in")).lower()
        return f"{m.group('pre')}{_cap(main)} {prep} the same {unit} as {reference}{m.group('end') or '?'}"
    word = "After" if cue.group("after") else "Before"
    return f"{m.group('pre')}{word} {reference}, {main[:1].lower()}{main[1:]}{m.group('end') or '?'}"


_COMPANION = re.compile(
    rf"\b(?:besides|apart\s+from|aside\s+from|along\s+with|alongside|other\s+than|in\s+addition\s+to|as\s+well\s+as|together\s+with|just\s+like|like)"
    rf"\s+(?P<a>{_ENT})\s*,?\s*",
    re.IGNORECASE,
)
_SAME_WITHOUT_AS = re.compile(r"\bsame\s+(?:calendar\s+)?(?:day|date|week|month|year|time)\b(?!\s+as\b)", re.IGNORECASE)


def companion_reference(text: str) -> str | None:
    """"Besides {E2}, who praised {E1} in the same month?" -> "who praised {E1} in the same month as
    {E2}": the one the asked party is compared with is the same-period reference."""
    same = _SAME_WITHOUT_AS.search(text)
    m = _COMPANION.search(text)
    if same is None or m is None:
        return None
    text = text[: m.start()] + text[m.end() :]
    same = _SAME_WITHOUT_AS.search(text)
    assert same is not None
    return text[: same.end()] + f" as {m.group('a')}" + text[same.end() :]


_HAVING = re.compile(
    rf"^(?P<pre>\W*)having\s+(?P<adv>{_ADVERB})[a-z]+\s+(?:[a-z]+\s+){{0,4}}?(?P<a>{_ENT})(?:\s+[a-z]+){{0,3}}\s*,\s*", re.IGNORECASE
)


def perfect_participle_reference(text: str) -> str | None:
    """"Having praised {E2}, who did {E1} praise first?" -> "After {E2}, who did {E1} praise first?": a
    perfect participle clause happened before its main clause, and its object is the reference."""
    m = _HAVING.match(text)
    if m is None:
        return None
    return f"{m.group('pre')}After {m.group('a')}, " + text[m.end() :]


_ORDINAL_SYNONYM = {"most recent": "last", "most recently": "last", "earliest": "first"}
_ORDINAL_SYNONYMS = re.compile(r"\b(?:most\s+recent(?:ly)?|earliest)\b", re.IGNORECASE)


def template_ordinal(text: str) -> str | None:
    """"the most recent to" -> "the last to", "the earliest to" -> "the first to": the templates' own words."""
    changed = _ORDINAL_SYNONYMS.sub(lambda m: _ORDINAL_SYNONYM[" ".join(m.group(0).lower().split())], text)
    return changed if changed != text else None


# -- ordinals said another way ---------------------------------------------------------------------
_FOLLOWED = re.compile(
    rf"\b(?P<wh>{_WH})\s+(?:(?:was|were)\s+(?:the\s+)?(?:first|next|one|country|ones)?\s*(?:to\s+)?)?"
    rf"(?P<verb>follow|followed|follows|precede|preceded|precedes)\s+(?P<a>{_ENT})\s+in\s+(?P<ger>[a-z]+ing)\b(?P<rest>[^?.!]*)",
    re.IGNORECASE,
)
_ADJACENT = re.compile(r"\b(?:immediately|just|right|directly)\s+(?P<cue>before|after)\b", re.IGNORECASE)
_NEXT = re.compile(r"\bnext\b", re.IGNORECASE)
_ORDINAL_WORD = re.compile(r"\b(?:first|last|earliest|latest|most\s+recent(?:ly)?|final(?:ly)?)\b", re.IGNORECASE)
_AFTER_WORD = re.compile(r"\b(?:after|following|since|once|later\s+than|subsequent\s+to)\b", re.IGNORECASE)


def ordinal_phrase(text: str) -> str | None:
    """"Who followed {E2} in visiting {E1}" -> "who was the first to visiting {E1} after {E2}" (and
    "preceded" -> "the last ... before"); "immediately / just / right after {E2}" -> "first after {E2}";
    "the next to ... after {E2}" -> "the first to ... after {E2}": the one next to a reference in time."""
    m = _FOLLOWED.search(text)
    if m:
        after = m.group("verb").lower().startswith("follow")
        ordinal, cue = ("first", "after") if after else ("last", "before")
        clause = f"{_who(m.group('wh'))} was the {ordinal} to {m.group('ger')}{m.group('rest').rstrip()} {cue} {m.group('a')}"
        return text[: m.start()] + clause + text[m.end() :]
    if _ORDINAL_WORD.search(text):
        return None
    m = _ADJACENT.search(text)
    if m:
        ordinal = "first" if m.group("cue").lower() == "after" else "last"
        return text[: m.start()] + f"{ordinal} {m.group('cue')}" + text[m.end() :]
    if _NEXT.search(text) and _AFTER_WORD.search(text):
        return _NEXT.sub("first", text, count=1)
    return None


RULES = (
    ("plain question", plain_question),
    ("same period clause", same_period_clause),
    ("companion reference", companion_reference),
    ("anaphoric reference", anaphoric_reference),
    ("perfect participle", perfect_participle_reference),
    ("template ordinal", template_ordinal),
    ("clause reference", clause_reference),
    ("gerund reference", gerund_reference),
    ("ordinal phrase", ordinal_phrase),
    ("noun phrase passive", noun_phrase_passive),
    ("active voice", active_voice),
    ("named agent", named_agent_active),
    ("giver as subject", giver_as_subject),
    ("named giver", named_giver),
    ("agent as subject", agent_as_subject),
    ("doer of event", doer_of_event),
    ("target as object", target_as_object),
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
        text = _cap(text.strip())
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


def renumber(masked: str, order: list[int]) -> str:
    """`{E<order[k]>}` -> `{E<k+1>}`."""
    new = {old: k + 1 for k, old in enumerate(order)}
    return _PLACEHOLDER.sub(lambda m: f"{{E{new.get(int(m.group(1)), int(m.group(1)))}}}", masked)
