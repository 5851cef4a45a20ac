#!/bin/sh
# record-gpu.sh -- records what each CUDA test program prints on a real GPU: builds them with
# nvcc --cudart shared (variant a of build.sh: PTX for compute_75 and compute_90, JIT-compiled by
# the driver) against NVIDIA's libcudart, runs each, and writes its stdout, without the "info:"
# lines that vary by machine, to OUTDIR/NAME.out. The expectations for `make check` are made so:
#
#   tests/cuda/record-gpu.sh tests/cuda/expected [NAME...]
set -u
here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 1 ] || { echo "usage: record-gpu.sh OUTDIR [NAME...]" >&2; exit 2; }
out=$1
shift
bin=${LOOM_CUDA_BIN:-$(mktemp -d)}
jobs=$(nproc 2>/dev/null || echo 4)
"$here/build.sh" -j "$jobs" --variants a "$bin" "$@" || exit $?
mkdir -p "$out"
status=0
for exe in "$bin"/a/*; do
    [ -x "$exe" ] || continue
    name=$(basename "$exe")
    case $name in *.log|*.tmp) continue ;; esac
    if [ $# -gt 0 ]; then
        case " $* " in *" $name "*) ;; *) continue ;; esac
    fi
    # NVIDIA's runtime, never Loom's: no LD_LIBRARY_PATH or LD_PRELOAD pointing at it
    env -u LD_PRELOAD LD_LIBRARY_PATH= timeout 120 "$exe" > "$out/$name.raw" 2> "$out/$name.err"
    rc=$?
    grep -v '^info:' "$out/$name.raw" > "$out/$name.out"
    last=$(tail -n 1 "$out/$name.out")
    echo "$name: exit $rc, $last" >&2
    [ "$last" = PASS ] || status=1
    rm -f "$out/$name.raw"
    [ -s "$out/$name.err" ] || rm -f "$out/$name.err"
done
exit $status
