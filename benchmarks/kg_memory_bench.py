"""A memory generated from the KG alone against the README's dev-learned memory, side by side on MultiTQ.

    python -m benchmarks.kg_memory_bench --db multitq.duckdb --data-dir ../shared/data/multitq \\
        --learned-memory readme-mem.sqlite [--generate 60] [--search] [--seed 0] \\
        [--sample 2000 --shard 1/2] [--out benchmarks/results/kg_memory]

1. Copies the store into a work folder (its derived tables are kept beside the copy).
2. Generates the KG-only memory there: `agents.learning.learn_generated` (what `ari memory learn
   --generate N` runs), timed in this process with the store's opening and the model's loading, and
   with no relation lexicon (`lexicon=False`): no labelled question goes into it, not even through
   the lexicon learned from MultiTQ's questions that ARI bundles for a MultiTQ store.
3. Copies the learned memory (so the file given is never opened for writing).
4. Runs `ari bench run multitq ... --workers 1` with each memory on the same questions, in this
   order, with the same code, ARI_RELATION_LEXICON unset (so at ask time both sides read ARI's
   default lexicon for the store, the bundled one for MultiTQ), or set to --lexicon for both.

Writes kg_memory.json and kg_memory.md under --out: Hits@1 (overall and per question type) of both,
their ratio, the generation's time and what it made (questions, correct traces by shape).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

from benchmarks.results_io import table, write_results

TARGET_RATIO = 0.95  # the bar: the KG-only memory reaches this share of the learned one's Hits@1
BUDGET_S = 180  # the README's budget for a learning command


def generate_memory(db: Path, memory: Path, per_shape: int, seed: int, search: bool, clusters: int) -> dict:
    """Build the KG-only memory; its report, wall and CPU seconds, and what it holds by shape."""
    from agents.learning import learn_generated

    load = os.getloadavg()[0]
    cpu_before = resource.getrusage(resource.RUSAGE_SELF)
    started = time.perf_counter()
    report = learn_generated(db, str(memory), per_shape, seed=seed, search=search, lexicon=False, n_clusters=clusters, quiet=True)
    wall = time.perf_counter() - started
    cpu_after = resource.getrusage(resource.RUSAGE_SELF)
    cpu = (cpu_after.ru_utime - cpu_before.ru_utime) + (cpu_after.ru_stime - cpu_before.ru_stime)
    return {
        "wall_s": round(wall, 1), "cpu_s": round(cpu, 1), "load_1min_before": round(load, 2),
        "load_1min_after": round(os.getloadavg()[0], 2), "report": report.to_dict(), "by_shape": held_by_shape(memory),
    }


def held_by_shape(memory: Path) -> dict[str, dict[str, int]]:
    """Generated questions and correct traces per shape (question type) in the memory."""
    from memory import Memory

    with Memory.open(str(memory), read_only=True) as mem:
        records = mem.history.records()
    held: dict[str, dict[str, int]] = {}
    for record in records:
        row = held.setdefault(record.trace.qtype or "-", {"traces": 0, "correct": 0})
        row["traces"] += 1
        row["correct"] += record.trace.outcome == "correct"
    return dict(sorted(held.items()))


def bench(db: Path, memory: Path, args: argparse.Namespace, out: Path) -> dict:
    command = [
        sys.executable, "-m", "ari", "bench", "run", "multitq", "--data-dir", str(args.data_dir), "--split", "dev",
        "--sample", str(args.sample), "--shard", args.shard, "--seed", str(args.seed), "--db", str(db),
        "--memory", str(memory), "--workers", "1", "--out", str(out), "--restart", "--quiet",
    ]
    env = {k: v for k, v in os.environ.items() if k != "ARI_RELATION_LEXICON"}
    if args.lexicon is not None:
        env["ARI_RELATION_LEXICON"] = str(args.lexicon)
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        sys.exit(f"bench run failed ({done.returncode}): {done.stderr.strip()[-2000:]}")
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    return {
        "command": " ".join(["ari", *command[3:]]), "wall_s": round(time.perf_counter() - started, 1),
        "n": summary["n"], "hits_at_1": summary["hits_at_1"], "by_qtype": summary["by_qtype"], "abstained": summary["abstained"],
    }


def markdown(result: dict) -> str:
    kg, learned = result["kg_only"], result["learned"]
    made = result["generation"]
    qtypes = sorted(set(kg["by_qtype"]) | set(learned["by_qtype"]))
    lines = [
        "# A memory from the KG alone vs the README's dev-learned memory (MultiTQ dev)",
        "",
        f"Questions: dev, `--sample {result['sample']} --shard {result['shard']} --seed {result['seed']}` ({kg['n']} questions), "
        "one `ari bench run` each, same code, "
        + (f"ARI_RELATION_LEXICON={result['lexicon']} for both." if result.get("lexicon") else "ARI_RELATION_LEXICON unset (both read the store's default lexicon when answering)."),
        "",
        "| memory | what it was learned from | Hits@1 | " + " | ".join(qtypes) + " | abstained |",
        "| --- | --- | --- | " + " | ".join("---" for _ in qtypes) + " | --- |",
        f"| KG only | `--generate {result['per_shape']}{' --search' if result['search'] else ''}`, no labelled question, no lexicon | "
        f"{kg['hits_at_1']:.3f} | " + " | ".join(f"{kg['by_qtype'].get(q, 0):.3f}" for q in qtypes) + f" | {kg['abstained']} |",
        f"| learned | {result['learned_memory_note']} | {learned['hits_at_1']:.3f} | "
        + " | ".join(f"{learned['by_qtype'].get(q, 0):.3f}" for q in qtypes) + f" | {learned['abstained']} |",
        "",
        f"Ratio KG-only / learned: **{result['ratio']:.3f}** (bar: >= {TARGET_RATIO}).",
        "",
        f"Generation: {made['report']['questions']} questions, {made['report']['searched_correct']} correct traces, "
        f"{made['wall_s']} s wall / {made['cpu_s']} s CPU in this process (store opening and model loading included; "
        f"1-min load {made['load_1min_before']} before, {made['load_1min_after']} after; README budget {BUDGET_S} s).",
        "",
        *table(["shape", "traces", "correct"], ([shape, row["traces"], row["correct"]] for shape, row in made["by_shape"].items())),
        "",
        f"Machine: {result['machine']}. Other jobs shared it (see the load): wall times are inflated by them.",
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, required=True, help="the MultiTQ store (`ari ingest multitq ...`); copied first")
    parser.add_argument("--data-dir", type=Path, required=True, help="the MultiTQ folder (questions/dev.json)")
    parser.add_argument("--learned-memory", type=Path, required=True, help="the README's dev-learned memory; copied first")
    parser.add_argument("--learned-note", default="the README's `ari memory learn --dataset multitq --split dev --limit 4000 --search --clusters 50`",
                        help="what the learned memory was learned from (for the table)")
    parser.add_argument("--generate", type=int, default=60, help="questions of each shape the KG asks itself")
    parser.add_argument("--search", action="store_true", help="also run the program search on the generated questions")
    parser.add_argument("--lexicon", type=Path, help="answer with ARI_RELATION_LEXICON set to this (default: unset, the store's default lexicon)")
    parser.add_argument("--clusters", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0, help="the question sample's and the generation's seed")
    parser.add_argument("--sample", type=int, default=2000)
    parser.add_argument("--shard", default="1/2", help="the evaluation half (the learning half is 0/2)")
    parser.add_argument("--work", type=Path, default=Path("runs/kg_memory"), help="where the copies and runs go")
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "kg_memory")
    args = parser.parse_args(argv)
    if not args.db.exists() or not args.learned_memory.exists():
        sys.exit(f"no such file: {args.db if not args.db.exists() else args.learned_memory}")

    args.work.mkdir(parents=True, exist_ok=True)
    db = args.work / "kg.duckdb"
    shutil.copyfile(args.db, db)
    kg_memory = args.work / "kg-only.sqlite"
    for stale in args.work.glob("kg-only.sqlite*"):
        stale.unlink()
    generation = generate_memory(db, kg_memory, args.generate, args.seed, args.search, args.clusters)
    learned = args.work / "learned.sqlite"
    shutil.copyfile(args.learned_memory, learned)
    kg_run = bench(db, kg_memory, args, args.work / "run-kg-only")
    learned_run = bench(db, learned, args, args.work / "run-learned")
    result = {
        "per_shape": args.generate, "search": args.search, "seed": args.seed, "sample": args.sample, "shard": args.shard,
        "clusters": args.clusters, "learned_memory_note": args.learned_note, "lexicon": None if args.lexicon is None else str(args.lexicon),
        "machine": f"{os.cpu_count()} cores, {platform.processor() or platform.machine()}, Python {platform.python_version()}",
        "generation": generation, "kg_only": kg_run, "learned": learned_run,
        "ratio": kg_run["hits_at_1"] / learned_run["hits_at_1"] if learned_run["hits_at_1"] else 0.0,
    }
    name = (f"kg_memory_g{args.generate}{'_search' if args.search else ''}{'_' + args.lexicon.stem if args.lexicon else ''}"
            f"{f'_seed{args.seed}' if args.seed else ''}")
    args.out.mkdir(parents=True, exist_ok=True)
    write_results(args.out, name, result, markdown(result))
    print(markdown(result))


if __name__ == "__main__":
    main()
