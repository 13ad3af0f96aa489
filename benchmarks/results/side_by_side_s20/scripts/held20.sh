#!/bin/bash
# held20.sh DIR TAG [sets]: the held halves (totals only) with the code in DIR (a snapshot worktree), on /work/s11m's
# store and memories; DATA: the benchmarks/data folder (FINAL's: it holds the w43/w44 rewrites with both halves).
cd /work/s20; DIR=$1; TAG=$2; shift 2; SETS="${@:-rw unseen probes shapes w2122 new new14 new16 new17 new18 new19 new20}"
export DATA=${DATA:-$DIR/benchmarks/data}
PART=held W4344=$DATA/multitq_rewrites_w43_w44.json W4546=$DATA/multitq_rewrites_w45_w46.json ./hrun20.sh $DIR /work/runs/s20-$TAG-held $SETS
echo HELDDONE $TAG
