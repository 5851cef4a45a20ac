// dyn_shared.cu -- extern __shared__ arrays sized at launch, including more than the
// default 48 KiB after cudaFuncSetAttribute(cudaFuncAttributeMaxDynamicSharedMemorySize).
#include "check.h"

__global__ void reverse(int *data, int n)
{
    extern __shared__ int s[];
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        s[i] = data[i];
    __syncthreads();
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        data[i] = s[n - 1 - i];
}

static bool run(int n)
{
    int *h = (int *)malloc(n * sizeof(int)), *d;
    for (int i = 0; i < n; i++)
        h[i] = i * 3 + 1;
    CK(cudaMalloc(&d, n * sizeof(int)));
    CK(cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice));
    reverse<<<1, 256, n * sizeof(int)>>>(d, n);
    cudaError_t e = cudaGetLastError();
    bool ok = e == cudaSuccess;
    if (ok) {
        CK(cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost));
        for (int i = 0; i < n; i++)
            ok &= h[i] == (n - 1 - i) * 3 + 1;
    }
    printf("%d ints (%d bytes): %s, reversed %s\n", n, (int)(n * sizeof(int)), cudaGetErrorName(e),
           ok ? "yes" : "no");
    CK(cudaFree(d));
    free(h);
    return ok;
}

int main()
{
    EXPECT(run(1000));
    EXPECT(run(12288));                       // exactly 48 KiB
    int big = 96 * 1024 / (int)sizeof(int);   // 96 KiB needs the opt-in
    reverse<<<1, 256, big * sizeof(int)>>>(nullptr, big);
    cudaError_t e = cudaGetLastError();
    printf("96 KiB without opt-in: %s\n", cudaGetErrorName(e));
    EXPECT(e == cudaErrorInvalidValue);
    CK(cudaFuncSetAttribute(reverse, cudaFuncAttributeMaxDynamicSharedMemorySize, 96 * 1024));
    cudaFuncAttributes fa;
    CK(cudaFuncGetAttributes(&fa, reverse));
    printf("maxDynamicSharedSizeBytes %d\n", fa.maxDynamicSharedSizeBytes);
    EXPECT(run(big));
    return finish();
}
