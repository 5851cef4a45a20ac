// async_sm90.cu -- Hopper's asynchronous and cluster instructions through inline PTX:
// mbarrier init/arrive/expect_tx/try_wait.parity/test_wait/pending_count, the bulk copies
// cp.async.bulk global -> shared (completing bytes on an mbarrier) and shared -> global (bulk
// groups), fence.proxy.async, elect.sync, griddepcontrol, the cluster special registers of a
// launch without clusters and barrier.cluster.
// nvcc-arch: 90
#include <cstdint>
#include "check.h"

#define N 512   // floats copied per block

__device__ static inline uint32_t smem(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }

// Bulk-copies N floats into shared memory twice (phases 0 and 1 of one mbarrier), doubles
// them, and bulk-copies them back out.
__global__ void bulk_roundtrip(const float *in, float *out, unsigned *info)
{
    __shared__ alignas(128) float tile[N];
    __shared__ alignas(8) uint64_t bar;
    const float *src = in + blockIdx.x * N;
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem(&bar)), "r"(blockDim.x));
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    float acc = 0;
    for (unsigned phase = 0; phase < 2; phase++) {
        unsigned elected = 0;
        asm volatile("{\n .reg .pred p;\n elect.sync _|p, 0xffffffff;\n selp.u32 %0, 1, 0, p;\n}"
                     : "=r"(elected));
        if (threadIdx.x < 32 && elected) {
            asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(smem(&bar)),
                         "r"((unsigned)sizeof tile)
                         : "memory");
            asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                             smem(tile)),
                         "l"(src), "r"((unsigned)sizeof tile), "r"(smem(&bar))
                         : "memory");
        }
        uint64_t state;
        asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(state) : "r"(smem(&bar)) : "memory");
        unsigned done = 0;
        while (!done)
            asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}"
                         : "=r"(done)
                         : "r"(smem(&bar)), "r"(phase)
                         : "memory");
        unsigned tested;
        asm volatile("{\n .reg .pred p;\n mbarrier.test_wait.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}"
                     : "=r"(tested)
                     : "r"(smem(&bar)), "l"(state));
        if (!tested)
            info[0] = 1000 + phase;   // the phase just waited for must test as complete
        acc += tile[(threadIdx.x * 3) % N] * (phase + 1);
        __syncthreads();
    }
    for (int i = threadIdx.x; i < N; i += blockDim.x)
        tile[i] = 2 * tile[i] + acc * 0;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (threadIdx.x == 0) {
        asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(out + blockIdx.x * N),
                     "r"(smem(tile)), "r"((unsigned)sizeof tile)
                     : "memory");
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
        asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.inval.shared::cta.b64 [%0];" ::"r"(smem(&bar)) : "memory");
    }
    info[1 + blockIdx.x * blockDim.x + threadIdx.x] = (unsigned)(int)acc;
}

// One thread counts arrivals on a fresh mbarrier: the pending count of the states that
// arrive returns, and what test_wait says of them as the phase completes.
__global__ void mbarrier_counts(unsigned *res)
{
    __shared__ alignas(8) uint64_t bar;
    if (threadIdx.x != 0)
        return;
    uint32_t b = smem(&bar);
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(b), "r"(5));
    uint64_t s0, s1, s2;
    unsigned pc0, pc1, pc2, t0, t1;
    asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(s0) : "r"(b) : "memory");
    asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1], %2;" : "=l"(s1) : "r"(b), "r"(2) : "memory");
    asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(pc0) : "l"(s0));
    asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(pc1) : "l"(s1));
    asm volatile("{\n .reg .pred p;\n mbarrier.test_wait.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}"
                 : "=r"(t0)
                 : "r"(b), "l"(s1));
    asm volatile("mbarrier.arrive_drop.shared::cta.b64 %0, [%1], %2;" : "=l"(s2) : "r"(b), "r"(2) : "memory");
    asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(pc2) : "l"(s2));
    asm volatile("{\n .reg .pred p;\n mbarrier.test_wait.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}"
                 : "=r"(t1)
                 : "r"(b), "l"(s1));
    // A fresh barrier of two arrivals: try_wait.parity of phase 0 once it has completed, and
    // of phase 1 (the current one). (A lone thread's try_wait on phase 0 before the arrivals
    // read true on the H100 once: a wait that cannot complete is left out.)
    unsigned t2 = 0, t3, t4;
    __shared__ alignas(8) uint64_t bar2;
    uint32_t b2 = smem(&bar2);
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(b2), "r"(2));
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0], %1;" ::"r"(b2), "r"(2) : "memory");
    asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}"
                 : "=r"(t3)
                 : "r"(b2), "r"(0));
    asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}"
                 : "=r"(t4)
                 : "r"(b2), "r"(1));
    unsigned pc3 = t4;
    res[0] = pc0; res[1] = pc1; res[2] = t0; res[3] = pc2; res[4] = t1; res[5] = pc3; res[6] = t2; res[7] = t3;
}

// The cluster registers of a launch without clusters, barrier.cluster, elect.sync's lane and
// griddepcontrol (no dependent launch: both are no-ops).
__global__ void cluster_regs(unsigned *res)
{
    asm volatile("griddepcontrol.wait;" ::: "memory");
    unsigned v[10];
    asm("mov.u32 %0, %%clusterid.x;" : "=r"(v[0]));
    asm("mov.u32 %0, %%nclusterid.x;" : "=r"(v[1]));
    asm("mov.u32 %0, %%cluster_ctaid.x;" : "=r"(v[2]));
    asm("mov.u32 %0, %%cluster_nctaid.x;" : "=r"(v[3]));
    asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(v[4]));
    asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(v[5]));
    asm("{\n .reg .pred p;\n mov.pred p, %%is_explicit_cluster;\n selp.u32 %0, 1, 0, p;\n}" : "=r"(v[6]));
    asm("mov.u32 %0, %%clusterid.y;" : "=r"(v[7]));
    asm("mov.u32 %0, %%nclusterid.y;" : "=r"(v[8]));
    unsigned lane = 99;
    if (threadIdx.x % 32 >= 4)   // the members of the mask, and only they, elect
        asm volatile("{\n .reg .pred p;\n .reg .u32 l;\n elect.sync l|p, 0xfffffff0;\n mov.u32 %0, l;\n}" : "=r"(lane));
    v[9] = lane;
    asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
    asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
    asm volatile("barrier.cluster.arrive;" ::: "memory");
    asm volatile("barrier.cluster.wait;" ::: "memory");
    if (threadIdx.x == 5 && blockIdx.y == 1)
        for (int i = 0; i < 10; i++)
            res[blockIdx.x * 10 + i] = v[i];
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
}

int main()
{
    const int blocks = 2, threads = 128;
    static float h[blocks * N], o[blocks * N];
    for (int i = 0; i < blocks * N; i++)
        h[i] = (float)((i * 13 + 7) % 211) - 100.0f;
    float *d_in, *d_out;
    unsigned *d_info;
    static unsigned info[1 + blocks * threads];
    CK(cudaMalloc(&d_in, sizeof h));
    CK(cudaMalloc(&d_out, sizeof o));
    CK(cudaMalloc(&d_info, sizeof info));
    CK(cudaMemset(d_info, 0, sizeof info));
    CK(cudaMemcpy(d_in, h, sizeof h, cudaMemcpyHostToDevice));
    bulk_roundtrip<<<blocks, threads>>>(d_in, d_out, d_info);
    CK(cudaGetLastError());
    CK(cudaMemcpy(o, d_out, sizeof o, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(info, d_info, sizeof info, cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (int i = 0; i < blocks * N; i++)
        wrong += o[i] != 2 * h[i];
    long accs = 0;
    for (int b = 0; b < blocks; b++)
        for (int t = 0; t < threads; t++) {
            float want = h[b * N + (t * 3) % N] * 3;
            wrong += (int)info[1 + b * threads + t] != (int)want;
            accs += (int)info[1 + b * threads + t];
        }
    printf("bulk round trip: test_wait flag %u, accumulators %ld, %d wrong\n", info[0], accs, wrong);
    EXPECT(wrong == 0 && info[0] == 0);

    unsigned res[20] = { 0 };
    unsigned *d_res;
    CK(cudaMalloc(&d_res, sizeof res));
    CK(cudaMemset(d_res, 0xff, sizeof res));
    mbarrier_counts<<<1, 32>>>(d_res);
    CK(cudaGetLastError());
    CK(cudaMemcpy(res, d_res, sizeof res, cudaMemcpyDeviceToHost));
    printf("mbarrier: pending %u %u, test_wait %u, pending after drop %u, test_wait %u; fresh barrier: "
           "try_wait.parity phase 1 %u, phase 0 %u\n",
           res[0], res[1], res[2], res[3], res[4], res[5], res[7]);

    CK(cudaMemset(d_res, 0xff, sizeof res));
    cluster_regs<<<dim3(2, 2), 64>>>(d_res);
    CK(cudaGetLastError());
    CK(cudaMemcpy(res, d_res, sizeof res, cudaMemcpyDeviceToHost));
    for (int b = 0; b < 2; b++)
        printf("block (%d,1): clusterid.x %u nclusterid.x %u cluster_ctaid.x %u cluster_nctaid.x %u ctarank %u "
               "nctarank %u explicit %u clusterid.y %u nclusterid.y %u elected lane %u\n",
               b, res[b * 10], res[b * 10 + 1], res[b * 10 + 2], res[b * 10 + 3], res[b * 10 + 4], res[b * 10 + 5],
               res[b * 10 + 6], res[b * 10 + 7], res[b * 10 + 8], res[b * 10 + 9]);
    EXPECT(res[1] == 2 && res[3] == 1 && res[5] == 1 && res[9] == 4);
    return finish();
}
