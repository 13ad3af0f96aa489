"""Right / wrong / abstained per shape for shape-set runs: per_shape.py RUN [RUN...] (each RUN a folder of sets)."""
import json
import sys
from collections import Counter
from pathlib import Path

SETS = ["shapes", "shapes_h5", "shapes_h7", "shapes_h9", "shapes_h11", "shapes_h13", "shapes_h14", "own"]


def table(run: Path) -> dict[str, dict[str, Counter[str]]]:
    """Verdict counts per set and shape of one run folder."""
    out: dict[str, dict[str, Counter[str]]] = {}
    for s in SETS:
        f = run / s / "results.jsonl"
        if not f.exists():
            continue
        per: dict[str, Counter[str]] = {}
        for line in f.open():
            r = json.loads(line)
            per.setdefault(r["qtype"], Counter())[r["verdict"]] += 1
        out[s] = per
    return out


if __name__ == "__main__":
    runs = [Path(a) for a in sys.argv[1:]]
    tabs = [table(r) for r in runs]
    for s in SETS:
        shapes = sorted({q for t in tabs for q in t.get(s, {})})
        for q in shapes:
            cells = []
            for t in tabs:
                c = t.get(s, {}).get(q, Counter())
                cells.append(f"{c['right']:>3}/{c['wrong']}/{c['abstained']}")
            print(f"{s:11} {q:13} " + "   ".join(cells))
    for t in tabs:
        tot: Counter[str] = Counter()
        for per in t.values():
            for c in per.values():
                tot.update(c)
        print(dict(tot))
