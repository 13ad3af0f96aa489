"""How `RelationLinker.unsure`'s thresholds were chosen (issue 24): on learning material only.

Two sets: the dev half of the unseen-verbs set (benchmarks/data/multitq_unseen_verbs.json, each
record naming the relation it asks about) and MultiTQ dev shard 0/2 (the learning split, read the
way `ari bench run --sample 4000 --shard 0/2 --seed 0` selects it). For each (margin, floor) it
counts, on the verb set, the questions flagged "not sure" whose first relation was right (a right
answer given up) and wrong (a wrong answer avoided), and on shard 0/2 how many are flagged at all.
The criterion, as for `agents.analysis.accounting`: a wrong answer avoided costs at most one right one, and
the learning split loses at most a question or two in a thousand.

    ARI_RELATION_LEXICON=lexicon_shard0.json python -m benchmarks.unsure_thresholds --db multitq.duckdb \
        --dev $ARI_DATA_DIR/multitq/questions/dev.json [--out benchmarks/results/unseen_verbs]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import ari.base.calibration as calibration
from agents.analysis.analyzer import QuestionAnalyzer
from ari.base.embedding import get_embedder
from benchmarks.loaders.multitq import MultiTQLoader
from benchmarks.results_io import write_json
from benchmarks.selection import stratified_sample, take_shard
from tkg_store.store import TKGStore

VERBS = Path(__file__).parent / "data" / "multitq_unseen_verbs.json"
OUT = Path(__file__).parent / "results" / "unseen_verbs"
MIRRORS = {"Make_a_visit": "Host_a_visit", "Host_a_visit": "Make_a_visit"}  # one event, two directions
GRID = [(0.0, 0.2), (0.0, 0.25), (0.0, 0.3), (0.02, 0.25), (0.05, 0.25), (0.1, 0.25)]


def flags(analyzer: QuestionAnalyzer, questions: list[str], margin: float, floor: float) -> list[tuple[str | None, bool]]:
    """(first relation, flagged unsure) per question under these thresholds."""
    calibration.UNSURE_MARGIN, calibration.UNSURE_FLOOR = margin, floor
    found = []
    for start in range(0, len(questions), 256):
        for analysis in analyzer.analyze_batch(questions[start : start + 256]):
            found.append((analysis.relations[0][0] if analysis.relations else None, analysis.unsure_relation is not None))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True)
    parser.add_argument("--dev", required=True, help="MultiTQ dev.json")
    parser.add_argument("--out", default=str(OUT))
    args = parser.parse_args()
    verbs = [r for r in json.loads(VERBS.read_text(encoding="utf-8")) if r["part"] == "dev"]
    learning = take_shard(stratified_sample(MultiTQLoader().load(Path(args.dev)).questions, 4000, 0), (0, 2))
    analyzer = QuestionAnalyzer(TKGStore.open(args.db), get_embedder())
    chosen = (calibration.UNSURE_MARGIN, calibration.UNSURE_FLOOR)
    rows = []
    for margin, floor in GRID:
        read = flags(analyzer, [r["question"] for r in verbs], margin, floor)
        right = [first in (r["relation"], MIRRORS.get(r["relation"])) for r, (first, _) in zip(verbs, read)]
        row = {"margin": margin, "floor": floor, "verbs": len(verbs), "right": sum(right),
               "flagged_right": sum(1 for ok, (_, f) in zip(right, read) if f and ok),
               "flagged_wrong": sum(1 for ok, (_, f) in zip(right, read) if f and not ok)}
        if (margin, floor) == chosen:
            row["learning_flagged"] = sum(f for _, f in flags(analyzer, [q.text for q in learning], margin, floor))
            row["learning"] = len(learning)
        rows.append(row)
        print(row, flush=True)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    write_json(out / "thresholds.json", {"chosen": {"margin": chosen[0], "floor": chosen[1]}, "rows": rows})
    table = ["| margin | floor | verb set: flagged right / right | flagged wrong / wrong | shard 0/2 flagged |", "| --- | --- | --- | --- | --- |"]
    for row in rows:
        learned = f"{row['learning_flagged']} / {row['learning']}" if "learning" in row else ""
        table.append(f"| {row['margin']} | {row['floor']} | {row['flagged_right']} / {row['right']} | "
                     f"{row['flagged_wrong']} / {row['verbs'] - row['right']} | {learned} |")
    (out / "thresholds.md").write_text("\n".join(table) + "\n", encoding="utf-8")
    print("\n".join(table))


if __name__ == "__main__":
    main()
