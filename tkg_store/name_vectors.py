"""Embeddings of every entity and relation name of a store, computed once and cached with it.

Candidate filtering and linking compare the question with names thousands of times per second;
embedding names per question would cost seconds. The vectors are computed on first use and saved
as an .npz file beside the DuckDB file (or under ARI_HOME when that folder is read-only), keyed by
the embedding model and the store's counts so a re-ingested store gets fresh vectors. In memory they
hang off the store (`TKGStore.derived`), so `reload()` drops them.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ari.base.config import ari_home
from ari.base.embedding import Embedder
from tkg_store.store import TKGStore


@dataclass
class NameVectors:
    """Row i of `entity_matrix` embeds `entities[i]` (its display text); likewise for relations."""

    entities: list[str]
    entity_matrix: np.ndarray
    relations: list[str]
    relation_matrix: np.ndarray

    def __post_init__(self) -> None:
        self.entity_row = {name: i for i, name in enumerate(self.entities)}
        self.relation_row = {name: i for i, name in enumerate(self.relations)}

    def entity_vector(self, name: str) -> np.ndarray | None:
        row = self.entity_row.get(name)
        return None if row is None else self.entity_matrix[row]

    def relation_vector(self, name: str) -> np.ndarray | None:
        row = self.relation_row.get(name)
        return None if row is None else self.relation_matrix[row]


def name_vectors(store: TKGStore, embedder: Embedder) -> NameVectors:
    """The store's name vectors for this embedder: kept on the store (until its `reload()`)."""
    return store.derived(("name_vectors", embedder.name), lambda: _load_or_embed(store, embedder))


def _load_or_embed(store: TKGStore, embedder: Embedder) -> NameVectors:
    """From the cache file when it holds exactly the store's names, else computed (and saved)."""
    entities = sorted(store.entity_names())
    relations = sorted(store.relation_names())
    path = cache_path(store, embedder)
    vectors = _read(path, entities, relations)
    if vectors is None:
        vectors = NameVectors(
            entities,
            embedder.embed_batch([store.display(e) for e in entities]),
            relations,
            embedder.embed_batch([store.relation_text(r) for r in relations]),
        )
        _write(path, vectors)
    return vectors


def text_vectors(store: TKGStore, embedder: Embedder, label: str, texts: list[str]) -> np.ndarray:
    """Embeddings of a fixed list of texts derived from the store (e.g. role phrases of its names),
    cached beside it as the name vectors are: row i embeds texts[i]."""
    digest = hashlib.sha1("\n".join(texts).encode("utf-8", "surrogatepass")).hexdigest()[:12]
    return store.derived(("text_vectors", embedder.name, label, digest), lambda: _text_vectors(store, embedder, label, digest, texts))


def _text_vectors(store: TKGStore, embedder: Embedder, label: str, digest: str, texts: list[str]) -> np.ndarray:
    path = cache_path(store, embedder, f"{label}-{digest}")
    if path.exists():
        try:
            with np.load(path, allow_pickle=False) as data:
                if list(data["texts"]) == texts:
                    return data["matrix"]
        except (OSError, ValueError, KeyError):
            pass  # a damaged cache is rebuilt, never trusted
    matrix = embedder.embed_batch(texts)
    _save(path, texts=np.array(texts, dtype=str), matrix=matrix)
    return matrix


def cache_path(store: TKGStore, embedder: Embedder, what: str = "vectors") -> Path:
    counts = store.counts()
    tag = hashlib.sha1(f"{embedder.name}|{counts['entities']}|{counts['relations']}".encode()).hexdigest()[:12]
    db = Path(store.path).resolve()
    beside = db.with_name(f"{db.name}.{what}-{tag}.npz")
    if os.access(db.parent, os.W_OK):
        return beside
    digest = hashlib.sha1(str(db).encode()).hexdigest()[:12]
    return ari_home() / "vectors" / f"{db.stem}-{digest}-{what}-{tag}.npz"


def _read(path: Path, entities: list[str], relations: list[str]) -> NameVectors | None:
    if not path.exists():
        return None
    try:
        with np.load(path, allow_pickle=False) as data:
            if list(data["entities"]) != entities or list(data["relations"]) != relations:
                return None
            return NameVectors(entities, data["entity_matrix"], relations, data["relation_matrix"])
    except (OSError, ValueError, KeyError):
        return None  # a damaged cache is rebuilt, never trusted


def _write(path: Path, vectors: NameVectors) -> None:
    _save(
        path,
        entities=np.array(vectors.entities, dtype=str),
        entity_matrix=vectors.entity_matrix,
        relations=np.array(vectors.relations, dtype=str),
        relation_matrix=vectors.relation_matrix,
    )


def _save(path: Path, **arrays: np.ndarray) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp.npz")  # two first runs at once must not share a file
        np.savez(tmp, **arrays)  # type: ignore[arg-type]  # numpy's stub fears a key named allow_pickle; these are array names
        os.replace(tmp, path)
    except OSError:
        pass  # caching is an optimisation; a read-only disk just means recomputing next time
