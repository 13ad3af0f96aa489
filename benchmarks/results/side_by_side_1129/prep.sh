#!/bin/bash
# Rebuild the evaluation assets on a fresh machine (the tenth session's /work/base and /work/s10 are gone).
set -x
P=/work/main/.venv/bin/python
D=/work/shared/data/multitq
cd /work/main; git log --oneline -1; date
mkdir -p /work/s11/store
$P -m ari ingest multitq $D --db /work/s11/store/new.duckdb --quiet; date
$P -m benchmarks.learn_lexicon --db /work/s11/store/new.duckdb --questions $D/questions/dev.json --shard 0/2 --out /work/base/lexicon_shard0.json; date
python3 - <<'PY'
import json
d=json.load(open('/work/main/benchmarks/data/multitq_unseen_verbs.json'))
for p in ('dev','held'):
    json.dump([q for q in d if q['part']==p], open(f'/work/s11/unseen-{p}.json','w'))
PY
$P -m benchmarks.learn_memory --db /work/s11/store/new.duckdb --memory /work/base/mem.sqlite --questions $D/questions/dev.json --shard 0/2 --limit 4000 --processes 2 --quiet; date
$P -m ari memory induce --clusters 100 --memory /work/base/mem.sqlite; date
$P -m ari memory learn --dataset multitq --data-dir $D --split dev --limit 4000 --search --clusters 50 --db /work/s11/store/new.duckdb --memory /work/base/readme-mem.sqlite --quiet; date
$P -m ari bench make-unanswerable --db /work/s11/store/new.duckdb --data-dir $D --split dev --shard 1/2 --kinds no_event_time,no_event_pair,unreadable_time,not_a_question --per-kind 100 --seed 12 --out /work/runs/abst/no_event_v3.json; date
cp /work/base/readme-mem.sqlite /work/s11/final.sqlite
$P -m ari memory learn --generate 150 --clusters 50 --db /work/s11/store/new.duckdb --memory /work/s11/final.sqlite --quiet; date
cp /work/base/mem.sqlite /work/s11/fm.sqlite
ARI_RELATION_LEXICON=/work/base/lexicon_shard0.json $P -m ari memory learn --generate 150 --clusters 100 --db /work/s11/store/new.duckdb --memory /work/s11/fm.sqlite --quiet; date
chmod 444 /work/s11/fm.sqlite /work/s11/final.sqlite
echo PREPDONE
