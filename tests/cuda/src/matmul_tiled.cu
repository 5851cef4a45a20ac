// matmul_tiled.cu -- a shared-memory tiled matrix product (16x16 tiles, 2D grid) of integer-
// valued floats, so that every sum is exact and the check is bit for bit.
#include "check.h"
#define TILE 16

__global__ void matmul(const float *a, const float *b, float *c, int n)
{
    __shared__ float ta[TILE][TILE], tb[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.0f;
    for (int t = 0; t < (n + TILE - 1) / TILE; t++) {
        int ac = t * TILE + threadIdx.x, br = t * TILE + threadIdx.y;
        ta[threadIdx.y][threadIdx.x] = row < n && ac < n ? a[row * n + ac] : 0.0f;
        tb[threadIdx.y][threadIdx.x] = br < n && col < n ? b[br * n + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; k++)
            acc += ta[threadIdx.y][k] * tb[k][threadIdx.x];
        __syncthreads();
    }
    if (row < n && col < n)
        c[row * n + col] = acc;
}

int main()
{
    const int n = 150;
    size_t bytes = n * n * sizeof(float);
    float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes), *c = (float *)malloc(bytes);
    for (int i = 0; i < n * n; i++) {
        a[i] = (float)(i % 7 - 3);
        b[i] = (float)(i % 5 - 2);
    }
    float *da, *db, *dc;
    CK(cudaMalloc(&da, bytes));
    CK(cudaMalloc(&db, bytes));
    CK(cudaMalloc(&dc, bytes));
    CK(cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice));
    dim3 block(TILE, TILE), grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
    matmul<<<grid, block>>>(da, db, dc, n);
    CK(cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            float s = 0.0f;
            for (int k = 0; k < n; k++)
                s += a[i * n + k] * b[k * n + j];
            bad += c[i * n + j] != s;
        }
    printf("%dx%d product, c[0]=%.0f c[last]=%.0f, mismatches %d\n", n, n, c[0], c[n * n - 1], bad);
    EXPECT(bad == 0);
    free(a);
    free(b);
    free(c);
    return finish();
}
