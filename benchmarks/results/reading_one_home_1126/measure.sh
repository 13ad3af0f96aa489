#!/bin/bash
# $1 = tag, $2 = commit, $3 = which (rw,para,mtq); measured on a snapshot of the commit
T=/work/tmp-reading/s3
S=$T/snap-$1
rm -rf $S; mkdir -p $S; (cd /work/wt-reading && git archive $2 | tar -x -C $S)
cd $S
export ARI_RELATION_LEXICON=/work/base/lexicon_shard0.json
P=/work/main/.venv/bin/python
for w in ${3//,/ }; do
  cp /work/base/new-fm.sqlite $T/mem-$1-$w.sqlite
  case $w in
  rw) /usr/bin/time -f "%e s" $P -m benchmarks.paraphrase_bench --db $T/multitq.duckdb --memory $T/mem-$1-$w.sqlite --paraphrases benchmarks/data/multitq_rewrites_nine_styles.json --part dev --dev /work/shared/data/multitq/questions/dev.json --out $T/rw-$1 > $T/rw-$1.log 2>&1;;
  para) /usr/bin/time -f "%e s" $P -m benchmarks.paraphrase_bench --db $T/multitq.duckdb --memory $T/mem-$1-$w.sqlite --dev /work/shared/data/multitq/questions/dev.json --out $T/para-$1 > $T/para-$1.log 2>&1;;
  mtq) /usr/bin/time -f "%e s" $P -m ari bench run multitq --data-dir /work/shared/data/multitq --split dev --sample 4000 --shard 1/2 --seed 0 --workers 2 --db $T/multitq.duckdb --memory $T/mem-$1-$w.sqlite --out $T/mtq-$1 --restart > $T/mtq-$1.log 2>&1;;
  abst) /usr/bin/time -f "%e s" $P -m ari bench run multitq --data-dir /work/shared/data/multitq --db $T/multitq.duckdb --memory $T/mem-$1-$w.sqlite --workers 2 --quiet --questions /work/runs/abst/no_event_v3.json --out $T/abst-$1 --restart > $T/abst-$1.log 2>&1;;
  esac
  rm -f $T/mem-$1-$w.sqlite*
done
echo DONE
