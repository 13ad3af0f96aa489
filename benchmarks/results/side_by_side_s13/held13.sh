#!/bin/bash
# held13.sh DIR TAG: the held halves (totals only) and both halves of the new sets (w27/w28 rewrites, shapes_h13),
# with the code in DIR (a snapshot worktree), on /work/s11m's store and memories for both sides.
cd /work/s13; DIR=$1; TAG=$2
PART=held ./hrun.sh $DIR /work/runs/s13-$TAG-held rw unseen probes shapes w2122 new
PART=dev ./hrun.sh $DIR /work/runs/s13-$TAG-newdev new
echo HELDDONE $TAG
