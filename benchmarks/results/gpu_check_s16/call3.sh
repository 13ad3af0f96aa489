#!/bin/bash
# The third device call (run from the checkout's root, /work/main as sent), once its command has appended
# the last part to /tmp/bundle.tar and checked the bundle's sha256: device_run.sh's steps with parity first
# (the new question), the linker's reading on both paths (link_compare.py), then the 10M scale bench,
# stopped at STOP s of this script so the call ends inside its limit. WORK, B, GPU, SIZES, SAMPLE: as
# device_run.sh reads them (a check here: make_bundle.sh's settings).
set -u
STOP=${STOP:-470}; C=.dev11/code; W=${WORK:-/tmp}; BD=${B:-/tmp/bundle}; OUTD=${OUT:-/tmp/out}
bash $C/device_run.sh install || exit 1
END=230 bash $C/device_run.sh parity
tar -czf $OUTD/parity_logs.tgz -C $W/parity logs
echo "link_compare at ${SECONDS} s"
HF_HUB_OFFLINE=1 PYTHONPATH=. timeout 100 python3 $C/link_compare.py --work $W/parity --questions $BD/multitq/questions/dev.json \
  --memory $BD/gen.sqlite --gpu ${GPU:-cuda} --extra ${EXTRA:-9500} --out $OUTD
echo "scale at ${SECONDS} s"
timeout $((STOP - SECONDS)) bash $C/device_run.sh scale
cp -n benchmarks/results/scale/scale_bench_10m_gpu_s16.* $OUTD/ 2>/dev/null
[ -f $OUTD/scale_logs.tgz ] || tar -czf $OUTD/scale_logs.tgz -C $W/scale-work logs
echo "call3.sh done at ${SECONDS} s"
