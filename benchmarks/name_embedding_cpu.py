"""The fastest CPU path for embedding a store's entity names that links names as the numpy MiniLM does.

`ari ingest` embeds every entity name once (230k names at 10M facts: most of the table build).
This embeds a sample of a store's display names with each CPU path and reports names per second
(wall, best of --runs, over the threads or processes each path uses), CPU ms per name (all its
threads and worker processes counted), the smallest cosine to the vectors of ARI's numpy MiniLM as
it ran before the allocator setting (`ari.base.minilm._reuse_freed_memory`), and whether each
name's nearest other name (and its top 10) stays the same: the linker and the candidate filter
rank names by exactly these cosines.

Paths: the numpy MiniLM (each in worker processes of its own, started fresh) with and without
that setting, on 1 thread, on --threads threads (`tkg_store.name_vectors.embed_parallel`, what
`ari ingest` runs) and in --threads processes of one thread, and at a larger padded-token budget;
sentence-transformers (torch) in float32 at two batch sizes; the same with dynamic int8 quantisation of its linear layers;
ONNX Runtime (float32): the graph ARI builds from the model's weights (`ari.base.minilm_onnx`, what
ARI runs for calls of 128 texts or more), the same graph with int8 matrix products (what ARI runs for an
ingest's entity names), and the model exported from torch.

    python -m benchmarks.name_embedding_cpu --db kg.duckdb [--n 2000] [--runs 2] [--threads 2] [--only LABEL ...] [--name NAME]

"""

from __future__ import annotations

import argparse
import importlib.util
import os
import resource
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from benchmarks.results_io import emit, table

if TYPE_CHECKING:
    from ari.base.minilm import NumpyMiniLMEmbedder

RESULTS = Path(__file__).parent / "results" / "name_embedding_cpu"
Embed = Callable[[list[str]], np.ndarray]


def sample_names(db: Path, n: int, seed: int = 1) -> list[str]:
    """`n` display names of the store, drawn at random (the same ones for the same seed)."""
    from tkg_store.store import TKGStore

    with TKGStore.open(db, memory_index=False) as store:
        return store.sample_displays(n, seed)


def nearest_agreement(reference: np.ndarray, other: np.ndarray, k: int = 10) -> tuple[float, float]:
    """(share of names whose nearest other name is the same, mean overlap of the top k) between two
    embeddings of the same names."""
    def ranked(m: np.ndarray) -> np.ndarray:
        sims = m @ m.T
        np.fill_diagonal(sims, -np.inf)
        return np.argsort(-sims, axis=1, kind="stable")[:, :k]

    a, b = ranked(reference), ranked(other)
    top1 = float((a[:, 0] == b[:, 0]).mean())
    overlap = float(np.mean([len(set(x) & set(y)) / k for x, y in zip(a, b)]))
    return top1, overlap


class NumpyPath:
    """ARI's numpy MiniLM in `workers` worker processes of its own (spawned: each path starts with
    a fresh allocator), each embedding its share with `threads` threads (`embed_parallel`), and
    the process's freed memory reused as ARI sets it (`reuse`) or glibc's default left (ARI before
    that setting). Called with names, it returns their vectors; `cpu_s` and `faults` are the CPU
    seconds and page faults the last call took in the workers, all their threads counted."""

    def __init__(self, reuse: bool, workers: int, threads: int, tokens_per_batch: int = 512, onnx: bool = False, int8: bool = False) -> None:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        self._workers, self.cpu_s, self.faults = workers, 0.0, 0
        self._pool = ProcessPoolExecutor(
            workers, mp_context=multiprocessing.get_context("spawn"), initializer=_init_numpy, initargs=(reuse, threads, tokens_per_batch, onnx, int8))

    def __call__(self, texts: list[str]) -> np.ndarray:
        share = -(-len(texts) // (self._workers * 4)) if self._workers > 1 else len(texts)
        done = list(self._pool.map(_embed_numpy, [texts[i : i + share] for i in range(0, len(texts), share)]))
        self.cpu_s, self.faults = sum(cpu for _, cpu, _ in done), sum(faults for _, _, faults in done)
        return np.vstack([vectors for vectors, _, _ in done])


_NUMPY: tuple["NumpyMiniLMEmbedder", int, bool] | None = None  # a worker's embedder, its thread count, int8 or not


def _init_numpy(reuse: bool, threads: int, tokens_per_batch: int, onnx: bool, int8: bool) -> None:
    global _NUMPY
    from ari.base import minilm
    from ari.base.embedding import bundled_model_path

    if not reuse:
        minilm._reuse_freed_memory = lambda: None  # ARI before the setting: glibc's default
    embedder = minilm.NumpyMiniLMEmbedder(bundled_model_path(), 1024, tokens_per_batch, onnx=onnx)
    _NUMPY = (embedder, threads, int8)


def _embed_numpy(texts: list[str]) -> tuple[np.ndarray, float, int]:
    from tkg_store.name_vectors import embed_parallel

    assert _NUMPY is not None, "worker not initialised"
    embedder, threads, int8 = _NUMPY
    started, faults = time.process_time(), _page_faults()
    vectors = embed_parallel(embedder, texts, threads, int8=int8)
    return vectors, time.process_time() - started, _page_faults() - faults


def _page_faults() -> int:
    """This process's page faults so far (minor ones: memory the kernel maps in, zeroed)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


def paths(threads: int) -> dict[str, Embed]:
    """Every CPU path that can run here, by name; the first is ARI's before this benchmark's last
    change (the reference of the cosines)."""
    from ari.base.embedding import bundled_model_path

    model = bundled_model_path()
    found: dict[str, Embed] = {}
    for reuse in (False, True):
        memory = "freed memory reused" if reuse else "glibc's default allocator"
        found[f"numpy, {threads} threads, {memory}" + (" (ARI's for small calls)" if reuse else " (ARI before)")] = NumpyPath(reuse, 1, threads)
        found[f"numpy, 1 thread, {memory}"] = NumpyPath(reuse, 1, 1)
        found[f"numpy, {threads} processes of 1 thread, {memory}"] = NumpyPath(reuse, threads, 1)
    for budget in (2048,):
        found[f"numpy, {threads} threads, {budget} padded tokens a batch, freed memory reused"] = NumpyPath(True, 1, threads, budget)
    if importlib.util.find_spec("onnxruntime") is not None and importlib.util.find_spec("onnx") is not None:
        found[f"ONNX Runtime, ARI's graph of the same weights, {threads} threads (ARI's for calls of 128+ texts)"] = NumpyPath(True, 1, threads, onnx=True)
        found[f"ONNX Runtime int8 (dynamic, per channel), {threads} threads (ARI's for an ingest's entity names)"] = NumpyPath(True, 1, threads, onnx=True, int8=True)
    if importlib.util.find_spec("torch") is None or importlib.util.find_spec("sentence_transformers") is None:
        return found
    import torch
    from sentence_transformers import SentenceTransformer

    torch.set_num_threads(threads)
    st = SentenceTransformer(model, device="cpu")
    for batch in (128, 512):
        found[f"torch float32, batch {batch}"] = partial(st.encode, batch_size=batch, normalize_embeddings=True)
    quantized = torch.ao.quantization.quantize_dynamic(SentenceTransformer(model, device="cpu"), {torch.nn.Linear}, dtype=torch.qint8)
    found["torch dynamic int8, batch 512"] = lambda texts: quantized.encode(texts, batch_size=512, normalize_embeddings=True)
    onnx = _onnx_path(st, threads)
    if onnx is not None:
        found["onnxruntime float32, batch 256"] = onnx
    return found


def _onnx_path(st, threads: int) -> Embed | None:  # noqa: ANN001 - a SentenceTransformer
    """The model's BERT exported to ONNX and run by ONNX Runtime, mean-pooled and normalised as
    sentence-transformers does; None when the packages are missing or the export fails."""
    if importlib.util.find_spec("onnxruntime") is None or importlib.util.find_spec("onnx") is None:
        return None
    import onnxruntime
    import torch

    bert, tokenizer = st[0].auto_model, st.tokenizer

    class Encoder(torch.nn.Module):  # the token vectors by keyword: BERT's forward takes more positional arguments
        def __init__(self) -> None:
            super().__init__()
            self.bert = bert  # a submodule, so its weights are exported as the model's

        def forward(self, input_ids, attention_mask, token_type_ids):  # noqa: ANN001, ANN202 - traced tensors
            return self.bert(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids).last_hidden_state

    folder = Path(tempfile.mkdtemp(prefix="ari-onnx-"))
    sample = tokenizer(["a name", "another longer name"], padding=True, return_tensors="pt")
    try:
        with torch.no_grad():  # traced without gradients: the weights go in as constants
            _export(Encoder().eval(), sample, folder / "bert.onnx")
    except Exception as error:  # noqa: BLE001 - reported, and the path left out
        print(f"note: ONNX export failed, ONNX Runtime left out: {error}", file=sys.stderr)
        return None
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    session = onnxruntime.InferenceSession(str(folder / "bert.onnx"), options, providers=["CPUExecutionProvider"])

    def embed(texts: list[str]) -> np.ndarray:
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out = np.zeros((len(texts), 384), dtype=np.float32)
        for start in range(0, len(order), 256):
            rows = order[start : start + 256]
            batch = tokenizer([texts[i] for i in rows], padding=True, truncation=True, max_length=256, return_tensors="np")
            hidden = session.run(["hidden"], {k: batch[k].astype(np.int64) for k in ("input_ids", "attention_mask", "token_type_ids")})[0]
            mask = batch["attention_mask"][:, :, None].astype(np.float32)
            pooled = (hidden * mask).sum(axis=1) / np.maximum(mask.sum(axis=1), 1e-9)
            out[rows] = pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
        return out

    return embed


def _export(encoder, sample, path: Path) -> None:  # noqa: ANN001 - a torch module and a tokenizer batch
    import torch

    names = ["input_ids", "attention_mask", "token_type_ids"]
    torch.onnx.export(
        encoder, tuple(sample[n] for n in names), str(path), input_names=names, output_names=["hidden"],
        dynamic_axes={n: {0: "batch", 1: "tokens"} for n in [*names, "hidden"]}, opset_version=17, dynamo=False,
    )


def measure(names: list[str], found: dict[str, Embed], runs: int) -> dict[str, tuple[float, float, float, np.ndarray]]:
    """Per path: (best names per second, CPU ms and page faults per name of that run, the vectors). The runs take
    turns (every path once, then again), so a change in the machine's load falls on all of them."""
    for embed in found.values():
        embed(names[:1024])  # warm-up: buffers, thread pools, ONNX Runtime's session (built on a first call of 128+ texts)
    best: dict[str, tuple[float, float, float, np.ndarray]] = {}
    for _ in range(runs):
        for label, embed in found.items():
            wall, cpu, faults = time.perf_counter(), time.process_time(), _page_faults()
            vectors = np.asarray(embed(names), dtype=np.float32)
            wall, cpu, faults = time.perf_counter() - wall, time.process_time() - cpu, _page_faults() - faults
            if isinstance(embed, NumpyPath):  # its workers' share
                cpu, faults = cpu + embed.cpu_s, faults + embed.faults
            if label not in best or len(names) / wall > best[label][0]:
                best[label] = (len(names) / wall, 1000 * cpu / len(names), faults / len(names), vectors)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, required=True, help="a store whose entity names are sampled")
    parser.add_argument("--n", type=int, default=2000, help="names sampled")
    parser.add_argument("--runs", type=int, default=2, help="runs of each path; the fastest is kept")
    parser.add_argument("--threads", type=int, default=2, help="threads for torch and ONNX Runtime (numpy: one per core, as ARI)")
    parser.add_argument("--only", action="append", help="only the paths whose label contains this (repeatable; ARI's numpy path first)")
    parser.add_argument("--name", default="name_embedding_cpu", help="results file name")
    args = parser.parse_args()
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    names = sample_names(args.db, args.n)
    load = os.getloadavg()[0]
    found = {k: v for k, v in paths(args.threads).items() if not args.only or any(o in k for o in args.only)}
    rows, reference = [], None
    for label, (rate, cpu_ms, faults, vectors) in measure(names, found, args.runs).items():
        reference = vectors if reference is None else reference  # the first path: ARI's
        top1, overlap = nearest_agreement(reference, vectors)
        rows.append({"path": label, "names_per_s": round(rate), "cpu_ms_per_name": round(cpu_ms, 2),
                     "cores_busy": round(rate * cpu_ms / 1000, 2), "page_faults_per_name": round(faults),
                     "min_cosine": round(float((vectors * reference).sum(axis=1).min()), 7),
                     "same_nearest_name": round(top1, 4), "top10_overlap": round(overlap, 4)})
        print(rows[-1], file=sys.stderr, flush=True)
    command, loads = "python -m benchmarks.name_embedding_cpu " + " ".join(sys.argv[1:]), [round(load, 2), round(os.getloadavg()[0], 2)]
    result = {"command": command, "names": len(names), "cpus": os.cpu_count(), "load_average": loads, "rows": rows}
    columns = ("path", "names_per_s", "cpu_ms_per_name", "cores_busy", "page_faults_per_name", "min_cosine", "same_nearest_name", "top10_overlap")
    lines = "\n".join(table(["path", "names/s", "CPU ms per name", "cores busy", "page faults per name", "min cosine to ARI before",
                              "same nearest name", "top-10 overlap"], ([r[k] for k in columns] for r in rows)))
    RESULTS.mkdir(parents=True, exist_ok=True)
    emit(
        "# CPU paths for embedding a store's entity names\n\n"
        f"`{command}`: {len(names)} names sampled from the store, best of {args.runs} runs taken in turns, {os.cpu_count()} CPUs, "
        f"load average {loads[0]} at the start and {loads[1]} at the end "
        "(other jobs shared the machine: rates are low and noisy; compare the rows of one run).\n\n"
        + lines + "\n",
        result,
        RESULTS / args.name,
    )


if __name__ == "__main__":
    main()
