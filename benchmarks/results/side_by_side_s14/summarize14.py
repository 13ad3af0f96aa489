"""Side by side of the thirteenth session: per set (r/w/a), with rewrite styles and shapes broken down, for run
folders written by hrun.sh. Usage: summarize13.py OUT.json START=DIR[,DIR...] FINAL=DIR[,DIR...]
(the folders of one side are read in order; a set found in several is taken from the first)."""
import gzip
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path


def rows(folder: Path) -> list[dict]:
    for name in ("results.jsonl", "results.jsonl.gz"):
        f = folder / name
        if f.exists():
            with (gzip.open(f, "rt") if name.endswith(".gz") else open(f)) as h:
                return [json.loads(line) for line in h if line.strip()]
    return []


def verdict(r: dict) -> str:
    if "verdict" in r:
        return r["verdict"]
    if r["abstained"]:
        return "abstained" if r.get("answerable", True) else "right"
    return "wrong" if r.get("answerable", True) is False or not r["hit1"] else "right"


def tally(rs: list[dict]) -> dict:
    c = Counter(verdict(r) for r in rs)
    n = len(rs)
    return {"n": n, "right": c["right"], "wrong": c["wrong"], "abstained": c["abstained"],
            "right_rate": round(c["right"] / n, 4) if n else None, "wrong_rate": round(c["wrong"] / n, 4) if n else None}


def by(rs: list[dict], key: str) -> dict:
    groups = defaultdict(list)
    for r in rs:
        groups[r.get(key)].append(r)
    return {str(k): tally(v) for k, v in sorted(groups.items(), key=lambda kv: str(kv[0]))}


def side(folders: list[Path]) -> dict:
    out: dict = {}
    for root in folders:
        for folder in sorted(p for p in root.iterdir() if p.is_dir()):
            rs = rows(folder)
            if not rs or folder.name in out:
                continue
            entry = tally(rs)
            if folder.name.startswith("rw-") or folder.name == "para":
                entry["rewrites"] = tally([r for r in rs if r.get("style") != "original"])
                entry["originals"] = tally([r for r in rs if r.get("style") == "original"])
                entry["styles"] = by(rs, "style")
            if folder.name.startswith("shapes"):
                entry["shapes"] = by(rs, "shape")
            out[folder.name] = entry
    return out


sides = {arg.split("=", 1)[0]: side([Path(p) for p in arg.split("=", 1)[1].split(",")]) for arg in sys.argv[2:]}
json.dump(sides, open(sys.argv[1], "w"), indent=1)
(a_name, a), (b_name, b) = list(sides.items())[:2]
for name in a:
    x, y = a[name], b.get(name, {})
    extra = ""
    if "rewrites" in x:
        extra = f"  rewrites {x['rewrites']['right_rate']} / {y.get('rewrites', {}).get('right_rate')} (wrong {x['rewrites']['wrong_rate']} / {y.get('rewrites', {}).get('wrong_rate')})"
    print(f"{name:20s} n={x['n']:5d} {a_name} {x['right']}/{x['wrong']}/{x['abstained']} ({x['right_rate']})  {b_name} {y.get('right')}/{y.get('wrong')}/{y.get('abstained')} ({y.get('right_rate')}){extra}")
    for key in ("shapes", "styles"):
        for s, t in x.get(key, {}).items():
            u = y.get(key, {}).get(s, {})
            print(f"    {s:20s} {t['right']}/{t['wrong']}/{t['abstained']} of {t['n']}  ->  {u.get('right')}/{u.get('wrong')}/{u.get('abstained')}")
