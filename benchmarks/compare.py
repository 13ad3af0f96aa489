"""Metric deltas between two runs (B minus A), overall and by question type."""

from __future__ import annotations

import json
from pathlib import Path

from ari.base.errors import DatasetError

OVERALL = (
    "n", "hits_at_1", "hits_at_10", "accuracy", "abstain_precision", "abstain_recall", "abstain_f1",
    "false_unknown_rate", "aurc", "mean_steps", "llm_calls_per_question", "questions_per_second",
)


LOWER_IS_BETTER = {"false_unknown_rate", "aurc", "mean_steps", "llm_calls_per_question"}


def load_summary(run: Path) -> dict:
    """summary.json of a run directory (or the file itself)."""
    path = Path(run)
    if path.is_dir():
        path = path / "summary.json"
    if not path.is_file():
        raise DatasetError(f"no summary.json at {path} (is it a finished `ari bench run --out` directory?)")
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise DatasetError(f"{path}:{exc.lineno}: not valid JSON ({exc.msg})") from None


def deltas(a: dict, b: dict) -> list[tuple[str, object, object, float | None]]:
    """Rows (metric, A, B, B - A); qtype rows are named `qtype:<name>` (Hits@1)."""
    rows = [(key, a.get(key), b.get(key), _delta(a.get(key), b.get(key))) for key in OVERALL]
    by_a, by_b = a.get("by_qtype", {}), b.get("by_qtype", {})
    for qtype in sorted(set(by_a) | set(by_b)):
        va, vb = by_a.get(qtype), by_b.get(qtype)
        rows.append((f"qtype:{qtype}", va, vb, _delta(va, vb)))
    return rows


def _delta(a: object, b: object) -> float | None:
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return float(b) - float(a)
    return None


def rich_table(a_name: str, b_name: str, rows: list[tuple[str, object, object, float | None]]):  # noqa: ANN201
    from rich.table import Table

    from benchmarks.report import fmt

    table = Table(title=f"{b_name} vs {a_name}")
    table.add_column("metric")
    table.add_column("A", justify="right")
    table.add_column("B", justify="right")
    table.add_column("B - A", justify="right")
    for metric, va, vb, delta in rows:
        better = None if not delta else (delta < 0) == (metric in LOWER_IS_BETTER)
        colour = "white" if better is None else "green" if better else "red"
        shown = "–" if delta is None else f"[{colour}]{delta:+.3f}"
        table.add_row(metric, fmt(va), fmt(vb), shown)
    return table


def load_run_info(run: Path) -> dict:
    """run.json of a run directory (the run's identity and config)."""
    path = Path(run) / "run.json"
    if not path.is_file():
        raise DatasetError(f"no run.json in {run} (is it an `ari bench run --out` directory?)")
    return json.loads(path.read_text(encoding="utf-8"))
