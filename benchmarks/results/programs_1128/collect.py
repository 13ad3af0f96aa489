"""Side by side, per set and per shape: right / wrong / abstained, and the answers that changed between two runs.

    python benchmarks/results/programs_1128/collect.py OUT_FOLDER NAME BASE_RUN NEW_RUN [BASE_RUN NEW_RUN ...]

A run is a folder with results.jsonl (`ari bench run`) or results.jsonl.gz (`benchmarks.paraphrase_bench`). A question is
right when its verdict is "right" (shapes sets) or its Hits@1 holds (MultiTQ, rewrites); a rewrite is keyed by its style
too. An answer changed when its answers or its abstention did."""

from __future__ import annotations

import gzip
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

from benchmarks.results_io import table, write_results


def load(folder: Path) -> dict[str, dict]:
    plain = folder / "results.jsonl"
    text = plain.read_text() if plain.exists() else gzip.decompress((folder / "results.jsonl.gz").read_bytes()).decode()
    rows = [json.loads(line) for line in text.splitlines() if line.strip()]
    return {f"{r['qid']}|{r.get('style', '')}": r for r in rows}


def outcome(row: dict) -> str:
    if row.get("verdict"):
        return str(row["verdict"])
    return "abstained" if row["abstained"] else "right" if row.get("hit1") else "wrong"


def counts(rows: list[dict]) -> dict:
    found = Counter(outcome(r) for r in rows)
    return {"n": len(rows), **{k: found.get(k, 0) for k in ("right", "wrong", "abstained")}}


def _said(side: dict) -> str:
    return f"{side['right']} / {side['wrong']} / {side['abstained']}"


def compare(first: str, second: str) -> dict:
    base, new = load(Path(first)), load(Path(second))
    common = sorted(base.keys() & new.keys())
    shapes: dict[str, list[str]] = defaultdict(list)
    for key in common:
        shapes[new[key].get("shape") or new[key].get("qtype") or "all"].append(key)
    changed = [
        {"qid": k, "question": new[k]["question"], "base": base[k]["answers"][:3], "new": new[k]["answers"][:3],
         "from": outcome(base[k]), "to": outcome(new[k])}
        for k in common if (base[k]["answers"], base[k]["abstained"]) != (new[k]["answers"], new[k]["abstained"])
    ]
    return {
        "set": Path(second).name, "base_run": first, "new_run": second,
        "base": counts([base[k] for k in common]), "new": counts([new[k] for k in common]),
        "by_shape": {s: {"base": counts([base[k] for k in keys]), "new": counts([new[k] for k in keys])} for s, keys in sorted(shapes.items())},
        "changed": changed,
    }


def main() -> None:
    out, name, runs = Path(sys.argv[1]), sys.argv[2], sys.argv[3:]
    sets = [compare(first, second) for first, second in zip(runs[::2], runs[1::2])]
    rows = [(s["set"], s["base"]["n"], _said(s["base"]), _said(s["new"]), len(s["changed"])) for s in sets]
    shape_rows = [(s["set"], shape, c["base"]["n"], _said(c["base"]), _said(c["new"])) for s in sets for shape, c in s["by_shape"].items()]
    markdown = "\n".join([
        "# Right / wrong / abstained, base run against new run", "", *table(("set", "n", "base", "new", "changed"), rows),
        "", "## Per shape", "", *table(("set", "shape", "n", "base", "new"), shape_rows),
    ]) + "\n"
    print(markdown)
    write_results(out, name, {"sets": sets}, markdown)


if __name__ == "__main__":
    main()
