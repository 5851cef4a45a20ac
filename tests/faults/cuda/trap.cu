// trap.cu -- one thread executes trap: cudaErrorLaunchFailure.
#include "fault_check.h"

__global__ void do_trap(int *out)
{
    if (threadIdx.x == 3 && blockIdx.x == 1)
        asm volatile("trap;");
    out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}

static void bad(int *buf) { do_trap<<<2, 64>>>(buf); }

int main() { return run_fault_test(cudaErrorLaunchFailure, bad); }
