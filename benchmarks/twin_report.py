"""Per-kind abstention on a set with answerable twins (`ari bench make-unanswerable`, issue 12).

Reads a run's results.jsonl, groups each question by the kind in its id (`<source>-<kind>` for the
unanswerable rewrite, `<source>-<kind>-twin` for its answerable twin), and reports for each kind
the abstain recall on the rewrites, and the false-unknown rate and Hits@1 on the twins.

    python -m benchmarks.twin_report RUN_DIR [RUN_DIR ...] --out benchmarks/results/NAME
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from pathlib import Path

from benchmarks.report import run_records
from benchmarks.results_io import emit, table


def kind_of(qid: str) -> tuple[str, bool]:
    """(kind, is the twin) from a question id; plain dataset ids are ("answerable", True)."""
    parts = qid.split("-")
    if parts[-1] == "twin":
        return parts[-2], True
    return (parts[-1], False) if len(parts) > 1 else ("answerable", True)


def per_kind(results: list[dict]) -> dict[str, dict]:
    groups: dict[str, dict[str, list[dict]]] = defaultdict(lambda: {"unanswerable": [], "twins": []})
    for row in results:
        kind, twin = kind_of(str(row["qid"]))
        groups[kind]["twins" if twin else "unanswerable"].append(row)
    table = {kind: _figures(rows["unanswerable"], rows["twins"]) for kind, rows in sorted(groups.items())}
    table["all"] = _figures([r for r in results if not r["answerable"]], [r for r in results if r["answerable"]])
    return table


def _figures(un: list[dict], twins: list[dict]) -> dict:
    """One kind's row: how often its unanswerable questions were refused and its twins answered."""
    return {
        "unanswerable": len(un),
        "abstain_recall": _mean([r["abstained"] for r in un]),
        "twins": len(twins),
        "false_unknown_rate": _mean([r["abstained"] for r in twins]),
        "twin_hits_at_1": _mean([bool(r.get("hit1")) for r in twins]),
    }


def _mean(values: list) -> float | None:
    return round(sum(map(float, values)) / len(values), 4) if values else None


def markdown(tables: dict[str, dict[str, dict]]) -> str:
    keys = ("unanswerable", "abstain_recall", "twins", "false_unknown_rate", "twin_hits_at_1")
    rows = ([run, kind, *("–" if row[k] is None else row[k] for k in keys)] for run, kinds in tables.items() for kind, row in kinds.items())
    lines = table(["run", "kind", "unanswerable", "abstain recall", "twins", "false-unknown", "Hits@1 (twins)"], rows)
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", type=Path)
    parser.add_argument("--out", type=Path, help="Write <out>.json and <out>.md")
    args = parser.parse_args()
    tables = {run.name: per_kind(run_records(run)) for run in args.runs}
    emit(markdown(tables), tables, args.out)


if __name__ == "__main__":
    main()
