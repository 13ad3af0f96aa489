"""Batch runs end to end with a real brute-force solver over a real DuckDB store."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from bench_support import QUESTIONS, BruteForceFactory, BruteForceSolver, build_store, question_records

from ari.base.errors import AriError, UsageError
from benchmarks.loaders import get_loader
from benchmarks.loaders.types import Question
from benchmarks.plan import RunSpec, run
from benchmarks.results_log import read_results
from benchmarks.runner import RunOptions, run_benchmark, tapered
from benchmarks.selection import parse_shard, shard_of, stratified_sample, take_shard
from tkg_store.ingest import ingest

SUMMARY_KEYS = {"n", "hits_at_1", "hits_at_10", "by_qtype", "abstain_precision", "abstain_recall",
                "false_unknown_rate", "mean_steps", "questions_per_second", "config"}


@pytest.fixture()
def setup(tmp_path):
    db = build_store(tmp_path / "kg.duckdb")
    qfile = tmp_path / "questions.json"
    qfile.write_text(json.dumps(question_records()), encoding="utf-8")
    return db, qfile


def _spec(db, qfile, out, **kw):
    return RunSpec(dataset="multitq", out=out, db=db, questions_file=qfile, quiet=True, **kw)


def test_run_end_to_end_writes_results_summary_and_report(setup, tmp_path):
    db, qfile = setup
    out = tmp_path / "run"
    outcome = run(_spec(db, qfile, out), factory=BruteForceFactory(str(db)))
    assert outcome.answered_now == len(QUESTIONS)
    summary = json.loads((out / "summary.json").read_text())
    assert SUMMARY_KEYS <= set(summary)
    assert summary["n"] == 9 and summary["n_answerable"] == 8
    assert summary["hits_at_1"] == 1.0  # the brute-force solver is exact on its own KG
    assert summary["by_qtype"] == {"equal": 1.0, "first_last": 1.0}
    assert summary["abstain_precision"] == 1.0 and summary["abstain_recall"] == 1.0
    assert summary["false_unknown_rate"] == 0.0
    assert summary["mean_steps"] == pytest.approx(sum([2, 2, 3, 3, 3, 2, 2, 3, 1]) / 9)
    assert summary["config"]["agent_config"]["decider"] == "offline"
    assert summary["config"]["questions_in_run"] == 9 and summary["complete"]
    records = read_results(out / "results.jsonl")
    assert records["4"]["answers"] == ["2010-05-01"] and records["4"]["hit1"]  # day cut to the gold month
    assert records["9"]["abstained"] and records["9"]["answer"] is None
    assert (out / "report.png").stat().st_size > 1000
    assert "| equal | 5 |" in (out / "report.md").read_text()


def test_ablation_switches_reach_the_config(setup, tmp_path):
    db, qfile = setup
    spec = _spec(db, qfile, tmp_path / "abl", agent={"use_methodology": False, "use_filtering": False})
    summary = run(spec, factory=BruteForceFactory(str(db))).summary
    assert summary["config"]["agent_config"]["use_methodology"] is False
    assert summary["config"]["agent_config"]["use_filtering"] is False
    assert summary["config"]["agent_config"]["use_clustering"] is True


def test_resume_after_a_crash_answers_each_question_once(setup, tmp_path):
    db, qfile = setup
    questions = get_loader("multitq").load(qfile).questions
    out = tmp_path / "run"
    crashing = BruteForceSolver(db, fail_after=5)
    with pytest.raises(RuntimeError, match="simulated"):
        run_benchmark(questions, lambda: crashing, out, {"dataset": "multitq"}, RunOptions(batch_size=2, quiet=True))
    assert len(read_results(out / "results.jsonl")) == 4  # two whole batches were written before the crash
    again = BruteForceSolver(db)
    outcome = run_benchmark(questions, lambda: again, out, {"dataset": "multitq"}, RunOptions(batch_size=2, quiet=True))
    assert outcome.skipped_done == 4 and outcome.answered_now == 5
    assert again.asked == [q.text for q in questions[4:]]  # nothing already answered is asked again
    lines = (out / "results.jsonl").read_text().splitlines()
    assert Counter(json.loads(line)["qid"] for line in lines) == Counter(q.qid for q in questions)
    assert outcome.summary["n"] == 9 and outcome.summary["hits_at_1"] == 1.0


def test_resume_cuts_a_torn_last_line(setup, tmp_path):
    db, qfile = setup
    questions = get_loader("multitq").load(qfile).questions
    out = tmp_path / "run"
    run_benchmark(questions[:3], BruteForceFactory(str(db)), out, {"dataset": "multitq"}, RunOptions(quiet=True))
    with (out / "results.jsonl").open("a") as handle:
        handle.write('{"qid": "4", "question": "When did Ang')  # killed mid-write
    outcome = run_benchmark(questions, BruteForceFactory(str(db)), out, {"dataset": "multitq"}, RunOptions(quiet=True))
    assert outcome.answered_now == 6
    lines = (out / "results.jsonl").read_text().splitlines()
    assert sorted(json.loads(line)["qid"] for line in lines) == sorted(q.qid for q in questions)


_KILLABLE = """
import sys, json
sys.path.insert(0, {tests!r})
from bench_support import BruteForceFactory
from benchmarks.loaders import get_loader
from benchmarks.runner import RunOptions, run_benchmark
qs = get_loader("multitq").load({qfile!r}).questions
run_benchmark(qs, BruteForceFactory({db!r}, delay_s={delay}), {out!r}, {{"dataset": "multitq"}},
              RunOptions(batch_size=1, quiet=True, workers={workers}))
"""


def _killable_run(setup, out: Path, delay: float, workers: int, answered: int) -> subprocess.Popen:
    """A bench run in a process of its own (batches of one question, each taking `delay` seconds),
    returned once it has answered `answered` questions (or ended, or a minute has passed)."""
    db, qfile = setup
    tests = str(Path(__file__).parent)
    script = _KILLABLE.format(tests=tests, qfile=str(qfile), db=str(db), out=str(out), delay=delay, workers=workers)
    proc = subprocess.Popen([sys.executable, "-c", script], cwd=Path(__file__).parent.parent)
    results = out / "results.jsonl"
    deadline = time.monotonic() + 60
    while proc.poll() is None and time.monotonic() < deadline and (
        not results.exists() or len(results.read_text().splitlines()) < answered
    ):
        time.sleep(0.05)
    return proc


def test_run_killed_halfway_resumes_without_redoing_or_losing(setup, tmp_path):
    db, qfile = setup
    out = tmp_path / "killed"
    proc = _killable_run(setup, out, delay=0.4, workers=1, answered=3)
    results = out / "results.jsonl"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    first = read_results(results)
    assert 3 <= len(first) < len(QUESTIONS)
    questions = get_loader("multitq").load(qfile).questions
    solver = BruteForceSolver(db)
    outcome = run_benchmark(questions, lambda: solver, out, {"dataset": "multitq"}, RunOptions(quiet=True))
    assert set(solver.asked).isdisjoint(first[q]["question"] for q in first)
    qids = [json.loads(line)["qid"] for line in results.read_text().splitlines()]
    assert sorted(qids) == sorted(q.qid for q in questions) and outcome.summary["n"] == len(QUESTIONS)


def _children(pid: int) -> set[int]:
    """The processes whose parent is `pid` (from /proc)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == pid:
            found.add(int(stat.parent.name))
    return found


def _running(pid: int) -> bool:
    """Whether `pid` is a process that has not ended (a zombie has: it holds no file or lock)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_workers_die_with_a_killed_run_and_leave_the_store_free(setup, tmp_path):
    db, _ = setup
    proc = _killable_run(setup, tmp_path / "orphans", delay=1.0, workers=2, answered=1)  # both workers hold the store open
    children: set[int] = set()
    try:
        children = _children(proc.pid)
        assert proc.poll() is None and len(children) >= 2, "the run ended before it could be killed"
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        deadline = time.monotonic() + 5
        while any(_running(pid) for pid in children) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not [pid for pid in children if _running(pid)], "workers outlived the killed run"
    finally:
        for pid in children:
            if _running(pid):
                os.kill(pid, signal.SIGKILL)
    ingest("tsv", db.with_suffix(".tsv"), db)  # the store is free for writing


def test_rerun_with_a_different_identity_is_refused(setup, tmp_path):
    db, qfile = setup
    out = tmp_path / "run"
    run(_spec(db, qfile, out), factory=BruteForceFactory(str(db)))
    with pytest.raises(UsageError, match="different run .*agent_config"):
        run(_spec(db, qfile, out, agent={"use_filtering": False}), factory=BruteForceFactory(str(db)))


def test_worker_processes_give_the_same_results(setup, tmp_path):
    db, qfile = setup
    one = run(_spec(db, qfile, tmp_path / "one"), factory=BruteForceFactory(str(db))).summary
    two = run(_spec(db, qfile, tmp_path / "two", workers=2, batch_size=2), factory=BruteForceFactory(str(db))).summary
    assert {k: one[k] for k in ("n", "hits_at_1", "by_qtype", "mean_steps")} == {
        k: two[k] for k in ("n", "hits_at_1", "by_qtype", "mean_steps")
    }
    assert len(read_results(tmp_path / "two" / "results.jsonl")) == 9


def test_a_solver_workers_cannot_build_is_the_runs_one_line_error(tmp_path):
    missing = tmp_path / "no-such.duckdb"
    options = RunOptions(workers=2, batch_size=2, quiet=True)
    with pytest.raises(AriError, match="no KG store at") as raised:
        run_benchmark(_questions(4), BruteForceFactory(str(missing)), tmp_path / "run", {"dataset": "multitq"}, options)
    assert str(missing) in str(raised.value) and "\n" not in str(raised.value)


def _questions(n: int) -> list[Question]:
    qtypes = ["equal"] * 6 + ["first_last"] * 3 + ["before_after"]
    return [Question(str(1000 + i), f"q{i}", ["a"], "entity", qtype=qtypes[i % 10]) for i in range(n)]


def test_shards_cover_every_question_exactly_once():
    questions = _questions(500)
    shards = [take_shard(questions, (i, 4)) for i in range(4)]
    ids = [q.qid for shard in shards for q in shard]
    assert sorted(ids) == sorted(q.qid for q in questions)
    assert all(60 < len(shard) < 190 for shard in shards)
    assert shard_of("1234", 4) == shard_of("1234", 4)
    assert parse_shard("2/4") == (2, 4)
    for bad in ("4/4", "x", "1/0"):
        with pytest.raises(UsageError):
            parse_shard(bad)


def test_stratified_sample_keeps_the_type_mix_and_is_seeded():
    questions = _questions(1000)
    sample = stratified_sample(questions, 100, seed=7)
    assert Counter(q.qtype for q in sample) == {"equal": 60, "first_last": 30, "before_after": 10}
    assert [q.qid for q in sample] == [q.qid for q in stratified_sample(questions, 100, seed=7)]
    assert [q.qid for q in sample] != [q.qid for q in stratified_sample(questions, 100, seed=8)]
    assert len(stratified_sample(questions, 5000)) == 1000


def test_resume_refuses_another_store_or_memory_and_restart_sets_the_old_run_aside(setup, tmp_path):
    db, qfile = setup
    other_db = build_store(tmp_path / "other.duckdb")
    out = tmp_path / "run"
    a = str(tmp_path / "a.sqlite")
    run(_spec(db, qfile, out, memory_url=a), factory=BruteForceFactory(str(db)))
    with pytest.raises(UsageError, match=r"differs in: db\).*--restart"):
        run(_spec(other_db, qfile, out, memory_url=a), factory=BruteForceFactory(str(other_db)))
    with pytest.raises(UsageError, match=r"differs in: memory\)"):
        run(_spec(db, qfile, out, memory_url="b.sqlite"), factory=BruteForceFactory(str(db)))
    with pytest.raises(UsageError, match=r"differs in: agent_config\)"):
        run(_spec(db, qfile, out, memory_url=a, agent={"decider": "openai:x"}), factory=BruteForceFactory(str(db)))
    before = (out / "results.jsonl").read_text()
    # the same run, named from another directory, resumes (paths are recorded resolved)
    monkey = pytest.MonkeyPatch()
    monkey.chdir(tmp_path)
    try:
        again = run(_spec(Path(db.name), Path(qfile.name), Path("run"), memory_url="a.sqlite"), factory=BruteForceFactory(str(db)))
    finally:
        monkey.undo()
    assert again.answered_now == 0 and again.skipped_done == len(QUESTIONS)
    fresh = run(_spec(other_db, qfile, out, memory_url="b.sqlite", restart=True), factory=BruteForceFactory(str(other_db)))
    assert fresh.answered_now == len(QUESTIONS)
    (aside,) = out.glob("replaced-*")
    assert (aside / "results.jsonl").read_text() == before
    assert json.loads((aside / "run.json").read_text())["db"] == str(db.resolve())
    assert json.loads((out / "run.json").read_text())["db"] == str(other_db.resolve())


_HOLD_LOCK = """
import sys, time
from benchmarks.run_lock import run_lock
with run_lock(sys.argv[1]):
    print("held", flush=True)
    time.sleep(600)
"""


def test_a_second_run_into_the_same_out_is_refused_until_the_first_ends(setup, tmp_path):
    db, qfile = setup
    out = tmp_path / "run"
    out.mkdir()
    holder = subprocess.Popen([sys.executable, "-c", _HOLD_LOCK, str(out)], stdout=subprocess.PIPE, text=True,
                              cwd=Path(__file__).parent.parent)
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(UsageError, match=rf"another run is writing to {out} \(pid {holder.pid}, started "):
            run(_spec(db, qfile, out), factory=BruteForceFactory(str(db)))
        assert not (out / "results.jsonl").exists()
    finally:
        os.kill(holder.pid, signal.SIGKILL)  # dies holding the lock: its lock file stays behind
        holder.wait()
    assert (out / ".lock").exists()
    outcome = run(_spec(db, qfile, out), factory=BruteForceFactory(str(db)))  # the stale lock is no obstacle
    assert outcome.answered_now == len(QUESTIONS)


def test_tapered_batches_keep_every_question_once_and_end_in_quarter_batches():
    questions = list(range(300))
    batches = tapered(questions, 64, 2)
    assert [q for batch in batches for q in batch] == questions
    assert [len(b) for b in batches] == [64, 64, 44] + [16] * 8  # 300 - 2 * 64 = 172 in batches of 64, then quarters
    assert tapered(list(range(10)), 64, 2) == [list(range(0, 10))[i : i + 16] for i in range(0, 10, 16)]
    assert tapered([], 64, 2) == []
