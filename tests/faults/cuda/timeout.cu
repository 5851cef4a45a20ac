// timeout.cu -- a kernel that never ends, stopped by LOOM_TIMEOUT: cudaErrorLaunchTimeout.
// loom-only env: LOOM_TIMEOUT=0.3
#include "fault_check.h"

__global__ void spin(int *out)
{
    if (threadIdx.x >= 32)
        asm volatile("{\n$Lspin:\n\tbra.uni $Lspin;\n}");
    __syncthreads();
    out[threadIdx.x] = 1;
}

static void bad(int *buf) { spin<<<1, 64>>>(buf); }

int main() { return run_fault_test(cudaErrorLaunchTimeout, bad); }
