"""Looking into a memory: per-cluster summaries, JSON / Markdown export, and a 2-D cluster picture."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ari.base.errors import UsageError
from memory.history import HistoryStore
from memory.types import ALL_TRACES, Methodology


@dataclass
class ClusterSummary:
    cluster_id: int
    size: int
    correct: int
    wrong: int
    abstained: int
    accuracy: float | None  # correct / labelled traces
    top_questions: list[tuple[str, int]] = field(default_factory=list)  # (masked question, count)


def _require_clustering(history: HistoryStore, version: int | None) -> int:
    version = version if version is not None else history.latest_version()
    if version is None:
        raise UsageError(f"the memory {history.where} has not been clustered yet; run `ari memory learn` first")
    return version


def cluster_summaries(history: HistoryStore, version: int | None = None, top: int = 3) -> list[ClusterSummary]:
    """Size, outcomes and most common masked questions of each cluster of a clustering version."""
    version = _require_clustering(history, version)
    cluster_of = {m.trace_id: m.cluster_id for m in history.members(version)}
    groups: dict[int, list] = {}
    for record in history.records():
        if record.id in cluster_of:
            groups.setdefault(cluster_of[record.id], []).append(record.trace)
    summaries = []
    for cluster_id in sorted(groups):
        traces = groups[cluster_id]
        outcomes = Counter(t.outcome for t in traces)
        labelled = outcomes["correct"] + outcomes["wrong"] + outcomes["abstained"]
        summaries.append(
            ClusterSummary(
                cluster_id=cluster_id,
                size=len(traces),
                correct=outcomes["correct"],
                wrong=outcomes["wrong"],
                abstained=outcomes["abstained"],
                accuracy=round(outcomes["correct"] / labelled, 4) if labelled else None,
                top_questions=Counter(t.masked_question for t in traces).most_common(top),
            )
        )
    return summaries


def methodology(history: HistoryStore, cluster_id: int, version: int | None = None) -> Methodology:
    version = _require_clustering(history, version)
    found = history.methodologies(version)
    if cluster_id not in found:
        known = ", ".join(str(c) for c in sorted(found))
        raise UsageError(f"no cluster {cluster_id} in clustering version {version} (clusters: {known})")
    return found[cluster_id]


def export(history: HistoryStore, fmt: str, version: int | None = None) -> str:
    """The latest (or a given) clustering with its summaries and methodologies, as JSON or Markdown."""
    if fmt not in ("json", "markdown"):
        raise UsageError(f"unknown export format {fmt!r} (json | markdown)")
    version = _require_clustering(history, version)
    clustering = history.clustering(version)
    summaries = cluster_summaries(history, version)
    methods = history.methodologies(version)
    if fmt == "json":
        data = {
            "memory": history.where,
            "clustering": {"version": version, "k": clustering.k, "model": clustering.model,
                           "traces": clustering.n_traces, "created_at": clustering.created_at},
            "clusters": [
                {**asdict(s), "methodology": methods[s.cluster_id].to_dict() if s.cluster_id in methods else None}
                for s in summaries
            ],
            "all_traces_methodology": methods[ALL_TRACES].to_dict() if ALL_TRACES in methods else None,
        }
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    lines = [
        f"# ARI memory: clustering version {version}",
        "",
        f"{clustering.n_traces} traces in {clustering.k} clusters (embeddings: `{clustering.model}`, {clustering.created_at}).",
        "",
        "| cluster | size | accuracy | most common question |",
        "| ---: | ---: | ---: | --- |",
    ]
    for s in summaries:
        accuracy = "-" if s.accuracy is None else f"{s.accuracy:.1%}"
        example = s.top_questions[0][0].replace("|", "\\|") if s.top_questions else ""
        lines.append(f"| {s.cluster_id} | {s.size} | {accuracy} | {example} |")
    for s in summaries:
        lines += ["", f"## Cluster {s.cluster_id}", ""]
        lines += [f"- `{q}` ({n})" for q, n in s.top_questions]
        if s.cluster_id in methods:
            lines += ["", *_markdown_methodology(methods[s.cluster_id])]
    return "\n".join(lines) + "\n"


def _markdown_methodology(m: Methodology) -> list[str]:
    lines = [f"Methodology ({m.source}):", "", "```text", m.text, "```", ""]
    lines += ["| program | support | success |", "| --- | ---: | ---: |"]
    lines += [f"| `{p.program.render()}` | {p.support} | {p.success_rate:.0%} |" for p in m.programs]
    lines += [f"| pitfall: `{p.program.render()}` | {p.support} | {p.success_rate:.0%} |" for p in m.pitfalls]
    return lines


def plot_clusters(history: HistoryStore, out: str | Path, version: int | None = None) -> Path:
    """A PNG of the clustered masked questions in 2-D (PCA at learning time), one colour per cluster,
    each cluster labelled at its centroid with its size and accuracy (cf. Figure 8 of the ARI paper)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    version = _require_clustering(history, version)
    members = history.members(version)
    summaries = {s.cluster_id: s for s in cluster_summaries(history, version)}
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    fig, ax = plt.subplots(figsize=(8, 6), dpi=120)
    cmap = plt.get_cmap("tab10" if len(summaries) <= 10 else "tab20")
    for i, cluster_id in enumerate(sorted(summaries)):
        points = np.array([(m.x, m.y) for m in members if m.cluster_id == cluster_id])
        colour = cmap(i % cmap.N)
        ax.scatter(points[:, 0], points[:, 1], s=14, alpha=0.6, color=colour, label=f"cluster {cluster_id}")
        cx, cy = points.mean(axis=0)  # PCA is linear: the centroid's position is the members' mean
        s = summaries[cluster_id]
        accuracy = "" if s.accuracy is None else f", {s.accuracy:.0%}"
        ax.annotate(f"{cluster_id} (n={s.size}{accuracy})", (cx, cy), fontsize=8, weight="bold",
                    ha="center", bbox={"boxstyle": "round", "fc": "white", "alpha": 0.8, "ec": colour})
    ax.set_title(f"ARI memory: {len(members)} traces in {len(summaries)} clusters (version {version})")
    ax.set_xlabel("PC 1 of masked-question embeddings")
    ax.set_ylabel("PC 2")
    ax.legend(fontsize=7, loc="best", markerscale=1.5)
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)
    return out
