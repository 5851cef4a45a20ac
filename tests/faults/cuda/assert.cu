// assert.cu -- a device-side assert() fails in one thread: cudaErrorAssert.
#include <cassert>
#include "fault_check.h"

__global__ void check_small(const int *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        assert(in[i] < 100);
}

static void bad(int *buf) { check_small<<<2, 64>>>(buf, FAULT_N); }

int main() { return run_fault_test(cudaErrorAssert, bad); }
