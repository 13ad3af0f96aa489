"""Compare two devrun.sh output folders set by set: right / wrong / abstained, and changed questions.
Usage: cmp.py BASE NEW [--show] [--sets a,b]"""
import gzip
import json
import sys
from pathlib import Path


def load(folder: Path) -> dict:
    for name in ("results.jsonl", "results.jsonl.gz"):
        f = folder / name
        if f.exists():
            opener = gzip.open if name.endswith(".gz") else open
            with opener(f, "rt", encoding="utf-8") as h:
                rows = [json.loads(line) for line in h if line.strip()]
            return {(str(r["qid"]), r.get("style", "")): r for r in rows}
    return {}

def verdict(r: dict) -> str:
    if "verdict" in r:
        return r["verdict"]
    if r["abstained"]:
        return "abstained" if r.get("answerable", True) else "right"
    if r.get("answerable", True) is False:
        return "wrong"
    return "right" if r["hit1"] else "wrong"

def tally(d: dict, keys: list) -> dict:
    c = {"right": 0, "wrong": 0, "abstained": 0}
    for k in keys:
        c[verdict(d[k])] += 1
    return c


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    show = "--show" in sys.argv
    base, new = Path(args[0]), Path(args[1])
    names = sorted({p.name for p in base.iterdir() if p.is_dir()} & {p.name for p in new.iterdir() if p.is_dir()})
    for name in names:
        a, b = load(base / name), load(new / name)
        keys = sorted(set(a) & set(b))
        if not keys:
            continue
        ta, tb = tally(a, keys), tally(b, keys)
        changed = [k for k in keys if verdict(a[k]) != verdict(b[k]) or a[k]["answers"][:1] != b[k]["answers"][:1]]
        n = len(keys)
        print(f"{name:28s} n={n:5d}  base r/w/a {ta['right']}/{ta['wrong']}/{ta['abstained']} ({ta['right']/n:.4f})"
              f"  new {tb['right']}/{tb['wrong']}/{tb['abstained']} ({tb['right']/n:.4f})  changed {len(changed)}")
        if show:
            for k in changed:
                print(f"    {k[0]} {k[1]} {a[k]['question'][:90]!r}\n      {verdict(a[k])} {a[k]['answers'][:2]} -> {verdict(b[k])} {b[k]['answers'][:2]}  gold {a[k]['gold'][:2]}  reason {str(b[k].get('reason'))[:80]}")

main()
