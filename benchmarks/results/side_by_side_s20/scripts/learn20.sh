#!/bin/bash
# learn19.sh DIR OUT: the learning-split diagnostic sets (MultiTQ dev shard 0/2 rewrites, benchmarks/data/*diagnostic*) with the code in DIR
DIR=$1; OUT=$2; P=/work/main/.venv/bin/python; D=/work/shared/data/multitq; mkdir -p $OUT; cd $DIR
export PYTHONPATH=$DIR ARI_RELATION_LEXICON=/work/base/lexicon_shard0.json
for set in casual_diagnostic_shard0 casual2_diagnostic_shard0 casual3_diagnostic_shard0 shortnames_diagnostic_shard0 restructured_learning_diagnostic restructured_learning_diagnostic_2 restructured_learning_diagnostic_3 restructured_learning_diagnostic_4; do
  cp /work/s11m/fm.sqlite $OUT/m.sqlite; chmod 644 $OUT/m.sqlite
  $P -m benchmarks.paraphrase_bench --db /work/s11m/store/new.duckdb --memory $OUT/m.sqlite --paraphrases /work/main/benchmarks/data/$set.json --part all --dev $D/questions/dev.json --out $OUT/$set > $OUT/$set.log 2>&1
done; rm -f $OUT/m.sqlite*; echo LEARNDONE $OUT
