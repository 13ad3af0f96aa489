#!/bin/bash
# final17.sh: every measure of the seventeenth session's side by side, one after another (a quiet machine).
# FINAL = /work/snap-final17, BASE = /work/snap-main17 (8786529; its other dev/held figures: /work/runs/s16-finalb-*,
# the same answers as 1c58543). Data (with shapes_h17, w37/w38) from FINAL's checkout for both sides.
set -u; S=/work/s17; F=/work/snap-final17; B=/work/snap-main17; export DATA=$F/benchmarks/data
cd $S
./hrun17.sh $F /work/runs/s17-final-dev dev noevent para rw unseen probes shapes w2122 new new14 new16 new17 > /work/runs/s17-final-dev.log 2>&1
echo "dev done $(date)"
./held17.sh $F final > /work/runs/s17-final-held.log 2>&1
echo "held done $(date)"
bash /work/s16/cron16.sh final17 $F
echo "cron done $(date)"
mkdir -p $S/kgm && (cd $F && PYTHONPATH=$F /work/main/.venv/bin/python -m benchmarks.kg_memory_bench --db /work/s11m/store/new.duckdb --data-dir /work/shared/data/multitq --learned-memory /work/s11m/fm.sqlite --generate 150 --work $S/kgm/work --out $S/kgm/out > $S/kgm/log.txt 2>&1)
echo "kgm done $(date)"
TIMED_RUNS="0 1 2" ./timed17.sh > $S/timed.txt 2>&1
echo "timed done $(date)"
