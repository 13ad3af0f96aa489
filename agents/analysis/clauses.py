"""Clauses that say when, folded into the templates' one-clause form (`agents.analysis.grammar` runs them).

A temporal reference is often a clause of its own ("After {E2} had criticised {E1}, who was the
first to do the same?"). Each rule folds it into the main clause and leaves only its reference party
after the cue ("after {E2}"): the party the main clause does not share (`_fold_clause`).
"""

from __future__ import annotations

import re

from agents.analysis.grammar_words import (
    _ADVERB,
    _AGENT_SUFFIX,
    _AUX,
    _BE,
    _CUE,
    _ENT,
    _IRREGULAR_PAST,
    _NOT_GERUNDS,
    _PLACEHOLDER,
    _PROVERB,
    _RECEIVE,
    _WH,
    _adverbs,
    _cap,
    _object,
    _spliced,
)
from agents.analysis.question_form import _ASKS_HERE, _REQUEST, _pieces
from agents.analysis.words import english
from ari.base.text import word_key

# -- gerunds after a temporal cue ------------------------------------------------------------------
_GERUND = english(
    rf"\b(?P<cue>{_CUE})\s+(?P<adv>{_ADVERB})(?P<ger>[a-z]{{3,}}ing)\s+(?P<rest>(?:[a-z]+\s+){{0,6}}?)(?=(?:the\s+)?\{{E\d+\}})",
)


_EVENT_BY = english(
    rf"\b(?P<cue>{_CUE})\s+(?:the|a|an)\s+(?:[a-z]+\s+){{1,3}}?(?:by|from)\s+(?P<a>{_ENT})"
    rf"(?P<obj>\s+(?:to|with|about|on|against|toward|towards|in)\s+(?P<b>{_ENT}))?",
)
_EVENT_OF = english(
    rf"\b(?P<cue>{_CUE})\s+(?P<a>{_ENT})'s\s+(?:[a-z]+\s+){{0,2}}?[a-z]+"
    rf"(?P<obj>\s+(?:to|with|about|on|against|toward|towards|of|in)\s+(?P<b>{_ENT}))",
)


# "Following its visit to the {E1}, which country did {E2} ...", "After the talks with {E1}, ...": an
# event with no named doer (or a pronoun's), whose one named party the main clause does not name, is
# the reference
_EVENT_OF_UNNAMED = english(
    rf"^(?P<pre>\W*)(?P<cue>{_CUE})\s+(?:its|his|her|their|the|a|an)\s+(?:[a-z]+\s+){{0,3}}?[a-z]+"
    rf"\s+(?:to|with|about|on|against|toward|towards|of|in|into|for)\s+(?P<a>{_ENT})\s*,\s*(?P<main>.+)$",
)


_VERB_THEN_PRONOUN = english(r"\b(?P<verb>[a-z]+)\s+(?:the\s+)?(?P<p>it|him|her|them)\b")


_VERB_BY_PRONOUN = english(r"\b(?P<verb>[a-z]+)\s+by\s+(?P<p>it|him|her|them)\b")


def _acts(event: str) -> set[str]:
    return {word_key(w) for w in re.findall(r"[A-Za-z]+", re.sub(r"\{E\d+\}", " ", event))}


def _same_act(pronoun: re.Pattern[str], event: str, main: str) -> re.Match[str] | None:
    """The pronoun of the main clause's verb when that verb names the event's own act, None when another
    verb takes it: its object (`_VERB_THEN_PRONOUN`: "after {E2}'s visit to {E1}, who was the first to
    visit it": "it" is {E1}) or a passive's agent (`_VERB_BY_PRONOUN`: "... to be visited by it": {E2})."""
    m = pronoun.search(main)
    return m if m is not None and word_key(m.group("verb")) in _acts(event) else None


def gerund_reference(text: str) -> str | None:
    """"Before meeting {E2}, ..." -> "Before {E2}, ...": the gerund's object is the reference entity.
    The same for an event noun: "after the visit by {E2} (to {E1})", "after {E2}'s visit to {E1}" ->
    "after {E2}", when {E1} is named again by the main clause."""
    for m in _GERUND.finditer(text):
        if m.group("ger").lower() in _NOT_GERUNDS or re.search(r"\b(?:who|whom|which|what|when)\b", m.group("rest"), re.I):
            continue
        return _spliced(m, f"{m.group('cue')} ")
    for pattern in (_EVENT_BY, _EVENT_OF):
        if (event := pattern.search(text)) is None:
            continue
        rest = text[: event.start()] + text[event.end() :]
        if event.group("obj") and _placeholders(event.group("b")) - _placeholders(rest):
            pronoun = _same_act(_VERB_THEN_PRONOUN, event.group(0), text[event.end() :])
            agent = _same_act(_VERB_BY_PRONOUN, event.group(0), text[event.end() :]) if pronoun is None else None
            if agent is not None:  # the doer is asked about again: the event's object is the reference
                after = event.end() + agent.start("p")
                main = text[event.end() : after] + _object(event.group("a")) + text[event.end() + agent.end("p") :]
                return text[: event.start()] + f"{event.group('cue')} {event.group('b')}" + main
            if pronoun is None:
                continue  # the event's other party is named only here: it is part of the reference
            # "Following {E2}'s visit to {E1}, who was the first to visit it?": the pronoun is the event's object
            after = event.end() + pronoun.start("p")
            text = text[:after] + _object(event.group("b")) + text[event.end() + pronoun.end("p") :]
        return text[: event.start()] + f"{event.group('cue')} {event.group('a')}" + text[event.end() :]
    if (unnamed := _EVENT_OF_UNNAMED.match(text)) is None:
        return None
    main, reference = unnamed.group("main"), unnamed.group("a")
    return f"{unnamed.group('pre')}{unnamed.group('cue')} {reference}, {main}" if _apart(main, reference) else None


def _apart(main: str, reference: str) -> bool:
    """Whether the main clause names a party and none of the reference's."""
    return bool(_placeholders(main)) and _placeholders(main).isdisjoint(_placeholders(reference))


# -- temporal clauses with a verb of their own -----------------------------------------------------
_CLAUSE = rf"(?P<cue>{_CUE})\s+(?P<a>{_ENT})\s+{_AUX}(?P<vp>[^,?]*?\{{E\d+\}}[^,?]*?)"
_FRONTED_CLAUSE = english(rf"^(?P<pre>\W*){_CLAUSE}\s*,\s*(?P<main>.+)$")
_TRAILING_CLAUSE = english(rf"^(?P<main>.+?),?\s+{_CLAUSE}(?P<end>\s*[?.!]*\s*)$")
_SAME = r"(?P<prep>in|on|during|at|within)\s+the\s+(?:same\s+(?:calendar\s+)?|very\s+)?(?P<unit>day|date|week|month|year|time)"
_RELATIVE = r"(?:(?:in|on|during)\s+which\s+|that\s+|when\s+|as\s+(?:when\s+)?|in\s+that\s+)?"  # "the month (that) X did": may be left out
# at the front the preposition may be left out: "The same month X visited Y, who ..."
_SAME_AT_FRONT = r"(?:(?P<prep>in|on|during|at|within)\s+)?the\s+(?:same\s+(?:calendar\s+)?|very\s+)?(?P<unit>day|date|week|month|year|time)"
_SAME_FRONTED = english(
    # the comma after the clause may be left out before the question word: "On the day X visited Y who else did?"
    rf"^(?P<pre>\W*){_SAME_AT_FRONT}\s+{_RELATIVE}(?P<a>{_ENT})\s+{_AUX}(?P<vp>[^,?]*?)(?:\s*,\s*|\s+(?=(?:{_WH})\b))(?P<main>.+?)(?P<end>\s*[?.!]*\s*)$",
)
_SAME_CLAUSE = english(
    # the preposition may be left out before "the same": "Who praised {E1} the same month {E2} did?"
    rf"\b(?:{_SAME}|(?<=[a-z}}]\s)the\s+(?:same|very)\s+(?:calendar\s+)?(?P<unit2>day|date|week|month|year)(?!\s+as\b))\s+{_RELATIVE}(?P<a>{_ENT})(?P<tail>\s+{_AUX}(?P<vp>[^,?]*?))?(?P<end>\s*(?:[,?.!]|$))",
)


# "by whom (else) was it criticised": a wh-agent before a passive whose subject is a pronoun
_PASSIVE_PRONOUN = english(
    rf"^\W*by\s+(?:whom|which\s+[a-z]+|what\s+[a-z]+)(?:\s+else)?\s+(?:was|were|had\s+been|has\s+been)\s+(?P<p>it|he|she|they)\s+{_ADVERB}[a-z]+(?:ed|en)\b",
)


def _placeholders(text: str) -> set[str]:
    return set(_PLACEHOLDER.findall(text))


# a personal pronoun of the main clause stands for one party of the clause: as the subject of a
# do-question ("which country did it visit", "who else did he call") or a passive's agent ("by
# them") it is the clause's subject; after a verb or preposition ("who else praised it") its object
_SUBJECT_PRONOUN = english(
    r"\b(?:did|does|do|had|has|have|was|were|is|are|would|will|could)\s+(?P<p>he|she|it|they)\b"
    r"|\b(?P<p2>he|she|they)\b|\b(?P<p3>it)(?=\s+(?:(?:then|also|later|next|had|has|would)\s+)?(?!(?:as|is|was|has|this|thus|always|perhaps)\b)"
    rf"(?:[a-z]+(?:ed|s)|{_IRREGULAR_PAST})\b)",  # "it criticises", "it then went on to", not "it as well"
)
# a possessive pronoun before a noun stands for a party of the clause: the object for an agent noun ("its
# first visitor": who visited it), the subject for an act's noun ("the first target of its criticism")
_POSSESSIVE_PRONOUN = re.compile(
    r"\b(?P<p>its|his|her|their)\s+(?:(?:first|last|next|latest|earliest|most\s+recent|only|own)\s+)?(?P<noun>[a-z]+)\b", re.IGNORECASE
)
_AGENT_PRONOUN = english(r"\bby\s+(?P<p>him|her|it|them)\b")  # a passive's agent: the doer
_OBJECT_PRONOUN = english(r"(?<=[a-z])\s+(?P<p>it|him|her|them)\b(?=\s*(?:[?.!,]|$)|\s+(?:in|on|during|first|last|too|again|as|after|before)\b)")
# verb-phrase ellipsis closing the main clause: "who else wanted to?", "which country did too?", "who had?"
_ELLIPSIS = english(
    r"\s+(?:(?:also|too|then)\s+)?(?:(?:[a-z]+ed|want|wants|wish|wishes|tried|tries|planned|hoped|intended)\s+to"
    r"|did|does|do|had|has|have|would|could|was|were)(?:\s+(?:too|also|as\s+well|again))?(?=\s*[?.!]*\s*$)",
)
_ORDINAL_ELLIPSIS = english(
    rf"^(?P<pre>\W*)(?P<wh>{_WH})\s+(?:(?:was|were|came)\s+(?:the\s+)?(?P<ordinal>first|next|last)(?:\s+(?:one|ones|country|person|party))?"
    rf"|followed(?:\s+(?:next|then))?)(?P<end>\s*[?.!]*\s*)$",
)
# a question word with at most one verb and no object: "who else joined in?", "which other country?"
_BARE_QUESTION = english(
    rf"^(?P<wh>\W*(?:{_WH}))(?:\s+(?:else|other))?(?:\s+[a-z]+(?:\s+(?:in|too|also|there|as\s+well))?)?(?P<end>\s*[?.!]*\s*)$",
)
# beside a same-period clause ("In the month {E1} praised {E2}, who also praised?") the asked act is the
# clause's: an adverb may stand before the verb and an infinitive after it ("who wished to visit too?")
_BARE_SAME_PERIOD = english(
    rf"^(?P<wh>\W*(?:{_WH}))(?:\s+(?:else|other))?(?:\s+(?:also|too|then|likewise))?"
    rf"(?:\s+(?!(?:it|him|her|them|he|she|they|one|that|this)\b)[a-z]+(?:\s+to\s+[a-z]+)?(?:\s+(?:in|too|also|there|as\s+well|then))?)?(?P<end>\s*[?.!]*\s*)$",
)
_WH_ANYWHERE = english(rf"\b(?:{_WH})\b")


_CLAUSE_PASSIVE = english(
    # the clause's auxiliaries may already be read off ("had been", "was": `_AUX`)
    # a prepositional verb keeps its stranded preposition: "was appealed to by {E2}" -> "appealed to"
    rf"^(?:(?:{_BE}|been|being)\s+)?(?P<adv>{_ADVERB})(?P<verb>[a-z]+(?:\s+(?:to|with|about|at|on|upon|for|into))?)\s+by\s+(?P<b>{_ENT})(?P<rest>.*)$",
)


# "{E1} received a visit from {E2}": the giver of an N did the N to the receiver ({E2} visited {E1})
_CLAUSE_RECEIVE = english(
    rf"^(?P<adv>{_ADVERB})(?:{_RECEIVE})\s+(?:(?:a|an|the|some|any|its|their|his|her)\s+)?(?P<np>(?:[a-z]+\s+){{0,2}}?[a-z]+)\s+from\s+(?P<b>{_ENT})(?P<rest>.*)$",
)


def _active_clause(subject: str, vp: str) -> tuple[str, str]:
    """(subject, verb phrase) of a clause in the active voice: "{E1} was praised by {E2}" -> ({E2}, "praised {E1}"),
    "{E1} received a visit from {E2}" -> ({E2}, "visit {E1}")."""
    if (m := _CLAUSE_PASSIVE.match(vp.strip())) is not None:
        return m.group("b"), f"{_adverbs(m.group('adv'))}{m.group('verb')} {_object(subject)}{m.group('rest')}"
    if (m := _CLAUSE_RECEIVE.match(vp.strip())) is not None:
        return m.group("b"), f"{_adverbs(m.group('adv'))}{m.group('np')} {_object(subject)}{m.group('rest')}"
    return subject, vp


def _same_period(unit: str, reference: str, prep: str | None = None) -> str:
    """"in the same month as {E2}": `prep` as written, else "on" a day or a date and "in" another period."""
    unit = unit.lower()
    return f"{prep or ('on' if unit in ('day', 'date') else 'in')} the same {unit} as {reference}"


def _party(text: str, number: str) -> str:
    """The mention of entity `number` in `text`, with its article ("the {E2}")."""
    m = re.search(rf"(?:(?:the|a|an)\s+)?\{{E{number}\}}", text, re.IGNORECASE)
    return m.group(0) if m else f"{{E{number}}}"


def _fold_clause(vp: str, main: str, subject: str, same_period: bool = False) -> tuple[str, str] | None:
    """(the main clause with the temporal clause folded in, the reference), or None when it cannot
    be: a pro-verb or an ellipsis takes the clause's verb phrase, and the clause's subject is the
    reference; a main clause that already names the clause's objects needs nothing from it; a
    pronoun takes the party it stands for, and the clause's other party is the reference."""
    subject, vp = _active_clause(subject, vp.strip())
    if _PROVERB.search(main):
        return _PROVERB.sub(lambda m: f"{m.group('ord')} {vp}" if m.group("ord") else vp, main, count=1), subject
    if _placeholders(vp) <= _placeholders(main):
        return main, subject
    unshared = _placeholders(vp) - _placeholders(main)
    if _placeholders(subject) <= _placeholders(main) and len(unshared) == 1:
        return main, _party(vp, unshared.pop())  # the main clause repeats the subject: the object is the reference
    objects = _PLACEHOLDER.findall(vp)
    if _placeholders(main) or len(set(objects)) != 1 or not _WH_ANYWHERE.search(main):
        return None
    passive = _PASSIVE_PRONOUN.search(main)
    if passive:  # "by whom else was it criticised": the passive's pronoun subject is the clause's object
        return main[: passive.start("p")] + _party(vp, objects[0]) + main[passive.end("p") :], subject
    if pronoun := _SUBJECT_PRONOUN.search(main) or _AGENT_PRONOUN.search(main):
        group = next(g for g in ("p", "p2", "p3") if pronoun.groupdict().get(g))
        return main[: pronoun.start(group)] + _object(subject) + main[pronoun.end(group) :], _party(vp, objects[0])
    if pronoun := _OBJECT_PRONOUN.search(main):
        return main[: pronoun.start("p")] + _party(vp, objects[0]) + main[pronoun.end("p") :], subject
    owner = _POSSESSIVE_PRONOUN.search(main)
    if owner:  # "its first visitor": the clause's object; "its criticism" (the clause's own act): its subject
        possessor = re.search(rf"(?P<e>{_ENT})'s\s+(?:[a-z]+\s+)?{re.escape(owner.group('noun'))}\b", vp, re.IGNORECASE)
        if possessor:  # "After {E2} hosted {E1}'s visit, which country was the first to host his visit?": {E1}'s
            return main[: owner.start("p")] + f"{_object(possessor.group('e'))}'s" + main[owner.end("p") :], subject
        if re.fullmatch(_AGENT_SUFFIX, owner.group("noun").lower()):
            return main[: owner.start("p")] + f"{_party(vp, objects[0])}'s" + main[owner.end("p") :], subject
        if word_key(owner.group("noun")) in _acts(vp):
            return main[: owner.start("p")] + f"{_object(subject)}'s" + main[owner.end("p") :], _party(vp, objects[0])
    ordinal = _ORDINAL_ELLIPSIS.match(main)
    if ordinal and not re.match(r"to\b", vp, re.IGNORECASE):  # "who was next?", "who followed?" ("... after X to V" is no clause)
        word = (ordinal.group("ordinal") or "first").lower()
        return f"{ordinal.group('pre')}{ordinal.group('wh')} was the {'first' if word == 'next' else word} to {vp}{ordinal.group('end')}", subject
    if ellipsis := _ELLIPSIS.search(main):
        return main[: ellipsis.start()] + f" {vp}" + main[ellipsis.end() :], subject
    bare = (_BARE_SAME_PERIOD if same_period else _BARE_QUESTION).match(main)
    if bare:  # "who (else) joined in?", "who else?": the question asks who did the clause's act too
        return f"{bare.group('wh')} {vp}{bare.group('end')}", subject
    return None


_PERIOD_OF_EVENT = english(rf"\b{_SAME}\s+of\s+(?P<a>{_ENT})'s\s+[a-z]+")
# a clause whose pronoun subject is a party the main clause names: the clause's named party is the reference ("in the
# year (that) it did so with {E2}", "..., after it was rejected by {E2}?", "After they had criticised {E1}, whom did {E2} ...")
_PRONOUN_CLAUSE = rf"(?:he|she|it|they)\s+{_AUX}[^,?{{]*?(?P<a>{_ENT})"
_SAME_PRONOUN_CLAUSE = english(rf"\b{_SAME}\s+{_RELATIVE}{_PRONOUN_CLAUSE}(?P<end>\s*(?:[,?.!]|$))")


def same_period_clause(text: str) -> str | None:
    """"in the same month in which {E2} did" / "in the month {E2} did" / "in the month of {E2}'s visit"
    -> "in the same month as {E2}"."""
    if m := _PERIOD_OF_EVENT.search(text):
        return _spliced(m, _same_period(m.group("unit"), m.group("a"), m.group("prep")))
    if m := _SAME_FRONTED.match(text):
        vp = m.group("vp").strip()
        main = m.group("main").rstrip(" ,")
        folded = _fold_clause(vp, main, m.group("a"), same_period=True) if vp else (_PROVERB.sub("", main).strip(), m.group("a"))
        if folded and folded[0]:
            main, reference = folded
            main = main.rstrip(" ,")
            same = _same_period(m.group("unit"), reference, (m.group("prep") or "").lower())
            return f"{m.group('pre')}{_cap(main)} {same}{m.group('end') or '?'}"
    if m := _SAME_CLAUSE.search(text):
        vp = (m.group("vp") or "").strip()
        rest = _spliced(m)
        subject, vp = _active_clause(m.group("a"), vp)
        unshared = _placeholders(vp) - _placeholders(rest)
        reference = None
        if not vp or _PROVERB.fullmatch(vp) or not unshared:
            reference = subject
        elif _placeholders(subject) <= _placeholders(rest) and len(unshared) == 1:
            reference = _party(vp, unshared.pop())  # "who did {E1} praise in the month that {E1} praised {E2}"
        if reference is not None:
            same = _same_period(m.group("unit") or m.group("unit2"), _object(reference), m.group("prep"))
            return _spliced(m, same + m.group("end"))
    if (m := _SAME_PRONOUN_CLAUSE.search(text)) and _placeholders(text[: m.start()]):
        return _spliced(m, _same_period(m.group("unit"), m.group("a"), m.group("prep")) + m.group("end"))
    return None


_TRAILING_PRONOUN_CLAUSE = english(rf"^(?P<main>.+?),?\s+(?P<cue>{_CUE})\s+{_PRONOUN_CLAUSE}(?P<end>\s*[?.!]*\s*)$")
_FRONTED_PRONOUN_CLAUSE = english(rf"^(?P<pre>\W*)(?P<cue>{_CUE})\s+{_PRONOUN_CLAUSE}\s*,\s*(?P<main>.+)$")


# "Before {E2} had praised it, who last praised {E1}?": the clause's pronoun object is the party the
# main clause names, so the clause's subject is the reference
_FRONTED_PRONOUN_OBJECT = english(
    rf"^(?P<pre>\W*)(?P<cue>{_CUE})\s+(?P<a>{_ENT})\s+{_AUX}[a-z]+(?:\s+(?:to|with|about|against|on|for|at))?\s+(?:him|her|it|them)\s*,\s*(?P<main>.+)$",
)


# "Which country, once {E2} had praised {E1}, was the first to do so?": a temporal clause set off by
# commas inside the question reads as the same clause put in front
_INTERRUPTING_CLAUSE = english(
    rf"^(?P<pre>\W*)(?P<wh>{_WH})(?P<mid>(?:\s+(?!(?:{_CUE})\b)[a-z]+){{0,5}}?),\s+(?P<clause>(?:{_CUE})\s+[^,]+?),\s+(?P<rest>.+)$",
)


# "{E1}, after visiting {E2}, was hosted first by which country?": a temporal clause set off by commas
# after the subject reads as the same clause put in front ("After visiting {E2}, {E1} was hosted ...")
_SUBJECT_INTERRUPTED = english(
    rf"^(?P<pre>\W*)(?P<subj>{_ENT}),\s+(?P<clause>(?:{_CUE})\s+[^,]+?|(?:in|on|during|at)\s+(?:the\s+)?\{{T\d+\}}),\s+(?P<rest>[a-z].+)$",
)


def clause_reference(text: str) -> str | None:
    """"After {E2} had criticised {E1}, who was the first to do the same?" -> "After {E2}, who was the
    first to criticised {E1}?"; "After {E2} visited {E1}, which country did he visit?" -> "After
    {E1}, which country did {E2} visit?"."""
    if m := _INTERRUPTING_CLAUSE.match(text):
        fronted = f"{m.group('pre')}{_cap(m.group('clause'))}, {m.group('wh').lower()}{m.group('mid')} {m.group('rest')}"
        if (moved := _clause_reference(fronted)) is not None:
            return moved
        if _REFERENCE_PROVERB.match(fronted, len(m.group("pre"))):
            return fronted  # "Which was the last country, before {E2} did so, to ...": the pro-verb rule reads it in front
    if (m := _SUBJECT_INTERRUPTED.match(text)) and _WH_ANYWHERE.search(m.group("rest")):
        fronted = f"{m.group('pre')}{_cap(m.group('clause'))}, {_object(m.group('subj'))} {m.group('rest')}"
        return _clause_reference(fronted) or fronted
    return _clause_reference(text)


def _clause_reference(text: str) -> str | None:
    if (m := _FRONTED_CLAUSE.match(text)) and (folded := _fold_clause(m.group("vp"), m.group("main"), m.group("a"))) is not None:
        return f"{m.group('pre')}{m.group('cue')} {folded[1]}, {folded[0]}"
    if (m := _TRAILING_CLAUSE.match(text)) and (folded := _fold_clause(m.group("vp"), m.group("main"), m.group("a"))) is not None:
        return f"{folded[0]} {m.group('cue')} {folded[1]}{m.group('end')}"
    if (m := _TRAILING_PRONOUN_CLAUSE.match(text)) and _placeholders(m.group("main")) - _placeholders(m.group("a")):
        return f"{m.group('main')} {m.group('cue')} {m.group('a')}{m.group('end')}"
    for pattern in (_FRONTED_PRONOUN_OBJECT, _FRONTED_PRONOUN_CLAUSE):
        m = pattern.match(text)
        if m and _apart(m.group("main"), m.group("a")):
            return f"{m.group('pre')}{m.group('cue')} {m.group('a')}, {m.group('main')}"
    return None


# "after {E2} had done so", "before {E2} had": a pro-verb or an ellipsis right after the reference stands
# for the main clause's own act: the reference alone says it, as the templates do ("after {E2} did" is left)
_REFERENCE_PROVERB = english(
    rf"\b(?P<cue>{_CUE})\s+(?P<a>{_ENT})\s+(?P<aux>(?:had|has|have)(?:\s+(?:done|did))?|did|does|do"
    # "after {E2} had received one", "before {E2} made one": an act's noun said again as "one"
    rf"|(?:(?:had|has|have|did)\s+)?(?:[a-z]+ed|made|got|gave|sent|held|had|took|sought)\s+(?:one|ones)\b)"
    rf"(?:\s+(?:so|it|this|that|likewise|the\s+same(?:\s+thing)?))?(?:\s+(?:too|also|as\s+well|again))?(?=\s*(?:[?.!,]|$))",
)


def reference_proverb(text: str) -> str | None:
    """"Which country first praised {E1} after {E2} had done so?" -> "... after {E2}?": the reference
    did the asked act, however the pro-verb says it ("did" and "did so" are left as they are)."""
    m = _REFERENCE_PROVERB.search(text)
    at_end = not text[m.end() :].strip(" ?.!") if m else False
    if m is None or at_end and (m.group(0).lower().endswith(" did") or " ".join(m.group(0).lower().split()[-2:]) == "did so"):
        return None  # the templates' own "... before {E2} did?" stays as it is; a fronted "Before {E2} did, ..." does not
    return _spliced(m, f"{m.group('cue')} {m.group('a')}")


# -- a reference made by a clause of its own -------------------------------------------------------
# "{E2} praised {E1} in a certain month": a period named in the clause, which "then" or "that month" points back at
_SOME_PERIOD = english(
    r"\s*\b(?:(?:in|on|during)\s+(?:a|one|some)\s+(?:(?:certain|given|particular|specific)\s+)?|one\s+)(?P<unit>day|date|week|month|year)\b",
)
_ANAPHORIC_CUE = (
    r"(?P<after>afterwards?|after\s+(?:that|this|him|her|them)|thereafter|subsequently|later(?:\s+on)?|next)"
    r"|(?P<before>beforehand|before\s+(?:that|this|him|her|them)|previously|earlier|prior\s+to\s+(?:that|this|him|her|them))"
    r"|(?:(?P<prep>in|on|during|at)\s+)?(?:that|the)\s+(?:same\s+|very\s+)?(?P<unit>day|date|week|month|year)(?!\s+(?:as|of|that|when|in\s+which)\b)"
)
# the pointing adverb may open the question: "{E2} praised {E1}. After her, which country was the first to do so?"
_LEADING_CUE = (
    r"(?:after|before|prior\s+to)\s+(?:that|this|him|her|them)|afterwards?|thereafter|subsequently|later(?:\s+on)?"
    r"|beforehand|previously|earlier|(?:in|on|during)\s+(?:that|the)\s+(?:same\s+|very\s+)?(?:day|date|week|month|year)"
)
_TWO_CLAUSES = english(
    rf"^(?P<pre>\W*)(?:(?:when|while|as|at\s+the\s+time)\s+)?(?P<a>{_ENT})\s+(?P<vp>[^;:.?!,]*?\{{E\d+\}}[^;:.?!,]*?)\s*(?:[;:.,]\s*|\s+(?:and|so|then)\s+|\s+)"
    rf"(?P<main>(?P<lead>(?:{_LEADING_CUE})\s*,?\s*)?(?:(?:with|to|from|by|for|of|about|against)\s+)?(?:{_WH})\b.*?)(?P<end>\s*[?.!]*\s*)$",
)
# A question after a statement may point back to its event: "after that", "before him", "after he did", "on that same day";
# a subject pronoun to its subject; a verb left as "do that" to its act (not read here: the question alone asks another one)
_POINTS_BACK = re.compile(r"\b(?P<bound>after|before|prior\s+to)\s+(?:that|this|him|her|them|(?:he|she|they|it)\s+did(?:\s+(?:so|that|it))?)\b"
                          r"|\b(?P<prep>on|in)\s+(?:that|this|the)\s+(?:very\s+)?same\s+(?P<unit>day|date|week|month|year)\b(?!\s+as\b)", re.IGNORECASE)
_SUBJECT = english(r"\b(?:he|she|they)\b(?!\s+did\b)")
_PRO_VERB = english(r"\b(?:do|does|did|done|doing|wanted|want)\s+(?:that|so|it|this|the\s+same)\b(?!\s+(?:same|month|year|day))")


def _named_antecedent(text: str) -> str | None:
    """A question after a statement of an event, its anaphor naming the statement's party the question does not name
    ("{E1} visited {E2}. Who visited {E2} after he did?" -> "Who visited {E2} after {E1}?"); of two such parties a subject
    pronoun is the first, the event the second. Unsure (no such party, two and no subject pronoun, two named in the
    question: it may point inside; a statement of one party; a verb left as "do that"): None. The statement's words are
    left out, and so kept for the relation: its verb still names the act."""
    text = re.sub(r"(\{E\d+\})\s+(?=[A-Z])", r"\1. ", text)  # a name linked with its full stop ("China. After that"): a capital opens a sentence
    asking = [p for p in _pieces(text)[1:] if _ASKS_HERE.search(p) or _REQUEST.search(p)]
    if not asking or not (back := _POINTS_BACK.search(question := asking[-1])) or _PRO_VERB.search(question):
        return None
    start = text.rfind(question)
    named, parties = _placeholders(text[start:]), _PLACEHOLDER.findall(text[:start])
    others = list(dict.fromkeys(f"{{E{n}}}" for n in parties if n not in named))
    if len(others) != (2 if _SUBJECT.search(question) else 1) or len(named) > 1 or len(set(parties)) < 2:
        return None
    said = f"{back.group('bound')} {others[-1]}" if back.group("bound") else _same_period(back.group("unit"), others[-1], back.group("prep"))
    return _cap(_SUBJECT.sub(others[0], question[: back.start()] + said + question[back.end() :], count=1))


def anaphoric_reference(text: str) -> str | None:
    """A statement and a question pointing back to it, read as the one question it asks: by the statement's party the
    question does not name (`_named_antecedent`), else as a temporal clause ("{E2} praised {E1}; who was the first to
    praise it afterwards?" -> "After {E2}, who was the first to praise {E1}?"; "... who else praised {E1} that same
    month?" -> "... in the same month as {E2}"): an adverb that points back makes the first clause the reference."""
    if (named := _named_antecedent(text)) is not None:
        return named
    if (m := _TWO_CLAUSES.match(text)) is None:
        return None
    some, then = _SOME_PERIOD.search(m.group("vp")), None
    if some is not None:  # "... in a certain month; who else praised it then / that month?"
        then = re.search(
            r"\s*,?\s*\b(?:then|at\s+that\s+time|at\s+the\s+time|(?:(?:in|on|during)\s+)?(?:that(?:\s+same|\s+very)?|the\s+(?:same|very))\s+(?:day|date|week|month|year))\b",
            m.group("main"),
            re.IGNORECASE,
        )
    if some is not None and then is not None:
        main = (m.group("main")[: then.start()] + m.group("main")[then.end() :]).strip(" ,")
        if (folded := _fold_clause(_spliced(some), main, m.group("a"))) is None:
            return None
        return f"{m.group('pre')}{_cap(folded[0])} {_same_period(some.group('unit'), _object(folded[1]))}{m.group('end') or '?'}"
    cue = re.search(rf"\s*,?\s*\b(?:{_ANAPHORIC_CUE})\b", m.group("main"), re.IGNORECASE)
    if cue is None:
        return None
    if m.group("lead") and re.search(r"\b(?:him|her|them)\b", m.group("lead"), re.IGNORECASE):
        # "After her, who ...": the pronoun is the clause's subject for sure only when the main clause
        # repeats her act with a pro-verb or names the clause's object again
        if not _PROVERB.search(m.group("main")) and not _placeholders(m.group("vp")) <= _placeholders(m.group("main")):
            return None
    is_next = cue.group(0).strip(" ,").lower() == "next"  # "who was (the) next": the first after the reference
    main = (m.group("main")[: cue.start()] + (" first" if is_next else "") + m.group("main")[cue.end() :]).strip(" ,")
    if (folded := _fold_clause(m.group("vp"), main, m.group("a"))) is None:
        return None
    main, reference = folded[0], _object(folded[1])
    if cue.group("unit"):
        same = _same_period(cue.group("unit"), reference, (cue.group("prep") or "").lower())
        return f"{m.group('pre')}{_cap(main)} {same}{m.group('end') or '?'}"
    word = "After" if cue.group("after") else "Before"
    return f"{m.group('pre')}{word} {reference}, {main[:1].lower()}{main[1:]}{m.group('end') or '?'}"


_COMPANION = english(
    rf"\b(?:besides|apart\s+from|aside\s+from|along\s+with|alongside|other\s+than|in\s+addition\s+to|as\s+well\s+as|together\s+with|just\s+like|like)"
    rf"\s+(?P<a>{_ENT})\s*,?\s*",
)
_SAME_WITHOUT_AS = english(r"\bsame\s+(?:calendar\s+)?(?:day|date|week|month|year|time)\b(?!\s+as\b)")
_THAT_PERIOD = english(r"\b(?:that|the\s+very)\s+(?P<unit>day|date|week|month|year)\b(?!\s+(?:as|of|that|when|in\s+which)\b)")


def companion_reference(text: str) -> str | None:
    """"Besides {E2}, who praised {E1} in the same month?" -> "who praised {E1} in the same month as
    {E2}": the one the asked party is compared with is the same-period reference."""
    same = _SAME_WITHOUT_AS.search(text)
    m = _COMPANION.search(text)
    if m is not None and same is None and (period := _THAT_PERIOD.search(text)) is not None:
        unit = period.group("unit").lower()
        prep = "" if re.search(r"\b(?:in|on|during|at|within)\s*$", text[: period.start()], re.IGNORECASE) else ("on " if unit in ("day", "date") else "in ")
        text = _spliced(period, f"{prep}the same {unit}")  # "besides {E2}, ... that month"
        same, m = _SAME_WITHOUT_AS.search(text), _COMPANION.search(text)
    if same is None or m is None:
        return None
    text = _spliced(m)
    same = _SAME_WITHOUT_AS.search(text)
    assert same is not None
    return text[: same.end()] + f" as {m.group('a')}" + text[same.end() :]


_HAVING = re.compile(
    rf"^(?P<pre>\W*)having\s+(?P<adv>{_ADVERB})[a-z]+\s+(?:[a-z]+\s+){{0,4}}?(?P<a>{_ENT})(?:\s+[a-z]+){{0,3}}\s*,\s*", re.IGNORECASE
)


def perfect_participle_reference(text: str) -> str | None:
    """"Having praised {E2}, who did {E1} praise first?" -> "After {E2}, who did {E1} praise first?": a
    perfect participle clause happened before its main clause, and its object is the reference."""
    if (m := _HAVING.match(text)) is None:
        return None
    return f"{m.group('pre')}After {m.group('a')}, " + text[m.end() :]


# "subsequent to {T1}", "prior to {T1}": the memory retrieves by the masked question's words and the
# templates say "before" and "after" only ("since" and "until" include the reference's time: kept)
_TEMPLATE_CUE = english(
    r"\b(?P<cue>(?P<before>prior\s+to|earlier\s+than|preceding|ahead\s+of|in\s+advance\s+of)"
    r"|later\s+than|subsequent(?:ly)?\s+to|following|in\s+the\s+wake\s+of)\s+(?=\{T\d+\})",
)


def template_cue(text: str) -> str | None:
    """"Who praised {E1} prior to {T1}" -> "... before {T1}"; "subsequent to {T1}" -> "after {T1}"."""
    def word(m: re.Match[str]) -> str:
        cue = "before" if m.group("before") else "after"
        return (cue.capitalize() if m.group("cue")[:1].isupper() else cue) + " "
    changed = _TEMPLATE_CUE.sub(word, text)
    return changed if changed != text else None
