/* emu_cmp.c -- comparison and selection: setp, set, selp, slct over integer, f32, f64,
 * f16, bf16 and packed f16x2/bf16x2 operands, with .ftz and predicate combining. */
#include <stdint.h>
#include <string.h>

#include "emu/emu.h"
#include "emu/emu_exec.h"
#include "emu/emu_internal.h"
#include "emu/emu_lanes.h"

/* inst.imm: bit 32 set when the combining (setp/set) or selecting (selp)
 * predicate c is written negated (!c); low 32 bits: set's "true" value. */
#define NEG_C ((int64_t)1 << 32)

/* ---- Operand readers ----------------------------------------------------------
 * Half-precision values widen exactly to float; comparisons then run on
 * floats. f16: subnormals are m * 2^-24, exponent 31 is inf/NaN. */
static inline float f16_to_f32(uint32_t h)
{
    uint32_t s = (h & 0x8000u) << 16, e = (h >> 10) & 0x1Fu, mt = h & 0x3FFu;
    uint32_t normal = ((e + 112u) << 23) | (mt << 13), special = 0x7F800000u | (mt << 13);
    uint32_t sub = emu_b32((float)mt * 0x1p-24f);
    return emu_f32(s | (e == 0 ? sub : e == 31 ? special : normal));
}
/* .ftz: subnormal inputs compare as zero of the same sign. */
static inline uint32_t ftz32(uint32_t x) { return (x & 0x7F800000u) ? x : x & 0x80000000u; }
static inline uint32_t ftz16(uint32_t h) { return (h & 0x7C00u) ? h : h & 0x8000u; }

#define LD_U16(v) ((v) & 0xFFFFu)
#define LD_S16(v) ((int32_t)emu_sx16(v))
#define LD_U32(v) (v)
#define LD_S32(v) ((int32_t)(v))
#define LD_U64(v) (v)
#define LD_S64(v) ((int64_t)(v))
#define LD_F32(v) emu_f32(v)
#define LD_F32FTZ(v) emu_f32(ftz32(v))
#define LD_F64(v) emu_f64(v)
#define LD_F16(v) f16_to_f32((v) & 0xFFFFu)
#define LD_F16FTZ(v) f16_to_f32(ftz16((v) & 0xFFFFu))
#define LD_BF16(v) emu_f32((v) << 16)
#define LD_F16HI(v) f16_to_f32((v) >> 16)
#define LD_F16HIFTZ(v) f16_to_f32(ftz16((v) >> 16))
#define LD_BF16HI(v) emu_f32((v) & 0xFFFF0000u)

/* ---- Comparison masks ------------------------------------------------------------
 * cmp_<kind>(w, in) returns the lane mask of (a cmp b), cmp = in->sub. One
 * lane loop per comparison: the switch runs once per warp instruction. Float
 * comparisons other than the ...u forms are false when either side is NaN;
 * the ...u forms are the negations of the ordered opposites. */
#define CMP_LOOP(VT, LD, COND) \
    EMU_EACH(l) { VT a = LD(ra[l]), b = LD(rb[l]); t |= (COND) ? emu_lane_bit32[l] : 0; } \
    break;
#define STAMP_CMP_INT(kind, RT, FILE, VT, LD) \
    static inline emu_mask cmp_##kind(const struct emu_warp *w, const struct emu_inst *in) \
    { \
        const RT *ra = w->FILE[in->a], *rb = w->FILE[in->b]; \
        emu_mask t = 0; \
        switch (in->sub) { \
        case EMU_CMP_EQ: CMP_LOOP(VT, LD, a == b) \
        case EMU_CMP_NE: CMP_LOOP(VT, LD, a != b) \
        case EMU_CMP_LT: CMP_LOOP(VT, LD, a < b) \
        case EMU_CMP_LE: CMP_LOOP(VT, LD, a <= b) \
        case EMU_CMP_GT: CMP_LOOP(VT, LD, a > b) \
        case EMU_CMP_GE: CMP_LOOP(VT, LD, a >= b) \
        default: break; \
        } \
        return t; \
    }
#define STAMP_CMP_FLT(kind, RT, FILE, VT, LD) \
    static inline emu_mask cmp_##kind(const struct emu_warp *w, const struct emu_inst *in) \
    { \
        const RT *ra = w->FILE[in->a], *rb = w->FILE[in->b]; \
        emu_mask t = 0; \
        switch (in->sub) { \
        case EMU_CMP_EQ: CMP_LOOP(VT, LD, a == b) \
        case EMU_CMP_NE: CMP_LOOP(VT, LD, a < b || a > b) \
        case EMU_CMP_LT: CMP_LOOP(VT, LD, a < b) \
        case EMU_CMP_LE: CMP_LOOP(VT, LD, a <= b) \
        case EMU_CMP_GT: CMP_LOOP(VT, LD, a > b) \
        case EMU_CMP_GE: CMP_LOOP(VT, LD, a >= b) \
        case EMU_CMP_EQU: CMP_LOOP(VT, LD, !(a < b || a > b)) \
        case EMU_CMP_NEU: CMP_LOOP(VT, LD, !(a == b)) \
        case EMU_CMP_LTU: CMP_LOOP(VT, LD, !(a >= b)) \
        case EMU_CMP_LEU: CMP_LOOP(VT, LD, !(a > b)) \
        case EMU_CMP_GTU: CMP_LOOP(VT, LD, !(a <= b)) \
        case EMU_CMP_GEU: CMP_LOOP(VT, LD, !(a < b)) \
        case EMU_CMP_NUM: CMP_LOOP(VT, LD, a == a && b == b) \
        case EMU_CMP_NAN: CMP_LOOP(VT, LD, a != a || b != b) \
        default: break; \
        } \
        return t; \
    }
STAMP_CMP_INT(u16, uint32_t, r32, uint32_t, LD_U16)
STAMP_CMP_INT(s16, uint32_t, r32, int32_t, LD_S16)
STAMP_CMP_INT(u32, uint32_t, r32, uint32_t, LD_U32)
STAMP_CMP_INT(s32, uint32_t, r32, int32_t, LD_S32)
STAMP_CMP_INT(u64, uint64_t, r64, uint64_t, LD_U64)
STAMP_CMP_INT(s64, uint64_t, r64, int64_t, LD_S64)
STAMP_CMP_FLT(f32, uint32_t, r32, float, LD_F32)
STAMP_CMP_FLT(f32ftz, uint32_t, r32, float, LD_F32FTZ)
STAMP_CMP_FLT(f64, uint64_t, r64, double, LD_F64)
STAMP_CMP_FLT(f16, uint32_t, r32, float, LD_F16)
STAMP_CMP_FLT(f16ftz, uint32_t, r32, float, LD_F16FTZ)
STAMP_CMP_FLT(bf16, uint32_t, r32, float, LD_BF16)
/* The high halves of packed pairs; the low halves use the f16/bf16 readers. */
STAMP_CMP_FLT(f16hi, uint32_t, r32, float, LD_F16HI)
STAMP_CMP_FLT(f16hiftz, uint32_t, r32, float, LD_F16HIFTZ)
STAMP_CMP_FLT(bf16hi, uint32_t, r32, float, LD_BF16HI)

/* ---- Combining ("setp": p = BoolOp(t, c), q = BoolOp(!t, c)) ---------------------- */
static inline emu_mask combine(const struct emu_warp *w, const struct emu_inst *in, emu_mask t)
{
    if (in->sub2 == EMU_BOOL_NONE)
        return t;
    emu_mask c = (in->imm & NEG_C) ? ~w->pred[in->c] : w->pred[in->c];
    switch (in->sub2) {
    case EMU_BOOL_AND: return t & c;
    case EMU_BOOL_OR: return t | c;
    default: return t ^ c;
    }
}

/* setp: p and the optional q (in->e) get BoolOp(t, c) and BoolOp(!t, c); for
 * packed pairs p gets the low half's result and q the high half's. ptxas
 * also takes packed setp with p alone: an H100 then gives p the low half's
 * result (cmp_h16 edge kernel). */
#define STAMP_SETP(kind) \
    static int h_setp_##kind(struct emu_warp *w, const struct emu_inst *in, emu_mask m) \
    { \
        emu_mask t = cmp_##kind(w, in); \
        emu_pred_put(w, in->d, m, combine(w, in, t)); \
        if (in->e != EMU_NOREG) \
            emu_pred_put(w, in->e, m, combine(w, in, ~t)); \
        return EMU_CONTINUE; \
    }
#define STAMP_SETP_X2(kind, LO, HI) \
    static int h_setp_##kind(struct emu_warp *w, const struct emu_inst *in, emu_mask m) \
    { \
        emu_mask lo = cmp_##LO(w, in), hi = cmp_##HI(w, in); \
        emu_pred_put(w, in->d, m, combine(w, in, lo)); \
        if (in->e != EMU_NOREG) \
            emu_pred_put(w, in->e, m, combine(w, in, hi)); \
        return EMU_CONTINUE; \
    }
/* set: d = BoolOp(t, c) ? T : 0 with T = in->imm's low word (0xffffffff,
 * 1.0f, 0xffff, 1.0 in f16 or bf16 ... as the destination type says); packed
 * pairs set each 16-bit half from its own comparison. */
#define STAMP_SET(kind) \
    EMU_HANDLER(h_set_##kind) \
    { \
        emu_mask t = combine(w, in, cmp_##kind(w, in)); \
        uint32_t *d = w->r32[in->d], tv = (uint32_t)in->imm; \
        EMU_EACH(l) EMU_PUT32(d, m, l, (t & emu_lane_bit32[l]) ? tv : 0u); \
        return EMU_CONTINUE; \
    }
#define STAMP_SET_X2(kind, LO, HI) \
    EMU_HANDLER(h_set_##kind) \
    { \
        emu_mask lo = combine(w, in, cmp_##LO(w, in)), hi = combine(w, in, cmp_##HI(w, in)); \
        uint32_t *d = w->r32[in->d], tv = (uint32_t)in->imm & 0xFFFFu; \
        EMU_EACH(l) { \
            uint32_t x = ((lo & emu_lane_bit32[l]) ? tv : 0u) | ((hi & emu_lane_bit32[l]) ? tv << 16 : 0u); \
            EMU_PUT32(d, m, l, x); \
        } \
        return EMU_CONTINUE; \
    }
#define STAMP_SCALAR(kind) STAMP_SETP(kind) STAMP_SET(kind)
STAMP_SCALAR(u16) STAMP_SCALAR(s16) STAMP_SCALAR(u32) STAMP_SCALAR(s32) STAMP_SCALAR(u64) STAMP_SCALAR(s64)
STAMP_SCALAR(f32) STAMP_SCALAR(f32ftz) STAMP_SCALAR(f64) STAMP_SCALAR(f16) STAMP_SCALAR(f16ftz) STAMP_SCALAR(bf16)
STAMP_SETP_X2(f16x2, f16, f16hi) STAMP_SETP_X2(f16x2ftz, f16ftz, f16hiftz) STAMP_SETP_X2(bf16x2, bf16, bf16hi)
STAMP_SET_X2(f16x2, f16, f16hi) STAMP_SET_X2(f16x2ftz, f16ftz, f16hiftz) STAMP_SET_X2(bf16x2, bf16, bf16hi)

/* ---- The common setp, fast ------------------------------------------------------
 * setp.cmp.type p, a, b with no combining predicate and no q, for 32- and
 * 64-bit integers and f32/f64 without .ftz: one handler per comparison (no
 * switch), comparing 8 (32-bit) or 4 (64-bit) lanes at a time as GCC vectors
 * (COND yields all-ones or zero per lane; bitwise operators combine them) and
 * gathering the results with movemask. A conditional branch on p right after
 * it in the same block fuses with it (emu_setp_fused, called by the control
 * selector): the handler then also branches, and skips the bra, which stays
 * in place for anything that jumps to it. */
#define FAST_LOOP(VT, STEP, BITS, RT, FILE, COND) \
    const RT *ra = w->FILE[in->a], *rb = w->FILE[in->b]; \
    t = 0; \
    _Pragma("GCC unroll 8") for (unsigned k = 0; k < EMU_WARP_SIZE; k += STEP) { \
        VT a, b; \
        memcpy(&a, ra + k, sizeof a); \
        memcpy(&b, rb + k, sizeof b); \
        t |= BITS(COND) << k; \
    }
#define FAST_U32(COND) FAST_LOOP(emu_v8u, 8, emu_bits8, uint32_t, r32, (emu_v8i)(COND))
#define FAST_S32(COND) FAST_LOOP(emu_v8i, 8, emu_bits8, uint32_t, r32, (emu_v8i)(COND))
#define FAST_F32(COND) FAST_LOOP(emu_v8f, 8, emu_bits8, uint32_t, r32, (emu_v8i)(COND))
#define FAST_U64(COND) FAST_LOOP(emu_v4ul, 4, emu_bits4, uint64_t, r64, (emu_v4l)(COND))
#define FAST_S64(COND) FAST_LOOP(emu_v4l, 4, emu_bits4, uint64_t, r64, (emu_v4l)(COND))
#define FAST_F64(COND) FAST_LOOP(emu_v4d, 4, emu_bits4, uint64_t, r64, (emu_v4l)(COND))

/* The branch half of a fused setp + @p bra (in->nv: the bra was @!p), which
 * sits at pc in->src + 1: m is the active mask (the setp has no guard).
 * Inlined into every fused handler, so that each has its own indirect jump to
 * the next run (one jump shared by all of them would predict far worse). */
static inline __attribute__((always_inline)) int fused_branch_k(struct emu_warp *w, const struct emu_inst *in,
                                                                emu_mask m, emu_mask p, unsigned k)
{
    emu_mask taken = m & (in->nv ? ~p : p);
    w->n_inst++;                                 /* the bra, as the dispatch loop would count it */
    return emu_branch_chain(w, in, taken, k);
}
#define fused_branch(w, in, m, p) fused_branch_k(w, in, m, p, 2)

#define STAMP_FAST(kind, cmpname, LOOP, COND) \
    static EMU_CHAINED int h_setpf_##kind##_##cmpname(struct emu_warp *w, const struct emu_inst *in, emu_mask m) \
    { \
        emu_mask t; \
        LOOP(COND) \
        w->pred[in->d] = (w->pred[in->d] & ~m) | (t & m); \
        EMU_NEXT(); \
    } \
    static EMU_CHAINED_FLOW int h_setpbra_##kind##_##cmpname(struct emu_warp *w, const struct emu_inst *in, \
                                                             emu_mask m) \
    { \
        emu_mask t; \
        LOOP(COND) \
        emu_mask p = (w->pred[in->d] & ~m) | (t & m); \
        w->pred[in->d] = p; \
        return fused_branch(w, in, m, p); \
    }
#define STAMP_FAST_INT(kind, LOOP) \
    STAMP_FAST(kind, eq, LOOP, a == b) STAMP_FAST(kind, ne, LOOP, a != b) STAMP_FAST(kind, lt, LOOP, a < b) \
    STAMP_FAST(kind, le, LOOP, a <= b) STAMP_FAST(kind, gt, LOOP, a > b) STAMP_FAST(kind, ge, LOOP, a >= b)
/* Float ne is ordered (false when either side is NaN); the ...u forms are the
 * negations of the ordered opposites. */
#define STAMP_FAST_FLT(kind, LOOP) \
    STAMP_FAST(kind, eq, LOOP, a == b) STAMP_FAST(kind, ne, LOOP, (a < b) | (a > b)) STAMP_FAST(kind, lt, LOOP, a < b) \
    STAMP_FAST(kind, le, LOOP, a <= b) STAMP_FAST(kind, gt, LOOP, a > b) STAMP_FAST(kind, ge, LOOP, a >= b) \
    STAMP_FAST(kind, equ, LOOP, ~((a < b) | (a > b))) STAMP_FAST(kind, neu, LOOP, ~(a == b)) \
    STAMP_FAST(kind, ltu, LOOP, ~(a >= b)) STAMP_FAST(kind, leu, LOOP, ~(a > b)) \
    STAMP_FAST(kind, gtu, LOOP, ~(a <= b)) STAMP_FAST(kind, geu, LOOP, ~(a < b)) \
    STAMP_FAST(kind, num, LOOP, (a == a) & (b == b)) STAMP_FAST(kind, nan, LOOP, (a != a) | (b != b))
STAMP_FAST_INT(u32, FAST_U32) STAMP_FAST_INT(s32, FAST_S32) STAMP_FAST_INT(u64, FAST_U64) STAMP_FAST_INT(s64, FAST_S64)
STAMP_FAST_FLT(f32, FAST_F32) STAMP_FAST_FLT(f64, FAST_F64)

/* [kind: u32 s32 u64 s64 f32 f64][enum emu_cmp][0: setp, 1: setp + bra] */
#define FAST_INT(kind, x) { { h_setpf_##kind##_##x, h_setpbra_##kind##_##x } }
#define FAST_ROW_INT(kind) { FAST_INT(kind, eq), FAST_INT(kind, ne), FAST_INT(kind, lt), FAST_INT(kind, le), \
                             FAST_INT(kind, gt), FAST_INT(kind, ge) }
#define FAST_ROW_FLT(kind) { FAST_INT(kind, eq), FAST_INT(kind, ne), FAST_INT(kind, lt), FAST_INT(kind, le), \
                             FAST_INT(kind, gt), FAST_INT(kind, ge), FAST_INT(kind, equ), FAST_INT(kind, neu), \
                             FAST_INT(kind, ltu), FAST_INT(kind, leu), FAST_INT(kind, gtu), FAST_INT(kind, geu), \
                             FAST_INT(kind, num), FAST_INT(kind, nan) }
struct fast_pair { emu_fn f[2]; };
static const struct fast_pair fast_setp[6][EMU_CMP_NAN + 1] = {
    FAST_ROW_INT(u32), FAST_ROW_INT(s32), FAST_ROW_INT(u64), FAST_ROW_INT(s64), FAST_ROW_FLT(f32), FAST_ROW_FLT(f64),
};

/* Scalar twins (emu_lanes.h) of the integer ones: a loop's bound test on a
 * uniform counter compares one lane, and its branch goes one way for all. */
#define STAMP_UFAST(kind, cmpname, ST, FILE, COND) \
    EMU_TWIN(hu_setpf_##kind##_##cmpname, h_setpf_##kind##_##cmpname) \
    { \
        ST a = (ST)w->FILE[in->a][0], b = (ST)w->FILE[in->b][0]; \
        w->pred[in->d] = (COND) ? EMU_FULL_MASK : 0; \
        return EMU_CONTINUE; \
    } \
    static EMU_CHAINED_FLOW int hu_setpbra_##kind##_##cmpname(struct emu_warp *w, const struct emu_inst *in, \
                                                              emu_mask m) \
    { \
        if (m != EMU_FULL_MASK) return h_setpbra_##kind##_##cmpname(w, in, m); \
        ST a = (ST)w->FILE[in->a][0], b = (ST)w->FILE[in->b][0]; \
        emu_mask p = (COND) ? EMU_FULL_MASK : 0; \
        w->pred[in->d] = p; \
        return fused_branch(w, in, m, p); \
    }
#define STAMP_UFAST_INT(kind, ST, FILE) \
    STAMP_UFAST(kind, eq, ST, FILE, a == b) STAMP_UFAST(kind, ne, ST, FILE, a != b) \
    STAMP_UFAST(kind, lt, ST, FILE, a < b) STAMP_UFAST(kind, le, ST, FILE, a <= b) \
    STAMP_UFAST(kind, gt, ST, FILE, a > b) STAMP_UFAST(kind, ge, ST, FILE, a >= b)
STAMP_UFAST_INT(u32, uint32_t, r32) STAMP_UFAST_INT(s32, int32_t, r32)
STAMP_UFAST_INT(u64, uint64_t, r64) STAMP_UFAST_INT(s64, int64_t, r64)
#define UFAST_INT(kind, x) { { hu_setpf_##kind##_##x, hu_setpbra_##kind##_##x } }
#define UFAST_ROW_INT(kind) { UFAST_INT(kind, eq), UFAST_INT(kind, ne), UFAST_INT(kind, lt), UFAST_INT(kind, le), \
                              UFAST_INT(kind, gt), UFAST_INT(kind, ge) }
static const struct fast_pair ufast_setp[4][EMU_CMP_GE + 1] = {
    UFAST_ROW_INT(u32), UFAST_ROW_INT(s32), UFAST_ROW_INT(u64), UFAST_ROW_INT(s64),
};

/* ---- Comparisons of a lane-affine register with a uniform value ----------------
 * setp.cmp.{u32,s32} p, a, b with a lane-affine with stride 1 (lane l holds
 * base + l: ptx_lane_strides, `i < n` of i = blockIdx.x * blockDim.x +
 * threadIdx.x) and b uniform; the decoder puts them in that order, mirroring
 * the comparison. Lane l's result is that of l against b - base, so one
 * subtraction gives the whole mask. Only when the warp's %tid.x is lane-affine
 * (emu_warp.tid_affine) and no lane's value wraps in the comparison's type;
 * else the vector handler. Both values are read in the first active lane
 * (lane 0 may have exited, leaving later uniform values unwritten there). */
static inline emu_mask lanes_below(int64_t d)
{
    return d <= 0 ? 0 : d >= EMU_WARP_SIZE ? EMU_FULL_MASK : (1u << d) - 1u;
}
#define AFF_LT(d) lanes_below(d)
#define AFF_LE(d) lanes_below((d) + 1)
#define AFF_GT(d) (~lanes_below((d) + 1))
#define AFF_GE(d) (~lanes_below(d))
#define AFF_EQ(d) (lanes_below((d) + 1) & ~lanes_below(d))
#define AFF_NE(d) (~AFF_EQ(d))
#define AFF_u32(x) ((int64_t)(uint32_t)(x))
#define AFF_s32(x) ((int64_t)(int32_t)(x))
#define AFF_MAX_u32 ((int64_t)UINT32_MAX)
#define AFF_MAX_s32 ((int64_t)INT32_MAX)
/* The lanes where the comparison holds into *t, or false for the vector handler. */
#define STAMP_AFF(kind, cmpname, MASK) \
    static inline __attribute__((always_inline)) bool aff_##kind##_##cmpname(struct emu_warp *w, \
                                                                            const struct emu_inst *in, emu_mask m, \
                                                                            emu_mask *t) \
    { \
        unsigned f = (unsigned)__builtin_ctz(m | 0x80000000u); \
        int64_t base = AFF_##kind(w->r32[in->a][f] - f); \
        if (!w->tid_affine || base > AFF_MAX_##kind - (EMU_WARP_SIZE - 1)) return false; \
        *t = MASK(AFF_##kind(w->r32[in->b][f]) - base); \
        return true; \
    } \
    static EMU_CHAINED int ha_setpf_##kind##_##cmpname(struct emu_warp *w, const struct emu_inst *in, emu_mask m) \
    { \
        emu_mask t; \
        if (!aff_##kind##_##cmpname(w, in, m, &t)) return h_setpf_##kind##_##cmpname(w, in, m); \
        w->pred[in->d] = (w->pred[in->d] & ~m) | (t & m); \
        EMU_NEXT(); \
    } \
    static EMU_CHAINED_FLOW int ha_setpbra_##kind##_##cmpname(struct emu_warp *w, const struct emu_inst *in, \
                                                              emu_mask m) \
    { \
        emu_mask t; \
        if (!aff_##kind##_##cmpname(w, in, m, &t)) return h_setpbra_##kind##_##cmpname(w, in, m); \
        emu_mask p = (w->pred[in->d] & ~m) | (t & m); \
        w->pred[in->d] = p; \
        return fused_branch(w, in, m, p); \
    }
#define STAMP_AFF_INT(kind) \
    STAMP_AFF(kind, eq, AFF_EQ) STAMP_AFF(kind, ne, AFF_NE) STAMP_AFF(kind, lt, AFF_LT) \
    STAMP_AFF(kind, le, AFF_LE) STAMP_AFF(kind, gt, AFF_GT) STAMP_AFF(kind, ge, AFF_GE)
STAMP_AFF_INT(u32) STAMP_AFF_INT(s32)
#define AFAST_INT(kind, x) { { ha_setpf_##kind##_##x, ha_setpbra_##kind##_##x } }
#define AFAST_ROW_INT(kind) { AFAST_INT(kind, eq), AFAST_INT(kind, ne), AFAST_INT(kind, lt), AFAST_INT(kind, le), \
                              AFAST_INT(kind, gt), AFAST_INT(kind, ge) }
static const struct fast_pair afast_setp[2][EMU_CMP_GE + 1] = { AFAST_ROW_INT(u32), AFAST_ROW_INT(s32) };

/* ---- A uniform loop's step, test and back-edge in one handler ---------------------
 * `op d, a, b; setp.cmp p, d, c; @p bra` with every source uniform (a 32-bit
 * add, sub or immediate shift twin, then an integer setp twin): the handler
 * sits in the op's place (fields: d, a, b or imm of the op; c the setp's other
 * operand, e its predicate) and skips the setp and the bra, which stay for
 * jumps to them. With every lane active it computes the scalar value, fills
 * d's row and p, and branches; under any other mask it does the op for the
 * active lanes and goes on with the setp + bra at the next pc. */
#define U3_ADD(a, b, k) ((a) + (b))
#define U3_SUB(a, b, k) ((a) - (b))
#define U3_SHL(a, b, k) ((a) << (k))
#define U3_SHRU(a, b, k) ((a) >> (k))
#define U3_SHRS(a, b, k) ((uint32_t)((int32_t)(a) >> (k)))
#define STAMP_U3(op, OP, kind, cmpname, ST, COND) \
    static EMU_CHAINED_FLOW int hu3_##op##_##kind##_##cmpname(struct emu_warp *w, const struct emu_inst *in, \
                                                              emu_mask m) \
    { \
        const uint32_t *ra = w->r32[in->a], *rb = w->r32[in->b]; \
        uint32_t *rd = w->r32[in->d]; \
        const unsigned k = (unsigned)in->imm & 31u; \
        (void)rb; (void)k;                       /* (add and sub use b, shifts k) */ \
        if (m != EMU_FULL_MASK) { \
            EMU_EACH(l) EMU_PUT32(rd, m, l, OP(ra[l], rb[l], k)); \
            w->pc = in->src + 1; \
            return EMU_CONTINUE; \
        } \
        uint32_t d = OP(ra[0], rb[0], k); \
        EMU_FILL(rd, d); \
        ST a = (ST)d, b = (ST)w->r32[in->c][0]; \
        emu_mask p = (COND) ? EMU_FULL_MASK : 0; \
        w->pred[in->e] = p; \
        w->n_inst++;                             /* the setp */ \
        return fused_branch_k(w, in, EMU_FULL_MASK, p, 3); \
    }
#define STAMP_U3_CMPS(op, OP, kind, ST) \
    STAMP_U3(op, OP, kind, eq, ST, a == b) STAMP_U3(op, OP, kind, ne, ST, a != b) \
    STAMP_U3(op, OP, kind, lt, ST, a < b) STAMP_U3(op, OP, kind, le, ST, a <= b) \
    STAMP_U3(op, OP, kind, gt, ST, a > b) STAMP_U3(op, OP, kind, ge, ST, a >= b)
#define STAMP_U3_OP(op, OP) STAMP_U3_CMPS(op, OP, u32, uint32_t) STAMP_U3_CMPS(op, OP, s32, int32_t)
STAMP_U3_OP(add, U3_ADD) STAMP_U3_OP(sub, U3_SUB) STAMP_U3_OP(shl, U3_SHL) STAMP_U3_OP(shru, U3_SHRU)
STAMP_U3_OP(shrs, U3_SHRS)
#define U3_ROW(op, kind) { hu3_##op##_##kind##_eq, hu3_##op##_##kind##_ne, hu3_##op##_##kind##_lt, \
                           hu3_##op##_##kind##_le, hu3_##op##_##kind##_gt, hu3_##op##_##kind##_ge }
#define U3_OP(op) { U3_ROW(op, u32), U3_ROW(op, s32) }
/* [EMU_UK_* - 1][u32, s32][comparison] */
static const emu_fn u3_fns[EMU_UK_COUNT_ - 1][2][EMU_CMP_GE + 1] = {
    U3_OP(add), U3_OP(sub), U3_OP(shl), U3_OP(shru), U3_OP(shrs),
};

emu_fn emu_setp_fused3(emu_fn fused, unsigned ukind)
{
    if (!fused || ukind == EMU_UK_NONE || ukind >= EMU_UK_COUNT_) return NULL;
    for (unsigned k = 0; k < 2; k++)
        for (unsigned c = 0; c <= EMU_CMP_GE; c++)
            if (ufast_setp[k][c].f[1] == fused) return u3_fns[ukind - 1][k][c];
    return NULL;
}

/* For the bra selector: when `prev` is a fast setp (or its twin), turns it into
 * the fused setp + branch (target, reconv and the bra's negation are copied by
 * the caller). */
emu_fn emu_setp_fused(emu_fn setp)
{
    if (!setp) return NULL;
    for (unsigned k = 0; k < 6; k++)
        for (unsigned c = 0; c <= EMU_CMP_NAN; c++)
            if (fast_setp[k][c].f[0] == setp) return fast_setp[k][c].f[1];
    for (unsigned k = 0; k < 4; k++)
        for (unsigned c = 0; c <= EMU_CMP_GE; c++)
            if (ufast_setp[k][c].f[0] == setp) return ufast_setp[k][c].f[1];
    for (unsigned k = 0; k < 2; k++)
        for (unsigned c = 0; c <= EMU_CMP_GE; c++)
            if (afast_setp[k][c].f[0] == setp) return afast_setp[k][c].f[1];
    return NULL;
}

/* Source kinds, in the order of the handler tables. */
enum { SK_U16, SK_S16, SK_U32, SK_S32, SK_U64, SK_S64, SK_F32, SK_F32FTZ, SK_F64, SK_F16, SK_F16FTZ,
       SK_BF16, SK_F16X2, SK_F16X2FTZ, SK_BF16X2, SK_N };
static int fast_kind(int sk)
{
    switch (sk) {
    case SK_U32: return 0;
    case SK_S32: return 1;
    case SK_U64: return 2;
    case SK_S64: return 3;
    case SK_F32: return 4;
    case SK_F64: return 5;
    default: return -1;
    }
}

/* The fast handler for a setp of source kind sk and comparison cc, or NULL. */
static emu_fn fast_setp_fn(int sk, int cc)
{
    int k = fast_kind(sk);
    return k < 0 || cc < 0 || cc > EMU_CMP_NAN ? NULL : fast_setp[k][cc].f[0];
}
static const emu_fn setp_fns[SK_N] = {
    h_setp_u16, h_setp_s16, h_setp_u32, h_setp_s32, h_setp_u64, h_setp_s64, h_setp_f32, h_setp_f32ftz,
    h_setp_f64, h_setp_f16, h_setp_f16ftz, h_setp_bf16, h_setp_f16x2, h_setp_f16x2ftz, h_setp_bf16x2,
};
static const emu_fn set_fns[SK_N] = {
    h_set_u16, h_set_s16, h_set_u32, h_set_s32, h_set_u64, h_set_s64, h_set_f32, h_set_f32ftz,
    h_set_f64, h_set_f16, h_set_f16ftz, h_set_bf16, h_set_f16x2, h_set_f16x2ftz, h_set_bf16x2,
};

/* ---- selp / slct -------------------------------------------------------------------- */
/* The selection is written with lane masks (K), not a conditional: with
 * baseline SSE2 gcc's cheap cost model vectorises only that form. */
#define STAMP_SELP(W, RT, FILE, PUT, NAR, K) \
    EMU_HANDLER(h_selp_##W) \
    { \
        RT *d = w->FILE[in->d]; \
        const RT *ra = w->FILE[in->a], *rb = w->FILE[in->b]; \
        emu_mask c = (in->imm & NEG_C) ? ~w->pred[in->c] : w->pred[in->c]; \
        EMU_EACH(l) { \
            RT k = K(c, l); \
            PUT(d, m, l, NAR((ra[l] & k) | (rb[l] & ~k))); \
        } \
        return EMU_CONTINUE; \
    }
#define NAR16(v) ((v) & 0xFFFFu)
#define NARX(v) (v)
STAMP_SELP(16, uint32_t, r32, EMU_PUT32, NAR16, emu_lane_k32)
STAMP_SELP(32, uint32_t, r32, EMU_PUT32, NARX, emu_lane_k32)
STAMP_SELP(64, uint64_t, r64, EMU_PUT64, NARX, emu_lane_k64)

/* slct ("slct"): d = c >= 0 ? a : b, c an s32 or an f32 (.ftz: a subnormal c
 * counts as zero, so a negative subnormal selects a; NaN selects b). */
#define GE0_S32(c) ((int32_t)(c) >= 0)
/* c >= 0.0f on the bits (integer operations vectorise everywhere): a zero of
 * either sign, or a non-negative number that is not NaN. */
static inline uint32_t ge0_f32(uint32_t c)
{
    uint32_t mag = c & 0x7FFFFFFFu;
    return (uint32_t)(mag == 0) | ((uint32_t)((int32_t)c >= 0) & (uint32_t)(mag <= 0x7F800000u));
}
#define GE0_F32(c) ge0_f32(c)
#define GE0_F32FTZ(c) ge0_f32(ftz32(c))
#define STAMP_SLCT(name, RT, FILE, PUT, NAR, GE0) \
    EMU_HANDLER(h_slct_##name) \
    { \
        RT *d = w->FILE[in->d]; \
        const RT *ra = w->FILE[in->a], *rb = w->FILE[in->b]; \
        const uint32_t *rc = w->r32[in->c]; \
        EMU_EACH(l) { \
            RT k = (RT)0 - (RT)GE0(rc[l]); \
            PUT(d, m, l, NAR((ra[l] & k) | (rb[l] & ~k))); \
        } \
        return EMU_CONTINUE; \
    }
STAMP_SLCT(16_s32, uint32_t, r32, EMU_PUT32, NAR16, GE0_S32)
STAMP_SLCT(32_s32, uint32_t, r32, EMU_PUT32, NARX, GE0_S32)
STAMP_SLCT(64_s32, uint64_t, r64, EMU_PUT64, NARX, GE0_S32)
STAMP_SLCT(16_f32, uint32_t, r32, EMU_PUT32, NAR16, GE0_F32)
STAMP_SLCT(32_f32, uint32_t, r32, EMU_PUT32, NARX, GE0_F32)
STAMP_SLCT(64_f32, uint64_t, r64, EMU_PUT64, NARX, GE0_F32)
STAMP_SLCT(16_f32ftz, uint32_t, r32, EMU_PUT32, NAR16, GE0_F32FTZ)
STAMP_SLCT(32_f32ftz, uint32_t, r32, EMU_PUT32, NARX, GE0_F32FTZ)
STAMP_SLCT(64_f32ftz, uint64_t, r64, EMU_PUT64, NARX, GE0_F32FTZ)

/* ---- Selection ------------------------------------------------------------------------ */

/* Width class of a selp/slct data type: 0 = 16, 1 = 32, 2 = 64 bits, -1 = other. */
static int data_width(enum ptx_type t)
{
    switch (t) {
    case PTX_T_B16: case PTX_T_U16: case PTX_T_S16: case PTX_T_F16: case PTX_T_BF16:
        return 0;
    case PTX_T_B32: case PTX_T_U32: case PTX_T_S32: case PTX_T_F32: case PTX_T_F16X2: case PTX_T_BF16X2:
        return 1;
    case PTX_T_B64: case PTX_T_U64: case PTX_T_S64: case PTX_T_F64:
        return 2;
    default:
        return -1;
    }
}

/* The source kind of a comparison's operand type, or -1. */
static int source_kind(enum ptx_type t, bool ftz)
{
    switch (t) {
    case PTX_T_B16: case PTX_T_U16: return ftz ? -1 : SK_U16;
    case PTX_T_S16: return ftz ? -1 : SK_S16;
    case PTX_T_B32: case PTX_T_U32: return ftz ? -1 : SK_U32;
    case PTX_T_S32: return ftz ? -1 : SK_S32;
    case PTX_T_B64: case PTX_T_U64: return ftz ? -1 : SK_U64;
    case PTX_T_S64: return ftz ? -1 : SK_S64;
    case PTX_T_F32: return ftz ? SK_F32FTZ : SK_F32;
    case PTX_T_F64: return ftz ? -1 : SK_F64;
    case PTX_T_F16: return ftz ? SK_F16FTZ : SK_F16;
    case PTX_T_BF16: return ftz ? -1 : SK_BF16;
    case PTX_T_F16X2: return ftz ? SK_F16X2FTZ : SK_F16X2;
    case PTX_T_BF16X2: return ftz ? -1 : SK_BF16X2;
    default: return -1;
    }
}

/* Maps the comparison suffix to enum emu_cmp for operand type t: .lo .ls .hi
 * .hs (and .lt ... on unsigned types) compare unsigned; .b types allow only
 * .eq/.ne; the unordered and .num/.nan tests exist for floats only. */
static int cmp_code(enum ptx_mod cmp, enum ptx_type t, bool flt)
{
    bool bits = t == PTX_T_B16 || t == PTX_T_B32 || t == PTX_T_B64;
    bool uns = bits || t == PTX_T_U16 || t == PTX_T_U32 || t == PTX_T_U64;
    switch (cmp) {
    case PTX_MOD_EQ: return EMU_CMP_EQ;
    case PTX_MOD_NE: return EMU_CMP_NE;
    case PTX_MOD_LT: return bits ? -1 : EMU_CMP_LT;
    case PTX_MOD_LE: return bits ? -1 : EMU_CMP_LE;
    case PTX_MOD_GT: return bits ? -1 : EMU_CMP_GT;
    case PTX_MOD_GE: return bits ? -1 : EMU_CMP_GE;
    case PTX_MOD_LO: return uns && !bits ? EMU_CMP_LT : -1;
    case PTX_MOD_LS: return uns && !bits ? EMU_CMP_LE : -1;
    case PTX_MOD_HI: return uns && !bits ? EMU_CMP_GT : -1;
    case PTX_MOD_HS: return uns && !bits ? EMU_CMP_GE : -1;
    case PTX_MOD_EQU: return flt ? EMU_CMP_EQU : -1;
    case PTX_MOD_NEU: return flt ? EMU_CMP_NEU : -1;
    case PTX_MOD_LTU: return flt ? EMU_CMP_LTU : -1;
    case PTX_MOD_LEU: return flt ? EMU_CMP_LEU : -1;
    case PTX_MOD_GTU: return flt ? EMU_CMP_GTU : -1;
    case PTX_MOD_GEU: return flt ? EMU_CMP_GEU : -1;
    case PTX_MOD_NUM: return flt ? EMU_CMP_NUM : -1;
    case PTX_MOD_NAN: return flt ? EMU_CMP_NAN : -1;
    default: return -1;
    }
}

/* The comparison suffix as written: pi->cmp, or the first PTX_MC_CMP-like
 * suffix in mods[] (the parser may file .lo/.hi elsewhere). */
static enum ptx_mod cmp_suffix(const struct ptx_instr *pi)
{
    if (pi->cmp != PTX_MOD_NONE_)
        return pi->cmp;
    for (unsigned i = 0; i < pi->nmods; i++)
        if (cmp_code(pi->mods[i], PTX_T_F32, true) >= 0 || pi->mods[i] == PTX_MOD_LO || pi->mods[i] == PTX_MOD_LS
            || pi->mods[i] == PTX_MOD_HI || pi->mods[i] == PTX_MOD_HS)
            return pi->mods[i];
    return PTX_MOD_NONE_;
}

/* Every suffix written must be the comparison, the boolean op or .ftz. */
static bool only_cmp_mods(const struct ptx_instr *pi, enum ptx_mod cmp)
{
    for (unsigned i = 0; i < pi->nmods; i++) {
        enum ptx_mod md = pi->mods[i];
        if (md != cmp && md != pi->boolop && md != PTX_MOD_FTZ)
            return false;
    }
    return true;
}

static int bool_code(enum ptx_mod b)
{
    switch (b) {
    case PTX_MOD_NONE_: return EMU_BOOL_NONE;
    case PTX_MOD_AND: return EMU_BOOL_AND;
    case PTX_MOD_OR: return EMU_BOOL_OR;
    case PTX_MOD_XOR: return EMU_BOOL_XOR;
    default: return -1;
    }
}

/* The "true" value that set writes for destination type dt; 0 if none. For
 * packed sources the value is per 16-bit half. */
static uint32_t set_true(enum ptx_type dt, bool packed)
{
    switch (dt) {
    case PTX_T_U32: case PTX_T_S32: case PTX_T_B32: return packed ? 0xFFFFu : 0xFFFFFFFFu;
    case PTX_T_F32: return packed ? 0 : 0x3F800000u;
    case PTX_T_U16: case PTX_T_S16: case PTX_T_B16: return packed ? 0 : 0xFFFFu;
    case PTX_T_F16: return packed ? 0 : 0x3C00u;
    case PTX_T_BF16: return packed ? 0 : 0x3F80u;
    case PTX_T_F16X2: return packed ? 0x3C00u : 0;
    case PTX_T_BF16X2: return packed ? 0x3F80u : 0;
    default: return 0;
    }
}

/* setp and set: d[|q], a, b[, {!}c]. The parser may give "p|q" as a
 * two-element vector operand or as two operands; both are accepted. */
static enum emu_sel sel_compare(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out)
{
    bool setp = pi->op == PTX_OP_SETP, ftz = pi->flags & PTX_IF_FTZ;
    if (pi->ntypes != (setp ? 1 : 2))
        return emu_dec_unsupported(dc, setp ? "setp takes one type" : "set takes .dtype.stype");
    enum ptx_type st = pi->types[setp ? 0 : 1], dt = setp ? PTX_T_PRED : pi->types[0];
    bool packed = st == PTX_T_F16X2 || st == PTX_T_BF16X2;
    bool flt = st == PTX_T_F32 || st == PTX_T_F64 || st == PTX_T_F16 || st == PTX_T_BF16 || packed;
    int sk = source_kind(st, ftz), bc = bool_code(pi->boolop);
    enum ptx_mod cs = cmp_suffix(pi);
    int cc = cmp_code(cs, st, flt);
    if (sk < 0)
        return emu_dec_unsupported(dc, ftz ? ".ftz is defined for f32, f16 and f16x2 comparisons only"
                                           : "type not defined for comparisons");
    if (cc < 0)
        return emu_dec_unsupported(dc, "comparison not defined for this type");
    if (bc < 0 || !only_cmp_mods(pi, cs))
        return emu_dec_unsupported(dc, "modifier not defined for setp/set");

    /* Operands: destinations first (one or two), then a, b and c with BoolOp. */
    const struct ptx_operand *ops = pi->ops, *p = &ops[0], *q = NULL;
    unsigned nsrc = bc == EMU_BOOL_NONE ? 2 : 3, first = 1;
    if (p->kind == PTX_OPND_VEC && p->nelems == 2) {
        q = &p->elems[1];
        p = &p->elems[0];
    } else if (pi->nops == nsrc + 2) {
        q = &ops[1];
        first = 2;
    }
    if (pi->nops != first + nsrc)
        return emu_dec_unsupported(dc, "wrong operand count");
    if (q && !setp)
        return emu_dec_unsupported(dc, "set has one destination");

    out->sub = (uint8_t)cc;
    out->sub2 = (uint8_t)bc;
    out->a = emu_dec_src(dc, &ops[first], st);
    out->b = emu_dec_src(dc, &ops[first + 1], st);
    out->imm = 0;
    if (nsrc == 3) {
        out->c = emu_dec_pred(dc, &ops[first + 2]);
        out->imm = ops[first + 2].neg ? NEG_C : 0;
    }
    if (setp) {
        out->fn = setp_fns[sk];
        out->d = emu_dec_pred(dc, p);
        out->e = q && q->kind != PTX_OPND_SINK ? emu_dec_pred(dc, q) : EMU_NOREG;
        emu_fn fast = fast_setp_fn(sk, cc);
        if (fast && out->e == EMU_NOREG && bc == EMU_BOOL_NONE) {
            int k = fast_kind(sk);
            out->fn = emu_dec_twin(dc, fast, k < 4 && cc <= EMU_CMP_GE ? ufast_setp[k][cc].f[0] : NULL);
            /* a lane-affine operand against a uniform one (either order) */
            int32_t sa, sb;
            if (k < 2 && cc <= EMU_CMP_GE && emu_dec_stride(dc, &ops[first], &sa) &&
                emu_dec_stride(dc, &ops[first + 1], &sb) && (sa == 1) + (sb == 1) == 1 && (sa == 0) + (sb == 0) == 1) {
                static const uint8_t mirror[EMU_CMP_GE + 1] = {
                    [EMU_CMP_EQ] = EMU_CMP_EQ, [EMU_CMP_NE] = EMU_CMP_NE, [EMU_CMP_LT] = EMU_CMP_GT,
                    [EMU_CMP_LE] = EMU_CMP_GE, [EMU_CMP_GT] = EMU_CMP_LT, [EMU_CMP_GE] = EMU_CMP_LE,
                };
                int c2 = cc;
                if (sb == 1) {
                    uint16_t t = out->a; out->a = out->b; out->b = t;
                    c2 = mirror[cc];
                    out->sub = (uint8_t)c2;
                }
                out->fn = afast_setp[k][c2].f[0];
            }
        }
        return EMU_SEL_OK;
    }
    uint32_t tv = set_true(dt, packed);
    if (!tv)
        return emu_dec_unsupported(dc, "destination type not defined for set with this source type");
    out->fn = set_fns[sk];
    out->d = emu_dec_dst(dc, p, dt);
    out->imm |= tv;
    return EMU_SEL_OK;
}

/* selp.type d, a, b, {!}c and slct.dtype.ctype d, a, b, c. */
static enum emu_sel sel_select(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out)
{
    bool selp = pi->op == PTX_OP_SELP, ftz = pi->flags & PTX_IF_FTZ;
    if (pi->ntypes != (selp ? 1 : 2))
        return emu_dec_unsupported(dc, selp ? "selp takes one type" : "slct takes .dtype.ctype");
    if (pi->nops != 4)
        return emu_dec_unsupported(dc, "wrong operand count");
    enum ptx_type t = pi->types[0];
    int wc = data_width(t);
    if (wc < 0)
        return emu_dec_unsupported(dc, "type not defined for selp/slct");
    out->d = emu_dec_dst(dc, &pi->ops[0], t);
    out->a = emu_dec_src(dc, &pi->ops[1], t);
    out->b = emu_dec_src(dc, &pi->ops[2], t);
    if (selp) {
        static const emu_fn fns[3] = { h_selp_16, h_selp_32, h_selp_64 };
        if (pi->nmods)
            return emu_dec_unsupported(dc, "selp takes no modifier");
        out->fn = fns[wc];
        out->c = emu_dec_pred(dc, &pi->ops[3]);
        out->imm = pi->ops[3].neg ? NEG_C : 0;
        return EMU_SEL_OK;
    }
    static const emu_fn s32[3] = { h_slct_16_s32, h_slct_32_s32, h_slct_64_s32 };
    static const emu_fn f32[3] = { h_slct_16_f32, h_slct_32_f32, h_slct_64_f32 };
    static const emu_fn f32ftz[3] = { h_slct_16_f32ftz, h_slct_32_f32ftz, h_slct_64_f32ftz };
    enum ptx_type ct = pi->types[1];
    if (pi->nmods > (ftz ? 1 : 0))
        return emu_dec_unsupported(dc, "slct takes only .ftz");
    if (ct == PTX_T_S32 && !ftz)
        out->fn = s32[wc];
    else if (ct == PTX_T_F32)
        out->fn = ftz ? f32ftz[wc] : f32[wc];
    else
        return emu_dec_unsupported(dc, "slct selects on .s32 or .f32 (.ftz with .f32 only)");
    out->c = emu_dec_src(dc, &pi->ops[3], ct);
    return EMU_SEL_OK;
}

/* Comparison and selection. */
enum emu_sel emu_sel_cmp(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out)
{
    switch (pi->op) {
    case PTX_OP_SETP: case PTX_OP_SET:
        return sel_compare(dc, pi, out);
    case PTX_OP_SELP: case PTX_OP_SLCT:
        return sel_select(dc, pi, out);
    default:
        return EMU_SEL_NO;
    }
}
