"""Linking benchmark on MultiTQ dev: how often the analysis leaves a path to a gold answer open.

Reachability is the share of questions for which some action program of at most 5 steps over the
linked candidates (top entity candidates of each mention x the ranked relation shortlist) reaches a
gold answer: the ceiling of the whole agent. The relation lexicon is learned on one half of dev (a
fixed split by quid) and everything is measured on the other half, so the figures are out-of-sample.
The lexicon learned on the whole of dev is saved as the package's default for MultiTQ stores.

The alias section (issue 13) measures the names people use instead of the KG's: surnames, acronyms,
"the french police", "iran's foreign ministry", lower case (benchmarks/alias_mentions.py says how
they are made from the KG's own names): recall of the gold entity among the linked candidates.
`--aliases-only` runs just that section and keeps the rest of the saved results.

    python benchmarks/linking_bench.py [--store PATH] [--questions PATH] [--limit N] [--aliases-only]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

from actions.program_search import SHAPES_BY_PATTERN, ProgramSearch
from agents.analysis.analyzer import QuestionAnalyzer
from agents.analysis.relations import bundled_lexicon_path
from agents.lexicon_learning import learn_relation_lexicon
from ari.base.embedding import get_embedder
from benchmarks.alias_mentions import alias_mentions, alias_recall
from benchmarks.results_io import table, write_results
from tkg_store.store import TKGStore

RESULTS = Path(__file__).parent / "results"


def held_out(quid: object) -> bool:
    """The fixed split: half of dev (by a hash of the quid) is held out from lexicon learning."""
    return hashlib.sha1(str(quid).encode()).digest()[0] % 2 == 1


def measure(store, analyzer, questions, batch_size=512) -> dict:
    search = ProgramSearch(store)
    totals: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    analysis_seconds = 0.0
    for offset in range(0, len(questions), batch_size):
        chunk = questions[offset : offset + batch_size]
        started = time.perf_counter()
        analyses = analyzer.analyze_batch([q["question"] for q in chunk])
        analysis_seconds += time.perf_counter() - started
        for record, analysis in zip(chunk, analyses):
            row = _score(search, record, analysis)
            for group in ("all", record["qtype"], f"{record['qtype']}/{record['answer_type']}"):
                totals[group]["n"] += 1
                for key, value in row.items():
                    totals[group][key] += value
    report = {
        group: {k: (v / t["n"] if k != "n" else int(v)) for k, v in sorted(t.items())}
        for group, t in sorted(totals.items())
    }
    report["all"]["analysis_ms_per_question_batched"] = 1000 * analysis_seconds / max(len(questions), 1)
    return report


def _score(search: ProgramSearch, record: dict, analysis) -> dict[str, float]:
    mentions = [[name for name, _ in m.candidates] for m in analysis.entities]
    relations = [r for r, _ in analysis.relations]
    times = [t.time for t in analysis.times]
    hits = search.reaching(mentions, times, list(record["answers"]), record["answer_type"], relations)
    wanted = SHAPES_BY_PATTERN.get((record["qtype"], record["answer_type"]), frozenset())
    typed = [h for h in hits if h.shape in wanted]
    top_entity = [h for h in hits if all(rank == 0 for _, rank in h.entities)]
    top_relation = [h for h in hits if relations and h.relation == relations[0]]
    top_both = [h for h in top_entity if relations and h.relation == relations[0]]
    return {
        "reachable": float(bool(hits)),
        "reachable_pattern_shape": float(bool(typed)),
        "top1_entity_on_program": float(bool(top_entity)),
        "top1_relation_on_program": float(bool(top_relation)),
        "top1_entity_and_relation": float(bool(top_both)),
        "no_entity_found": float(not analysis.entities),
        "answer_type_correct": float(analysis.answer_type == record["answer_type"]),
        "pattern_correct": float(analysis.pattern == record["qtype"]),
        "time_level_correct": float(analysis.time_level is not None and analysis.time_level.value == record["time_level"]),
    }


def single_latency(analyzer, questions, n=300) -> float:
    sample = questions[:n]
    started = time.perf_counter()
    for q in sample:
        analyzer.analyze(q["question"])
    return 1000 * (time.perf_counter() - started) / max(len(sample), 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", default="/work/dev/multitq.duckdb")
    parser.add_argument("--questions", default="../shared/data/multitq/questions/dev.json")
    parser.add_argument("--limit", type=int, default=0, help="use N questions spread over the file (quick runs)")
    parser.add_argument("--no-save-lexicon", action="store_true", help="do not rewrite the bundled lexicon")
    parser.add_argument("--aliases-only", action="store_true", help="measure only the alias section")
    args = parser.parse_args(argv)
    if args.aliases_only:
        return _aliases_only(args.store)

    questions = json.loads(Path(args.questions).read_text(encoding="utf-8"))
    if args.limit:
        questions = questions[:: max(1, len(questions) // args.limit)][: args.limit]
    learn_half = [q for q in questions if not held_out(q["quid"])]
    test_half = [q for q in questions if held_out(q["quid"])]
    store = TKGStore.open(args.store)
    embedder = get_embedder()
    started = time.perf_counter()
    plain = QuestionAnalyzer(store, embedder, use_default_lexicon=False)
    setup_s = time.perf_counter() - started

    started = time.perf_counter()
    lexicon = learn_relation_lexicon(store, learn_half, plain)
    learn_s = time.perf_counter() - started
    print(f"lexicon learned on {len(learn_half)} questions in {learn_s:.1f}s", file=sys.stderr)

    analyzer = QuestionAnalyzer(store, embedder, lexicon=lexicon)  # the default: lexicon + verb-phrase similarity
    held = measure(store, QuestionAnalyzer(store, embedder, lexicon=lexicon, relation_embeddings=False), test_half)
    no_lexicon = measure(store, plain, test_half)
    with_vectors = measure(store, analyzer, test_half)
    latency_single = single_latency(analyzer, test_half)
    aliases = measure_aliases(store, embedder)

    if not args.no_save_lexicon and not args.limit:
        full = learn_relation_lexicon(store, questions, plain)
        full.meta["split"] = "all of MultiTQ dev.json"
        path = bundled_lexicon_path("multitq")
        path.parent.mkdir(parents=True, exist_ok=True)
        full.save(path)
        print(f"saved {path}", file=sys.stderr)

    result = {
        "config": {
            "store": args.store,
            "questions": args.questions,
            "limit": args.limit,
            "split": "sha1(quid)[0] % 2: even bytes learn the lexicon, odd bytes are measured",
            "learn_questions": len(learn_half),
            "measured_questions": len(test_half),
            "entity_candidates_per_mention": 5,
            "relation_shortlist": analyzer.max_relations,
            "embedder": embedder.name,
        },
        "setup_s": setup_s,
        "lexicon_learn_s": learn_s,
        "held_out": held,
        "held_out_without_lexicon": no_lexicon,
        "held_out_lexicon_with_relation_embeddings": with_vectors,
        "analysis_ms_per_question_single": latency_single,
        "aliases": aliases,
    }
    RESULTS.mkdir(parents=True, exist_ok=True)
    write_results(RESULTS, "linking_bench", result, _markdown(result))
    print(_markdown(result))
    return 0


def measure_aliases(store, embedder) -> dict:
    """The alias section: recall per alias kind, and its cost per question."""
    analyzer = QuestionAnalyzer(store, embedder, use_default_lexicon=False)
    mentions = alias_mentions(store)
    analyzer.entity_linker.fuzzy = False
    without_fuzzy = alias_recall(analyzer, mentions)
    analyzer.entity_linker.fuzzy = True
    started = time.perf_counter()
    section = alias_recall(analyzer, mentions)
    section["analysis_ms_per_question_batched"] = 1000 * (time.perf_counter() - started) / max(len(mentions), 1)
    section["without_fuzzy"] = without_fuzzy["table"]
    return section


def _aliases_only(store_path: str) -> int:
    saved = RESULTS / "linking_bench.json"
    result = json.loads(saved.read_text(encoding="utf-8")) if saved.exists() else {"config": {}}
    store = TKGStore.open(store_path)
    result["aliases"] = measure_aliases(store, get_embedder())
    result["aliases"]["store"] = store_path
    RESULTS.mkdir(parents=True, exist_ok=True)
    write_results(RESULTS, "linking_bench", result, _markdown(result))
    print(_alias_markdown(result["aliases"]))
    return 0


def _alias_markdown(section: dict) -> str:
    lines = [
        "## Aliases: the names people use (issue 13)",
        "",
        "Mentions made from the KG's own names (benchmarks/alias_mentions.py, seed 0) in neutral carrier",
        "questions; recall: the gold entity is among the linked candidates; top1: it is a mention's best candidate.",
        f"{section['analysis_ms_per_question_batched']:.2f} ms/question batched (shared machine).",
        "",
        "Without fuzzy: the same linker with rapidfuzz matching of left-over names switched off.",
        "",
    ]
    plain = section.get("without_fuzzy", {})
    rows = (
        [group, row["n"], f"{row['recall']:.3f}", f"{row['top1']:.3f}",
         *(f"{plain[group][k]:.3f}" if k in plain.get(group, {}) else "-" for k in ("recall", "top1"))]
        for group, row in section["table"].items()
    )
    lines += table(["alias kind", "n", "recall", "top1", "recall without fuzzy", "top1 without fuzzy"], rows)
    return "\n".join(lines) + "\n"


def _markdown(result: dict) -> str:
    if "held_out" not in result:
        return _alias_markdown(result["aliases"]) if "aliases" in result else ""
    cols = [
        "n", "reachable", "reachable_pattern_shape", "top1_entity_on_program", "top1_relation_on_program",
        "top1_entity_and_relation", "no_entity_found", "answer_type_correct", "pattern_correct", "time_level_correct",
    ]  # fmt: skip
    lines = [
        "# Linking benchmark (MultiTQ dev, held-out half)",
        "",
        f"Lexicon learned on {result['config']['learn_questions']} questions, measured on "
        f"{result['config']['measured_questions']} others. Candidates: top "
        f"{result['config']['entity_candidates_per_mention']} entities per mention, top "
        f"{result['config']['relation_shortlist']} relations. Analysis latency: "
        f"{result['held_out']['all']['analysis_ms_per_question_batched']:.2f} ms/question batched, "
        f"{result['analysis_ms_per_question_single']:.2f} ms single.",
        "",
        "reachable: some program of at most 5 steps (MultiTQ shapes, any pattern) over the candidates yields a gold",
        "answer (first/last ties count if any tied item is gold); reachable_pattern_shape: a program of the question's",
        "own qtype does; top1_*: such a program uses only top-1 entities / the top-1 relation. Type columns compare",
        "with the dataset's answer_type, qtype and time_level labels.",
        "",
    ]
    variants = (
        ("", result["held_out"]),
        ("no lexicon: ", result["held_out_without_lexicon"]),
        ("lexicon + relation embeddings: ", result["held_out_lexicon_with_relation_embeddings"]),
    )
    rows = (
        [f"{name}{group}", row["n"], *(f"{row.get(c, 0):.3f}" for c in cols[1:])]
        for name, groups in variants for group, row in groups.items() if not name or group == "all"
    )
    lines += table(["group", *cols], rows)
    text = "\n".join(lines) + "\n"
    return text + "\n" + _alias_markdown(result["aliases"]) if "aliases" in result else text


if __name__ == "__main__":
    sys.exit(main())
