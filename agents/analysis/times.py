"""Time expressions in question text, at the granularity they were written: the one time reader.

It reads the datasets' forms ("8 May 2013", "2005-11-03", a year) and the others people write
("18.09.2006", "the fourth of July 2007", "jan '08", "the 1850s"; all-number dates day first only where
the first number cannot be a month). Each becomes a `TimeSpan` (the judge holds it against the KG's range); a period
("Q2 2007", "since May 2010") the span of its days, both ends included. A time that cannot be read
("31 April 2010", "early 2008", "in May") is returned as unreadable, never dropped, so the judge abstains
naming it. The date forms are data (data/date_formats.json), each with the examples it is for; hand-written patterns:
`dateparser` measured about three orders of magnitude slower (benchmarks/results/time_parsing.md). Numbers in words
(`number`), offsets from a stated time and months whose year is stated once elsewhere are read here too."""

from __future__ import annotations

import calendar
import re
from collections.abc import Iterable
from contextlib import suppress
from datetime import MAXYEAR, date, timedelta
from functools import reduce
from typing import NamedTuple

from agents.analysis.types import TimeMention
from agents.analysis.words import data, patterns
from tkg_store.temporal import OPEN_END, OPEN_START, Granularity, TimeSpan, full_year, shifted, span_of, stated_span

# month names and their abbreviations (the C locale's: the calendar module's English), and "sept"
MONTHS = {name.lower(): n for n in range(1, 13) for name in (calendar.month_name[n], calendar.month_abbr[n])} | {"sept": 9}

# Numbers in words (general English): the cardinals, and their ordinals by the rule ("-th", "-y" -> "-ieth") but for
# the irregular ones; `number` reads them, their compounds and figures ("21st").
_DIGITS = "one two three four five six seven eight nine".split()
_IRREGULAR = {"one": "first", "two": "second", "three": "third", "five": "fifth", "eight": "eighth", "nine": "ninth", "twelve": "twelfth"}
NUMBER_WORDS = {w: n for n, w in enumerate([*_DIGITS, *"ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split()], 1)}
NUMBER_WORDS |= {w: 10 * n for n, w in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split(), 2)}
ORDINAL_WORDS = {_IRREGULAR.get(w) or (w[:-1] + "ieth" if w.endswith("y") else w + "th"): n for w, n in NUMBER_WORDS.items()}
_TENS, _ONES = "|".join(w for w, n in NUMBER_WORDS.items() if n >= 20), "|".join(_DIGITS)
_ORDINAL = rf"(?:{_TENS})[\s-]+(?:{'|'.join(w for w, n in ORDINAL_WORDS.items() if n < 10)})|{'|'.join(sorted(ORDINAL_WORDS, key=len, reverse=True))}"
# every count written in words: a cardinal or an ordinal, one of tens and units ("twenty-one", "twenty first"), "a" or "an"
_COUNTS = NUMBER_WORDS | ORDINAL_WORDS | {"a": 1, "an": 1} | {f"{tens}{sep}{unit}": NUMBER_WORDS[tens] + n for tens in _TENS.split("|")
                                                          for unit, n in (NUMBER_WORDS | ORDINAL_WORDS).items() if n < 10 for sep in "- "}


def number(word: str) -> int | None:
    """The count a word or figure says: "3", "3rd", "three", "third", "twenty-one", "twenty first", "a"."""
    word = " ".join(word.lower().split())
    return int(figure.group(1)) if (figure := re.fullmatch(r"(\d+)(?:st|nd|rd|th)?", word)) else _COUNTS.get(word)


# A year said in words: "two thousand (and) nine", "twenty fourteen", "nineteen ninety-nine", "twenty oh five"; a bare
# "two thousand" or "twenty one" is as likely a count: no year.
_TWO_DIGITS = rf"(?:{'|'.join(w for w, n in NUMBER_WORDS.items() if 10 <= n < 20)}|(?:{_TENS})(?:[\s-]+(?:{_ONES}))?)"
_SAID_YEAR = rf"(?P<said>two\s+thousand(?:\s+and)?\s+(?:{_TWO_DIGITS}|{_ONES})|(?:nineteen|twenty)[\s-]+(?:{_TWO_DIGITS}|(?:oh|o)[\s-]+(?:{_ONES})))(?![\w-])"
_MONTH_NAMES = "|".join(sorted(MONTHS, key=len, reverse=True))
_MONTH = rf"(?P<month>{_MONTH_NAMES})\.?"
_DAY = rf"(?:(?P<day>\d{{1,2}})(?:st|nd|rd|th)?|(?P<dayword>{_ORDINAL}))"  # "the fourth of July 2007", "May first 2008"
_YEAR = rf"(?:(?P<year>\d{{4}})|['’](?P<yy>\d{{2}})|{_SAID_YEAR})"  # "2008", "'08" or said in words

# the parts the date forms are written with (data/date_formats.json: each form with the examples it is for, tried in
# order, periods of months first; the vague periods; the ways a time is asked for): halves, quarters ("Q2 2007", "H1 2008") and the first or last N months are parts of a year
_PART = r"(?P<part>first|1st|second|2nd|latter|third|3rd|fourth|4th|last|final)"
_PICKS = r"first|last|earliest|latest|final|penultimate|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|\d+(?:st|nd|rd|th)"
_PARTS = {"<DAY>": _DAY, "<MONTH>": _MONTH, "<YEAR>": _YEAR, "<MONTH_NAMES>": _MONTH_NAMES, "<SAID_YEAR>": _SAID_YEAR, "<PART>": _PART, "<PICKS>": _PICKS}
# a count in figures or words, as an offset from a stated time says it; month names as a month with no year is written
_NUMBER = rf"\d{{1,2}}(?:st|nd|rd|th)?|a\s+few|several|some|{_TWO_DIGITS}|{_ORDINAL}|{_ONES}|an?"
_MONTH_WORD = "|".join(calendar.month_name[1:])
# the time reading's own patterns (data/time_patterns.json: each with why it is read so, and the questions it is for)
PATTERNS = patterns("time_patterns", {"MONTH_NAMES": _MONTH_NAMES, "NUMBER": _NUMBER, "MONTH_WORD": _MONTH_WORD, "PICKS": _PICKS})
_FORMATS = data("date_formats")
_HOLIDAYS = data("time_patterns")["holidays"]


def _compiled(forms: list[dict[str, object]]) -> list[re.Pattern[str]]:
    """The date forms' patterns with the reader's parts (<DAY>, <MONTH>, ...) written in."""
    return [re.compile(reduce(lambda pattern, part: pattern.replace(*part), _PARTS.items(), str(form["pattern"])), re.IGNORECASE) for form in forms]


_PERIODS, _DATES, (_VAGUE,) = _compiled(_FORMATS["periods"]), _compiled(_FORMATS["dates"]), _compiled(_FORMATS["vague"])
# the ways a time is asked for, finest last: a year, a month, a day (`asked_granularity`)
_ASKS = [(Granularity(form["unit"]), pattern) for form, pattern in zip(_FORMATS["asked"], _compiled(_FORMATS["asked"]))]

class TimeReading(NamedTuple):
    """What `read_times` found, each list in order of appearance."""

    found: list[TimeMention]  # readable time mentions
    unreadable: list[str]  # phrases that look like times but cannot be read
    beyond: list[str]  # years no calendar date holds ("99999", "0000"): outside any KG's range


def read_times(text: str) -> TimeReading:
    """The time mentions of `text`, the phrases that look like times but cannot be read, and the
    years past any date. A vague period's year is not read on its own: that would answer another question."""
    found: list[TimeMention] = []
    unreadable: list[tuple[tuple[int, int], str]] = []
    beyond: list[str] = []
    taken: list[tuple[int, int]] = []

    def free(span: tuple[int, int]) -> bool:
        return not any(span[0] < end and start < span[1] for start, end in taken)

    def read(patterns: list[re.Pattern[str]]) -> None:
        for match in (m for pattern in patterns for m in pattern.finditer(text)):
            if free(match.span()):
                taken.append(match.span())
                if (stated := _to_span(match)) is None:
                    unreadable.append((match.span(), match.group(0)))
                else:
                    found.append(TimeMention(match.group(0), match.span(), stated, _day_first(match)))

    read(_PERIODS)
    for match in _VAGUE.finditer(text):
        if free(match.span()) and not PATTERNS["edge_bound"].search(text[max(0, match.start() - 20) : match.end()]):  # a bound
            taken.append(match.span())
            unreadable.append((match.span(), match.group(0)))
    for match in PATTERNS["shared"].finditer(text):
        if not (match.group("month") or match.group("mday2") or match.group("end") and (match.group("first") or match.group("dmonth"))):
            continue
        day, span = match.group("day") or match.group("mday"), (match.start(), match.end("mday" if match.group("mday") else "dmonth" if match.group("dmonth") else "day" if match.group("day") else "first"))
        month, last = MONTHS[(match.group("first") or match.group("dmonth") or match.group("month")).lower()], MONTHS[(match.group("month") or (match.group("first") if match.group("mday2") else "dec")).lower()]
        with suppress(ValueError):  # no such day: the second date is read on its own, the number left unread
            time = stated_span(int(match.group("year")) - (month > last), month, number(day) if day else None)
            taken.append(span)
            found.append(TimeMention(text[slice(*span)], span, time))
            if match.group("mday2"):  # "March 1 and 20, 2011": the second day of the same month, which no pattern reads alone
                taken.append(second := (match.start("mday2"), match.end("year")))
                found.append(TimeMention(text[slice(*second)], second, stated_span(int(match.group("year")), month, int(match.group("mday2")))))
    read(_DATES)
    for match in PATTERNS["any_year"].finditer(text):
        if free(span := match.span("year")):
            taken.append(span)
            if not 1 <= (year := int(match.group("year"))) <= MAXYEAR:
                beyond.append(match.group("year"))
            else:
                found.append(TimeMention(match.group("year"), span, span_of(date(year, 1, 1), Granularity.YEAR)))
    found.sort(key=lambda mention: mention.span)
    said: list[TimeMention] = []
    for mention in found:  # a time said again at once ("in January 2015, January 2015") is one
        if said and said[-1].time == mention.time and re.fullmatch(r"[\s,.;:!?-]*", text[said[-1].span[1] : mention.span[0]]):
            mention = TimeMention(text[said[-1].span[0] : mention.span[1]], (said.pop().span[0], mention.span[1]), mention.time, mention.other_reading)
        said.append(mention)
    found = said
    for mention in list(found):  # a time after an offset `with_offsets` could not read: the whole phrase is unreadable
        if offset := _OFFSET_BEFORE.search(text, 0, mention.span[0]):
            found.remove(mention)
            unreadable.append(((offset.start(), mention.span[1]), text[offset.start() : mention.span[1]]))
    return TimeReading(_bounded(text, _one_order(found)), [phrase for _, phrase in sorted(unreadable)], beyond)


def _one_order(found: list[TimeMention]) -> list[TimeMention]:
    """One writer writes all-number dates in one order: beside "31/3/2010", "1/3/2010" is 1 March; beside "3/31/2010", 3 January."""
    pairs = [(int(m[1]), int(m[2])) for t in found if (m := re.match(r"(\d{1,2})[/.-](\d{1,2})[/.-]\d", t.text))]
    orders = {a > 12 for a, b in pairs if max(a, b) > 12 >= min(a, b)}  # True: day first
    return found if len(orders) != 1 else [TimeMention(t.text, t.span, t.other_reading if orders == {True} and t.other_reading else t.time) for t in found]


_OFFSET_BEFORE = re.compile(PATTERNS["offset"].pattern + "$", re.IGNORECASE)  # an offset `with_offsets` could not read, before a time


def with_offsets(text: str) -> str:
    """`text` with each offset from a stated time written as the time it names (see `PATTERNS["offset"]`); "the two years after
    2008" is the window of those years."""
    for offset in reversed(list(PATTERNS["offset"].finditer(text))):
        stated = next((t for t in read_times(text[offset.end() :]).found if t.span[0] == 0), None)
        count, the = (offset.group("count") or offset.group("bare") or "").lower(), bool(offset.group("the"))
        steps = (number(count) or 0) if count else 1  # "a few": no count
        sign, unit = -1 if offset.group("way").lower().startswith(("before", "earlier")) else 1, offset.group("unit").lower()
        if stated is None or not steps:
            continue
        # "the two years after", "the month after 14 March" (a unit coarser than the time): the granules from the time's next
        # to the last; else ("two years after", "the second year after") one time. "the three months after 1 April" starts on 2 April
        coarser = Granularity(unit if unit in ("month", "year") else "day").rank > stated.time.granularity.rank
        window = the and not count.endswith(("st", "nd", "rd", "th")) and (steps > 1 or coarser)
        near, far = shifted(stated.time, sign, stated.time.granularity.value) if window else None, shifted(stated.time, sign * steps, unit)
        if far is None or window and near is None:
            continue
        ends = sorted((end for end in (near, far) if end is not None), key=lambda end: end.start)
        low, high = ends[0], ends[-1]
        at, start = PATTERNS["at"].search(text, 0, offset.start()), offset.start()
        if low != high:  # a window says its own preposition
            written, start = f"between {_written(low.start, low.granularity)} and {_written(high.start, high.granularity)}", at.start() if at else start
        else:
            written = ("" if at else "on " if low.granularity == Granularity.DAY else "in ") + _written(low.start, low.granularity)
        text = text[:start] + written + text[offset.end() + stated.span[1] :]
    return text


def _written(day: date, granularity: Granularity) -> str:
    """A day, month or year as the date patterns read it back ("3 July 2009", "July 2009", "2009")."""
    month = f"{calendar.month_name[day.month]} {day.year}"
    return {Granularity.DAY: f"{day.day} {month}", Granularity.MONTH: month}.get(granularity, str(day.year))


def stated_window(text: str) -> str:
    """`text` with a window stated by exclusive bounds written as the inclusive window it is: "after D1
    and before D2" -> "between D1+1 and D2-1" (days); "after D, within that year" -> "between D+1 and
    the year's last day"; "before D, in the same month" -> "between the month's first day and D-1"; a phrase of a whole period said as "during"."""
    for whole in reversed(list(PATTERNS["whole"].finditer(text))):  # "throughout 2010", "all through March 2010"
        if any(t.span[0] == 0 for t in read_times(text[whole.end() :]).found):
            text = text[: whole.start()] + ("During " if text[whole.start()].isupper() else "during ") + text[whole.end() :]
    times = read_times(text).found
    for one, other in zip(times, times[1:]):
        first, second = PATTERNS["after"].search(text, 0, one.span[0]) or PATTERNS["before"].search(text, 0, one.span[0]), PATTERNS["and_before"].fullmatch(text, one.span[1], other.span[0])
        if first and second and (first.re is PATTERNS["after"]) == (second.group("cue").lower() == "before"):
            earlier, later = (one, other) if first.re is PATTERNS["after"] else (other, one)
            return _window(text, first.start(), other.span[1], earlier.time.end + timedelta(1), later.time.start - timedelta(1))
    if len(times) == 2:  # a period and a bound within it, either first ("in 2010 ... before 5 July 2010"): its days on that side
        wide, day = sorted(times, key=lambda t: -t.time.granularity.rank)
        side = next((m for c in ("after", "before") if (m := PATTERNS[c].search(text, 0, day.span[0]))), None)
        if side and (phrase := PATTERNS["in_year"].search(text, 0, wide.span[0])) and wide.time.granularity.rank > day.time.granularity.rank and wide.time.start <= day.time.start <= day.time.end <= wide.time.end:
            low, high = (day.time.end + timedelta(1), wide.time.end) if side.re is PATTERNS["after"] else (wide.time.start, day.time.start - timedelta(1))
            return _window(text, side.start(), day.span[1], low, high, (phrase.start(), wide.span[1]))
    for one in times:
        bound = PATTERNS["relative_bound"].search(text, one.span[1]) or PATTERNS["same"].search(text, one.span[1])
        opening = next(((cue, m.start()) for cue in ("after", "before", "starts") if (m := PATTERNS[cue].search(text, 0, one.span[0]))), None)
        if bound and opening and (unit := next(u for u in bound.groups() if u).lower()) != "week":  # a week: left unread
            period, (cue, at) = span_of(one.time.start, Granularity.YEAR if unit == "year" else Granularity.MONTH), opening
            low = one.time.end + timedelta(1) if cue == "after" else period.start if cue == "before" else one.time.start
            return _window(text[: bound.start()] + text[bound.end() :], at, one.span[1], low, one.time.start - timedelta(1) if cue == "before" else period.end)
    return text


def _dated(text: str) -> str:
    """`text` with a fixed holiday said by its day ("Christmas Day 2007": 25 December 2007), an event said with its day
    before a bound by the day alone (`dated_clause`), and a range's second day of no year in the first's year (`carried_year`)."""
    text = PATTERNS["holiday"].sub(lambda m: _HOLIDAYS[re.sub(r"[^a-z]", "", m["name"].lower()).removeprefix("st")], text)
    return PATTERNS["carried_year"].sub(_carried, PATTERNS["dated_clause"].sub(r"\g<cue> \g<day>", text))


def _carried(m: re.Match[str]) -> str:
    """`carried_year`'s second day with the first's year, only where it does not fall before the first."""
    first, second = (next(iter(read_times(t).found), None) for t in (m["first"], f"{m['date']} {m['year']}"))
    return m[0] + (f" {m['year']}" if first and second and second.time.start >= first.time.start else "")


def with_stated_year(text: str) -> str:
    """`text` with months of no year read in the one year the question states, whose phrase goes: "in 2008, who visited Iran
    after March?" -> "between April 2008 and December 2008"; "who threatened Iraq in 2008 between July and December?" ->
    "between July 2008 and December 2008". A stated part of a year holding the months goes too ("in the second half of
    2011 (July to December)"): the months are the narrower. With no year stated, or months outside it, left unread."""
    text = _dated(text)
    if (day := PATTERNS["bare_day"].search(text)) and len(found := read_times(text).found) == 1 and found[0].time.granularity == Granularity.YEAR:
        if (phrase := PATTERNS["in_year"].search(text, 0, found[0].span[0])) and (said := next(iter(read_times(f"{day['date']} {found[0].time.start.year}").found), None)):
            return text[: day.start()] + f"{day['cue']} {_written(said.time.start, Granularity.DAY)}" + text[day.end() :]
    found = read_times(text).found if PATTERNS["bare_months"].search(text) else []
    months = next((m for m in PATTERNS["bare_months"].finditer(text) if not any(m.start() < b and a < m.end() for a, b in (t.span for t in found))), None)
    if not months or len(found) != 1 or not (phrase := PATTERNS["in_year"].search(text, 0, found[0].span[0])):
        return text
    stated, year, bound = found[0].time, found[0].time.start.year, (months.group("bound") or "").lower()
    first, last = (MONTHS[(months.group(k) or months.group("month")).lower()] for k in ("first", "last"))
    first, last = (first + 1, 12) if bound == "after" else (1, first - 1) if bound == "before" else (first, last)  # bounds exclude
    if not 1 <= first <= last <= 12 or bound in ("after", "before") and stated.granularity != Granularity.YEAR:
        return text  # no month left in the year, or a bound within a part of it: left unread
    low, high = date(year, first, 1), date(year, last, calendar.monthrange(year, last)[1])
    if not stated.start <= low <= high <= stated.end:
        return text
    dated = f"in {_written(low, Granularity.MONTH)}" if low.month == high.month else f"between {_written(low, Granularity.MONTH)} and {_written(high, Granularity.MONTH)}"
    return _replaced(text, [(months.start(), months.end(), dated), (phrase.start(), found[0].span[1], "")])


def _replaced(text: str, cuts: list[tuple[int, int, str]]) -> str:
    """`text` with each (start, end, written) of `cuts` put in, from the last, and no comma or space left before its first word."""
    for a, b, written in sorted(cuts, reverse=True):
        text = text[:a] + written + text[b:]
    return re.sub(r"^[\s,]+", "", text)


def _window(text: str, start: int, end: int, low: date, high: date, said: tuple[int, int] | None = None) -> str:
    """`text` with `start:end` written as the window of days `low` to `high`, and `said` (the period it narrows) left out."""
    if high < low:
        return text  # no day between the bounds: left as written
    written = f"{'B' if text[start].isupper() else 'b'}etween {_written(low, Granularity.DAY)} and {_written(high, Granularity.DAY)}"
    return stated_window(_replaced(text, [(start, end, written), *([(*said, "")] if said else [])]))


def _bounded(text: str, found: list[TimeMention]) -> list[TimeMention]:
    """`found`, each time after an open bound ("since", "until", "by the end of") read as the span it
    opens, the bound's words with it; not an end of a range ("from 2005 until 2008", "since 2005 until 2008")."""
    for i, mention in enumerate(found):
        if edge := PATTERNS["edge_before"].search(text, 0, mention.span[0]):
            at, day = (edge.start("start"), mention.time.start) if edge.group("start") else (edge.start("end"), mention.time.end)
            found[i] = mention = TimeMention(text[at : mention.span[1]], (at, mention.span[1]), span_of(day, Granularity.DAY))
        (start, end), time, previous = mention.span, mention.time, found[i - 1].span[1] if i else 0
        opener = PATTERNS["opens"].search(text, previous, start)
        since = opener is not None and opener.group("since")
        if opener and not (i and PATTERNS["joins"].match(text, previous, opener.start())) and not (since and i + 1 < len(found) and PATTERNS["joins"].match(text, end, found[i + 1].span[0])):
            opened = TimeSpan(time.start, OPEN_END, time.granularity) if since else TimeSpan(OPEN_START, time.end, time.granularity)
            found[i] = TimeMention(text[opener.start() : end], (opener.start(), end), opened)
        elif (onwards := PATTERNS["onwards"].match(text, end)) and ((opening := PATTERNS["from"].search(text, previous, start)) or not onwards.group("bare")):
            found[i] = TimeMention(text[(begin := opening.start() if opening else start) : onwards.end()], (begin, onwards.end()), TimeSpan(time.start, OPEN_END, time.granularity))
    return found


def _period(parts: dict[str, str | None], year: int) -> TimeSpan | None:
    """The months of a half, a quarter or the first / last N months of a year (None: no such part)."""
    word = (parts["n"] or parts.get("part") or "").lower()
    n = 2 if word == "latter" else number(word) or 0
    if parts.get("side"):
        first, last = (1, n) if (parts["side"] or "").lower() == "first" else (13 - n, 12)
    else:
        size = 6 if (parts.get("unit") or parts["code"] or "").lower() in ("half", "h") else 3
        n = 12 // size if word in ("last", "final") else n
        first, last = (n - 1) * size + 1, n * size
    return TimeSpan(date(year, first, 1), date(year, last, calendar.monthrange(year, last)[1]), Granularity.MONTH) if 1 <= first <= last <= 12 else None


# A month or weekday named with no year ("in May", "on Monday"): a time, but not one a KG of dated facts can
# place; capitalised and not opening the text ("May I ask ...": the verb)
_CALENDAR_NAME = re.compile(rf"\b(?:{'|'.join(calendar.month_name[1:] + list(calendar.day_name))})\b")


# what may stand between a date and the weekday that names its day: "Wednesday, 3 March 2010", "3 March 2010 (a Wednesday)"
_WEEKDAY_GAP = re.compile(r"[\s,(]*(?:(?:a|an|on|which\s+was|that\s+was)\s+)?", re.IGNORECASE)


def unplaced_calendar_names(text: str, taken: list[tuple[int, int]], times: Iterable[TimeMention] = ()) -> list[str]:
    """The month and weekday names of `text` outside the spans `taken` (its read times and names), a window of two months
    named whole ("July to December with no year"); a weekday beside a read day (of `times`) that falls on it is that day's."""
    names, days = list(_CALENDAR_NAME.finditer(text)), [t for t in times if t.time.granularity is Granularity.DAY]
    beside = {m.start() for m in names for t in days if calendar.day_name[t.time.start.weekday()] == m.group(0)
              and _WEEKDAY_GAP.fullmatch(text[m.end() : t.span[0]] if m.end() <= t.span[0] else text[t.span[1] : m.start()])}
    found = [(m.start("first"), f"{m.group('first')} to {m.group('last')}") for m in PATTERNS["bare_months"].finditer(text) if m.group("first")]
    found += [(m.start(), m.group(0)) for m in names  # one opening the text may be a verb ("May I ask ...")
              if re.search(r"\w", text[: m.start()]) and m.start() not in beside and not any(a <= m.start() <= a + len(name) for a, name in found)]
    return [name + (" with no year" if name.split()[0].capitalize() in calendar.month_name else "") for at, name in sorted(found) if not any(a <= at < b for a, b in taken)]


def _to_span(match: re.Match[str], day_first: bool = False) -> TimeSpan | None:
    parts = match.groupdict()
    if parts.get("decade"):  # read as its ten years
        return TimeSpan(date(int(parts["decade"]), 1, 1), date(int(parts["decade"]) + 9, 12, 31), Granularity.YEAR)
    year = int(parts["year"]) if parts.get("year") else said_year(parts["said"]) if parts.get("said") else full_year(int(parts["yy"] or 0))
    if parts.get("unit") or parts.get("code") or parts.get("side"):
        return _period(parts, year)
    day = number(parts.get("day") or parts.get("dayword") or "")
    if parts.get("first"):
        first, second = int(parts["first"]), int(parts["second"])
        month, day = (second, first) if first > 12 or day_first else (first, second)  # 21/6/2005: day first; else month first
    elif parts.get("month"):
        month = MONTHS[parts["month"].lower()]
    elif parts.get("mnum"):
        month = int(parts["mnum"])
    else:
        return span_of(date(year, 1, 1), Granularity.YEAR)
    with suppress(ValueError):  # "31 February 2010" or "2010-13": not a date
        return span_of(date(year, month, day or 1), Granularity.DAY if day else Granularity.MONTH)
    return None


def _day_first(match: re.Match[str]) -> TimeSpan | None:
    """The day-first reading of an all-number date read month first whose day could be a month too
    ("3/7/2009": 7 March or 3 July): the KG's facts may choose it (`agents.analysis.ambiguity`)."""
    parts = match.groupdict()
    if not parts.get("first") or int(parts["first"]) > 12 or int(parts["second"]) > 12 or parts["first"] == parts["second"]:
        return None
    return _to_span(match, day_first=True)


def said_year(words: str) -> int:
    """"two thousand and nine" -> 2009, "twenty fourteen" -> 2014 (a match of `_SAID_YEAR`)."""
    numbers = [NUMBER_WORDS.get(w, 0) for w in re.split(r"[\s-]+", words.lower()) if w not in ("and", "thousand")]
    return (2000 if re.match(r"two\s+thousand", words, re.IGNORECASE) else 100 * numbers[0]) + sum(numbers[1:])


_UNIT = {"date": Granularity.DAY, "day": Granularity.DAY, "month": Granularity.MONTH, "year": Granularity.YEAR}


def asked_granularity(question: str) -> Granularity | None:
    """The granularity a time answer is asked at ("In which year" -> YEAR, "When" -> DAY); None: no time asked."""
    asked = _asked_unit(question)
    two = PATTERNS["two_units"].search(question)
    if asked is None or two is None:
        return asked
    return min(asked, _UNIT[two.group("a").lower()], _UNIT[two.group("b").lower()], key=list(_UNIT.values()).index)


def _asked_unit(question: str) -> Granularity | None:
    question = PATTERNS["relative_which"].sub(lambda m: f"{m.group('unit')} when", question)
    if PATTERNS["asks_party"].search(question):
        question = PATTERNS["relative_head"].sub(" ", question)
    if asked := next((unit for unit, pattern in _ASKS if pattern.search(question)), None):
        return asked
    if not PATTERNS["asks_party"].search(question) and (noun := PATTERNS["time_noun"].search(question)):
        if re.search(r"\b(?:that|this)\s+$", question[: noun.start()], re.I) and re.search(r"\{T\d+\}|\b\d{4}\b", question[: noun.start()]):
            return None  # "March 2015: how many ... that month?": a pointer to the time said asks none
        unit = (noun.group("unit") or "day").lower()
        return Granularity(unit) if unit in ("year", "month") else Granularity.DAY
    return None
