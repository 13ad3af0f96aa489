"""The bundled MiniLM's encoder as an ONNX Runtime session, built from the same weights.

ONNX Runtime runs the encoder's small matrix products and its softmax, GELU and layer norms in
fused kernels: on 2 cores it embeds about 1.5x the names a second of the numpy pass, with the same
vectors (`benchmarks/cpu_embedding_paths.py`). Building the session costs a few tenths of a
second and importing the runtime more, so only large calls use it (`ari.base.minilm`): an ingest's
names, a learning run's questions, never one question.

The graph is written here from the safetensors weights (no torch, no exported file): the token,
position and type embeddings, then per layer the attention and feed-forward blocks exactly as
`NumpyMiniLMEmbedder._layer` computes them. It returns the last hidden states; pooling stays in
numpy, shared by both paths.

`int8=True` quantises the encoder's matrix products (ONNX Runtime's dynamic quantisation: int8
weights, one scale per output channel, activations quantised per call): about twice the names a
second again on a CPU with VNNI, vectors within a cosine of about 0.99 of float32. An ingest's
entity names take it; it links as float32 does (`benchmarks/name_embedding_cpu.py`).
"""

from __future__ import annotations

import logging
import tempfile
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import numpy as np

if TYPE_CHECKING:
    from onnx import ModelProto, NodeProto

OPSET = 17  # LayerNormalization is an ONNX operator from opset 17


class HiddenStates(Protocol):
    """token ids (batch, width), additive attention bias (batch, 1, 1, width) -> (batch, width, hidden)."""

    def __call__(self, tokens: np.ndarray, bias: np.ndarray) -> np.ndarray: ...


def onnx_runtime_available() -> bool:
    import importlib.util

    return all(importlib.util.find_spec(m) is not None for m in ("onnx", "onnxruntime"))


class OnnxEncoder:
    """`HiddenStates` through an ONNX Runtime session, one intra-op thread per call: callers spread
    work over threads themselves (`tkg_store.name_vectors.embed_parallel`), as with BLAS."""

    def __init__(self, weights: Mapping[str, np.ndarray], layers: int, heads: int, eps: float, int8: bool = False) -> None:
        import onnxruntime as ort

        model = build_graph(weights, layers, heads, eps)
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        graph = quantised(model) if int8 else model.SerializeToString()
        self._session = ort.InferenceSession(graph, options, providers=["CPUExecutionProvider"])

    def __call__(self, tokens: np.ndarray, bias: np.ndarray) -> np.ndarray:
        positions = np.arange(tokens.shape[1], dtype=np.int64)
        out = self._session.run(None, {"tokens": tokens, "bias": bias, "positions": positions})[0]
        return np.asarray(out, dtype=np.float32)


class LazyOnnxEncoder:
    """An `OnnxEncoder` built on first use, once, whichever thread asks first."""

    def __init__(self, weights: Mapping[str, np.ndarray], layers: int, heads: int, eps: float, int8: bool = False) -> None:
        self._args = (weights, layers, heads, eps, int8)
        self._encoder: OnnxEncoder | None = None
        self._lock = threading.Lock()

    def __call__(self, tokens: np.ndarray, bias: np.ndarray) -> np.ndarray:
        with self._lock:
            if self._encoder is None:
                self._encoder = OnnxEncoder(*self._args)
        return self._encoder(tokens, bias)


def quantised(model: ModelProto) -> bytes:
    """`model` with int8 matrix products, serialised. The quantiser writes a file and warns through the
    root logger, which would give a process with no logging set up a handler for good: a null
    handler takes the warning while it runs."""
    from onnxruntime.quantization import QuantType, quantize_dynamic

    root, quiet = logging.getLogger(), logging.NullHandler()
    root.addHandler(quiet)
    try:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "int8.onnx"
            quantize_dynamic(model, path, weight_type=QuantType.QInt8, per_channel=True)
            return path.read_bytes()
    finally:
        root.removeHandler(quiet)


def build_graph(weights: Mapping[str, np.ndarray], layers: int, heads: int, eps: float) -> ModelProto:
    """The encoder as an ONNX model. `weights` as `NumpyMiniLMEmbedder` holds them: short names, and
    linear layers stored (in, out) so that each is `MatMul(x, W) + b`."""
    from onnx import TensorProto, helper, numpy_helper

    nodes: list[NodeProto] = []
    used = ("embeddings.word_", "embeddings.position_", "embeddings.LayerNorm", "encoder.")  # not the pooler's
    inits = [numpy_helper.from_array(np.ascontiguousarray(v), name) for name, v in weights.items() if name.startswith(used)]
    hidden = int(weights["embeddings.word_embeddings.weight"].shape[1])
    head = hidden // heads

    def const(name: str, value: np.ndarray) -> str:
        inits.append(numpy_helper.from_array(value, name))
        return name

    def op(kind: str, inputs: list[str], out: str, **attrs: int | float | list[int]) -> str:
        node = helper.make_node(kind, inputs, [out])
        node.attribute.extend(helper.make_attribute(key, value) for key, value in attrs.items())
        nodes.append(node)
        return out

    def linear(x: str, name: str, out: str) -> str:
        return op("Add", [op("MatMul", [x, name + ".weight"], out + "_mm"), name + ".bias"], out)

    def norm(x: str, name: str, out: str) -> str:
        return op("LayerNormalization", [x, name + ".weight", name + ".bias"], out, axis=-1, epsilon=eps)

    split = const("split_shape", np.array([0, 0, heads, head], dtype=np.int64))
    merge = const("merge_shape", np.array([0, 0, hidden], dtype=np.int64))
    scale = const("scale", np.array(1.0 / np.sqrt(head), dtype=np.float32))
    half, one = const("half", np.array(0.5, dtype=np.float32)), const("one", np.array(1.0, dtype=np.float32))
    root_half = const("root_half", np.array(1.0 / np.sqrt(2.0), dtype=np.float32))
    token_type = const("token_type", np.ascontiguousarray(weights["embeddings.token_type_embeddings.weight"][0]))

    words = op("Gather", ["embeddings.word_embeddings.weight", "tokens"], "words")
    places = op("Gather", ["embeddings.position_embeddings.weight", "positions"], "places")
    x = norm(op("Add", [op("Add", [words, places], "wp"), token_type], "emb"), "embeddings.LayerNorm", "x0")
    for layer in range(layers):
        p, t = f"encoder.layer.{layer}.", f"l{layer}_"

        def heads_of(name: str, perm: list[int], x: str = x, p: str = p, t: str = t) -> str:
            flat = linear(x, p + f"attention.self.{name}", t + name)
            return op("Transpose", [op("Reshape", [flat, split], t + name + "_r")], t + name + "_t", perm=perm)

        q, k, v = heads_of("query", [0, 2, 1, 3]), heads_of("key", [0, 2, 3, 1]), heads_of("value", [0, 2, 1, 3])
        scores = op("Add", [op("Mul", [op("MatMul", [q, k], t + "qk"), scale], t + "qk_s"), "bias"], t + "scores")
        weights_ = op("Softmax", [scores], t + "attn", axis=-1)
        context = op("Transpose", [op("MatMul", [weights_, v], t + "ctx")], t + "ctx_t", perm=[0, 2, 1, 3])
        context = op("Reshape", [context, merge], t + "ctx_m")
        x = norm(op("Add", [x, linear(context, p + "attention.output.dense", t + "ao")], t + "res1"), p + "attention.output.LayerNorm", t + "x1")
        inner = linear(x, p + "intermediate.dense", t + "in")
        erf = op("Erf", [op("Mul", [inner, root_half], t + "in_s")], t + "erf")
        gelu = op("Mul", [op("Mul", [inner, half], t + "in_h"), op("Add", [erf, one], t + "erf1")], t + "gelu")
        x = norm(op("Add", [x, linear(gelu, p + "output.dense", t + "out")], t + "res2"), p + "output.LayerNorm", t + "x2")
    nodes.append(helper.make_node("Identity", [x], ["hidden"]))
    graph = helper.make_graph(
        nodes, "minilm",
        [
            helper.make_tensor_value_info("tokens", TensorProto.INT64, ["batch", "width"]),
            helper.make_tensor_value_info("bias", TensorProto.FLOAT, ["batch", 1, 1, "width"]),
            helper.make_tensor_value_info("positions", TensorProto.INT64, ["width"]),
        ],
        [helper.make_tensor_value_info("hidden", TensorProto.FLOAT, ["batch", "width", hidden])],
        initializer=inits,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], ir_version=8)
