#!/bin/sh
# run-tests.sh -- `make check` test: builds the driver API test programs (src/drv_*.c) with the C
# compiler against NVIDIA's cuda.h, linked with the stub libcuda.so (and Loom's libcudart for
# drv_interop), and runs each under `loom exec`, which supplies Loom's libcuda.so.1. A program
# passes when its stdout equals expected/NAME.out (recorded on an H100, or written by hand for the
# Loom-only drv_unsupported), the lines DIFFERENCES names aside, or, where none is recorded, ends
# with PASS.
#
#   run-tests.sh [NAME...]
# Exits 77 (skipped) without the CUDA headers and stub library.
set -u

top_srcdir=${top_srcdir:-${srcdir:-$(dirname "$0")/../..}}
here=$top_srcdir/tests/driver
builddir=${top_builddir:-$(pwd)}
loom=${LOOM:-$builddir/loom}
cuda=${CUDA_HOME:-/usr/local/cuda}
cc=${CC:-cc}
if [ ! -f "$cuda/include/cuda.h" ] || [ ! -f "$cuda/lib64/stubs/libcuda.so" ]; then
    echo "run-tests.sh: $cuda/include/cuda.h or the stub libcuda.so not found; driver tests skipped"
    exit 77
fi
[ -x "$loom" ] || { echo "run-tests.sh: $loom not built" >&2; exit 99; }

bin=$builddir/tests/driver/bin
mkdir -p "$bin"
ptx=$here/src/drv_kernels.ptx
flags="-std=c11 -D_DEFAULT_SOURCE -Wall -Wextra -Werror -I$cuda/include"
for src in "$here"/src/drv_*.c; do
    name=$(basename "$src" .c)
    libs="-L$cuda/lib64/stubs -lcuda"
    [ "$name" = drv_interop ] && libs="$libs -L$builddir/runtime/.libs -lcudart"
    # shellcheck disable=SC2086
    $cc $flags "$src" $libs -pthread -o "$bin/$name" || { echo "FAIL: $name does not build"; exit 1; }
done
# fatbinaries of the same kernels, PTX with SASS (plain and compressed) and SASS only, where
# nvcc is installed
nvcc=${NVCC:-$(command -v nvcc 2>/dev/null || echo "$cuda/bin/nvcc")}
fatbin= zfatbin= sass=
both='arch=compute_90,code=[sm_90,compute_90]'
k=$here/src/drv_kernels.cu
if [ -x "$nvcc" ] && "$nvcc" -fatbin -gencode "$both" "$k" -o "$bin/k.fatbin" &&
    "$nvcc" -fatbin -gencode "$both" -Xfatbin -compress-all "$k" -o "$bin/kz.fatbin" &&
    "$nvcc" -fatbin -gencode arch=compute_90,code=sm_90 "$k" -o "$bin/sass.fatbin"; then
    fatbin=$bin/k.fatbin zfatbin=$bin/kz.fatbin sass=$bin/sass.fatbin
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

# filtered FILE: FILE without the sections of the cases in $cases (a line "CASE:" and the
# indented lines after it) and without the lines that match a pattern in $tmp/skip.
filtered() {
    awk -v cases="$cases" '/^[^ ]/ { drop = index(cases, " " substr($0, 1, length($0) - 1) " ") > 0 }
                           !drop' "$1" | grep -v -E -f "$tmp/skip"
}

# run_one LABEL NAME EXPECTED ARGS...: runs program NAME under loom exec and compares its
# stdout with EXPECTED (the lines DIFFERENCES names for NAME aside), or looks for PASS where
# EXPECTED does not exist.
run_one() {
    label=$1 name=$2 expected=$3
    shift 3
    LOOM_LOG=1 timeout 300 "$loom" exec --workers 4 "$bin/$name" "$@" > "$tmp/out" 2> "$tmp/err"
    rc=$?
    ok=yes why=
    if [ -f "$expected" ]; then
        # DIFFERENCES: a pattern drops the lines it matches, @CASE a case's whole section
        sed -n "s/^$name[ 	][ 	]*\([^@ 	][^ 	]*\).*/\1/p" "$here/DIFFERENCES" > "$tmp/skip"
        [ -s "$tmp/skip" ] || echo '^$never' > "$tmp/skip"
        cases=" $(sed -n "s/^$name[ 	][ 	]*@\([^ 	]*\).*/\1/p" "$here/DIFFERENCES" | tr '\n' ' ') "
        filtered "$expected" > "$tmp/want"
        [ $? -le 1 ] || { echo "FAIL: DIFFERENCES has a bad pattern for $name"; exit 99; }
        filtered "$tmp/out" > "$tmp/got"
        diff -u "$tmp/want" "$tmp/got" > "$tmp/diff" || { ok=no; why="stdout differs from $expected"; }
    elif [ "$(tail -n 1 "$tmp/out")" != PASS ]; then
        ok=no why="no PASS line"
    fi
    [ $rc -eq 0 ] || { ok=no; why="${why:-exit status $rc}"; }
    # LOOM_LOG=1 names each unsupported entry point once, on one line
    if [ "$name" = drv_unsupported ] &&
        ! grep -q '^loom: cuGraphCreate is not supported by Loom (returns CUDA_ERROR_NOT_SUPPORTED)$' "$tmp/err"; then
        ok=no why="no LOOM_LOG note for cuGraphCreate"
    fi
    if [ $ok = yes ]; then
        echo "PASS: $label"
        pass=$((pass + 1))
    else
        echo "FAIL: $label: $why"
        [ -s "$tmp/diff" ] && head -n 40 "$tmp/diff"
        grep -v '^loom: cu[A-Za-z0-9_]*(.*) = ' "$tmp/err" | tail -n 20
        fail=$((fail + 1))
    fi
    rm -f "$tmp/diff"
}

for exe in "$bin"/drv_*; do
    name=$(basename "$exe")
    if [ $# -gt 0 ]; then
        case " $* " in *" $name "*) ;; *) continue ;; esac
    fi
    expected=$here/expected/$name.out
    case $name in
    drv_attrs | drv_errors | drv_link) run_one "$name" "$name" "$expected" ;;
    drv_interop)
        # the recorded output includes the fatbinary's lines: without nvcc there are none
        if [ -n "$fatbin" ]; then
            run_one "$name" "$name" "$expected" "$ptx" "$fatbin"
            run_one "$name (compressed fatbinary)" "$name" "$expected" "$ptx" "$zfatbin"
        else
            run_one "$name" "$name" /nonexistent "$ptx"
        fi ;;
    drv_unsupported)
        if [ -n "$sass" ]; then
            run_one "$name" "$name" "$expected" "$ptx" "$sass"
        else
            run_one "$name" "$name" /nonexistent "$ptx"
        fi ;;
    *) run_one "$name" "$name" "$expected" "$ptx" ;;
    esac
done
echo "driver tests: $pass passed, $fail failed"
[ $fail -eq 0 ]
