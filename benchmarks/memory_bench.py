"""The memory on MultiTQ: clustering quality against K, learning end to end, and the speed of its parts.

1. Clusters vs K (no agent, no LLM): masked questions of a stratified learn sample (and their
   shapes, what the memory actually clusters) are clustered with K-means for each K; *purity* is the share of learn questions whose cluster's majority type
   is their own gold type, and *held-out type match* the share of a disjoint eval sample whose
   nearest cluster's majority type is their gold type. Methodologies are per cluster, so this is
   how often a question would be handed the methodology of its own kind of reasoning.
2. Learning end to end: `learn_from_dataset` with the agent (offline decider) and, with --search,
   its program search, on `--learn` questions; reports the agent's accuracy, what the search found,
   and the clusters and methodologies learnt (the memory file is kept at --memory-out).
3. Speed: `match()` with precomputed embeddings and from text, `learn()` time, and concurrent
   SQLite writers (traces/s).

The accuracy of the agent *with* the learnt memory, per K and per ablation, is measured by
`benchmarks/ablations.py` (it re-learns copies of a memory with K clusters).

Run: python -m benchmarks.memory_bench --db DB --data-dir ../shared/data/multitq [--learn 200 --search]
"""

from __future__ import annotations

import argparse
import multiprocessing
import tempfile
import time
from collections import Counter
from pathlib import Path

import numpy as np

from benchmarks.loaders import get_loader
from benchmarks.results_io import table, write_results
from benchmarks.selection import stratified_sample
from memory import HistoryStore, Memory
from memory.clustering import FEATURES, RAW, clustering_text, embed_unique, fit_kmeans, nearest_centroid
from memory.trace import StepRecord, Trace

RESULTS = Path(__file__).parent / "results"


def cluster_quality(learn_masked: list[str], learn_types: list[str], eval_masked: list[str], eval_types: list[str],
                    embedder, ks: list[int]) -> list[dict]:  # noqa: ANN001
    """Purity and held-out type match of K-means for each K, over the masked questions themselves
    (RAW) and over their shapes (FEATURES, what `Memory.learn` clusters)."""
    rows = []
    for features in (RAW, FEATURES):
        learn_vectors = embed_unique([clustering_text(q, features) for q in learn_masked], embedder)
        eval_vectors = embed_unique([clustering_text(q, features) for q in eval_masked], embedder)
        for k in ks:
            started = time.perf_counter()
            labels, centroids = fit_kmeans(learn_vectors, k)
            fit_s = time.perf_counter() - started
            majority = {}
            for c in set(labels.tolist()):
                majority[c] = Counter(t for t, label in zip(learn_types, labels) if label == c).most_common(1)[0][0]
            purity = float(np.mean([majority[c] == t for c, t in zip(labels.tolist(), learn_types)]))
            assigned = nearest_centroid(eval_vectors, centroids)
            match = float(np.mean([majority[int(c)] == t for c, t in zip(assigned, eval_types)]))
            rows.append({"features": features, "k": int(len(centroids)), "purity": round(purity, 4),
                         "heldout_type_match": round(match, 4), "fit_s": round(fit_s, 3)})
            print(f"{features:9s} K={len(centroids):3d}  purity {purity:.1%}  held-out type match {match:.1%}  ({fit_s:.2f} s)")
    return rows


def learn_end_to_end(db: str, questions, memory_out: Path, search: bool, k: int) -> dict:  # noqa: ANN001
    from agents.learning import LearnSettings, learn
    from ari.base.config import AgentConfig

    if memory_out.exists():
        memory_out.unlink()
    report = learn(db, str(memory_out), questions, settings=LearnSettings(search=search), config=AgentConfig(),
                   dataset="multitq", split="dev", workers=1, n_clusters=k, quiet=True)
    with Memory.open(memory_out) as memory:
        methodologies = memory.methodologies()
        examples = {c: m.text for c, m in sorted(methodologies.items())[:3]}
        programs_found = sum(1 for c, m in methodologies.items() if c >= 0 and m.programs)
    data = report.to_dict()
    data.update({"memory": str(memory_out), "clusters_with_a_program": programs_found, "example_methodologies": examples})
    print(f"learnt from {report.questions} questions in {report.elapsed_s:.0f} s: agent accuracy "
          f"{(report.accuracy or 0):.1%}, search traces {report.searched} ({report.searched_correct} correct), "
          f"{programs_found} of {report.learnt.k if report.learnt else 0} clusters have a successful program")
    return data


def match_speed(embedder, masked: list[str], k: int) -> dict:  # noqa: ANN001
    """match() per second with precomputed embeddings and from text, on a memory of `masked`."""
    with tempfile.TemporaryDirectory() as tmp:
        memory = Memory.open(Path(tmp) / "m.sqlite", embedder=embedder)
        traces = [Trace(q, q, [StepRecord(1, [], "answer(#1)", "answer(#1)", 1)], outcome="correct") for q in masked]
        memory.history.add_traces(traces)
        started = time.perf_counter()
        memory.learn(n_clusters=k)
        learn_s = time.perf_counter() - started
        vectors = embed_unique([memory.key(q) for q in masked], embedder)
        memory.match(masked[0], embedding=vectors[0])
        started = time.perf_counter()
        for i in range(5000):
            memory.match("", embedding=vectors[i % len(vectors)])
        precomputed = 5000 / (time.perf_counter() - started)
        sample = masked[:200]
        started = time.perf_counter()
        for text in sample:  # one question at a time, shapes not seen before embedded one by one
            memory.match(text)
        from_text = len(sample) / (time.perf_counter() - started)
        batch = masked[200:1200]
        started = time.perf_counter()
        memory.match_many(batch)  # one embedding call for the batch's unseen shapes
        from_text_batch = len(batch) / (time.perf_counter() - started)
        memory.close()
    print(f"match: {precomputed:,.0f}/s with embeddings, {from_text:,.0f}/s from text one by one, "
          f"{from_text_batch:,.0f}/s from text in a batch of {len(batch)}; learn({k}) on {len(masked)} traces {learn_s:.1f} s")
    return {"match_per_s_precomputed": round(precomputed), "match_per_s_from_text": round(from_text),
            "match_many_per_s_from_text": round(from_text_batch), "batch": len(batch),
            "learn_s": round(learn_s, 2), "learn_traces": len(masked), "k": k}


def _writer(path: str, n: int) -> None:
    with HistoryStore.open(path) as store:
        for i in range(n):
            store.add_trace(Trace(f"q{i}", "m", [StepRecord(1, [], "answer(#1)", "answer(#1)", 1)], outcome="wrong"))


def write_speed(processes: int = 4, each: int = 250) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "w.sqlite")
        HistoryStore.open(path).close()
        ctx = multiprocessing.get_context("spawn")
        workers = [ctx.Process(target=_writer, args=(path, each)) for _ in range(processes)]
        started = time.perf_counter()
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        elapsed = time.perf_counter() - started
        with HistoryStore.open(path) as store:
            count = store.count()
    print(f"{processes} processes wrote {count} traces (expected {processes * each}) in {elapsed:.1f} s (incl. start-up)")
    return {"processes": processes, "traces": count, "expected": processes * each, "seconds": round(elapsed, 2),
            "traces_per_s": round(count / elapsed, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True, help="MultiTQ store (DuckDB)")
    parser.add_argument("--data-dir", required=True, help="MultiTQ dataset directory")
    parser.add_argument("--split", default="dev")
    parser.add_argument("--cluster-sample", type=int, default=2000, help="learn questions for the K sweep")
    parser.add_argument("--eval-sample", type=int, default=1000, help="held-out questions for the K sweep")
    parser.add_argument("--ks", default="1,2,5,10,20,50,100")
    parser.add_argument("--learn", type=int, default=0, help="questions to learn from end to end (0: skip)")
    parser.add_argument("--search", action="store_true", help="also run program search while learning")
    parser.add_argument("--memory-out", default=str(Path(tempfile.gettempdir()) / "ari_multitq_memory.sqlite"))
    parser.add_argument("--out", default=str(RESULTS))
    args = parser.parse_args()

    from ari.api import build_agent

    loader = get_loader("multitq")
    questions = loader.load(loader.split_path(Path(args.data_dir), args.split)).questions
    learn_set = stratified_sample(questions, args.cluster_sample, seed=0)
    chosen = {q.qid for q in learn_set}
    eval_set = stratified_sample([q for q in questions if q.qid not in chosen], args.eval_sample, seed=1)

    agent, store, _ = build_agent(db=args.db, memory=None)
    started = time.perf_counter()
    learn_analysis = agent.analyzer.analyze_batch([q.text for q in learn_set])
    eval_analysis = agent.analyzer.analyze_batch([q.text for q in eval_set])
    analysis_s = time.perf_counter() - started
    ks = [int(k) for k in args.ks.split(",")]
    results = {
        "config": vars(args),
        "samples": {"cluster_learn": len(learn_set), "cluster_eval": len(eval_set), "analysis_s": round(analysis_s, 1)},
        "clusters_vs_k": cluster_quality([a.masked for a in learn_analysis], [q.qtype for q in learn_set],
                                         [a.masked for a in eval_analysis], [q.qtype for q in eval_set], agent.embedder, ks),
        "speed": match_speed(agent.embedder, [a.masked for a in learn_analysis], 10),
        "concurrent_writes": write_speed(),
    }
    if args.learn:
        results["learn"] = learn_end_to_end(args.db, learn_set[: args.learn], Path(args.memory_out), args.search, 10)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    write_results(out, "memory_bench", results, markdown(results), ensure_ascii=False)
    print(f"wrote {out / 'memory_bench.json'} and {out / 'memory_bench.md'}")


def markdown(results: dict) -> str:
    s = results["samples"]
    lines = [
        "# Memory benchmark (MultiTQ dev)",
        "",
        f"K-means over masked questions of {s['cluster_learn']} stratified dev questions; held-out type match on "
        f"{s['cluster_eval']} other dev questions (share whose nearest cluster's majority type is their own).",
        "",
        f"`{RAW}`: the masked question is embedded; `{FEATURES}`: its shape (cue words and placeholders), what "
        "`Memory.learn` clusters.",
        "",
    ]
    lines += table(["features", "K", "purity", "held-out type match", "fit (s)"],
                   ([r["features"], r["k"], f"{r['purity']:.1%}", f"{r['heldout_type_match']:.1%}", r["fit_s"]] for r in results["clusters_vs_k"]),
                   ["---", "---:", "---:", "---:", "---:"])
    sp, w = results["speed"], results["concurrent_writes"]
    lines += [
        "",
        f"- match(): {sp['match_per_s_precomputed']:,}/s with a precomputed embedding; from text {sp['match_per_s_from_text']:,}/s "
        f"one question at a time (cold), {sp['match_many_per_s_from_text']:,}/s with match_many over {sp['batch']} questions",
        f"- learn(K={sp['k']}) on {sp['learn_traces']} traces: {sp['learn_s']} s (embedding, K-means, PCA, induction, storage)",
        f"- {w['processes']} processes x {w['expected'] // w['processes']} traces into one SQLite file: {w['traces']} stored of "
        f"{w['expected']}, {w['traces_per_s']} traces/s including interpreter start-up",
    ]
    if "learn" in results:
        le = results["learn"]
        acc = "-" if le["accuracy"] is None else f"{le['accuracy']:.1%}"
        lines += [
            f"- learning end to end on {le['questions']} dev questions (offline decider"
            f"{', program search' if results['config']['search'] else ''}): agent accuracy {acc}, "
            f"search traces {le['searched']} ({le['searched_correct']} correct), "
            f"{le['clusters_with_a_program']} clusters with a successful program, {le['elapsed_s']:.0f} s",
        ]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
