"""What learning stores, as one hash per table: a speed change to learning must keep it.

    python -m benchmarks.learn_fingerprint --db multitq.duckdb --data-dir ../shared/data/multitq \\
        [--limit 300] [--check benchmarks/results/learn_fingerprint.json] [--out benchmarks/results]

Learns a fresh memory (in a temporary folder) from a stratified sample of N MultiTQ dev questions,
exactly as `ari memory learn --search` does but in this one process (one worker: the order in which
traces are recorded, and so the clustering, is then fixed), and hashes the stored rows: the traces
(every column but the row id and the time of writing) and the methodologies (every column but the
id, the time and the clustering version), each table's rows sorted. The CPU seconds of the whole
learn and of the program search alone are printed beside them.

With `--check FILE` (a fingerprint saved earlier) it exits 1 when a hash differs, naming the table.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.results_io import table, write_results

_SKIPPED = {"id", "created_at", "clustering_version"}  # differ between two identical runs


def table_hash(memory_path: Path, table: str) -> tuple[int, str]:
    """(rows, sha256) of a table's rows without the skipped columns, sorted."""
    import sqlite3

    with sqlite3.connect(memory_path) as conn:
        cursor = conn.execute(f"SELECT * FROM {table}")  # noqa: S608  # a fixed table name of ours
        names = [d[0] for d in cursor.description]
        kept = [i for i, name in enumerate(names) if name not in _SKIPPED]
        rows = sorted(json.dumps([row[i] for i in kept], ensure_ascii=False, default=str) for row in cursor)
    digest = hashlib.sha256("\n".join(rows).encode("utf-8")).hexdigest()
    return len(rows), digest


def fingerprint(db: str, data_dir: Path, limit: int) -> dict:
    import agents.explore as explore
    from agents.learning import LearnSettings, learn
    from ari.base.config import AgentConfig
    from benchmarks.loaders import get_loader
    from benchmarks.selection import stratified_sample

    loader = get_loader("multitq")
    questions = stratified_sample(loader.load(loader.split_path(data_dir, "dev")).questions, limit, seed=0)
    search = explore.search_programs
    spent = [0.0]

    def timed_search(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        started = time.process_time()
        try:
            return search(*args, **kwargs)
        finally:
            spent[0] += time.process_time() - started

    explore.search_programs = timed_search  # looked up at call time by agents.learning
    try:
        with tempfile.TemporaryDirectory(prefix="ari-learn-fingerprint-") as work:
            memory = Path(work) / "memory.sqlite"
            started = time.process_time()
            report = learn(
                db, str(memory), questions, settings=LearnSettings(attempt=True, search=True),
                config=AgentConfig.from_env(), dataset="multitq", split="dev", workers=1, n_clusters=50, quiet=True,
            )
            cpu = time.process_time() - started
            tables = {name: table_hash(memory, name) for name in ("traces", "methodologies")}
    finally:
        explore.search_programs = search
    return {
        "limit": limit,
        "questions": report.questions,
        "searched": report.searched,
        "tables": {name: {"rows": rows, "sha256": digest} for name, (rows, digest) in tables.items()},
        "cpu_s": round(cpu, 1),
        "search_cpu_s": round(spent[0], 1),
    }


def markdown(result: dict, command: str) -> str:
    lines = [
        "# What learning stores (fingerprint)",
        "",
        f"Command: `{command}`",
        "",
        *table(["table", "rows", "sha256 of the sorted rows"], ([name, t["rows"], f"`{t['sha256']}`"] for name, t in result["tables"].items())),
        "",
        f"{result['questions']} questions, {result['searched']} search traces; CPU {result['cpu_s']} s for the whole "
        f"learn in one process, {result['search_cpu_s']} s of it in the program search (a shared machine: CPU time, "
        "not wall time, and still somewhat inflated by the sharing).",
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True, help="the MultiTQ store (`ari ingest multitq ...`)")
    parser.add_argument("--data-dir", required=True, type=Path, help="the MultiTQ folder (questions/dev.json)")
    parser.add_argument("--limit", type=int, default=300)
    parser.add_argument("--check", type=Path, help="a saved fingerprint (JSON) the new one must equal")
    parser.add_argument("--out", type=Path, help="save learn_fingerprint.json and .md here")
    args = parser.parse_args(argv)

    result = fingerprint(args.db, args.data_dir, args.limit)
    command = f"python -m benchmarks.learn_fingerprint --db {args.db} --data-dir {args.data_dir} --limit {args.limit}"
    print(markdown(result, command))
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        write_results(args.out, "learn_fingerprint", {**result, "command": command}, markdown(result, command))
    if args.check:
        expected = json.loads(args.check.read_text(encoding="utf-8"))
        if expected["limit"] != args.limit:
            sys.exit(f"{args.check} was taken on {expected['limit']} questions, not {args.limit}")
        differing = [name for name, t in result["tables"].items() if expected["tables"].get(name) != t]
        if differing:
            sys.exit(f"learning stores something else than {args.check}: {', '.join(differing)} differ")
        print(f"same as {args.check}: {', '.join(result['tables'])}")


if __name__ == "__main__":
    main()
