// sched.cu -- kernels that need CTAs to make progress while others wait:
// what a GPU guarantees for co-resident CTAs and Loom must keep with any
// number of workers. Regenerate sched.ptx with gen_ptx.sh.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// CTA i < n/2 waits for a flag that CTA i + n/2 (a later CTA) sets.
extern "C" __global__ void producer_consumer(volatile int *flags, int *out, int n)
{
    int b = blockIdx.x, half = n / 2;
    if (threadIdx.x == 0) {
        if (b < half) {
            while (flags[b] == 0) { }
            out[b] = flags[b] * 2;
        } else {
            out[b] = b;
            __threadfence();
            flags[b - half] = b + 1;
        }
    }
}

// A persistent kernel: a few CTAs take work items from a queue until it is empty.
extern "C" __global__ void work_queue(unsigned *head, const int *items, int *results, int n)
{
    __shared__ unsigned item;
    for (;;) {
        if (threadIdx.x == 0) item = atomicAdd(head, 1u);
        __syncthreads();
        unsigned i = item;
        __syncthreads();
        if (i >= (unsigned)n) break;
        int v = items[i], s = 0;
        for (int k = threadIdx.x; k < v; k += blockDim.x) s += k;
        atomicAdd(&results[i], s);
    }
}

// A hand-written grid barrier (sense reversal) between three phases.
__device__ void grid_barrier(volatile unsigned *count, volatile unsigned *sense, unsigned nblocks, unsigned *local_sense)
{
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned s = !*local_sense;
        *local_sense = s;
        __threadfence();
        if (atomicAdd((unsigned *)count, 1u) == nblocks - 1) {
            *count = 0;
            __threadfence();
            *sense = s;
        } else {
            while (*sense != s) { }
        }
    }
    __syncthreads();
}

extern "C" __global__ void soft_grid_barrier(unsigned *bar, int *data, int n)
{
    __shared__ unsigned local_sense;
    if (threadIdx.x == 0) local_sense = 0;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] = i;
    grid_barrier(&bar[0], &bar[1], gridDim.x, &local_sense);
    int v = i < n ? data[(i + 1) % n] + data[(i + 2) % n] : 0;
    grid_barrier(&bar[0], &bar[1], gridDim.x, &local_sense);
    if (i < n) data[i] = v;
}

// The same with cooperative groups (needs a cooperative launch).
extern "C" __global__ void coop_grid_sync(int *data, int n)
{
    cg::grid_group g = cg::this_grid();
    int i = (int)g.thread_rank();
    if (i < n) data[i] = i;
    g.sync();
    int v = i < n ? data[(i + 1) % n] + data[(i + 2) % n] : 0;
    g.sync();
    if (i < n) data[i] = v;
}

// printf from many CTAs: the order is fixed in deterministic mode.
extern "C" __global__ void print_order(int n)
{
    if (threadIdx.x % 32 == 0 && blockIdx.x < n) printf("block %d warp %d\n", blockIdx.x, threadIdx.x / 32);
}
