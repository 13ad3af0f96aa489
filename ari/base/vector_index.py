"""Nearest-neighbour search over normalised embeddings with FAISS.

A GPU index is used when faiss was built with GPU support and a GPU is visible; when embeddings run
on a GPU (`ari.base.embedding.resolve_device`) and faiss has none, a torch matmul and top-k on the
GPU (`ari.base.topk`); a memory-mapped matrix (a store's entity names) is searched in place with
numpy; otherwise the CPU flat inner-product index, which is exact and fast enough for the sizes
ARI indexes (relations, entity names, cluster centroids).
"""

from __future__ import annotations

import faiss
import numpy as np

from ari.base.embedding import resolve_device
from ari.base.topk import TopK


class VectorIndex:
    """Exact inner-product search over L2-normalised vectors."""

    def __init__(self, vectors: np.ndarray) -> None:
        mapped = isinstance(vectors, np.memmap)
        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        self.size, self.dim = vectors.shape
        index: faiss.Index = faiss.IndexFlatIP(self.dim)
        self.on_gpu = False
        self._exact: TopK | None = None
        if _gpu_count() > 0:
            resources = faiss.StandardGpuResources()
            index = faiss.index_cpu_to_gpu(resources, 0, index)
            self._resources = resources
            self.on_gpu = True
        elif resolve_device() == "cuda":
            self._exact = TopK(vectors, "cuda")
            self.on_gpu = True
        elif mapped:  # searched where it lies: copying a memory-mapped matrix into faiss reads all of it at start-up
            self._exact = TopK(vectors)
        if self._exact is None:
            index.add(vectors)
        self._index = index

    def search(self, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """(scores, ids) of the k nearest rows for each query row; ids are -1 past the index size."""
        queries = np.ascontiguousarray(np.atleast_2d(queries), dtype=np.float32)
        k = max(1, min(k, self.size)) if self.size else 1
        if self.size == 0:
            n = queries.shape[0]
            return np.zeros((n, 1), dtype=np.float32), -np.ones((n, 1), dtype=np.int64)
        if self._exact is not None:
            return self._exact.search(queries, k)
        return self._index.search(queries, k)


def _gpu_count() -> int:
    get = getattr(faiss, "get_num_gpus", None)
    try:
        return int(get()) if get else 0
    except Exception:  # a CPU build without CUDA answers with an error on some versions
        return 0
