"""The drawing of the agent graph in docs/ is the graph the code builds (docs that cannot drift)."""

from __future__ import annotations

from pathlib import Path

from agents.graph import build_graph

DRAWING = Path(__file__).resolve().parents[1] / "docs" / "agent_graph.mmd"


def test_the_committed_mermaid_drawing_is_the_current_graph():
    drawn = build_graph().get_graph().draw_mermaid()
    assert DRAWING.read_text(encoding="utf-8") == drawn, "redraw: python -m benchmarks.draw_graph"
