#!/bin/bash
# final20.sh: every measure of the twentieth session's side by side, one after another (a quiet machine).
# FINAL = /work/snap-final20, BASE = /work/snap-main20 (d881a8f; its other dev/held figures: /work/runs/s19-final-dev and
# /work/runs/s19-final-held, code 70f8a88 with the same answers). Data (with the w45/w46 rewrites) from FINAL's checkout.
set -u; S=/work/s20; F=/work/snap-final20; B=/work/snap-main20; export DATA=$F/benchmarks/data
cd $S
./hrun20.sh $F /work/runs/s20-final-dev dev noevent para rw unseen probes shapes w2122 new new14 new16 new17 new18 new19 new20 > /work/runs/s20-final-dev.log 2>&1
echo "dev done $(date)"
./held20.sh $F final > /work/runs/s20-final-held.log 2>&1
./held20.sh $B base new20 > /work/runs/s20-base-held.log 2>&1
echo "held done $(date)"
./learn20.sh $F /work/runs/s20-learn-final > /work/runs/s20-learn-final.log 2>&1
echo "learn done $(date)"
bash /work/s16/cron16.sh final20 $F
echo "cron done $(date)"
./probes.sh > $S/probes.log 2>&1
echo "probes done $(date)"
TIMED_RUNS="0 1" ./timed20.sh > $S/timed.txt 2>&1
echo "timed done $(date)"
mkdir -p $S/kgm && (cd $F && PYTHONPATH=$F /work/main/.venv/bin/python -m benchmarks.kg_memory_bench --db /work/s11m/store/new.duckdb --data-dir /work/shared/data/multitq --learned-memory /work/s11m/fm.sqlite --generate 150 --work $S/kgm/work --out $S/kgm/out > $S/kgm/log.txt 2>&1)
echo "kgm done $(date)"
