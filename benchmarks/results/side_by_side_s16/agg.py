"""Per shape over every shape set of a summarize13 text (`side_*_summary.txt`): right / wrong / abstained, BASE and FINAL.

    python agg.py side_held_summary.txt
"""

import collections
import re
import sys

agg: dict[str, collections.Counter] = {"BASE": collections.Counter(), "FINAL": collections.Counter()}
current = ""
for line in open(sys.argv[1], encoding="utf-8"):
    if m := re.match(r"^(\S+)\s+n=", line):
        current = m.group(1)
        continue
    m = re.match(r"^\s+(\w+)\s+(\d+)/(\d+)/(\d+) of (\d+)\s+->\s+(\d+)/(\d+)/(\d+)", line)
    if m and current.startswith("shapes"):
        for side, at in (("BASE", 2), ("FINAL", 6)):
            for kind, value in zip("rwa", m.group(at, at + 1, at + 2)):
                agg[side][(m.group(1), kind)] += int(value)
for shape in sorted({s for s, _ in agg["BASE"]}):
    n = sum(agg["BASE"][(shape, k)] for k in "rwa")
    cells = [f"{'/'.join(str(agg[s][(shape, k)]) for k in 'rwa')} ({agg[s][(shape, 'r')] / n:.3f})" for s in ("BASE", "FINAL")]
    print(f"| {shape} ({n}) | {cells[0]} | {cells[1]} |")
total = sum(agg["BASE"].values())
wrong = [sum(v for (_, k), v in agg[s].items() if k == "w") for s in ("BASE", "FINAL")]
print(f"| wrong of {total} | {wrong[0]} ({wrong[0] / total:.1%}) | {wrong[1]} ({wrong[1] / total:.1%}) |")
