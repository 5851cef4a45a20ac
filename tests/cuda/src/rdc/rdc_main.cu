// rdc_main.cu -- separate compilation (-rdc) over three translation units: kernels here call
// device functions and use __device__/__constant__ variables defined in the others.
#include "../check.h"
#include "rdc_shared.h"

__global__ void combine(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = rdc_square(i) + rdc_bias + rdc_table[i % 4] + twice(i);
    if (i == 0)
        printf("combine sees bias %d\n", rdc_bias);
}

int main()
{
    const int n = 512;
    int *d, h[n];
    CK(cudaMalloc(&d, sizeof h));
    int bias = 100;
    CK(cudaMemcpyToSymbol(rdc_bias, &bias, sizeof bias));
    combine<<<2, 256>>>(d, n);
    CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    static const int table[4] = {10, 20, 30, 40};
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += h[i] != i * i + 100 + table[i % 4] + 2 * i;
    printf("combine mismatches %d\n", bad);
    EXPECT(bad == 0);
    EXPECT(run_counter(n) == n);
    return finish();
}
