#!/bin/bash
# Side by side: START = 116df93 (/work/wt-s5start; memories /work/s4/new-*, store /work/s4/new.duckdb; its accuracy
# rows are /work/runs/s4/*-new, the fourth session's runs of the same code and memories: deterministic)
# vs NEW = merged main (/work/main, memories /work/s5/new-* from /work/s5/prep.sh).
P=/work/main/.venv/bin/python
R=/work/runs/s5
mkdir -p $R
side_env() {
  if [ $1 = start ]; then DIR=/work/wt-s5start; DB=/work/s4/new.duckdb; FM=/work/s4/new-fm.sqlite; FINAL=/work/s4/new-final.sqlite
  else DIR=/work/main; DB=/work/s5/new.duckdb; FM=/work/s5/new-fm.sqlite; FINAL=/work/s5/new-final.sqlite; fi
}
rewrites() {  # $1 side, $2 set name, $3 parts
  for part in ${3:-dev held}; do cp $FM $R/rw-$1.sqlite
    PYTHONPATH=$DIR $P -m benchmarks.paraphrase_bench --db $DB --memory $R/rw-$1.sqlite --paraphrases /work/main/benchmarks/data/multitq_rewrites_$2.json --part $part --dev /work/shared/data/multitq/questions/dev.json --out $R/rw-$2-$part-$1 > $R/rw-$2-$part-$1.log 2>&1
  done
}
export ARI_RELATION_LEXICON=/work/base/lexicon_shard0.json
if [ "$1" = timed ]; then
for i in 1 2; do for side in start new; do side_env $side; cp $FM $R/dev-$side.sqlite
  cd $DIR && /usr/bin/time -f "$side dev $i: %e s wall" $P -m ari bench run multitq --data-dir /work/shared/data/multitq --split dev --sample 4000 --shard 1/2 --seed 0 --db $DB --memory $R/dev-$side.sqlite --workers 2 --out $R/dev-$side --restart --quiet > $R/dev-$side-$i.log 2>&1
  tail -1 $R/dev-$side-$i.log
done; done
fi
if [ "$1" = dev ]; then side_env new; cp $FM $R/dev-new.sqlite; cd $DIR
  $P -m ari bench run multitq --data-dir /work/shared/data/multitq --split dev --sample 4000 --shard 1/2 --seed 0 --db $DB --memory $R/dev-new.sqlite --workers 2 --out $R/dev-new --restart --quiet > $R/dev-new-0.log 2>&1
fi
if [ "$1" = acc ]; then side=new; side_env $side; cd $DIR
  cp $FM $R/ne-$side.sqlite
  $P -m ari bench run multitq --data-dir /work/shared/data/multitq --db $DB --memory $R/ne-$side.sqlite --workers 2 --quiet --questions /work/runs/abst/no_event_v3.json --out $R/noevent-$side --restart > $R/noevent-$side.log 2>&1
  cp $FM $R/pa-$side.sqlite
  PYTHONPATH=$DIR $P -m benchmarks.paraphrase_bench --db $DB --memory $R/pa-$side.sqlite --dev /work/shared/data/multitq/questions/dev.json --out $R/para-$side > $R/para-$side.log 2>&1
  for set in nine_styles more_styles invented_styles; do rewrites $side $set; done
  unset ARI_RELATION_LEXICON
  for split in dev held; do cp $FINAL $R/sh-$side.sqlite
    $P -m ari bench run shapes --data-dir /work/main/benchmarks/data/shapes --split $split --db $DB --memory $R/sh-$side.sqlite --workers 1 --out $R/shapes-$split-$side --restart --quiet > $R/shapes-$split-$side.log 2>&1
  done
fi
[ "$1" != extra ] && echo ALLDONE $1
if [ "$1" = extra ]; then  # this session's own sets: both sides
for side in ${SIDES:-start new}; do side_env $side; cd $DIR
  export ARI_RELATION_LEXICON=/work/base/lexicon_shard0.json
  for part in dev held; do cp $FM $R/uv-$side.sqlite
    $P -m ari bench run multitq --data-dir /work/shared/data/multitq --db $DB --memory $R/uv-$side.sqlite --workers 2 --questions /work/s5/unseen-$part.json --out $R/unseen-$part-$side --restart --quiet > $R/unseen-$part-$side.log 2>&1
  done
  unset ARI_RELATION_LEXICON
  for part in dev held; do cp $FINAL $R/s5h-$side.sqlite
    $P -m ari bench run shapes --data-dir /work/main/benchmarks/data/shapes_h5 --split $part --db $DB --memory $R/s5h-$side.sqlite --workers 1 --out $R/shapesh5-$part-$side --restart --quiet > $R/shapesh5-$part-$side.log 2>&1
  done
done
echo ALLDONE extra
fi
