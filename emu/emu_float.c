/* emu_float.c -- f32 and f64 instructions: add sub mul fma mad div rcp sqrt rsqrt sin cos lg2
 * ex2 tanh min max abs neg copysign testp, matching what an sm_90 GPU computes bit for bit. */
#include <fenv.h>
#include <math.h>
#include <stdint.h>

#include "emu/emu.h"
#include "emu/emu_internal.h"
#include "emu/emu_lanes.h"

/* ---- Handler stamps ----------------------------------------------------------
 * One handler per (operation, modifiers), made by EMU_STAMP32_n/EMU_STAMP64_n
 * (emu_lanes.h). Rounding, .ftz and .sat are compile-time constants of the lane
 * expression, never branches on data of the instruction. */

/* Stamps op over the four rounding modes (N Z M P), .ftz (0/1) and .sat (0/1),
 * and a table t_op[rnd][ftz][sat] of the handlers. */
#define STAMP_RFS(H, op, ARGS) \
    H(op##_N00, op(ARGS, EMU_RND_N, 0, 0)) H(op##_N01, op(ARGS, EMU_RND_N, 0, 1)) \
    H(op##_N10, op(ARGS, EMU_RND_N, 1, 0)) H(op##_N11, op(ARGS, EMU_RND_N, 1, 1)) \
    H(op##_Z00, op(ARGS, EMU_RND_Z, 0, 0)) H(op##_Z01, op(ARGS, EMU_RND_Z, 0, 1)) \
    H(op##_Z10, op(ARGS, EMU_RND_Z, 1, 0)) H(op##_Z11, op(ARGS, EMU_RND_Z, 1, 1)) \
    H(op##_M00, op(ARGS, EMU_RND_M, 0, 0)) H(op##_M01, op(ARGS, EMU_RND_M, 0, 1)) \
    H(op##_M10, op(ARGS, EMU_RND_M, 1, 0)) H(op##_M11, op(ARGS, EMU_RND_M, 1, 1)) \
    H(op##_P00, op(ARGS, EMU_RND_P, 0, 0)) H(op##_P01, op(ARGS, EMU_RND_P, 0, 1)) \
    H(op##_P10, op(ARGS, EMU_RND_P, 1, 0)) H(op##_P11, op(ARGS, EMU_RND_P, 1, 1)) \
    static const emu_fn t_##op[4][2][2] = { \
        {{op##_N00, op##_N01}, {op##_N10, op##_N11}}, {{op##_Z00, op##_Z01}, {op##_Z10, op##_Z11}}, \
        {{op##_M00, op##_M01}, {op##_M10, op##_M11}}, {{op##_P00, op##_P01}, {op##_P10, op##_P11}}, \
    };
#define ARGS1 a
#define ARGS2 a, b
#define ARGS3 a, b, c

/* ---- f32 helpers -------------------------------------------------------------- */
#define SIGN32 0x80000000u
#define ONE32 0x3F800000u

static inline float fl(uint32_t b) { return emu_f32(b); }
static inline uint32_t canon32(uint32_t r) { return emu_pick32(emu_isnan32(r), EMU_NAN32, r); }

/* .sat: clamp to [0.0, 1.0]; NaN and negative results (-0 included) give +0. */
static inline uint32_t sat32(uint32_t r)
{
    uint32_t c = r > ONE32 ? ONE32 : r;
    uint32_t zero = emu_isnan32(r) | (r >> 31);         /* bitwise: no branch to vectorise */
    return c & (zero - 1u);
}

/* Result finishing common to f32 arithmetic: flush, clamp, canonical NaN. */
static inline uint32_t fin32(uint32_t r, int ftz, int sat)
{
    if (ftz)
        r = emu_ftz32(r);
    if (sat)
        r = sat32(r);
    return canon32(r);
}

static inline int finite64(double x) { return x - x == 0.0; }   /* false for inf and NaN */

/* Rounds an exact (or round-to-odd) double result to f32. With .ftz the GPU
 * flushes a result that is tiny after rounding to 24 bits with an unbounded
 * exponent (IEEE 754 tininess after rounding), so 2^-126 - 2^-150 flushes
 * although it would round to the smallest normal number in the format. */
static inline uint32_t round32(double x, int rnd, int ftz)
{
    uint32_t r = emu_f64_to_f32(x, rnd);
    if (ftz) {
        uint32_t tiny = 0u - (uint32_t)emu_tiny32(x, rnd);    /* a mask, not a branch */
        r = (r & ~tiny) | ((uint32_t)(emu_b64(x) >> 32) & SIGN32 & tiny);
    }
    return r;
}

/* Exact sum of two f32 values (or of an exact f32 product and an f32), rounded
 * to f32 in mode rnd: TwoSum in double, round to odd, round again. The sign
 * of an exact zero sum follows IEEE 754: -0 in .rm unless both terms are +0. */
static inline uint32_t sum32(double x, double y, uint32_t sx, uint32_t sy, int rnd, int ftz)
{
    double e, s = emu_two_sum(x, y, &e);
    double v = emu_round_odd(s, e);
    uint32_t r = round32(v, rnd, ftz);
    if (rnd == EMU_RND_M && s == 0.0)
        r = (sx | sy) & SIGN32;
    return r;
}

/* add/sub/mul/fma/div/rcp/sqrt .rnd{.ftz}{.sat}.f32 (PTX ISA "Floating Point
 * Instructions"). mul, div, rcp and sqrt need no error term: the product of
 * two f32 values is exact in double, and a double quotient or root that
 * lands on an f32 value is exact, so one directed rounding of it is right. */
static inline uint32_t f32_add(uint32_t a, uint32_t b, int rnd, int ftz, int sat)
{
    if (ftz) {
        a = emu_ftz32(a);
        b = emu_ftz32(b);
    }
    uint32_t r;
    if (rnd == EMU_RND_N)
        r = emu_b32(fl(a) + fl(b));
    else
        r = sum32(fl(a), fl(b), a, b, rnd, ftz);
    return fin32(r, ftz, sat);
}
static inline uint32_t f32_sub(uint32_t a, uint32_t b, int rnd, int ftz, int sat)
{
    return f32_add(a, b ^ SIGN32, rnd, ftz, sat);
}
static inline uint32_t f32_mul(uint32_t a, uint32_t b, int rnd, int ftz, int sat)
{
    if (ftz) {
        a = emu_ftz32(a);
        b = emu_ftz32(b);
    }
    uint32_t r;
    if (rnd == EMU_RND_N && !ftz)
        r = emu_b32(fl(a) * fl(b));
    else
        r = round32((double)fl(a) * (double)fl(b), rnd, ftz);
    return fin32(r, ftz, sat);
}
static inline uint32_t f32_fma(uint32_t a, uint32_t b, uint32_t c, int rnd, int ftz, int sat)
{
    if (ftz) {
        a = emu_ftz32(a);
        b = emu_ftz32(b);
        c = emu_ftz32(c);
    }
    uint32_t r;
#ifdef __FMA__
    if (rnd == EMU_RND_N && !ftz)
        r = emu_b32(fmaf(fl(a), fl(b), fl(c)));
    else
#endif
        r = sum32((double)fl(a) * (double)fl(b), fl(c), a ^ b, c, rnd, ftz);
    return fin32(r, ftz, sat);
}
static inline uint32_t f32_div(uint32_t a, uint32_t b, int rnd, int ftz, int sat)
{
    if (ftz) {
        a = emu_ftz32(a);
        b = emu_ftz32(b);
    }
    return fin32(round32((double)fl(a) / (double)fl(b), rnd, ftz), ftz, sat);
}
static inline uint32_t f32_rcp(uint32_t a, int rnd, int ftz, int sat)
{
    if (ftz)
        a = emu_ftz32(a);
    return fin32(round32(1.0 / (double)fl(a), rnd, ftz), ftz, sat);
}
static inline uint32_t f32_sqrt(uint32_t a, int rnd, int ftz, int sat)
{
    if (ftz)
        a = emu_ftz32(a);
    return fin32(round32(sqrt((double)fl(a)), rnd, ftz), ftz, sat);
}

/* fma.rn.f32 is among the most frequent instructions of real PTX. Built for
 * a baseline x86-64 (no FMA), the exact double path above costs a lot; when
 * the host has FMA, these variants (compiled for AVX2+FMA, chosen at decode
 * time) use the hardware: fmaf rounds exactly as the GPU does. .ftz keeps the
 * exact path, which its tininess test needs. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__FMA__)
#define FMA_HW 1
static inline __attribute__((always_inline)) uint32_t f32_fma_hw(uint32_t a, uint32_t b, uint32_t c, int sat)
{
    return fin32(emu_b32(__builtin_fmaf(fl(a), fl(b), fl(c))), 0, sat);
}
__attribute__((target("avx2,fma"))) EMU_STAMP32_3(h_fma_hw, f32_fma_hw(a, b, c, 0))
__attribute__((target("avx2,fma"))) EMU_STAMP32_3(h_fma_hw_sat, f32_fma_hw(a, b, c, 1))
static bool fma_hw(void)
{
    return __builtin_cpu_supports("fma") && __builtin_cpu_supports("avx2");
}
#endif

STAMP_RFS(EMU_STAMP32_2, f32_add, ARGS2)
STAMP_RFS(EMU_STAMP32_2, f32_sub, ARGS2)
STAMP_RFS(EMU_STAMP32_2, f32_mul, ARGS2)
STAMP_RFS(EMU_STAMP32_3, f32_fma, ARGS3)
STAMP_RFS(EMU_STAMP32_2, f32_div, ARGS2)
STAMP_RFS(EMU_STAMP32_1, f32_rcp, ARGS1)
STAMP_RFS(EMU_STAMP32_1, f32_sqrt, ARGS1)

/* ---- f32 approximate forms ------------------------------------------------------
 * sm_90 computes these on the multi-function unit (MUFU) with fix-up code
 * around it. Loom computes the correctly rounded value of the same formula
 * and copies the special cases and the scaling steps that decide them. */

/* rcp/sqrt/rsqrt .approx: without .ftz the GPU rescales subnormal inputs, so
 * the result is the plain value; with .ftz inputs and results are flushed. */
static inline uint32_t f32_rcp_approx(uint32_t a, int ftz)
{
    return f32_rcp(a, EMU_RND_N, ftz, 0);
}
static inline uint32_t f32_sqrt_approx(uint32_t a, int ftz)
{
    return f32_sqrt(a, EMU_RND_N, ftz, 0);
}
static inline uint32_t f32_rsqrt_approx(uint32_t a, int ftz)
{
    if (ftz)
        a = emu_ftz32(a);
    return fin32(emu_f64_to_f32(1.0 / sqrt((double)fl(a)), EMU_RND_N), ftz, 0);
}

/* div.approx computes a * (1/b): for |b| > 2^126 the reciprocal is subnormal
 * and the unit flushes it, so the result is a signed zero (NaN for an
 * infinite a). Elsewhere it is a/b to within 2 ulp. */
static inline uint32_t f32_div_approx(uint32_t a, uint32_t b, int ftz)
{
    if (ftz) {
        a = emu_ftz32(a);
        b = emu_ftz32(b);
    }
    uint32_t r = round32((double)fl(a) / (double)fl(b), EMU_RND_N, ftz);
    uint32_t big = (b & 0x7FFFFFFFu) > 0x7E800000u && !emu_isnan32(b);
    uint32_t zero = (a & 0x7F800000u) == 0x7F800000u ? EMU_NAN32 : (a ^ b) & SIGN32;
    return fin32(big ? zero : r, ftz, 0);
}
/* div.full scales huge divisors first and is a/b to within 2 ulp everywhere. */
static inline uint32_t f32_div_full(uint32_t a, uint32_t b, int ftz)
{
    return f32_div(a, b, EMU_RND_N, ftz, 0);
}

/* sin/cos .approx: the GPU multiplies by 1/(2 pi) rounding toward zero and
 * takes the sine or cosine of that many turns (flushing a subnormal count).
 * Loom does the same multiplication, then evaluates sin/cos(2 pi t) in double:
 * t minus the nearest integer, a quarter-turn quadrant, and Taylor series on
 * |u| <= pi/4 (error below 1e-13). Inputs of 2^23 turns or more are whole. */
static inline double sin_poly(double u)
{
    double u2 = u * u;
    return u * (1.0 + u2 * (-1.0 / 6 + u2 * (1.0 / 120 + u2 * (-1.0 / 5040 + u2 * (1.0 / 362880 +
           u2 * (-1.0 / 39916800 + u2 * (1.0 / 6227020800.0)))))));
}
static inline double cos_poly(double u)
{
    double u2 = u * u;
    return 1.0 + u2 * (-0.5 + u2 * (1.0 / 24 + u2 * (-1.0 / 720 + u2 * (1.0 / 40320 + u2 * (-1.0 / 3628800 +
           u2 * (1.0 / 479001600 + u2 * (-1.0 / 87178291200.0)))))));
}
static inline __attribute__((always_inline)) uint32_t f32_sincos(uint32_t a, int cosine)
{
    /* The product is exact in double; clearing 29 bits rounds it toward zero to
     * 24 bits; exponent tests on the top word flush tiny counts (integer work,
     * so the loop vectorises). */
    double p = (double)fl(a) * (double)fl(0x3E22F983u);
    uint64_t pb = emu_b64(p) & ~0x1FFFFFFFull;
    uint32_t ex = (uint32_t)(pb >> 52) & 0x7FFu;
    uint64_t tiny = (uint64_t)0 - (uint64_t)(ex < 1023u - 126u);
    double t = emu_f64(pb & (~tiny | 0x8000000000000000ull));
    double k = (t + 0x1.8p52) - 0x1.8p52;                   /* nearest integer, |t| < 2^23 */
    uint64_t whole = ex >= 1023u + 23u;                      /* |t| >= 2^23: integral (or inf/NaN) */
    double f = emu_pickd(whole, 0.0 * t, t - k);            /* in [-1/2, 1/2]; NaN for inf */
    double y = 4.0 * f;
    double q = (y + 0x1.8p52) - 0x1.8p52;                   /* quadrant -2..2 */
    double u = (y - q) * 1.5707963267948966;
    uint64_t quad = (emu_b64(q + 0x1.8p52) + (cosine ? 1u : 0u)) & 3u;
    double s = sin_poly(u), co = cos_poly(u);
    double v = emu_pickd(quad & 1u, co, s);
    v = emu_pickd((quad >> 1) & 1u, -v, v);
    return canon32(emu_f64_to_f32(v, EMU_RND_N));
}

/* ex2.approx: 2^x as 2^k * 2^f with |f| <= 1/2 (Taylor series of e^(f ln 2),
 * error below 1e-15); with .ftz the unit flushes subnormal inputs (2^0) and
 * results, without it the GPU builds subnormal results by squaring. */
static inline double exp2_small(double f)
{
    double g = f * 0.6931471805599453;
    double p = 1.0 / 479001600;
    p = 1.0 / 39916800 + g * p;
    p = 1.0 / 3628800 + g * p;
    p = 1.0 / 362880 + g * p;
    p = 1.0 / 40320 + g * p;
    p = 1.0 / 5040 + g * p;
    p = 1.0 / 720 + g * p;
    p = 1.0 / 120 + g * p;
    p = 1.0 / 24 + g * p;
    p = 1.0 / 6 + g * p;
    p = 0.5 + g * p;
    p = 1.0 + g * p;
    return 1.0 + g * p;
}
static inline double exp2_d(double x)          /* |x| <= 300 */
{
    double kb = x + 0x1.8p52;                                /* k in its low bits */
    double k = kb - 0x1.8p52;
    uint64_t scale = (emu_b64(kb) - 0x4338000000000000ull + 1023u) << 52;
    return exp2_small(x - k) * emu_f64(scale);
}
static inline uint32_t f32_ex2(uint32_t a, int ftz)
{
    if (ftz)
        a = emu_ftz32(a);
    /* Clamp to +-300 in f32 bits (infinities too): integer compares vectorise. */
    uint32_t ac = emu_pick32((a & 0x7FFFFFFFu) > 0x43960000u, (a & SIGN32) | 0x43960000u, a);
    uint32_t r = fin32(round32(exp2_d(fl(ac)), EMU_RND_N, ftz), ftz, 0);
    return emu_pick32(emu_isnan32(a), EMU_NAN32, r);
}

/* lg2.approx: log2 x = k + log2 m with m in [sqrt(1/2), sqrt(2)), from the
 * series 2 atanh(s), s = (m-1)/(m+1), |s| < 0.172 (error below 1e-13).
 * Zero (or a flushed subnormal) gives -inf, negative numbers NaN. */
static inline double log2_d(double x)
{
    uint64_t xb = emu_b64(x);
    uint32_t top = (uint32_t)(xb >> 32);                  /* 32-bit work: SSE2 has no 64-bit compare */
    uint32_t hi = (top & 0xFFFFFu) > 0x6A09Eu;            /* mantissa above sqrt(2) */
    int32_t k = (int32_t)((top >> 20) & 0x7FFu) - 1023 + (int32_t)hi;
    double mm = emu_f64((xb & 0x000FFFFFFFFFFFFFull) | ((uint64_t)(1023u - hi) << 52));
    double s = (mm - 1.0) / (mm + 1.0), s2 = s * s;
    double p = 1.0 / 15;
    p = 1.0 / 13 + s2 * p;
    p = 1.0 / 11 + s2 * p;
    p = 1.0 / 9 + s2 * p;
    p = 1.0 / 7 + s2 * p;
    p = 1.0 / 5 + s2 * p;
    p = 1.0 / 3 + s2 * p;
    p = 1.0 + s2 * p;
    return (double)k + 2.0 * s * p * 1.4426950408889634;
}
static inline uint32_t f32_lg2(uint32_t a, int ftz)
{
    if (ftz)
        a = emu_ftz32(a);
    uint32_t r = emu_f64_to_f32(log2_d(fl(a)), EMU_RND_N);
    r = emu_pick32((a & 0x7FFFFFFFu) == 0x7F800000u, a, r);    /* +inf (-inf: NaN below) */
    r = emu_pick32(a >> 31, EMU_NAN32, r);
    r = emu_pick32((a & 0x7FFFFFFFu) == 0, 0xFF800000u, r);    /* +-0 -> -inf */
    return canon32(emu_pick32(emu_isnan32(a), EMU_NAN32, r));
}

/* tanh.approx.f32 (relative error 2^-11 on the GPU; subnormals pass through). */
static inline uint32_t f32_tanh(uint32_t a)
{
    return canon32(emu_f64_to_f32(tanh((double)fl(a)), EMU_RND_N));
}

EMU_STAMP32_1(h_rcp_approx, f32_rcp_approx(a, 0))
EMU_STAMP32_1(h_rcp_approx_ftz, f32_rcp_approx(a, 1))
EMU_STAMP32_1(h_sqrt_approx, f32_sqrt_approx(a, 0))
EMU_STAMP32_1(h_sqrt_approx_ftz, f32_sqrt_approx(a, 1))
EMU_STAMP32_1(h_rsqrt_approx, f32_rsqrt_approx(a, 0))
EMU_STAMP32_1(h_rsqrt_approx_ftz, f32_rsqrt_approx(a, 1))
EMU_STAMP32_2(h_div_approx, f32_div_approx(a, b, 0))
EMU_STAMP32_2(h_div_approx_ftz, f32_div_approx(a, b, 1))
EMU_STAMP32_2(h_div_full, f32_div_full(a, b, 0))
EMU_STAMP32_2(h_div_full_ftz, f32_div_full(a, b, 1))
EMU_STAMP32_1(h_sin, f32_sincos(a, 0))
EMU_STAMP32_1(h_cos, f32_sincos(a, 1))
EMU_STAMP32_1(h_ex2, f32_ex2(a, 0))
EMU_STAMP32_1(h_ex2_ftz, f32_ex2(a, 1))
EMU_STAMP32_1(h_lg2, f32_lg2(a, 0))
EMU_STAMP32_1(h_lg2_ftz, f32_lg2(a, 1))
EMU_STAMP32_1(h_tanh, f32_tanh(a))

/* ---- f32 min/max, abs/neg, copysign ---------------------------------------------
 * min/max order -0 below +0 and return the other operand when one is NaN
 * (canonical NaN when both are, or when either is with .NaN). .xorsign.abs
 * compares magnitudes and gives the result the XOR of the input signs. */
static inline uint32_t key32(uint32_t x) { return (x & SIGN32) ? ~x : x | SIGN32; }
static inline uint32_t f32_minmax(uint32_t a, uint32_t b, int max, int ftz, int nan, int xs)
{
    if (ftz) {
        a = emu_ftz32(a);
        b = emu_ftz32(b);
    }
    uint32_t sign = (a ^ b) & SIGN32;
    if (xs) {
        a &= 0x7FFFFFFFu;
        b &= 0x7FFFFFFFu;
    }
    uint32_t na = emu_isnan32(a), nb = emu_isnan32(b);
    uint32_t pick_a = max ? key32(a) > key32(b) : key32(a) < key32(b);
    uint32_t r = pick_a ? a : b;
    r = nb ? a : r;
    r = na ? b : r;
    if (nan)
        r = (na | nb) ? EMU_NAN32 : r;
    r = (na & nb) ? EMU_NAN32 : r;
    if (xs)
        r = emu_isnan32(r) ? r : (r | sign);
    return r;
}
#define STAMP_MM(op, max) \
    EMU_STAMP32_2(op##_000, f32_minmax(a, b, max, 0, 0, 0)) EMU_STAMP32_2(op##_001, f32_minmax(a, b, max, 0, 0, 1)) \
    EMU_STAMP32_2(op##_010, f32_minmax(a, b, max, 0, 1, 0)) EMU_STAMP32_2(op##_011, f32_minmax(a, b, max, 0, 1, 1)) \
    EMU_STAMP32_2(op##_100, f32_minmax(a, b, max, 1, 0, 0)) EMU_STAMP32_2(op##_101, f32_minmax(a, b, max, 1, 0, 1)) \
    EMU_STAMP32_2(op##_110, f32_minmax(a, b, max, 1, 1, 0)) EMU_STAMP32_2(op##_111, f32_minmax(a, b, max, 1, 1, 1)) \
    static const emu_fn t_##op[2][2][2] = { {{op##_000, op##_001}, {op##_010, op##_011}}, \
                                            {{op##_100, op##_101}, {op##_110, op##_111}} };
STAMP_MM(f32_min, 0)
STAMP_MM(f32_max, 1)

/* abs/neg.f32 run as an addition of -0 on sm_90: NaN becomes the canonical
 * NaN and .ftz flushes. copysign is a pure bit operation: d = b with a's sign. */
static inline uint32_t f32_absneg(uint32_t a, int neg, int ftz)
{
    if (ftz)
        a = emu_ftz32(a);
    a = neg ? a ^ SIGN32 : a & 0x7FFFFFFFu;
    return canon32(a);
}
EMU_STAMP32_1(h_abs32, f32_absneg(a, 0, 0))
EMU_STAMP32_1(h_abs32_ftz, f32_absneg(a, 0, 1))
EMU_STAMP32_1(h_neg32, f32_absneg(a, 1, 0))
EMU_STAMP32_1(h_neg32_ftz, f32_absneg(a, 1, 1))
EMU_STAMP32_2(h_copysign32, (b & 0x7FFFFFFFu) | (a & SIGN32))

/* ---- f64 ------------------------------------------------------------------------
 * f64 arithmetic keeps NaN payloads (PTX ISA "Floating-Point Instructions"):
 * the result is a quieted input NaN, chosen as sm_90 does it (the second
 * source of add/sub/mul/min/max, the first of div, then b, c, a for fma),
 * and invalid operations give the negative default NaN. Which source counts
 * as the second is ptxas's choice: the one defined later in the program
 * (the selectors order them through emu_codegen.c). */
#define SIGN64 0x8000000000000000ull
#define QNAN64 0x0008000000000000ull
#define DNAN64 0xFFF8000000000000ull
static inline double fd(uint64_t b) { return emu_f64(b); }
static inline uint64_t isnan64(uint64_t b) { return (b & ~SIGN64) > 0x7FF0000000000000ull; }

/* r unless it is NaN; then the first NaN among p, q, s (quieted), else the default NaN. */
static inline uint64_t nan64(uint64_t r, uint64_t p, uint64_t q, uint64_t s)
{
    uint64_t n = DNAN64;
    n = isnan64(s) ? s | QNAN64 : n;
    n = isnan64(q) ? q | QNAN64 : n;
    n = isnan64(p) ? p | QNAN64 : n;
    return isnan64(r) ? n : r;
}

static inline uint64_t f64_add_rn(uint64_t a, uint64_t b) { return nan64(emu_b64(fd(a) + fd(b)), b, a, a); }
static inline uint64_t f64_sub_rn(uint64_t a, uint64_t b) { return nan64(emu_b64(fd(a) - fd(b)), b, a, a); }
static inline uint64_t f64_mul_rn(uint64_t a, uint64_t b) { return nan64(emu_b64(fd(a) * fd(b)), b, a, a); }
static inline uint64_t f64_div_rn(uint64_t a, uint64_t b) { return nan64(emu_b64(fd(a) / fd(b)), a, b, b); }
static inline uint64_t f64_rcp_rn(uint64_t a) { return nan64(emu_b64(1.0 / fd(a)), a, a, a); }
static inline uint64_t f64_sqrt_rn(uint64_t a) { return nan64(emu_b64(sqrt(fd(a))), a, a, a); }
static inline uint64_t f64_fma_rn(uint64_t a, uint64_t b, uint64_t c)
{
    return nan64(emu_b64(fma(fd(a), fd(b), fd(c))), b, c, a);
}
EMU_STAMP64_2(h_add64, f64_add_rn(a, b))
EMU_STAMP64_2(h_sub64, f64_sub_rn(a, b))
EMU_STAMP64_2(h_mul64, f64_mul_rn(a, b))
EMU_STAMP64_2(h_div64, f64_div_rn(a, b))
EMU_STAMP64_1(h_rcp64, f64_rcp_rn(a))
EMU_STAMP64_1(h_sqrt64, f64_sqrt_rn(a))
EMU_STAMP64_3(h_fma64, f64_fma_rn(a, b, c))

/* add/sub .rz/.rm/.rp.f64 from TwoSum: s = RN(a+b) moves one ulp toward the
 * exact sum when the error term says the mode wants the other neighbour. */
static inline uint64_t f64_add_dir(uint64_t a, uint64_t b, int rnd)
{
    double e, s = emu_two_sum(fd(a), fd(b), &e);
    uint64_t sb = emu_b64(s), neg = sb >> 63;
    if (!finite64(s)) {
        uint64_t ovf = !isnan64(sb) && finite64(fd(a)) && finite64(fd(b));
        uint64_t to_max = rnd == EMU_RND_Z || (rnd == EMU_RND_M && !neg) || (rnd == EMU_RND_P && neg);
        return nan64((ovf && to_max) ? sb - 1 : sb, b, a, a);
    }
    if (s == 0.0)
        return rnd == EMU_RND_M ? (a | b) & SIGN64 : sb;
    uint64_t eneg = emu_b64(e) >> 63, inexact = e != 0.0;
    uint64_t shrink, grow;                  /* one ulp toward zero / away from zero */
    if (rnd == EMU_RND_Z) {
        shrink = inexact & (eneg ^ neg);
        grow = 0;
    } else if (rnd == EMU_RND_M) {
        shrink = inexact & eneg & !neg;
        grow = inexact & eneg & neg;
    } else {
        shrink = inexact & !eneg & neg;
        grow = inexact & !eneg & !neg;
    }
    return sb + grow - shrink;
}
static inline uint64_t f64_sub_dir(uint64_t a, uint64_t b, int rnd)
{
    return isnan64(b) ? nan64(b, b, b, b) : f64_add_dir(a, b ^ SIGN64, rnd);
}
EMU_STAMP64_2(h_add64_rz, f64_add_dir(a, b, EMU_RND_Z))
EMU_STAMP64_2(h_add64_rm, f64_add_dir(a, b, EMU_RND_M))
EMU_STAMP64_2(h_add64_rp, f64_add_dir(a, b, EMU_RND_P))
EMU_STAMP64_2(h_sub64_rz, f64_sub_dir(a, b, EMU_RND_Z))
EMU_STAMP64_2(h_sub64_rm, f64_sub_dir(a, b, EMU_RND_M))
EMU_STAMP64_2(h_sub64_rp, f64_sub_dir(a, b, EMU_RND_P))
/* sub whose a was defined after b (emu_codegen.c): a's NaN comes first. */
EMU_STAMP64_2(h_sub64_afirst, nan64(emu_b64(fd(a) - fd(b)), a, b, b))
EMU_STAMP64_2(h_sub64_afirst_rz, isnan64(a) ? a | QNAN64 : f64_sub_dir(a, b, EMU_RND_Z))
EMU_STAMP64_2(h_sub64_afirst_rm, isnan64(a) ? a | QNAN64 : f64_sub_dir(a, b, EMU_RND_M))
EMU_STAMP64_2(h_sub64_afirst_rp, isnan64(a) ? a | QNAN64 : f64_sub_dir(a, b, EMU_RND_P))

/* mul/fma/div/rcp/sqrt with .rz/.rm/.rp.f64: exact error terms of products
 * and quotients fail in the subnormal range, so these rare forms switch the
 * host's rounding mode around a scalar lane loop (fesetround), restoring it
 * before returning. Values live in memory across the calls, so the compiler
 * cannot move the arithmetic out of the window. */
enum { D_MUL, D_DIV, D_FMA, D_RCP, D_SQRT };
static int f64_directed(struct emu_warp *w, const struct emu_inst *in, emu_mask m, int op, int mode)
{
    uint64_t *d = w->r64[in->d];
    const uint64_t *ra = w->r64[in->a], *rb = w->r64[in->b], *rc = w->r64[in->c];
    uint64_t out[EMU_WARP_SIZE];
    int old = fegetround();
    fesetround(mode);
    for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
        uint64_t a = ra[l], b = rb[l], c = rc[l];
        switch (op) {
        case D_MUL: out[l] = f64_mul_rn(a, b); break;
        case D_DIV: out[l] = f64_div_rn(a, b); break;
        case D_FMA: out[l] = f64_fma_rn(a, b, c); break;
        case D_RCP: out[l] = f64_rcp_rn(a); break;
        default: out[l] = f64_sqrt_rn(a); break;
        }
    }
    fesetround(old);
    EMU_EACH(l) EMU_PUT64(d, m, l, out[l]);
    return EMU_CONTINUE;
}
#define DIRECTED(name, op, mode) \
    static int name(struct emu_warp *w, const struct emu_inst *in, emu_mask m) \
    { \
        return f64_directed(w, in, m, op, mode); \
    }
DIRECTED(h_mul64_rz, D_MUL, FE_TOWARDZERO)
DIRECTED(h_mul64_rm, D_MUL, FE_DOWNWARD)
DIRECTED(h_mul64_rp, D_MUL, FE_UPWARD)
DIRECTED(h_div64_rz, D_DIV, FE_TOWARDZERO)
DIRECTED(h_div64_rm, D_DIV, FE_DOWNWARD)
DIRECTED(h_div64_rp, D_DIV, FE_UPWARD)
DIRECTED(h_fma64_rz, D_FMA, FE_TOWARDZERO)
DIRECTED(h_fma64_rm, D_FMA, FE_DOWNWARD)
DIRECTED(h_fma64_rp, D_FMA, FE_UPWARD)
DIRECTED(h_rcp64_rz, D_RCP, FE_TOWARDZERO)
DIRECTED(h_rcp64_rm, D_RCP, FE_DOWNWARD)
DIRECTED(h_rcp64_rp, D_RCP, FE_UPWARD)
DIRECTED(h_sqrt64_rz, D_SQRT, FE_TOWARDZERO)
DIRECTED(h_sqrt64_rm, D_SQRT, FE_DOWNWARD)
DIRECTED(h_sqrt64_rp, D_SQRT, FE_UPWARD)

static const emu_fn t_add64[4] = {h_add64, h_add64_rz, h_add64_rm, h_add64_rp};
static const emu_fn t_sub64[4] = {h_sub64, h_sub64_rz, h_sub64_rm, h_sub64_rp};
static const emu_fn t_sub64_afirst[4] = {h_sub64_afirst, h_sub64_afirst_rz, h_sub64_afirst_rm, h_sub64_afirst_rp};
static const emu_fn t_mul64[4] = {h_mul64, h_mul64_rz, h_mul64_rm, h_mul64_rp};
static const emu_fn t_div64[4] = {h_div64, h_div64_rz, h_div64_rm, h_div64_rp};
static const emu_fn t_fma64[4] = {h_fma64, h_fma64_rz, h_fma64_rm, h_fma64_rp};
static const emu_fn t_rcp64[4] = {h_rcp64, h_rcp64_rz, h_rcp64_rm, h_rcp64_rp};
static const emu_fn t_sqrt64[4] = {h_sqrt64, h_sqrt64_rz, h_sqrt64_rm, h_sqrt64_rp};

/* min/max.f64: one NaN gives the other operand, two give b quieted; -0 < +0.
 * abs/neg.f64 pass a NaN through quieted, sign untouched. */
static inline uint64_t key64(uint64_t x) { return (x & SIGN64) ? ~x : x | SIGN64; }
static inline uint64_t f64_minmax(uint64_t a, uint64_t b, int max)
{
    uint64_t pick_a = max ? key64(a) > key64(b) : key64(a) < key64(b);
    uint64_t r = pick_a ? a : b;
    r = isnan64(b) ? a : r;
    r = isnan64(a) ? b : r;
    return (isnan64(a) && isnan64(b)) ? b | QNAN64 : r;
}
EMU_STAMP64_2(h_min64, f64_minmax(a, b, 0))
EMU_STAMP64_2(h_max64, f64_minmax(a, b, 1))
EMU_STAMP64_1(h_abs64, isnan64(a) ? a | QNAN64 : a & ~SIGN64)
EMU_STAMP64_1(h_neg64, isnan64(a) ? a | QNAN64 : a ^ SIGN64)
EMU_STAMP64_2(h_copysign64, (b & ~SIGN64) | (a & SIGN64))

/* rsqrt.approx.f64 refines the unit's estimate with a Newton step in double;
 * Loom gives 1/sqrt(a) rounded twice (well within that step's error). */
EMU_STAMP64_1(h_rsqrt64, nan64(emu_b64(1.0 / sqrt(fd(a))), a, a, a))

/* rcp.approx.ftz.f64 and rsqrt.approx.ftz.f64 read only the upper 32 bits of
 * a (sign, exponent, 20 fraction bits), flush subnormals to zero, and return
 * an estimate in the same 1.11.20 form with the low word zero; NaN inputs
 * (and negative rsqrt inputs) give the canonical 0x7FFFFFFF00000000. */
static inline uint64_t hi_word_result(double v)
{
    uint64_t vb = emu_b64(v);
    vb = ((vb & 0x7FF0000000000000ull) == 0) ? vb & SIGN64 : vb;   /* flush subnormal results */
    uint64_t r = (vb + 0x80000000ull) & 0xFFFFFFFF00000000ull;      /* nearest 1.11.20 value */
    return ((vb & 0x7FF0000000000000ull) == 0x7FF0000000000000ull) ? vb & 0xFFFFFFFF00000000ull : r;
}
static inline uint64_t f64_rcp_approx_ftz(uint64_t a)
{
    uint64_t x = a & 0xFFFFFFFF00000000ull;
    x = ((x & 0x7FF0000000000000ull) == 0) ? x & SIGN64 : x;
    uint64_t r = hi_word_result(1.0 / fd(x));
    return isnan64(x) ? 0x7FFFFFFF00000000ull : r;
}
static inline uint64_t f64_rsqrt_approx_ftz(uint64_t a)
{
    uint64_t x = a & 0xFFFFFFFF00000000ull;
    x = ((x & 0x7FF0000000000000ull) == 0) ? x & SIGN64 : x;
    uint64_t r = hi_word_result(1.0 / sqrt(fd(x)));
    uint64_t bad = isnan64(x) || ((x & SIGN64) && (x & ~SIGN64));
    return bad ? 0x7FFFFFFF00000000ull : r;
}
EMU_STAMP64_1(h_rcp64_approx_ftz, f64_rcp_approx_ftz(a))
EMU_STAMP64_1(h_rsqrt64_approx_ftz, f64_rsqrt_approx_ftz(a))

/* ---- testp ------------------------------------------------------------------------
 * Writes a predicate: one bit per lane from the class of the f32/f64 value.
 * Zero counts as normal (PTX ISA "testp"). */
enum { TP_FINITE, TP_INFINITE, TP_NUMBER, TP_NAN, TP_NORMAL, TP_SUBNORMAL };
static inline uint32_t class_test(uint32_t exp_all, uint32_t exp_zero, uint32_t frac_zero, int what)
{
    switch (what) {
    case TP_FINITE: return !exp_all;
    case TP_INFINITE: return exp_all && frac_zero;
    case TP_NUMBER: return !(exp_all && !frac_zero);
    case TP_NAN: return exp_all && !frac_zero;
    case TP_NORMAL: return !exp_all && (!exp_zero || frac_zero);
    default: return exp_zero && !frac_zero;
    }
}
static int testp32(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    const uint32_t *ra = w->r32[in->a];
    emu_mask bits = 0;
    for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
        uint32_t x = ra[l], e = x & 0x7F800000u;
        bits |= (emu_mask)class_test(e == 0x7F800000u, e == 0, (x & 0x7FFFFFu) == 0, in->sub) << l;
    }
    emu_pred_put(w, in->d, m, bits);
    return EMU_CONTINUE;
}
static int testp64(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    const uint64_t *ra = w->r64[in->a];
    emu_mask bits = 0;
    for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
        uint64_t x = ra[l], e = x & 0x7FF0000000000000ull;
        bits |= (emu_mask)class_test(e == 0x7FF0000000000000ull, e == 0,
                                     (x & 0x000FFFFFFFFFFFFFull) == 0, in->sub) << l;
    }
    emu_pred_put(w, in->d, m, bits);
    return EMU_CONTINUE;
}

/* ---- Selection ------------------------------------------------------------------ */
static int rnd_index(enum ptx_mod r)
{
    switch (r) {
    case PTX_MOD_RN: return EMU_RND_N;
    case PTX_MOD_RZ: return EMU_RND_Z;
    case PTX_MOD_RM: return EMU_RND_M;
    case PTX_MOD_RP: return EMU_RND_P;
    default: return -1;
    }
}

/* Fills the operand rows: d, then nsrc sources of type t. */
static enum emu_sel operands(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out,
                             enum ptx_type t, unsigned nsrc)
{
    if (pi->nops != nsrc + 1)
        return emu_dec_unsupported(dc, "unexpected number of operands");
    out->d = emu_dec_dst(dc, &pi->ops[0], t);
    uint16_t *src[3] = {&out->a, &out->b, &out->c};
    for (unsigned i = 0; i < nsrc; i++)
        *src[i] = emu_dec_src(dc, &pi->ops[1 + i], t);
    return EMU_SEL_OK;
}

static enum emu_sel pick(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out,
                         enum ptx_type t, unsigned nsrc, emu_fn fn)
{
    out->fn = fn;
    return operands(dc, pi, out, t, nsrc);
}

/* The f32 fma.rn handler for .ftz/.sat: the host's FMA unit where it has one. */
static emu_fn f32_fma_rn(int ftz, int sat)
{
#ifdef FMA_HW
    if (!ftz && fma_hw())
        return sat ? h_fma_hw_sat : h_fma_hw;
#endif
    return t_f32_fma[EMU_RND_N][ftz][sat];
}

static enum emu_sel sel_f32(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out)
{
    uint32_t fl_ = pi->flags;
    int ftz = !!(fl_ & PTX_IF_FTZ), sat = !!(fl_ & PTX_IF_SAT), approx = !!(fl_ & PTX_IF_APPROX);
    int r = rnd_index(pi->round);
    const enum ptx_type t = PTX_T_F32;
    if (pi->round != PTX_MOD_NONE_ && r < 0)
        return emu_dec_unsupported(dc, "rounding modifier not defined for f32 arithmetic");
    if (sat && pi->op != PTX_OP_ADD && pi->op != PTX_OP_SUB && pi->op != PTX_OP_MUL &&
        pi->op != PTX_OP_FMA && pi->op != PTX_OP_MAD)
        return emu_dec_unsupported(dc, ".sat not defined for this f32 instruction");
    const emu_fn fma2[2] = {f32_fma_rn(ftz, 0), f32_fma_rn(ftz, 1)};
    if (r < 0 && (pi->op == PTX_OP_ADD || pi->op == PTX_OP_SUB || pi->op == PTX_OP_MUL) &&
        emu_dec_contracted(dc, pi, out, t, fma2))
        return EMU_SEL_OK;          /* fused by ptxas with a mul / an add (emu_codegen.c) */
    switch (pi->op) {
    case PTX_OP_ADD: return pick(dc, pi, out, t, 2, t_f32_add[r < 0 ? 0 : r][ftz][sat]);
    case PTX_OP_SUB: return pick(dc, pi, out, t, 2, t_f32_sub[r < 0 ? 0 : r][ftz][sat]);
    case PTX_OP_MUL: return pick(dc, pi, out, t, 2, t_f32_mul[r < 0 ? 0 : r][ftz][sat]);
    case PTX_OP_FMA:
    case PTX_OP_MAD:
        /* mad.f32 without rounding: sm_20+ runs it as fma.rn (PTX ISA "mad"). */
        if (r < 0 && pi->op == PTX_OP_FMA)
            return emu_dec_unsupported(dc, "fma.f32 requires a rounding modifier");
        if (r <= EMU_RND_N)
            return pick(dc, pi, out, t, 3, f32_fma_rn(ftz, sat));
        return pick(dc, pi, out, t, 3, t_f32_fma[r][ftz][sat]);
    case PTX_OP_DIV:
        if (fl_ & PTX_IF_FULL)
            return pick(dc, pi, out, t, 2, ftz ? h_div_full_ftz : h_div_full);
        if (approx || r < 0)            /* before PTX 1.4: div.f32 meant div.approx.ftz */
            return pick(dc, pi, out, t, 2, (ftz || !approx) ? h_div_approx_ftz : h_div_approx);
        return pick(dc, pi, out, t, 2, t_f32_div[r][ftz][0]);
    case PTX_OP_RCP:
        if (approx || r < 0)
            return pick(dc, pi, out, t, 1, (ftz || !approx) ? h_rcp_approx_ftz : h_rcp_approx);
        return pick(dc, pi, out, t, 1, t_f32_rcp[r][ftz][0]);
    case PTX_OP_SQRT:
        if (approx || r < 0)
            return pick(dc, pi, out, t, 1, (ftz || !approx) ? h_sqrt_approx_ftz : h_sqrt_approx);
        return pick(dc, pi, out, t, 1, t_f32_sqrt[r][ftz][0]);
    case PTX_OP_RSQRT:
        return pick(dc, pi, out, t, 1, (ftz || !approx) ? h_rsqrt_approx_ftz : h_rsqrt_approx);
    case PTX_OP_SIN: return pick(dc, pi, out, t, 1, h_sin);
    case PTX_OP_COS: return pick(dc, pi, out, t, 1, h_cos);
    case PTX_OP_EX2: return pick(dc, pi, out, t, 1, (ftz || !approx) ? h_ex2_ftz : h_ex2);
    case PTX_OP_LG2: return pick(dc, pi, out, t, 1, (ftz || !approx) ? h_lg2_ftz : h_lg2);
    case PTX_OP_TANH: return pick(dc, pi, out, t, 1, h_tanh);
    case PTX_OP_MIN:
    case PTX_OP_MAX: {
        int nan = !!(fl_ & PTX_IF_NAN), xs = !!(fl_ & PTX_IF_XORSIGN);
        if (!!(fl_ & PTX_IF_ABS) != xs)
            return emu_dec_unsupported(dc, ".abs without .xorsign (three-input min/max) is sm_100");
        if (pi->nops == 4)
            return emu_dec_unsupported(dc, "three-input min/max requires sm_100");
        const emu_fn (*tab)[2][2] = pi->op == PTX_OP_MIN ? t_f32_min : t_f32_max;
        return pick(dc, pi, out, t, 2, tab[ftz][nan][xs]);
    }
    case PTX_OP_ABS: return pick(dc, pi, out, t, 1, ftz ? h_abs32_ftz : h_abs32);
    case PTX_OP_NEG: return pick(dc, pi, out, t, 1, ftz ? h_neg32_ftz : h_neg32);
    case PTX_OP_COPYSIGN: return pick(dc, pi, out, t, 2, h_copysign32);
    default: return EMU_SEL_NO;
    }
}

/* f64 add/mul/min/max and the multiplicands of fma commute: their handlers take
 * a NaN from b before a, so the operand defined later goes to b (emu_codegen.c). */
static enum emu_sel pick_nan_order(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out,
                                   unsigned nsrc, emu_fn fn)
{
    enum emu_sel r = pick(dc, pi, out, PTX_T_F64, nsrc, fn);
    if (r == EMU_SEL_OK && emu_dec_defined_later(dc, pi, &pi->ops[1], &pi->ops[2])) {
        uint16_t a = out->a;
        out->a = out->b;
        out->b = a;
    }
    return r;
}

static enum emu_sel sel_f64(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out)
{
    uint32_t fl_ = pi->flags;
    int r = rnd_index(pi->round), approx = !!(fl_ & PTX_IF_APPROX), ftz = !!(fl_ & PTX_IF_FTZ);
    const enum ptx_type t = PTX_T_F64;
    if (pi->round != PTX_MOD_NONE_ && r < 0)
        return emu_dec_unsupported(dc, "rounding modifier not defined for f64 arithmetic");
    if ((fl_ & PTX_IF_SAT) || (ftz && !approx))
        return emu_dec_unsupported(dc, ".ftz/.sat are not defined for this f64 instruction");
    int ri = r < 0 ? 0 : r;                 /* f64 default rounding (PTX 1.x) is .rn */
    const emu_fn fma2[2] = {t_fma64[EMU_RND_N], t_fma64[EMU_RND_N]};
    if (r < 0 && (pi->op == PTX_OP_ADD || pi->op == PTX_OP_SUB || pi->op == PTX_OP_MUL) &&
        emu_dec_contracted(dc, pi, out, t, fma2))
        return EMU_SEL_OK;          /* fused by ptxas with a mul / an add (emu_codegen.c) */
    switch (pi->op) {
    case PTX_OP_ADD: return pick_nan_order(dc, pi, out, 2, t_add64[ri]);
    case PTX_OP_SUB:
        if (pi->nops == 3 && emu_dec_defined_later(dc, pi, &pi->ops[1], &pi->ops[2]))
            return pick(dc, pi, out, t, 2, t_sub64_afirst[ri]);
        return pick(dc, pi, out, t, 2, t_sub64[ri]);
    case PTX_OP_MUL: return pick_nan_order(dc, pi, out, 2, t_mul64[ri]);
    case PTX_OP_FMA: case PTX_OP_MAD: return pick_nan_order(dc, pi, out, 3, t_fma64[ri]);
    case PTX_OP_DIV: return pick(dc, pi, out, t, 2, t_div64[ri]);
    case PTX_OP_RCP:
        if (approx)
            return ftz ? pick(dc, pi, out, t, 1, h_rcp64_approx_ftz)
                       : emu_dec_unsupported(dc, "rcp.approx.f64 requires .ftz");
        return pick(dc, pi, out, t, 1, t_rcp64[ri]);
    case PTX_OP_SQRT:
        if (approx)
            return emu_dec_unsupported(dc, "sqrt.approx is f32 only");
        return pick(dc, pi, out, t, 1, t_sqrt64[ri]);
    case PTX_OP_RSQRT:
        return pick(dc, pi, out, t, 1, ftz ? h_rsqrt64_approx_ftz : h_rsqrt64);
    case PTX_OP_MIN: case PTX_OP_MAX:
        if (fl_ & (PTX_IF_NAN | PTX_IF_XORSIGN | PTX_IF_ABS))
            return emu_dec_unsupported(dc, ".NaN/.xorsign.abs are not defined for f64 min/max");
        return pick_nan_order(dc, pi, out, 2, pi->op == PTX_OP_MIN ? h_min64 : h_max64);
    case PTX_OP_ABS: return pick(dc, pi, out, t, 1, h_abs64);
    case PTX_OP_NEG: return pick(dc, pi, out, t, 1, h_neg64);
    case PTX_OP_COPYSIGN: return pick(dc, pi, out, t, 2, h_copysign64);
    case PTX_OP_SIN: case PTX_OP_COS: case PTX_OP_LG2: case PTX_OP_EX2: case PTX_OP_TANH:
        return emu_dec_unsupported(dc, "transcendental approximations are f32 (and half) only");
    default: return EMU_SEL_NO;
    }
}

static enum emu_sel sel_testp(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out,
                              enum ptx_type t)
{
    switch (pi->subop) {
    case PTX_MOD_FINITE: out->sub = TP_FINITE; break;
    case PTX_MOD_INFINITE: out->sub = TP_INFINITE; break;
    case PTX_MOD_NUMBER: out->sub = TP_NUMBER; break;
    case PTX_MOD_NOTANUMBER: out->sub = TP_NAN; break;
    case PTX_MOD_NORMAL: out->sub = TP_NORMAL; break;
    case PTX_MOD_SUBNORMAL: out->sub = TP_SUBNORMAL; break;
    default: return emu_dec_unsupported(dc, "testp needs one of .finite .infinite .number .notanumber .normal .subnormal");
    }
    if (pi->nops != 2)
        return emu_dec_unsupported(dc, "unexpected number of operands");
    out->fn = t == PTX_T_F64 ? testp64 : testp32;
    out->d = emu_dec_pred(dc, &pi->ops[0]);
    out->a = emu_dec_src(dc, &pi->ops[1], t);
    return EMU_SEL_OK;
}

/* Family selector: the f32/f64 forms of the opcodes above; other types (the
 * integer and half-precision forms of add, min, abs ...) belong elsewhere. */
enum emu_sel emu_sel_float(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out)
{
    switch (pi->op) {
    case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_MUL: case PTX_OP_FMA: case PTX_OP_MAD:
    case PTX_OP_DIV: case PTX_OP_RCP: case PTX_OP_SQRT: case PTX_OP_RSQRT: case PTX_OP_SIN:
    case PTX_OP_COS: case PTX_OP_LG2: case PTX_OP_EX2: case PTX_OP_TANH: case PTX_OP_MIN:
    case PTX_OP_MAX: case PTX_OP_ABS: case PTX_OP_NEG: case PTX_OP_COPYSIGN: case PTX_OP_TESTP:
        break;
    default:
        return EMU_SEL_NO;
    }
    if (pi->ntypes < 1)
        return EMU_SEL_NO;
    enum ptx_type t = pi->types[0];
    if (t == PTX_T_F32X2)
        return emu_dec_unsupported(dc, ".f32x2 arithmetic requires sm_100");
    if (t != PTX_T_F32 && t != PTX_T_F64)
        return EMU_SEL_NO;
    if (pi->ntypes != 1)
        return emu_dec_unsupported(dc, "mixed-precision f32 arithmetic requires sm_100");
    if (pi->op == PTX_OP_TESTP)
        return sel_testp(dc, pi, out, t);
    return t == PTX_T_F32 ? sel_f32(dc, pi, out) : sel_f64(dc, pi, out);
}
