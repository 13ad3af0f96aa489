"""Imports only go downward: a module may import its own layer or the layers below it, never above.

    ari.base  <  tkg_store  <  actions  <  agents.analysis  <  memory  <  agents  <  benchmarks  <  ari

`ari.base` is the basic layer (errors, config, embeddings, the vector index, progress bars); `ari`
itself (the CLI, the library API, the server) sits on top. Scripts (a module with a `__main__`
guard, such as `benchmarks/store_bench.py`) are entry points above everything, and nothing imports
them. Every import counts, also those inside functions and under TYPE_CHECKING: a lazy import is
still a dependency.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("ari", "tkg_store", "actions", "agents", "memory", "benchmarks")

# most specific prefix first; the number is the layer (higher may import lower)
LAYERS: list[tuple[str, int]] = [
    ("ari.base", 0),
    ("tkg_store", 1),
    ("actions", 2),
    ("agents.analysis", 3),
    ("memory", 4),
    ("agents", 5),
    ("benchmarks", 6),
    ("ari", 7),
]
SCRIPT = 8  # a module run as a script: it may import anything, and nothing may import it


def layer_of(module: str) -> int | None:
    for prefix, layer in LAYERS:
        if module == prefix or module.startswith(prefix + "."):
            return layer
    return None


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every absolute import of one of our packages in a file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            # `from ari import base` names the submodule: count the most specific one
            found += [(node.lineno, f"{node.module}.{alias.name}") for alias in node.names]
    return [(line, m) for line, m in found if m.split(".")[0] in PACKAGES]


def is_script(path: Path) -> bool:
    return "if __name__ == \"__main__\":" in path.read_text(encoding="utf-8")


@functools.cache
def scripts(root: Path = ROOT) -> frozenset[str]:
    return frozenset(module_name(p, root) for package in PACKAGES for p in (root / package).rglob("*.py") if is_script(p))


def upward_imports(path: Path, root: Path = ROOT) -> list[str]:
    here = module_name(path, root)
    mine = SCRIPT if is_script(path) else layer_of(here)
    entry_points = scripts(root)
    problems = []
    for line, target in imported_modules(path):
        theirs = SCRIPT if target in entry_points else layer_of(target)
        if mine is not None and theirs is not None and theirs > mine:
            problems.append(f"{path.relative_to(root)}:{line}: {here} (layer {mine}) imports {target} (layer {theirs})")
    return problems


def source_files() -> list[Path]:
    return sorted(p for package in PACKAGES for p in (ROOT / package).rglob("*.py"))


def test_every_module_of_ours_has_a_layer():
    assert all(layer_of(module_name(p)) is not None for p in source_files())


def test_no_module_imports_a_layer_above_its_own():
    problems = [problem for path in source_files() for problem in upward_imports(path)]
    assert not problems, "upward imports:\n" + "\n".join(problems)


@pytest.mark.parametrize(
    "source, code, upward",
    [
        ("tkg_store/store.py", "from ari.base.errors import StoreError", False),
        ("tkg_store/store.py", "from ari.cli import main", True),
        ("memory/api.py", "def f():\n    from agents.agent import Agent", True),
        ("memory/api.py", "from agents.analysis.types import QuestionAnalysis", False),
        ("agents/graph.py", "from memory.trace import Trace", False),
        ("benchmarks/runner.py", "import ari.api", True),
        ("ari/cli/ask.py", "from benchmarks import runner", False),
        ("actions/x.py", "from agents import analysis", True),
        ("benchmarks/some_bench.py", "from ari.api import build_agent\nif __name__ == \"__main__\":\n    pass", False),
        ("ari/cli/bench.py", "from benchmarks import some_bench", True),
    ],
)
def test_the_checker_catches_upward_imports(tmp_path, source, code, upward):
    """The checker itself, on a file written here: an upward import is reported, a downward one not."""
    path = tmp_path / source
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(code + "\n", encoding="utf-8")
    script = tmp_path / "benchmarks" / "some_bench.py"
    if not script.exists():
        script.parent.mkdir(parents=True, exist_ok=True)
        script.write_text("if __name__ == \"__main__\":\n    pass\n", encoding="utf-8")
    assert bool(upward_imports(path, tmp_path)) is upward
