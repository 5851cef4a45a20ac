// rdc_counter.cu -- a third unit: its own kernel, a __device__ counter, and a call back
// into rdc_funcs.cu; the host function launches it.
#include "../check.h"
#include "rdc_shared.h"

__device__ unsigned rdc_counter;

__global__ void count(int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && rdc_square(i) >= 0 && twice(1) == 2)
        atomicAdd(&rdc_counter, 1u);
}

int run_counter(int n)
{
    unsigned zero = 0, c = 0;
    CK(cudaMemcpyToSymbol(rdc_counter, &zero, sizeof zero));
    count<<<(n + 127) / 128, 128>>>(n);
    CK(cudaMemcpyFromSymbol(&c, rdc_counter, sizeof c));
    printf("counter %u\n", c);
    return (int)c;
}
