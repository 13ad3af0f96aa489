"""The memory as one self-contained HTML page: an interactive cluster map and what was induced per cluster.

The map is a plotly figure with plotly's JavaScript inlined, so the file opens offline. Hovering a
point shows its cluster's size, accuracy and most common masked questions; the largest clusters whose
labels fit are named on the map. Below it, for every cluster: its methodology, its programs with
support and success rate, and its pitfalls.
"""

from __future__ import annotations

import html
from collections.abc import Iterable

import numpy as np

from memory.history import HistoryStore
from memory.plots import ClusterMap, cluster_colours, cluster_map, dot_sizes, label_order, label_text, stacked
from memory.types import ALL_TRACES, Methodology, ProgramStat

MAX_POINTS = 40_000  # distinct places drawn at most (traces sharing a place are one dot): keeps the page light
MAP_WIDTH, MAP_HEIGHT = 1100, 700  # pixels of the map, also used to keep its labels apart
LABEL_CHAR_PX, LABEL_LINE_PX = 6.6, 18  # size of a character / line of an 11px label, in pixels


def export_html(history: HistoryStore, version: int | None = None, max_labels: int = 20) -> str:
    """The whole page, as text."""
    cmap = cluster_map(history, version)
    clustering = history.clustering(cmap.version)
    methods = history.methodologies(cmap.version)
    figure = map_figure(cmap, max_labels)
    plot = figure.to_html(full_html=False, include_plotlyjs=True, div_id="cluster-map",
                          config={"displaylogo": False, "responsive": True})
    title = f"ARI memory: {len(cmap.x)} traces in {cmap.k} clusters (clustering v{cmap.version})"
    parts = [
        f"<h1>{_e(title)}</h1>",
        f"<p class=meta>{_e(history.where)} · embeddings <code>{_e(clustering.model)}</code> · "
        f"{_e(clustering.created_at)}</p>",
        "<p>Each dot is a place in the first two principal components of the clustering keys; its area grows "
        "with the stored traces there. Hover a dot for its cluster's size, accuracy and most common masked "
        "questions.</p>",
        plot,
        _overview(cmap),
        *(_cluster_section(cmap, c, methods.get(c)) for c in cmap.by_size()),
    ]
    if ALL_TRACES in methods:
        parts.append(_methodology_section("all-traces", "Methodology induced from every trace (no clustering)",
                                          methods[ALL_TRACES]))
    return _page(title, "\n".join(parts))


def map_figure(cmap: ClusterMap, max_labels: int = 20):  # noqa: ANN201 (a plotly Figure)
    """One scatter trace per cluster (hover: the cluster's summary); the largest clusters labelled where room allows."""
    import plotly.graph_objects as go

    x, y, count, (cluster,) = stacked(cmap, [cmap.cluster.astype(float)])
    keep = np.zeros(len(count), dtype=bool)
    keep[np.argsort(-count, kind="stable")[:MAX_POINTS]] = True  # the places standing for most traces
    sizes = np.sqrt(dot_sizes(count)) * 1.3  # plotly sizes are diameters
    colours = cluster_colours(cmap.k)
    fig = go.Figure()
    for i, cluster_id in enumerate(sorted(cmap.summaries)):
        mask = keep & (cluster == cluster_id)
        r, g, b = (int(255 * v) for v in colours[i])
        fig.add_trace(go.Scattergl(
            x=np.round(x[mask], 5), y=np.round(y[mask], 5), mode="markers", name=f"cluster {cluster_id}",
            marker={"size": np.round(sizes[mask], 1), "color": f"rgba({r},{g},{b},0.6)"},
            hovertemplate=_hover(cmap, cluster_id), hoverlabel={"align": "left"},
        ))
    labelled = pick_labels(cmap, label_order(cmap)[:max_labels])
    for cluster_id in labelled:  # boxed annotations: readable over the dots
        cx, cy = cmap.centroid(cluster_id)
        fig.add_annotation(x=cx, y=cy, text=label_text(cmap.summaries[cluster_id]), showarrow=False, yshift=10,
                           font={"size": 11, "color": "black"}, bgcolor="rgba(255,255,255,0.85)",
                           bordercolor="#777", borderwidth=1, borderpad=2, name=f"cluster-label-{cluster_id}")
    shown = "" if keep.all() else f" (the {int(keep.sum())} most used of {len(keep)} places drawn)"
    fig.update_layout(
        title={"text": f"{cmap.k} clusters{shown}; labelled: the {len(labelled)} largest whose labels fit, "
                       "the rest on hover", "font": {"size": 14}},
        width=MAP_WIDTH, height=MAP_HEIGHT, template="plotly_white", showlegend=cmap.k <= 12,
        xaxis_title="PC 1 of the clustering keys", yaxis_title="PC 2", margin={"l": 60, "r": 20, "t": 50, "b": 50},
        hovermode="closest",
    )
    return fig


def pick_labels(cmap: ClusterMap, order: list[int]) -> list[int]:
    """Clusters, in order, whose label boxes (estimated from the text's length) stay apart on the map."""
    x0, x1 = float(cmap.x.min()), float(cmap.x.max())
    y0, y1 = float(cmap.y.min()), float(cmap.y.max())
    sx = MAP_WIDTH * 0.85 / max(x1 - x0, 1e-9)  # pixels per data unit, about the plotting area
    sy = MAP_HEIGHT * 0.8 / max(y1 - y0, 1e-9)
    boxes: list[tuple[float, float, float, float]] = []
    chosen = []
    for cluster_id in order:
        cx, cy = cmap.centroid(cluster_id)
        half_w = len(label_text(cmap.summaries[cluster_id])) * LABEL_CHAR_PX / 2 + 4
        box = ((cx - x0) * sx - half_w, (cy - y0) * sy, (cx - x0) * sx + half_w,
               (cy - y0) * sy + LABEL_LINE_PX)  # drawn just above the centroid
        if not any(_overlap(box, other) for other in boxes):
            boxes.append(box)
            chosen.append(cluster_id)
    return chosen


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _hover(cmap: ClusterMap, cluster_id: int) -> str:
    s = cmap.summaries[cluster_id]
    accuracy = "–" if s.accuracy is None else f"{s.accuracy:.0%}"
    lines = [f"<b>cluster {cluster_id}</b>: {s.size} traces, accuracy {accuracy}",
             f"{s.correct} correct, {s.wrong} wrong, {s.abstained} abstained", "most common masked questions:"]
    lines += [f"{n}× {_e(_clip(q, 90))}" for q, n in s.top_questions]
    return "<br>".join(lines) + "<extra></extra>"


def _overview(cmap: ClusterMap) -> str:
    rows = []
    for c in cmap.by_size():
        s = cmap.summaries[c]
        accuracy = "–" if s.accuracy is None else f"{s.accuracy:.1%}"
        example = _e(s.top_questions[0][0]) if s.top_questions else ""
        rows.append(f"<tr><td><a href='#cluster-{c}'>{c}</a></td><td class=n>{s.size}</td>"
                    f"<td class=n>{accuracy}</td><td>{example}</td></tr>")
    return ("<h2>Clusters, largest first</h2><div class=scroll><table><tr><th>cluster</th><th>size</th>"
            "<th>accuracy</th><th>most common masked question</th></tr>" + "".join(rows) + "</table></div>"
            "<p>Below, each cluster (largest first): its most common masked questions, the methodology induced "
            "from it, the programs it was induced from (support: correct traces that followed the program) "
            "and its pitfalls (programs that never succeeded here).</p>")


def _cluster_section(cmap: ClusterMap, cluster_id: int, methodology: Methodology | None) -> str:
    s = cmap.summaries[cluster_id]
    accuracy = "–" if s.accuracy is None else f"{s.accuracy:.1%}"
    head = (f"<p>{s.size} traces: {s.correct} correct, {s.wrong} wrong, {s.abstained} abstained "
            f"(accuracy {accuracy}).</p><ul class=questions>"
            + "".join(f"<li><code>{_e(q)}</code> ({n})</li>" for q, n in s.top_questions) + "</ul>")
    title = f"Cluster {cluster_id}"
    if methodology is None:
        return f"<section id='cluster-{cluster_id}'><h2>{title}</h2>{head}<p><i>no methodology stored</i></p></section>"
    return _methodology_section(f"cluster-{cluster_id}", title, methodology, head)


def _methodology_section(anchor: str, title: str, m: Methodology, head: str = "") -> str:
    return (f"<section id='{anchor}'><h2>{_e(title)}</h2>{head}<h3>Methodology ({_e(m.source)})</h3>"
            f"<pre>{_e(m.text)}</pre>{_programs('Programs', m.programs, 'correct traces')}"
            f"{_programs('Pitfalls', m.pitfalls, 'traces, none correct')}</section>")


def _programs(title: str, programs: Iterable[ProgramStat], support: str) -> str:
    rows = "".join(
        f"<tr><td><code>{_e(p.program.render())}</code></td><td class=n>{p.support}</td>"
        f"<td class=n>{p.success_rate:.0%}</td></tr>" for p in programs
    )
    if not rows:
        return f"<h3>{title}</h3><p><i>none</i></p>"
    return (f"<h3>{title}</h3><table><tr><th>program</th><th>support ({support})</th><th>success</th></tr>"
            f"{rows}</table>")


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _e(text: object) -> str:
    return html.escape(str(text))


STYLE = """
body { font: 14px/1.45 system-ui, sans-serif; margin: 24px auto; max-width: 1160px; color: #222; }
h1 { font-size: 22px; margin-bottom: 4px; } h2 { font-size: 18px; margin-top: 28px; border-bottom: 1px solid #ddd; }
h3 { font-size: 15px; margin-bottom: 4px; } .meta { color: #666; margin-top: 0; }
table { border-collapse: collapse; margin: 6px 0; } td, th { border: 1px solid #ddd; padding: 3px 8px; text-align: left; }
td.n { text-align: right; } pre { background: #f6f6f6; padding: 8px; white-space: pre-wrap; }
code { font-size: 12.5px; } ul.questions { margin: 4px 0; }
div.scroll { max-height: 330px; overflow-y: auto; display: inline-block; border-bottom: 1px solid #ddd; }
"""


def _page(title: str, body: str) -> str:
    return (f"<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8><title>{_e(title)}</title>"
            f"<style>{STYLE}</style></head><body>\n{body}\n</body></html>\n")
