"""A memory from the KG alone, for MultiTQ's six shapes: a small real KG written here, `ari memory
learn --generate` with no labelled question, then questions of those shapes answered as people word
them, each gold read off this file's facts by hand."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.bench_support import build_store, country_sectors, visit

SIX = ("equal", "before_after", "first_last", "equal_multi", "after_first", "before_last")

FACTS = [
    *visit("Jack_Straw", "Iran", "2008-01-05"),
    *visit("Barack_Obama", "Iran", "2008-02-02"),
    *visit("Jack_Straw", "Iran", "2008-03-10"),
    *visit("Nicolas_Sarkozy", "Iran", "2008-03-12"),
    *visit("Angela_Merkel", "Iran", "2008-04-04"),
    *visit("Kevin_Rudd", "Iran", "2008-05-20"),
    *visit("Angela_Merkel", "Iran", "2008-06-05"),
    *visit("Jack_Straw", "Japan", "2008-06-01"),
    *visit("Barack_Obama", "Japan", "2009-06-01"),
    *visit("Kevin_Rudd", "Japan", "2009-07-01"),
    *visit("Nicolas_Sarkozy", "China", "2009-09-09"),
    ("Iran", "Criticize_or_denounce", "Iraq", "2008-02-10"),
    ("Japan", "Criticize_or_denounce", "Iraq", "2008-03-03"),
    ("China", "Criticize_or_denounce", "Iraq", "2008-03-04"),
    ("Iran", "Criticize_or_denounce", "Iraq", "2008-08-01"),
    ("China", "Criticize_or_denounce", "Japan", "2009-01-15"),
    ("Iran", "Criticize_or_denounce", "Japan", "2009-02-20"),
    ("Barack_Obama", "Praise_or_endorse", "Japan", "2009-06-02"),
    ("Kevin_Rudd", "Praise_or_endorse", "Japan", "2009-07-03"),
    *country_sectors(("Iran", "Iraq", "Japan", "China"), "2009-01-01"),
]

# (question, its shape, the answers any of which is right), read off FACTS by hand
QUESTIONS = [
    ("Who criticised Iraq on 3 March 2008?", "equal", {"Japan"}),
    ("Who criticized Iraq before China did?", "before_after", {"Iran", "Japan"}),
    ("When did Jack Straw first visit Iran?", "first_last", {"2008-01-05"}),
    ("In which month did Angela Merkel last visit Iran?", "first_last", {"2008-06"}),
    ("Who visited Japan in the same year as Barack Obama?", "equal_multi", {"Kevin Rudd"}),
    ("Who was the first to visit Iran after Barack Obama?", "after_first", {"Jack Straw"}),
    ("Who was the last to visit Iran before Angela Merkel?", "before_last", {"Nicolas Sarkozy"}),
]


@pytest.fixture(scope="module")
def learnt(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The KG and the memory `ari memory learn --generate` builds from it alone (the README's command)."""
    folder = tmp_path_factory.mktemp("kg_memory")
    db = build_store(folder / "kg.duckdb", FACTS)
    memory = folder / "memory.sqlite"
    done = subprocess.run(
        [sys.executable, "-m", "ari", "memory", "learn", "--generate", "30", "--clusters", "8", "--db", str(db), "--memory", str(memory), "--quiet"],
        capture_output=True, text=True, timeout=600, env={**os.environ, "ARI_DATA": ""},
    )
    assert done.returncode == 0, done.stderr
    return db, memory


@pytest.fixture(scope="module")
def agent(learnt: tuple[Path, Path]) -> Iterator:
    from agents.agent import Agent
    from memory import Memory
    from tkg_store.store import TKGStore

    db, memory = learnt
    with TKGStore.open(db) as store, Memory.open(memory, read_only=True) as mem:
        yield Agent(store, mem)


def test_the_memory_holds_a_methodology_for_each_of_the_six_shapes(learnt: tuple[Path, Path]) -> None:
    from agents.generate import BLUEPRINTS
    from memory import Memory

    with Memory.open(learnt[1], read_only=True) as mem:
        induced = {stat.program.render() for cluster, m in mem.methodologies().items() if cluster >= 0 for stat in m.programs}
        qtypes = mem.history.stats()["qtypes"]
    for shape in SIX:
        own = {b.program for b in BLUEPRINTS if b.shape == shape}
        assert own & induced, f"no methodology holds a program of {shape}"
        assert qtypes.get(shape, 0) > 0


@pytest.mark.parametrize(("question", "shape", "gold"), QUESTIONS, ids=[q[1] for q in QUESTIONS])
def test_a_question_of_each_shape_is_answered_from_the_kg_only_memory(agent, question: str, shape: str, gold: set[str]) -> None:  # noqa: ANN001
    result = agent.ask(question)
    assert not result.abstained, result.reason
    assert result.answers[0] in gold, (shape, result.answers)


def test_ari_ask_answers_with_the_generated_memory(learnt: tuple[Path, Path]) -> None:
    db, memory = learnt
    asked = subprocess.run(
        [sys.executable, "-m", "ari", "ask", "Who was the last to visit Iran before Angela Merkel?", "--db", str(db), "--memory", str(memory), "--json", "--no-record"],
        capture_output=True, text=True, timeout=300,
    )
    assert asked.returncode == 0, asked.stderr
    assert '"answer": "Nicolas Sarkozy"' in asked.stdout


@pytest.mark.parametrize(
    ("name", "base", "past"),
    [
        ("Criticize_or_denounce", "criticize or denounce", "criticized or denounced"),
        ("Make_a_visit", "make a visit", "made a visit"),
        ("Abduct,_hijack,_or_take_hostage", "abduct, hijack, or take hostage", "abducted, hijacked, or took hostage"),
        ("Accuse_of_crime,_corruption", "accuse of crime, corruption", "accused of crime, corruption"),
        ("Express_intent_to_meet_or_negotiate", "express intent to meet or negotiate", "expressed intent to meet or negotiate"),
        ("Physically_assault", "physically assault", "physically assaulted"),
        ("Ban_political_parties", "ban political parties", "banned political parties"),
        ("Occupy_territory", "occupy territory", "occupied territory"),
        ("worksAt", "work at", "worked at"),
        ("position held", "have position held", "had position held"),
    ],
)
def test_a_relation_name_is_made_into_english(name: str, base: str, past: str) -> None:
    from agents.relation_wording import kg_verbs, relation_wording

    verbs = kg_verbs(["Criticize_or_denounce", "Make_a_visit", "Accuse_of_crime,_corruption", "Express_intent_to_meet_or_negotiate"])
    wording = relation_wording(name, verbs)
    assert (wording.base, wording.past) == (base, past)


def test_each_family_of_blueprints_has_its_own_quota_and_draws(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A new way of asking a shape (a family of blueprints) adds its questions and changes none of
    the other families': a memory regenerated for it keeps what it held for the older ones."""
    from dataclasses import replace

    from agents import generate as made_here
    from tkg_store.store import TKGStore

    with TKGStore.open(build_store(tmp_path / "kg.duckdb", FACTS)) as store:
        def questions() -> dict[str, list[tuple[str, str]]]:
            out: dict[str, list[tuple[str, str]]] = {}
            for g in made_here.generate(store, 12, seed=0, shapes=("count",)):
                out.setdefault(g.program.render(), []).append((g.gold.text, g.gold.answers[0]))
            return out

        before = questions()
        added = replace(made_here.BLUEPRINTS[0], shape="count", family="added", answer_type="number", first="head",
                        program="getTime(E1, R, E2) -> count(#1, days) -> answer(#2)", wordings=("How many times ever did {h} {r} {t}?",))
        monkeypatch.setattr(made_here, "BLUEPRINTS", (added, *made_here.BLUEPRINTS))
        after = questions()
    assert after.pop(added.program) and after == before
