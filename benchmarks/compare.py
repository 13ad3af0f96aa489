"""Runs side by side: metric differences against the first run, a picture per question type, and the
questions whose outcome changed."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from ari.base.errors import DatasetError, UsageError

OVERALL = (
    "n", "hits_at_1", "hits_at_10", "accuracy", "abstain_precision", "abstain_recall", "abstain_f1",
    "false_unknown_rate", "aurc", "mean_steps", "llm_calls_per_question", "questions_per_second",
)
LOWER_IS_BETTER = {"false_unknown_rate", "aurc", "mean_steps", "llm_calls_per_question"}
COMPARE_PNG, COMPARE_MD, CHANGED_JSONL = "compare.png", "compare.md", "changed.jsonl"


@dataclass
class Run:
    """One run directory (or a bare summary.json): its summary and, when kept, its per-question records."""

    name: str
    summary: dict
    records: dict[str, dict] = field(default_factory=dict)  # by question id; empty without results.jsonl


@dataclass
class MetricRow:
    metric: str  # an OVERALL key, or `qtype:<name>` (Hits@1 of that type)
    values: list[object]  # one per run
    deltas: list[float | None]  # each run minus the first (None for the first, or where undefined)


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


def load_runs(paths: list[Path]) -> list[Run]:
    """The runs to compare, named by their directories (their paths when two share a name)."""
    from benchmarks.report import run_records

    if len(paths) < 2:
        raise UsageError("compare needs at least two runs")
    names = [Path(p).name if Path(p).is_dir() else Path(p).parent.name for p in paths]
    if len(set(names)) < len(names):
        names = [str(p) for p in paths]
    runs = []
    for name, path in zip(names, paths):
        summary = load_summary(path)
        folder = Path(path) if Path(path).is_dir() else Path(path).parent
        runs.append(Run(name, summary, {str(r["qid"]): r for r in run_records(folder)}))
    return runs


def metric_rows(runs: list[Run]) -> list[MetricRow]:
    """The overall metrics, then Hits@1 of every question type any run has."""
    rows = [_row(key, [r.summary.get(key) for r in runs]) for key in OVERALL]
    qtypes = sorted({q for r in runs for q in r.summary.get("by_qtype", {})})
    rows += [_row(f"qtype:{q}", [r.summary.get("by_qtype", {}).get(q) for r in runs]) for q in qtypes]
    return rows


def _row(metric: str, values: list[object]) -> MetricRow:
    deltas: list[float | None] = [None]  # the first run is the baseline
    deltas += [_delta(values[0], v) for v in values[1:]]
    return MetricRow(metric, values, deltas)


def _delta(a: object, b: object) -> float | None:
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return float(b) - float(a)
    return None


def correct(record: dict) -> bool:
    """Right answer to an answerable question, or an abstention on an unanswerable one (as the metrics;
    a shape question by its verdict)."""
    if "verdict" in record:
        return record["verdict"] == "right"
    return bool(record.get("abstained")) if record.get("answerable") is False else bool(record.get("hit1"))


def changed_questions(runs: list[Run]) -> list[dict]:
    """Questions every run answered whose outcome (right or wrong) is not the same in all of them."""
    shared = set.intersection(*(set(r.records) for r in runs)) if all(r.records for r in runs) else set()
    changed = []
    for qid in sorted(shared, key=_qid_order):
        records = [r.records[qid] for r in runs]
        outcomes = [correct(rec) for rec in records]
        if len(set(outcomes)) > 1:
            first = records[0]
            changed.append({
                "qid": qid, "question": first.get("question"), "qtype": first.get("qtype"), "gold": first.get("gold"),
                "runs": [{"run": r.name, "correct": ok, "answer": _shown(rec)}
                         for r, rec, ok in zip(runs, records, outcomes)],
            })
    return changed


def _qid_order(qid: str) -> tuple[int, object]:
    return (0, int(qid)) if qid.isdigit() else (1, qid)


def _shown(record: dict) -> str:
    if record.get("abstained"):
        return "(abstained)"
    return str(record.get("answer"))


def fixed_and_broken(changed: list[dict], run_index: int) -> tuple[int, int]:
    """Of the changed questions: how many run `run_index` gets right that the first run got wrong, and the reverse."""
    fixed = sum(1 for c in changed if c["runs"][run_index]["correct"] and not c["runs"][0]["correct"])
    broken = sum(1 for c in changed if not c["runs"][run_index]["correct"] and c["runs"][0]["correct"])
    return fixed, broken


def rich_table(runs: list[Run], rows: list[MetricRow]):  # noqa: ANN201
    from rich.table import Table

    from ari.base.progress import plain
    from benchmarks.report import fmt

    table = Table(title=plain(" vs ".join(r.name for r in runs)))
    table.add_column("metric")
    for i in range(len(runs)):
        table.add_column(_letter(i), justify="right")
    for i in range(1, len(runs)):
        table.add_column(f"{_letter(i)} - A", justify="right")
    for row in rows:
        cells = [fmt(v) for v in row.values]
        for delta in row.deltas[1:]:
            better = None if not delta else (delta < 0) == (row.metric in LOWER_IS_BETTER)
            colour = "white" if better is None else "green" if better else "red"
            cells.append("–" if delta is None else f"[{colour}]{delta:+.3f}")
        table.add_row(row.metric, *cells)
    return table


def _letter(i: int) -> str:
    return chr(ord("A") + i) if i < 26 else f"R{i + 1}"


def write_comparison(runs: list[Run], out_dir: Path) -> list[Path]:
    """compare.png, compare.md and changed.jsonl in `out_dir`."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    rows, changed = metric_rows(runs), changed_questions(runs)
    png = out_dir / COMPARE_PNG
    import matplotlib.pyplot as plt

    fig = figure(runs, changed)
    fig.savefig(png, dpi=100)
    plt.close(fig)
    md = out_dir / COMPARE_MD
    md.write_text(markdown(runs, rows, changed), encoding="utf-8")
    lines = out_dir / CHANGED_JSONL
    lines.write_text("".join(json.dumps(c, ensure_ascii=False) + "\n" for c in changed), encoding="utf-8")
    return [png, md, lines]


def markdown(runs: list[Run], rows: list[MetricRow], changed: list[dict], show: int = 200) -> str:
    from benchmarks.report import fmt

    letters = [_letter(i) for i in range(len(runs))]
    lines = ["# Runs compared", ""] + [f"- {letter}: `{r.name}`" for letter, r in zip(letters, runs)] + [""]
    lines += ["| metric | " + " | ".join(letters) + " | " + " | ".join(f"{x} - A" for x in letters[1:]) + " |",
              "| --- |" + " ---: |" * (2 * len(runs) - 1)]
    for row in rows:
        deltas = ["–" if d is None else f"{d:+.3f}" for d in row.deltas[1:]]
        lines.append(f"| {row.metric} | " + " | ".join(fmt(v) for v in row.values) + " | " + " | ".join(deltas) + " |")
    lines += ["", f"## Questions whose outcome changed ({len(changed)})", ""]
    if not all(r.records for r in runs):
        missing = ", ".join(r.name for r in runs if not r.records)
        return "\n".join(lines + [f"Not listed: no results.jsonl in {missing}."]) + "\n"
    for i in range(1, len(runs)):
        fixed, broken = fixed_and_broken(changed, i)
        lines.append(f"- {letters[i]} against A: {fixed} now right, {broken} now wrong")
    lines += ["", "| qid | qtype | question | gold | " + " | ".join(letters) + " |", "| --- |" * (4 + len(runs))]
    for c in changed[:show]:
        cells = [("✓ " if r["correct"] else "✗ ") + r["answer"] for r in c["runs"]]
        gold = ", ".join(map(str, c["gold"] or [])) or "(unanswerable)"
        lines.append("| " + " | ".join(_cell(x) for x in [c["qid"], c["qtype"], c["question"], gold, *cells]) + " |")
    if len(changed) > show:
        lines.append(f"\n{len(changed) - show} more in {CHANGED_JSONL}.")
    return "\n".join(lines) + "\n"


def _cell(value: object) -> str:
    return str(value).replace("|", "\\|").replace("\n", " ")


def figure(runs: list[Run], changed: list[dict]):  # noqa: ANN201 (a matplotlib Figure)
    """Top: Hits@1 overall and per question type, one bar per run. Bottom: each run minus the first."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    qtypes = sorted({q for r in runs for q in r.summary.get("by_qtype", {})})
    names = ["all", *qtypes]
    values = np.array([[_number(r.summary.get("hits_at_1"))] + [_number(r.summary.get("by_qtype", {}).get(q))
                                                                 for q in qtypes] for r in runs])
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(max(9.0, 1.3 * len(names) * max(len(runs), 2) / 2 + 3), 8.5),
                                      height_ratios=(3, 2), dpi=100)
    x = np.arange(len(names))
    width = 0.8 / len(runs)
    colours = plt.get_cmap("tab10")
    for i, run in enumerate(runs):
        bars = top.bar(x - 0.4 + width * (i + 0.5), np.nan_to_num(values[i]), width,
                       label=f"{_letter(i)}: {_clip(run.name, 40)}", color=colours(i % 10))
        for bar, value in zip(bars, values[i]):
            if len(runs) <= 4:
                top.annotate("–" if np.isnan(value) else f"{value:.2f}",
                             (bar.get_x() + bar.get_width() / 2, np.nan_to_num(value)), ha="center", va="bottom",
                             fontsize=7)
    top.set_xticks(x, names, fontsize=8)
    top.set_ylim(0, 1.3)
    top.set_ylabel("Hits@1")
    top.set_title("Hits@1 overall and by question type", fontsize=10)
    top.legend(loc="upper left", fontsize=8, ncols=min(len(runs), 3))
    others = len(runs) - 1
    dwidth = 0.8 / others
    for i in range(1, len(runs)):
        deltas = values[i] - values[0]
        bars = bottom.bar(x - 0.4 + dwidth * (i - 0.5), np.nan_to_num(deltas), dwidth, color=colours(i % 10),
                          label=_delta_label(runs, changed, i))
        for bar, delta in zip(bars, deltas):
            if not np.isnan(delta) and others <= 3:
                bottom.annotate(f"{delta:+.3f}", (bar.get_x() + bar.get_width() / 2, delta), ha="center",
                                va="bottom" if delta >= 0 else "top", fontsize=7)
    bottom.axhline(0, color="0.3", lw=0.8)
    span = float(np.nanmax(np.abs(values[1:] - values[0]))) if others and not np.all(np.isnan(values[1:] - values[0])) else 0
    bottom.set_ylim(-max(span * 1.4, 0.02), max(span * 1.4, 0.02))
    bottom.set_xticks(x, names, fontsize=8)
    bottom.set_ylabel("Hits@1 difference")
    bottom.set_title("Difference from A (each run minus A)", fontsize=10)
    bottom.legend(loc="lower left", fontsize=8, ncols=min(others, 3))
    fig.tight_layout()
    return fig


def _delta_label(runs: list[Run], changed: list[dict], i: int) -> str:
    label = f"{_letter(i)} - A"
    if all(r.records for r in runs):
        fixed, broken = fixed_and_broken(changed, i)
        label += f": now right {fixed}, now wrong {broken} (questions)"
    return label


def _number(value: object) -> float:
    return float(value) if isinstance(value, (int, float)) else float("nan")


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else "…" + text[-(width - 1):]


def load_run_info(run: Path) -> dict:
    """run.json of a run directory (the run's identity and config)."""
    path = Path(run) / "run.json"
    if not path.is_file():
        raise DatasetError(f"no run.json in {run} (is it an `ari bench run --out` directory?)")
    return json.loads(path.read_text(encoding="utf-8"))
