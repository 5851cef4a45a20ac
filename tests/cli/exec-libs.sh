#!/bin/sh
# exec-libs.sh -- `make check` test: `loom exec` of a program linked with CUDA libraries that
# Loom does not provide (cuBLAS, cuFFT) names them in one warning line, and the program runs.
# Exits 77 (skipped) when nvcc or those libraries are not installed.
set -u
top_builddir=$(cd "${top_builddir:-.}" && pwd)
srcdir=$(cd "${srcdir:-.}" && pwd)
LOOM=${LOOM:-$top_builddir/loom}
[ -x "$LOOM" ] || { echo "exec-libs.sh: $LOOM not built" >&2; exit 99; }
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[ -x "$NVCC" ] || { echo "exec-libs.sh: nvcc not found; skipped"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/loom-exec-libs.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
if ! "$NVCC" --cudart shared -o "$tmp/gpu_libs" "$srcdir/tests/cli/gpu_libs.cu" -lcublas -lcufft 2>"$tmp/build"; then
    echo "exec-libs.sh: cannot build with cuBLAS and cuFFT; skipped"
    sed 's/^/    /' "$tmp/build"
    exit 77
fi
"$LOOM" exec "$tmp/gpu_libs" >"$tmp/out" 2>"$tmp/err"
rc=$?
fails=0
[ "$rc" = 0 ] || { echo "FAIL: exit status $rc"; fails=1; }
grep -q '^loom exec: warning: .*gpu_libs needs libcublas\.so\.[0-9]*, libcufft\.so\.[0-9]*, which Loom does not provide yet' \
    "$tmp/err" || { echo "FAIL: no warning naming libcublas and libcufft:"; sed 's/^/    /' "$tmp/err"; fails=1; }
grep -q '^cublasCreate: failed$' "$tmp/out" || { echo "FAIL: cublasCreate did not fail:"; cat "$tmp/out"; fails=1; }
echo "exec-libs.sh: $fails failure(s)"
[ "$fails" -eq 0 ]
