"""CPU time per text of the numpy MiniLM by internal batch size, beside sentence-transformers, in the
agent's setting: the analyse node embeds one lockstep batch of 64 questions per call.

A batch is padded to its longest text, so the internal batch size trades padding against the
per-batch cost of the forward pass; this measures where the optimum lies, by a fixed count of texts
(`--sizes`) and by a budget of padded tokens (`--tokens`, at most 256 texts), on questions and, with
`--names` (an entity2id.json), on entity names embedded in calls of 2,000 as a store's are. Each row
also gives the smallest cosine to the first row's vectors.

    python -m benchmarks.embedding_speed --questions ../shared/data/multitq/questions/dev.json \
        [--names ../shared/data/multitq/kg/entity2id.json] [--n 1024] [--sizes 64 32 16 8] [--tokens 512 1024] [--torch]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

from benchmarks.results_io import emit, table

RESULTS = Path(__file__).parent / "results"
CALL = 64  # questions per call: the agent's lockstep batch


def cpu_ms_per_text(embed, texts: list[str], call: int = CALL) -> float:  # noqa: ANN001 - Embedder.embed_batch
    return timed_vectors(embed, texts, call)[0]


def timed_vectors(embed, texts: list[str], call: int = CALL) -> tuple[float, np.ndarray]:  # noqa: ANN001 - Embedder.embed_batch
    embed(texts[:CALL])  # warm-up: BLAS buffers, tokenizer
    started = time.process_time()
    vectors = np.vstack([embed(texts[i : i + call]) for i in range(0, len(texts), call)])
    return round(1000 * (time.process_time() - started) / len(texts), 2), vectors


def numpy_rows(path: str, kind: str, texts: list[str], call: int, sizes: list[int], tokens: list[int]) -> list[dict]:
    from ari.base.minilm import NumpyMiniLMEmbedder

    settings = [(size, 0) for size in sizes] + [(256, budget) for budget in tokens]
    rows, first = [], None
    for size, budget in settings:
        ms, vectors = timed_vectors(NumpyMiniLMEmbedder(path, size, budget).embed_batch, texts, call)
        first = vectors if first is None else first
        rows.append({"texts": kind, "backend": "numpy", "batch_size": size, "tokens_per_batch": budget,
                     "cpu_ms_per_text": ms, "min_cosine": round(float((vectors * first).sum(axis=1).min()), 7)})
    return rows


def main() -> None:
    from ari.base.embedding import SentenceTransformerEmbedder, bundled_model_path
    from benchmarks.selection import shard_of

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", required=True)
    parser.add_argument("--n", type=int, default=1024)
    parser.add_argument("--sizes", type=int, nargs="+", default=[64, 32, 16, 8])
    parser.add_argument("--tokens", type=int, nargs="*", default=[512, 1024], help="padded-token budgets per batch")
    parser.add_argument("--names", type=Path, help="an entity2id.json: also time its names (a sample of 2,000)")
    parser.add_argument("--torch", action="store_true", help="also time sentence-transformers (one thread)")
    args = parser.parse_args()
    records = json.loads(Path(args.questions).read_text())
    texts = [r["question"] for r in records if shard_of(str(r["quid"]), 2) == 1][: args.n]
    path = bundled_model_path()
    rows = numpy_rows(path, "questions", texts, CALL, args.sizes, args.tokens)
    if args.names:
        every = sorted(json.loads(args.names.read_text()))
        names = every[:: max(1, len(every) // 2000)][:2000]  # spread over the alphabet
        rows += numpy_rows(path, "names", [n.replace("_", " ") for n in names], 2000, args.sizes, args.tokens)
    if args.torch:
        import torch

        torch.set_num_threads(1)
        rows.append({"texts": "questions", "backend": "sentence-transformers", "batch_size": 128, "tokens_per_batch": 0, "min_cosine": None,
                     "cpu_ms_per_text": cpu_ms_per_text(SentenceTransformerEmbedder(path).embed_batch, texts)})
    result = {"texts": len(texts), "call": CALL, "load_average": os.getloadavg()[0], "rows": rows}
    lines = "\n".join(table(
        ["texts", "backend", "batch size (at most)", "padded tokens per batch", "CPU ms per text", "min cosine to the first row"],
        ([r["texts"], r["backend"], r["batch_size"], r["tokens_per_batch"] or "-", r["cpu_ms_per_text"], r["min_cosine"]] for r in rows)))
    emit(
        "# Embedding CPU time per text by batch size\n\n"
        f"`python -m benchmarks.embedding_speed {' '.join(sys.argv[1:])}` — {len(texts)} dev questions in calls of "
        f"{CALL}, load average {result['load_average']:.1f} at the start.\n\n"
        + lines + "\n",
        result,
        RESULTS / "embedding_speed",
    )


if __name__ == "__main__":
    main()
