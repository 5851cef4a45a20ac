/* emu_atom.c -- atomic read-modify-write instructions: atom and red.
 * Atomic across CPU workers through the __atomic builtins on host pointers. */
#include <stdlib.h>

#include "emu/emu.h"
#include "emu/emu_internal.h"

/* Every access is sequentially consistent: at least as strong as any .sem/.scope. */
#define ATOM_MO __ATOMIC_SEQ_CST

/* ---- Arithmetic on 16-bit floats ---------------------------------------------
 * Values are widened exactly to double, combined there, and rounded once to
 * nearest-even: double has more than 2p+2 bits for p = 11 (f16) and p = 8
 * (bf16), so this equals the correctly rounded 16-bit result. */
static double atom_f16_to_double(uint32_t h)
{
    uint32_t e = (h >> 10) & 31u, f = h & 0x3FFu;
    double mag;
    if (e == 31)
        mag = f ? __builtin_nan("") : __builtin_inf();
    else if (e == 0)
        mag = (double)f * 0x1p-24;
    else
        mag = (double)(f | 0x400u) * (double)(1u << e) * 0x1p-25;
    return (h & 0x8000u) ? -mag : mag;
}

static double atom_bf16_to_double(uint32_t h)
{
    return (double)emu_f32((h & 0xFFFFu) << 16);
}

/* Rounds x to nearest-even in a binary format with `ebits` exponent bits and
 * `mbits` fraction bits (f16: 5/10, bf16: 8/7); NaN becomes the canonical NaN
 * 0x7FFF of both formats. Independent of the host's rounding mode. */
static uint32_t atom_round16(double x, unsigned ebits, unsigned mbits)
{
    uint64_t b = emu_b64(x);
    uint32_t sign = (uint32_t)(b >> 48) & 0x8000u;
    uint32_t emax = (1u << ebits) - 1, inf = emax << mbits;
    int e = (int)((b >> 52) & 0x7FF);
    if (e == 0x7FF)
        return (b & 0xFFFFFFFFFFFFFull) ? 0x7FFFu : sign | inf;
    if (e == 0)
        return sign;                               /* below every 16-bit subnormal */
    uint64_t sig = (b & 0xFFFFFFFFFFFFFull) | (1ull << 52);
    int te = e - 1023 + (int)(emax >> 1);          /* biased target exponent */
    unsigned shift = 52 - mbits + (te < 1 ? (unsigned)(1 - te) : 0);
    if (shift > 60)
        return sign;
    uint64_t keep = sig >> shift, rem = sig & ((1ull << shift) - 1), half = 1ull << (shift - 1);
    if (rem > half || (rem == half && (keep & 1)))
        keep++;
    if (te < 1)                                    /* subnormal; a carry gives the least normal */
        return sign | (uint32_t)keep;
    if (keep >> (mbits + 1)) {
        keep >>= 1;
        te++;
    }
    if ((uint32_t)te >= emax)
        return sign | inf;
    return sign | ((uint32_t)te << mbits) | ((uint32_t)keep & ((1u << mbits) - 1));
}

static bool atom_isnan(double x) { return x != x; }

/* min/max of 16-bit floats as min/max.f16 define them: a NaN input yields the
 * other input, two NaNs the canonical NaN; -0 is below +0. */
static double atom_fmin(double a, double b)
{
    if (atom_isnan(a)) return b;
    if (atom_isnan(b)) return a;
    if (a == b) return __builtin_signbit(a) ? a : b;
    return a < b ? a : b;
}
static double atom_fmax(double a, double b)
{
    if (atom_isnan(a)) return b;
    if (atom_isnan(b)) return a;
    if (a == b) return __builtin_signbit(a) ? b : a;
    return a > b ? a : b;
}

#define ATOM_H16_OPS(fmt, TO, EB, MB)                                                           \
    static uint32_t atom_##fmt##_add(uint32_t x, uint32_t y) { return atom_round16(TO(x) + TO(y), EB, MB); } \
    static uint32_t atom_##fmt##_min(uint32_t x, uint32_t y) { return atom_round16(atom_fmin(TO(x), TO(y)), EB, MB); } \
    static uint32_t atom_##fmt##_max(uint32_t x, uint32_t y) { return atom_round16(atom_fmax(TO(x), TO(y)), EB, MB); }
ATOM_H16_OPS(f16, atom_f16_to_double, 5, 10)
ATOM_H16_OPS(bf16, atom_bf16_to_double, 8, 7)

/* Packed pairs: the operation on each 16-bit half. */
#define ATOM_X2_OP(fmt, op)                                                                     \
    static uint32_t atom_##fmt##x2_##op(uint32_t x, uint32_t y)                                 \
    {                                                                                           \
        return atom_##fmt##_##op(x & 0xFFFFu, y & 0xFFFFu) | atom_##fmt##_##op(x >> 16, y >> 16) << 16; \
    }
ATOM_X2_OP(f16, add) ATOM_X2_OP(f16, min) ATOM_X2_OP(f16, max)
ATOM_X2_OP(bf16, add) ATOM_X2_OP(bf16, min) ATOM_X2_OP(bf16, max)

/* ---- Per-lane primitives ------------------------------------------------------
 * Each performs one atomic read-modify-write at p with operands b (and c for
 * .cas) and returns the old value. The integer operations the builtins lack
 * are compare-exchange loops. */
static uint32_t atom_cas_loop32(uint32_t *p, uint32_t b, uint32_t (*op)(uint32_t, uint32_t))
{
    uint32_t old = __atomic_load_n(p, ATOM_MO);
    while (!__atomic_compare_exchange_n(p, &old, op(old, b), false, ATOM_MO, ATOM_MO))
        ;
    return old;
}

static uint64_t atom_cas_loop64(uint64_t *p, uint64_t b, uint64_t (*op)(uint64_t, uint64_t))
{
    uint64_t old = __atomic_load_n(p, ATOM_MO);
    while (!__atomic_compare_exchange_n(p, &old, op(old, b), false, ATOM_MO, ATOM_MO))
        ;
    return old;
}

/* A 16-bit read-modify-write through the aligned 32-bit word that holds it
 * (little-endian: the half at byte offset 2 is the high half). */
static uint32_t atom_rmw16(void *p, uint32_t b, uint32_t (*op)(uint32_t, uint32_t))
{
    uint32_t *word = (uint32_t *)((uintptr_t)p & ~(uintptr_t)3);
    unsigned sh = ((uintptr_t)p & 2) ? 16 : 0;
    uint32_t cur = __atomic_load_n(word, ATOM_MO), old;
    do {
        old = (cur >> sh) & 0xFFFFu;
        uint32_t nw = (cur & ~(0xFFFFu << sh)) | ((op(old, b) & 0xFFFFu) << sh);
        if (__atomic_compare_exchange_n(word, &cur, nw, false, ATOM_MO, ATOM_MO))
            break;
    } while (1);
    return old;
}

/* PTX ISA, "atom": .inc and .dec wrap within [0, b]. */
static uint32_t atom_op_inc(uint32_t old, uint32_t b) { return old >= b ? 0 : old + 1; }
static uint32_t atom_op_dec(uint32_t old, uint32_t b) { return (old == 0 || old > b) ? b : old - 1; }
static uint32_t atom_op_min_u32(uint32_t o, uint32_t b) { return b < o ? b : o; }
static uint32_t atom_op_max_u32(uint32_t o, uint32_t b) { return b > o ? b : o; }
static uint32_t atom_op_min_s32(uint32_t o, uint32_t b) { return (int32_t)b < (int32_t)o ? b : o; }
static uint32_t atom_op_max_s32(uint32_t o, uint32_t b) { return (int32_t)b > (int32_t)o ? b : o; }
static uint64_t atom_op_min_u64(uint64_t o, uint64_t b) { return b < o ? b : o; }
static uint64_t atom_op_max_u64(uint64_t o, uint64_t b) { return b > o ? b : o; }
static uint64_t atom_op_min_s64(uint64_t o, uint64_t b) { return (int64_t)b < (int64_t)o ? b : o; }
static uint64_t atom_op_max_s64(uint64_t o, uint64_t b) { return (int64_t)b > (int64_t)o ? b : o; }

/* f32 add, rounded to nearest-even; a NaN result is the canonical 0x7FFFFFFF.
 * The _ftz form flushes subnormal inputs and results to signed zero. */
static uint32_t atom_f32_flush(uint32_t x)
{
    return (x & 0x7F800000u) ? x : (x & 0x80000000u);
}
static uint32_t atom_op_add_f32(uint32_t o, uint32_t b)
{
    float r = emu_f32(o) + emu_f32(b);
    return r != r ? 0x7FFFFFFFu : emu_b32(r);
}
static uint32_t atom_op_add_f32_ftz(uint32_t o, uint32_t b)
{
    return atom_f32_flush(atom_op_add_f32(atom_f32_flush(o), atom_f32_flush(b)));
}
static uint64_t atom_op_add_f64(uint64_t o, uint64_t b)
{
    return emu_b64(emu_f64(o) + emu_f64(b));
}

static uint32_t atom_cas16(void *p, uint32_t cmp, uint32_t val)
{
    uint32_t *word = (uint32_t *)((uintptr_t)p & ~(uintptr_t)3);
    unsigned sh = ((uintptr_t)p & 2) ? 16 : 0;
    uint32_t cur = __atomic_load_n(word, ATOM_MO), old;
    do {
        old = (cur >> sh) & 0xFFFFu;
        if (old != (cmp & 0xFFFFu))
            break;
        uint32_t nw = (cur & ~(0xFFFFu << sh)) | ((val & 0xFFFFu) << sh);
        if (__atomic_compare_exchange_n(word, &cur, nw, false, ATOM_MO, ATOM_MO))
            break;
    } while (1);
    return old;
}

/* ---- Handlers -------------------------------------------------------------------
 * Two passes: translate every lane's address first (a fault leaves memory
 * untouched), then perform the lanes' operations in lane order, lane 0 first. */
static int atom_ptrs(struct emu_warp *w, const struct emu_inst *in, emu_mask m, unsigned size,
                     void *out_ptr[EMU_WARP_SIZE])
{
    if ((m & (m - 1)) == 0) {   /* one lane (`if (tid == 0) atomicAdd(...)`): translate just it */
        unsigned l = (unsigned)__builtin_ctz(m);
        out_ptr[l] = emu_mem_ptr(w, in, l, (enum ptx_space)in->space, emu_addr(w, in, l), size, true);
        return out_ptr[l] ? EMU_CONTINUE : EMU_STOP_FAULT;
    }
    if (emu_mem_direct(w, in, m, size, true, out_ptr))
        return EMU_CONTINUE;
    EMU_LANES(l) {
        out_ptr[l] = NULL;
        if (!EMU_ON(m, l))
            continue;
        out_ptr[l] = emu_mem_ptr(w, in, l, (enum ptx_space)in->space, emu_addr(w, in, l), size, true);
        if (!out_ptr[l])
            return EMU_STOP_FAULT;
    }
    return EMU_CONTINUE;
}

/* One handler per (operation, type): PRIM(p, b, c) is the lane's operation on
 * host pointer p (of type PT *), returning the old value. Shared memory
 * belongs to one CTA, which runs on one worker at a time: there the
 * integer operations are plain read-modify-writes, PLAIN(o, b, c) giving the
 * new value from the old o. */
#define ATOM_HANDLER(name, R, ROW, PT, SIZE, PRIM, PLAIN, HAS_PLAIN)                     \
    static int emu_atom_##name(struct emu_warp *w, const struct emu_inst *in, emu_mask m) \
    {                                                                                   \
        void *ptr[EMU_WARP_SIZE];                                                       \
        if (atom_ptrs(w, in, m, SIZE, ptr) != EMU_CONTINUE)                             \
            return EMU_STOP_FAULT;                                                      \
        const R *bv = ROW(w, in->b);                                                    \
        const R *cv = ROW(w, in->c == EMU_NOREG ? in->b : in->c);                       \
        R *dv = in->d == EMU_NOREG ? NULL : ROW(w, in->d);                              \
        if (HAS_PLAIN && in->space == PTX_SPACE_SHARED) {                               \
            for (emu_mask mm = m; mm; mm &= mm - 1) {                                   \
                unsigned l = (unsigned)__builtin_ctz(mm);                               \
                R *q = (R *)ptr[l], o = *q, b = bv[l], c = cv[l];                       \
                *q = (R)(PLAIN);                                                        \
                (void)b;                                                                \
                (void)c;                                                                \
                if (dv)                                                                 \
                    dv[l] = o;                                                          \
            }                                                                           \
            return EMU_CONTINUE;                                                        \
        }                                                                               \
        for (emu_mask mm = m; mm; mm &= mm - 1) {   /* active lanes, lane 0 first */      \
            unsigned l = (unsigned)__builtin_ctz(mm);                                   \
            PT *p = (PT *)ptr[l];                                                       \
            R b = bv[l], c = cv[l];                                                     \
            R old = (R)(PRIM);                                                          \
            (void)c;                                                                    \
            if (dv)                                                                     \
                dv[l] = old;                                                            \
        }                                                                               \
        return EMU_CONTINUE;                                                            \
    }

#define ATOM_H32(name, PRIM, PLAIN) ATOM_HANDLER(name, uint32_t, EMU_R32, uint32_t, 4, PRIM, PLAIN, 1)
#define ATOM_H64(name, PRIM, PLAIN) ATOM_HANDLER(name, uint64_t, EMU_R64, uint64_t, 8, PRIM, PLAIN, 1)
#define ATOM_H16(name, PRIM) ATOM_HANDLER(name, uint32_t, EMU_R32, void, 2, PRIM, 0, 0)

ATOM_H32(add_u32, __atomic_fetch_add(p, b, ATOM_MO), o + b)
ATOM_H32(and_b32, __atomic_fetch_and(p, b, ATOM_MO), o & b)
ATOM_H32(or_b32, __atomic_fetch_or(p, b, ATOM_MO), o | b)
ATOM_H32(xor_b32, __atomic_fetch_xor(p, b, ATOM_MO), o ^ b)
ATOM_H32(exch_b32, __atomic_exchange_n(p, b, ATOM_MO), b)
ATOM_H32(cas_b32, (__atomic_compare_exchange_n(p, &b, c, false, ATOM_MO, ATOM_MO), b), o == b ? c : o)
ATOM_H32(inc_u32, atom_cas_loop32(p, b, atom_op_inc), atom_op_inc(o, b))
ATOM_H32(dec_u32, atom_cas_loop32(p, b, atom_op_dec), atom_op_dec(o, b))
ATOM_H32(min_u32, atom_cas_loop32(p, b, atom_op_min_u32), atom_op_min_u32(o, b))
ATOM_H32(max_u32, atom_cas_loop32(p, b, atom_op_max_u32), atom_op_max_u32(o, b))
ATOM_H32(min_s32, atom_cas_loop32(p, b, atom_op_min_s32), atom_op_min_s32(o, b))
ATOM_H32(max_s32, atom_cas_loop32(p, b, atom_op_max_s32), atom_op_max_s32(o, b))
ATOM_H32(add_f32_noftz, atom_cas_loop32(p, b, atom_op_add_f32), atom_op_add_f32(o, b))
ATOM_H32(add_f32_ftz, atom_cas_loop32(p, b, atom_op_add_f32_ftz), atom_op_add_f32_ftz(o, b))
ATOM_H32(add_f16x2, atom_cas_loop32(p, b, atom_f16x2_add), atom_f16x2_add(o, b))
ATOM_H32(add_bf16x2, atom_cas_loop32(p, b, atom_bf16x2_add), atom_bf16x2_add(o, b))

ATOM_H64(add_u64, __atomic_fetch_add(p, b, ATOM_MO), o + b)
ATOM_H64(and_b64, __atomic_fetch_and(p, b, ATOM_MO), o & b)
ATOM_H64(or_b64, __atomic_fetch_or(p, b, ATOM_MO), o | b)
ATOM_H64(xor_b64, __atomic_fetch_xor(p, b, ATOM_MO), o ^ b)
ATOM_H64(exch_b64, __atomic_exchange_n(p, b, ATOM_MO), b)
ATOM_H64(cas_b64, (__atomic_compare_exchange_n(p, &b, c, false, ATOM_MO, ATOM_MO), b), o == b ? c : o)
ATOM_H64(min_u64, atom_cas_loop64(p, b, atom_op_min_u64), atom_op_min_u64(o, b))
ATOM_H64(max_u64, atom_cas_loop64(p, b, atom_op_max_u64), atom_op_max_u64(o, b))
ATOM_H64(min_s64, atom_cas_loop64(p, b, atom_op_min_s64), atom_op_min_s64(o, b))
ATOM_H64(max_s64, atom_cas_loop64(p, b, atom_op_max_s64), atom_op_max_s64(o, b))
ATOM_H64(add_f64, atom_cas_loop64(p, b, atom_op_add_f64), atom_op_add_f64(o, b))

ATOM_H16(cas_b16, atom_cas16(p, b, c))
ATOM_H16(add_f16, atom_rmw16(p, b, atom_f16_add))
ATOM_H16(add_bf16, atom_rmw16(p, b, atom_bf16_add))

/* atom.add.f32 flushes subnormals where the ISA says the GPU does: in .global
 * memory (PTX ISA, "atom": "atom.add.f32 on global memory flushes subnormal
 * inputs and results to sign-preserving zero"), not in .shared. The selector
 * picks add_f32_ftz for .global and add_f32_noftz for .shared; a generic
 * address decides by where it lands (inside the CTA's shared window or not). */
static int emu_atom_add_f32_generic(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    void *ptr[EMU_WARP_SIZE];
    if (atom_ptrs(w, in, m, 4, ptr) != EMU_CONTINUE)
        return EMU_STOP_FAULT;
    const uint32_t *bv = EMU_R32(w, in->b);
    uint32_t *dv = in->d == EMU_NOREG ? NULL : EMU_R32(w, in->d);
    uintptr_t sh_lo = (uintptr_t)w->cta->shared, sh_hi = sh_lo + (uintptr_t)w->cta->shared_size;
    EMU_LANES(l) {
        if (!EMU_ON(m, l))
            continue;
        bool shared = (uintptr_t)ptr[l] >= sh_lo && (uintptr_t)ptr[l] < sh_hi;
        uint32_t old = atom_cas_loop32(ptr[l], bv[l], shared ? atom_op_add_f32 : atom_op_add_f32_ftz);
        if (dv)
            dv[l] = old;
    }
    return EMU_CONTINUE;
}

/* Vector atomics (sm_90: .v2/.v4 .f32 add; .v2/.v4/.v8 .f16/.bf16 and .v2/.v4
 * .f16x2/.bf16x2 add/min/max): each element is its own atomic operation, in
 * element order. aux holds the rows: destinations [0, nv), sources [nv, 2nv);
 * a destination row is EMU_NOREG for red. */
static int atom_vec(struct emu_warp *w, const struct emu_inst *in, emu_mask m, unsigned esize,
                    uint32_t (*op)(uint32_t, uint32_t))
{
    void *ptr[EMU_WARP_SIZE];
    const uint16_t *rows = in->aux;
    unsigned nv = in->nv;
    if (atom_ptrs(w, in, m, esize * nv, ptr) != EMU_CONTINUE)
        return EMU_STOP_FAULT;
    EMU_LANES(l) {
        if (!EMU_ON(m, l))
            continue;
        uint32_t old[8];
        for (unsigned i = 0; i < nv; i++) {
            void *p = (uint8_t *)ptr[l] + i * esize;
            uint32_t b = EMU_R32(w, rows[nv + i])[l];
            old[i] = esize == 2 ? atom_rmw16(p, b, op) : atom_cas_loop32(p, b, op);
        }
        for (unsigned i = 0; i < nv; i++)
            if (rows[i] != EMU_NOREG)
                EMU_R32(w, rows[i])[l] = old[i];
    }
    return EMU_CONTINUE;
}

#define ATOM_VEC_HANDLER(name, ESIZE, OP)                                                \
    static int emu_atom_v_##name(struct emu_warp *w, const struct emu_inst *in, emu_mask m) \
    {                                                                                    \
        return atom_vec(w, in, m, ESIZE, OP);                                            \
    }
ATOM_VEC_HANDLER(add_f32, 4, atom_op_add_f32_ftz)
ATOM_VEC_HANDLER(add_f16, 2, atom_f16_add)
ATOM_VEC_HANDLER(min_f16, 2, atom_f16_min)
ATOM_VEC_HANDLER(max_f16, 2, atom_f16_max)
ATOM_VEC_HANDLER(add_bf16, 2, atom_bf16_add)
ATOM_VEC_HANDLER(min_bf16, 2, atom_bf16_min)
ATOM_VEC_HANDLER(max_bf16, 2, atom_bf16_max)
ATOM_VEC_HANDLER(add_f16x2, 4, atom_f16x2_add)
ATOM_VEC_HANDLER(min_f16x2, 4, atom_f16x2_min)
ATOM_VEC_HANDLER(max_f16x2, 4, atom_f16x2_max)
ATOM_VEC_HANDLER(add_bf16x2, 4, atom_bf16x2_add)
ATOM_VEC_HANDLER(min_bf16x2, 4, atom_bf16x2_min)
ATOM_VEC_HANDLER(max_bf16x2, 4, atom_bf16x2_max)

/* ---- Selection ------------------------------------------------------------------
 * The operation is pi->subop (.add .inc .dec .min .max .cas .exch, and .and .or .xor
 * as the parser files them for atom/red) or pi->boolop. One row per form the PTX ISA
 * defines. */
enum atom_opk { AK_ADD, AK_INC, AK_DEC, AK_MIN, AK_MAX, AK_AND, AK_OR, AK_XOR, AK_CAS, AK_EXCH, AK_NONE };

struct atom_form {
    enum atom_opk op;
    enum ptx_type t;
    emu_fn fn;
};

static const struct atom_form atom_scalar_forms[] = {
    { AK_ADD, PTX_T_U32, emu_atom_add_u32 }, { AK_ADD, PTX_T_S32, emu_atom_add_u32 },
    { AK_ADD, PTX_T_U64, emu_atom_add_u64 }, { AK_ADD, PTX_T_F32, emu_atom_add_f32_generic },
    { AK_ADD, PTX_T_F64, emu_atom_add_f64 },
    { AK_ADD, PTX_T_F16, emu_atom_add_f16 }, { AK_ADD, PTX_T_F16X2, emu_atom_add_f16x2 },
    { AK_ADD, PTX_T_BF16, emu_atom_add_bf16 }, { AK_ADD, PTX_T_BF16X2, emu_atom_add_bf16x2 },
    { AK_INC, PTX_T_U32, emu_atom_inc_u32 }, { AK_DEC, PTX_T_U32, emu_atom_dec_u32 },
    { AK_MIN, PTX_T_U32, emu_atom_min_u32 }, { AK_MIN, PTX_T_S32, emu_atom_min_s32 },
    { AK_MIN, PTX_T_U64, emu_atom_min_u64 }, { AK_MIN, PTX_T_S64, emu_atom_min_s64 },
    { AK_MAX, PTX_T_U32, emu_atom_max_u32 }, { AK_MAX, PTX_T_S32, emu_atom_max_s32 },
    { AK_MAX, PTX_T_U64, emu_atom_max_u64 }, { AK_MAX, PTX_T_S64, emu_atom_max_s64 },
    { AK_AND, PTX_T_B32, emu_atom_and_b32 }, { AK_AND, PTX_T_B64, emu_atom_and_b64 },
    { AK_OR, PTX_T_B32, emu_atom_or_b32 }, { AK_OR, PTX_T_B64, emu_atom_or_b64 },
    { AK_XOR, PTX_T_B32, emu_atom_xor_b32 }, { AK_XOR, PTX_T_B64, emu_atom_xor_b64 },
    { AK_EXCH, PTX_T_B32, emu_atom_exch_b32 }, { AK_EXCH, PTX_T_B64, emu_atom_exch_b64 },
    { AK_CAS, PTX_T_B32, emu_atom_cas_b32 }, { AK_CAS, PTX_T_B64, emu_atom_cas_b64 },
    { AK_CAS, PTX_T_B16, emu_atom_cas_b16 },
};

static const struct atom_form atom_vector_forms[] = {
    { AK_ADD, PTX_T_F32, emu_atom_v_add_f32 },
    { AK_ADD, PTX_T_F16, emu_atom_v_add_f16 }, { AK_MIN, PTX_T_F16, emu_atom_v_min_f16 },
    { AK_MAX, PTX_T_F16, emu_atom_v_max_f16 },
    { AK_ADD, PTX_T_BF16, emu_atom_v_add_bf16 }, { AK_MIN, PTX_T_BF16, emu_atom_v_min_bf16 },
    { AK_MAX, PTX_T_BF16, emu_atom_v_max_bf16 },
    { AK_ADD, PTX_T_F16X2, emu_atom_v_add_f16x2 }, { AK_MIN, PTX_T_F16X2, emu_atom_v_min_f16x2 },
    { AK_MAX, PTX_T_F16X2, emu_atom_v_max_f16x2 },
    { AK_ADD, PTX_T_BF16X2, emu_atom_v_add_bf16x2 }, { AK_MIN, PTX_T_BF16X2, emu_atom_v_min_bf16x2 },
    { AK_MAX, PTX_T_BF16X2, emu_atom_v_max_bf16x2 },
};

static enum atom_opk atom_opkind(const struct ptx_instr *pi)
{
    switch (pi->boolop) {
    case PTX_MOD_AND: return AK_AND;
    case PTX_MOD_OR: return AK_OR;
    case PTX_MOD_XOR: return AK_XOR;
    default: break;
    }
    switch (pi->subop) {
    case PTX_MOD_AND: return AK_AND;
    case PTX_MOD_OR: return AK_OR;
    case PTX_MOD_XOR: return AK_XOR;
    case PTX_MOD_ADD: return AK_ADD;
    case PTX_MOD_INC: return AK_INC;
    case PTX_MOD_DEC: return AK_DEC;
    case PTX_MOD_MIN: return AK_MIN;
    case PTX_MOD_MAX: return AK_MAX;
    case PTX_MOD_CAS: return AK_CAS;
    case PTX_MOD_EXCH: return AK_EXCH;
    default: return AK_NONE;
    }
}

static bool atom_is_half(enum ptx_type t)
{
    return t == PTX_T_F16 || t == PTX_T_BF16 || t == PTX_T_F16X2 || t == PTX_T_BF16X2;
}

static bool atom_has_mod(const struct ptx_instr *pi, enum ptx_mod mod)
{
    for (unsigned i = 0; i < pi->nmods; i++)
        if (pi->mods[i] == mod)
            return true;
    return false;
}

/* Qualifiers every form shares: .sem, .scope, .space, the cache hint, and the
 * flags that the ISA allows (.noftz on the 16-bit float forms, nothing else). */
static const char *atom_check_quals(const struct ptx_instr *pi, enum ptx_type t)
{
    switch (pi->sem) {
    case PTX_MOD_NONE_: case PTX_MOD_RELAXED: case PTX_MOD_ACQUIRE: case PTX_MOD_RELEASE: case PTX_MOD_ACQ_REL:
        break;
    default:
        return "atom/red take .relaxed .acquire .release .acq_rel only";
    }
    switch (pi->space) {
    case PTX_SPACE_NONE: case PTX_SPACE_GLOBAL: case PTX_SPACE_SHARED:
        break;
    case PTX_SPACE_SHARED_CLUSTER:
        return ".shared::cluster atomics are not implemented";
    default:
        return "atom/red are defined for .global, .shared and generic addresses";
    }
    if (pi->round != PTX_MOD_NONE_)
        return "atom/red take no rounding modifier";
    uint32_t allowed = atom_is_half(t) ? PTX_IF_NOFTZ : 0;
    if (pi->flags & ~allowed)
        return atom_is_half(t) ? "only .noftz is allowed here" : "atom/red take no .ftz/.noftz here";
    if (atom_is_half(t) && !(pi->flags & PTX_IF_NOFTZ))
        return "16-bit float atomics need .noftz";
    if (pi->subop2 != PTX_MOD_NONE_)
        return "unexpected second operation";
    return NULL;
}

static const struct atom_form *atom_find(const struct atom_form *tab, size_t n, enum atom_opk op, enum ptx_type t)
{
    for (size_t i = 0; i < n; i++)
        if (tab[i].op == op && tab[i].t == t)
            return &tab[i];
    return NULL;
}

/* Vector operands: fills rows[0, nv) from the destination vector (or EMU_NOREG
 * for red) and rows[nv, 2nv) from the source vector; aux owns the array. */
static enum emu_sel atom_sel_vector(struct emu_decoder *dc, const struct ptx_instr *pi, const struct atom_form *f,
                                    const struct ptx_operand *d, const struct ptx_operand *b, struct emu_inst *out)
{
    unsigned nv = pi->vec;
    if (pi->space == PTX_SPACE_SHARED)
        return emu_dec_unsupported(dc, "vector atomics are defined for .global and generic addresses only");
    if (nv > (ptx_type_size(f->t) == 2 ? 8u : 4u))
        return emu_dec_unsupported(dc, "vector length not allowed for this type");
    if (b->kind != PTX_OPND_VEC || b->nelems != nv || (d && (d->kind != PTX_OPND_VEC || d->nelems != nv)))
        return emu_dec_unsupported(dc, "vector atomics take {..} operands of the vector's length");
    uint16_t rows[16];
    for (unsigned i = 0; i < nv; i++) {
        rows[nv + i] = emu_dec_src(dc, &b->elems[i], f->t);
        rows[i] = d ? emu_dec_dst(dc, &d->elems[i], f->t) : EMU_NOREG;
    }
    uint16_t *aux = malloc(2 * nv * sizeof *aux);
    if (!aux)
        return emu_dec_unsupported(dc, "out of memory");
    memcpy(aux, rows, 2 * nv * sizeof *aux);
    out->aux = aux;
    out->aux_owned = 1;
    out->nv = (uint8_t)nv;
    out->fn = f->fn;
    return EMU_SEL_OK;
}

/* atom{.sem}{.scope}{.space}.op{.noftz}{.L2::cache_hint}{.vec}.type d, [a], b{, c}{, policy}
 * red{.sem}{.scope}{.space}.op{.noftz}{.L2::cache_hint}{.vec}.type [a], b{, policy} */
enum emu_sel emu_sel_atom(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out)
{
    bool red = pi->op == PTX_OP_RED;
    if (pi->op != PTX_OP_ATOM && !red)
        return EMU_SEL_NO;
    enum atom_opk op = atom_opkind(pi);
    enum ptx_type t = pi->ntypes == 1 ? pi->types[0] : PTX_T_NONE;
    if (op == AK_NONE)
        return emu_dec_unsupported(dc, "needs one of .add .inc .dec .min .max .and .or .xor .cas .exch");
    if (t == PTX_T_B128)
        return emu_dec_unsupported(dc, ".b128 atomics are not implemented");
    if (red && (op == AK_CAS || op == AK_EXCH))
        return emu_dec_unsupported(dc, "red has no .cas or .exch");
    const char *why = atom_check_quals(pi, t);
    if (why)
        return emu_dec_unsupported(dc, why);

    bool vec = pi->vec > 1;
    if (!vec && (op == AK_MIN || op == AK_MAX) && atom_is_half(t))
        return emu_dec_unsupported(dc, "16-bit float .min/.max need a vector form");
    const struct atom_form *f = vec ? atom_find(atom_vector_forms, sizeof atom_vector_forms / sizeof *atom_vector_forms, op, t)
                                    : atom_find(atom_scalar_forms, sizeof atom_scalar_forms / sizeof *atom_scalar_forms, op, t);
    if (!f)
        return emu_dec_unsupported(dc, "the PTX ISA defines no such operation and type");

    /* Operands: [d,] [a], b [, c] [, cache policy]. */
    unsigned nsrc = op == AK_CAS ? 2 : 1, first = red ? 0 : 1;
    unsigned want = first + 1 + nsrc + (atom_has_mod(pi, PTX_MOD_L2_CACHE_HINT) ? 1 : 0);
    if (pi->nops != want)
        return emu_dec_unsupported(dc, red ? "red takes [a], b" : "atom takes d, [a], b{, c}");
    const struct ptx_operand *d = red ? NULL : &pi->ops[0];
    if (d && d->kind == PTX_OPND_SINK)
        d = NULL;
    out->d = out->b = out->c = EMU_NOREG;
    if (!emu_dec_address(dc, &pi->ops[first], pi->space, out))
        return EMU_SEL_UNSUPPORTED;
    if (vec)
        return atom_sel_vector(dc, pi, f, d, &pi->ops[first + 1], out);

    out->fn = f->fn;
    out->b = emu_dec_src(dc, &pi->ops[first + 1], t);
    if (op == AK_CAS)
        out->c = emu_dec_src(dc, &pi->ops[first + 2], t);
    if (d)
        out->d = emu_dec_dst(dc, d, t);
    if (f->fn == emu_atom_add_f32_generic && pi->space != PTX_SPACE_NONE)
        out->fn = pi->space == PTX_SPACE_GLOBAL ? emu_atom_add_f32_ftz : emu_atom_add_f32_noftz;
    return EMU_SEL_OK;
}
