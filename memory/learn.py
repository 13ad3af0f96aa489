"""Learning from a labelled question set: answer, label each trace against the gold, record, learn.

The caller supplies the agent as a plain callable (`answer(question_text)` returning an
`AgentResult` or a `Trace`) and, optionally, an offline program search (`search_programs(gold)
-> list[Trace]`, bounded by the caller; it gets the `GoldQuestion` so it can tell right from wrong
with `memory.labels.hit`). Both the correct and the wrong traces the search finds are recorded, the wrong ones
being the negative examples that become pitfalls. Each question's traces are written in one
transaction, so an interrupted run resumes where it stopped.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from memory.trace import Trace
from memory.labels import hit
from ari.base.embedding import Embedder
from ari.base.errors import UsageError
from ari.base.progress import progress
from memory.api import LearnSummary, Memory


@dataclass
class LearnReport:
    """Counts of one learning run (the agent's own answers; search traces counted apart)."""

    questions: int = 0  # answered in this run
    skipped: int = 0  # already recorded by an earlier run (resume)
    correct: int = 0
    wrong: int = 0
    abstained: int = 0
    searched: int = 0  # traces found by program search
    searched_correct: int = 0
    elapsed_s: float = 0.0
    learnt: LearnSummary | None = None

    @property
    def accuracy(self) -> float | None:
        return self.correct / self.questions if self.questions else None

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
    )


def outcome(prediction: str | None, abstained: bool, gold: GoldQuestion, display: Callable[[str], str] | None = None) -> str:
    """correct | wrong | abstained. For an unanswerable question (no gold) abstaining is correct."""
    if not gold.answers:
        return "correct" if abstained or prediction is None else "wrong"
    if abstained or prediction is None:
        return "abstained"
    shown = display(prediction) if display and gold.answer_type != "time" else prediction
    return "correct" if hit(shown, gold.answers, gold.answer_type) else "wrong"


def _labelled(result: Any, gold: GoldQuestion, display: Callable[[str], str] | None) -> Trace:
    """The trace of an AgentResult (or a bare Trace), with outcome and the dataset's labels set."""
    trace: Trace = result.trace if hasattr(result, "trace") else result
    prediction = getattr(result, "answer", None) if hasattr(result, "trace") else None
    if prediction is None and trace.answers:
        prediction = trace.answers[0]
    abstained = bool(getattr(result, "abstained", trace.abstained))
    if not (trace.decider == "search" and trace.outcome in ("correct", "wrong")):
        trace.outcome = outcome(prediction, abstained, gold, display)  # the program search labels its own
    trace.qtype = gold.qtype or trace.qtype  # the dataset's label, when known, over the analysed one
    trace.answer_type = gold.answer_type or trace.answer_type
    return trace


def learn_from_dataset(
    memory: Memory,
    answer: Callable[[str], Any],
    questions: Iterable[Any],
    *,
    dataset: str | None = None,
    split: str | None = None,
    search_programs: Callable[[GoldQuestion], list[Trace]] | None = None,
    display: Callable[[str], str] | None = None,
    n_clusters: int = 10,
    embedder: Embedder | None = None,
    complete: Callable[[str], str] | None = None,
    cluster: bool = True,
    quiet: bool = False,
) -> LearnReport:
    """Answer each labelled question, record its (labelled) traces, then cluster and induce.

    `display` turns a KG name into the form gold answers use (MultiTQ: `store.display`). Questions
    already recorded for this dataset split are skipped, so re-running resumes.
    """
    started = time.perf_counter()
    report = LearnReport()
    questions = list(questions)
    done = memory.history.question_ids(dataset, split) if dataset else set()
    for raw in progress(questions, "learning", quiet=quiet):
        gold = gold_question(raw)
        if gold.qid is not None and gold.qid in done:
            report.skipped += 1
            continue
        trace = _labelled(answer(gold.text), gold, display)
        traces = [trace]
        report.questions += 1
        setattr(report, trace.outcome, getattr(report, trace.outcome) + 1)
        if search_programs is not None:
            found = [_labelled(t, gold, display) for t in search_programs(gold)]
            report.searched += len(found)
            report.searched_correct += sum(t.outcome == "correct" for t in found)
            traces += found
        memory.history.add_traces(traces, dataset=dataset, split=split, question_ids=[gold.qid] * len(traces))
    if cluster and memory.history.count() > 0:
        report.learnt = memory.learn(n_clusters=n_clusters, embedder=embedder, complete=complete)
    report.elapsed_s = round(time.perf_counter() - started, 3)
    return report
