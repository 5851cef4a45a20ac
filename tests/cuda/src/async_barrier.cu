// async_barrier.cu -- asynchronous copies that complete on a barrier: cuda::memcpy_async with
// cuda::barrier (mbarrier arrive/wait; with 16-byte alignment on sm_90 a bulk copy counted in
// bytes), cooperative_groups::memcpy_async with cg::wait, and a two-stage cuda::pipeline.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/barrier>
#include <cuda/pipeline>
#include "check.h"

#pragma nv_diag_suppress static_var_with_dynamic_init

namespace cg = cooperative_groups;
using block_barrier = cuda::barrier<cuda::thread_scope_block>;

#define N 256   // floats per block

// The block copies its slice into shared memory through a barrier twice (the barrier's
// phases flip), then writes a reversed, scaled copy.
__global__ void barrier_copy(const float *in, float *out)
{
    __shared__ alignas(16) float tile[N];
    __shared__ block_barrier bar;
    if (threadIdx.x == 0)
        init(&bar, blockDim.x);
    __syncthreads();
    const float *src = in + blockIdx.x * N;
    float acc = 0;
    for (int round = 0; round < 2; round++) {
        if (threadIdx.x == 0)
            cuda::memcpy_async(tile, src, cuda::aligned_size_t<16>(sizeof tile), bar);
        bar.arrive_and_wait();
        acc += tile[N - 1 - threadIdx.x] * (round + 1);
        bar.arrive_and_wait();   // nobody overwrites the tile while it is read
    }
    out[blockIdx.x * N + threadIdx.x] = acc;
}

// Every thread copies one element through the barrier (cp.async completing with an arrival
// on the barrier, cp.async.mbarrier.arrive), three phases in a row.
__global__ void barrier_elems(const float *in, float *out)
{
    __shared__ float tile[N];
    __shared__ block_barrier bar;
    if (threadIdx.x == 0)
        init(&bar, blockDim.x);
    __syncthreads();
    float acc = 0;
    for (int round = 0; round < 3; round++) {
        const float *src = in + (blockIdx.x + round) * N;
        cuda::memcpy_async(&tile[threadIdx.x], src + (threadIdx.x * 7) % N, sizeof(float), bar);
        bar.arrive_and_wait();
        acc = acc * 2 + tile[(threadIdx.x + 3) % N];
        bar.arrive_and_wait();
    }
    out[blockIdx.x * N + threadIdx.x] = acc;
}

// The same through cooperative groups: the whole block copies, then waits.
__global__ void cg_copy(const float *in, float *out)
{
    __shared__ float tile[N];
    cg::thread_block block = cg::this_thread_block();
    cg::memcpy_async(block, tile, in + blockIdx.x * N, sizeof tile);
    cg::wait(block);
    out[blockIdx.x * N + threadIdx.x] = tile[(threadIdx.x + 1) % N] - tile[threadIdx.x];
}

// A two-stage pipeline over 4 chunks of N floats per block, each thread copying its element.
__global__ void pipeline_sum(const float *in, float *out)
{
    __shared__ float stage[2][N];
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    const float *src = in + blockIdx.x * 4 * N;
    float acc = 0;
    pipe.producer_acquire();
    cuda::memcpy_async(&stage[0][threadIdx.x], src + threadIdx.x, sizeof(float), pipe);
    pipe.producer_commit();
    for (int c = 0; c < 4; c++) {
        if (c + 1 < 4) {
            pipe.producer_acquire();
            cuda::memcpy_async(&stage[(c + 1) & 1][threadIdx.x], src + (c + 1) * N + threadIdx.x, sizeof(float),
                               pipe);
            pipe.producer_commit();
        }
        pipe.consumer_wait();
        acc = acc * 0.5f + stage[c & 1][threadIdx.x];
        pipe.consumer_release();
    }
    out[blockIdx.x * N + threadIdx.x] = acc;
}

int main()
{
    const int blocks = 3;
    static float h[blocks * 4 * N], o[blocks * N];
    for (int i = 0; i < blocks * 4 * N; i++)
        h[i] = (float)((i * 29 + 3) % 97) * 0.25f;
    float *d_in, *d_out;
    CK(cudaMalloc(&d_in, sizeof h));
    CK(cudaMalloc(&d_out, sizeof o));
    CK(cudaMemcpy(d_in, h, sizeof h, cudaMemcpyHostToDevice));

    barrier_copy<<<blocks, N>>>(d_in, d_out);
    CK(cudaGetLastError());
    CK(cudaMemcpy(o, d_out, sizeof o, cudaMemcpyDeviceToHost));
    int wrong = 0;
    double total = 0;
    for (int b = 0; b < blocks; b++)
        for (int x = 0; x < N; x++) {
            float want = h[b * N + N - 1 - x] * 3;
            wrong += o[b * N + x] != want;
            total += o[b * N + x];
        }
    printf("barrier copy: total %.2f, %d wrong\n", total, wrong);
    EXPECT(wrong == 0);

    barrier_elems<<<blocks, N>>>(d_in, d_out);
    CK(cudaGetLastError());
    CK(cudaMemcpy(o, d_out, sizeof o, cudaMemcpyDeviceToHost));
    wrong = 0;
    total = 0;
    for (int b = 0; b < blocks; b++)
        for (int x = 0; x < N; x++) {
            float want = 0;
            for (int r = 0; r < 3; r++)
                want = want * 2 + h[(b + r) * N + (((x + 3) % N) * 7) % N];
            wrong += o[b * N + x] != want;
            total += o[b * N + x];
        }
    printf("barrier element copies: total %.2f, %d wrong\n", total, wrong);
    EXPECT(wrong == 0);

    cg_copy<<<blocks, N>>>(d_in, d_out);
    CK(cudaGetLastError());
    CK(cudaMemcpy(o, d_out, sizeof o, cudaMemcpyDeviceToHost));
    wrong = 0;
    total = 0;
    for (int b = 0; b < blocks; b++)
        for (int x = 0; x < N; x++) {
            float want = h[b * N + (x + 1) % N] - h[b * N + x];
            wrong += o[b * N + x] != want;
            total += o[b * N + x] * (x % 7);
        }
    printf("cooperative groups copy: weighted total %.2f, %d wrong\n", total, wrong);
    EXPECT(wrong == 0);

    pipeline_sum<<<blocks, N>>>(d_in, d_out);
    CK(cudaGetLastError());
    CK(cudaMemcpy(o, d_out, sizeof o, cudaMemcpyDeviceToHost));
    wrong = 0;
    total = 0;
    for (int b = 0; b < blocks; b++)
        for (int x = 0; x < N; x++) {
            float want = 0;
            for (int c = 0; c < 4; c++)
                want = want * 0.5f + h[b * 4 * N + c * N + x];
            wrong += o[b * N + x] != want;
            total += o[b * N + x];
        }
    printf("pipeline: total %.4f, %d wrong\n", total, wrong);
    EXPECT(wrong == 0);
    return finish();
}
