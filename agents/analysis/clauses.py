"""Clauses that say when, folded into the templates' one-clause form (`agents.analysis.grammar` runs them).

A temporal reference is often a clause of its own ("After {E2} had criticised {E1}, who was the
first to do the same?"). Each rule folds it into the main clause and leaves only its reference party
after the cue ("after {E2}"): the party the main clause does not share (`_fold_clause`).
"""

from __future__ import annotations

import re

from agents.analysis.grammar_words import (
    _PLACEHOLDER,
    _PROVERB,
    GRAMMAR_WORDS,
    SHARED,
    _adverbs,
    _cap,
    _object,
    _spliced,
)
from agents.analysis.question_form import PATTERNS as FORM
from agents.analysis.question_form import _pieces
from agents.analysis.words import patterns
from ari.base.text import word_key

# the clause rules' patterns (data/clause_patterns.json: each with why it is read so, and the questions it is for)
PATTERNS = patterns("clause_patterns", SHARED)
_ORDER, _PERSONS = {w[:4] for w in "first last again also later next whom which what were afterwards".split()}, {"him", "her", "he", "she"}


# -- gerunds after a temporal cue ------------------------------------------------------------------


def _acts(event: str) -> set[str]:
    return {word_key(w) for w in re.findall(r"[A-Za-z]+", re.sub(r"\{E\d+\}", " ", event))}


def _same_act(pronoun: re.Pattern[str], event: str, main: str) -> re.Match[str] | None:
    """The pronoun of the main clause's verb when that verb names the event's own act, None when another
    verb takes it: its object (`PATTERNS["verb_then_pronoun"]`: "after {E2}'s visit to {E1}, who was the first to
    visit it": "it" is {E1}) or a passive's agent (`PATTERNS["verb_by_pronoun"]`: "... to be visited by it": {E2})."""
    m = pronoun.search(main)
    return m if m is not None and word_key(m.group("verb")) in _acts(event) else None


def gerund_reference(text: str) -> str | None:
    """"Before meeting {E2}, ..." -> "Before {E2}, ...": the gerund's object is the reference entity.
    The same for an event noun: "after the visit by {E2} (to {E1})", "after {E2}'s visit to {E1}" ->
    "after {E2}", when {E1} is named again by the main clause."""
    for m in PATTERNS["gerund"].finditer(text):
        if m.group("ger").lower() in GRAMMAR_WORDS["not_gerunds"] or re.search(r"\b(?:who|whom|which|what|when)\b", m.group("rest"), re.I):
            continue
        return _spliced(m, f"{m.group('cue')} ")
    for pattern in (PATTERNS["event_by"], PATTERNS["event_of"]):
        if (event := pattern.search(text)) is None:
            continue
        rest = text[: event.start()] + text[event.end() :]
        if event.group("obj") and _placeholders(event.group("b")) - _placeholders(rest):
            pronoun = _same_act(PATTERNS["verb_then_pronoun"], event.group(0), text[event.end() :])
            agent = _same_act(PATTERNS["verb_by_pronoun"], event.group(0), text[event.end() :]) if pronoun is None else None
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
    if (unnamed := PATTERNS["event_of_unnamed"].match(text)) is None:
        return None
    main, reference = unnamed.group("main"), unnamed.group("a")
    return f"{unnamed.group('pre')}{unnamed.group('cue')} {reference}, {main}" if _apart(main, reference) else None


def _apart(main: str, reference: str) -> bool:
    """Whether the main clause names a party and none of the reference's."""
    return bool(_placeholders(main)) and _placeholders(main).isdisjoint(_placeholders(reference))


# -- temporal clauses with a verb of their own -----------------------------------------------------


def _placeholders(text: str) -> set[str]:
    return set(_PLACEHOLDER.findall(text))


def _active_clause(subject: str, vp: str) -> tuple[str, str]:
    """(subject, verb phrase) of a clause in the active voice: "{E1} was praised by {E2}" -> ({E2}, "praised {E1}"),
    "{E1} received a visit from {E2}" -> ({E2}, "visit {E1}")."""
    if (m := PATTERNS["clause_passive"].match(vp.strip())) is not None:
        return m.group("b"), f"{_adverbs(m.group('adv'))}{m.group('verb')} {_object(subject)}{m.group('rest')}"
    if (m := PATTERNS["clause_receive"].match(vp.strip())) is not None:
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
    if _placeholders(main) or len(set(objects)) != 1 or not PATTERNS["wh_anywhere"].search(main):
        return None
    passive = PATTERNS["passive_pronoun"].search(main)
    done_to = passive or PATTERNS["object_pronoun"].search(main)  # a person's pronoun of another act may be either party
    if done_to and done_to.group("p").lower() in _PERSONS and not {k[:4] for k in _acts(main)} & {k[:4] for k in _acts(vp)} - _ORDER:
        return None  # "after {E1} visited {E2}, who criticized her": the answer check reads whom "her" stands for
    if passive:  # "by whom else was it criticised": the passive's pronoun subject is the clause's object
        return main[: passive.start("p")] + _party(vp, objects[0]) + main[passive.end("p") :], subject
    if pronoun := PATTERNS["subject_pronoun"].search(main) or PATTERNS["agent_pronoun"].search(main):
        group = next(g for g in ("p", "p2", "p3") if pronoun.groupdict().get(g))
        return main[: pronoun.start(group)] + _object(subject) + main[pronoun.end(group) :], _party(vp, objects[0])
    if pronoun := PATTERNS["object_pronoun"].search(main):
        return main[: pronoun.start("p")] + _party(vp, objects[0]) + main[pronoun.end("p") :], subject
    owner = PATTERNS["possessive_pronoun"].search(main)
    if owner:  # "its first visitor": the clause's object; "its criticism" (the clause's own act): its subject
        possessor = re.search(rf"(?P<e>{SHARED['ENT']})'s\s+(?:[a-z]+\s+)?{re.escape(owner.group('noun'))}\b", vp, re.IGNORECASE)
        if possessor:  # "After {E2} hosted {E1}'s visit, which country was the first to host his visit?": {E1}'s
            return main[: owner.start("p")] + f"{_object(possessor.group('e'))}'s" + main[owner.end("p") :], subject
        if re.fullmatch(SHARED["AGENT_SUFFIX"], owner.group("noun").lower()):
            return main[: owner.start("p")] + f"{_party(vp, objects[0])}'s" + main[owner.end("p") :], subject
        if word_key(owner.group("noun")) in _acts(vp):
            return main[: owner.start("p")] + f"{_object(subject)}'s" + main[owner.end("p") :], _party(vp, objects[0])
    ordinal = PATTERNS["ordinal_ellipsis"].match(main)
    if ordinal and not re.match(r"to\b", vp, re.IGNORECASE):  # "who was next?", "who followed?" ("... after X to V" is no clause)
        word = (ordinal.group("ordinal") or "first").lower()
        return f"{ordinal.group('pre')}{ordinal.group('wh')} was the {'first' if word == 'next' else word} to {vp}{ordinal.group('end')}", subject
    if ellipsis := PATTERNS["ellipsis"].search(main):
        return main[: ellipsis.start()] + f" {vp}" + main[ellipsis.end() :], subject
    bare = (PATTERNS["bare_same_period"] if same_period else PATTERNS["bare_question"]).match(main)
    if bare:  # "who (else) joined in?", "who else?": the question asks who did the clause's act too
        return f"{bare.group('wh')} {vp}{bare.group('end')}", subject
    return None


def same_period_clause(text: str) -> str | None:
    """"in the same month in which {E2} did" / "in the month {E2} did" / "in the month of {E2}'s visit"
    -> "in the same month as {E2}"."""
    if m := PATTERNS["period_of_event"].search(text):
        return _spliced(m, _same_period(m.group("unit"), m.group("a"), m.group("prep")))
    if m := PATTERNS["same_fronted"].match(text):
        vp = m.group("vp").strip()
        main = m.group("main").rstrip(" ,")
        folded = _fold_clause(vp, main, m.group("a"), same_period=True) if vp else (_PROVERB.sub("", main).strip(), m.group("a"))
        if folded and folded[0]:
            main, reference = folded[0].rstrip(" ,"), folded[1]
            same = _same_period(m.group("unit"), reference, (m.group("prep") or "").lower())
            return f"{m.group('pre')}{_cap(main)} {same}{m.group('end') or '?'}"
    if m := PATTERNS["same_clause"].search(text):
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
    if (m := PATTERNS["same_pronoun_clause"].search(text)) and _placeholders(text[: m.start()]):
        return _spliced(m, _same_period(m.group("unit"), m.group("a"), m.group("prep")) + m.group("end"))
    return None


def clause_reference(text: str) -> str | None:
    """"After {E2} had criticised {E1}, who was the first to do the same?" -> "After {E2}, who was the
    first to criticised {E1}?"; "After {E2} visited {E1}, which country did he visit?" -> "After
    {E1}, which country did {E2} visit?"."""
    if m := PATTERNS["interrupting_clause"].match(text):
        fronted = f"{m.group('pre')}{_cap(m.group('clause'))}, {m.group('wh').lower()}{m.group('mid')} {m.group('rest')}"
        if (moved := _clause_reference(fronted)) is not None:
            return moved
        if PATTERNS["reference_proverb"].match(fronted, len(m.group("pre"))):
            return fronted  # "Which was the last country, before {E2} did so, to ...": the pro-verb rule reads it in front
    if (m := PATTERNS["subject_interrupted"].match(text)) and PATTERNS["wh_anywhere"].search(m.group("rest")):
        fronted = f"{m.group('pre')}{_cap(m.group('clause'))}, {_object(m.group('subj'))} {m.group('rest')}"
        return _clause_reference(fronted) or fronted
    return _clause_reference(text)


def _clause_reference(text: str) -> str | None:
    if (m := PATTERNS["fronted_clause"].match(text)) and (folded := _fold_clause(m.group("vp"), m.group("main"), m.group("a"))) is not None:
        return f"{m.group('pre')}{m.group('cue')} {folded[1]}, {folded[0]}"
    if (m := PATTERNS["trailing_clause"].match(text)) and (folded := _fold_clause(m.group("vp"), m.group("main"), m.group("a"))) is not None:
        return f"{folded[0]} {m.group('cue')} {folded[1]}{m.group('end')}"
    if (m := PATTERNS["trailing_pronoun_clause"].match(text)) and _placeholders(m.group("main")) - _placeholders(m.group("a")):
        return f"{m.group('main')} {m.group('cue')} {m.group('a')}{m.group('end')}"
    for pattern in (PATTERNS["fronted_pronoun_object"], PATTERNS["fronted_pronoun_clause"]):
        m = pattern.match(text)
        if m and _apart(m.group("main"), m.group("a")):
            return f"{m.group('pre')}{m.group('cue')} {m.group('a')}, {m.group('main')}"
    return None


def reference_proverb(text: str) -> str | None:
    """"Which country first praised {E1} after {E2} had done so?" -> "... after {E2}?": the reference
    did the asked act, however the pro-verb says it ("did" and "did so" are left as they are)."""
    m = PATTERNS["reference_proverb"].search(text)
    at_end = not text[m.end() :].strip(" ?.!") if m else False
    if m is None or at_end and (m.group(0).lower().endswith(" did") or " ".join(m.group(0).lower().split()[-2:]) == "did so"):
        return None  # the templates' own "... before {E2} did?" stays as it is; a fronted "Before {E2} did, ..." does not
    return _spliced(m, f"{m.group('cue')} {m.group('a')}")


# -- a reference made by a clause of its own -------------------------------------------------------


def _named_antecedent(text: str) -> str | None:
    """A question after a statement of an event, its anaphor naming the statement's party the question does not name
    ("{E1} visited {E2}. Who visited {E2} after he did?" -> "Who visited {E2} after {E1}?"); of two such parties a subject
    pronoun is the first, the event the second. Unsure (no such party, two and no subject pronoun, two named in the
    question: it may point inside; a statement of one party; a verb left as "do that"): None. The statement's words are
    left out, and so kept for the relation: its verb still names the act."""
    text = re.sub(r"(\{E\d+\})\s+(?=[A-Z])", r"\1. ", text)  # a name linked with its full stop ("China. After that"): a capital opens a sentence
    asking = [p for p in _pieces(text)[1:] if FORM["asks_here"].search(p) or FORM["request"].search(p)]
    if not asking or not (back := PATTERNS["points_back"].search(question := asking[-1])) or PATTERNS["pro_verb"].search(question):
        return None
    start = text.rfind(question)
    named, parties = _placeholders(text[start:]), _PLACEHOLDER.findall(text[:start])
    others = list(dict.fromkeys(f"{{E{n}}}" for n in parties if n not in named))
    if len(others) != (2 if PATTERNS["subject"].search(question) else 1) or len(named) > 1 or len(set(parties)) < 2:
        return None
    said = f"{back.group('bound')} {others[-1]}" if back.group("bound") else _same_period(back.group("unit"), others[-1], back.group("prep"))
    return _cap(PATTERNS["subject"].sub(others[0], question[: back.start()] + said + question[back.end() :], count=1))


def anaphoric_reference(text: str) -> str | None:
    """A statement and a question pointing back to it, read as the one question it asks: by the statement's party the
    question does not name (`_named_antecedent`), else as a temporal clause ("{E2} praised {E1}; who was the first to
    praise it afterwards?" -> "After {E2}, who was the first to praise {E1}?"; "... who else praised {E1} that same
    month?" -> "... in the same month as {E2}"): an adverb that points back makes the first clause the reference."""
    if (named := _named_antecedent(text)) is not None:
        return named
    if (m := PATTERNS["two_clauses"].match(text)) is None:
        return None
    some = PATTERNS["some_period"].search(m.group("vp"))
    then = PATTERNS["period_pointer"].search(m.group("main")) if some is not None else None
    if some is not None and then is not None:  # "... in a certain month; who else praised it then / that month?"
        main = (m.group("main")[: then.start()] + m.group("main")[then.end() :]).strip(" ,")
        if (folded := _fold_clause(_spliced(some), main, m.group("a"))) is None:
            return None
        return f"{m.group('pre')}{_cap(folded[0])} {_same_period(some.group('unit'), _object(folded[1]))}{m.group('end') or '?'}"
    cue = PATTERNS["anaphoric_cue_after"].search(m.group("main"))
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


def companion_reference(text: str) -> str | None:
    """"Besides {E2}, who praised {E1} in the same month?" -> "who praised {E1} in the same month as
    {E2}": the one the asked party is compared with is the same-period reference."""
    same = PATTERNS["same_without_as"].search(text)
    m = PATTERNS["companion"].search(text)
    if m is not None and same is None and (period := PATTERNS["that_period"].search(text)) is not None:
        unit = period.group("unit").lower()
        prep = "" if re.search(r"\b(?:in|on|during|at|within)\s*$", text[: period.start()], re.IGNORECASE) else ("on " if unit in ("day", "date") else "in ")
        text = _spliced(period, f"{prep}the same {unit}")  # "besides {E2}, ... that month"
        same, m = PATTERNS["same_without_as"].search(text), PATTERNS["companion"].search(text)
    if same is None or m is None:
        return None
    text = _spliced(m)
    same = PATTERNS["same_without_as"].search(text)
    assert same is not None
    return text[: same.end()] + f" as {m.group('a')}" + text[same.end() :]


def perfect_participle_reference(text: str) -> str | None:
    """"Having praised {E2}, who did {E1} praise first?" -> "After {E2}, who did {E1} praise first?": a
    perfect participle clause happened before its main clause, and its object is the reference."""
    if (m := PATTERNS["having"].match(text)) is None:
        return None
    return f"{m.group('pre')}After {m.group('a')}, " + text[m.end() :]


def template_cue(text: str) -> str | None:
    """"Who praised {E1} prior to {T1}" -> "... before {T1}"; "subsequent to {T1}" -> "after {T1}"."""
    def word(m: re.Match[str]) -> str:
        cue = "before" if m.group("before") else "after"
        return (cue.capitalize() if m.group("cue")[:1].isupper() else cue) + " "
    return PATTERNS["template_cue"].sub(word, text)  # unchanged: the rule did not fire (`grammar.rewrite`)
