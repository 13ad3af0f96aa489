"""Paraphrase benchmark: does ARI understand MultiTQ questions as people ask them (issue 13)?

Runs the hand-written paraphrase set (benchmarks/data/multitq_paraphrases.json: 600 dev shard-1
sources x three styles) and the 600 original questions it was written from through one agent, and
reports Hits@1 overall, per style and per qtype, and each style's ratio to the originals. The
originals are read from the official dev file by `source_quid`, so both sides have the same gold.

    python -m benchmarks.paraphrase_bench --db /work/base/multitq.duckdb --memory MEM.sqlite \
        [--dev $ARI_DATA_DIR/multitq/questions/dev.json] [--out benchmarks/results/paraphrases]

Other rewrite sets run the same way (`--paraphrases a.json,b.json`, every style found in them): sets
written with a held part (`part: dev | held` on each record) run one part at a time (`--part dev`),
the held part only once, at the end. Each style's wrong-answer rate (answered, not a hit) is reported
beside its Hits@1: a wrong answer costs more than an abstention.

Set ARI_RELATION_LEXICON to a lexicon learned on dev shard 0/2 for a fair run (the memory too must
come from shard 0/2). One process, batches of 64; throughput is printed, not a target here.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
import time
from collections import defaultdict
from pathlib import Path

from benchmarks.loaders.multitq import MultiTQLoader, parse_record
from benchmarks.loaders.types import Question
from benchmarks.plan import default_data_dir
from benchmarks.results_io import write_json
from benchmarks.runner import git_commit, make_record
from benchmarks.selection import stratified_sample, take_shard
from benchmarks.solver import AgentSolverFactory

PARAPHRASES = Path(__file__).parent / "data" / "multitq_paraphrases.json"
RESULTS = Path(__file__).parent / "results" / "paraphrases"
STYLES = ("light", "restructured", "casual")
BATCH = 64


def load_sets(paraphrases: list[Path], dev: Path, part: str = "all") -> tuple[list[Question], list[Question]]:
    """(the originals, the paraphrases); an original keeps its quid, a paraphrase its style in `extra`.

    Rewrite sets written with a held part mark each record `part: dev | held`; `part` keeps one of
    them (a record with no mark belongs to every part)."""
    records = [r for path in paraphrases for r in json.loads(Path(path).read_text(encoding="utf-8"))]
    records = [r for r in records if part == "all" or r.get("part", part) == part]
    rewritten = []
    for record in records:
        question = parse_record(record)
        question.extra = {"style": record["style"], "source_quid": str(record["source_quid"])}
        rewritten.append(question)
    wanted = {q.extra["source_quid"] for q in rewritten}
    originals = [q for q in MultiTQLoader().load(dev).questions if q.qid in wanted]
    for question in originals:
        question.extra = {"style": "original", "source_quid": question.qid}
    missing = wanted - {q.qid for q in originals}
    if missing:
        raise SystemExit(f"{len(missing)} source quids are not in {dev}, e.g. {sorted(missing)[:3]}")
    return originals, rewritten


def answer_all(questions: list[Question], factory: AgentSolverFactory) -> tuple[list[dict], float]:
    """One results record per question (benchmarks.runner.make_record) and the seconds spent answering."""
    solver = factory()
    records = []
    started = time.perf_counter()
    for offset in range(0, len(questions), BATCH):
        batch = questions[offset : offset + BATCH]
        for question, result in zip(batch, solver([q.text for q in batch]), strict=True):
            record = make_record(question, result)
            record.update(question.extra)
            records.append(record)
    return records, time.perf_counter() - started


def summarise(records: list[dict]) -> dict:
    """Hits@1 and the wrong-answer rate (answered, not a hit) by style and by style x qtype, and each
    style's Hits@1 ratio to the originals."""
    groups: dict[str, list[dict]] = defaultdict(list)
    for record in records:
        style = record["style"]
        names = [style, f"{style}/{record['qtype']}"]
        if style != "original":
            names += ["paraphrases", f"paraphrases/{record['qtype']}"]
        for name in names:
            groups[name].append(record)
    hits_at_1 = {name: sum(r["hit1"] for r in rows) / len(rows) for name, rows in groups.items()}
    table: dict[str, dict[str, float | None]] = {}
    for name, rows in sorted(groups.items()):
        _, _, qtype = name.partition("/")
        reference = hits_at_1.get(f"original/{qtype}" if qtype else "original")
        rate = hits_at_1[name]
        wrong = sum(not r["hit1"] and not r["abstained"] for r in rows) / len(rows)
        table[name] = {"n": len(rows), "hits_at_1": rate, "wrong": wrong,
                       "ratio_to_original": rate / reference if reference else None}
    return {"table": table, "original_hits_at_1": hits_at_1["original"]}


def markdown(summary: dict, config: dict) -> str:
    table = summary["table"]
    qtypes = sorted({name.split("/")[1] for name in table if "/" in name})
    found = sorted({name for name in table if "/" not in name} - {"original", "paraphrases"})
    columns = ["original", *[s for s in STYLES if s in found], *[s for s in found if s not in STYLES], "paraphrases"]
    lines = [
        "# Paraphrase benchmark (issue 13)",
        "",
        (
            f"Code at {config['git_commit']}; store {config['db']}; memory {config['memory']}; "
            f"lexicon {config['relation_lexicon']}. {config['questions_per_second']:.1f} questions/s in one "
            "process on a shared 2-core machine (inflated by other jobs; not a throughput measurement)."
        ),
        "",
        f"Hits@1 (ratio to the originals in brackets; wrong answers on the last line); part: {config.get('part', 'all')}:",
        "",
        "| group | " + " | ".join(columns) + " |",
        "| --- |" + " --- |" * len(columns),
    ]
    for group in ["", *qtypes]:
        cells = []
        for style in columns:
            row = table.get(f"{style}/{group}" if group else style)
            if row is None:
                cells.append("-")
            elif style == "original":
                cells.append(f"{row['hits_at_1']:.3f} (n={row['n']})")
            else:
                ratio = row["ratio_to_original"]  # None where the originals of the group got none right
                cells.append(f"{row['hits_at_1']:.3f} ({'-' if ratio is None else f'{ratio:.2f}'})")
        lines.append(f"| {group or 'all'} | " + " | ".join(cells) + " |")
    wrong = [f"{table[style]['wrong']:.3f}" if style in table else "-" for style in columns]
    lines.append("| wrong (all) | " + " | ".join(wrong) + " |")
    return "\n".join(lines) + "\n"


def template_check(args: argparse.Namespace) -> int:
    """MultiTQ dev template questions (the fixed sample of issue 13) through the same agent as the paraphrases."""
    commit = git_commit()
    questions = take_shard(stratified_sample(MultiTQLoader().load(Path(args.dev)).questions, args.template_sample, 0), (1, 2))
    for question in questions:
        question.extra = {"style": "original", "source_quid": question.qid}
    records, seconds = answer_all(questions, AgentSolverFactory(args.db, args.memory))
    table = summarise(records)["table"]
    result = {
        "config": {"git_commit": commit, "sample": args.template_sample, "seed": 0, "shard": "1/2",
                   "questions": len(records), "questions_per_second": len(records) / seconds if seconds else 0.0,
                   "relation_lexicon": os.environ.get("ARI_RELATION_LEXICON")},
        "hits_at_1": {k.replace("original", "all", 1) if k == "original" else k.split("/")[1]: v for k, v in table.items()},
    }
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    write_json(out / "template_check.json", result)
    with gzip.open(out / "template_check.jsonl.gz", "wt", encoding="utf-8") as handle:
        for record in records:
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
    print(json.dumps(result, indent=2))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True)
    parser.add_argument("--memory", required=True, help="memory learned on dev shard 0/2")
    parser.add_argument("--dev", default=str(default_data_dir("multitq") / "questions" / "dev.json"))
    parser.add_argument("--paraphrases", default=str(PARAPHRASES), help="rewrite set(s), comma-separated")
    parser.add_argument("--part", default="all", choices=("all", "dev", "held", "learning"),
                        help="sets written with a held part: run only that part (the held part is read last); "
                        "'learning': a diagnostic set written from the learning split (dev shard 0/2)")
    parser.add_argument("--out", default=str(RESULTS))
    parser.add_argument("--styles", default="", help="comma-separated styles to run (default: every style in the sets)")
    parser.add_argument(
        "--template-sample", type=int, default=0,
        help="instead: the template check, N dev questions (stratified, seed 0) then shard 1/2, Hits@1 per qtype",
    )
    args = parser.parse_args(argv)
    if args.template_sample:
        return template_check(args)

    originals, rewritten = load_sets([Path(p) for p in args.paraphrases.split(",")], Path(args.dev), args.part)
    if args.styles:
        styles = set(args.styles.split(","))
        rewritten = [q for q in rewritten if q.extra["style"] in styles]
    factory = AgentSolverFactory(args.db, args.memory)
    commit = git_commit()  # read before answering: the code that runs
    records, seconds = answer_all(originals + rewritten, factory)
    summary = summarise(records)
    config = {
        "git_commit": commit,
        "db": args.db,
        "memory": args.memory,
        "relation_lexicon": os.environ.get("ARI_RELATION_LEXICON"),
        "paraphrases": args.paraphrases,
        "part": args.part,
        "questions": len(records),
        "answer_seconds": round(seconds, 2),
        "questions_per_second": len(records) / seconds if seconds else 0.0,
    }
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    write_json(out / "summary.json", {"config": config, **summary})
    (out / "results.md").write_text(markdown(summary, config), encoding="utf-8")
    with gzip.open(out / "results.jsonl.gz", "wt", encoding="utf-8") as handle:
        for record in records:
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
    print(markdown(summary, config))
    return 0


if __name__ == "__main__":
    sys.exit(main())
