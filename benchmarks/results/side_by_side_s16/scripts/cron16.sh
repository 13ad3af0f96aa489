#!/bin/bash
# cron.sh SIDE DIR: CronQuestions on Wikidata12k (both memories, linked and given) with the code in DIR
side=$1; DIR=$2; P=/work/main/.venv/bin/python; R=/work/runs/c16; mkdir -p $R
cd $DIR; export PYTHONPATH=$DIR
W=/work/s16/cron-$side; O=/work/s16/cron-$side-out; rm -rf $W $O; mkdir -p $W $O
C="$P -m benchmarks.cron_wd12k --cron /work/shared/data/cronquestions --wd12k /work/shared/data/wikidata12k --work $W --out $O"
$C > $R/cron-$side.log 2>&1
$P -m ari memory learn --generate 150 --clusters 10 --db $W/wd12k.duckdb --memory $W/generated.sqlite --quiet >> $R/cron-$side.log 2>&1
$C --memory $W/generated.sqlite --name generated >> $R/cron-$side.log 2>&1
$C --memory $W/tune_memory.sqlite --name tune_memory_given --gold-annotations >> $R/cron-$side.log 2>&1
$C --memory $W/generated.sqlite --name generated_given --gold-annotations >> $R/cron-$side.log 2>&1
echo CRONDONE $side >> $R/cron-$side.log
