"""Right / wrong / abstained per set, before and after, and the changed answers, as JSON (the figures of README.md).

    python benchmarks/results/wrong_s20/tally.py BASE NEW OUT.json    # BASE, NEW: hrun20.sh or learn20.sh output folders

Counts are those of benchmarks/results/side_by_side_1129/cmp.py (its `load` and `verdict`), read from the same files."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

_CMP = Path(__file__).parents[1] / "side_by_side_1129" / "cmp.py"
_spec = importlib.util.spec_from_file_location("cmp", _CMP)
assert _spec is not None and _spec.loader is not None
cmp = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cmp)


def figures(base: Path, new: Path) -> dict:
    """Set -> n, before and after (right, wrong, abstained), and each changed question (before -> after)."""
    out: dict = {}
    for folder in sorted(p for p in new.iterdir() if p.is_dir() and (base / p.name).is_dir()):
        a, b = cmp.load(base / folder.name), cmp.load(folder)
        keys = sorted(set(a) & set(b))
        if not keys:
            continue
        changed = [{"question": b[k]["question"], "before": f"{cmp.verdict(a[k])}: {a[k]['answers'][:1]}",
                    "after": f"{cmp.verdict(b[k])}: {b[k]['answers'][:1]}", "reason": b[k].get("reason")}
                   for k in keys if cmp.verdict(a[k]) != cmp.verdict(b[k]) or a[k]["answers"][:1] != b[k]["answers"][:1]]
        out[folder.name] = {"n": len(keys), "before": cmp.tally(a, keys), "after": cmp.tally(b, keys), "changed": changed}
    return out


if __name__ == "__main__":
    Path(sys.argv[3]).write_text(json.dumps(figures(Path(sys.argv[1]), Path(sys.argv[2])), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
