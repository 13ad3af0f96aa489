"""Shared fixtures. `demo_store`: the bundled demo KG built into a per-session ARI_HOME and opened
read-only (a real DuckDB file, built through the real ingest)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tkg_store.store import TKGStore


@pytest.fixture(scope="session")
def demo_store_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Path of the demo KG store, built once per test session under a private ARI_HOME."""
    home = tmp_path_factory.mktemp("ari_home")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ARI_HOME", str(home))
        from tkg_store.demo import demo_store_path

        return demo_store_path()


@pytest.fixture
def demo_store(demo_store_file: Path) -> Iterator[TKGStore]:
    """The demo KG, opened read-only; closed after the test."""
    with TKGStore.open(demo_store_file) as store:
        yield store


@pytest.fixture(scope="module")
def parts(demo_store_file: Path, tmp_path_factory: pytest.TempPathFactory):
    """Store, memory copy and an offline agent whose analyzer and embedder the LLM agents share."""
    import shutil

    from agents.agent import Agent
    from ari.base.config import AgentConfig
    from memory import Memory, bundled_memory_path

    copy = tmp_path_factory.mktemp("memory") / "demo-memory.sqlite"
    shutil.copyfile(bundled_memory_path(), copy)
    with TKGStore.open(demo_store_file) as store, Memory.open(copy, create=False) as memory:
        yield store, memory, Agent(store, memory, AgentConfig())
