#!/bin/bash
# Side by side, eighth session: START = ebb926c (/work/wt-s8start; the seventh session's merged memories
# /work/base/s8-fm.sqlite and s8-final.sqlite, store /work/s8/start/new.duckdb). Its accuracy runs are the seventh
# session's final NEW runs (/work/runs/s7/*-new, code 8e64532, whose answers ebb926c keeps: ceff135 and ebb926c
# changed no answer). NEW = merged main (/work/main; memories /work/s8/new-* from prep, store /work/s8/new/new.duckdb).
# Stages: prep (new memories), acc new (all sets), cron new, timed (both sides, quiet).
P=/work/main/.venv/bin/python
R=/work/runs/s8b
mkdir -p $R
side_env() {
  if [ $1 = start ]; then DIR=/work/wt-s8start; DB=/work/s8/start/new.duckdb; FM=/work/base/s8-fm.sqlite; FINAL=/work/base/s8-final.sqlite
  else DIR=/work/main; DB=/work/s8/new2/new.duckdb; FM=/work/s8/new-fm.sqlite; FINAL=/work/s8/new-final.sqlite; fi
}
rewrites() {  # $1 side, $2 set name
  for part in dev held; do cp $FM $R/rw-$1.sqlite; chmod 644 $R/rw-$1.sqlite
    PYTHONPATH=$DIR $P -m benchmarks.paraphrase_bench --db $DB --memory $R/rw-$1.sqlite --paraphrases /work/main/benchmarks/data/multitq_rewrites_$2.json --part $part --dev /work/shared/data/multitq/questions/dev.json --out $R/rw-$2-$part-$1 > $R/rw-$2-$part-$1.log 2>&1
  done
}
shapes() {  # $1 side, $2 set
  for split in dev held; do cp $FINAL $R/sh-$1.sqlite; chmod 644 $R/sh-$1.sqlite
    env -u ARI_RELATION_LEXICON $P -m ari bench run shapes --data-dir /work/main/benchmarks/data/$2 --split $split --db $DB --memory $R/sh-$1.sqlite --workers 1 --out $R/$2-$split-$1 --restart --quiet > $R/$2-$split-$1.log 2>&1
  done
}
if [ "$1" = prep ]; then cd /work/main; git log --oneline -1
  mkdir -p /work/s8/new; cp /work/base/multitq.duckdb /work/s8/new/new.duckdb
  cp /work/base/readme-mem.sqlite /work/s8/new-final.sqlite
  $P -m ari memory learn --generate 150 --clusters 50 --db /work/s8/new/new.duckdb --memory /work/s8/new-final.sqlite --quiet
  cp /work/base/mem.sqlite /work/s8/new-fm.sqlite
  ARI_RELATION_LEXICON=/work/base/lexicon_shard0.json $P -m ari memory learn --generate 150 --clusters 100 --db /work/s8/new/new.duckdb --memory /work/s8/new-fm.sqlite --quiet
  echo PREPDONE
fi
export ARI_RELATION_LEXICON=/work/base/lexicon_shard0.json
if [ "$1" = acc ]; then side=$2; side_env $side; cd $DIR
  cp $FM $R/dev-$side.sqlite; chmod 644 $R/dev-$side.sqlite
  $P -m ari bench run multitq --data-dir /work/shared/data/multitq --split dev --sample 4000 --shard 1/2 --seed 0 --db $DB --memory $R/dev-$side.sqlite --workers 2 --out $R/dev-$side --restart --quiet > $R/dev-$side-0.log 2>&1
  cp $FM $R/ne-$side.sqlite; chmod 644 $R/ne-$side.sqlite
  $P -m ari bench run multitq --data-dir /work/shared/data/multitq --db $DB --memory $R/ne-$side.sqlite --workers 2 --quiet --questions /work/runs/abst/no_event_v3.json --out $R/noevent-$side --restart > $R/noevent-$side.log 2>&1
  cp $FM $R/pa-$side.sqlite; chmod 644 $R/pa-$side.sqlite
  PYTHONPATH=$DIR $P -m benchmarks.paraphrase_bench --db $DB --memory $R/pa-$side.sqlite --dev /work/shared/data/multitq/questions/dev.json --out $R/para-$side > $R/para-$side.log 2>&1
  for set in nine_styles more_styles invented_styles w10_w11; do rewrites $side $set; done
  for part in dev held; do cp $FM $R/uv-$side.sqlite; chmod 644 $R/uv-$side.sqlite
    $P -m ari bench run multitq --data-dir /work/shared/data/multitq --db $DB --memory $R/uv-$side.sqlite --workers 2 --questions /work/s5/unseen-$part.json --out $R/unseen-$part-$side --restart --quiet > $R/unseen-$part-$side.log 2>&1
  done
  for set in shapes shapes_h5 shapes_h7; do shapes $side $set; done
  echo ACCDONE $side
fi
if [ "$1" = timed ]; then
for i in ${TIMED_RUNS:-1 2 3}; do for side in start new; do side_env $side; cp $FM $R/dev-$side.sqlite; chmod 644 $R/dev-$side.sqlite
  cd $DIR && /usr/bin/time -f "$side dev $i: %e s wall" $P -m ari bench run multitq --data-dir /work/shared/data/multitq --split dev --sample 4000 --shard 1/2 --seed 0 --db $DB --memory $R/dev-$side.sqlite --workers 2 --out $R/dev-$side-t$i --restart --quiet > $R/dev-$side-t$i.log 2>&1
  tail -1 $R/dev-$side-t$i.log
done; done
fi
if [ "$1" = cron ]; then side=$2; side_env $side; cd $DIR; unset ARI_RELATION_LEXICON
  W=/work/s8/cron-$side; O=/work/s8/cron-$side-out; mkdir -p $W $O
  C="$P -m benchmarks.cron_wd12k --cron /work/shared/data/cronquestions --wd12k /work/shared/data/wikidata12k --work $W --out $O"
  $C > $R/cron-$side.log 2>&1
  $P -m ari memory learn --generate 150 --clusters 10 --db $W/wd12k.duckdb --memory $W/generated.sqlite --quiet >> $R/cron-$side.log 2>&1
  $C --memory $W/generated.sqlite --name generated >> $R/cron-$side.log 2>&1
  $C --memory $W/tune_memory.sqlite --name tune_memory_given --gold-annotations >> $R/cron-$side.log 2>&1
  $C --memory $W/generated.sqlite --name generated_given --gold-annotations >> $R/cron-$side.log 2>&1
  echo CRONDONE $side
fi
