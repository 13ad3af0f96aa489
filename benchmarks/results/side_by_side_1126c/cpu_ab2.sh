#!/bin/bash
# Whole command, 2 workers, 2,010 dev shard-1/2 questions: start vs main; CPU seconds (all processes) and outcomes.
P=/work/main/.venv/bin/python
export ARI_RELATION_LEXICON=/work/base/lexicon_shard0.json
for side in start main; do
  if [ $side = start ]; then D=/work/wt-s4start; else D=/work/main; fi
  cp /work/s3/new-fm.sqlite /work/s4/ab2-$side.sqlite
  cd $D && /usr/bin/time -f "$side: %e s wall %U user %S sys" $P -m ari bench run multitq --data-dir /work/shared/data/multitq --split dev --sample 4000 --shard 1/2 --seed 0 --db /work/s3/new.duckdb --memory /work/s4/ab2-$side.sqlite --workers 2 --out /work/s4/ab2-$side --restart --quiet 2>&1 | tail -1
  tail -1 /work/s4/ab2-$side/sessions.jsonl
done
$P - <<'PY'
import json
def load(s): return {json.loads(l)["qid"]: (json.loads(l)["answer"], json.loads(l)["abstained"]) for l in open(f"/work/s4/ab2-{s}/results.jsonl")}
a, b = load("start"), load("main")
print("questions", len(a), "different outcomes", sum(a[q] != b.get(q) for q in a))
PY
