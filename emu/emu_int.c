/* emu_int.c -- integer arithmetic: add sub mul mad mul24 mad24 sad div rem abs neg min max,
 * the carry chain (.cc, addc, subc, madc) and the packed .u16x2/.s16x2 add/min/max. */
#include <stdint.h>

#include "emu/emu.h"
#include "emu/emu_internal.h"
#include "emu/emu_lanes.h"

/* ---- Type traits ------------------------------------------------------------
 * One tag per integer type. 8/16-bit values live zero-extended in r32 rows;
 * sources are re-extended as the type says (a constant row may hold a wider
 * pattern, such as -1 for an .s16 immediate) and results are narrowed to the
 * type's width before the masked write.
 *   ROW_t  row element type        FILE_t  register file (r32 / r64)
 *   UT_t   unsigned compute type   CT_t    compare type (signedness of t)
 *   EXT_t  row value -> value      NAR_t   value -> row value
 *   PUT_t  masked lane write       W_t     width in bits */
#define ROW_u16 uint32_t
#define ROW_s16 uint32_t
#define ROW_u32 uint32_t
#define ROW_s32 uint32_t
#define ROW_u64 uint64_t
#define ROW_s64 uint64_t
#define FILE_u16 r32
#define FILE_s16 r32
#define FILE_u32 r32
#define FILE_s32 r32
#define FILE_u64 r64
#define FILE_s64 r64
#define UT_u16 uint32_t
#define UT_s16 uint32_t
#define UT_u32 uint32_t
#define UT_s32 uint32_t
#define UT_u64 uint64_t
#define UT_s64 uint64_t
#define CT_u16 uint32_t
#define CT_s16 int32_t
#define CT_u32 uint32_t
#define CT_s32 int32_t
#define CT_u64 uint64_t
#define CT_s64 int64_t
#define EXT_u16(v) ((v) & 0xFFFFu)
#define EXT_s16(v) emu_sx16(v)
#define EXT_u32(v) (v)
#define EXT_s32(v) (v)
#define EXT_u64(v) (v)
#define EXT_s64(v) (v)
#define NAR_u16(v) ((uint32_t)(v) & 0xFFFFu)
#define NAR_s16(v) ((uint32_t)(v) & 0xFFFFu)
#define NAR_u32(v) ((uint32_t)(v))
#define NAR_s32(v) ((uint32_t)(v))
#define NAR_u64(v) ((uint64_t)(v))
#define NAR_s64(v) ((uint64_t)(v))
#define PUT_u16 EMU_PUT32
#define PUT_s16 EMU_PUT32
#define PUT_u32 EMU_PUT32
#define PUT_s32 EMU_PUT32
#define PUT_u64 EMU_PUT64
#define PUT_s64 EMU_PUT64
#define W_u16 16
#define W_s16 16
#define W_u32 32
#define W_s32 32
#define W_u64 64
#define W_s64 64

/* Index of an integer type in the handler tables below; -1 if not one. */
enum { IT_U16, IT_S16, IT_U32, IT_S32, IT_U64, IT_S64, IT_N };
static int int_index(enum ptx_type t)
{
    switch (t) {
    case PTX_T_U16: return IT_U16;
    case PTX_T_S16: return IT_S16;
    case PTX_T_U32: return IT_U32;
    case PTX_T_S32: return IT_S32;
    case PTX_T_U64: return IT_U64;
    case PTX_T_S64: return IT_S64;
    default: return -1;
    }
}

/* ---- Handler stamps -----------------------------------------------------------
 * Each stamp makes one handler h_<name>_<tag> whose lane body evaluates the
 * operation macro OP(t, a, b[, c]) over extended source values. */
#define STAMP_UN(name, T, OP) \
    EMU_HANDLER(h_##name##_##T) \
    { \
        ROW_##T *d = w->FILE_##T[in->d]; \
        const ROW_##T *ra = w->FILE_##T[in->a]; \
        EMU_EACH(l) { \
            UT_##T a = EXT_##T(ra[l]); \
            PUT_##T(d, m, l, NAR_##T(OP(T, a))); \
        } \
        return EMU_CONTINUE; \
    }
#define STAMP_BIN(name, T, OP) \
    EMU_HANDLER(h_##name##_##T) \
    { \
        ROW_##T *d = w->FILE_##T[in->d]; \
        const ROW_##T *ra = w->FILE_##T[in->a], *rb = w->FILE_##T[in->b]; \
        EMU_EACH(l) { \
            UT_##T a = EXT_##T(ra[l]), b = EXT_##T(rb[l]); \
            PUT_##T(d, m, l, NAR_##T(OP(T, a, b))); \
        } \
        return EMU_CONTINUE; \
    }
#define STAMP_TER(name, T, OP) \
    EMU_HANDLER(h_##name##_##T) \
    { \
        ROW_##T *d = w->FILE_##T[in->d]; \
        const ROW_##T *ra = w->FILE_##T[in->a], *rb = w->FILE_##T[in->b], *rc = w->FILE_##T[in->c]; \
        EMU_EACH(l) { \
            UT_##T a = EXT_##T(ra[l]), b = EXT_##T(rb[l]), c = EXT_##T(rc[l]); \
            PUT_##T(d, m, l, NAR_##T(OP(T, a, b, c))); \
        } \
        return EMU_CONTINUE; \
    }
/* Division has no vector form on any x86 target: a plain lane loop. */
#define STAMP_DIV(name, T, OP) \
    EMU_HANDLER(h_##name##_##T) \
    { \
        ROW_##T *d = w->FILE_##T[in->d]; \
        const ROW_##T *ra = w->FILE_##T[in->a], *rb = w->FILE_##T[in->b]; \
        for (unsigned l = 0; l < EMU_WARP_SIZE; l++) { \
            UT_##T a = EXT_##T(ra[l]), b = EXT_##T(rb[l]); \
            PUT_##T(d, m, l, NAR_##T(OP(T, a, b))); \
        } \
        return EMU_CONTINUE; \
    }

#define STAMP_ALL(STAMP, name, OP) \
    STAMP(name, u16, OP) STAMP(name, s16, OP) STAMP(name, u32, OP) \
    STAMP(name, s32, OP) STAMP(name, u64, OP) STAMP(name, s64, OP)
/* Operations whose bits do not depend on signedness: one handler per width. */
#define STAMP_WIDTHS(STAMP, name, OP) STAMP(name, u16, OP) STAMP(name, u32, OP) STAMP(name, u64, OP)
#define TABLE_ALL(name) { h_##name##_u16, h_##name##_s16, h_##name##_u32, h_##name##_s32, h_##name##_u64, h_##name##_s64 }
#define TABLE_WIDTHS(name) { h_##name##_u16, h_##name##_u16, h_##name##_u32, h_##name##_u32, h_##name##_u64, h_##name##_u64 }

/* ---- Plain arithmetic ------------------------------------------------------- */
#define OP_ADD(T, a, b) ((a) + (b))
#define OP_SUB(T, a, b) ((a) - (b))
#define OP_MULLO(T, a, b) ((a) * (b))
#define OP_MADLO(T, a, b, c) ((a) * (b) + (c))
#define OP_LT(T, a, b) ((CT_##T)(a) < (CT_##T)(b))
#define OP_MIN(T, a, b) (OP_LT(T, a, b) ? (a) : (b))
#define OP_MAX(T, a, b) (OP_LT(T, b, a) ? (a) : (b))
#define OP_ABS(T, a) ((CT_##T)(a) < 0 ? (UT_##T)0 - (a) : (a))
#define OP_NEG(T, a) ((UT_##T)0 - (a))
/* sad: c + |a - b|, the difference taken in the type's signedness. */
#define OP_SAD(T, a, b, c) ((c) + (OP_LT(T, a, b) ? (b) - (a) : (a) - (b)))

STAMP_WIDTHS(STAMP_BIN, add, OP_ADD)
STAMP_WIDTHS(STAMP_BIN, sub, OP_SUB)
STAMP_WIDTHS(STAMP_BIN, mullo, OP_MULLO)
STAMP_WIDTHS(STAMP_TER, madlo, OP_MADLO)
STAMP_ALL(STAMP_BIN, min, OP_MIN)
STAMP_ALL(STAMP_BIN, max, OP_MAX)
STAMP_ALL(STAMP_TER, sad, OP_SAD)
STAMP_UN(abs, s16, OP_ABS) STAMP_UN(abs, s32, OP_ABS) STAMP_UN(abs, s64, OP_ABS)
STAMP_UN(neg, u16, OP_NEG) STAMP_UN(neg, u32, OP_NEG) STAMP_UN(neg, u64, OP_NEG)

static const emu_fn fn_add[IT_N] = TABLE_WIDTHS(add);
static const emu_fn fn_sub[IT_N] = TABLE_WIDTHS(sub);
static const emu_fn fn_mullo[IT_N] = TABLE_WIDTHS(mullo);
static const emu_fn fn_madlo[IT_N] = TABLE_WIDTHS(madlo);
static const emu_fn fn_min[IT_N] = TABLE_ALL(min);
static const emu_fn fn_max[IT_N] = TABLE_ALL(max);

/* Scalar twins (emu_lanes.h) of the 32- and 64-bit ones: loop counters,
 * strides and bounds computed from parameters and block indices. */
#define STAMP_UBIN(name, T, OP) \
    EMU_TWIN(hu_##name##_##T, h_##name##_##T) \
    { \
        UT_##T a = EXT_##T(w->FILE_##T[in->a][0]), b = EXT_##T(w->FILE_##T[in->b][0]); \
        EMU_FILL(w->FILE_##T[in->d], NAR_##T(OP(T, a, b))); \
        return EMU_CONTINUE; \
    }
#define STAMP_UTER(name, T, OP) \
    EMU_TWIN(hu_##name##_##T, h_##name##_##T) \
    { \
        UT_##T a = EXT_##T(w->FILE_##T[in->a][0]), b = EXT_##T(w->FILE_##T[in->b][0]); \
        UT_##T c = EXT_##T(w->FILE_##T[in->c][0]); \
        EMU_FILL(w->FILE_##T[in->d], NAR_##T(OP(T, a, b, c))); \
        return EMU_CONTINUE; \
    }
#define STAMP_U3264(STAMP, name, OP) STAMP(name, u32, OP) STAMP(name, u64, OP)
STAMP_U3264(STAMP_UBIN, add, OP_ADD)
STAMP_U3264(STAMP_UBIN, sub, OP_SUB)
STAMP_U3264(STAMP_UBIN, mullo, OP_MULLO)
STAMP_U3264(STAMP_UTER, madlo, OP_MADLO)
STAMP_UBIN(min, u32, OP_MIN) STAMP_UBIN(min, s32, OP_MIN) STAMP_UBIN(min, u64, OP_MIN) STAMP_UBIN(min, s64, OP_MIN)
STAMP_UBIN(max, u32, OP_MAX) STAMP_UBIN(max, s32, OP_MAX) STAMP_UBIN(max, u64, OP_MAX) STAMP_UBIN(max, s64, OP_MAX)
#define TABLE_UWIDTHS(name) { NULL, NULL, hu_##name##_u32, hu_##name##_u32, hu_##name##_u64, hu_##name##_u64 }
#define TABLE_UALL(name) { NULL, NULL, hu_##name##_u32, hu_##name##_s32, hu_##name##_u64, hu_##name##_s64 }
static const emu_fn fnu_add[IT_N] = TABLE_UWIDTHS(add);
static const emu_fn fnu_sub[IT_N] = TABLE_UWIDTHS(sub);
static const emu_fn fnu_mullo[IT_N] = TABLE_UWIDTHS(mullo);
static const emu_fn fnu_madlo[IT_N] = TABLE_UWIDTHS(madlo);
static const emu_fn fnu_min[IT_N] = TABLE_UALL(min);
static const emu_fn fnu_max[IT_N] = TABLE_UALL(max);
static const emu_fn fn_sad[IT_N] = TABLE_ALL(sad);
static const emu_fn fn_abs[IT_N] = { NULL, h_abs_s16, NULL, h_abs_s32, NULL, h_abs_s64 };
static const emu_fn fn_neg[IT_N] = { NULL, h_neg_u16, NULL, h_neg_u32, NULL, h_neg_u64 };

/* ---- High halves of products ---------------------------------------------------
 * HI_t(a, b): bits [2n-1:n] of the full product of two extended n-bit values. */
#define HI_u16(a, b) (((a) * (b)) >> 16)
#define HI_s16(a, b) ((uint32_t)(((int32_t)(a) * (int32_t)(b)) >> 16))
#define HI_u32(a, b) ((uint32_t)(((uint64_t)(a) * (b)) >> 32))
#define HI_s32(a, b) ((uint32_t)(((int64_t)(int32_t)(a) * (int32_t)(b)) >> 32))
#define HI_u64(a, b) ((uint64_t)(((unsigned __int128)(a) * (b)) >> 64))
#define HI_s64(a, b) ((uint64_t)(((__int128)(int64_t)(a) * (int64_t)(b)) >> 64))
#define OP_MULHI(T, a, b) HI_##T(a, b)
#define OP_MADHI(T, a, b, c) (HI_##T(a, b) + (c))

STAMP_ALL(STAMP_BIN, mulhi, OP_MULHI)
STAMP_ALL(STAMP_TER, madhi, OP_MADHI)
static const emu_fn fn_mulhi[IT_N] = TABLE_ALL(mulhi);
static const emu_fn fn_madhi[IT_N] = TABLE_ALL(madhi);

/* Saturating 32-bit signed sums: overflow when both operands' signs differ
 * from the result's; the bound then follows a's sign ("Integer Arithmetic
 * Instructions: add", .sat limits the result to MININT..MAXINT). */
static inline uint32_t sat_add32(uint32_t a, uint32_t b)
{
    uint32_t r = a + b, ovf = ((a ^ r) & (b ^ r)) >> 31;
    return ovf ? 0x7FFFFFFFu + (a >> 31) : r;
}
static inline uint32_t sat_sub32(uint32_t a, uint32_t b)
{
    uint32_t r = a - b, ovf = ((a ^ b) & (a ^ r)) >> 31;
    return ovf ? 0x7FFFFFFFu + (a >> 31) : r;
}
#define OP_ADDSAT(T, a, b) sat_add32(a, b)
#define OP_SUBSAT(T, a, b) sat_sub32(a, b)
#define OP_MADHISAT(T, a, b, c) sat_add32(HI_s32(a, b), c)
STAMP_BIN(addsat, s32, OP_ADDSAT)
STAMP_BIN(subsat, s32, OP_SUBSAT)
STAMP_TER(madhisat, s32, OP_MADHISAT)

/* min/max .relu (s32): negative results become 0. */
#define OP_MINRELU(T, a, b) (OP_MIN(T, a, b) & (uint32_t)~((int32_t)OP_MIN(T, a, b) >> 31))
#define OP_MAXRELU(T, a, b) (OP_MAX(T, a, b) & (uint32_t)~((int32_t)OP_MAX(T, a, b) >> 31))
STAMP_BIN(minrelu, s32, OP_MINRELU)
STAMP_BIN(maxrelu, s32, OP_MAXRELU)

/* ---- mul.wide / mad.wide: n-bit sources, 2n-bit destination (and c) -------------- */
#define WIDE_u16(a, b) ((a) * (b))
#define WIDE_s16(a, b) ((uint32_t)((int32_t)(a) * (int32_t)(b)))
#define WIDE_u32(a, b) ((uint64_t)(a) * (b))
#define WIDE_s32(a, b) ((uint64_t)((int64_t)(int32_t)(a) * (int32_t)(b)))
/* DT/DFILE/DPUT: the 2n-bit destination's row type, file and write. */
#define STAMP_WIDE(T, DT, DFILE, DPUT) \
    EMU_HANDLER(h_mulwide_##T) \
    { \
        DT *d = w->DFILE[in->d]; \
        const ROW_##T *ra = w->FILE_##T[in->a], *rb = w->FILE_##T[in->b]; \
        EMU_EACH(l) { \
            UT_##T a = EXT_##T(ra[l]), b = EXT_##T(rb[l]); \
            DPUT(d, m, l, WIDE_##T(a, b)); \
        } \
        return EMU_CONTINUE; \
    } \
    EMU_HANDLER(h_madwide_##T) \
    { \
        DT *d = w->DFILE[in->d]; \
        const ROW_##T *ra = w->FILE_##T[in->a], *rb = w->FILE_##T[in->b]; \
        const DT *rc = w->DFILE[in->c]; \
        EMU_EACH(l) { \
            UT_##T a = EXT_##T(ra[l]), b = EXT_##T(rb[l]); \
            DPUT(d, m, l, WIDE_##T(a, b) + rc[l]); \
        } \
        return EMU_CONTINUE; \
    }
STAMP_WIDE(u16, uint32_t, r32, EMU_PUT32)
STAMP_WIDE(s16, uint32_t, r32, EMU_PUT32)
STAMP_WIDE(u32, uint64_t, r64, EMU_PUT64)
STAMP_WIDE(s32, uint64_t, r64, EMU_PUT64)
static const emu_fn fn_mulwide[IT_N] = { h_mulwide_u16, h_mulwide_s16, h_mulwide_u32, h_mulwide_s32, NULL, NULL };
static const emu_fn fn_madwide[IT_N] = { h_madwide_u16, h_madwide_s16, h_madwide_u32, h_madwide_s32, NULL, NULL };
#define STAMP_UWIDE(T) \
    EMU_TWIN(hu_mulwide_##T, h_mulwide_##T) \
    { \
        UT_##T a = EXT_##T(w->FILE_##T[in->a][0]), b = EXT_##T(w->FILE_##T[in->b][0]); \
        EMU_FILL(w->r64[in->d], WIDE_##T(a, b)); \
        return EMU_CONTINUE; \
    } \
    EMU_TWIN(hu_madwide_##T, h_madwide_##T) \
    { \
        UT_##T a = EXT_##T(w->FILE_##T[in->a][0]), b = EXT_##T(w->FILE_##T[in->b][0]); \
        EMU_FILL(w->r64[in->d], WIDE_##T(a, b) + w->r64[in->c][0]); \
        return EMU_CONTINUE; \
    }
STAMP_UWIDE(u32) STAMP_UWIDE(s32)
static const emu_fn fnu_mulwide[IT_N] = { NULL, NULL, hu_mulwide_u32, hu_mulwide_s32, NULL, NULL };
static const emu_fn fnu_madwide[IT_N] = { NULL, NULL, hu_madwide_u32, hu_madwide_s32, NULL, NULL };

/* ---- mul24 / mad24 ----------------------------------------------------------------
 * The low 24 bits of a and b (sign-extended from bit 23 for .s32) make a 48-bit
 * product; .lo keeps bits 31..0, .hi bits 47..16. */
#define A24_u32(v) ((uint64_t)((v) & 0xFFFFFFu))
#define A24_s32(v) ((uint64_t)(int64_t)((int32_t)((v) << 8) >> 8))
#define P24(T, a, b) (A24_##T(a) * A24_##T(b))
#define OP_MUL24LO(T, a, b) ((uint32_t)P24(T, a, b))
#define OP_MUL24HI(T, a, b) ((uint32_t)(P24(T, a, b) >> 16))
#define OP_MAD24LO(T, a, b, c) (OP_MUL24LO(T, a, b) + (c))
#define OP_MAD24HI(T, a, b, c) (OP_MUL24HI(T, a, b) + (c))
#define OP_MAD24HISAT(T, a, b, c) sat_add32(OP_MUL24HI(T, a, b), c)
STAMP_BIN(mul24lo, u32, OP_MUL24LO) STAMP_BIN(mul24lo, s32, OP_MUL24LO)
STAMP_BIN(mul24hi, u32, OP_MUL24HI) STAMP_BIN(mul24hi, s32, OP_MUL24HI)
STAMP_TER(mad24lo, u32, OP_MAD24LO) STAMP_TER(mad24lo, s32, OP_MAD24LO)
STAMP_TER(mad24hi, u32, OP_MAD24HI) STAMP_TER(mad24hi, s32, OP_MAD24HI)
STAMP_TER(mad24hisat, s32, OP_MAD24HISAT)

/* ---- div / rem --------------------------------------------------------------------
 * No trapping C division ever runs: a zero divisor is replaced by 1 and the
 * result chosen afterwards. What an H100 gives (int_div edge kernel):
 *   x / 0 = all ones and x % 0 = all ones, signed and unsigned alike;
 *   MIN / -1 = MIN and MIN % -1 = 0 (the magnitudes simply wrap).
 * Signed forms divide magnitudes and fix the sign (quotient: negative when
 * the signs differ; remainder: the dividend's sign); 16-bit types divide the
 * extended 32-bit values and narrow the result. */
#define SAFE(b) ((b) + ((b) == 0))
#define MAG(T, v) ((CT_##T)(v) < 0 ? (UT_##T)0 - (v) : (v))
#define NEG_IF(T, c, v) ((c) ? (UT_##T)0 - (v) : (v))
#define OP_DIVU(T, a, b) ((b) == 0 ? ~(UT_##T)0 : (a) / SAFE(b))
#define OP_REMU(T, a, b) ((b) == 0 ? ~(UT_##T)0 : (a) % SAFE(b))
#define OP_DIVS(T, a, b) \
    ((b) == 0 ? ~(UT_##T)0 : NEG_IF(T, (CT_##T)((a) ^ (b)) < 0, MAG(T, a) / SAFE(MAG(T, b))))
#define OP_REMS(T, a, b) \
    ((b) == 0 ? ~(UT_##T)0 : NEG_IF(T, (CT_##T)(a) < 0, MAG(T, a) % SAFE(MAG(T, b))))
STAMP_DIV(div, u16, OP_DIVU) STAMP_DIV(div, u32, OP_DIVU) STAMP_DIV(div, u64, OP_DIVU)
STAMP_DIV(div, s16, OP_DIVS) STAMP_DIV(div, s32, OP_DIVS) STAMP_DIV(div, s64, OP_DIVS)
STAMP_DIV(rem, u16, OP_REMU) STAMP_DIV(rem, u32, OP_REMU) STAMP_DIV(rem, u64, OP_REMU)
STAMP_DIV(rem, s16, OP_REMS) STAMP_DIV(rem, s32, OP_REMS) STAMP_DIV(rem, s64, OP_REMS)
static const emu_fn fn_div[IT_N] = TABLE_ALL(div);
static const emu_fn fn_rem[IT_N] = TABLE_ALL(rem);

/* ---- Packed .u16x2 / .s16x2 -------------------------------------------------------
 * Both halves computed from their 16-bit fields; OP16(H, x, y) works on values
 * extended by H (u16 or s16) and returns the 16-bit result. */
#define HALF_LO(v) ((v) & 0xFFFFu)
#define HALF_HI(v) ((v) >> 16)
#define P16_ADD(H, x, y) ((x) + (y))
#define P16_MIN(H, x, y) (OP_LT(H, x, y) ? (x) : (y))
#define P16_MAX(H, x, y) (OP_LT(H, y, x) ? (x) : (y))
#define P16_RELU(v) ((int32_t)(v) < 0 ? 0u : (v))
#define P16_MINRELU(H, x, y) P16_RELU(P16_MIN(H, x, y))
#define P16_MAXRELU(H, x, y) P16_RELU(P16_MAX(H, x, y))
#define STAMP_X2(name, H, OP16) \
    EMU_HANDLER(h_##name##_##H##x2) \
    { \
        uint32_t *d = w->r32[in->d]; \
        const uint32_t *ra = w->r32[in->a], *rb = w->r32[in->b]; \
        EMU_EACH(l) { \
            uint32_t alo = EXT_##H(HALF_LO(ra[l])), ahi = EXT_##H(HALF_HI(ra[l])); \
            uint32_t blo = EXT_##H(HALF_LO(rb[l])), bhi = EXT_##H(HALF_HI(rb[l])); \
            uint32_t lo = OP16(H, alo, blo) & 0xFFFFu, hi = OP16(H, ahi, bhi) & 0xFFFFu; \
            EMU_PUT32(d, m, l, lo | hi << 16); \
        } \
        return EMU_CONTINUE; \
    }
STAMP_X2(add, u16, P16_ADD)
STAMP_X2(min, u16, P16_MIN) STAMP_X2(min, s16, P16_MIN)
STAMP_X2(max, u16, P16_MAX) STAMP_X2(max, s16, P16_MAX)
STAMP_X2(minrelu, s16, P16_MINRELU) STAMP_X2(maxrelu, s16, P16_MAXRELU)

/* ---- The carry chain ("Extended-Precision Integer Arithmetic Instructions") ---------
 * w->cc[l] holds lane l's CC.CF as the GPU keeps it: every form is one
 * addition x + y + cin whose carry-out becomes the flag. Subtraction adds
 * the complement, a + ~b + 1 for sub.cc and a + ~b + CF for subc, so after a
 * subtraction the flag is NOT borrow; the PTX reading d = a - (b + CF) of
 * subc follows. An H100 confirms it (int_carry edge kernel: addc after
 * sub.cc adds 1 when nothing was borrowed, subc after add.cc subtracts 1
 * when nothing was carried). Signed types produce the same bits.
 *   X, Y: the addends from a, b, c;  CIN: 0, 1 or CF;  COUT: write the flag. */
#define CIN_0(w, l) 0u
#define CIN_1(w, l) 1u
#define CIN_CF(w, l) ((w)->cc[l] & 1u)
#define STAMP_CARRYW(name, W, CIN, COUT, X, Y) \
    EMU_HANDLER(h_##name##_##W) \
    { \
        uint##W##_t *d = w->r##W[in->d]; \
        const uint##W##_t *ra = w->r##W[in->a], *rb = w->r##W[in->b], *rc = w->r##W[in->c]; \
        EMU_EACH(l) { \
            uint##W##_t a = ra[l], b = rb[l], c = rc[l], x = (uint##W##_t)(X), y = (uint##W##_t)(Y); \
            uint##W##_t s1 = x + y, s = s1 + CIN(w, l); \
            (void)c; \
            EMU_PUT##W(d, m, l, s); \
            if (COUT) { \
                uint32_t k = emu_lane_k32(m, l); \
                w->cc[l] = (w->cc[l] & ~k) | ((uint32_t)((s1 < x) | (s < s1)) & k); \
            } \
        } \
        return EMU_CONTINUE; \
    }
#define STAMP_CARRY32(name, CIN, COUT, X, Y) STAMP_CARRYW(name, 32, CIN, COUT, X, Y)
#define STAMP_CARRY64(name, CIN, COUT, X, Y) STAMP_CARRYW(name, 64, CIN, COUT, X, Y)
/* Both widths of one form: X32 and X64 are the first addend at each width. */
#define STAMP_CARRY(name, CIN, COUT, X32, X64, Y) \
    STAMP_CARRY32(name, CIN, COUT, X32, Y) STAMP_CARRY64(name, CIN, COUT, X64, Y)
STAMP_CARRY(addcc, CIN_0, 1, a, a, b)
STAMP_CARRY(addc, CIN_CF, 0, a, a, b)
STAMP_CARRY(addccc, CIN_CF, 1, a, a, b)
STAMP_CARRY(subcc, CIN_1, 1, a, a, ~b)
STAMP_CARRY(subc, CIN_CF, 0, a, a, ~b)
STAMP_CARRY(subccc, CIN_CF, 1, a, a, ~b)
STAMP_CARRY(madlocc, CIN_0, 1, a * b, a * b, c)
STAMP_CARRY(madclo, CIN_CF, 0, a * b, a * b, c)
STAMP_CARRY(madclocc, CIN_CF, 1, a * b, a * b, c)
STAMP_CARRY(madhiccu, CIN_0, 1, HI_u32(a, b), HI_u64(a, b), c)
STAMP_CARRY(madhiccs, CIN_0, 1, HI_s32(a, b), HI_s64(a, b), c)
STAMP_CARRY(madchiu, CIN_CF, 0, HI_u32(a, b), HI_u64(a, b), c)
STAMP_CARRY(madchis, CIN_CF, 0, HI_s32(a, b), HI_s64(a, b), c)
STAMP_CARRY(madchiccu, CIN_CF, 1, HI_u32(a, b), HI_u64(a, b), c)
STAMP_CARRY(madchiccs, CIN_CF, 1, HI_s32(a, b), HI_s64(a, b), c)

/* ---- Selection ------------------------------------------------------------------ */

/* True when suffix `mod` was written on the instruction. */
static bool has_mod(const struct ptx_instr *pi, enum ptx_mod mod)
{
    for (unsigned i = 0; i < pi->nmods; i++)
        if (pi->mods[i] == mod)
            return true;
    return false;
}

/* True when every suffix written is in the PTX_MOD_NONE_-terminated list `ok`. */
static bool mods_within(const struct ptx_instr *pi, const enum ptx_mod *ok)
{
    for (unsigned i = 0; i < pi->nmods; i++) {
        const enum ptx_mod *k = ok;
        while (*k != PTX_MOD_NONE_ && *k != pi->mods[i])
            k++;
        if (*k == PTX_MOD_NONE_)
            return false;
    }
    return true;
}
#define MODS(...) ((const enum ptx_mod[]){ __VA_ARGS__, PTX_MOD_NONE_ })

static bool is_float_type(enum ptx_type t)
{
    switch (t) {
    case PTX_T_F16: case PTX_T_F16X2: case PTX_T_BF16: case PTX_T_BF16X2:
    case PTX_T_F32: case PTX_T_F64: case PTX_T_F32X2: case PTX_T_TF32:
        return true;
    default:
        return false;
    }
}

/* Fills the operand rows of d, a[, b[, c]] read as `st` (d written as `dt`). */
static void rows(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out,
                 enum ptx_type dt, enum ptx_type st, enum ptx_type ct, unsigned nsrc)
{
    out->d = emu_dec_dst(dc, &pi->ops[0], dt);
    out->a = emu_dec_src(dc, &pi->ops[1], st);
    if (nsrc > 1)
        out->b = emu_dec_src(dc, &pi->ops[2], st);
    if (nsrc > 2)
        out->c = emu_dec_src(dc, &pi->ops[3], ct);
}

/* The integer type that a 2n-bit result of n-bit type t has. */
static enum ptx_type wide_type(enum ptx_type t)
{
    switch (t) {
    case PTX_T_U16: return PTX_T_U32;
    case PTX_T_S16: return PTX_T_S32;
    case PTX_T_U32: return PTX_T_U64;
    case PTX_T_S32: return PTX_T_S64;
    default: return PTX_T_NONE;
    }
}

/* Chooses the carry handler: `k` names the 32/64-bit pair, picked by width. */
#define CARRY(k) (wide ? h_##k##_64 : h_##k##_32)

/* add sub with .cc, addc subc, mad.cc and madc. */
static enum emu_sel sel_carry(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out,
                              enum ptx_type t, int ti)
{
    bool wide = ti == IT_U64 || ti == IT_S64, sgn = ti == IT_S32 || ti == IT_S64;
    bool cc = pi->flags & PTX_IF_CC, hi = has_mod(pi, PTX_MOD_HI);
    if (ti < IT_U32)
        return emu_dec_unsupported(dc, "carry arithmetic is defined for 32- and 64-bit types only");
    switch (pi->op) {
    case PTX_OP_ADD:
        if (!mods_within(pi, MODS(PTX_MOD_CC)))
            return emu_dec_unsupported(dc, "add.cc takes no other modifier");
        out->fn = CARRY(addcc);
        break;
    case PTX_OP_SUB:
        if (!mods_within(pi, MODS(PTX_MOD_CC)))
            return emu_dec_unsupported(dc, "sub.cc takes no other modifier");
        out->fn = CARRY(subcc);
        break;
    case PTX_OP_ADDC:
        if (!mods_within(pi, MODS(PTX_MOD_CC)))
            return emu_dec_unsupported(dc, "addc takes only .cc");
        out->fn = cc ? CARRY(addccc) : CARRY(addc);
        break;
    case PTX_OP_SUBC:
        if (!mods_within(pi, MODS(PTX_MOD_CC)))
            return emu_dec_unsupported(dc, "subc takes only .cc");
        out->fn = cc ? CARRY(subccc) : CARRY(subc);
        break;
    case PTX_OP_MAD:
        if (!mods_within(pi, MODS(PTX_MOD_CC, PTX_MOD_LO, PTX_MOD_HI)) || has_mod(pi, PTX_MOD_LO) == hi)
            return emu_dec_unsupported(dc, "mad.cc needs exactly one of .lo and .hi");
        out->fn = !hi ? CARRY(madlocc) : sgn ? CARRY(madhiccs) : CARRY(madhiccu);
        break;
    case PTX_OP_MADC:
        if (!mods_within(pi, MODS(PTX_MOD_CC, PTX_MOD_LO, PTX_MOD_HI)) || has_mod(pi, PTX_MOD_LO) == hi)
            return emu_dec_unsupported(dc, "madc needs exactly one of .lo and .hi");
        if (!hi)
            out->fn = cc ? CARRY(madclocc) : CARRY(madclo);
        else if (sgn)
            out->fn = cc ? CARRY(madchiccs) : CARRY(madchis);
        else
            out->fn = cc ? CARRY(madchiccu) : CARRY(madchiu);
        break;
    default:
        return EMU_SEL_NO;
    }
    bool three = pi->op == PTX_OP_MAD || pi->op == PTX_OP_MADC;
    if (pi->nops != (three ? 4 : 3))
        return emu_dec_unsupported(dc, "wrong operand count");
    rows(dc, pi, out, t, t, t, three ? 3 : 2);
    if (!three)
        out->c = out->b;   /* the 32-bit stamp reads c; give it a valid row */
    return EMU_SEL_OK;
}
#undef CARRY

/* mul / mad: .lo .hi .wide (one required), mad.hi.sat.s32. */
static enum emu_sel sel_mul(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out,
                            enum ptx_type t, int ti)
{
    bool mad = pi->op == PTX_OP_MAD, sat = pi->flags & PTX_IF_SAT;
    bool lo = has_mod(pi, PTX_MOD_LO), hi = has_mod(pi, PTX_MOD_HI), wide = has_mod(pi, PTX_MOD_WIDE);
    if (lo + hi + wide != 1)
        return emu_dec_unsupported(dc, "mul/mad need exactly one of .lo .hi .wide");
    if (!mods_within(pi, MODS(PTX_MOD_LO, PTX_MOD_HI, PTX_MOD_WIDE, PTX_MOD_SAT)))
        return emu_dec_unsupported(dc, "modifier not defined for integer mul/mad");
    if (pi->nops != (mad ? 4 : 3))
        return emu_dec_unsupported(dc, "wrong operand count");
    if (sat && !(mad && hi && ti == IT_S32))
        return emu_dec_unsupported(dc, ".sat is defined for mad.hi.s32 only");
    if (wide) {
        enum ptx_type wt = wide_type(t);
        if (wt == PTX_T_NONE)
            return emu_dec_unsupported(dc, ".wide is defined for 16- and 32-bit types only");
        out->fn = mad ? emu_dec_twin(dc, fn_madwide[ti], fnu_madwide[ti]) : emu_dec_twin(dc, fn_mulwide[ti], fnu_mulwide[ti]);
        rows(dc, pi, out, wt, t, wt, mad ? 3 : 2);
        return EMU_SEL_OK;
    }
    if (sat)   /* beside a mul.lo of a and b ptxas drops the saturation (emu_codegen.c) */
        out->fn = emu_dec_madhisat_unsaturated(dc, pi) ? fn_madhi[ti] : h_madhisat_s32;
    else if (lo)
        out->fn = mad ? emu_dec_twin(dc, fn_madlo[ti], fnu_madlo[ti]) : emu_dec_twin(dc, fn_mullo[ti], fnu_mullo[ti]);
    else
        out->fn = mad ? fn_madhi[ti] : fn_mulhi[ti];
    rows(dc, pi, out, t, t, t, mad ? 3 : 2);
    return EMU_SEL_OK;
}

/* mul24 / mad24 (.u32 .s32; .lo .hi; mad24.hi.sat.s32). */
static enum emu_sel sel_mul24(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out,
                              enum ptx_type t, int ti)
{
    bool mad = pi->op == PTX_OP_MAD24, sat = pi->flags & PTX_IF_SAT, sgn = ti == IT_S32;
    bool lo = has_mod(pi, PTX_MOD_LO), hi = has_mod(pi, PTX_MOD_HI);
    if (ti != IT_U32 && ti != IT_S32)
        return emu_dec_unsupported(dc, "mul24/mad24 are defined for .u32 and .s32 only");
    if (lo == hi || !mods_within(pi, MODS(PTX_MOD_LO, PTX_MOD_HI, PTX_MOD_SAT)))
        return emu_dec_unsupported(dc, "mul24/mad24 need exactly one of .lo and .hi");
    if (sat && !(mad && hi && sgn))
        return emu_dec_unsupported(dc, ".sat is defined for mad24.hi.s32 only");
    if (pi->nops != (mad ? 4 : 3))
        return emu_dec_unsupported(dc, "wrong operand count");
    if (!mad)
        out->fn = lo ? (sgn ? h_mul24lo_s32 : h_mul24lo_u32) : (sgn ? h_mul24hi_s32 : h_mul24hi_u32);
    else if (sat)
        out->fn = h_mad24hisat_s32;
    else
        out->fn = lo ? (sgn ? h_mad24lo_s32 : h_mad24lo_u32) : (sgn ? h_mad24hi_s32 : h_mad24hi_u32);
    rows(dc, pi, out, t, t, t, mad ? 3 : 2);
    return EMU_SEL_OK;
}

/* add.u16x2/.s16x2, min/max .u16x2/.s16x2 (.relu on .s16x2). */
static enum emu_sel sel_packed(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out,
                               enum ptx_type t)
{
    bool sgn = t == PTX_T_S16X2, relu = pi->flags & PTX_IF_RELU;
    if (pi->nops != 3)
        return emu_dec_unsupported(dc, "wrong operand count");
    switch (pi->op) {
    case PTX_OP_ADD:
        if (pi->nmods)
            return emu_dec_unsupported(dc, "packed add takes no modifier");
        out->fn = h_add_u16x2;
        break;
    case PTX_OP_MIN: case PTX_OP_MAX: {
        bool mx = pi->op == PTX_OP_MAX;
        if (!mods_within(pi, MODS(PTX_MOD_RELU)) || (relu && !sgn))
            return emu_dec_unsupported(dc, ".relu is defined for .s16x2 and .s32 only");
        if (!sgn)
            out->fn = mx ? h_max_u16x2 : h_min_u16x2;
        else if (relu)
            out->fn = mx ? h_maxrelu_s16x2 : h_minrelu_s16x2;
        else
            out->fn = mx ? h_max_s16x2 : h_min_s16x2;
        break;
    }
    default:
        return emu_dec_unsupported(dc, "packed 16x2 integer types are defined for add, min and max only");
    }
    rows(dc, pi, out, PTX_T_B32, PTX_T_B32, PTX_T_B32, 2);
    return EMU_SEL_OK;
}

/* Integer arithmetic. Float-typed forms of shared opcodes (add.f32 ...) are
 * left to the float selectors. */
enum emu_sel emu_sel_int(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out)
{
    switch (pi->op) {
    case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_MUL: case PTX_OP_MAD: case PTX_OP_MUL24:
    case PTX_OP_MAD24: case PTX_OP_SAD: case PTX_OP_DIV: case PTX_OP_REM: case PTX_OP_ABS:
    case PTX_OP_NEG: case PTX_OP_MIN: case PTX_OP_MAX: case PTX_OP_ADDC: case PTX_OP_SUBC:
    case PTX_OP_MADC:
        break;
    default:
        return EMU_SEL_NO;
    }
    if (pi->ntypes != 1)
        return pi->ntypes && is_float_type(pi->types[0]) ? EMU_SEL_NO
             : emu_dec_unsupported(dc, "integer arithmetic takes exactly one type");
    enum ptx_type t = pi->types[0];
    if (is_float_type(t))
        return EMU_SEL_NO;
    if (t == PTX_T_U16X2 || t == PTX_T_S16X2)
        return sel_packed(dc, pi, out, t);
    int ti = int_index(t);
    if (ti < 0)
        return emu_dec_unsupported(dc, "type not defined for integer arithmetic");
    if (pi->flags & PTX_IF_CC || pi->op == PTX_OP_ADDC || pi->op == PTX_OP_SUBC || pi->op == PTX_OP_MADC)
        return sel_carry(dc, pi, out, t, ti);

    bool sat = pi->flags & PTX_IF_SAT, relu = pi->flags & PTX_IF_RELU;
    switch (pi->op) {
    case PTX_OP_MUL: case PTX_OP_MAD:
        return sel_mul(dc, pi, out, t, ti);
    case PTX_OP_MUL24: case PTX_OP_MAD24:
        return sel_mul24(dc, pi, out, t, ti);
    case PTX_OP_ADD: case PTX_OP_SUB:
        if (!mods_within(pi, MODS(PTX_MOD_SAT)) || (sat && ti != IT_S32))
            return emu_dec_unsupported(dc, ".sat is defined for .s32 only");
        if (pi->nops != 3)
            return emu_dec_unsupported(dc, "wrong operand count");
        if (pi->op == PTX_OP_ADD)
            out->fn = sat ? h_addsat_s32 : emu_dec_twin(dc, fn_add[ti], fnu_add[ti]);
        else
            out->fn = sat ? h_subsat_s32 : emu_dec_twin(dc, fn_sub[ti], fnu_sub[ti]);
        out->ukind = out->fn == hu_add_u32 ? EMU_UK_ADD : out->fn == hu_sub_u32 ? EMU_UK_SUB : EMU_UK_NONE;
        rows(dc, pi, out, t, t, t, 2);
        return EMU_SEL_OK;
    case PTX_OP_MIN: case PTX_OP_MAX: {
        bool mx = pi->op == PTX_OP_MAX;
        if (!mods_within(pi, MODS(PTX_MOD_RELU)) || (relu && ti != IT_S32))
            return emu_dec_unsupported(dc, ".relu is defined for .s32 and .s16x2 only");
        if (pi->nops != 3)
            return emu_dec_unsupported(dc, "min/max with three sources is not supported");
        if (relu)
            out->fn = mx ? h_maxrelu_s32 : h_minrelu_s32;
        else
            out->fn = mx ? emu_dec_twin(dc, fn_max[ti], fnu_max[ti]) : emu_dec_twin(dc, fn_min[ti], fnu_min[ti]);
        rows(dc, pi, out, t, t, t, 2);
        return EMU_SEL_OK;
    }
    case PTX_OP_SAD: case PTX_OP_DIV: case PTX_OP_REM: {
        unsigned n = pi->op == PTX_OP_SAD ? 3 : 2;
        if (pi->nmods)
            return emu_dec_unsupported(dc, "modifier not defined for integer sad/div/rem");
        if (pi->nops != n + 1)
            return emu_dec_unsupported(dc, "wrong operand count");
        out->fn = pi->op == PTX_OP_SAD ? fn_sad[ti] : pi->op == PTX_OP_DIV ? fn_div[ti] : fn_rem[ti];
        rows(dc, pi, out, t, t, t, n);
        return EMU_SEL_OK;
    }
    case PTX_OP_ABS: case PTX_OP_NEG: {
        emu_fn fn = pi->op == PTX_OP_ABS ? fn_abs[ti] : fn_neg[ti];
        if (!fn)
            return emu_dec_unsupported(dc, "abs/neg are defined for signed integer types only");
        if (pi->nmods)
            return emu_dec_unsupported(dc, "modifier not defined for integer abs/neg");
        if (pi->nops != 2)
            return emu_dec_unsupported(dc, "wrong operand count");
        out->fn = fn;
        rows(dc, pi, out, t, t, t, 1);
        return EMU_SEL_OK;
    }
    default:
        return EMU_SEL_NO;
    }
}
