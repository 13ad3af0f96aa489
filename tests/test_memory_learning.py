"""Clustering + induction end to end on synthetic traces, matching, ablations, and learning from a
labelled question set. Uses the real bundled embedding model (loaded once per process)."""

from __future__ import annotations

import time

import numpy as np
import pytest

from ari.base.embedding import get_embedder
from ari.base.errors import UsageError
from memory import ALL_TRACES, HistoryStore, Memory
from memory.labels import hit
from memory.learn import GoldQuestion, in_order, learn_from_dataset, outcome
from memory.trace import StepRecord, Trace

# Three kinds of question, each with the program that solves it and one that fails on it.
KINDS = {
    "equal": (
        ["Who did {E1} %s in {T1}?" % v for v in ("criticise", "accuse", "condemn", "threaten")],
        ["getTailEntity(E1, R, T)", "answer(#1)"],
        ["getHeadEntity(E1, R, T)", "answer(#1)"],
    ),
    "first_last": (
        ["When did {E1} first %s {E2}?" % v for v in ("visit", "host", "travel to")],
        ["getTime(E1, R, E2)", "getFirst(#1)", "answer(#2)"],
        ["getTime(E1, R, E2)", "answer(#1)"],
    ),
    "before_last": (
        ["Who was the last to %s {E1} before {E2} did?" % v for v in ("praise", "endorse", "thank")],
        ["getTime(E2, R, E1)", "getHeadEntity(E1, R)", "getBefore(#2, #1)", "getLast(#3)", "answer(#4)"],
        ["getHeadEntity(E1, R)", "getLast(#1)", "answer(#2)"],
    ),
}
NEW_QUESTIONS = {
    "equal": "Who did {E1} denounce in {T1}?",
    "first_last": "When did {E1} first go to {E2}?",
    "before_last": "Who was the last to commend {E1} before {E2} did?",
}


def make_trace(masked: str, program: list[str], outcome: str, qtype: str) -> Trace:
    steps = [StepRecord(i, [s], s, s, 2) for i, s in enumerate(program, 1)]
    return Trace(masked.replace("{", "").replace("}", ""), masked, steps, ["x"], outcome=outcome, qtype=qtype)


def synthetic_traces() -> list[Trace]:
    traces = []
    for qtype, (questions, good, bad) in KINDS.items():
        for masked in questions:
            traces += [make_trace(masked, good, "correct", qtype)] * 3
            traces += [make_trace(masked, bad, "wrong", qtype)] * 2
    return traces


class CachingEmbedder:
    """The real bundled model, each distinct text embedded once per test module (tests repeat texts)."""

    def __init__(self, inner) -> None:  # noqa: ANN001
        self.inner, self.name, self.dim = inner, inner.name, inner.dim
        self.cache: dict[str, np.ndarray] = {}

    def embed_batch(self, texts: list[str]) -> np.ndarray:
        missing = [t for t in dict.fromkeys(texts) if t not in self.cache]
        if missing:
            self.cache.update(zip(missing, self.inner.embed_batch(missing)))
        return np.stack([self.cache[t] for t in texts]) if texts else np.zeros((0, self.dim), np.float32)


@pytest.fixture(scope="module")
def embedder():
    return CachingEmbedder(get_embedder())


@pytest.fixture(scope="module")
def learnt(tmp_path_factory, embedder):
    """One learnt memory shared by the read-only tests below."""
    memory = Memory.open(tmp_path_factory.mktemp("learnt") / "memory.sqlite", embedder=embedder)
    memory.history.add_traces(synthetic_traces())
    summary = memory.learn(n_clusters=3)
    yield memory, summary
    memory.close()


def test_three_kinds_give_three_clusters_with_their_program_and_pitfall(learnt):
    memory, summary = learnt
    assert (summary.version, summary.k, summary.traces) == (1, 3, 50)
    assert sorted(summary.sizes.values()) == [15, 15, 20]
    methodologies = memory.methodologies()
    for qtype, (questions, good, bad) in KINDS.items():
        [cluster] = {c for c in range(3) if all(t.qtype == qtype for t in memory.history.traces(cluster=c))
                     and memory.history.traces(cluster=c)}
        m = methodologies[cluster]
        assert list(m.programs[0].program.texts) == good and m.programs[0].support == 3 * len(questions)
        assert m.programs[0].success_rate == 1.0
        assert [list(p.program.texts) for p in m.pitfalls] == [bad]
        assert "Step-by-step Guide:" in m.text


def test_match_assigns_new_questions_to_their_kind(learnt, embedder):
    memory, _ = learnt
    for qtype, question in NEW_QUESTIONS.items():
        m = memory.match(question)
        assert m is not None and list(m.programs[0].program.texts) == KINDS[qtype][1], qtype
        precomputed = memory.match(question, embedding=embedder.embed_batch([memory.key(question)])[0])
        assert precomputed.cluster_id == m.cluster_id


def test_match_is_fast_with_precomputed_embeddings(learnt, embedder):
    memory, _ = learnt
    vectors = embedder.embed_batch([memory.key(q) for q in NEW_QUESTIONS.values()])
    memory.match("warm up", embedding=vectors[0])  # the first match loads centroids and methodologies
    started = time.perf_counter()
    for i in range(300):
        memory.match("q", embedding=vectors[i % 3])
    per_second = 300 / (time.perf_counter() - started)
    assert per_second > 1000, per_second
    batch = memory.match_many(["q"] * 3, embeddings=vectors)
    assert [list(m.programs[0].program.texts) for m in batch] == [KINDS[k][1] for k in NEW_QUESTIONS]


def test_without_clustering_one_methodology_from_all_traces(learnt, embedder):
    memory, _ = learnt
    flat = Memory(memory.history, embedder=embedder, use_clustering=False)
    matched = {flat.match(q).cluster_id for q in NEW_QUESTIONS.values()}
    assert matched == {ALL_TRACES}
    m = flat.match("anything")
    # 12 correct equal traces outrank 9 + 9 of the other kinds; between equals the shorter program first
    assert [list(p.program.texts) for p in m.programs] == [KINDS["equal"][1], KINDS["first_last"][1], KINDS["before_last"][1]]


def test_relearning_makes_a_new_version_and_clamps_k(tmp_path, embedder):
    with Memory.open(tmp_path / "m.sqlite", embedder=embedder) as memory:
        memory.history.add_traces(synthetic_traces())
        assert memory.learn(n_clusters=3).version == 1
        assert memory.match(NEW_QUESTIONS["equal"]).clustering_version == 1
        summary = memory.learn(n_clusters=50)
        assert summary.version == 2
        assert summary.k == 4  # four distinct question shapes ("travel to" keeps its "to")
        assert memory.match(NEW_QUESTIONS["equal"]).clustering_version == 2  # learn() refreshed the cache
        assert memory.history.stats()["clusterings"] == 2


def test_learning_with_an_llm_writes_llm_methodologies(tmp_path, embedder):
    prompts = []

    def complete(prompt: str) -> str:
        prompts.append(prompt)
        return "Overall Instruction:\nDo it.\n\nStep-by-step Guide:\n1. Step."

    with Memory.open(tmp_path / "m.sqlite", embedder=embedder) as memory:
        memory.history.add_traces(synthetic_traces())
        summary = memory.learn(n_clusters=3, complete=complete)
        assert summary.sources == {"llm": 4}  # three clusters and the all-traces one
        assert len(prompts) == 4
        assert memory.match(NEW_QUESTIONS["equal"]).text.startswith("Overall Instruction:\nDo it.")


def test_failing_llm_keeps_the_induced_methodology(tmp_path, embedder, capsys):
    def complete(prompt: str) -> str:
        raise TimeoutError("endpoint down")

    with Memory.open(tmp_path / "m.sqlite", embedder=embedder) as memory:
        memory.history.add_traces(synthetic_traces())
        assert memory.learn(n_clusters=3, complete=complete).sources == {"induced": 4}
    assert "endpoint down" in capsys.readouterr().err


def test_empty_memory_matches_nothing_and_cannot_learn(tmp_path, embedder):
    with Memory.open(tmp_path / "m.sqlite", embedder=embedder) as memory:
        assert memory.match("Who did {E1} visit?") is None
        with pytest.raises(UsageError, match="no traces to learn from"):
            memory.learn()
        with pytest.raises(UsageError, match="at least 1"):
            memory.learn(n_clusters=0)


def test_embedding_of_the_wrong_size_is_a_clear_error(learnt):
    memory, _ = learnt
    with pytest.raises(UsageError, match="384"):
        memory.match("q", embedding=np.zeros(10, dtype=np.float32))


# -- learning from a labelled set ---------------------------------------------------------------


def test_official_hit_rule():
    assert hit("Jack Straw", ["Jack Straw", "Iran"], "entity")
    assert hit("Jack_Straw", ["Jack Straw"], "entity")  # one rule with the benchmarks: underscores are spaces
    assert not hit("Jack Strawberry", ["Jack Straw"], "entity")
    assert hit("2005-11-03", ["2005-11"], "time")  # cut to the gold's granularity
    assert hit("2005-11", ["2005"], "time")
    assert not hit("2005", ["2005-11"], "time")  # a coarser prediction is not cut finer
    assert not hit("2006-01-01", ["2005"], "time")
    assert not hit("Iran", ["2005"], "time")


def test_outcome_rules():
    gold = GoldQuestion("1", "q", ["Iran"], "entity", "equal")
    assert outcome("Iran", False, gold) == "correct"
    assert outcome("Iraq", False, gold) == "wrong"
    assert outcome(None, True, gold) == "abstained"
    assert outcome("Iran_", False, gold, display=lambda s: s.rstrip("_")) == "correct"
    unanswerable = GoldQuestion("2", "q", [], "entity", "equal")
    assert outcome(None, True, unanswerable) == "correct"
    assert outcome("Iran", False, unanswerable) == "wrong"


class TableAgent:
    """A stand-in for the agent: answers from a fixed table and follows a fixed program."""

    def __init__(self, answers: dict[str, str | None]) -> None:
        self.answers = answers
        self.asked: list[str] = []

    def __call__(self, question: str) -> Trace:
        self.asked.append(question)
        answer = self.answers[question]
        program = KINDS["equal"][1]
        steps = [StepRecord(i, [s], s, s, 1) for i, s in enumerate(program, 1)]
        return Trace(question, "Who did {E1} criticise in {T1}?", steps if answer else [], [answer] if answer else [],
                     abstained=answer is None, qtype="analysed")


QUESTIONS = [
    {"quid": 1, "question": "Who did Iran criticise in 2005?", "answers": ["Iraq"], "answer_type": "entity",
     "time_level": "year", "qtype": "equal"},
    {"quid": 2, "question": "Who did Chad accuse in 2006?", "answers": ["Sudan"], "answer_type": "entity",
     "time_level": "year", "qtype": "equal"},
    {"quid": 3, "question": "When did Chad first visit Sudan?", "answers": ["2006-04"], "answer_type": "time",
     "time_level": "month", "qtype": "first_last"},
    {"quid": 4, "question": "Who did Togo condemn in 2007?", "answers": ["Ghana"], "answer_type": "entity",
     "time_level": "year", "qtype": "equal"},
]


def test_learn_from_dataset_labels_records_resumes_and_learns(tmp_path, embedder):
    agent = TableAgent({q["question"]: a for q, a in zip(QUESTIONS, ["Iraq", "Chad", "2006-04-12", None])})
    searched = []

    def search(gold: GoldQuestion) -> list[Trace]:
        searched.append(gold.qid)
        wrong = make_trace("Who did {E1} criticise in {T1}?", KINDS["equal"][2], "unset", "x")
        wrong.answers = ["Nobody"]
        right = make_trace("Who did {E1} criticise in {T1}?", KINDS["equal"][1], "unset", "x")
        right.answers = list(gold.answers)
        return [right, wrong]

    with Memory.open(tmp_path / "m.sqlite", embedder=embedder) as memory:
        report = learn_from_dataset(memory, QUESTIONS[:3], in_order(agent, search), settings="s",
                                    dataset="multitq", split="dev", n_clusters=2, quiet=True)
        assert (report.questions, report.correct, report.wrong, report.abstained) == (3, 2, 1, 0)
        assert (report.searched, report.searched_correct) == (6, 3)
        assert searched == ["1", "2", "3"]
        assert report.learnt is not None and report.learnt.traces == 9
        stored = memory.history.records()
        assert [r.trace.outcome for r in stored[:3]] == ["correct", "correct", "wrong"]
        assert stored[0].trace.qtype == "equal"  # the dataset's label over the analysed one
        assert {r.question_id for r in stored} == {"1", "2", "3"}

        # Resuming: the three recorded questions are skipped, the fourth is answered (abstained).
        again = learn_from_dataset(memory, QUESTIONS, in_order(agent), settings="s", dataset="multitq", split="dev",
                                   n_clusters=2, quiet=True)
        assert (again.skipped, again.questions, again.abstained) == (3, 1, 1)
        assert agent.asked.count(QUESTIONS[0]["question"]) == 1
        assert memory.history.count() == 10
        assert again.to_dict()["accuracy"] == 0.0


def test_learn_accepts_benchmark_question_objects(tmp_path, embedder):
    from benchmarks.loaders.types import Question

    q = Question(qid="7", text="Who did Iran criticise in 2005?", answers=["Iraq"], answer_type="entity", qtype="equal")
    agent = TableAgent({q.text: "Iraq"})
    with Memory.open(tmp_path / "m.sqlite", embedder=embedder) as memory:
        report = learn_from_dataset(memory, [q], in_order(agent), dataset="multitq", split="dev", cluster=False, quiet=True)
        assert report.correct == 1 and report.learnt is None
        assert memory.history.question_ids("multitq", "dev") == {"7"}


def test_learning_twice_with_the_same_settings_stores_each_question_once(tmp_path, embedder):
    agent = TableAgent({q["question"]: "Iraq" for q in QUESTIONS})
    with Memory.open(tmp_path / "m.sqlite", embedder=embedder) as memory:
        first = learn_from_dataset(memory, QUESTIONS + QUESTIONS[:1], in_order(agent), settings="agent=x",
                                   dataset="multitq", split="dev", cluster=False, quiet=True)
        assert (first.questions, first.skipped, memory.history.count()) == (4, 1, 4)  # a listed-twice id once
        again = learn_from_dataset(memory, QUESTIONS, in_order(agent), settings="agent=x",
                                   dataset="multitq", split="dev", cluster=False, quiet=True)
        assert (again.questions, again.skipped, memory.history.count()) == (0, 4, 4)
        # other settings (say, with the program search) record the questions again, once
        other = learn_from_dataset(memory, QUESTIONS, in_order(agent), settings="agent=x;search",
                                   dataset="multitq", split="dev", cluster=False, quiet=True)
        assert (other.questions, memory.history.count()) == (4, 8)


def test_a_question_recorded_by_a_concurrent_run_is_not_stored_again(tmp_path):
    with HistoryStore.open(tmp_path / "m.sqlite") as one, HistoryStore.open(tmp_path / "m.sqlite") as two:
        trace = Trace("q", "m", answers=["a"], outcome="correct")
        assert one.add_question_traces([trace], dataset="d", split="s", question_id="1", settings="k")
        assert not two.add_question_traces([trace, trace], dataset="d", split="s", question_id="1", settings="k")
        assert two.count() == 1 and two.learned_ids("d", "s", "k") == {"1"}


def test_questions_learnt_before_settings_were_kept_count_as_done(tmp_path):
    import sqlite3

    path = tmp_path / "old.sqlite"
    with HistoryStore.open(path) as store:
        store.add_traces([Trace("q", "m", outcome="correct")] * 2, dataset="d", split="s", question_ids=["1", "1"])
    raw = sqlite3.connect(path)  # as an ARI before migration 8 left it
    raw.execute("DROP TABLE learned_questions")
    raw.execute("DELETE FROM _migrations WHERE name = 'm008_learned_questions'")
    raw.commit()
    raw.close()
    with HistoryStore.open(path) as store:
        assert store.learned_ids("d", "s", "any settings") == {"1"}
        assert not store.add_question_traces([Trace("q", "m")], dataset="d", split="s", question_id="1", settings="new")


def test_unlabelled_question_is_a_usage_error(tmp_path, embedder):
    with Memory.open(tmp_path / "m.sqlite", embedder=embedder) as memory:
        with pytest.raises(UsageError, match="not a labelled question"):
            learn_from_dataset(memory, [{"question": "Who?"}], in_order(TableAgent({})), quiet=True)
