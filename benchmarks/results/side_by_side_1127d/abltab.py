"""Held totals of each ablation beside START and MERGED (`ablations.md`): right / wrong / abstained for shape runs,
Hits@1 / wrong for rewrite runs.

    python abltab.py mem-start noswap norival wordnet-only > ablations.md
"""

import json
import sys
from pathlib import Path

NAMES = [
    "shapes-held", "shapes_h7-held", "shapes_h9-held", "shapes-dev", "shapes_h7-dev", "shapes_h9-dev",
    "rw-nine_styles-held", "rw-more_styles-held", "rw-invented_styles-held", "rw-w10_w11-held",
]


def totals(folder: Path) -> str:
    summary = json.load(open(folder / "summary.json"))
    if "by_shape" in summary:
        every = summary["by_shape"]["all"]
        return f"{every['right']:.3f}/{every['wrong']:.3f}/{every['abstained']:.3f}"
    rewrites = summary["table"]["paraphrases"]
    return f"{rewrites['hits_at_1']:.3f}/{rewrites['wrong']:.3f}"


def folder(column: str, name: str) -> Path:
    if column == "start":
        started = Path("/work/runs/s9") / f"{name}-start"
        return started if started.exists() else Path("/work/runs/s8b") / f"{name}-new"
    if column == "new":
        return Path("/work/runs/s9") / f"{name}-new"
    return Path("/work/runs/s9abl") / column / name


columns = ["start", "new", *sys.argv[1:]]
print("| set | " + " | ".join(columns) + " |")
print("| --- |" + " --- |" * len(columns))
for name in NAMES:
    cells = [totals(folder(c, name)) if (folder(c, name) / "summary.json").exists() else "-" for c in columns]
    print(f"| {name} | " + " | ".join(cells) + " |")
