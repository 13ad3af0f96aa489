#!/bin/bash
# Memories for one side of the final side-by-side: $1 = side name, $2 = code dir
P=/work/main/.venv/bin/python
S=$1; D=$2
cd $D; git log --oneline -1
cp /work/base/multitq.duckdb /work/s3/$S.duckdb
cp /work/base/readme-mem.sqlite /work/s3/$S-final.sqlite
/usr/bin/time -f "$S generate readme %e s wall %U user" $P -m ari memory learn --generate 150 --clusters 50 --db /work/s3/$S.duckdb --memory /work/s3/$S-final.sqlite --quiet
export ARI_RELATION_LEXICON=/work/base/lexicon_shard0.json
cp /work/base/mem.sqlite /work/s3/$S-fm.sqlite
/usr/bin/time -f "$S generate shard0 %e s wall %U user" $P -m ari memory learn --generate 150 --clusters 100 --db /work/s3/$S.duckdb --memory /work/s3/$S-fm.sqlite --quiet
echo PREPDONE $S
