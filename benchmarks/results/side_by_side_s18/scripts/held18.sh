#!/bin/bash
# held18.sh DIR TAG [sets]: the held halves (totals only) with the code in DIR (a snapshot worktree), on /work/s11m's
# store and memories; DATA: the benchmarks/data folder (FINAL's: it holds the w41/w42 rewrites with both halves).
cd /work/s18; DIR=$1; TAG=$2; shift 2; SETS="${@:-rw unseen probes shapes w2122 new new14 new16 new17 new18}"
export DATA=${DATA:-$DIR/benchmarks/data}
PART=held W4142=$DATA/multitq_rewrites_w41_w42.json ./hrun18.sh $DIR /work/runs/s18-$TAG-held $SETS
echo HELDDONE $TAG
