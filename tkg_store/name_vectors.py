"""Embeddings of every entity and relation name of a store, computed once and kept beside it.

Candidate filtering and linking compare the question with names thousands of times per second;
embedding names per question would cost seconds. `ari ingest` embeds them (`plan_name_vectors`, in
steps the caller runs under a progress bar); a store ingested otherwise gets them on first use.

On disk, beside the DuckDB file (or under ARI_HOME when that folder is read-only), keyed by the
embedding model and the store's counts: `<db>.vectors-<tag>.npy`, the entity matrix (a row per
entity in the store's id order, so the store's own name -> id map finds a row), which a cold
process memory-maps (its pages are read as rows are used, so opening costs no time or memory that
grows with the KG), and `<db>.vectors-<tag>.npz`, the names, the relation matrix, the model and a
digest of the entity names, which says which names the matrix embeds. When facts are added, only
names that no earlier file of the same model embeds are embedded. In memory the vectors hang off
the store (`TKGStore.derived`), so `reload()` drops them.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import numpy as np

from ari.base.config import ari_home
from ari.base.embedding import Embedder
from ari.base.minilm import NumpyMiniLMEmbedder
from ari.base.processes import usable_cores
from tkg_store.store import TKGStore

CHUNK = 4096  # names per embedding step of a build: one progress tick, seconds on a CPU
# names per embedding call (`embed_parallel`): a fixed size, so a name's vector is the same on every
# machine (the int8 encoder sets its scales per call, and a call under ONNX_MIN_TEXTS runs float32)
PIECE = 256
Key = tuple[str, str]  # ("e" | "r", name): an entity or a relation


@dataclass
class NameVectors:
    """Row i of `entity_matrix` embeds `entities[i]` (its display text); likewise for relations.
    `entity_rows` is name -> row when the caller has it already (the store's own name -> id view,
    `TKGStore.entity_rows`), else a dict is built from `entities`."""

    entities: list[str]
    entity_matrix: np.ndarray
    relations: list[str]
    relation_matrix: np.ndarray
    entity_rows: Mapping[str, int] | None = None

    def __post_init__(self) -> None:
        self.entity_row: Mapping[str, int] = (
            self.entity_rows if self.entity_rows is not None else {name: i for i, name in enumerate(self.entities)})
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
    """From the files beside the store when they embed exactly its names, else computed (and saved)."""
    plan = plan_name_vectors(store, embedder)
    found = plan.saved()
    if found is not None:
        return found
    for step in plan.plan().steps():
        step()
    return plan.finish()


@dataclass
class NameVectorPlan:
    """Embedding a store's names: those no earlier file embeds (`todo`) in steps of CHUNK names,
    then `finish()` assembles, saves and returns the vectors."""

    store: TKGStore
    embedder: Embedder
    entities: list[str]
    relations: list[str]
    todo: list[Key] = field(default_factory=list)
    vectors: dict[Key, np.ndarray] = field(default_factory=dict)  # known from earlier files, then embedded

    def saved(self) -> NameVectors | None:
        """The vectors the files beside the store hold for exactly these names, if they do."""
        return _read(cache_path(self.store, self.embedder), self.entities, self.relations, self.embedder.name, self.store.entity_rows())

    def plan(self) -> "NameVectorPlan":
        """Fill `todo` with the names no earlier vectors file of this model embeds."""
        self.vectors = _earlier_vectors(self.store, self.embedder)
        names = [("e", n) for n in self.entities] + [("r", n) for n in self.relations]
        self.todo = [key for key in names if key not in self.vectors]
        return self

    def steps(self, chunk: int = CHUNK) -> list[Callable[[], None]]:
        return [partial(self._embed, self.todo[i : i + chunk]) for i in range(0, len(self.todo), chunk)]

    def _embed(self, part: list[Key]) -> None:
        # entity names, by the hundred thousand in a large KG, take the int8 encoder (about twice as
        # fast, linking as float32 does: `benchmarks/name_embedding_cpu.py`); the few relations do not
        entities = [key for key in part if key[0] == "e"]
        relations = [key for key in part if key[0] == "r"]
        if entities:
            texts = [self.store.display(name) for _, name in entities]
            self.vectors.update(zip(entities, embed_parallel(self.embedder, texts, int8=True)))
        if relations:
            texts = [self.store.relation_text(name) for _, name in relations]
            self.vectors.update(zip(relations, embed_parallel(self.embedder, texts)))

    def finish(self) -> NameVectors:
        vectors = NameVectors(self.entities, self._matrix("e", self.entities), self.relations, self._matrix("r", self.relations))
        path = cache_path(self.store, self.embedder)
        if _write(path, vectors, self.embedder.name):
            _remove_stale(path, self.embedder.name)
        return self.saved() or vectors  # read back: the entity matrix memory-mapped, as a cold process has it

    def _matrix(self, kind: str, names: list[str]) -> np.ndarray:
        if not names:
            return np.zeros((0, self.embedder.dim), dtype=np.float32)
        missing = [n for n in names if (kind, n) not in self.vectors]
        if missing:
            raise RuntimeError(f"{len(missing)} names not embedded: finish() before every step ran")
        return np.vstack([self.vectors[(kind, n)] for n in names]).astype(np.float32)


def plan_name_vectors(store: TKGStore, embedder: Embedder) -> NameVectorPlan:
    """What embedding `store`'s names for `embedder` takes; `.saved()` when nothing, else `.plan()`.
    The entity matrix's rows follow the store's ids (`entity_names()`), so a cold process finds a
    name's row by the store's own name -> id map: no sort and no dict over every name."""
    return NameVectorPlan(store, embedder, store.entity_names(), sorted(store.relation_names()))


def embed_parallel(embedder: Embedder, texts: list[str], threads: int | None = None, int8: bool = False) -> np.ndarray:
    """`embedder.embed_batch(texts)`, split over `threads` (None: the usable cores, at most 8)
    for the numpy embedder, on its int8 encoder where `int8` is set (each of its
    forward passes is BLAS on one thread and numpy loops, which release the GIL); torch spreads its
    own work. The texts go out in pieces of PIECE, whatever the thread count, so the vectors do not
    depend on the machine, and a thread slowed by other work on its core takes fewer of them."""
    threads = threads or min(usable_cores(), 8)
    if not isinstance(embedder, NumpyMiniLMEmbedder):
        return embedder.embed_batch(texts)
    embed = partial(embedder.embed_batch, int8=int8)
    pieces = [texts[i : i + PIECE] for i in range(0, len(texts), PIECE)] or [texts]
    if threads < 2 or len(pieces) < 2:
        return np.vstack([embed(piece) for piece in pieces])
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=threads, thread_name_prefix="ari-embed-names") as pool:
        return np.vstack(list(pool.map(embed, pieces)))


def text_vectors(store: TKGStore, embedder: Embedder, label: str, texts: list[str], int8: bool = False) -> np.ndarray:
    """Embeddings of a fixed list of texts derived from the store (e.g. role phrases of its names),
    cached beside it as the name vectors are: row i embeds texts[i] (`int8`: as `embed_parallel`)."""
    digest = hashlib.sha1("\n".join(texts).encode("utf-8", "surrogatepass")).hexdigest()[:12]
    return store.derived(("text_vectors", embedder.name, label, digest), lambda: _text_vectors(store, embedder, label, digest, texts, int8))


def _text_vectors(store: TKGStore, embedder: Embedder, label: str, digest: str, texts: list[str], int8: bool) -> np.ndarray:
    path = cache_path(store, embedder, f"{label}-{digest}")
    if path.exists():
        try:
            with np.load(path, allow_pickle=False) as data:
                if list(data["texts"]) == texts:
                    return data["matrix"]
        except (OSError, ValueError, KeyError):
            pass  # a damaged cache is rebuilt, never trusted
    matrix = embed_parallel(embedder, texts, int8=int8)
    _save(path, texts=np.array(texts, dtype=str), matrix=matrix)
    return matrix


def cache_path(store: TKGStore, embedder: Embedder, what: str = "vectors") -> Path:
    counts = store.counts()
    tag = _tag(embedder.name, counts["entities"], counts["relations"])
    db = Path(store.path).resolve()
    beside = db.with_name(f"{db.name}.{what}-{tag}.npz")
    if os.access(db.parent, os.W_OK):
        return beside
    digest = hashlib.sha1(str(db).encode()).hexdigest()[:12]
    return ari_home() / "vectors" / f"{db.stem}-{digest}-{what}-{tag}.npz"


def _tag(model: str, entities: int, relations: int) -> str:
    return hashlib.sha1(f"{model}|{entities}|{relations}".encode()).hexdigest()[:12]


def _names_digest(names: list[str]) -> str:
    """SHA-1 of the names in order, each ended by a newline (one join: a cold process digests
    every entity name, 230k at 10M facts)."""
    text = "\n".join(names) + "\n" if names else ""
    return hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()


def _read(
    path: Path, entities: list[str], relations: list[str], model: str, rows: Mapping[str, int] | None = None
) -> NameVectors | None:
    """The vectors at `path` (the entity matrix memory-mapped) when they embed exactly these names
    with this model; the entity names are checked by digest, not read back."""
    matrix_path = path.with_suffix(".npy")
    if not path.exists() or not matrix_path.exists():
        return None
    try:
        with np.load(path, allow_pickle=False) as data:
            if str(data["model"]) != model or str(data["entities_digest"]) != _names_digest(entities):
                return None
            if list(data["relations"]) != relations:
                return None
            relation_matrix = data["relation_matrix"]
        entity_matrix = np.load(matrix_path, mmap_mode="r", allow_pickle=False)
    except (OSError, ValueError, KeyError):
        return None  # damaged, or written by an older ARI: rebuilt, never trusted
    if entity_matrix.shape != (len(entities), relation_matrix.shape[1]):
        return None
    return NameVectors(entities, entity_matrix, relations, relation_matrix, rows)


def _vector_files(store: TKGStore, embedder: Embedder) -> list[Path]:
    """Every name-vectors file of this store (any contents, any model)."""
    pattern = cache_path(store, embedder)
    return sorted(pattern.parent.glob(pattern.name.rsplit("-", 1)[0] + "-*.npz"))


def _earlier_vectors(store: TKGStore, embedder: Embedder) -> dict[Key, np.ndarray]:
    """Each name vector a vectors file of the same model beside the store holds (files of its
    earlier contents): an ingest that adds facts embeds only the names they bring."""
    known: dict[Key, np.ndarray] = {}
    for path in _vector_files(store, embedder):
        try:
            entities, entity_matrix, relations, relation_matrix = _file_vectors(path, embedder.name)
        except (OSError, ValueError, KeyError):
            continue  # damaged, or another model's: its names are embedded anew
        if entity_matrix.shape[0] == len(entities):
            known.update((("e", n), entity_matrix[i]) for i, n in enumerate(entities))
            known.update((("r", n), relation_matrix[i]) for i, n in enumerate(relations))
    return known


def _file_vectors(path: Path, model: str) -> tuple[list[str], np.ndarray, list[str], np.ndarray]:
    """(entities, their matrix, relations, theirs) of a vectors file of `model`, else KeyError. A
    file of the older single-.npz format names no model: its name's tag says whether it is ours."""
    with np.load(path, allow_pickle=False) as data:
        entities, relations = list(data["entities"]), list(data["relations"])
        relation_matrix = data["relation_matrix"]
        if "model" not in data.files:
            if not path.name.endswith(f"-{_tag(model, len(entities), len(relations))}.npz"):
                raise KeyError("another model's vectors")
            return entities, data["entity_matrix"], relations, relation_matrix
        if str(data["model"]) != model:
            raise KeyError("another model's vectors")
    return entities, np.load(path.with_suffix(".npy"), mmap_mode="r", allow_pickle=False), relations, relation_matrix


def _remove_stale(kept: Path, model: str) -> None:
    """The other vectors files of this model: each name they embed that the store still has is in
    `kept` now."""
    for old in kept.parent.glob(kept.name.rsplit("-", 1)[0] + "-*.npz"):
        if old == kept:
            continue
        try:
            _file_vectors(old, model)
        except (OSError, ValueError, KeyError):
            continue  # another model's, or not readable: left alone
        for file in (old, old.with_suffix(".npy")):
            try:
                file.unlink()
            except OSError:
                pass  # gone already (another process), or not ours to remove


def _write(path: Path, vectors: NameVectors, model: str) -> bool:
    """The matrix first, then the .npz that vouches for it (each under a temporary name, renamed
    into place): a reader that finds the .npz finds the whole matrix. False when nothing was saved."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp.npy")
        np.save(tmp, np.ascontiguousarray(vectors.entity_matrix, dtype=np.float32))
        os.replace(tmp, path.with_suffix(".npy"))
    except OSError:
        return False  # caching is an optimisation; a read-only disk just means recomputing next time
    return _save(
        path,
        entities=np.array(vectors.entities, dtype=str),
        entities_digest=np.array(_names_digest(vectors.entities)),
        relations=np.array(vectors.relations, dtype=str),
        relation_matrix=vectors.relation_matrix,
        model=np.array(model),
    )


def _save(path: Path, **arrays: np.ndarray) -> bool:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp.npz")  # two first runs at once must not share a file
        np.savez(tmp, **arrays)  # type: ignore[arg-type]  # numpy's stub fears a key named allow_pickle; these are array names
        os.replace(tmp, path)
    except OSError:
        return False  # caching is an optimisation; a read-only disk just means recomputing next time
    return True
