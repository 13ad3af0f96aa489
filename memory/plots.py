"""The memory's cluster map as a PNG that stays readable from 10 to 200 clusters.

Every trace sits at its 2-D position (PCA of the clustering keys, stored at learning time). What makes
the picture readable at any K: a legend only when it fits beside the map, cluster labels only where
their drawn boxes do not collide (largest or selected clusters first), and a title naming what was
plotted. The data (`ClusterMap`) is shared with the HTML export.
"""

from __future__ import annotations

import textwrap
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ari.base.errors import UsageError
from memory.history import HistoryStore
from memory.inspection import ClusterSummary, member_rows, require_clustering, rows_by_cluster, summarize

if TYPE_CHECKING:
    from matplotlib.transforms import Bbox

COLOR_BY = ("cluster", "accuracy", "qtype")
MAX_LEGEND = 12  # entries a legend beside the map holds without crowding it
MAX_LABELS = 20  # labelled clusters at most; the rest are named on hover in the HTML export
NO_QTYPE = "(none)"


@dataclass
class ClusterMap:
    """What the pictures draw: each member's position, cluster and question type, and each cluster's summary."""

    version: int
    x: np.ndarray  # float [n]
    y: np.ndarray  # float [n]
    cluster: np.ndarray  # int [n]
    qtype: list[str]  # [n]
    summaries: dict[int, ClusterSummary] = field(default_factory=dict)
    where: str = ""  # the memory's path or URL, for titles

    @property
    def k(self) -> int:
        return len(self.summaries)

    def centroid(self, cluster_id: int) -> tuple[float, float]:
        """The members' mean: PCA is linear, so it is where the cluster's centroid projects."""
        mask = self.cluster == cluster_id
        return float(self.x[mask].mean()), float(self.y[mask].mean())

    def by_size(self) -> list[int]:
        """Cluster ids, largest first."""
        return sorted(self.summaries, key=lambda c: (-self.summaries[c].size, c))


def cluster_map(history: HistoryStore, version: int | None = None, top: int = 5) -> ClusterMap:
    """Read a clustering version's members and summaries from the memory."""
    version = require_clustering(history, version)
    rows = member_rows(history, version)
    groups = rows_by_cluster(rows)
    summaries = {c: summarize(c, groups[c], top) for c in sorted(groups)}
    return ClusterMap(
        version,
        np.array([r.x for r in rows], float),
        np.array([r.y for r in rows], float),
        np.array([r.cluster_id for r in rows], int),
        [r.qtype or NO_QTYPE for r in rows],
        summaries,
        history.where,
    )


def label_text(summary: ClusterSummary) -> str:
    accuracy = "" if summary.accuracy is None else f", {summary.accuracy:.0%}"
    return f"{summary.cluster_id} (n={summary.size}{accuracy})"


def label_order(cmap: ClusterMap, selected: list[int] | None = None) -> list[int]:
    """Which clusters get a label first: the selected ones, then the largest."""
    selected = list(selected or [])
    unknown = [c for c in selected if c not in cmap.summaries]
    if unknown:
        known = ", ".join(str(c) for c in sorted(cmap.summaries))
        raise UsageError(f"no cluster {unknown[0]} in clustering version {cmap.version} (clusters: {known})")
    return selected + [c for c in cmap.by_size() if c not in selected]


def cluster_colours(k: int) -> list[tuple[float, float, float]]:
    """K distinguishable colours: tab10/tab20 while they last, then hues spaced by the golden angle."""
    import matplotlib.colors as mcolors
    from matplotlib import colormaps

    if k <= 10:
        return [colormaps["tab10"](i)[:3] for i in range(k)]
    if k <= 20:
        return [colormaps["tab20"](i)[:3] for i in range(k)]
    return [tuple(mcolors.hsv_to_rgb(((i * 0.618034) % 1.0, 0.55 + 0.35 * (i % 3) / 2, 0.85 - 0.2 * (i % 2))))
            for i in range(k)]


def plot_cluster_map(
    history: HistoryStore,
    out: str | Path,
    color: str = "cluster",
    max_labels: int = MAX_LABELS,
    selected: list[int] | None = None,
    version: int | None = None,
) -> Path:
    """Write the cluster map of a memory as a PNG; returns its path."""
    if color not in COLOR_BY:
        raise UsageError(f"unknown --color {color!r} ({' | '.join(COLOR_BY)})")
    cmap = cluster_map(history, version)
    import matplotlib.pyplot as plt

    fig = draw_cluster_map(cmap, color, max_labels, selected)
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out)
    plt.close(fig)
    return out


def draw_cluster_map(cmap: ClusterMap, color: str = "cluster", max_labels: int = MAX_LABELS,
                     selected: list[int] | None = None):  # noqa: ANN201 (a matplotlib Figure)
    """The cluster map as a matplotlib Figure (laid out once; labels are placed after the layout)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    order = label_order(cmap, selected)
    fig, ax = plt.subplots(figsize=(11, 7.5), dpi=110)
    side = _draw_points(fig, ax, cmap, color)
    ax.set_xlabel("PC 1 of the clustering keys")
    ax.set_ylabel("PC 2")
    ax.set_title(_title(cmap, color, min(max_labels, cmap.k), bool(selected)), fontsize=10, loc="left")
    fig.tight_layout()  # with a title as long as the final one
    if side is not None:  # a legend or colour bar outside the axes: keep its room after tight_layout
        fig.canvas.draw()
    labelled = place_labels(fig, ax, cmap, order[: max(max_labels, len(selected or []))])
    ax.set_title(_title(cmap, color, len(labelled), bool(selected)), fontsize=10, loc="left")
    return fig


def _title(cmap: ClusterMap, color: str, labelled: int, selected: bool = False) -> str:
    coloured = {"cluster": "one colour per cluster", "accuracy": "coloured by cluster accuracy",
                "qtype": "coloured by question type"}[color]
    first = f"ARI memory: {len(cmap.x)} traces in {cmap.k} clusters (clustering v{cmap.version}), {coloured}"
    which = "selected and largest" if selected else "largest"
    second = (f"labels: cluster (size, accuracy) for the {labelled} {which} clusters whose labels do not overlap"
              if labelled < cmap.k else "labels: cluster (size, accuracy)")
    return "\n".join(textwrap.wrap(first, 110) + textwrap.wrap(second + "; a dot's area grows with the traces at its place", 120))


def _draw_points(fig, ax, cmap: ClusterMap, color: str):  # noqa: ANN001, ANN202
    """Scatter the traces; add a legend or colour bar only where it fits. Returns it (or None)."""
    if color == "accuracy":
        accuracy = np.array([np.nan if cmap.summaries[c].accuracy is None else cmap.summaries[c].accuracy
                             for c in cmap.cluster])
        x, y, count, (value,) = stacked(cmap, [accuracy])
        known = ~np.isnan(value)
        sizes = dot_sizes(count)
        ax.scatter(x[~known], y[~known], s=sizes[~known], color="0.7", **_DOTS)
        points = ax.scatter(x[known], y[known], s=sizes[known], c=value[known], cmap="RdYlGn", vmin=0, vmax=1, **_DOTS)
        bar = fig.colorbar(points, ax=ax, fraction=0.04, pad=0.02)
        bar.set_label("accuracy of the trace's cluster")
        bar.solids.set_alpha(1)
        return bar
    if color == "qtype":
        kinds = [q for q, _ in Counter(cmap.qtype).most_common()]
        shown = kinds if len(kinds) <= MAX_LEGEND else kinds[: MAX_LEGEND - 1]
        colours = dict(zip(shown, cluster_colours(len(shown))))
        kind_index = {q: i for i, q in enumerate(kinds)}
        x, y, count, (kind,) = stacked(cmap, [np.array([kind_index[q] for q in cmap.qtype], float)])
        sizes = dot_sizes(count)
        for i, name in enumerate(kinds):
            mask = kind == i
            label = name if name in colours else None
            ax.scatter(x[mask], y[mask], s=sizes[mask], color=colours.get(name, (0.6, 0.6, 0.6)), label=label, **_DOTS)
        if len(shown) < len(kinds):
            ax.scatter([], [], color=(0.6, 0.6, 0.6), label=f"{len(kinds) - len(shown)} other types")
        return _legend_beside(ax, "question type")
    palette = cluster_colours(cmap.k)
    index = {c: i for i, c in enumerate(sorted(cmap.summaries))}
    x, y, count, (cluster,) = stacked(cmap, [cmap.cluster.astype(float)])
    sizes = dot_sizes(count)
    if cmap.k > MAX_LEGEND:
        ax.scatter(x, y, s=sizes, c=np.array([palette[index[int(c)]] for c in cluster]).reshape(-1, 3), **_DOTS)
        return None
    for c in sorted(cmap.summaries):
        mask = cluster == c
        ax.scatter(x[mask], y[mask], s=sizes[mask], color=palette[index[c]], label=f"cluster {c}", **_DOTS)
    return _legend_beside(ax, "cluster")


_DOTS = {"alpha": 0.55, "linewidths": 0, "rasterized": True}


def stacked(cmap: ClusterMap, keys: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[np.ndarray]]:
    """Traces that share a position and a colour key drawn once (many traces share a question shape):
    the distinct (x, y, key...) with how many traces each stands for."""
    table = np.column_stack([cmap.x, cmap.y, *keys]) if len(cmap.x) else np.zeros((0, 2 + len(keys)))
    table = np.where(np.isnan(table), -1e300, table)  # unique() treats NaNs as distinct
    distinct, count = np.unique(table, axis=0, return_counts=True)
    distinct = np.where(distinct == -1e300, np.nan, distinct)
    return distinct[:, 0], distinct[:, 1], count, [distinct[:, 2 + i] for i in range(len(keys))]


def dot_sizes(count: np.ndarray) -> np.ndarray:
    """Dot areas: smaller as dots grow many, larger (by the square root) as a dot stands for more traces."""
    base = float(np.clip(15000 / max(len(count), 1), 4.0, 24.0))
    return base * np.clip(np.sqrt(count / max(float(np.median(count)), 1.0)), 0.6, 8.0)


def _legend_beside(ax, title: str):  # noqa: ANN001, ANN202
    """A legend to the right of the axes, never over the points."""
    legend = ax.legend(title=title, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, markerscale=8 / 3,
                       frameon=False)
    for handle in legend.legend_handles:
        handle.set_alpha(1)
        handle.set_sizes([30])
    return legend


def place_labels(fig, ax, cmap: ClusterMap, candidates: list[int]) -> list[int]:  # noqa: ANN001
    """Label clusters in the given order at their centroids (or just beside them, with a leader line),
    keeping a label only where its box lies inside the axes and overlaps no earlier label.
    Returns the labelled cluster ids; each label's gid is `cluster-label-<id>`."""
    renderer = fig.canvas.get_renderer()
    frame = ax.get_window_extent(renderer)
    placed: list[Bbox] = []
    labelled = []
    offsets = [(0, 0), (0, 14), (0, -14), (40, 0), (-40, 0), (30, 16), (-30, 16), (30, -16), (-30, -16)]
    for cluster_id in candidates:
        summary = cmap.summaries[cluster_id]
        xy = cmap.centroid(cluster_id)
        for dx, dy in offsets:
            text = ax.annotate(
                label_text(summary), xy, xytext=(dx, dy), textcoords="offset points", fontsize=7.5,
                ha="center", va="center", gid=f"cluster-label-{cluster_id}",
                bbox={"boxstyle": "round,pad=0.25", "fc": "white", "alpha": 0.85, "ec": "0.4", "lw": 0.6},
                arrowprops=None if (dx, dy) == (0, 0) else {"arrowstyle": "-", "color": "0.3", "lw": 0.6},
            )
            box = text.get_window_extent(renderer).padded(4)  # the text and its rounded box
            inside = frame.contains(box.x0, box.y0) and frame.contains(box.x1, box.y1)
            if inside and not any(box.overlaps(other) for other in placed):
                placed.append(box.padded(2))
                labelled.append(cluster_id)
                break
            text.remove()
    return labelled


def text_outside_figure(fig) -> list[str]:  # noqa: ANN001
    """Every drawn text of a figure whose extent leaves the figure's bounds (for checks).

    Tick labels count only for ticks inside the axis limits: matplotlib keeps, undrawn, a few beyond them."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    width, height = fig.bbox.width, fig.bbox.height
    outside = []
    for text in drawn_texts(fig):
        box = text.get_window_extent(renderer)
        if box.x0 < -0.5 or box.y0 < -0.5 or box.x1 > width + 0.5 or box.y1 > height + 0.5:
            outside.append(text.get_text())
    return outside


def drawn_texts(fig) -> list:  # noqa: ANN001
    """The visible, non-empty texts of a figure, tick labels only within their axis' limits."""
    from matplotlib.text import Text

    texts = []
    for text in fig.findobj(Text):
        if not text.get_visible() or not text.get_text():
            continue
        tick = _tick_of(text, fig)
        if tick is not None and not _tick_in_view(*tick):
            continue
        texts.append(text)
    return texts


def _tick_of(text, fig):  # noqa: ANN001, ANN202
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            for tick in axis.get_major_ticks() + axis.get_minor_ticks():
                if text is tick.label1 or text is tick.label2:
                    return axis, tick
    return None


def _tick_in_view(axis, tick) -> bool:  # noqa: ANN001
    low, high = sorted(axis.get_view_interval())
    location = tick.get_loc()
    return location is not None and low - 1e-9 * abs(high - low) <= location <= high + 1e-9 * abs(high - low)
