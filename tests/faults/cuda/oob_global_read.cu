// oob_global_read.cu -- a read one element past the end of a cudaMalloc'd buffer.
#include "fault_check.h"

__global__ void read_past(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i + n];
}

static void bad(int *buf) { read_past<<<2, 64>>>(buf, buf, 1); }

int main() { return run_fault_test(cudaErrorIllegalAddress, bad); }
