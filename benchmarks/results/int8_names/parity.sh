#!/bin/bash
# int8 entity-name vectors against float32, same code: the s7 NEW runs (fp32 store) vs this store's.
P=/work/main/.venv/bin/python; R=/work/runs/s8p; DIR=/work/main; DB=/work/s8/int8/store/new.duckdb
FM=/work/base/s8-fm.sqlite; FINAL=/work/base/s8-final.sqlite
export ARI_RELATION_LEXICON=/work/base/lexicon_shard0.json
cd $DIR
cp $FM $R/pa.sqlite; PYTHONPATH=$DIR $P -m benchmarks.paraphrase_bench --db $DB --memory $R/pa.sqlite --dev /work/shared/data/multitq/questions/dev.json --out $R/para-new > $R/para.log 2>&1
for set in nine_styles more_styles invented_styles w10_w11; do cp $FM $R/rw.sqlite
  PYTHONPATH=$DIR $P -m benchmarks.paraphrase_bench --db $DB --memory $R/rw.sqlite --paraphrases /work/main/benchmarks/data/multitq_rewrites_$set.json --part dev --dev /work/shared/data/multitq/questions/dev.json --out $R/rw-$set-dev-new > $R/rw-$set.log 2>&1
done
cp $FM $R/uv.sqlite; $P -m ari bench run multitq --data-dir /work/shared/data/multitq --db $DB --memory $R/uv.sqlite --workers 2 --questions /work/s5/unseen-dev.json --out $R/unseen-dev-new --restart --quiet > $R/uv.log 2>&1
cp $FM $R/ne.sqlite; $P -m ari bench run multitq --data-dir /work/shared/data/multitq --db $DB --memory $R/ne.sqlite --workers 2 --quiet --questions /work/runs/abst/no_event_v3.json --out $R/noevent-new --restart > $R/ne.log 2>&1
for set in shapes shapes_h5 shapes_h7; do cp $FINAL $R/sh.sqlite
  env -u ARI_RELATION_LEXICON $P -m ari bench run shapes --data-dir /work/main/benchmarks/data/$set --split dev --db $DB --memory $R/sh.sqlite --workers 1 --out $R/$set-dev-new --restart --quiet > $R/$set.log 2>&1
done
echo PARITYDONE
