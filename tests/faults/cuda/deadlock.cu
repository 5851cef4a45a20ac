// deadlock.cu -- warp 0 waits at named barrier 1 for 64 threads while warp 1 waits at
// barrier 0: a GPU hangs; Loom reports the deadlock as cudaErrorLaunchFailure.
// loom-only
#include "fault_check.h"

__global__ void deadlock(int *out)
{
    if (threadIdx.x < 32)
        asm volatile("bar.sync 1, 64;");
    else
        __syncthreads();
    out[threadIdx.x] = 1;
}

static void bad(int *buf) { deadlock<<<1, 64>>>(buf); }

int main() { return run_fault_test(cudaErrorLaunchFailure, bad); }
