#!/bin/bash
P=/work/main/.venv/bin/python
for side in start new; do
  if [ $side = start ]; then D=/work/wt-s4start; DB=/work/s3/new.duckdb; else D=/work/main; DB=/work/s4/new.duckdb; fi
  cp /work/s4/nomem-empty.sqlite /work/s4/nomem-$side.sqlite
  cd $D && $P -m ari bench run multitq --data-dir /work/shared/data/multitq --split dev --sample 600 --shard 0/2 --seed 0 --db $DB --memory /work/s4/nomem-$side.sqlite --workers 2 --out /work/s4/nomem-$side --restart --quiet > /work/s4/nomem-$side.log 2>&1
  grep -E "hits_at_1 |abstain_rate|questions_per_second" /work/s4/nomem-$side.log
done
