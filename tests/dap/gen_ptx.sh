#!/bin/sh
# gen_ptx.sh -- regenerate dap_kernels.ptx and dap_printf.ptx from their .cu files (needs nvcc;
# exits 77 without it).
# The .file path is made relative to the source tree (nvcc writes the machine's absolute path).
cd "$(dirname "$0")" || exit 1
command -v nvcc >/dev/null 2>&1 || exit 77
for f in dap_kernels dap_printf; do
    nvcc -arch=sm_90 -lineinfo -ptx $f.cu -o $f.ptx || exit 1
    sed -i 's|^\(\t\.file\t[0-9]* "\)[^"]*/tests/dap/|\1tests/dap/|' $f.ptx
done
