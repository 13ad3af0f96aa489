"""Read every question of a set of runs with the code on PYTHONPATH: one JSON line per question (the `QuestionAnalysis`,
keys sorted), and with --trace the lines of agents/analysis that ran, to show which branches no question reaches.

    PYTHONPATH=$WT ARI_RELATION_LEXICON=/work/base/lexicon_shard0.json python reading_coverage.py OUT.jsonl \
        [--trace] RESULTS.jsonl[.gz] ...

Two dumps of one question list compare with `cmp`: equal files mean no reading changed. The linker's tables are built
before tracing starts, so the lines that build them (aliases.py, names.py) are not counted here.
"""

from __future__ import annotations

import argparse
import dataclasses
import gzip
import json
import sys
import threading
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, TextIO

from agents.analysis.analyzer import QuestionAnalyzer
from ari.base.embedding import get_embedder
from tkg_store.store import TKGStore

if TYPE_CHECKING:
    from _typeshed import TraceFunction

_ROOT = str(Path(__file__).resolve().parents[3] / "agents" / "analysis")
_HITS: set[tuple[str, int]] = set()


def _local(frame: FrameType, event: str, arg: object) -> TraceFunction:
    if event == "line":
        _HITS.add((Path(frame.f_code.co_filename).name, frame.f_lineno))
    return _local


def _tracer(frame: FrameType, event: str, arg: object) -> TraceFunction | None:
    """Trace only the reading's own frames: the rest runs at full speed."""
    return _local if frame.f_code.co_filename.startswith(_ROOT) else None


def questions(paths: list[Path]) -> list[str]:
    """The distinct question texts of the runs' results files, in order."""
    texts: list[str] = []
    for path in paths:
        with (gzip.open(path, "rt") if path.suffix == ".gz" else path.open()) as lines:
            texts += [json.loads(line)["question"] for line in lines if line.strip()]
    return list(dict.fromkeys(texts))


def dump(analyzer: QuestionAnalyzer, texts: list[str], sink: TextIO) -> None:
    for start in range(0, len(texts), 200):
        for analysis in analyzer.analyze_batch(texts[start : start + 200]):
            sink.write(json.dumps(dataclasses.asdict(analysis), sort_keys=True, default=str, ensure_ascii=False) + "\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("results", nargs="+", type=Path)
    parser.add_argument("--trace", action="store_true")
    args = parser.parse_args()
    texts = questions(args.results)
    analyzer = QuestionAnalyzer(TKGStore.open("/work/s11m/store/new.duckdb"), get_embedder())
    _ = analyzer.entity_linker, analyzer.relation_linker  # built before tracing
    if args.trace:
        sys.settrace(_tracer)
        threading.settrace(_tracer)
    with args.out.open("w", encoding="utf-8") as sink:
        dump(analyzer, texts, sink)
    sys.settrace(None)
    if args.trace:
        args.out.with_suffix(".lines.json").write_text(json.dumps(sorted(_HITS)))
    print(f"{len(texts)} questions -> {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
