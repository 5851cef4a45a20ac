// histogram.cu -- a 256-bin histogram with per-block shared-memory bins merged by global
// atomics; bins are exact counts.
#include "check.h"

__global__ void hist(const unsigned char *data, int n, unsigned *bins)
{
    __shared__ unsigned local[256];
    for (int i = threadIdx.x; i < 256; i += blockDim.x)
        local[i] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&local[data[i]], 1u);
    __syncthreads();
    for (int i = threadIdx.x; i < 256; i += blockDim.x)
        if (local[i])
            atomicAdd(&bins[i], local[i]);
}

int main()
{
    const int n = 3000000;
    unsigned char *h = (unsigned char *)malloc(n);
    unsigned expect[256] = {0}, got[256];
    unsigned x = 12345;
    for (int i = 0; i < n; i++) {
        x = x * 1103515245u + 12345u;
        h[i] = (unsigned char)((x >> 16) % 200 + (i % 7 == 0 ? 50 : 0));
        expect[h[i]]++;
    }
    unsigned char *d;
    unsigned *bins;
    CK(cudaMalloc(&d, n));
    CK(cudaMalloc(&bins, sizeof got));
    CK(cudaMemset(bins, 0, sizeof got));
    CK(cudaMemcpy(d, h, n, cudaMemcpyHostToDevice));
    hist<<<60, 256>>>(d, n, bins);
    CK(cudaMemcpy(got, bins, sizeof got, cudaMemcpyDeviceToHost));
    int bad = 0;
    unsigned total = 0;
    for (int i = 0; i < 256; i++) {
        bad += got[i] != expect[i];
        total += got[i];
    }
    printf("total %u, bin[0] %u, bin[100] %u, bin[249] %u, wrong bins %d\n", total, got[0], got[100], got[249], bad);
    EXPECT(bad == 0 && total == (unsigned)n);
    free(h);
    return finish();
}
