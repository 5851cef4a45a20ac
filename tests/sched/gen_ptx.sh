#!/bin/sh
# gen_ptx.sh -- regenerate sched.ptx from sched.cu (needs nvcc; exits 77 without it).
cd "$(dirname "$0")" || exit 1
command -v nvcc >/dev/null 2>&1 || exit 77
nvcc -arch=compute_75 -ptx sched.cu -o sched.ptx
