"""The answer check (agents.faithfulness) on a small KG written here: every temporal operator at
every granularity, mirror relations learned from the facts, first/last among the facts that fit,
the answer's type, the relation, and the reason and nearest facts when nothing survives."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

import pytest

from agents.analysis.referents import pronoun_anchor
from agents.analysis.types import EntityMention, QuestionAnalysis, TimeMention
from agents.faithfulness import AnswerCheck, TimeConstraint, check_answers, time_constraint
from tests.bench_support import build_store
from tkg_store.learned import mirror_relations
from tkg_store.schema import rebuild_layout
from tkg_store.store import Fact, TKGStore, normalize_name
from tkg_store.temporal import Granularity, parse_time

DAY = Granularity.DAY
VISITS = [  # (visitor, host, day): each stored as Make_a_visit and mirrored as Host_a_visit
    ("Ann", "Xland", date(2010, 3, 21)),
    ("Bob", "Xland", date(2010, 4, 10)),
    ("Cid", "Xland", date(2010, 4, 20)),
    ("Dee", "Xland", date(2010, 5, 3)),
    ("Xland", "Ann", date(2010, 4, 15)),  # Xland visiting Ann: the other role
]
OTHER = [("Eve", "Criticize", "Xland", date(2010, 4, 12)), ("Ann", "Criticize", "Xland", date(2011, 1, 5))]
# enough unrelated mirrored visits for the pair to count as mirrors (MIRROR_MIN_FACTS)
FILLER = [(f"Guest{i}", "Yland", date(2008, 1, 1) + timedelta(days=i)) for i in range(25)]


def write(path: Path) -> Path:
    facts = [(v, "Make_a_visit", h, d) for v, h, d in VISITS + FILLER]
    facts += [(h, "Host_a_visit", v, d) for v, h, d in VISITS + FILLER]
    facts += OTHER
    with TKGStore.open(path, read_only=False) as store:
        con = store.connection
        entities = sorted({f[0] for f in facts} | {f[2] for f in facts})
        relations = sorted({f[1] for f in facts})
        for i, name in enumerate(entities):
            con.execute("INSERT INTO entities VALUES (?, ?, ?, ?)", [i, name, name, normalize_name(name)])
        for i, name in enumerate(relations):
            con.execute("INSERT INTO relations VALUES (?, ?, ?)", [i, name, name.replace("_", " ")])
        for head, relation, tail, day in facts:
            con.execute(
                "INSERT INTO facts VALUES (?, ?, ?, ?, ?, ?)",
                [entities.index(head), relations.index(relation), entities.index(tail), day, day, DAY.value],
            )
        rebuild_layout(con)
    return path


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with TKGStore.open(write(tmp_path_factory.mktemp("faithful") / "kg.duckdb")) as opened:
        yield opened


def visits_only(masked: str, family: set[str]) -> bool:
    """A relation test that, like the linker's for "who visited", admits only the visit relations."""
    return bool(family & {"Make_a_visit", "Host_a_visit"})


def question(
    entities: list[str], times: list[str] = (), cue: str | None = None, answer_type: str = "entity", masked: str | None = None
) -> QuestionAnalysis:
    spans = [TimeMention(t, (0, 0), parse_time(t)) for t in times]
    if masked is None:
        masked = "When did {E1} visit {E2}?" if answer_type == "time" and len(entities) >= 2 else "Who visited {E1}?"
    return QuestionAnalysis(
        question="?",
        masked=masked,
        entities=[EntityMention(e, (0, 0), [(e, 1.0)]) for e in entities],
        times=spans,
        answer_type=answer_type,
        cue=cue,
        cues=[cue] if cue else [],
    )


def fact(day: date) -> Fact:
    return Fact("Ann", "Make_a_visit", "Xland", day, day, DAY)


# -- the temporal operators, at each granularity -------------------------------------------------

@pytest.mark.parametrize(
    ("operator", "time", "inside", "outside"),
    [
        ("in", "2010-04-10", [date(2010, 4, 10)], [date(2010, 4, 9), date(2010, 4, 11)]),
        ("in", "2010-04", [date(2010, 4, 1), date(2010, 4, 30)], [date(2010, 3, 31), date(2010, 5, 1)]),
        ("in", "2010", [date(2010, 1, 1), date(2010, 12, 31)], [date(2009, 12, 31), date(2011, 1, 1)]),
        ("before", "2010-04-10", [date(2010, 4, 9)], [date(2010, 4, 10), date(2010, 4, 11)]),
        ("before", "2010-04", [date(2010, 3, 31)], [date(2010, 4, 1), date(2010, 4, 30)]),
        ("before", "2010", [date(2009, 12, 31)], [date(2010, 1, 1), date(2010, 6, 1)]),
        ("after", "2010-04-10", [date(2010, 4, 11)], [date(2010, 4, 10), date(2010, 4, 9)]),
        ("after", "2010-04", [date(2010, 5, 1)], [date(2010, 4, 30), date(2010, 4, 1)]),
        ("after", "2010", [date(2011, 1, 1)], [date(2010, 12, 31)]),
    ],
)
def test_time_constraint_operators(operator, time, inside, outside):
    constraint = TimeConstraint(operator, parse_time(time))
    assert all(constraint.admits(fact(d)) for d in inside)
    assert not any(constraint.admits(fact(d)) for d in outside)


def test_between_covers_both_stated_times_inclusively():
    constraint = time_constraint(question(["Xland"], ["2010-03", "2010-04"], cue="between"))
    assert constraint.operator == "between"
    assert constraint.admits(fact(date(2010, 3, 1))) and constraint.admits(fact(date(2010, 4, 30)))
    assert not constraint.admits(fact(date(2010, 2, 28))) and not constraint.admits(fact(date(2010, 5, 1)))


def test_a_window_the_query_reads_covers_both_times_whatever_its_first_cue_word():
    from dataclasses import replace

    from agents.analysis.query import Query

    until = question(["Xland"], ["2010-09", "2010-10"], cue="before")  # "from September until October"
    assert time_constraint(until).operator == "before"
    window = time_constraint(replace(until, query=Query(is_list=True, window=True)))
    assert window.operator == "between" and window.admits(fact(date(2010, 10, 11))) and not window.admits(fact(date(2010, 11, 1)))


def test_a_first_or_last_before_or_after_a_time_is_checked_against_that_time():
    from dataclasses import replace

    last_before = replace(question(["Xland"], ["2009-10"], cue="last"), cues=["before", "last"])  # "when, before October 2009, ... last"
    constraint = time_constraint(last_before)
    assert constraint.operator == "before" and constraint.admits(fact(date(2009, 9, 29))) and not constraint.admits(fact(date(2009, 10, 2)))
    assert time_constraint(replace(question(["Xland"], ["2009-10"], cue="last"), cues=["last"])).operator == "in"


def test_the_cue_picks_the_operator():
    assert time_constraint(question(["Xland"], ["2010-04"])).operator == "in"
    assert time_constraint(question(["Xland"], ["2010-04"], cue="first")).operator == "in"
    assert time_constraint(question(["Xland"], ["2010-04"], cue="before")).operator == "before"
    assert time_constraint(question(["Xland"], ["2010-04"], cue="same_month")) is None  # the reference is an event
    assert time_constraint(question(["Xland"])) is None


# -- mirrors, relation, role ---------------------------------------------------------------------

def test_mirror_relations_are_learned_from_reversed_facts(store):
    mirrors = mirror_relations(store)
    assert mirrors["Make_a_visit"] == {"Host_a_visit"} and mirrors["Host_a_visit"] == {"Make_a_visit"}
    assert "Criticize" not in mirrors


def test_an_answer_inside_the_stated_month_survives_others_do_not(store):
    analysis = question(["Xland"], ["2010-04"])
    verdict = check_answers(store, analysis, ["Dee", "Bob", "Ann"], visits_only)
    # Dee visited in May; Ann is linked in April only by Xland's visit to her: the other role
    assert verdict.answers == ["Bob"]


def test_mirror_fact_supports_an_answer(store):
    # Cid's visit is stored twice; a store holding only Xland Host_a_visit Cid would do as well
    assert check_answers(store, question(["Xland"], ["2010-04-20"]), ["Cid"], visits_only).answers == ["Cid"]


def test_a_relation_the_question_does_not_ask_about_supports_nothing(store):
    verdict = check_answers(store, question(["Xland"], ["2010-04-12"]), ["Eve"], visits_only)
    assert verdict.answers == [] and verdict.reason is not None


def test_no_fact_in_the_month_abstains_with_the_nearest_facts(store):
    verdict = check_answers(store, question(["Xland"], ["2010-06"]), ["Dee"], visits_only, "Make_a_visit")
    assert verdict.answers == []
    assert verdict.reason == "no fact of 'Make a visit' involving Xland in 2010-06 supports an answer"
    assert verdict.evidence[0] == "Dee Make a visit Xland on 2010-05-03"
    assert len(verdict.evidence) == 3
    assert not any("Host a visit" in line and "Dee" in line for line in verdict.evidence)  # one line per event


# -- first / last --------------------------------------------------------------------------------

def test_first_is_the_earliest_of_the_facts_that_fit(store):
    analysis = question(["Xland"], ["2010-04"], cue="first")
    assert check_answers(store, analysis, ["Cid", "Bob"], visits_only).answers == ["Bob"]
    last = question(["Xland"], ["2010-04"], cue="last")
    assert check_answers(store, last, ["Bob", "Cid"], visits_only).answers == ["Cid"]


def test_first_before_a_stated_time(store):
    analysis = question(["Xland"], ["2010-04-15"], cue="before")
    analysis.cues = ["before", "last"]
    assert check_answers(store, analysis, ["Ann", "Bob"], visits_only).answers == ["Bob"]


# -- the answer's type ---------------------------------------------------------------------------

def test_a_who_question_never_gets_a_time(store):
    verdict = check_answers(store, question(["Xland"], ["2010-04"]), ["2010-04"], visits_only)
    assert verdict.answers == [] and "asks for an entity" in verdict.reason


def test_a_when_question_gets_the_time_of_a_fitting_fact(store):
    analysis = question(["Dee", "Xland"], answer_type="time")
    assert check_answers(store, analysis, ["2010-05", "2010-06", "Dee"], visits_only).answers == ["2010-05"]
    assert check_answers(store, analysis, ["Xland"], visits_only).reason.startswith("the question asks for a time")


def test_when_first_compares_the_pair_facts_only(store):
    analysis = question(["Ann", "Xland"], answer_type="time", cue="first")
    # Ann visited Xland on 2010-03-21; Xland visited Ann on 2010-04-15, in the other role
    assert check_answers(store, analysis, ["2010-03-21"], visits_only).answers == ["2010-03-21"]


def test_when_the_wording_names_no_relation_the_best_ranked_one_decides(store):
    analysis = question(["Xland"], ["2010-04"])
    analysis.relations = [("Criticize", 0.8), ("Make_a_visit", 0.1)]

    def undecided(masked: str, family: set[str]) -> None:
        return None

    assert check_answers(store, analysis, ["Bob", "Eve"], undecided).answers == ["Eve"]


def test_a_time_right_before_the_cue_places_the_answers_too(store):
    # Bob visited Xland on 10 April 2010: after it Cid visited in April, Dee in May
    placed = question(["Xland", "Bob"], ["2010-04"], cue="after", masked="Who visited {E1} in {T1} after {E2} did?")
    check = AnswerCheck(store, placed, visits_only)
    assert [check.survives(a) for a in ("Cid", "Dee")] == [True, False]


# -- a pronoun of the asked clause standing for a party of the cue's clause ------------------------

@pytest.mark.parametrize(
    ("masked", "anchor"),
    [
        # the asked clause names its party by a pronoun only: it stands for a party of the cue's clause, in its own role
        ("After {E1} was first threatened, who threatened him?", ([1], "object", True)),
        ("After {E1} was threatened, which countries did she visit?", ([1], "subject", True)),
        ("Who criticized him after {E1} visited {E2}?", ([1, 2], "object", True)),
        ("After {E1} was sanctioned, who criticized it?", ([1], "object", False)),
        # the asked clause names its party, or says no pronoun: no reading of a pronoun is needed
        ("Who criticized {E1} after he visited {E2}?", None),
        ("Who visited {E1} after {E2} did?", None),
        # the clause's act again of one of two, or "it" of two: the clause's object, as the clause roles read
        ("Before {E1} rejected {E2}, who had rejected it most recently?", None),
        ("After {E1} visited {E2}, who criticized it?", None),
    ],
)
def test_a_pronoun_of_the_asked_clause_may_stand_for_a_party_of_the_cue_s_clause(masked: str, anchor: tuple | None) -> None:
    assert pronoun_anchor(masked) == anchor


def test_the_answers_are_of_the_party_a_pronoun_stands_for(tmp_path: Path) -> None:
    facts = [
        ("Ann", "Make_a_visit", "Police_(Xland)", "2010-01-01"),
        ("Bob", "Criticize_or_denounce", "Ann", "2010-02-01"),  # Ann criticized: "her"
        ("Cid", "Criticize_or_denounce", "Police_(Xland)", "2010-02-02"),  # the police criticized: "it"
        ("Ann", "Criticize_or_denounce", "Dan", "2010-02-03"),  # Ann criticizing: another role
    ]
    with TKGStore.open(build_store(tmp_path / "kg.duckdb", facts)) as store:
        def check(masked: str) -> AnswerCheck:
            mentions = [EntityMention(n, (0, 0), [(n, 1.0)]) for n in ("Ann", "Police_(Xland)")]
            return AnswerCheck(store, QuestionAnalysis("?", masked, entities=mentions, cue="after", cues=["after"]))

        # "her" is a person's: Ann, not a sector of a country; the one criticized, not the critic
        her = check("After {E1} visited {E2}, who criticized her?")
        assert her.survives("Bob") and not her.survives("Cid") and not her.survives("Dan")
        # "it" of two parties: the clause's object, as its roles read
        it = check("After {E1} visited {E2}, who criticized it?")
        assert it.survives("Cid") and not it.survives("Bob")
