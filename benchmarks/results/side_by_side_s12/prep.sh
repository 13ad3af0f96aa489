#!/bin/bash
# prep.sh CODE OUT: a side's store and memories, made by the code in CODE (a snapshot worktree) into OUT, the searched
# parts reused (as every session since the tenth). FINAL: prep.sh /work/snap-f /work/s12g (c779c24's first held run:
# prep.sh /work/snap-m1 /work/s12f).
set -x
P=/work/main/.venv/bin/python; D=/work/shared/data/multitq; CODE=$1; M=$2
cd $CODE; export PYTHONPATH=$CODE; git log --oneline -1; rm -rf $M; mkdir -p $M/store
$P -m ari ingest multitq $D --db $M/store/new.duckdb --quiet
cp /work/base/readme-mem.sqlite $M/final.sqlite
$P -m ari memory learn --generate 150 --clusters 50 --db $M/store/new.duckdb --memory $M/final.sqlite --quiet
cp /work/base/mem.sqlite $M/fm.sqlite
ARI_RELATION_LEXICON=/work/base/lexicon_shard0.json $P -m ari memory learn --generate 150 --clusters 100 --db $M/store/new.duckdb --memory $M/fm.sqlite --quiet
chmod 444 $M/fm.sqlite $M/final.sqlite
echo PREPDONE
