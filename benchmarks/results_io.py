"""How a benchmark saves what it measured: its figures as JSON and a short Markdown page of them,
side by side (`<name>.json`, `<name>.md`), and the Markdown tables those pages are made of."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path


def write_json(path: Path, data: object, indent: int = 2, ensure_ascii: bool = True) -> None:
    """`data` as indented JSON with a final newline (UTF-8)."""
    path.write_text(json.dumps(data, indent=indent, ensure_ascii=ensure_ascii) + "\n", encoding="utf-8")


def write_results(
    folder: Path, name: str, data: object, markdown: str, indent: int = 2, ensure_ascii: bool = True
) -> None:
    """`<folder>/<name>.json` (the figures) and `<folder>/<name>.md` (their page)."""
    write_json(folder / f"{name}.json", data, indent, ensure_ascii)
    (folder / f"{name}.md").write_text(markdown, encoding="utf-8")


def emit(text: str, data: object, out: Path | None) -> None:
    """Print a report's Markdown; with `out`, also save it as <out>.md beside its data, <out>.json."""
    print(text, end="")
    if out:
        write_results(out.parent, out.stem, data, text, indent=1)


def table(header: Sequence[str], rows: Iterable[Sequence[object]], align: Sequence[str] | None = None) -> list[str]:
    """A Markdown table's lines: the header, its rule (`align`: one "---" or "---:" per column, else
    "---" for each) and one line per row, each cell as `str` gives it."""
    rule = align or ["---"] * len(header)
    return [_line(header), _line(rule), *(_line([str(cell) for cell in row]) for row in rows)]


def _line(cells: Sequence[str]) -> str:
    return "| " + " | ".join(cells) + " |"
