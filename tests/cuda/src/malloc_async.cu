// malloc_async.cu -- stream-ordered allocation: cudaMallocAsync and cudaFreeAsync interleaved
// with kernels on one stream, many rounds.
#include "check.h"

__global__ void iota(int *p, int n, int k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = i * k;
}

__global__ void sum_into(const int *p, int n, long long *out)
{
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        long long t = 0;
        for (int i = 0; i < n; i++)
            t += p[i];
        *out += t;
    }
}

int main()
{
    cudaStream_t s;
    CK(cudaStreamCreate(&s));
    long long *total;
    CK(cudaMallocAsync(&total, sizeof(long long), s));
    CK(cudaMemsetAsync(total, 0, sizeof(long long), s));
    const int n = 4096;
    long long expect = 0;
    for (int round = 1; round <= 20; round++) {
        int *buf;
        CK(cudaMallocAsync(&buf, n * sizeof(int), s));
        iota<<<n / 256, 256, 0, s>>>(buf, n, round);
        sum_into<<<1, 32, 0, s>>>(buf, n, total);
        CK(cudaFreeAsync(buf, s));
        expect += (long long)round * n * (n - 1) / 2;
    }
    long long h = 0;
    CK(cudaMemcpyAsync(&h, total, sizeof h, cudaMemcpyDeviceToHost, s));
    CK(cudaStreamSynchronize(s));
    printf("total %lld, expected %lld\n", h, expect);
    EXPECT(h == expect);
    CK(cudaFreeAsync(total, s));
    CK(cudaStreamSynchronize(s));
    CK(cudaStreamDestroy(s));
    return finish();
}
