"""Where the offline agent's CPU goes per question: the embedding model against everything else.

The throughput target (issue 15: >= 100 questions/s with 2 workers on 2 cores) leaves 20 ms of CPU
per question at the most. This runs the agent as a bench worker does (lockstep batches of 64, a
memory, the relation lexicon from ARI_RELATION_LEXICON) with its one embedder wrapped so that the
CPU spent inside `embed_batch` (on whichever thread) is counted, and reports that beside the whole
process's CPU per question:

    python -m benchmarks.cpu_breakdown --db multitq.duckdb --memory mem.sqlite \
        --questions ../shared/data/multitq/questions/dev.json [--n 1024] [--out benchmarks/results/cpu_breakdown]

The memory is copied first (answering records traces). CPU time, not wall time: it is what two
workers on two cores share, and it stays meaningful on a machine that is running other jobs.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np

from benchmarks.results_io import emit

BATCH = 64  # questions per call, as the bench runner sends them to a worker


class TimedEmbedder:
    """An `Embedder` that counts the thread CPU time and the texts of every call to the one it wraps."""

    def __init__(self, inner) -> None:  # noqa: ANN001 - an ari.base.embedding.Embedder
        self.inner = inner
        self.name, self.dim = inner.name, inner.dim
        self.cpu_s = 0.0
        self.texts = 0
        self._lock = threading.Lock()

    def embed_batch(self, texts: list[str]) -> np.ndarray:
        started = time.thread_time()
        try:
            return self.inner.embed_batch(texts)
        finally:
            spent = time.thread_time() - started
            with self._lock:
                self.cpu_s += spent
                self.texts += len(texts)

    def reset(self) -> None:
        with self._lock:
            self.cpu_s, self.texts = 0.0, 0


def measure(db: str, memory_path: str, questions: list[str]) -> dict:
    from agents.agent import Agent
    from ari.base.embedding import get_embedder
    from benchmarks.solver import agent_config
    from memory.api import Memory
    from tkg_store.store import TKGStore

    embedder = TimedEmbedder(get_embedder())
    store = TKGStore.open(db)
    memory = Memory.open(f"sqlite:///{memory_path}", create=False, embedder=embedder)
    agent = Agent(store, memory=memory, config=agent_config({}), embedder=embedder).warm_up()
    agent.ask_many(questions[:BATCH])  # warm-up: memo tables, BLAS buffers
    embedder.reset()
    started = time.process_time()
    for i in range(BATCH, len(questions), BATCH):
        agent.ask_many(questions[i : i + BATCH])
    total_s = time.process_time() - started
    n = len(questions) - BATCH
    store.close()
    total_ms = 1000 * total_s / n
    embedding_ms = 1000 * embedder.cpu_s / n
    return {
        "questions": n,
        "cpu_ms_per_question": round(total_ms, 2),
        "embedding_cpu_ms_per_question": round(embedding_ms, 2),
        "embedding_share": round(embedding_ms / total_ms, 3),
        "texts_embedded_per_question": round(embedder.texts / n, 2),
        "other_cpu_ms_per_question": round(total_ms - embedding_ms, 2),
        "two_core_ceiling_questions_per_second": round(2 * 1000 / total_ms, 1),
    }


def main() -> None:
    from benchmarks.selection import shard_of

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True)
    parser.add_argument("--memory", required=True, help="a SQLite memory file (copied first)")
    parser.add_argument("--questions", required=True, help="MultiTQ dev.json (its shard 1/2 is used)")
    parser.add_argument("--n", type=int, default=1024)
    parser.add_argument("--out", type=Path, default=None, help="write <out>.json and <out>.md")
    args = parser.parse_args()
    records = json.loads(Path(args.questions).read_text())
    texts = [r["question"] for r in records if shard_of(str(r["quid"]), 2) == 1][: args.n + BATCH]
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / "memory.sqlite"
        shutil.copyfile(args.memory, copy)
        result = measure(args.db, str(copy), texts)
    result["load_average_after"] = round(os.getloadavg()[0], 2)
    emit(
        "# CPU per question: the embedding model and the rest\n\n"
        f"`python -m benchmarks.cpu_breakdown {' '.join(sys.argv[1:])}` — {result['questions']} dev shard-1 "
        f"questions after a warm-up batch, in calls of {BATCH}; load average {result['load_average_after']} at the end.\n\n"
        "| CPU ms / question | of it embedding | embedding share | texts embedded / question | rest | 2-core ceiling q/s |\n"
        "| --- | --- | --- | --- | --- | --- |\n"
        f"| {result['cpu_ms_per_question']} | {result['embedding_cpu_ms_per_question']} | {result['embedding_share']:.0%} | "
        f"{result['texts_embedded_per_question']} | {result['other_cpu_ms_per_question']} | "
        f"{result['two_core_ceiling_questions_per_second']} |\n\n"
        "The ceiling is two cores' worth of this CPU time per question, before worker start-up and the\n"
        "runner's own work.\n",
        result,
        args.out,
    )


if __name__ == "__main__":
    main()
