// assert_kernel.cu -- a failing device assert: the synchronisation returns cudaErrorAssert,
// the error is sticky until cudaDeviceReset. Whether the device takes new work after the reset
// depends on the GPU's compute mode, so that part is only "info:".
#include <cassert>
#include "check.h"

__global__ void check_positive(const int *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        assert(v[i] > 0);
}

__global__ void fill(int *v, int n, int value)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] = value;
}

int main()
{
    const int n = 256;
    int *v;
    CK(cudaMalloc(&v, n * sizeof(int)));
    fill<<<1, n>>>(v, n, 1);
    check_positive<<<1, n>>>(v, n);
    CK(cudaDeviceSynchronize());
    printf("all positive: no assert\n");

    CK(cudaMemset(v + 77, 0, sizeof(int)));
    check_positive<<<1, n>>>(v, n);
    cudaError_t e = cudaDeviceSynchronize();
    fflush(stdout);
    printf("synchronize after the failed assert: %s\n", cudaGetErrorName(e));
    EXPECT(e == cudaErrorAssert);
    e = cudaGetLastError();
    printf("cudaGetLastError: %s\n", cudaGetErrorName(e));
    EXPECT(e == cudaErrorAssert);
    int *w = nullptr;
    e = cudaMalloc(&w, 16);
    printf("cudaMalloc while the error is sticky: %s\n", cudaGetErrorName(e));
    EXPECT(e == cudaErrorAssert);

    e = cudaDeviceReset();
    printf("cudaDeviceReset: %s\n", cudaGetErrorName(e));
    EXPECT(e == cudaSuccess);
    e = cudaMalloc(&v, n * sizeof(int));
    printf("info: cudaMalloc after the reset: %s\n", cudaGetErrorName(e));
    if (e == cudaSuccess) {
        fill<<<1, n>>>(v, n, 5);
        int h[n];
        CK(cudaMemcpy(h, v, sizeof h, cudaMemcpyDeviceToHost));
        printf("info: after cudaDeviceReset: v[0]=%d v[255]=%d\n", h[0], h[255]);
        EXPECT(h[0] == 5 && h[255] == 5);
    }
    cudaGetLastError();
    return finish();
}
