#!/bin/bash
# Quiet timed runs (issue 26): the README learning command, then the 10M scale benchmark on 2 cores.
cd /work/main
date -u
.venv/bin/python -m benchmarks.learn_bench --db /work/s5/new.duckdb --data-dir /work/shared/data/multitq \
  --out benchmarks/results --name learn_bench_quiet_1127 --keep /work/s6/readme-mem.sqlite
date -u
.venv/bin/python -m benchmarks.scale_bench --work /work/scale-work6 --sizes 10M --timeout 3600 \
  --memory /work/s6/readme-mem.sqlite --name scale_bench_10m_2core_1127
date -u
