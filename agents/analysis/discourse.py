"""What the asker takes back or puts to be checked: the question meant, before anything else reads the text.

General English of speech and quick typing, not of any one writer:
- A self-repair says a phrase, breaks off, and says another in its place, with an editing term before or after it
  ("after -- sorry, before -- Kuwait", "Japan -- China, I mean"; Levelt 1983, Shriberg 1994). The repair retraces to
  the last word of its own kind before the break (the same word, an ordinal, a direction, a number, a name) and
  replaces as many words as it has ("16 Dec 2008? No, 15 December": the 15th of December 2008).
- A statement, checked or not ("I read that X visited Y in 2009. Is that right?", "X visited Y at one point, and I'd
  like to know when"), then a question: one that only points back ("which year was it?", "if not, who did?", "who did
  it first after X?") asks the statement's one act with the value it asks open (a checked claim's time is in doubt);
  one that stands alone is asked alone, a checked claim's pointers ("that month", "he") read from the claim."""

from __future__ import annotations

import re

from agents.analysis.grammar_words import GRAMMAR_WORDS, SHARED
from agents.analysis.question_form import _YES_NO_OPENING, INTERROGATIVE, _pieces, without_hedges
from agents.analysis.times import MONTHS, read_times
from agents.analysis.types import TimeMention
from agents.analysis.words import patterns, word_tables
from tkg_store.temporal import Granularity

# repairs and checked claims (data/discourse_patterns.json: each with why it is read so, and the texts it is for)
PATTERNS = patterns("discourse_patterns", {"IRREGULAR_PAST": SHARED["IRREGULAR_PAST"]})
_TYPED = frozenset({"ordinal", "direction", "determiner", "year", "day", "month", "name", "wh"})  # kinds a repair must find again
# the kinds of word a repair retraces to, and the words a question pointing back holds (data/discourse_words.json)
_WORDS = word_tables("discourse_words")


def _kind(word: str) -> str:
    """The kind of word a repair retraces to: an ordinal, a direction, a determiner, a number, a month, a name, a past form."""
    low = word.lower().strip(".,;:?!")
    if low.isdigit():
        return "year" if len(low) == 4 else "day"
    found = next((kind for kind, words in (*_WORDS.items(), ("month", MONTHS)) if kind != "back" and (low in words or kind == "determiner" and low.endswith("'s"))), None)
    return found or ("name" if word[:1].isupper() else "past" if low.endswith("ed") else low)


def without_repairs(text: str) -> str:
    """`text` with each self-repair carried out (module docstring): one that says again the word it retraces to restarts the
    phrase there; else it replaces as many words of its kind as it has (of no kind: of none, "2005? No cheating." is none)."""
    start = 0
    while m := PATTERNS["repair"].search(text, start):
        said, repair, rest = text[: m.start()].split(), (m.group("after") or m.group("before") or "").split(), text[m.end() :]
        if len(repair) > 5 and _kind(repair[0]) in ("name", "day", "month", "year"):  # no break closes it: the run of its
            run = next((k for k, w in enumerate(repair) if _kind(w) != _kind(repair[0])), len(repair))  # first word's kind
            repair, rest = repair[:run], " " + " ".join(repair[run:]) + rest  # ("Cambodia, no, Thailand last repatriated ...")
        kind = _kind(repair[0]) if repair else ""
        wh = kind == "wh"  # a question word takes back the question's own, wherever it stands
        window = range(0 if wh else max(0, len(said) - 6), len(said))
        same = [i for i in window if said[i].lower().strip(",") == repair[0].lower()] if repair else []
        alike = [i for i in window if repair and _kind(said[i]) == kind]
        unmatched = not same and not alike and (not repair or kind in _TYPED or len(said) <= len(repair) or _kind(said[-len(repair)]) in _TYPED)
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


def _statement_asked(text: str) -> tuple[str, str, str, str, bool] | None:
    """(the statement said last, less a report's frame, a recurrence and hedges; the question's word; the question from its
    verb; what is asked after the statement, less a time pointer; whether it is put to be checked), or None: no statement."""
    joint = PATTERNS["wanting"].search(text)  # "X did Y, and I'd like to know when ...": what is wanted is asked
    head = _pieces(text[: joint.start()] if joint else text)
    pieces = [PATTERNS["check"].sub("", p) for p in head + (_pieces(text[joint.end() :]) if joint else [])]
    asked = [i for i, p in enumerate(pieces) if INTERROGATIVE.search(p)]
    stated = [i for i in range(min(asked[-1], len(head)) if asked else 0) if pieces[i].strip(" ,?.;:") and not INTERROGATIVE.match(pieces[i].lstrip())]
    if not stated or (back := PATTERNS["asked_back"].match(pieces[asked[-1]].strip(" ,"))) is None:
        return None
    checked = bool(PATTERNS["check"].search(text) or _YES_NO_OPENING.search(pieces[stated[-1]]))
    whole = without_hedges(PATTERNS["recurring"].sub("", PATTERNS["reported"].sub("", pieces[stated[-1]].strip(" ,?.;:-–—"))))
    asking = PATTERNS["time_pointer"].sub("", " ".join(pieces[stated[-1] + 1 :]))
    return whole, back.group("wh"), back.string[back.start("ask") :], asking, checked


def as_checked_claim(text: str) -> str:
    """The question asked of a statement said first (see the module docstring), or `text` when it asks none."""
    if (read := _statement_asked(text := _as_dated_statement(text))) is None:
        return text
    whole, wh, question, asking, checked = read
    claim, *others = PATTERNS["clause_joint"].split(whole)  # the act is in its first clause; the rest may say what is asked
    # it points back holding no word of its own but the claim's (an unchecked one's names), pointers (ordinals, function words)
    claimed = {w.lower() for w in re.findall(r"[\w']+", claim) if checked or w[:1].isupper()} | _WORDS["back"] | (frozenset() if checked else _WORDS["ordinal"] | _WORDS["pointing"] | GRAMMAR_WORDS["function_words"])
    points_back = all(w.lower() in claimed or INTERROGATIVE.fullmatch(w) or w.lower() in wh.lower().split() for w in re.findall(r"[\w']+", PATTERNS["unit_asked"].sub("", asking)))
    ordinal = next(("first" if o.group(0).lower() in ("first", "earliest") else "last" for o in PATTERNS["ordinal_asked"].finditer(" ".join([*others, asking])) if o.group(0).lower() not in claim.lower()), "")
    # a checked claim's first time a preposition states (in doubt; a statement's holds), and where its preposition starts
    time = next(((at.start(), t) for t in read_times(claim).found if (at := PATTERNS["states_time"].search(claim, 0, t.span[0])) and checked), None)
    units = [u.group(0) for u in PATTERNS["unit_asked"].finditer(asking)][::-1] if PATTERNS["unit_asked"].search(wh) or wh.lower() in ("what", "which") else []
    unit = max(units, key=lambda u: u.lower() != "when", default=None)  # the last named ("when": a checked claim's year, else the day)
    subject, act = PATTERNS["claim_subject"].match(claim), PATTERNS["act_pointer"].search(question)
    # unchecked, the statement must state an act, and one only: "X visited Y, and Z visited W. Which year was it?" asks none
    if not (checked or points_back and PATTERNS["stated_verb"].search(claim) and not INTERROGATIVE.match(claim)) or any(PATTERNS["stated_verb"].search(o) and not PATTERNS["indefinite"].search(o) for o in others):
        return text
    if unit is not None and points_back and subject is not None and re.search(r"\d{4}\s*$", claim[: subject.end()].replace("really", "").strip()):
        said = f"which {unit} {(subject.group('aux') or 'was').lower()} {claim[subject.end():]}"  # "Was 2010 the last year ...?"
    elif unit is not None and (points_back or PATTERNS["back_pointer"].search(question) and time is not None):
        said = _time_opened(claim[: time[0]] + claim[time[1].span[1] :] if time else claim, ("year" if time else "day") if unit.lower() == "when" else unit, ordinal)
    elif unit is None and points_back and (cleft := PATTERNS["cleft"].match(claim)):
        said = f"{wh} {claim[cleft.end():]}"
    elif unit is None and points_back and (some := PATTERNS["indefinite"].search(whole)) is not None and act is None:  # the one the statement leaves unnamed is asked
        said = PATTERNS["clause_joint"].sub(". ", whole[: some.start()]) + wh.lower() + some.group("rest")  # to its clause's end
    elif unit is None and points_back and subject is not None and wh.lower() != "what" and (checked or PATTERNS["stated_verb"].match(claim[subject.end() :])):
        done, rest = claim[subject.end() :], question[act.end() :].strip(" ?") if act else ""  # the statement's doer is asked
        said = " ".join(filter(None, (wh, (subject.group("aux") or "").lower(), done, "" if ordinal in rest.lower() else ordinal, rest)))
    else:
        pointed = PATTERNS["time_pointer"].search(question) and not time  # "that month" with no time in the claim: the text says it
        return _with_claims_time(question, time) if checked and not PATTERNS["back_pointer"].search(question) and not pointed else text
    return said[:1].upper() + said[1:].rstrip(" ?.") + "?" if said else text


def _as_dated_statement(text: str) -> str:
    """A statement dating an event, then a question pointing back at it ("X was sworn in on 8 June 2014. Which countries
    did he visit after that?"): the question, the statement's day for its pointer and its subject for its pronoun."""
    m = PATTERNS["dated_statement"].match(text)
    days = read_times(m["statement"]).found if m else []
    if m is None or len(days) != 1 or days[0].time.granularity != Granularity.DAY or not PATTERNS["points_back"].search(m["question"]):
        return text
    question = PATTERNS["points_back"].sub(lambda back: f"{back['cue']} {days[0].text}", m["question"])
    return PATTERNS["subject_pronoun"].sub(m["subject"], question, count=1)


def _time_opened(claim: str, unit: str, ordinal: str) -> str:
    """The claim, its time taken out, asking its (`ordinal`) time at the unit asked: "X visited Y" -> "X visited Y first in which year"."""
    if (opening := PATTERNS["opening_aux"].match(claim)) is not None:
        return " ".join(filter(None, (f"which {unit} {opening.group('aux').lower()} {claim[opening.end():]}", ordinal)))
    return " ".join(filter(None, (claim.removeprefix("that "), ordinal, f"in which {unit}")))


def _with_claims_time(question: str, time: tuple[int, TimeMention] | None) -> str:
    """A question that stands alone, "that month" in it read as the claim's `time`: the claim's party is what is checked."""
    if time is not None:
        date, on = time[1].text, "on" if time[1].time.granularity == Granularity.DAY else "in"
        question = PATTERNS["time_pointer"].sub(lambda m: date if PATTERNS["states_time"].search(question[: m.start()]) else f"{on} {date}", question)
    return question[:1].upper() + question[1:]
