#!/bin/bash
# Dev parts of every set, as the acc stage of /work/s9/final/final.sh for side new; then compare with /work/runs/s9.
# Usage: parity.sh NAME [COMMIT]  (the code of COMMIT, default HEAD, from a snapshot so that later edits do not mix in)
P=/work/main/.venv/bin/python
R=/work/runs/s10house/$1; B=/work/runs/s9; WT=/work/wt-s10house
T=/work/tmp-s10house; DB=$T/new.duckdb; FM=$T/fm.sqlite; FINAL=$T/final.sqlite
REV=$(git -C $WT rev-parse --short ${2:-HEAD}); DIR=$T/snap-$REV
rm -rf $DIR; mkdir -p $DIR $R; git -C $WT archive $REV | tar -x -C $DIR
side=new
cd $DIR; export PYTHONPATH=$DIR
export ARI_RELATION_LEXICON=/work/base/lexicon_shard0.json
cp $FM $R/dev-$side.sqlite; chmod 644 $R/dev-$side.sqlite
$P -m ari bench run multitq --data-dir /work/shared/data/multitq --split dev --sample 4000 --shard 1/2 --seed 0 --db $DB --memory $R/dev-$side.sqlite --workers 2 --out $R/dev-$side --restart --quiet > $R/dev-$side-0.log 2>&1
[ "$3" = devonly ] && { $P $WT/benchmarks/results/int8_names/compare.py $R/parity-dev.json $B/dev-new $R/dev-new; exit; }
cp $FM $R/ne-$side.sqlite; chmod 644 $R/ne-$side.sqlite
$P -m ari bench run multitq --data-dir /work/shared/data/multitq --db $DB --memory $R/ne-$side.sqlite --workers 2 --quiet --questions /work/runs/abst/no_event_v3.json --out $R/noevent-$side --restart > $R/noevent-$side.log 2>&1
cp $FM $R/pa-$side.sqlite; chmod 644 $R/pa-$side.sqlite
$P -m benchmarks.paraphrase_bench --db $DB --memory $R/pa-$side.sqlite --dev /work/shared/data/multitq/questions/dev.json --out $R/para-$side > $R/para-$side.log 2>&1
for set in nine_styles more_styles invented_styles w10_w11; do
  cp $FM $R/rw-$side.sqlite; chmod 644 $R/rw-$side.sqlite
  $P -m benchmarks.paraphrase_bench --db $DB --memory $R/rw-$side.sqlite --paraphrases $DIR/benchmarks/data/multitq_rewrites_$set.json --part dev --dev /work/shared/data/multitq/questions/dev.json --out $R/rw-$set-dev-$side > $R/rw-$set-dev-$side.log 2>&1
done
cp $FM $R/uv-$side.sqlite; chmod 644 $R/uv-$side.sqlite
$P -m ari bench run multitq --data-dir /work/shared/data/multitq --db $DB --memory $R/uv-$side.sqlite --workers 2 --questions /work/s5/unseen-dev.json --out $R/unseen-dev-$side --restart --quiet > $R/unseen-dev-$side.log 2>&1
for set in shapes shapes_h5 shapes_h7 shapes_h9; do
  cp $FINAL $R/sh-$side.sqlite; chmod 644 $R/sh-$side.sqlite
  env -u ARI_RELATION_LEXICON $P -m ari bench run shapes --data-dir $DIR/benchmarks/data/$set --split dev --db $DB --memory $R/sh-$side.sqlite --workers 1 --out $R/$set-dev-$side --restart --quiet > $R/$set-dev-$side.log 2>&1
done
A=""; for s in dev noevent para rw-nine_styles-dev rw-more_styles-dev rw-invented_styles-dev rw-w10_w11-dev unseen-dev shapes-dev shapes_h5-dev shapes_h7-dev shapes_h9-dev; do A="$A $B/$s-new $R/$s-new"; done
$P $WT/benchmarks/results/int8_names/compare.py $R/parity.json $A
rm -f $R/*.sqlite $R/*.sqlite-shm $R/*.sqlite-wal
echo PARITYDONE
