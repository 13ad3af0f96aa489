#!/bin/bash
# held16.sh DIR TAG: the held halves (totals only) of every set with the code in DIR (a snapshot worktree),
# on /work/s11m's store and memories for both sides; DATA: the benchmarks/data folder holding shapes_h16.
cd /work/s16; DIR=$1; TAG=$2
PART=held DATA=${DATA:-$DIR/benchmarks/data} ./hrun16.sh $DIR /work/runs/s16-$TAG-held rw unseen probes shapes w2122 new new14 new16
echo HELDDONE $TAG
