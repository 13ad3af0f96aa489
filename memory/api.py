"""`Memory`: the one object the agent talks to (record traces, learn, match a question).

Learning = cluster the question shapes of the whole history (a new clustering version) and induce
one methodology per cluster plus one from all traces (cluster -1, for the no-clustering ablation).
Matching = nearest centroid of the latest clustering; centroids and methodologies are loaded once
and kept in memory, so a match with a precomputed embedding is a single small matrix product. The
question shapes learning embedded are stored with the clustering (`key_vectors`) and loaded with it,
so matching embeds only shapes learning never saw (a third of MultiTQ's held-out questions).
"""

from __future__ import annotations

import json
import sys
import threading
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from actions.programs import Program
from ari.base.embedding import Embedder, default_model_path, get_embedder
from ari.base.errors import AriError, MemoryStoreError, UsageError
from memory import clustering, induction
from memory.history import Clustering, HistoryStore, KeyVector, Member
from memory.trace import Trace
from memory.types import ALL_TRACES, Methodology, ProgramStat

if TYPE_CHECKING:
    from tkg_store.store import TKGStore


@dataclass
class LearnSummary:
    """What one `learn()` produced."""

    version: int  # the new clustering version
    k: int  # clusters actually made (requested, clamped to the distinct question shapes)
    traces: int
    sizes: dict[int, int] = field(default_factory=dict)  # cluster id -> traces
    sources: dict[str, int] = field(default_factory=dict)  # induced | llm -> methodologies
    llm_failures: dict[int, str] = field(default_factory=dict)  # cluster id -> why its LLM text is missing


@dataclass
class _Loaded:
    """The latest clustering and its methodologies, as cached for matching."""

    clustering: Clustering
    methodologies: dict[int, Methodology]
    library: list[ProgramStat] | None = None  # `Memory.program_library`, merged on first use


_MAX_REMEMBERED = 50_000  # question-shape embeddings kept for matching (~75 MB at 384 dims)
# Of those, at most this many come from the memory's stored key vectors, so that shapes first seen
# while answering still have room.
_MAX_STORED = _MAX_REMEMBERED // 2


class Memory:
    """The history store plus the latest clustering and its methodologies, cached for matching."""

    def __init__(self, history: HistoryStore, embedder: Embedder | None = None, use_clustering: bool = True) -> None:
        self.history = history
        self.use_clustering = use_clustering  # False: one methodology induced from all traces
        self._embedder = embedder
        self._lock = threading.Lock()
        self._cache: _Loaded | None = None
        self._vectors: dict[str, np.ndarray] = {}  # clustering key (question shape) -> embedding
        self._stored: dict[str, np.ndarray] = {}  # the part of `_vectors` read from the memory
        self._vectors_model: str | None = None  # the embedding model `_vectors` holds vectors of

    @classmethod
    def open(
        cls,
        url: str | Path,
        *,
        create: bool = True,
        read_only: bool | None = None,
        embedder: Embedder | None = None,
        use_clustering: bool = True,
    ) -> "Memory":
        """Open (creating and migrating as needed) a memory: a SQLite path or a SQLAlchemy URL.

        A SQLite file this process may not write is opened for reading only (`read_only=None`);
        `read_only=True` asks for that (`HistoryStore.open`)."""
        history = HistoryStore.open(url, create=create, read_only=read_only)
        return cls(history, embedder=embedder, use_clustering=use_clustering)

    def close(self) -> None:
        self.history.close()

    def __enter__(self) -> "Memory":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def record(self, trace: Trace, dataset: str | None = None, split: str | None = None, question_id: str | None = None) -> int:
        return self.history.add_trace(trace, dataset=dataset, split=split, question_id=question_id)

    # -- the KG it is learned on -----------------------------------------------------------------

    def note_kg(self, store: TKGStore) -> None:
        """Record `store` as the KG this memory is learned on (learning does, each run)."""
        self.history.set_meta("kg", json.dumps({**store.identity(), "db": str(store.path)}))

    def other_kg(self, store: TKGStore) -> str | None:
        """One line saying that this memory was learned on another KG than `store`'s; None when it
        was learned on this one, or never said on which (a memory learned before it was recorded)."""
        recorded = self.history.meta("kg")
        if recorded is None:
            return None
        learned, current = json.loads(recorded), store.identity()
        if all(learned.get(key) == value for key, value in current.items()):
            return None
        return (f"memory {self.history.where} was learned on the KG at {learned.get('db')} ({_kg_text(learned)}), "
                f"not on {store.path} ({_kg_text(current)}): its methodologies may not fit")

    def names(self) -> dict[str, str]:
        """The names people use for the KG's entities, learned from its labelled questions (`memory.names`): as written
        -> the KG's name. The linker reads them beside its own aliases."""
        return dict(json.loads(self.history.meta("names") or "{}"))

    def add_names(self, names: dict[str, str]) -> None:
        """Keep `names` beside those learned before (a name learned again for another entity takes the new one)."""
        if names:
            self.history.set_meta("names", json.dumps({**self.names(), **names}, ensure_ascii=False, sort_keys=True))

    # -- learning ------------------------------------------------------------------------------

    def learn(
        self,
        n_clusters: int = 10,
        embedder: Embedder | None = None,
        complete: Callable[[str], str] | None = None,
    ) -> LearnSummary:
        """Cluster the whole history and induce a methodology per cluster (a new version).

        `complete(prompt) -> str`, when given, writes each methodology's text with an LLM from the
        reference prompt; without it the text is induced from the traces alone.
        """
        if n_clusters < 1:
            raise UsageError(f"the number of clusters must be at least 1, not {n_clusters}")
        records = self.history.records()
        if not records:
            raise UsageError(f"the memory {self.history.where} has no traces to learn from")
        embedder = embedder or self._embedder or get_embedder()
        self._embedder = self._embedder or embedder  # match() embeds with the model it clusters with
        traces = [r.trace for r in records]
        shape_of = {m: clustering.clustering_text(m, clustering.FEATURES) for m in {t.masked_question for t in traces}}
        texts = [shape_of[t.masked_question] for t in traces]  # each masked question read once: traces share them
        # Clustered over the distinct question shapes, each weighted by its traces (the same
        # K-means objective as over every trace, at a fraction of the cost).
        counts = Counter(texts)
        shapes = sorted(counts)
        weights = np.array([counts[k] for k in shapes], dtype=np.float64)
        vectors = self._shape_vectors(shapes, embedder)
        key_labels, centroids = clustering.fit_kmeans(vectors, n_clusters, weights=weights)
        key_points = clustering.layout_2d(vectors, weights=weights)
        row = {k: i for i, k in enumerate(shapes)}
        at = np.array([row[t] for t in texts], dtype=np.int64)
        labels, points = key_labels[at], key_points[at]
        members = [Member(r.id, int(c), float(x), float(y)) for r, c, (x, y) in zip(records, labels, points)]
        # Kept so that matching a question of a shape seen here needs no embedding (most do).
        keys = [KeyVector(text, vector, counts[text]) for text, vector in zip(shapes, vectors)]
        version = self.history.save_clustering(embedder.name, centroids, members, clustering.FEATURES, keys)

        groups = induction.group_by_cluster(labels.tolist(), traces)
        groups[ALL_TRACES] = traces
        failures: dict[int, str] = {}
        written = [self._induce(cluster_id, group, complete, failures) for cluster_id, group in sorted(groups.items())]
        methodologies = [m for pair in written for m in pair]
        self.history.save_methodologies(version, methodologies)  # an LLM's text right after the induced one
        self.refresh()
        return LearnSummary(
            version=version,
            k=len(centroids),
            traces=len(traces),
            sizes={c: len(g) for c, g in sorted(groups.items()) if c != ALL_TRACES},
            sources=dict(Counter(pair[-1].source for pair in written)),
            llm_failures=failures,
        )

    def _shape_vectors(self, shapes: list[str], embedder: Embedder) -> np.ndarray:
        """Embeddings of question shapes; those an earlier learn stored for this model are read back."""
        stored = self.history.key_vectors(embedder.name, embedder.dim)
        missing = [s for s in shapes if s not in stored]
        if missing:
            stored.update(zip(missing, clustering.embed_unique(missing, embedder)))
        return np.stack([stored[s] for s in shapes]).astype(np.float32)

    @staticmethod
    def _induce(
        cluster_id: int, traces: list[Trace], complete: Callable[[str], str] | None, failures: dict[int, str]
    ) -> list[Methodology]:
        """The induced methodology, and beside it the LLM's (when asked for and the LLM answered)."""
        induced = induction.induce(cluster_id, traces)
        if complete is None:
            return [induced]
        try:
            return [induced, induction.with_llm(induced, traces, complete)]
        except Exception as exc:  # one failed request must not lose the whole clustering
            failures[cluster_id] = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            print(f"memory: LLM methodology for cluster {cluster_id} failed ({failures[cluster_id]}); keeping the induced one", file=sys.stderr)
            return [induced]

    # -- matching ------------------------------------------------------------------------------

    def refresh(self) -> None:
        """Forget the cached clustering (another process may have learnt since)."""
        with self._lock:
            self._cache = None

    def _loaded(self) -> _Loaded | None:
        with self._lock:
            if self._cache is None:
                latest = self.history.latest_clustering()
                if latest is None:
                    return None
                self._cache = _Loaded(latest, self.history.methodologies(latest.version))
                self._remember_stored(latest)
            return self._cache

    def _remember_stored(self, latest: Clustering) -> None:
        """Put the key vectors the memory stored for the clustering's model into `_vectors`."""
        if latest.model != self._vectors_model:  # vectors of another model live in another space
            self._vectors, self._vectors_model = {}, latest.model
        self._stored = self.history.key_vectors(latest.model, latest.centroids.shape[1], limit=_MAX_STORED)
        if len(self._vectors) + len(self._stored) > _MAX_REMEMBERED:
            self._vectors = {}
        self._vectors.update(self._stored)

    def match(self, question_or_masked: str, embedding: np.ndarray | None = None) -> Methodology | None:
        """The methodology for a (masked) question; None when nothing has been learnt yet.

        `embedding`, when given, must embed `self.key(masked)` (what the clustering embedded);
        without it the memory embeds the key itself, remembering keys it has seen. With
        `use_clustering=False` every question gets the methodology induced from all traces.
        """
        return self.match_many([question_or_masked], None if embedding is None else np.atleast_2d(embedding))[0]

    def match_many(self, texts: list[str], embeddings: np.ndarray | None = None) -> list[Methodology | None]:
        """`match` for a batch: one embedding call and one matrix product for all questions."""
        loaded = self._loaded()
        if loaded is None or not texts:
            return [None] * len(texts)
        if not self.use_clustering:
            return [loaded.methodologies.get(ALL_TRACES)] * len(texts)
        centroids = loaded.clustering.centroids
        if embeddings is None:
            keys = [clustering.clustering_text(t, loaded.clustering.features) for t in texts]
            embeddings = self._embed(keys, loaded.clustering.model)
        embeddings = np.atleast_2d(np.asarray(embeddings, dtype=np.float32))
        if embeddings.shape[1] != centroids.shape[1]:
            raise UsageError(
                f"question embeddings have {embeddings.shape[1]} dimensions but the memory was clustered with "
                f"{centroids.shape[1]} ({loaded.clustering.model})"
            )
        return [loaded.methodologies.get(int(c)) for c in clustering.nearest_centroid(embeddings, centroids)]

    def match_nearest(self, texts: list[str], k: int = 3) -> list[list[Methodology]]:
        """For each question, the methodologies of its `k` nearest clusters (nearest first), then
        the one induced from all traces.

        The offline decider falls back along this list when the nearest cluster's programs cannot
        be carried out (a question near the border of two clusters, or of an unusual shape).
        """
        loaded = self._loaded()
        if loaded is None or not texts:
            return [[] for _ in texts]
        overall = loaded.methodologies.get(ALL_TRACES)
        if not self.use_clustering:
            return [[overall] if overall else [] for _ in texts]
        centroids = loaded.clustering.centroids
        keys = [clustering.clustering_text(t, loaded.clustering.features) for t in texts]
        vectors = np.atleast_2d(np.asarray(self._embed(keys, loaded.clustering.model), dtype=np.float32))
        order = clustering.nearest_centroids(vectors, centroids, k)
        found = []
        for row in order:
            chosen = [loaded.methodologies.get(int(c)) for c in row] + [overall]
            found.append([m for m in chosen if m is not None])
        return found

    def key(self, masked: str) -> str:
        """The text the latest clustering embeds for a masked question (its shape, for new memories)."""
        loaded = self._loaded()
        return clustering.clustering_text(masked, loaded.clustering.features if loaded else clustering.FEATURES)

    def program_library(self) -> list[ProgramStat]:
        """Every program of the latest clustering's methodologies, merged across clusters (support
        summed), most supported first: what the offline decider falls back on when a question's
        nearest clusters know no program of the kind it asks for."""
        loaded = self._loaded()
        if loaded is None:
            return []
        if loaded.library is None:
            support: Counter[tuple[str, ...]] = Counter()
            tried: dict[tuple[str, ...], float] = defaultdict(float)  # attempts: support / success rate
            for cluster, methodology in loaded.methodologies.items():
                if cluster == ALL_TRACES:
                    continue
                for stat in methodology.programs:
                    support[stat.program.texts] += stat.support
                    tried[stat.program.texts] += stat.support / stat.success_rate if stat.success_rate > 0 else 0
            loaded.library = [
                ProgramStat(Program.parse(program), n, n / tried[program] if tried[program] else 0.0)
                for program, n in sorted(support.items(), key=lambda kv: (-kv[1], kv[0]))
            ]
        return loaded.library

    def methodologies(self) -> dict[int, Methodology]:
        """Every methodology of the latest clustering, by cluster id (-1: all traces)."""
        loaded = self._loaded()
        return dict(loaded.methodologies) if loaded else {}

    def _embed(self, texts: list[str], model: str) -> np.ndarray:
        """Embeddings of clustering keys, remembered: few shapes recur across many questions."""
        found = {t: self._vectors[t] for t in dict.fromkeys(texts) if t in self._vectors}
        missing = [t for t in dict.fromkeys(texts) if t not in found]
        if missing:
            fresh = dict(zip(missing, self._embedder_for(model).embed_batch(missing)))
            found.update(fresh)
            if len(self._vectors) > _MAX_REMEMBERED:
                self._vectors = dict(self._stored)  # forget the shapes met while answering, not learnt ones
            self._vectors.update(fresh)
        return np.stack([found[t] for t in texts])

    def _embedder_for(self, model: str) -> Embedder:
        if self._embedder is None:
            # The model the centroids were computed with, when it is a local path other than the
            # default (asking for the default by None shares the one instance the agent loaded).
            custom = Path(model).is_dir() and model != default_model_path()
            self._embedder = get_embedder(model if custom else None)
        return self._embedder


def snapshot(history: HistoryStore, dest: str | Path) -> Path:
    """Write a self-contained SQLite copy of a memory (e.g. the bundled demo memory).

    For a SQLite memory this is `VACUUM INTO` (consistent, no WAL side files); other backends are
    not supported here.
    """
    dest = Path(dest)
    if history.engine.dialect.name != "sqlite":
        raise MemoryStoreError("snapshot copies SQLite memories only")
    if dest.exists():
        raise MemoryStoreError(f"{dest} already exists; not overwriting it")
    dest.parent.mkdir(parents=True, exist_ok=True)
    raw = history.engine.raw_connection()  # VACUUM cannot run inside the transaction SQLAlchemy would begin
    try:
        raw.cursor().execute("VACUUM INTO ?", (str(dest),))
    finally:
        raw.close()
    return dest


def warn_of_other_kg(mem: Memory, store: TKGStore, warn: Callable[[str], None]) -> None:
    """Hand `warn` a line when the memory was learned on another KG than `store` (a memory that
    cannot be read says so when it is used, not here)."""
    try:
        other = mem.other_kg(store)
    except AriError:
        return
    if other is not None:
        warn(other)


def _kg_text(identity: dict) -> str:
    return f"{identity.get('source') or 'KG'}: {identity.get('entities', 0):,} entities, {identity.get('facts', 0):,} facts"
