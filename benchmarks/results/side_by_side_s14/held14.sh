#!/bin/bash
# held14.sh DIR TAG: the held halves (totals only) of every set, the new sets' (w31/w32 rewrites, shapes_h14) included,
# with the code in DIR (a snapshot worktree), on /work/s11m's store and memories for both sides.
cd /work/s14; DIR=$1; TAG=$2
PART=held ./hrun.sh $DIR /work/runs/s14-$TAG-held rw unseen probes shapes w2122 new new14
echo HELDDONE $TAG
