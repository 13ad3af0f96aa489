"""What the asker takes back or puts to be checked: the question meant, before anything else reads the text.

General English of speech and quick typing, not of any one writer:
- A self-repair says a phrase, breaks off, and says another in its place, with an editing term before or after it
  ("after -- sorry, before -- Kuwait", "Japan -- China, I mean"; Levelt 1983, Shriberg 1994). The repair retraces to
  the last word of its own kind before the break (the same word, an ordinal, a direction, a number, a name) and
  replaces as many words as it has ("16 Dec 2008? No, 15 December": the 15th of December 2008).
- A checked claim states or asks something the asker heard ("I read that X visited Y in 2009. Is that right?",
  "X visited Y, didn't it?") and asks the real question. The claim's value is what is in doubt: a question that
  stands alone is asked alone, its pointers ("that month", "he") read from the claim; one that only points back
  ("which year was it?", "if not, who did?") is the claim with the value it asks for open.
"""

from __future__ import annotations

import re

from agents.analysis.question_form import _YES_NO_OPENING, INTERROGATIVE, _pieces
from agents.analysis.times import MONTHS, read_times
from agents.analysis.types import TimeMention
from tkg_store.temporal import Granularity

_EDITING_TERM = (
    r"(?:sorry|no|nope|wait|oh|ah|ugh|uh+|um+|hmm+|er+|oops|correction|my\s+bad|hang\s+on|hold\s+on|(?:scratch|strike)\s+that|i\s+mean|i\s+meant"
    r"|or\s+rather|make\s+that|i\s+should\s+say|wrong\s+\w+|not\s+that)"
)
_AFTER_TERM = r"(?:sorry|my\s+bad|i\s+mean|i\s+meant|i\s+should\s+say)"  # the terms that may follow a repair ("China, I mean")
_BREAK = r"(?:\s+--?\s*|\s*--\s*|\s*[–—…]\s*|\.{2,}\s*|[,;?.!]\s+)"  # a dash, an ellipsis or a mark; a hyphen joins words
_TERMS = rf"(?:\b{_EDITING_TERM}\b[\s,.!:]*)+"
_PHRASE = r"(?:(?!--|\s-\s)[^–—,?!.;:…])+?"  # up to the next break
_CLOSE = r"(?=\s*(?:--|\s-\s|[–—…]|[,?!.;:]|$))(?:\s*(?:--?|[–—…])(?=\s))?"
# a repair with its editing term before it ("-- sorry, before --") or after it ("-- China, I mean?")
_REPAIR = re.compile(
    rf"{_BREAK}(?:{_TERMS}(?P<after>{_PHRASE})(?:[\s,]*{_TERMS})?|(?P<before>(?:\S+\s+){{0,3}}?\S+?)[\s,]*\b{_AFTER_TERM}\b){_CLOSE}", re.IGNORECASE
)
_TYPED = frozenset({"ordinal", "direction", "determiner", "year", "day", "month", "name", "wh"})  # kinds a repair must find again
_ORDINALS = frozenset("first last second third fourth fifth next final earliest latest".split())
_DIRECTIONS = frozenset("before after since until prior".split())
_DETERMINERS = frozenset("the a an its his her their".split())


def _kind(word: str) -> str:
    """The kind of word a repair retraces to: an ordinal, a direction, a determiner, a number, a month, a name, a past form."""
    low = word.lower().strip(".,;:")
    for kind, words in (("ordinal", _ORDINALS), ("direction", _DIRECTIONS), ("determiner", _DETERMINERS)):
        if low in words:
            return kind
    if low.isdigit():
        return "year" if len(low) == 4 else "day"
    if low in MONTHS:
        return "month"
    if low in ("who", "whom", "which", "what", "when", "where"):
        return "wh"
    if low.endswith("'s"):
        return "determiner"
    return "name" if word[:1].isupper() else "past" if low.endswith("ed") else low


def without_repairs(text: str) -> str:
    """`text` with each self-repair carried out (see the module docstring): a repair that says again the word it retraces
    to restarts the phrase there; one that retraces to a word of its kind replaces as many words as it has."""
    start = 0
    while m := _REPAIR.search(text, start):
        said, repair, rest = text[: m.start()].split(), (m.group("after") or m.group("before") or "").split(), text[m.end() :]
        if len(repair) > 5 and _kind(repair[0]) in ("name", "day", "month", "year"):  # no break closes it: the run of its
            run = next((k for k, w in enumerate(repair) if _kind(w) != _kind(repair[0])), len(repair))  # first word's kind
            repair, rest = repair[:run], " " + " ".join(repair[run:]) + rest  # ("Cambodia, no, Thailand last repatriated ...")
        kind = _kind(repair[0]) if repair else ""
        wh = kind == "wh"  # a question word takes back the question's own, wherever it stands
        window = range(0 if wh else max(0, len(said) - 6), len(said))
        same = [i for i in window if said[i].lower().strip(",") == repair[0].lower()] if repair else []
        alike = [i for i in window if repair and _kind(said[i]) == kind]
        unmatched = not same and not alike and (not repair or kind in _TYPED or len(said) <= len(repair))
        if not repair or len(repair) > 5 or unmatched:
            start = m.end()
            continue
        at, span = (same[-1], len(said)) if same else (alike[-1], len(repair)) if alike else (len(said) - len(repair), len(repair))
        if not same and alike and kind == "name":  # a name is taken back whole ("Shinzo Abe -- sorry, Yoshihiko Noda")
            while at - 1 in window and _kind(said[at - 1]) == "name":
                at -= 1
            span = alike[-1] + 1 - at
        span = 1 if wh and not same else span
        kept = " ".join(said[:at] + repair + said[at + span :])
        kept = kept[:1].upper() + kept[1:] if text[:1].isupper() else kept
        text, start = kept + ("" if rest.lstrip()[:1] in ("", "?", "!", ".", ",") else " ") + rest.lstrip(), len(kept)
    return text


# a check of a claim: "is that right?", "true?", "right or wrong?", "can you confirm", "as I've heard", a tag ("didn't it?")
_CHECK = re.compile(
    r"\b(?:is|was)\s+(?:that|this|it)\s+(?:really\s+)?(?:the\s+)?(?:right|true|correct|accurate|so)\b(?:\s+\w+)?|\b(?:true|right|correct|yes)\s*\?"
    r"|\bam\s+i\s+right\b|\bright\s+or\s+wrong\b|\bcan\s+you\s+(?:check|confirm|verify)\b|,?\s*as\s+i'?ve\s+(?:heard|read)\b"
    r"|,\s*(?:did|does|was|is|has|had)n'?t\s+(?:it|he|she|they)\s*\?",
    re.IGNORECASE,
)
# a report's frame ("A friend told me", "I read that", "A news quiz said"): its speaker names no party of the KG
_REPORTED = re.compile(
    r"^(?:[A-Z]\w*|I)?(?:\s+(?:[a-z][\w']*|I))*?\s*\b(?:told\s+me|said|says|claimed|claims|thinks|think|believe|believes|is\s+sure|heard|read|wrote|reported|saw|assumed)\s+(?:that\s+)?"
)
_OPENER = r"(?:(?:if\s+not|if\s+it\s+(?:was|is|did)n'?t|or|and|otherwise|then)\W+)*"
_ASKED_BACK = re.compile(rf"^\W*{_OPENER}(?P<ask>(?:(?:on|in|at|with|to|from|for|by|of|about)\s+)?)(?P<wh>who|whom|(?:which|what)(?:\s+(?!was\b|is\b|did\b)\w+(?:\s+and\s+\w+)?)?)\s+(?P<rest>.*)$", re.IGNORECASE)
_BACK_WORDS = frozenset("was is were did do does it that this they then really actually instead exactly so one the time".split())
_UNIT_ASKED = re.compile(r"\b(?:exact\s+)?(?:day|date|month(?:\s+and\s+year)?|year)\b|\bwhen\b", re.IGNORECASE)
_STATES_TIME = re.compile(r"\s*\b(?:back\s+)?(?:in|on|during|after|before|since|until)\s+$", re.IGNORECASE)  # "in '09", "on 03.07.2009"; also: a preposition already before a time
# the claim's subject: a cleft's focus ("was it X that ..."), else a name (capitalised words, "the" before them) opening it
_CLEFT = re.compile(r"^\W*(?:was|is)\s+it\s+(?:really\s+)?.+?\s+(?:that|who|which)\s+", re.IGNORECASE)
_CLAIM_SUBJECT = re.compile(r"^\W*(?:that\s+)?(?:(?P<aux>was|is|did|does)\s+)?(?:the\s+)?(?:(?:(?-i:[A-Z])[\w.'/-]*|\d{4})\s+)+(?:really\s+)?", re.IGNORECASE)
_OPENING_AUX = re.compile(r"^\W*(?:that\s+)?(?P<aux>was|is|did|does)\s+", re.IGNORECASE)
_TIME_POINTER = re.compile(r"\b(?:(?:in|on|during)\s+)?(?:that|the\s+same)\s+(?:day|date|month|year|week)\b(?!\s+as\b)", re.IGNORECASE)
_BACK_POINTER = re.compile(r"\b(?:he|she|it|they|him|her|them|his|its|their|that\s+(?:visit|intention|request|agreement)|did\s+so)\b", re.IGNORECASE)


def as_checked_claim(text: str) -> str:
    """The question a checked claim asks (see the module docstring), or `text` when it is none."""
    pieces = _pieces(text)
    asked = [i for i, p in enumerate(pieces) if INTERROGATIVE.search(p)]
    if len(pieces) < 2 or not asked or asked[-1] == 0:
        return text
    question = _CHECK.sub("", pieces[asked[-1]]).strip(" ,")
    claim = next((c for p in reversed(pieces[: asked[-1]]) if (c := _CHECK.sub("", p).strip(" ,?."))), "")
    back = _ASKED_BACK.match(question)
    if not claim or back is None or not (any(_CHECK.search(p) for p in pieces) or _YES_NO_OPENING.search(claim)):
        return text
    claim, wh, question = _REPORTED.sub("", claim), back.group("wh"), question[back.start("ask") :]
    claimed = {w.lower() for w in re.findall(r"[\w']+", claim)}
    points_back = all(w.lower() in _BACK_WORDS or w.lower() in claimed for w in re.findall(r"[\w']+", _TIME_POINTER.sub("", back.group("rest"))))
    unit = _UNIT_ASKED.search(_TIME_POINTER.sub("", question))  # what is asked, not the time pointed at
    # the claim's first time that a preposition states, as the time reader reads it, and where its preposition starts
    time = next(((at.start(), t) for t in read_times(claim).found if (at := _STATES_TIME.search(claim, 0, t.span[0]))), None)
    found = _CLAIM_SUBJECT.match(claim)
    if unit is not None and (points_back or _BACK_POINTER.search(question)) and time is not None:
        said = _time_opened(claim[: time[0]] + claim[time[1].span[1] :], unit.group(0))
    elif unit is not None and points_back and found is not None and re.search(r"\d{4}\s*$", claim[: found.end()].replace("really", "").strip()):
        said = f"which {unit.group(0)} {(found.group('aux') or 'was').lower()} {claim[found.end():]}"  # "Was 2010 the last year ...?"
    elif unit is None and points_back:
        cleft = _CLEFT.match(claim)
        if cleft is not None:
            said = f"{wh} {claim[cleft.end():]}"
        else:
            said = " ".join(filter(None, (wh, (found.group("aux") or "").lower(), claim[found.end() :]))) if found and wh.lower() != "what" else ""
    else:
        pointed = _TIME_POINTER.search(question) and not time  # "that month" with no time in the claim: the text says it
        return _with_claims_time(question, time) if not _BACK_POINTER.search(question) and not pointed else text
    return said[:1].upper() + said[1:].rstrip(" ?.") + "?" if said else text


def _time_opened(claim: str, unit: str) -> str:
    """The claim, its time taken out, asking for the time at the unit asked: "Did X visit Y" -> "which year did X visit Y"."""
    unit = "year" if unit.lower() == "when" else unit
    opening = _OPENING_AUX.match(claim)
    if opening is not None:
        return f"which {unit} {opening.group('aux').lower()} {claim[opening.end():]}"
    return f"{claim.removeprefix('that ')} in which {unit}"


def _with_claims_time(question: str, time: tuple[int, TimeMention] | None) -> str:
    """A question that stands alone, "that month" in it read as the claim's `time`: the claim's party is what is checked."""
    if time is not None:
        date, on = time[1].text, "on" if time[1].time.granularity == Granularity.DAY else "in"
        question = _TIME_POINTER.sub(lambda m: date if _STATES_TIME.search(question[: m.start()]) else f"{on} {date}", question)
    return question[:1].upper() + question[1:]
