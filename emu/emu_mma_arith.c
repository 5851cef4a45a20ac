/* emu_mma_arith.c -- the arithmetic of one tensor-core dot product, d = c + sum a[i] b[i],
 * bit for bit as the H100 computes it (the model and its evidence: docs/INTERNALS.md). */
#include "emu/emu_mma.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

/* Bits kept below the largest term's exponent when the terms are aligned. */
#define MMA_KEEP 25

/* A decoded element: (-1)^neg * m * 2^e when kind is FIN. */
enum { NUM_ZERO, NUM_FIN, NUM_INF, NUM_NAN };
struct num {
    int kind;
    bool neg;
    int e;
    uint64_t m;
    int ref;       /* the exponent alignment counts from: the format's exponent of a value
                    * (its leading bit's, emin for subnormals); for a product the sum of both */
};

struct fmt_bits { int eb, mb; };

static struct fmt_bits fmt_of(enum emu_mma_fmt f)
{
    switch (f) {
    case EMU_MMA_F16: return (struct fmt_bits){5, 10};
    case EMU_MMA_BF16: return (struct fmt_bits){8, 7};
    case EMU_MMA_TF32: return (struct fmt_bits){8, 10};
    default: return (struct fmt_bits){8, 23};
    }
}

/* Decodes bits of format f; tf32 reads the upper 19 bits of its 32-bit container. */
static struct num num_decode(enum emu_mma_fmt f, uint32_t bits)
{
    struct fmt_bits fb = fmt_of(f);
    if (f == EMU_MMA_TF32)
        bits >>= 13;
    int bias = (1 << (fb.eb - 1)) - 1;
    uint32_t frac = bits & ((1u << fb.mb) - 1), ex = bits >> fb.mb & ((1u << fb.eb) - 1);
    struct num x = {.kind = NUM_FIN, .neg = bits >> (fb.eb + fb.mb) & 1};
    if (ex == (1u << fb.eb) - 1) {
        x.kind = frac ? NUM_NAN : NUM_INF;
    } else if (ex == 0) {
        x.kind = frac ? NUM_FIN : NUM_ZERO;
        x.m = frac;
        x.e = 1 - bias - fb.mb;
    } else {
        x.m = frac | 1u << fb.mb;
        x.e = (int)ex - bias - fb.mb;
    }
    x.ref = x.e + fb.mb;
    return x;
}

static struct num num_mul(struct num a, struct num b)
{
    struct num p = {.neg = a.neg != b.neg};
    if (a.kind == NUM_NAN || b.kind == NUM_NAN || (a.kind == NUM_INF && b.kind == NUM_ZERO) ||
        (a.kind == NUM_ZERO && b.kind == NUM_INF))
        p.kind = NUM_NAN;
    else if (a.kind == NUM_INF || b.kind == NUM_INF)
        p.kind = NUM_INF;
    else if (a.kind == NUM_ZERO || b.kind == NUM_ZERO)
        p.kind = NUM_ZERO;
    else {
        p.kind = NUM_FIN;
        p.m = a.m * b.m;
        p.e = a.e + b.e;
        p.ref = a.ref + b.ref;
    }
    return p;
}

static int bitlen(uint64_t v)
{
    return v ? 64 - __builtin_clzll(v) : 0;
}

/* Rounds (-1)^neg * mag * 2^e to format f (F32 or F16): to nearest even or toward zero,
 * with gradual underflow; overflow gives inf. */
static uint32_t num_round(bool neg, uint64_t mag, int e, enum emu_mma_fmt f, bool nearest)
{
    struct fmt_bits fb = fmt_of(f);
    int bias = (1 << (fb.eb - 1)) - 1, emin = 1 - bias;
    uint32_t sign = (uint32_t)neg << (fb.eb + fb.mb);
    if (!mag)
        return sign;
    int lead = e + bitlen(mag) - 1;
    int lsb = (lead < emin ? emin : lead) - fb.mb;
    int sh = lsb - e;
    uint64_t q;
    if (sh <= 0) {
        q = mag << -sh;
    } else {
        uint64_t rem = sh >= 64 ? mag : mag & ((1ull << sh) - 1), half = sh > 64 ? 0 : 1ull << (sh - 1);
        q = sh >= 64 ? 0 : mag >> sh;
        if (nearest && sh <= 64 && (rem > half || (rem == half && (q & 1))))
            q++;
    }
    if (!q)                      /* a nonzero sum that rounds to zero gives +0 */
        return 0;
    if (q >> (fb.mb + 1)) {      /* rounding carried into a new leading bit */
        q >>= 1;
        lsb++;
    }
    int ex = q >> fb.mb ? lsb + fb.mb + bias : 0;
    uint32_t maxe = (1u << fb.eb) - 1;
    if (ex >= (int)maxe)         /* overflow gives inf, toward zero too (as the H100 does) */
        return sign | maxe << fb.mb;
    return sign | (uint32_t)ex << fb.mb | ((uint32_t)q & ((1u << fb.mb) - 1));
}

/* The fused sum of the n terms t (the products and the accumulator): each aligned to the
 * largest exponent among them (a product's counts as the sum of its factors', so a product
 * of two significands >= 2 may carry one bit above it) with MMA_KEEP bits below that
 * exponent, the bits under them truncated (each term's magnitude toward zero); the
 * aligned terms are added exactly and the sum is rounded once to format f. Any NaN, or
 * infinities of both signs, give the canonical NaN; an infinity gives itself; a sum that
 * is zero, or rounds to zero, gives +0. */
static uint32_t fused_sum(const struct num *t, unsigned n, enum emu_mma_fmt f, bool nearest)
{
    bool nan = false, pinf = false, ninf = false;
    int lmax = INT32_MIN;
    for (unsigned i = 0; i < n; i++) {
        nan |= t[i].kind == NUM_NAN;
        pinf |= t[i].kind == NUM_INF && !t[i].neg;
        ninf |= t[i].kind == NUM_INF && t[i].neg;
        if (t[i].kind == NUM_FIN && t[i].ref > lmax)
            lmax = t[i].ref;
    }
    struct fmt_bits fb = fmt_of(f);
    uint32_t inf = ((1u << fb.eb) - 1) << fb.mb;
    if (nan || (pinf && ninf))
        return inf | ((1u << fb.mb) - 1);
    if (pinf || ninf)
        return inf | (uint32_t)ninf << (fb.eb + fb.mb);
    if (lmax == INT32_MIN)
        return 0;
    int p = lmax - MMA_KEEP;
    int64_t s = 0;
    for (unsigned i = 0; i < n; i++) {
        if (t[i].kind != NUM_FIN)
            continue;
        int d = t[i].e - p;
        uint64_t v = d >= 0 ? t[i].m << d : -d >= 64 ? 0 : t[i].m >> -d;
        s += t[i].neg ? -(int64_t)v : (int64_t)v;
    }
    return num_round(s < 0, s < 0 ? (uint64_t)-s : (uint64_t)s, p, f, nearest);
}

uint32_t emu_mma_dot(enum emu_mma_fmt ab, enum emu_mma_fmt cd, unsigned n, const uint32_t *a, const uint32_t *b,
                     uint32_t c)
{
    struct num t[EMU_MMA_MAXDOT + 1];
    for (unsigned i = 0; i < n; i++)
        t[i] = num_mul(num_decode(ab, a[i]), num_decode(ab, b[i]));
    t[n] = num_decode(cd, c);
    return fused_sum(t, n + 1, cd, cd == EMU_MMA_F16);
}

/* The value of an f16, f32 or tf32 element, exactly, as a float (NaN payloads aside). */
static float num_float(enum emu_mma_fmt f, uint32_t bits)
{
    struct num x = num_decode(f, bits);
    float v = x.kind == NUM_NAN ? NAN : x.kind == NUM_INF ? INFINITY : ldexpf((float)x.m, x.e);
    return x.neg ? -v : v;
}

/* f32 bits of v; NaN as the canonical 0x7fffffff that the GPU's f32 units give. */
static uint32_t float_bits(float v)
{
    uint32_t r;
    memcpy(&r, &v, 4);
    return v != v ? 0x7fffffffu : r;
}

/* f16 bits of v rounded to nearest even (NaN canonical). */
static uint32_t float_to_f16(float v)
{
    uint32_t u = float_bits(v);
    if (u == 0x7fffffffu)
        return 0x7fff;
    struct num x = num_decode(EMU_MMA_F32, u);
    if (x.kind == NUM_INF || x.kind == NUM_ZERO)
        return (uint32_t)x.neg << 15 | (x.kind == NUM_INF ? 0x7c00u : 0);
    uint32_t r = num_round(x.neg, x.m, x.e, EMU_MMA_F16, true);
    return r ? r : (uint32_t)x.neg << 15;
}

/* mma.m8n8k4 .f16 on the H100 (sm_70's quad-pair form, which it has no tensor-core
 * instruction for) is four f32 fmas in k order (the f16 products are exact in f32). An
 * f32 accumulator is added last: t = fma(a0, b0, +0) ... fma(a3, b3, t), d = t + c; an
 * f16 one starts the chain, t = fma(a0, b0, c) ..., and d is t rounded to nearest f16. */
uint32_t emu_mma_dot_qp(enum emu_mma_fmt cd, const uint32_t *a, const uint32_t *b, uint32_t c)
{
    bool half = cd == EMU_MMA_F16;
    float t = half ? num_float(cd, c) : 0.0f;
    for (unsigned i = 0; i < 4; i++)
        t = fmaf(num_float(EMU_MMA_F16, a[i]), num_float(EMU_MMA_F16, b[i]), t);
    if (!half)
        t = t + num_float(cd, c);
    return half ? float_to_f16(t) : float_bits(t);
}

/* The NaN an f64 fma a b + c gives when its result is NaN: the first NaN among b, c
 * and a (quieted), else the default NaN -- as fma.rn.f64 does (emu_float.c). */
static uint64_t nan_pick(uint64_t r, const uint64_t *ops)
{
    static const int order[3] = {1, 2, 0};
    if ((r & ~(1ull << 63)) <= 0x7ff0000000000000ull)
        return r;
    for (int i = 0; i < 3; i++)
        if ((ops[order[i]] & ~(1ull << 63)) > 0x7ff0000000000000ull)
            return ops[order[i]] | 0x0008000000000000ull;
    return 0xfff8000000000000ull;
}

uint64_t emu_mma_dot_f64(unsigned n, const uint64_t *a, const uint64_t *b, uint64_t c)
{
    uint64_t acc = c;
    for (unsigned i = 0; i < n; i++) {
        double x, y, z;
        memcpy(&x, &a[i], 8);
        memcpy(&y, &b[i], 8);
        memcpy(&z, &acc, 8);
        z = fma(x, y, z);
        uint64_t r, ops[3] = {a[i], b[i], acc};
        memcpy(&r, &z, 8);
        acc = nan_pick(r, ops);
    }
    return acc;
}
