"""Right / wrong / abstained per shape for each shape set, base run against branch run (dev halves only), as JSON.

    python benchmarks/results/shapes_s17/figures.py BASE_RUN BRANCH_RUN [SET ...] > figures.json
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

SETS = ["shapes", "shapes_h5", "shapes_h7", "shapes_h9", "shapes_h11", "shapes_h13", "shapes_h14", "shapes_h16"]


def per_shape(results: Path) -> dict[str, str]:
    """shape -> "right/wrong/abstained", and "all"."""
    counts: dict[str, Counter[str]] = {}
    for line in results.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        for shape in (record["shape"], "all"):
            counts.setdefault(shape, Counter())[record["verdict"]] += 1
    return {s: f"{c['right']}/{c['wrong']}/{c['abstained']}" for s, c in sorted(counts.items())}


def main(base: str, branch: str, sets: list[str]) -> None:
    out = {s: {"base": per_shape(Path(base) / s / "results.jsonl"), "branch": per_shape(Path(branch) / s / "results.jsonl")}
           for s in sets if (Path(base) / s / "results.jsonl").exists()}
    print(json.dumps({"base": base, "branch": branch, "sets": out}, indent=1))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3:] or SETS)
