#!/bin/bash
# The quiet window: MultiTQ dev timed (two interleaved pairs), cold ask at 10M (start vs new), learn_bench (new).
P=/work/main/.venv/bin/python
echo "load before: $(cat /proc/loadavg)"
/work/s4/final.sh timed
for side in start new; do
  if [ $side = start ]; then SRC=/work/wt-s4start; else SRC=/work/main; fi
  cd /work/main && $P -m benchmarks.scale_cold --db /work/scale-s3/kg-10M.duckdb --memory /work/s4/cold-mem.sqlite --runs 3 --modes off --source $SRC --out /work/s4/cold10m-$side --label "10M, $side"
done
echo "load before learn: $(cat /proc/loadavg)"
rm -rf /work/s4/lb && mkdir -p /work/s4/lb && cp /work/base/multitq.duckdb /work/s4/lb/multitq.duckdb
cd /work/main && $P -m ari ask "Who visited Iran in 2008?" --db /work/s4/lb/multitq.duckdb > /dev/null 2>&1
$P -m benchmarks.learn_bench --db /work/s4/lb/multitq.duckdb --data-dir /work/shared/data/multitq --limit 4000 --clusters 50 --generate 150 --out /work/s4/lb-out --name learn_bench_quiet_1126_s4
echo "load after: $(cat /proc/loadavg)"
echo QUIETDONE
