#!/bin/sh
# gen_ptx.sh -- regenerates the committed NAME.ptx from NAME.cu with the installed nvcc
# (-lineinfo, so that reports name the CUDA line; the .file path is made relative to the
# source tree so that reports do not depend on where it was built); exits 77 without nvcc.
cd "$(dirname "$0")" || exit 1
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[ -x "$NVCC" ] || exit 77
for cu in *.cu; do
    "$NVCC" -arch=compute_75 -ptx -lineinfo "$cu" -o "${cu%.cu}.ptx" || exit 1
    sed -i 's|^\(\t\.file\t[0-9]* "\)[^"]*/tests/faults/|\1tests/faults/|' "${cu%.cu}.ptx"
done
