"""The entity linker's reading of the same questions on the GPU path and the CPU path (device check, s16).

gpu_parity compares answers; this compares the mentions each path links, so a whole-phrase reading
(`EntityLinker._whole_phrases`: a phrase read as its nearest name by embedding, cosine >= 0.80, margin
0.05) that the stored float32 (CUDA ingest) and int8 (CPU ingest) name vectors read differently shows
even where the answer stays the same. Run after gpu_parity, on its two stores:

    python3 link_compare.py --work /tmp/parity --questions dev.json --gpu cuda --extra 3000 --out OUT

Questions: those of gpu_parity's sample (WORK/bench-gpu/results.jsonl), then `--extra` more of the
dev file in its order. Each path links them in one batch, as the agent's analyzer does (default
linking config; the generated memory learns no names, read from it all the same).
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import time
from pathlib import Path

from agents.analysis.analyzer import QuestionAnalyzer
from agents.analysis.types import EntityMention
from ari.base.embedding import get_embedder
from tkg_store.store import TKGStore

WHOLE = "the whole phrase's nearest name"


def memory_names(memory: Path) -> dict[str, str]:
    """The names a memory learnt from labelled questions (none for a generated one)."""
    row = sqlite3.connect(memory).execute("select value from memory_meta where key = 'names'").fetchone()
    return dict(json.loads(row[0])) if row else {}


def reading(mentions: list[EntityMention]) -> list[dict]:
    """What the agent reads of a question's mentions: the span, its first candidates and how it was read."""
    return [{"text": m.text, "span": list(m.span), "top": [c[0] for c in m.candidates[:3]], "why": m.why} for m in mentions]


def link(db: Path, device: str, questions: list[str], names: dict[str, str]) -> tuple[list[list[dict]], float, float]:
    """Every question's mentions on one store with one device's embedder; seconds to build the linker, to link."""
    store = TKGStore.open(str(db))
    analyzer = QuestionAnalyzer(store, get_embedder(None, device), names=names)
    t0 = time.perf_counter()
    linker = analyzer.entity_linker
    t1 = time.perf_counter()
    linked = [reading(m) for m in linker.link_batch(questions)]
    return linked, round(t1 - t0, 2), round(time.perf_counter() - t1, 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, required=True, help="gpu_parity's work folder")
    parser.add_argument("--questions", type=Path, required=True, help="MultiTQ's questions/dev.json")
    parser.add_argument("--memory", type=Path, required=True)
    parser.add_argument("--gpu", default="cuda")
    parser.add_argument("--extra", type=int, default=0)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    sample = [json.loads(line) for line in (args.work / "bench-gpu" / "results.jsonl").read_text().splitlines() if line.strip()]
    seen = {str(r["qid"]) for r in sample}
    rows = [(str(r["qid"]), r["question"]) for r in sample]
    rows += [(str(q["quid"]), q["question"]) for q in json.loads(args.questions.read_text()) if str(q["quid"]) not in seen][: args.extra]
    questions = [q for _, q in rows]
    names = memory_names(args.memory)
    paths = {"gpu": (args.work / "gpu.duckdb", args.gpu), "cpu": (args.work / "cpu.duckdb", "cpu"),
             "cpu_on_gpu_store": (args.work / "gpu.duckdb", "cpu")}
    linked, seconds = {}, {}
    for name, (db, device) in paths.items():
        linked[name], build_s, link_s = link(db, device, questions, names)
        seconds[name] = {"build_linker_s": build_s, "link_s": link_s}
    report: dict = {"questions": len(rows), "sample": len(sample), "extra": len(rows) - len(sample), "names": len(names), "seconds": seconds}
    for name, found in linked.items():
        report[f"whole_phrase_mentions_{name}"] = sum(m["why"] == WHOLE for ms in found for m in ms)
        report[f"questions_with_whole_phrase_{name}"] = sum(any(m["why"] == WHOLE for m in ms) for ms in found)
    for a, b in (("gpu", "cpu"), ("gpu", "cpu_on_gpu_store"), ("cpu_on_gpu_store", "cpu")):
        differ = [n for n in range(len(rows)) if linked[a][n] != linked[b][n]]
        whole = [n for n in differ if any(m["why"] == WHOLE for m in linked[a][n] + linked[b][n])]
        report[f"{a}_vs_{b}"] = {
            "differ": len(differ), "differ_in_sample": sum(n < len(sample) for n in differ), "differ_with_whole_phrase": len(whole),
            "examples": [{"qid": rows[n][0], "in_sample": n < len(sample), "question": rows[n][1], a: linked[a][n], b: linked[b][n]} for n in differ[:40]],
        }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "link_compare.json").write_text(json.dumps(report, indent=1, ensure_ascii=False))
    print(json.dumps({k: v if not isinstance(v, dict) or "examples" not in v else {x: y for x, y in v.items() if x != "examples"} for k, v in report.items()}, indent=1))


if __name__ == "__main__":
    main()
