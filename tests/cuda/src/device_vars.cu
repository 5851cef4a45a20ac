// device_vars.cu -- __device__ variables: initialised globals, a counter bumped with
// atomicAdd, read back and reset through the symbol API.
#include "check.h"

__device__ unsigned counter;
__device__ int table[8] = {1, 1, 2, 3, 5, 8, 13, 21};
__device__ long long big = 1234567890123LL;

__global__ void count_and_scale(int *out)
{
    atomicAdd(&counter, 1u);
    int t = threadIdx.x % 8;
    out[blockIdx.x * blockDim.x + threadIdx.x] = table[t] * 2;
    if (blockIdx.x == 0 && threadIdx.x == 0)
        big += 1;
}

int main()
{
    int *out, h[4 * 64];
    CK(cudaMalloc(&out, sizeof h));
    unsigned zero = 0;
    CK(cudaMemcpyToSymbol(counter, &zero, sizeof zero));
    count_and_scale<<<4, 64>>>(out);
    count_and_scale<<<4, 64>>>(out);
    CK(cudaDeviceSynchronize());
    unsigned c = 0;
    long long b = 0;
    CK(cudaMemcpyFromSymbol(&c, counter, sizeof c));
    CK(cudaMemcpyFromSymbol(&b, big, sizeof b));
    CK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
    static const int fib[8] = {1, 1, 2, 3, 5, 8, 13, 21};
    int bad = 0;
    for (int i = 0; i < 4 * 64; i++)
        bad += h[i] != fib[i % 8] * 2;
    printf("counter %u, big %lld, table mismatches %d\n", c, b, bad);
    EXPECT(c == 512 && b == 1234567890125LL && bad == 0);
    unsigned *pc;
    CK(cudaGetSymbolAddress((void **)&pc, counter));
    CK(cudaMemset(pc, 0, sizeof(unsigned)));
    CK(cudaMemcpyFromSymbol(&c, counter, sizeof c));
    printf("after cudaMemset through the symbol address: %u\n", c);
    EXPECT(c == 0);
    return finish();
}
