"""A time read through one of a country's sectors, where the KG names the country only by its sectors and several of
them did the act, is a guess: it is refused, with the facts found (`agents.judge.contested_sector`). A time asked of
an act done several times is not refused: any of its times answers it. A tiny KG of our own, through the real
ingest; the end-to-end questions go through the offline agent with a memory learned from the KG alone."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from actions.query import Query
from actions.templates import GetTailEntity, GetTime
from agents.analysis.types import EntityMention, QuestionAnalysis
from agents.judge import contested_sector, sector_readings
from tests.bench_support import build_store, generated_agent_over, visit
from tkg_store.store import TKGStore

# Chile is no entity of this KG: it names only its sectors, two of which visited Peru, each at its own time
SECTORS = [(f"{s}_(Chile)", "Make_statement", "Bolivia", "2004-02-02") for s in ("Military", "Police", "Citizen", "Government", "Media")]
FACTS = [
    *visit("Kazuo_Sato", "Peru", "2006-03-01"), *visit("Kazuo_Sato", "Peru", "2008-05-02"), *visit("Kazuo_Sato", "Peru", "2011-07-03"),
    *visit("Lena_Berg", "Peru", "2009-02-02"),
    *SECTORS, *visit("Military_(Chile)", "Peru", "2007-01-01"), *visit("Police_(Chile)", "Peru", "2010-01-01"),
    ("Government_(Chile)", "Criticize_or_denounce", "Bolivia", "2012-06-06"),
]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TKGStore]:
    with TKGStore.open(build_store(tmp_path_factory.mktemp("guesses") / "kg.duckdb", FACTS)) as opened:
        yield opened


def _asked_time(masked: str, *mentions: EntityMention) -> QuestionAnalysis:
    return QuestionAnalysis(masked, masked, entities=list(mentions), answer_type="time", query=Query())


@pytest.mark.parametrize(
    ("text", "candidates", "readings"),
    [
        ("Chile", [("Military_(Chile)", 0.5), ("Police_(Chile)", 0.5)], 2),  # the country only: either sector
        ("the Chileans", [("Citizen_(Chile)", 0.9), ("Military_(Chile)", 0.5)], 0),  # one reading leads
        ("Chilean soldiers", [("Military_(Chile)", 0.5), ("Military_Personnel_(Chile)", 0.5)], 0),  # the sector is said
        ("Peru", [("Peru", 1.0)], 0),
    ],
)
def test_a_name_read_as_any_of_its_sectors(text: str, candidates: list[tuple[str, float]], readings: int) -> None:
    assert len(sector_readings(EntityMention(text, (0, len(text)), candidates))) == readings


def test_a_time_read_through_one_of_several_acting_sectors_is_refused(store: TKGStore) -> None:
    chile = EntityMention("Chile", (9, 14), [("Military_(Chile)", 0.5), ("Police_(Chile)", 0.5), ("Government_(Chile)", 0.5)])
    peru = EntityMention("Peru", (21, 25), [("Peru", 1.0)])
    visited = _asked_time("When did {E1} visit {E2}?", chile, peru)
    reason = contested_sector(store, visited, [GetTime("Military_(Chile)", "Make_a_visit", "Peru")])
    assert reason is not None and "Military (Chile)" in reason and "Police (Chile)" in reason
    # only its government criticised Bolivia: the one reading the KG supports stands
    bolivia = EntityMention("Bolivia", (24, 31), [("Bolivia", 1.0)])
    criticised = _asked_time("When did {E1} criticise {E2}?", chile, bolivia)
    assert contested_sector(store, criticised, [GetTime("Government_(Chile)", "Criticize_or_denounce", "Bolivia")]) is None
    # an entity asked is left to the reading
    who = QuestionAnalysis("Whom did {E1} visit?", "Whom did {E1} visit?", entities=[chile])
    assert contested_sector(store, who, [GetTailEntity("Military_(Chile)", "Make_a_visit")]) is None


@pytest.fixture(scope="module")
def agent(tmp_path_factory: pytest.TempPathFactory) -> Iterator:
    yield from generated_agent_over(tmp_path_factory.mktemp("guesses_agent"), FACTS)


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("In which year did Kazuo Sato visit Peru?", ("2006", "2008", "2011")),  # three visits: each of them answers it
        ("When did Kazuo Sato first visit Peru?", ("2006-03-01",)),
        ("In which year did Lena Berg visit Peru?", ("2009",)),  # one visit
        ("In which year did Lena Berg pay a visit to Peru?", ("2009",)),
        ("In which year did Lena Burg visit Peru?", ("2009",)),  # a name misspelt: the one reading the KG supports
        ("When did Chile visit Peru?", None),  # its army and its police did, at their own times
    ],
)
def test_the_agent_refuses_a_time_read_through_one_of_several_sectors(agent, question: str, answer: tuple[str, ...] | None) -> None:  # noqa: ANN001 - Agent
    result = agent.ask(question)
    assert (result.answer is None if answer is None else result.answer in answer), (result.reason, result.answers)
    if answer is None:
        assert "only by its sectors" in (result.reason or "") and result.evidence
