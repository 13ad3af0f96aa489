#!/bin/bash
# Side by side, one machine: START = 5141388 (/work/wt-s4start, memories /work/s3/new-*, store /work/s3/new.duckdb)
# vs NEW = merged main (/work/main, memories built by /work/s4/prep.sh into /work/s4/new-*).
# Stage "timed" (quiet machine): MultiTQ dev 2,010, whole command timed, two interleaved pairs.
# Stage "acc": accuracy sets (no timings compared). Stage "invented": the new rewrite set only.
P=/work/main/.venv/bin/python
R=/work/runs/s4
mkdir -p $R
side_env() {  # sets DIR DB FM FINAL for side $1
  if [ $1 = start ]; then DIR=/work/wt-s4start; DB=/work/s3/new.duckdb; FM=/work/s3/new-fm.sqlite; FINAL=/work/s3/new-final.sqlite
  else DIR=/work/main; DB=/work/s4/new.duckdb; FM=/work/s4/new-fm.sqlite; FINAL=/work/s4/new-final.sqlite; fi
}
rewrites() {  # $1 side, $2 set name
  for part in dev held; do cp $FM $R/rw-$1.sqlite
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
if [ "$1" = invented ]; then
for side in ${SIDES:-start new}; do side_env $side; cd $DIR; rewrites $side invented_styles; done
fi
if [ "$1" = acc ]; then
for side in ${SIDES:-start new}; do side_env $side; cd $DIR
  cp $FM $R/ne-$side.sqlite
  $P -m ari bench run multitq --data-dir /work/shared/data/multitq --db $DB --memory $R/ne-$side.sqlite --workers 2 --quiet --questions /work/runs/abst/no_event_v3.json --out $R/noevent-$side --restart > $R/noevent-$side.log 2>&1
  cp $FM $R/pa-$side.sqlite
  PYTHONPATH=$DIR $P -m benchmarks.paraphrase_bench --db $DB --memory $R/pa-$side.sqlite --dev /work/shared/data/multitq/questions/dev.json --out $R/para-$side > $R/para-$side.log 2>&1
  for set in nine_styles more_styles invented_styles; do rewrites $side $set; done
done
unset ARI_RELATION_LEXICON
for side in ${SIDES:-start new}; do side_env $side; cd $DIR
  for split in dev held; do cp $FINAL $R/sh-$side.sqlite
    $P -m ari bench run shapes --data-dir /work/main/benchmarks/data/shapes --split $split --db $DB --memory $R/sh-$side.sqlite --workers 1 --out $R/shapes-$split-$side --restart --quiet > $R/shapes-$split-$side.log 2>&1
  done
done
fi
echo ALLDONE $1
