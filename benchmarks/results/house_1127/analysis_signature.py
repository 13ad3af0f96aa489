"""What the analysis reads of every question of the learning-split and dev sets (never a set's held
part): `python analysis_signature.py STORE.duckdb OUT.json`, run from the repository root of the code
measured; two signatures are compared by `signature_diff.py`."""

from __future__ import annotations

import glob
import json
import os
import sys

sys.path.insert(0, os.getcwd())

from agents.analysis import QuestionAnalyzer  # noqa: E402 (the code measured is the one in the working folder)
from ari.base.embedding import get_embedder  # noqa: E402
from tkg_store.store import TKGStore  # noqa: E402

MULTITQ_DEV = "/work/shared/data/multitq/questions/dev.json"


def corpus() -> list[str]:
    texts: list[str] = []
    for path in sorted(glob.glob("benchmarks/data/*.json")) + ["benchmarks/data/shapes/dev.json"]:
        data = json.load(open(path))
        for item in data["questions"] if isinstance(data, dict) else data:
            if isinstance(item, dict):
                if item.get("part") == "held":
                    continue
                texts += [t for t in (item.get("question") or item.get("q"), item.get("original")) if isinstance(t, str)]
            elif isinstance(item, str):
                texts.append(item)
    texts += [x["question"] for x in json.load(open(MULTITQ_DEV))[:4000]]
    return list(dict.fromkeys(t for t in texts if t))


def main(db: str, out: str) -> None:
    analyzer = QuestionAnalyzer(TKGStore.open(db), get_embedder())
    questions, found = corpus(), {}
    for start in range(0, len(questions), 256):
        batch = questions[start : start + 256]
        for q, a in zip(batch, analyzer.analyze_batch(batch)):
            found[q] = {
                "masked": a.masked, "ents": [m.best for m in a.entities], "unl": [m.text for m in a.unlinked],
                "times": [(t.text, str(t.time)) for t in a.times], "at": a.answer_type, "tl": str(a.time_level),
                "pat": a.pattern, "cue": a.cue, "cues": a.cues, "q": repr(a.query), "rels": [r for r, _ in a.relations[:3]],
                "gram": a.grammar, "unread": a.unreadable_times, "cands": [m.candidates for m in a.entities], "why": [m.why for m in a.entities], "relsc": a.relations, "unsure": a.unsure_relation, "unacc": a.unaccounted, "drop": a.grammar_dropped, "beyond": a.beyond_times, "other": [str(t.other_reading) for t in a.times],
            }  # fmt: skip
    json.dump(found, open(out, "w"), indent=0)
    print(len(questions), "questions")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
