"""report.md (Markdown tables) and report.png (Hits@1 by question type) from a run's summary."""

from __future__ import annotations

from pathlib import Path

REPORT_MD = "report.md"
REPORT_PNG = "report.png"


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


def write_report(out_dir: Path, summary: dict) -> list[Path]:
    """Write report.md and report.png into `out_dir`; return their paths."""
    out_dir = Path(out_dir)
    md = out_dir / REPORT_MD
    md.write_text(markdown(summary), encoding="utf-8")
    png = out_dir / REPORT_PNG
    chart(summary, png)
    return [md, png]


def chart(summary: dict, path: Path) -> None:
    """Bar chart of Hits@1 (answerable) or accuracy (unanswerable-only runs) per question type."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    groups = summary.get("breakdown", {}).get("qtype", {})
    metric = "hits_at_1" if summary.get("n_answerable") else "accuracy"
    names = list(groups)
    values = [groups[name][metric] or 0.0 for name in names]
    fig, ax = plt.subplots(figsize=(max(4.0, 1.1 * len(names) + 1.5), 3.5))
    bars = ax.bar(names, values, color="#4c72b0")
    for bar, value in zip(bars, values):
        ax.annotate(f"{value:.2f}", (bar.get_x() + bar.get_width() / 2, value), ha="center", va="bottom", fontsize=8)
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("Hits@1" if metric == "hits_at_1" else "accuracy")
    title = summary.get("config", {}).get("dataset", "run")
    ax.set_title(f"{title}: {metric} by question type (n={summary.get('n')})")
    ax.tick_params(axis="x", labelrotation=30)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
