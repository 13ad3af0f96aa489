"""Fill a memory by program search alone, in several processes, for large learning runs.

`ari memory learn --search` also runs the agent on every question; for thousands of questions the
search alone is what teaches (the agent's own early attempts add little), so this script runs only
the bounded program search (`agents.explore.search_programs`) and records every correct program and
the best-bound failing ones. Several processes may write to one memory (SQLite or a shared URL).

    python -m benchmarks.learn_memory --db multitq.duckdb --memory mem.sqlite \\
        --questions ../shared/data/multitq/questions/dev.json --shard 0/2 --limit 4000 --processes 2
    ari memory induce --clusters 100 --memory mem.sqlite
"""

from __future__ import annotations

import argparse
import sys
import time
from multiprocessing import Process
from pathlib import Path

def learn_part(db: str, memory: str, questions: list[dict], part: int, parts: int, dataset: str) -> None:
    from agents.analysis.analyzer import QuestionAnalyzer
    from agents.explore import search_programs
    from ari.base.config import AgentConfig
    from ari.base.embedding import get_embedder
    from memory.labels import hit
    from memory import Memory
    from tkg_store.store import TKGStore

    mine = questions[part::parts]
    started, solved = time.perf_counter(), 0
    config = AgentConfig()  # the search's bounds and the failing traces kept: AgentConfig.search
    with TKGStore.open(db) as store, Memory.open(memory, create=True) as mem:
        analyzer = QuestionAnalyzer(store, get_embedder())
        for first in range(0, len(mine), 64):
            batch = mine[first : first + 64]
            for question, analysis in zip(batch, analyzer.analyze_batch([q["text"] for q in batch])):
                found = search_programs(
                    store, analysis, lambda a, q=question: hit(a, q["answers"], q["answer_type"], q["time_level"]),
                    max_steps=config.max_steps, config=config.search, relation_floor=config.planner.relation_floor,
                )
                correct = [t for t in found if t.outcome == "correct"]
                kept = correct + [t for t in found if t.outcome != "correct"][: config.search.wrong_traces_kept]
                for trace in kept:
                    trace.qtype, trace.answer_type = question["qtype"], question["answer_type"]
                solved += bool(correct)
                mem.history.add_traces(kept, dataset=dataset, split="learn", question_ids=[question["qid"]] * len(kept))
            done = first + len(batch)
            print(f"part {part}: {done}/{len(mine)} searched, {solved} with a correct program, "
                  f"{time.perf_counter() - started:.0f}s", file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> None:
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
    parser.add_argument("--processes", type=int, default=1)
    args = parser.parse_args(argv)

    loaded = get_loader(args.dataset).load(args.questions).questions
    chosen = stratified_sample(take_shard(loaded, parse_shard(args.shard)), args.limit, seed=args.seed)
    questions = [q.to_dict() for q in chosen]
    workers = [
        Process(target=learn_part, args=(args.db, args.memory, questions, i, args.processes, args.dataset))
        for i in range(args.processes)
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    failed = [w.exitcode for w in workers if w.exitcode]
    if failed:
        sys.exit(f"{len(failed)} learning process(es) failed")
    print(f"searched {len(questions)} questions into {args.memory}; now run: ari memory induce --memory {args.memory}")


if __name__ == "__main__":
    main()
