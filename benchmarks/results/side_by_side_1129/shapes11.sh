#!/bin/bash
# Build benchmarks/data/shapes_h11 from the writers' specs, then run both halves on both sides (totals only).
set -e
P=/work/main/.venv/bin/python; S=/work/s11/shapes11; O=/work/main/benchmarks/data/shapes_h11
mkdir -p $O/specs; cp $S/SPEC.md $S/w2[34]_*.json $O/specs/
cd /work/main
for part in dev held; do
  $P benchmarks/shape_golds.py --kg /work/shared/data/multitq/kg/full.txt --in $O/specs/w23_$part.json $O/specs/w24_$part.json --out $O/$part.json --report /tmp/val-$part.txt
done
{ for part in dev held; do echo "$part.json (w23_$part, w24_$part):"; cat /tmp/val-$part.txt; echo; done; } > $O/validation.txt
for side in start new; do
  if [ $side = start ]; then DIR=/work/wt-start; A=/work/s11; else DIR=/work/main; A=/work/s11m; fi
  for part in dev held; do
    cp $A/final.sqlite /tmp/sh11.sqlite; chmod 644 /tmp/sh11.sqlite
    (cd $DIR && env -u ARI_RELATION_LEXICON PYTHONPATH=$DIR $P -m ari bench run shapes --data-dir $O --split $part --db $A/store/new.duckdb --memory /tmp/sh11.sqlite --workers 1 --out /work/runs/sh11-$side-$part --restart --quiet > /work/runs/sh11-$side-$part.log 2>&1)
  done
done
echo SH11DONE
