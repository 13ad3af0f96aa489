"""Questions whose answers differ between two runs: `python compare_answers.py RUN_A RUN_B` (each a
folder with results.jsonl or results.jsonl.gz), keyed by question id and text."""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path


def load(folder: str) -> dict[tuple[str, str], dict]:
    path = Path(folder) / "results.jsonl"
    lines = path.read_text().splitlines() if path.exists() else gzip.open(f"{path}.gz", "rt").read().splitlines()
    rows = [json.loads(line) for line in lines]
    return {(str(r.get("qid")), r.get("question") or ""): r for r in rows}


if __name__ == "__main__":
    a, b = load(sys.argv[1]), load(sys.argv[2])
    keys = [k for k in a if k in b]
    differ = [k for k in keys if (a[k].get("answers"), a[k].get("abstained")) != (b[k].get("answers"), b[k].get("abstained"))]
    print(len(keys), "compared;", len(differ), "answers differ")
    for k in differ:
        print(k[0], k[1][:110], "|", a[k].get("answers", [])[:2], a[k].get("hit1"), "->", b[k].get("answers", [])[:2], b[k].get("hit1"))
