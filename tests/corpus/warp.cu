// Corpus, warp-level operations: shfl.sync (idx/up/down/bfly, sub-warp widths, 64-bit values,
// partial member masks), vote.sync (ballot/all/any), activemask, match.sync (any/all, 32 and 64
// bit), redux.sync (sm_80+), and bar.warp.sync with partial masks inside divergent code.
//
// Member masks always name exactly the lanes that execute the instruction, so every kernel is
// correct under independent thread scheduling and on partial warps.

#define OUT(v) (out[(k++) * n + i] = (v))

// Full warps only: blockDim.x a multiple of 32 and gridDim.x * blockDim.x == n (no bounds check
// since every lane must take part). K = 16 slots, s32.
extern "C" __global__ void warp_shfl(const int *in, const double *ind, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int v = in[i];
    double d = ind[i];
    const unsigned full = 0xFFFFFFFFu;
    int k = 0;
    OUT(__shfl_sync(full, v, 0));
    OUT(__shfl_sync(full, v, (lane * 7 + 3) & 31));
    OUT(__shfl_sync(full, v, lane + 40));              /* srcLane taken modulo width */
    OUT(__shfl_sync(full, v, 3, 8));                    /* width 8: lane 3 of each group */
    OUT(__shfl_up_sync(full, v, 1));
    OUT(__shfl_up_sync(full, v, 5, 16));
    OUT(__shfl_down_sync(full, v, 1));
    OUT(__shfl_down_sync(full, v, 3, 4));
    OUT(__shfl_xor_sync(full, v, 1));
    OUT(__shfl_xor_sync(full, v, 16));
    OUT(__shfl_xor_sync(full, v, 6, 8));
    OUT(__shfl_sync(full, v, v & 31, 16));              /* data-dependent source lane */
    long long l = __shfl_xor_sync(full, (long long)v << 20 | lane, 9);   /* 64-bit: two shfl */
    OUT((int)(l >> 20) + (int)(l & 0xFFFFF));
    double dd = __shfl_down_sync(full, d, 2);
    OUT((int)(__double_as_longlong(dd) >> 32));
    float f = __shfl_up_sync(full, __int_as_float(v), 31);
    OUT(__float_as_int(f));
    int s = v;                                          /* butterfly reduction */
    for (int off = 16; off > 0; off >>= 1)
        s += __shfl_xor_sync(full, s, off);
    OUT(s);
}

// Works on partial warps (e.g. blockDim.x = 48): masks come from __activemask() taken where the
// warp is converged. K = 11 slots, u32.
extern "C" __global__ void warp_vote(const int *in, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned m = __activemask();
    int v = i < n ? in[i] : 0;
    int lane = threadIdx.x & 31;
    unsigned b0 = __ballot_sync(m, v > 0);
    unsigned b1 = __ballot_sync(m, v & 1);
    int all0 = __all_sync(m, v != 12345);
    int all1 = __all_sync(m, v > -1000);
    int any0 = __any_sync(m, v == 7);
    int any1 = __any_sync(m, lane == 3);
    unsigned takers = __ballot_sync(m, v & 2), inside = 0, inside_active = 0;
    if (v & 2) {
        inside = __ballot_sync(takers, lane & 1);   /* only the lanes inside the branch */
        inside_active = __activemask();             /* the branch's lanes, run together */
    }
    unsigned cnt = __popc(__ballot_sync(m, lane < 20));
    if (i >= n)
        return;
    int k = 0;
    OUT(m);
    OUT(b0);
    OUT(b1);
    OUT((unsigned)all0);
    OUT((unsigned)all1);
    OUT((unsigned)any0);
    OUT((unsigned)any1);
    OUT(inside);
    OUT(inside_active);
    OUT(cnt);
    OUT(b0 & ~b1 & ((2u << lane) - 1));
}

// match.sync: lanes grouped by key. Full warps. K = 6 slots, u32.
extern "C" __global__ void warp_match(const unsigned *keys, const int *in, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned full = 0xFFFFFFFFu;
    unsigned key = keys[i] & 3;
    long long wide = (long long)(in[i] & 1) << 40 | (keys[i] & 1);
    int pred, pred2;
    int k = 0;
    OUT(__match_any_sync(full, key));
    OUT(__match_any_sync(full, wide));
    OUT(__match_all_sync(full, key, &pred));
    OUT((unsigned)pred);
    unsigned same = __match_all_sync(full, (threadIdx.x >> 5) * 1000 + 7, &pred2);
    OUT(same ^ (unsigned)pred2);
    unsigned long long half_key = (threadIdx.x & 16) ? 5ull : 9ull;
    OUT(__match_any_sync(full, half_key));
}

// redux.sync (sm_80+). compute_75 gets an equivalent loop of shuffles over the member lanes, so
// this kernel's PTX differs by target (run it from the sm_80 PTX to get redux). Partial warps
// allowed. K = 6 slots, u32.
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ < 800
__device__ __forceinline__ unsigned shfl_reduce(unsigned m, unsigned v, int op)
{
    unsigned acc = op == 1 ? 0x7FFFFFFFu : op == 3 ? 0xFFFFFFFFu : 0u;
    for (int src = 0; src < 32; src++) {
        if (!(m >> src & 1))                   /* uniform: every member takes the same path */
            continue;
        unsigned w = __shfl_sync(m, v, src);
        switch (op) {
        case 0: acc += w; break;
        case 1: acc = (unsigned)min((int)acc, (int)w); break;
        case 2: acc = max(acc, w); break;
        case 3: acc &= w; break;
        case 4: acc |= w; break;
        default: acc ^= w; break;
        }
    }
    return acc;
}
#endif

extern "C" __global__ void warp_redux(const int *in, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned m = __activemask();
    unsigned v = i < n ? (unsigned)in[i] : 0u;
    unsigned r[6];
#if __CUDA_ARCH__ >= 800
    r[0] = __reduce_add_sync(m, v);
    r[1] = (unsigned)__reduce_min_sync(m, (int)v);
    r[2] = __reduce_max_sync(m, v);
    r[3] = __reduce_and_sync(m, v);
    r[4] = __reduce_or_sync(m, v);
    r[5] = __reduce_xor_sync(m, v);
#else
    for (int op = 0; op < 6; op++)
        r[op] = shfl_reduce(m, v, op);
#endif
    if (i >= n)
        return;
    for (int k = 0; k < 6; k++)
        out[k * n + i] = r[k];
}

// __syncwarp with partial masks inside divergent branches, and shuffles among a half warp.
// Full warps. K = 4 slots, s32.
extern "C" __global__ void warp_syncwarp(const int *in, int *out, int n)
{
    __shared__ int buf[8][32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31, w = (threadIdx.x >> 5) & 7;
    int v = in[i];
    int k = 0, a, b;
    if (lane < 16) {
        buf[w][lane] = v * 3;
        __syncwarp(0x0000FFFFu);
        a = buf[w][15 - lane];
        b = __shfl_xor_sync(0x0000FFFFu, v, 5);
        __syncwarp(0x0000FFFFu);
        buf[w][lane] = a;
    } else {
        buf[w][lane] = v - 1;
        __syncwarp(0xFFFF0000u);
        a = buf[w][47 - lane];
        b = __shfl_down_sync(0xFFFF0000u, v, 2, 16);
        __syncwarp(0xFFFF0000u);
        buf[w][lane] = a;
    }
    __syncwarp();
    OUT(a);
    OUT(b);
    OUT(buf[w][lane ^ 17]);
    unsigned even = 0x55555555u;
    int c = 0;
    if (!(lane & 1)) {
        c = __shfl_sync(even, v, (lane + 2) & 31);
        __syncwarp(even);
    }
    OUT(c);
}

// Shuffles on a partial warp with the member mask of the lanes that exist (blockDim.x = 48:
// the second warp has 16 lanes). K = 4 slots, s32.
extern "C" __global__ void warp_shfl_partial(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int first = threadIdx.x & ~31;
    int lanes = min(32, (int)blockDim.x - first);
    unsigned m = lanes == 32 ? 0xFFFFFFFFu : (1u << lanes) - 1u;
    int v = i < n ? in[i] : 0;
    int up = __shfl_up_sync(m, v, 1, 16);
    int down = __shfl_down_sync(m, v, 1, 16);
    int x = __shfl_xor_sync(m, v, 8, 16);
    int s = v;
    for (int off = 8; off > 0; off >>= 1)
        s += __shfl_xor_sync(m, s, off, 16);
    if (i >= n)
        return;
    int k = 0;
    OUT(up);
    OUT(down);
    OUT(x);
    OUT(s);
}
