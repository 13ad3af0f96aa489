"""The bundled all-MiniLM-L6-v2 as a numpy forward pass: the same vectors as sentence-transformers,
without importing torch.

Importing sentence-transformers (transformers, torch, sklearn) takes ~8 s and ~600 MB before the
first question can be answered; this module needs only `tokenizers`, `safetensors` and numpy. It
runs the 6-layer BERT encoder, mean-pools the token vectors under the attention mask and
L2-normalises them, exactly the three modules of the model's `modules.json`.
`benchmarks/embedding_parity.py` measures the difference from sentence-transformers.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

import numpy as np

from ari.base.minilm_onnx import HiddenStates, LazyOnnxEncoder, onnx_runtime_available

MAX_TOKENS = 256  # tokens read of a text where the folder's sentence_bert_config.json names no max_seq_length
# A call embedding at least this many texts runs through ONNX Runtime when it is installed (1.3x the
# names a second, the same vectors); fewer do not repay building its session (`ari.base.minilm_onnx`)
ONNX_MIN_TEXTS = 128


def is_minilm_folder(model_path: str) -> bool:
    """True for a sentence-transformers folder of a mean-pooled, normalised BERT with safetensors weights."""
    folder = Path(model_path)
    try:
        config = json.loads((folder / "config.json").read_text())
        modules = [m["type"].rsplit(".", 1)[-1] for m in json.loads((folder / "modules.json").read_text())]
        pooling = json.loads((folder / "1_Pooling" / "config.json").read_text())
    except (OSError, ValueError, KeyError, TypeError):
        return False
    return (
        config.get("model_type") == "bert"
        and config.get("hidden_act") == "gelu"
        and config.get("position_embedding_type", "absolute") == "absolute"
        and modules == ["Transformer", "Pooling", "Normalize"]
        and pooling.get("pooling_mode_mean_tokens") is True
        and not any(pooling.get(k) for k in ("pooling_mode_cls_token", "pooling_mode_max_tokens", "pooling_mode_mean_sqrt_len_tokens"))
        and (folder / "model.safetensors").exists()
        and (folder / "tokenizer.json").exists()
    )


class NumpyMiniLMEmbedder:
    """A BERT sentence encoder (mean pooling, normalised) computed with numpy in float32."""

    def __init__(self, model_path: str, batch_size: int = 256, tokens_per_batch: int = 512, onnx: bool = True) -> None:
        # Texts are sorted by length and encoded in batches, each padded to its longest text. A
        # fixed count of texts suits one kind of text: 16 suits questions (6.0 ms of CPU per text
        # against 9.9 for 64), 64 short names (2.4 ms against 2.7 for 16). A budget of padded
        # tokens per batch (at most `batch_size` texts) suits both: at 512, 6.3 ms per question and
        # 2.6 per name in the committed run (benchmarks/results/embedding_speed.md; an earlier run
        # gave 6.4 against 7.8 and 2.8 against 3.2 for 16 a batch). Both on 2 shared, loaded cores,
        # the same vectors (cosine >= 0.9999998). tokens_per_batch=0: `batch_size` texts a batch.
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        folder = Path(model_path)
        config = json.loads((folder / "config.json").read_text())
        self.name = model_path
        self.dim = int(config["hidden_size"])
        self._heads = int(config["num_attention_heads"])
        self._layers = int(config["num_hidden_layers"])
        self._eps = float(config["layer_norm_eps"])
        self._batch_size = batch_size
        self._tokens_per_batch = tokens_per_batch
        self._tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self._tokenizer.no_padding()
        # as sentence-transformers reads a folder: its max_seq_length, and lower case first where it says so
        tokens, self._lower = _reading(folder)
        self._tokenizer.enable_truncation(max_length=min(tokens, int(config["max_position_embeddings"])))
        self._lock = threading.Lock()  # the tokenizer's settings are shared state
        _one_blas_thread()
        _reuse_freed_memory()
        weights = load_file(str(folder / "model.safetensors"))
        self._w = {_short(k): np.ascontiguousarray(v, dtype=np.float32) for k, v in weights.items() if v.dtype.kind == "f"}
        # linear layers as (in, out) so a forward pass is x @ W + b
        for key in [k for k in self._w if k.endswith(".weight") and self._w[k].ndim == 2 and "embeddings" not in k]:
            self._w[key] = np.ascontiguousarray(self._w[key].T)
        self._onnx: HiddenStates | None = None
        self._onnx_int8: HiddenStates | None = None
        if onnx and onnx_runtime_available():  # built on the first large call only
            self._onnx = LazyOnnxEncoder(self._w, self._layers, self._heads, self._eps)
            self._onnx_int8 = LazyOnnxEncoder(self._w, self._layers, self._heads, self._eps, int8=True)

    def embed_batch(self, texts: list[str], int8: bool = False) -> np.ndarray:
        """`int8`: a large call runs the int8 encoder (`ari.base.minilm_onnx`), about twice as fast
        for vectors within a cosine of about 0.99: for a store's entity names, not for questions."""
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        if not texts:
            return out
        with self._lock:
            ids = [e.ids for e in self._tokenizer.encode_batch([t.lower() for t in texts] if self._lower else list(texts))]
        # the forward pass reads the weights only: two threads may run it at once (the agent embeds
        # a question's verb phrase while the background thread embeds the question)
        order = sorted(range(len(ids)), key=lambda i: len(ids[i]))  # similar lengths share a batch: less padding
        onnx = self._onnx_int8 if int8 else self._onnx
        hidden = onnx if onnx is not None and len(texts) >= ONNX_MIN_TEXTS else self._hidden
        for rows in self._batches(order, [len(t) for t in ids]):
            out[rows] = self._encode([ids[i] for i in rows], hidden)
        return out

    def _batches(self, order: list[int], lengths: list[int]) -> list[list[int]]:
        """Runs of `order` (texts by length), each at most `batch_size` texts or, when
        `tokens_per_batch` is set, at most that many padded tokens (at least one text)."""
        if not self._tokens_per_batch:
            return [order[s : s + self._batch_size] for s in range(0, len(order), self._batch_size)]
        batches: list[list[int]] = [[]]
        for i in order:  # ascending lengths: the text added is the batch's longest
            if batches[-1] and (len(batches[-1]) + 1) * lengths[i] > self._tokens_per_batch:
                batches.append([])
            batches[-1].append(i)
        return batches

    def _encode(self, batch: list[list[int]], hidden: HiddenStates) -> np.ndarray:
        width = max(len(ids) for ids in batch)
        tokens = np.zeros((len(batch), width), dtype=np.int64)
        mask = np.zeros((len(batch), width), dtype=np.float32)
        for row, ids in enumerate(batch):
            tokens[row, : len(ids)] = ids
            mask[row, : len(ids)] = 1.0
        bias = ((1.0 - mask) * np.float32(-1e9))[:, None, None, :]  # padding gets no attention
        x = hidden(tokens, bias)
        pooled = (x * mask[:, :, None]).sum(axis=1) / np.maximum(mask.sum(axis=1, keepdims=True), 1e-9)
        return pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)

    def _hidden(self, tokens: np.ndarray, bias: np.ndarray) -> np.ndarray:
        """The last hidden states, computed with numpy."""
        w = self._w
        x = w["embeddings.word_embeddings.weight"][tokens]
        x = x + w["embeddings.position_embeddings.weight"][: tokens.shape[1]] + w["embeddings.token_type_embeddings.weight"][0]
        x = self._norm(x, "embeddings.LayerNorm")
        for layer in range(self._layers):
            x = self._layer(x, bias, f"encoder.layer.{layer}.")
        return x

    def _layer(self, x: np.ndarray, bias: np.ndarray, p: str) -> np.ndarray:
        batch, width, hidden = x.shape
        head = hidden // self._heads

        def split(t: np.ndarray) -> np.ndarray:  # (batch, heads, width, head), contiguous: numpy's
            # stacked matmul only reaches BLAS for contiguous operands
            return np.ascontiguousarray(t.reshape(batch, width, self._heads, head).transpose(0, 2, 1, 3))

        q = split(self._linear(x, p + "attention.self.query"))
        k = split(self._linear(x, p + "attention.self.key"))
        v = split(self._linear(x, p + "attention.self.value"))
        scores = q @ np.ascontiguousarray(k.transpose(0, 1, 3, 2)) / np.float32(np.sqrt(head)) + bias
        scores = np.exp(scores - scores.max(axis=-1, keepdims=True))
        scores /= scores.sum(axis=-1, keepdims=True)
        context = (scores @ v).transpose(0, 2, 1, 3).reshape(batch, width, hidden)
        x = self._norm(x + self._linear(context, p + "attention.output.dense"), p + "attention.output.LayerNorm")
        inner = _gelu(self._linear(x, p + "intermediate.dense"))
        return self._norm(x + self._linear(inner, p + "output.dense"), p + "output.LayerNorm")

    def _linear(self, x: np.ndarray, name: str) -> np.ndarray:
        weight = self._w[name + ".weight"]
        flat = x.reshape(-1, x.shape[-1]) @ weight  # one BLAS call for the batch
        flat += self._w[name + ".bias"]
        return flat.reshape(*x.shape[:-1], weight.shape[1])

    def _norm(self, x: np.ndarray, name: str) -> np.ndarray:
        mean = x.mean(axis=-1, keepdims=True)
        var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
        return (x - mean) / np.sqrt(var + self._eps) * self._w[name + ".weight"] + self._w[name + ".bias"]


def _reading(folder: Path) -> tuple[int, bool]:
    """How sentence-transformers reads a text for this folder (its sentence_bert_config.json): at most
    how many tokens, and whether lower-cased first."""
    try:
        found = json.loads((folder / "sentence_bert_config.json").read_text())
    except (OSError, ValueError):
        found = {}
    found = found if isinstance(found, dict) else {}
    return int(found.get("max_seq_length") or MAX_TOKENS), bool(found.get("do_lower_case"))


def _one_blas_thread() -> None:
    """Run BLAS on one thread in this process. These matrices are small: on 2 shared cores a second
    BLAS thread made one question's embedding 8x slower (16 ms -> 130 ms, measured while other
    jobs ran), and the other core is better spent on the store, the other requests or a second
    embedding. Set once for the process rather than around each call, so that calls on two threads
    never restore the limit under each other (scikit-learn's K-means limits BLAS itself)."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return
    threadpool_limits(limits=1, user_api="blas")


def _reuse_freed_memory() -> None:
    """Have glibc's malloc keep freed blocks of up to 32 MB for reuse. A forward pass makes dozens
    of temporary arrays of a few MB; by default glibc maps each afresh (mmap) and unmaps it when
    it is freed, so every pass faults its pages in again, zeroed by the kernel (~450 faults a
    name), and threads doing so at once contend for the process's memory map: two threads took
    5.3 ms of CPU a name, 3.6 with freed blocks reused, and embedded 1.5x the names a second
    (benchmarks/results/name_embedding_cpu/name_embedding_cpu_threads.md). Freed memory at the
    heap's top is returned to the system past 128 MB. Set for the process, once: glibc only
    (elsewhere nothing changes)."""
    import ctypes
    import platform

    if platform.libc_ver()[0] != "glibc":
        return
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return
    m_trim_threshold, m_mmap_threshold = -1, -3  # glibc's malloc.h
    mallopt(m_mmap_threshold, 32 << 20)  # glibc's ceiling for this setting on 64-bit
    mallopt(m_trim_threshold, 128 << 20)


def _short(key: str) -> str:
    """Weight names without a leading model prefix ("bert." in some exports)."""
    for prefix in ("bert.", "model."):
        if key.startswith(prefix):
            return key[len(prefix) :]
    return key


def _gelu(x: np.ndarray) -> np.ndarray:
    """BERT's exact GELU, x * Phi(x), with erf from Abramowitz & Stegun 7.1.26 (|error| < 1.5e-7).

    Written in place, one pass per operation and no `np.sign`/`np.where` (each as slow as `exp`):
    the feed-forward activations are the largest arrays of the pass, and this form takes half the
    time of the plain expression with bit-identical results."""
    f32 = np.float32
    z = np.abs(x)
    z *= f32(1 / np.sqrt(2))
    t = np.multiply(z, f32(0.3275911))
    t += f32(1.0)
    np.reciprocal(t, out=t)
    q = np.multiply(t, f32(1.061405429))
    for coefficient in (-1.453152027, 1.421413741, -0.284496736, 0.254829592):
        q += f32(coefficient)
        q *= t
    np.multiply(z, z, out=z)
    np.negative(z, out=z)
    np.exp(z, out=z)
    q *= z  # 1 - |erf|
    np.subtract(f32(1.0), q, out=q)
    np.copysign(q, x, out=q)  # erf
    q += f32(1.0)
    q *= x
    q *= f32(0.5)
    return q
