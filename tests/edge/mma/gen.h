// gen.h -- the fixed-seed input generator of the tensor-core edge tests (mma.cu): every
// input element is a function of (tile, lane, register, part), on the GPU and on the host.
//
// A tile's mode (tile % 10) picks the class of A and B values, (tile / 10) % 10 that of C:
//   0 small exponents   1 every normal   2 sparse powers of two   3 specials (0, inf, NaN,
//   subnormal, max)   4 subnormals   5 near-cancelling +-1, +-(1+ulp)   6 large (overflow)
//   7 mostly zeros   8 mixed magnitudes (a few large terms among small ones)   9 narrow
//   mantissas (products exact in few bits: ties and exact sums).
#ifndef MMA_GEN_H
#define MMA_GEN_H
#include <stdint.h>
#ifdef __CUDACC__
#define HD __host__ __device__ __forceinline__
#define HD_CALL __host__ __device__ __noinline__
#else
#define HD static inline
#define HD_CALL static
#endif

HD uint32_t gen_mix(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

HD uint32_t gen_rand(uint32_t salt, uint32_t tile, uint32_t lane, uint32_t reg, uint32_t part)
{
    return gen_mix(salt * 0x9e3779b9U ^ gen_mix(tile * 0x85ebca6bU ^ gen_mix(lane * 0xc2b2ae35U ^ gen_mix(reg * 0x27d4eb2fU + part))));
}

HD int gen_clamp(int e, int lo, int hi)
{
    return e < lo ? lo : e > hi ? hi : e;
}

// One value of a binary format with eb exponent and mb mantissa bits (mb <= 52), from
// random words r (sign, mantissa) and q (class, exponent); returns its bits.
HD uint64_t gen_float(int eb, int mb, uint32_t mode, uint32_t r, uint32_t q, uint32_t r2)
{
    int bias = (1 << (eb - 1)) - 1, emax = (1 << eb) - 2, e;
    uint64_t s = (uint64_t)(r & 1) << (eb + mb);
    uint64_t mmask = ((uint64_t)1 << mb) - 1;
    uint64_t m = (((uint64_t)r2 << 32 | r) >> 1) & mmask;
    uint64_t inf = (uint64_t)((1 << eb) - 1) << mb;
    uint32_t c = q >> 8;
    switch (mode) {
    case 0: e = bias - 4 + (int)(q % 9); break;
    case 1: e = 1 + (int)(q % (uint32_t)emax); break;
    case 2:
        if (c % 4 == 0)
            return s;
        m = (c >> 2) % 2 ? 0 : (uint64_t)1 << ((c >> 3) % mb);
        e = bias - 12 + (int)(q % 21);
        break;
    case 3:
        switch (c % 10) {
        case 0: return s;
        case 1: return s | inf;
        case 2: return s | inf | (uint64_t)1 << (mb - 1) | (m & (mmask >> 2));
        case 3: return s | m;
        case 4: return s | inf - 1;
        case 5: return s | (uint64_t)1 << mb | m;
        default: e = bias - 4 + (int)(q % 9); break;
        }
        break;
    case 4:
        if (c & 1)
            return s | m;
        e = 1 + (int)(q % 4);
        break;
    case 5: {
        const uint64_t ms[4] = {0, 1, mmask, (uint64_t)1 << (mb - 1)};
        m = ms[q % 4];
        e = c % 2 ? bias : bias - 1 - (int)(c >> 1) % mb;
        break;
    }
    case 6: e = emax - 6 + (int)(q % 7); break;
    case 7:
        if (q % 8)
            return s;
        e = bias - 4 + (int)(c % 9);
        break;
    case 8: e = q % 16 == 0 ? bias + 10 : bias - 10 + (int)(c % 11); break;
    default:
        m &= mmask ^ (mmask >> 3);
        e = bias - 3 + (int)(q % 7);
        break;
    }
    return s | (uint64_t)gen_clamp(e, 1, emax) << mb | m;
}

// Element kinds of the registers.
enum { G_F16, G_BF16, G_TF32, G_F32, G_F64, G_S8, G_U8, G_S4, G_U4, G_B1, G_S32 };

// One integer element of width w bits (signed or not) in the class of mode.
HD uint32_t gen_int(int w, uint32_t mode, uint32_t r, uint32_t q)
{
    uint32_t mask = w == 32 ? 0xffffffffu : (1u << w) - 1;
    switch (mode % 4) {
    case 1: {   /* extremes */
        const uint32_t v[5] = {0, 1, mask, mask >> 1, (mask >> 1) + 1};
        return v[q % 5] & mask;
    }
    case 2:     /* near the 32-bit limits (for .satfinite) or small */
        if (w == 32)
            return q % 2 ? 0x7fffffffu - (r & 0xffffu) : 0x80000000u + (r & 0xffffu);
        return r & (mask >> 1);
    default: return r & mask;
    }
}

// Register reg of lane in tile for element kind k; part tells A (0), B (1) and C (2) apart.
HD_CALL uint32_t gen_reg(int k, uint32_t tile, uint32_t lane, uint32_t reg, uint32_t part)
{
    uint32_t mode = part == 2 ? (tile / 10) % 10 : tile % 10;
    uint32_t r0 = gen_rand(part, tile, lane, reg, 0), q0 = gen_rand(part, tile, lane, reg, 1);
    uint32_t r1 = gen_rand(part, tile, lane, reg, 2), q1 = gen_rand(part, tile, lane, reg, 3);
    uint32_t x = 0;
    switch (k) {
    case G_F16:
        return (uint32_t)gen_float(5, 10, mode, r0, q0, 0) | (uint32_t)gen_float(5, 10, mode, r1, q1, 0) << 16;
    case G_BF16:
        return (uint32_t)gen_float(8, 7, mode, r0, q0, 0) | (uint32_t)gen_float(8, 7, mode, r1, q1, 0) << 16;
    case G_TF32:    /* odd modes carry random bits below the tf32 mantissa */
        return (uint32_t)gen_float(8, 10, mode, r0, q0, 0) << 13 | (mode & 1 ? r1 & 0x1fff : 0);
    case G_F32: return (uint32_t)gen_float(8, 23, mode, r0, q0, 0);
    case G_F64: {   /* registers 2i (low word) and 2i+1 (high word) of one double */
        uint32_t e = reg / 2;
        uint64_t v = gen_float(11, 52, mode, gen_rand(part, tile, lane, e, 0), gen_rand(part, tile, lane, e, 1),
                               gen_rand(part, tile, lane, e, 2));
        return reg % 2 ? (uint32_t)(v >> 32) : (uint32_t)v;
    }
    case G_S32: return gen_int(32, mode, r0, q0);
    case G_B1:
        return mode % 3 == 1 ? r0 & r1 & q0 : mode % 3 == 2 ? r0 | r1 : r0;
    default: {
        int w = k == G_S8 || k == G_U8 ? 8 : 4;
        for (int i = 0; i < 32 / w; i++)
            x |= gen_int(w, mode, gen_rand(part, tile, lane, reg, 4 + 2 * i), gen_rand(part, tile, lane, reg, 5 + 2 * i))
                 << (i * w);
        return x;
    }
    }
}
#endif
