#!/bin/sh
# gen.sh -- regenerates mma_ops.cuh and mma_m8n8k4.cuh (gen.py), mma.ptx from mma.cu and
# m8n8k4/mma_m8n8k4.ptx from m8n8k4/mma_m8n8k4.cu (needs nvcc; all are committed).
set -e
cd "$(dirname "$0")"
python3 gen.py
nvcc -ptx -arch=sm_90 -O3 -o mma.ptx mma.cu
nvcc -ptx -arch=sm_90 -O3 -o m8n8k4/mma_m8n8k4.ptx m8n8k4/mma_m8n8k4.cu
