#!/bin/bash
# Dev halves only (never held). Usage: devrun.sh DIR OUT [sets...]
# DIR: a worktree of the code; OUT: a fresh folder for the runs. Sets (default all):
#   dev noevent para rw unseen probes shapes
# Env overrides: DB (store), FM (memory for MultiTQ-question sets), FINAL (memory for shape sets).
DIR=$1; OUT=$2; shift 2; SETS="${@:-dev noevent para rw unseen probes shapes w2122}"; PART=${PART:-dev}
P=/work/main/.venv/bin/python
DB=${DB:-/work/s11m/store/new.duckdb}; FM=${FM:-/work/s11m/fm.sqlite}; FINAL=${FINAL:-/work/s11m/final.sqlite}
D=/work/shared/data/multitq
DATA=${DATA:-/work/main/benchmarks/data}
mkdir -p $OUT; cd $DIR
export PYTHONPATH=$DIR ARI_RELATION_LEXICON=/work/base/lexicon_shard0.json
mem() { cp $1 $OUT/m-$2.sqlite; chmod 644 $OUT/m-$2.sqlite; echo $OUT/m-$2.sqlite; }
for s in $SETS; do case $s in
dev) $P -m ari bench run multitq --data-dir $D --split dev --sample 4000 --shard 1/2 --seed 0 --db $DB --memory $(mem $FM dev) --workers 2 --out $OUT/dev --restart --quiet > $OUT/dev.log 2>&1 ;;
noevent) $P -m ari bench run multitq --data-dir $D --db $DB --memory $(mem $FM ne) --workers 2 --quiet --questions /work/runs/abst/no_event_v3.json --out $OUT/noevent --restart > $OUT/noevent.log 2>&1 ;;
para) $P -m benchmarks.paraphrase_bench --db $DB --memory $(mem $FM pa) --part dev --dev $D/questions/dev.json --out $OUT/para > $OUT/para.log 2>&1 ;;
rw) for set in nine_styles more_styles invented_styles w10_w11 w19_w20 w25_w26; do
      $P -m benchmarks.paraphrase_bench --db $DB --memory $(mem $FM rw) --paraphrases /work/main/benchmarks/data/multitq_rewrites_$set.json --part $PART --dev $D/questions/dev.json --out $OUT/rw-$set > $OUT/rw-$set.log 2>&1; done ;;
unseen) $P -m ari bench run multitq --data-dir $D --db $DB --memory $(mem $FM uv) --workers 2 --questions /work/s11/unseen-$PART.json --out $OUT/unseen --restart --quiet > $OUT/unseen.log 2>&1 ;;
probes) $P -m ari bench run multitq --data-dir $D --db $DB --memory $(mem $FM pr) --workers 2 --questions /work/main/benchmarks/data/unrecorded_acts/$PART.json --out $OUT/probes --restart --quiet > $OUT/probes.log 2>&1 ;;
shapes) for set in shapes shapes_h5 shapes_h7 shapes_h9 shapes_h11; do
      env -u ARI_RELATION_LEXICON $P -m ari bench run shapes --data-dir /work/main/benchmarks/data/$set --split $PART --db $DB --memory $(mem $FINAL sh) --workers 1 --out $OUT/$set --restart --quiet > $OUT/$set.log 2>&1; done ;;
new) for set in w27_w28; do $P -m benchmarks.paraphrase_bench --db $DB --memory $(mem $FM rw) --paraphrases /work/main/benchmarks/data/multitq_rewrites_$set.json --part $PART --dev $D/questions/dev.json --out $OUT/rw-$set > $OUT/rw-$set.log 2>&1; done
      env -u ARI_RELATION_LEXICON $P -m ari bench run shapes --data-dir /work/main/benchmarks/data/shapes_h13 --split $PART --db $DB --memory $(mem $FINAL sh) --workers 1 --out $OUT/shapes_h13 --restart --quiet > $OUT/shapes_h13.log 2>&1 ;;
new14) for set in w31_w32; do $P -m benchmarks.paraphrase_bench --db $DB --memory $(mem $FM rw) --paraphrases $DATA/multitq_rewrites_$set.json --part $PART --dev $D/questions/dev.json --out $OUT/rw-$set > $OUT/rw-$set.log 2>&1; done
      env -u ARI_RELATION_LEXICON $P -m ari bench run shapes --data-dir $DATA/shapes_h14 --split $PART --db $DB --memory $(mem $FINAL sh) --workers 1 --out $OUT/shapes_h14 --restart --quiet > $OUT/shapes_h14.log 2>&1 ;;
new17) $P -m benchmarks.paraphrase_bench --db $DB --memory $(mem $FM rw) --paraphrases $DATA/multitq_rewrites_w37_w38.json --part $PART --dev $D/questions/dev.json --out $OUT/rw-w37_w38 > $OUT/rw-w37_w38.log 2>&1
      env -u ARI_RELATION_LEXICON $P -m ari bench run shapes --data-dir $DATA/shapes_h17 --split $PART --db $DB --memory $(mem $FINAL sh) --workers 1 --out $OUT/shapes_h17 --restart --quiet > $OUT/shapes_h17.log 2>&1 ;;
new18) $P -m benchmarks.paraphrase_bench --db $DB --memory $(mem $FM rw) --paraphrases $DATA/multitq_rewrites_w41_w42.json --part $PART --dev $D/questions/dev.json --out $OUT/rw-w41_w42 > $OUT/rw-w41_w42.log 2>&1 ;;
new19) $P -m benchmarks.paraphrase_bench --db $DB --memory $(mem $FM rw) --paraphrases ${W4344:-/work/s19/writers/rw_w43_w44.json} --part $PART --dev $D/questions/dev.json --out $OUT/rw-w43_w44 > $OUT/rw-w43_w44.log 2>&1 ;;
new20) $P -m benchmarks.paraphrase_bench --db $DB --memory $(mem $FM rw) --paraphrases ${W4546:-/work/s20/writers/rw_w45_w46.json} --part $PART --dev $D/questions/dev.json --out $OUT/rw-w45_w46 > $OUT/rw-w45_w46.log 2>&1 ;;
new16) env -u ARI_RELATION_LEXICON $P -m ari bench run shapes --data-dir $DATA/shapes_h16 --split $PART --db $DB --memory $(mem $FINAL sh) --workers 1 --out $OUT/shapes_h16 --restart --quiet > $OUT/shapes_h16.log 2>&1 ;;
w2122) $P -m ari bench run multitq --data-dir $D --db $DB --memory $(mem $FM w2) --workers 2 --questions /work/s12/w2122_$PART.json --out $OUT/w2122 --restart --quiet > $OUT/w2122.log 2>&1 ;;
esac; done
rm -f $OUT/m-*.sqlite
echo DEVDONE $OUT
