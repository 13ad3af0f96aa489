"""Which signals of an unsure reading tell wrong answers from right ones (`agents.analysis.accounting`)?

Reads runs made WITHOUT the accounting check (their results.jsonl[.gz]: each question's outcome),
analyses each question again with the current code, and counts, for every candidate signal and
threshold, the right, wrong and abstained outcomes it flags. A signal is worth abstaining on when it
flags at least as many wrong answers as right ones (a wrong answer avoided costs at most one right
answer). Run it on the learning material only: MultiTQ dev shard 0/2, the dev parts of the rewrite
sets, the shape set's dev half.

    python -m benchmarks.accounting_signals --db X.duckdb --runs RUN_DIR [RUN_DIR ...] --out DIR
"""

from __future__ import annotations

import argparse
import gzip
import json
from collections import Counter
from collections.abc import Callable
from functools import partial
from pathlib import Path

from agents.analysis.analyzer import QuestionAnalyzer
from agents.analysis.types import QuestionAnalysis
from agents.judge import own_answers
from ari.base.embedding import get_embedder
from benchmarks.results_io import table as results_table
from benchmarks.results_io import write_results
from tkg_store.store import TKGStore

Signal = Callable[[QuestionAnalysis], bool]
Row = tuple[str, str, list[str]]  # question, outcome, answers


def outcomes(run: Path) -> list[Row]:
    """(question, right | wrong | abstained, answers) of each record of a run directory."""
    path = next(p for p in (run / "results.jsonl", run / "results.jsonl.gz") if p.exists())
    lines = (gzip.open(path, "rt", encoding="utf-8") if path.suffix == ".gz" else path.open(encoding="utf-8")).read().splitlines()
    records = [json.loads(line) for line in lines if line.strip()]
    return [(r["question"], "abstained" if r["abstained"] or not r["answers"] else "right" if r["hit1"] else "wrong", r["answers"]) for r in records]


def _entity_margin(analysis: QuestionAnalysis) -> float:
    scores = [[s for _, s in m.candidates[:2]] + [0.0] for m in analysis.entities if m.candidates]
    return min((pair[0] - pair[1] for pair in scores), default=1.0)


def _relation_ratio(analysis: QuestionAnalysis) -> float:
    scores = [s for _, s in analysis.relations[:2]] + [0.0]
    return scores[1] / scores[0] if scores[0] > 0 else 1.0


def _entity_below(analysis: QuestionAnalysis, floor: float) -> bool:
    return min((m.candidates[0][1] for m in analysis.entities if m.candidates), default=1.0) < floor


def _margin_below(analysis: QuestionAnalysis, margin: float) -> bool:
    return _entity_margin(analysis) < margin


def _relation_below(analysis: QuestionAnalysis, floor: float) -> bool:
    return bool(analysis.relations) and analysis.relations[0][1] < floor


def _ratio_above(analysis: QuestionAnalysis, ratio: float) -> bool:
    return _relation_ratio(analysis) > ratio


def signals() -> dict[str, Signal]:
    chosen: dict[str, Signal] = {
        "unaccounted words (chosen)": lambda a: a.unaccounted is not None,
    }
    for floor in (0.6, 0.7, 0.8, 0.9):
        chosen[f"best entity score < {floor}"] = partial(_entity_below, floor=floor)
    for margin in (0.05, 0.1, 0.2):
        chosen[f"entity margin < {margin}"] = partial(_margin_below, margin=margin)
    for floor in (0.3, 0.4, 0.5):
        chosen[f"best relation score < {floor}"] = partial(_relation_below, floor=floor)
    for ratio in (0.5, 0.7, 0.9):
        chosen[f"second relation / best > {ratio}"] = partial(_ratio_above, ratio=ratio)
    return chosen


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True)
    parser.add_argument("--runs", nargs="+", required=True, type=Path, help="run directories made without the check")
    parser.add_argument("--out", required=True, type=Path)
    args = parser.parse_args(argv)
    rows = [row for run in args.runs for row in outcomes(run)]
    with TKGStore.open(args.db, read_only=True) as store:
        analyzer = QuestionAnalyzer(store, get_embedder())
        analyses = analyzer.analyze_batch([q for q, _, _ in rows])
        table = {"all": dict(Counter(o for _, o, _ in rows))}
        for name, flags in signals().items():
            table[name] = dict(Counter(o for (_, o, _), a in zip(rows, analyses, strict=True) if flags(a)))
        # after solving: the answers are only the question's own entities (`agents.judge.own_answers`)
        own = Counter(o for (_, o, answers), a in zip(rows, analyses, strict=True) if a.answer_type == "entity" and own_answers(answers, a.entities, store))
        table["answer only the question's own entity (chosen)"] = dict(own)
    lines = []
    for name, counts in table.items():
        right, wrong = counts.get("right", 0), counts.get("wrong", 0)
        per = "-" if name == "all" else f"{wrong / right:.2f}" if right else ("inf" if wrong else "-")
        lines.append((name, right, wrong, counts.get("abstained", 0), per))
    markdown = "\n".join(results_table(("signal", "right", "wrong", "abstained", "wrong avoided per right lost"), lines)) + "\n"
    args.out.mkdir(parents=True, exist_ok=True)
    write_results(args.out, "signals", {"runs": [str(r) for r in args.runs], "table": table}, markdown)
    print(markdown, end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
