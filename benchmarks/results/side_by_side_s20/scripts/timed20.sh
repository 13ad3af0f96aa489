#!/bin/bash
# The dev command (2,010 questions, --workers 2), BASE and FINAL alternating: wall (what a user waits for) and the
# answering rate in summary.json. BASE: /work/snap-main20 (d881a8f), FINAL: /work/snap-final20; /work/s11m store and memory.
P=/work/main/.venv/bin/python; D=/work/shared/data/multitq; R=/work/runs/timed20; mkdir -p $R
export ARI_RELATION_LEXICON=/work/base/lexicon_shard0.json
for i in ${TIMED_RUNS:-0 1 2}; do for side in base final; do
  if [ $side = base ]; then DIR=/work/snap-main20; else DIR=/work/snap-final20; fi; A=/work/s11m
  cp $A/fm.sqlite $R/m-$side.sqlite; chmod 644 $R/m-$side.sqlite
  cd $DIR && /usr/bin/time -f "$side $i: %e s wall, %U s user" env PYTHONPATH=$DIR $P -m ari bench run multitq --data-dir $D --split dev --sample 4000 --shard 1/2 --seed 0 --db $A/store/new.duckdb --memory $R/m-$side.sqlite --workers 2 --out $R/$side-$i --restart --quiet > $R/$side-$i.log 2>&1
  tail -1 $R/$side-$i.log; python3 -c "import json; print('  rate', round(json.load(open('$R/$side-$i/summary.json'))['questions_per_second'], 1))" 2>/dev/null
done; done
