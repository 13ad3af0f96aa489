#!/bin/bash
# held_final.sh CODE TAG: FINAL's held halves and both halves of the w25/w26 rewrite set, with the code in CODE (a
# snapshot worktree) on /work/s12g's store and memories; totals only. Run as: held_final.sh /work/snap-f final2
# (33c8d41) and held_final.sh /work/snap-f3 final3 (d169fc3). held.sh ran START and the first held run (c779c24).
cd /work/s12; P=/work/main/.venv/bin/python; D=/work/shared/data/multitq; W=/work/s12/writers/multitq_rewrites_w25_w26.json
DIR=$1; TAG=$2; A=/work/s12g
PART=held DB=$A/store/new.duckdb FM=$A/fm.sqlite FINAL=$A/final.sqlite ./hrun.sh $DIR /work/runs/s12-$TAG-held rw unseen probes shapes w2122
for part in dev held; do
  cp $A/fm.sqlite /tmp/w2526.sqlite; chmod 644 /tmp/w2526.sqlite
  (cd $DIR && PYTHONPATH=$DIR ARI_RELATION_LEXICON=/work/base/lexicon_shard0.json $P -m benchmarks.paraphrase_bench --db $A/store/new.duckdb --memory /tmp/w2526.sqlite --paraphrases $W --part $part --dev $D/questions/dev.json --out /work/runs/s12-$TAG-w2526-$part > /work/runs/s12-$TAG-w2526-$part.log 2>&1)
done
echo HELDDONE
