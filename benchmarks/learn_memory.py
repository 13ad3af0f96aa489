"""Fill a memory by program search alone, in several processes: `agents.learning.learn` without the
agent's own attempts and without clustering (run `ari memory induce` afterwards).

For thousands of questions the search is what teaches (the agent's own early attempts add little).
`ari memory learn --search` is the same function with the agent's attempts and the clustering.

    python -m benchmarks.learn_memory --db multitq.duckdb --memory mem.sqlite \\
        --questions ../shared/data/multitq/questions/dev.json --shard 0/2 --limit 4000 --processes 2
    ari memory induce --clusters 100 --memory mem.sqlite
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def main(argv: list[str] | None = None) -> None:
    from agents.learning import LearnSettings, learn
    from ari.base.config import AgentConfig
    from ari.base.processes import usable_cores
    from benchmarks.loaders import get_loader
    from benchmarks.selection import parse_shard, stratified_sample, take_shard

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True)
    parser.add_argument("--memory", required=True, help="SQLite path or SQLAlchemy URL")
    parser.add_argument("--questions", required=True, type=Path, help="labelled questions (official MultiTQ schema)")
    parser.add_argument("--dataset", default="multitq")
    parser.add_argument("--shard", help="i/n: learn only from this share (as `ari bench run --shard`)")
    parser.add_argument("--limit", type=int, help="a stratified sample of N questions of the share")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--processes", type=int, default=usable_cores())
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)

    loaded = get_loader(args.dataset).load(args.questions).questions
    chosen = take_shard(loaded, parse_shard(args.shard))
    if args.limit:
        chosen = stratified_sample(chosen, args.limit, seed=args.seed)
    report = learn(
        args.db, args.memory, chosen, settings=LearnSettings(attempt=False, search=True), config=AgentConfig.from_env(),
        dataset=args.dataset, split="learn", workers=args.processes, cluster=False, quiet=args.quiet,
    )
    print(json.dumps(report.to_dict()))
    print(f"now run: ari memory induce --memory {args.memory}")


if __name__ == "__main__":
    main()
