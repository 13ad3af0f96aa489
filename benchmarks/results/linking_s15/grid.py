"""How the whole-phrase floor and margin were chosen: on the learning split's renamed pairs (cron_names_bench's, the
check part left out), the phrase as people wrote it against every entity name of the store, for pairs whose words are
no KG name: how many phrases each (floor, margin) reads, and how many of those as the entity meant.

    PYTHONPATH=. python benchmarks/results/linking_s15/grid.py CRON WD12K IDS STORE > benchmarks/results/linking_s15/grid.txt
"""

import json
import sys
from pathlib import Path

import numpy as np

from ari.base.embedding import get_embedder
from benchmarks.cron_devset import read_names
from benchmarks.cron_names_bench import renamed_pairs
from benchmarks.loaders.safe_pickle import load_plain_pickle
from tkg_store.name_vectors import name_vectors
from tkg_store.store import TKGStore

cron, wd12k, ids, db = map(Path, sys.argv[1:5])
held = {str(u) for u in json.loads(ids.read_text())["check"]}
loaded = load_plain_pickle(cron / "questions" / "complex_valid.pickle")
records = [r for r in (loaded if isinstance(loaded, list) else []) if isinstance(r, dict) and str(r.get("uniq_id")) not in held]
facts = [line.split("\t")[:3] for line in (wd12k / "wd12k_named.tsv").read_text().splitlines()]
kg = {name for h, _, t in facts for name in (h, t)}
with TKGStore.open(db, read_only=True) as store:
    embedder = get_embedder()
    vectors = name_vectors(store, embedder)
    matrix = vectors.entity_matrix.astype(np.float32)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    pairs = [p for p in renamed_pairs(records, read_names(cron / "kg" / "wd_id2entity_text.txt"), kg) if p["words"] not in kg]
    queries = np.asarray(embedder.embed_batch([p["words"] for p in pairs]), dtype=np.float32)
    queries /= np.linalg.norm(queries, axis=1, keepdims=True)
    rows = []
    for pair, sims in zip(pairs, queries @ matrix.T):
        top = np.argsort(-sims)[:5]
        first = store.display(vectors.entities[top[0]])
        other = next(float(sims[t]) for t in top[1:] if store.display(vectors.entities[t]) != first)
        rows.append((float(sims[top[0]]), float(sims[top[0]]) - other, first == store.display(pair["entity"])))
print(f"{len(rows)} pairs whose words are no KG name")
print("floor margin read right wrong")
for floor in (0.78, 0.8, 0.82, 0.85, 0.88):
    for margin in (0.03, 0.05, 0.08, 0.1):
        kept = [r for r in rows if r[0] >= floor and r[1] >= margin]
        print(floor, margin, len(kept), sum(r[2] for r in kept), len(kept) - sum(r[2] for r in kept))
