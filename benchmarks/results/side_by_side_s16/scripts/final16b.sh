#!/bin/bash
# final16.sh: every measure of the sixteenth session's side by side, one after another (a quiet machine):
# FINAL = /work/snap-final16, BASE = /work/snap-base16 (79e8d1e; its other dev/held figures are /work/runs/s15-pass*,
# the same answers). Data with shapes_h16 from FINAL's checkout for both sides.
set -u; S=/work/s16; F=/work/snap-final16b; B=/work/snap-base16; export DATA=$F/benchmarks/data
cd $S
./hrun16.sh $F /work/runs/s16-finalb-dev dev noevent para rw unseen probes shapes w2122 new new14 new16 > /work/runs/s16-finalb-dev.log 2>&1
echo "dev done $(date)"
./held16.sh $F finalb > /work/runs/s16-final-held.log 2>&1

echo "held done $(date)"
true
echo "cron done $(date)"
mkdir -p $S/kgmb && (cd $F && PYTHONPATH=$F /work/main/.venv/bin/python -m benchmarks.kg_memory_bench --db /work/s11m/store/new.duckdb --data-dir /work/shared/data/multitq --learned-memory /work/s11m/fm.sqlite --generate 150 --work $S/kgmb/work --out $S/kgmb/out > $S/kgmb/log.txt 2>&1)
echo "kgm done $(date)"
TIMED_RUNS="0 1 2" ./timed16.sh > $S/timedb.txt 2>&1
echo "timed done $(date)"
