#!/bin/bash
# held15.sh DIR TAG: the held halves (totals only) of every set with the code in DIR (a snapshot worktree), by
# ../side_by_side_s14/hrun.sh (DATA=<checkout>/benchmarks/data: the new sets' folder), on /work/s11m's store and memories.
DIR=$1; TAG=$2
DATA=$DIR/benchmarks/data PART=held "$(dirname "$0")/../side_by_side_s14/hrun.sh" "$DIR" /work/runs/s15-$TAG-held rw unseen probes shapes w2122 new new14
echo HELDDONE $TAG
