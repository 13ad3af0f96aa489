#!/bin/bash
# probes.sh: the lead's probe sets (side_by_side_s17/probes) with BASE and FINAL; shapes benchmark, final.sqlite, no lexicon.
P=/work/main/.venv/bin/python; O=/work/runs/s20-probes
for side in base final; do DIR=/work/snap-$( [ $side = base ] && echo main20 || echo final20 ); cd $DIR
  for s in unans unans2 unans3 unans4 win; do mkdir -p $O/$side-$s; cp /work/s11m/final.sqlite $O/m.sqlite; chmod 644 $O/m.sqlite
    env -u ARI_RELATION_LEXICON PYTHONPATH=$DIR $P -m ari bench run shapes --data-dir /work/s17/$s --split dev --db /work/s11m/store/new.duckdb --memory $O/m.sqlite --workers 1 --out $O/$side-$s --restart --quiet > $O/$side-$s.log 2>&1
  done; done; rm -f $O/m.sqlite*; echo PROBESDONE
