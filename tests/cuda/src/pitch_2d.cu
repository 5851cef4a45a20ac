// pitch_2d.cu -- pitched allocations: cudaMallocPitch, cudaMemcpy2D both ways and device to
// device, cudaMemset2D, and a kernel walking rows by the pitch.
#include "check.h"

__global__ void add_row_col(float *m, size_t pitch, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        float *row = (float *)((char *)m + y * pitch);
        row[x] += (float)(y * 1000 + x);
    }
}

int main()
{
    const int w = 300, h = 200;
    float *host = (float *)malloc(w * h * sizeof(float));
    for (int i = 0; i < w * h; i++)
        host[i] = 1.0f;
    float *m, *m2;
    size_t pitch = 0, pitch2 = 0;
    CK(cudaMallocPitch((void **)&m, &pitch, w * sizeof(float), h));
    CK(cudaMallocPitch((void **)&m2, &pitch2, w * sizeof(float), h));
    printf("pitch covers a row: %s, aligned: %s\n", pitch >= w * sizeof(float) ? "yes" : "no",
           pitch % 128 == 0 ? "yes" : "no");
    printf("info: pitch %zu\n", pitch);
    EXPECT(pitch >= w * sizeof(float) && pitch % 128 == 0);
    CK(cudaMemset2D(m, pitch, 0xff, pitch, h));
    CK(cudaMemcpy2D(m, pitch, host, w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice));
    dim3 block(32, 8), grid((w + 31) / 32, (h + 7) / 8);
    add_row_col<<<grid, block>>>(m, pitch, w, h);
    CK(cudaMemset2D(m2, pitch2, 0, w * sizeof(float), h));
    CK(cudaMemcpy2D(m2, pitch2, m, pitch, 100 * sizeof(float), h, cudaMemcpyDeviceToDevice));
    CK(cudaMemcpy2D(host, w * sizeof(float), m2, pitch2, w * sizeof(float), h, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            float expect = x < 100 ? 1.0f + (float)(y * 1000 + x) : 0.0f;
            bad += host[y * w + x] != expect;
        }
    printf("2D mismatches %d\n", bad);
    EXPECT(bad == 0);
    cudaError_t e = cudaMemcpy2D(m, 16, host, w * sizeof(float), 32, 2, cudaMemcpyHostToDevice);
    printf("width larger than the pitch: %s\n", cudaGetErrorName(e));
    EXPECT(e == cudaErrorInvalidPitchValue || e == cudaErrorInvalidValue);
    cudaGetLastError();
    CK(cudaFree(m));
    CK(cudaFree(m2));
    free(host);
    return finish();
}
