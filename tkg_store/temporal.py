"""Time values at day, month or year granularity.

Every time in ARI is a closed span of days plus the granularity it was stated at: "2005" is the
whole year 2005-01-01..2005-12-31, "2005-11" the month, "2005-11-03" the day. Comparisons in the
actions and in the store are made on these spans, so granularity never has to be guessed later.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date, timedelta
from enum import Enum

from ari.base.errors import UsageError


class Granularity(str, Enum):
    """How precisely a time was stated. Ordered from finest to coarsest."""

    DAY = "day"
    MONTH = "month"
    YEAR = "year"

    @property
    def rank(self) -> int:
        return _RANK[self]

    def coarser(self, other: "Granularity") -> "Granularity":
        """The coarser of two granularities (a month compared with a year is compared as years)."""
        return self if self.rank >= other.rank else other


_RANK = {Granularity.DAY: 0, Granularity.MONTH: 1, Granularity.YEAR: 2}

_ISO = re.compile(r"^\s*(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?\s*$")


@dataclass(frozen=True, order=True, slots=True)
class TimeSpan:
    """A closed range of days [start, end] stated at `granularity`."""

    start: date
    end: date
    granularity: Granularity

    def __post_init__(self) -> None:
        if self.end < self.start:
            raise ValueError(f"time span ends before it starts: {self.start} > {self.end}")

    def contains(self, day: date) -> bool:
        return self.start <= day <= self.end

    def overlaps(self, start: date | None, end: date | None) -> bool:
        """Whether a (possibly open-ended) interval shares at least one day with this span."""
        return (start is None or start <= self.end) and (end is None or end >= self.start)

    def at(self, granularity: Granularity) -> "TimeSpan":
        """The span of the given granularity that contains this span's start."""
        return span_of(self.start, granularity)

    def __str__(self) -> str:
        """ISO at its granularity; a span of several granules as its ends ("2008-01 to 2008-06", "since 2010-05")."""
        first, last = format_time(self.start, self.granularity), format_time(self.end, self.granularity)
        if self.end == OPEN_END:
            return f"since {first}"
        if self.start == OPEN_START:
            return f"until {last}"
        return first if first == last else f"{first} to {last}"


# A KG range that some fact leaves open (a start and no end: still true) reaches these days.
OPEN_START = date.min
OPEN_END = date.max


def describe_range(span: TimeSpan) -> str:
    """'2005-01-01 to 2015-12-31', or with an open end 'from 2005-01-01 on (open-ended facts)'."""
    if span.start == OPEN_START and span.end == OPEN_END:
        return "all time (open-ended facts)"
    if span.end == OPEN_END:
        return f"from {span.start.isoformat()} on (open-ended facts)"
    if span.start == OPEN_START:
        return f"up to {span.end.isoformat()} (facts with no start)"
    return f"{span.start.isoformat()} to {span.end.isoformat()}"


def span_of(day: date, granularity: Granularity) -> TimeSpan:
    """The day, month or year that contains `day`."""
    if granularity is Granularity.DAY:
        return TimeSpan(day, day, granularity)
    if granularity is Granularity.MONTH:
        last = calendar.monthrange(day.year, day.month)[1]
        return TimeSpan(date(day.year, day.month, 1), date(day.year, day.month, last), granularity)
    return TimeSpan(date(day.year, 1, 1), date(day.year, 12, 31), granularity)


def parse_time(text: str) -> TimeSpan:
    """Parse an ISO-like time ("2005", "2005-11", "2005-11-03") into a span at its own granularity."""
    match = _ISO.match(text)
    if not match:
        raise UsageError(f"not a time (expected YYYY, YYYY-MM or YYYY-MM-DD): {text!r}")
    try:
        return stated_span(*(int(part) for part in match.groups() if part is not None))  # year[, month[, day]]
    except ValueError as exc:
        raise UsageError(f"not a valid date: {text!r} ({exc})") from None


def stated_span(year: int, month: int | None = None, day: int | None = None) -> TimeSpan:
    """A year, a month of it or a day of that month, as the span at the granularity it is stated at
    (ValueError for a month or day the calendar lacks)."""
    if month is None:
        return span_of(date(year, 1, 1), Granularity.YEAR)
    if day is None:
        return span_of(date(year, month, 1), Granularity.MONTH)
    return span_of(date(year, month, day), Granularity.DAY)


def format_time(day: date, granularity: Granularity) -> str:
    """Render a day at a granularity: 2005-11-03 -> "2005-11-03" | "2005-11" | "2005"."""
    if granularity is Granularity.DAY:
        return day.isoformat()
    if granularity is Granularity.MONTH:
        return f"{day.year:04d}-{day.month:02d}"
    return f"{day.year:04d}"


def when_text(start: date | None, end: date | None, granularity: Granularity) -> str:
    """When a fact holds, as evidence reads it: " on 2005-11-03" for one granule (a day, or the
    year 1995 of a year fact), " from 1990 to 1995" for an interval, " since 2015" / " until 1990"
    with one open end, "" with no time."""
    if start is None and end is None:
        return ""
    if start is None:
        return f" until {format_time(end, granularity)}"  # type: ignore[arg-type]
    if end is None:
        return f" since {format_time(start, granularity)}"
    first, last = format_time(start, granularity), format_time(end, granularity)
    return f" on {first}" if first == last else f" from {first} to {last}"


def truncate(text: str, granularity: Granularity) -> str:
    """Cut an ISO time string to a coarser granularity ("2005-11-03", MONTH -> "2005-11").

    This is the official MultiTQ rule for comparing a predicted time with a gold one. A time that is
    already coarser than `granularity` is returned as it is.
    """
    span = parse_time(text)
    if span.granularity.rank >= granularity.rank:
        return format_time(span.start, span.granularity)
    return format_time(span.start, granularity)


def full_year(two_digits: int) -> int:
    """"'08" -> 2008, "'95" -> 1995 (POSIX strptime's %y pivot)."""
    return (2000 if two_digits <= 68 else 1900) + two_digits


def year_span(year: int) -> TimeSpan:
    return span_of(date(year, 1, 1), Granularity.YEAR)


_UNIT = {"day": Granularity.DAY, "week": Granularity.DAY, "month": Granularity.MONTH, "year": Granularity.YEAR}


def shifted(span: TimeSpan, count: int, unit: str) -> TimeSpan | None:
    """The span `count` units (day, week, month, year; negative: earlier) from a one-granule span, at its granularity
    ("the year after 2008": 2009; "two months after March 2009": May 2009; "a week after 3 July 2009": 10 July 2009).
    None where the unit is finer than the span ("a week after 2009" names no one day) or the span is several granules."""
    if span != span_of(span.start, span.granularity) or _UNIT[unit].rank < span.granularity.rank:
        return None
    if unit in ("day", "week"):
        return span_of(span.start + timedelta(days=count * (7 if unit == "week" else 1)), span.granularity)
    months = span.start.year * 12 + span.start.month - 1 + count * (12 if unit == "year" else 1)
    year, month = divmod(months, 12)
    if not 1 <= year <= 9999:
        return None
    day = min(span.start.day, calendar.monthrange(year, month + 1)[1])
    return span_of(date(year, month + 1, day), span.granularity)
