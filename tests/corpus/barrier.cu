// Corpus, barriers: __syncthreads in loops (tree reduction on a 2D block), bar.red through
// __syncthreads_count/_and/_or on partial warps, named barriers with thread counts (bar.sync /
// barrier.sync with a count, bar.arrive for producer/consumer).

// Per-thread results of the block-wide votes; blockDim.x need not be a multiple of 32 (e.g. 80):
// threads past n take part with a false predicate. out: 4 * n u32.
extern "C" __global__ void bar_vote(const int *in, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    int c = __syncthreads_count(v > 0);
    int a = __syncthreads_and(v != 0x7FFFFFFF);
    int o = __syncthreads_or(v == 2);
    int c2 = __syncthreads_count(i < n && (threadIdx.x & 3) == 1);
    if (i >= n)
        return;
    out[i] = (unsigned)c;
    out[n + i] = (unsigned)a;
    out[2 * n + i] = (unsigned)o;
    out[3 * n + i] = (unsigned)c2;
}

// Tree reduction in shared memory on a 2D block (blockDim 16x8): one sum per block, and a
// second phase that broadcasts the block's maximum back to every thread.
// sums: gridDim.x s32; out: n s32 (each thread's value minus its block's max).
extern "C" __global__ void bar_tree(const int *in, int *sums, int *out, int n)
{
    __shared__ int s[128];
    __shared__ int m[128];
    int t = threadIdx.x + threadIdx.y * blockDim.x;
    int nt = blockDim.x * blockDim.y;
    int i = blockIdx.x * nt + t;
    int v = i < n ? in[i] : 0;
    s[t] = v;
    m[t] = i < n ? v : (int)0x80000000;
    __syncthreads();
    for (int stride = nt / 2; stride > 0; stride >>= 1) {
        if (t < stride) {
            s[t] += s[t + stride];
            m[t] = max(m[t], m[t + stride]);
        }
        __syncthreads();
    }
    if (t == 0)
        sums[blockIdx.x] = s[0];
    if (i < n)
        out[i] = (int)((unsigned)v - (unsigned)m[0]);
}

// Named barriers on 4 warps (blockDim.x = 128):
//   warp 0 produces into shared memory and arrives at barrier 1 (bar.arrive 1, 64);
//   warp 1 waits there (bar.sync 1, 64) and consumes;
//   warps 2 and 3 exchange through barrier 2 (barrier.sync 2, 64);
//   then everyone meets at barrier 0 and warp 0 reads what warp 1 produced.
// out: 2 * n s32.
extern "C" __global__ void bar_named(const int *in, int *out, int n)
{
    __shared__ int produced[32];
    __shared__ int consumed[32];
    __shared__ int pair[64];
    int t = threadIdx.x, lane = t & 31, w = t >> 5;
    int i = blockIdx.x * blockDim.x + t;
    int v = in[i];
    int r0 = 0, r1 = 0;
    if (w == 0) {
        produced[lane] = v * 2 + 1;
        asm volatile("bar.arrive 1, 64;" ::: "memory");
    } else if (w == 1) {
        asm volatile("bar.sync 1, 64;" ::: "memory");
        r0 = produced[31 - lane] + v;
        consumed[lane] = r0;
    } else {
        pair[t - 64] = v ^ 0x1234;
        asm volatile("barrier.sync 2, 64;" ::: "memory");
        r0 = pair[(t - 64 + 32) & 63];
    }
    __syncthreads();
    if (w == 0)
        r1 = consumed[lane ^ 1];
    else
        r1 = r0 - v;
    out[i] = r0;
    out[n + i] = r1;
}
