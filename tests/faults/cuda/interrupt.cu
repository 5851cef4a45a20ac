// interrupt.cu -- Ctrl-C while a kernel runs: the program sends itself SIGINT during a kernel
// that never ends. Loom stops the kernel with a report of where its warps are; the error is
// cudaErrorLaunchFailure (sticky); after cudaDeviceReset kernels run again. (On a GPU the
// signal would end the program.)
// loom-only
#include <csignal>
#include <unistd.h>
#include "fault_check.h"

__global__ void spin(int *out)
{
    if (threadIdx.x >= 32)
        asm volatile("{\n$Lspin:\n\tbra.uni $Lspin;\n}");
    __syncthreads();
    out[threadIdx.x] = 1;
}

static void bad(int *buf)
{
    spin<<<1, 64>>>(buf);
    usleep(300 * 1000);
    raise(SIGINT);
}

int main() { return run_fault_test(cudaErrorLaunchFailure, bad); }
