"""Dump the question analysis of question files, one stable JSON line per question, to show that a
change to the reading code changes no reading (or which ones, to explain).

    ARI_RELATION_LEXICON=/path/lexicon.json PYTHONPATH=$PWD python -m benchmarks.analysis_dump \
        --db STORE.duckdb --out before.jsonl [--limit N] QUESTIONS.json [QUESTIONS.json ...]

Each file is a JSON list of records with the text under "question" (or "q"), or an object holding
such a list under "questions". Records with a "part" other than "dev" are skipped unread, so a rewrite
set's held part is never analysed; a held file must not be passed at all. `--limit N` keeps the first
N records of each file. Each line is {"file", "index", "analysis"}: the `QuestionAnalysis` as a dict
(keys sorted, dates as ISO text), so `diff before.jsonl after.jsonl` lists exactly the readings that
changed. Set ARI_RELATION_LEXICON to the lexicon a run uses: the relations read depend on it.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from pathlib import Path

from agents.analysis.analyzer import QuestionAnalyzer
from ari.base.embedding import get_embedder
from tkg_store.store import TKGStore

_BATCH = 200  # questions embedded in one call, as a benchmark run batches them


def questions_of(path: Path, limit: int | None = None) -> list[str]:
    """The question texts of a file whose records are not of a held part (the first `limit`)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    records = data["questions"] if isinstance(data, dict) else data
    texts = [r.get("question") or r["q"] for r in records if r.get("part", "dev") == "dev"]
    return texts[:limit]


def dump(analyzer: QuestionAnalyzer, files: list[Path], out: Path, limit: int | None = None) -> int:
    """Write the analysis of every question of `files` to `out`; the number of questions."""
    written = 0
    with out.open("w", encoding="utf-8") as sink:
        for path in files:
            texts = questions_of(path, limit)
            for start in range(0, len(texts), _BATCH):
                for index, analysis in enumerate(analyzer.analyze_batch(texts[start : start + _BATCH]), start):
                    line = {"file": path.name, "index": index, "analysis": dataclasses.asdict(analysis)}
                    sink.write(json.dumps(line, sort_keys=True, default=str, ensure_ascii=False) + "\n")
                    written += 1
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path, help="question files (JSON lists)")
    parser.add_argument("--db", required=True, type=Path, help="the store the questions are linked against")
    parser.add_argument("--out", required=True, type=Path, help="the JSONL dump to write")
    parser.add_argument("--limit", type=int, default=None, help="the first N questions of each file")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    with TKGStore.open(str(args.db)) as store:
        count = dump(QuestionAnalyzer(store, get_embedder()), args.files, args.out, args.limit)
    print(f"{count} questions analysed in {time.perf_counter() - started:.1f} s -> {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
