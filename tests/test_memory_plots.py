"""The memory's pictures, looked at as a person would: the PNG map at small and large K, and the HTML page."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from typer.testing import CliRunner

from ari.base.embedding import get_embedder
from ari.base.errors import UsageError
from ari.cli import app
from memory import Memory
from memory.inspection import ClusterSummary
from memory.plots import MAX_LEGEND, ClusterMap, cluster_map, draw_cluster_map, text_outside_figure
from memory.trace import StepRecord, Trace

KINDS = {  # question type: (masked question templates, the program that answers them)
    "equal": ("Who did {E1} %s in {T1}?", ["getTailEntity(E1, R, T)", "answer(#1)"]),
    "first_last": ("When did {E1} first %s {E2}?", ["getTime(E1, R, E2)", "getFirst(#1)", "answer(#2)"]),
    "before_last": ("Before {T1}, who did {E1} last %s?", ["getBefore(E1, R, T)", "getLast(#1)", "answer(#2)"]),
    "after_first": ("After {E2}, who was the first to %s {E1}?",
                    ["getTime(E2, R, E1)", "getAfter(#1)", "getFirst(#2)", "answer(#3)"]),
}
VERBS = ("criticise", "accuse", "visit", "host", "threaten")


@pytest.fixture(scope="module")
def memory_path(tmp_path_factory) -> str:
    """Four kinds of question, five verbs each, two of three attempts right: clustered into four."""
    path = tmp_path_factory.mktemp("plots") / "memory.sqlite"
    traces = []
    for qtype, (template, program) in KINDS.items():
        steps = [StepRecord(i, [s], s, s, 2) for i, s in enumerate(program, 1)]
        for verb in VERBS:
            masked = template % verb
            traces += [Trace(masked, masked, steps, ["x"], outcome=o, qtype=qtype) for o in ("correct", "correct", "wrong")]
    with Memory.open(path, embedder=get_embedder()) as memory:
        memory.history.add_traces(traces)
        memory.learn(n_clusters=4)
    return str(path)


def synthetic_map(k: int, n: int, seed: int = 0) -> ClusterMap:
    """K crowded clusters in 2-D, with sizes and accuracies, as a large memory would give."""
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(k, 2)) * 3
    cluster = rng.integers(0, k, n)
    x, y = centres[cluster, 0] + rng.normal(size=n) * 0.4, centres[cluster, 1] + rng.normal(size=n) * 0.4
    qtype = [f"type{c % 6}" for c in cluster]
    summaries = {c: ClusterSummary(c, int((cluster == c).sum()), 1, 1, 0, round(float(rng.random()), 3)) for c in range(k)}
    return ClusterMap(1, x, y, cluster, qtype, summaries, "synthetic")


def labels(fig) -> dict[int, object]:  # noqa: ANN001
    return {int(t.get_gid().rsplit("-", 1)[1]): t for t in fig.axes[0].texts if (t.get_gid() or "").startswith("cluster-label-")}


def label_boxes_apart_and_inside(fig) -> bool:  # noqa: ANN001
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    frame = fig.axes[0].get_window_extent(renderer)
    boxes = [t.get_window_extent(renderer) for t in labels(fig).values()]
    inside = all(frame.contains(b.x0, b.y0) and frame.contains(b.x1, b.y1) for b in boxes)
    apart = not any(a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[i + 1:])
    return inside and apart


def test_small_memory_map_labels_every_cluster_with_a_legend_beside(memory_path):
    with Memory.open(memory_path) as memory:
        cmap = cluster_map(memory.history)
    fig = draw_cluster_map(cmap, "cluster")
    assert cmap.k == 4 and len(cmap.x) == 60
    assert sorted(labels(fig)) == sorted(cmap.summaries)
    legend = fig.axes[0].get_legend()
    assert legend is not None and len(legend.get_texts()) == 4
    legend_box, axes_box = legend.get_window_extent(), fig.axes[0].get_window_extent()
    assert legend_box.x0 >= axes_box.x1  # beside the points, not over them
    title = fig.axes[0].get_title(loc="left")
    assert "60 traces in 4 clusters" in title and "one colour per cluster" in title
    assert text_outside_figure(fig) == [] and label_boxes_apart_and_inside(fig)


@pytest.mark.parametrize("k", [50, 100, 200])
def test_large_k_map_has_no_legend_and_labels_that_never_collide(k):
    fig = draw_cluster_map(synthetic_map(k, 20 * k), "cluster")
    assert fig.axes[0].get_legend() is None
    drawn = labels(fig)
    assert 5 <= len(drawn) <= 20
    assert f"{k} clusters" in fig.axes[0].get_title(loc="left")
    assert f"for the {len(drawn)} largest clusters" in fig.axes[0].get_title(loc="left")
    assert text_outside_figure(fig) == [] and label_boxes_apart_and_inside(fig)


def test_colour_by_accuracy_has_a_colour_bar_and_by_qtype_a_short_legend():
    cmap = synthetic_map(100, 3000)
    by_accuracy = draw_cluster_map(cmap, "accuracy")
    assert len(by_accuracy.axes) == 2 and "accuracy" in by_accuracy.axes[1].get_ylabel()
    assert text_outside_figure(by_accuracy) == []
    by_qtype = draw_cluster_map(cmap, "qtype")
    legend = by_qtype.axes[0].get_legend()
    assert [t.get_text() for t in legend.get_texts()] == sorted({f"type{i}" for i in range(6)}, key=lambda q: -cmap.qtype.count(q))
    assert len(legend.get_texts()) <= MAX_LEGEND and text_outside_figure(by_qtype) == []


def test_a_selected_small_cluster_is_labelled_first():
    cmap = synthetic_map(120, 2400)
    smallest = min(cmap.summaries, key=lambda c: cmap.summaries[c].size)
    fig = draw_cluster_map(cmap, "cluster", max_labels=3, selected=[smallest])
    assert smallest in labels(fig) and len(labels(fig)) <= 3
    assert "selected and largest" in fig.axes[0].get_title(loc="left")
    with pytest.raises(UsageError, match="no cluster 999"):
        draw_cluster_map(cmap, "cluster", selected=[999])


def test_plot_cli_writes_each_colouring_and_rejects_an_unknown_one(memory_path, tmp_path):
    runner = CliRunner()
    for colour in ("cluster", "accuracy", "qtype"):
        out = tmp_path / f"{colour}.png"
        result = runner.invoke(app, ["memory", "plot", "--memory", memory_path, "--out", str(out), "--color", colour])
        assert result.exit_code == 0, result.output
        assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    bad = runner.invoke(app, ["memory", "plot", "--memory", memory_path, "--out", str(tmp_path / "x.png"), "--color", "size"])
    assert bad.exit_code != 0 and isinstance(bad.exception, UsageError) and "size" in str(bad.exception)


def test_html_export_is_one_offline_page_with_the_map_and_every_methodology(memory_path, tmp_path):
    out = tmp_path / "memory.html"
    result = CliRunner().invoke(app, ["memory", "export", "--format", "html", "--memory", memory_path, "--out", str(out)])
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    assert not re.search(r"<script[^>]*\ssrc=|<link[^>]*\shref=|<img[^>]*\ssrc=", page)  # nothing fetched at view time
    assert "Plotly.newPlot" in page and "plotly.js v" in page  # the library itself, inlined
    with Memory.open(memory_path) as memory:
        methods = memory.history.methodologies(memory.history.latest_version())
    for cluster_id, methodology in methods.items():
        anchor = "all-traces" if cluster_id == -1 else f"cluster-{cluster_id}"
        assert f"<section id='{anchor}'>" in page
        assert methodology.text.split("\n")[1].replace('"', "&quot;") in page
    assert page.count("<h3>Programs</h3>") == len(methods) and page.count("<h3>Pitfalls</h3>") == len(methods)
    call = re.search(r'Plotly\.newPlot\(\s*"cluster-map",\s*(\[.*?\]),\s*(\{.*?\}),\s*\{"displaylogo"', page, re.S)
    traces, layout = json.loads(call.group(1)), json.loads(call.group(2))
    assert [t["name"] for t in traces] == [f"cluster {c}" for c in range(4)]
    assert all("accuracy 67%" in t["hovertemplate"] and "{E1}" in t["hovertemplate"] for t in traces)
    assert sorted(a["name"] for a in layout["annotations"]) == [f"cluster-label-{c}" for c in range(4)]
