"""Per set: main's right / wrong / abstained beside the check's, and which changes the check made (its refusals name it).

    python benchmarks/results/trust_s19/tally.py BASE_RUN CHECK_RUN OUT.json
"""

import importlib.util
import json
import sys
from pathlib import Path

spec = importlib.util.spec_from_file_location("cmp", Path(__file__).parents[1] / "side_by_side_1129" / "cmp.py")
assert spec is not None and spec.loader is not None
sys.argv, argv = sys.argv[:1], sys.argv[1:]  # cmp.py runs main() on import: give it no folders
cmp = importlib.util.module_from_spec(spec)
try:
    spec.loader.exec_module(cmp)
except IndexError:
    pass


def main() -> None:
    base, new, out = Path(argv[0]), Path(argv[1]), Path(argv[2])
    sets, total = {}, {"right lost": 0, "wrong removed": 0, "other changes": 0}
    for name in sorted({p.name for p in base.iterdir() if p.is_dir()} & {p.name for p in new.iterdir() if p.is_dir()}):
        a, b = cmp.load(base / name), cmp.load(new / name)
        keys = sorted(set(a) & set(b))
        if not keys:
            continue
        by_check = [k for k in keys if "answer check" in str(b[k].get("reason"))]
        changed = [k for k in keys if cmp.verdict(a[k]) != cmp.verdict(b[k]) or a[k]["answers"][:1] != b[k]["answers"][:1]]
        row = {"n": len(keys), "main": cmp.tally(a, keys), "check": cmp.tally(b, keys), "changed": len(changed),
               "right lost": sum(cmp.verdict(a[k]) == "right" for k in by_check), "wrong removed": sum(cmp.verdict(a[k]) == "wrong" for k in by_check),
               "other changes": [f"{k[0]} {k[1]}: {cmp.verdict(a[k])} -> {cmp.verdict(b[k])} ({str(b[k].get('reason'))[:70]})" for k in changed if k not in by_check]}
        sets[name] = row
        for key in total:
            total[key] += row[key] if key != "other changes" else len(row[key])
    out.write_text(json.dumps({"sets": sets, "total": total}, indent=1))
    for name, row in sets.items():
        m, c = row["main"], row["check"]
        print(f"| {name} | {row['n']} | {m['right']}/{m['wrong']}/{m['abstained']} | {c['right']}/{c['wrong']}/{c['abstained']} | {row['changed']} | {row['right lost']} | {row['wrong removed']} |")
    print(total)


main()
