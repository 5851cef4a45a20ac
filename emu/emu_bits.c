/* emu_bits.c -- logic and bit manipulation: and or xor not cnot lop3 (also on predicates),
 * shl shr shf, popc clz bfind fns brev, bfe bfi bmsk szext, prmt, dp4a dp2a. */
#include <stdint.h>

#include "emu/emu.h"
#include "emu/emu_lanes.h"

/* Negated predicate sources (!p) of predicate logic, kept in inst.imm. */
#define NEG_A 1
#define NEG_B 2

/* ---- Bit-counting primitives ---------------------------------------------------
 * Written with shifts by constants, masks and adds only, so the lane loops
 * that use them vectorise (x86 has no vector popcount below AVX-512). */
static inline uint32_t popc32(uint32_t x)
{
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0F0F0F0Fu;
    x += x >> 8;
    x += x >> 16;
    return x & 0x3Fu;
}
static inline uint32_t popc64(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555u);
    x = (x & 0x3333333333333333u) + ((x >> 2) & 0x3333333333333333u);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Fu;
    x += x >> 8;
    x += x >> 16;
    x += x >> 32;
    return (uint32_t)x & 0x7Fu;
}
/* Leading zeros: smear the highest set bit down, count what stays clear. */
static inline uint32_t clz32(uint32_t x)
{
    x |= x >> 1; x |= x >> 2; x |= x >> 4; x |= x >> 8; x |= x >> 16;
    return 32u - popc32(x);
}
static inline uint32_t clz64(uint64_t x)
{
    x |= x >> 1; x |= x >> 2; x |= x >> 4; x |= x >> 8; x |= x >> 16; x |= x >> 32;
    return 64u - popc64(x);
}
static inline uint32_t brev32(uint32_t x)
{
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0F0F0F0Fu) | ((x & 0x0F0F0F0Fu) << 4);
    x = ((x >> 8) & 0x00FF00FFu) | ((x & 0x00FF00FFu) << 8);
    return (x >> 16) | (x << 16);
}
static inline uint64_t brev64(uint64_t x)
{
    return (uint64_t)brev32((uint32_t)x) << 32 | brev32((uint32_t)(x >> 32));
}

/* ---- Handler stamps --------------------------------------------------------------
 * W: 16, 32 or 64. Rows: r32 for 16/32, r64 for 64. NARW narrows to the width. */
#define RT16 uint32_t
#define RT32 uint32_t
#define RT64 uint64_t
#define RF16 r32
#define RF32 r32
#define RF64 r64
#define PUT16 EMU_PUT32
#define PUT32 EMU_PUT32
#define PUT64 EMU_PUT64
#define NAR16(v) ((uint32_t)(v) & 0xFFFFu)
#define NAR32(v) ((uint32_t)(v))
#define NAR64(v) ((uint64_t)(v))

/* d = OP(a[, b]) on one row type. */
#define STAMP_UN(name, W, OP) \
    EMU_HANDLER(h_##name##_##W) \
    { \
        RT##W *d = w->RF##W[in->d]; \
        const RT##W *ra = w->RF##W[in->a]; \
        EMU_EACH(l) { RT##W a = ra[l]; PUT##W(d, m, l, NAR##W(OP(W, a))); } \
        return EMU_CONTINUE; \
    }
#define STAMP_BIN(name, W, OP) \
    EMU_HANDLER(h_##name##_##W) \
    { \
        RT##W *d = w->RF##W[in->d]; \
        const RT##W *ra = w->RF##W[in->a], *rb = w->RF##W[in->b]; \
        EMU_EACH(l) { RT##W a = ra[l], b = rb[l]; PUT##W(d, m, l, NAR##W(OP(W, a, b))); } \
        return EMU_CONTINUE; \
    }
/* a of the row type, b (and c) u32 rows, widened to the row type so that the
 * lane loop has one element width (shifts, bfe); u32 results: popc ... */
#define STAMP_AU(name, W, OP) \
    EMU_HANDLER(h_##name##_##W) \
    { \
        RT##W *d = w->RF##W[in->d]; \
        const RT##W *ra = w->RF##W[in->a]; \
        const uint32_t *rb = w->r32[in->b], *rc = w->r32[in->c]; \
        EMU_EACH(l) { RT##W a = ra[l], b = rb[l], c = rc[l]; (void)c; PUT##W(d, m, l, NAR##W(OP(W, a, b, c))); } \
        return EMU_CONTINUE; \
    }
#define STAMP_TOU32(name, W, OP) \
    EMU_HANDLER(h_##name##_##W) \
    { \
        uint32_t *d = w->r32[in->d]; \
        const RT##W *ra = w->RF##W[in->a]; \
        EMU_EACH(l) { RT##W a = ra[l]; EMU_PUT32(d, m, l, OP(W, a)); } \
        return EMU_CONTINUE; \
    }

/* ---- Logic ------------------------------------------------------------------------ */
#define OP_AND(W, a, b) ((a) & (b))
#define OP_OR(W, a, b) ((a) | (b))
#define OP_XOR(W, a, b) ((a) ^ (b))
#define OP_NOT(W, a) (~(a))
#define OP_CNOT(W, a) ((RT##W)(NAR##W(a) == 0))
STAMP_BIN(and, 16, OP_AND) STAMP_BIN(and, 32, OP_AND) STAMP_BIN(and, 64, OP_AND)
STAMP_BIN(or, 16, OP_OR) STAMP_BIN(or, 32, OP_OR) STAMP_BIN(or, 64, OP_OR)
STAMP_BIN(xor, 16, OP_XOR) STAMP_BIN(xor, 32, OP_XOR) STAMP_BIN(xor, 64, OP_XOR)
STAMP_UN(not, 16, OP_NOT) STAMP_UN(not, 32, OP_NOT) STAMP_UN(not, 64, OP_NOT)
STAMP_UN(cnot, 16, OP_CNOT) STAMP_UN(cnot, 32, OP_CNOT) STAMP_UN(cnot, 64, OP_CNOT)
/* Scalar twins (emu_lanes.h) of the 32- and 64-bit ones. */
#define STAMP_UBIN(name, W, OP) \
    EMU_TWIN(hu_##name##_##W, h_##name##_##W) \
    { \
        RT##W a = w->RF##W[in->a][0], b = w->RF##W[in->b][0]; \
        EMU_FILL(w->RF##W[in->d], OP(W, a, b)); \
        return EMU_CONTINUE; \
    }
STAMP_UBIN(and, 32, OP_AND) STAMP_UBIN(and, 64, OP_AND)
STAMP_UBIN(or, 32, OP_OR) STAMP_UBIN(or, 64, OP_OR)
STAMP_UBIN(xor, 32, OP_XOR) STAMP_UBIN(xor, 64, OP_XOR)

/* Predicate logic works on whole lane masks; NEG_* flags negate sources. */
static inline emu_mask pred_src(const struct emu_warp *w, uint16_t row, int64_t neg, int64_t bit)
{
    return (neg & bit) ? ~w->pred[row] : w->pred[row];
}
static int h_and_pred(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    emu_pred_put(w, in->d, m, pred_src(w, in->a, in->imm, NEG_A) & pred_src(w, in->b, in->imm, NEG_B));
    return EMU_CONTINUE;
}
static int h_or_pred(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    emu_pred_put(w, in->d, m, pred_src(w, in->a, in->imm, NEG_A) | pred_src(w, in->b, in->imm, NEG_B));
    return EMU_CONTINUE;
}
static int h_xor_pred(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    emu_pred_put(w, in->d, m, pred_src(w, in->a, in->imm, NEG_A) ^ pred_src(w, in->b, in->imm, NEG_B));
    return EMU_CONTINUE;
}
static int h_not_pred(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    emu_pred_put(w, in->d, m, ~pred_src(w, in->a, in->imm, NEG_A));
    return EMU_CONTINUE;
}

/* lop3.b32: in->sub holds immLut. Bit i of the LUT is the result for the
 * inputs (a, b, c) = (i>>2 & 1, i>>1 & 1, i & 1) ("Logic and Shift
 * Instructions: lop3"); the result is the OR of the minterms the LUT selects. */
static int h_lop3_32(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    uint32_t *d = w->r32[in->d];
    const uint32_t *ra = w->r32[in->a], *rb = w->r32[in->b], *rc = w->r32[in->c];
    uint32_t k[8];
    for (unsigned i = 0; i < 8; i++)
        k[i] = 0u - ((in->sub >> i) & 1u);
    EMU_EACH(l) {
        uint32_t a = ra[l], b = rb[l], c = rc[l], na = ~a, nb = ~b, nc = ~c;
        uint32_t x = (k[0] & na & nb & nc) | (k[1] & na & nb & c) | (k[2] & na & b & nc) | (k[3] & na & b & c)
                   | (k[4] & a & nb & nc) | (k[5] & a & nb & c) | (k[6] & a & b & nc) | (k[7] & a & b & c);
        EMU_PUT32(d, m, l, x);
    }
    return EMU_CONTINUE;
}

/* ---- Shifts ("shl", "shr": amounts greater than the width clamp to it) -------------
 * b is an unsigned 32-bit amount; a left or logical shift by >= W gives 0, an
 * arithmetic one fills with the sign. 16-bit values are shifted as 32-bit ones. */
#define INRANGE(W, b) ((RT##W)0 - (RT##W)((b) < (W)))   /* all ones when b < W */
#define OP_SHL(W, a, b, c) ((RT##W)((a) << ((b) & ((W) - 1))) & INRANGE(W, b))
#define OP_SHRU(W, a, b, c) ((RT##W)(NAR##W(a) >> ((b) & ((W) - 1))) & INRANGE(W, b))
#define SX_16(a) ((int32_t)emu_sx16(a))
#define SX_32(a) ((int32_t)(a))
#define SX_64(a) ((int64_t)(a))
#define OP_SHRS(W, a, b, c) ((RT##W)(SX_##W(a) >> ((b) < (W) ? (b) : (W) - 1)))
STAMP_AU(shl, 16, OP_SHL) STAMP_AU(shl, 32, OP_SHL) STAMP_AU(shl, 64, OP_SHL)
STAMP_AU(shru, 16, OP_SHRU) STAMP_AU(shru, 32, OP_SHRU) STAMP_AU(shru, 64, OP_SHRU)
STAMP_AU(shrs, 16, OP_SHRS) STAMP_AU(shrs, 32, OP_SHRS) STAMP_AU(shrs, 64, OP_SHRS)

/* Shifts by an immediate below the width (in->imm), the common case: no
 * per-lane amount to clamp. */
#define STAMP_SHIMM(name, W, EXPR) \
    EMU_HANDLER(h_##name##_##W##_imm) \
    { \
        RT##W *d = w->RF##W[in->d]; \
        const RT##W *ra = w->RF##W[in->a]; \
        const unsigned k = (unsigned)in->imm; \
        EMU_EACH(l) { RT##W a = ra[l]; PUT##W(d, m, l, (RT##W)(EXPR)); } \
        return EMU_CONTINUE; \
    }
STAMP_SHIMM(shl, 32, a << k) STAMP_SHIMM(shl, 64, a << k)
STAMP_SHIMM(shru, 32, a >> k) STAMP_SHIMM(shru, 64, a >> k)
STAMP_SHIMM(shrs, 32, (int32_t)a >> k) STAMP_SHIMM(shrs, 64, (int64_t)a >> k)
#define STAMP_USHIMM(name, W, EXPR) \
    EMU_TWIN(hu_##name##_##W##_imm, h_##name##_##W##_imm) \
    { \
        RT##W a = w->RF##W[in->a][0]; \
        const unsigned k = (unsigned)in->imm; \
        EMU_FILL(w->RF##W[in->d], (RT##W)(EXPR)); \
        return EMU_CONTINUE; \
    }
STAMP_USHIMM(shl, 32, a << k) STAMP_USHIMM(shl, 64, a << k)
STAMP_USHIMM(shru, 32, a >> k) STAMP_USHIMM(shru, 64, a >> k)
STAMP_USHIMM(shrs, 32, (int32_t)a >> k) STAMP_USHIMM(shrs, 64, (int64_t)a >> k)

/* shf: funnel shift of the 64-bit b:a by n = min(c, 32) (.clamp) or c & 31
 * (.wrap); .l keeps the high word, .r the low word. */
#define STAMP_SHF(name, CLAMP, LEFT) \
    EMU_HANDLER(h_##name) \
    { \
        uint32_t *d = w->r32[in->d]; \
        const uint32_t *ra = w->r32[in->a], *rb = w->r32[in->b], *rc = w->r32[in->c]; \
        EMU_EACH(l) { \
            uint64_t v = (uint64_t)rb[l] << 32 | ra[l]; \
            uint32_t n = (CLAMP) ? (rc[l] < 32 ? rc[l] : 32) : rc[l] & 31; \
            EMU_PUT32(d, m, l, (LEFT) ? (uint32_t)((v << n) >> 32) : (uint32_t)(v >> n)); \
        } \
        return EMU_CONTINUE; \
    }
STAMP_SHF(shf_l_clamp, 1, 1)
STAMP_SHF(shf_l_wrap, 0, 1)
STAMP_SHF(shf_r_clamp, 1, 0)
STAMP_SHF(shf_r_wrap, 0, 0)

/* ---- Counting: popc, clz, bfind (results are u32) ------------------------------------ */
#define OP_POPC(W, a) popc##W(a)
#define OP_CLZ(W, a) clz##W(a)
/* bfind: the most significant non-sign bit; 0xffffffff when there is none
 * (W-1 - clz is then -1). Signed inputs that are negative look for a 0. */
#define OP_BFINDU(W, a) ((W) - 1 - clz##W(a))
#define OP_BFINDS(W, a) ((W) - 1 - clz##W(SX_##W(a) < 0 ? ~(a) : (a)))
/* .shiftamt: the left shift that moves that bit to the msb, i.e. the count of
 * leading non-significant bits; still 0xffffffff when there is none. */
#define OP_BFINDUSH(W, a) ((a) == 0 ? 0xFFFFFFFFu : clz##W(a))
#define OP_BFINDSSH(W, a) OP_BFINDUSH(W, SX_##W(a) < 0 ? ~(a) : (a))
STAMP_TOU32(popc, 32, OP_POPC) STAMP_TOU32(popc, 64, OP_POPC)
STAMP_TOU32(clz, 32, OP_CLZ) STAMP_TOU32(clz, 64, OP_CLZ)
STAMP_TOU32(bfindu, 32, OP_BFINDU) STAMP_TOU32(bfindu, 64, OP_BFINDU)
STAMP_TOU32(bfinds, 32, OP_BFINDS) STAMP_TOU32(bfinds, 64, OP_BFINDS)
STAMP_TOU32(bfindush, 32, OP_BFINDUSH) STAMP_TOU32(bfindush, 64, OP_BFINDUSH)
STAMP_TOU32(bfindssh, 32, OP_BFINDSSH) STAMP_TOU32(bfindssh, 64, OP_BFINDSSH)

#define OP_BREV(W, a) brev##W(a)
STAMP_UN(brev, 32, OP_BREV) STAMP_UN(brev, 64, OP_BREV)

/* fns: the position of the |offset|-th set bit of mask counted from base,
 * upwards for offset > 0 and downwards for offset < 0; offset 0 tests bit
 * base itself; 0xffffffff when not found ("fns"). A base above 31 is
 * undefined in the ISA; base & 31 is used. An H100 gives 0 for offset
 * INT_MIN whatever the mask (shift_1 edge kernel). Rare: a per-lane loop. */
static inline uint32_t fns_lane(uint32_t mask, uint32_t base, int32_t off)
{
    base &= 31;
    if (off == INT32_MIN)
        return 0;
    if (off == 0)
        return (mask >> base) & 1 ? base : 0xFFFFFFFFu;
    uint32_t n = off > 0 ? (uint32_t)off : 0u - (uint32_t)off;
    if (off > 0) {
        uint32_t x = mask & (0xFFFFFFFFu << base);
        if (n > popc32(x))
            return 0xFFFFFFFFu;
        for (uint32_t k = 1; k < n; k++)
            x &= x - 1;
        return 31u - clz32(x & (0u - x));
    }
    uint32_t x = mask & (0xFFFFFFFFu >> (31 - base));
    if (n > popc32(x))
        return 0xFFFFFFFFu;
    for (uint32_t k = 1; k < n; k++)
        x &= ~(0x80000000u >> clz32(x));
    return 31u - clz32(x);
}
static int h_fns(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    uint32_t *d = w->r32[in->d];
    const uint32_t *ra = w->r32[in->a], *rb = w->r32[in->b], *rc = w->r32[in->c];
    for (unsigned l = 0; l < EMU_WARP_SIZE; l++)
        EMU_PUT32(d, m, l, fns_lane(ra[l], rb[l], (int32_t)rc[l]));
    return EMU_CONTINUE;
}

/* ---- Bit fields -----------------------------------------------------------------------
 * bfe ("bfe"): the nb = min(len, W - pos) field bits that exist are copied,
 * the rest filled with the sign bit, a[min(pos + len - 1, W - 1)] for signed
 * types and len > 0, else 0. The ISA restricts pos = b and len = c to 0..255
 * (b & 0xff, c & 0xff): so the 32-bit forms do on an H100, while the 64-bit
 * forms use the whole 32-bit values (shift_1 edge kernel: bfe.u64 with
 * len = 256 extracts everything above pos); PMASK is 0xff or all ones. */
#define LOWMASK(W, n) ((n) >= (W) ? ~(RT##W)0 : (((RT##W)1 << ((n) & ((W) - 1))) - 1))
#define STAMP_BFE_FIELD(W, PMASK) \
    static inline RT##W bfe##W(RT##W a, RT##W b, RT##W c, bool sgn) \
    { \
        RT##W pos = b & (PMASK), len = c & (PMASK), p = pos < (W) ? pos : (W); \
        RT##W nb = len < (W) - p ? len : (W) - p; \
        uint64_t top = (uint64_t)pos + len - 1; \
        RT##W msk = LOWMASK(W, nb), sh = p >= (W) ? 0 : a >> (p & ((W) - 1)); \
        RT##W sb = sgn && len ? 0 - ((a >> (top < (W) - 1 ? top : (W) - 1)) & 1) : 0; \
        return (sh & msk) | (sb & ~msk); \
    }
STAMP_BFE_FIELD(32, 0xFFu)
STAMP_BFE_FIELD(64, 0xFFFFFFFFu)
#define BFE_FIELD(W, a, b, c, SGN) bfe##W(a, b, c, SGN)
#define OP_BFEU(W, a, b, c) BFE_FIELD(W, a, b, c, 0)
#define OP_BFES(W, a, b, c) BFE_FIELD(W, a, b, c, 1)
STAMP_AU(bfeu, 32, OP_BFEU) STAMP_AU(bfeu, 64, OP_BFEU)
STAMP_AU(bfes, 32, OP_BFES) STAMP_AU(bfes, 64, OP_BFES)

/* bfi ("bfi"): f = b with the low nb bits of a inserted at pos = c, nb =
 * min(len = d, W - pos) (0 when pos >= W); pos and len masked with PMASK as
 * for bfe (0xff for .b32; whole values for .b64, as an H100 does). The fourth
 * source is v[0]. */
#define STAMP_BFI(W, PMASK) \
    EMU_HANDLER(h_bfi_##W) \
    { \
        RT##W *d = w->RF##W[in->d]; \
        const RT##W *ra = w->RF##W[in->a], *rb = w->RF##W[in->b]; \
        const uint32_t *rc = w->r32[in->c], *rl = w->r32[in->v[0]]; \
        EMU_EACH(l) { \
            uint32_t pos = rc[l] & (PMASK), len = rl[l] & (PMASK); \
            uint32_t nb = pos >= (W) ? 0 : len < (W) - pos ? len : (W) - pos, sh = pos & ((W) - 1); \
            RT##W msk = LOWMASK(W, nb) << sh; \
            PUT##W(d, m, l, (rb[l] & ~msk) | ((ra[l] << sh) & msk)); \
        } \
        return EMU_CONTINUE; \
    }
STAMP_BFI(32, 0xFFu) STAMP_BFI(64, 0xFFFFFFFFu)

/* bmsk ("bmsk"): a mask of b bits starting at bit a; .wrap takes both modulo
 * 32, .clamp makes a >= 32 give 0 and b >= 32 run to the msb. */
#define STAMP_BMSK(name, CLAMP) \
    EMU_HANDLER(h_##name) \
    { \
        uint32_t *d = w->r32[in->d]; \
        const uint32_t *ra = w->r32[in->a], *rb = w->r32[in->b]; \
        EMU_EACH(l) { \
            uint32_t a = ra[l], b = rb[l], a1 = a & 31, b1 = b & 31, sum = a1 + b1; \
            uint32_t posovf = (CLAMP) && a >= 32, widovf = (CLAMP) && b >= 32; \
            uint32_t mask0 = posovf ? 0 : 0xFFFFFFFFu << a1; \
            uint32_t mask1 = (sum >= 32 || posovf || widovf) ? 0 : b1 == 0 ? 0xFFFFFFFFu : 0xFFFFFFFFu << (sum & 31); \
            EMU_PUT32(d, m, l, mask0 & ~mask1); \
        } \
        return EMU_CONTINUE; \
    }
STAMP_BMSK(bmsk_clamp, 1)
STAMP_BMSK(bmsk_wrap, 0)

/* szext ("szext"): a read as an N-bit value, N = b & 31 (.wrap) or the whole
 * word for b >= 32 (.clamp), zero- (.u32) or sign-extended (.s32); N = 0 gives 0. */
#define STAMP_SZEXT(name, CLAMP, SGN) \
    EMU_HANDLER(h_##name) \
    { \
        uint32_t *d = w->r32[in->d]; \
        const uint32_t *ra = w->r32[in->a], *rb = w->r32[in->b]; \
        EMU_EACH(l) { \
            uint32_t a = ra[l], b = rb[l], b1 = b & 31, big = (CLAMP) && b >= 32; \
            uint32_t mask = big ? 0 : 0xFFFFFFFFu << b1; \
            uint32_t sbit = (SGN) && b1 != 0 && !big ? (a >> ((b1 - 1) & 31)) & 1 : 0; \
            EMU_PUT32(d, m, l, (a & ~mask) | (sbit ? mask : 0)); \
        } \
        return EMU_CONTINUE; \
    }
STAMP_SZEXT(szext_clamp_u, 1, 0)
STAMP_SZEXT(szext_clamp_s, 1, 1)
STAMP_SZEXT(szext_wrap_u, 0, 0)
STAMP_SZEXT(szext_wrap_s, 0, 1)

/* ---- prmt ("prmt") --------------------------------------------------------------------
 * Bytes 0..7 of b:a. The default mode takes a 4-bit selector per result byte
 * from c (bit 3 replicates the byte's sign); the other modes derive all four
 * byte indices from c & 3 as IDX(i, s) says. */
static int h_prmt(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    uint32_t *d = w->r32[in->d];
    const uint32_t *ra = w->r32[in->a], *rb = w->r32[in->b], *rc = w->r32[in->c];
    EMU_EACH(l) {
        uint64_t v = (uint64_t)rb[l] << 32 | ra[l];
        uint32_t c = rc[l], x = 0;
        for (unsigned i = 0; i < 4; i++) {
            uint32_t s = (c >> (4 * i)) & 0xFu;
            uint32_t byte = (uint32_t)(v >> (8 * (s & 7))) & 0xFFu;
            byte = (s & 8) ? 0u - (byte >> 7) : byte;
            x |= (byte & 0xFFu) << (8 * i);
        }
        EMU_PUT32(d, m, l, x);
    }
    return EMU_CONTINUE;
}
#define IDX_F4E(i, s) ((s) + (i))
#define IDX_B4E(i, s) (((s) - (i)) & 7)
#define IDX_RC8(i, s) (s)
#define IDX_ECL(i, s) ((i) > (s) ? (i) : (s))
#define IDX_ECR(i, s) ((i) < (s) ? (i) : (s))
#define IDX_RC16(i, s) (((s) & 1) * 2 + ((i) & 1))
#define STAMP_PRMT(name, IDX) \
    EMU_HANDLER(h_prmt_##name) \
    { \
        uint32_t *d = w->r32[in->d]; \
        const uint32_t *ra = w->r32[in->a], *rb = w->r32[in->b], *rc = w->r32[in->c]; \
        EMU_EACH(l) { \
            uint64_t v = (uint64_t)rb[l] << 32 | ra[l]; \
            uint32_t s = rc[l] & 3, x = 0; \
            for (uint32_t i = 0; i < 4; i++) \
                x |= ((uint32_t)(v >> (8 * IDX(i, s))) & 0xFFu) << (8 * i); \
            EMU_PUT32(d, m, l, x); \
        } \
        return EMU_CONTINUE; \
    }
STAMP_PRMT(f4e, IDX_F4E) STAMP_PRMT(b4e, IDX_B4E) STAMP_PRMT(rc8, IDX_RC8)
STAMP_PRMT(ecl, IDX_ECL) STAMP_PRMT(ecr, IDX_ECR) STAMP_PRMT(rc16, IDX_RC16)

/* ---- dp4a / dp2a ("Integer Arithmetic Instructions: dp4a, dp2a") ----------------------
 * d = c + sum of products of 8-bit fields of b with 8-bit (dp4a) or 16-bit
 * (dp2a) fields of a, each extended per its operand type; arithmetic mod 2^32. */
#define X8(v, i, S) ((S) ? (uint32_t)(int32_t)(int8_t)(uint8_t)((v) >> (8 * (i))) : ((v) >> (8 * (i))) & 0xFFu)
#define X16(v, i, S) ((S) ? emu_sx16((v) >> (16 * (i))) : ((v) >> (16 * (i))) & 0xFFFFu)
#define STAMP_DP4A(name, SA, SB) \
    EMU_HANDLER(h_dp4a_##name) \
    { \
        uint32_t *d = w->r32[in->d]; \
        const uint32_t *ra = w->r32[in->a], *rb = w->r32[in->b], *rc = w->r32[in->c]; \
        EMU_EACH(l) { \
            uint32_t a = ra[l], b = rb[l]; \
            uint32_t x = rc[l] + X8(a, 0, SA) * X8(b, 0, SB) + X8(a, 1, SA) * X8(b, 1, SB) \
                       + X8(a, 2, SA) * X8(b, 2, SB) + X8(a, 3, SA) * X8(b, 3, SB); \
            EMU_PUT32(d, m, l, x); \
        } \
        return EMU_CONTINUE; \
    }
#define STAMP_DP2A(name, HI, SA, SB) \
    EMU_HANDLER(h_dp2a_##name) \
    { \
        uint32_t *d = w->r32[in->d]; \
        const uint32_t *ra = w->r32[in->a], *rb = w->r32[in->b], *rc = w->r32[in->c]; \
        EMU_EACH(l) { \
            uint32_t a = ra[l], b = rb[l]; \
            uint32_t x = rc[l] + X16(a, 0, SA) * X8(b, 2 * (HI), SB) + X16(a, 1, SA) * X8(b, 2 * (HI) + 1, SB); \
            EMU_PUT32(d, m, l, x); \
        } \
        return EMU_CONTINUE; \
    }
STAMP_DP4A(uu, 0, 0) STAMP_DP4A(us, 0, 1) STAMP_DP4A(su, 1, 0) STAMP_DP4A(ss, 1, 1)
STAMP_DP2A(lo_uu, 0, 0, 0) STAMP_DP2A(lo_us, 0, 0, 1) STAMP_DP2A(lo_su, 0, 1, 0) STAMP_DP2A(lo_ss, 0, 1, 1)
STAMP_DP2A(hi_uu, 1, 0, 0) STAMP_DP2A(hi_us, 1, 0, 1) STAMP_DP2A(hi_su, 1, 1, 0) STAMP_DP2A(hi_ss, 1, 1, 1)

/* ---- Selection -------------------------------------------------------------------------- */

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
#define NOMODS ((const enum ptx_mod[]){ PTX_MOD_NONE_ })

/* Width class of a bit/integer type: 0 = 16, 1 = 32, 2 = 64, -1 = other. */
static bool is_signed(enum ptx_type t)
{
    return t == PTX_T_S16 || t == PTX_T_S32 || t == PTX_T_S64;
}

static int width_class(enum ptx_type t)
{
    switch (t) {
    case PTX_T_B16: case PTX_T_U16: case PTX_T_S16: return 0;
    case PTX_T_B32: case PTX_T_U32: case PTX_T_S32: return 1;
    case PTX_T_B64: case PTX_T_U64: case PTX_T_S64: return 2;
    default: return -1;
    }
}

/* and or xor not (with predicates) and cnot. */
static enum emu_sel sel_logic(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out,
                              enum ptx_type t)
{
    static const emu_fn fns[4][3] = {
        { h_and_16, h_and_32, h_and_64 }, { h_or_16, h_or_32, h_or_64 },
        { h_xor_16, h_xor_32, h_xor_64 }, { h_not_16, h_not_32, h_not_64 },
    };
    static const emu_fn pfns[4] = { h_and_pred, h_or_pred, h_xor_pred, h_not_pred };
    int k = pi->op == PTX_OP_AND ? 0 : pi->op == PTX_OP_OR ? 1 : pi->op == PTX_OP_XOR ? 2 : 3;
    unsigned nsrc = k == 3 ? 1 : 2;
    if (pi->nmods)
        return emu_dec_unsupported(dc, "logic instructions take no modifier");
    if (pi->nops != nsrc + 1)
        return emu_dec_unsupported(dc, "wrong operand count");
    if (t == PTX_T_PRED) {
        out->fn = pfns[k];
        out->d = emu_dec_pred(dc, &pi->ops[0]);
        out->a = emu_dec_pred(dc, &pi->ops[1]);
        out->imm = pi->ops[1].neg ? NEG_A : 0;
        if (nsrc > 1) {
            out->b = emu_dec_pred(dc, &pi->ops[2]);
            out->imm |= pi->ops[2].neg ? NEG_B : 0;
        }
        return EMU_SEL_OK;
    }
    static const emu_fn ufns[3][3] = {
        { NULL, hu_and_32, hu_and_64 }, { NULL, hu_or_32, hu_or_64 }, { NULL, hu_xor_32, hu_xor_64 },
    };
    int wc = width_class(t);
    if (wc < 0)
        return emu_dec_unsupported(dc, "type not defined for logic instructions");
    out->fn = k < 3 ? emu_dec_twin(dc, fns[k][wc], ufns[k][wc]) : fns[k][wc];
    out->d = emu_dec_dst(dc, &pi->ops[0], t);
    out->a = emu_dec_src(dc, &pi->ops[1], t);
    if (nsrc > 1)
        out->b = emu_dec_src(dc, &pi->ops[2], t);
    return EMU_SEL_OK;
}

/* Source rows with the operand types of each position; nops includes d. */
static void rows3(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out,
                  enum ptx_type dt, enum ptx_type at, enum ptx_type bt, enum ptx_type ct)
{
    out->d = emu_dec_dst(dc, &pi->ops[0], dt);
    out->a = emu_dec_src(dc, &pi->ops[1], at);
    out->b = pi->nops > 2 ? emu_dec_src(dc, &pi->ops[2], bt) : out->a;
    out->c = pi->nops > 3 ? emu_dec_src(dc, &pi->ops[3], ct) : out->b;
}

#define NEED(n) do { if (pi->nops != (n)) return emu_dec_unsupported(dc, "wrong operand count"); } while (0)
#define ONLY(list, why) do { if (!mods_within(pi, list)) return emu_dec_unsupported(dc, why); } while (0)

static enum emu_sel sel_shift(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out,
                              enum ptx_type t, int wc)
{
    static const emu_fn shl[3] = { h_shl_16, h_shl_32, h_shl_64 };
    static const emu_fn shru[3] = { h_shru_16, h_shru_32, h_shru_64 };
    static const emu_fn shrs[3] = { h_shrs_16, h_shrs_32, h_shrs_64 };
    NEED(3);
    ONLY(NOMODS, "shl/shr take no modifier");
    if (wc < 0)
        return emu_dec_unsupported(dc, "type not defined for shifts");
    static const emu_fn shl_imm[3] = { NULL, h_shl_32_imm, h_shl_64_imm };
    static const emu_fn shru_imm[3] = { NULL, h_shru_32_imm, h_shru_64_imm };
    static const emu_fn shrs_imm[3] = { NULL, h_shrs_32_imm, h_shrs_64_imm };
    if (pi->op == PTX_OP_SHL)
        out->fn = shl[wc];
    else
        out->fn = is_signed(t) ? shrs[wc] : shru[wc];
    rows3(dc, pi, out, t, t, PTX_T_U32, PTX_T_U32);
    const struct ptx_operand *b = &pi->ops[2];
    if (wc > 0 && b->kind == PTX_OPND_IMM_INT && b->ival >= 0 && b->ival < (wc == 1 ? 32 : 64)) {
        static const emu_fn ushl_imm[3] = { NULL, hu_shl_32_imm, hu_shl_64_imm };
        static const emu_fn ushru_imm[3] = { NULL, hu_shru_32_imm, hu_shru_64_imm };
        static const emu_fn ushrs_imm[3] = { NULL, hu_shrs_32_imm, hu_shrs_64_imm };
        out->fn = pi->op == PTX_OP_SHL ? emu_dec_twin(dc, shl_imm[wc], ushl_imm[wc])
                  : is_signed(t)       ? emu_dec_twin(dc, shrs_imm[wc], ushrs_imm[wc])
                                       : emu_dec_twin(dc, shru_imm[wc], ushru_imm[wc]);
        out->ukind = out->fn == hu_shl_32_imm ? EMU_UK_SHL : out->fn == hu_shru_32_imm ? EMU_UK_SHRU
                     : out->fn == hu_shrs_32_imm ? EMU_UK_SHRS : EMU_UK_NONE;
        out->imm = b->ival;
    }
    return EMU_SEL_OK;
}

static enum emu_sel sel_prmt(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out)
{
    static const struct { enum ptx_mod mod; emu_fn fn; } modes[] = {
        { PTX_MOD_F4E, h_prmt_f4e }, { PTX_MOD_B4E, h_prmt_b4e }, { PTX_MOD_RC8, h_prmt_rc8 },
        { PTX_MOD_ECL, h_prmt_ecl }, { PTX_MOD_ECR, h_prmt_ecr }, { PTX_MOD_RC16, h_prmt_rc16 },
    };
    NEED(4);
    if (pi->nmods > 1)
        return emu_dec_unsupported(dc, "prmt takes at most one mode");
    out->fn = h_prmt;
    for (unsigned i = 0; i < sizeof modes / sizeof modes[0]; i++)
        if (pi->nmods && pi->mods[0] == modes[i].mod)
            out->fn = modes[i].fn;
    if (pi->nmods && out->fn == h_prmt)
        return emu_dec_unsupported(dc, "unknown prmt mode");
    rows3(dc, pi, out, PTX_T_B32, PTX_T_B32, PTX_T_B32, PTX_T_B32);
    return EMU_SEL_OK;
}

static enum emu_sel sel_dp(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out)
{
    static const emu_fn dp4a[4] = { h_dp4a_uu, h_dp4a_us, h_dp4a_su, h_dp4a_ss };
    static const emu_fn dp2a[2][4] = { { h_dp2a_lo_uu, h_dp2a_lo_us, h_dp2a_lo_su, h_dp2a_lo_ss },
                                       { h_dp2a_hi_uu, h_dp2a_hi_us, h_dp2a_hi_su, h_dp2a_hi_ss } };
    NEED(4);
    if (pi->ntypes != 2)
        return emu_dec_unsupported(dc, "dp4a/dp2a need .atype.btype");
    int k = 0;
    for (unsigned i = 0; i < 2; i++) {
        if (pi->types[i] != PTX_T_U32 && pi->types[i] != PTX_T_S32)
            return emu_dec_unsupported(dc, "dp4a/dp2a operand types are .u32 or .s32");
        k = k * 2 + (pi->types[i] == PTX_T_S32);
    }
    if (pi->op == PTX_OP_DP4A) {
        ONLY(NOMODS, "dp4a takes no modifier");
        out->fn = dp4a[k];
    } else {
        bool lo = has_mod(pi, PTX_MOD_LO), hi = has_mod(pi, PTX_MOD_HI);
        ONLY(MODS(PTX_MOD_LO, PTX_MOD_HI), "dp2a takes .lo or .hi");
        if (lo == hi)
            return emu_dec_unsupported(dc, "dp2a needs exactly one of .lo and .hi");
        out->fn = dp2a[hi][k];
    }
    rows3(dc, pi, out, PTX_T_B32, PTX_T_B32, PTX_T_B32, PTX_T_B32);
    return EMU_SEL_OK;
}

/* Bit-manipulation instructions with one type each. */
static enum emu_sel sel_field(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out,
                              enum ptx_type t, int wc)
{
    bool w64 = wc == 2, sgn = is_signed(t), clamp = has_mod(pi, PTX_MOD_CLAMP);
    bool wrap = has_mod(pi, PTX_MOD_WRAP);
    switch (pi->op) {
    case PTX_OP_POPC: case PTX_OP_CLZ:
        NEED(2);
        ONLY(NOMODS, "popc/clz take no modifier");
        if (wc < 1)
            return emu_dec_unsupported(dc, "popc/clz are defined for .b32 and .b64");
        out->fn = pi->op == PTX_OP_POPC ? (w64 ? h_popc_64 : h_popc_32) : (w64 ? h_clz_64 : h_clz_32);
        rows3(dc, pi, out, PTX_T_U32, t, t, t);
        return EMU_SEL_OK;
    case PTX_OP_BFIND: {
        bool sh = pi->flags & PTX_IF_SHIFTAMT;
        NEED(2);
        ONLY(MODS(PTX_MOD_SHIFTAMT), "bfind takes only .shiftamt");
        if (wc < 1)
            return emu_dec_unsupported(dc, "bfind is defined for 32- and 64-bit types");
        if (sgn)
            out->fn = sh ? (w64 ? h_bfindssh_64 : h_bfindssh_32) : (w64 ? h_bfinds_64 : h_bfinds_32);
        else
            out->fn = sh ? (w64 ? h_bfindush_64 : h_bfindush_32) : (w64 ? h_bfindu_64 : h_bfindu_32);
        rows3(dc, pi, out, PTX_T_U32, t, t, t);
        return EMU_SEL_OK;
    }
    case PTX_OP_BREV:
        NEED(2);
        ONLY(NOMODS, "brev takes no modifier");
        if (wc < 1)
            return emu_dec_unsupported(dc, "brev is defined for .b32 and .b64");
        out->fn = w64 ? h_brev_64 : h_brev_32;
        rows3(dc, pi, out, t, t, t, t);
        return EMU_SEL_OK;
    case PTX_OP_BFE:
        NEED(4);
        ONLY(NOMODS, "bfe takes no modifier");
        if (wc < 1)
            return emu_dec_unsupported(dc, "bfe is defined for 32- and 64-bit types");
        out->fn = sgn ? (w64 ? h_bfes_64 : h_bfes_32) : (w64 ? h_bfeu_64 : h_bfeu_32);
        rows3(dc, pi, out, t, t, PTX_T_U32, PTX_T_U32);
        return EMU_SEL_OK;
    case PTX_OP_BFI:
        NEED(5);
        ONLY(NOMODS, "bfi takes no modifier");
        if (wc < 1)
            return emu_dec_unsupported(dc, "bfi is defined for .b32 and .b64");
        out->fn = w64 ? h_bfi_64 : h_bfi_32;
        rows3(dc, pi, out, t, t, t, PTX_T_U32);
        out->v[0] = emu_dec_src(dc, &pi->ops[4], PTX_T_U32);
        return EMU_SEL_OK;
    case PTX_OP_FNS:
        NEED(4);
        ONLY(NOMODS, "fns takes no modifier");
        if (wc != 1)
            return emu_dec_unsupported(dc, "fns is defined for .b32");
        out->fn = h_fns;
        rows3(dc, pi, out, PTX_T_B32, PTX_T_B32, PTX_T_U32, PTX_T_S32);
        return EMU_SEL_OK;
    case PTX_OP_BMSK: case PTX_OP_SZEXT:
        NEED(3);
        ONLY(MODS(PTX_MOD_CLAMP, PTX_MOD_WRAP), "bmsk/szext take .clamp or .wrap");
        if (clamp == wrap)
            return emu_dec_unsupported(dc, "bmsk/szext need exactly one of .clamp and .wrap");
        if (wc != 1)
            return emu_dec_unsupported(dc, "bmsk/szext are defined for 32-bit types");
        if (pi->op == PTX_OP_BMSK)
            out->fn = clamp ? h_bmsk_clamp : h_bmsk_wrap;
        else if (t != PTX_T_U32 && t != PTX_T_S32)
            return emu_dec_unsupported(dc, "szext is defined for .u32 and .s32");
        else
            out->fn = clamp ? (sgn ? h_szext_clamp_s : h_szext_clamp_u) : (sgn ? h_szext_wrap_s : h_szext_wrap_u);
        rows3(dc, pi, out, t, t, PTX_T_U32, PTX_T_U32);
        return EMU_SEL_OK;
    case PTX_OP_SHF: {
        bool left = has_mod(pi, PTX_MOD_L), right = has_mod(pi, PTX_MOD_R);
        NEED(4);
        ONLY(MODS(PTX_MOD_L, PTX_MOD_R, PTX_MOD_CLAMP, PTX_MOD_WRAP), "shf takes .l/.r and .clamp/.wrap");
        if (left == right || clamp == wrap)
            return emu_dec_unsupported(dc, "shf needs one of .l/.r and one of .clamp/.wrap");
        if (wc != 1)
            return emu_dec_unsupported(dc, "shf is defined for .b32");
        out->fn = left ? (clamp ? h_shf_l_clamp : h_shf_l_wrap) : (clamp ? h_shf_r_clamp : h_shf_r_wrap);
        rows3(dc, pi, out, PTX_T_B32, PTX_T_B32, PTX_T_B32, PTX_T_U32);
        return EMU_SEL_OK;
    }
    case PTX_OP_LOP3: {
        const struct ptx_operand *lut = &pi->ops[pi->nops - 1];
        if (pi->boolop != PTX_MOD_NONE_ || has_mod(pi, PTX_MOD_AND) || has_mod(pi, PTX_MOD_OR))
            return emu_dec_unsupported(dc, "lop3 with a predicate result (lop3.BoolOp) is not supported");
        NEED(5);
        ONLY(NOMODS, "lop3 takes no modifier");
        if (wc != 1)
            return emu_dec_unsupported(dc, "lop3 is defined for .b32");
        if (lut->kind != PTX_OPND_IMM_INT || lut->ival < 0 || lut->ival > 255)
            return emu_dec_unsupported(dc, "lop3's immLut must be an integer constant 0..255");
        out->fn = h_lop3_32;
        out->sub = (uint8_t)lut->ival;
        rows3(dc, pi, out, PTX_T_B32, PTX_T_B32, PTX_T_B32, PTX_T_B32);
        return EMU_SEL_OK;
    }
    default:
        return EMU_SEL_NO;
    }
}

/* Logic and bit manipulation. */
enum emu_sel emu_sel_bits(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out)
{
    switch (pi->op) {
    case PTX_OP_AND: case PTX_OP_OR: case PTX_OP_XOR: case PTX_OP_NOT: case PTX_OP_CNOT:
    case PTX_OP_LOP3: case PTX_OP_SHF: case PTX_OP_SHL: case PTX_OP_SHR: case PTX_OP_POPC:
    case PTX_OP_CLZ: case PTX_OP_BFIND: case PTX_OP_FNS: case PTX_OP_BREV: case PTX_OP_BFE:
    case PTX_OP_BFI: case PTX_OP_BMSK: case PTX_OP_SZEXT:
        break;
    case PTX_OP_PRMT:
        return sel_prmt(dc, pi, out);
    case PTX_OP_DP4A: case PTX_OP_DP2A:
        return sel_dp(dc, pi, out);
    default:
        return EMU_SEL_NO;
    }
    if (pi->ntypes != 1)
        return emu_dec_unsupported(dc, "bit instructions take exactly one type");
    enum ptx_type t = pi->types[0];
    int wc = width_class(t);
    switch (pi->op) {
    case PTX_OP_AND: case PTX_OP_OR: case PTX_OP_XOR: case PTX_OP_NOT:
        return sel_logic(dc, pi, out, t);
    case PTX_OP_CNOT: {
        static const emu_fn cnot[3] = { h_cnot_16, h_cnot_32, h_cnot_64 };
        NEED(2);
        ONLY(NOMODS, "cnot takes no modifier");
        if (wc < 0)
            return emu_dec_unsupported(dc, "cnot is defined for .b16 .b32 .b64");
        out->fn = cnot[wc];
        rows3(dc, pi, out, t, t, t, t);
        return EMU_SEL_OK;
    }
    case PTX_OP_SHL: case PTX_OP_SHR:
        return sel_shift(dc, pi, out, t, wc);
    default:
        return sel_field(dc, pi, out, t, wc);
    }
}
