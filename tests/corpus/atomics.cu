// Corpus, atomics: every atomic operation on global and shared memory, 32 and 64 bit, float and
// double adds (with exactly representable sums), 16-bit CAS (sm_70+), half2/half adds, system
// and block scopes, red (result unused), and a CAS/exchange spin lock between blocks.
//
// Every result is independent of the order in which the atomics happen: integer sums, min/max,
// and/or/xor, inc/dec with one limit, exchanges that all store the same value, CAS loops that add.

#include <cuda_fp16.h>

// res: 16 s32 slots, inout from inputs/atom32_init.bin; tickets: n u32 (each becomes 1).
extern "C" __global__ void atom_int32(const int *in, int *res, unsigned *tickets, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = in[i];
    unsigned u = (unsigned)v;
    atomicAdd(&res[0], v);
    atomicSub(&res[1], v);
    atomicMin(&res[2], v);
    atomicMax(&res[3], v);
    atomicMin((unsigned *)&res[4], u);
    atomicMax((unsigned *)&res[5], u);
    atomicAnd(&res[6], ~(1 << (u & 31)));
    atomicOr(&res[7], 1 << ((u >> 5) & 31));
    atomicXor((unsigned *)&res[8], u * 2654435761u);
    atomicInc((unsigned *)&res[9], 37u);
    atomicDec((unsigned *)&res[10], 41u);
    int old = atomicExch(&res[11], 42);        /* exactly one thread sees the initial 0 */
    int cur = *(volatile int *)&res[12], seen;   /* volatile: no data race with the CAS */
    do {                                       /* CAS loop: add the low byte */
        seen = cur;
        cur = atomicCAS(&res[12], seen, seen + (v & 0xFF));
    } while (cur != seen);
    atomicAdd(&res[13], old);                  /* 42 * (n - 1) */
    unsigned t = atomicAdd_system((unsigned *)&res[14], 1u);
    tickets[t] = 1u;                           /* every ticket drawn exactly once */
    atomicAdd_block(&res[15], 0);              /* block scope; adds nothing, result unused */
    atomicAdd(&res[15], 2);                    /* result unused (nvcc still emits atom) */
    asm volatile("red.global.add.u32 [%0], %1;" :: "l"(&res[15]), "r"(1u) : "memory");
}

// res64: 10 u64 slots, inout from inputs/atom64_init.bin; resf: 4 f32; resd: 2 f64;
// res16: 8 u16 counters updated by 16-bit CAS loops; resh: 2 u32 (a half2 and a half pair).
extern "C" __global__ void atom_wide(const int *in, unsigned long long *res64, float *resf,
                                     double *resd, unsigned short *res16, unsigned *resh, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = in[i];
    long long sv = (long long)v * 0x100000001ll;
    unsigned long long uv = (unsigned long long)sv;
    atomicAdd(&res64[0], uv);
    atomicMin((long long *)&res64[1], sv);
    atomicMax((long long *)&res64[2], sv);
    atomicMin(&res64[3], uv);
    atomicMax(&res64[4], uv);
    atomicAnd(&res64[5], ~(1ull << (v & 63)));
    atomicOr(&res64[6], 1ull << ((v >> 6) & 63));
    atomicXor(&res64[7], uv * 0x9E3779B97F4A7C15ull);
    unsigned long long cur = *(volatile unsigned long long *)&res64[8], seen;
    do {
        seen = cur;
        cur = atomicCAS(&res64[8], seen, seen + (unsigned long long)(v & 0xFFFF));
    } while (cur != seen);
    atomicExch(&res64[9], 0xFEEDFACECAFEBEEFull);

    atomicAdd(&resf[0], (float)(v & 15) - 7.5f);   /* multiples of 0.5: exact sums */
    atomicAdd(&resf[1], 0.25f);
    atomicExch(&resf[2], -3.5f);
    atomicAdd(&resf[3], -(float)(i & 7));
    atomicAdd(&resd[0], (double)v * 0.25);
    atomicAdd(&resd[1], 0.125);

    unsigned short *c = &res16[i % 8];            /* 16-bit CAS: atom.cas.b16 */
    unsigned short hc = *(volatile unsigned short *)c, hs;
    do {
        hs = hc;
        hc = atomicCAS(c, hs, (unsigned short)(hs + 1));
    } while (hc != hs);

    atomicAdd((__half2 *)&resh[0], __floats2half2_rn(1.0f, 0.5f));
    atomicAdd((__half *)&resh[1], __float2half(0.25f));
}

// Shared-memory atomics; each block writes its 36 results to out[blockIdx.x * 36 + k]:
// 16 counters, a 16-bin histogram, a 64-bit sum (low, high), a float sum (bits), blockDim.
extern "C" __global__ void atom_shared(const int *in, int *out, int n)
{
    __shared__ int s[16];
    __shared__ unsigned long long s64;
    __shared__ float sf;
    __shared__ unsigned hist[16];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    if (t < 16) {
        const int init[16] = {0, 0, 0x7FFFFFFF, (int)0x80000000, -1, 0, -1, 0,
                              0x0F0F0F0F, 5, 7, 0, 123, 0, 0, 0};
        s[t] = init[t];
        hist[t] = 0;
    }
    if (t == 0) {
        s64 = 0;
        sf = 0.0f;
    }
    __syncthreads();
    if (i < n) {
        int v = in[i];
        unsigned u = (unsigned)v;
        atomicAdd(&s[0], v);
        atomicSub(&s[1], v);
        atomicMin(&s[2], v);
        atomicMax(&s[3], v);
        atomicMin((unsigned *)&s[4], u);
        atomicMax((unsigned *)&s[5], u);
        atomicAnd(&s[6], ~(1 << (u & 31)));
        atomicOr(&s[7], 1 << ((u >> 5) & 31));
        atomicXor(&s[8], v);
        atomicInc((unsigned *)&s[9], 13u);
        atomicDec((unsigned *)&s[10], 11u);
        int old = atomicExch(&s[11], 7);
        int cur = s[12], seen;
        do {
            seen = cur;
            cur = atomicCAS(&s[12], seen, seen ^ (v & 0x3F0));
        } while (cur != seen);
        atomicAdd_block(&s[13], old);
        atomicAdd(&s[14], 1);
        atomicAdd(&s64, (unsigned long long)u << 16);
        atomicAdd(&sf, (float)(v & 7));
        atomicAdd(&hist[u & 15], 1u);
        asm volatile("red.shared.add.u32 [%0], %1;" :: "r"((unsigned)__cvta_generic_to_shared(&s[14])),
                     "r"(2u) : "memory");
        atomicCAS(&s[15], 0, 99);              /* succeeds once, the others see 99 */
    }
    __syncthreads();
    int *o = out + blockIdx.x * 36;
    if (t < 16)
        o[t] = s[t];
    else if (t < 32)
        o[t] = (int)hist[t - 16];
    if (t == 0) {
        o[32] = (int)(unsigned)s64;
        o[33] = (int)(unsigned)(s64 >> 32);
        o[34] = __float_as_int(sf);
        o[35] = (int)blockDim.x;
    }
}

// A spin lock between blocks: thread 0 of each block takes the lock with atomicCAS, updates a
// record with plain volatile accesses, and releases it with atomicExch.
// res: 4 s32 (out): [0] lock (0 at the end), [1] sum of all inputs' low bytes,
// [2] blocks that entered, [3] releases that saw the lock held (== blocks).
extern "C" __global__ void atom_lock(const int *in, int *res, int n)
{
    __shared__ int part[32];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    int v = i < n ? (in[i] & 0xFF) : 0;
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(0xFFFFFFFFu, v, off);
    if ((t & 31) == 0)
        part[t >> 5] = v;
    __syncthreads();
    if (t == 0) {
        int sum = 0;
        for (int w = 0; w < (int)(blockDim.x + 31) / 32; w++)
            sum += part[w];
        while (atomicCAS(&res[0], 0, 1) != 0)
            ;
        __threadfence();
        volatile int *vr = res;
        vr[1] = vr[1] + sum;
        vr[2] = vr[2] + 1;
        __threadfence();
        int was = atomicExch(&res[0], 0);
        atomicAdd(&res[3], was);
    }
}
