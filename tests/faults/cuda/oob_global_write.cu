// oob_global_write.cu -- a write 64 bytes before the start of a cudaMalloc'd buffer.
#include "fault_check.h"

__global__ void write_before(int *out, int v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 37)
        out[i - 53] = v;
}

static void bad(int *buf) { write_before<<<2, 64>>>(buf, 7); }

int main() { return run_fault_test(cudaErrorIllegalAddress, bad); }
