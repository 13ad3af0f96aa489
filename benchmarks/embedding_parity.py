"""Do the numpy MiniLM and sentence-transformers give the same vectors? Max |difference| and the lowest
cosine between the two on MultiTQ questions (dev shard 1/2) and KG names, plus the time each takes;
and, given two `ari bench run` directories made with ARI_EMBEDDING_BACKEND=numpy and
=sentence-transformers, how many answers differ.

    python -m benchmarks.embedding_parity --questions ../shared/data/multitq/questions/dev.json \
        --db multitq.duckdb --n 300 [--runs runs/numpy runs/sentence-transformers]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from benchmarks.results_io import table, write_results

RESULTS = Path(__file__).parent / "results"


def parity(texts: list[str]) -> dict:
    from ari.base.embedding import SentenceTransformerEmbedder, bundled_model_path
    from ari.base.minilm import NumpyMiniLMEmbedder

    path = bundled_model_path()
    fast, reference = NumpyMiniLMEmbedder(path), SentenceTransformerEmbedder(path)
    started = time.perf_counter()
    ours = fast.embed_batch(texts)
    numpy_s = time.perf_counter() - started
    started = time.perf_counter()
    theirs = reference.embed_batch(texts)
    torch_s = time.perf_counter() - started
    return {
        "texts": len(texts),
        "max_abs_diff": float(np.abs(ours - theirs).max()),
        "min_cosine": float((ours * theirs).sum(axis=1).min()),
        "numpy_s": round(numpy_s, 3),
        "sentence_transformers_s": round(torch_s, 3),
    }


def compare_runs(ours: str, theirs: str) -> dict:
    """Questions answered by both runs, and how many got a different top answer or ranking."""

    def read(run: str) -> dict:
        lines = (Path(run) / "results.jsonl").read_text(encoding="utf-8").splitlines()
        return {r["qid"]: r for r in map(json.loads, lines)}

    a, b = read(ours), read(theirs)
    both = sorted(set(a) & set(b))
    return {
        "runs": [ours, theirs],
        "questions": len(both),
        "top_answer_differs": sum(a[q]["answer"] != b[q]["answer"] for q in both),
        "ranked_answers_differ": sum(a[q]["answers"] != b[q]["answers"] for q in both),
    }


def main() -> None:
    from benchmarks.selection import shard_of
    from tkg_store.store import TKGStore

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", required=True)
    parser.add_argument("--db", required=True)
    parser.add_argument("--n", type=int, default=300)
    parser.add_argument("--runs", nargs=2, metavar=("NUMPY_RUN", "ST_RUN"), help="two bench run directories to compare")
    args = parser.parse_args()
    records = json.loads(Path(args.questions).read_text())
    questions = [r["question"] for r in records if shard_of(str(r["quid"]), 2) == 1][: args.n]
    with TKGStore.open(args.db) as store:
        names = [store.display(e) for e in sorted(store.entity_names())[:: max(1, len(store.entity_names()) // args.n)]]
    report = {"questions": parity(questions), "entity_names": parity(names[: args.n])}
    answers = compare_runs(*args.runs) if args.runs else None
    print(json.dumps({**report, "answers": answers}, indent=2))
    RESULTS.mkdir(exist_ok=True)
    rows = table(
        ["texts", "n", "max abs diff", "min cosine", "numpy s", "sentence-transformers s"],
        ([k, v["texts"], f"{v['max_abs_diff']:.2e}", f"{v['min_cosine']:.7f}", v["numpy_s"], v["sentence_transformers_s"]]
         for k, v in report.items()),
    )
    write_results(RESULTS, "embedding_parity", {**report, "answers": answers},
        "# Numpy MiniLM vs sentence-transformers (same model, all-MiniLM-L6-v2)\n\n"
        f"`python -m benchmarks.embedding_parity {' '.join(sys.argv[1:])}`\n\n"
        + "\n".join(rows)
        + "\n\nTimes are one batch each on a 2-core machine shared with other jobs (inflated, indicative only).\n"
        + (
            ""
            if answers is None
            else f"\nAnswers: `ari bench run` on the same questions with each backend ({answers['runs'][0]} vs "
            f"{answers['runs'][1]}): {answers['questions']} questions, top answer differs on "
            f"{answers['top_answer_differs']}, ranked answers differ on {answers['ranked_answers_differ']}.\n"
        )
    )


if __name__ == "__main__":
    main()
