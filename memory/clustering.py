"""K-means over embeddings of masked questions, and nearest-centroid assignment.

Masked questions ("Who criticised {E1} before {E2} did?") carry the *shape* of a question without
its entities, so questions that need the same reasoning fall into one cluster whatever they are
about. The seed is fixed so the same history always gives the same clusters.
"""

from __future__ import annotations

import numpy as np
from threadpoolctl import threadpool_limits

from ari.embedding import Embedder

SEED = 0
# scikit-learn's OpenMP/BLAS threads spin-wait; on a shared or busy machine that made K-means 5-30x
# slower than one thread (0.42 s vs 0.01 s on 50 traces, 32 s vs 6 s on 20k, 2 cores under load).
THREADS = 1


def embed_unique(texts: list[str], embedder: Embedder) -> np.ndarray:
    """Embed texts, computing each distinct text once (many traces share one masked question)."""
    if not texts:
        return np.zeros((0, embedder.dim), dtype=np.float32)
    unique = sorted(set(texts))
    vectors = embedder.embed_batch(unique)
    row = {text: i for i, text in enumerate(unique)}
    return np.asarray(vectors[[row[t] for t in texts]], dtype=np.float32)


def fit_kmeans(vectors: np.ndarray, n_clusters: int, seed: int = SEED) -> tuple[np.ndarray, np.ndarray]:
    """(labels [n], centroids [k, d]) with k clamped to the number of distinct vectors."""
    from sklearn.cluster import KMeans

    if len(vectors) == 0:
        raise ValueError("cannot cluster an empty history")
    distinct = len(np.unique(vectors.round(6), axis=0))
    k = max(1, min(int(n_clusters), distinct))
    with threadpool_limits(THREADS):
        model = KMeans(n_clusters=k, random_state=seed, n_init=10).fit(vectors)
    return model.labels_.astype(np.int64), model.cluster_centers_.astype(np.float32)


def nearest_centroid(vectors: np.ndarray, centroids: np.ndarray) -> np.ndarray:
    """Index of the nearest centroid (Euclidean, as K-means assigns) for each row.

    argmin |x - c|^2 = argmax (x.c - |c|^2 / 2): one matrix product, fast enough for one question
    at a time and for whole batches.
    """
    vectors = np.atleast_2d(np.asarray(vectors, dtype=np.float32))
    scores = vectors @ centroids.T - 0.5 * np.einsum("ij,ij->i", centroids, centroids)[None, :]
    return scores.argmax(axis=1)


def layout_2d(vectors: np.ndarray, seed: int = SEED) -> np.ndarray:
    """2-D PCA positions for the cluster picture (a linear map, so a cluster's centroid projects
    to the mean of its members' positions)."""
    from sklearn.decomposition import PCA

    if len(vectors) < 2:
        return np.zeros((len(vectors), 2), dtype=np.float32)
    components = min(2, vectors.shape[1], len(vectors))
    with threadpool_limits(THREADS):
        points = PCA(n_components=components, random_state=seed).fit_transform(vectors)
    if components < 2:
        points = np.hstack([points, np.zeros((len(points), 2 - components))])
    return points.astype(np.float32)
