"""The numpy MiniLM gives sentence-transformers' vectors, and the backend is chosen explicitly."""

from __future__ import annotations

import os
import platform
import subprocess
import sys

import numpy as np
import pytest

from ari.base import embedding
from ari.base.embedding import (
    PendingVectors,
    SentenceTransformerEmbedder,
    VectorCache,
    bundled_model_path,
    get_embedder,
)
from ari.base.errors import UsageError
from ari.base.minilm import ONNX_MIN_TEXTS, NumpyMiniLMEmbedder, is_minilm_folder
from ari.base.topk import TopK
from tests.model_support import copied_model

TEXTS = [
    "Who was the last to criticise Iran before Pervez Musharraf did?",
    "Ministry of Foreign Affairs (Japan)",
    "Café naïve — Zürich, 2015-12-13",  # accents and punctuation
    "a",
    " ".join(["very long question"] * 120),  # past the 256-token limit: truncated as sentence-transformers does
]


def test_numpy_vectors_equal_sentence_transformers():
    path = bundled_model_path()
    ours = NumpyMiniLMEmbedder(path).embed_batch(TEXTS)
    theirs = SentenceTransformerEmbedder(path).embed_batch(TEXTS)
    assert ours.dtype == np.float32 and ours.shape == (len(TEXTS), 384)
    assert np.abs(ours - theirs).max() < 1e-5
    assert np.allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-6)


def test_onnx_runtime_gives_the_numpy_vectors_for_large_calls_only():
    path = bundled_model_path()
    numpy_only = NumpyMiniLMEmbedder(path, onnx=False).embed_batch(TEXTS)
    many = NumpyMiniLMEmbedder(path).embed_batch(TEXTS * (ONNX_MIN_TEXTS // len(TEXTS) + 1))  # through the runtime
    assert np.abs(many.reshape(-1, len(TEXTS), 384) - numpy_only).max() < 1e-5
    # one question embeds without importing the runtime, a large call with it (a fresh process: this one has it already)
    script = (
        "import sys; from ari.base.embedding import bundled_model_path; from ari.base.minilm import NumpyMiniLMEmbedder as E\n"
        "e = E(bundled_model_path()); e.embed_batch(['Who visited Iran?']); print('onnxruntime' in sys.modules)\n"
        f"e.embed_batch(['Iran'] * {ONNX_MIN_TEXTS}); print('onnxruntime' in sys.modules)"
    )
    assert subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout.split() == ["False", "True"]


def test_a_batch_gives_each_text_its_own_vector():
    embedder = NumpyMiniLMEmbedder(bundled_model_path(), batch_size=2)
    together = embedder.embed_batch(TEXTS)
    alone = np.vstack([embedder.embed_batch([t]) for t in TEXTS])
    assert np.abs(together - alone).max() < 1e-5  # padding never leaks into a shorter text
    assert embedder.embed_batch([]).shape == (0, 384)


def test_the_bundled_model_runs_on_numpy_unless_told_otherwise(monkeypatch):
    monkeypatch.delenv("ARI_EMBEDDING_BACKEND", raising=False)
    get_embedder.cache_clear()
    assert isinstance(get_embedder(), NumpyMiniLMEmbedder)
    monkeypatch.setenv("ARI_EMBEDDING_BACKEND", "sentence-transformers")
    get_embedder.cache_clear()
    assert isinstance(get_embedder(), SentenceTransformerEmbedder)
    get_embedder.cache_clear()


def test_a_bad_backend_is_a_usage_error(monkeypatch, tmp_path):
    monkeypatch.setenv("ARI_EMBEDDING_BACKEND", "onnx")
    get_embedder.cache_clear()
    with pytest.raises(UsageError, match="ARI_EMBEDDING_BACKEND"):
        get_embedder()
    monkeypatch.setenv("ARI_EMBEDDING_BACKEND", "numpy")
    assert not is_minilm_folder(str(tmp_path))
    with pytest.raises(UsageError, match="mean-pooled BERT"):
        get_embedder(str(tmp_path))
    get_embedder.cache_clear()


def test_a_model_that_needs_a_missing_package_is_a_usage_error_naming_it(monkeypatch, tmp_path):
    # a model folder other than the bundled one runs through sentence-transformers; without it, one clear error
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)
    with pytest.raises(UsageError, match="needs sentence-transformers"):
        SentenceTransformerEmbedder(str(tmp_path))


def test_a_copy_of_the_model_runs_on_numpy_without_sentence_transformers(monkeypatch, tmp_path):
    # a memory names the model folder it was learnt with; a copy elsewhere is the same model, and its form
    # (a mean-pooled BERT) is what decides the path, not whether it is the installed package's folder
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)
    monkeypatch.delenv("ARI_EMBEDDING_BACKEND", raising=False)
    get_embedder.cache_clear()
    copy = get_embedder(str(copied_model(tmp_path / "model")), device="cpu")
    assert isinstance(copy, NumpyMiniLMEmbedder)
    assert np.abs(copy.embed_batch(TEXTS) - NumpyMiniLMEmbedder(bundled_model_path()).embed_batch(TEXTS)).max() < 1e-6
    with pytest.raises(UsageError, match="needs sentence-transformers"):  # a CLS-pooled model: one clear error
        get_embedder(str(copied_model(tmp_path / "cls", pooling="cls")), device="cpu")
    get_embedder.cache_clear()


def test_numpy_reads_a_text_as_the_folder_says(tmp_path):
    # a shorter max_seq_length truncates, and lower-casing first: the vectors sentence-transformers gives that folder
    folder = str(copied_model(tmp_path / "model", reading={"max_seq_length": 8, "do_lower_case": True}))
    texts = [*TEXTS, "WHO VISITED IRAN IN 2015?"]
    ours = NumpyMiniLMEmbedder(folder).embed_batch(texts)
    assert np.abs(ours - SentenceTransformerEmbedder(folder).embed_batch(texts)).max() < 1e-5
    full = NumpyMiniLMEmbedder(bundled_model_path()).embed_batch(texts)
    assert np.abs(ours[0] - full[0]).max() > 1e-3  # the question's first 8 tokens only
    assert np.abs(ours[3] - full[3]).max() < 1e-6  # "a" fits in 8 tokens


class _FailingOnBad:
    """Fails a call that holds the text "bad", as a model could on one malformed input."""

    name, dim = "failing", 3

    def embed_batch(self, texts: list[str]) -> np.ndarray:
        if "bad" in texts:
            raise ValueError("the model could not run on 'bad'")
        return np.ones((len(texts), self.dim), dtype=np.float32)


def test_pending_vectors_are_the_direct_vectors_and_a_bad_text_fails_alone():
    embedder = NumpyMiniLMEmbedder(bundled_model_path())
    pending = PendingVectors(embedder, TEXTS[:3])
    direct = embedder.embed_batch(TEXTS[:3])  # at the same time as the background call: one at a time
    assert all(np.array_equal(pending.row(i), direct[i]) for i in range(3))
    failed = PendingVectors(_FailingOnBad(), ["a question", "bad"])
    assert failed.row(0).tolist() == [1.0, 1.0, 1.0]  # the batch failed: embedded alone, it succeeds
    with pytest.raises(ValueError, match="could not run"):
        failed.row(1)


class _Noting:
    """Ones for every text, noting each call's texts."""

    name, dim = "noting", 3

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def embed_batch(self, texts: list[str]) -> np.ndarray:
        self.calls.append(list(texts))
        return np.ones((len(texts), self.dim), dtype=np.float32)


def test_lazy_pending_vectors_embed_the_whole_batch_once_on_first_need():
    noting = _Noting()
    pending = PendingVectors(noting, ["a question", "another"], eager=False)
    assert noting.calls == []  # nothing is embedded before a row is asked for
    assert pending.row(1).tolist() == [1.0, 1.0, 1.0]
    pending.row(0)
    assert noting.calls == [["a question", "another"]]  # one call for the batch, not one per row
    failed = PendingVectors(_FailingOnBad(), ["a question", "bad"], eager=False)
    assert failed.row(0).tolist() == [1.0, 1.0, 1.0]
    with pytest.raises(ValueError, match="could not run"):
        failed.row(1)


def test_without_a_gpu_the_device_is_the_cpu_and_overrides_are_honoured(monkeypatch):
    monkeypatch.delenv("ARI_DEVICE", raising=False)
    monkeypatch.setattr(embedding, "_chosen", [])
    monkeypatch.setattr(embedding.os.path, "exists", lambda path: False if path == "/dev/nvidiactl" else True)
    embedding.gpu_present.cache_clear()
    try:
        assert not embedding.gpu_present()
        assert embedding.resolve_device() == "cpu"
        monkeypatch.setenv("ARI_DEVICE", "cpu")
        assert embedding.resolve_device() == "cpu"
        monkeypatch.setenv("ARI_DEVICE", "cuda")
        with pytest.raises(UsageError, match="no CUDA GPU"):
            embedding.resolve_device()
        assert embedding.resolve_device("cpu") == "cpu"  # an explicit device beats the environment
        monkeypatch.setenv("ARI_DEVICE", "tpu")
        with pytest.raises(UsageError, match="auto, cpu, cuda"):
            embedding.resolve_device()
    finally:
        embedding.gpu_present.cache_clear()


@pytest.mark.skipif(os.path.exists("/dev/nvidiactl"), reason="this machine has an NVIDIA GPU")
def test_a_machine_without_a_gpu_chooses_the_cpu_without_importing_torch():
    code = "import sys; from ari.base.embedding import resolve_device; print(resolve_device(), 'torch' in sys.modules)"
    env = {k: v for k, v in os.environ.items() if k != "ARI_DEVICE"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    assert done.stdout.split() == ["cpu", "False"]


def test_use_device_sets_the_process_device_for_its_workers_too(monkeypatch):
    monkeypatch.setenv("ARI_DEVICE", "auto")
    monkeypatch.setattr(embedding, "_chosen", [])
    embedding.use_device("cpu")
    assert embedding.requested_device() == "cpu" and os.environ["ARI_DEVICE"] == "cpu"
    with pytest.raises(UsageError, match="device must be"):
        embedding.use_device("gpu")
    get_embedder.cache_clear()


def test_a_gpu_present_runs_the_bundled_model_through_sentence_transformers(monkeypatch):
    made: list[tuple] = []

    class _Recorded:
        def __init__(self, path: str, device: str | None = None, batch_size: int = 128) -> None:
            made.append((device, batch_size))

    monkeypatch.setattr(embedding, "_chosen", [])
    monkeypatch.delenv("ARI_DEVICE", raising=False)
    monkeypatch.delenv("ARI_EMBEDDING_BACKEND", raising=False)
    monkeypatch.setattr(embedding, "gpu_present", lambda: True)
    monkeypatch.setattr(embedding, "SentenceTransformerEmbedder", _Recorded)
    get_embedder.cache_clear()
    assert isinstance(get_embedder(), _Recorded) and made == [("cuda", embedding.GPU_BATCH)]
    assert isinstance(get_embedder(device="cpu"), NumpyMiniLMEmbedder)  # --device cpu keeps the numpy path
    get_embedder.cache_clear()


def test_the_token_budget_gives_the_fixed_batch_vectors():
    path = bundled_model_path()
    fixed = NumpyMiniLMEmbedder(path, batch_size=16, tokens_per_batch=0).embed_batch(TEXTS)
    budget = NumpyMiniLMEmbedder(path, batch_size=256, tokens_per_batch=32).embed_batch(TEXTS)  # the long text alone
    assert (fixed * budget).sum(axis=1).min() > 0.9999


def test_top_k_is_the_exact_best_rows_in_order():
    rng = np.random.default_rng(0)
    matrix = rng.normal(size=(50, 8)).astype(np.float32)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    scores, ids = TopK(matrix).search(matrix[:5], 3)
    full = matrix[:5] @ matrix.T
    assert ids[:, 0].tolist() == [0, 1, 2, 3, 4]  # each vector is its own best match
    assert ids.tolist() == np.argsort(-full, axis=1)[:, :3].tolist()
    assert np.allclose(scores, np.sort(full, axis=1)[:, ::-1][:, :3])
    assert TopK(matrix).search(matrix[:2], 100)[1].shape == (2, 50)


NAMES = [f"{word} {kind} ({place})" for word in ("Ministry of", "Army of", "Bank of", "Party of", "Police of")
         for kind in ("Defence", "Trade", "Justice") for place in ("Japan", "Kenya", "Chile")]


def test_names_split_over_threads_get_the_vectors_of_one_call_in_order():
    from tkg_store.name_vectors import embed_parallel

    embedder = NumpyMiniLMEmbedder(bundled_model_path())
    serial = embedder.embed_batch(NAMES)
    for threads in (2, 3):
        split = embed_parallel(embedder, NAMES, threads)
        assert split.shape == serial.shape
        assert np.abs(split - serial).max() < 1e-6  # each name keeps its own row, whatever piece it went in


def test_int8_name_vectors_are_the_same_whatever_the_thread_count():
    """The int8 encoder sets its scales per call: a store's name vectors must not depend on how many
    cores the machine that ingested it had."""
    from tkg_store.name_vectors import PIECE, embed_parallel

    embedder = NumpyMiniLMEmbedder(bundled_model_path())
    names = [f"{name} {i}" for i in range(PIECE // len(NAMES) + 2) for name in NAMES][: PIECE + ONNX_MIN_TEXTS + 7]
    one = embed_parallel(embedder, names, 1, int8=True)
    for threads in (2, 5):
        assert np.array_equal(embed_parallel(embedder, names, threads, int8=True), one)


def test_int8_name_vectors_still_find_each_name_from_its_float32_mention():
    """An ingest embeds entity names on the int8 encoder and a question's words on float32: a mention
    spelt as a name must still be nearest that name, among names that differ in one word."""
    names = [f"{word} {kind} ({place})" for word in ("Ministry of", "Army of", "Bank of", "Party of", "Police of", "Court of", "Office of", "Council of")
             for kind in ("Defence", "Trade", "Justice", "Health") for place in ("Japan", "Kenya", "Chile", "Iran", "Peru")]
    assert len(names) >= ONNX_MIN_TEXTS  # a large call: through the runtime
    embedder = NumpyMiniLMEmbedder(bundled_model_path())
    mentions = embedder.embed_batch(names[:40])  # fewer than ONNX_MIN_TEXTS: numpy, float32
    int8 = embedder.embed_batch(names, int8=True)
    float32 = embedder.embed_batch(names)
    assert 0.95 < float((int8 * float32).sum(axis=1).min()) < 0.99999  # close, and not the float32 vectors
    assert (mentions @ int8.T).argmax(axis=1).tolist() == list(range(40))


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="a setting of glibc's allocator")
def test_the_embedder_reuses_freed_memory_instead_of_faulting_it_in_again():
    # in a fresh process: the setting is for the whole process, and this one has it already
    script = """
import resource, sys
from ari.base import minilm
from ari.base.embedding import bundled_model_path
setting, minilm._reuse_freed_memory = minilm._reuse_freed_memory, lambda: None
embedder = minilm.NumpyMiniLMEmbedder(bundled_model_path(), onnx=False)  # the numpy pass: ONNX Runtime allocates in its own arena
names = sys.argv[1:]
def faults():
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    embedder.embed_batch(names)
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before
faults()  # warm-up
default = faults()
setting()
faults()
print(default, faults())
"""
    out = subprocess.run([sys.executable, "-c", script, *NAMES * 4], capture_output=True, text=True, check=True)
    default, reused = map(int, out.stdout.split())
    assert reused * 10 < default, (default, reused)


def test_a_vector_cache_embeds_each_new_text_once_and_empties_past_its_limit():
    noting = _Noting()
    cache = VectorCache(noting, limit=1)
    cache.add(["visit", "", "praise", "visit"])
    cache.add(["praise", "visit"])
    assert noting.calls == [["praise", "visit"]]  # one call for the new texts, none for the empty one or those known
    assert cache.get("") is None and cache.get("visit") is not None
    cache.add(["visit", "condemn", "host"])  # past its limit: emptied, and the batch's known text embedded again
    assert noting.calls[-1] == ["condemn", "host", "visit"] and cache.get("praise") is None
    assert VectorCache(None, limit=2).get("visit") is None
