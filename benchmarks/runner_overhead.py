"""How much time the batch runner itself costs, apart from the agent.

Runs the whole MultiTQ dev split through `run_benchmark` with a solver that answers instantly
(a constant answer), so what is measured is loading, result writing (one flushed line per question,
one fsync per batch), summarising and the report. The agent's throughput target (>= 100 q/s) is
only reachable if this is far above it. Usage: python -m benchmarks.runner_overhead [DATA_DIR]
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.loaders import get_loader
from benchmarks.results_io import table, write_results
from benchmarks.runner import RunOptions, run_benchmark

RESULTS = Path(__file__).parent / "results"


@dataclass
class _Constant:
    answer: str = "China"
    answers: list = field(default_factory=lambda: ["China"])
    abstained: bool = False
    reason: str | None = None
    steps: list = field(default_factory=list)
    llm_calls: int = 0
    tokens: int = 0
    elapsed_s: float = 0.0


def _constant_solver():  # noqa: ANN202 - a Solver
    return lambda texts: [_Constant() for _ in texts]


def main(data_dir: Path) -> dict:
    started = time.perf_counter()
    questions = get_loader("multitq").load(data_dir / "questions" / "dev.json").questions
    load_s = time.perf_counter() - started
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        outcome = run_benchmark(questions, _constant_solver, Path(tmp), {"dataset": "multitq"}, RunOptions(quiet=True))
        total_s = time.perf_counter() - started
    loop_qps = outcome.summary["questions_per_second"]
    figures = {
        "questions": len(questions),
        "load_s": round(load_s, 2),
        "answer_loop_questions_per_second": round(loop_qps),
        "answer_loop_s": round(len(questions) / loop_qps, 2),
        "summary_and_report_s": round(total_s - len(questions) / loop_qps, 2),
        "total_s": round(total_s, 2),
        "constant_answer_hits_at_1": round(outcome.summary["hits_at_1"], 4),
    }
    RESULTS.mkdir(exist_ok=True)
    rows = "\n".join(table(["figure", "value"], figures.items()))
    write_results(RESULTS, "runner_overhead", figures, "# Batch runner overhead (instant solver, MultiTQ dev, 2 cores)\n\n" + rows + "\n")
    return figures


if __name__ == "__main__":
    print(json.dumps(main(Path(sys.argv[1] if len(sys.argv) > 1 else "../shared/data/multitq")), indent=2))
