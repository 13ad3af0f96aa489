"""Where the "relation the KG does not record" floor sits: the predicate's best cosine to a relation's
texts (its name and its description's sentences, as `RelationLinker` reads them), over questions of
the learning split and over the unseen-verbs set's dev part (acts the KG records, in verbs the
lexicon never saw), and how many of each the rule refuses.

    ARI_RELATION_LEXICON=lexicon_shard0.json python -m benchmarks.unrecorded_floor --db multitq.duckdb \
        --questions dev.json --shard 0/2 --n 400 --out benchmarks/results/unrecorded_floor

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
from tkg_store.relation_texts import default_relation_texts, relation_text_vectors
from tkg_store.store import TKGStore

VERBS = Path(__file__).parent / "data" / "multitq_unseen_verbs.json"
DESCRIPTIONS = Path(__file__).parent.parent / "agents" / "analysis" / "data"


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
    sets = {
        "learning": [q["question"] for q in random.Random(args.seed).sample(records, min(args.n, len(records)))],
        "unseen_verbs_dev": [r["question"] for r in json.loads(VERBS.read_text(encoding="utf-8")) if r["part"] == "dev"],
    }
    data: dict = {"shard": args.shard, "seed": args.seed, "floor": UNRECORDED_COSINE}
    with TKGStore.open(args.db) as store:
        embedder = get_embedder()
        analyzer = QuestionAnalyzer(store, embedder)
        texts = relation_text_vectors(store, embedder, default_relation_texts(store, DESCRIPTIONS))
        for name, questions in sets.items():
            analyses = analyzer.analyze_batch(questions)
            vectors = embedder.embed_batch([predicate_text(a.masked) or a.masked for a in analyses])
            best = np.array([texts.similarities(v).max() for v in vectors])
            refused = [a.question for a in analyses if a.query.unsupported and "does not record" in a.query.unsupported]
            data[name] = {
                "questions": len(questions),
                "best_cosine_percentiles": {str(p): round(float(np.percentile(best, p)), 3) for p in (1, 2, 5, 10, 50)},
                "below_floor": int((best < UNRECORDED_COSINE).sum()), "refused_by_the_rule": refused,
            }
    lines = [
        f"# The unrecorded-relation floor ({UNRECORDED_COSINE}): the predicate's best cosine to a relation's texts (name, description)",
        "",
        "| questions | n | 1 | 2 | 5 | 10 | 50 (percentiles) | below the floor | refused by the rule |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
        *(f"| {name} | {data[name]['questions']} | " + " | ".join(str(v) for v in data[name]["best_cosine_percentiles"].values())
          + f" | {data[name]['below_floor']} | {len(data[name]['refused_by_the_rule'])} |" for name in sets),
        "",
        f"learning: {args.n} questions of MultiTQ dev shard {args.shard} (seed {args.seed}); unseen_verbs_dev: the dev part of "
        "benchmarks/data/multitq_unseen_verbs.json, acts the KG records. Refused: no lexicon or synonym word, and below the floor.",
    ]
    print("\n".join(lines))
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        write_results(args.out.parent, args.out.stem, data, "\n".join(lines) + "\n", indent=1)


if __name__ == "__main__":
    main()
