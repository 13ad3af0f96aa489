"""YAGO11k end to end on a fixture the test writes in its format (facts_named.tsv: YAGO ids in angle
brackets, `head relation tail start end split`, open ends empty): the ingest strips the brackets and
keeps the underscores, and a memory learned from questions about some players answers first / last
/ in-a-year questions about the others, golds computed here by brute force."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from tkg_store.ingest import ingest
from tkg_store.ingest.yago11k import relation_text, strip_brackets
from tkg_store.store import TKGStore

FIRST = "Anna Boris Carla Dmitri Elena Felix Greta Hugo Irene Jonas Kira Lukas Mira Nils Olga Pavel Rosa Sven Tanja Viktor".split()
LAST = "Albrecht Brenner Castell".split()
CLUBS = [f"{town}_F.C." for town in "Aldbury Brackwell Cresting Dunmore Elmstead Fallowby Garston Hexley".split()]
PRIZES = [f"{kind}_Medal" for kind in "Copley Darwin Faraday Hughes Rumford".split()]


def _players() -> list[str]:
    return [f"{first}_{last}" for last in LAST for first in FIRST]


def fixture_rows(seed: int = 7) -> list[tuple[str, str, str, str, str]]:
    """(head, relation, tail, start, end) in YAGO's naming: every player plays for three or four clubs
    one after another (the last one sometimes open-ended), some win prizes; about 300 facts."""
    rng = random.Random(seed)
    rows = []
    for player in _players():
        year = rng.randrange(1980, 1995)
        clubs = rng.sample(CLUBS, rng.randrange(3, 5))
        for k, club in enumerate(clubs):
            end = year + rng.randrange(1, 5)
            open_end = k == len(clubs) - 1 and rng.random() < 0.3
            rows.append((player, "playsFor", club, str(year), "" if open_end else str(end)))
            year = end + 1
        for prize in rng.sample(PRIZES, rng.randrange(0, 3)):
            won = str(rng.randrange(1990, 2015))
            rows.append((player, "hasWonPrize", prize, won, won))
    return rows


def write_yago(folder: Path, rows: list[tuple[str, str, str, str, str]]) -> Path:
    lines = ["head\trelation\ttail\tstart\tend\tsplit"] + ["\t".join(f"<{v}>" for v in row[:3]) + f"\t{row[3]}\t{row[4]}\ttrain" for row in rows]
    (folder / "facts_named.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def _span(row: tuple[str, str, str, str, str]) -> tuple[int, float]:
    return int(row[3]), float(row[4]) if row[4] else float("inf")


def questions_about(player: str, rows: list, qid: int) -> list[dict]:
    """First / last club, the year of the first club, the club in a year, each with its brute-force gold."""
    name = player.replace("_", " ")
    clubs = sorted((r for r in rows if r[0] == player and r[1] == "playsFor"), key=_span)
    first, last = clubs[0], max(clubs, key=lambda r: (_span(r)[1], _span(r)[0]))
    middle = clubs[1]
    return [
        {"quid": qid, "question": f"Which club did {name} play for first?", "answers": [first[2]], "answer_type": "entity"},
        {"quid": qid + 1, "question": f"Which club did {name} play for last?", "answers": [last[2]], "answer_type": "entity"},
        {"quid": qid + 2, "question": f"When did {name} first play for {first[2].replace('_', ' ')}?", "answers": [first[3]],
         "answer_type": "time", "time_level": "year"},
        {"quid": qid + 3, "question": f"Which club did {name} play for in {middle[3]}?", "answers": [middle[2]], "answer_type": "entity"},
    ]


@pytest.fixture(scope="module")
def kg(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, list]]:
    folder = tmp_path_factory.mktemp("yago11k")
    rows = fixture_rows()
    ingest("yago11k", write_yago(folder, rows), folder / "kg.duckdb")
    yield folder / "kg.duckdb", rows


def test_ingest_strips_brackets_keeps_underscores_and_reads_open_ends(kg) -> None:  # noqa: ANN001
    db, rows = kg
    with TKGStore.open(db) as store:
        assert store.counts()["facts"] == len(rows) >= 200
        assert store.has_entity("Anna_Albrecht") and store.display("Anna_Albrecht") == "Anna Albrecht"
        assert store.relation_text("playsFor") == "plays for"
        open_ended = [r for r in rows if not r[4]]
        assert open_ended and all(f.end is None for r in open_ended for f in store.facts(r[0], r[1], r[2]))
    assert strip_brackets("<Frances_Howard_(actress)>") == "Frances_Howard_(actress)"
    assert relation_text("isMarriedTo") == "is married to"


def test_a_learned_memory_answers_first_last_and_in_a_year_about_unseen_players(kg, tmp_path: Path) -> None:  # noqa: ANN001
    from agents.agent import Agent
    from agents.learning import LearnSettings, learn
    from memory import Memory

    db, rows = kg
    players = _players()
    learning = [q for i, p in enumerate(players[:12]) for q in questions_about(p, rows, 100 * i)]
    held = [q for i, p in enumerate(players[40:], start=40) for q in questions_about(p, rows, 100 * i)]
    memory_path = tmp_path / "memory.sqlite"
    learn(db, str(memory_path), learning, settings=LearnSettings(search=True), workers=1, n_clusters=4, quiet=True)
    right: dict[int, int] = {}
    with TKGStore.open(db) as store, Memory.open(memory_path, read_only=True) as memory:
        agent = Agent(store, memory)
        for q in held:
            shape = q["quid"] % 100
            answers = agent.ask(q["question"]).answers
            right[shape] = right.get(shape, 0) + int(answers[:1] == [store.display(a) if q["answer_type"] == "entity" else a for a in q["answers"]][:1])
    per_shape = len(held) // 4
    assert all(right.get(shape, 0) >= 0.8 * per_shape for shape in range(4)), right
