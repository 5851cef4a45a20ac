// racecheck.cu -- with LOOM_RACECHECK=1, threads reading a neighbour's shared slot with no
// barrier after writing their own stop with a report of both accesses: cudaErrorLaunchFailure.
// loom-only env: LOOM_RACECHECK=1
#include "fault_check.h"

__global__ void neighbour(int *out)
{
    __shared__ int s[64];
    s[threadIdx.x] = threadIdx.x;
    out[threadIdx.x] = s[(threadIdx.x + 1) % 64];
}

static void bad(int *buf) { neighbour<<<1, 64>>>(buf); }

int main() { return run_fault_test(cudaErrorLaunchFailure, bad); }
