// oob_local.cu -- a per-thread array read far past its end (local memory).
#include "fault_check.h"

__global__ void local_past(int *out, int k)
{
    volatile int a[16];
    for (int j = 0; j < 16; j++)
        a[j] = j * threadIdx.x;
    out[threadIdx.x] = a[k];
}

static void bad(int *buf) { local_past<<<1, 64>>>(buf, 1 << 24); }

int main() { return run_fault_test(cudaErrorIllegalAddress, bad); }
