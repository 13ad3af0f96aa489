"""A question means what it says: "who was the last to criticise Kenya before Japan did" refers to
Japan criticising Kenya, whatever direction a benchmark's gold follows. On a small KG ingested here,
where the reversed reading (who last criticised Japan before Kenya did) has another answer, the
agent follows the wording even when its memory ranks the reversed program first, the answer check
rejects the reversed answer, and a question whose referred event never happened is abstained on,
naming that event."""

from __future__ import annotations

import pytest
from bench_support import build_store

from actions.programs import Program
from agents.agent import Agent
from agents.analysis.analyzer import QuestionAnalyzer
from agents.faithfulness import check_answers
from ari.base.config import AgentConfig
from ari.base.embedding import get_embedder
from memory import Memory
from memory.trace import StepRecord, Trace
from tkg_store.store import TKGStore

CRITICIZE = "Criticize_or_denounce"
FACTS = [
    ("Barack_Obama", CRITICIZE, "Kenya", "2009-12-01"),  # so the reversed reading's answer criticised Kenya too
    ("Jack_Straw", CRITICIZE, "Kenya", "2010-01-05"),
    ("Tony_Blair", CRITICIZE, "Kenya", "2010-02-10"),  # the last before Japan did
    ("Japan", CRITICIZE, "Kenya", "2010-03-01"),  # the event "before Japan did" refers to
    ("Angela_Merkel", CRITICIZE, "Kenya", "2010-06-01"),
    ("John_Kerry", CRITICIZE, "Japan", "2010-04-01"),
    ("Barack_Obama", CRITICIZE, "Japan", "2010-04-20"),  # the last to criticise Japan before Kenya did
    ("Kenya", CRITICIZE, "Japan", "2010-05-01"),  # the reversed reading's event
    ("Kenya", CRITICIZE, "Ghana", "2010-07-01"),  # Ghana never criticised Kenya
    ("Barack_Obama", "Make_a_visit", "Kenya", "2009-01-12"),
    ("Angela_Merkel", "Make_a_visit", "Kenya", "2010-06-15"),
    ("Barack_Obama", "Make_a_visit", "Kenya", "2011-02-03"),
]
WORDED = "getTime(E2, R, E1) -> getHeadEntity(E1, R) -> getBefore(#2, #1) -> getLast(#3) -> answer(#4)"
REVERSED = "getTime(E1, R, E2) -> getHeadEntity(E2, R) -> getBefore(#2, #1) -> getLast(#3) -> answer(#4)"
BEFORE_JAPAN = "Who was the last to criticize Kenya before Japan did?"
BEFORE_GHANA = "Who was the last to criticize Kenya before Ghana did?"
BEFORE_JAPAN_IN_2011 = "Who was the last to criticize Kenya before Japan did in 2011?"


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with TKGStore.open(build_store(tmp_path_factory.mktemp("direction") / "kg.duckdb", FACTS)) as opened:
        yield opened


@pytest.fixture(scope="module")
def analyzer(store):
    return QuestionAnalyzer(store, get_embedder(), use_default_lexicon=False)


def trace(program: str, outcome: str) -> Trace:
    texts = Program.parse(program).texts
    steps = [StepRecord(i, [s], s, s, 2) for i, s in enumerate(texts, 1)]
    masked = "Who was the last to criticize {E1} before {E2} did?"
    return Trace(masked, masked, steps, ["x"], outcome=outcome, qtype="before_last")


@pytest.fixture(scope="module")
def memory(tmp_path_factory):
    """A memory whose one methodology ranks the reversed program first (as one learned from golds
    that follow it would)."""
    with Memory.open(tmp_path_factory.mktemp("memory") / "m.sqlite", embedder=get_embedder()) as mem:
        mem.history.add_traces([trace(REVERSED, "correct")] * 5 + [trace(WORDED, "correct")] * 3)
        mem.learn(n_clusters=1)
        yield mem


@pytest.fixture(scope="module")
def results(store, memory) -> dict:
    agent = Agent(store, memory, AgentConfig(decider="offline"))
    questions = [BEFORE_JAPAN, BEFORE_GHANA, BEFORE_JAPAN_IN_2011]
    return dict(zip(questions, agent.ask_many(questions)))


def test_the_memory_ranks_the_reversed_program_first(memory):
    programs = [p.program.render() for p in memory.match(BEFORE_JAPAN).programs]
    assert programs.index(REVERSED) < programs.index(WORDED)


def test_before_last_follows_the_wording_not_the_reversed_program(results):
    result = results[BEFORE_JAPAN]
    assert not result.abstained, result.reason
    assert result.answers == ["Tony Blair"]  # the reversed program's answer is Barack Obama
    assert [s.abstract for s in result.steps] == list(Program.parse(WORDED).texts)


def test_a_referred_event_that_never_happened_is_abstained_on_naming_it(results):
    result = results[BEFORE_GHANA]
    assert result.abstained and result.answers == []
    assert result.reason == "the event the question refers to is not in the KG: no fact states that Ghana Criticize or denounce Kenya"
    assert "Kenya Criticize or denounce Ghana on 2010-07-01" in result.evidence  # the reversed event is what exists


def test_a_stated_time_dates_the_referred_event(results, analyzer, store):
    result = results[BEFORE_JAPAN_IN_2011]
    assert result.abstained and result.reason.endswith("no fact states that Japan Criticize or denounce Kenya in 2011")
    in_2010 = analyzer.analyze("Who was the last to criticize Kenya before Japan did in 2010?")
    assert check_answers(store, in_2010, ["Tony Blair", "Jack Straw"], analyzer.relation_linker.plausible).answers == ["Tony Blair"]


def test_the_answer_check_rejects_the_reversed_reading(analyzer, store):
    plausible = analyzer.relation_linker.plausible
    before = analyzer.analyze(BEFORE_JAPAN)
    assert check_answers(store, before, ["Barack Obama", "Tony Blair"], plausible).answers == ["Tony Blair"]
    assert check_answers(store, before, ["Jack Straw"], plausible).answers == []  # not the last
    after = analyzer.analyze("Who was the first to criticize Kenya after Japan did?")
    assert check_answers(store, after, ["Angela Merkel"], plausible).answers == ["Angela Merkel"]
    verdict = check_answers(store, after, ["Kenya"], plausible)  # the reversed reading: none criticised Japan after Kenya did
    assert verdict.answers == [] and verdict.reason is not None and verdict.reason.startswith("no fact of")


def test_a_time_answer_is_dated_by_the_other_partys_event(analyzer, store):
    when = analyzer.analyze("When did Barack Obama visit Kenya after Angela Merkel did?")
    verdict = check_answers(store, when, ["2009-01-12", "2011-02-03"], analyzer.relation_linker.plausible)
    assert verdict.answers == ["2011-02-03"]  # Angela Merkel visited Kenya on 2010-06-15


def test_the_benchmark_measures_the_faithful_reading_against_both_reversals():
    from benchmarks.reference_direction import programs

    readings = programs("before_last", answer_is_head=True)
    assert readings["faithful"].render() == WORDED and readings["roles_reversed"].render() == REVERSED
    assert readings["direction_reversed"].render().startswith("getTime(E1, R, E2) -> getTailEntity(E1, R)")
    assert readings["faithful"].consistent_references and not readings["roles_reversed"].consistent_references
    # the direction reversed keeps the entities' relative places: only the clause role tells it apart
    assert readings["direction_reversed"].consistent_references
