"""The shapes beyond MultiTQ's six, end to end: a tiny real KG, a memory learned from the questions
the KG asks itself (no labelled question), and the offline agent answering people's wordings."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.bench_support import build_store, country_sectors, visit

FACTS = [
    *visit("Jack_Straw", "Iran", "2008-01-05"),
    *visit("Barack_Obama", "Iran", "2008-02-02"),
    *visit("Jack_Straw", "Iran", "2008-03-10"),
    *visit("Jack_Straw", "Iran", "2008-03-11"),
    *visit("Angela_Merkel", "Iran", "2008-04-04"),
    *visit("Angela_Merkel", "Iran", "2008-05-05"),
    *visit("Jack_Straw", "Japan", "2008-06-01"),
    *visit("Jack_Straw", "Military_(Iran)", "2008-07-01"),
    *visit("Barack_Obama", "Japan", "2009-06-01"),
    *visit("Jack_Straw", "Japan", "2010-02-01"),
    *visit("Jack_Straw", "Barack_Obama", "2010-03-01"),
    ("Iran", "Criticize_or_denounce", "Iraq", "2008-02-10"),
    ("Japan", "Criticize_or_denounce", "Iraq", "2008-03-03"),
    ("China", "Criticize_or_denounce", "Iraq", "2008-03-04"),
    ("Iran", "Criticize_or_denounce", "Iraq", "2008-08-01"),
    ("Iran", "Consult", "Iraq", "2008-09-09"),
    ("Iraq", "Consult", "Iran", "2008-09-09"),
    *country_sectors(("Iran", "Iraq", "Japan", "China"), "2009-01-01"),
]


@pytest.fixture(scope="module")
def agent(tmp_path_factory: pytest.TempPathFactory) -> Iterator:
    from agents.agent import Agent
    from agents.learning import learn_generated
    from memory import Memory
    from tkg_store.store import TKGStore

    folder = tmp_path_factory.mktemp("shapes")
    db = build_store(folder / "kg.duckdb", FACTS)
    memory_path = folder / "memory.sqlite"
    report = learn_generated(db, str(memory_path), 40, n_clusters=4, quiet=True)
    assert report.searched_correct > 0  # the KG's own questions left correct programs
    with TKGStore.open(db) as store, Memory.open(memory_path, read_only=True) as memory:
        yield Agent(store, memory)


def test_a_count_is_the_number_of_distinct_days_with_its_days_as_evidence(agent) -> None:  # noqa: ANN001
    result = agent.ask("How many times did Jack Straw visit Iran in 2008?")
    assert (result.answers, result.answer_type) == (["3"], "number")
    assert len(result.evidence) == 3 and all("Jack Straw" in line and "Iran" in line for line in result.evidence)


def test_yes_with_the_fact_and_no_when_the_kg_holds_no_such_event(agent) -> None:  # noqa: ANN001
    yes = agent.ask("Did Jack Straw visit Japan in 2008?")
    assert yes.answers == ["Yes"] and yes.answer_type == "yesno" and any("2008-06-01" in line for line in yes.evidence)
    no = agent.ask("Did Angela Merkel visit Japan in 2008?")
    assert no.answers == ["No"] and not no.abstained


def test_which_countries_lists_every_country_and_no_sector(agent) -> None:  # noqa: ANN001
    result = agent.ask("Which countries did Jack Straw visit in 2008?")
    assert result.is_list and set(result.answers) == {"Iran", "Japan"}


def test_foreign_countries_are_answered_only_where_the_one_to_leave_out_is_known(agent) -> None:  # noqa: ANN001
    result = agent.ask("Which foreign countries did Jack Straw visit in 2008?")  # the KG records no one's nationality
    assert result.abstained and "'foreign'" in (result.reason or "")
    assert agent.ask("Which foreign countries did Jack Straw visit in 2008 other than Iran?").answers == ["Japan"]
    # a country named as the reference is not the traveller's own, and "other foreign countries" still asks a list of them
    placed = agent.ask("After his first trip to Japan, which other foreign countries did Jack Straw visit?")
    assert placed.abstained and "'foreign'" in (placed.reason or "")
    # two months joined by "and" after "in" are the span of both: Jack Straw visited Iran on 10-11 March, Japan on 1 June
    assert agent.ask("Which countries did Jack Straw visit in May and June 2008?").answers == ["Japan"]
    assert set(agent.ask("Which countries did Jack Straw visit in March and April 2008?").answers) == {"Iran"}


def test_which_country_is_answered_by_a_country_in_every_shape(agent) -> None:  # noqa: ANN001
    # Jack Straw's last visit of 2008 was to Military (Iran), a sector: the last country he visited was Japan
    assert agent.ask("Which country did Jack Straw visit last in 2008?").answers == ["Japan"]
    assert agent.ask("Which country did Jack Straw visit first in 2008?").answers == ["Iran"]
    # where a journey went is a visit's other party, a country (a sector is in its country)
    assert set(agent.ask("Where did Jack Straw travel in 2008?").answers) == {"Iran", "Japan"}


def test_where_is_not_answered_when_a_party_visited_is_in_no_country(agent) -> None:  # noqa: ANN001
    # in 2010 Jack Straw visited Japan and Barack Obama, a person: "where" may ask for either, and the countries alone
    # would be a guess at which
    result = agent.ask("Where did Jack Straw go in 2010?")
    assert result.abstained and "Barack Obama" in (result.reason or "")
    assert agent.ask("Which countries did Jack Straw visit in 2010?").answers == ["Japan"]


def test_a_first_time_within_a_stated_year_is_dated_by_its_lookup(agent) -> None:  # noqa: ANN001
    # Jack Straw visited Iran on 5 January and 10-11 March 2008: the planned dated lookup is among the candidates
    assert agent.ask("In which month of 2008 did Jack Straw visit Iran for the first time?").answers == ["2008-01"]


def test_most_often_ranks_by_distinct_days(agent) -> None:  # noqa: ANN001
    assert agent.ask("Who visited Iran most often in 2008?").answers[:1] == ["Jack Straw"]


def test_the_nth_is_the_nth_distinct_day(agent) -> None:  # noqa: ANN001
    assert agent.ask("Who was the second to visit Iran in 2008?").answers == ["Barack Obama"]
    # from the end: Angela Merkel on 4 April and 5 May 2008, Jack Straw on 10-11 March
    assert agent.ask("Who was the third last to visit Iran in 2008?").answers == ["Jack Straw"]
    assert agent.ask("Which country did Jack Straw visit the greatest number of times in 2008?").answers == ["Iran"]


def test_what_happened_between_two_entities_lists_their_relations_either_way(agent) -> None:  # noqa: ANN001
    result = agent.ask("What happened between Iran and Iraq in 2008?")
    assert result.answer_type == "relation" and set(result.answers) == {"Criticize or denounce", "Consult"}


def test_apart_from_leaves_that_entity_out(agent) -> None:  # noqa: ANN001
    result = agent.ask("Who criticised Iraq in 2008 apart from Iran?")
    assert set(result.answers) == {"Japan", "China"}
    # in a closing remark: Jack Straw visited Iran and Japan in 2008
    assert agent.ask("How many countries did Jack Straw visit in 2008? (not counting trips to Iran)").answers == ["1"]


def test_the_agent_of_a_passive_is_the_doer(agent) -> None:  # noqa: ANN001
    # Iran hosted three visitors in 2008, and hosted by no one: read the other way round it is 0 or 1
    assert agent.ask("How many visitors were hosted by Iran in 2008?").answers == ["3"]
    assert set(agent.ask("Which people were hosted by Iran in 2008?").answers) == {"Jack Straw", "Barack Obama", "Angela Merkel"}


def test_a_program_learnt_in_a_time_answers_in_a_window_or_at_no_time(agent) -> None:  # noqa: ANN001
    # the memory learnt these shapes "in {T}" only: the planner places them as the question does
    assert agent.ask("How many times did Jack Straw visit Iran between January and March 2008?").answers == ["3"]
    assert agent.ask("Who visited Iran most often?").answers == ["Jack Straw"]


def test_a_count_or_ranking_over_a_role_the_wording_leaves_open_answers_nothing(agent) -> None:  # noqa: ANN001
    # "the most visits of Iran": Iran's own visits, or the visits it received? Read either way it is wrong half the time
    assert agent.ask("Who made the most visits of Iran in 2008?").abstained


def test_a_number_read_as_no_date_is_refused_naming_it(agent) -> None:  # noqa: ANN001
    result = agent.ask("Between 10 and March 2008, who visited Iran?")  # '10' is read as no date
    assert result.abstained and "'10'" in (result.reason or "")
    # a day whose month and year are written once, after the second day, is a date
    result = agent.ask("Between 10 and 20 March 2008, who visited Iran?")
    assert not result.abstained and "Jack Straw" in result.answers


@pytest.mark.parametrize(
    ("question", "missing"),
    [
        ("Why did Iran criticise Iraq in 2008?", "a reason"), ("How strongly did Iran criticise Iraq in 2008?", "a degree"),
        # a time placed against what no entity or date names: read without it, "after the earthquake in 2008" is "after 2008"
        ("Who visited Iran after the earthquake in 2008?", "'after the earthquake'"),
        ("Which countries did Jack Straw visit during the financial crisis?", "'during the financial crisis'"),
        ("How many times did Jack Straw visit Iran in the late 2000s?", "'the late 2000s'"),
        # a condition on each answer no program computes: read without it, every visitor would be answered
        ("Who visited Iran at least twice in 2008?", "'at least twice'"),
        ("Which countries did Jack Straw visit in both 2008 and 2010?", "'both"),
        # a pronoun's act no relation names dates nothing
        ("Who criticised Iraq after she became president?", "'after she became president'"),
    ],
)
def test_what_the_kg_cannot_represent_is_refused_naming_it(agent, question: str, missing: str) -> None:  # noqa: ANN001
    result = agent.ask(question)
    assert result.abstained and result.reason is not None and missing in result.reason


def test_an_event_referred_to_is_of_the_relation_its_own_words_name(agent) -> None:  # noqa: ANN001
    # Japan criticised Iraq on 3 March 2008 and never consulted it: the event referred to never happened
    result = agent.ask("After Japan consulted Iraq, who criticised Iraq?")
    assert result.abstained and "Consult" in (result.reason or "")
    assert {"China", "Iran"} <= set(agent.ask("After Japan criticised Iraq, who criticised Iraq?").answers)


@pytest.mark.parametrize(
    ("clause", "question", "repeats"),
    [
        ("did so", "Who criticised {E1} after {E2} did so?", True),
        ("expressed the same wish", "Who last expressed a wish to visit {E1} before {E2} expressed the same wish?", True),
        ("consulted the same country", "Who criticised {E1} after {E2} consulted the same country?", False),
        ("broke off relations", "Who signed deals with {E1} after {E2} broke off relations?", False),
        ("visited {E1}", "Who visited {E1} before {E2} visited {E1}?", True),
    ],
)
def test_a_clause_that_repeats_the_questions_act_names_no_other_event(clause: str, question: str, repeats: bool) -> None:
    from agents.analysis.cues import repeats_act

    assert repeats_act(clause, question) is repeats


def test_no_when_the_only_facts_run_the_other_way_on_a_one_way_relation(agent) -> None:  # noqa: ANN001
    # Iran criticised Iraq twice in 2008; Iraq never criticised Iran
    assert agent.ask("Did Iraq criticise Iran in 2008?").answers == ["No"]
    assert agent.ask("Did Iran criticise Iraq in 2008?").answers == ["Yes"]
    # consultation holds in either direction
    assert agent.ask("Did Iraq consult Iran in 2008?").answers == ["Yes"]


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("True or false: Jack Straw visited Japan in 2008.", "Yes"),
        ("Did Jack Straw visit Japan in the year 2008?", "Yes"),
        ("Was Iraq criticized or denounced by Japan in 2008?", "Yes"),
        ("Was Japan criticized or denounced by Iraq in 2008?", "No"),
        ("On how many days was Iraq criticized or denounced by Iran in 2008?", "2"),
        ("Count the days on which Jack Straw visited Iran in 2008.", "3"),
        # an act named by its noun: its doer after "by", the one it was done to after "to"
        ("Were there any visits by Jack Straw to Japan in 2008?", "Yes"),
        ("Were there any visits by Angela Merkel to Japan in 2008?", "No"),
        ("How many visits by Jack Straw to Iran were there in 2008?", "3"),
        # ... or named after the one it was done to ("of Iraq by Japan"), or the subject of a light verb in a relative clause
        ("Any criticism of Iraq by Japan in 2008?", "Yes"),
        ("Any criticism of Japan by Iraq in 2008?", "No"),
        ("Count the visits Jack Straw paid to Iran in 2008.", "3"),
        # a count put as a noun phrase names what it asks
        ("Number of times Jack Straw visited Iran in 2008?", "3"),
        # an act named by its noun, its doer after "from" (the act's source)
        ("Any criticism from Japan against Iraq in 2008?", "Yes"),
        ("Any criticism from Iraq against Japan in 2008?", "No"),
        # a tag offering the other answer, a reciprocal naming the two parties again
        ("Did Iran criticise Iraq in 2008 or not?", "Yes"),
        ("Did Iraq criticise Iran in 2008, or not?", "No"),
        ("Did Iran and Iraq consult each other in 2008?", "Yes"),
        # a negative question asks as the positive does; a statement with a question mark asks yes or no
        ("Didn't Iran criticise Iraq in 2008?", "Yes"),
        ("Wasn't Iran criticized by Iraq in 2008?", "No"),
        ("Jack Straw visited Japan in 2008?", "Yes"),
        # a get-passive: its subject is the one it was done to
        ("Did Iraq get criticized by Japan in 2008?", "Yes"),
        ("Did Japan get criticized by Iraq in 2008?", "No"),
        ("How many times did Iraq get criticized in 2008?", "4"),  # a get-passive is no reception ("got a visit from")
        ("When did Iraq last get criticized?", "2008-08-01"),
        # windows: a hyphenated range of years; ordinal days sharing their month (Jack Straw visited Iran on 10 and 11 March)
        ("How many times did Jack Straw visit Iran in 2008-2009?", "3"),
        ("How many times did Jack Straw visit Iran between the 1st and 10th of March 2008?", "1"),
        ("How many times did Jack Straw visit Iran between March 1 and 10, 2008?", "1"),
        # notes closed by the answer's form ask yes or no; a label before a colon names nothing
        ("- Jack Straw visiting Japan, 2008 - confirm y/n", "Yes"),
        ("Jack Straw's visit to Japan in 2008? y/n", "Yes"),
        ("Angela Merkel visiting Japan in 2008? yes/no", "No"),
        ("Did Iran criticise Iraq in 2008, yes or no?", "Yes"),
        ("Fact-check: how many times did Jack Straw visit Iran in 2008?", "3"),
        # the n-th to last time asked for, as written and as typed in a hurry
        ("What's the second to last time Jack Straw visited Iran in 2008?", "2008-03-10"),
        ("whats the second to last time jack straw visited iran in 2008", "2008-03-10"),
        # visitors told apart are entities (Jack Straw, Barack Obama, Angela Merkel)
        ("How many different people visited Iran in 2008?", "3"),
        # a phrase of the whole period is "during" (Jack Straw visited Iran on 5 January, 10 and 11 March 2008)
        ("Throughout 2008, how many times did Jack Straw visit Iran?", "3"),
        ("How many times did Jack Straw visit Iran all through 2008?", "3"),
        ("Over the whole course of March 2008, on how many days did Jack Straw visit Iran?", "2"),
        # an open bound after the time includes it and runs to the KG's end; one before it ("no later than") from its start
        ("From March 2008 onwards, how many times did Jack Straw visit Iran?", "2"),
        ("How many times did Jack Straw visit Iran from 2009 on?", "0"),
        ("How many times did Jack Straw visit Iran no later than January 2008?", "1"),
        # a tag asks for confirmation and names no act ("right" is no relation of rights)
        ("Jack Straw visited Japan in 2008, right?", "Yes"),
        ("Angela Merkel went to Japan in 2008, right?", "No"),
    ],
)
def test_other_wordings_of_yes_no_counts_windows_and_notes(agent, question: str, answer: str) -> None:  # noqa: ANN001
    assert agent.ask(question).answers == [answer]


def test_a_question_word_the_reading_does_not_know_is_no_yes_no_question(agent) -> None:  # noqa: ANN001
    result = agent.ask("Con quién did Iran criticise in 2008?")
    assert result.abstained and "'Con quién'" in (result.reason or "")


def test_nth_wordings_keyword_queries_and_relations_asked_by_their_noun(agent) -> None:  # noqa: ANN001
    # Jack Straw visited Iran on 5 January, 10 and 11 March 2008: the second last day is 10 March, so is the second
    assert agent.ask("When did Jack Straw visit Iran for the second last time in 2008?").answers == ["2008-03-10"]
    assert agent.ask("When was Jack Straw's penultimate visit to Iran in 2008?").answers == ["2008-03-10"]
    # a keyword query: the noun names what is asked
    assert agent.ask("date of Jack Straw's second visit to Iran in 2008?").answers == ["2008-03-10"]
    # a possessive after an opening time or "which day saw" names the doer too
    assert agent.ask("In 2008, what was the date of Jack Straw's second visit to Iran?").answers == ["2008-03-10"]
    assert agent.ask("Which day saw Jack Straw's second visit to Iran in 2008?").answers == ["2008-03-10"]
    assert agent.ask("Which date marked Jack Straw's second visit to Iran in 2008?").answers == ["2008-03-10"]
    assert set(agent.ask("countries Jack Straw visited in 2008?").answers) == {"Iran", "Japan"}
    # the noun "relations" asks for the relations between the two, either way
    result = agent.ask("What were the relations between Iran and Iraq in 2008?")
    assert result.answer_type == "relation" and set(result.answers) == {"Criticize or denounce", "Consult"}


def test_a_window_stated_by_exclusive_or_relative_bounds(agent) -> None:  # noqa: ANN001
    # Jack Straw visited Iran on 5 January and 10-11 March 2008, Japan on 1 June
    assert set(agent.ask("Which countries did Jack Straw visit after 5 January 2008 and before 1 June 2008?").answers) == {"Iran"}
    # after 1 March 2008, within that year: Jack Straw in March, Angela Merkel in April and May; Barack Obama (February) is out
    assert set(agent.ask("Who visited Iran after 1 March 2008, within that year?").answers) == {"Jack Straw", "Angela Merkel"}


def test_a_possessive_before_an_act_names_its_doer(agent) -> None:  # noqa: ANN001
    # Jack Straw's visits in 2008: Iran on 5 January, 10 and 11 March, Japan on 1 June; the third day is 11 March
    assert agent.ask("Jack Straw's third visit in 2008: whom did he visit?").answers == ["Iran"]
    assert agent.ask("Jack Straw's fourth visit in 2008: whom did he visit?").answers == ["Japan"]


def test_a_relation_asked_by_a_noun_no_relation_names_is_refused_naming_it(agent) -> None:  # noqa: ANN001
    result = agent.ask("Who is the wife of Jack Straw?")
    assert result.abstained and "'wife'" in (result.reason or "")


def test_a_memory_learned_from_the_kg_alone_needs_no_labelled_question(tmp_path: Path) -> None:
    """`ari memory learn --generate N` with no dataset: the README's command after `ari ingest`."""
    import subprocess
    import sys

    db = build_store(tmp_path / "kg.duckdb", FACTS)
    memory = tmp_path / "memory.sqlite"
    done = subprocess.run(
        [sys.executable, "-m", "ari", "memory", "learn", "--generate", "20", "--clusters", "3", "--db", str(db), "--memory", str(memory), "--quiet"],
        capture_output=True, text=True, timeout=300, env={**__import__("os").environ, "ARI_DATA": ""},
    )
    assert done.returncode == 0, done.stderr
    asked = subprocess.run(
        [sys.executable, "-m", "ari", "ask", "How many times did Jack Straw visit Iran in 2008?", "--db", str(db), "--memory", str(memory), "--json"],
        capture_output=True, text=True, timeout=300,
    )
    assert asked.returncode == 0, asked.stderr
    assert '"answers": ["3"]' in asked.stdout


def test_a_verb_phrase_that_names_no_relation_of_the_kg_is_refused_naming_it(tmp_path: Path) -> None:
    """With a lexicon learned from the KG's labelled questions, "born" or "graduate" is no event the
    KG records; "visited" and "criticised" are."""
    from agents.analysis.analyzer import QuestionAnalyzer
    from agents.lexicon_learning import learn_relation_lexicon
    from ari.base.embedding import get_embedder
    from tkg_store.store import TKGStore

    with TKGStore.open(build_store(tmp_path / "kg.duckdb", FACTS)) as store:
        plain = QuestionAnalyzer(store, get_embedder(), use_default_lexicon=False)
        labelled = [
            {"question": "Who visited Iran in 2008?", "answers": ["Jack Straw", "Barack Obama", "Angela Merkel"], "answer_type": "entity"},
            {"question": "Who criticised Iraq in 2008?", "answers": ["Iran", "Japan", "China"], "answer_type": "entity"},
            {"question": "Whom did Jack Straw visit in 2008?", "answers": ["Iran", "Japan"], "answer_type": "entity"},
        ]
        lexicon = learn_relation_lexicon(store, labelled, plain)
        analyzer = QuestionAnalyzer(store, get_embedder(), lexicon=lexicon)
        for question, word in (("When was Jack Straw born?", "born"), ("When did Jack Straw graduate?", "graduate")):
            unsupported = analyzer.analyze(question).query.unsupported
            assert unsupported is not None and word in unsupported
        for question in ("Who visited Iran in 2008?", "Who criticised Iraq in 2008?", "What happened between Iran and Iraq in 2008?"):
            assert analyzer.analyze(question).query.unsupported is None


def test_an_answer_placed_before_another_event_shows_when_that_event_happened(parts) -> None:  # noqa: ANN001 - conftest's demo store, memory, agent
    result = parts[2].ask("Who was the last to criticise Iran before Pervez Musharraf did?")
    assert result.answers[:1] == ["Condoleezza Rice"]
    assert result.evidence[0].startswith("Condoleezza Rice Criticize or denounce Iran on ")
    referred = [line for line in result.evidence if line.startswith("referred event: ")]
    assert referred == ["referred event: Pervez Musharraf Criticize or denounce Iran on 2007-11-05"]
    assert result.evidence[0] < "Condoleezza Rice Criticize or denounce Iran on 2007-11-05"  # it happened before


def test_one_named_party_is_counted_and_asked_yes_or_no(agent) -> None:  # noqa: ANN001
    # Iran was visited on six days of 2008 (Jack Straw's visit to Military (Iran) is no visit of Iran)
    assert agent.ask("How many times did anyone visit Iran in 2008?").answers == ["6"]
    # Jack Straw visited on five days of 2008: Iran three, Japan and Military (Iran) one each
    assert agent.ask("How many times did Jack Straw visit anyone in 2008?").answers == ["5"]
    assert agent.ask("Tell me whether anyone visited Japan in 2009.").answers == ["Yes"]
    assert agent.ask("Tell me whether Barack Obama visited anyone in 2009.").answers == ["Yes"]
    assert agent.ask("Tell me whether Angela Merkel visited anyone in 2009.").answers == ["No"]


def test_a_passive_naming_the_one_acted_on_first_reads_the_program_the_other_way(agent) -> None:  # noqa: ANN001
    # role order is the order of mention (Iraq, then Iran): Iran criticised Iraq, never the reverse
    assert agent.ask("In 2008, was Iraq criticized by Iran?").answers == ["Yes"]
    assert agent.ask("In 2008, was Iran criticized by Iraq?").answers == ["No"]




def test_a_passive_with_no_agent_asks_about_the_one_it_was_done_to(agent) -> None:  # noqa: ANN001
    # "was Iran visited": Iran is the one visited, as in "did anyone visit Iran" (six days of 2008)
    assert agent.ask("How many times was Iran visited in 2008?").answers == ["6"]
    assert agent.ask("Was Japan visited in 2009?").answers == ["Yes"]
    assert agent.ask("Was Angela Merkel visited in 2009?").answers == ["No"]


def test_whether_a_named_one_was_the_first_or_last_is_asked_of_it_among_the_others(agent) -> None:  # noqa: ANN001
    # Iran's visitors in 2008, in order: Jack Straw (5 January), Barack Obama, Jack Straw twice, Angela Merkel twice (5 May)
    first = agent.ask("Was Jack Straw the first to visit Iran in 2008?")
    assert first.answers == ["Yes"] and any("Jack Straw" in line and "2008-01-05" in line for line in first.evidence)
    other = agent.ask("Was Barack Obama the first to visit Iran in 2008?")
    assert other.answers == ["No"] and any("Jack Straw" in line for line in other.evidence)  # the "No" shows who was
    assert agent.ask("Was Angela Merkel the last to visit Iran in 2008?").answers == ["Yes"]
    assert agent.ask("Was Japan the first to criticize Iraq?").answers == ["No"]  # Iran did, on 10 February 2008
    # when Jack Straw first visited is another question, which no program of an order among visitors answers
    assert agent.ask("Did Jack Straw visit Iran for the first time in 2008?").abstained
    # the n-th distinct day: Barack Obama's visit of 2 February was the second day Iran was visited in 2008
    assert agent.ask("Was Barack Obama the second to visit Iran in 2008?").answers == ["Yes"]
    assert agent.ask("Was Angela Merkel the second to visit Iran in 2008?").answers == ["No"]



def test_a_count_of_things_no_fact_states_is_refused_as_a_quantity(agent) -> None:  # noqa: ANN001
    # neither an occasion nor an actor: the KG's 0 statues would answer another question
    statues = agent.ask("How many statues did Jack Straw unveil in 2008?")
    assert statues.abstained and "a quantity ('statues'" in (statues.reason or "")
    assert agent.ask("How many visitors were hosted by Iran in 2008?").answers == ["3"]  # an agent noun counts actors


def test_a_kind_only_names_tell_is_answered_only_by_a_name_that_says_it(agent) -> None:  # noqa: ANN001
    # the KG types actors by their names only: "military" is a word of its names, and no visitor of Iran is named so
    kind = agent.ask("Which military visited Iran first in 2008?")
    assert kind.abstained and "which military" in (kind.reason or "")
    assert agent.ask("Which military did Jack Straw visit in 2008?").answers == ["Military (Iran)"]
    assert agent.ask("Which person visited Iran first in 2008?").answers == ["Jack Straw"]  # a party noun: any actor


@pytest.mark.parametrize("question", ["What did Jack Straw do in 2008?", "Who did Jack Straw in 2008?"])
def test_a_question_left_with_no_word_of_an_act_is_refused(agent, question: str) -> None:  # noqa: ANN001
    result = agent.ask(question)  # any relation read would be a guess (a name may have taken the verb)
    assert result.abstained and "names an event" in (result.reason or "")
    assert agent.ask("Who did Jack Straw visit in 2008?").answers  # one that says its act is answered


def test_a_marriage_is_no_act_the_kg_records(agent) -> None:  # noqa: ANN001
    result = agent.ask("Who was Jack Straw married to in 2008?")
    assert result.abstained and "kinship" in (result.reason or "")


def test_two_acts_joined_by_or_are_not_read_as_one(agent) -> None:  # noqa: ANN001
    result = agent.ask("Who criticised or consulted Iraq in 2008?")  # Criticize_or_denounce and Consult: a program reads one
    assert result.abstained and "two acts" in (result.reason or "")
    assert set(agent.ask("Who criticised Iraq in 2008?").answers) == {"Iran", "Japan", "China"}


def test_a_party_said_to_do_the_act_again_did_the_event_referred_to(agent) -> None:  # noqa: ANN001
    # "after Japan did": after Japan criticised Iraq (3 March 2008), not after someone criticised Japan
    assert set(agent.ask("Which countries criticised Iraq after Japan did?").answers) == {"China", "Iran"}


def test_a_count_or_yes_no_after_the_first_of_another_event_by_the_same_doer(agent) -> None:  # noqa: ANN001
    # Jack Straw first visited Iran on 5 January 2008; he visited Japan after, on 1 June 2008 and 1 February 2010
    for question in ("After Jack Straw first visited Iran, how many times did he visit Japan?",
                     "Once Jack Straw had made his first trip to Iran, how many times did he go to Japan?",
                     "Following Jack Straw's first visit to Iran, on how many days did he visit Japan?"):
        assert agent.ask(question).answers == ["2"], question
    assert agent.ask("After Jack Straw first visited Iran, did he visit Japan?").answers == ["Yes"]
    # his first visit to Japan (1 June 2008) came after every visit of his to Iran
    assert agent.ask("After Jack Straw visited Japan, how many times did he visit Iran?").answers == ["0"]
    # what no fact states is still refused, whatever the bounds
    for question in ("After Jack Straw first visited Iran, how many people did he meet in Japan?",
                     "Why did Jack Straw visit Japan after he first visited Iran?",
                     "How angrily did Jack Straw criticize Japan after he first visited Iran?"):
        assert agent.ask(question).abstained, question
    # another doer in each clause: never an event between the two places (Iran hosting Japan) counted
    assert agent.ask("After Barack Obama visited Iran, how many times did Jack Straw visit Japan?").answers in ([], ["2"])


@pytest.mark.parametrize(
    ("question", "answers"),
    [
        ("Which month of 2008 did Jack Straw visit Iran the most?", {"2008-03"}),  # two days in March, one in January
        ("In 2008, in what month did Jack Straw visit Iran most frequently?", {"2008-03"}),
        ("In which year did Jack Straw visit Iran most often?", {"2008"}),
        ("Which year did Jack Straw go to Japan the most?", {"2008", "2010"}),  # a day each: ties are all answered
        ("Which month of 2008 did Jack Straw visit Iran the least?", {"2008-01"}),  # a month with no visit is no answer
    ],
)
def test_which_year_or_month_the_most_ranks_the_periods_by_distinct_days(agent, question: str, answers: set[str]) -> None:  # noqa: ANN001
    result = agent.ask(question)
    assert set(result.answers) == answers and result.answer_type == "time", (result.answers, result.reason)


@pytest.mark.parametrize(
    "question",
    [
        "When did Jack Straw visit Iran the most?",  # a day is no period: each day of an event is one day
        "On which day did Jack Straw visit Iran the most?",
        "Which month did Jack Straw visit Iran the most?",  # no time stated: a month of the calendar (March, any year)?
        "In which city did Jack Straw visit Iran the most in 2008?",  # a place the KG does not record
    ],
)
def test_a_most_asked_of_no_year_or_month_is_refused(agent, question: str) -> None:  # noqa: ANN001
    assert agent.ask(question).abstained


def test_the_memory_learns_the_ranking_of_years_from_the_kgs_own_questions(agent) -> None:  # noqa: ANN001
    # Jack Straw visited Japan in 2008 and in 2010: the KG asks itself which year he did so most (and least) often
    held = {stat.program.render() for m in agent.memory.methodologies().values() for stat in m.programs}
    assert {"getTime(E1, R, E2) -> getMost(#1, year) -> answer(#2)", "getTime(E1, R, E2) -> getLeast(#1, year) -> answer(#2)"} <= held


@pytest.mark.parametrize(
    ("question", "answers"),
    [
        # Jack Straw visited Iran on 5 January, 10 and 11 March 2008, Japan on 1 June 2008
        ("In 2008, how many times did Jack Straw visit Iran after 5 January?", ["2"]),  # the day read in the year stated
        ("How many times did Jack Straw visit Iran in 2008 after 5 January 2008?", ["2"]),  # a period narrowed by a bound in it
        ("Which countries did Jack Straw visit in 2008 after the 10 March summit?", ["Iran", "Japan"]),  # the day of the event it names
        ("During March 2008, after 10 March 2008, did Jack Straw visit Iran?", ["Yes"]),
        ("In March 2008, before 11 March 2008, how many times did Jack Straw visit Iran?", ["1"]),
    ],
)
def test_a_period_and_a_bound_within_it_are_one_window(agent, question: str, answers: list[str]) -> None:  # noqa: ANN001
    result = agent.ask(question)
    assert sorted(result.answers) == answers, (result.answers, result.reason)


def test_a_day_with_no_year_and_none_stated_is_still_refused(agent) -> None:  # noqa: ANN001
    result = agent.ask("How many times did Jack Straw visit Iran before 10 March?")
    assert result.abstained and "no year" in (result.reason or "")


def test_an_open_bound_on_a_day_of_no_year_is_not_read_in_the_year_stated(agent) -> None:  # noqa: ANN001
    # "since" runs to the KG's end: read in the year stated it would not be narrowed to that year, so it stays unread
    result = agent.ask("In 2008, how many times did Jack Straw visit Iran since 10 March?")
    assert result.abstained and "no year" in (result.reason or "")
