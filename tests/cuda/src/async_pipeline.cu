// async_pipeline.cu -- cp.async through CUDA's pipeline primitives (cuda_pipeline.h):
// __pipeline_memcpy_async of 4, 8 and 16 bytes with zero fill, commit groups, and waits for
// all but the newest group (a double-buffered tile sum), checked against the host.
#include <cuda_pipeline.h>
#include "check.h"

#define TILE 128   // ints per tile: one per thread
#define TILES 8    // tiles per block

// Each block sums TILES tiles of its slice, loading tile t+1 while it adds tile t.
__global__ void tile_sums(const int *in, int *out)
{
    __shared__ int buf[2][TILE];
    const int *base = in + blockIdx.x * TILES * TILE;
    int acc = 0;
    __pipeline_memcpy_async(&buf[0][threadIdx.x], base + threadIdx.x, sizeof(int));
    __pipeline_commit();
    for (int t = 0; t < TILES; t++) {
        if (t + 1 < TILES)
            __pipeline_memcpy_async(&buf[(t + 1) & 1][threadIdx.x], base + (t + 1) * TILE + threadIdx.x,
                                    sizeof(int));
        __pipeline_commit();
        __pipeline_wait_prior(1);   // tile t has landed; tile t+1 may still be in flight
        __syncthreads();
        acc += buf[t & 1][(threadIdx.x * 5) % TILE] * (t + 1);
        __syncthreads();
    }
    out[blockIdx.x * TILE + threadIdx.x] = acc;
}

// 8- and 16-byte copies, the 16-byte ones zero-filling their last 4 or 12 bytes.
__global__ void wide_copies(const int4 *in, int4 *out16, int2 *out8)
{
    __shared__ int4 s16[64];
    __shared__ int2 s8[64];
    int i = threadIdx.x;
    const char *src = (const char *)(in + i);
    __pipeline_memcpy_async(&s16[i], src, 16, (i % 3 == 0) ? 4 : (i % 3 == 1) ? 12 : 0);
    __pipeline_memcpy_async(&s8[i], src + 8, 8);
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    out16[i] = s16[63 - i];
    out8[i] = s8[(i + 1) % 64];
}

int main()
{
    const int blocks = 4, n = blocks * TILES * TILE;
    static int h[n], sums[blocks * TILE];
    for (int i = 0; i < n; i++)
        h[i] = (i * 37 + 11) % 1000 - 300;
    int *d_in, *d_out;
    CK(cudaMalloc(&d_in, sizeof h));
    CK(cudaMalloc(&d_out, sizeof sums));
    CK(cudaMemcpy(d_in, h, sizeof h, cudaMemcpyHostToDevice));
    tile_sums<<<blocks, TILE>>>(d_in, d_out);
    CK(cudaGetLastError());
    CK(cudaMemcpy(sums, d_out, sizeof sums, cudaMemcpyDeviceToHost));
    long total = 0;
    int wrong = 0;
    for (int b = 0; b < blocks; b++)
        for (int x = 0; x < TILE; x++) {
            int want = 0;
            for (int t = 0; t < TILES; t++)
                want += h[(b * TILES + t) * TILE + (x * 5) % TILE] * (t + 1);
            wrong += sums[b * TILE + x] != want;
            total += sums[b * TILE + x];
        }
    printf("tile sums: total %ld, %d wrong\n", total, wrong);
    EXPECT(wrong == 0);

    int4 hv[64], o16[64];
    int2 o8[64];
    for (int i = 0; i < 64; i++)
        hv[i] = make_int4(i * 4 + 1, i * 4 + 2, i * 4 + 3, i * 4 + 4);
    int4 *d_v, *d_16;
    int2 *d_8;
    CK(cudaMalloc(&d_v, sizeof hv));
    CK(cudaMalloc(&d_16, sizeof o16));
    CK(cudaMalloc(&d_8, sizeof o8));
    CK(cudaMemcpy(d_v, hv, sizeof hv, cudaMemcpyHostToDevice));
    wide_copies<<<1, 64>>>(d_v, d_16, d_8);
    CK(cudaGetLastError());
    CK(cudaMemcpy(o16, d_16, sizeof o16, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(o8, d_8, sizeof o8, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 64; i += 9)
        printf("out16[%2d] = %d %d %d %d, out8[%2d] = %d %d\n", i, o16[i].x, o16[i].y, o16[i].z, o16[i].w, i,
               o8[i].x, o8[i].y);
    wrong = 0;
    for (int i = 0; i < 64; i++) {
        int s = 63 - i, z = (s % 3 == 0) ? 4 : (s % 3 == 1) ? 12 : 0;
        int4 w = hv[s];
        if (z >= 4) w.w = 0;
        if (z >= 12) w.y = w.z = 0;
        wrong += o16[i].x != w.x || o16[i].y != w.y || o16[i].z != w.z || o16[i].w != w.w;
        int t = (i + 1) % 64;
        wrong += o8[i].x != hv[t].z || o8[i].y != hv[t].w;
    }
    printf("wide copies: %d wrong\n", wrong);
    EXPECT(wrong == 0);
    return finish();
}
