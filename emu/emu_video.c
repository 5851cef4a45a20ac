/* emu_video.c -- the video instructions: scalar vadd vsub vabsdiff vmin vmax vshl vshr vmad vset
 * (byte/half selectors, .sat, secondary .add/.min/.max, merge, negated vmad operands) and SIMD
 * vop2/vop4, vset2/vset4 (source selectors, masks, .sat, .add). */
#include <stdint.h>
#include <stdlib.h>

#include "emu/emu.h"
#include "emu/emu_lanes.h"

/* Decode-time parameters of one video instruction, kept in in->aux (owned by
 * the program). Handlers copy them into locals before the lane loop. */
struct vid_par {
    /* Operand extraction: field = (x >> sh) << al, then shifted back down by
     * al, arithmetically when sg. al = 32 - the field's width. */
    uint32_t ash, aal, asg, bsh, bal, bsg;
    /* Saturation (when sat): t is first truncated to .s34 when s34, then
     * clamped to lo..hi, or, when ucl, replaced by hi where it is negative or
     * above hi. */
    uint32_t s34, ucl;
    int64_t lo, hi;
    /* Secondary .min/.max: c is read signed when csg; t is first wrapped to a
     * signed 32-bit value when wrap; the comparison is unsigned when ucmp. */
    uint32_t csg, wrap, ucmp;
    uint32_t msh, mmask;     /* merge: d = ((t << msh) & mmask) | (c & ~mmask) */
    uint32_t emask;          /* SIMD: bit e set when element e is in the mask */
    uint8_t apick[4], bpick[4]; /* SIMD: element e of a / b is element pick[e] of the pair {b, a} */
    uint32_t sat;            /* .sat */
    uint32_t po, scale;      /* vmad: plus one, right shift */
    uint32_t nprod, nc;      /* vmad: the product / c negated */
};

/* A field of x, sign- or zero-extended (the ISA's partSelectSignExtend). */
static inline int64_t vid_part(uint32_t x, uint32_t sh, uint32_t al, uint32_t sg)
{
    uint32_t v = (x >> sh) << al;
    int64_t s = (int64_t)((int32_t)v >> al), u = (int64_t)(v >> al);
    return sg ? s : u;
}

/* ---- Scalar forms ("Scalar Video Instructions") --------------------------------
 * PRIM(ta, tb) is the exact primary result, in TT (int64_t; __int128 for vshl,
 * whose .u32 source shifted by 32 needs 64 bits unsigned). Then saturation, and
 * one finish FIN: none, a secondary .add/.min/.max with c, or a merge into c.
 * What an H100 does differs from the ISA's pseudocode in several places (the
 * video edge kernels, tests/edge/video), and the parameters reproduce it:
 *  - .sat of vadd vsub vabsdiff vmin vmax: to the s32 range for a .s32 dtype;
 *    for .u32, negative results become 0 but results above 2^32-1 wrap
 *    (vadd.u32.u32.u32.sat 0xffffffff, 1 gives 0; taken to hold for vsub and
 *    vabsdiff with a .s32 source too, which the kernels do not push past
 *    2^32-1). With a merge selector the
 *    clamp is to the field's range, but a negative result also becomes the
 *    field's maximum (0x7f for .s32 and a byte).
 *  - .sat of vshl/vshr: the result truncated to .s34, then clamped to the
 *    32-bit range of dtype, with or without a merge selector.
 *  - .min/.max after vadd/vsub compare the result wrapped to 32 bits: for a
 *    .s32 dtype both signed, for .u32 the result sign-extended against c
 *    zero-extended, unsigned; after the other operations exactly, c read as
 *    dtype, except vset, which reads c signed.
 *  - the merge .h1 writes bits 31..16 of the result, not bits 15..0 shifted. */
#define P_ADD(a, b) ((a) + (b))
#define P_SUB(a, b) ((a) - (b))
#define P_ABSDIFF(a, b) ((a) > (b) ? (a) - (b) : (b) - (a))
#define P_MIN(a, b) ((a) < (b) ? (a) : (b))
#define P_MAX(a, b) ((a) > (b) ? (a) : (b))
/* vshl/vshr: b is read as .u32; .clamp limits it to 32, .wrap keeps its low 5 bits. */
#define SH_CLAMP(b) ((b) > 32 ? 32 : (b))
#define SH_WRAP(b) ((b) & 31)
#define P_SHLC(a, b) ((a) * ((TT)1 << SH_CLAMP(b)))
#define P_SHLW(a, b) ((a) * ((TT)1 << SH_WRAP(b)))
#define P_SHRC(a, b) ((a) >> SH_CLAMP(b))
#define P_SHRW(a, b) ((a) >> SH_WRAP(b))
#define P_EQ(a, b) ((TT)((a) == (b)))
#define P_NE(a, b) ((TT)((a) != (b)))
#define P_LT(a, b) ((TT)((a) < (b)))
#define P_LE(a, b) ((TT)((a) <= (b)))
#define P_GT(a, b) ((TT)((a) > (b)))
#define P_GE(a, b) ((TT)((a) >= (b)))

/* The secondary operand and the value of t that .min/.max compare with it. */
#define CV(c) (csg ? (TT)(int32_t)(c) : (TT)(c))
#define TV(t) (wrap ? (TT)(int32_t)(uint32_t)(t) : (t))
#define LESS(x, y) (ucmp ? (UTT)(x) < (UTT)(y) : (x) < (y))
#define F_NONE(t, c) ((uint32_t)(t))
#define F_ADD(t, c) ((uint32_t)(t) + (c))
#define F_MIN(t, c) (LESS(CV(c), TV(t)) ? (c) : (uint32_t)(t))
#define F_MAX(t, c) (LESS(TV(t), CV(c)) ? (c) : (uint32_t)(t))
#define F_MERGE(t, c) ((((uint32_t)(t) << msh) & mmask) | ((c) & ~mmask))

#define STAMP_SCALAR1(name, PRIM, fin, FIN) \
    static int h_##name##_##fin(struct emu_warp *w, const struct emu_inst *in, emu_mask m) \
    { \
        const struct vid_par *p = in->aux; \
        uint32_t ash = p->ash, aal = p->aal, asg = p->asg, bsh = p->bsh, bal = p->bal, bsg = p->bsg; \
        uint32_t sat = p->sat, s34 = p->s34, ucl = p->ucl, csg = p->csg, wrap = p->wrap, ucmp = p->ucmp; \
        uint32_t msh = p->msh, mmask = p->mmask; \
        TT lo = p->lo, hi = p->hi; \
        uint32_t *d = w->r32[in->d]; \
        const uint32_t *ra = w->r32[in->a], *rb = w->r32[in->b], *rc = w->r32[in->c]; \
        (void)csg; (void)wrap; (void)ucmp; (void)msh; (void)mmask; \
        for (unsigned l = 0; l < EMU_WARP_SIZE; l++) { \
            TT ta = vid_part(ra[l], ash, aal, asg), tb = vid_part(rb[l], bsh, bal, bsg); \
            TT t = PRIM(ta, tb); \
            if (s34) \
                t = (TT)((UTT)t << (8 * sizeof(TT) - 34)) >> (8 * sizeof(TT) - 34); \
            if (sat && ucl) \
                t = (UTT)t > (UTT)hi ? hi : t; \
            else if (sat) \
                t = t < lo ? lo : t > hi ? hi : t; \
            uint32_t c = rc[l]; \
            (void)c; \
            EMU_PUT32(d, m, l, FIN(t, c)); \
        } \
        return EMU_CONTINUE; \
    }
#define STAMP_SCALAR(name, PRIM) \
    STAMP_SCALAR1(name, PRIM, none, F_NONE) STAMP_SCALAR1(name, PRIM, add, F_ADD) \
    STAMP_SCALAR1(name, PRIM, min, F_MIN) STAMP_SCALAR1(name, PRIM, max, F_MAX) \
    STAMP_SCALAR1(name, PRIM, merge, F_MERGE)

/* Finishes, in the order of the handler tables' columns. */
enum { FIN_NONE, FIN_ADD, FIN_MIN, FIN_MAX, FIN_MERGE, FIN_N };
#define ROW(name) { h_##name##_none, h_##name##_add, h_##name##_min, h_##name##_max, h_##name##_merge }

#define TT int64_t
#define UTT uint64_t
STAMP_SCALAR(vadd, P_ADD) STAMP_SCALAR(vsub, P_SUB) STAMP_SCALAR(vabsdiff, P_ABSDIFF)
STAMP_SCALAR(vmin, P_MIN) STAMP_SCALAR(vmax, P_MAX)
STAMP_SCALAR(vshrc, P_SHRC) STAMP_SCALAR(vshrw, P_SHRW)
STAMP_SCALAR(vseteq, P_EQ) STAMP_SCALAR(vsetne, P_NE) STAMP_SCALAR(vsetlt, P_LT)
STAMP_SCALAR(vsetle, P_LE) STAMP_SCALAR(vsetgt, P_GT) STAMP_SCALAR(vsetge, P_GE)
#undef TT
#undef UTT
#define TT __int128
#define UTT unsigned __int128
STAMP_SCALAR(vshlc, P_SHLC) STAMP_SCALAR(vshlw, P_SHLW)
#undef TT
#undef UTT

/* Primary operations of the scalar forms (rows of fn_scalar). */
enum { SP_ADD, SP_SUB, SP_ABSDIFF, SP_MIN, SP_MAX, SP_SHLC, SP_SHLW, SP_SHRC, SP_SHRW,
       SP_EQ, SP_NE, SP_LT, SP_LE, SP_GT, SP_GE, SP_N };
static const emu_fn fn_scalar[SP_N][FIN_N] = {
    ROW(vadd), ROW(vsub), ROW(vabsdiff), ROW(vmin), ROW(vmax),
    ROW(vshlc), ROW(vshlw), ROW(vshrc), ROW(vshrw),
    ROW(vseteq), ROW(vsetne), ROW(vsetlt), ROW(vsetle), ROW(vsetgt), ROW(vsetge),
};

/* vmad ("Scalar Video Instructions: vmad") as an H100 computes it: a whole-word
 * source is read signed whatever its type (a byte or half-word field follows
 * its type), c is read signed, +-ta * tb +- c (+1 with .po) is a 64-bit sum,
 * the .shr7/.shr15 shift is arithmetic when atype or btype is .s32 or an
 * operand is negated, and logical otherwise, and .sat clamps the 64-bit value
 * to the 32-bit range of that signedness (dtype plays no part). The product is
 * negated when exactly one of a and b is (ptxas accepts a negated product or a
 * negated c, not both). */
static int h_vmad(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    const struct vid_par *p = in->aux;
    uint32_t ash = p->ash, aal = p->aal, asg = p->asg, bsh = p->bsh, bal = p->bal, bsg = p->bsg;
    uint32_t sgn = p->csg, po = p->po, scale = p->scale, sat = p->sat;
    uint64_t np = 0 - (uint64_t)p->nprod, nc = 0 - (uint64_t)p->nc;   /* all ones when negated */
    int64_t lo = p->lo, hi = p->hi;
    uint32_t *d = w->r32[in->d];
    const uint32_t *ra = w->r32[in->a], *rb = w->r32[in->b], *rc = w->r32[in->c];
    EMU_EACH(l) {
        uint64_t t = (uint64_t)(vid_part(ra[l], ash, aal, asg) * vid_part(rb[l], bsh, bal, bsg));
        uint64_t c = (uint64_t)(int64_t)(int32_t)rc[l];
        t = ((t ^ np) - np) + ((c ^ nc) - nc) + po;
        t = sgn ? (uint64_t)((int64_t)t >> scale) : t >> scale;
        int64_t r = (int64_t)t;
        if (sat)
            r = r < lo ? lo : r > hi ? hi : r;
        EMU_PUT32(d, m, l, (uint32_t)r);
    }
    return EMU_CONTINUE;
}

/* ---- SIMD forms ("SIMD Video Instructions") ----------------------------------
 * N elements of W bits per source, each extended as its type says. The source
 * selectors .hxy (vop2) and .bwxyz (vop4) pick every element from the 2N
 * elements of the pair {b, a} (a's first): digit k, counted from the last
 * written, names element k's source; the defaults are a's and b's own elements
 * in order (.h10/.h32, .b3210/.b7654). OP gives t[e], clamped to the element
 * range of dtype with .sat. The merge form writes t[e]'s low W bits for
 * elements in the mask (.h0 .h1 .h10; .b0 to .b3210, descending digits) and c's
 * element elsewhere (vset4 too, whose ISA text says b's; an H100 takes c's); the
 * accumulate form (.add) adds the masked t[e] to c as 32-bit integers. These
 * follow the ISA's pseudocode, as an H100 does (tests/edge/video, simdsel*). */
#define S_AVRG(a, b) ((a) + (b) >= 0 ? ((a) + (b) + 1) >> 1 : ((a) + (b)) >> 1)
#define S_ABSDIFF(a, b) ((a) > (b) ? (a) - (b) : (b) - (a))
#define S_EQ(a, b) ((int32_t)((a) == (b)))
#define S_NE(a, b) ((int32_t)((a) != (b)))
#define S_LT(a, b) ((int32_t)((a) < (b)))
#define S_LE(a, b) ((int32_t)((a) <= (b)))
#define S_GT(a, b) ((int32_t)((a) > (b)))
#define S_GE(a, b) ((int32_t)((a) >= (b)))

static inline int32_t vid_elem(uint32_t x, unsigned e, unsigned wbits, uint32_t sg)
{
    uint32_t v = x << (32 - wbits * (e + 1));
    int32_t s = (int32_t)v >> (32 - wbits), u = (int32_t)(v >> (32 - wbits));
    return sg ? s : u;
}

#define STAMP_SIMD1(name, N, OP, kind, ADD) \
    static int h_##name##N##_##kind(struct emu_warp *w, const struct emu_inst *in, emu_mask m) \
    { \
        const struct vid_par *p = in->aux; \
        uint32_t asg = p->asg, bsg = p->bsg, emask = p->emask; \
        int32_t lo = (int32_t)p->lo, hi = (int32_t)p->hi; \
        const unsigned wb = 32 / (N); \
        const uint32_t wm = (N) == 2 ? 0xFFFFu : 0xFFu; \
        unsigned as[4], bs[4]; \
        for (unsigned e = 0; e < 4; e++) { \
            as[e] = wb * p->apick[e]; \
            bs[e] = wb * p->bpick[e]; \
        } \
        uint32_t *d = w->r32[in->d]; \
        const uint32_t *ra = w->r32[in->a], *rb = w->r32[in->b], *rc = w->r32[in->c]; \
        EMU_EACH(l) { \
            uint64_t pool = (uint64_t)rb[l] << 32 | ra[l]; \
            uint32_t c = rc[l], merged = 0, sum = 0; \
            for (unsigned e = 0; e < (N); e++) { \
                int32_t va = vid_elem((uint32_t)(pool >> as[e]), 0, wb, asg); \
                int32_t vb = vid_elem((uint32_t)(pool >> bs[e]), 0, wb, bsg); \
                int32_t t = OP(va, vb); \
                t = t < lo ? lo : t > hi ? hi : t; \
                uint32_t on = (emask >> e) & 1u; \
                merged |= ((on ? (uint32_t)t : c >> (wb * e)) & wm) << (wb * e); \
                sum += on ? (uint32_t)t : 0u; \
            } \
            EMU_PUT32(d, m, l, (ADD) ? c + sum : merged); \
        } \
        return EMU_CONTINUE; \
    }
#define STAMP_SIMD(name, OP) \
    STAMP_SIMD1(name, 2, OP, merge, 0) STAMP_SIMD1(name, 2, OP, add, 1) \
    STAMP_SIMD1(name, 4, OP, merge, 0) STAMP_SIMD1(name, 4, OP, add, 1)

STAMP_SIMD(vadd, P_ADD) STAMP_SIMD(vsub, P_SUB) STAMP_SIMD(vavrg, S_AVRG)
STAMP_SIMD(vabsdiff, S_ABSDIFF) STAMP_SIMD(vmin, P_MIN) STAMP_SIMD(vmax, P_MAX)
STAMP_SIMD(vseteq, S_EQ) STAMP_SIMD(vsetne, S_NE) STAMP_SIMD(vsetlt, S_LT)
STAMP_SIMD(vsetle, S_LE) STAMP_SIMD(vsetgt, S_GT) STAMP_SIMD(vsetge, S_GE)

/* Rows of fn_simd: the six arithmetic operations, then the six comparisons. */
enum { MP_ADD, MP_SUB, MP_AVRG, MP_ABSDIFF, MP_MIN, MP_MAX, MP_EQ, MP_NE, MP_LT, MP_LE, MP_GT, MP_GE, MP_N };
#define SROW(name) { { h_##name##2_merge, h_##name##2_add }, { h_##name##4_merge, h_##name##4_add } }
static const emu_fn fn_simd[MP_N][2][2] = {
    SROW(vadd), SROW(vsub), SROW(vavrg), SROW(vabsdiff), SROW(vmin), SROW(vmax),
    SROW(vseteq), SROW(vsetne), SROW(vsetlt), SROW(vsetle), SROW(vsetgt), SROW(vsetge),
};

/* ---- Selection -------------------------------------------------------------------- */

/* Suffixes of a video instruction, gathered from pi->mods. */
struct vid_mods {
    bool sat, add, min, max, clamp, wrap, po, shr7, shr15;
    int cmp;                 /* SP_EQ.. - SP_EQ, or -1 */
    bool other;              /* a suffix no video instruction takes */
};

static void vid_mods(const struct ptx_instr *pi, struct vid_mods *out)
{
    memset(out, 0, sizeof *out);
    out->cmp = -1;
    for (unsigned i = 0; i < pi->nmods; i++) {
        switch (pi->mods[i]) {
        case PTX_MOD_SAT: out->sat = true; break;
        case PTX_MOD_ADD: out->add = true; break;
        case PTX_MOD_MIN: out->min = true; break;
        case PTX_MOD_MAX: out->max = true; break;
        case PTX_MOD_CLAMP: out->clamp = true; break;
        case PTX_MOD_WRAP: out->wrap = true; break;
        case PTX_MOD_PO: out->po = true; break;
        case PTX_MOD_SHR7: out->shr7 = true; break;
        case PTX_MOD_SHR15: out->shr15 = true; break;
        case PTX_MOD_EQ: out->cmp = 0; break;
        case PTX_MOD_NE: out->cmp = 1; break;
        case PTX_MOD_LT: out->cmp = 2; break;
        case PTX_MOD_LE: out->cmp = 3; break;
        case PTX_MOD_GT: out->cmp = 4; break;
        case PTX_MOD_GE: out->cmp = 5; break;
        default: out->other = true; break;
        }
    }
}

/* True when type t is .u32 or .s32; *out_signed tells which. */
static bool vid_type(enum ptx_type t, uint32_t *out_signed)
{
    *out_signed = t == PTX_T_S32;
    return t == PTX_T_U32 || t == PTX_T_S32;
}

/* A byte or half-word selector of a scalar operand (ptx_ir.h: vec_comp 5..8 =
 * .b0-.b3, 9..10 = .h0/.h1) as a shift and an alignment; false for .x/.y/...
 * A missing selector is the whole word. */
static bool vid_sel(const struct ptx_operand *op, uint32_t *out_sh, uint32_t *out_al)
{
    unsigned v = op->kind == PTX_OPND_REG ? op->vec_comp : 0;
    if (v == 0) { *out_sh = 0; *out_al = 0; return true; }
    if (v >= 5 && v <= 8) { *out_sh = 8 * (v - 5); *out_al = 24; return true; }
    if (v == 9 || v == 10) { *out_sh = 16 * (v - 9); *out_al = 16; return true; }
    return false;
}

static enum emu_sel vid_emit(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out,
                             emu_fn fn, const struct vid_par *par)
{
    struct vid_par *p = malloc(sizeof *p);
    if (!p)
        return emu_dec_unsupported(dc, "out of memory");
    *p = *par;
    out->fn = fn;
    out->d = emu_dec_dst(dc, &pi->ops[0], PTX_T_U32);
    out->a = emu_dec_src(dc, &pi->ops[1], PTX_T_U32);
    out->b = emu_dec_src(dc, &pi->ops[2], PTX_T_U32);
    out->c = pi->nops > 3 ? emu_dec_src(dc, &pi->ops[3], PTX_T_U32) : out->a;
    out->aux = p;
    out->aux_owned = 1;
    return EMU_SEL_OK;
}

/* Saturation bounds of a `bits`-wide field of a signed or unsigned result. */
static void vid_bounds(struct vid_par *p, bool sat, uint32_t sgn, unsigned bits)
{
    if (!sat) {
        p->lo = INT64_MIN;
        p->hi = INT64_MAX;
    } else if (sgn) {
        p->lo = -((int64_t)1 << (bits - 1));
        p->hi = ((int64_t)1 << (bits - 1)) - 1;
    } else {
        p->lo = 0;
        p->hi = ((int64_t)1 << bits) - 1;
    }
}

/* vadd vsub vabsdiff vmin vmax vshl vshr vset: d[.dsel], a[.asel], b[.bsel][, c]. */
static enum emu_sel sel_scalar(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out,
                               const struct vid_mods *md)
{
    bool vset = pi->op == PTX_OP_VSET, shift = pi->op == PTX_OP_VSHL || pi->op == PTX_OP_VSHR;
    unsigned nt = vset ? 2 : 3;
    uint32_t dsg = 0, asg, bsg;
    struct vid_par p = { 0 };
    if (pi->ntypes != nt)
        return emu_dec_unsupported(dc, vset ? "vset takes two types" : "scalar video instructions take three types");
    const enum ptx_type *ty = pi->types;
    if ((!vset && !vid_type(ty[0], &dsg)) || !vid_type(ty[nt - 2], &asg) || !vid_type(ty[nt - 1], &bsg))
        return emu_dec_unsupported(dc, "video instruction types are .u32 and .s32");
    if (shift && bsg)
        return emu_dec_unsupported(dc, "the shift amount of vshl/vshr is .u32");
    if (shift && md->clamp == md->wrap)
        return emu_dec_unsupported(dc, "vshl/vshr need exactly one of .clamp and .wrap");
    if (vset && md->cmp < 0)
        return emu_dec_unsupported(dc, "vset needs a comparison .eq .ne .lt .le .gt or .ge");
    if (md->other || md->po || md->shr7 || md->shr15 || (!vset && md->cmp >= 0) || (!shift && (md->clamp || md->wrap)) ||
        (vset && md->sat))
        return emu_dec_unsupported(dc, "modifier not defined for this video instruction");
    int fin = md->add + md->min + md->max > 1 ? -1 : md->add ? FIN_ADD : md->min ? FIN_MIN : md->max ? FIN_MAX : FIN_NONE;
    if (fin < 0)
        return emu_dec_unsupported(dc, "at most one secondary operation");
    uint32_t dsh, dal;
    if (pi->nops < 3 || pi->nops > 4 || !vid_sel(&pi->ops[0], &dsh, &dal) || !vid_sel(&pi->ops[1], &p.ash, &p.aal) ||
        !vid_sel(&pi->ops[2], &p.bsh, &p.bal))
        return emu_dec_unsupported(dc, "operand form not defined for scalar video instructions");
    bool merge = pi->ops[0].kind == PTX_OPND_REG && pi->ops[0].vec_comp;
    if (merge && fin != FIN_NONE)
        return emu_dec_unsupported(dc, "a destination selector excludes a secondary operation");
    if ((merge || fin != FIN_NONE) != (pi->nops == 4))
        return emu_dec_unsupported(dc, "operand c comes with a secondary operation or a destination selector");
    bool wrapped = pi->op == PTX_OP_VADD || pi->op == PTX_OP_VSUB;
    if (merge) {
        fin = FIN_MERGE;
        p.msh = dsh == 16 && dal == 16 ? 0 : dsh;   /* .h1 keeps the result's upper half in place */
        p.mmask = (0xFFFFFFFFu >> dal) << dsh;
    }
    p.asg = asg;
    p.bsg = bsg;
    p.csg = vset ? 1 : dsg;
    p.wrap = wrapped;
    p.ucmp = wrapped && !dsg;
    p.sat = md->sat;
    if (md->sat && shift) {
        p.s34 = 1;
        vid_bounds(&p, true, dsg, 32);
    } else if (md->sat && merge) {
        p.ucl = 1;
        vid_bounds(&p, true, dsg, 32 - dal);
    } else if (md->sat) {
        vid_bounds(&p, true, dsg, 32);
        if (!dsg)
            p.hi = INT64_MAX;            /* .u32: only negative results are clamped */
    }
    int prim;
    switch (pi->op) {
    case PTX_OP_VADD: prim = SP_ADD; break;
    case PTX_OP_VSUB: prim = SP_SUB; break;
    case PTX_OP_VABSDIFF: prim = SP_ABSDIFF; break;
    case PTX_OP_VMIN: prim = SP_MIN; break;
    case PTX_OP_VMAX: prim = SP_MAX; break;
    case PTX_OP_VSHL: prim = md->clamp ? SP_SHLC : SP_SHLW; break;
    case PTX_OP_VSHR: prim = md->clamp ? SP_SHRC : SP_SHRW; break;
    default: prim = SP_EQ + md->cmp; break;
    }
    return vid_emit(dc, pi, out, fn_scalar[prim][fin], &p);
}

/* vmad.dtype.atype.btype{.po}{.sat}{.shr7|.shr15} d, {-}a[.asel], {-}b[.bsel], {-}c. */
static enum emu_sel sel_vmad(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out,
                             const struct vid_mods *md)
{
    uint32_t dsg, asg, bsg;
    struct vid_par p = { 0 };
    if (pi->ntypes != 3 || !vid_type(pi->types[0], &dsg) || !vid_type(pi->types[1], &asg) ||
        !vid_type(pi->types[2], &bsg))
        return emu_dec_unsupported(dc, "vmad takes three types of .u32 and .s32");
    if (md->other || md->add || md->min || md->max || md->clamp || md->wrap || md->cmp >= 0 || (md->shr7 && md->shr15))
        return emu_dec_unsupported(dc, "modifier not defined for vmad");
    uint32_t dsh, dal;
    if (pi->nops != 4 || !vid_sel(&pi->ops[0], &dsh, &dal) || dal || !vid_sel(&pi->ops[1], &p.ash, &p.aal) ||
        !vid_sel(&pi->ops[2], &p.bsh, &p.bal) || (pi->ops[3].kind == PTX_OPND_REG && pi->ops[3].vec_comp))
        return emu_dec_unsupported(dc, "operand form not defined for vmad");
    bool na = pi->ops[1].arith_neg, nb = pi->ops[2].arith_neg, nc = pi->ops[3].arith_neg;
    if (md->po && (na || nb || nc))
        return emu_dec_unsupported(dc, "vmad.po takes no negated operands");
    if (na != nb && nc)
        return emu_dec_unsupported(dc, "vmad negates the product or c, not both");
    p.asg = asg || !p.aal;               /* whole words are read signed */
    p.bsg = bsg || !p.bal;
    p.nprod = na != nb;
    p.nc = nc;
    p.csg = asg | bsg | p.nprod | p.nc;
    p.po = md->po;
    p.scale = md->shr7 ? 7 : md->shr15 ? 15 : 0;
    p.sat = md->sat;
    vid_bounds(&p, md->sat, p.csg, 32);
    return vid_emit(dc, pi, out, h_vmad, &p);
}

/* The elements that a SIMD source selector picks (see "SIMD forms" above):
 * digits = N (.hxy with x, y in 0-3 for vop2, .bwxyz with digits 0-7 for
 * vop4); no selector gives element e + first. False for any other form. */
static bool simd_pick(const struct ptx_operand *op, unsigned n, unsigned first, uint8_t out_pick[4])
{
    unsigned v = op->kind == PTX_OPND_REG ? op->vec_comp : 0;
    for (unsigned e = 0; e < 4; e++)
        out_pick[e] = (uint8_t)((e + first) % (2 * n));
    if (v == 0)
        return true;
    if (v != (n == 2 ? PTX_VCOMP_HSEL : PTX_VCOMP_BSEL) || ptx_sel_ndigits(op->sel) != n)
        return false;
    for (unsigned e = 0; e < n; e++)
        out_pick[e] = (uint8_t)ptx_sel_digit(op->sel, e);
    return true;
}

/* The mask of a SIMD destination: digits 0..N-1 in descending order (.h0
 * .h1 .h10; .b0 ... .b3210); none is every element. 0 for any other form. */
static uint32_t simd_mask(const struct ptx_operand *op, unsigned n)
{
    unsigned v = op->kind == PTX_OPND_REG ? op->vec_comp : 0;
    if (v == 0)
        return (1u << n) - 1;
    bool kind_ok = n == 2 ? (v == 9 || v == 10 || v == PTX_VCOMP_HSEL) : ((v >= 5 && v <= 8) || v == PTX_VCOMP_BSEL);
    unsigned nd = ptx_sel_ndigits(op->sel);
    if (!kind_ok || nd == 0 || nd > n)
        return 0;
    uint32_t mask = 0;
    for (unsigned k = 0; k < nd; k++) {
        unsigned dg = ptx_sel_digit(op->sel, k);
        if (dg >= n || (k > 0 && dg <= ptx_sel_digit(op->sel, k - 1)))
            return 0;
        mask |= 1u << dg;
    }
    return mask;
}

/* vop2/vop4 and vset2/vset4: d[.mask], a[.asel], b[.bsel], c. */
static enum emu_sel sel_simd(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out,
                             const struct vid_mods *md, int prim, unsigned n)
{
    bool vset = prim >= MP_EQ;
    unsigned nt = vset ? 2 : 3;
    uint32_t dsg = 0, asg, bsg;
    struct vid_par p = { 0 };
    if (pi->ntypes != nt)
        return emu_dec_unsupported(dc, vset ? "vset2/vset4 take two types" : "SIMD video instructions take three types");
    const enum ptx_type *ty = pi->types;
    if ((!vset && !vid_type(ty[0], &dsg)) || !vid_type(ty[nt - 2], &asg) || !vid_type(ty[nt - 1], &bsg))
        return emu_dec_unsupported(dc, "video instruction types are .u32 and .s32");
    if (vset && md->cmp < 0)
        return emu_dec_unsupported(dc, "vset2/vset4 need a comparison .eq .ne .lt .le .gt or .ge");
    if (md->min || md->max)
        return emu_dec_unsupported(dc, "the SIMD video instructions take only the secondary operation .add");
    if (md->other || md->clamp || md->wrap || md->po || md->shr7 || md->shr15 || (!vset && md->cmp >= 0) ||
        (vset && md->sat))
        return emu_dec_unsupported(dc, "modifier not defined for this SIMD video instruction");
    if (md->sat && md->add)
        return emu_dec_unsupported(dc, ".sat cannot be used with the accumulate operation .add");
    if (pi->nops != 4)
        return emu_dec_unsupported(dc, "SIMD video instructions take d, a, b, c");
    if (!simd_pick(&pi->ops[1], n, 0, p.apick) || !simd_pick(&pi->ops[2], n, n, p.bpick))
        return emu_dec_unsupported(dc, n == 2 ? "vop2 source selectors are .hxy (x, y in 0-3)"
                                              : "vop4 source selectors are .bwxyz (digits 0-7)");
    if (pi->ops[3].kind == PTX_OPND_REG && pi->ops[3].vec_comp)
        return emu_dec_unsupported(dc, "operand c of a SIMD video instruction takes no selector");
    p.emask = simd_mask(&pi->ops[0], n);
    if (!p.emask)
        return emu_dec_unsupported(dc, "mask not defined for this SIMD video instruction");
    p.asg = asg;
    p.bsg = bsg;
    vid_bounds(&p, md->sat, dsg, 32 / n);
    if (!md->sat) {
        p.lo = INT32_MIN;
        p.hi = INT32_MAX;
    }
    return vid_emit(dc, pi, out, fn_simd[prim][n == 4][md->add], &p);
}

/* The video family. */
enum emu_sel emu_sel_video(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out)
{
    if (!(ptx_opcode_flags(pi->op) & PTX_OPF_VIDEO))
        return EMU_SEL_NO;
    struct vid_mods md;
    vid_mods(pi, &md);
    switch (pi->op) {
    case PTX_OP_VADD: case PTX_OP_VSUB: case PTX_OP_VABSDIFF: case PTX_OP_VMIN: case PTX_OP_VMAX:
    case PTX_OP_VSHL: case PTX_OP_VSHR: case PTX_OP_VSET:
        return sel_scalar(dc, pi, out, &md);
    case PTX_OP_VMAD:
        return sel_vmad(dc, pi, out, &md);
    case PTX_OP_VADD2: return sel_simd(dc, pi, out, &md, MP_ADD, 2);
    case PTX_OP_VSUB2: return sel_simd(dc, pi, out, &md, MP_SUB, 2);
    case PTX_OP_VAVRG2: return sel_simd(dc, pi, out, &md, MP_AVRG, 2);
    case PTX_OP_VABSDIFF2: return sel_simd(dc, pi, out, &md, MP_ABSDIFF, 2);
    case PTX_OP_VMIN2: return sel_simd(dc, pi, out, &md, MP_MIN, 2);
    case PTX_OP_VMAX2: return sel_simd(dc, pi, out, &md, MP_MAX, 2);
    case PTX_OP_VSET2: return sel_simd(dc, pi, out, &md, md.cmp < 0 ? MP_EQ : MP_EQ + md.cmp, 2);
    case PTX_OP_VADD4: return sel_simd(dc, pi, out, &md, MP_ADD, 4);
    case PTX_OP_VSUB4: return sel_simd(dc, pi, out, &md, MP_SUB, 4);
    case PTX_OP_VAVRG4: return sel_simd(dc, pi, out, &md, MP_AVRG, 4);
    case PTX_OP_VABSDIFF4: return sel_simd(dc, pi, out, &md, MP_ABSDIFF, 4);
    case PTX_OP_VMIN4: return sel_simd(dc, pi, out, &md, MP_MIN, 4);
    case PTX_OP_VMAX4: return sel_simd(dc, pi, out, &md, MP_MAX, 4);
    case PTX_OP_VSET4: return sel_simd(dc, pi, out, &md, md.cmp < 0 ? MP_EQ : MP_EQ + md.cmp, 4);
    default:
        return emu_dec_unsupported(dc, "video instruction not implemented");
    }
}
