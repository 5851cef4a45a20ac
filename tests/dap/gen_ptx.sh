#!/bin/sh
# gen_ptx.sh -- regenerate dap_kernels.ptx from dap_kernels.cu (needs nvcc; exits 77 without it).
cd "$(dirname "$0")" || exit 1
command -v nvcc >/dev/null 2>&1 || exit 77
nvcc -arch=sm_90 -lineinfo -ptx dap_kernels.cu -o dap_kernels.ptx
