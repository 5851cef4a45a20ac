#!/bin/sh
# run-tests.sh -- `make check` test: builds the CUDA test programs (build.sh) and runs each under
# `loom exec`. A program passes when its stdout, without "info:" lines, equals expected/NAME.out
# (recorded on a GPU by record-gpu.sh) or, where none is recorded yet, ends with PASS.
# Programs named in XFAIL are expected to fail for the reason given there.
#
#   run-tests.sh [NAME...]      LOOM_CUDA_VARIANTS=quick|all|LIST, LOOM_CUDA_JOBS=N,
#                               LOOM_CUDA_RUN_VARIANTS="a ..." (run only those built variants)
# Exits 77 (skipped) when nvcc is not installed.
set -u

top_srcdir=${top_srcdir:-${srcdir:-$(dirname "$0")/../..}}
here=$top_srcdir/tests/cuda
builddir=${top_builddir:-$(pwd)}
loom=${LOOM:-$builddir/loom}
bin=$builddir/tests/cuda/bin
if [ -z "${NVCC:-}" ]; then
    NVCC=$(command -v nvcc 2>/dev/null || true)
    [ -n "$NVCC" ] || [ ! -x /usr/local/cuda/bin/nvcc ] || NVCC=/usr/local/cuda/bin/nvcc
fi
if [ -z "$NVCC" ]; then
    echo "run-tests.sh: nvcc not found; CUDA programs skipped"
    exit 77
fi
export NVCC
[ -x "$loom" ] || { echo "run-tests.sh: $loom not built" >&2; exit 99; }

jobs=${LOOM_CUDA_JOBS:-$(nproc 2>/dev/null || echo 2)}
"$here/build.sh" -j "$jobs" --variants "${LOOM_CUDA_VARIANTS:-quick}" "$bin" "$@" || exit 99

xfail_reason() {
    sed -n "s/^$1[ 	]*#[ 	]*//p" "$here/XFAIL" 2>/dev/null | head -n 1
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0 xfail=0 xpass=0
failed=
for exe in "$bin"/*/*; do
    [ -x "$exe" ] && [ -f "$exe" ] || continue
    name=$(basename "$exe")
    case $name in *.log|*.tmp) continue ;; esac
    if [ $# -gt 0 ]; then
        case " $* " in *" $name "*) ;; *) continue ;; esac
    fi
    variant=$(basename "$(dirname "$exe")")
    case " ${LOOM_CUDA_RUN_VARIANTS:-$variant} " in *" $variant "*) ;; *) continue ;; esac
    timeout 300 "$loom" exec --workers 4 "$exe" > "$tmp/out" 2> "$tmp/err"
    rc=$?
    grep -v '^info:' "$tmp/out" > "$tmp/got"
    ok=yes
    why=
    if [ -f "$here/expected/$name.out" ]; then
        if ! diff -u "$here/expected/$name.out" "$tmp/got" > "$tmp/diff"; then
            ok=no
            why="stdout differs from expected/$name.out"
        fi
    elif [ "$(tail -n 1 "$tmp/got")" != PASS ]; then
        ok=no
        why="no PASS line"
    fi
    if [ $rc -ne 0 ] && [ $ok = yes ] && [ "$(tail -n 1 "$tmp/got")" = PASS ]; then
        ok=no
        why="exit status $rc"
    fi
    reason=$(xfail_reason "$name")
    if [ $ok = yes ]; then
        if [ -n "$reason" ]; then
            echo "XPASS: $variant/$name (listed in XFAIL: $reason): it passes now, remove it from XFAIL"
            xpass=$((xpass + 1))
            failed="$failed $variant/$name(xpass)"
        else
            echo "PASS: $variant/$name"
            pass=$((pass + 1))
        fi
    elif [ -n "$reason" ]; then
        echo "XFAIL: $variant/$name ($reason)"
        xfail=$((xfail + 1))
    else
        echo "FAIL: $variant/$name: $why (exit $rc)"
        [ -s "$tmp/diff" ] && head -n 40 "$tmp/diff"
        tail -n 20 "$tmp/err"
        fail=$((fail + 1))
        failed="$failed $variant/$name"
    fi
    : > "$tmp/diff"
done
echo "CUDA programs: $pass passed, $fail failed, $xfail expected failures, $xpass unexpected passes"
[ -z "$failed" ] || echo "failed:$failed"
[ $fail -eq 0 ] && [ $xpass -eq 0 ]
