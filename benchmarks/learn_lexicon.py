"""Learn the relation lexicon from one share of a question file, for evaluations that hold the
rest out: `python -m benchmarks.learn_lexicon --db STORE --questions dev.json --shard 0/2 --out lex.json`.

The share is the one `ari bench run --shard` and `ari memory learn --shard` use (a hash of the
question id), so a lexicon, a memory and an evaluation can be kept on disjoint questions. Point
the agent at the result with ARI_RELATION_LEXICON=lex.json.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from agents.analysis.analyzer import QuestionAnalyzer
from agents.lexicon_learning import learn_relation_lexicon
from ari.base.embedding import get_embedder
from benchmarks.selection import parse_shard, shard_of
from tkg_store.store import TKGStore


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True, help="the KG store")
    parser.add_argument("--questions", required=True, help="questions in the official MultiTQ schema")
    parser.add_argument("--shard", default=None, help="i/n: learn only from this share")
    parser.add_argument("--out", required=True, help="where to write the lexicon JSON")
    args = parser.parse_args(argv)
    questions = json.loads(Path(args.questions).read_text(encoding="utf-8"))
    shard = parse_shard(args.shard)
    if shard is not None:
        questions = [q for q in questions if shard_of(str(q["quid"]), shard[1]) == shard[0]]
    with TKGStore.open(args.db) as store:
        analyzer = QuestionAnalyzer(store, get_embedder(), use_default_lexicon=False)
        lexicon = learn_relation_lexicon(store, questions, analyzer)
    lexicon.meta["split"] = f"{args.questions} shard {args.shard or 'all'}"
    lexicon.save(args.out)
    print(f"lexicon learned on {len(questions)} questions -> {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
