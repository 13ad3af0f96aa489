"""Is the text a question ARI can answer? A bare name, a fragment, a statement or a yes/no question is not.

General English: text asks something when it names what it asks for: an interrogative word, a
request, a description headed by an ordinal ("last country to praise iraq"), a yes/no form about an
indefinite ("Did anyone visit Iran?"), or keywords with a KG name and a noun of what is asked. Anything
else abstains with its kind named.
"""

from __future__ import annotations

import calendar
import re

from agents.analysis.aliases import TITLE_ABBREVIATIONS
from agents.analysis.words import english

INTERROGATIVE = english(r"\b(?:who|whom|whose|what|which|when|where|why|how)\b")
_EXTREME = r"(?:first|last|earliest|latest|most\s+recent)"
# "the first to ...", "last country to ...": a definite description, which asks for its referent
DESCRIPTION = english(rf"^\W*(?:the\s+)?(?:very\s+)?{_EXTREME}\b")
_EXTREME_WORD = english(rf"\b{_EXTREME}\b")
# ... unless the ordinal is followed by an auxiliary or a past-tense verb: then it is a clause cut
# out of a question, its subject gone ("first did Kuwait sign an agreement with", "last visited
# China"), not a noun phrase naming what is asked ("last country to praise iraq").
_CUT_CLAUSE = english(
    rf"^\W*(?:the\s+)?(?:very\s+)?{_EXTREME}\s+"
    r"(?:did|does|do|was|were|is|are|would|could|will|can|has|had|have|\w+ed)\b",
)
# ... and a noun phrase whose relative clause holds the ordinal: "The award that was awarded to X
# for the first time", "the team which X last played for" name one thing as well.
_DESCRIBED = english(rf"^\W*the\s+\w+\s+(?:that|which|who|whom)\b.*\b{_EXTREME}\b")
_AUXILIARY = r"did|does|do|is|are|was|were|can|could|will|would|has|have|had|should|shall|may|might"
REQUEST_VERBS = ("name", "list", "tell", "give", "find", "show", "identify")  # a request for the answer: "List all ..."
# the one pattern of a request verb, with whom it is asked for ("tell me", "give us"): the grammar's
# request and indirect-question forms read it too
REQUEST_VERB = rf"(?:{'|'.join(REQUEST_VERBS)})(?:\s+(?:me|us))?"
# an indirect question after a verb of knowing: "I'd like to know the month ...", "I'm wondering who ..."
KNOWING = r"(?:i\s*(?:'d|would)\s+(?:like|love)\s+to\s+know|i\s+(?:want|need|wish)\s+to\s+know|i\s+wonder|i\s*'?m\s+wondering|let\s+(?:me|us)\s+know)"
# "Name ...", "Please list ...", "Could you tell me ...", "Can you name ..."
_REQUEST = english(
    rf"^\W*(?:(?:{_AUXILIARY})\s+you\s+)?(?:please\s+)?{REQUEST_VERB}\b|^\W*{KNOWING}\b"
    r"|^\W*(?:do|does)\s+(?:you|anyone|anybody)\s+know\s+(?:the|which|what|who|whom|when)\b",
)
_YES_NO_OPENING = english(rf"^\W*(?:{_AUXILIARY})\b")
_INDEFINITE = english(r"\b(?:anyone|anybody|someone|somebody|any|some)\b")
_ASK = "ask who, what, which or when"
# a noun that says what is asked, outside the names: a time unit or the type of party ("kuwait iraq visit
# first year"); "the same year", "that month" compare with another event and ask nothing
_ASKED_NOUN = english(r"(?<!same\s)(?<!that\s)(?<!very\s)\b(?:years?|yr|months?|dates?|days?|countr(?:y|ies)|nations?|persons?|people)\b")

# A framing clause ("For a briefing on Gulf diplomacy, ...", "Out of curiosity, ...") says why it is asked, not
# what: set aside when it holds no time, ordinal or cue and the rest does not point back into it with a pronoun.
_FRAMING = english(
    r"^\W*(?:(?:for|as)\s+(?:a|an|my|our|the|some|background|context|part)\b|(?:just\s+)?out\s+of\s+curiosity\b|quick\s+question\b)"
    r"(?![^,:;?]*\b(?:first|last|same|time|before|after|since|until|during|\d+)\b)[^,:;?]*[,:;]\s*",
)


# Asides: a sentence or clause that asks nothing ("I've been reading up on Iraq. Who first visited Iraq?") is set
# aside where the question stands alone (names a party, points at no time or event outside it) and the aside adds
# no time and speaks of the asker or names only what the question names; else it is context ("Think of 2007. ...").
_PIECE_END = re.compile(r"(?<=[.!?:;])\s+|(?<=\s[-–—])\s+|(?<=\s--)\s+")  # after a sentence, a colon or a dash
_ABBREVIATED = frozenset(TITLE_ABBREVIATIONS | {m.lower() for m in calendar.month_abbr if m} | {"sept", "st", "jr", "no", "vs"})
_ASKS_HERE = re.compile(r"^\W*(?:(?:in|on|at|during|for|with|to|from|by|of|about|against|after|before)\s+)?(?:who|whom|whose|what|which|when|how)\b|\?\W*$", re.I)
_ASKER = english(r"\b(?:i|i'm|i've|i'd|me|my|mine|we|our|you|your)\b")
_POINTER = re.compile(r"\b(?:there|then|(?:after|before|prior\s+to)\s+(?:that|this)|(?:(?:that|this|those)\s+(?:same\s+|very\s+)?|the\s+(?:same|very)\s+)(?:day|date|week|month|year|time)s?(?!\s+as\b))\b", re.I)
_PRONOUN = english(r"(?<!\bwas\s)(?<!\bis\s)\b(?:he|she|it|they|him|her|them|his|its|their)\b(?!\s+(?:was|is)\b)|\b(?:did|do|does)\s+so\b")
_TIME_WORD = english(rf"\d|\b(?:{'|'.join(m for m in calendar.month_name if m)})\b")  # "2007", "'09", "May"
_CAPITALISED = re.compile(r"(?<!^)(?<![.!?:;]\s)\b(?!I\b|I'|I’)[A-Z][\w'’.-]*")


def _pieces(text: str) -> list[str]:
    """Sentences and clauses before a colon, semicolon or dash (kept); a full stop after an abbreviation ends none."""
    pieces: list[str] = []
    for piece in _PIECE_END.split(text.strip()):
        last = pieces[-1].rsplit(None, 1)[-1][:-1] if pieces and pieces[-1].endswith(".") else None
        if last is not None and ("." in last and not last.replace(".", "").isdigit() or len(last) < 2 or last.lower() in _ABBREVIATED) and not last.endswith("."):  # "...": an end
            pieces[-1] += " " + piece
        else:
            pieces.append(piece)
    return pieces


def _is_aside(piece: str, question: str) -> bool:
    if len(piece.split()) < 5 or _ASKS_HERE.search(piece) or _REQUEST.search(piece) or (_TIME_WORD.search(piece) and not _TIME_WORD.search(question)):
        return False
    asked = [w[:4].lower() for w in re.findall(r"\w+", question)]
    return bool(_ASKER.search(piece)) or all(m.group(0)[:4].lower() in asked for m in _CAPITALISED.finditer(piece))


def without_asides(text: str) -> str:
    """`text` without the asides beside a question that stands alone (see `_PIECE_END` above)."""
    pieces = _pieces(text)
    asks = [p for p in pieces if _ASKS_HERE.search(p) or _REQUEST.search(p)]
    question = " ".join(asks)
    names = [m.start() for m in _CAPITALISED.finditer(question)]
    if not names or question == " ".join(pieces) or _POINTER.search(question) or any(m.start() < names[0] for m in _PRONOUN.finditer(question)):
        return text
    kept = " ".join(p for p in pieces if p in asks or not _is_aside(p, question))
    return kept[:1].upper() + kept[1:]


# A hedge says how sure the asker is, nothing of the facts: a clause of the asker's knowing ("if I remember right", "I'm not
# 100% sure", "if you know", "correct me if I'm wrong, but") naming nothing and asking nothing, or a frame before a statement
# ("I think X ..."); a vague moment ("at one point", "at some stage") adds no time. Set aside; the rest is kept whole.
_KNOWING_WORD = r"(?:think|believe|remember|recall|know|sure|certain|wrong|right|mistaken|gather|guess|suppose|reckon|record|straight)"
_HEDGE = re.compile(rf"^(?=.*\b(?:i|i'm|i've|i'd|you|not\s+sure)\b)(?=.*\b{_KNOWING_WORD}\b)(?!.*\b(?:who|whom|which|what|when|whose|how|did|does)\b)"
                    r"\W*\w*(?:(?!\b(?!I\b|I'|I’)(?-i:[A-Z])).)*$", re.IGNORECASE)
_FRAME = re.compile(rf"\b(?:i|we)\s+(?:seem\s+to\s+)?{_KNOWING_WORD}\s+(?:that\s+)?(?=(?:the\s+)?(?-i:[A-Z]))|\s*\bat\s+(?:one|some)\s+(?:point|stage|time)\b"
                    r"|^\W*(?:(?:ok(?:ay)?|so|um+|uh+|er|well|wait|hey|hmm+)\b[\s,]*)+(?=\w)", re.IGNORECASE)  # fillers opening the text: "ok so", "um", "wait,"
_CLAUSE_END = re.compile(r"(\s*(?:[,;:]|\.{2,}|[.?!]+|\s[-–—]+)\s*)")
# a knowing clause whose names the rest names again asks nothing else ("I'm not sure how X fits in, but before X, who ...")
_KNOWING = english(rf"(?=.*\b(?:i|i'm|i've|i'd|not\s+sure)\b)(?=.*\b{_KNOWING_WORD}\b)")
_NAME_WORD = re.compile(r"\b(?!I\b)(?-i:[A-Z])[\w-]*")


def without_hedges(text: str) -> str:
    """`text` without its hedges (see `_HEDGE`): a hedge opening a sentence with the mark after it, else with the mark before it."""
    parts = _CLAUSE_END.split(_FRAME.sub("", text))
    for i in range(0, len(parts), 2):
        names = _NAME_WORD.findall(parts[i])  # left, they would take a role
        if _HEDGE.match(parts[i].strip()) or names and _KNOWING.match(parts[i]) and all(re.search(rf"\b{n}\b", "".join(parts[i + 1 :])) for n in names):
            opens = i == 0 or bool(re.search(r"[.?!]\s*$", parts[i - 1]))
            parts[i] = ""
            if not opens or i + 1 < len(parts):
                parts[i + 1 if opens else i - 1] = ""
    kept = re.sub(r"^\W*but\s+", "", "".join(parts)).strip()
    return kept[:1].upper() + kept[1:] if re.search(r"\w", kept) and kept != text.strip() else text


_SHOUTED = re.compile(r"\b[A-Z]{3,}\b")


def unstressed(text: str, english: frozenset[str]) -> str:
    """Capitals for stress written small ("the VERY first", "What YEAR", "who ELSE"): a word of `english` (the analysis's
    own words that no KG name is) in capitals, in a text not all in capitals; an acronym ("NATO", "ASEAN") stays."""
    return text if text.isupper() else _SHOUTED.sub(lambda m: m.group(0).lower() if m.group(0).lower() in english else m.group(0), text)


def without_framing(text: str) -> str:
    """`text` without a framing clause before the question (see `_FRAMING`)."""
    m = _FRAMING.match(text)
    rest = text[m.end() :] if m else ""
    if not rest or _PRONOUN.search(rest) or _POINTER.search(rest) or not (INTERROGATIVE.search(rest) or _REQUEST.search(rest)):
        return text
    return rest[:1].upper() + rest[1:]


# a statement put to be judged ("True or false: X visited Y.", "Yes or no - did X ...?") asks yes or no: "X visited Y?"
_JUDGE_THIS = english(r"^\W*(?:true\s+or\s+false|yes\s+or\s+no|fact\s+or\s+fiction)\s*[:;,?.\-–—]+\s*")


def as_yes_no(text: str) -> str:
    m = _JUDGE_THIS.match(text)
    if m is None or not (rest := text[m.end():].rstrip().rstrip(".!").rstrip()):
        return text
    return rest[:1].upper() + rest[1:] + ("" if rest.endswith("?") else "?")


def not_a_question(text: str, masked: str | None = None) -> str | None:
    """Why `text` is no question ARI answers (a one-line reason), or None when it is one. `masked`:
    the text with its KG names as {E1}...; keywords beside a name that name what is asked (a
    search-box query: "first visit {E1} {E2} year") ask it."""
    if not (stripped := text.strip()):
        return "the text is empty: ask a question"
    words = re.findall(r"\w+", stripped)
    if INTERROGATIVE.search(stripped) or _REQUEST.search(stripped):
        return None
    if len(words) >= 3 and DESCRIPTION.search(stripped) and not _CUT_CLAUSE.search(stripped):
        return None  # a definite description: "last country to praise iraq before the ap"
    if _DESCRIBED.search(stripped):
        return None  # "the award that was awarded to X for the first time"
    opening = bool(_YES_NO_OPENING.search(stripped))
    if masked and "{E" in masked and not opening and _ASKED_NOUN.search(masked) and not stripped.endswith((".", "!")):
        return None
    if len(words) >= 3 and (opening or stripped.endswith("?")):
        if _INDEFINITE.search(stripped):
            return None  # "Did anyone visit Iran?": asks who
        if not opening and _EXTREME_WORD.search(stripped) and not _CUT_CLAUSE.search(stripped):
            return None  # "after south sudan first country kuwait was optimistic about?"
        return f"{stripped!r} is a yes/no question, which ARI does not answer: {_ASK}"
    kind = "a bare name or fragment" if len(words) <= 3 or not stripped.endswith((".", "!")) else "a statement"
    return f"{stripped!r} is {kind}, not a question: {_ASK}"
