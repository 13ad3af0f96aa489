#!/bin/bash
# held17.sh DIR TAG: the held halves (totals only) of every set with the code in DIR (a snapshot worktree),
# on /work/s11m's store and memories; DATA: the benchmarks/data folder holding shapes_h17 and the w37/w38 rewrites.
cd /work/s17; DIR=$1; TAG=$2
PART=held DATA=${DATA:-$DIR/benchmarks/data} ./hrun17.sh $DIR /work/runs/s17-$TAG-held rw unseen probes shapes w2122 new new14 new16 new17
echo HELDDONE $TAG
