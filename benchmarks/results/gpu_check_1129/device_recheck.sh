#!/bin/bash
# Second device call (after device_run.sh install on a fresh machine): a cold `ari ask` on main's
# code, then with this branch's change (ari/cli/ask.py and ari/base/processes.py, carried in
# .dev11/code/ and copied over the checkout), then the same with every module compiled to bytecode
# first (python -m compileall). Results under $OUT: before.json, after.json, compiled.json, and the
# import-time and cProfile tops of the last.
set -u
B=/tmp/bundle
export PYTHONPATH=/tmp/site HF_HUB_OFFLINE=1 PYTHONUNBUFFERED=1
env | grep -E '^PYTHON' ; python3 -c "import sys; print('dont_write_bytecode', sys.dont_write_bytecode)"
mkdir -p /tmp/store && python3 -m ari ingest multitq $B/multitq --db /tmp/store/cpu.duckdb --device cpu --json --quiet > /dev/null || exit 1
cold() {  # NAME VARIANTS
  python3 -m benchmarks.cold_ask_threads --db /tmp/store/cpu.duckdb --memory $B/gen.sqlite --data-dir $B/multitq --out /tmp/cold-$1 --repeats 3 --variants $2
  cp /tmp/cold-$1/cold_ask_threads.json $OUT/$1.json
}
cold before default,blas1
cp .dev11/code/ask.py ari/cli/ask.py && cp .dev11/code/processes.py ari/base/processes.py
cold after default,blas1
time python3 -m compileall -q -j 0 /tmp/site ari agents tkg_store memory actions benchmarks > /dev/null
cold compiled default,blas1,cores2
cp /tmp/cold-compiled/importtime.txt /tmp/cold-compiled/cprofile.txt $OUT/
