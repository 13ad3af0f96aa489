#!/bin/bash
# $1 tag: snapshot the worktree as it is now, run the signature, diff against the base
T=/work/tmp-trim; S=$T/snap-$1
rm -rf $S; mkdir -p $S; cd /work/wt-trim && git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t $S
cd $S && ARI_RELATION_LEXICON=/work/base/lexicon_shard0.json /usr/bin/time -f "%e s" /work/main/.venv/bin/python $T/analysis_signature.py $T/x.duckdb $T/sig-$1.json > $T/sig-$1.log 2>&1
/work/main/.venv/bin/python $T/signature_diff.py $T/sig-base.json $T/sig-$1.json 10 >> $T/sig-$1.log
echo DONE >> $T/sig-$1.log
