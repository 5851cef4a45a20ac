#!/usr/bin/env bash
# record-gpu.sh -- run on a machine with an NVIDIA GPU (the device tool): builds
# gpurun and records expected outputs of every runs.txt into one tarball.
#   bash tests/record-gpu.sh OUTDIR [RUNS.txt...]
set -u
out=${1:?usage: record-gpu.sh OUTDIR [RUNS.txt...]}; shift
cd "$(dirname "$0")/.."
mkdir -p "$out" /tmp/rec
gcc -O2 .tools/gpurun.c -I/usr/local/cuda/include -L/usr/local/cuda/lib64/stubs -lcuda -o /tmp/gpurun || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > /tmp/rec/GPU.txt
if [ $# -eq 0 ]; then set -- $(find tests examples -name runs.txt | sort); fi
python3 tests/run-specs.py record --runner /tmp/gpurun --dest /tmp/rec "$@" > "$out/record.log" 2>&1
tail -3 "$out/record.log"
(cd /tmp/rec && tar czf "$out/expected.tar.gz" .)
