"""The ablation suite (paper Table 2) and the number-of-clusters sweep (paper Figure 7).

Each variant is one `ari bench run` with one AgentConfig switch changed, over the same sample. The
sweep re-learns a private copy of the memory with K clusters per point, so the shared memory is
never changed. Run: `python -m benchmarks.ablations --db DB --memory MEM --sample 3000 --out DIR`.
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path

from benchmarks.plan import RunSpec, run, with_clusters
from benchmarks.report import fmt
from benchmarks.results_io import table, write_results

VARIANTS: dict[str, dict] = {
    "full": {},
    "no_methodology": {"use_methodology": False},
    "no_clustering": {"use_clustering": False},
    "no_filtering": {"use_filtering": False},
}
DEFAULT_CLUSTERS = (1, 2, 5, 10, 20, 50)


def run_suite(base: RunSpec, root: Path, clusters: tuple[int, ...] = DEFAULT_CLUSTERS) -> list[dict]:
    """Run every variant and sweep point into `root`/<name>; return one row per run."""
    rows = []
    for name, switches in VARIANTS.items():
        spec = replace(base, out=root / name, agent={**base.agent, **switches})
        rows.append(_row(name, run(spec).summary))
    for k in clusters:
        spec = with_clusters(replace(base, out=root / f"clusters_{k}"), k)
        rows.append(_row(f"clusters={k}", run(spec).summary))
    write_table(root, rows)
    return rows


def _row(name: str, summary: dict) -> dict:
    keys = ("n", "hits_at_1", "hits_at_10", "mean_steps", "false_unknown_rate", "questions_per_second")
    return {"variant": name, **{k: summary.get(k) for k in keys}, "by_qtype": summary.get("by_qtype", {})}


def write_table(root: Path, rows: list[dict]) -> None:
    """ablations.json and ablations.md (one row per variant, Hits@1 by qtype as columns)."""
    root.mkdir(parents=True, exist_ok=True)
    qtypes = sorted({q for row in rows for q in row["by_qtype"]})
    header = ["variant", "n", "Hits@1", "Hits@10", "steps", "false unknown", "q/s", *qtypes]
    cells = (
        [row["variant"], row["n"], row["hits_at_1"], row["hits_at_10"], row["mean_steps"],
         row["false_unknown_rate"], row["questions_per_second"], *(row["by_qtype"].get(q) for q in qtypes)]
        for row in rows
    )
    lines = table(header, ([fmt(c) for c in row] for row in cells))
    write_results(root, "ablations", rows, "\n".join(lines) + "\n")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", default="multitq")
    parser.add_argument("--split", default="dev")
    parser.add_argument("--questions", type=Path)
    parser.add_argument("--data-dir", type=Path, help="the dataset's directory (default: ../shared/data/<dataset>)")
    parser.add_argument("--shard", help="i/n: only this share of the sample (e.g. the share the memory did not learn from)")
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--memory", required=True)
    parser.add_argument("--sample", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--decider", default="offline")
    parser.add_argument("--clusters", default=",".join(map(str, DEFAULT_CLUSTERS)), help="comma-separated K values")
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/ablations"))
    args = parser.parse_args(argv)
    base = RunSpec(
        dataset=args.dataset, out=args.out, db=args.db, split=args.split, questions_file=args.questions,
        sample=args.sample, seed=args.seed, memory_url=args.memory, workers=args.workers,
        data_dir=args.data_dir, shard=args.shard, quiet=True, agent={"decider": args.decider},
    )
    clusters = tuple(int(k) for k in args.clusters.split(",") if k.strip())
    rows = run_suite(base, args.out, clusters)
    print((args.out / "ablations.md").read_text(encoding="utf-8"))
    print(f"{len(rows)} runs written under {args.out}")


if __name__ == "__main__":
    main()
