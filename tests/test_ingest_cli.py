"""`ari ingest` and `ari kg` through the real CLI (Typer's CliRunner; one real subprocess for exit codes)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from ari.cli import app

runner = CliRunner()


def write_multitq(root: Path) -> Path:
    (root / "kg").mkdir(parents=True)
    (root / "kg" / "full.txt").write_text(
        "Armed_Gang_(Palestinian_Territory,_Occupied)\tPraise_or_endorse\tMahmoud_Abbas\t2005-01-01\n"
        "Iran\tMake_a_visit\tChina\t2007-03-04\n"
        "Iran\tMake_a_visit\tChina\t2009-03-04\n",
        encoding="utf-8",
    )
    return root


def test_ingest_multitq_summary_then_info_and_facts(tmp_path: Path) -> None:
    db = tmp_path / "kg.duckdb"
    result = runner.invoke(app, ["ingest", "multitq", str(write_multitq(tmp_path / "m")), "--db", str(db), "--quiet"])
    assert result.exit_code == 0, result.output
    assert "facts" in result.stdout and "2005-01-01 .. 2009-03-04" in result.stdout
    again = runner.invoke(app, ["ingest", "multitq", str(tmp_path / "m"), "--db", str(db), "--json"])
    data = json.loads(again.stdout)
    assert (data["facts_added"], data["facts"], data["entities"], data["skipped_lines"]) == (0, 3, 4, 0)

    info = runner.invoke(app, ["kg", "info", "--db", str(db), "--json"])
    data = json.loads(info.stdout)
    assert data["counts"] == {"entities": 4, "relations": 2, "facts": 3}
    assert data["time_range"] == {"start": "2005-01-01", "end": "2009-03-04"}
    assert data["meta"]["source"] == "multitq" and len(data["meta"]["ingests"]) == 2

    facts = runner.invoke(app, ["kg", "facts", "--db", str(db), "--head", "Iran", "--relation", "Make_a_visit", "--time", "2009", "--json"])
    assert json.loads(facts.stdout) == [
        {"head": "Iran", "relation": "Make_a_visit", "tail": "China", "start": "2009-03-04", "end": "2009-03-04", "granularity": "day"}
    ]


def test_ingest_tsv_skip_bad_and_cronquestions(tmp_path: Path) -> None:
    tsv = tmp_path / "kg.tsv"
    tsv.write_text("A\tR\tB\t2005\nbroken line\nC\tR\tB\t2006-13\n", encoding="utf-8")
    result = runner.invoke(app, ["ingest", "tsv", str(tsv), "--db", str(tmp_path / "t.duckdb"), "--skip-bad", "--json"])
    data = json.loads(result.stdout)
    assert (data["facts_added"], data["skipped_lines"]) == (1, 2)
    (tmp_path / "cron" / "kg").mkdir(parents=True)
    (tmp_path / "cron" / "kg" / "full.txt").write_text("Q1\tP39\tQ2\t1990\t\n", encoding="utf-8")
    result = runner.invoke(app, ["ingest", "cronquestions", str(tmp_path / "cron"), "--db", str(tmp_path / "c.duckdb"), "--json"])
    assert json.loads(result.stdout)["facts_added"] == 1


def test_errors_are_one_line_with_exit_codes(tmp_path: Path) -> None:
    tsv = tmp_path / "kg.tsv"
    tsv.write_text("A\tR\tB\t2005\nA\tR\n", encoding="utf-8")
    db = tmp_path / "kg.duckdb"
    done = subprocess.run([sys.executable, "-m", "ari", "ingest", "tsv", str(tsv), "--db", str(db)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [f"Error: {tsv}:2: expected 4 or 5 tab-separated fields (head, relation, tail, time | start, end), found 2 (use --skip-bad to skip malformed lines)"]
    assert done.stdout == "" and not db.exists()


def test_kg_defaults_to_the_demo_store(tmp_path: Path, monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.setenv("ARI_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("ARI_DB", raising=False)
    info = runner.invoke(app, ["kg", "info", "--json"])
    assert info.exit_code == 0, info.output
    assert json.loads(info.stdout)["db"] == str(tmp_path / "home" / "demo.duckdb")
    unknown = runner.invoke(app, ["kg", "facts", "--head", "Musharraf"])
    assert unknown.exit_code != 0 and "Pervez_Musharraf" in str(unknown.exception)


def test_every_command_has_help() -> None:
    for args in (["ingest"], ["ingest", "multitq"], ["ingest", "cronquestions"], ["ingest", "tsv"], ["kg"], ["kg", "info"], ["kg", "facts"]):
        result = runner.invoke(app, [*args, "--help"])
        assert result.exit_code == 0 and "Usage" in result.stdout, args
        assert "TODO" not in result.stdout


def test_kg_text_is_printed_as_written_never_as_markup(tmp_path: Path) -> None:
    """Entity names are data: "[/x]" is no closing tag (a crash), "[red]" no colour (a changed answer)."""
    tsv = tmp_path / "kg.tsv"
    tsv.write_text("Evil[/x]Corp\tMake_a_visit\tIran\t2008-05-01\n[red]Acme\tMake_a_visit\tChina\t2009-05-01\n", encoding="utf-8")
    db = tmp_path / "kg.duckdb"

    def ari(*args: str) -> subprocess.CompletedProcess:
        env = {**os.environ, "ARI_HOME": str(tmp_path / "home"), "COLUMNS": "200"}
        return subprocess.run([sys.executable, "-m", "ari", *args], capture_output=True, text=True, timeout=300, env=env)

    assert ari("ingest", "tsv", str(tsv), "--db", str(db), "--quiet").returncode == 0
    facts = ari("kg", "facts", "--db", str(db))
    assert facts.returncode == 0 and "Traceback" not in facts.stderr, facts.stderr
    assert "Evil[/x]Corp" in facts.stdout and "[red]Acme" in facts.stdout
    for question, answer in (("Who visited Iran in 2008?", "Evil[/x]Corp"), ("Who visited China in 2009?", "[red]Acme")):
        done = ari("ask", question, "--db", str(db), "--unguided", "--no-record", "--trace")
        assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
        assert done.stdout.splitlines()[0].split("  (unguided")[0] == answer


def test_ingest_into_a_store_in_a_read_only_folder_is_one_line_naming_the_folder(tmp_path: Path) -> None:
    """The store file is writable, its folder is not (so DuckDB cannot create its .wal there). The
    children run without root's power over file modes (`unprivileged`), so the kernel refuses."""
    from unprivileged import unprivileged

    folder = tmp_path / "shared"
    db = folder / "kg.duckdb"
    first, second = tmp_path / "a.tsv", tmp_path / "b.tsv"
    first.write_text("A\tR\tB\t2005\n", encoding="utf-8")
    second.write_text("C\tR\tB\t2006\n", encoding="utf-8")
    assert runner.invoke(app, ["ingest", "tsv", str(first), "--db", str(db), "--quiet", "--no-tables"]).exit_code == 0
    before = db.read_bytes()
    folder.chmod(0o555)
    try:
        done = subprocess.run([sys.executable, "-m", "ari", "ingest", "tsv", str(second), "--db", str(db), "--quiet"],
                              capture_output=True, text=True, timeout=120, preexec_fn=unprivileged())
        assert done.returncode == 1, done.stderr
        assert done.stderr.splitlines() == [f"Error: cannot write {db}: its folder {folder} is not writable (DuckDB writes kg.duckdb.wal there)"]
        # past that check, the same refusal at commit (where the .wal is first created) is one line too
        code = ("import os; from tkg_store.ingest import core, ingest; core.os.access = lambda *a: True; "
                f"ingest('tsv', {str(second)!r}, {str(db)!r})")
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, preexec_fn=unprivileged())
        assert done.returncode == 1 and f"StoreError: cannot write {db} (the store is unchanged): " in done.stderr.splitlines()[-1]
        assert db.read_bytes() == before and sorted(p.name for p in folder.iterdir()) == ["kg.duckdb"]
    finally:
        folder.chmod(0o755)


def test_a_file_with_no_facts_is_an_error_that_leaves_the_store_untouched(tmp_path: Path) -> None:
    empty, bad = tmp_path / "empty.tsv", tmp_path / "bad.tsv"
    empty.write_bytes(b"")
    bad.write_text("not a fact\n", encoding="utf-8")
    db = tmp_path / "kg.duckdb"
    for args, message in (([str(empty)], f"Error: no facts in {empty}; {db} was not touched"),
                          ([str(bad), "--skip-bad"], f"Error: no facts in {bad} (1 malformed lines skipped); {db} was not touched")):
        done = subprocess.run([sys.executable, "-m", "ari", "ingest", "tsv", *args, "--db", str(db)],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 1 and done.stderr.splitlines() == [message] and not db.exists()
    first = tmp_path / "a.tsv"
    first.write_text("A\tR\tB\t2005\n", encoding="utf-8")
    assert runner.invoke(app, ["ingest", "tsv", str(first), "--db", str(db), "--quiet"]).exit_code == 0
    before = db.read_bytes()
    assert runner.invoke(app, ["ingest", "tsv", str(empty), "--db", str(db)]).exit_code == 1
    assert db.read_bytes() == before
