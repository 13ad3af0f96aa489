#!/bin/bash
# newsets.sh DIR OUT: the seventeenth session's new sets (rewrites w37/w38, shapes_h17) with the code in DIR; PART=dev|held
DIR=$1; OUT=$2; PART=${PART:-dev}; P=/work/main/.venv/bin/python
DB=/work/s11m/store/new.duckdb; D=/work/shared/data/multitq
RW=${RW:-/work/s17/writers/rw_w37_w38.json}; SH=${SH:-/work/s17/shapes_h17}
mkdir -p $OUT; cd $DIR; export PYTHONPATH=$DIR ARI_RELATION_LEXICON=/work/base/lexicon_shard0.json
cp /work/s11m/fm.sqlite $OUT/m-rw.sqlite; cp /work/s11m/final.sqlite $OUT/m-sh.sqlite; chmod 644 $OUT/m-*.sqlite
$P -m benchmarks.paraphrase_bench --db $DB --memory $OUT/m-rw.sqlite --paraphrases $RW --part $PART --dev $D/questions/dev.json --out $OUT/rw-w37_w38 > $OUT/rw-w37_w38.log 2>&1
env -u ARI_RELATION_LEXICON $P -m ari bench run shapes --data-dir $SH --split $PART --db $DB --memory $OUT/m-sh.sqlite --workers 1 --out $OUT/shapes_h17 --restart --quiet > $OUT/shapes_h17.log 2>&1
rm -f $OUT/m-*.sqlite*; echo NEWDONE $OUT
