"""The GPU path against the CPU path on one machine: MultiTQ ingested and a question sample answered
with `--device cuda` and with `--device cpu`, side by side.

    python -m benchmarks.gpu_parity --data-dir MULTITQ --memory MEMORY --work /tmp/parity --out FOLDER \\
        [--sample 500] [--seed 0] [--gpu cuda]

Steps, each a fresh process timed by the kernel (wall, CPU, peak RSS: os.wait4, `scale_bench.run_measured`):
1. `ari ingest multitq` into two stores, one per device (with their tables);
2. the entity-name and relation vectors the two ingests stored, compared row by row (cosine), and the
   names embedded again in float32 on both devices by ARI's own embedders (the CPU ingest embeds
   names with the int8 encoder, `tkg_store.name_vectors`; this separates the device from that choice);
3. `ari bench run multitq --split dev --sample N --seed S` on each store with its device, and the CPU
   on the GPU's store (whether a difference comes from the store's vectors or from the questions'),
   each on its own copy of the memory; Hits@1 of each and the questions whose top answer differs.

--gpu cpu runs every step on the CPU: a check of the script on a machine without a GPU.
Writes FOLDER/gpu_parity.json and .md.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from dataclasses import asdict
from pathlib import Path

import numpy as np

from benchmarks.results_io import table, write_results
from benchmarks.scale_bench import run_measured

ROOT = Path(__file__).resolve().parents[1]


def ari(*args: str) -> list[str]:
    return [sys.executable, "-m", "ari", *args]


def timed_step(name: str, command: list[str], work: Path, timeout_s: float, env: dict[str, str]) -> dict:
    """One step's figures (its stdout left out); its output stays in WORK/logs/NAME.out / .err."""
    logs = work / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    measured = run_measured(command, timeout_s, logs / name, env)
    row = {k: v for k, v in asdict(measured).items() if k != "stdout"}
    print(name, row, flush=True)
    return row


def stored_vectors(db: Path) -> tuple[list[str], np.ndarray, list[str], np.ndarray]:
    """(entity names, their vectors, relation names, their vectors) as an ingest stored them beside `db`."""
    tables = sorted(db.parent.glob(db.name + ".vectors-*.npz"))
    if len(tables) != 1:
        raise FileNotFoundError(f"one vectors table expected beside {db}, found {len(tables)}")
    kept = np.load(tables[0], allow_pickle=False)
    matrix = np.load(tables[0].with_suffix(".npy"), allow_pickle=False)
    return [str(e) for e in kept["entities"]], matrix, [str(r) for r in kept["relations"]], kept["relation_matrix"]


def row_cosines(names_a: list[str], a: np.ndarray, names_b: list[str], b: np.ndarray) -> dict:
    """The cosine of each name's two vectors (rows matched by name; vectors are normalised)."""
    where = {name: i for i, name in enumerate(names_b)}
    shared = [(i, where[n]) for i, n in enumerate(names_a) if n in where]
    left, right = np.asarray([i for i, _ in shared]), np.asarray([j for _, j in shared])
    cosines = (a[left] * b[right]).sum(axis=1)
    return {"rows": len(shared), "only_one_side": len(names_a) + len(names_b) - 2 * len(shared),
            "min": round(float(cosines.min()), 7), "mean": round(float(cosines.mean()), 7),
            "below_0_999": int((cosines < 0.999).sum()), "below_0_99": int((cosines < 0.99).sum())}


def float32_names(names: list[str], gpu: str) -> dict:
    """The names embedded in float32 by ARI's embedder for each device (`get_embedder`), compared."""
    from ari.base.embedding import get_embedder
    from tkg_store.name_vectors import embed_parallel

    on_gpu = get_embedder(device=gpu).embed_batch(names)
    on_cpu = embed_parallel(get_embedder(device="cpu"), names)
    return row_cosines(names, on_gpu, names, on_cpu)


def answers(run: Path) -> dict[str, dict]:
    rows = [json.loads(line) for line in (run / "results.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
    return {str(r["qid"]): r for r in rows}


def compared(a: dict[str, dict], b: dict[str, dict]) -> dict:
    """Questions both runs answered, how many top answers (or abstentions) differ, and the first few."""
    both = sorted(set(a) & set(b))
    differ = [q for q in both if (a[q]["answer"], a[q]["abstained"]) != (b[q]["answer"], b[q]["abstained"])]
    return {"questions": len(both), "top_answer_differs": len(differ),
            "answer_sets_differ": sum(1 for q in both if sorted(a[q]["answers"] or []) != sorted(b[q]["answers"] or [])),
            "examples": [{"qid": q, "question": a[q]["question"], "gold": a[q]["gold"], "first": a[q]["answer"], "second": b[q]["answer"]} for q in differ[:10]]}


def hits_at_1(rows: dict[str, dict]) -> float | None:
    return round(sum(bool(r["hit1"]) for r in rows.values()) / len(rows), 4) if rows else None


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, required=True, help="MultiTQ's folder (kg/, questions/)")
    parser.add_argument("--memory", type=Path, required=True, help="a learnt memory (copied for each run)")
    parser.add_argument("--work", type=Path, required=True, help="stores, runs and logs (outside the repository)")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--sample", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--gpu", default="cuda", help="the device compared with the CPU (cpu: check the script)")
    parser.add_argument("--timeout", type=float, default=300, help="seconds one step may take")
    args = parser.parse_args(argv)
    args.work.mkdir(parents=True, exist_ok=True)
    args.out.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}
    report: dict = {"command": " ".join(["python -m benchmarks.gpu_parity", *(argv if argv is not None else sys.argv[1:])]),
                    "cpus": os.cpu_count(), "gpu": args.gpu, "steps": {}}
    stores = {"gpu": args.work / "gpu.duckdb", "cpu": args.work / "cpu.duckdb"}
    devices = {"gpu": args.gpu, "cpu": "cpu"}
    for side, db in stores.items():
        for old in db.parent.glob(db.name + "*"):
            old.unlink()
        command = ari("ingest", "multitq", str(args.data_dir), "--db", str(db), "--device", devices[side], "--json", "--quiet")
        report["steps"][f"ingest_{side}"] = timed_step(f"ingest_{side}", command, args.work, args.timeout, env)
        _write(args.out, report)
    names_gpu, vectors_gpu, relations_gpu, relation_vectors_gpu = stored_vectors(stores["gpu"])
    names_cpu, vectors_cpu, relations_cpu, relation_vectors_cpu = stored_vectors(stores["cpu"])
    report["stored_names"] = row_cosines(names_gpu, vectors_gpu, names_cpu, vectors_cpu)
    report["stored_relations"] = row_cosines(relations_gpu, relation_vectors_gpu, relations_cpu, relation_vectors_cpu)
    report["float32_names"] = float32_names(names_gpu, args.gpu)
    _write(args.out, report)
    runs = {"gpu": ("gpu", args.gpu), "cpu": ("cpu", "cpu"), "cpu_on_gpu_store": ("gpu", "cpu")}
    for name, (store, device) in runs.items():
        memory = args.work / f"memory-{name}.sqlite"
        shutil.copyfile(args.memory, memory)
        out = args.work / f"bench-{name}"
        command = ari("bench", "run", "multitq", "--data-dir", str(args.data_dir), "--split", "dev", "--sample", str(args.sample),
                      "--seed", str(args.seed), "--db", str(stores[store]), "--memory", str(memory), "--device", device,
                      "--out", str(out), "--restart", "--quiet")
        report["steps"][f"bench_{name}"] = timed_step(f"bench_{name}", command, args.work, args.timeout, env)
        if (out / "results.jsonl").exists():
            report["steps"][f"bench_{name}"]["hits_at_1"] = hits_at_1(answers(out))
        _write(args.out, report)
    results = {name: answers(args.work / f"bench-{name}") for name in runs if (args.work / f"bench-{name}" / "results.jsonl").exists()}
    for first, second in (("gpu", "cpu"), ("gpu", "cpu_on_gpu_store"), ("cpu_on_gpu_store", "cpu")):
        if first in results and second in results:
            report[f"{first}_vs_{second}"] = compared(results[first], results[second])
    _write(args.out, report)
    print((args.out / "gpu_parity.md").read_text())


def _write(out: Path, report: dict) -> None:
    steps = [[name, s.get("wall_s"), s.get("cpu_s"), s.get("peak_rss_mb"), s.get("hits_at_1", ""), s.get("error") or ""]
             for name, s in report["steps"].items()]
    lines = table(["step", "wall s", "CPU s", "peak RSS MB", "Hits@1", "error"], steps)
    vectors = [[name, v["rows"], v["min"], v["mean"], v["below_0_999"], v["below_0_99"]]
               for name in ("stored_names", "stored_relations", "float32_names") if (v := report.get(name))]
    if vectors:
        lines += ["", *table(["vectors, GPU against CPU", "rows", "min cosine", "mean cosine", "< 0.999", "< 0.99"], vectors)]
    pairs = [[key.replace("_vs_", " against "), c["questions"], c["top_answer_differs"], c["answer_sets_differ"]]
             for key, c in report.items() if key.endswith(("_vs_cpu", "_vs_cpu_on_gpu_store")) and isinstance(c, dict)]
    if pairs:
        lines += ["", *table(["runs", "questions", "top answer differs", "answer set differs"], pairs)]
    text = f"# GPU path against CPU path\n\n`{report['command']}`, {report['cpus']} CPUs.\n\n" + "\n".join(lines) + "\n"
    write_results(out, "gpu_parity", report, text)


if __name__ == "__main__":
    main()
