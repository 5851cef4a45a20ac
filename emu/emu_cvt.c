/* emu_cvt.c -- cvt between integer and floating-point types (every rounding, .ftz, .sat,
 * .relu, .satfinite), packed f16x2/bf16x2/e4m3x2/e5m2x2 forms, tf32, and cvt.pack.sat. */
#include <math.h>
#include <stdint.h>

#include "emu/emu.h"
#include "emu/emu_internal.h"
#include "emu/emu_lanes.h"

/* ---- Instruction parameters ------------------------------------------------------
 * Conversions are families of handlers (one per rounding mode and row width);
 * the types' widths and signedness and the .ftz/.sat/.relu/.satfinite flags
 * ride in the decoded instruction and are loop-invariant in the handlers:
 *   sub  = source integer type (bits | CV_SIGNED), or source float format
 *   sub2 = destination integer type, or destination float format
 *   imm  = CV_* flags, and for integer results the register width (bits 8-15)
 *          to which a signed result is sign-extended. */
#define CV_SIGNED 0x80u
#define CV_BITS(x) ((x) & 0x7Fu)
enum { CV_FTZ = 1, CV_SAT = 2, CV_RELU = 4, CV_SATFINITE = 8 };
enum { FF16, FBF16, FF32, FF64 };   /* float formats */

#define PARAMS \
    const unsigned sbits = CV_BITS(in->sub), ssgn = !!(in->sub & CV_SIGNED); \
    const unsigned dbits = CV_BITS(in->sub2), dsgn = !!(in->sub2 & CV_SIGNED); \
    const unsigned flags = (unsigned)(in->imm & 0xFF), xbits = (unsigned)((in->imm >> 8) & 0xFF); \
    (void)sbits; (void)ssgn; (void)dbits; (void)dsgn; (void)flags; (void)xbits;

#define PUT32 EMU_BLEND32
#define PUT64 EMU_PUT64

/* Handler stamps: S and D are the source and destination row files (32/64);
 * EXPR sees the lane's source bits as uint64_t a (and b for pairs). */
#define CV_H(name, S, D, EXPR) \
    EMU_HANDLER(name) \
    { \
        PARAMS \
        uint##D##_t *d = w->r##D[in->d]; const uint##S##_t *ra = w->r##S[in->a]; \
        EMU_EACH(l) { uint64_t a = ra[l]; PUT##D(d, m, l, (uint##D##_t)(EXPR)); } \
        return EMU_CONTINUE; \
    }
#define CV_H2(name, EXPR) \
    EMU_HANDLER(name) \
    { \
        PARAMS \
        uint32_t *d = w->r32[in->d]; const uint32_t *ra = w->r32[in->a], *rb = w->r32[in->b]; \
        EMU_EACH(l) { uint64_t a = ra[l], b = rb[l]; EMU_BLEND32(d, m, l, (uint32_t)(EXPR)); } \
        return EMU_CONTINUE; \
    }

/* ---- Integers -------------------------------------------------------------------- */
/* The low `bits` of v, sign- or zero-extended to 64 bits. */
static inline uint64_t ext64(uint64_t v, unsigned bits, unsigned sgn)
{
    unsigned sh = 64 - bits;
    return sgn ? (uint64_t)((int64_t)(v << sh) >> sh) : (v << sh) >> sh;
}

/* An integer result of `bits` bits as its row holds it: zero-extended, or
 * sign-extended to the destination register's width when that is wider and
 * the type signed (PTX ISA "cvt": "sign-extended to the destination register
 * width for signed integers"). */
static inline uint64_t int_out(uint64_t v, unsigned bits, unsigned sgn, unsigned xbits)
{
    uint64_t r = ext64(v, bits, 0);
    return (sgn && xbits > bits) ? ext64(ext64(v, bits, 1), xbits, 0) : r;
}

/* Integer to integer: truncation or extension; .sat clamps to the destination
 * range (the source value compared exactly, in 128 bits). */
static inline uint64_t i2i(uint64_t a, unsigned sbits, unsigned ssgn, unsigned dbits, unsigned dsgn,
                           unsigned sat, unsigned xbits)
{
    uint64_t v = ext64(a, sbits, ssgn);
    if (sat) {
        __int128 x = ssgn ? (__int128)(int64_t)v : (__int128)v;
        __int128 lo = dsgn ? -((__int128)1 << (dbits - 1)) : 0;
        __int128 hi = dsgn ? ((__int128)1 << (dbits - 1)) - 1 : ((__int128)1 << dbits) - 1;
        x = x < lo ? lo : (x > hi ? hi : x);
        v = (uint64_t)x;
    }
    return int_out(v, dbits, dsgn, xbits);
}
CV_H(i2i_33, 32, 32, i2i(a, sbits, ssgn, dbits, dsgn, flags & CV_SAT, xbits))
CV_H(i2i_36, 32, 64, i2i(a, sbits, ssgn, dbits, dsgn, flags & CV_SAT, xbits))
CV_H(i2i_63, 64, 32, i2i(a, sbits, ssgn, dbits, dsgn, flags & CV_SAT, xbits))
CV_H(i2i_66, 64, 64, i2i(a, sbits, ssgn, dbits, dsgn, flags & CV_SAT, xbits))

/* ---- Integer to float ----------------------------------------------------------------
 * The integer becomes a double rounded to odd (exact when it fits 53 bits),
 * which then rounds once more, in the instruction's mode, to the destination
 * format; f64 destinations take the directed step from the exact comparison. */
static inline int cmp_int_dbl(uint64_t v, unsigned sgn, double d)   /* sign of d - v */
{
    if (sgn) {
        int64_t s = (int64_t)v;
        if (d >= 0x1p63)
            return 1;
        int64_t back = (int64_t)d;
        return back > s ? 1 : (back < s ? -1 : 0);
    }
    if (d >= 0x1p64)
        return 1;
    uint64_t back = (uint64_t)d;
    return back > v ? 1 : (back < v ? -1 : 0);
}
static inline double step_dbl(double d, int up)           /* one ulp toward +inf / -inf */
{
    uint64_t b = emu_b64(d);
    int neg = (int)(b >> 63);
    if (d == 0.0)
        return up ? 0x1p-1074 : -0x1p-1074;
    return emu_f64(up != neg ? b + 1 : b - 1);
}
static inline double int_to_dbl(uint64_t v, unsigned sgn, int rnd)
{
    double d = sgn ? (double)(int64_t)v : (double)v;
    int c = cmp_int_dbl(v, sgn, d);
    if (rnd == EMU_RND_N || c == 0)
        return d;
    if (rnd == EMU_RND_NA)                  /* round to odd: the odd neighbour toward v */
        return (emu_b64(d) & 1u) ? d : step_dbl(d, c < 0);
    int neg = d < 0;
    int want_up = rnd == EMU_RND_P || (rnd == EMU_RND_Z && neg);
    if (want_up && c < 0)
        return step_dbl(d, 1);
    if (!want_up && c > 0)
        return step_dbl(d, 0);
    return d;
}
#define RND_ODD EMU_RND_NA
static inline uint32_t sat_f32(uint32_t r)
{
    if (emu_isnan32(r) || (r & 0x80000000u))
        return 0;
    return r > 0x3F800000u ? 0x3F800000u : r;
}
static inline uint64_t i2f(uint64_t a, unsigned sbits, unsigned ssgn, int dfmt, int rnd, unsigned flags)
{
    uint64_t v = ext64(a, sbits, ssgn);
    if (dfmt == FF64) {
        uint64_t r = emu_b64(int_to_dbl(v, ssgn, rnd));
        if (flags & CV_SAT)
            r = emu_b64(fmin(fmax(emu_f64(r), 0.0), 1.0));
        return r;
    }
    double o = int_to_dbl(v, ssgn, RND_ODD);
    uint32_t f = emu_f64_to_f32(o, rnd);
    if (dfmt == FF32)
        return (flags & CV_SAT) ? sat_f32(f) : f;
    uint32_t fo = emu_f64_to_f32_odd(o);
    uint32_t h = dfmt == FF16 ? emu_f32_to_f16(fo, rnd) : emu_f32_to_bf16(fo, rnd);
    if (flags & CV_SAT)
        h = dfmt == FF16 ? emu_f32_to_f16(sat_f32(emu_f16_to_f32(h)), EMU_RND_N)
                         : emu_f32_to_bf16(sat_f32(emu_bf16_to_f32(h)), EMU_RND_N);
    return h;
}
#define I2F_SET(F, D) \
    CV_H(i2f3_##F##_N, 32, D, i2f(a, sbits, ssgn, F, EMU_RND_N, flags)) \
    CV_H(i2f3_##F##_Z, 32, D, i2f(a, sbits, ssgn, F, EMU_RND_Z, flags)) \
    CV_H(i2f3_##F##_M, 32, D, i2f(a, sbits, ssgn, F, EMU_RND_M, flags)) \
    CV_H(i2f3_##F##_P, 32, D, i2f(a, sbits, ssgn, F, EMU_RND_P, flags)) \
    CV_H(i2f6_##F##_N, 64, D, i2f(a, sbits, ssgn, F, EMU_RND_N, flags)) \
    CV_H(i2f6_##F##_Z, 64, D, i2f(a, sbits, ssgn, F, EMU_RND_Z, flags)) \
    CV_H(i2f6_##F##_M, 64, D, i2f(a, sbits, ssgn, F, EMU_RND_M, flags)) \
    CV_H(i2f6_##F##_P, 64, D, i2f(a, sbits, ssgn, F, EMU_RND_P, flags))
I2F_SET(FF16, 32)
I2F_SET(FF32, 32)
I2F_SET(FF64, 64)
I2F_SET(FBF16, 32)
#define I2F_ROW(F) {{i2f3_##F##_N, i2f3_##F##_Z, i2f3_##F##_M, i2f3_##F##_P}, \
                    {i2f6_##F##_N, i2f6_##F##_Z, i2f6_##F##_M, i2f6_##F##_P}}
static const emu_fn t_i2f[4][2][4] = {I2F_ROW(FF16), I2F_ROW(FBF16), I2F_ROW(FF32), I2F_ROW(FF64)};

/* ---- Float values ----------------------------------------------------------------- */
/* The exact double value of a source in format fmt (f32 .ftz flushes first). */
static inline double fval(uint64_t a, int fmt, unsigned flags)
{
    switch (fmt) {
    case FF16: return emu_f32(emu_f16_to_f32((uint32_t)a & 0xFFFFu));
    case FBF16: return emu_f32(emu_bf16_to_f32((uint32_t)a & 0xFFFFu));
    case FF32: return emu_f32((flags & CV_FTZ) ? emu_ftz32((uint32_t)a) : (uint32_t)a);
    default: return emu_f64(a);
    }
}

/* Rounds to an integral value: nearest even, toward zero, down, up (.rni
 * .rzi .rmi .rpi); the sign of the input is kept, so -0.3 rounds to -0. */
static inline double round_int(double x, int rnd)
{
    double ax = fabs(x);
    double t = copysign((ax + 0x1p52) - 0x1p52, x);   /* nearest even, |x| < 2^52 */
    t = ax >= 0x1p52 ? x : t;
    if (rnd == EMU_RND_N)
        return t;
    double fl_ = t - (t > x ? 1.0 : 0.0), ce = t + (t < x ? 1.0 : 0.0);
    double r;
    if (rnd == EMU_RND_N)
        r = t;
    else if (rnd == EMU_RND_M)
        r = fl_;
    else if (rnd == EMU_RND_P)
        r = ce;
    else
        r = x < 0 ? ce : fl_;
    return copysign(r, x);
}

/* Float to integer: out-of-range values clamp to the type's range (PTX ISA
 * "cvt", integer notes; .sat is implied). NaN gives 0 in the ISA's words, and
 * so it does on sm_90 from f16/bf16/f32 to types of up to 32 bits; 64-bit
 * results and all results from f64 get the pattern with only the top bit set. */
static inline uint64_t f2i(uint64_t a, int sfmt, int rnd, unsigned dbits, unsigned dsgn, unsigned flags,
                           unsigned xbits)
{
    double r = round_int(fval(a, sfmt, flags), rnd);
    int isnan = r != r;
    r = isnan ? 0.0 : r;
    uint64_t nanv = (sfmt == FF64 || dbits == 64) ? 1ull << (dbits - 1) : 0;
    uint64_t v;
    if (dsgn) {
        double lo = -ldexp(1.0, (int)dbits - 1), hi = ldexp(1.0, (int)dbits - 1);
        int64_t x = r >= hi ? (int64_t)((~0ull) >> (65 - dbits)) : (r <= lo ? -(int64_t)((~0ull) >> (65 - dbits)) - 1
                                                                             : (int64_t)r);
        v = (uint64_t)x;
    } else {
        double hi = ldexp(1.0, (int)dbits);
        v = r >= hi ? (~0ull) >> (64 - dbits) : (r <= 0 ? 0 : (uint64_t)r);
    }
    return int_out(isnan ? nanv : v, dbits, dsgn, xbits);
}
#define F2I_SET(F) \
    CV_H(f2i_##F##_N3, 32, 32, f2i(a, F, EMU_RND_N, dbits, dsgn, flags, xbits)) \
    CV_H(f2i_##F##_Z3, 32, 32, f2i(a, F, EMU_RND_Z, dbits, dsgn, flags, xbits)) \
    CV_H(f2i_##F##_M3, 32, 32, f2i(a, F, EMU_RND_M, dbits, dsgn, flags, xbits)) \
    CV_H(f2i_##F##_P3, 32, 32, f2i(a, F, EMU_RND_P, dbits, dsgn, flags, xbits)) \
    CV_H(f2i_##F##_N6, 32, 64, f2i(a, F, EMU_RND_N, dbits, dsgn, flags, xbits)) \
    CV_H(f2i_##F##_Z6, 32, 64, f2i(a, F, EMU_RND_Z, dbits, dsgn, flags, xbits)) \
    CV_H(f2i_##F##_M6, 32, 64, f2i(a, F, EMU_RND_M, dbits, dsgn, flags, xbits)) \
    CV_H(f2i_##F##_P6, 32, 64, f2i(a, F, EMU_RND_P, dbits, dsgn, flags, xbits))
F2I_SET(FF16)
F2I_SET(FBF16)
F2I_SET(FF32)
CV_H(f2i_FF64_N3, 64, 32, f2i(a, FF64, EMU_RND_N, dbits, dsgn, flags, xbits))
CV_H(f2i_FF64_Z3, 64, 32, f2i(a, FF64, EMU_RND_Z, dbits, dsgn, flags, xbits))
CV_H(f2i_FF64_M3, 64, 32, f2i(a, FF64, EMU_RND_M, dbits, dsgn, flags, xbits))
CV_H(f2i_FF64_P3, 64, 32, f2i(a, FF64, EMU_RND_P, dbits, dsgn, flags, xbits))
CV_H(f2i_FF64_N6, 64, 64, f2i(a, FF64, EMU_RND_N, dbits, dsgn, flags, xbits))
CV_H(f2i_FF64_Z6, 64, 64, f2i(a, FF64, EMU_RND_Z, dbits, dsgn, flags, xbits))
CV_H(f2i_FF64_M6, 64, 64, f2i(a, FF64, EMU_RND_M, dbits, dsgn, flags, xbits))
CV_H(f2i_FF64_P6, 64, 64, f2i(a, FF64, EMU_RND_P, dbits, dsgn, flags, xbits))
#define F2I_ROW(F) {{f2i_##F##_N3, f2i_##F##_Z3, f2i_##F##_M3, f2i_##F##_P3}, \
                    {f2i_##F##_N6, f2i_##F##_Z6, f2i_##F##_M6, f2i_##F##_P6}}
static const emu_fn t_f2i[4][2][4] = {F2I_ROW(FF16), F2I_ROW(FBF16), F2I_ROW(FF32), F2I_ROW(FF64)};

/* ---- Float to float ------------------------------------------------------------------- */
/* f32 results: .ftz flushes (tininess before rounding), .sat clamps to [0, 1]. */
static inline uint32_t fin_f32(uint32_t r, double exact, unsigned flags)
{
    if ((flags & CV_FTZ) && emu_tiny32(exact, EMU_RND_N))
        r = r & 0x80000000u;
    return (flags & CV_SAT) ? sat_f32(r) : r;
}

/* f64 -> f32 in mode rnd; NaN keeps the top of its payload, quieted; .ftz
 * flushes results that are tiny after rounding (see emu_tiny32). */
static inline uint32_t d2f(uint64_t a, int rnd, unsigned flags)
{
    double x = emu_f64(a);
    uint32_t r = emu_f64_to_f32(x, rnd);
    if (x != x)
        r = (uint32_t)(a >> 32 & 0x80000000u) | 0x7FC00000u | (uint32_t)((a >> 29) & 0x7FFFFFu);
    if ((flags & CV_FTZ) && emu_tiny32(x, rnd))
        r &= 0x80000000u;
    return (flags & CV_SAT) ? sat_f32(r) : r;
}
CV_H(d2f_N, 64, 32, d2f(a, EMU_RND_N, flags))
CV_H(d2f_Z, 64, 32, d2f(a, EMU_RND_Z, flags))
CV_H(d2f_M, 64, 32, d2f(a, EMU_RND_M, flags))
CV_H(d2f_P, 64, 32, d2f(a, EMU_RND_P, flags))
static const emu_fn t_d2f[4] = {d2f_N, d2f_Z, d2f_M, d2f_P};

/* f32 -> f64 (exact; NaN payload shifted up and quieted) and f16/bf16 -> f32/f64
 * (exact; NaN payloads kept and quieted, except f16 -> f32 and anything with
 * .ftz, which give the canonical NaN, and bf16 -> f32, which keeps it as is). */
static inline uint64_t sat_f64(uint64_t r)
{
    double x = emu_f64(r);
    return (x != x || (r >> 63)) ? 0 : (x > 1.0 ? emu_b64(1.0) : r);
}
static inline uint64_t f2d(uint64_t a, int sfmt, unsigned flags)
{
    uint64_t r;
    if (sfmt == FF32) {
        uint32_t f = (uint32_t)a;
        if (flags & CV_FTZ)                 /* .ftz goes through the f32 pipe: canonical NaN */
            f = emu_isnan32(f) ? EMU_NAN32 : emu_ftz32(f);
        r = emu_b64((double)emu_f32(f));
        r = emu_isnan32(f) ? ((uint64_t)(f & 0x80000000u) << 32) | 0x7FF8000000000000ull |
                             ((uint64_t)(f & 0x7FFFFFu) << 29) : r;
    } else {
        uint32_t h = (uint32_t)a & 0xFFFFu;
        uint32_t f = sfmt == FF16 ? emu_f16_to_f32(h) : emu_bf16_to_f32(h);
        r = emu_b64((double)emu_f32(f));
        r = emu_isnan32(f) ? ((uint64_t)(f & 0x80000000u) << 32) | 0x7FF8000000000000ull |
                             ((uint64_t)(f & 0x7FFFFFu) << 29) : r;
    }
    return (flags & CV_SAT) ? sat_f64(r) : r;
}
CV_H(f2d_f32, 32, 64, f2d(a, FF32, flags))
CV_H(f2d_f16, 32, 64, f2d(a, FF16, flags))
CV_H(f2d_bf16, 32, 64, f2d(a, FBF16, flags))
static inline uint32_t h2f(uint64_t a, int sfmt, unsigned flags)
{
    uint32_t h = (uint32_t)a & 0xFFFFu;
    uint32_t f = sfmt == FF16 ? emu_f16_to_f32(h) : emu_bf16_to_f32(h);
    f = ((sfmt == FF16 || (flags & CV_FTZ)) && emu_isnan32(f)) ? EMU_NAN32 : f;
    return fin_f32(f, emu_f32(f), flags);
}
CV_H(h2f_f16, 32, 32, h2f(a, FF16, flags))
CV_H(h2f_bf16, 32, 32, h2f(a, FBF16, flags))

/* Same-size rounding to an integral value (.rni .rzi .rmi .rpi), or none
 * (cvt.f32.f32 with .ftz/.sat). Rounding makes f32 NaN canonical and f64 NaN
 * quiet; a plain cvt.f32.f32 / cvt.f64.f64 moves the bits. */
static inline uint32_t f2f32(uint64_t a, int rnd, int integral, unsigned flags)
{
    uint32_t f = (flags & CV_FTZ) ? emu_ftz32((uint32_t)a) : (uint32_t)a;
    double x = emu_f32(f);
    uint32_t r = integral ? emu_b32((float)round_int(x, rnd)) : f;
    r = (emu_isnan32(r) && (integral || (flags & CV_FTZ))) ? EMU_NAN32 : r;
    return fin_f32(r, x, flags);
}
CV_H(f2f32_none, 32, 32, f2f32(a, EMU_RND_N, 0, flags))
CV_H(f2f32_N, 32, 32, f2f32(a, EMU_RND_N, 1, flags))
CV_H(f2f32_Z, 32, 32, f2f32(a, EMU_RND_Z, 1, flags))
CV_H(f2f32_M, 32, 32, f2f32(a, EMU_RND_M, 1, flags))
CV_H(f2f32_P, 32, 32, f2f32(a, EMU_RND_P, 1, flags))
static const emu_fn t_f2f32[4] = {f2f32_N, f2f32_Z, f2f32_M, f2f32_P};
static inline uint64_t f2f64(uint64_t a, int rnd, int integral, unsigned flags)
{
    double x = emu_f64(a);
    uint64_t r = integral ? emu_b64(round_int(x, rnd)) : a;
    r = (x != x && integral) ? a | 0x0008000000000000ull : r;
    return (flags & CV_SAT) ? sat_f64(r) : r;
}
CV_H(f2f64_none, 64, 64, f2f64(a, EMU_RND_N, 0, flags))
CV_H(f2f64_N, 64, 64, f2f64(a, EMU_RND_N, 1, flags))
CV_H(f2f64_Z, 64, 64, f2f64(a, EMU_RND_Z, 1, flags))
CV_H(f2f64_M, 64, 64, f2f64(a, EMU_RND_M, 1, flags))
CV_H(f2f64_P, 64, 64, f2f64(a, EMU_RND_P, 1, flags))
static const emu_fn t_f2f64[4] = {f2f64_N, f2f64_Z, f2f64_M, f2f64_P};

/* Narrowing to f16/bf16 from f32/f64/f16/bf16 (.rn .rz .rm .rp), then .relu
 * (negatives to +0, NaN canonical), .satfinite (no infinity: the largest
 * finite value keeps the sign; NaN canonical) and .sat ([0, 1]). Integral
 * rounding of f16/bf16 (.rni ...) goes through the same exact double. */
static inline uint32_t narrow16(uint64_t a, int sfmt, int dfmt, int rnd, unsigned flags)
{
    uint32_t f;
    if (sfmt == FF64)
        f = emu_f64_to_f32_odd(emu_f64(a));
    else if (sfmt == FF32)
        f = (flags & CV_FTZ) ? emu_ftz32((uint32_t)a) : (uint32_t)a;
    else
        f = sfmt == FF16 ? emu_f16_to_f32((uint32_t)a & 0xFFFFu) : emu_bf16_to_f32((uint32_t)a & 0xFFFFu);
    uint32_t h = dfmt == FF16 ? emu_f32_to_f16(f, rnd) : emu_f32_to_bf16(f, rnd);
    if (sfmt == FF64 && emu_isnan32(f))      /* f64 NaN: quieted, payload truncated */
        h = (uint32_t)(a >> 48 & 0x8000u) | (dfmt == FF16 ? 0x7E00u | (uint32_t)(a >> 42 & 0x3FFu)
                                                         : 0x7FC0u | (uint32_t)(a >> 45 & 0x7Fu));
    uint32_t inf = dfmt == FF16 ? 0x7C00u : 0x7F80u, one = dfmt == FF16 ? 0x3C00u : 0x3F80u;
    uint32_t isnan = (h & 0x7FFFu) > inf;
    if (flags & CV_SATFINITE)
        h = ((h & 0x7FFFu) == inf) ? h - 1 : h;
    if (flags & CV_RELU)
        h = (!isnan && (h & 0x8000u)) ? 0 : h;
    if (flags & CV_SAT)
        h = isnan || (h & 0x8000u) ? 0 : (h > one ? one : h);
    return h;
}
static inline uint32_t round16(uint64_t a, int fmt, int rnd)
{
    uint32_t h = (uint32_t)a & 0xFFFFu;
    uint32_t f = fmt == FF16 ? emu_f16_to_f32(h) : emu_bf16_to_f32(h);
    uint32_t r = emu_b32((float)round_int(emu_f32(f), rnd));
    r = fmt == FF16 ? emu_f32_to_f16(r, EMU_RND_N) : emu_f32_to_bf16(r, EMU_RND_N);
    return emu_isnan32(f) ? EMU_NAN16 : r;
}
#define N16_SET(S, SB, D) \
    CV_H(n16_##S##_##D##_N, SB, 32, narrow16(a, S, D, EMU_RND_N, flags)) \
    CV_H(n16_##S##_##D##_Z, SB, 32, narrow16(a, S, D, EMU_RND_Z, flags)) \
    CV_H(n16_##S##_##D##_M, SB, 32, narrow16(a, S, D, EMU_RND_M, flags)) \
    CV_H(n16_##S##_##D##_P, SB, 32, narrow16(a, S, D, EMU_RND_P, flags))
N16_SET(FF16, 32, FBF16)
N16_SET(FBF16, 32, FF16)
N16_SET(FF32, 32, FF16)
N16_SET(FF32, 32, FBF16)
N16_SET(FF64, 64, FF16)
N16_SET(FF64, 64, FBF16)
#define N16_ROW(S, D) {n16_##S##_##D##_N, n16_##S##_##D##_Z, n16_##S##_##D##_M, n16_##S##_##D##_P}
static const emu_fn t_n16[4][2][4] = {       /* [source][destination f16/bf16][rnd] */
    {{NULL, NULL, NULL, NULL}, N16_ROW(FF16, FBF16)},
    {N16_ROW(FBF16, FF16), {NULL, NULL, NULL, NULL}},
    {N16_ROW(FF32, FF16), N16_ROW(FF32, FBF16)},
    {N16_ROW(FF64, FF16), N16_ROW(FF64, FBF16)},
};
CV_H(r16_f16_N, 32, 32, round16(a, FF16, EMU_RND_N))
CV_H(r16_f16_Z, 32, 32, round16(a, FF16, EMU_RND_Z))
CV_H(r16_f16_M, 32, 32, round16(a, FF16, EMU_RND_M))
CV_H(r16_f16_P, 32, 32, round16(a, FF16, EMU_RND_P))
CV_H(r16_bf16_N, 32, 32, round16(a, FBF16, EMU_RND_N))
CV_H(r16_bf16_Z, 32, 32, round16(a, FBF16, EMU_RND_Z))
CV_H(r16_bf16_M, 32, 32, round16(a, FBF16, EMU_RND_M))
CV_H(r16_bf16_P, 32, 32, round16(a, FBF16, EMU_RND_P))
static const emu_fn t_r16[2][4] = {{r16_f16_N, r16_f16_Z, r16_f16_M, r16_f16_P},
                                   {r16_bf16_N, r16_bf16_Z, r16_bf16_M, r16_bf16_P}};

/* Packed pairs from two f32 (cvt.frnd2.f16x2.f32 / .bf16x2.f32): a goes to
 * the upper half, b to the lower (PTX ISA "cvt"). */
CV_H2(pk_f16_N, (narrow16(a, FF32, FF16, EMU_RND_N, flags) << 16) | narrow16(b, FF32, FF16, EMU_RND_N, flags))
CV_H2(pk_f16_Z, (narrow16(a, FF32, FF16, EMU_RND_Z, flags) << 16) | narrow16(b, FF32, FF16, EMU_RND_Z, flags))
CV_H2(pk_bf16_N, (narrow16(a, FF32, FBF16, EMU_RND_N, flags) << 16) | narrow16(b, FF32, FBF16, EMU_RND_N, flags))
CV_H2(pk_bf16_Z, (narrow16(a, FF32, FBF16, EMU_RND_Z, flags) << 16) | narrow16(b, FF32, FBF16, EMU_RND_Z, flags))

/* tf32 (1.8.10 kept in a 32-bit pattern, low 13 bits zero). .rna rounds the
 * magnitude half away from zero in integer arithmetic, as sm_90 does: a NaN
 * is only truncated, and .satfinite then steps an infinite or NaN pattern
 * down by one tf32 unit. .rn/.rz round properly; their NaN is 0x7FFFE000. */
static inline uint32_t tf32_rna(uint32_t f, unsigned flags)
{
    uint32_t r = emu_isnan32(f) ? f & ~0x1FFFu : (f + 0x1000u) & ~0x1FFFu;
    if ((flags & CV_SATFINITE) && (r & 0x7FFFFFFFu) >= 0x7F800000u)
        r -= 0x2000u;
    return r;
}
static inline uint32_t tf32_round(uint32_t f, int rnd, unsigned flags)
{
    uint32_t neg = f >> 31, a = f & 0x7FFFFFFFu, ovf;
    uint32_t r = emu_narrow_mag(f, 10, 127, 0x3FBFFu, rnd, &ovf) << 13;
    if (ovf || a == 0x7F800000u)
        r = (a == 0x7F800000u || (!(flags & CV_SATFINITE) && rnd == EMU_RND_N)) ? 0x7F800000u : 0x7F7FE000u;
    r |= neg << 31;
    if (flags & CV_RELU)
        r = neg ? 0 : r;
    return a > 0x7F800000u ? 0x7FFFE000u : r;
}
CV_H(tf32_NA, 32, 32, tf32_rna((uint32_t)a, flags))
CV_H(tf32_N, 32, 32, tf32_round((uint32_t)a, EMU_RND_N, flags))
CV_H(tf32_Z, 32, 32, tf32_round((uint32_t)a, EMU_RND_Z, flags))

/* ---- 8-bit floats: e4m3 (bias 7, no infinity, NaN 0x7F, max 448) and e5m2
 * (bias 15, infinity 0x7C, NaN above, max 57344). Conversions to them are
 * .rn.satfinite: out-of-range values and infinities give the signed maximum;
 * .relu clamps negatives to +0. Conversions from them to f16x2 are exact;
 * NaN becomes the canonical f16 NaN. */
static inline uint32_t to_f8(uint32_t f, int e5, unsigned flags)
{
    uint32_t neg = f >> 31, a = f & 0x7FFFFFFFu, ovf;
    uint32_t r = e5 ? emu_narrow_mag(f, 2, 15, 0x7Bu, EMU_RND_N, &ovf)
                    : emu_narrow_mag(f, 3, 7, 0x7Eu, EMU_RND_N, &ovf);
    r = (ovf || a == 0x7F800000u) ? (e5 ? 0x7Bu : 0x7Eu) : r;
    r |= neg << 7;
    if (flags & CV_RELU)
        r = neg ? 0 : r;
    return a > 0x7F800000u ? 0x7Fu : r;
}
static inline uint32_t from_f8(uint32_t x, int e5)
{
    x &= 0xFFu;
    uint32_t s = (x & 0x80u) << 8, mag = x & 0x7Fu;
    if (e5)
        return mag > 0x7Cu ? EMU_NAN16 : (x << 8);
    if (mag == 0x7Fu)
        return EMU_NAN16;
    uint32_t e = mag >> 3, mm = mag & 7u;
    uint32_t h = e ? ((e + 8u) << 10) | (mm << 7)                   /* rebias 7 -> 15 */
                   : emu_f32_to_f16(emu_b32((float)mm * 0x1p-9f), EMU_RND_N);
    return s | h;
}
static inline uint32_t relu16(uint32_t h) { return (h & 0x8000u) && !emu_isnan16(h) ? 0 : h; }
CV_H2(f8_e4_f32, (to_f8((uint32_t)a, 0, flags) << 8) | to_f8((uint32_t)b, 0, flags))
CV_H2(f8_e5_f32, (to_f8((uint32_t)a, 1, flags) << 8) | to_f8((uint32_t)b, 1, flags))
CV_H(f8_e4_h2, 32, 32, (to_f8(emu_f16_to_f32((uint32_t)a >> 16), 0, flags) << 8) |
                         to_f8(emu_f16_to_f32((uint32_t)a & 0xFFFFu), 0, flags))
CV_H(f8_e5_h2, 32, 32, (to_f8(emu_f16_to_f32((uint32_t)a >> 16), 1, flags) << 8) |
                         to_f8(emu_f16_to_f32((uint32_t)a & 0xFFFFu), 1, flags))
static inline uint32_t f8_pair(uint32_t a, int e5, unsigned flags)
{
    uint32_t hi = from_f8(a >> 8, e5), lo = from_f8(a, e5);
    if (flags & CV_RELU) {
        hi = relu16(hi);
        lo = relu16(lo);
    }
    return (hi << 16) | lo;
}
CV_H(h2_e4, 32, 32, f8_pair((uint32_t)a, 0, flags))
CV_H(h2_e5, 32, 32, f8_pair((uint32_t)a, 1, flags))

/* ---- cvt.pack.sat ----------------------------------------------------------------------
 * Two s32 values saturate to the narrow type; b goes to the low field, a
 * above it, and with c the remaining upper bits come from c's low bits. */
static inline uint32_t clampn(uint32_t v, unsigned bits, unsigned sgn)
{
    int64_t x = (int32_t)v;
    int64_t lo = sgn ? -((int64_t)1 << (bits - 1)) : 0, hi = sgn ? ((int64_t)1 << (bits - 1)) - 1
                                                               : ((int64_t)1 << bits) - 1;
    x = x < lo ? lo : (x > hi ? hi : x);
    return (uint32_t)x & ((1u << bits) - 1u);
}
static int h_pack(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    const unsigned bits = CV_BITS(in->sub2), sgn = !!(in->sub2 & CV_SIGNED), with_c = (unsigned)in->imm;
    const unsigned csh = with_c ? 2 * bits : 0;         /* with c the fields are at most 8 bits */
    uint32_t *d = w->r32[in->d];
    const uint32_t *ra = w->r32[in->a], *rb = w->r32[in->b], *rc = w->r32[in->c];
    EMU_EACH(l) {
        uint32_t lowpart = clampn(rb[l], bits, sgn) | (clampn(ra[l], bits, sgn) << bits);
        uint32_t r = with_c ? lowpart | (rc[l] << csh) : lowpart;
        EMU_BLEND32(d, m, l, r);
    }
    return EMU_CONTINUE;
}

/* ---- Fast paths -----------------------------------------------------------------------
 * The conversions real programs run most (PTX-USAGE.md: cvt.f32.f16,
 * cvt.s64.s32, cvt.u64.u32, cvt.rn.f32.s32, cvt.f64.f32, cvt.rzi.s32.f32 ...)
 * without modifiers, written without branches or 64-bit integer/float
 * conversions so that their lane loops vectorise with SSE2. Same results as
 * the general handlers above. */

/* Integer extension and truncation (no .sat); 32-bit rows in 32-bit arithmetic. */
static inline uint32_t ext32(uint32_t v, unsigned bits, unsigned sgn)
{
    unsigned sh = 32 - bits;
    return sgn ? (uint32_t)((int32_t)(v << sh) >> sh) : (v << sh) >> sh;
}
/* Shift counts and the final mask are per instruction, so the shifts are uniform. */
static inline uint32_t i2i32(uint32_t a, unsigned ssh, unsigned ssgn, unsigned dsh, unsigned dsgn, uint32_t mask)
{
    uint32_t v = a << ssh;
    v = ssgn ? (uint32_t)((int32_t)v >> ssh) : v >> ssh;
    v <<= dsh;
    v = dsgn ? (uint32_t)((int32_t)v >> dsh) : v >> dsh;
    return v & mask;
}
static inline uint32_t out_mask(unsigned dbits, unsigned dsgn, unsigned xbits)
{
    unsigned keep = (dsgn && xbits > dbits) ? xbits : dbits;
    return keep >= 32 ? ~0u : (1u << keep) - 1u;
}
CV_H(i2i_33_plain, 32, 32, i2i32((uint32_t)a, 32 - sbits, ssgn, 32 - dbits, dsgn, out_mask(dbits, dsgn, xbits)))
CV_H(i2i_36_plain, 32, 64, ext64(a, sbits, ssgn))
CV_H(i2i_63_plain, 64, 32, int_out(a, dbits, dsgn, xbits))
CV_H(i2i_66_plain, 64, 64, a)

/* Integers of at most 32 bits to f32/f64: exact doubles through 32-bit
 * conversions (unsigned values offset by 2^31). The per-instruction constants
 * are computed before the lane loop: a select between floating-point values
 * inside it would keep gcc from vectorising. */
#define I2F_SMALL(name, D, EXPR) \
    EMU_HANDLER(name) \
    { \
        const unsigned sh = 32 - CV_BITS(in->sub), sgn = !!(in->sub & CV_SIGNED); \
        const uint32_t flip = sgn ? 0u : 0x80000000u; \
        const double bias = sgn ? 0.0 : 0x1p31; \
        uint##D##_t *d = w->r##D[in->d]; const uint32_t *ra = w->r32[in->a]; \
        EMU_EACH(l) { \
            uint32_t v = ra[l] << sh; \
            v = (sgn ? (uint32_t)((int32_t)v >> sh) : v >> sh) ^ flip; \
            double x = (double)(int32_t)v + bias; \
            PUT##D(d, m, l, (EXPR)); \
        } \
        return EMU_CONTINUE; \
    }
I2F_SMALL(i2f_f32_small_N, 32, emu_f64_to_f32(x, EMU_RND_N))
I2F_SMALL(i2f_f32_small_Z, 32, emu_f64_to_f32(x, EMU_RND_Z))
I2F_SMALL(i2f_f32_small_M, 32, emu_f64_to_f32(x, EMU_RND_M))
I2F_SMALL(i2f_f32_small_P, 32, emu_f64_to_f32(x, EMU_RND_P))
I2F_SMALL(i2f_f64_small_N, 64, emu_b64(x))
static const emu_fn t_i2f_small[2][4] = {
    {i2f_f32_small_N, i2f_f32_small_Z, i2f_f32_small_M, i2f_f32_small_P},
    {i2f_f64_small_N, i2f_f64_small_N, i2f_f64_small_N, i2f_f64_small_N},   /* exact: any mode */
};

/* f32 to integers of at most 32 bits: round to integral, clamp in double,
 * convert through int32 (unsigned results offset by 2^31); NaN gives 0. */
#define F2I_SMALL(name, R) \
    EMU_HANDLER(name) \
    { \
        const unsigned dbits = CV_BITS(in->sub2), dsgn = !!(in->sub2 & CV_SIGNED); \
        const unsigned xbits = (unsigned)((in->imm >> 8) & 0xFF); \
        const double lo = dsgn ? -ldexp(1.0, (int)dbits - 1) : 0.0; \
        const double hi = dsgn ? ldexp(1.0, (int)dbits - 1) - 1.0 : ldexp(1.0, (int)dbits) - 1.0; \
        const uint32_t mask = out_mask(dbits, dsgn, xbits); \
        uint32_t *d = w->r32[in->d]; const uint32_t *ra = w->r32[in->a]; \
        EMU_EACH(l) { \
            double x = emu_f32(ra[l]); \
            double r = EMU_RND_##R == EMU_RND_Z ? x : round_int(x, EMU_RND_##R); \
            r = r < lo ? lo : r; \
            r = r > hi ? hi : r; \
            r = r == r ? r : 0.0; \
            double off = r >= 0x1p31 ? 0x1p31 : 0.0;   /* u32 above 2^31: convert r - 2^31 */ \
            uint32_t v = (uint32_t)(int32_t)(r - off) + ((uint32_t)(int32_t)(off * 0.5) << 1); \
            EMU_BLEND32(d, m, l, i2i32(v, 0, 0, 32 - dbits, dsgn, mask)); \
        } \
        return EMU_CONTINUE; \
    }
F2I_SMALL(f2i_small_N, N)
F2I_SMALL(f2i_small_Z, Z)
F2I_SMALL(f2i_small_M, M)
F2I_SMALL(f2i_small_P, P)
static const emu_fn t_f2i_small[4] = {f2i_small_N, f2i_small_Z, f2i_small_M, f2i_small_P};

/* Float widening and narrowing without modifiers. */
static inline uint64_t f2d_plain(uint32_t f)
{
    uint64_t r = emu_b64((double)emu_f32(f));
    uint64_t n = ((uint64_t)(f & 0x80000000u) << 32) | 0x7FF8000000000000ull | ((uint64_t)(f & 0x7FFFFFu) << 29);
    return emu_b64(emu_pickd(emu_isnan32(f), emu_f64(n), emu_f64(r)));
}
static inline uint32_t d2f_plain(uint64_t a)
{
    uint32_t r = emu_b32((float)emu_f64(a));
    uint32_t n = (uint32_t)(a >> 32 & 0x80000000u) | 0x7FC00000u | (uint32_t)((a >> 29) & 0x7FFFFFu);
    return emu_pick32(emu_isnan32(r), n, r);
}
CV_H(f2d_plain_h, 32, 64, f2d_plain((uint32_t)a))
CV_H(d2f_plain_h, 64, 32, d2f_plain(a))
CV_H(h2f_f16_plain, 32, 32, emu_pick32(emu_isnan16((uint32_t)a), EMU_NAN32, emu_f16_to_f32((uint32_t)a & 0xFFFFu)))
CV_H(h2f_bf16_plain, 32, 32, emu_bf16_to_f32((uint32_t)a))
CV_H(f2h_plain, 32, 32, emu_f32_to_f16_rn((uint32_t)a))
CV_H(f2bf_plain, 32, 32, emu_f32_to_bf16_rn((uint32_t)a))

/* ---- Selection ------------------------------------------------------------------------- */
static int int_code(enum ptx_type t)       /* bits | CV_SIGNED, or -1 */
{
    switch (t) {
    case PTX_T_U8: case PTX_T_B8: return 8;
    case PTX_T_S8: return 8 | CV_SIGNED;
    case PTX_T_U16: case PTX_T_B16: return 16;
    case PTX_T_S16: return 16 | CV_SIGNED;
    case PTX_T_U32: case PTX_T_B32: return 32;
    case PTX_T_S32: return 32 | CV_SIGNED;
    case PTX_T_U64: case PTX_T_B64: return 64;
    case PTX_T_S64: return 64 | CV_SIGNED;
    default: return -1;
    }
}
static int float_code(enum ptx_type t)
{
    switch (t) {
    case PTX_T_F16: return FF16;
    case PTX_T_BF16: return FBF16;
    case PTX_T_F32: return FF32;
    case PTX_T_F64: return FF64;
    default: return -1;
    }
}
static int rnd_of(enum ptx_mod r, int *out_integral)
{
    *out_integral = 0;
    switch (r) {
    case PTX_MOD_RN: return EMU_RND_N;
    case PTX_MOD_RZ: return EMU_RND_Z;
    case PTX_MOD_RM: return EMU_RND_M;
    case PTX_MOD_RP: return EMU_RND_P;
    case PTX_MOD_RNA: return EMU_RND_NA;
    case PTX_MOD_RNI: *out_integral = 1; return EMU_RND_N;
    case PTX_MOD_RZI: *out_integral = 1; return EMU_RND_Z;
    case PTX_MOD_RMI: *out_integral = 1; return EMU_RND_M;
    case PTX_MOD_RPI: *out_integral = 1; return EMU_RND_P;
    default: return -1;
    }
}

/* Width of the destination register, for sign extension of narrow results. */
static unsigned reg_bits(const struct emu_decoder *dc, const struct ptx_operand *op)
{
    if (op->kind != PTX_OPND_REG || !dc->fn)
        return 0;
    unsigned sz = ptx_type_size(dc->fn->regs[op->reg].type);
    return sz > 4 ? 32 : 8 * sz;
}

static enum emu_sel finish(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out,
                           emu_fn fn, enum ptx_type dt, enum ptx_type at, unsigned nsrc)
{
    if (!fn)
        return emu_dec_unsupported(dc, "conversion not defined");
    if (pi->nops != nsrc + 1)
        return emu_dec_unsupported(dc, "unexpected number of operands");
    out->fn = fn;
    out->d = emu_dec_dst(dc, &pi->ops[0], dt);
    out->a = emu_dec_src(dc, &pi->ops[1], at);
    if (nsrc > 1)
        out->b = emu_dec_src(dc, &pi->ops[2], at);
    return EMU_SEL_OK;
}

static enum emu_sel sel_pack(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out)
{
    static const struct { enum ptx_type t; uint8_t code; } kinds[] = {
        {PTX_T_U16, 16}, {PTX_T_S16, 16 | CV_SIGNED}, {PTX_T_U8, 8}, {PTX_T_S8, 8 | CV_SIGNED},
        {PTX_T_U4, 4}, {PTX_T_S4, 4 | CV_SIGNED},
    };
    if (!(pi->flags & PTX_IF_SAT) || pi->ntypes < 2 || pi->types[1] != PTX_T_S32)
        return emu_dec_unsupported(dc, "cvt.pack needs .sat and .s32 sources");
    int code = -1;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (kinds[i].t == pi->types[0])
            code = kinds[i].code;
    if (code < 0)
        return emu_dec_unsupported(dc, "cvt.pack to this type (2-bit fields need a type Loom lacks)");
    unsigned with_c = pi->ntypes == 3;
    if ((CV_BITS((unsigned)code) == 16) == with_c || pi->nops != 3 + with_c)
        return emu_dec_unsupported(dc, "cvt.pack operands do not match its types");
    out->fn = h_pack;
    out->sub2 = (uint8_t)code;
    out->imm = with_c;
    out->d = emu_dec_dst(dc, &pi->ops[0], PTX_T_B32);
    out->a = emu_dec_src(dc, &pi->ops[1], PTX_T_S32);
    out->b = emu_dec_src(dc, &pi->ops[2], PTX_T_S32);
    out->c = with_c ? emu_dec_src(dc, &pi->ops[3], PTX_T_B32) : out->b;
    return EMU_SEL_OK;
}

/* The packed and narrow-format forms: f16x2/bf16x2 from two f32, tf32, and
 * the 8-bit float pairs. */
static enum emu_sel sel_special(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out,
                                enum ptx_type dt, enum ptx_type at, int rnd)
{
    uint32_t f = pi->flags;
    unsigned relu = !!(f & PTX_IF_RELU), satf = !!(f & PTX_IF_SATFINITE);
    out->imm = (relu ? CV_RELU : 0) | (satf ? CV_SATFINITE : 0);
    if (pi->round == PTX_MOD_RS)
        return emu_dec_unsupported(dc, "stochastic rounding (.rs) requires sm_100");
    if ((dt == PTX_T_F16X2 || dt == PTX_T_BF16X2) && at == PTX_T_F32) {
        if (rnd != EMU_RND_N && rnd != EMU_RND_Z)
            return emu_dec_unsupported(dc, "packed f16x2/bf16x2 conversion rounds with .rn or .rz");
        emu_fn fn = dt == PTX_T_F16X2 ? (rnd == EMU_RND_N ? pk_f16_N : pk_f16_Z)
                                      : (rnd == EMU_RND_N ? pk_bf16_N : pk_bf16_Z);
        return finish(dc, pi, out, fn, PTX_T_B32, PTX_T_F32, 2);
    }
    if (dt == PTX_T_TF32 && at == PTX_T_F32) {
        if (rnd == EMU_RND_NA)
            return relu ? emu_dec_unsupported(dc, "cvt.rna.tf32 takes no .relu")
                        : finish(dc, pi, out, tf32_NA, PTX_T_B32, PTX_T_F32, 1);
        if (rnd == EMU_RND_N || rnd == EMU_RND_Z)
            return finish(dc, pi, out, rnd == EMU_RND_N ? tf32_N : tf32_Z, PTX_T_B32, PTX_T_F32, 1);
        return emu_dec_unsupported(dc, "tf32 conversion rounds with .rna, .rn or .rz");
    }
    if (dt == PTX_T_E4M3X2 || dt == PTX_T_E5M2X2) {
        int e5 = dt == PTX_T_E5M2X2;
        if (rnd != EMU_RND_N || !satf)
            return emu_dec_unsupported(dc, "conversion to e4m3x2/e5m2x2 is .rn.satfinite");
        if (at == PTX_T_F32)
            return finish(dc, pi, out, e5 ? f8_e5_f32 : f8_e4_f32, PTX_T_B16, PTX_T_F32, 2);
        if (at == PTX_T_F16X2)
            return finish(dc, pi, out, e5 ? f8_e5_h2 : f8_e4_h2, PTX_T_B16, PTX_T_B32, 1);
        return emu_dec_unsupported(dc, "e4m3x2/e5m2x2 convert from f32 pairs or f16x2");
    }
    if (dt == PTX_T_F16X2 && (at == PTX_T_E4M3X2 || at == PTX_T_E5M2X2)) {
        if (rnd != EMU_RND_N)
            return emu_dec_unsupported(dc, "conversion from e4m3x2/e5m2x2 is .rn");
        return finish(dc, pi, out, at == PTX_T_E5M2X2 ? h2_e5 : h2_e4, PTX_T_B32, PTX_T_B16, 1);
    }
    return emu_dec_unsupported(dc, "conversion between these formats is not supported");
}

/* Family selector for cvt (PTX ISA "cvt", "cvt.pack"). */
enum emu_sel emu_sel_cvt(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out)
{
    if (pi->op != PTX_OP_CVT)
        return EMU_SEL_NO;
    if (pi->flags & PTX_IF_PACK)
        return sel_pack(dc, pi, out);
    if (pi->ntypes != 2)
        return emu_dec_unsupported(dc, "cvt takes a destination and a source type");
    enum ptx_type dt = pi->types[0], at = pi->types[1];
    int integral, rnd = rnd_of(pi->round, &integral);
    if (pi->round != PTX_MOD_NONE_ && rnd < 0 && pi->round != PTX_MOD_RS)
        return emu_dec_unsupported(dc, "rounding modifier not defined for cvt");
    uint32_t f = pi->flags;
    unsigned flags = ((f & PTX_IF_FTZ) ? CV_FTZ : 0) | ((f & PTX_IF_SAT) ? CV_SAT : 0) |
                     ((f & PTX_IF_RELU) ? CV_RELU : 0) | ((f & PTX_IF_SATFINITE) ? CV_SATFINITE : 0);
    int di = int_code(dt), ai = int_code(at), df = float_code(dt), af = float_code(at);
    if ((di < 0 && df < 0) || (ai < 0 && af < 0))
        return sel_special(dc, pi, out, dt, at, rnd);
    out->imm = flags;
    bool d64 = ptx_type_size(dt) == 8, a64 = ptx_type_size(at) == 8;
    if (di >= 0 && ai >= 0) {                                   /* integer <- integer */
        if (rnd >= 0)
            return emu_dec_unsupported(dc, "integer-to-integer cvt takes no rounding");
        out->sub = (uint8_t)ai;
        out->sub2 = (uint8_t)di;
        out->imm |= (int64_t)reg_bits(dc, &pi->ops[0]) << 8;
        emu_fn fn = a64 ? (d64 ? i2i_66 : i2i_63) : (d64 ? i2i_36 : i2i_33);
        if (!(flags & CV_SAT))
            fn = a64 ? (d64 ? i2i_66_plain : i2i_63_plain) : (d64 ? i2i_36_plain : i2i_33_plain);
        return finish(dc, pi, out, fn, dt, at, 1);
    }
    if (df >= 0 && ai >= 0) {                                   /* float <- integer */
        if (rnd < 0 || integral || rnd == EMU_RND_NA)
            return emu_dec_unsupported(dc, "integer-to-float cvt needs .rn, .rz, .rm or .rp");
        out->sub = (uint8_t)ai;
        if (!a64 && !(flags & CV_SAT) && (df == FF32 || df == FF64))
            return finish(dc, pi, out, t_i2f_small[df == FF64][rnd], dt, at, 1);
        return finish(dc, pi, out, t_i2f[df][a64][rnd], dt, at, 1);
    }
    if (di >= 0 && af >= 0) {                                   /* integer <- float */
        if (rnd < 0 || !integral)
            return emu_dec_unsupported(dc, "float-to-integer cvt needs .rni, .rzi, .rmi or .rpi");
        out->sub2 = (uint8_t)di;
        out->imm |= (int64_t)reg_bits(dc, &pi->ops[0]) << 8;
        if (af == FF32 && !d64 && !(flags & CV_FTZ))
            return finish(dc, pi, out, t_f2i_small[rnd], dt, at, 1);
        return finish(dc, pi, out, t_f2i[af][d64][rnd], dt, at, 1);
    }
    /* float <- float */
    if (rnd == EMU_RND_NA)
        return emu_dec_unsupported(dc, ".rna is defined for tf32 only");
    if (df == af) {
        if (rnd >= 0 && !integral)
            return emu_dec_unsupported(dc, "same-type float cvt rounds to an integral value only");
        if (df == FF32)
            return finish(dc, pi, out, rnd < 0 ? f2f32_none : t_f2f32[rnd], dt, at, 1);
        if (df == FF64)
            return finish(dc, pi, out, rnd < 0 ? f2f64_none : t_f2f64[rnd], dt, at, 1);
        if (rnd < 0 || (flags & ~CV_FTZ))
            return emu_dec_unsupported(dc, "f16/bf16 same-type cvt needs an integer rounding");
        return finish(dc, pi, out, t_r16[df == FBF16][rnd], dt, at, 1);
    }
    if (integral)
        return emu_dec_unsupported(dc, "integer rounding needs the same float type on both sides");
    if (df == FF64) {                                           /* exact widening */
        if (af == FF32 && !flags)
            return finish(dc, pi, out, f2d_plain_h, dt, at, 1);
        return finish(dc, pi, out, af == FF32 ? f2d_f32 : (af == FF16 ? f2d_f16 : f2d_bf16), dt, at, 1);
    }
    if (df == FF32 && af != FF64) {
        if (!flags)
            return finish(dc, pi, out, af == FF16 ? h2f_f16_plain : h2f_bf16_plain, dt, at, 1);
        return finish(dc, pi, out, af == FF16 ? h2f_f16 : h2f_bf16, dt, at, 1);
    }
    if (rnd < 0)
        return emu_dec_unsupported(dc, "narrowing float cvt needs a rounding modifier");
    if (df == FF32)
        return finish(dc, pi, out, (rnd == EMU_RND_N && !flags) ? d2f_plain_h : t_d2f[rnd], dt, at, 1);
    if (af == FF32 && rnd == EMU_RND_N && !flags)
        return finish(dc, pi, out, df == FF16 ? f2h_plain : f2bf_plain, dt, at, 1);
    return finish(dc, pi, out, t_n16[af][df == FBF16][rnd], dt, at, 1);
}
