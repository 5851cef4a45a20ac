// vector_add.cu -- the basic path: cudaMalloc, cudaMemcpy both ways, a <<<>>> launch, cudaFree.
#include "check.h"

__global__ void vadd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

int main()
{
    const int n = 100000;
    float *ha = (float *)malloc(n * sizeof(float)), *hb = (float *)malloc(n * sizeof(float));
    float *hc = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++) {
        ha[i] = (float)i * 0.5f;
        hb[i] = (float)(n - i);
    }
    float *da, *db, *dc;
    CK(cudaMalloc(&da, n * sizeof(float)));
    CK(cudaMalloc(&db, n * sizeof(float)));
    CK(cudaMalloc(&dc, n * sizeof(float)));
    CK(cudaMemcpy(da, ha, n * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(db, hb, n * sizeof(float), cudaMemcpyHostToDevice));
    vadd<<<(n + 255) / 256, 256>>>(da, db, dc, n);
    CK(cudaGetLastError());
    CK(cudaMemcpy(hc, dc, n * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += hc[i] != ha[i] + hb[i];
    printf("elements %d, wrong %d\n", n, bad);
    EXPECT(bad == 0);
    CK(cudaFree(da));
    CK(cudaFree(db));
    CK(cudaFree(dc));
    free(ha);
    free(hb);
    free(hc);
    return finish();
}
