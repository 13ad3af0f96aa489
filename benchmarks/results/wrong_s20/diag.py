"""Re-answer the questions of run folders and dump, per question, the answer and what the reading had (links and their
kind, relations and scores, times, the program): the material of the stage table (stages.py).

    MEM=<copy of the memory> PYTHONPATH=<worktree> ARI_RELATION_LEXICON=/work/base/lexicon_shard0.json \\
        python benchmarks/results/wrong_s20/diag.py OUT.jsonl RUN_FOLDER/SET [...]"""

from __future__ import annotations

import gzip
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path

from benchmarks.solver import AgentSolverFactory

STORE = "/work/s11m/store/new.duckdb"


def records(folders: list[str]) -> Iterator[dict]:
    """Each rewritten (not original) question of the folders' results, with its set's name."""
    for folder in map(Path, folders):
        path = next(p for p in (folder / "results.jsonl.gz", folder / "results.jsonl") if p.exists())
        with (gzip.open(path, "rt") if path.suffix == ".gz" else open(path)) as handle:
            for line in handle:
                record = json.loads(line)
                if record.get("style") != "original":
                    yield record | {"set": folder.name}


def reading(result) -> dict:  # noqa: ANN001 - an AgentResult
    """What the reading had: the links (text, why, candidates), relations, times, the query's shape."""
    a = result.analysis
    if a is None:
        return {}
    return {"masked": a.masked, "shape": a.query.shape, "asks": a.query.asks, "atype": a.answer_type,
            "ents": [{"t": m.text, "why": m.why, "c": [(n, round(s, 3)) for n, s in m.candidates[:4]]} for m in a.entities],
            "unlinked": [m.text for m in a.unlinked], "rels": [(n, round(s, 3)) for n, s in a.relations[:3]],
            "times": [(t.text, str(t.time)) for t in a.times]}


def main(out: str, folders: list[str]) -> None:
    rows = list(records(folders))
    solver = AgentSolverFactory(STORE, os.environ["MEM"])()
    with open(out, "w") as handle:
        for start in range(0, len(rows), 64):
            batch = rows[start:start + 64]
            for row, result in zip(batch, solver([r["question"] for r in batch]), strict=True):
                dump = {"set": row["set"], "style": row.get("style"), "q": row["question"], "gold": row.get("gold"),
                        "base_hit": row.get("hit1"), "base_abst": row.get("abstained"), "base_answer": row.get("answer"),
                        "answer": result.answer, "answers": result.answers[:3], "abst": result.abstained, "reason": result.reason,
                        "program": [s.abstract for s in result.steps]}
                handle.write(json.dumps(dump | reading(result), default=str) + "\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
