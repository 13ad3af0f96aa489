"""Side by side of the eleventh session: START (39452e4) and MERGED, per set (held halves where a set has them).
Usage: summarize.py START_DEV START_HELD NEW_DEV NEW_HELD OUT.json  (folders written by devrun.sh)"""
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

def side(dev: Path, held: Path) -> dict:
    out = {}
    for name in ("dev", "noevent", "para"):
        rs = rows(dev / name)
        out[name] = tally(rs)
        if name == "para":
            out["para"]["rewrites"] = tally([r for r in rs if r.get("style") != "original"])
            out["para"]["originals"] = tally([r for r in rs if r.get("style") == "original"])
    for folder in sorted(p for p in held.iterdir() if p.is_dir()):
        rs = rows(folder)
        if not rs:
            continue
        entry = tally(rs)
        if folder.name.startswith("rw-"):
            entry["rewrites"] = tally([r for r in rs if r.get("style") != "original"])
            entry["originals"] = tally([r for r in rs if r.get("style") == "original"])
            by = defaultdict(list)
            for r in rs:
                by[r.get("style")].append(r)
            entry["styles"] = {s: tally(v) for s, v in sorted(by.items())}
        if folder.name.startswith("shapes"):
            by = defaultdict(list)
            for r in rs:
                by[r.get("shape")].append(r)
            entry["shapes"] = {s: tally(v) for s, v in sorted(by.items())}
        out[folder.name] = entry
    return out

start = side(Path(sys.argv[1]), Path(sys.argv[2]))
new = side(Path(sys.argv[3]), Path(sys.argv[4]))
json.dump({"start": start, "merged": new}, open(sys.argv[5], "w"), indent=1)
for name in start:
    a, b = start[name], new.get(name, {})
    extra = ""
    if "rewrites" in a:
        extra = f"  rewrites {a['rewrites']['right_rate']} / {b.get('rewrites', {}).get('right_rate')} (wrong {a['rewrites']['wrong_rate']} / {b.get('rewrites', {}).get('wrong_rate')})"
    print(f"{name:22s} n={a['n']:5d} START r/w/a {a['right']}/{a['wrong']}/{a['abstained']} ({a['right_rate']})  MERGED {b.get('right')}/{b.get('wrong')}/{b.get('abstained')} ({b.get('right_rate')}){extra}")
    for key in ("shapes", "styles"):
        for s, t in a.get(key, {}).items():
            u = b.get(key, {}).get(s, {})
            if (t["right"], t["wrong"]) != (u.get("right"), u.get("wrong")) or key == "shapes":
                print(f"    {s:20s} {t['right']}/{t['wrong']}/{t['abstained']} of {t['n']}  ->  {u.get('right')}/{u.get('wrong')}/{u.get('abstained')}")
