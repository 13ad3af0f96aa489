"""Time expressions: every date form the datasets use, KG range checks, asked granularity."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

import agents.analysis
from agents.analysis.times import asked_granularity, number, read_times, stated_window, unplaced_calendar_names, with_stated_year
from tkg_store.temporal import Granularity, TimeSpan, parse_time

_FORMS = json.loads((Path(agents.analysis.__file__).parent / "data" / "date_formats.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize(("written", "named"), [(w, named) for form in _FORMS["periods"] + _FORMS["dates"] for w, named in form["examples"].items()])
def test_each_date_forms_examples_are_read_as_the_time_they_name(written: str, named: str) -> None:
    (mention,) = read_times(written).found
    assert (mention.text, str(mention.time)) == (written, named)


@pytest.mark.parametrize("vague", _FORMS["vague"][0]["examples"])
def test_each_vague_periods_example_is_unreadable_not_its_year(vague: str) -> None:
    assert read_times(f"Who visited Iran in {vague}?").unreadable == [vague]


@pytest.mark.parametrize(("question", "unit"), [(q, form["unit"]) for form in _FORMS["asked"] for q in form["examples"]])
def test_each_asking_forms_examples_ask_for_its_unit(question: str, unit: str) -> None:
    assert asked_granularity(question) == Granularity(unit)


@pytest.mark.parametrize(
    ("text", "surface", "expected"),
    [
        ("Who visited Iraq on 8 May 2013?", "8 May 2013", "2013-05-08"),
        ("Who visited Iraq in May 2010?", "May 2010", "2010-05"),
        ("Who praised China on Jun 25th, 2006?", "Jun 25th, 2006", "2006-06-25"),
        ("Who praised China in 2005-11?", "2005-11", "2005-11"),
        ("Who praised China in 2008?", "2008", "2008"),
        ("Who praised China in November, 2005?", "November, 2005", "2005-11"),
        ("Who praised China on 14 January 2007?", "14 January 2007", "2007-01-14"),
        ("Who praised China in Dec, 2008?", "Dec, 2008", "2008-12"),
        ("Who praised China on 2005-11-03?", "2005-11-03", "2005-11-03"),
        ("Who praised China on 18.09.2006?", "18.09.2006", "2006-09-18"),
        ("Before the 12th of February 2011, who left?", "12th of February 2011", "2011-02-12"),
        ("In Oct, the year of 2008, who asked for China?", "Oct, the year of 2008", "2008-10"),
        ("Who threatened China after May in 2014?", "May in 2014", "2014-05"),
        ("Who met Iraq on June 5, 2006?", "June 5, 2006", "2006-06-05"),
        # as people write them (issue 13): slashes, "the" before the day, ordinal words
        ("who visited iraq on 2008/05/03", "2008/05/03", "2008-05-03"),
        ("who visited iraq in 2008/05", "2008/05", "2008-05"),
        ("who met iraq on july the 5th 2007", "july the 5th 2007", "2007-07-05"),
        ("who met iraq on the fourth of july 2007", "fourth of july 2007", "2007-07-04"),
        ("who met iraq on may first 2008", "may first 2008", "2008-05-01"),
        ("who met iraq on the twenty-first of june 2009", "twenty-first of june 2009", "2009-06-21"),
        # all-number dates: day first where the first number cannot be a month, else month first
        ("after 15/11/2015 who made pessimistic comments on china", "15/11/2015", "2015-11-15"),
        ("who was optimistic about china before 4/21/2005", "4/21/2005", "2005-04-21"),
        ("who met iraq on 4/8/2006", "4/8/2006", "2006-04-08"),
        ("who met iraq on 6-21-05", "6-21-05", "2005-06-21"),
        ("who signed a deal w/ swaziland before 7/2009", "7/2009", "2009-07"),
        # a year cut to two digits after an apostrophe
        ("who wanted to negotiate w/ china in jul '06", "jul '06", "2006-07"),
        ("who held negotiations w/ ethiopia in '06", "'06", "2006"),
        ("who met iraq on the 3rd of may '08", "3rd of may '08", "2008-05-03"),
        # a year said in number words, with the day said as an ordinal
        ("which country denounced thailand on november twelfth two thousand nine", "november twelfth two thousand nine", "2009-11-12"),
        ("so in twenty thirteen who was the last one cambodia appealed to", "twenty thirteen", "2013"),
        ("who met iraq after march the third two thousand and five", "march the third two thousand and five", "2005-03-03"),
        ("who met iraq in nineteen ninety-nine", "nineteen ninety-nine", "1999"),
        ("who met iraq in august twenty oh seven", "august twenty oh seven", "2007-08"),
    ],
)
def test_each_date_form(text: str, surface: str, expected: str) -> None:
    (mention,) = read_times(text).found
    assert mention.text == surface
    assert text[mention.span[0] : mention.span[1]] == surface
    assert mention.time == parse_time(expected)


def test_two_times_in_order_and_between() -> None:
    mentions = read_times("Who visited China between March 2006 and 2008-02-01?").found
    assert [str(m.time) for m in mentions] == ["2006-03", "2008-02-01"]
    assert [m.time.granularity for m in mentions] == [Granularity.MONTH, Granularity.DAY]


def test_time_outside_kg_range_is_flagged() -> None:
    kg = TimeSpan(date(2005, 1, 1), date(2015, 12, 31), Granularity.DAY)
    inside, outside = read_times("Who went there in 2010, and who in March 1990?").found
    assert inside.time.overlaps(kg.start, kg.end)  # the judge's test: a time outside the KG is said so
    assert not outside.time.overlaps(kg.start, kg.end) and str(outside.time) == "1990-03"


def test_counts_in_number_words_are_no_years() -> None:
    assert read_times("Which twenty one countries hosted two thousand visitors twenty times?").found == []


def test_invalid_dates_and_plain_numbers_are_not_times() -> None:
    # no such day: not loosened to the month, but returned as unreadable (the judge abstains naming it)
    assert read_times("Who met on 31 February 2010?") == ([], ["31 February 2010"], [])
    assert read_times("Who sent 300 troops to Iraq?").found == []


@pytest.mark.parametrize(
    "text, phrase",
    [
        ("Who criticised Iran in 2007-02-29?", "2007-02-29"),
        ("Who criticised Iran on 2012-13-45?", "2012-13-45"),
        ("Who criticised Iran on 31 April 2010?", "31 April 2010"),
        ("Who criticised Iran on 30.02.2006?", "30.02.2006"),
        ("Who criticised Iran in early 2008?", "early 2008"),
        ("Who criticised Iran in mid-2008?", "mid-2008"),
        ("Who criticised Iran at the end of 2008?", "the end of 2008"),
        ("Who criticised Iran in the spring of 2008?", "the spring of 2008"),
        ("Who criticised Iran in autumn 2008?", "autumn 2008"),
        ("who criticised iran in late '08", "late '08"),
        ("who criticised iran on 31/4/2010", "31/4/2010"),
    ],
)
def test_unreadable_times_are_named_never_dropped(text: str, phrase: str) -> None:
    found, unreadable, _ = read_times(text)
    assert unreadable == [phrase]
    assert found == []  # the year inside "early 2008" is not read on its own


@pytest.mark.parametrize("text, year", [("Who visited Iran in 3000?", 3000), ("Who visited Iran in 1066?", 1066),
                                        ("Who visited Iran since the year 9999?", 9999)])
def test_a_year_the_date_patterns_leave_is_read_out_of_range(text: str, year: int) -> None:
    kg = TimeSpan(date(2005, 1, 1), date(2015, 12, 31), Granularity.DAY)
    (mention,) = read_times(text).found
    assert mention.time == TimeSpan(date(year, 1, 1), date(year, 12, 31), Granularity.YEAR) and not mention.time.overlaps(kg.start, kg.end)


def test_a_year_past_every_date_is_returned_apart_never_dropped() -> None:
    assert read_times("Who visited Iran in 99999?") == ([], [], ["99999"])
    assert read_times("Who visited Iran in 0000?").beyond == ["0000"]
    assert read_times("Who sent 3000 troops to Iraq in 2008?").found[0].text == "2008"  # a count is no year


def test_a_decade_is_read_as_its_ten_years() -> None:
    kg = TimeSpan(date(2005, 1, 1), date(2015, 12, 31), Granularity.DAY)
    (old,) = read_times("Who criticised Iran in the 1850s?").found
    assert old.text == "the 1850s" and not old.time.overlaps(kg.start, kg.end)
    assert (old.time.start, old.time.end) == (date(1850, 1, 1), date(1859, 12, 31))
    (recent,) = read_times("Who criticised Iran in the 2000s?").found
    assert recent.time.overlaps(kg.start, kg.end)


def test_may_as_a_verb_is_not_a_month() -> None:
    assert read_times("Who may visit China?").found == []


@pytest.mark.parametrize(
    ("question", "level"),
    [
        ("In which year did Iraq praise China?", Granularity.YEAR),
        ("In what year did Iraq praise China?", Granularity.YEAR),
        ("Which month did Iraq praise China?", Granularity.MONTH),
        ("Could you tell me the exact month when Iraq praised China?", Granularity.MONTH),
        ("When did Iraq praise China?", Granularity.DAY),
        ("On what date did Iraq praise China?", Granularity.DAY),
        ("At what time did Iraq praise China?", Granularity.DAY),
        ("when exactly did iraq praise china", Granularity.DAY),
        ("what exact date did iraq praise china", Granularity.DAY),
        ("what was the date of iraq's last visit to china", Granularity.DAY),
        ("what was the last time iraq praised china", Granularity.DAY),
        ("last time iraq praised china?", Granularity.DAY),
        ("Who praised China the last time?", None),
        ("Who praised China in the same month as Iraq?", None),
        ("Who praised China?", None),
        # a relative clause's head asks nothing when a party is asked for
        ("In the month when Iraq praised China, who else praised it?", None),
        ("Tell me the month when Iraq praised China.", Granularity.MONTH),
        # no question word before it: a closing "when" or a time noun asks the time
        ("Iraq first praised China when?", Granularity.DAY),
        ("The year Iraq last praised China was what?", Granularity.YEAR),
        ("Give the date Iraq praised China.", Granularity.DAY),
        ("China was praised in the same month by Iraq?", None),
        # a relative "which" before an article asks for nobody: the time noun before it is asked
        ("What was the most recent date on which Iraq praised China?", Granularity.DAY),
        ("What was the first month in which the Iraqi government praised China?", Granularity.MONTH),
        ("what yr did iraq last praise china", Granularity.YEAR),
        # ... also with a time between them, and an ordinal before the time noun of a request
        ("What was the fourth day in 2013 on which Iraq praised China?", Granularity.DAY),
        ("Name the fourth day in 2013 on which Iraq praised China.", Granularity.DAY),
        ("Name the second country to praise China in 2013.", None),
        ("What was the 3rd time Iraq praised China in 2013?", Granularity.DAY),
    ],
)
def test_asked_granularity(question: str, level: Granularity | None) -> None:
    assert asked_granularity(question) == level


@pytest.mark.parametrize(
    ("text", "surface", "start", "end"),
    [
        # parts of a year, read as the span of their months, both ends included
        ("Who visited Iran in the first half of 2008?", "the first half of 2008", date(2008, 1, 1), date(2008, 6, 30)),
        ("Who visited Iran in the latter half of 2008?", "the latter half of 2008", date(2008, 7, 1), date(2008, 12, 31)),
        ("Who visited Iran in the second quarter of 2007?", "the second quarter of 2007", date(2007, 4, 1), date(2007, 6, 30)),
        ("who visited iran in Q2 2007", "Q2 2007", date(2007, 4, 1), date(2007, 6, 30)),
        ("who visited iran in H2 2009", "H2 2009", date(2009, 7, 1), date(2009, 12, 31)),
        ("who visited iran in 2009 Q4", "2009 Q4", date(2009, 10, 1), date(2009, 12, 31)),
        ("who visited iran in the last quarter of '08", "the last quarter of '08", date(2008, 10, 1), date(2008, 12, 31)),
        ("Who visited Iran in the first three months of 2008?", "the first three months of 2008", date(2008, 1, 1), date(2008, 3, 31)),
        ("Who visited Iran in the last 2 months of 2008?", "the last 2 months of 2008", date(2008, 11, 1), date(2008, 12, 31)),
        # open bounds: the bound's words are the mention's, so no "after" / "before" cue is left in the question
        ("Who has Iran praised since May 2010?", "since May 2010", date(2010, 5, 1), date.max),
        ("Who did Iran praise until 2008?", "until 2008", date.min, date(2008, 12, 31)),
        ("Who had Iran praised by the end of 2008?", "by the end of 2008", date.min, date(2008, 12, 31)),
        ("who did iran praise up until march 2009", "up until march 2009", date.min, date(2009, 3, 31)),
        # a month with a two-digit year and no day: zero-led, so no day of the month
        ("how many days in march 09 did police arrest citizens", "march 09", date(2009, 3, 1), date(2009, 3, 31)),
    ],
)
def test_periods_and_open_bounds_are_read_as_their_days(text: str, surface: str, start: date, end: date) -> None:
    (mention,) = read_times(text).found
    assert (mention.text, mention.time.start, mention.time.end) == (surface, start, end)
    assert text[slice(*mention.span)] == surface


def test_a_range_keeps_its_two_ends_and_a_shared_month_or_year() -> None:
    # "until" / "since" joined to another time end a range: not open bounds
    assert [str(t.time) for t in read_times("Who accused Iran from 2005 until 2006?").found] == ["2005", "2006"]
    assert [str(t.time) for t in read_times("Who accused Iran since 2005 until 2008?").found] == ["2005", "2008"]
    assert [str(t.time) for t in read_times("Who met Iran from December 2007 to February 2008?").found] == ["2007-12", "2008-02"]
    # the day, month and year written once, after the second day
    assert [str(t.time) for t in read_times("Between 10 and 20 April 2011, who met Iran?").found] == ["2011-04-10", "2011-04-20"]
    assert [str(t.time) for t in read_times("Who met Iran between 10 April and 30 June 2012?").found] == ["2012-04-10", "2012-06-30"]
    assert [str(t.time) for t in read_times("Who met Iran from April 10 to June 30, 2012?").found] == ["2012-04-10", "2012-06-30"]
    assert [str(t.time) for t in read_times("Who met Iran between December and March 2009?").found] == ["2008-12", "2009-03"]  # the year before
    assert [str(t.time) for t in read_times("Between 4 September and the end of 2011, who met Iran?").found] == ["2011-09-04", "2011-12-31"]
    # ordinal days sharing a month, the first one's suffix with it; a range of years written with a hyphen
    found = read_times("Who met Iran between the 1st and 10th of March 2008?").found
    assert [(str(t.time), t.text) for t in found] == [("2008-03-01", "1st"), ("2008-03-10", "10th of March 2008")]
    assert [str(t.time) for t in read_times("Who met Iran in 2006-2008?").found] == ["2006", "2008"]
    assert [str(t.time) for t in read_times("Who met Iran in 2006-05?").found] == ["2006-05"]  # a year and a month
    # two days of one month written month first, the month once ("March 1 and 20, 2011", "March 3-9, 2008")
    assert [str(t.time) for t in read_times("Who met Iran between March 1 and 20, 2011?").found] == ["2011-03-01", "2011-03-20"]
    assert [str(t.time) for t in read_times("Who met Iran March 3-9, 2008?").found] == ["2008-03-03", "2008-03-09"]


def test_a_window_bound_at_its_periods_edge_is_that_edges_day() -> None:
    found = read_times("Who praised Japan from the start of 2005 to the end of March 2005?").found
    assert [(str(t.time), t.text) for t in found] == [("2005-01-01", "the start of 2005"), ("2005-03-31", "the end of March 2005")]
    assert [str(t.time) for t in read_times("Who met Iran between the beginning of May and the end of August 2009?").found] == ["2009-05-01", "2009-08-31"]
    assert read_times("Who criticised Iran at the end of 2008?").unreadable == ["the end of 2008"]  # no window: vague


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ("Who criticised Iran around 2010?", "around 2010"),
        ("Who criticised Iran in the first half of March 2009?", "the first half of March 2009"),
        ("Who criticised Iran in early March 2009?", "early March 2009"),
        ("Who criticised Iran in the first few months of 2008?", "the first few months of 2008"),
        ("Who criticised Iran in the third half of 2008?", "the third half of 2008"),
    ],
)
def test_vague_or_impossible_periods_stay_unread(text: str, phrase: str) -> None:
    assert read_times(text)[:2] == ([], [phrase])


def test_a_month_with_a_number_that_may_be_a_day_stays_unread() -> None:
    # "march 12": the 12th of March or March 2012; neither is chosen (the judge names the number)
    assert read_times("who did iran praise in march 12").found == []


def test_a_span_of_several_granules_prints_its_ends() -> None:
    assert str(TimeSpan(date(2008, 1, 1), date(2008, 6, 30), Granularity.MONTH)) == "2008-01 to 2008-06"
    assert str(TimeSpan(date(2010, 5, 1), date.max, Granularity.MONTH)) == "since 2010-05"
    assert str(TimeSpan(date.min, date(2008, 12, 31), Granularity.YEAR)) == "until 2008"
    assert str(TimeSpan(date(2008, 3, 1), date(2008, 3, 31), Granularity.MONTH)) == "2008-03"


@pytest.mark.parametrize(
    ("text", "window"),
    [
        # two exclusive bounds, in either order: the days strictly between them, both ends included
        ("Who visited Iran after 1 June 2013 and before 1 October 2013?", "Who visited Iran between 2 June 2013 and 30 September 2013?"),
        ("After 14 April 2014 and before May 2014, whom did X abduct?", "Between 15 April 2014 and 30 April 2014, whom did X abduct?"),
        ("Who visited Iran before 2012 and after 2010?", "Who visited Iran between 1 January 2011 and 31 December 2011?"),
        # the second bound stated through the first: its year or month
        ("Which country did X visit after 15 June 2012, within that year?", "Which country did X visit between 16 June 2012 and 31 December 2012?"),
        ("After 3 September 2014, where did X go before the year was out?", "Between 4 September 2014 and 31 December 2014, where did X go?"),
        ("Who visited Iran before 10 May 2010, within that month?", "Who visited Iran between 1 May 2010 and 9 May 2010?"),
        ("Who visited Iran after 10 May 2010, in the same month?", "Who visited Iran between 11 May 2010 and 31 May 2010?"),
    ],
)
def test_a_window_stated_by_exclusive_or_relative_bounds_is_read_as_one_window(text: str, window: str) -> None:
    assert stated_window(text) == window
    first, second = read_times(window).found
    assert first.time.granularity == second.time.granularity == Granularity.DAY


@pytest.mark.parametrize(
    "text",
    [
        "Who visited Iran before 2010?",  # one bound
        "Who visited Iran after Iraq did in 2010 and before 2012?",  # a bound through another event
        "Who visited Iran after 2 May 2010 and before 3 May 2010?",  # no day between: left as written
        "Who visited Iran between 2008 and 2010?",
        "Who visited Iran after 2008, in the same year as Iraq did?",  # another event's period
    ],
)
def test_other_bounds_are_left_as_written(text: str) -> None:
    assert stated_window(text) == text


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        # a month with no year takes the one year the question states; after / before it, the rest of that year
        ("Who visited Iran in 2008 after March?", date(2008, 4, 1), date(2008, 12, 31)),
        ("In 2009, which countries did X visit before March?", date(2009, 1, 1), date(2009, 2, 28)),
        ("Over the course of 2014, who visited Iran after March?", date(2014, 4, 1), date(2014, 12, 31)),
        ("In 2008 who did Iran praise in May?", date(2008, 5, 1), date(2008, 5, 31)),
        # an inclusive start with a relative end: the window holds the first day itself
        ("From 3 July 2009 until the end of that year, who visited Iran?", date(2009, 7, 3), date(2009, 12, 31)),
        ("How many times did X criticize Iran between 10 March 2011 and the end of the year?", date(2011, 3, 10), date(2011, 12, 31)),
        # a second day of no year takes the first's
        ("Who visited Iran between 5 March 2010 and 20 June?", date(2010, 3, 5), date(2010, 6, 20)),
        ("Which countries did X visit from 1 May 2012 up to June 30?", date(2012, 5, 1), date(2012, 6, 30)),
        # an event said with its day before a bound: the day is the bound
        ("From when she took office on 24 June 2010 to the end of that year, who did X phone?", date(2010, 6, 24), date(2010, 12, 31)),
        ("From the day he was sworn in (2 March 2012) until the end of the month, who did X meet?", date(2012, 3, 2), date(2012, 3, 31)),
        # "that year" closing a question bounded on one side is the rest (or the start) of that year
        ("After 20 January 2009, how many times did X criticize Iran that year?", date(2009, 1, 21), date(2009, 12, 31)),
        ("Before 20 May 2009, who criticized Iran during that year?", date(2009, 1, 1), date(2009, 5, 19)),
        # an event with its day after "following", a possessive noun phrase or "the": the day
        ("Following his inauguration on 20 January 2009, who did X criticize until the end of that year?", date(2009, 1, 21), date(2009, 12, 31)),
    ],
)
def test_a_month_with_no_year_or_a_window_said_in_part_is_read_in_the_year_the_question_states(text: str, start: date, end: date) -> None:
    read = read_times(stated_window(with_stated_year(text))).found  # a window: its two ends
    assert len(read) in (1, 2) and (read[0].time.start, read[-1].time.end) == (start, end)


@pytest.mark.parametrize(
    "text",
    [
        "Who visited Iran after March?",  # no year anywhere: never guessed
        "Who visited Iran in 2008 after December?",  # no day of that year is left
        "Who visited Iran in 2008 or 2009 after March?",  # two years: which one is not said
        "Who visited Iran after March 2008?",
    ],
)
def test_a_month_with_no_year_stated_is_left_as_written(text: str) -> None:
    assert with_stated_year(text) == text


@pytest.mark.parametrize(
    ("word", "count"),
    [("3", 3), ("3rd", 3), ("three", 3), ("third", 3), ("twelfth", 12), ("twentieth", 20), ("twenty-first", 21), ("thirty first", 31), ("an", 1), ("few", None)],
)
def test_a_number_is_read_from_figures_cardinals_and_ordinals(word: str, count: int | None) -> None:
    assert number(word) == count


@pytest.mark.parametrize(
    ("text", "unplaced"),
    [
        ("Who met Angela Merkel on Wednesday, 3 March 2010?", []),  # the weekday names the date's day
        ("Who met Angela Merkel on 3 March 2010 (a Wednesday)?", []),
        ("On 12 May 2009, a Tuesday, who visited Chile?", []),
        ("Who met Angela Merkel on Friday, 3 March 2010?", ["Friday"]),  # not that day's: left for the judge
        ("Who negotiated with China on Monday?", ["Monday"]),  # no date to name
    ],
)
def test_a_weekday_beside_the_date_it_falls_on_is_that_dates(text: str, unplaced: list[str]) -> None:
    found = read_times(text).found
    assert unplaced_calendar_names(text, [t.span for t in found], found) == unplaced


@pytest.mark.parametrize(
    ("text", "days"),
    [
        # "31/3" can only be day first: its writer wrote "1/3" day first too, the 1st of March
        ("Who did X visit between 1/3/2010 and 31/3/2010?", [("2010-03-01", None), ("2010-03-31", None)]),
        ("Who did X visit from 4.3.2011 to 21.3.2011?", [("2011-03-04", None), ("2011-03-21", None)]),
        # "3/31" can only be month first: "1/3" beside it is the 3rd of January
        ("Who did X visit between 1/3/2010 and 3/31/2010?", [("2010-01-03", None), ("2010-03-31", None)]),
        # alone, or beside another that may be either, a date keeps both readings for the KG's facts to choose
        ("Who did X visit on 1/3/2010?", [("2010-01-03", "2010-03-01")]),
        ("Who did X visit from 2/3/2010 to 5/4/2010?", [("2010-02-03", "2010-03-02"), ("2010-05-04", "2010-04-05")]),
    ],
)
def test_the_all_number_dates_of_one_text_are_written_in_one_order(text: str, days: list[tuple[str, str | None]]) -> None:
    found = read_times(text).found
    assert [(str(t.time.start), str(t.other_reading.start) if t.other_reading else None) for t in found] == days


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("Since taking office on 14 March 2013, which countries has X visited?", "Since 14 March 2013"),
        ("After becoming prime minister (24 June 2010), which countries did X visit?", "24 June 2010"),
        ("After visiting Iran in 2009, which countries did X visit?", "2009"),  # a year: the event's own day is not said
        ("Who visited Iran between 5 March 2010 and 20 February?", "5 March 2010"),  # the day would fall before the first
    ],
)
def test_an_event_said_with_its_day_is_read_by_the_day_and_a_year_is_carried_only_forward(text: str, read: str) -> None:
    found = read_times(stated_window(with_stated_year(text))).found
    assert [t.text for t in found] == [read]


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("Was X in Iraq on Christmas Day 2007?", [date(2007, 12, 25)]),
        ("Who did X phone on New Year’s Eve, 2009?", [date(2009, 12, 31)]),
        ("Who visited Iran between Boxing Day 2010 and 3 March 2011?", [date(2010, 12, 26), date(2011, 3, 3)]),
        ("Who visited Iran on Christmas Day?", []),  # no year: no one day
        ("Who visited Iran at Easter 2010?", []),  # a holiday whose day moves: left unread
    ],
)
def test_a_holiday_of_a_fixed_day_is_that_day_of_the_year_it_names(text: str, read: list[date]) -> None:
    assert [t.time.start for t in read_times(with_stated_year(text)).found if t.time.granularity == Granularity.DAY] == read


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        ("March 2015: how many visitors did China host that month?", None),  # a pointer to the time said asks none
        ("In 2010, how often did X criticize Iran in that year?", None),
        ("The last X came to power that year", Granularity.YEAR),  # no time said before it: "that year" is the one asked
        ("The month X first visited Iran was what?", Granularity.MONTH),
        ("Name the last year X visited Iran.", Granularity.YEAR),
    ],
)
def test_a_time_noun_after_a_pointer_asks_no_time(text: str, asked: Granularity | None) -> None:
    assert asked_granularity(text) == asked
