"""Learning from a labelled question set: record each question's labelled traces once, then learn.

Who produces the traces is the caller's concern (`agents.learning` runs the agent and the bounded
program search in several processes): `learn_from_dataset` hands the questions still to do to a
`solve(questions)` that yields one `Solved` per question, in any order, and records each in one
transaction together with a row saying "this question is done under these settings". So an
interrupted run resumes where it stopped, and a run repeated with the same settings, or two at
once, store a question's traces once. Both the correct and the wrong traces are recorded, the
wrong ones being the negative examples that become pitfalls.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from ari.base.embedding import Embedder
from ari.base.errors import UsageError
from ari.base.progress import progress
from memory.api import LearnSummary, Memory
from memory.labels import hit
from memory.trace import Trace


@dataclass
class LearnReport:
    """Counts of one learning run (the agent's own answers; search traces counted apart)."""

    questions: int = 0  # recorded in this run
    skipped: int = 0  # already recorded with the same settings (an earlier or a concurrent run)
    failed: int = 0  # raised while being solved; not recorded, so the next run tries again
    correct: int = 0
    wrong: int = 0
    abstained: int = 0
    searched: int = 0  # traces found by program search
    searched_correct: int = 0
    elapsed_s: float = 0.0
    learnt: LearnSummary | None = None

    @property
    def accuracy(self) -> float | None:
        attempts = self.correct + self.wrong + self.abstained
        return self.correct / attempts if attempts else None

    def to_dict(self) -> dict:
        data = {k: v for k, v in self.__dict__.items() if k != "learnt"}
        data["accuracy"] = None if self.accuracy is None else round(self.accuracy, 4)
        data["learnt"] = None if self.learnt is None else self.learnt.__dict__
        return data


@dataclass
class GoldQuestion:
    """The fields of a labelled question that learning needs, from either question format."""

    qid: str | None
    text: str
    answers: list[str]
    answer_type: str
    qtype: str | None
    time_level: str | None = None


@dataclass
class Solved:
    """One question's labelled traces: the agent's own attempt (when it made one) and what the
    program search found; `error` when solving it raised (then nothing is recorded)."""

    gold: GoldQuestion
    attempt: Trace | None = None
    found: list[Trace] = field(default_factory=list)
    error: str | None = None


Solve = Callable[[list[GoldQuestion]], Iterable[Solved]]


def gold_question(question: Any) -> GoldQuestion:
    """An official-schema dict (quid, question, answers, ...) or a benchmark `Question` (qid, text, ...)."""
    data = question if isinstance(question, dict) else question.to_dict()
    text = data.get("question", data.get("text"))
    if not isinstance(text, str) or "answers" not in data:
        raise UsageError(f"not a labelled question (needs question text and answers): {str(data)[:80]}")
    qid = data.get("quid", data.get("qid"))
    return GoldQuestion(
        qid=None if qid is None else str(qid),
        text=text,
        answers=[str(a) for a in data["answers"]],
        answer_type=str(data.get("answer_type", "entity")),
        qtype=data.get("qtype"),
        time_level=data.get("time_level"),
    )


def outcome(prediction: str | None, abstained: bool, gold: GoldQuestion, display: Callable[[str], str] | None = None) -> str:
    """correct | wrong | abstained. For an unanswerable question (no gold) abstaining is correct."""
    if not gold.answers:
        return "correct" if abstained or prediction is None else "wrong"
    if abstained or prediction is None:
        return "abstained"
    shown = display(prediction) if display and gold.answer_type != "time" else prediction
    return "correct" if hit(shown, gold.answers, gold.answer_type) else "wrong"


class Answered(Protocol):
    """What `labelled` reads of an agent's result (`agents.agent.AgentResult`)."""

    answer: str | None
    abstained: bool
    trace: Trace


def labelled(result: Answered | Trace, gold: GoldQuestion, display: Callable[[str], str] | None = None) -> Trace:
    """The trace of an agent's result (or a bare Trace), with outcome and the dataset's labels set."""
    if isinstance(result, Trace):
        trace, prediction, abstained = result, None, result.abstained
    else:
        trace, prediction, abstained = result.trace, result.answer, result.abstained
    if prediction is None and trace.answers:
        prediction = trace.answers[0]
    if not (trace.decider == "search" and trace.outcome in ("correct", "wrong")):
        trace.outcome = outcome(prediction, abstained, gold, display)  # the program search labels its own
    trace.qtype = gold.qtype or trace.qtype  # the dataset's label, when known, over the analysed one
    trace.answer_type = gold.answer_type or trace.answer_type
    return trace


def in_order(
    answer: Callable[[str], Any] | None,
    search_programs: Callable[[GoldQuestion], list[Trace]] | None = None,
    display: Callable[[str], str] | None = None,
) -> Solve:
    """A `Solve` that answers (`answer(text)` -> AgentResult or Trace) and searches one question at
    a time in this process; for small sets and tests (`agents.learning` batches and parallelises)."""

    def solve(questions: list[GoldQuestion]) -> Iterator[Solved]:
        for gold in questions:
            attempt = None if answer is None else labelled(answer(gold.text), gold, display)
            found = [] if search_programs is None else [labelled(t, gold, display) for t in search_programs(gold)]
            yield Solved(gold, attempt, found)

    return solve


def learn_from_dataset(
    memory: Memory,
    questions: Iterable[Any],
    solve: Solve,
    *,
    settings: str = "",
    dataset: str | None = None,
    split: str | None = None,
    n_clusters: int = 10,
    embedder: Embedder | None = None,
    complete: Callable[[str], str] | None = None,
    cluster: bool = True,
    quiet: bool = False,
) -> LearnReport:
    """Solve each labelled question not yet recorded with these `settings`, record its traces, then
    cluster the whole history and induce methodologies.

    `settings` names whatever decides which traces a question leaves (the decider, the search
    bounds): a question is recorded once per dataset split and settings. A question without an id
    cannot be told apart from another and is recorded every time. The history is clustered again
    only when this run recorded something (or it never was): `ari memory induce` re-clusters anyway.
    """
    started = time.perf_counter()
    report = LearnReport()
    golds = [gold_question(q) for q in questions]
    done = memory.history.learned_ids(dataset, split, settings)
    pending = [g for g in _distinct(golds) if g.qid is None or g.qid not in done]
    report.skipped = len(golds) - len(pending)
    for solved in progress(solve(pending) if pending else (), "learning", total=len(pending), quiet=quiet):
        _record(memory, solved, settings, dataset, split, report)
    stale = report.questions > 0 or memory.history.latest_version() is None  # a repeat changes nothing
    if cluster and stale and memory.history.count() > 0:
        report.learnt = memory.learn(n_clusters=n_clusters, embedder=embedder, complete=complete)
    report.elapsed_s = round(time.perf_counter() - started, 3)
    return report


def _distinct(golds: list[GoldQuestion]) -> list[GoldQuestion]:
    """Each question id once (a question listed twice is learnt once); id-less questions all kept."""
    seen: set[str] = set()
    kept = []
    for gold in golds:
        if gold.qid is not None:
            if gold.qid in seen:
                continue
            seen.add(gold.qid)
        kept.append(gold)
    return kept


def _record(memory: Memory, solved: Solved, settings: str, dataset: str | None, split: str | None, report: LearnReport) -> None:
    if solved.error is not None:
        report.failed += 1
        return
    traces = ([solved.attempt] if solved.attempt is not None else []) + list(solved.found)
    qid = solved.gold.qid
    if qid is None:
        memory.history.add_traces(traces, dataset=dataset, split=split)
    elif not memory.history.add_question_traces(traces, dataset=dataset, split=split, question_id=qid, settings=settings):
        report.skipped += 1  # a concurrent run recorded it first
        return
    report.questions += 1
    outcome = solved.attempt.outcome if solved.attempt is not None else None
    if outcome is not None:  # a labelled attempt: count it under its outcome
        setattr(report, outcome, getattr(report, outcome) + 1)
    report.searched += len(solved.found)
    report.searched_correct += sum(t.outcome == "correct" for t in solved.found)
