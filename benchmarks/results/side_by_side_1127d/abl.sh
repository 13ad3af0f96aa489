#!/bin/bash
# Held totals for one configuration: $1 out, $2 code dir; FM, FINAL, DB from env.
P=/work/main/.venv/bin/python; R=$1; DIR=$2; mkdir -p $R; cd $DIR; export ARI_RELATION_LEXICON=/work/base/lexicon_shard0.json
for set in shapes shapes_h7 shapes_h9; do for split in held dev; do cp $FINAL $R/s.sqlite; chmod 644 $R/s.sqlite
  env -u ARI_RELATION_LEXICON PYTHONPATH=$DIR $P -m ari bench run shapes --data-dir /work/main/benchmarks/data/$set --split $split --db $DB --memory $R/s.sqlite --workers 1 --out $R/$set-$split --restart --quiet > $R/$set-$split.log 2>&1
done; done
for set in nine_styles more_styles invented_styles w10_w11; do cp $FM $R/m.sqlite; chmod 644 $R/m.sqlite
  PYTHONPATH=$DIR $P -m benchmarks.paraphrase_bench --db $DB --memory $R/m.sqlite --paraphrases /work/main/benchmarks/data/multitq_rewrites_$set.json --part held --dev /work/shared/data/multitq/questions/dev.json --out $R/rw-$set-held > $R/rw-$set.log 2>&1
done
echo ABLDONE
