"""The figures of this README from two devrun.sh folders (the lead's baseline of main, this branch): right / wrong /
abstained per dev set, and the window shape of the four shape sets' dev halves.
Usage: python figures.py BASE NEW > figures.json"""
import gzip
import json
import sys
from collections import Counter
from pathlib import Path


def rows(folder: Path) -> list[dict]:
    for name, opener in (("results.jsonl", open), ("results.jsonl.gz", gzip.open)):
        if (folder / name).exists():
            with opener(folder / name, "rt", encoding="utf-8") as lines:
                return [json.loads(line) for line in lines if line.strip()]
    return []


def verdict(row: dict) -> str:
    if "verdict" in row:
        return row["verdict"]
    if row["abstained"]:
        return "abstained" if row.get("answerable", True) else "right"
    return "wrong" if row.get("answerable", True) is False or not row["hit1"] else "right"


def figures(run: Path) -> dict:
    sets = sorted(p.name for p in run.iterdir() if p.is_dir())
    out = {s: dict(Counter(verdict(r) for r in rows(run / s))) for s in sets}
    out["window shape (4 shape sets, dev halves)"] = dict(Counter(verdict(r) for s in sets if s.startswith("shapes") for r in rows(run / s) if r.get("shape") == "window"))
    return out


base, new = Path(sys.argv[1]), Path(sys.argv[2])
print(json.dumps({"base (main 39452e4)": figures(base), "h11-times": figures(new)}, indent=1, sort_keys=True))
