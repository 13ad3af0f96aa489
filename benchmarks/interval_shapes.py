"""The interval shapes on questions an interval KG asks itself: "who held Y while X did" (`getDuring`,
CronQuestions' time_join) and "who held Y before / after X" (the holder just before / after), with
golds computed by the actions' exact semantics (`agents.generate`), drawn with a seed the KG-only
memory was not generated with; Hits@1 per memory, side by side.

    python -m benchmarks.interval_shapes --db W/wd12k.duckdb --memory generated=W/generated.sqlite \\
        --memory tune_memory=W/tune_memory.sqlite --seed 1 --per-shape 60 --out benchmarks/results/cron_wd12k

CronQuestions' own valid questions hold no time_join question that Wikidata12k reproduces
(`benchmarks.cron_devset`), so these machine-worded questions are the measure of that shape here: they
say whether the shape is read, planned and answered, not how people word it. Writes
`interval_shapes.json` and `.md` under --out.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from agents.generate import Generated, generate
from ari.api import build_agent
from benchmarks.results_io import table, write_results
from memory.labels import hit


def interval_questions(generated: list[Generated]) -> list[Generated]:
    """The questions of the interval blueprints: "while", and before / after a holding (just before / after)."""
    return [
        g for g in generated
        if g.shape == "during" or (g.shape == "before_after" and g.program.operations & {"first", "last"})
    ]


def shape_of(question: Generated) -> str:
    ops = question.program.operations
    return "during" if "during" in ops else "before (just before)" if "before" in ops else "after (just after)"


def measure(db: Path, memory: str, per_shape: int, seed: int) -> dict:
    agent, store, mem = build_agent(db, memory)
    try:
        questions = interval_questions(generate(store, per_shape, seed=seed, shapes=("during", "before_after")))
        results = agent.ask_many([q.gold.text for q in questions])
    finally:
        store.close()
        if mem is not None:
            mem.close()
    rows: dict[str, dict[str, int]] = {}
    for question, result in zip(questions, results):
        row = rows.setdefault(shape_of(question), {"n": 0, "hits": 0, "abstained": 0})
        row["n"] += 1
        row["hits"] += bool(result.answer) and hit(result.answer or "", question.gold.answers, "entity")
        row["abstained"] += result.abstained
    return {shape: {**row, "hits_at_1": round(row["hits"] / row["n"], 3)} for shape, row in sorted(rows.items())}


def markdown(data: dict) -> str:
    shapes = sorted({s for figures in data["memories"].values() for s in figures})
    lines = ["# Interval shapes on questions Wikidata12k asks itself", "",
             f"Drawn with seed {data['seed']}, {data['per_shape']} per shape asked of `agents.generate` (the interval blueprints kept).", "",
             *table(["memory", *shapes], (
                 [name, *(f"{figures[s]['hits_at_1']:.3f} (n {figures[s]['n']}, abstained {figures[s]['abstained']})" if s in figures else "-"
                          for s in shapes)]
                 for name, figures in data["memories"].items()))]
    lines += ["", "Command:", "", "```", data["command"], "```", ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, required=True, help="an interval store (`ari ingest tsv ... --open-ends point`)")
    parser.add_argument("--memory", action="append", required=True, help="NAME=PATH, once per memory")
    parser.add_argument("--per-shape", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/cron_wd12k"))
    args = parser.parse_args(argv)
    memories = dict(item.split("=", 1) for item in args.memory)
    command = "python -m benchmarks.interval_shapes " + " ".join(
        [f"--db {args.db}", *(f"--memory {n}={p}" for n, p in memories.items()), f"--per-shape {args.per_shape}", f"--seed {args.seed}", f"--out {args.out}"])
    data = {"seed": args.seed, "per_shape": args.per_shape, "command": command,
            "memories": {name: measure(args.db, path, args.per_shape, args.seed) for name, path in memories.items()}}
    args.out.mkdir(parents=True, exist_ok=True)
    write_results(args.out, "interval_shapes", data, markdown(data), indent=1)
    print(markdown(data))


if __name__ == "__main__":
    main()
