"""Memory faults, each reproduced on a real SQLite file: a damaged memory, a read-only one.

The read-only case needs a file this process cannot write; root can write anything, so under root
the command runs without the capabilities that let root ignore file permissions (`unprivileged`).
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from unprivileged import unprivileged as without_root_override

from ari.base.errors import MemoryCorruptError, MemoryReadOnlyError
from memory import HistoryStore, Memory, bundled_memory_path
from memory.trace import Trace

REPO = Path(__file__).parents[1]
DEMO = REPO / "tkg_store" / "demo"
QUESTION = "Who was the last to criticise Iran before Pervez Musharraf did?"


def _damage_table(path: Path, table: str) -> None:
    """Overwrite the root page of one table's b-tree, as a torn write or a bad disk would."""
    raw = sqlite3.connect(path)
    page_size = raw.execute("PRAGMA page_size").fetchone()[0]
    root = raw.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (table,)).fetchone()[0]
    raw.close()
    with path.open("r+b") as handle:
        handle.seek((root - 1) * page_size)
        handle.write(b"\x0d\xff" * (page_size // 2))


def _demo_memory_copy(folder: Path) -> Path:
    """The bundled demo memory, copied and opened once (so it is in WAL mode, as a used memory is)."""
    path = folder / "memory.sqlite"
    shutil.copyfile(bundled_memory_path(), path)
    HistoryStore.open(path).close()
    return path


def _demo_store(folder: Path) -> Path:
    from tkg_store.ingest import ingest

    db = folder / "demo.duckdb"
    ingest("tsv", DEMO / "demo_kg.tsv", db)
    return db


def _ari(*args: str, env: dict | None = None, unprivileged: bool = False) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ari", *args], capture_output=True, text=True, timeout=600, cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO), **(env or {})},
        preexec_fn=without_root_override() if unprivileged else None,
    )


def test_a_damaged_memory_is_one_line_naming_the_file_and_the_check(tmp_path):
    path = _demo_memory_copy(tmp_path)
    _damage_table(path, "traces")
    with Memory.open(path) as memory, pytest.raises(MemoryCorruptError) as caught:
        memory.history.records()
    message = str(caught.value)
    assert str(path) in message and "ari memory check" in message and "\n" not in message
    done = _ari("memory", "stats", "--memory", str(path))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert [line for line in done.stderr.splitlines() if line] == [f"Error: {message}"]


def test_ask_prints_the_answer_it_computed_when_the_memory_cannot_record_it(tmp_path):
    """The methodologies read fine, the traces table is damaged: the answer is printed, then the
    failed recording is one line on stderr and exit code 1."""
    path = _demo_memory_copy(tmp_path)
    _damage_table(path, "traces")
    done = _ari("ask", QUESTION, "--db", str(_demo_store(tmp_path)), "--memory", str(path), "--json")
    assert done.returncode == 1, done.stderr
    assert json.loads(done.stdout)["answer"]
    [line] = [line for line in done.stderr.splitlines() if line]
    assert line.startswith("Error: the answer was not recorded: memory") and "ari memory check" in line


def test_memory_check_reports_damage_and_repair_copies_out_what_is_readable(tmp_path):
    path = _demo_memory_copy(tmp_path)
    with HistoryStore.open(path) as store:
        traces, methodologies = store.count(), len(store.methodologies(store.latest_version()))
    _damage_table(path, "methodologies")
    before = path.read_bytes()
    check = _ari("memory", "check", "--memory", str(path), "--json")
    assert check.returncode == 1
    report = json.loads(check.stdout)
    assert report["ok"] is False and report["problems"]
    repaired = tmp_path / "repaired.sqlite"
    fixed = _ari("memory", "check", "--memory", str(path), "--repair", "--out", str(repaired), "--json")
    assert fixed.returncode == 0, fixed.stderr
    assert path.read_bytes() == before  # the damaged file is left as it was
    with HistoryStore.open(repaired) as store:
        assert store.count() == traces  # the traces were readable, every one is kept
        assert store.latest_version() is not None
    assert json.loads(_ari("memory", "check", "--memory", str(repaired), "--json").stdout)["ok"] is True
    assert methodologies > 0


def test_memory_check_lists_one_problem_a_line_as_many_as_it_counts(tmp_path):
    path = _demo_memory_copy(tmp_path)
    _damage_table(path, "traces")  # integrity_check answers with one row of many lines here
    done = _ari("memory", "check", "--memory", str(path))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    [error] = done.stderr.splitlines()
    assert error.startswith(f"Error: memory {path} is damaged: ") and "--repair" in error
    head, *listed = done.stdout.splitlines()
    problems = [line for line in listed if line.startswith("  ")]
    counted = int(head.split("damaged (")[1].split(" ")[0])
    assert counted == len(problems) > 1 and not any("***" in line for line in problems)


@pytest.mark.parametrize("damage", ["truncated", "text", "empty"])
def test_repairing_a_memory_with_nothing_readable_fails_in_one_line_and_writes_nothing(tmp_path, damage):
    path = tmp_path / "memory.sqlite"
    if damage == "truncated":
        path.write_bytes(bundled_memory_path().read_bytes()[:50_000])
    else:
        path.write_text("" if damage == "empty" else "not a memory\n")
    for _ in range(2):  # nothing is left behind that blocks a retry
        done = _ari("memory", "check", "--memory", str(path), "--repair")
        assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
        [error] = done.stderr.splitlines()
        assert error.startswith(f"Error: nothing in {path} can be read (") and error.endswith("no repaired memory was written")
        assert not [p.name for p in tmp_path.iterdir() if ".repaired" in p.name]


def test_a_read_only_memory_answers_and_says_clearly_that_it_cannot_record(tmp_path):
    folder = tmp_path / "shared"
    folder.mkdir()
    db = _demo_store(folder)
    path = _demo_memory_copy(folder)
    for side in folder.glob("memory.sqlite-*"):
        side.unlink()
    os.chmod(path, 0o444)
    os.chmod(folder, 0o555)  # neither the file nor its folder (where -wal and -shm would go) is writable
    before = path.read_bytes()
    env = {"ARI_HOME": str(tmp_path / "home")}
    try:
        done = _ari("ask", QUESTION, "--db", str(db), "--memory", str(path), "--json", env=env, unprivileged=True)
        assert json.loads(done.stdout)["answer"], done.stderr  # read, guided by the memory
        assert done.returncode == 1
        [line] = [line for line in done.stderr.splitlines() if line]
        assert "read-only" in line and str(path) in line
        quiet = _ari("ask", QUESTION, "--db", str(db), "--memory", str(path), "--no-record", env=env, unprivileged=True)
        assert quiet.returncode == 0 and quiet.stdout.strip() and not quiet.stderr.strip(), quiet.stderr
        assert path.read_bytes() == before
        assert sorted(p.name for p in folder.iterdir()) == ["demo.duckdb", "memory.sqlite"]
    finally:
        os.chmod(folder, 0o755)


def test_read_only_opening_reads_and_refuses_writes_in_one_line(tmp_path):
    path = _demo_memory_copy(tmp_path)
    with Memory.open(path, read_only=True) as memory:
        assert memory.history.read_only and memory.history.count() > 0 and memory.methodologies()
        with pytest.raises(MemoryReadOnlyError, match="read-only"):
            memory.record(Trace("q", "m"))
    assert stat.S_IMODE(path.stat().st_mode) & 0o200  # nothing about the file was changed


def _record_and_crash(path: Path, question: str) -> None:
    """A process that records a trace and dies without closing the memory: its -wal stays behind."""
    code = ("import os; from memory import HistoryStore; from memory.trace import Trace; "
            f"HistoryStore.open({str(path)!r}).add_trace(Trace({question!r}, 'm', answers=['a'])); os._exit(0)")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)})


def test_a_new_bundled_memory_keeps_the_users_traces_and_never_meets_a_stale_wal(tmp_path):
    from memory.bundled import user_copy
    from memory.repair import check

    bundled = tmp_path / "package" / "demo.sqlite"
    bundled.parent.mkdir()
    shutil.copyfile(bundled_memory_path(), bundled)
    copy = tmp_path / "home" / "demo-memory.sqlite"
    assert user_copy(copy, bundled) == copy and copy.read_bytes() == bundled.read_bytes()
    with HistoryStore.open(bundled) as history:
        shipped = history.count()
    _record_and_crash(copy, "my own question")
    assert Path(f"{copy}-wal").stat().st_size > 0  # the user's trace lives in the leftover -wal

    # a reinstall ships a different bundled memory
    with HistoryStore.open(bundled) as history:
        history.add_trace(Trace("a trace of the new bundle", "m"), dataset="demo", split="demo")
    user_copy(copy, bundled)
    assert check(copy).ok
    with HistoryStore.open(copy) as history:
        questions = [t.question for t in history.traces()]
    assert "my own question" in questions and "a trace of the new bundle" in questions
    assert len(questions) == shipped + 2
    assert (copy.parent / "demo-memory.sqlite.previous").exists()

    unchanged = copy.stat().st_mtime_ns
    assert user_copy(copy, bundled) == copy and copy.stat().st_mtime_ns == unchanged  # same bundle: left alone


_HOLD_WRITE_LOCK = """
import sqlite3, sys
con = sqlite3.connect(sys.argv[1], isolation_level=None)
con.execute("BEGIN IMMEDIATE")
print("held", flush=True)
sys.stdin.read()  # holds the lock until the test closes stdin
"""


def _first_line(stream, within_s: float) -> str | None:  # noqa: ANN001 - a text pipe
    """The first line that arrives on `stream` within `within_s` seconds, else None."""
    import select

    ready, _, _ = select.select([stream], [], [], within_s)
    return stream.readline().rstrip("\n") if ready else None


def test_ask_says_once_that_it_waits_for_a_memory_another_process_is_writing(tmp_path, demo_store_file):
    path = _demo_memory_copy(tmp_path)
    holder = subprocess.Popen([sys.executable, "-c", _HOLD_WRITE_LOCK, str(path)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        ask = subprocess.Popen([sys.executable, "-m", "ari", "ask", QUESTION, "--db", str(demo_store_file), "--memory", str(path)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO)
        said = _first_line(ask.stderr, within_s=20)
    finally:
        holder.stdin.close()  # the lock is free: the ask goes on
        holder.wait(timeout=10)
    stdout, stderr = ask.communicate(timeout=60)
    assert said == f"waiting for the memory lock on {path}: another process is writing to it (giving up after 60 s)"
    assert ask.returncode == 0 and stdout.strip() and stderr == ""  # said once
