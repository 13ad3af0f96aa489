"""Every `ari memory` command through Typer's CliRunner, on a memory these tests learn themselves."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ari.base.embedding import get_embedder
from ari.base.errors import MemoryStoreError, UsageError
from ari.cli import app
from memory import Memory
from memory.trace import StepRecord, Trace

runner = CliRunner()

KINDS = {
    "equal": (["Who did {E1} %s in {T1}?" % v for v in ("criticise", "accuse", "condemn")],
              ["getTailEntity(E1, R, T)", "answer(#1)"], ["getHeadEntity(E1, R, T)", "answer(#1)"]),
    "first_last": (["When did {E1} first %s {E2}?" % v for v in ("visit", "host", "travel to")],
                   ["getTime(E1, R, E2)", "getFirst(#1)", "answer(#2)"], ["getTime(E1, R, E2)", "answer(#1)"]),
}


def _trace(masked: str, program: list[str], outcome: str, qtype: str) -> Trace:
    steps = [StepRecord(i, [s], s, s, 2) for i, s in enumerate(program, 1)]
    return Trace(masked, masked, steps, ["x"], outcome=outcome, qtype=qtype)


@pytest.fixture(scope="module")
def memory_path(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("cli") / "memory.sqlite"
    traces = []
    for qtype, (questions, good, bad) in KINDS.items():
        for masked in questions:
            traces += [_trace(masked, good, "correct", qtype)] * 2 + [_trace(masked, bad, "wrong", qtype)]
    with Memory.open(path, embedder=get_embedder()) as memory:
        memory.history.add_traces(traces)
        memory.learn(n_clusters=2)
    return str(path)


def invoke(*args: str):  # noqa: ANN201
    return runner.invoke(app, ["memory", *args], catch_exceptions=True)


def test_stats(memory_path):
    result = invoke("stats", "--memory", memory_path, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["traces"], data["labelled"], data["outcomes"]) == (18, 18, {"correct": 12, "wrong": 6})
    assert data["latest_clustering"]["k"] == 2
    text = invoke("stats", "--memory", memory_path)
    assert "traces: 18" in text.stdout and "accuracy: 66.7%" in text.stdout and "k=2" in text.stdout


def test_clusters(memory_path):
    data = json.loads(invoke("clusters", "--memory", memory_path, "--json").stdout)
    assert sorted(c["size"] for c in data) == [9, 9]
    assert all(c["accuracy"] == pytest.approx(2 / 3, abs=1e-3) for c in data)
    table = invoke("clusters", "--memory", memory_path, "--top", "1")
    assert table.exit_code == 0
    assert "accuracy" in table.stdout and "66.7%" in table.stdout and "{E1}" in table.stdout


def test_show(memory_path):
    clusters = json.loads(invoke("clusters", "--memory", memory_path, "--json").stdout)
    first_last = next(c["cluster_id"] for c in clusters if "first" in c["top_questions"][0][0])
    result = invoke("show", str(first_last), "--memory", memory_path)
    assert result.exit_code == 0, result.output
    assert "Overall Instruction:" in result.stdout and "Step-by-step Guide:" in result.stdout
    assert "getTime(E1, R, E2) -> getFirst(#1) -> answer(#2)" in result.stdout
    assert "pitfall" in result.stdout
    data = json.loads(invoke("show", str(first_last), "--memory", memory_path, "--json").stdout)
    best = data["programs"][0]
    assert (best["program"], best["support"], best["success_rate"]) == (["getTime(E1, R, E2)", "getFirst(#1)", "answer(#2)"], 6, 1.0)
    everything = json.loads(invoke("show", "--memory", memory_path, "--json", "--", "-1").stdout)
    assert everything["cluster_id"] == -1 and len(everything["programs"]) == 2


def test_show_unknown_cluster_is_a_usage_error(memory_path):
    result = invoke("show", "7", "--memory", memory_path)
    assert result.exit_code != 0
    assert isinstance(result.exception, UsageError) and "no cluster 7" in str(result.exception)


def test_export_json_and_markdown(memory_path, tmp_path):
    data = json.loads(invoke("export", "--format", "json", "--memory", memory_path).stdout)
    assert data["clustering"]["version"] == 1 and len(data["clusters"]) == 2
    assert all(c["methodology"]["text"].startswith("Overall Instruction:") for c in data["clusters"])
    out = tmp_path / "report" / "memory.md"
    result = invoke("export", "--format", "markdown", "--out", str(out), "--memory", memory_path)
    assert result.exit_code == 0 and result.stdout.strip() == str(out)
    markdown = out.read_text()
    assert markdown.startswith("# ARI memory: clustering version 1")
    assert "| `getTailEntity(E1, R, T) -> answer(#1)` | 6 | 100% |" in markdown
    assert invoke("export", "--format", "yaml", "--memory", memory_path).exit_code != 0


def test_plot_writes_a_png(memory_path, tmp_path):
    out = tmp_path / "clusters.png"
    result = invoke("plot", "--out", str(out), "--memory", memory_path)
    assert result.exit_code == 0, result.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.stat().st_size > 10_000


def test_induce_makes_a_new_version(memory_path, tmp_path):
    copy = tmp_path / "copy.sqlite"
    copy.write_bytes(Path(memory_path).read_bytes())
    data = json.loads(invoke("induce", "--memory", str(copy), "--clusters", "3", "--json").stdout)
    assert (data["version"], data["k"], data["traces"]) == (2, 3, 18)


def test_inspection_of_a_missing_or_unclustered_memory(tmp_path):
    missing = invoke("stats", "--memory", str(tmp_path / "nope.sqlite"))
    assert isinstance(missing.exception, MemoryStoreError) and not (tmp_path / "nope.sqlite").exists()
    empty = tmp_path / "empty.sqlite"
    Memory.open(empty).close()
    result = invoke("clusters", "--memory", str(empty))
    assert isinstance(result.exception, UsageError) and "not been clustered" in str(result.exception)


def test_corrupt_memory_is_one_line_and_exit_1(tmp_path):
    corrupt = tmp_path / "corrupt.sqlite"
    corrupt.write_text("not a database at all\n" * 10)
    result = subprocess.run(
        [sys.executable, "-m", "ari", "memory", "stats", "--memory", str(corrupt)],
        capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 1
    assert result.stderr.strip() == f"Error: {corrupt} is not an ARI memory (not a SQLite database)"
    assert corrupt.read_text() == "not a database at all\n" * 10


def test_learn_without_a_dataset_location_is_a_usage_error(tmp_path, monkeypatch):
    monkeypatch.delenv("ARI_DATA", raising=False)
    monkeypatch.delenv("ARI_DATA_DIR", raising=False)
    result = invoke("learn", "--dataset", "multitq", "--split", "dev", "--memory", str(tmp_path / "m.sqlite"))
    assert isinstance(result.exception, UsageError) and "--data-dir" in str(result.exception)


def _demo_kg_and_questions(folder: Path, n: int) -> tuple[Path, Path]:
    """The bundled demo KG ingested into `folder`, and a questions file of its first `n` questions."""
    from tkg_store.demo import DEMO_QUESTIONS, DEMO_TSV
    from tkg_store.ingest import ingest

    db = folder / "demo.duckdb"
    ingest("tsv", DEMO_TSV, db)
    questions = folder / "questions.json"
    questions.write_text(json.dumps(json.loads(DEMO_QUESTIONS.read_text())[:n]))
    return db, questions


def test_learn_runs_the_agent_on_labelled_questions(tmp_path):
    try:
        from agents.agent import Agent  # noqa: F401
        from agents.analysis.analyzer import QuestionAnalyzer  # noqa: F401
    except ImportError as exc:
        pytest.skip(f"agent not importable yet: {exc}")
    db, questions = _demo_kg_and_questions(tmp_path, 8)
    memory = tmp_path / "learnt.sqlite"
    result = invoke("learn", "--questions", str(questions), "--limit", "6", "--db", str(db), "--memory", str(memory),
                    "--clusters", "2", "--workers", "1", "--json", "--quiet")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["questions"] == 6 and report["correct"] + report["wrong"] + report["abstained"] == 6
    assert report["learnt"]["traces"] == 6
    with Memory.open(memory) as learnt:
        assert learnt.history.count() == 6
        assert {t.outcome for t in learnt.history.traces()} <= {"correct", "wrong", "abstained"}


def test_learn_searches_in_worker_processes_and_a_repeated_run_stores_nothing(tmp_path):
    db, questions = _demo_kg_and_questions(tmp_path, 6)
    memory = tmp_path / "learnt.sqlite"
    command = [sys.executable, "-m", "ari", "memory", "learn", "--questions", str(questions), "--db", str(db),
               "--memory", str(memory), "--search", "--workers", "2", "--clusters", "2", "--json", "--quiet"]
    first = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert first.returncode == 0, first.stderr
    report = json.loads(first.stdout)
    assert report["questions"] == 6 and report["searched"] > 0 and report["failed"] == 0
    with Memory.open(memory) as learnt:
        stored = learnt.history.count()
        assert stored == 6 + report["searched"]
        assert {t.decider for t in learnt.history.traces()} == {"offline", "search"}
    again = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr
    assert (json.loads(again.stdout)["questions"], json.loads(again.stdout)["skipped"]) == (0, 6)
    with Memory.open(memory) as learnt:
        assert learnt.history.count() == stored


def test_a_memory_says_so_when_used_with_another_kg_than_it_was_learned_on(tmp_path):
    """Learning records the KG (its source, counts and a digest of its names) in the memory; `ari ask`
    and `ari bench run` with another --db warn in one stderr line, and with the same KG say nothing."""
    db, questions = _demo_kg_and_questions(tmp_path, 4)
    memory = tmp_path / "learnt.sqlite"

    def ari(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "ari", *args], capture_output=True, text=True, timeout=600)

    learnt = ari("memory", "learn", "--questions", str(questions), "--db", str(db), "--memory", str(memory),
                 "--clusters", "2", "--workers", "1", "--json", "--quiet")
    assert learnt.returncode == 0, learnt.stderr
    other = tmp_path / "other.duckdb"
    (tmp_path / "other.tsv").write_text("Iran\tMake_a_visit\tChina\t2008-05-01\n", encoding="utf-8")
    assert ari("ingest", "tsv", str(tmp_path / "other.tsv"), "--db", str(other), "--quiet").returncode == 0

    question = "Who visited China in 2008?"
    same = ari("ask", question, "--db", str(db), "--memory", str(memory), "--no-record")
    assert same.returncode == 0 and same.stderr == "", same.stderr
    elsewhere = ari("ask", question, "--db", str(other), "--memory", str(memory), "--no-record")
    warning = (f"Warning: memory {memory} was learned on the KG at {db} (tsv: ", f"not on {other} (tsv: 2 entities, 1 facts): "
               "its methodologies may not fit")
    [line] = elsewhere.stderr.splitlines()
    assert line.startswith(warning[0]) and warning[1] in line, line
    bench = ari("bench", "run", "multitq", "--questions", str(questions), "--db", str(other), "--memory", str(memory),
                "--out", str(tmp_path / "run"), "--quiet", "--json")
    assert bench.returncode == 0, bench.stderr
    [line] = bench.stderr.splitlines()
    assert line.startswith(warning[0]) and warning[1] in line, line
