#!/bin/sh
# abi-check.sh -- `make check` test: compiles tests/cuda/abi against NVIDIA's headers and
# runtime/rt_cuda.h and compares sizes, offsets, constants and prototypes (exit 77 without CUDA).
set -u
srcdir=${top_srcdir:-${srcdir:-$(dirname "$0")/../..}}
if [ -z "${NVCC:-}" ]; then
    NVCC=$(command -v nvcc 2>/dev/null || true)
    [ -n "$NVCC" ] || [ ! -x /usr/local/cuda/bin/nvcc ] || NVCC=/usr/local/cuda/bin/nvcc
fi
inc=${CUDA_INCLUDE:-$(dirname "${NVCC:-/nonexistent/bin/nvcc}")/../include}
if [ ! -f "$inc/cuda_runtime_api.h" ]; then
    echo "abi-check.sh: NVIDIA's headers not found; skipped"
    exit 77
fi
cc=${CC:-cc}
abi=$srcdir/tests/cuda/abi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
flags="-std=gnu11 -Wall -Wextra -Werror -I$srcdir -I$abi"
$cc $flags -DABI_NVIDIA -I"$inc" -c "$abi/abi_side.c" -o "$tmp/nvidia.o" &&
    $cc $flags -c "$abi/abi_side.c" -o "$tmp/loom.o" &&
    $cc $flags -I"$inc" "$abi/abi_main.c" "$tmp/nvidia.o" "$tmp/loom.o" -o "$tmp/abi" || exit 1
"$tmp/abi"
