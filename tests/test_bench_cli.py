"""`ari bench` commands through the real CLI entry point."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

from bench_support import build_store, question_records

from memory import bundled_memory_path
from tkg_store.demo import DEMO_QUESTIONS


def _ari(*args):
    return subprocess.run([sys.executable, "-m", "ari", *args], capture_output=True, text=True, timeout=120)


def _summary(path, hits, by_qtype):
    path.mkdir()
    (path / "summary.json").write_text(json.dumps({"n": 10, "hits_at_1": hits, "by_qtype": by_qtype}))
    return path


def test_compare_prints_deltas(tmp_path):
    a = _summary(tmp_path / "a", 0.5, {"equal": 0.4, "first_last": 0.6})
    b = _summary(tmp_path / "b", 0.75, {"equal": 0.5})
    done = _ari("bench", "compare", str(a), str(b), "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    rows = {r["metric"]: r for r in data["metrics"]}
    assert data["runs"] == ["a", "b"] and data["changed"] == []  # summaries alone: no per-question records
    assert rows["hits_at_1"]["values"] == [0.5, 0.75] and rows["hits_at_1"]["deltas"] == [None, 0.25]
    assert abs(rows["qtype:equal"]["deltas"][1] - 0.1) < 1e-9 and rows["qtype:first_last"]["deltas"] == [None, None]
    table = _ari("bench", "compare", str(a), str(b))
    assert "hits_at_1" in table.stdout and "+0.250" in table.stdout
    assert "changed questions: not listed" in table.stdout


def test_compare_missing_run_is_one_line_error(tmp_path):
    done = _ari("bench", "compare", str(tmp_path / "nope"), str(tmp_path / "nope2"))
    assert done.returncode == 1 and done.stderr.startswith("Error: no summary.json")


def test_make_unanswerable_cli(tmp_path):
    db = build_store(tmp_path / "kg.duckdb")
    qfile = tmp_path / "q.json"
    qfile.write_text(json.dumps(question_records()))
    out = tmp_path / "un.json"
    done = _ari("bench", "make-unanswerable", "--db", str(db), "--questions", str(qfile), "--out", str(out),
                "--per-kind", "1", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["by_reason"] == {"time_outside_kg": 1, "entity_not_in_kg": 1, "facts_hidden": 1}
    assert len(json.loads(out.read_text())) == 3


def test_run_usage_errors_exit_non_zero(tmp_path):
    qfile = tmp_path / "q.json"
    qfile.write_text(json.dumps(question_records()))
    done = _ari("bench", "run", "multitq", "--questions", str(qfile), "--out", str(tmp_path / "o"), "--workers", "0")
    assert done.returncode == 2 and "--workers" in done.stderr
    bad = _ari("bench", "run", "multitq", "--questions", str(qfile), "--out", str(tmp_path / "o"), "--shard", "5/2")
    assert bad.returncode == 2 and "--shard" in bad.stderr
    missing = _ari("bench", "run", "multitq", "--questions", str(tmp_path / "nope.json"), "--out", str(tmp_path / "o"))
    assert missing.returncode == 1 and "no questions file" in missing.stderr


def test_every_bench_command_has_help():
    for command in ("run", "report", "compare", "make-unanswerable"):
        done = _ari("bench", command, "--help")
        assert done.returncode == 0 and len(done.stdout) > 200


def test_run_with_skip_bad_says_how_many_records_it_skipped_and_where_they_are_listed(tmp_path, demo_store_file):
    records = json.loads(DEMO_QUESTIONS.read_text(encoding="utf-8"))[:2]
    bad = [{"quid": 901, "question": "No answers field?", "answer_type": "entity"}, dict(records[0], quid=902, answer_type="x")]
    qfile = tmp_path / "q.json"
    qfile.write_text(json.dumps([records[0], bad[0], records[1], bad[1]]), encoding="utf-8")
    memory = tmp_path / "memory.sqlite"
    shutil.copyfile(bundled_memory_path(), memory)
    out = tmp_path / "run"
    done = _ari("bench", "run", "multitq", "--questions", str(qfile), "--db", str(demo_store_file), "--memory", str(memory),
                "--out", str(out), "--skip-bad", "--json")
    assert done.returncode == 0, done.stderr
    assert f"skipped 2 malformed records of {qfile} (--skip-bad); listed in {out / 'run.json'}" in done.stderr.splitlines()
    run = json.loads((out / "run.json").read_text())
    assert run["skipped_bad"] == 2 and json.loads(done.stdout)["n"] == 2
    assert [r.split(":")[0] for r in run["skipped_records"]] == ["record 1", "record 3"]
