// legacy_launch.cu -- built with -D__NV_LEGACY_LAUNCH for the host compiler: <<<>>> goes through cudaLaunchKernel
// (not __cudaGetKernel/__cudaLaunchKernel); also explicit cudaLaunchKernel and cudaLaunchKernelEx.
// nvcc-flags: -Xcompiler -D__NV_LEGACY_LAUNCH
#include "check.h"

struct params {
    int a;
    double b;
    char c;
};

__global__ void mixed(int *out, char c, short s, params p, float f, long long ll)
{
    if (blockIdx.x != 0 || threadIdx.x != 0)   // one writer: the same stores from every thread would race
        return;
    out[0] = c;
    out[1] = s;
    out[2] = p.a;
    out[3] = (int)(p.b * 10.0);
    out[4] = p.c;
    out[5] = (int)(f * 4.0f);
    out[6] = (int)(ll >> 32);
    out[7] = blockDim.x * 100 + gridDim.x;
}

int main()
{
    int *d, h[8];
    CK(cudaMalloc(&d, sizeof h));
    params p = {-7, 2.5, 'z'};
    mixed<<<3, 5>>>(d, 'A', -300, p, 1.75f, 5LL << 32);
    CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    printf("<<<>>>: %d %d %d %d %d %d %d %d\n", h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7]);
    EXPECT(h[0] == 'A' && h[1] == -300 && h[2] == -7 && h[3] == 25 && h[4] == 'z' && h[5] == 7 && h[6] == 5 &&
           h[7] == 503);

    char c = 'B';
    short s = 12;
    float f = 0.5f;
    long long ll = 9LL << 32;
    void *args[] = {&d, &c, &s, &p, &f, &ll};
    CK(cudaLaunchKernel((const void *)mixed, dim3(2), dim3(7), args, 0, 0));
    CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    printf("cudaLaunchKernel: %d %d %d %d\n", h[0], h[1], h[6], h[7]);
    EXPECT(h[0] == 'B' && h[1] == 12 && h[5] == 2 && h[6] == 9 && h[7] == 702);

    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(4);
    cfg.blockDim = dim3(8);
    CK(cudaLaunchKernelEx(&cfg, mixed, d, (char)'C', (short)1, p, 2.0f, 1LL << 33));
    CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    printf("cudaLaunchKernelEx: %d %d %d\n", h[0], h[6], h[7]);
    EXPECT(h[0] == 'C' && h[6] == 2 && h[7] == 804);

    cudaError_t e = cudaLaunchKernel((const void *)main, dim3(1), dim3(1), args, 0, 0);
    printf("cudaLaunchKernel of a host function: %s\n", cudaGetErrorName(e));
    EXPECT(e == cudaErrorInvalidResourceHandle);
    cudaGetLastError();
    mixed<<<1, 2048>>>(d, c, s, p, f, ll);
    e = cudaGetLastError();
    printf("legacy <<<>>> with 2048 threads: %s\n", cudaGetErrorName(e));
    EXPECT(e != cudaSuccess);
    return finish();
}
