// constant_mem.cu -- __constant__ arrays written with cudaMemcpyToSymbol (with an offset),
// read back with cudaMemcpyFromSymbol; cudaGetSymbolAddress and cudaGetSymbolSize.
#include "check.h"

__constant__ float coeffs[16];
__constant__ int scale = 3;

__global__ void poly(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float acc = 0.0f;
    for (int k = 15; k >= 0; k--)
        acc = acc * x[i] + coeffs[k];
    y[i] = acc * (float)scale;
}

int main()
{
    float h[16];
    for (int k = 0; k < 16; k++)
        h[k] = (float)(k % 3) - 1.0f;
    CK(cudaMemcpyToSymbol(coeffs, h, 8 * sizeof(float)));
    CK(cudaMemcpyToSymbol(coeffs, h + 8, 8 * sizeof(float), 8 * sizeof(float)));
    float back[16];
    CK(cudaMemcpyFromSymbol(back, coeffs, sizeof back));
    int same = 1;
    for (int k = 0; k < 16; k++)
        same &= back[k] == h[k];
    printf("round trip through the symbol: %s\n", same ? "equal" : "different");
    EXPECT(same);

    int s = 0;
    CK(cudaMemcpyFromSymbol(&s, scale, sizeof s));
    printf("initial scale %d\n", s);
    EXPECT(s == 3);
    size_t size = 0;
    CK(cudaGetSymbolSize(&size, coeffs));
    printf("sizeof coeffs %zu\n", size);
    EXPECT(size == 64);
    void *addr = nullptr;
    CK(cudaGetSymbolAddress(&addr, coeffs));
    EXPECT(addr != nullptr);

    cudaError_t e = cudaMemcpyToSymbol(coeffs, h, 65);
    printf("copy of 65 bytes into 64: %s\n", cudaGetErrorName(e));
    EXPECT(e == cudaErrorInvalidValue);

    const int n = 1000;
    float hx[n], hy[n], *x, *y;
    for (int i = 0; i < n; i++)
        hx[i] = (float)(i % 10) * 0.25f - 1.0f;
    CK(cudaMalloc(&x, sizeof hx));
    CK(cudaMalloc(&y, sizeof hy));
    CK(cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice));
    poly<<<4, 256>>>(x, y, n);
    CK(cudaMemcpy(hy, y, sizeof hy, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; i++) {
        float acc = 0.0f;
        for (int k = 15; k >= 0; k--)
            acc = acc * hx[i] + h[k];
        bad += hy[i] != acc * 3.0f;
    }
    printf("polynomial mismatches %d\n", bad);
    EXPECT(bad == 0);
    return finish();
}
