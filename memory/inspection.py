"""Looking into a memory: per-cluster summaries, JSON / Markdown export, and a 2-D cluster picture."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import asdict, dataclass, field

import sqlalchemy as sa

from ari.base.errors import UsageError
from memory.history import HistoryStore, members_table, traces_table
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
    groups = rows_by_cluster(member_rows(history, require_clustering(history, version)))
    return [summarize(cluster_id, groups[cluster_id], top) for cluster_id in sorted(groups)]


@dataclass(frozen=True)
class MemberRow:
    """What the summaries and the map need of one clustered trace (read without parsing its steps)."""

    trace_id: int
    cluster_id: int
    x: float
    y: float
    masked_question: str
    outcome: str | None
    qtype: str | None


def member_rows(history: HistoryStore, version: int) -> list[MemberRow]:
    """Every member of a clustering version with its trace's masked question, outcome and type: one query."""
    m, t = members_table, traces_table
    query = (
        sa.select(m.c.trace_id, m.c.cluster_id, m.c.x, m.c.y, t.c.masked_question, t.c.outcome, t.c.qtype)
        .join(t, t.c.id == m.c.trace_id)
        .where(m.c.version == version)
        .order_by(m.c.trace_id)
    )
    with history.engine.connect() as conn:
        return [MemberRow(*row) for row in conn.execute(query)]


def rows_by_cluster(rows: list[MemberRow]) -> dict[int, list[MemberRow]]:
    groups: dict[int, list[MemberRow]] = {}
    for row in rows:
        groups.setdefault(row.cluster_id, []).append(row)
    return groups


def summarize(cluster_id: int, rows: list[MemberRow], top: int = 3) -> ClusterSummary:
    """One cluster's size, outcomes and most common masked questions."""
    outcomes = Counter(r.outcome for r in rows)
    labelled = outcomes["correct"] + outcomes["wrong"] + outcomes["abstained"]
    return ClusterSummary(
        cluster_id=cluster_id,
        size=len(rows),
        correct=outcomes["correct"],
        wrong=outcomes["wrong"],
        abstained=outcomes["abstained"],
        accuracy=round(outcomes["correct"] / labelled, 4) if labelled else None,
        top_questions=Counter(r.masked_question for r in rows).most_common(top),
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
    lines += [f"| `{p.program.render()}` | {p.support} | {p.success_rate:.0%} |" for p in m.programs]
    lines += [f"| pitfall: `{p.program.render()}` | {p.support} | {p.success_rate:.0%} |" for p in m.pitfalls]
    return lines
