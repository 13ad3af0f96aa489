"""Looking into a memory: per-cluster summaries, JSON / Markdown export, and a 2-D cluster picture."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import asdict, dataclass, field

from ari.base.errors import UsageError
from memory.history import HistoryStore
from memory.induction import ARROW
from memory.trace import Trace
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


def require_clustering(history: HistoryStore, version: int | None) -> int:
    version = version if version is not None else history.latest_version()
    if version is None:
        raise UsageError(f"the memory {history.where} has not been clustered yet; run `ari memory learn` first")
    return version


def cluster_summaries(history: HistoryStore, version: int | None = None, top: int = 3) -> list[ClusterSummary]:
    """Size, outcomes and most common masked questions of each cluster of a clustering version."""
    groups = clustered_traces(history, require_clustering(history, version))
    return [summarize(cluster_id, [t for _, t in groups[cluster_id]], top) for cluster_id in sorted(groups)]


def clustered_traces(history: HistoryStore, version: int) -> dict[int, list[tuple[int, Trace]]]:
    """The (trace id, trace) pairs of each cluster of a clustering version, read in one pass."""
    cluster_of = {m.trace_id: m.cluster_id for m in history.members(version)}
    groups: dict[int, list[tuple[int, Trace]]] = {}
    for record in history.records():
        if record.id in cluster_of:
            groups.setdefault(cluster_of[record.id], []).append((record.id, record.trace))
    return groups


def summarize(cluster_id: int, traces: list[Trace], top: int = 3) -> ClusterSummary:
    """One cluster's size, outcomes and most common masked questions."""
    outcomes = Counter(t.outcome for t in traces)
    labelled = outcomes["correct"] + outcomes["wrong"] + outcomes["abstained"]
    return ClusterSummary(
        cluster_id=cluster_id,
        size=len(traces),
        correct=outcomes["correct"],
        wrong=outcomes["wrong"],
        abstained=outcomes["abstained"],
        accuracy=round(outcomes["correct"] / labelled, 4) if labelled else None,
        top_questions=Counter(t.masked_question for t in traces).most_common(top),
    )


def methodology(history: HistoryStore, cluster_id: int, version: int | None = None) -> Methodology:
    version = require_clustering(history, version)
    found = history.methodologies(version)
    if cluster_id not in found:
        known = ", ".join(str(c) for c in sorted(found))
        raise UsageError(f"no cluster {cluster_id} in clustering version {version} (clusters: {known})")
    return found[cluster_id]


def export(history: HistoryStore, fmt: str, version: int | None = None) -> str:
    """The latest (or a given) clustering with its summaries and methodologies, as JSON, Markdown or
    a self-contained HTML page (memory.html_export)."""
    if fmt not in ("json", "markdown", "html"):
        raise UsageError(f"unknown export format {fmt!r} (json | markdown | html)")
    version = require_clustering(history, version)
    if fmt == "html":
        from memory.html_export import export_html  # plotly is only needed here

        return export_html(history, version)
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
    lines += [f"| `{ARROW.join(p.program)}` | {p.support} | {p.success_rate:.0%} |" for p in m.programs]
    lines += [f"| pitfall: `{ARROW.join(p.program)}` | {p.support} | {p.success_rate:.0%} |" for p in m.pitfalls]
    return lines
