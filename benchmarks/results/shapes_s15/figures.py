"""Right / wrong / abstained per set and shape of run folders, as Markdown rows and JSON.

figures.py OUT.json NAME=RUN [NAME=RUN ...]: each RUN a folder of sets (results.jsonl or results.jsonl.gz in each)."""

from __future__ import annotations

import gzip
import json
import sys
from collections import Counter
from pathlib import Path


def verdicts(path: Path) -> dict[str, Counter[str]]:
    """Verdict counts per shape (qtype) of one set's results, "all" included; MultiTQ-type sets by hit@1 (the abstention sets' unanswerable
    questions right when abstained on)."""
    opened = gzip.open(path, "rt") if path.suffix == ".gz" else path.open()
    per: dict[str, Counter[str]] = {"all": Counter()}
    for record in map(json.loads, opened):
        answered = "right" if record.get("hit1") else "wrong"  # an unanswerable question is right only abstained on
        verdict = record.get("verdict") or ("abstained" if record["abstained"] else answered) if record.get("answerable", True) else ("right" if record["abstained"] else "wrong")
        for key in ("all", record["qtype"]) if "verdict" in record else ("all",):
            per.setdefault(key, Counter())[verdict] += 1
    return per


def run_figures(run: Path) -> dict[str, dict[str, dict[str, int]]]:
    found = sorted(run.glob("*/results.jsonl")) + sorted(run.glob("*/results.jsonl.gz"))
    return {f.parent.name: {k: dict(c) for k, c in verdicts(f).items()} for f in found}


if __name__ == "__main__":
    runs = {name: run_figures(Path(folder)) for name, folder in (a.split("=", 1) for a in sys.argv[2:])}
    Path(sys.argv[1]).write_text(json.dumps(runs, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    names = list(runs)
    for s in sorted({s for r in runs.values() for s in r}):
        for shape in sorted({k for r in runs.values() for k in r.get(s, {})}):
            cells = [runs[n].get(s, {}).get(shape, {}) for n in names]
            print(f"| {s} | {shape} | " + " | ".join(f"{c.get('right', 0)}/{c.get('wrong', 0)}/{c.get('abstained', 0)}" for c in cells) + " |")
