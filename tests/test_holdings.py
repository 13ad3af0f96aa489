"""Before / after a holding that lasts asks for the holder just before / after ("who was chair before X"
is X's predecessor), read from the KG: on day points "who did it before X did" still asks for everyone.
Real stores through the real ingest, a memory `ari memory learn --generate` builds from the interval
KG alone, and golds read off this file's facts by hand."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from agents.analysis.analyzer import QuestionAnalyzer
from agents.holdings import nearest_holding
from ari.base.embedding import get_embedder
from tests.bench_support import build_store, visit
from tkg_store.ingest import POINT, ingest
from tkg_store.store import TKGStore

CHAIR = "Chair of the Audit Committee"
HOLDINGS = [  # (head, relation, tail, start, end): terms that last, as an interval KG states them
    ("Alice Grant", "position held", CHAIR, "1990", "1994"),
    ("Brian Hale", "position held", CHAIR, "1995", "1999"),
    ("Carla Diaz", "position held", CHAIR, "2000", "2004"),
    ("Dmitri Orlov", "position held", CHAIR, "2005", "2009"),
    ("Tom Reed", "member of sports team", "Leeds United", "1990", "1993"),
    ("Tom Reed", "member of sports team", "Hull City", "1994", "1996"),
    ("Tom Reed", "member of sports team", "Derby County", "1997", "1999"),
    ("Sam Cole", "member of sports team", "Hull City", "1990", "1992"),
    ("Dmitri Orlov", "member of political party", "Labour Party", "2000", "2010"),
]
VISITS = [*visit("Jack_Straw", "Iran", "2008-01-05"), *visit("Nicolas_Sarkozy", "Iran", "2008-03-12"), *visit("Angela_Merkel", "Iran", "2008-04-04")]


@pytest.fixture(scope="module")
def learnt(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The interval KG and the memory generated from it alone (no labelled question)."""
    folder = tmp_path_factory.mktemp("holdings")
    tsv = folder / "kg.tsv"
    tsv.write_text("".join("\t".join(row) + "\n" for row in HOLDINGS), encoding="utf-8")
    ingest("tsv", tsv, folder / "kg.duckdb", open_ends=POINT)
    memory = folder / "memory.sqlite"
    done = subprocess.run(
        [sys.executable, "-m", "ari", "memory", "learn", "--generate", "30", "--clusters", "6", "--db", str(folder / "kg.duckdb"),
         "--memory", str(memory), "--quiet"],
        capture_output=True, text=True, timeout=600, env={**os.environ, "ARI_DATA": ""},
    )
    assert done.returncode == 0, done.stderr
    return folder / "kg.duckdb", memory


@pytest.fixture(scope="module")
def agent(learnt: tuple[Path, Path]) -> Iterator:
    from agents.agent import Agent
    from memory import Memory

    db, memory = learnt
    with TKGStore.open(db) as store, Memory.open(memory, read_only=True) as mem:
        yield Agent(store, mem)


@pytest.mark.parametrize(("question", "gold"), [
    (f"Who was {CHAIR} before Carla Diaz?", "Brian Hale"),  # the predecessor, not every earlier chair
    (f"Who held the position of {CHAIR} after Brian Hale?", "Carla Diaz"),
    ("Which team did Tom Reed play for before Derby County?", "Hull City"),
    ("Which team did Tom Reed play for after Leeds United?", "Hull City"),
])
def test_before_or_after_a_lasting_holding_is_the_holder_just_before_or_after(agent, question: str, gold: str) -> None:  # noqa: ANN001
    result = agent.ask(question)
    assert result.answers == [gold], (result.answers, result.reason)


def test_the_reading_changes_only_where_the_reference_s_holding_lasts(learnt: tuple[Path, Path], tmp_path: Path) -> None:
    db, _ = learnt
    with TKGStore.open(db) as store:
        analysis = QuestionAnalyzer(store, get_embedder()).analyze(f"Who was {CHAIR} before Carla Diaz?")
        read = nearest_holding(store, analysis)
    assert (analysis.pattern, analysis.query.is_list) == ("before_after", True)
    assert (read.pattern, read.query.is_list, "last" in read.cues) == ("before_last", False, True)
    with TKGStore.open(build_store(tmp_path / "days.duckdb", VISITS)) as points:  # events of a day: everyone before
        analysis = QuestionAnalyzer(points, get_embedder()).analyze("Who visited Iran before Angela Merkel?")
        assert nearest_holding(points, analysis) == analysis


@pytest.mark.parametrize(("question", "masked"), [
    (f"What politician was the last {CHAIR}?", "Who was the last {E1}?"),  # no chair takes part in a party: the answer's kind
    ("What team did Tom Reed play for last?", "What team did {E1} play for last?"),  # he plays for teams: the act's word
])
def test_the_noun_a_question_word_asks_with_names_an_act_only_where_a_named_party_takes_part(learnt, question: str, masked: str) -> None:
    db, _ = learnt
    with TKGStore.open(db) as store:
        assert QuestionAnalyzer(store, get_embedder()).analyze(question).masked == masked


def test_what_politician_was_the_last_chair_is_answered(agent) -> None:  # noqa: ANN001
    assert agent.ask(f"What politician was the last {CHAIR}?").answers == ["Dmitri Orlov"]
