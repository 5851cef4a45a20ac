// oob_global_read.cu -- a read one element past the end of a cudaMalloc'd buffer. No thread
// writes what another reads (the buffer holds 1, 2, 3 ...): the kernel has no data race, so
// the TSan build of the test suite stays quiet (docs/SANITIZERS.md, Kernel races).
#include "fault_check.h"

__global__ void read_past(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i + n];
    if (v < 0) out[i] = v;
}

static void bad(int *buf) { read_past<<<2, 64>>>(buf, buf, 1); }

int main() { return run_fault_test(cudaErrorIllegalAddress, bad); }
