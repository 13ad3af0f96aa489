#!/bin/bash
# START = 4032dfe (/work/wt-s10start; store and memories of the ninth session's merged code: /work/base10, whose
# old-set answers are /work/runs/s9/*-new, same answers); its runs of the new sets (w19_w20 rewrites, probes) run here.
# NEW = merged main (/work/main; memories /work/s10/new-* from prep, store /work/s10/newstore, ingested afresh).
# Stages: prep, acc <side> [sets...], timed, cron.
P=/work/main/.venv/bin/python
R=/work/runs/s10
mkdir -p $R
side_env() {
  if [ $1 = start ]; then DIR=/work/wt-s10start; DB=/work/s10/startstore/new.duckdb; FM=/work/base10/fm.sqlite; FINAL=/work/base10/final.sqlite
  else DIR=/work/main; DB=/work/s10/newstore/new.duckdb; FM=/work/s10/new-fm.sqlite; FINAL=/work/s10/new-final.sqlite; fi
}
rewrites() {  # $1 side, $2 set name
  for part in dev held; do cp $FM $R/rw-$1.sqlite; chmod 644 $R/rw-$1.sqlite
    PYTHONPATH=$DIR $P -m benchmarks.paraphrase_bench --db $DB --memory $R/rw-$1.sqlite --paraphrases /work/s10/data/multitq_rewrites_$2.json --part $part --dev /work/shared/data/multitq/questions/dev.json --out $R/rw-$2-$part-$1 > $R/rw-$2-$part-$1.log 2>&1
  done
}
shapes() {  # $1 side, $2 set
  for split in dev held; do cp $FINAL $R/sh-$1.sqlite; chmod 644 $R/sh-$1.sqlite
    (cd $DIR && env -u ARI_RELATION_LEXICON PYTHONPATH=$DIR $P -m ari bench run shapes --data-dir /work/main/benchmarks/data/$2 --split $split --db $DB --memory $R/sh-$1.sqlite --workers 1 --out $R/$2-$split-$1 --restart --quiet > $R/$2-$split-$1.log 2>&1)
  done
}
if [ "$1" = prep ]; then cd /work/main; git log --oneline -1
  rm -rf /work/s10/newstore; mkdir -p /work/s10/newstore
  $P -m ari ingest multitq /work/shared/data/multitq --db /work/s10/newstore/new.duckdb --quiet
  cp /work/base/readme-mem.sqlite /work/s10/new-final.sqlite
  $P -m ari memory learn --generate 150 --clusters 50 --db /work/s10/newstore/new.duckdb --memory /work/s10/new-final.sqlite --quiet
  cp /work/base/mem.sqlite /work/s10/new-fm.sqlite
  ARI_RELATION_LEXICON=/work/base/lexicon_shard0.json $P -m ari memory learn --generate 150 --clusters 100 --db /work/s10/newstore/new.duckdb --memory /work/s10/new-fm.sqlite --quiet
  echo PREPDONE
fi
export ARI_RELATION_LEXICON=/work/base/lexicon_shard0.json
if [ "$1" = acc ]; then side=$2; side_env $side; cd $DIR; shift 2; SETS="${@:-dev noevent para rw unseen shapes}"
  for s in $SETS; do case $s in
  dev) cp $FM $R/dev-$side.sqlite; chmod 644 $R/dev-$side.sqlite
    $P -m ari bench run multitq --data-dir /work/shared/data/multitq --split dev --sample 4000 --shard 1/2 --seed 0 --db $DB --memory $R/dev-$side.sqlite --workers 2 --out $R/dev-$side --restart --quiet > $R/dev-$side-0.log 2>&1 ;;
  noevent) cp $FM $R/ne-$side.sqlite; chmod 644 $R/ne-$side.sqlite
    $P -m ari bench run multitq --data-dir /work/shared/data/multitq --db $DB --memory $R/ne-$side.sqlite --workers 2 --quiet --questions /work/runs/abst/no_event_v3.json --out $R/noevent-$side --restart > $R/noevent-$side.log 2>&1 ;;
  para) cp $FM $R/pa-$side.sqlite; chmod 644 $R/pa-$side.sqlite
    PYTHONPATH=$DIR $P -m benchmarks.paraphrase_bench --db $DB --memory $R/pa-$side.sqlite --dev /work/shared/data/multitq/questions/dev.json --out $R/para-$side > $R/para-$side.log 2>&1 ;;
  rw) for set in nine_styles more_styles invented_styles w10_w11 w19_w20; do rewrites $side $set; done ;;
  rw1920) rewrites $side w19_w20 ;;
  probes) for part in dev held; do cp $FM $R/pr-$side.sqlite; chmod 644 $R/pr-$side.sqlite
    for w in w17 w18; do $P -m ari bench run multitq --data-dir /work/shared/data/multitq --db $DB --memory $R/pr-$side.sqlite --workers 2 --questions /work/s10/probes/${w}_${part}_mtq.json --out $R/probe-$w-$part-$side --restart --quiet > $R/probe-$w-$part-$side.log 2>&1; done
    done ;;
  unseen) for part in dev held; do cp $FM $R/uv-$side.sqlite; chmod 644 $R/uv-$side.sqlite
    $P -m ari bench run multitq --data-dir /work/shared/data/multitq --db $DB --memory $R/uv-$side.sqlite --workers 2 --questions /work/s5/unseen-$part.json --out $R/unseen-$part-$side --restart --quiet > $R/unseen-$part-$side.log 2>&1
    done ;;
  shapes) for set in shapes shapes_h5 shapes_h7 shapes_h9; do shapes $side $set; done ;;
  shapes_h9) shapes $side shapes_h9 ;;
  esac; done
  echo ACCDONE $side
fi
if [ "$1" = timed ]; then
for i in ${TIMED_RUNS:-1 2 3}; do for side in start new; do side_env $side; cp $FM $R/dev-$side.sqlite; chmod 644 $R/dev-$side.sqlite
  cd $DIR && /usr/bin/time -f "$side dev $i: %e s wall" $P -m ari bench run multitq --data-dir /work/shared/data/multitq --split dev --sample 4000 --shard 1/2 --seed 0 --db $DB --memory $R/dev-$side.sqlite --workers 2 --out $R/dev-$side-t$i --restart --quiet > $R/dev-$side-t$i.log 2>&1
  tail -1 $R/dev-$side-t$i.log
done; done
fi
if [ "$1" = cron ]; then side=new; side_env $side; cd $DIR; unset ARI_RELATION_LEXICON
  W=/work/s10/cron-$side; O=/work/s10/cron-$side-out; mkdir -p $W $O
  C="$P -m benchmarks.cron_wd12k --cron /work/shared/data/cronquestions --wd12k /work/shared/data/wikidata12k --work $W --out $O"
  $C > $R/cron-$side.log 2>&1
  $P -m ari memory learn --generate 150 --clusters 10 --db $W/wd12k.duckdb --memory $W/generated.sqlite --quiet >> $R/cron-$side.log 2>&1
  $C --memory $W/generated.sqlite --name generated >> $R/cron-$side.log 2>&1
  $C --memory $W/tune_memory.sqlite --name tune_memory_given --gold-annotations >> $R/cron-$side.log 2>&1
  $C --memory $W/generated.sqlite --name generated_given --gold-annotations >> $R/cron-$side.log 2>&1
  echo CRONDONE $side
fi
