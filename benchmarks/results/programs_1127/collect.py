"""Side by side, per set: right / wrong / abstained and the answers that changed between two runs of the same questions.

    python benchmarks/results/programs_1127/collect.py OUT_FOLDER NAME BASE_RUN NEW_RUN [BASE_RUN NEW_RUN ...]

A run is an `ari bench run` folder (results.jsonl, summary.json). A question is right when its verdict is "right"
(shapes sets) or its Hits@1 holds (MultiTQ); an answer changed when its answers or its abstention did."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

from benchmarks.results_io import table, write_results


def load(folder: Path) -> dict[str, dict]:
    rows = [json.loads(line) for line in (folder / "results.jsonl").read_text().splitlines() if line.strip()]
    return {r["qid"]: r for r in rows}


def outcome(row: dict) -> str:
    if row.get("verdict"):
        return str(row["verdict"])
    return "abstained" if row["abstained"] else "right" if row.get("hit1") else "wrong"


def side(rows: dict[str, dict]) -> dict:
    counts = Counter(outcome(r) for r in rows.values())
    n = len(rows)
    return {"n": n, **{k: counts.get(k, 0) for k in ("right", "wrong", "abstained")}, "right_share": round(counts["right"] / n, 4) if n else None}


def _counts(side: dict) -> str:
    return f"{side['right']} / {side['wrong']} / {side['abstained']}"


def main() -> None:
    out, name, runs = Path(sys.argv[1]), sys.argv[2], sys.argv[3:]
    sets: list[dict] = []
    rows: list[tuple[object, ...]] = []
    for first, second in zip(runs[::2], runs[1::2]):
        base, new = load(Path(first)), load(Path(second))
        common = base.keys() & new.keys()
        changed = [
            {"qid": k, "question": new[k]["question"], "base": base[k]["answers"][:3], "new": new[k]["answers"][:3],
             "from": outcome(base[k]), "to": outcome(new[k])}
            for k in sorted(common) if (base[k]["answers"], base[k]["abstained"]) != (new[k]["answers"], new[k]["abstained"])
        ]
        before, after = side(base), side(new)
        sets.append({"set": Path(second).name, "base_run": first, "new_run": second, "base": before, "new": after, "changed": changed})
        rows.append((Path(second).name, before["n"], _counts(before), _counts(after), len(changed)))
    markdown = "\n".join(["# Right / wrong / abstained, base run against new run", "", *table(("set", "n", "base", "new", "changed"), rows)]) + "\n"
    print(markdown)
    write_results(out, name, {"sets": sets}, markdown)


if __name__ == "__main__":
    main()
