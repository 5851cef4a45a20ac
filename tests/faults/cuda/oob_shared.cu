// oob_shared.cu -- a shared-memory array read past its end.
#include "fault_check.h"

__global__ void shared_past(int *out, int k)
{
    __shared__ int tile[64];
    tile[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = tile[threadIdx.x + k];
}

static void bad(int *buf) { shared_past<<<1, 64>>>(buf, 1 << 20); }

int main() { return run_fault_test(cudaErrorIllegalAddress, bad); }
