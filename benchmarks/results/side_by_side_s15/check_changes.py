"""Changed answers between two CronQuestions check runs, printed without the question: only the change and which
linking rules read the question's names (`EntityMention.why`).

    PYTHONPATH=. python check_changes.py BASE_RUN FINAL_RUN STORE
"""

import json
import sys

from agents.analysis import QuestionAnalyzer
from ari.base.embedding import get_embedder
from tkg_store.store import TKGStore


def load(folder: str) -> dict[str, dict]:
    with open(folder + "/results.jsonl") as f:
        return {r["qid"]: r for r in map(json.loads, f)}


def state(r: dict) -> str:
    return "abstained" if r["abstained"] else "right" if r["hit1"] else "wrong"


base, final = load(sys.argv[1]), load(sys.argv[2])
analyzer = QuestionAnalyzer(TKGStore.open(sys.argv[3], read_only=True), get_embedder())
for qid, before in base.items():
    if state(before) != state(final[qid]):
        whys = [m.why for m in analyzer.analyze(final[qid]["question"]).entities]
        rule = "whole phrase" if any("whole phrase" in w for w in whys) else "other"
        print(state(before), "->", state(final[qid]), "|", rule, "|", sorted({w.split(":")[0][:40] for w in whys}))
