#!/bin/bash
# gen.sh -- compiles the CUDA sources of public suites to PTX with the installed nvcc, for
# tests/suites/run.sh. Loom commits no code of these suites: point this at checkouts.
#
#   tests/suites/gen.sh SRCROOT OUTDIR [JOBS]
#
# SRCROOT holds one folder per suite (e.g. cuda-samples/, rodinia/, hecbench/: checkouts of
# github.com/NVIDIA/cuda-samples, yuhc/gpu-rodinia, zjin-lcf/HeCBench). Every .cu file is
# compiled alone with `nvcc -arch=sm_90 -ptx` (its folder, its parent and the suite's
# Common/common/include folders on the include path) into OUTDIR/SUITE/PATH.ptx, PATH with
# '/' as '__'. OUTDIR/compile.log lists "ok FILE" or "fail FILE" for each; a file nvcc
# refuses (it needs headers or flags of its own build) is no concern of Loom's.
set -u
src=${1:?usage: gen.sh SRCROOT OUTDIR [JOBS]}
out=${2:?usage: gen.sh SRCROOT OUTDIR [JOBS]}
jobs=${3:-$(nproc 2>/dev/null || echo 2)}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[ -x "$NVCC" ] || { echo "gen.sh: nvcc not found" >&2; exit 77; }
src=$(cd "$src" && pwd) || exit 2
mkdir -p "$out" && out=$(cd "$out" && pwd) || exit 2

compile_one() {   # SUITE FILE (relative to the suite)
    suite=$1 rel=$2 root=$src/$1
    dir=$(dirname "$root/$rel")
    ptx=$out/$suite/$(echo "$rel" | sed 's|/|__|g; s|\.cu$|.ptx|')
    incs="-I$dir -I$dir/.. -I$dir/../.."
    for d in Common common include src/include Common/UtilNPP; do
        [ -d "$root/$d" ] && incs="$incs -I$root/$d"
    done
    if timeout 120 "$NVCC" -arch=sm_90 -ptx -std=c++17 -w $incs -o "$ptx" "$root/$rel" >/dev/null 2>&1; then
        echo "ok $suite/$rel"
    else
        rm -f "$ptx"
        echo "fail $suite/$rel"
    fi
}
export -f compile_one
export src out NVCC
for s in "$src"/*/; do
    suite=$(basename "$s")
    mkdir -p "$out/$suite"
    (cd "$s" && find . -name '*.cu' | sed 's|^\./||' | sort) | sed "s|^|$suite |"
done | xargs -P "$jobs" -L 1 bash -c 'compile_one "$0" "$1"' | sort > "$out/compile.log"
echo "gen.sh: $(grep -c '^ok' "$out/compile.log") of $(wc -l < "$out/compile.log") CUDA files compiled to PTX in $out"
