"""What abstaining below a confidence threshold would do on a finished run (issue 12).

For each threshold t: the share of questions still answered (coverage), the error rate among
them (risk), and Hits@1 over all answerable questions, when the agent abstains on every answer
with `confidence < t` (`AgentConfig.abstention.min_confidence`). Abstentions count as answered
wrongly for answerable questions and rightly for unanswerable ones, as in benchmarks.metrics.

    python -m benchmarks.risk_coverage RUN_DIR --out benchmarks/results/NAME
"""

from __future__ import annotations

import argparse
from pathlib import Path

from benchmarks.metrics import aurc, risk_coverage
from benchmarks.report import run_records
from benchmarks.results_io import emit, table

THRESHOLDS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)


def correct(row: dict) -> bool:
    return bool(row["abstained"]) if not row["answerable"] else bool(row.get("hit1"))


def at_threshold(rows: list[dict], threshold: float) -> dict:
    kept = [r for r in rows if not r["abstained"] and r.get("confidence", 0.0) >= threshold]
    answerable = [r for r in rows if r["answerable"]]
    wrong = sum(1 for r in kept if not correct(r))
    return {
        "threshold": threshold,
        "coverage": round(len(kept) / len(rows), 4) if rows else None,
        "risk": round(wrong / len(kept), 4) if kept else None,
        "hits_at_1": round(sum(1 for r in kept if r["answerable"] and r.get("hit1")) / len(answerable), 4) if answerable else None,
    }


def report(rows: list[dict]) -> dict:
    scores = [0.0 if r["abstained"] else float(r.get("confidence", 0.0)) for r in rows]
    return {
        "questions": len(rows),
        "aurc": round(aurc(risk_coverage(scores, [correct(r) for r in rows])) or 0.0, 4),
        "thresholds": [at_threshold(rows, t) for t in THRESHOLDS],
    }


def markdown(name: str, data: dict) -> str:
    rows = ([row["threshold"], row["coverage"], row["risk"], row["hits_at_1"]] for row in data["thresholds"])
    lines = [f"{name}: {data['questions']} questions, AURC {data['aurc']}", "", *table(["min_confidence", "coverage", "risk", "Hits@1"], rows)]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    data = report(run_records(args.run))
    emit(markdown(args.run.name, data), data, args.out)


if __name__ == "__main__":
    main()
