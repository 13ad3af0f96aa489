"""General reading mechanisms, each tested by the meaning read (entities linked, times, the asked
granularity, question or not), on a small KG the test writes. The KG has names that begin with a
month, a weekday or a request word, as real KGs do ("March 23 Movement"), and pairs of countries."""

from __future__ import annotations

import pytest
from bench_support import analyzer_over, linked

from agents.analysis.discourse import as_checked_claim, without_repairs
from agents.analysis.question_form import not_a_question, without_asides, without_framing
from agents.analysis.times import asked_granularity
from agents.judge import audit_answerability
from tkg_store.temporal import Granularity

FACTS = [
    ("March_23_Movement", "Use_conventional_military_force", "Congo", "2013-05-01"),
    ("Theresa_May", "Make_a_visit", "China", "2016-04-01"),
    ("Monday_Club", "Make_statement", "Iraq", "2009-06-01"),
    ("Tell_Group", "Make_statement", "Iraq", "2009-06-02"),
    ("Iran", "Make_a_visit", "Iraq", "2009-07-03"),
    ("Iraq", "Make_a_visit", "Iran", "2010-07-03"),
    ("China", "Engage_in_negotiation", "Japan", "2010-01-01"),
    ("Kuwait", "Make_a_visit", "Iraq", "2009-03-07"),
    ("Gulf_Daily_News", "Make_statement", "Kuwait", "2009-01-01"),
]


@pytest.fixture(scope="module")
def analyzer(tmp_path_factory: pytest.TempPathFactory):
    yield from analyzer_over(tmp_path_factory.mktemp("reading_kg") / "kg.duckdb", FACTS)


@pytest.mark.parametrize(
    ("question", "names"),
    [
        ("Who visited Iraq in March?", ["Iraq"]),  # a month alone is no "March 23 Movement"
        ("Who did Iran criticise between March and June?", ["Iran"]),
        ("Who visited Iraq on Monday?", ["Iraq"]),  # a weekday alone is no "Monday Club"
        ("Who visited China in May?", ["China"]),  # nor "May" Theresa May
        ("Could you tell me who visited Iraq in 2009?", ["Iraq"]),  # a request word is no "Tell Group"
        ("What did the March 23 Movement attack in 2013?", ["March_23_Movement"]),  # the whole name still links
        ("When did Theresa May visit China?", ["Theresa_May", "China"]),
    ],
)
def test_calendar_function_and_request_words_alone_never_link(analyzer, question, names):
    assert linked(analyzer, question) == names


def test_a_month_or_weekday_without_a_year_is_an_unreadable_time(analyzer):
    assert analyzer.analyze("Who visited Iraq in March?").unreadable_times == ["March with no year"]
    assert analyzer.analyze("Who visited Iraq on Monday in July 2009?").unreadable_times == ["Monday"]
    assert analyzer.analyze("May I ask who visited Iraq in 2009?").unreadable_times == []  # the verb
    # the year the question states elsewhere is the month's: a window of the rest of that year
    after = analyzer.analyze("In 2009, who visited Iraq after March?")
    assert after.unreadable_times == [] and after.query.window and _window(after) == ("2009-04-01", "2009-12-31")


def _window(analysis) -> tuple[str, str]:  # noqa: ANN001 - a QuestionAnalysis
    """The first and last day of the times read."""
    return str(analysis.times[0].time.start), str(analysis.times[-1].time.end)


@pytest.mark.parametrize(
    "question",
    [
        # a window of months takes the one year the question states, wherever it stands and however it is written
        "In 2009, who visited Iraq between July and December?",
        "Who visited Iraq between July and December in 2009?",
        "who visited iraq from july to december in '09",
        "Who visited Iraq in 2009 (July to December)?",
        "Who visited Iraq in the second half of 2009 (July through December)?",  # the months restate the part of the year
        "During 2009, from July until December, who visited Iraq?",
        "July to December, who visited Iraq in 2009?",
    ],
)
def test_a_window_of_months_is_read_in_the_year_stated(analyzer, question):
    analysis = analyzer.analyze(question)
    assert analysis.query.window and not analysis.unreadable_times and _window(analysis) == ("2009-07-01", "2009-12-31")
    assert linked(analyzer, question) == ["Iraq"]  # no month links a name ("March 23 Movement")


@pytest.mark.parametrize(
    ("question", "phrase"),
    [
        ("Who did the March 23 Movement attack between March and June?", "March to June with no year"),
        ("Who visited Iraq (July to December)?", "July to December with no year"),
        ("July to December, who visited Iraq?", "July to December with no year"),
        ("Who visited Iraq in the first half of 2009 (July to December)?", "July to December with no year"),  # outside it
    ],
)
def test_a_window_of_months_with_no_year_to_place_it_is_refused_naming_it(analyzer, question, phrase):
    analysis = analyzer.analyze(question)
    assert analysis.unreadable_times == [phrase]
    assert phrase in str(audit_answerability(analyzer.store, analysis).missing)


@pytest.mark.parametrize(
    ("question", "names"),
    [
        ("When did the Iran-Iraq visits start?", ["Iran", "Iraq"]),
        ("When did China\u2013Japan talks happen first?", ["China", "Japan"]),
    ],
)
def test_a_hyphenated_pair_of_kg_names_is_two_names(analyzer, question, names):
    assert linked(analyzer, question) == names


def test_a_framing_clause_is_set_aside(analyzer):
    question = "For a briefing on Gulf diplomacy, could you tell me who visited Kuwait in 2009?"
    assert linked(analyzer, question) == ["Kuwait"]  # "Gulf" frames the question: no Gulf Daily News
    assert without_framing("For the first time since 2008, who visited Iraq?").startswith("For the first time")  # a constraint
    assert without_framing("For a briefing on Iran, who did it visit?").startswith("For a briefing")  # pointed back at


@pytest.mark.parametrize(
    ("question", "names", "times"),
    [
        # an aside about the asker, or naming only what the question names, is set aside: no Gulf Daily News
        ("I've been reading about the Gulf lately. Who visited Iraq in 2009?", ["Iraq"], ["2009"]),
        ("Iraq's neighbours keep busy, as anyone can see: which country visited Iraq in 2009?", ["Iraq"], ["2009"]),
        ("Who visited Iraq in 2009? I ask for the Gulf desk.", ["Iraq"], ["2009"]),
        ("I keep reading the Gulf press - which country visited Iraq in 2009?", ["Iraq"], ["2009"]),
        ("For a briefing on the Gulf, could you tell me the year in which Kuwait visited Iraq?", ["Kuwait", "Iraq"], []),  # no pointer
        # a question that points outside itself reads the sentence before it as its context
        ("Think of Iraq in 2009. Who visited it first?", ["Iraq"], ["2009"]),
        ("Kuwait visited Iraq once. Who visited Iraq after that?", ["Kuwait", "Iraq"], []),
        ("The Gulf Daily News spoke of Kuwait. Who visited Kuwait then?", ["Gulf_Daily_News", "Kuwait"], []),
        # an aside holding a time the question lacks is context; "Oct." ends no sentence
        ("Think about 2009, I suggest. Who visited Iraq first?", ["Iraq"], ["2009"]),
        ("I read about Oct. 2009 lately. Who visited Iraq?", ["Iraq"], ["2009-10"]),
    ],
)
def test_asides_are_set_aside_and_context_is_kept(analyzer, question, names, times):
    assert sorted(map(str, linked(analyzer, question))) == sorted(names)
    assert [str(t.time) for t in analyzer.analyze(question).times] == times


def test_a_dash_inside_a_kg_name_sets_no_question_aside():
    # "company - owner or operator" is one ICEWS sector: the part before the dash asks ("In which year ...")
    text = "In which year did the company - owner or operator of Iran first visit Ethiopia?"
    assert without_asides(text) == text


@pytest.mark.parametrize(
    ("question", "level"),
    [
        ("In which month and year did Kuwait first visit Iraq?", Granularity.MONTH),
        ("What year and month did Kuwait first visit Iraq?", Granularity.MONTH),
        ("Which month of which year did Kuwait first visit Iraq?", Granularity.MONTH),
        ("What date did Kuwait first visit Iraq?", Granularity.DAY),
        ("Which year did Kuwait first visit Iraq?", Granularity.YEAR),
        ("Who visited Iraq in the same month and year as Iran?", None),  # a comparison, no time asked
    ],
)
def test_the_asked_granularity_is_honoured(question, level):
    assert asked_granularity(question) == level


@pytest.mark.parametrize(
    ("question", "times", "unreadable"),
    [
        ("Who visited Iraq the year after 2008?", ["2009"], []),
        ("Who visited Iraq two weeks before 17 July 2009?", ["2009-07-03"], []),
        ("Who visited Iraq in the two years after 2007?", ["2008", "2009"], []),
        # a window of a coarser unit starts on the day after the stated day, or ends on the day before it
        ("Who visited Iraq in the three months after 1 April 2010?", ["2010-04-02", "2010-07-01"], []),
        ("Who visited Iraq in the two weeks before 3 July 2009?", ["2009-06-19", "2009-07-02"], []),
        # an offset that names no time is refused, never read as a bare "after 2009"
        ("Who visited Iraq a week after 2009?", [], ["a week after 2009"]),
        ("Who visited Iraq a few days after 3 July 2009?", [], ["a few days after 3 July 2009"]),
        ("Which year after 2008 did Kuwait visit Iraq?", ["2008"], []),  # no offset: a bound
        # the count in figures, words or an ordinal; the stated time in any form read
        ("Who visited Iraq the third day before 06.07.2009?", ["2009-07-03"], []),
        ("Who visited Iraq 3 days after 2009-06-30?", ["2009-07-03"], []),
        ("Who visited Iraq the second year after '07?", ["2009"], []),
        ("Who visited Iraq twenty-one days after 12 June 2009?", ["2009-07-03"], []),
    ],
)
def test_an_offset_from_a_stated_time_is_the_time_it_names(analyzer, question, times, unreadable):
    read = analyzer.analyze(question)
    assert [str(t.time) for t in read.times] == times
    assert set(unreadable) <= set(read.unreadable_times) and bool(unreadable) == bool(read.unreadable_times)


@pytest.mark.parametrize(
    ("question", "day"),
    [("Who visited Iraq on 03.07.2009?", "2009-07-03"), ("Who visited Iraq on 13/7/2009?", "2009-07-13"),
     ("Who visited Iraq on July 3rd '09?", "2009-07-03"), ("Who visited Iraq on 2009/07/03?", "2009-07-03"),
     ("Who visited Iraq on 3 July 09?", "2009-07-03"), ("Who visited Iraq on 3-Jul-2009?", "2009-07-03"),
     ("Who visited Iraq on 20090703?", "2009-07-03")],
)
def test_dates_as_people_write_them(analyzer, question, day):
    assert [str(t.time) for t in analyzer.analyze(question).times] == [day]


@pytest.mark.parametrize(
    "text",
    ["first visit kuwait iraq year", "kuwait iraq visit first year", "iran visit iraq which month", "date kuwait first visited iraq"],
)
def test_keywords_with_a_name_and_what_is_asked_are_a_question(analyzer, text):
    assert not_a_question(text, analyzer.analyze(text).masked) is None


@pytest.mark.parametrize(
    "text",
    ["Barack Obama visit China", "visited Iran in 2010", "Kuwait first visited Iraq in 2009.", "Iran visit for the first time",
     "Iran made a request in the same year as Kuwait", "Gulf Cooperation Council of the United Nations"],  # "Nations" is the name's
)
def test_keywords_that_name_nothing_asked_stay_fragments(text):
    masked = text.replace("United Nations", "{E2}").replace("Iran", "{E1}").replace("Kuwait", "{E1}")
    assert not_a_question(text, masked) is not None


def test_an_all_number_date_is_read_the_way_the_kg_has_facts(analyzer):
    # 3/7/2009 is 7 March (month first) or 3 July; Kuwait visited Iraq on 7 March 2009, Iran on 3 July
    assert [str(t.time) for t in analyzer.analyze("Who did Kuwait visit on 3/7/2009?").times] == ["2009-03-07"]
    assert [str(t.time) for t in analyzer.analyze("Who did Iran visit on 3/7/2009?").times] == ["2009-07-03"]
    assert [str(t.time) for t in analyzer.analyze("Who did Iran visit on 7/13/2009?").times] == ["2009-07-13"]  # one reading


NOTED_FACTS = [
    ("Nuno_Afonso", "playsFor", "C.F._Estrela_da_Amadora", "1985"),
    ("Nuno_Afonso", "playsFor", "U.D._Oliveirense", "2001"),
    ("8_(play)", "hasWonPrize", "Drama_Desk_Award", "2012"),
    ("Hawiye_(ethnic)", "Make_statement", "Somalia", "2009-01-01"),
    ("Police_(Iraq)", "Make_statement", "Iraq", "2009-01-02"),
]


@pytest.fixture(scope="module")
def noted_analyzer(tmp_path_factory: pytest.TempPathFactory):
    yield from analyzer_over(tmp_path_factory.mktemp("noted_kg") / "kg.duckdb", NOTED_FACTS)


@pytest.mark.parametrize(
    ("question", "names"),
    [
        # a lower-case note tells namesakes apart ("8 (play)"): the verb "play" names no entity
        ("Which team did Nuno Afonso play for first?", ["Nuno_Afonso"]),
        # the name without its note still names the entity
        ("What did the Hawiye say about Somalia in 2009?", ["Hawiye_(ethnic)", "Somalia"]),
        # a capitalised qualifier stays a qualifier: the Iraqi police
        ("What did the Iraqi police say about Iraq in 2009?", ["Police_(Iraq)", "Iraq"]),
    ],
)
def test_a_note_that_tells_namesakes_apart_is_no_qualifier(noted_analyzer, question, names):
    assert linked(noted_analyzer, question) == names


PARTIAL_FACTS = [
    *[("Mahmoud_Abbas", "Make_a_visit", country, f"2009-0{k}-01") for k, country in enumerate(("Iraq", "Kuwait", "Oman", "Japan"), 1)],
    ("Ali_Abbas", "Make_a_visit", "Oman", "2010-01-01"),
    ("Omar_Hassan", "Make_a_visit", "Japan", "2009-01-01"),
    ("Sami_Hassan", "Make_a_visit", "China", "2009-02-01"),
]


@pytest.fixture(scope="module")
def partial_analyzer(tmp_path_factory: pytest.TempPathFactory):
    yield from analyzer_over(tmp_path_factory.mktemp("partial_kg") / "kg.duckdb", PARTIAL_FACTS)


@pytest.mark.parametrize(
    ("question", "name"),
    [
        ("Who did Abbas visit first?", "Mahmoud_Abbas"),  # the one with far more facts: the only plausible reading
        ("When did Hassan visit Japan?", "Omar_Hassan"),  # the one with facts beside the question's other name
        ("Who did Hassan visit first?", None),  # two readings the KG does not tell apart: asked about, not guessed
    ],
)
def test_a_name_written_in_part_links_only_where_the_kg_makes_one_reading_plausible(partial_analyzer, question, name):
    from agents.judge import audit_answerability

    analysis = partial_analyzer.analyze(question)
    judgement = audit_answerability(partial_analyzer.store, analysis)
    if name is None:
        assert not judgement.answerable and "'Hassan' names 2 entities" in str(judgement.missing)
    else:
        assert judgement.answerable and name in [m.best for m in analysis.entities]


@pytest.mark.parametrize(
    ("repaired", "meant"),
    [
        ("Who visited Iraq before -- sorry, after -- Kuwait did?", "Who visited Iraq after Kuwait did?"),
        ("Who visited Iran -- I mean Iraq -- in 2009?", "Who visited Iraq in 2009?"),
        ("Who was the last -- scratch that, the first -- to visit Iraq?", "Who was the first to visit Iraq?"),
        ("Which country visited Iraq in March 2008 -- no, hang on, in March 2009?", "Which country visited Iraq in March 2009?"),
        ("Who visited Iraq in 2008, sorry, 2009?", "Who visited Iraq in 2009?"),
        # the editing term after the repair; a name taken back whole; part of a date said again
        ("Who did Kuwait visit in 2009 -- Iran, I mean?", "Who did Iran visit in 2009?"),
        ("Who visited Iraq before Theresa May -- sorry, Kuwait -- did?", "Who visited Iraq before Kuwait did?"),
        ("Who visited Iraq on 4 July 2009? No, 3 July, sorry.", "Who visited Iraq on 3 July 2009?"),
        # the time said again once repaired, or at once, is one time
        ("who visited iraq in july 2008.. sorry 2009, july 2009", "Who visited Iraq in July 2009?"),
        ("Who visited Iraq on 3 July 2009, 03.07.2009?", "Who visited Iraq on 3 July 2009?"),
        ("Where did Kuwait travel in 2009? Which country, I mean.", "Which country did Kuwait visit in 2009?"),
    ],
)
def test_a_self_repair_is_read_as_the_phrase_that_replaces_what_was_taken_back(analyzer, repaired, meant):
    assert _read(analyzer, repaired) == _read(analyzer, meant)


def _read(analyzer, question: str) -> tuple:  # noqa: ANN001 - a QuestionAnalyzer
    """What a reading means: the names linked, the times, the typed query, the answer's type and granularity."""
    said = analyzer.analyze(question)
    return linked(analyzer, question), [str(t.time) for t in said.times], said.query, said.answer_type, said.time_level


@pytest.mark.parametrize("text", ["Who, no matter what, visited Iraq in 2009?", "Did Iran visit Iraq or not, in 2009?",
                                  "Which country visited Iraq in July 2009? No cheating."])  # a word of no kind takes back no year
def test_words_of_editing_without_a_repair_change_nothing(text):
    assert without_repairs(text) == text


@pytest.mark.parametrize(
    ("checked", "meant"),
    [
        # a claim about a party, checked, then a question that points back: the claim with its subject asked
        ("A friend told me Iran was the first to visit Iraq. Is that right, or which country was it?", "Which country was the first to visit Iraq?"),
        ("Was Iran really the last to visit Iraq in 2009? If it wasn't, which was?", "Which was the last to visit Iraq in 2009?"),
        ("Did Kuwait visit Iraq in March 2009, as I've heard? If not, who did?", "Who visited Iraq in March 2009?"),
        # a claim about a time: the claim with its time asked
        ("I read that Kuwait visited Iraq in 2008. Is that the right year, or which year was it?", "In which year did Kuwait visit Iraq?"),
        # a question that stands alone is asked alone: the claim it checks is no context
        ("Someone claimed Iran visited Iraq in 2010. True? Who visited Iraq in 2009?", "Who visited Iraq in 2009?"),
        # a tag checks the claim; "that month" is the claim's time, the claimed party what is in doubt
        ("Kuwait visited Iraq in March 2009, didn't it? Who else visited Iraq that month?", "Who else visited Iraq in March 2009?"),
        # the claim's time in any form the time reader reads
        ("I read that Kuwait visited Iraq on 07.03.2009. Is that the right day, or which day was it?", "On which day did Kuwait visit Iraq?"),
        ("Kuwait visited Iraq in '09, didn't it? Who else visited Iraq that year?", "Who else visited Iraq in 2009?"),
        ("Kuwait visited Iraq on 2009-03-07, didn't it? Who else visited Iraq that day?", "Who else visited Iraq on 7 March 2009?"),
        # a time asked with a pronoun pointing back: the claim with its time open
        ("Did Kuwait visit Iraq in 2008? What year did it really visit Iraq?", "In which year did Kuwait visit Iraq?"),
    ],
)
def test_a_checked_claim_asks_the_claims_question_with_the_claimed_value_open(analyzer, checked, meant):
    assert _read(analyzer, checked) == _read(analyzer, meant)


def test_a_question_with_a_statement_before_it_is_no_checked_claim():
    text = "Kuwait visited Iraq once. Who visited Iraq after that?"  # context the question points back to
    assert as_checked_claim(text) == text


@pytest.mark.parametrize(
    "question", ["Who visited Iraq the day before Kuwait did?", "Who visited Iraq a week after Iran did?", "Who visited Iraq the third day after Iran did?"]
)
def test_an_offset_from_another_event_is_refused_not_read_as_before_or_after(analyzer, question):
    assert (analyzer.analyze(question).query.unsupported or "").startswith("a time offset from another event")
    assert analyzer.analyze("Who visited Iraq before Kuwait did?").query.unsupported is None


@pytest.mark.parametrize(
    ("question", "answerable"),
    [
        # a bound is every day on its side, not its own day: Kuwait visited Iraq on 7 March 2009 only
        ("Before 1 April 2009, whom did Kuwait visit?", True),
        ("Whom did Kuwait visit prior to 01.04.2009?", True),
        ("After 1 March 2009, whom did Kuwait visit?", True),
        ("After 1 April 2009, whom did Kuwait visit?", False),
        ("Whom did Kuwait visit before the year 2009?", False),
    ],
)
def test_the_facts_of_a_bounded_time_are_searched_on_its_side(analyzer, question, answerable):
    judgement = audit_answerability(analyzer.store, analyzer.analyze(question))
    assert judgement.answerable == answerable
    assert answerable or "the KG has no fact about Kuwait" in str(judgement.missing)


def test_within_the_same_period_as_another_event_is_that_period(analyzer):
    # "within the same month as X" compares with X's month, as "in the same month as X" does: no bound of its own
    said, meant = analyzer.analyze("Who visited Iraq within the same month as Kuwait?"), analyzer.analyze("Who visited Iraq in the same month as Kuwait?")
    assert said.query.unsupported is None and (said.pattern, said.cues, said.query) == (meant.pattern, meant.cues, meant.query)


@pytest.mark.parametrize("question", ["Think of 2009. Which was the last country Iran visited that year?", "Which was the last country Iran visited that year?"])
def test_a_question_asking_which_kind_of_party_asks_an_entity_whatever_time_it_points_at(analyzer, question):
    assert analyzer.analyze(question).answer_type == "entity"
