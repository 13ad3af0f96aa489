#!/bin/bash
# Memories for the NEW side (merged main), as /work/s4/prep.sh built them for the start side (116df93).
P=/work/main/.venv/bin/python
cd /work/main; git log --oneline -1
cp /work/base/multitq.duckdb /work/s5/new.duckdb
cp /work/base/readme-mem.sqlite /work/s5/new-final.sqlite
/usr/bin/time -f "new generate readme %e s wall %U user" $P -m ari memory learn --generate 150 --clusters 50 --db /work/s5/new.duckdb --memory /work/s5/new-final.sqlite --quiet
export ARI_RELATION_LEXICON=/work/base/lexicon_shard0.json
cp /work/base/mem.sqlite /work/s5/new-fm.sqlite
/usr/bin/time -f "new generate shard0 %e s wall %U user" $P -m ari memory learn --generate 150 --clusters 100 --db /work/s5/new.duckdb --memory /work/s5/new-fm.sqlite --quiet
echo PREPDONE new
