"""Shape-set golds (benchmarks/shape_golds.py) on a KG whose answers are known by construction, and
the shape loader reading what it writes."""

from __future__ import annotations

import json

import pytest

from benchmarks.loaders import get_loader
from benchmarks.shape_golds import compute_golds, countries_of, load_kg, main

SECTORS = {  # Iran and China qualify five sectors, a civil state body among them: countries
    "Iran": ["Military", "Government", "Police", "Citizen", "Media"],
    "China": ["Military", "Government", "Police", "Citizen", "Media"],
    "Kenya": ["Military", "Police"],  # too few
    "Boko_Haram": ["Militant", "Insurgency", "Armed_Rebel", "Terrorist_Leader", "Combatant"],  # no state body
}
FACTS = [
    ("Alice", "Make_a_visit", "Iran", "2008-01-05"),
    ("Alice", "Make_a_visit", "China", "2008-01-05"),
    ("China", "Host_a_visit", "Alice", "2008-03-10"),  # Alice visited China that day
    ("Alice", "Make_a_visit", "Iran", "2008-06-01"),
    ("Alice", "Make_a_visit", "Kenya", "2009-02-02"),
    ("Bob", "Consult", "Alice", "2008-04-04"),  # either direction
    ("Alice", "Criticize_or_denounce", "Bob", "2008-05-05"),  # head to tail only
]
YEAR_2008 = {"from": "2008-01-01", "to": "2008-12-31"}


@pytest.fixture(scope="module")
def kg(tmp_path_factory):
    path = tmp_path_factory.mktemp("kg") / "full.txt"
    lines = ["\t".join(f) for f in FACTS]
    lines += [f"{sector}_({owner})\tMake_statement\t{owner}\t2005-01-01" for owner, names in SECTORS.items() for sector in names]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return load_kg(path)


def spec(**fields) -> dict:
    base = {"ask": "entity", "head": None, "tail": None, "asked": None, "relations": ["Make_a_visit"], "list": False,
            "entity_type": None, "window": None, "after": None, "before": None, "reference": None, "ordinal": None,
            "extreme": None, "except": [], "granularity": None}
    return {**base, **fields}


def record(shape: str, spec_fields: dict | None = None, rid: str = "r1", **extra) -> dict:
    rec = {"id": rid, "writer": "w0", "shape": shape, "question": "A question?", "missing": None, **extra}
    if spec_fields is not None:
        rec["spec"] = spec(**spec_fields)
    return rec


def gold(kg, shape: str, **fields) -> dict:
    golds = compute_golds([("w0_dev.json", [record(shape, fields)])], kg)
    assert not [p for p in golds.problems if not p.code.startswith("warning")], golds.problems
    return golds.records[0]


def test_countries_need_enough_sectors_and_a_state_body(kg):
    assert kg.countries == {"Iran", "China"}
    assert countries_of(frozenset({"Iran", "Police_(Iran)"})) == frozenset()


def test_count_days_and_entities(kg):
    alice_2008 = {"head": "Alice", "window": YEAR_2008, "ask": "number"}
    days = gold(kg, "count", count="days", **alice_2008)
    assert days["answers"] == ["3"] and days["answer_type"] == "number" and not days["is_list"]
    assert gold(kg, "count", count="entities", asked="tail", **alice_2008)["answers"] == ["2"]  # Iran, China
    assert gold(kg, "count", ask="number", count="days", head="Bob", tail="Iran")["answers"] == ["0"]


def test_visit_and_host_are_one_event(kg):
    assert gold(kg, "list", asked="head", tail="China")["answers"] == ["Alice"]
    hosts = gold(kg, "list", asked="head", tail="Alice", relations=["Host_a_visit"], window=YEAR_2008, list=True)
    assert hosts["answers"] == ["China", "Iran"] and hosts["is_list"]


def test_symmetric_relations_hold_both_ways_others_do_not(kg):
    def yes(head, relation, tail):
        return gold(kg, "yesno", ask="yesno", head=head, tail=tail, relations=[relation])["answers"]

    assert yes("Alice", "Consult", "Bob") == ["Yes"] and yes("Bob", "Consult", "Alice") == ["Yes"]
    assert yes("Alice", "Criticize_or_denounce", "Bob") == ["Yes"]
    assert yes("Bob", "Criticize_or_denounce", "Alice") == ["No"]


def test_window_inclusive_after_and_before_exclusive(kg):
    count = {"ask": "number", "count": "days", "head": "Alice"}
    assert gold(kg, "window", window={"from": "2008-01-05", "to": "2008-03-10"}, **count)["answers"] == ["2"]
    assert gold(kg, "window", after="2008-01-05", before="2009-02-02", **count)["answers"] == ["2"]
    assert gold(kg, "window", after="2008-01-05", **count)["answers"] == ["3"]


def test_reference_event_counts_from_its_first_day(kg):
    after_china = {"head": "Alice", "relation": "Make_a_visit", "tail": "China", "direction": "after"}
    assert gold(kg, "list", head="Alice", asked="tail", reference=after_china)["answers"] == ["China", "Iran", "Kenya"]
    before_kenya = {"head": "Alice", "relation": "Make_a_visit", "tail": "Kenya", "direction": "before"}
    assert gold(kg, "list", head="Alice", asked="tail", reference=before_kenya)["answers"] == ["China", "Iran"]


def test_nth_from_start_and_end(kg):
    alice = {"head": "Alice", "asked": "tail"}
    assert gold(kg, "nth", ordinal={"n": 2, "from": "start"}, **alice)["answers"] == ["China"]
    assert gold(kg, "nth", ordinal={"n": 1, "from": "start"}, **alice)["answers"] == ["China", "Iran"]  # same day
    assert gold(kg, "nth", ordinal={"n": 1, "from": "end"}, **alice)["answers"] == ["Kenya"]
    third = compute_golds([("w0_dev.json", [record("nth", {"ordinal": {"n": 3, "from": "start"}, **alice})])], kg)
    assert third.records[0]["answers"] == ["Iran"]  # the third day; Iran was visited on the first already
    assert [p.code for p in third.problems] == ["warning_nth_day_entity_seen_before"]
    month = gold(kg, "nth", ask="time", head="Alice", tail="China", granularity="month", ordinal={"n": 2, "from": "start"})
    assert month["answers"] == ["2008-03"] and month["answer_type"] == "time" and month["time_level"] == "month"


def test_time_ask_gives_every_matching_period(kg):
    assert gold(kg, "window", ask="time", head="Alice", tail="China", granularity="day")["answers"] == ["2008-01-05", "2008-03-10"]
    assert gold(kg, "window", ask="time", head="Alice", tail="Iran", granularity="year")["answers"] == ["2008"]
    years = {"ask": "time", "head": "Alice", "granularity": "year"}  # 2008: three days of visits, 2009: one
    assert gold(kg, "most", extreme="most", **years)["answers"] == ["2008"]
    assert gold(kg, "most", extreme="least", **years)["answers"] == ["2009"]


def test_most_answers_every_tie_and_least_the_fewest(kg):
    alice = {"head": "Alice", "asked": "tail"}
    assert gold(kg, "most", extreme="most", window=YEAR_2008, **alice)["answers"] == ["China", "Iran"]
    assert gold(kg, "most", extreme="least", **alice)["answers"] == ["Kenya"]


def test_list_with_entity_type_and_except(kg):
    which = {"head": "Alice", "asked": "tail", "list": True, "entity_type": "country"}
    assert gold(kg, "list", **which)["answers"] == ["China", "Iran"]  # Kenya is no country here
    assert gold(kg, "list", **{**which, "except": ["China"]})["answers"] == ["Iran"]


def test_relations_either_direction_in_display_form(kg):
    between = gold(kg, "relations", ask="relation", head="Bob", tail="Alice", relations=[])
    assert between["answers"] == ["Consult", "Criticize or denounce"] and between["answer_type"] == "relation"
    assert between["is_list"]
    china = gold(kg, "relations", ask="relation", head="Alice", tail="China", relations=[], window={"from": "2008-02-01", "to": "2008-12-31"})
    assert china["answers"] == ["Host a visit"]  # the KG states that visit from China's side


def test_unanswerable_is_to_abstain(kg):
    golds = compute_golds([("w0_dev.json", [record("unanswerable", None, missing="a place")])], kg)
    (out,) = golds.records
    assert out["abstain"] and out["answers"] == [] and out["answer_type"] == "none" and not golds.problems


def test_bad_specs_are_reported_and_skipped(kg):
    records = [
        record("list", {"head": "Alicia", "asked": "tail"}, rid="unknown-name"),
        record("list", {"head": "Alice", "asked": "tail", "relations": ["Visit"]}, rid="unknown-relation"),
        {"id": "no-spec", "shape": "list", "question": "Who?"},
        record("list", {"head": "Bob", "asked": "tail"}, rid="empty"),
        record("count", {"head": "Alice", "asked": "tail"}, rid="mismatch"),
        record("list", {"head": ["Alice"], "asked": "tail"}, rid="malformed"),
        record("list", {"head": "Alice", "asked": "tail"}, rid="ok"),
        record("list", {"head": "Alice", "asked": "tail"}, rid="ok"),
    ]
    golds = compute_golds([("w0_dev.json", records[:4]), ("w0_held.json", records[4:])], kg)
    assert [r["id"] for r in golds.records] == ["ok"]
    assert [(p.record_id, p.code) for p in golds.problems] == [
        ("unknown-name", "unknown_entity"), ("unknown-relation", "unknown_relation"), ("no-spec", "missing_field"),
        ("empty", "empty_gold"), ("mismatch", "shape_ask_mismatch"), ("malformed", "malformed"), ("ok", "duplicate_id"),
    ]
    lines = [p.line() for p in golds.problems]
    assert lines[0] == "w0_dev.json\tunknown-name\tunknown_entity\tAlicia"
    assert lines[4] == "w0_held.json\tmismatch\tshape_ask_mismatch"  # held files: id and code only


def test_command_writes_golds_and_the_loader_reads_them(kg, tmp_path):
    kg_path = tmp_path / "full.txt"
    kg_path.write_text("\n".join("\t".join(f) for f in FACTS) + "\n", encoding="utf-8")
    specs = [record("count", {"ask": "number", "count": "days", "head": "Alice"}, rid="c1"),
             record("list", {"head": "Alice", "asked": "tail", "list": True}, rid="l1"),
             record("unanswerable", None, rid="u1", missing="a reason")]
    source = tmp_path / "w0_dev.json"
    source.write_text(json.dumps(specs), encoding="utf-8")
    out = tmp_path / "shapes" / "dev.json"
    assert main(["--kg", str(kg_path), "--in", str(source), "--out", str(out), "--report", str(tmp_path / "v.txt")]) == 0
    first = out.read_text(encoding="utf-8")
    main(["--kg", str(kg_path), "--in", str(source), "--out", str(out)])
    assert out.read_text(encoding="utf-8") == first  # deterministic
    written = (tmp_path / "v.txt").read_text(encoding="utf-8")
    assert "left out 0 records: none; warnings 0: none\nkept 3 records; per shape: count 1, list 1, unanswerable 1\nper writer: w0 3" in written
    loader = get_loader("shapes")
    count, listed, unanswerable = loader.load(loader.split_path(out.parent, "dev")).questions
    assert (count.qid, count.answers, count.answer_type, count.qtype) == ("c1", ["4"], "number", "count")
    assert listed.answers == ["China", "Iran", "Kenya"] and listed.extra["is_list"] and listed.answerable
    assert not unanswerable.answerable and unanswerable.extra["shape"] == "unanswerable"
