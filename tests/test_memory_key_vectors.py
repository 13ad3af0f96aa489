"""Key vectors: the question-shape embeddings learning computes are stored with the clustering, so a
fresh process matches a shape seen in learning without embedding it; older memories still match."""

from __future__ import annotations

import hashlib
import shutil
import sqlite3

import numpy as np

from memory import Memory, bundled_memory_path
from memory.clustering import FEATURES, clustering_text
from memory.migrations import MIGRATIONS
from memory.trace import StepRecord, Trace

LEARNT = [
    ("Who did {E1} criticise in {T1}?", ["getTailEntity(E1, R, T)", "answer(#1)"]),
    ("Who did {E1} accuse in {T1}?", ["getTailEntity(E1, R, T)", "answer(#1)"]),
    ("Who did {E1} condemn in {T1}?", ["getTailEntity(E1, R, T)", "answer(#1)"]),
    ("When did {E1} first visit {E2}?", ["getTime(E1, R, E2)", "getFirst(#1)", "answer(#2)"]),
    ("When did {E1} first host {E2}?", ["getTime(E1, R, E2)", "getFirst(#1)", "answer(#2)"]),
    ("Who was the last to praise {E1} before {E2} did?", ["getTime(E2, R, E1)", "getLast(#1)", "answer(#2)"]),
]
SEEN = ["Who did {E2} threaten in {T3}?", "When did {E3} first meet {E1}?"]  # shapes of learnt questions
UNSEEN = "After {T1}, which country did {E1} last visit?"


class CountingEmbedder:
    """A small real embedder: a fixed vector per text (from its hash), counting what it embeds."""

    name, dim = "counting-embedder", 8

    def __init__(self) -> None:
        self.embedded: list[str] = []

    def embed_batch(self, texts: list[str]) -> np.ndarray:
        self.embedded += texts
        rows = [np.random.default_rng(int(hashlib.sha256(t.encode()).hexdigest()[:8], 16)).normal(size=self.dim) for t in texts]
        return np.asarray(rows, dtype=np.float32).reshape(len(texts), self.dim)


def learnt_memory(path) -> list[list[int]]:  # noqa: ANN001
    """Record the traces above at `path`, learn, and return the nearest clusters of SEEN + UNSEEN."""
    traces = [Trace(m, m, [StepRecord(i, [s], s, s, 1) for i, s in enumerate(p, 1)], ["x"], outcome="correct") for m, p in LEARNT]
    with Memory.open(path, embedder=CountingEmbedder()) as memory:
        memory.history.add_traces(traces * 2)
        memory.learn(n_clusters=3)
        return clusters(memory.match_nearest(SEEN + [UNSEEN], k=2))


def clusters(found) -> list[list[int]]:  # noqa: ANN001
    return [[m.cluster_id for m in row] for row in found]


def test_a_fresh_open_matches_learnt_shapes_without_embedding(tmp_path):
    path = tmp_path / "m.sqlite"
    expected = learnt_memory(path)
    embedder = CountingEmbedder()
    with Memory.open(path, embedder=embedder) as memory:
        assert clusters(memory.match_nearest(SEEN, k=2)) == expected[:2]
        assert embedder.embedded == []
        assert memory.match(SEEN[0]).cluster_id == expected[0][0]
        assert embedder.embedded == []
        assert clusters(memory.match_nearest([UNSEEN], k=2)) == expected[2:]  # a new shape is embedded as before
        assert embedder.embedded == [clustering_text(UNSEEN, FEATURES)]


def test_one_row_per_distinct_shape_replaced_by_each_learn(tmp_path):
    path = tmp_path / "m.sqlite"
    learnt_memory(path)
    shapes = {clustering_text(m, FEATURES) for m, _ in LEARNT}
    with Memory.open(path, embedder=CountingEmbedder()) as memory:
        memory.learn(n_clusters=2)  # a second version: the model's rows are rewritten, not added
        stored = memory.history.key_vectors(CountingEmbedder.name, CountingEmbedder.dim)
        commonest = memory.history.key_vectors(CountingEmbedder.name, CountingEmbedder.dim, limit=1)
        assert memory.history.key_vectors("another-model", CountingEmbedder.dim) == {}
        assert memory.history.key_vectors(CountingEmbedder.name, 16) == {}  # another dimension: not usable
    assert set(stored) == shapes
    for text, vector in stored.items():
        assert np.array_equal(vector, CountingEmbedder().embed_batch([text])[0])
    assert list(commonest) == ["who did {E} … in {T} ?"]  # six traces have it, the others four or two
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT COUNT(*), MIN(version), MAX(version) FROM key_vectors").fetchone() == (len(shapes), 2, 2)


def test_a_memory_learnt_before_key_vectors_opens_and_matches(tmp_path):
    path = tmp_path / "m.sqlite"
    expected = learnt_memory(path)
    with sqlite3.connect(path) as conn:  # back to the schema and data of a memory made before m007
        conn.execute("DROP TABLE key_vectors")
        conn.execute("DELETE FROM _migrations WHERE name = 'm007_key_vectors'")
    embedder = CountingEmbedder()
    with Memory.open(path, embedder=embedder) as memory:
        assert clusters(memory.match_nearest(SEEN + [UNSEEN], k=2)) == expected
        assert sorted(embedder.embedded) == sorted({clustering_text(q, FEATURES) for q in SEEN + [UNSEEN]})
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT COUNT(*) FROM key_vectors").fetchone() == (0,)
        assert {r[0] for r in conn.execute("SELECT name FROM _migrations")} == {m.__name__ for m in MIGRATIONS}


def test_a_copy_of_the_bundled_memory_opens_with_its_shape_vectors(tmp_path):
    source = bundled_memory_path()
    before = source.read_bytes()
    copy = tmp_path / "demo.sqlite"
    shutil.copyfile(source, copy)
    with Memory.open(copy) as memory:
        latest = memory.history.latest_clustering()
        stored = memory.history.key_vectors(latest.model, latest.centroids.shape[1])
        assert stored and all(v.shape == (latest.centroids.shape[1],) for v in stored.values())
        assert memory.methodologies()
    assert source.read_bytes() == before
