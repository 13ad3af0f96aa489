"""Right / wrong / abstained per style of one rewrite run folder (results.jsonl[.gz]); rewrites' Hits@1 and wrong rate."""
import gzip
import json
import sys
from collections import Counter
from pathlib import Path

for folder in sys.argv[1:]:
    f = next(p for p in (Path(folder) / "results.jsonl", Path(folder) / "results.jsonl.gz") if p.exists())
    rows = [json.loads(line) for line in (gzip.open(f, "rt") if f.suffix == ".gz" else open(f)) if line.strip()]
    by: dict[str, Counter] = {}
    for r in rows:
        v = "abstained" if r["abstained"] else ("right" if r["hit1"] else "wrong")
        by.setdefault(r.get("style", ""), Counter())[v] += 1
    rewrites: Counter[str] = Counter()
    for style, c in by.items():
        if style != "original":
            rewrites.update(c)
    n = sum(rewrites.values())
    print(folder, {s: f"{c['right']}/{c['wrong']}/{c['abstained']}" for s, c in sorted(by.items())},
          f"rewrites {rewrites['right']}/{rewrites['wrong']}/{rewrites['abstained']} hits {rewrites['right'] / n:.3f} wrong {rewrites['wrong'] / n:.1%}")
