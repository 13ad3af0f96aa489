#!/bin/bash
# final18.sh: every measure of the eighteenth session's side by side, one after another (a quiet machine).
# FINAL = /work/snap-final18, BASE = /work/snap-main18 (a4168ac; its other dev/held figures: /work/runs/s17-final-*,
# code 5d79e32 with the same answers). Data (with the w41/w42 rewrites) from FINAL's checkout for both sides.
set -u; S=/work/s18; F=/work/snap-final18; B=/work/snap-main18; export DATA=$F/benchmarks/data
cd $S
./hrun18.sh $F /work/runs/s18-final-dev dev noevent para rw unseen probes shapes w2122 new new14 new16 new17 new18 > /work/runs/s18-final-dev.log 2>&1
echo "dev done $(date)"
./held18.sh $F final > /work/runs/s18-final-held.log 2>&1
./held18.sh $B base new18 > /work/runs/s18-base-held.log 2>&1
echo "held done $(date)"
bash /work/s16/cron16.sh final18 $F
echo "cron done $(date)"
mkdir -p $S/kgm && (cd $F && PYTHONPATH=$F /work/main/.venv/bin/python -m benchmarks.kg_memory_bench --db /work/s11m/store/new.duckdb --data-dir /work/shared/data/multitq --learned-memory /work/s11m/fm.sqlite --generate 150 --work $S/kgm/work --out $S/kgm/out > $S/kgm/log.txt 2>&1)
echo "kgm done $(date)"
TIMED_RUNS="0 1" ./timed18.sh > $S/timed.txt 2>&1
echo "timed done $(date)"
