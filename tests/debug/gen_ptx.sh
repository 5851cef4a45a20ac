#!/bin/sh
# gen_ptx.sh -- regenerates the committed NAME.ptx of the debugger's fixtures from NAME.cu with
# the installed nvcc (-lineinfo, so that stops name CUDA lines; the .file path is made relative
# to the source tree, where the scenarios run); exits 77 without nvcc.
cd "$(dirname "$0")" || exit 1
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[ -x "$NVCC" ] || exit 77
for cu in basic.cu calls.cu diverge.cu shared.cu loop.cu faults.cu; do
    "$NVCC" -arch=sm_90 -lineinfo -ptx "$cu" -o "${cu%.cu}.ptx" || exit 1
    sed -i 's|^\(\t\.file\t[0-9]* "\)[^"]*/tests/debug/|\1tests/debug/|' "${cu%.cu}.ptx"
done
