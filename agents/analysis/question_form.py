"""Is the text a question ARI can answer? A bare name, a fragment, a statement or a yes/no question is not.

General English: text asks something when it names what it asks for: an interrogative word, a request, a description
headed by an ordinal ("last country to praise iraq"), a yes/no form about an indefinite ("Did anyone visit Iran?"), or
keywords with a KG name and a noun of what is asked. Anything else abstains with its kind named.
"""

from __future__ import annotations

import calendar
import re

from agents.analysis.aliases import TITLE_ABBREVIATIONS, shortens
from agents.analysis.words import patterns

REQUEST_VERBS = ("name", "list", "tell", "give", "find", "show", "identify")  # a request for the answer: "List all ..."
# the one pattern of a request verb, with whom it is asked for ("tell me", "give us"): the grammar's
# request and indirect-question forms read it too
REQUEST_VERB = rf"(?:{'|'.join(REQUEST_VERBS)})(?:\s+(?:me|us))?"
_ASK = "ask who, what, which or when"
# the question form's patterns (data/form_patterns.json: each with why it is read so, and the texts it is for)
PATTERNS = patterns("form_patterns", {"REQUEST_VERB": REQUEST_VERB})
# read by other modules too: a question word, a definite description, a verb of knowing, an auxiliary opening the text
INTERROGATIVE = PATTERNS["interrogative"]
DESCRIPTION = PATTERNS["description"]
KNOWING = PATTERNS["knowing"].pattern
_YES_NO_OPENING = PATTERNS["yes_no_opening"]


_ABBREVIATED = frozenset(TITLE_ABBREVIATIONS | {m.lower() for m in calendar.month_abbr if m} | {"sept", "st", "jr", "no", "vs"})
_TIME_WORD = re.compile(rf"\d|\b(?:{'|'.join(m for m in calendar.month_name if m)})\b", re.IGNORECASE)  # "2007", "'09", "May"


def _pieces(text: str) -> list[str]:
    """Sentences and clauses before a colon, semicolon or dash (kept); a full stop after an abbreviation ends none."""
    pieces: list[str] = []
    for piece in PATTERNS["piece_end"].split(text.strip()):
        last = pieces[-1].rsplit(None, 1)[-1][:-1] if pieces and pieces[-1].endswith(".") else None
        if last is not None and ("." in last and not last.replace(".", "").isdigit() or len(last) < 2 or last.lower() in _ABBREVIATED) and not last.endswith("."):  # "...": an end
            pieces[-1] += " " + piece
        else:
            pieces.append(piece)
    return pieces


def _is_aside(piece: str, question: str, naming: frozenset[str] | None) -> bool:
    if PATTERNS["asks_here"].search(piece) or PATTERNS["request"].search(piece) or (_TIME_WORD.search(piece) and not _TIME_WORD.search(question)):
        return False
    if len(piece.split()) < 5:  # short ("Go on.", "Here's a hard one:"): only when it names nothing of the KG and places nothing
        return naming is not None and not _TIME_WORD.search(piece) and not PATTERNS["placing"].search(piece) and not naming & set(re.findall(r"\w+", piece.lower()))
    asked = [w[:4].lower() for w in re.findall(r"\w+", question)]
    return bool(PATTERNS["asker"].search(piece)) or all(m.group(0)[:4].lower() in asked for m in PATTERNS["capitalised"].finditer(piece))


# a name of two or more capitalised words, joined by "of", "the", "for", "and" ("Office of the High Commissioner for Refugees")
_NAME_RUN = re.compile(r"\b(?!The\b)[A-Z][\w'’-]*(?:\s+(?:(?:of|the|for|and)\s+)*[A-Z][\w'’-]*)+")


def _in_full(question: str, aside: str, naming: frozenset[str] | None) -> str:
    """The question with each name it writes short, a word or initials, written as the aside set aside gives it in full
    ("Lena Park spoke ... Before Park, who ...": "Before Lena Park, who ..."): the aside goes, who is meant stays. A run's
    first words that no KG name holds are no part of the name ("Yesterday Angela Merkel ...")."""
    runs = [run.split() for run in _NAME_RUN.findall(aside)]
    runs = [run[next((k for k, w in enumerate(run) if naming is None or w.lower() in naming), 0) :] for run in runs]
    caps = list(PATTERNS["capitalised"].finditer(question))
    for m in reversed([m for m in caps if not any(o.end() == m.start() - 1 or o.start() == m.end() + 1 for o in caps)]):
        word = m.group(0).rstrip(".")
        full = {" ".join(run) for run in runs if len(run) > 1 and shortens(word, " ".join(run))}
        if len(full) == 1:
            question = question[: m.start()] + full.pop() + question[m.start() + len(word) :]
    return question


def without_asides(text: str, naming: frozenset[str] | None = None) -> str:
    """`text` without its asides: a sentence or clause that asks nothing ("I've been reading up on Iraq. Who first visited
    Iraq?") is set aside where the question stands alone (names a party, points at no time or event outside it) and the
    aside adds no time and speaks of the asker or names only what the question names; else it is context ("Think of 2007.
    ..."); without its glosses and a lead-in passing it on (form_patterns "gloss", "passed_on"). `naming`: the KG's name words, none of which a short aside holds."""
    pieces = _pieces(text := PATTERNS["passed_on"].sub("Tell me ", PATTERNS["gloss"].sub("", text), count=1))
    asks = [p for p in pieces if PATTERNS["asks_here"].search(p) or PATTERNS["request"].search(p)]
    question = " ".join(asks)
    names = [m.start() for m in PATTERNS["capitalised"].finditer(question)]
    if not names or question == " ".join(pieces) or PATTERNS["pointer"].search(question) or any(m.start() < names[0] for m in PATTERNS["pronoun"].finditer(question)):
        return text
    kept = [p for p in pieces if p in asks or not _is_aside(p, question, naming)]
    aside = " ".join(p for p in pieces if p not in kept)
    text = _in_full(" ".join(kept), aside, naming) if aside else " ".join(kept)
    return text[:1].upper() + text[1:]


def without_hedges(text: str) -> str:
    """`text` without its hedges and courtesies: a hedge says how sure the asker is, nothing of the facts: a clause of the asker's knowing
    ("if I remember right", "I'm not 100% sure", "if you know", "correct me if I'm wrong, but") naming nothing and asking
    nothing, or a frame before a statement ("I think X ..."); a vague moment ("at one point", "at some stage") adds no
    time. A hedge opening a sentence goes with the mark after it, else with the mark before it; the rest is kept whole."""
    parts = PATTERNS["clause_end"].split(PATTERNS["frame"].sub("", text))
    for i in range(0, len(parts), 2):
        names = PATTERNS["name_word"].findall(parts[i])  # left, they would take a role
        if PATTERNS["hedge"].match(parts[i].strip()) or PATTERNS["courtesy"].match(parts[i]) or names and PATTERNS["knowing_clause"].match(parts[i]) and all(re.search(rf"\b{n}\b", "".join(parts[i + 1 :])) for n in names):
            opens = not "".join(parts[:i]).strip() or bool(re.search(r"[.?!]\s*$", parts[i - 1]))  # nothing kept before it: it opens
            parts[i] = ""
            if not opens or i + 1 < len(parts):
                parts[i + 1 if opens else i - 1] = ""
    kept = re.sub(r"^\W*but\s+", "", "".join(parts)).strip()
    return kept[:1].upper() + kept[1:] if re.search(r"\w", kept) and kept != text.strip() else text


def unstressed(text: str, english: frozenset[str]) -> str:
    """Capitals for stress written small ("the VERY first", "What YEAR", "who ELSE"): a word of `english` (the analysis's
    own words that no KG name is) in capitals, in a text not all in capitals; an acronym ("NATO", "ASEAN") stays."""
    return text if text.isupper() else PATTERNS["shouted"].sub(lambda m: m.group(0).lower() if m.group(0).lower() in english else m.group(0), text)


def without_framing(text: str) -> str:
    """`text` without a framing clause before the question (`PATTERNS["framing"]`: it says why the question is asked)."""
    m = PATTERNS["framing"].match(text)
    rest = text[m.end() :] if m else ""
    if not rest or PATTERNS["pronoun"].search(rest) or PATTERNS["pointer"].search(rest) or not any(PATTERNS[k].search(rest) for k in ("interrogative", "request", "yes_no_opening")):
        return text
    return rest[:1].upper() + rest[1:]


def as_yes_no(text: str) -> str:
    m = PATTERNS["judge_this"].match(text) or PATTERNS["judge_tag"].search(text)
    rest = text[m.end():] if m is not None and m.start() == 0 else text[: m.start()] if m is not None else ""
    if m is None or not (rest := rest.strip().rstrip("?.!").rstrip()) or not re.search(r"[A-Za-z]", rest):
        return text
    return rest[:1].upper() + rest[1:] + ("" if rest.endswith("?") else "?")


def not_a_question(text: str, masked: str | None = None) -> str | None:
    """Why `text` is no question ARI answers (a one-line reason), or None when it is one. `masked`:
    the text with its KG names as {E1}...; keywords beside a name that name what is asked (a
    search-box query: "first visit {E1} {E2} year") ask it."""
    if not (stripped := text.strip()):
        return "the text is empty: ask a question"
    words = re.findall(r"\w+", stripped)
    if PATTERNS["interrogative"].search(stripped) or PATTERNS["request"].search(stripped):
        return None
    if len(words) >= 3 and PATTERNS["description"].search(stripped) and not PATTERNS["cut_clause"].search(stripped):
        return None  # a definite description: "last country to praise iraq before the ap"
    if PATTERNS["described"].search(stripped):
        return None  # "the award that was awarded to X for the first time"
    opening = bool(PATTERNS["yes_no_opening"].search(stripped))
    if masked and "{E" in masked and not opening and PATTERNS["asked_noun"].search(masked) and not stripped.endswith((".", "!")):
        return None
    if len(words) >= 3 and (opening or stripped.endswith("?")):
        if PATTERNS["indefinite"].search(stripped):
            return None  # "Did anyone visit Iran?": asks who
        if not opening and PATTERNS["extreme_word"].search(stripped) and not PATTERNS["cut_clause"].search(stripped):
            return None  # "after south sudan first country kuwait was optimistic about?"
        return f"{stripped!r} is a yes/no question, which ARI does not answer: {_ASK}"
    kind = "a bare name or fragment" if len(words) <= 3 or not stripped.endswith((".", "!")) else "a statement"
    return f"{stripped!r} is {kind}, not a question: {_ASK}"
