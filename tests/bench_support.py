"""A tiny real KG and a real brute-force solver over it, shared by the benchmark tests."""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tkg_store.ingest import ingest
from tkg_store.store import TKGStore
from tkg_store.temporal import format_time, parse_time

FACTS = [
    ("Jack_Straw", "Make_a_visit", "China", "2005-03-14"),
    ("Barack_Obama", "Make_a_visit", "China", "2009-11-15"),
    ("Angela_Merkel", "Make_a_visit", "China", "2009-11-20"),
    ("Jack_Straw", "Make_a_visit", "Japan", "2006-01-02"),
    ("Barack_Obama", "Make_a_visit", "Kenya", "2006-08-26"),
    ("Angela_Merkel", "Make_a_visit", "Japan", "2010-05-01"),
    ("Police_(Kenya)", "Express_intent_to_meet_or_negotiate", "Kenya", "2007-02-02"),
]


def visit(who: str, where: str, day: str) -> list[tuple[str, str, str, str]]:
    """A visit as an event KG records it: from both sides."""
    return [(who, "Make_a_visit", where, day), (where, "Host_a_visit", who, day)]


def country_sectors(countries: tuple[str, ...], day: str) -> list[tuple[str, str, str, str]]:
    """Sectors named after their countries ("Military_(Iran)"): what makes those entities countries."""
    return [(f"{sector}_({country})", "Make_statement", country, day) for country in countries
            for sector in ("Military", "Police", "Citizen", "Government", "Media")]


def build_store(path: Path, facts: Sequence[tuple[str, ...]] = FACTS) -> Path:
    """Write a tiny KG (by default this module's) through the real ingest (a TSV file of facts: head,
    relation, tail and a day, or a start and an end)."""
    tsv = path.with_suffix(".tsv")
    tsv.write_text("".join("\t".join(fact) + "\n" for fact in facts), encoding="utf-8")
    ingest("tsv", tsv, path)
    return path


def linker_over(path: Path, facts: list[tuple[str, str, str, str]]):  # noqa: ANN201 - an iterator of EntityLinker
    """The real entity linker over a tiny KG of `facts` written at `path` (for a module fixture to yield from)."""
    from agents.analysis.entities import EntityLinker
    from ari.base.embedding import get_embedder

    with TKGStore.open(build_store(path, facts)) as store:
        yield EntityLinker(store, get_embedder())


def analyzer_over(path: Path, facts: list[tuple[str, str, str, str]], embedder=None):  # noqa: ANN001, ANN201 - Embedder | None; an iterator of QuestionAnalyzer
    """The real question analyzer (without the default relation lexicon) over a tiny KG of `facts`
    written at `path` (for a module fixture to yield from)."""
    from agents.analysis.analyzer import QuestionAnalyzer

    with TKGStore.open(build_store(path, facts)) as store:
        yield QuestionAnalyzer(store, embedder, use_default_lexicon=False)


def generated_agent_over(folder: Path, facts: Sequence[tuple[str, ...]], per_shape: int = 40):  # noqa: ANN201 - an iterator of Agent
    """The offline agent over a tiny KG of `facts` written in `folder`, with a memory learned from the questions the KG
    asks itself (no labelled question), for a module fixture to yield from."""
    from agents.agent import Agent
    from agents.learning import learn_generated
    from memory import Memory

    db = build_store(folder / "kg.duckdb", facts)
    learn_generated(db, str(folder / "memory.sqlite"), per_shape, n_clusters=4, quiet=True)
    with TKGStore.open(db) as store, Memory.open(folder / "memory.sqlite", read_only=True) as memory:
        yield Agent(store, memory)


def linked(analyzer, question: str) -> list[str | None]:  # noqa: ANN001 - a QuestionAnalyzer
    """The KG name each entity mention of `question` is linked to (None: unlinked), in order."""
    return [m.best for m in analyzer.analyze(question).entities]


QUESTIONS = [
    # (quid, text, answers, answer_type, time_level, qtype, qlabel)
    (1, "Who visited China in November 2009?", ["Barack Obama", "Angela Merkel"], "entity", "month", "equal", "Single"),
    (2, "Who visited Japan in 2006?", ["Jack Straw"], "entity", "year", "equal", "Single"),
    (3, "When did Jack Straw first visit China?", ["2005-03-14"], "time", "day", "first_last", "Single"),
    (4, "When did Angela Merkel first visit Japan?", ["2010-05"], "time", "month", "first_last", "Single"),
    (5, "When did Barack Obama first visit Kenya?", ["2006"], "time", "year", "first_last", "Single"),
    (6, "Who visited Kenya in 2006?", ["Barack Obama"], "entity", "year", "equal", "Single"),
    (7, "Who visited Japan in 2010?", ["Angela Merkel"], "entity", "year", "equal", "Multiple"),
    (8, "When did Barack Obama first visit China?", ["2009-11-15"], "time", "day", "first_last", "Multiple"),
    (9, "Who visited Kenya in 2012?", [], "entity", "year", "equal", "Single"),
]


def question_records() -> list[dict]:
    keys = ("quid", "question", "answers", "answer_type", "time_level", "qtype", "qlabel")
    return [dict(zip(keys, q)) for q in QUESTIONS]


@dataclass
class Answer:
    answer: str | None
    answers: list[str]
    abstained: bool
    reason: str | None = None
    steps: list = field(default_factory=list)
    llm_calls: int = 0
    tokens: int = 0
    elapsed_s: float = 0.0


_WHO = re.compile(r"^Who visited (?P<tail>.+) in (?P<time>[\w ]+)\?$")
_WHEN = re.compile(r"^When did (?P<head>.+) first visit (?P<tail>.+)\?$")
_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]


class BruteForceSolver:
    """Answers the two question shapes of QUESTIONS by scanning the store; abstains otherwise."""

    def __init__(self, db: Path, fail_after: int | None = None, delay_s: float = 0.0) -> None:
        self.store = TKGStore.open(db)
        self.fail_after = fail_after
        self.delay_s = delay_s
        self.asked: list[str] = []

    def __call__(self, questions: list[str]) -> list[Answer]:
        results = []
        for text in questions:
            if self.fail_after is not None and len(self.asked) >= self.fail_after:
                raise RuntimeError("solver crashed (simulated)")
            self.asked.append(text)
            time.sleep(self.delay_s)
            results.append(self.solve(text))
        return results

    def solve(self, text: str) -> Answer:
        if match := _WHO.match(text):
            tail = self._entity(match["tail"])
            when = match["time"].split()
            stamp = when[-1] if len(when) == 1 else f"{when[-1]}-{_MONTHS.index(when[0]) + 1:02d}"
            facts = self.store.facts(relation="Make_a_visit", tail=tail, within=parse_time(stamp)) if tail else []
            names = [self.store.display(f.head) for f in facts]
            if not names:
                return Answer(None, [], True, "no such visit in the KG", steps=["getHeadEntity(E1, R, T)"])
            return Answer(names[0], names, False, steps=["getHeadEntity(E1, R, T)", "answer(#1)"])
        if match := _WHEN.match(text):
            head, tail = self._entity(match["head"]), self._entity(match["tail"])
            facts = self.store.facts(head=head, relation="Make_a_visit", tail=tail) if head and tail else []
            if not facts:
                return Answer(None, [], True, "no such visit", steps=["getTime(E1, R, E2)"])
            day = format_time(facts[0].start, parse_time("2000-01-01").granularity)
            return Answer(day, [day], False, steps=["getTime(E1, R, E2)", "getFirst(#1)", "answer(#2)"])
        return Answer(None, [], True, "question shape not understood")

    def _entity(self, text: str) -> str | None:
        found = self.store.find_entities(text, limit=1)
        return found[0] if found else None


@dataclass(frozen=True)
class BruteForceFactory:
    """Picklable: builds the solver inside each worker process."""

    db: str
    fail_after: int | None = None
    delay_s: float = 0.0

    def __call__(self) -> BruteForceSolver:
        return BruteForceSolver(Path(self.db), self.fail_after, self.delay_s)
