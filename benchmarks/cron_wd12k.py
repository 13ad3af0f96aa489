"""CronQuestions on Wikidata12k, end to end: the valid-derived development set (`benchmarks.cron_devset`),
the store, a memory learned on its `tune` part (or a memory you give), and Hits@1 on `tune` and `check`.

    python -m benchmarks.cron_wd12k --work /tmp/cron_wd12k --out benchmarks/results/cron_wd12k
    python -m benchmarks.cron_wd12k --work /tmp/cron_wd12k --memory gen.sqlite --name generated \\
        --out benchmarks/results/cron_wd12k    # a memory generated from the KG alone, side by side

Every step is the `ari` command it prints (run with this interpreter); the dev set and the store are
written under `--work` (outside the repo: they hold dataset text), the figures to `--out/<name>.json`
and `.md`: Hits@1 overall, per qtype and per answer type, and the abstentions by kind of reason.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

from benchmarks import cron_devset
from benchmarks.results_io import table, write_results

PARTS = ("tune", "check")

# abstention reasons, by kind (the reason's own wording, ari.agents' one-line reasons)
_REASON_KINDS = (
    ("a name the KG does not have", re.compile(r"no entity of the question is in the KG|the KG has no entity named")),
    ("a name several entities share (asked which)", re.compile(r"names \d+ entities of the KG")),
    ("no fact supports an answer", re.compile(r"supports an answer|no fact links|no fact states")),
    ("not read as a question", re.compile(r"not a question|yes/no question")),
    ("read as asking a place / reason / quantity", re.compile(r"the question asks for")),
    ("no program of the memory carried out", re.compile(r"programs? of the methodology|no program")),
)


def run(args: list[str]) -> None:
    command = [sys.executable, "-m", "ari", *args]
    print("$ ari " + " ".join(args), flush=True)
    subprocess.run(command, check=True)


def reason_kind(reason: str | None) -> str:
    return next((kind for kind, pattern in _REASON_KINDS if reason and pattern.search(reason)), "other")


def part_figures(results: Path) -> dict:
    """Hits@1 overall, by qtype and by answer type, and abstentions by kind, from a run's results.jsonl."""
    rows = [json.loads(line) for line in results.read_text(encoding="utf-8").splitlines() if line.strip()]
    groups: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        groups[f"qtype {row['qtype']}"].append(row)
        groups[f"answer {row['answer_type']}"].append(row)
    return {
        "n": len(rows),
        "hits_at_1": round(sum(r["hit1"] for r in rows) / max(1, len(rows)), 3),
        "wrong": sum(not r["hit1"] and not r["abstained"] for r in rows),
        "abstained": sum(bool(r["abstained"]) for r in rows),
        "groups": {name: {"n": len(g), "hits_at_1": round(sum(r["hit1"] for r in g) / len(g), 3)} for name, g in sorted(groups.items())},
        "abstentions": dict(Counter(reason_kind(r["reason"]) for r in rows if r["abstained"]).most_common()),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cron", type=Path, default=Path("../shared/data/cronquestions"))
    parser.add_argument("--wd12k", type=Path, default=Path("../shared/data/wikidata12k"))
    parser.add_argument("--work", type=Path, required=True, help="folder for the dev set, the store, memories and runs (outside the repo)")
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/cron_wd12k"))
    parser.add_argument("--memory", default=None, help="measure this memory instead of learning one on the tune part")
    parser.add_argument("--name", default="tune_memory", help="the results' file stem")
    parser.add_argument("--clusters", type=int, default=10)
    parser.add_argument("--gold-annotations", action="store_true",
                        help="ask with the entities given (the official `question` field, CronKGQA's setting), not linked by ARI")
    args = parser.parse_args(argv)
    work = args.work.resolve()
    dev, db = work / "dev", work / "wd12k.duckdb"
    cron_devset.main(["--cron", str(args.cron), "--wd12k", str(args.wd12k), "--out", str(dev), "--ids", str(work / "ids.json")])
    ingest = ["ingest", "tsv", str(args.wd12k / "wd12k_named.tsv"), "--skip-bad", "--open-ends", "point", "--db", str(db), "--quiet"]
    if not db.exists():
        run(ingest)
    memory = args.memory
    commands = ["ari " + " ".join(ingest)]
    if memory is None:
        memory = str(work / f"{args.name}.sqlite")
        learn = ["memory", "learn", "--dataset", "cronquestions", "--questions", str(dev / "tune.json"), "--search",
                 "--clusters", str(args.clusters), "--db", str(db), "--memory", memory, "--quiet"]
        run(learn)
        commands.append("ari " + " ".join(learn))
    figures = {}
    for part in PARTS:
        bench = ["bench", "run", "cronquestions", "--questions", str(dev / f"{part}.json"), "--db", str(db), "--memory", memory,
                 "--out", str(work / "runs" / f"{args.name}-{part}"), "--quiet", "--restart"]
        bench += ["--gold-annotations"] if args.gold_annotations else []
        run(bench)
        commands.append("ari " + " ".join(bench))
        figures[part] = part_figures(work / "runs" / f"{args.name}-{part}" / "results.jsonl")
    data = {"memory": args.name, "entities": "given (gold annotations)" if args.gold_annotations else "linked by ARI", "figures": figures, "commands": commands,
            "dev_set": f"python -m benchmarks.cron_devset --cron {args.cron} --wd12k {args.wd12k} --out {dev}"}
    args.out.mkdir(parents=True, exist_ok=True)
    write_results(args.out, args.name, data, markdown(data), indent=1)
    print(markdown(data))


def markdown(data: dict) -> str:
    figures = data["figures"]
    groups = sorted({g for part in figures.values() for g in part["groups"]})
    rows = (
        [part, f["n"], f"{f['hits_at_1']:.3f}", f["wrong"], f["abstained"],
         *(f"{f['groups'][g]['hits_at_1']:.3f} ({f['groups'][g]['n']})" if g in f["groups"] else "-" for g in groups)]
        for part, f in figures.items()
    )
    lines = [f"# CronQuestions on Wikidata12k, valid-derived dev set: memory `{data['memory']}`, entities "
             f"{data.get('entities', 'linked by ARI')}", "",
             *table(["part", "n", "Hits@1", "wrong", "abstained", *groups], rows)]
    lines += ["", "Abstentions by kind of reason:", ""]
    for part, f in figures.items():
        lines.append(f"- {part}: " + ", ".join(f"{kind} {n}" for kind, n in f["abstentions"].items()))
    lines += ["", "Commands:", "", "```", data["dev_set"], *data["commands"], "```", ""]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
