"""Question shapes, K-means with a clamped K, nearest-centroid assignment and the 2-D layout."""

from __future__ import annotations

import sqlite3

import numpy as np
from sklearn.cluster import KMeans

from agents.analysis.question_type import question_shape
from memory import Memory
from memory.clustering import FEATURES, RAW, clustering_text, fit_kmeans, layout_2d, nearest_centroid
from memory.trace import StepRecord, Trace


def test_shape_keeps_cues_and_placeholders_and_drops_content_words():
    assert question_shape("With which country did {E1} last sign formal agreements before the {E2}?") == (
        "with which country did {E} last … before the {E} ?"
    )
    assert question_shape("In which year did {E1} visit {E2} for the first time?") == (
        "in which year did {E} … {E} for the first time ?"
    )
    # Same reasoning, different relation: one shape. Different cue: another shape.
    assert question_shape("Who criticised {E1} after {T1}?") == question_shape("Who praised {E2} after {T3}?")
    assert question_shape("Who criticised {E1} after {T1}?") != question_shape("Who criticised {E1} before {T1}?")


def test_clustering_text_by_features():
    masked = "Who praised {E1} in {T1}?"
    assert clustering_text(masked, FEATURES) == "who … {E} in {T} ?"
    assert clustering_text(masked, RAW) == masked


def test_kmeans_is_deterministic_and_clamps_k():
    rng = np.random.default_rng(0)
    blobs = np.vstack([rng.normal(c, 0.05, size=(10, 4)) for c in (0.0, 1.0, 2.0)]).astype(np.float32)
    labels, centroids = fit_kmeans(blobs, 3)
    again, _ = fit_kmeans(blobs, 3)
    assert (labels == again).all()
    assert len(set(labels[:10])) == len(set(labels[10:20])) == len(set(labels[20:])) == 1
    assert len(set(labels.tolist())) == 3
    duplicated = np.repeat(blobs[:2], 5, axis=0)  # two distinct points
    labels, centroids = fit_kmeans(duplicated, 10)
    assert centroids.shape == (2, 4)


def test_nearest_centroid_agrees_with_kmeans_predict():
    rng = np.random.default_rng(1)
    points = rng.normal(size=(200, 8)).astype(np.float32)
    model = KMeans(n_clusters=6, random_state=0, n_init=3).fit(points)
    queries = rng.normal(size=(50, 8)).astype(np.float32)
    assert (nearest_centroid(queries, model.cluster_centers_.astype(np.float32)) == model.predict(queries)).all()


def test_layout_is_two_dimensional_even_for_tiny_histories():
    assert layout_2d(np.ones((1, 5), dtype=np.float32)).shape == (1, 2)
    points = layout_2d(np.random.default_rng(2).normal(size=(30, 5)).astype(np.float32))
    assert points.shape == (30, 2) and points.std(axis=0).min() > 0


def test_a_clustering_made_before_shapes_still_matches_on_the_masked_text(tmp_path):
    from ari.base.embedding import get_embedder

    path = tmp_path / "m.sqlite"
    with Memory.open(path, embedder=get_embedder()) as memory:
        memory.history.add_traces([Trace("q", "Who praised {E1} in {T1}?", [StepRecord(1, [], "answer(#1)", "answer(#1)", 1)],
                                         outcome="correct")])
        memory.learn(n_clusters=1)
        assert memory.key("Who praised {E1} in {T1}?") == "who … {E} in {T} ?"
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE clusterings SET features = NULL")  # as m006 leaves clusterings made before it
    with Memory.open(path, embedder=get_embedder()) as memory:
        assert memory.key("Who praised {E1} in {T1}?") == "Who praised {E1} in {T1}?"
        assert memory.match("Who praised {E1} in {T1}?").cluster_id == 0


def test_nearest_centroids_are_ordered_and_start_with_the_nearest():
    from memory.clustering import nearest_centroids

    rng = np.random.default_rng(3)
    centroids = rng.normal(size=(7, 5)).astype(np.float32)
    queries = rng.normal(size=(20, 5)).astype(np.float32)
    order = nearest_centroids(queries, centroids, 3)
    assert order.shape == (20, 3)
    assert (order[:, 0] == nearest_centroid(queries, centroids)).all()
    distances = ((queries[:, None, :] - centroids[None, :, :]) ** 2).sum(axis=2)
    for row, ranked in zip(distances, order):
        assert list(ranked) == list(np.argsort(row, kind="stable")[:3])
    assert nearest_centroids(queries, centroids, 99).shape == (20, 7)
