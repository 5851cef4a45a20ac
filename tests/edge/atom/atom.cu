// atom.cu -- edge tests of atom and red: every operation and type the PTX ISA defines, in
// .global, .shared and generic space (generic pointing at global and at shared memory).
// gen.sh compiles it to atom.ptx (committed); runs.txt names the launches.
//
// Own-slot kernels: each thread works on its own slots, so old values and final values are
// deterministic; 16-bit slots of neighbouring threads share a 32-bit word. Contended kernels:
// every thread hits the same few counters with operations whose final value does not depend
// on the order (sums of exact values, min/max, and/or/xor, inc/dec with wrap, CAS loops, and
// float adds of one repeated value). Values are built with integer operations only.
#include <stdint.h>

typedef unsigned long long u64;
typedef unsigned short u16;

__device__ __forceinline__ unsigned mix(unsigned x)
{
    x ^= x >> 16; x *= 0x7FEB352Du; x ^= x >> 15; x *= 0x846CA68Bu; x ^= x >> 16;
    return x;
}
__device__ __forceinline__ unsigned H(unsigned i, unsigned f) { return mix(i * 0x9E3779B9u + f * 0x85EBCA6Bu + 1u); }
__device__ __forceinline__ u64 H64(unsigned i, unsigned f) { return (u64)H(i, f) << 32 | H(i, f + 1000u); }
// Finite values of each float format (f32: |x| in [2^-7, 2^7); f64: [2^-15, 2); f16: every
// finite value incl. subnormals; bf16: [2^-31, 2^17)).
__device__ __forceinline__ unsigned F32(unsigned h) { return (h & 0x80000000u) | (0x3C000000u + (h >> 1) % 0x07000000u); }
__device__ __forceinline__ u64 F64(u64 h) { return (h & 0x8000000000000000ull) | (0x3F00000000000000ull + (h >> 1) % 0x0100000000000000ull); }
__device__ __forceinline__ unsigned F16(unsigned h) { return (h & 0x8000u) | (h >> 16) % 0x7C00u; }
__device__ __forceinline__ unsigned BF16(unsigned h) { return (h & 0x8000u) | (0x3000u + (h >> 16) % 0x1800u); }
__device__ __forceinline__ unsigned F16X2(unsigned h, unsigned g) { return F16(h) | F16(g) << 16; }
__device__ __forceinline__ unsigned BF16X2(unsigned h, unsigned g) { return BF16(h) | BF16(g) << 16; }

#define GADDR(p) (p)
#define SADDR(p) ((unsigned)__cvta_generic_to_shared(p))

// ---- Own slots ------------------------------------------------------------------------------
// M32/M64/M16 hold the slots (form f, slot s at [f * NS + s]); old values go to O32/O64/O16
// at [f * n + i]. SP is the space suffix, AC/ADDR the address operand's constraint and form.
#define NF32 30
#define NO32 16
#define NF64 20
#define NO64 11
#define NF16 5
#define NO16 3

#define A32(f, OPT, X, B) do { unsigned *p_ = &M32[(f) * NS + s], o_; *p_ = (X);                    \
        asm volatile("atom" SP OPT " %0, [%1], %2;" : "=r"(o_) : AC(ADDR(p_)), "r"(B) : "memory");    \
        O32[(f) * n + i] = o_; } while (0)
#define R32(f, OPT, X, B) do { unsigned *p_ = &M32[(f) * NS + s]; *p_ = (X);                         \
        asm volatile("red" SP OPT " [%0], %1;" :: AC(ADDR(p_)), "r"(B) : "memory"); } while (0)
#define A64(f, OPT, X, B) do { u64 *p_ = &M64[(f) * NS + s], o_; *p_ = (X);                         \
        asm volatile("atom" SP OPT " %0, [%1], %2;" : "=l"(o_) : AC(ADDR(p_)), "l"(B) : "memory");    \
        O64[(f) * n + i] = o_; } while (0)
#define R64(f, OPT, X, B) do { u64 *p_ = &M64[(f) * NS + s]; *p_ = (X);                              \
        asm volatile("red" SP OPT " [%0], %1;" :: AC(ADDR(p_)), "l"(B) : "memory"); } while (0)
#define A16(f, OPT, X, B) do { u16 *p_ = &M16[(f) * NS + s], o_; *p_ = (u16)(X);                     \
        asm volatile("atom" SP OPT " %0, [%1], %2;" : "=h"(o_) : AC(ADDR(p_)), "h"((u16)(B)) : "memory"); \
        O16[(f) * n + i] = o_; } while (0)
#define R16(f, OPT, X, B) do { u16 *p_ = &M16[(f) * NS + s]; *p_ = (u16)(X);                         \
        asm volatile("red" SP OPT " [%0], %1;" :: AC(ADDR(p_)), "h"((u16)(B)) : "memory"); } while (0)

#define OWN_BODY                                                                                    \
    unsigned x, b;                                                                                  \
    A32(0, ".add.u32", H(i, 0), H(i, 100));                                                         \
    A32(1, ".add.s32", H(i, 1), H(i, 101));                                                         \
    A32(2, ".inc.u32", H(i, 2) % 7, H(i, 102) % 5);                                                 \
    A32(3, ".dec.u32", H(i, 3) % 6, H(i, 103) % 5);                                                 \
    A32(4, ".min.u32", H(i, 4), H(i, 104));                                                         \
    A32(5, ".max.u32", H(i, 5), H(i, 105));                                                         \
    A32(6, ".min.s32", H(i, 6), H(i, 106));                                                         \
    A32(7, ".max.s32", H(i, 7), H(i, 107));                                                         \
    A32(8, ".and.b32", H(i, 8), H(i, 108));                                                         \
    A32(9, ".or.b32", H(i, 9), H(i, 109));                                                          \
    A32(10, ".xor.b32", H(i, 10), H(i, 110));                                                       \
    A32(11, ".exch.b32", H(i, 11), H(i, 111));                                                      \
    x = H(i, 12); b = H(i, 112);                                                                    \
    { unsigned *p_ = &M32[12 * NS + s], o_, c_ = (b & 1) ? x : x ^ 0x10u; *p_ = x;                  \
      asm volatile("atom" SP ".cas.b32 %0, [%1], %2, %3;" : "=r"(o_) : AC(ADDR(p_)), "r"(c_), "r"(b) : "memory"); \
      O32[12 * n + i] = o_; }                                                                       \
    A32(13, ".add.f32", F32(H(i, 13)), F32(H(i, 113)));                                             \
    A32(14, ".add.noftz.f16x2", F16X2(H(i, 14), H(i, 214)), F16X2(H(i, 114), H(i, 314)));          \
    A32(15, ".add.noftz.bf16x2", BF16X2(H(i, 15), H(i, 215)), BF16X2(H(i, 115), H(i, 315)));       \
    R32(16, ".add.u32", H(i, 16), H(i, 116));                                                       \
    R32(17, ".add.s32", H(i, 17), H(i, 117));                                                       \
    R32(18, ".inc.u32", H(i, 18) % 7, H(i, 118) % 5);                                               \
    R32(19, ".dec.u32", H(i, 19) % 6, H(i, 119) % 5);                                               \
    R32(20, ".min.u32", H(i, 20), H(i, 120));                                                       \
    R32(21, ".max.u32", H(i, 21), H(i, 121));                                                       \
    R32(22, ".min.s32", H(i, 22), H(i, 122));                                                       \
    R32(23, ".max.s32", H(i, 23), H(i, 123));                                                       \
    R32(24, ".and.b32", H(i, 24), H(i, 124));                                                       \
    R32(25, ".or.b32", H(i, 25), H(i, 125));                                                        \
    R32(26, ".xor.b32", H(i, 26), H(i, 126));                                                       \
    R32(27, ".add.f32", F32(H(i, 27)), F32(H(i, 127)));                                             \
    R32(28, ".add.noftz.f16x2", F16X2(H(i, 28), H(i, 228)), F16X2(H(i, 128), H(i, 328)));          \
    R32(29, ".add.noftz.bf16x2", BF16X2(H(i, 29), H(i, 229)), BF16X2(H(i, 129), H(i, 329)));       \
    A64(0, ".add.u64", H64(i, 40), H64(i, 140));                                                    \
    A64(1, ".min.u64", H64(i, 41), H64(i, 141));                                                    \
    A64(2, ".max.u64", H64(i, 42), H64(i, 142));                                                    \
    A64(3, ".min.s64", H64(i, 43), H64(i, 143));                                                    \
    A64(4, ".max.s64", H64(i, 44), H64(i, 144));                                                    \
    A64(5, ".and.b64", H64(i, 45), H64(i, 145));                                                    \
    A64(6, ".or.b64", H64(i, 46), H64(i, 146));                                                     \
    A64(7, ".xor.b64", H64(i, 47), H64(i, 147));                                                    \
    A64(8, ".exch.b64", H64(i, 48), H64(i, 148));                                                   \
    { u64 x_ = H64(i, 49), b_ = H64(i, 149), c_ = (b_ & 1) ? x_ : x_ ^ 0x100000000ull, o_;          \
      u64 *p_ = &M64[9 * NS + s]; *p_ = x_;                                                         \
      asm volatile("atom" SP ".cas.b64 %0, [%1], %2, %3;" : "=l"(o_) : AC(ADDR(p_)), "l"(c_), "l"(b_) : "memory"); \
      O64[9 * n + i] = o_; }                                                                        \
    A64(10, ".add.f64", F64(H64(i, 50)), F64(H64(i, 150)));                                         \
    R64(11, ".add.u64", H64(i, 51), H64(i, 151));                                                   \
    R64(12, ".min.u64", H64(i, 52), H64(i, 152));                                                   \
    R64(13, ".max.u64", H64(i, 53), H64(i, 153));                                                   \
    R64(14, ".min.s64", H64(i, 54), H64(i, 154));                                                   \
    R64(15, ".max.s64", H64(i, 55), H64(i, 155));                                                   \
    R64(16, ".and.b64", H64(i, 56), H64(i, 156));                                                   \
    R64(17, ".or.b64", H64(i, 57), H64(i, 157));                                                    \
    R64(18, ".xor.b64", H64(i, 58), H64(i, 158));                                                   \
    R64(19, ".add.f64", F64(H64(i, 59)), F64(H64(i, 159)));                                         \
    { unsigned x_ = H(i, 60) & 0xFFFFu, b_ = H(i, 160) & 0xFFFFu;                                   \
      u16 c_ = (u16)((b_ & 1) ? x_ : x_ ^ 0x100u), o_; u16 *p_ = &M16[0 * NS + s]; *p_ = (u16)x_;    \
      asm volatile("atom" SP ".cas.b16 %0, [%1], %2, %3;" : "=h"(o_) : AC(ADDR(p_)), "h"(c_), "h"((u16)b_) : "memory"); \
      O16[0 * n + i] = o_; }                                                                        \
    A16(1, ".add.noftz.f16", F16(H(i, 61)), F16(H(i, 161)));                                        \
    A16(2, ".add.noftz.bf16", BF16(H(i, 62)), BF16(H(i, 162)));                                     \
    R16(3, ".add.noftz.f16", F16(H(i, 63)), F16(H(i, 163)));                                        \
    R16(4, ".add.noftz.bf16", BF16(H(i, 64)), BF16(H(i, 164)));                                     \
    (void)x; (void)b;

#define OWN_ARGS unsigned *O32, unsigned *F32o, u64 *O64, u64 *F64o, u16 *O16, u16 *F16o

// Global memory, .global addresses: the slots are the final-value outputs themselves.
extern "C" __global__ void own_global(OWN_ARGS)
{
    unsigned n = gridDim.x * blockDim.x, i = blockIdx.x * blockDim.x + threadIdx.x, s = i, NS = n;
    unsigned *M32 = F32o; u64 *M64 = F64o; u16 *M16 = F16o;
#define SP ".global"
#define AC "l"
#define ADDR GADDR
    OWN_BODY
#undef SP
#undef AC
#undef ADDR
}

// Global memory through generic addresses.
extern "C" __global__ void own_generic(OWN_ARGS)
{
    unsigned n = gridDim.x * blockDim.x, i = blockIdx.x * blockDim.x + threadIdx.x, s = i, NS = n;
    unsigned *M32 = F32o; u64 *M64 = F64o; u16 *M16 = F16o;
#define SP ""
#define AC "l"
#define ADDR GADDR
    OWN_BODY
#undef SP
#undef AC
#undef ADDR
}

// Shared memory (at most 64 threads a block), then the finals are copied out.
#define COPY_OUT                                                                                 \
    __syncthreads();                                                                             \
    for (int f = 0; f < NF32; f++) F32o[f * n + i] = M32[f * NS + s];                            \
    for (int f = 0; f < NF64; f++) F64o[f * n + i] = M64[f * NS + s];                            \
    for (int f = 0; f < NF16; f++) F16o[f * n + i] = M16[f * NS + s];

extern "C" __global__ void own_shared(OWN_ARGS)
{
    __shared__ unsigned M32[NF32 * 64];
    __shared__ u64 M64[NF64 * 64];
    __shared__ u16 M16[NF16 * 64];
    unsigned n = gridDim.x * blockDim.x, i = blockIdx.x * blockDim.x + threadIdx.x, s = threadIdx.x, NS = 64;
#define SP ".shared"
#define AC "r"
#define ADDR SADDR
    OWN_BODY
#undef SP
#undef AC
#undef ADDR
    COPY_OUT
}

// Shared memory through generic addresses.
extern "C" __global__ void own_gshared(OWN_ARGS)
{
    __shared__ unsigned M32[NF32 * 64];
    __shared__ u64 M64[NF64 * 64];
    __shared__ u16 M16[NF16 * 64];
    unsigned n = gridDim.x * blockDim.x, i = blockIdx.x * blockDim.x + threadIdx.x, s = threadIdx.x, NS = 64;
#define SP ""
#define AC "l"
#define ADDR GADDR
    OWN_BODY
#undef SP
#undef AC
#undef ADDR
    COPY_OUT
}

// ---- Contended counters ------------------------------------------------------------------
// C32/C64/C16 are the counters, g the thread's index among all threads hitting them.
#define K32 19
#define K64 12
#define K16 4

#define CA32(k, OPT, B) do { unsigned o_;                                                          \
        asm volatile("atom" SP OPT " %0, [%1], %2;" : "=r"(o_) : AC(ADDR(&C32[k])), "r"(B) : "memory"); } while (0)
#define CR32(k, OPT, B) asm volatile("red" SP OPT " [%0], %1;" :: AC(ADDR(&C32[k])), "r"(B) : "memory")
#define CA64(k, OPT, B) do { u64 o_;                                                               \
        asm volatile("atom" SP OPT " %0, [%1], %2;" : "=l"(o_) : AC(ADDR(&C64[k])), "l"(B) : "memory"); } while (0)
#define CR64(k, OPT, B) asm volatile("red" SP OPT " [%0], %1;" :: AC(ADDR(&C64[k])), "l"(B) : "memory")

#define CONTEND_BODY                                                                                \
    CA32(0, ".add.u32", g + 1);                                                                     \
    CR32(1, ".add.u32", H(g, 1));                                                                   \
    CA32(2, ".min.u32", H(g, 2));                                                                   \
    CR32(3, ".max.u32", H(g, 3));                                                                   \
    CR32(4, ".min.s32", H(g, 4));                                                                   \
    CA32(5, ".max.s32", H(g, 5));                                                                   \
    CA32(6, ".and.b32", g % 41 < 32 ? ~(1u << (g % 41)) : ~0u);                                     \
    CR32(7, ".or.b32", 1u << (g % 29));                                                             \
    CA32(8, ".xor.b32", H(g, 8));                                                                   \
    CA32(9, ".inc.u32", 9u);                                                                        \
    CR32(10, ".dec.u32", 9u);                                                                       \
    { unsigned cur_ = *(volatile unsigned *)&C32[11], seen_;                                       \
      for (;;) { asm volatile("atom" SP ".cas.b32 %0, [%1], %2, %3;" : "=r"(seen_)                \
                              : AC(ADDR(&C32[11])), "r"(cur_), "r"(cur_ + 1) : "memory");            \
                 if (seen_ == cur_) break; cur_ = seen_; } }                                        \
    { unsigned o_;                                                                                  \
      asm volatile("atom" SP ".exch.b32 %0, [%1], %2;" : "=r"(o_) : AC(ADDR(&C32[12])), "r"((g + 1) * 3) : "memory"); \
      CR32(13, ".add.u32", o_); }                                                                   \
    CA32(15, ".add.f32", __float_as_uint((float)(g % 16)));                                        \
    CR32(16, ".add.f32", 0x3E800000u);          \
    CA32(17, ".add.noftz.f16x2", 0x38003C00u);                                                      \
    CR32(18, ".add.noftz.bf16x2", 0x3F803E80u);                                                     \
    CA64(0, ".add.u64", (u64)g * 0x100000001ull);                                                   \
    CR64(1, ".add.u64", H64(g, 1));                                                                 \
    CA64(2, ".min.u64", H64(g, 2));                                                                 \
    CR64(3, ".max.u64", H64(g, 3));                                                                 \
    CA64(4, ".min.s64", H64(g, 4));                                                                 \
    CR64(5, ".max.s64", H64(g, 5));                                                                 \
    CR64(6, ".and.b64", g % 67 < 64 ? ~(1ull << (g % 67)) : ~0ull);                                 \
    CA64(7, ".or.b64", 1ull << (g % 61));                                                           \
    CR64(8, ".xor.b64", H64(g, 8));                                                                 \
    { u64 cur_ = *(volatile u64 *)&C64[9], seen_;                                                  \
      for (;;) { asm volatile("atom" SP ".cas.b64 %0, [%1], %2, %3;" : "=l"(seen_)                \
                              : AC(ADDR(&C64[9])), "l"(cur_), "l"(cur_ + 0x100000001ull) : "memory"); \
                 if (seen_ == cur_) break; cur_ = seen_; } }                                        \
    CA64(10, ".add.f64", __double_as_longlong((double)(g % 64)));                                   \
    CR64(11, ".add.f64", 0x3FD0000000000000ull);                                                   \
    for (int k_ = 0; k_ < 2; k_++) {                                                               \
        u16 *p_ = &C16[k_ ? 3 : 0], cur_ = *(volatile u16 *)p_, seen_, add_ = k_ ? 3 : 1;          \
        for (;;) { asm volatile("atom" SP ".cas.b16 %0, [%1], %2, %3;" : "=h"(seen_)              \
                                : AC(ADDR(p_)), "h"(cur_), "h"((u16)(cur_ + add_)) : "memory");      \
                   if (seen_ == cur_) break; cur_ = seen_; } }                                      \
    { u16 o_; asm volatile("atom" SP ".add.noftz.f16 %0, [%1], %2;" : "=h"(o_)                    \
                           : AC(ADDR(&C16[1])), "h"((u16)0x3C00) : "memory"); }                     \
    asm volatile("red" SP ".add.noftz.bf16 [%0], %1;" :: AC(ADDR(&C16[2])), "h"((u16)0x3F00) : "memory");

#define CONTEND_ARGS unsigned *C32, u64 *C64, u16 *C16

// Every thread of the grid on counters in global memory. The exchange chain (12) and the
// sum of the values it returned (13) depend on the order: the last block to finish (ticket
// in 14) folds them into their order-independent sum, kept in 12, and clears 13.
#define CONTEND_GLOBAL_FINISH                                                                      \
    __syncthreads();                                                                               \
    if (threadIdx.x == 0) {                                                                        \
        __threadfence();                                                                           \
        if (atomicAdd(&C32[14], 1u) == gridDim.x - 1) {                                            \
            unsigned a_ = atomicExch(&C32[12], 0u), b_ = atomicExch(&C32[13], 0u);                 \
            atomicExch(&C32[12], a_ + b_);                                                         \
        }                                                                                          \
    }

extern "C" __global__ void contend_global(CONTEND_ARGS)
{
    unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
#define SP ".global"
#define AC "l"
#define ADDR GADDR
    CONTEND_BODY
#undef SP
#undef AC
#undef ADDR
    CONTEND_GLOBAL_FINISH
}

extern "C" __global__ void contend_generic(CONTEND_ARGS)
{
    unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
#define SP ""
#define AC "l"
#define ADDR GADDR
    CONTEND_BODY
#undef SP
#undef AC
#undef ADDR
    CONTEND_GLOBAL_FINISH
}

// Every thread of a block on counters in shared memory, initialised from the global
// counters (read only); block b writes its counters at [b * K + k].
#define CONTEND_SHARED(NAME, SPS, ACS, ADDRS)                                                      \
    extern "C" __global__ void NAME(const unsigned *I32, const u64 *I64, const u16 *I16,          \
                                    unsigned *O32, u64 *O64, u16 *O16)                            \
    {                                                                                              \
        __shared__ unsigned C32[K32];                                                              \
        __shared__ u64 C64[K64];                                                                   \
        __shared__ u16 C16[K16];                                                                   \
        unsigned g = threadIdx.x;                                                                  \
        if (g < K32) C32[g] = I32[g];                                                              \
        if (g < K64) C64[g] = I64[g];                                                              \
        if (g < K16) C16[g] = I16[g];                                                              \
        __syncthreads();                                                                           \
        g += blockIdx.x * 7;                                                                       \
        CONTEND_BODY                                                                               \
        __syncthreads();                                                                           \
        if (threadIdx.x == 0) {                                                                    \
            C32[12] += C32[13];                                                                    \
            C32[13] = 0;                                                                           \
            C32[14] = blockDim.x;                                                                  \
        }                                                                                          \
        __syncthreads();                                                                           \
        g = threadIdx.x;                                                                           \
        if (g < K32) O32[blockIdx.x * K32 + g] = C32[g];                                           \
        if (g < K64) O64[blockIdx.x * K64 + g] = C64[g];                                           \
        if (g < K16) O16[blockIdx.x * K16 + g] = C16[g];                                           \
    }
#define SP ".shared"
#define AC "r"
#define ADDR SADDR
CONTEND_SHARED(contend_shared, , , )
#undef SP
#undef AC
#undef ADDR
#define SP ""
#define AC "l"
#define ADDR GADDR
CONTEND_SHARED(contend_gshared, , , )
#undef SP
#undef AC
#undef ADDR

// ---- Vector atomics (sm_90, .global and generic) ---------------------------------------
// Own 16-byte slots: slot (f, i) at V[(f * n + i) * 4] (u32 words); old values likewise in O.
// Then every thread adds the same vector to one shared 16-byte counter (V at the end).
#define NV 8
#define VEC_BODY(SPV)                                                                              \
    unsigned w_[4], b_[4], o_[4];                                                                  \
    for (int f = 0; f < NV; f++) {                                                                 \
        for (int j = 0; j < 4; j++) {                                                              \
            unsigned h_ = H(i, 500 + f * 4 + j), k_ = H(i, 600 + f * 4 + j);                       \
            w_[j] = f < 3 ? F32(h_) : f < 6 ? F16X2(h_, k_) : BF16X2(h_, k_);                      \
            b_[j] = f < 3 ? F32(k_) : f < 6 ? F16X2(k_, h_) : BF16X2(k_, h_);                      \
            V[(f * n + i) * 4 + j] = w_[j];                                                        \
            o_[j] = 0;                                                                             \
        }                                                                                          \
        unsigned *p_ = &V[(f * n + i) * 4];                                                        \
        switch (f) {                                                                               \
        case 0: asm volatile("atom" SPV ".v2.f32.add {%0, %1}, [%2], {%3, %4};"                    \
                             : "=r"(o_[0]), "=r"(o_[1]) : "l"(p_), "r"(b_[0]), "r"(b_[1]) : "memory"); break; \
        case 1: asm volatile("atom" SPV ".v4.f32.add {%0, %1, %2, %3}, [%4], {%5, %6, %7, %8};"    \
                             : "=r"(o_[0]), "=r"(o_[1]), "=r"(o_[2]), "=r"(o_[3])                  \
                             : "l"(p_), "r"(b_[0]), "r"(b_[1]), "r"(b_[2]), "r"(b_[3]) : "memory"); break; \
        case 2: asm volatile("red" SPV ".v4.f32.add [%0], {%1, %2, %3, %4};"                       \
                             :: "l"(p_), "r"(b_[0]), "r"(b_[1]), "r"(b_[2]), "r"(b_[3]) : "memory"); break; \
        case 3: asm volatile("atom" SPV ".v2.f16x2.min.noftz {%0, %1}, [%2], {%3, %4};"            \
                             : "=r"(o_[0]), "=r"(o_[1]) : "l"(p_), "r"(b_[0]), "r"(b_[1]) : "memory"); break; \
        case 4: asm volatile("atom" SPV ".v4.f16x2.max.noftz {%0, %1, %2, %3}, [%4], {%5, %6, %7, %8};" \
                             : "=r"(o_[0]), "=r"(o_[1]), "=r"(o_[2]), "=r"(o_[3])                  \
                             : "l"(p_), "r"(b_[0]), "r"(b_[1]), "r"(b_[2]), "r"(b_[3]) : "memory"); break; \
        case 5: { u16 h_[8], r_[8];                                                                \
                  for (int j = 0; j < 4; j++) { h_[2 * j] = (u16)b_[j]; h_[2 * j + 1] = (u16)(b_[j] >> 16); } \
                  asm volatile("atom" SPV ".v8.f16.add.noftz {%0, %1, %2, %3, %4, %5, %6, %7}, [%8], " \
                               "{%9, %10, %11, %12, %13, %14, %15, %16};"                            \
                               : "=h"(r_[0]), "=h"(r_[1]), "=h"(r_[2]), "=h"(r_[3]), "=h"(r_[4]),   \
                                 "=h"(r_[5]), "=h"(r_[6]), "=h"(r_[7])                              \
                               : "l"(p_), "h"(h_[0]), "h"(h_[1]), "h"(h_[2]), "h"(h_[3]), "h"(h_[4]), \
                                 "h"(h_[5]), "h"(h_[6]), "h"(h_[7]) : "memory");                    \
                  for (int j = 0; j < 4; j++) o_[j] = r_[2 * j] | (unsigned)r_[2 * j + 1] << 16; \
                  break; }                                                                         \
        case 6: { u16 h_[4], r_[4];                                                                \
                  for (int j = 0; j < 2; j++) { h_[2 * j] = (u16)b_[j]; h_[2 * j + 1] = (u16)(b_[j] >> 16); } \
                  asm volatile("atom" SPV ".v4.bf16.min.noftz {%0, %1, %2, %3}, [%4], {%5, %6, %7, %8};" \
                               : "=h"(r_[0]), "=h"(r_[1]), "=h"(r_[2]), "=h"(r_[3])                 \
                               : "l"(p_), "h"(h_[0]), "h"(h_[1]), "h"(h_[2]), "h"(h_[3]) : "memory"); \
                  for (int j = 0; j < 2; j++) o_[j] = r_[2 * j] | (unsigned)r_[2 * j + 1] << 16; \
                  break; }                                                                         \
        case 7: asm volatile("red" SPV ".v4.bf16x2.add.noftz [%0], {%1, %2, %3, %4};"              \
                             :: "l"(p_), "r"(b_[0]), "r"(b_[1]), "r"(b_[2]), "r"(b_[3]) : "memory"); break; \
        }                                                                                          \
        for (int j = 0; j < 4; j++)                                                                \
            O[(f * n + i) * 4 + j] = o_[j];                                                        \
    }                                                                                              \
    asm volatile("red" SPV ".v4.f32.add [%0], {%1, %2, %3, %4};"                                   \
                 :: "l"(&V[NV * n * 4]), "r"(0x3F800000u), "r"(0x3E800000u), "r"(0x40000000u),      \
                    "r"(0x41000000u) : "memory");                                                  \
    { unsigned d0_, d1_;                                                                           \
      asm volatile("atom" SPV ".v2.f16x2.max.noftz {%0, %1}, [%2], {%3, %4};"                      \
                   : "=r"(d0_), "=r"(d1_) : "l"(&V[NV * n * 4 + 4]), "r"(F16X2(H(i, 7), H(i, 8))),  \
                     "r"(F16X2(H(i, 9), H(i, 10))) : "memory"); }

// V: (NV * n + 2) * 4 u32 words, the last 8 zero-initialised; O: NV * n * 4.
extern "C" __global__ void vec_global(unsigned *V, unsigned *O)
{
    unsigned n = gridDim.x * blockDim.x, i = blockIdx.x * blockDim.x + threadIdx.x;
    VEC_BODY(".global")
}

extern "C" __global__ void vec_generic(unsigned *V, unsigned *O)
{
    unsigned n = gridDim.x * blockDim.x, i = blockIdx.x * blockDim.x + threadIdx.x;
    VEC_BODY("")
}

// ---- atom.add.f32 and subnormals ---------------------------------------------------------
// PTX ISA: atom.add.f32 flushes subnormal inputs and results in global memory, not in shared
// memory. Each pair (x, b) of XS/BS runs through atom and red in global, shared, generic
// global and generic shared memory: out[(space * 2 + red) * 8 + pair] (finals) and
// old[(space) * 8 + pair]. One block of 8 threads.
extern "C" __global__ void f32_subnormal(unsigned *G, unsigned *out, unsigned *old)
{
    __shared__ unsigned S[16];
    const unsigned XS[8] = {0x00000001u, 0x00400000u, 0x00000000u, 0x80000003u,
                            0x00C00000u, 0x3F800000u, 0x00800000u, 0x007FFFFFu};
    const unsigned BS[8] = {0x00000001u, 0x00400000u, 0x00000005u, 0x00000001u,
                            0x80800000u, 0x00000001u, 0x80000001u, 0x00000001u};
    unsigned t = threadIdx.x, o;
    G[t] = XS[t]; G[8 + t] = XS[t]; S[t] = XS[t]; S[8 + t] = XS[t];
    __syncthreads();
    asm volatile("atom.global.add.f32 %0, [%1], %2;" : "=r"(o) : "l"(&G[t]), "r"(BS[t]) : "memory");
    old[0 * 8 + t] = o;
    asm volatile("red.global.add.f32 [%0], %1;" :: "l"(&G[8 + t]), "r"(BS[t]) : "memory");
    asm volatile("atom.shared.add.f32 %0, [%1], %2;" : "=r"(o) : "r"(SADDR(&S[t])), "r"(BS[t]) : "memory");
    old[1 * 8 + t] = o;
    asm volatile("red.shared.add.f32 [%0], %1;" :: "r"(SADDR(&S[8 + t])), "r"(BS[t]) : "memory");
    __syncthreads();
    out[0 * 8 + t] = G[t]; out[1 * 8 + t] = G[8 + t];
    out[2 * 8 + t] = S[t]; out[3 * 8 + t] = S[8 + t];
    __syncthreads();
    G[t] = XS[t]; G[8 + t] = XS[t]; S[t] = XS[t]; S[8 + t] = XS[t];
    __syncthreads();
    asm volatile("atom.add.f32 %0, [%1], %2;" : "=r"(o) : "l"(&G[t]), "r"(BS[t]) : "memory");
    old[2 * 8 + t] = o;
    asm volatile("red.add.f32 [%0], %1;" :: "l"(&G[8 + t]), "r"(BS[t]) : "memory");
    asm volatile("atom.add.f32 %0, [%1], %2;" : "=r"(o) : "l"(&S[t]), "r"(BS[t]) : "memory");
    old[3 * 8 + t] = o;
    asm volatile("red.add.f32 [%0], %1;" :: "l"(&S[8 + t]), "r"(BS[t]) : "memory");
    __syncthreads();
    out[4 * 8 + t] = G[t]; out[5 * 8 + t] = G[8 + t];
    out[6 * 8 + t] = S[t]; out[7 * 8 + t] = S[8 + t];
}
