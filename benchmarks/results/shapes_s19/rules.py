"""The refusal-rule table: each abstention of a run's shape dev halves, by the rule that refused it (read off its
reason), for the answerable count, window and yes / no questions and for the unanswerable ones. Usage:
    python rules.py RUN_DIR [--json OUT]
"""

from __future__ import annotations

import json
import re
import sys
from collections import defaultdict
from pathlib import Path

SETS = ("shapes", "shapes_h5", "shapes_h7", "shapes_h9", "shapes_h11", "shapes_h13", "shapes_h14", "shapes_h16", "shapes_h17")
# (rule, stage, the reason's words that name it), first match wins
RULES = [
    ("no program carries out every constraint", "planner (graph.plan)", r"holds no program that carries out"),
    ("no program reads the relation in its roles", "planner (graph.plan, answer check)", r"no program reads the relation"),
    ("the event referred to is not in the KG", "planner (answer check)", r"event the question refers to is not in the KG"),
    ("no fact of R involving X and Y supports an answer", "planner (answer check)", r"no fact of .* supports an answer|no fact of '.*' involving"),
    ("no fact links X and Y", "judge (link)", r"no fact links"),
    ("a word no relation accounts for", "judge (unaccounted)", r"which no relation of the KG accounts for"),
    ("an act word not sure / read as another", "reading (relations.unsure)", r"not sure which event|the program read|say the opposite"),
    ("two relations named alike", "planner (rival)", r"names .* alike"),
    ("intent recorded only", "planner (aim)", r"records only 'Express intent'"),
    ("a country named only by its sectors", "judge (sectors_only)", r"only by its sectors"),
    ("no entity named", "linking", r"no entity named|reads like part of a name|no fact about"),
    ("a statement, not a question", "form", r"is a statement|was not read"),
    ("'foreign' (no nationality)", "query (unsupported)", r"'foreign'"),
    ("'where' may ask the party", "query", r"'where' may ask"),
    ("two acts at once", "judge (two_acts)", r"two acts at once"),
    ("a time placed against no named event", "query (unsupported)", r"placed against what no entity"),
    ("a number not read", "judge", r"number ARI could not read"),
    ("a place", "query (unsupported)", r"asks for a place"),
    ("a reason", "query (unsupported)", r"asks for a reason"),
    ("a quantity", "query (unsupported)", r"asks for a quantity"),
    ("a degree or manner", "query (unsupported)", r"degree or manner"),
    ("a time past the KG's end", "judge (range)", r"the KG covers"),
    ("a future event", "query (unsupported)", r"future event"),
    ("a relation the KG does not record", "query (unsupported)", r"relation the KG does not record"),
    ("what was said / a duration / time of day", "query (unsupported)", r"what was said|duration|time of day"),
    ("only answer named in the question", "audit", r"named in the question itself"),
]


def rule_of(reason: str) -> str:
    return next((name for name, _, pattern in RULES if re.search(pattern, reason or "")), "other: " + (reason or "")[:60])


def writer(qid: str) -> str:
    return qid.split("-")[0]


def table(run: Path) -> dict:
    rules: dict[str, dict] = defaultdict(lambda: {"answerable": [], "unanswerable": []})
    for name in SETS:
        path = run / name / "results.jsonl"
        if not path.exists():
            continue
        for line in path.open():
            r = json.loads(line)
            if not r["abstained"]:
                continue
            if r["answerable"] and r["shape"] in ("count", "window", "yesno"):
                rules[rule_of(r["reason"])]["answerable"].append(r["qid"])
            elif not r["answerable"]:
                rules[rule_of(r["reason"])]["unanswerable"].append(r["qid"])
    return dict(rules)


if __name__ == "__main__":
    found = table(Path(sys.argv[1]))
    stage = {name: where for name, where, _ in RULES}
    print("| rule (stage) | answerable count/window/yes-no refused | writers | unanswerable it refuses |")
    print("| --- | --- | --- | --- |")
    for name, qids in sorted(found.items(), key=lambda kv: (-len(kv[1]["answerable"]), -len(kv[1]["unanswerable"]))):
        writers = sorted({writer(q) for q in qids["answerable"]})
        print(f"| {name} ({stage.get(name, '?')}) | {len(qids['answerable'])} | {len(writers)} ({' '.join(writers)}) | {len(qids['unanswerable'])} |")
    if "--json" in sys.argv:
        Path(sys.argv[sys.argv.index("--json") + 1]).write_text(json.dumps(found, indent=1, sort_keys=True) + "\n")
