#!/bin/sh
# build.sh -- builds the scheduling benchmarks (bench/sched/*.cu) with nvcc --cudart shared for
# sm_90 into OUTDIR, each program only when its source or sched_bench.h is newer.
#
#   build.sh OUTDIR        exits 77 when nvcc is not installed; NVCC overrides the compiler
set -eu
here=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 1 ] || { echo "usage: build.sh OUTDIR" >&2; exit 2; }
out=$1
if [ -z "${NVCC:-}" ]; then
    NVCC=$(command -v nvcc 2>/dev/null || true)
    [ -n "$NVCC" ] || [ ! -x /usr/local/cuda/bin/nvcc ] || NVCC=/usr/local/cuda/bin/nvcc
fi
[ -n "$NVCC" ] || { echo "build.sh: nvcc not found" >&2; exit 77; }
mkdir -p "$out"
# One build of OUTDIR at a time (the test and make bench-sched may share it).
if command -v flock >/dev/null 2>&1; then
    exec 9>"$out/.build.lock"
    flock 9
fi
status=0
pids=
for f in "$here"/*.cu; do
    n=$(basename "$f" .cu)
    t=$out/$n
    if [ -e "$t" ] && [ "$t" -nt "$f" ] && [ "$t" -nt "$here/sched_bench.h" ]; then
        continue
    fi
    (
        if "$NVCC" --cudart shared -arch=sm_90 -O2 -std=c++17 -o "$t.tmp" "$f" > "$t.log" 2>&1; then
            mv "$t.tmp" "$t" && rm -f "$t.log"
        else
            echo "build.sh: $n failed:" >&2
            cat "$t.log" >&2
            rm -f "$t.tmp"
            exit 1
        fi
    ) &
    pids="$pids $!"
    # Two compilers at a time.
    set -- $pids
    if [ $# -ge 2 ]; then
        for p in $pids; do wait "$p" || status=1; done
        pids=
    fi
done
for p in $pids; do wait "$p" || status=1; done
exit $status
