"""Exit codes and messages of the real CLI, run as a user runs it: a subprocess of the interpreter
that runs the tests (`python -m ari`), so Typer's and Click's own handling is part of what is checked.

0 done, 1 a domain error, 2 a usage error (the usage line, one message, no traceback), 130 Ctrl-C
("interrupted", after saving what was done), 143 SIGTERM ("terminated", after saving the same).
"""

from __future__ import annotations

import json
import logging
import shutil
import signal
import subprocess
import sys
import time

import pytest

from ari.base.errors import AriError
from benchmarks.results_log import read_results
from memory import Memory, bundled_memory_path
from tkg_store.demo import DEMO_QUESTIONS


def _ari(*args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ari", *args], capture_output=True, text=True, timeout=120, **kwargs)


@pytest.mark.parametrize(
    "args, usage, message",
    [
        (["ask"], "Usage: ari ask", "Missing argument"),
        (["ask", "hi", "--bogus"], "Usage: ari ask", "No such option: --bogus"),
        (["kg", "facts", "--limit", "-1"], "Usage: ari kg facts", "Invalid value for '--limit'"),
        (["memory", "show", "x"], "Usage: ari memory show", "Invalid value for 'cluster'"),
        (["bench", "run"], "Usage: ari bench run", "Missing argument"),
        (["nope"], "Usage: ari", "No such command"),
    ],
)
def test_usage_errors_print_the_usage_line_and_exit_2(args, usage, message):
    done = _ari(*args)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith(usage) and message in done.stderr
    assert done.stdout == ""


def test_a_bench_run_with_no_memory_at_its_path_is_one_line_and_exit_1(tmp_path, demo_store_file):
    missing = tmp_path / "no-such-memory.sqlite"
    done = _ari("bench", "run", "multitq", "--questions", str(DEMO_QUESTIONS), "--db", str(demo_store_file),
                "--memory", str(missing), "--workers", "2", "--out", str(tmp_path / "run"), "--quiet")
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr and str(missing) in done.stderr
    assert not missing.exists()  # nothing made where the user pointed


def test_help_exits_0():
    done = _ari("ask", "--help")
    assert done.returncode == 0 and "--unguided" in done.stdout


def test_memory_show_minus_one_is_the_all_traces_methodology(tmp_path):
    memory = tmp_path / "m.sqlite"
    shutil.copyfile(bundled_memory_path(), memory)
    done = _ari("memory", "show", "-1", "--memory", str(memory), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["cluster_id"] == -1


def test_question_that_is_not_utf8_is_a_usage_error():
    done = subprocess.run([sys.executable.encode(), b"-m", b"ari", b"ask", b"Who visited \xff China?"],
                          capture_output=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.decode().strip() == "Error: the question cannot be read: invalid UTF-8 byte 0xff at character 13"


@pytest.mark.parametrize(
    ("question", "message"),
    [("", "the question is empty"), ("  ", "the question is empty"),
     ("Who praised Iran? " * 200, "the question is longer than 2000 characters (3600)")],
    ids=["empty", "blank", "too long"],
)
def test_a_question_ari_ask_does_not_take_is_a_usage_error(question, message):
    # the rule `ari serve` answers 422 by and a questions file's loader refuses the record by
    done = _ari("ask", question)
    assert done.returncode == 2
    assert done.stderr == f"Error: {message}\n" and done.stdout == ""


@pytest.fixture
def demo_run(tmp_path, demo_store_file):
    """A copy of the demo KG and memory, and a questions file long enough to interrupt (the demo
    questions repeated under new ids)."""
    db = tmp_path / "demo.duckdb"
    for built in demo_store_file.parent.glob("demo.duckdb*"):
        shutil.copyfile(built, tmp_path / built.name)
    memory = tmp_path / "memory.sqlite"
    shutil.copyfile(bundled_memory_path(), memory)
    records = json.loads(DEMO_QUESTIONS.read_text(encoding="utf-8"))
    many = [dict(r, quid=round_ * 1000 + r["quid"]) for round_ in range(50) for r in records]
    questions = tmp_path / "questions.json"
    questions.write_text(json.dumps(many), encoding="utf-8")
    return db, memory, questions


@pytest.mark.parametrize("signum, code, said", [(signal.SIGINT, 130, "interrupted"), (signal.SIGTERM, 143, "terminated")], ids=["ctrl-c", "term"])
def test_ctrl_c_or_term_in_bench_run_keeps_what_was_answered_and_writes_the_summary(tmp_path, demo_run, signum, code, said):
    db, memory, questions = demo_run
    out = tmp_path / "run"
    command = [sys.executable, "-m", "ari", "bench", "run", "multitq", "--questions", str(questions), "--db", str(db),
               "--memory", str(memory), "--out", str(out), "--batch-size", "1", "--quiet"]
    # SIGINT's default action, even when this suite runs in a background job (which ignores it)
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    results = out / "results.jsonl"
    while proc.poll() is None and (not results.exists() or len(results.read_text().splitlines()) < 3):
        time.sleep(0.05)
    assert proc.poll() is None, proc.communicate()[1]
    proc.send_signal(signum)
    stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == code, stderr
    assert stderr.strip().splitlines() == [said] and stdout == ""
    kept = read_results(results)
    assert 3 <= len(kept) < 50 * 48
    summary = json.loads((out / "summary.json").read_text())
    assert summary["n"] == len(kept) and summary["complete"] is False


def test_term_in_memory_learn_keeps_the_recorded_questions_and_exits_143(tmp_path, demo_run):
    db, _, questions = demo_run
    memory = tmp_path / "learnt.sqlite"
    command = [sys.executable, "-m", "ari", "memory", "learn", "--questions", str(questions), "--db", str(db),
               "--memory", str(memory), "--workers", "1", "--quiet"]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while proc.poll() is None and time.monotonic() < deadline and _learnt(memory) == 0:
        time.sleep(0.05)
    assert proc.poll() is None, proc.communicate()[1]
    proc.send_signal(signal.SIGTERM)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 143, stderr
    assert stderr.strip().splitlines() == ["terminated"] and stdout == ""
    assert 0 < _learnt(memory) < 50 * 48


def _learnt(memory) -> int:
    """Traces a learning run has recorded in `memory` so far (0 while it is making the file)."""
    try:
        with Memory.open(memory, create=False, read_only=True) as opened:
            return opened.history.count()
    except AriError:
        return 0


def test_a_library_log_of_an_interrupt_stays_off_stderr_and_other_errors_do_not(capsys):
    """A library that catches Ctrl-C or TERM, logs it with its traceback and raises it on (SQLAlchemy's
    pool, when the signal lands as it hands a connection back) prints nothing: the CLI's one line is
    the report. Its other errors still reach stderr through Python's last-resort handler."""
    from ari.base.processes import Terminated, interruptions_reported_once

    logger = logging.getLogger("ari-test-unconfigured-library")
    logger.propagate = False  # no handler anywhere: Python's last resort prints, as in `ari` itself
    with interruptions_reported_once():
        for caught in (Terminated(), KeyboardInterrupt(), ValueError("disk gone")):
            try:
                raise caught
            except BaseException:
                logger.error("Exception during reset or similar", exc_info=True)
    printed = capsys.readouterr().err
    assert printed.count("Exception during reset or similar") == 1 and "ValueError: disk gone" in printed
    assert "KeyboardInterrupt" not in printed and "Terminated" not in printed
