#!/bin/bash
# NEW-side memories for the final side-by-side (merged code at the time it runs)
P=/work/main/.venv/bin/python
cd /work/main
git log --oneline -1
cp /work/base/multitq.duckdb /work/base/new.duckdb
cp /work/base/readme-mem.sqlite /work/base/new-final.sqlite
/usr/bin/time -f "generate readme %e s wall %U user" $P -m ari memory learn --generate 150 --clusters 50 --db /work/base/new.duckdb --memory /work/base/new-final.sqlite --quiet
export ARI_RELATION_LEXICON=/work/base/lexicon_shard0.json
cp /work/base/mem.sqlite /work/base/new-fm.sqlite
/usr/bin/time -f "generate shard0 %e s wall %U user" $P -m ari memory learn --generate 150 --clusters 100 --db /work/base/new.duckdb --memory /work/base/new-fm.sqlite --quiet
echo PREPDONE
