// reduce_shared.cu -- a shared-memory tree reduction with __syncthreads, then a second
// pass over the per-block sums; integer sums are exact.
#include "check.h"

template <int BLOCK>
__global__ void block_sum(const int *in, long long *out, int n)
{
    __shared__ long long s[BLOCK];
    int i = blockIdx.x * BLOCK * 2 + threadIdx.x;
    long long v = 0;
    if (i < n)
        v += in[i];
    if (i + BLOCK < n)
        v += in[i + BLOCK];
    s[threadIdx.x] = v;
    __syncthreads();
    for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = s[0];
}

__global__ void final_sum(const long long *partial, int m, long long *total)
{
    long long t = 0;
    for (int i = 0; i < m; i++)
        t += partial[i];
    *total = t;
}

int main()
{
    const int n = 1000003, block = 256;
    const int blocks = (n + block * 2 - 1) / (block * 2);
    int *h = (int *)malloc(n * sizeof(int));
    long long expect = 0;
    for (int i = 0; i < n; i++) {
        h[i] = (i * 7919) % 1000 - 500;
        expect += h[i];
    }
    int *d;
    long long *partial, *total, result = 0;
    CK(cudaMalloc(&d, n * sizeof(int)));
    CK(cudaMalloc(&partial, blocks * sizeof(long long)));
    CK(cudaMalloc(&total, sizeof(long long)));
    CK(cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice));
    block_sum<block><<<blocks, block>>>(d, partial, n);
    final_sum<<<1, 1>>>(partial, blocks, total);
    CK(cudaMemcpy(&result, total, sizeof result, cudaMemcpyDeviceToHost));
    printf("blocks %d, sum %lld, expected %lld\n", blocks, result, expect);
    EXPECT(result == expect);
    CK(cudaFree(d));
    CK(cudaFree(partial));
    CK(cudaFree(total));
    free(h);
    return finish();
}
