"""K-means over embeddings of question shapes, and nearest-centroid assignment.

Masked questions ("Who criticised {E1} before {E2} did?") hide the entities, but a sentence
embedding of them is still dominated by the relation's verb: on MultiTQ dev, K-means over masked
questions grouped "criticise" questions together whatever their temporal pattern (K=10: 37% of
questions in a cluster whose majority type was their own). What decides the reasoning is the
question's *shape*: its function words, temporal cues and placeholders. So each masked question is
reduced to that shape first ("who was the first to … with {E} after {E} ?":
`agents.analysis.question_type.question_shape`), and the shapes are
embedded and clustered (K=10: 63%; K=20: 83%; benchmarks/results/memory_bench.md). The seed is
fixed so the same history always gives the same clusters.
"""

from __future__ import annotations

import numpy as np
from threadpoolctl import threadpool_limits

from agents.analysis.question_type import question_shape
from ari.base.embedding import Embedder

SEED = 0
# scikit-learn's OpenMP/BLAS threads spin-wait; on a shared or busy machine that made K-means 5-30x
# slower than one thread (0.42 s vs 0.01 s on 50 traces, 32 s vs 6 s on 20k, 2 cores under load).
THREADS = 1


FEATURES = "shape-v1"  # what the clustering embeds; stored with each clustering version
RAW = "masked"  # clusterings made before shapes embedded the masked question itself

def clustering_text(masked: str, features: str) -> str:
    """The text a clustering embeds for a masked question, by the clustering's features."""
    return question_shape(masked) if features == FEATURES else masked


def embed_unique(texts: list[str], embedder: Embedder) -> np.ndarray:
    """Embed texts, computing each distinct text once (many traces share one masked question)."""
    if not texts:
        return np.zeros((0, embedder.dim), dtype=np.float32)
    unique = sorted(set(texts))
    vectors = embedder.embed_batch(unique)
    row = {text: i for i, text in enumerate(unique)}
    return np.asarray(vectors[[row[t] for t in texts]], dtype=np.float32)


def fit_kmeans(
    vectors: np.ndarray, n_clusters: int, seed: int = SEED, weights: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """(labels [n], centroids [k, d]) with k clamped to the number of distinct vectors.

    `weights` counts how often each row occurs: K-means over distinct rows weighted by their counts
    minimises the same objective as over every repeated row, and a history of 150,000 traces has a
    few thousand distinct question shapes.
    """
    from sklearn.cluster import KMeans

    if len(vectors) == 0:
        raise ValueError("cannot cluster an empty history")
    distinct = len(np.unique(vectors.round(6), axis=0))
    k = max(1, min(int(n_clusters), distinct))
    with threadpool_limits(THREADS):
        model = KMeans(n_clusters=k, random_state=seed, n_init=10).fit(vectors, sample_weight=weights)
    return model.labels_.astype(np.int64), model.cluster_centers_.astype(np.float32)


def nearest_centroid(vectors: np.ndarray, centroids: np.ndarray) -> np.ndarray:
    """Index of the nearest centroid (Euclidean, as K-means assigns) for each row.

    argmin |x - c|^2 = argmax (x.c - |c|^2 / 2): one matrix product, fast enough for one question
    at a time and for whole batches.
    """
    return _centroid_scores(vectors, centroids).argmax(axis=1)


def nearest_centroids(vectors: np.ndarray, centroids: np.ndarray, k: int) -> np.ndarray:
    """Indices of the `k` nearest centroids for each row, nearest first."""
    scores = _centroid_scores(vectors, centroids)
    return np.argsort(-scores, axis=1, kind="stable")[:, : max(1, min(k, centroids.shape[0]))]


def _centroid_scores(vectors: np.ndarray, centroids: np.ndarray) -> np.ndarray:
    vectors = np.atleast_2d(np.asarray(vectors, dtype=np.float32))
    return vectors @ centroids.T - 0.5 * np.einsum("ij,ij->i", centroids, centroids)[None, :]


def layout_2d(vectors: np.ndarray, seed: int = SEED, weights: np.ndarray | None = None) -> np.ndarray:
    """2-D PCA positions for the cluster picture (a linear map, so a cluster's centroid projects
    to the mean of its members' positions). `weights`: how often each row occurs, as `fit_kmeans`.
    The seed is kept for callers; the principal axes are computed exactly, with fixed signs."""
    vectors = np.asarray(vectors, dtype=np.float64)
    if len(vectors) < 2:
        return np.zeros((len(vectors), 2), dtype=np.float32)
    w = np.ones(len(vectors)) if weights is None else np.asarray(weights, dtype=np.float64)
    centred = vectors - np.average(vectors, axis=0, weights=w)
    with threadpool_limits(THREADS):  # a small matrix: BLAS threads would only wait on each other and the workers
        covariance = (centred * w[:, None]).T @ centred / w.sum()
        values, axes = np.linalg.eigh(covariance)
    axes = axes[:, np.argsort(values)[::-1][:2]]
    axes *= np.sign(axes[np.abs(axes).argmax(axis=0), range(axes.shape[1])])  # the largest loading positive
    points = centred @ axes
    if points.shape[1] < 2:
        points = np.hstack([points, np.zeros((len(points), 2 - points.shape[1]))])
    return points.astype(np.float32)
