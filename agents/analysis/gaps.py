"""A text not written as a question, its unknown marked, read as the question it asks (general English).

The marks: a gap ("____", "[blank]", a lone "?"); "this <noun>" or an indefinite subject with a request or a tag
asking for it ("Name this country.", "- who was it?"); a noun phrase with "?" ("X's first visit: year?"); a record of
fields with one value missing ("actor=? | event=visit | target=X"). A hint says the kind asked ("____ (country)",
"Name the year."). The mark becomes its question word; a record's fields go in a clause's order (subject, event,
object, constraints), each role read from its key (annotation role names; "visitor" names the subject and the act,
"visited" the object), a key that names none filling the role left open. Instructions and requests that only say
"answer" are set aside; a text with no mark, or a record with more than one open, is left as written."""

from __future__ import annotations

import re

from agents.analysis.grammar import is_agent_noun, verb_of_agent
from agents.analysis.grammar_words import GRAMMAR_WORDS
from agents.analysis.question_form import INTERROGATIVE, REQUEST_VERB, REQUEST_VERBS
from agents.analysis.words import patterns

# the marks, requests and records read (data/gap_patterns.json: each with why it is read so, and the texts it is for)
PATTERNS = patterns("gap_patterns", {"REQUEST_VERB": REQUEST_VERB})
_ROLES = {role: GRAMMAR_WORDS[f"field_{role}"] for role in ("time", "object", "event", "subject")}
_OPENS_CONSTRAINT = GRAMMAR_WORDS["field_constraints"]
_UNITS = ("day", "date", "month", "year")  # finest first: "month and year" asks a month
_NOT_KINDS = frozenset({"this", "these", "it", "the", "a", "an", "only", "and", "with", "me", "us", "is", "was", "who", "whom", "which", "what"})


def _wh(hint: str | None) -> str:
    """The question word a hint asks with: "in which month" ("(month, year)"), "which country", else "who"."""
    words = [w for w in re.findall(r"[a-z]+", (hint or "").lower()) if w not in _NOT_KINDS]
    unit = next((u for u in _UNITS if u in words or f"{u}s" in words), None)
    if unit or "when" in words:
        return "when" if unit in ("day", "date", None) else f"in which {unit}"
    kind = [w for w in words if len(w) > 2 and w not in REQUEST_VERBS]
    return f"which {kind[-1]}" if kind else "who"


def _sentence(text: str) -> str:
    text = " ".join(text.split()).rstrip(" .!,;:")
    return text[:1].upper() + text[1:] + ("" if text.endswith("?") else "?")


def _asked_at(before: str, after: str, wh: str) -> str:
    """The clause `before` + marker + `after`, with `wh` in the marker's place, as a question."""
    if (m := PATTERNS["time_gap"].search(before)) and (wh == "who" or wh.startswith(("in which", "when"))):  # "X visited Y in ____": fronted
        wh = _wh(m.group("unit") or "when") if wh == "who" else wh
        clause = (before[: m.start()] + after).strip()
        clause = clause[:1].lower() + clause[1:] if re.match(r"(?:The|A|An)\b", clause) else clause
        return _sentence(f"{wh} did {clause}")
    if not after.strip(" .!") and (m := PATTERNS["was_gap"].match(before)):  # "the first to visit X was ____": its subject asked
        np = m.group("np")
        return _sentence(f"{m.group('pre')}{wh} {m.group('be')} {np[:1].lower() + np[1:] if not m.group('pre') else np}")
    return _sentence(before + wh + after)


def _act_of(key: str) -> str:
    """The act a key names with its party: "Visitor" (the one who visits), "Visited" (the one visited)."""
    word = key.lower()
    if " " in word or any(word in words for words in _ROLES.values()):
        return ""
    return verb_of_agent(word) if is_agent_noun(word) else word.removesuffix("d") if word.endswith("ed") else ""


def _role(key: str, value: str) -> str:
    words = key.lower().split()
    if value.split()[:1] and value.split()[0].lower() in _OPENS_CONSTRAINT:
        return "time" if _ROLES["time"] & set(words) else "other"
    role = next((role for role in _ROLES if _ROLES[role] & set(words)), "party")
    return ("subject" if is_agent_noun(key) else "object") if role == "party" and _act_of(key) else role


def _from_fields(pieces: list[str], hint: str | None) -> str | None:
    """A record of fields or an arrowed triple (subject -> event -> object) as its question."""
    roles: dict[str, str] = {}
    parties: list[str] = []
    rest: list[str] = []
    implied = ""
    for n, piece in enumerate(pieces):
        key, value = (f.group("key"), f.group("value").strip(" .")) if (f := PATTERNS["field"].match(piece)) else ("", piece.strip(" ."))
        role = _role(key, value) if key else ("subject", "event", "object")[n] if n < 3 else "other"
        implied = implied or (_act_of(key) if key else "")
        if value.lower() in _UNITS or role == "time" and (value.lower().split()[:1] and value.split()[0].lower() in _UNITS):
            hint = hint or value  # "Return: year", "Granularity: month": the time is asked
        elif role == "time" and not PATTERNS["asked_value"].match(value):
            rest.append(value if value.split()[0].lower() in _OPENS_CONSTRAINT else f"in {value}")
        elif role in ("party", "other") or role in roles:
            (parties if role == "party" else rest).append(value)
        else:
            roles[role] = value
    for value in parties:  # a key that names no role: the party no other field names
        if slot := next((r for r in ("subject", "object") if r not in roles), None):
            roles[slot] = value
        else:
            rest.append(value)
    roles.setdefault("event", implied)
    asked = [role for role, value in roles.items() if PATTERNS["asked_value"].match(value)]
    wh = _wh((m.group("hint") if (m := PATTERNS["asked_value"].match(roles[asked[0]])) else None) or hint) if asked else _wh(hint)
    if len(asked) > 1 or not roles["event"] or not asked and not wh.startswith(("in which", "when")):
        return None
    rest[:0] = [PATTERNS["asked_value"].sub("", roles[asked[0]]).strip(" ,?")] if asked else []
    subject, event, obj, tail = roles.get("subject", ""), roles["event"], roles.get("object", ""), " ".join(rest)
    if asked == ["subject"]:
        return _sentence(f"{wh} {event} {obj} {tail}")
    return _sentence(f"{wh} did {subject} {event} {'' if asked == ['object'] else obj} {tail}")


def as_question(text: str) -> str:
    """`text` as the question its marked unknown asks (see the module's docstring), else `text`."""
    text = PATTERNS["remark"].sub("", text.strip())
    if (np := PATTERNS["np_asked"].search(text)) and not INTERROGATIVE.search(text) and not PATTERNS["mark"].search(text):
        ask = np.group("ask")
        named = ask[ask.lower().find(np.group("ord").lower()) :] if np.group("ord") else ""
        return _sentence(text[: np.start("ask")] + (f"who was the {named[:1].lower() + named[1:]}" if named else _wh(ask)))
    pieces = [p for p in PATTERNS["pieces"].split(text) if p.strip(" .")]
    matched = [(p, PATTERNS["name_it"].match(p) or PATTERNS["asking"].match(p)) for p in pieces]
    asking = [m for _, m in matched if m]
    hint = asking[-1].group("hint") if asking else None
    kept = [p for p, m in matched if not m]
    if sum(1 for p in kept if PATTERNS["field"].match(p)) > 1 or "->" in text or "|" in text:
        return _from_fields(kept, hint) or text
    sentence = " ".join(kept)
    # where a question word asks already, a mark is a slip ("Who visited X ? in 2009")
    if (mark := PATTERNS["mark"].search(sentence)) and not INTERROGATIVE.search(PATTERNS["mark"].sub("", sentence)):
        return _asked_at(sentence[: mark.start()], sentence[mark.end() :], _wh(mark.group("hint") or hint))
    this = PATTERNS["this"].search(sentence)
    if not asking or this is None or INTERROGATIVE.search(sentence):
        return text
    return _asked_at(sentence[: this.start()], sentence[this.end() :], _wh(hint if this.group("kind") else this.group("noun") or hint))


