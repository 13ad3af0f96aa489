#!/bin/bash
# CPU seconds of one-worker runs (600 dev shard-1/2 questions), start vs main, interleaved; answers compared.
P=/work/main/.venv/bin/python
export ARI_RELATION_LEXICON=/work/base/lexicon_shard0.json
for i in 1 2; do for side in start main; do
  if [ $side = start ]; then D=/work/wt-s4start; else D=/work/main; fi
  cp /work/s3/new-fm.sqlite /work/s4/ab-$side.sqlite
  cd $D && /usr/bin/time -f "$side $i: %e s wall %U user %S sys" $P -m ari bench run multitq --data-dir /work/shared/data/multitq --split dev --sample 1200 --shard 1/2 --seed 0 --db /work/s3/new.duckdb --memory /work/s4/ab-$side.sqlite --workers 1 --out /work/s4/ab-$side --restart --quiet 2>&1 | tail -1
done; done
$P - <<'PY'
import json
def load(s): return {json.loads(l)["qid"]: (json.loads(l)["answer"], json.loads(l)["abstained"]) for l in open(f"/work/s4/ab-{s}/results.jsonl")}
a, b = load("start"), load("main")
print("questions", len(a), "different outcomes", sum(a[q] != b.get(q) for q in a))
PY
