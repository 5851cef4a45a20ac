#!/bin/sh
# coverage.sh -- prints how much of the driver API (the entry points of cuda.h, as NVIDIA's stub
# libcuda.so exports them) Loom's libcuda.so.1 implements and how much is a CUDA_ERROR_NOT_SUPPORTED
# stub (driver/drv_unsupported.def), with counts. Also a `make check` test: it fails when the
# stand-in lacks an entry point of the stub (a program linked against it would not load).
#
#   coverage.sh [--list]       --list: the names too, one per line, marked + or -
set -u
top_srcdir=${top_srcdir:-${srcdir:-$(dirname "$0")/../..}}
builddir=${top_builddir:-$(pwd)}
lib=$builddir/driver/.libs/libcuda.so.1
stub=${CUDA_HOME:-/usr/local/cuda}/lib64/stubs/libcuda.so
[ -f "$lib" ] || { echo "coverage.sh: $lib not built" >&2; exit 99; }
command -v nm > /dev/null || { echo "coverage.sh: nm not found; skipped"; exit 77; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
nm -D --defined-only "$lib" | awk '$3 ~ /^cu/ { print $3 }' | sort -u > "$tmp/exported"
sed -n 's/^DRV_UNSUPPORTED(\(.*\))$/\1/p' "$top_srcdir/driver/drv_unsupported.def" | sort -u > "$tmp/unsupported"
comm -23 "$tmp/exported" "$tmp/unsupported" > "$tmp/implemented"
if [ -f "$stub" ]; then
    nm -D --defined-only "$stub" | awk '$3 ~ /^cu/ { print $3 }' | sort -u > "$tmp/all"
else
    cp "$tmp/exported" "$tmp/all"
    echo "(NVIDIA's stub libcuda.so not found: counting what Loom's library exports)"
fi
comm -23 "$tmp/all" "$tmp/exported" > "$tmp/missing"
n_all=$(wc -l < "$tmp/all")
n_impl=$(comm -12 "$tmp/all" "$tmp/implemented" | wc -l)
n_uns=$(comm -12 "$tmp/all" "$tmp/unsupported" | wc -l)
n_miss=$(wc -l < "$tmp/missing")
if [ "${1:-}" = --list ]; then
    comm -12 "$tmp/all" "$tmp/implemented" | sed 's/^/+ /'
    comm -12 "$tmp/all" "$tmp/unsupported" | sed 's/^/- /'
fi
echo "driver API entry points: $n_all"
echo "  implemented:   $n_impl ($((100 * n_impl / n_all))%)"
echo "  not supported: $n_uns (CUDA_ERROR_NOT_SUPPORTED, named under LOOM_LOG=1)"
if [ "$n_miss" -gt 0 ]; then
    echo "  missing from Loom's libcuda.so.1: $n_miss"
    sed 's/^/    /' "$tmp/missing"
    exit 1
fi
