// saxpy_stride.cu -- a grid-stride loop over more elements than threads, with fmaf;
// the result is compared bit for bit with the same fmaf on the host.
#include <cmath>
#include "check.h"

__global__ void saxpy(int n, float a, const float *x, float *y)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        y[i] = fmaf(a, x[i], y[i]);
}

int main()
{
    const int n = 1 << 20;
    float *x, *y;
    float *hx = (float *)malloc(n * sizeof(float)), *hy = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++) {
        hx[i] = sinf((float)i);
        hy[i] = (float)(i % 97) / 7.0f;
    }
    CK(cudaMalloc(&x, n * sizeof(float)));
    CK(cudaMalloc(&y, n * sizeof(float)));
    CK(cudaMemcpy(x, hx, n * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(y, hy, n * sizeof(float), cudaMemcpyHostToDevice));
    saxpy<<<64, 128>>>(n, 2.5f, x, y);
    CK(cudaDeviceSynchronize());
    float *out = (float *)malloc(n * sizeof(float));
    CK(cudaMemcpy(out, y, n * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += out[i] != fmaf(2.5f, hx[i], hy[i]);
    printf("n %d, mismatches %d\n", n, bad);
    EXPECT(bad == 0);
    CK(cudaFree(x));
    CK(cudaFree(y));
    free(hx);
    free(hy);
    free(out);
    return finish();
}
