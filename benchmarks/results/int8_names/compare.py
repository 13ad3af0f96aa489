"""Answers that differ between runs of the same questions on two stores (results.jsonl or .jsonl.gz).

    python benchmarks/results/int8_names/compare.py OUT.json FLOAT32_RUN INT8_RUN [FLOAT32_RUN INT8_RUN ...]

A row is keyed by question id, rewrite style and text; it differs when its answer, answers or
abstention does."""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

FIELDS = ("answer", "answers", "abstained")


def load(folder: Path) -> dict[str, dict]:
    for name in ("results.jsonl", "results.jsonl.gz"):
        path = folder / name
        if path.exists():
            text = gzip.open(path, "rt").read() if name.endswith(".gz") else path.read_text()
            rows = [json.loads(line) for line in text.splitlines() if line.strip()]
            return {f"{r.get('qid')}|{r.get('style', '')}|{r.get('question', '')}": r for r in rows}
    raise SystemExit(f"no results in {folder}")


def main() -> None:
    out, runs = Path(sys.argv[1]), sys.argv[2:]
    rows = []
    for first, second in zip(runs[::2], runs[1::2]):
        a, b = load(Path(first)), load(Path(second))
        common = a.keys() & b.keys()
        changed = sum(any(a[k].get(f) != b[k].get(f) for f in FIELDS) for k in common)
        rows.append({"set": Path(second).name, "questions": len(common), "only_one_side": len(a.keys() ^ b.keys()), "changed": changed})
        print(rows[-1])
    out.write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    main()
