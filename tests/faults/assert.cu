// assert.cu -- a device-side assert() that fails in one thread.
#include <cassert>

extern "C" __global__ void check_small(const int *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        assert(in[i] < 100);
}
