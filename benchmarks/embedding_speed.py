"""CPU time per text of the numpy MiniLM by internal batch size, beside sentence-transformers, in the
agent's setting: the analyse node embeds one lockstep batch of 64 questions per call.

A batch is padded to its longest text, so the internal batch size trades padding against the
per-batch cost of the forward pass; this measures where the optimum lies.

    python -m benchmarks.embedding_speed --questions ../shared/data/multitq/questions/dev.json \
        [--n 1024] [--sizes 64 32 16 8] [--torch]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from benchmarks.report import emit

RESULTS = Path(__file__).parent / "results"
CALL = 64  # questions per call: the agent's lockstep batch


def cpu_ms_per_text(embed, texts: list[str]) -> float:  # noqa: ANN001 - Embedder.embed_batch
    embed(texts[:CALL])  # warm-up: BLAS buffers, tokenizer
    started = time.process_time()
    for i in range(0, len(texts), CALL):
        embed(texts[i : i + CALL])
    return round(1000 * (time.process_time() - started) / len(texts), 2)


def main() -> None:
    from ari.base.embedding import SentenceTransformerEmbedder, bundled_model_path
    from ari.base.minilm import NumpyMiniLMEmbedder
    from benchmarks.selection import shard_of

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", required=True)
    parser.add_argument("--n", type=int, default=1024)
    parser.add_argument("--sizes", type=int, nargs="+", default=[64, 32, 16, 8])
    parser.add_argument("--torch", action="store_true", help="also time sentence-transformers (one thread)")
    args = parser.parse_args()
    records = json.loads(Path(args.questions).read_text())
    texts = [r["question"] for r in records if shard_of(str(r["quid"]), 2) == 1][: args.n]
    path = bundled_model_path()
    rows = [{"backend": "numpy", "batch_size": size, "cpu_ms_per_text": cpu_ms_per_text(NumpyMiniLMEmbedder(path, size).embed_batch, texts)}
            for size in args.sizes]
    if args.torch:
        import torch

        torch.set_num_threads(1)
        rows.append({"backend": "sentence-transformers", "batch_size": 128,
                     "cpu_ms_per_text": cpu_ms_per_text(SentenceTransformerEmbedder(path).embed_batch, texts)})
    result = {"texts": len(texts), "call": CALL, "load_average": os.getloadavg()[0], "rows": rows}
    table = "\n".join(f"| {r['backend']} | {r['batch_size']} | {r['cpu_ms_per_text']} |" for r in rows)
    emit(
        "# Embedding CPU time per text by batch size\n\n"
        f"`python -m benchmarks.embedding_speed {' '.join(sys.argv[1:])}` — {len(texts)} dev questions in calls of "
        f"{CALL}, load average {result['load_average']:.1f} at the start.\n\n"
        "| backend | batch size | CPU ms per text |\n| --- | --- | --- |\n" + table + "\n",
        result,
        RESULTS / "embedding_speed",
    )


if __name__ == "__main__":
    main()
