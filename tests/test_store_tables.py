"""`ari ingest` builds the per-store tables; appending facts embeds only the new names; a cold
process reads the tables back without embedding anything."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from ari.base.embedding import get_embedder
from ari.base.vector_index import VectorIndex
from ari.cli import app
from tkg_store.name_vectors import name_vectors
from tkg_store.store import TKGStore

runner = CliRunner()


@pytest.fixture(autouse=True)
def _device_restored(monkeypatch):
    """`--device` sets the process's device and ARI_DEVICE (for worker processes): undone after each test."""
    from ari.base import embedding

    monkeypatch.setattr(embedding, "_chosen", [])
    monkeypatch.setenv("ARI_DEVICE", "auto")

FIRST = (
    "Iran\tMake_a_visit\tChina\t2007-03-04\n"
    "China\tHost_a_visit\tIran\t2007-03-04\n"
    "Military_(Iran)\tCriticize_or_denounce\tJapan\t2008-05-01\n"
)
MORE = "Japan\tConsult\tSouth_Korea\t2009-01-02\nIran\tMake_a_visit\tChina\t2010-03-04\n"


class _Refusing:
    """An embedder of the real model's name that must never be called."""

    def __init__(self, name: str, dim: int) -> None:
        self.name, self.dim = name, dim

    def embed_batch(self, texts: list[str]) -> np.ndarray:
        raise AssertionError(f"embedded {texts[:3]} although the tables were built at ingest")


def _ingest(tmp_path: Path, text: str, *extra: str) -> dict:
    tsv = tmp_path / f"part{len(list(tmp_path.glob('part*')))}.tsv"
    tsv.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["ingest", "tsv", str(tsv), "--db", str(tmp_path / "kg.duckdb"), "--json", "--device", "cpu", *extra])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_ingest_builds_the_tables_and_a_cold_store_only_reads_them(tmp_path: Path) -> None:
    data = _ingest(tmp_path, FIRST)
    assert data["tables"]["names_embedded"] == data["entities"] + data["relations"] == 4 + 3
    assert data["tables"]["names_kept"] == 0 and data["tables"]["device"] == "cpu"
    beside = sorted(p.name.split(".", 2)[-1].split("-")[0] for p in tmp_path.glob("kg.duckdb.*"))
    # .npz and .npy of the names; "relation": the relation texts' vectors (`tkg_store.relation_texts`); "formal": the KG names
    # that hold a formal state name (`analyzer.formal_names`)
    assert beside == ["chat", "formal", "linker", "mirror", "relation", "roles", "symmetric", "templates", "vectors", "vectors"]
    real = get_embedder(device="cpu")
    with TKGStore.open(tmp_path / "kg.duckdb") as store:
        vectors = name_vectors(store, _Refusing(real.name, real.dim))
        assert isinstance(vectors.entity_matrix, np.memmap)  # mapped, not read into memory
        iran = vectors.entity_vector("Iran")
        assert iran is not None and float(iran @ real.embed_batch(["Iran"])[0]) > 0.9999
        mapped, copied = VectorIndex(vectors.entity_matrix), VectorIndex(np.array(vectors.entity_matrix))
        query = real.embed_batch(["Iran's army"])
        assert mapped.search(query, 2)[1].tolist() == copied.search(query, 2)[1].tolist()  # searched in place, same rows


def test_appending_facts_embeds_only_the_new_names(tmp_path: Path) -> None:
    _ingest(tmp_path, FIRST)
    data = _ingest(tmp_path, MORE)
    assert data["facts_added"] == 2 and data["entities_added"] == 1 and data["relations_added"] == 1
    assert (data["tables"]["names_embedded"], data["tables"]["names_kept"]) == (2, 7)  # South Korea, Consult
    assert len(list(tmp_path.glob("kg.duckdb.vectors-*.npz"))) == 1  # the earlier contents' file is gone
    real = get_embedder(device="cpu")
    with TKGStore.open(tmp_path / "kg.duckdb") as store:
        vectors = name_vectors(store, _Refusing(real.name, real.dim))
        expected = real.embed_batch([store.display(n) for n in vectors.entities])
    assert float((np.asarray(vectors.entity_matrix) * expected).sum(axis=1).min()) > 0.9999


def test_no_tables_leaves_them_to_the_first_question(tmp_path: Path) -> None:
    data = _ingest(tmp_path, FIRST, "--no-tables")
    assert data["tables"] is None
    assert not list(tmp_path.glob("kg.duckdb.*"))


def test_the_fact_index_is_held_for_a_store_up_to_the_size_limit(tmp_path: Path, monkeypatch) -> None:
    from ari.base.errors import StoreError
    from tkg_store import store as store_module

    _ingest(tmp_path, FIRST, "--no-tables")
    db = tmp_path / "kg.duckdb"
    monkeypatch.delenv("ARI_MEMORY_INDEX", raising=False)
    with TKGStore.open(db) as small:
        assert small.fact_index is not None
    monkeypatch.setattr(store_module, "MEMORY_INDEX_MAX_FACTS", 2)  # 3 facts: past the limit
    with TKGStore.open(db) as large:
        assert large.fact_index is None and [f.tail for f in large.facts(head="Iran")] == ["China"]
    with TKGStore.open(db, memory_index=True) as asked:
        assert asked.fact_index is not None  # an explicit choice beats the size
    monkeypatch.setenv("ARI_MEMORY_INDEX", "on")
    with TKGStore.open(db) as forced:
        assert forced.fact_index is not None
    monkeypatch.setenv("ARI_MEMORY_INDEX", "sometimes")
    with pytest.raises(StoreError, match="ARI_MEMORY_INDEX must be auto, on or off"):
        TKGStore.open(db)


def test_ingest_on_cuda_without_a_gpu_is_a_usage_error_before_any_work(tmp_path: Path, monkeypatch, capsys) -> None:
    from ari.base import embedding
    from ari.cli import run

    monkeypatch.setattr(embedding, "gpu_present", lambda: False)
    monkeypatch.setattr(embedding, "_chosen", [])
    tsv = tmp_path / "kg.tsv"
    tsv.write_text(FIRST, encoding="utf-8")
    assert run(["ingest", "tsv", str(tsv), "--db", str(tmp_path / "kg.duckdb"), "--device", "cuda"]) == 2
    assert capsys.readouterr().err.splitlines() == ["Error: --device cuda: no CUDA GPU with torch and sentence-transformers on this machine"]
    assert not (tmp_path / "kg.duckdb").exists()


def test_vector_rows_follow_the_store_ids_and_a_file_in_another_order_is_reused(tmp_path: Path) -> None:
    """A cold process finds a name's row by the store's own name -> id map (no sort, no dict of
    every name); a vectors file whose rows are in another order (sorted by name, as ARI wrote them
    before) is rewritten in id order from its own vectors, embedding nothing."""
    from tkg_store.name_vectors import NameVectors, _write, cache_path

    _ingest(tmp_path, "Zimbabwe\tMake_a_visit\tChina\t2007-03-04\nAngola\tConsult\tZimbabwe\t2008-01-01\n")
    real = get_embedder(device="cpu")
    refusing = _Refusing(real.name, real.dim)
    with TKGStore.open(tmp_path / "kg.duckdb") as store:
        vectors = name_vectors(store, refusing)
        assert vectors.entities == store.entity_names() == ["Zimbabwe", "China", "Angola"]
        assert vectors.entity_row is not None and vectors.entity_row["Angola"] == 2
        by_name = {n: np.array(vectors.entity_matrix[vectors.entity_row[n]]) for n in vectors.entities}
        names = sorted(by_name)
        older = NameVectors(names, np.vstack([by_name[n] for n in names]), vectors.relations, np.array(vectors.relation_matrix))
        assert _write(cache_path(store, refusing), older, real.name)
    with TKGStore.open(tmp_path / "kg.duckdb") as store:
        again = name_vectors(store, refusing)
        assert again.entities == ["Zimbabwe", "China", "Angola"]
        for name, vector in by_name.items():
            assert np.array_equal(again.entity_vector(name), vector)
