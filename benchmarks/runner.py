"""Batch runs: answer a list of questions with a solver, append results as they come, summarise.

`run_benchmark` is resumable: results.jsonl in the output directory is keyed by question id, and
a rerun with the same run identity skips the ids already there. Workers are processes, each with
its own solver (own read-only DuckDB connection, own embedder); the parent is the only writer.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from ari.base.errors import AriError, DatasetError, UsageError
from ari.base.processes import die_with_parent, limit_threads, threads_per_worker, worker_context
from ari.base.progress import progress
from benchmarks.loaders.types import Question
from benchmarks.metrics import Outcome, Throughput, first_hit, summarize
from benchmarks.results_io import write_json
from benchmarks.results_log import ResultsWriter, read_results
from benchmarks.run_lock import run_lock
from benchmarks.solver import SolverFactory

RESULTS = "results.jsonl"
RUN = "run.json"
SESSIONS = "sessions.jsonl"
SUMMARY = "summary.json"
TOP_K_KEPT = 10  # predictions kept per question (enough for Hits@10) ...
SET_KEPT = 1000  # ... and per question asking for a list (its set is scored whole)

# Keys of run.json that must match for a rerun to resume into the same directory: what is asked,
# of which KG and memory, by which agent settings (the decider among them) and relation lexicon.
IDENTITY_KEYS = ("dataset", "split", "questions_file", "sample", "seed", "shard", "gold_annotations", "db", "memory",
                 "agent_config", "relation_lexicon")
# The files of one run; --restart moves them aside together (report files: benchmarks.report).
RUN_FILES = (RUN, RESULTS, SESSIONS, SUMMARY, "report.md", "report.png")


@dataclass
class RunOptions:
    """How to run (not what is measured): these may change between sessions of one run."""

    workers: int = 1
    batch_size: int = 64
    quiet: bool = False
    restart: bool = False  # set a previous run in the directory aside (under replaced-<time>/) and start anew
    retry_errors: bool = False  # answer again the questions whose outcome was an error (LLM endpoint failure)
    gold_display: Callable[[str], str] | None = None  # KG name -> display form (CronQuestions Qids)
    worker_modules: tuple[str, ...] = ()  # what the solver imports: loaded once for all workers (worker_context)


@dataclass
class RunOutcome:
    summary: dict
    answered_now: int
    skipped_done: int
    out_dir: Path
    files: list[Path] = field(default_factory=list)


def run_benchmark(
    questions: Sequence[Question],
    solver_factory: SolverFactory,
    out_dir: Path,
    run_info: dict,
    options: RunOptions | None = None,
) -> RunOutcome:
    """Answer every question not already in `out_dir`/results.jsonl, then write the summary and report.

    One run at a time writes to `out_dir` (run_lock). Ctrl-C keeps every answered question and
    writes the summary of those (marked incomplete) before it propagates."""
    options = options or RunOptions()
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    _check_unique(questions)
    with run_lock(out_dir):
        _claim_run(out_dir, run_info, options.restart)
        done = read_results(out_dir / RESULTS, repair=True)
        if options.retry_errors:  # a later line for the same id replaces the error (read_results keeps the last)
            done = {qid: r for qid, r in done.items() if not r.get("error")}
        pending = [q for q in questions if q.qid not in done]
        try:
            answered = _answer(pending, solver_factory, out_dir, options)
        except KeyboardInterrupt:
            write_summary(out_dir, questions, run_info)
            raise
        summary = write_summary(out_dir, questions, run_info)
        from benchmarks.report import write_report  # matplotlib is only needed here

        files = write_report(out_dir, summary)
    return RunOutcome(summary, answered, len(questions) - len(pending), out_dir, [out_dir / SUMMARY, *files])


def _answer(pending: list[Question], solver_factory: SolverFactory, out_dir: Path, options: RunOptions) -> int:
    """Solve `pending`, appending each result as it comes (forced to disk every `batch_size`
    results); the number answered."""
    started = time.perf_counter()
    startup_s = 0.0
    answered = 0
    with ResultsWriter(out_dir / RESULTS) as writer:
        solved = _solve(pending, solver_factory, options)
        try:
            for question, result, build_s in progress(solved, "answering", total=len(pending), quiet=options.quiet):
                startup_s = max(startup_s, build_s)
                writer.write(make_record(question, result, options.gold_display))
                answered += 1
                if answered % options.batch_size == 0:
                    writer.sync()
        finally:
            writer.sync()
            if answered:
                wall_s = time.perf_counter() - started
                _log_session(out_dir / SESSIONS, answered, wall_s, startup_s, options.workers)
    return answered


def write_summary(out_dir: Path, questions: Sequence[Question] | None, run_info: dict) -> dict:
    """Recompute every metric from results.jsonl (only the run's own questions when given)."""
    records = read_results(out_dir / RESULTS)
    if questions is not None:
        wanted = {q.qid for q in questions}
        records = {qid: r for qid, r in records.items() if qid in wanted}
    errors = {qid: r for qid, r in records.items() if r.get("error")}
    # an error (the LLM endpoint failed) is no outcome: the metrics are over the other questions
    outcomes = [outcome_from_record(r) for qid, r in records.items() if qid not in errors]
    summary = summarize(outcomes, read_throughput(out_dir / SESSIONS))
    summary.update(llm_usage(records.values(), run_info))
    summary["errors"] = len(errors)
    summary["error_examples"] = sorted({str(r["error"]) for r in errors.values()})[:5]
    summary["complete"] = not errors and (questions is None or len(records) == len(questions))
    summary["config"] = run_info
    write_json(out_dir / SUMMARY, summary, ensure_ascii=False)
    return summary


# -- records ----------------------------------------------------------------------------------

def make_record(question: Question, result: object, gold_display: Callable[[str], str] | None = None) -> dict:
    """One results.jsonl line: the question, its gold, what the solver said, and whether it hit."""
    gold = list(question.answers)
    if gold_display is not None and question.answer_type == "entity":
        gold = [gold_display(g) for g in gold]
    abstained = bool(getattr(result, "abstained", False))
    is_list = bool(question.extra.get("is_list", False))
    kept = SET_KEPT if is_list or question.answer_type == "relation" else TOP_K_KEPT
    answers = [str(a) for a in (getattr(result, "answers", None) or [])][:kept]
    answer = getattr(result, "answer", None)
    if not answers and answer is not None and not abstained:
        answers = [str(answer)]
    steps = getattr(result, "steps", None) or []
    confidence = getattr(result, "confidence", None)
    record = {
        "qid": question.qid,
        "question": question.text,
        "gold": gold,
        "answer_type": question.answer_type,
        "time_level": question.time_level,
        "qtype": question.qtype,
        "qlabel": question.qlabel,
        "answerable": question.answerable,
        "unanswerable_reason": question.extra.get("unanswerable_reason"),
        "answer": None if abstained else answer,
        "answers": [] if abstained else answers,
        "abstained": abstained,
        "reason": getattr(result, "reason", None),
        "steps": len(steps),
        "program": [getattr(s, "abstract", None) or str(s) for s in steps],
        "llm_calls": int(getattr(result, "llm_calls", 0) or 0),
        "prompt_tokens": int(getattr(result, "prompt_tokens", 0) or 0),
        "completion_tokens": int(getattr(result, "completion_tokens", 0) or 0),
        "tokens": int(getattr(result, "tokens", 0) or 0),
        "elapsed_s": float(getattr(result, "elapsed_s", 0.0) or 0.0),
        "confidence": float(confidence) if isinstance(confidence, (int, float)) else None,
        "error": getattr(result, "error", None),
    }
    if "shape" in question.extra:  # the agent's own reading of the answer, when it gives one
        predicted_is_list = getattr(result, "is_list", None)
        record.update(shape=question.extra["shape"], is_list=is_list, predicted_answer_type=getattr(result, "answer_type", None),
                      predicted_is_list=None if predicted_is_list is None else bool(predicted_is_list))
    rank = None if abstained else first_hit(answers, gold, question.answer_type, question.time_level, TOP_K_KEPT)
    record["hit1"] = rank == 1
    record["hit10"] = rank is not None
    if "shape" in record:
        record["verdict"] = outcome_from_record(record).verdict
    return record


def outcome_from_record(record: dict) -> Outcome:
    return Outcome(
        qid=str(record["qid"]),
        gold=tuple(record["gold"]),
        predictions=tuple(record["answers"]),
        abstained=bool(record["abstained"]),
        answer_type=record["answer_type"],
        time_level=record.get("time_level"),
        qtype=record.get("qtype") or "unknown",
        qlabel=record.get("qlabel"),
        answerable=bool(record.get("answerable", True)),
        unanswerable_reason=record.get("unanswerable_reason"),
        steps=int(record.get("steps", 0)),
        llm_calls=int(record.get("llm_calls", 0)),
        tokens=int(record.get("tokens", 0)),
        elapsed_s=float(record.get("elapsed_s", 0.0)),
        confidence=record.get("confidence"),
        shape=record.get("shape"),
        is_list=bool(record.get("is_list", False)),
        predicted_is_list=record.get("predicted_is_list"),
    )


def llm_usage(records: Iterable[dict], run_info: dict) -> dict:
    """LLM requests and tokens over every record (errors included: they were paid for), and a cost
    estimate when the run's LLM settings carry prices (US dollars per million tokens)."""
    records = list(records)
    prompt = sum(int(r.get("prompt_tokens", 0) or 0) for r in records)
    completion = sum(int(r.get("completion_tokens", 0) or 0) for r in records)
    llm = (run_info.get("agent_config") or {}).get("llm") or {}
    prices = (llm.get("price_prompt_per_mtok"), llm.get("price_completion_per_mtok"))
    cost = None
    if any(p is not None for p in prices):
        cost = round((prompt * (prices[0] or 0.0) + completion * (prices[1] or 0.0)) / 1e6, 6)
    return {
        "llm_calls": sum(int(r.get("llm_calls", 0) or 0) for r in records),
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "prompt_tokens_per_question": prompt / len(records) if records else None,
        "completion_tokens_per_question": completion / len(records) if records else None,
        "cost_usd": cost,
    }


# -- solving ----------------------------------------------------------------------------------

def _solve(pending: list[Question], factory: SolverFactory, options: RunOptions) -> Iterator[tuple[Question, object, float]]:
    """Yield (question, result, solver build seconds) as questions finish (in order when workers ==
    1). One worker with a solver that streams (`stream`: the agent with questions in flight) gets
    every question as one stream, so its pool never drains between batches; otherwise solvers get
    `batch_size` questions per call."""
    if not pending:
        return
    batches = [pending[i : i + options.batch_size] for i in range(0, len(pending), options.batch_size)]
    if options.workers <= 1:
        started = time.perf_counter()
        solver = factory()
        build_s = time.perf_counter() - started
        stream = getattr(solver, "stream", None)
        if stream is not None:
            results = stream((q.text for q in pending), options.batch_size)
            for question, result in _paired(pending, results):
                yield question, result, build_s
                build_s = 0.0
            return
        for batch in batches:
            for question, result in zip(batch, _checked(solver([q.text for q in batch]), batch)):
                yield question, result, build_s
                build_s = 0.0
        return
    batches = tapered(pending, options.batch_size, options.workers)
    for batch, results, build_s in _solve_in_processes(batches, factory, options.workers, options.worker_modules):
        for question, result in zip(batch, results):
            yield question, result, build_s
            build_s = 0.0


def tapered(questions: list, size: int, workers: int) -> list[list]:
    """Batches of `size`, the last `workers * size` questions in quarter batches: a worker that
    finishes first then waits for the others' last batch a quarter as long (with 2 workers and
    batches of 64, up to a second of one idle core at the end of a run)."""
    split = max(0, len(questions) - workers * size)
    head, tail = questions[:split], questions[split:]
    small = max(1, size // 4)
    return [head[i : i + size] for i in range(0, len(head), size)] + [tail[i : i + small] for i in range(0, len(tail), small)]


def prepare_workers(workers: int, preload: Sequence[str]) -> None:
    """Start loading what the workers import now (a fork server, where there is one), so it runs
    while the caller still reads the questions; the run's pool then forks its workers from it."""
    if workers > 1:
        worker_context(preload, threads_per_worker(workers))


def _solve_in_processes(
    batches: list[list[Question]], factory: SolverFactory, workers: int, preload: Sequence[str] = ()
) -> Iterator[tuple[list[Question], list, float]]:
    """Yield (batch, results, solver build seconds) as the worker processes finish batches."""
    threads = threads_per_worker(workers)
    context = worker_context(preload, threads)
    pool = ProcessPoolExecutor(workers, mp_context=context, initializer=_init_worker, initargs=(factory, threads))
    queue = list(reversed(batches))
    running: dict[Future, list[Question]] = {}
    try:
        while queue or running:
            while queue and len(running) < 2 * workers:
                batch = queue.pop()
                running[pool.submit(_solve_in_worker, [q.text for q in batch])] = batch
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                batch = running.pop(future)
                results, build_s = future.result()
                yield batch, _checked(results, batch), build_s
    finally:
        # The workers take a second to exit (their interpreters free the solver): they do it while
        # the summary and report are written; the executor's exit hook still joins them.
        pool.shutdown(wait=False, cancel_futures=True)


def _paired(questions: list[Question], results: Iterable) -> Iterator[tuple[Question, object]]:
    """Each question with its streamed result; a stream of another length is the solver's error."""
    iterator = iter(results)
    for question in questions:
        result = next(iterator, _MISSING)
        if result is _MISSING:
            raise AriError(f"solver's stream ended before question {question.qid}")
        yield question, result
    if next(iterator, _MISSING) is not _MISSING:
        raise AriError(f"solver's stream gave more results than the {len(questions)} questions")


_MISSING = object()


def _checked(results: Sequence, batch: list[Question]) -> list:
    results = list(results)
    if len(results) != len(batch):
        raise AriError(f"solver returned {len(results)} results for {len(batch)} questions (from qid {batch[0].qid})")
    return results


_WORKER_SOLVER = None
_WORKER_BUILD_S = 0.0
_WORKER_FAILURE: str | None = None


def _init_worker(factory: SolverFactory, threads: int) -> None:
    """Build this process's solver once; numeric libraries get their share of the cores only. The
    worker ends with the run (a worker that outlived a killed run would hold the store open). A
    solver that cannot be built for the user's reason (a store, a memory, a model: an AriError) is
    the run's one-line error at the worker's first batch, not a worker's traceback and a broken pool."""
    global _WORKER_SOLVER, _WORKER_BUILD_S, _WORKER_FAILURE
    die_with_parent()
    limit_threads(threads)
    started = time.perf_counter()
    try:
        _WORKER_SOLVER = factory()
    except AriError as exc:
        _WORKER_FAILURE = str(exc)
    _WORKER_BUILD_S = time.perf_counter() - started


def _solve_in_worker(texts: list[str]) -> tuple[list[_PlainResult], float]:
    """Runs in a worker: solve, and return plain picklable results (traces stay in the worker)."""
    global _WORKER_BUILD_S
    if _WORKER_FAILURE is not None:
        raise AriError(_WORKER_FAILURE)
    build_s, _WORKER_BUILD_S = _WORKER_BUILD_S, 0.0
    return [_PlainResult.of(r) for r in _WORKER_SOLVER(texts)], build_s  # type: ignore[misc]


@dataclass
class _PlainResult:
    answer: str | None
    answers: list[str]
    abstained: bool
    reason: str | None
    steps: list[str]
    llm_calls: int
    prompt_tokens: int
    completion_tokens: int
    tokens: int
    elapsed_s: float
    confidence: float | None
    error: str | None
    answer_type: str | None = None
    is_list: bool | None = None

    @classmethod
    def of(cls, result: object) -> "_PlainResult":
        steps = getattr(result, "steps", None) or []
        return cls(
            answer=getattr(result, "answer", None),
            answers=[str(a) for a in (getattr(result, "answers", None) or [])][:SET_KEPT],  # make_record trims
            abstained=bool(getattr(result, "abstained", False)),
            reason=getattr(result, "reason", None),
            steps=[getattr(s, "abstract", None) or str(s) for s in steps],
            llm_calls=int(getattr(result, "llm_calls", 0) or 0),
            prompt_tokens=int(getattr(result, "prompt_tokens", 0) or 0),
            completion_tokens=int(getattr(result, "completion_tokens", 0) or 0),
            tokens=int(getattr(result, "tokens", 0) or 0),
            elapsed_s=float(getattr(result, "elapsed_s", 0.0) or 0.0),
            confidence=getattr(result, "confidence", None),
            error=getattr(result, "error", None),
            answer_type=getattr(result, "answer_type", None),
            is_list=getattr(result, "is_list", None),
        )


# -- run bookkeeping --------------------------------------------------------------------------

def _check_unique(questions: Sequence[Question]) -> None:
    seen: set[str] = set()
    for question in questions:
        if question.qid in seen:
            raise DatasetError(f"question id {question.qid} appears twice; results are keyed by id")
        seen.add(question.qid)


def _claim_run(out_dir: Path, run_info: dict, restart: bool = False) -> None:
    """Write run.json, or check that an existing one describes the same run (so resuming is safe);
    with `restart`, first move the previous run's files aside."""
    path = out_dir / RUN
    if path.exists() and restart:
        _set_aside(out_dir)
    if path.exists():
        previous = json.loads(path.read_text(encoding="utf-8"))
        changed = [k for k in IDENTITY_KEYS if previous.get(k) != run_info.get(k)]
        if changed:
            raise UsageError(
                f"{out_dir} holds a different run (differs in: {', '.join(changed)}); resume it with the same "
                "settings, use another --out, or --restart to set its results aside and start anew"
            )
        return
    write_json(path, run_info, ensure_ascii=False)


def _set_aside(out_dir: Path) -> Path:
    """Move the run's files into out_dir/replaced-<UTC time>/ (nothing is deleted)."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
    target = out_dir / f"replaced-{stamp}"
    target.mkdir()
    for name in RUN_FILES:
        if (out_dir / name).exists():
            os.replace(out_dir / name, target / name)
    return target


def _log_session(path: Path, answered: int, wall_s: float, startup_s: float, workers: int) -> None:
    entry = {
        "finished": datetime.now(UTC).isoformat(timespec="seconds"),
        "answered": answered,
        "wall_s": round(wall_s, 3),
        "startup_s": round(startup_s, 3),
        "workers": workers,
    }
    with path.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(entry) + "\n")


def read_throughput(path: Path) -> Throughput:
    """Questions and solving seconds over every session (solver start-up excluded)."""
    throughput = Throughput()
    if not path.exists():
        return throughput
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        throughput.sessions.append(entry)
        throughput.questions += int(entry["answered"])
        throughput.wall_s += max(0.0, float(entry["wall_s"]) - float(entry.get("startup_s", 0.0)))
    return throughput


def git_commit(repo: Path | None = None) -> str | None:
    """The checked-out commit (with "+dirty" when tracked files changed), or None outside git."""
    cwd = repo or Path(__file__).resolve().parent
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=cwd, capture_output=True, text=True, timeout=10, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"], cwd=cwd, capture_output=True, text=True, timeout=10
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return commit + ("+dirty" if dirty else "")
