#include <mma.h>
#include <cuda_pipeline.h>
#include <cuda/barrier>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
using namespace nvcuda;
namespace cg = cooperative_groups;
__global__ void wm(const half *a, const half *b, float *c) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::fill_fragment(fc, 0.0f);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}
__global__ void asynccp(const int4 *g, int4 *o) {
    __shared__ int4 s[128];
    __pipeline_memcpy_async(&s[threadIdx.x], &g[threadIdx.x], sizeof(int4));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    o[threadIdx.x] = s[127 - threadIdx.x];
}
__global__ void bar(int *o) {
    __shared__ cuda::barrier<cuda::thread_scope_block> b;
    if (threadIdx.x == 0) init(&b, blockDim.x);
    __syncthreads();
    auto tok = b.arrive();
    b.wait(std::move(tok));
    cg::thread_block tb = cg::this_thread_block();
    auto w = cg::tiled_partition<32>(tb);
    o[threadIdx.x] = cg::reduce(w, (int)threadIdx.x, cg::plus<int>());
    o[0] = __reduce_add_sync(0xffffffff, threadIdx.x);
    o[1] = __match_any_sync(0xffffffff, threadIdx.x);
    unsigned m = __activemask();
    o[2] = m + __funnelshift_l(m, 3, 5) + __byte_perm(m, 7, 0x3210) + __vabsdiffu4(m, 3u) + __brev(m) + __dp4a(m, m, 1u);
    __nanosleep(100);
    o[3] = __float_as_int(__bfloat162float(__float2bfloat16(1.5f))) + (int)__fdividef(3.f,(float)m) + (int)__expf(m) + (int)rsqrtf(m);
    __threadfence(); __threadfence_block();
}

__global__ void texk(cudaTextureObject_t t, cudaSurfaceObject_t s, float *o) {
    float v = tex2D<float>(t, threadIdx.x, 0.5f);
    float4 w = tex1Dfetch<float4>(t, threadIdx.x);
    surf2Dwrite(v, s, threadIdx.x * 4, 0);
    float r; surf2Dread(&r, s, 0, 0);
    o[threadIdx.x] = v + w.x + r;
}
__global__ void fp8k(__nv_fp8_e4m3 *a, float *o) { o[threadIdx.x] = (float)a[threadIdx.x]; a[0] = __nv_fp8_e4m3(o[1]); }
