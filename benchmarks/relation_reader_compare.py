"""Today's relation reader beside a learned one (issue 24), on relation read first: right, wrong, unsure.

Readers: `today` (the agent's `RelationLinker`: lexicon posterior plus verb-phrase similarity, and its
`unsure`), `learned` (`benchmarks.relation_reader_model`: softmax regression over MiniLM's vector of the
verb phrase), `fallback` (today's reading, the learned one's where today's is unsure), `veto` (today's reading,
unsure where the learned reader is sure of another CAMEO group) and `reranked` (today's first few relations ranked
by today's score times the learned probability, today's unsure kept). Sets (from
`benchmarks.relation_reader_data`'s items): the unseen-verbs set's dev half, the dev parts of the rewrite
sets' verb-changing styles (readers trained on all of the learning split), and the learning split itself by
5-fold cross-validation, folds by question and, for wordings never seen, by verb phrase (today's lexicon is
relearned on each fold's training part). The learned reader's unsure floor is chosen on learning material
only, the learning split's rewrites (`relation_wordings_shard0.json`): the floor keeping most right readings
less wrong ones (a wrong reading avoided may cost one right one). Each set's own curve is saved beside it as
a diagnostic (`floor_rows_by_set`), never used to choose.

    ARI_RELATION_LEXICON=lexicon_shard0.json python -m benchmarks.relation_reader_compare --db multitq.duckdb \
        --dev $ARI_DATA_DIR/multitq/questions/dev.json --items items.json [more.json] [--out DIR] [--weights FILE]
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path

import numpy as np

from agents.analysis.analyzer import QuestionAnalyzer
from agents.analysis.relations import RelationLexicon, predicate_ngrams, verb_phrase
from ari.base.embedding import get_embedder
from benchmarks.loaders.multitq import MultiTQLoader
from benchmarks.relation_reader_model import (
    Example,
    LearnedReader,
    embed,
    fit_reader,
    group_read,
    learned_examples,
    relation_examples,
    synonym_rewrites,
)
from benchmarks.results_io import write_json
from benchmarks.selection import shard_of, stratified_sample, take_shard
from tkg_store.store import TKGStore

OUT = Path(__file__).parent / "results" / "relation_reader"
FOLDS = 5
FLOORS = [0.0, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]
Read = tuple[str | None, bool]  # (first relation, unsure)


def examples_of(items: list[dict], texts_examples: list[Example]) -> list[Example]:
    learned = learned_examples((verb_phrase(i["text"]), i["gold"]) for i in items)
    return learned + texts_examples + synonym_rewrites(learned + texts_examples)


def today_reads(analyzer: QuestionAnalyzer, items: list[dict]) -> list[tuple[list[tuple[str, float]], bool]]:
    """Today's ranked relations (the analysis keeps the first few) and whether it is unsure, per item."""
    reads: list[tuple[list[tuple[str, float]], bool]] = []
    for start in range(0, len(items), 256):
        for analysis in analyzer.analyze_batch([i["question"] for i in items[start : start + 256]]):
            reads.append((list(analysis.relations), analysis.unsure_relation is not None))
    return reads


def first_of(today: list[tuple[list[tuple[str, float]], bool]]) -> list[Read]:
    return [(ranked[0][0] if ranked else None, unsure) for ranked, unsure in today]


def reranked(today: list[tuple[list[tuple[str, float]], bool]], reader: LearnedReader, items: list[dict],
             vectors: dict[str, np.ndarray]) -> list[Read]:
    """Today's first few relations ranked by today's score times the learned probability; today's unsure kept."""
    reads: list[Read] = []
    for (ranked, unsure), item in zip(today, items):
        phrase = verb_phrase(item["text"])
        p = reader.probabilities(vectors[phrase], [r for r, _ in ranked]) if phrase and ranked else {}
        best = max(ranked, key=lambda pair: pair[1] * p.get(pair[0], 1e-6), default=None) if p else (ranked[0] if ranked else None)
        reads.append((best[0] if best else None, unsure))
    return reads


def learned_reads(reader: LearnedReader, items: list[dict], vectors: dict[str, np.ndarray], groups: dict[str, str]) -> list[tuple[str | None, float]]:
    """(first relation, its group's probability) per item; unsure is decided by the floor later."""
    return [group_read(reader, vectors[p], i["candidates"], groups) if (p := verb_phrase(i["text"])) else (None, 0.0) for i in items]


def tally(items: list[dict], reads: list[Read]) -> dict:
    right = sum(1 for i, (first, unsure) in zip(items, reads) if not unsure and first in i["gold"])
    wrong = sum(1 for i, (first, unsure) in zip(items, reads) if not unsure and first not in i["gold"])
    first_right = sum(1 for i, (first, _) in zip(items, reads) if first in i["gold"])
    n = len(items)
    return {"n": n, "right": right, "wrong": wrong, "unsure": n - right - wrong, "first_right": first_right,
            "accuracy": round(right / n, 3) if n else 0.0, "unsure_rate": round((n - right - wrong) / n, 3) if n else 0.0}


def with_floor(learned: list[tuple[str | None, float]], floor: float) -> list[Read]:
    return [(first, first is None or mass < floor) for first, mass in learned]


def fallback(today: list[Read], learned: list[Read]) -> list[Read]:
    return [mine if not mine[1] else theirs for mine, theirs in zip(today, learned)]


def veto(today: list[Read], learned: list[Read], groups: dict[str, str]) -> list[Read]:
    """Today's reading, unsure where the learned reader is sure of another group."""
    def other(mine: Read, theirs: Read) -> bool:
        return not theirs[1] and mine[0] is not None and groups.get(mine[0], mine[0]) != groups.get(str(theirs[0]), theirs[0])
    return [(mine[0], mine[1] or other(mine, theirs)) for mine, theirs in zip(today, learned)]


def choose_floor(items: list[dict], learned: list[tuple[str | None, float]]) -> tuple[float, list[dict]]:
    """The floor keeping most right readings minus wrong ones (a wrong reading avoided is worth one right one)."""
    rows = [{"floor": f, **tally(items, with_floor(learned, f))} for f in FLOORS]
    best = max(rows, key=lambda row: (row["right"] - row["wrong"], -row["wrong"]))
    return float(best["floor"]), rows


def cross_validate(store: TKGStore, embedder: object, learning: list[dict], evaluated: list[dict], fold_of: Callable[[dict], int],
                   texts_examples: list[Example], groups: dict[str, str], vectors: dict[str, np.ndarray], floor: float) -> dict:
    """The readers' tallies on `evaluated`, each item read by readers trained on the other folds' items."""
    reads: dict[str, tuple[Read, Read, Read]] = {}  # quid -> today, learned, reranked
    for fold in range(FOLDS):
        training = [i for i in learning if fold_of(i) != fold]
        held = [i for i in evaluated if fold_of(i) == fold]
        lexicon = RelationLexicon()
        for item in training:
            lexicon.add(predicate_ngrams(item["masked"]), item["gold"])
        lexicon.prune(1.0)
        today = today_reads(QuestionAnalyzer(store, embedder, lexicon=lexicon), held)  # type: ignore[arg-type]
        reader = fit_reader(examples_of(training, texts_examples), embedder, vectors=vectors)  # type: ignore[arg-type]
        found = zip(first_of(today), with_floor(learned_reads(reader, held, vectors, groups), floor), reranked(today, reader, held, vectors))
        reads.update(zip((i["quid"] for i in held), found))
        print(f"fold {fold}: {len(training)} training, {len(held)} held", flush=True)
    today_read, learned, rerank = (list(x) for x in zip(*(reads[i["quid"]] for i in evaluated)))
    return _row(evaluated, today_read, learned, rerank, groups)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True)
    parser.add_argument("--dev", required=True, help="MultiTQ dev.json (to draw the cross-validated sample as `ari bench run` does)")
    parser.add_argument("--items", required=True, nargs="+", help="benchmarks.relation_reader_data's output files")
    parser.add_argument("--out", default=str(OUT))
    parser.add_argument("--weights", default=None, help="where to save the learned reader trained on all of the learning split")
    args = parser.parse_args()
    items = [i for path in args.items for i in json.loads(Path(path).read_text(encoding="utf-8"))]
    learning = [i for i in items if i["set"] == "learning"]
    sample = {q.qid for q in take_shard(stratified_sample(MultiTQLoader().load(Path(args.dev)).questions, 4000, 0), (0, 2))}
    evaluated = [i for i in learning if i["quid"] in sample]
    embedder = get_embedder()
    vectors: dict[str, np.ndarray] = {}
    embed(embedder, (verb_phrase(i["text"]) for i in items), vectors)
    report: dict = {"sets": {}}
    with TKGStore.open(args.db) as store:
        analyzer = QuestionAnalyzer(store, embedder)
        texts = analyzer.relation_linker.texts
        groups = texts.groups
        texts_examples = relation_examples(texts)
        reader = fit_reader(examples_of(learning, texts_examples), embedder, vectors=vectors)
        rewrites = [i for i in items if i["set"] == "learning_rewrites"]
        floor, floor_rows = choose_floor(rewrites, learned_reads(reader, rewrites, vectors, groups))
        report["floor"] = floor
        report["floor_rows"] = floor_rows
        print(f"floor {floor}", flush=True)
        if args.weights:
            reader.save(Path(args.weights))
        for name, fold_of in {"learning_cv_by_question": lambda i: shard_of(i["quid"], FOLDS),
                              "learning_cv_by_phrase": lambda i: shard_of(verb_phrase(i["text"]), FOLDS)}.items():
            report["sets"][name] = cross_validate(store, embedder, learning, evaluated, fold_of, texts_examples, groups, vectors, floor)
        analyzer = QuestionAnalyzer(store, embedder)
        for name in dict.fromkeys(i["set"] for i in items if i["set"] != "learning"):
            mine = [i for i in items if i["set"] == name]
            report.setdefault("floor_rows_by_set", {})[name] = choose_floor(mine, learned_reads(reader, mine, vectors, groups))[1]
            read, today = with_floor(learned_reads(reader, mine, vectors, groups), floor), today_reads(analyzer, mine)
            rerank = reranked(today, reader, mine, vectors)
            report["sets"][name] = _row(mine, first_of(today), read, rerank, groups)
            report.setdefault("readings", {})[name] = [{"quid": i["quid"], "gold": i["gold"], "today": t, "learned": r, "reranked": k}
                                                       for i, t, r, k in zip(mine, first_of(today), read, rerank)]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    write_json(out / "compare.json", report, indent=0)
    table = ["| set | n | reader | right | wrong | unsure | first right |", "| --- | --- | --- | --- | --- | --- | --- |"]
    for name, row in report["sets"].items():
        for reader_name, t in row.items():
            table.append(f"| {name} | {t['n']} | {reader_name} | {t['right']} ({t['accuracy']}) | {t['wrong']} | {t['unsure']} ({t['unsure_rate']}) | {t['first_right']} |")
    (out / "compare.md").write_text("\n".join(table) + "\n", encoding="utf-8")
    print("\n".join(table))


def _row(items: list[dict], today: list[Read], learned: list[Read], rerank: list[Read], groups: dict[str, str]) -> dict:
    return {"today": tally(items, today), "learned": tally(items, learned), "fallback": tally(items, fallback(today, learned)),
            "veto": tally(items, veto(today, learned, groups)), "reranked": tally(items, rerank)}


if __name__ == "__main__":
    main()
