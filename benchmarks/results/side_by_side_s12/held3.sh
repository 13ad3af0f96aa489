#!/bin/bash
# Held halves, START (detached 00c215a, /work/s11m assets) and FINAL (snapshot of merged main, /work/s12g assets): totals only.
# Also the new w25/w26 rewrite set, both halves, on both sides.
cd /work/s12; P=/work/main/.venv/bin/python; D=/work/shared/data/multitq; W=/work/s12/writers/multitq_rewrites_w25_w26.json
FINALDIR=${FINALDIR:-/work/snap-f3}
PART=held DB=/work/s12g/store/new.duckdb FM=/work/s12g/fm.sqlite FINAL=/work/s12g/final.sqlite ./hrun.sh $FINALDIR /work/runs/s12-final3-held rw unseen probes shapes w2122
for side in final3; do
  DIR=$FINALDIR; A=/work/s12g
  for part in dev held; do
    cp $A/fm.sqlite /tmp/w2526.sqlite; chmod 644 /tmp/w2526.sqlite
    (cd $DIR && PYTHONPATH=$DIR ARI_RELATION_LEXICON=/work/base/lexicon_shard0.json $P -m benchmarks.paraphrase_bench --db $A/store/new.duckdb --memory /tmp/w2526.sqlite --paraphrases $W --part $part --dev $D/questions/dev.json --out /work/runs/s12-$side-w2526-$part > /work/runs/s12-$side-w2526-$part.log 2>&1)
  done
done
echo HELDDONE
