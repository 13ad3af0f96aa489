#!/bin/bash
# Dev parts of every set, as the acc stage of /work/s8/final/final2.sh for side new; then compare with /work/runs/s8b.
P=/work/main/.venv/bin/python
R=/work/runs/s9house
DIR=${DIR:-/work/wt-s9house}; DB=/work/tmp-s9house/new.duckdb; FM=/work/tmp-s9house/fm.sqlite; FINAL=/work/tmp-s9house/final.sqlite
side=new
mkdir -p $R; cd $DIR; export PYTHONPATH=$DIR${EXTRA:+:$EXTRA}
export ARI_RELATION_LEXICON=/work/base/lexicon_shard0.json
cp $FM $R/dev-$side.sqlite; chmod 644 $R/dev-$side.sqlite
$P -m ari bench run multitq --data-dir /work/shared/data/multitq --split dev --sample 4000 --shard 1/2 --seed 0 --db $DB --memory $R/dev-$side.sqlite --workers 2 --out $R/dev-$side --restart --quiet > $R/dev-$side-0.log 2>&1
[ "$1" = devonly ] && { $P benchmarks/results/int8_names/compare.py $R/parity-dev.json /work/runs/s8b/dev-new $R/dev-new; exit; }
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
for set in shapes shapes_h5 shapes_h7; do
  cp $FINAL $R/sh-$side.sqlite; chmod 644 $R/sh-$side.sqlite
  env -u ARI_RELATION_LEXICON $P -m ari bench run shapes --data-dir $DIR/benchmarks/data/$set --split dev --db $DB --memory $R/sh-$side.sqlite --workers 1 --out $R/$set-dev-$side --restart --quiet > $R/$set-dev-$side.log 2>&1
done
A=""; for s in dev noevent para rw-nine_styles-dev rw-more_styles-dev rw-invented_styles-dev rw-w10_w11-dev unseen-dev shapes-dev shapes_h5-dev shapes_h7-dev; do A="$A /work/runs/s8b/$s-new $R/$s-new"; done
$P benchmarks/results/int8_names/compare.py $R/parity.json $A
echo PARITYDONE
