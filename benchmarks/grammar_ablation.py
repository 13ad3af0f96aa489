"""Which grammar rules carry their weight: each rule (or set of rules) removed, answers compared.

For every question of the learning-split diagnostic sets, the grammar constructions, the paraphrase
set and the shape questions (`benchmarks/data/`) on which a rule fires, the offline agent answers with
all rules and again without the rule(s); printed per rule: how often it fires, how many answers
change, and how many are right each way (where the question has a gold). A rule whose removal changes
no answer is covered by the general mechanisms after it (the cue lexicon, the relation ranking, the
answer check's roles) and can go.

    ARI_RELATION_LEXICON=lexicon_shard0.json python -m benchmarks.grammar_ablation --db multitq.duckdb \
        --memory COPY_OF_mem.sqlite [--remove "rule a,rule b" ...] [--out benchmarks/results/reading]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from benchmarks.results_io import table, write_results

DATA = Path(__file__).parent / "data"


def golds() -> dict[str, list[str] | None]:
    """Question -> gold answers (display form; None where the set has none)."""
    found: dict[str, list[str] | None] = {}
    for path in sorted(DATA.glob("*.json")) + [DATA / "shapes" / "dev.json"]:
        data = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(data, dict):
            found.update((q["q"], None) for q in data["questions"])
            continue
        # a set's held part is read once, at the end, by the lead: never by an ablation
        found.update((q["question"], [a.replace("_", " ") for a in q.get("answers", [])]) for q in data if q.get("part") != "held")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", required=True)
    parser.add_argument("--memory", required=True)
    parser.add_argument("--remove", action="append", help="comma-separated rule names removed together (default: each rule alone)")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    import agents.analysis.grammar as grammar
    from ari.api import build_agent

    gold = golds()
    agent, _, _ = build_agent(args.db, args.memory)
    questions = list(gold)
    fired: dict[str, list[str]] = {}
    for analysis in agent.analyzer.analyze_batch(questions, rank_relations=False):
        for rule in analysis.grammar:
            fired.setdefault(rule, []).append(analysis.question)
    rules = grammar.RULES
    rows: list[dict[str, Any]] = []
    for removed in [r.split(",") for r in args.remove] if args.remove else [[name] for name, _ in rules]:
        asked = sorted({q for r in removed for q in fired.get(r, [])})
        answers = []
        for kept in (rules, tuple(rule for rule in rules if rule[0] not in removed)):
            grammar.RULES = kept
            answers.append({r.question: (r.answers[:1], r.abstained) for r in agent.ask_many(asked)})
        grammar.RULES = rules

        def right(question: str, side: dict) -> bool:
            answer, abstained = side.get(question, ([], True))
            wanted = gold.get(question)
            return bool(wanted) and not abstained and bool(answer) and answer[0] in (wanted or [])

        row = {
            "removed": removed,
            "fires": len(asked),
            "answers_changed": sum(1 for q in asked if answers[0].get(q) != answers[1].get(q)),
            "right_with": sum(right(q, answers[0]) for q in asked),
            "right_without": sum(right(q, answers[1]) for q in asked),
        }
        rows.append(row)
        print(f"{' + '.join(removed):60s} fires {row['fires']:4d}  changed {row['answers_changed']:4d}  right {row['right_with']:4d} -> {row['right_without']:4d}", flush=True)
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        lines = table(["removed", "fires", "answers changed", "right with", "right without"],
                      ([" + ".join(r["removed"]), r["fires"], r["answers_changed"], r["right_with"], r["right_without"]] for r in rows))
        write_results(args.out, "grammar_ablation", rows, "\n".join(lines) + "\n", indent=1)


if __name__ == "__main__":
    main()
