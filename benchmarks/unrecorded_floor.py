"""Where the "relation the KG does not record" floor sits: the predicate's best cosine to a relation
name, over questions of the learning split, and how many of them the rule would refuse.

    python -m benchmarks.unrecorded_floor --db multitq.duckdb --questions dev.json --shard 0/2 --n 400 \
        --out benchmarks/results/unrecorded_floor

`agents.analysis.relations.UNRECORDED_COSINE` and `RelationLinker.unrecorded_predicate` cite it.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

import numpy as np

from agents.analysis.analyzer import QuestionAnalyzer
from agents.analysis.relations import UNRECORDED_COSINE, predicate_text
from ari.base.embedding import get_embedder
from benchmarks.results_io import write_results
from benchmarks.selection import parse_shard, shard_of
from tkg_store.store import TKGStore


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True)
    parser.add_argument("--questions", required=True, help="MultiTQ questions (official schema)")
    parser.add_argument("--shard", default="0/2", help="the learning share the questions come from")
    parser.add_argument("--n", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None, help="write <out>.json and <out>.md")
    args = parser.parse_args(argv)
    shard = parse_shard(args.shard)
    records = json.loads(Path(args.questions).read_text(encoding="utf-8"))
    if shard is not None:
        records = [q for q in records if shard_of(str(q["quid"]), shard[1]) == shard[0]]
    questions = [q["question"] for q in random.Random(args.seed).sample(records, min(args.n, len(records)))]
    with TKGStore.open(args.db) as store:
        embedder = get_embedder()
        analyzer = QuestionAnalyzer(store, embedder)
        relations = embedder.embed_batch([store.relation_text(r) for r in store.relation_names()])
        analyses = analyzer.analyze_batch(questions)
        vectors = embedder.embed_batch([predicate_text(a.masked) or a.masked for a in analyses])
        best = (vectors @ relations.T).max(axis=1)
        refused = [a.question for a in analyses if a.query.unsupported and "does not record" in a.query.unsupported]
    data = {
        "questions": len(questions), "shard": args.shard, "seed": args.seed, "floor": UNRECORDED_COSINE,
        "best_cosine_percentiles": {str(p): round(float(np.percentile(best, p)), 3) for p in (1, 2, 5, 10, 50)},
        "below_floor": int((best < UNRECORDED_COSINE).sum()), "refused_by_the_rule": refused,
    }
    lines = [
        f"# The unrecorded-relation floor on {len(questions)} learning-split questions (shard {args.shard}, seed {args.seed})",
        "",
        "| percentile of the predicate's best cosine to a relation name | 1 | 2 | 5 | 10 | 50 |",
        "| --- | --- | --- | --- | --- | --- |",
        "| | " + " | ".join(str(v) for v in data["best_cosine_percentiles"].values()) + " |",
        "",
        f"Below the floor ({UNRECORDED_COSINE}): {data['below_floor']}; refused by the rule (no lexicon or synonym word, "
        f"and below the floor): {len(refused)}.",
    ]
    print("\n".join(lines))
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        write_results(args.out.parent, args.out.stem, data, "\n".join(lines) + "\n", indent=1)


if __name__ == "__main__":
    main()
