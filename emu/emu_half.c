/* emu_half.c -- f16, f16x2, bf16 and bf16x2 instructions: add sub mul fma neg abs min max ex2 tanh.
 * Values live in the low 16 bits (scalar) or in both halves (packed pairs) of r32 rows. */
#include <math.h>
#include <stdint.h>

#include "emu/emu.h"
#include "emu/emu_internal.h"
#include "emu/emu_lanes.h"

/* ---- Formats ------------------------------------------------------------------
 * Each operation widens its halves to f32 (exactly), computes the exact
 * result or its round-to-odd double, and rounds once to the 16-bit format
 * (PTX ISA "Half Precision Floating-Point Instructions"). NaN results are
 * the canonical 0x7FFF of both formats. */
enum { F16, BF16 };

static inline uint32_t widen(uint32_t h, int fmt) { return fmt == F16 ? emu_f16_to_f32(h) : emu_bf16_to_f32(h); }
static inline uint32_t hnan(uint32_t h, int fmt) { return fmt == F16 ? emu_isnan16(h) : emu_isnanbf(h); }
static inline uint32_t hftz(uint32_t h, int fmt)
{
    return fmt == F16 ? emu_ftz16(h) : ((h & 0x7F80u) ? h : (h & 0x8000u));
}
static inline uint32_t narrow(uint32_t f, int fmt)
{
    return fmt == F16 ? emu_f32_to_f16(f, EMU_RND_N) : emu_f32_to_bf16(f, EMU_RND_N);
}

/* A double rounded to odd at 24 bits, as an f32 pattern, in integer arithmetic
 * (clear the low 29 fraction bits, keep a sticky bit): exact for every value
 * of the f32 normal range, which holds all f16 results and their products. */
static inline uint32_t odd32_normal(double v)
{
    uint64_t b = emu_b64(v);
    uint64_t sticky = ((b & 0x1FFFFFFFull) + 0x1FFFFFFFull) >> 29;
    return emu_b32((float)emu_f64((b & ~0x1FFFFFFFull) | (sticky << 29)));
}

/* Rounds a round-to-odd (or exact) double to the format, nearest even; with
 * .ftz a result that is tiny after rounding with an unbounded exponent (the
 * value scaled so that the smallest normal number becomes 1) flushes. */
static inline uint32_t hround(double v, int fmt, int ftz)
{
    uint32_t f = fmt == F16 ? odd32_normal(v) : emu_f64_to_f32_odd(v);
    uint32_t r = narrow(f, fmt);
    if (ftz) {
        double sv = v * (fmt == F16 ? 0x1p14 : 0x1p126);
        uint32_t scaled = narrow(fmt == F16 ? odd32_normal(sv) : emu_f64_to_f32_odd(sv), fmt);
        uint32_t one = fmt == F16 ? 0x3C00u : 0x3F80u;
        r = emu_pick32((scaled & 0x7FFFu) < one, (f >> 16) & 0x8000u, r);
    }
    return r;
}

/* .sat clamps to [0, 1] with NaN -> +0; .relu clamps negatives (and -0) to +0
 * and leaves NaN canonical. Selects, not branches: the loops vectorise. */
static inline uint32_t hfinish(uint32_t r, int fmt, int sat, int relu)
{
    uint32_t one = fmt == F16 ? 0x3C00u : 0x3F80u;
    uint32_t nan = hnan(r, fmt);
    if (sat)
        r = emu_pick32(r > one && !(r & 0x8000u), one, r);
    if (sat || relu)
        r = emu_pick32(r >> 15, 0u, r);
    return emu_pick32(nan, sat ? 0u : EMU_NAN16, r);
}

static inline double dval(uint32_t h, int fmt) { return emu_f32(widen(h, fmt)); }

/* add/sub/mul .rn{.ftz}{.sat}: sums in double with the TwoSum error rounded to
 * odd (bf16 sums can span more than 53 bits), products exact in double. */
static inline __attribute__((always_inline)) uint32_t h_add1(uint32_t a, uint32_t b, int fmt, int ftz, int sat)
{
    if (ftz) {
        a = hftz(a, fmt);
        b = hftz(b, fmt);
    }
    double e, s = emu_two_sum(dval(a, fmt), dval(b, fmt), &e);
    double v = emu_round_odd(s, e);
    return hfinish(hround(v, fmt, ftz), fmt, sat, 0);
}
static inline uint32_t h_mul1(uint32_t a, uint32_t b, int fmt, int ftz, int sat)
{
    if (ftz) {
        a = hftz(a, fmt);
        b = hftz(b, fmt);
    }
    return hfinish(hround(dval(a, fmt) * dval(b, fmt), fmt, ftz), fmt, sat, 0);
}

/* fma.rn with .ftz .sat .relu .oob. An out-of-bounds NaN (the value a tensor
 * copy writes for elements outside the tensor) in a or b forces +0 with .oob;
 * on sm_90 that NaN is 0x7FF7 in both formats, either sign (recorded: no other
 * NaN pattern, and no NaN in c, has the effect). */
#define OOB_NAN 0x7FF7u
static inline __attribute__((always_inline)) uint32_t h_fma1(uint32_t a, uint32_t b, uint32_t c, int fmt, int ftz, int sat, int relu, int oob)
{
    uint32_t oobhit = (a & 0x7FFFu) == OOB_NAN || (b & 0x7FFFu) == OOB_NAN;
    if (ftz) {
        a = hftz(a, fmt);
        b = hftz(b, fmt);
        c = hftz(c, fmt);
    }
    double p = dval(a, fmt) * dval(b, fmt);                 /* exact: 2 x 11 bits */
    double e, s = emu_two_sum(p, dval(c, fmt), &e);
    double v = emu_round_odd(s, e);
    uint32_t r = hfinish(hround(v, fmt, ftz), fmt, sat, relu);
    return (oob && oobhit) ? 0u : r;
}

/* min/max with .ftz .NaN .xorsign.abs, as for f32: -0 < +0, a NaN operand
 * gives the other one, two NaNs (or any with .NaN) the canonical NaN. */
static inline uint32_t hkey(uint32_t x) { return (x & 0x8000u) ? (~x & 0xFFFFu) : (x | 0x8000u); }
static inline uint32_t h_minmax1(uint32_t a, uint32_t b, int fmt, int max, int ftz, int nan, int xs)
{
    if (ftz) {
        a = hftz(a, fmt);
        b = hftz(b, fmt);
    }
    uint32_t sign = (a ^ b) & 0x8000u;
    if (xs) {
        a &= 0x7FFFu;
        b &= 0x7FFFu;
    }
    uint32_t na = hnan(a, fmt), nb = hnan(b, fmt);
    uint32_t pick_a = max ? hkey(a) > hkey(b) : hkey(a) < hkey(b);
    uint32_t r = pick_a ? a : b;
    r = nb ? a : r;
    r = na ? b : r;
    if (nan)
        r = (na | nb) ? EMU_NAN16 : r;
    r = (na & nb) ? EMU_NAN16 : r;
    if (xs)
        r = hnan(r, fmt) ? r : (r | sign);
    return r;
}

/* neg/abs: sign operations that canonicalise NaN and, with .ftz, flush first. */
static inline uint32_t h_absneg1(uint32_t a, int fmt, int neg, int ftz)
{
    if (ftz)
        a = hftz(a, fmt);
    if (hnan(a, fmt))
        return EMU_NAN16;
    return neg ? a ^ 0x8000u : a & 0x7FFFu;
}

/* ex2.approx (f16; .ftz for bf16, which flushes subnormal inputs and results)
 * and tanh.approx: the function in double, rounded once to the format. */
static inline uint32_t h_ex21(uint32_t a, int fmt, int ftz)
{
    if (ftz)
        a = hftz(a, fmt);
    double x = dval(a, fmt);
    uint32_t r = hround(exp2(x), fmt, ftz);
    return hnan(a, fmt) ? EMU_NAN16 : r;
}
static inline uint32_t h_tanh1(uint32_t a, int fmt)
{
    uint32_t r = hround(tanh(dval(a, fmt)), fmt, 0);
    return hnan(a, fmt) ? EMU_NAN16 : r;
}

/* ---- Handlers -------------------------------------------------------------------
 * PAIR applies a 16-bit lane function to the low half (scalar types) or to
 * both halves (packed types, X2 = 1); EMU_STAMP32_n (emu_lanes.h) makes the
 * handler around it. */
#define LO(v) ((v) & 0xFFFFu)
#define HI(v) ((v) >> 16)
#define PAIR1(X2, F, a) ((X2) ? (F(LO(a)) | (F(HI(a)) << 16)) : F(LO(a)))
#define PAIR2(X2, F, a, b) ((X2) ? (F(LO(a), LO(b)) | (F(HI(a), HI(b)) << 16)) : F(LO(a), LO(b)))
#define PAIR3(X2, F, a, b, c) \
    ((X2) ? (F(LO(a), LO(b), LO(c)) | (F(HI(a), HI(b), HI(c)) << 16)) : F(LO(a), LO(b), LO(c)))

/* Type index: 0 f16, 1 f16x2, 2 bf16, 3 bf16x2. FMT_OF/X2_OF recover the parts. */
#define FMT_OF(ti) ((ti) >= 2 ? BF16 : F16)
#define X2_OF(ti) ((ti) & 1)

/* add/sub/mul: [type][ftz][sat] (bf16 forms take neither; their slots repeat). */
#define ADD_L(ti, F, S, x, y) h_add1(x, y, FMT_OF(ti), F, S)
#define SUB_L(ti, F, S, x, y) h_add1(x, (y) ^ 0x8000u, FMT_OF(ti), F, S)
#define MUL_L(ti, F, S, x, y) h_mul1(x, y, FMT_OF(ti), F, S)
#define STAMP_ARITH(OP, L) \
    STAMP_ARITH_T(OP, L, 0) STAMP_ARITH_T(OP, L, 1) STAMP_ARITH_T(OP, L, 2) STAMP_ARITH_T(OP, L, 3) \
    static const emu_fn t_##OP[4][2][2] = { \
        {{OP##_0_00, OP##_0_01}, {OP##_0_10, OP##_0_11}}, {{OP##_1_00, OP##_1_01}, {OP##_1_10, OP##_1_11}}, \
        {{OP##_2_00, OP##_2_01}, {OP##_2_10, OP##_2_11}}, {{OP##_3_00, OP##_3_01}, {OP##_3_10, OP##_3_11}}, \
    };
#define STAMP_ARITH_T(OP, L, ti) \
    STAMP_ARITH_1(OP, L, ti, 0, 0) STAMP_ARITH_1(OP, L, ti, 0, 1) \
    STAMP_ARITH_1(OP, L, ti, 1, 0) STAMP_ARITH_1(OP, L, ti, 1, 1)
#define STAMP_ARITH_1(OP, L, ti, F, S) \
    static inline uint32_t OP##_##ti##_##F##S##_l(uint32_t x, uint32_t y) { return L(ti, F, S, x, y); } \
    EMU_STAMP32_2(OP##_##ti##_##F##S, PAIR2(X2_OF(ti), OP##_##ti##_##F##S##_l, a, b))
STAMP_ARITH(hadd, ADD_L)
STAMP_ARITH(hsub, SUB_L)
STAMP_ARITH(hmul, MUL_L)

/* fma: [type][ftz][sat][relu][oob]. */
#define STAMP_FMA_1(ti, F, S, R, O) \
    static inline uint32_t hfma_##ti##F##S##R##O##_l(uint32_t x, uint32_t y, uint32_t z) \
    { \
        return h_fma1(x, y, z, FMT_OF(ti), F, S, R, O); \
    } \
    EMU_STAMP32_3(hfma_##ti##F##S##R##O, PAIR3(X2_OF(ti), hfma_##ti##F##S##R##O##_l, a, b, c))
#define STAMP_FMA_O(ti, F, S, R) STAMP_FMA_1(ti, F, S, R, 0) STAMP_FMA_1(ti, F, S, R, 1)
#define STAMP_FMA_R(ti, F, S) STAMP_FMA_O(ti, F, S, 0) STAMP_FMA_O(ti, F, S, 1)
#define STAMP_FMA_S(ti, F) STAMP_FMA_R(ti, F, 0) STAMP_FMA_R(ti, F, 1)
#define STAMP_FMA_T(ti) STAMP_FMA_S(ti, 0) STAMP_FMA_S(ti, 1)
STAMP_FMA_T(0)
STAMP_FMA_T(1)
STAMP_FMA_T(2)
STAMP_FMA_T(3)
#define FMA_ROW(ti, F, S) {{hfma_##ti##F##S##00, hfma_##ti##F##S##01}, {hfma_##ti##F##S##10, hfma_##ti##F##S##11}}
#define FMA_T(ti) {{FMA_ROW(ti, 0, 0), FMA_ROW(ti, 0, 1)}, {FMA_ROW(ti, 1, 0), FMA_ROW(ti, 1, 1)}}
static const emu_fn t_hfma[4][2][2][2][2] = {FMA_T(0), FMA_T(1), FMA_T(2), FMA_T(3)};

/* min/max: [type][max][ftz][nan][xorsign]. */
#define STAMP_MM_1(ti, X, F, N, S) \
    static inline uint32_t hmm_##ti##X##F##N##S##_l(uint32_t x, uint32_t y) \
    { \
        return h_minmax1(x, y, FMT_OF(ti), X, F, N, S); \
    } \
    EMU_STAMP32_2(hmm_##ti##X##F##N##S, PAIR2(X2_OF(ti), hmm_##ti##X##F##N##S##_l, a, b))
#define STAMP_MM_S(ti, X, F, N) STAMP_MM_1(ti, X, F, N, 0) STAMP_MM_1(ti, X, F, N, 1)
#define STAMP_MM_N(ti, X, F) STAMP_MM_S(ti, X, F, 0) STAMP_MM_S(ti, X, F, 1)
#define STAMP_MM_F(ti, X) STAMP_MM_N(ti, X, 0) STAMP_MM_N(ti, X, 1)
#define STAMP_MM_T(ti) STAMP_MM_F(ti, 0) STAMP_MM_F(ti, 1)
STAMP_MM_T(0)
STAMP_MM_T(1)
STAMP_MM_T(2)
STAMP_MM_T(3)
#define MM_ROW(ti, X, F) {{hmm_##ti##X##F##00, hmm_##ti##X##F##01}, {hmm_##ti##X##F##10, hmm_##ti##X##F##11}}
#define MM_T(ti) {{MM_ROW(ti, 0, 0), MM_ROW(ti, 0, 1)}, {MM_ROW(ti, 1, 0), MM_ROW(ti, 1, 1)}}
static const emu_fn t_hmm[4][2][2][2][2] = {MM_T(0), MM_T(1), MM_T(2), MM_T(3)};

/* abs/neg: [type][neg][ftz]; ex2: [type] (ftz fixed by the type); tanh: [type]. */
#define STAMP_UN_1(ti, N, F) \
    static inline uint32_t han_##ti##N##F##_l(uint32_t x) { return h_absneg1(x, FMT_OF(ti), N, F); } \
    EMU_STAMP32_1(han_##ti##N##F, PAIR1(X2_OF(ti), han_##ti##N##F##_l, a))
#define STAMP_UN_T(ti) STAMP_UN_1(ti, 0, 0) STAMP_UN_1(ti, 0, 1) STAMP_UN_1(ti, 1, 0) STAMP_UN_1(ti, 1, 1) \
    static inline uint32_t hex2_##ti##_l(uint32_t x) { return h_ex21(x, FMT_OF(ti), FMT_OF(ti) == BF16); } \
    EMU_STAMP32_1(hex2_##ti, PAIR1(X2_OF(ti), hex2_##ti##_l, a)) \
    static inline uint32_t htanh_##ti##_l(uint32_t x) { return h_tanh1(x, FMT_OF(ti)); } \
    EMU_STAMP32_1(htanh_##ti, PAIR1(X2_OF(ti), htanh_##ti##_l, a))
STAMP_UN_T(0)
STAMP_UN_T(1)
STAMP_UN_T(2)
STAMP_UN_T(3)
static const emu_fn t_han[4][2][2] = {
    {{han_000, han_001}, {han_010, han_011}}, {{han_100, han_101}, {han_110, han_111}},
    {{han_200, han_201}, {han_210, han_211}}, {{han_300, han_301}, {han_310, han_311}},
};
static const emu_fn t_hex2[4] = {hex2_0, hex2_1, hex2_2, hex2_3};
static const emu_fn t_htanh[4] = {htanh_0, htanh_1, htanh_2, htanh_3};

/* ---- Selection ------------------------------------------------------------------ */
static int type_index(enum ptx_type t)
{
    switch (t) {
    case PTX_T_F16: return 0;
    case PTX_T_F16X2: return 1;
    case PTX_T_BF16: return 2;
    case PTX_T_BF16X2: return 3;
    default: return -1;
    }
}

static enum emu_sel operands(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out,
                             enum ptx_type t, unsigned nsrc, emu_fn fn)
{
    if (pi->nops != nsrc + 1)
        return emu_dec_unsupported(dc, "unexpected number of operands");
    out->fn = fn;
    out->d = emu_dec_dst(dc, &pi->ops[0], t);
    uint16_t *src[3] = {&out->a, &out->b, &out->c};
    for (unsigned i = 0; i < nsrc; i++)
        *src[i] = emu_dec_src(dc, &pi->ops[1 + i], t);
    return EMU_SEL_OK;
}

/* Family selector: the f16/f16x2/bf16/bf16x2 forms (others: EMU_SEL_NO). */
enum emu_sel emu_sel_half(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out)
{
    switch (pi->op) {
    case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_MUL: case PTX_OP_FMA: case PTX_OP_NEG:
    case PTX_OP_ABS: case PTX_OP_MIN: case PTX_OP_MAX: case PTX_OP_EX2: case PTX_OP_TANH:
        break;
    default:
        return EMU_SEL_NO;
    }
    if (pi->ntypes < 1)
        return EMU_SEL_NO;
    enum ptx_type t = pi->types[0];
    int ti = type_index(t);
    if (ti < 0)
        return EMU_SEL_NO;
    if (pi->ntypes != 1)
        return emu_dec_unsupported(dc, "mixed-precision forms require sm_100");
    uint32_t f = pi->flags;
    int ftz = !!(f & PTX_IF_FTZ), sat = !!(f & PTX_IF_SAT), relu = !!(f & PTX_IF_RELU);
    int bf = FMT_OF(ti) == BF16;
    if (pi->round != PTX_MOD_NONE_ && pi->round != PTX_MOD_RN)
        return emu_dec_unsupported(dc, "half-precision arithmetic rounds to nearest only");
    if (bf && (sat || (ftz && pi->op != PTX_OP_EX2)))
        return emu_dec_unsupported(dc, ".ftz/.sat are not defined for bf16");
    const emu_fn fma2[2] = {t_hfma[ti][ftz][0][0][0], t_hfma[ti][ftz][1][0][0]};
    if (pi->round == PTX_MOD_NONE_ && (pi->op == PTX_OP_ADD || pi->op == PTX_OP_SUB || pi->op == PTX_OP_MUL) &&
        emu_dec_contracted(dc, pi, out, t, fma2))
        return EMU_SEL_OK;          /* fused by ptxas with a mul / an add (emu_codegen.c) */
    switch (pi->op) {
    case PTX_OP_ADD: return operands(dc, pi, out, t, 2, t_hadd[ti][ftz][sat]);
    case PTX_OP_SUB: return operands(dc, pi, out, t, 2, t_hsub[ti][ftz][sat]);
    case PTX_OP_MUL: return operands(dc, pi, out, t, 2, t_hmul[ti][ftz][sat]);
    case PTX_OP_FMA:
        if (pi->round != PTX_MOD_RN)
            return emu_dec_unsupported(dc, "fma requires .rn");
        if (sat && relu)
            return emu_dec_unsupported(dc, ".sat and .relu exclude each other");
        return operands(dc, pi, out, t, 3, t_hfma[ti][ftz][sat][relu][!!(f & PTX_IF_OOB)]);
    case PTX_OP_MIN: case PTX_OP_MAX:
        if (!!(f & PTX_IF_ABS) != !!(f & PTX_IF_XORSIGN))
            return emu_dec_unsupported(dc, ".xorsign and .abs go together");
        return operands(dc, pi, out, t, 2,
                        t_hmm[ti][pi->op == PTX_OP_MAX][ftz][!!(f & PTX_IF_NAN)][!!(f & PTX_IF_XORSIGN)]);
    case PTX_OP_ABS: return operands(dc, pi, out, t, 1, t_han[ti][0][ftz]);
    case PTX_OP_NEG: return operands(dc, pi, out, t, 1, t_han[ti][1][ftz]);
    case PTX_OP_EX2:
        if (!(f & PTX_IF_APPROX) || ftz != bf)
            return emu_dec_unsupported(dc, "ex2 is ex2.approx for f16 and ex2.approx.ftz for bf16");
        return operands(dc, pi, out, t, 1, t_hex2[ti]);
    case PTX_OP_TANH:
        if (!(f & PTX_IF_APPROX))
            return emu_dec_unsupported(dc, "tanh requires .approx");
        return operands(dc, pi, out, t, 1, t_htanh[ti]);
    default:
        return EMU_SEL_NO;
    }
}
