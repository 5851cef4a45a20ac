#!/bin/sh
# gen_ptx.sh -- regenerates kernels.ptx, the fixture of the parameter access analysis
# (check_ptx_access.c), from kernels.cu with the installed nvcc; the .file path is made
# relative to the source tree. Exits 77 without nvcc.
cd "$(dirname "$0")" || exit 1
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[ -x "$NVCC" ] || exit 77
"$NVCC" -arch=sm_90 -lineinfo -ptx kernels.cu -o kernels.ptx || exit 1
sed -i 's|^\(\t\.file\t[0-9]* "\)[^"]*/tests/unit/access/|\1tests/unit/access/|' kernels.ptx
