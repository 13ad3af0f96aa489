"""The questions `benchmarks/relation_reader_compare.py` reads, with the relations each asks about (issue 24).

For every question: its masked wording as the analyser ranks relations by it (`text`), the candidate relations
(those connecting its linked entities, `RelationLinker.connected`) and the gold relations: the set's own label
(unseen verbs, with the mirror of a visit), else the relations `credited_relations` credits (for a rewrite, those
of its original question). Sets: MultiTQ dev shard 0/2 (the learning split, every question: training material and
the cross-validation), the learning split's rewrites of `relation_wordings_shard0.json` (learning material: where
the learned reader's unsure floor is chosen), the unseen-verbs set's dev half and the dev parts of the rewrite sets' verb-changing styles.

    ARI_RELATION_LEXICON=lexicon_shard0.json python -m benchmarks.relation_reader_data --db multitq.duckdb \
        --dev $ARI_DATA_DIR/multitq/questions/dev.json --out relation_reader_items.json
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from agents.analysis.analyzer import QuestionAnalyzer
from agents.lexicon_learning import credited_relations
from ari.base.embedding import get_embedder
from benchmarks.results_io import write_json
from benchmarks.selection import shard_of
from tkg_store.store import TKGStore

DATA = Path(__file__).parent / "data"
VERBS = DATA / "multitq_unseen_verbs.json"
MIRRORS = {"Make_a_visit": "Host_a_visit", "Host_a_visit": "Make_a_visit"}  # one event, two directions
WORDINGS = DATA / "relation_wordings_shard0.json"  # rewrites of learning-split questions: learning material
# the rewrite styles that say the act in other words than the original's (dev parts only)
VERB_STYLES = {"multitq_rewrites_nine_styles.json": ("verbs",), "multitq_rewrites_more_styles.json": ("formal", "simple"),
               "multitq_rewrites_invented_styles.json": ("slang",)}


def read(analyzer: QuestionAnalyzer, records: list[dict], gold: list[set[str]], name: str) -> list[dict]:
    """The items of `records` (one analysis each, relations ranked as the agent ranks them)."""
    linker = analyzer.relation_linker
    items = []
    for start in range(0, len(records), 256):
        chunk, golds = records[start : start + 256], gold[start : start + 256]
        for record, relations, analysis in zip(chunk, golds, analyzer.analyze_batch([r["question"] for r in chunk], rank_relations=False)):
            text = f"{analysis.masked} {analysis.grammar_dropped}" if analysis.grammar_dropped else analysis.masked
            mentions = [[n for n, _ in m.candidates] for m in analysis.entities]
            items.append({"set": name, "quid": str(record["quid"]), "question": record["question"], "masked": analysis.masked,
                          "text": text, "candidates": linker.connected(mentions), "gold": sorted(relations)})
    return items


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True)
    parser.add_argument("--dev", required=True, help="MultiTQ dev.json")
    parser.add_argument("--out", required=True)
    parser.add_argument("--sets", nargs="+", default=["learning", "learning_rewrites", "unseen_verbs", "rewrites"])
    args = parser.parse_args()
    items: list[dict] = []
    with TKGStore.open(args.db) as store:
        analyzer = QuestionAnalyzer(store, get_embedder())
        if "learning" in args.sets:
            dev = json.loads(Path(args.dev).read_text(encoding="utf-8"))
            learning = [q for q in dev if shard_of(str(q["quid"]), 2) == 0]
            credited = dict(_credit(store, analyzer, learning))
            kept = [q for q in learning if str(q["quid"]) in credited]
            items += read(analyzer, kept, [credited[str(q["quid"])] for q in kept], "learning")
            print(f"learning split: {len(kept)} of {len(learning)} questions credited", flush=True)
        if "learning_rewrites" in args.sets:
            records = json.loads(WORDINGS.read_text(encoding="utf-8"))
            originals = dict(_credit(store, analyzer, [{**r, "question": r["original"]} for r in records]))
            mine = [r for r in records if str(r["quid"]) in originals]
            items += read(analyzer, mine, [originals[str(r["quid"])] for r in mine], "learning_rewrites")
        if "unseen_verbs" in args.sets:
            verbs = [r for r in json.loads(VERBS.read_text(encoding="utf-8")) if r["part"] == "dev"]
            items += read(analyzer, verbs, [{r["relation"], MIRRORS.get(r["relation"], r["relation"])} for r in verbs], "unseen_verbs")
        for file, styles in VERB_STYLES.items() if "rewrites" in args.sets else ():
            records = [r for r in json.loads((DATA / file).read_text(encoding="utf-8")) if r["part"] == "dev" and r["style"] in styles]
            originals = dict(_credit(store, analyzer, [{**r, "question": r["original"]} for r in records]))
            for style in styles:
                mine = [r for r in records if r["style"] == style and str(r["quid"]) in originals]
                items += read(analyzer, mine, [originals[str(r["quid"])] for r in mine], f"rewrites_{style}")
                print(f"{style}: {len(mine)} rewrites with credited originals", flush=True)
    write_json(Path(args.out), items, indent=0)


def _credit(store: TKGStore, analyzer: QuestionAnalyzer, records: list[dict]) -> list[tuple[str, set[str]]]:
    """(quid, credited relations) for each record whose answer its entities reach."""
    return [(str(record["quid"]), relations) for record, _, relations in credited_relations(store, records, analyzer)]


if __name__ == "__main__":
    main()
