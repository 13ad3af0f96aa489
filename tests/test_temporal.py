"""Time spans: parsing, formatting, truncation, containing spans, overlap; bad inputs."""

from __future__ import annotations

from datetime import date

import pytest

from ari.base.errors import UsageError
from tkg_store.temporal import Granularity, TimeSpan, format_time, parse_time, shifted, span_of, truncate, year_span

D, M, Y = Granularity.DAY, Granularity.MONTH, Granularity.YEAR


@pytest.mark.parametrize(
    ("text", "start", "end", "granularity"),
    [
        ("2005", date(2005, 1, 1), date(2005, 12, 31), Y),
        ("2005-11", date(2005, 11, 1), date(2005, 11, 30), M),
        ("2008-02", date(2008, 2, 1), date(2008, 2, 29), M),  # leap year
        ("2007-02", date(2007, 2, 1), date(2007, 2, 28), M),
        ("2005-11-03", date(2005, 11, 3), date(2005, 11, 3), D),
        ("2005-1-3", date(2005, 1, 3), date(2005, 1, 3), D),  # one-digit month and day are accepted
        (" 2015-12-31 ", date(2015, 12, 31), date(2015, 12, 31), D),
    ],
)
def test_parse_time(text: str, start: date, end: date, granularity: Granularity) -> None:
    assert parse_time(text) == TimeSpan(start, end, granularity)


@pytest.mark.parametrize("text", ["", "05", "2005/11/03", "2005-13", "2005-02-30", "2005-11-03T00:00", "November 2005", "20051"])
def test_parse_time_rejects(text: str) -> None:
    with pytest.raises(UsageError):
        parse_time(text)


@pytest.mark.parametrize(
    ("day", "granularity", "text"),
    [(date(2005, 3, 7), D, "2005-03-07"), (date(2005, 3, 7), M, "2005-03"), (date(2005, 3, 7), Y, "2005"), (date(987, 1, 2), Y, "0987")],
)
def test_format_time(day: date, granularity: Granularity, text: str) -> None:
    assert format_time(day, granularity) == text


@pytest.mark.parametrize(
    ("text", "granularity", "expected"),
    [
        ("2005-11-03", M, "2005-11"),
        ("2005-11-03", Y, "2005"),
        ("2005-11-03", D, "2005-11-03"),
        ("2005-11", Y, "2005"),
        ("2005-11", D, "2005-11"),  # already coarser: unchanged
        ("2005", M, "2005"),
    ],
)
def test_truncate(text: str, granularity: Granularity, expected: str) -> None:
    assert truncate(text, granularity) == expected


def test_truncate_rejects_non_time() -> None:
    with pytest.raises(UsageError):
        truncate("Iran", Y)


@pytest.mark.parametrize(
    ("day", "granularity", "start", "end"),
    [
        (date(2012, 2, 17), D, date(2012, 2, 17), date(2012, 2, 17)),
        (date(2012, 2, 17), M, date(2012, 2, 1), date(2012, 2, 29)),
        (date(2012, 12, 31), M, date(2012, 12, 1), date(2012, 12, 31)),
        (date(2012, 2, 17), Y, date(2012, 1, 1), date(2012, 12, 31)),
    ],
)
def test_span_of(day: date, granularity: Granularity, start: date, end: date) -> None:
    span = span_of(day, granularity)
    assert (span.start, span.end, span.granularity) == (start, end, granularity)
    assert span.contains(day)


@pytest.mark.parametrize(
    ("span", "start", "end", "expected"),
    [
        ("2005", date(2005, 12, 31), date(2005, 12, 31), True),
        ("2005", date(2006, 1, 1), date(2006, 1, 1), False),
        ("2005-06", date(2005, 5, 1), date(2005, 6, 1), True),  # touches the first day
        ("2005-06", date(2005, 5, 1), date(2005, 5, 31), False),
        ("2005", None, date(2004, 12, 31), False),  # open start, ends before
        ("2005", None, None, True),  # fully open interval overlaps everything
        ("2005", date(2005, 7, 1), None, True),
        ("2005", date(2006, 1, 1), None, False),
    ],
)
def test_overlaps(span: str, start: date | None, end: date | None, expected: bool) -> None:
    assert parse_time(span).overlaps(start, end) is expected


def test_span_rejects_reversed_bounds() -> None:
    with pytest.raises(ValueError):
        TimeSpan(date(2005, 2, 1), date(2005, 1, 1), D)


def test_granularity_order_and_helpers() -> None:
    assert D.rank < M.rank < Y.rank
    assert D.coarser(Y) is Y and Y.coarser(M) is Y and M.coarser(D) is M
    assert parse_time("2005-11-03").at(M) == parse_time("2005-11")
    assert str(parse_time("2005-11")) == "2005-11"
    assert year_span(2010) == parse_time("2010")


@pytest.mark.parametrize(
    ("stated", "count", "unit", "named"),
    [
        ("2008", 1, "year", "2009"),
        ("2010", -2, "year", "2008"),
        ("2009-03", 2, "month", "2009-05"),
        ("2009-01", -1, "month", "2008-12"),
        ("2009-07-03", 1, "week", "2009-07-10"),
        ("2008-03-01", -3, "day", "2008-02-27"),  # a leap year's February
        ("2009-01-31", 1, "month", "2009-02-28"),  # no 31 February: the month's last day
        ("2009-07-03", 1, "year", "2010-07-03"),
    ],
)
def test_an_offset_names_the_time_that_many_units_away_at_the_stated_granularity(stated, count, unit, named) -> None:
    assert str(shifted(parse_time(stated), count, unit)) == named


@pytest.mark.parametrize(("stated", "unit"), [("2009", "week"), ("2009", "month"), ("2009-07", "day")])
def test_an_offset_finer_than_the_stated_time_names_no_time(stated, unit) -> None:
    assert shifted(parse_time(stated), 1, unit) is None
