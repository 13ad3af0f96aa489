"""The benchmarks' one way of saving results: JSON beside a Markdown page, and Markdown tables."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.results_io import emit, table, write_json, write_results


def test_table_has_a_header_a_rule_and_a_line_per_row() -> None:
    assert table(["kind", "n"], [["visit", 3], ["praise", None]]) == [
        "| kind | n |", "| --- | --- |", "| visit | 3 |", "| praise | None |"
    ]
    assert table(["a", "b"], [], ["---", "---:"]) == ["| a | b |", "| --- | ---: |"]


def test_results_are_json_and_markdown_side_by_side(tmp_path: Path) -> None:
    write_results(tmp_path, "run.v2", {"name": "Côte d'Ivoire"}, "# page\n", indent=1, ensure_ascii=False)
    assert (tmp_path / "run.v2.json").read_text(encoding="utf-8") == '{\n "name": "Côte d\'Ivoire"\n}\n'
    assert (tmp_path / "run.v2.md").read_text(encoding="utf-8") == "# page\n"
    write_json(tmp_path / "plain.json", {"name": "Côte"})
    assert json.loads((tmp_path / "plain.json").read_text(encoding="utf-8")) == {"name": "Côte"}
    assert "\\u00f4" in (tmp_path / "plain.json").read_text(encoding="utf-8")


def test_emit_prints_and_saves_beside_the_named_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    emit("| a |\n", [1], tmp_path / "speed")
    assert capsys.readouterr().out == "| a |\n"
    assert (tmp_path / "speed.md").read_text(encoding="utf-8") == "| a |\n"
    assert json.loads((tmp_path / "speed.json").read_text(encoding="utf-8")) == [1]
    emit("x\n", [2], None)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["speed.json", "speed.md"]
