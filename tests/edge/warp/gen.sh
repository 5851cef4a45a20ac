#!/bin/sh
# gen.sh -- regenerates warp.ptx from warp.cu (needs nvcc; the result is committed).
# legacy.ptx and membermask.ptx are hand-written.
set -e
cd "$(dirname "$0")"
nvcc -ptx -arch=compute_90 -O3 -o warp.ptx warp.cu
