"""Nearest-neighbour search over normalised embeddings with FAISS.

A GPU index is used when faiss was built with GPU support and a GPU is visible; otherwise the CPU
flat inner-product index, which is exact and fast enough for the sizes ARI indexes (relations,
entity names, cluster centroids).
"""

from __future__ import annotations

import faiss
import numpy as np


class VectorIndex:
    """Exact inner-product search over L2-normalised vectors."""

    def __init__(self, vectors: np.ndarray) -> None:
        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        self.size, self.dim = vectors.shape
        index: faiss.Index = faiss.IndexFlatIP(self.dim)
        self.on_gpu = False
        if _gpu_count() > 0:
            resources = faiss.StandardGpuResources()
            index = faiss.index_cpu_to_gpu(resources, 0, index)
            self._resources = resources
            self.on_gpu = True
        index.add(vectors)
        self._index = index

    def search(self, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """(scores, ids) of the k nearest rows for each query row; ids are -1 past the index size."""
        queries = np.ascontiguousarray(np.atleast_2d(queries), dtype=np.float32)
        k = max(1, min(k, self.size)) if self.size else 1
        if self.size == 0:
            n = queries.shape[0]
            return np.zeros((n, 1), dtype=np.float32), -np.ones((n, 1), dtype=np.int64)
        return self._index.search(queries, k)


def _gpu_count() -> int:
    get = getattr(faiss, "get_num_gpus", None)
    try:
        return int(get()) if get else 0
    except Exception:  # a CPU build without CUDA answers with an error on some versions
        return 0
