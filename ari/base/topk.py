"""The k best rows of a matrix of normalised vectors for each query: numpy on the CPU, a torch
matmul and `topk` on a GPU (the matrix is copied to the GPU once and kept there).

Imports numpy only; torch is imported when a GPU matrix is made, which `ari.base.embedding`'s
device choice does only where a GPU is present.
"""

from __future__ import annotations

from typing import Any

import numpy as np


class TopK:
    """Exact inner-product top-k over `matrix` (rows L2-normalised) on `device` (cpu or cuda)."""

    def __init__(self, matrix: np.ndarray, device: str = "cpu") -> None:
        self.size = int(matrix.shape[0])
        self.device = device
        self._matrix = np.ascontiguousarray(matrix, dtype=np.float32)
        self._gpu: Any = None  # a torch tensor on the GPU: torch is not a dependency of the CPU path
        if device == "cuda":
            import torch

            # copied onto the GPU: the matrix may be a read-only memory map, which torch.from_numpy warns about
            self._gpu = torch.tensor(self._matrix, device="cuda")

    def search(self, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """(scores, ids), each (queries, k'), best first, with k' = min(k, size)."""
        queries = np.ascontiguousarray(np.atleast_2d(queries), dtype=np.float32)
        k = max(0, min(k, self.size))
        if k == 0:
            return np.zeros((len(queries), 0), dtype=np.float32), np.zeros((len(queries), 0), dtype=np.int64)
        if self._gpu is not None:
            return self._search_gpu(queries, k)
        scores = queries @ self._matrix.T
        ids = np.argpartition(-scores, k - 1, axis=1)[:, :k]
        picked = np.take_along_axis(scores, ids, axis=1)
        order = np.argsort(-picked, axis=1, kind="stable")
        return np.take_along_axis(picked, order, axis=1), np.take_along_axis(ids, order, axis=1).astype(np.int64)

    def _search_gpu(self, queries: np.ndarray, k: int, chunk: int = 8192) -> tuple[np.ndarray, np.ndarray]:
        import torch

        scores, ids = [], []
        with torch.no_grad():
            for start in range(0, len(queries), chunk):  # a chunk's score matrix stays within GPU memory
                block = torch.tensor(queries[start : start + chunk], device="cuda") @ self._gpu.T
                best = torch.topk(block, k, dim=1)
                scores.append(best.values.cpu().numpy())
                ids.append(best.indices.cpu().numpy().astype(np.int64))
        return np.vstack(scores), np.vstack(ids)
