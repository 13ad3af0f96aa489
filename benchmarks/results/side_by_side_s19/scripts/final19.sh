#!/bin/bash
# final19.sh: every measure of the nineteenth session's side by side, one after another (a quiet machine).
# FINAL = /work/snap-final19, BASE = /work/snap-main19 (e50b93f; its other dev/held figures: /work/runs/s18-l2-dev and
# /work/runs/s18-final2-held, code 26a8eb0 with the same answers). Data (with the w43/w44 rewrites) from FINAL's checkout.
set -u; S=/work/s19; F=/work/snap-final19; B=/work/snap-main19; export DATA=$F/benchmarks/data
cd $S
./hrun19.sh $F /work/runs/s19-final-dev dev noevent para rw unseen probes shapes w2122 new new14 new16 new17 new18 new19 > /work/runs/s19-final-dev.log 2>&1
W4344=$DATA/multitq_rewrites_w43_w44.json ./hrun19.sh $B /work/runs/s19-main-new19 new19 > /work/runs/s19-main-new19.log 2>&1
echo "dev done $(date)"
./held19.sh $F final > /work/runs/s19-final-held.log 2>&1
./held19.sh $B base new19 > /work/runs/s19-base-held.log 2>&1
echo "held done $(date)"
bash /work/s16/cron16.sh final19 $F
echo "cron done $(date)"
mkdir -p $S/kgm && (cd $F && PYTHONPATH=$F /work/main/.venv/bin/python -m benchmarks.kg_memory_bench --db /work/s11m/store/new.duckdb --data-dir /work/shared/data/multitq --learned-memory /work/s11m/fm.sqlite --generate 150 --work $S/kgm/work --out $S/kgm/out > $S/kgm/log.txt 2>&1)
echo "kgm done $(date)"
TIMED_RUNS="0 1" ./timed19.sh > $S/timed.txt 2>&1
echo "timed done $(date)"
