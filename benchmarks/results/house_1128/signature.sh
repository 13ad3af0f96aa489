#!/bin/bash
# signature.sh CODE_DIR STORE.duckdb OUT.json [cov]: the analysis signature (house_1127/analysis_signature.py) of the code
# in CODE_DIR (a snapshot of the worktree), on a copy of the store; with "cov", under coverage of agents/analysis
# (coverage installed beside, in $COVERAGE_LIB). Compare two with signature_diff.py.
SIG=$(dirname "$(readlink -f "$0")")/../house_1127/analysis_signature.py
cd "$1" || exit 1
export PYTHONPATH=$1${COVERAGE_LIB:+:$COVERAGE_LIB} ARI_RELATION_LEXICON=/work/base/lexicon_shard0.json
if [ "$4" = cov ]; then
  nice -n 5 /work/main/.venv/bin/python -m coverage run --data-file="$3.coverage" --include="$1/agents/analysis/*" "$SIG" "$2" "$3"
else
  nice -n 5 /work/main/.venv/bin/python "$SIG" "$2" "$3"
fi
