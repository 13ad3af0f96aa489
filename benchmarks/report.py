"""A run's report: report.md (tables), report.png and report.html (the same picture with the tables).

The picture: Hits@1 and Hits@10 per question type with the answerable count of each; the
risk-coverage curve from the agent's confidence; and, when the set has unanswerable questions, the
abstention outcome (precision, recall, F1, false-unknown rate), abstention by kind of unanswerable
question, and the reasons the agent gave when it abstained.
"""

from __future__ import annotations

import gzip
import html
import io
import json
import re
from collections import Counter
from pathlib import Path

from benchmarks.results_log import read_results

REPORT_MD = "report.md"
REPORT_PNG = "report.png"
REPORT_HTML = "report.html"
SHAPE_COLUMNS = ("n", "right", "wrong", "abstained", "exact_match", "set_precision", "set_recall", "set_f1")
MAX_REASONS = 8  # kinds of stated abstention reasons drawn (the commonest)


def fmt(value: object, digits: int = 3) -> str:
    """A metric for a table cell: fractions rounded, None as a dash."""
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def markdown(summary: dict) -> str:
    config = summary.get("config", {})
    agent = config.get("agent_config", {})
    lines = [
        f"# {config.get('dataset', 'benchmark')} run",
        "",
        f"- questions: {summary['n']} ({summary['n_answerable']} answerable, {summary['n_unanswerable']} unanswerable)"
        + ("" if summary.get("complete", True) else " — INCOMPLETE run"),
        f"- source: {config.get('questions_file')} (split {config.get('split')}, sample {config.get('sample')}, "
        f"seed {config.get('seed')}, shard {config.get('shard')})",
        f"- entity linking: {'gold annotations' if config.get('gold_annotations') else 'ARI linking'}",
        f"- decider {agent.get('decider')}, methodology {agent.get('use_methodology')}, clustering "
        f"{agent.get('use_clustering')}, filtering {agent.get('use_filtering')}, "
        f"clusters {agent.get('extra', {}).get('n_clusters')}",
        f"- commit {config.get('git_commit')}",
        "",
        "| metric | value |",
        "| --- | --- |",
    ]
    for key in (
        "hits_at_1", "hits_at_10", "accuracy", "abstain_rate", "abstain_precision", "abstain_recall",
        "abstain_f1", "false_unknown_rate", "aurc", "mean_steps", "llm_calls_per_question",
        "tokens_per_question", "seconds_per_question", "questions_per_second",
    ):
        lines.append(f"| {key} | {fmt(summary.get(key))} |")
    lines += shape_table(summary.get("by_shape") or {})
    for attribute, groups in summary.get("breakdown", {}).items():
        if not groups:
            continue
        lines += ["", f"## by {attribute}", "", f"| {attribute} | n | Hits@1 | Hits@10 | accuracy | abstain rate |",
                  "| --- | --- | --- | --- | --- | --- |"]
        for value, row in groups.items():
            lines.append(
                f"| {value} | {row['n']} | {fmt(row['hits_at_1'])} | {fmt(row['hits_at_10'])} | "
                f"{fmt(row['accuracy'])} | {fmt(row['abstain_rate'])} |"
            )
    return "\n".join(lines) + "\n"


def shape_table(shapes: dict) -> list[str]:
    """Markdown lines of the verdicts per shape (none when the set has no shapes)."""
    if not shapes:
        return []
    lines = ["", "## by shape", "", "| shape | " + " | ".join(SHAPE_COLUMNS) + " |", "| --- " * (len(SHAPE_COLUMNS) + 1) + "|"]
    for shape, row in shapes.items():
        lines.append(f"| {shape} | " + " | ".join(fmt(row[k]) for k in SHAPE_COLUMNS) + " |")
    return lines


def write_report(out_dir: Path, summary: dict) -> list[Path]:
    """Write report.md, report.png and report.html into `out_dir`; return their paths."""
    out_dir = Path(out_dir)
    md = out_dir / REPORT_MD
    md.write_text(markdown(summary), encoding="utf-8")
    import matplotlib.pyplot as plt

    fig = figure(summary, run_records(out_dir))
    png = out_dir / REPORT_PNG
    fig.savefig(png, dpi=100)
    svg = io.StringIO()
    fig.savefig(svg, format="svg")
    plt.close(fig)
    page = out_dir / REPORT_HTML
    page.write_text(report_html(summary, svg.getvalue()), encoding="utf-8")
    return [md, png, page]


def run_records(run_dir: Path) -> list[dict]:
    """The per-question records of a run directory (results.jsonl, or a committed results.jsonl.gz)."""
    run_dir = Path(run_dir)
    plain, packed = run_dir / "results.jsonl", run_dir / "results.jsonl.gz"
    if plain.exists():
        return list(read_results(plain).values())
    if packed.exists():
        with gzip.open(packed, "rt", encoding="utf-8") as handle:
            return [json.loads(line) for line in handle if line.strip()]
    return []


def figure(summary: dict, records: list[dict]):  # noqa: ANN201 (a matplotlib Figure)
    """The report's panels in one figure; abstention panels only when the set has unanswerable questions."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    abstention = bool(summary.get("n_unanswerable"))
    fig = plt.figure(figsize=(14, 9.5 if abstention else 5), dpi=100)
    grid = fig.add_gridspec(2 if abstention else 1, 3, width_ratios=(1.2, 1.2, 1))
    config = summary.get("config", {})
    name = config.get("dataset", "benchmark")
    source = config.get("questions_file") or config.get("split") or ""
    fig.suptitle(f"{name} run: {summary.get('n')} questions ({summary.get('n_answerable')} answerable, "
                 f"{summary.get('n_unanswerable')} unanswerable){'' if summary.get('complete', True) else ' — INCOMPLETE'}"
                 + (f"\n{_clip(str(source), 120)}" if source else ""), fontsize=11)
    _hits_panel(fig.add_subplot(grid[0, :2]), summary)
    _risk_panel(fig.add_subplot(grid[0, 2]), summary)
    if abstention:
        _abstention_panel(fig.add_subplot(grid[1, 0]), summary)
        reasons = stated_reasons(records)
        _kinds_panel(fig.add_subplot(grid[1, 1] if reasons else grid[1, 1:]), summary)
        if reasons:
            _reasons_panel(fig.add_subplot(grid[1, 2]), reasons)
    fig.tight_layout()
    return fig


def _hits_panel(ax, summary: dict) -> None:  # noqa: ANN001
    """Hits@1 / Hits@10 per question type, overall first; the answerable count under each name."""
    import numpy as np

    groups = summary.get("breakdown", {}).get("qtype", {})
    names = ["all", *groups]
    counts = [summary.get("n_answerable", 0)] + [row.get("n_answerable", row["n"]) for row in groups.values()]
    h1 = [summary.get("hits_at_1")] + [row["hits_at_1"] for row in groups.values()]
    h10 = [summary.get("hits_at_10")] + [row["hits_at_10"] for row in groups.values()]
    x = np.arange(len(names))
    for offset, values, label, colour in ((-0.2, h1, "Hits@1", "#4c72b0"), (0.2, h10, "Hits@10", "#a1c4e8")):
        bars = ax.bar(x + offset, [v or 0.0 for v in values], 0.38, label=label, color=colour)
        for bar, value in zip(bars, values):
            shown = "–" if value is None else f"{value:.2f}"
            ax.annotate(shown, (bar.get_x() + bar.get_width() / 2, value or 0.0), ha="center", va="bottom", fontsize=7)
    ax.set_xticks(x, [f"{n}\nn={c}" for n, c in zip(names, counts)], fontsize=8)
    ax.set_ylim(0, 1.25)  # room above the bars for the legend
    ax.set_ylabel("share of answerable questions")
    ax.set_title("Hits@1 and Hits@10 by question type (n: answerable questions)", fontsize=10)
    ax.legend(loc="upper right", fontsize=8, ncols=2)


def _risk_panel(ax, summary: dict) -> None:  # noqa: ANN001
    """Risk (share wrong) among the most confident answers, against coverage."""
    curve = summary.get("risk_coverage") or []
    if not curve:
        ax.text(0.5, 0.5, "no risk-coverage curve in this summary", ha="center", va="center", transform=ax.transAxes)
        ax.set_axis_off()
        return
    coverage, risk = zip(*curve)
    ax.plot(coverage, risk, marker="o", markersize=3, color="#c44e52")
    ax.axhline(risk[-1], color="0.6", lw=0.8, ls="--")
    ax.set_xlim(0, 1.02)
    ax.set_ylim(0, max(0.05, max(risk) * 1.25))
    ax.set_xlabel("coverage (most confident answers first)")
    ax.set_ylabel("risk (share of them wrong)")
    aurc = summary.get("aurc")
    ax.set_title("Risk-coverage" + ("" if aurc is None else f" (AURC {aurc:.3f})"), fontsize=10)


def _abstention_panel(ax, summary: dict) -> None:  # noqa: ANN001
    names = ["precision", "recall", "F1", "false-unknown\nrate"]
    values = [summary.get(k) for k in ("abstain_precision", "abstain_recall", "abstain_f1", "false_unknown_rate")]
    bars = ax.bar(names, [v or 0.0 for v in values], color=["#55a868", "#55a868", "#55a868", "#c44e52"])
    for bar, value in zip(bars, values):
        ax.annotate("–" if value is None else f"{value:.3f}", (bar.get_x() + bar.get_width() / 2, value or 0.0),
                    ha="center", va="bottom", fontsize=8)
    ax.set_ylim(0, 1.12)
    ax.tick_params(axis="x", labelsize=8)
    ax.set_title(f"Abstention: {summary.get('abstained')} abstained, {summary.get('n_unanswerable')} unanswerable",
                 fontsize=10)


def _kinds_panel(ax, summary: dict) -> None:  # noqa: ANN001
    """Abstention rate by kind of unanswerable question, and on the answerable ones (false unknowns)."""
    kinds = summary.get("breakdown", {}).get("unanswerable_reason", {})
    names = [*kinds, "answerable"]
    rates = [row["abstain_rate"] for row in kinds.values()] + [summary.get("false_unknown_rate")]
    counts = [row["n"] for row in kinds.values()] + [summary.get("n_answerable")]
    bars = ax.barh(names, [r or 0.0 for r in rates], height=0.5, color=["#55a868"] * len(kinds) + ["#c44e52"])
    for bar, rate, n in zip(bars, rates, counts):
        shown = "–" if rate is None else f"{rate:.1%} of {n}"
        ax.annotate(shown, (min(rate or 0.0, 0.75), bar.get_y() + bar.get_height() / 2), xytext=(3, 0),
                    textcoords="offset points", va="center", fontsize=8)
    ax.set_xlim(0, 1.0)
    ax.invert_yaxis()
    ax.tick_params(axis="y", labelsize=8)
    ax.set_xlabel("share abstained")
    ax.set_title("Abstained, by kind of question", fontsize=10)


def _reasons_panel(ax, reasons: list[tuple[str, int]]) -> None:  # noqa: ANN001
    names = [name for name, _ in reasons]
    counts = [n for _, n in reasons]
    bars = ax.barh(names, counts, height=0.6, color="#8172b2")
    for bar, n in zip(bars, counts):
        ax.annotate(str(n), (bar.get_width(), bar.get_y() + bar.get_height() / 2), xytext=(3, 0),
                    textcoords="offset points", va="center", fontsize=8)
    ax.set_xlim(0, max(counts) * 1.2)
    ax.invert_yaxis()
    ax.tick_params(axis="y", labelsize=8)
    ax.set_xlabel("abstentions")
    ax.set_title("Reasons the agent gave for abstaining", fontsize=10)


# The answerability judge's messages (agents/judge.py) by kind; the names and times inside them vary.
REASON_KINDS = (
    (r"^no entity of the question is in the KG|^no known entity", "no entity in the KG"),
    (r"^the KG has no entity named", "an unknown name"),
    (r"^the KG covers", "time outside the KG"),
    (r"^no fact links .* through", "relation not between them"),
    (r"^no fact links", "entities never linked"),
    (r"^the KG has no fact about", "no facts about the entity"),
)


def stated_reasons(records: list[dict]) -> list[tuple[str, int]]:
    """The commonest kinds of reason among a run's abstentions (an unknown message: its first words)."""
    kinds = Counter(reason_kind(r.get("reason") or "") for r in records if r.get("abstained"))
    common = kinds.most_common(MAX_REASONS)
    rest = sum(kinds.values()) - sum(n for _, n in common)
    return common + ([("other", rest)] if rest else [])


def reason_kind(reason: str) -> str:
    for pattern, kind in REASON_KINDS:
        if re.search(pattern, reason):
            return kind
    words = reason.split()
    return " ".join(words[:4]) + (" …" if len(words) > 4 else "") if words else "(no reason given)"


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else "…" + text[-(width - 1):]


def report_html(summary: dict, svg: str) -> str:
    """One offline page: the picture (inline SVG) and the tables of report.md."""
    config = summary.get("config", {})
    title = f"{config.get('dataset', 'benchmark')} run report"
    svg = svg[svg.index("<svg"):]  # drop the XML prologue: the SVG sits inside the HTML
    rows = "".join(f"<tr><td>{k}</td><td class=n>{fmt(summary.get(k))}</td></tr>" for k in TABLE_KEYS)
    tables = [f"<h2>Metrics</h2><table>{rows}</table>"]
    shapes = summary.get("by_shape") or {}
    if shapes:
        head = "".join(f"<th>{h}</th>" for h in ("shape", *SHAPE_COLUMNS))
        body = "".join(f"<tr><td>{html.escape(shape)}</td>" + "".join(f"<td class=n>{fmt(row[k])}</td>" for k in SHAPE_COLUMNS)
                       + "</tr>" for shape, row in shapes.items())
        tables.append(f"<h2>By shape</h2><table><tr>{head}</tr>{body}</table>")
    for attribute, groups in summary.get("breakdown", {}).items():
        if not groups:
            continue
        head = "".join(f"<th>{h}</th>" for h in (attribute, "n", "answerable", "Hits@1", "Hits@10", "accuracy",
                                                  "abstain rate"))
        body = "".join(
            f"<tr><td>{html.escape(str(value))}</td><td class=n>{row['n']}</td>"
            f"<td class=n>{row.get('n_answerable', '–')}</td><td class=n>{fmt(row['hits_at_1'])}</td>"
            f"<td class=n>{fmt(row['hits_at_10'])}</td><td class=n>{fmt(row['accuracy'])}</td>"
            f"<td class=n>{fmt(row['abstain_rate'])}</td></tr>"
            for value, row in groups.items()
        )
        tables.append(f"<h2>By {html.escape(attribute)}</h2><table><tr>{head}</tr>{body}</table>")
    meta = html.escape(json.dumps({k: config.get(k) for k in ("questions_file", "split", "sample", "shard", "git_commit")}))
    return (
        f"<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8><title>{html.escape(title)}</title><style>"
        "body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1420px;color:#222}"
        "svg{max-width:100%;height:auto}table{border-collapse:collapse;margin:6px 0}"
        "td,th{border:1px solid #ddd;padding:3px 8px;text-align:left}td.n{text-align:right}"
        f"</style></head><body><h1>{html.escape(title)}</h1><p><code>{meta}</code></p>{svg}"
        + "".join(tables) + "</body></html>\n"
    )


TABLE_KEYS = (
    "n", "n_answerable", "n_unanswerable", "hits_at_1", "hits_at_10", "accuracy", "abstain_rate", "abstain_precision",
    "abstain_recall", "abstain_f1", "false_unknown_rate", "aurc", "mean_steps", "questions_per_second",
)
