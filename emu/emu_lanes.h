/* emu_lanes.h -- lane-loop building blocks shared by the instruction-family files.
 * Masked writes and mask expansion written so that gcc vectorises the lane loops. */
#ifndef LOOM_EMU_LANES_H
#define LOOM_EMU_LANES_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "emu/emu.h"

/* Bit l of a lane mask, from a table: a load of this table vectorises with
 * baseline SSE2, where the shift `m >> l` needs per-lane variable shifts. */
static const uint32_t emu_lane_bit32[EMU_WARP_SIZE] = {
    1u << 0, 1u << 1, 1u << 2, 1u << 3, 1u << 4, 1u << 5, 1u << 6, 1u << 7,
    1u << 8, 1u << 9, 1u << 10, 1u << 11, 1u << 12, 1u << 13, 1u << 14, 1u << 15,
    1u << 16, 1u << 17, 1u << 18, 1u << 19, 1u << 20, 1u << 21, 1u << 22, 1u << 23,
    1u << 24, 1u << 25, 1u << 26, 1u << 27, 1u << 28, 1u << 29, 1u << 30, 1u << 31,
};
static const uint64_t emu_lane_bit64[EMU_WARP_SIZE] = {
    1u << 0, 1u << 1, 1u << 2, 1u << 3, 1u << 4, 1u << 5, 1u << 6, 1u << 7,
    1u << 8, 1u << 9, 1u << 10, 1u << 11, 1u << 12, 1u << 13, 1u << 14, 1u << 15,
    1u << 16, 1u << 17, 1u << 18, 1u << 19, 1u << 20, 1u << 21, 1u << 22, 1u << 23,
    1u << 24, 1u << 25, 1u << 26, 1u << 27, 1u << 28, 1u << 29, 1u << 30, 1u << 31,
};

/* All-ones when lane l is in m, else zero, as a 32-bit and as a 64-bit lane.
 * The 64-bit form avoids a 64-bit compare (SSE2 has none): the masked bit is
 * at most 2^31, so adding 2^32-1 carries into bit 32 exactly when it is set. */
static inline uint32_t emu_lane_k32(emu_mask m, unsigned l)
{
    return 0u - (uint32_t)((m & emu_lane_bit32[l]) != 0);
}
static inline uint64_t emu_lane_k64(emu_mask m, unsigned l)
{
    return (uint64_t)0 - ((((uint64_t)m & emu_lane_bit64[l]) + 0xFFFFFFFFu) >> 32);
}

#if defined(__AVX2__)
#include <immintrin.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif
/* Eight 32-bit or four 64-bit lanes as GCC vectors, for comparisons whose
 * lane results (all-ones or zero) become mask bits through emu_bits8/emu_bits4. */
typedef int32_t emu_v8i __attribute__((vector_size(32)));
typedef uint32_t emu_v8u __attribute__((vector_size(32)));
typedef float emu_v8f __attribute__((vector_size(32)));
typedef int64_t emu_v4l __attribute__((vector_size(32)));
typedef uint64_t emu_v4ul __attribute__((vector_size(32)));
typedef double emu_v4d __attribute__((vector_size(32)));
static inline emu_mask emu_bits8(emu_v8i c)
{
#if defined(__AVX2__)
    return (emu_mask)_mm256_movemask_ps(_mm256_castsi256_ps((__m256i)c));
#elif defined(__SSE2__)
    __m128i h[2];
    memcpy(h, &c, sizeof h);
    return (emu_mask)_mm_movemask_ps(_mm_castsi128_ps(h[0])) | (emu_mask)_mm_movemask_ps(_mm_castsi128_ps(h[1])) << 4;
#else
    emu_mask t = 0;
    for (unsigned l = 0; l < 8; l++) t |= (emu_mask)(c[l] < 0) << l;
    return t;
#endif
}
static inline emu_mask emu_bits4(emu_v4l c)
{
#if defined(__AVX2__)
    return (emu_mask)_mm256_movemask_pd(_mm256_castsi256_pd((__m256i)c));
#elif defined(__SSE2__)
    __m128i h[2];
    memcpy(h, &c, sizeof h);
    return (emu_mask)_mm_movemask_pd(_mm_castsi128_pd(h[0])) | (emu_mask)_mm_movemask_pd(_mm_castsi128_pd(h[1])) << 2;
#else
    emu_mask t = 0;
    for (unsigned l = 0; l < 4; l++) t |= (emu_mask)(c[l] < 0) << l;
    return t;
#endif
}
/* A row of 32 four-byte or eight-byte lanes copied inline (unaligned either
 * side): gcc would otherwise call memcpy for 128 and 256 bytes. */
typedef uint32_t emu_v8u_unaligned __attribute__((vector_size(32), aligned(1), may_alias));
static inline void emu_copy_row32(void *d, const void *s)
{
    emu_v8u_unaligned *dv = d;
    const emu_v8u_unaligned *sv = s;
    emu_v8u_unaligned a = sv[0], b = sv[1], c = sv[2], e = sv[3];
    dv[0] = a; dv[1] = b; dv[2] = c; dv[3] = e;
}
static inline void emu_copy_row64(void *d, const void *s)
{
    emu_copy_row32(d, s);
    emu_copy_row32((uint8_t *)d + 128, (const uint8_t *)s + 128);
}

/* Lanes in a mask without a library call where the copy has no popcnt
 * (baseline x86-64, where __builtin_popcount is one). */
static inline uint32_t emu_popc(emu_mask x)
{
#if defined(__POPCNT__)
    return (uint32_t)__builtin_popcount(x);
#else
    x -= (x >> 1) & 0x55555555u;
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0F0F0F0Fu;
    return (x * 0x01010101u) >> 24;
#endif
}

/* Classifies a generic address: shared window of this CTA, local window of
 * this warp, the kernel parameter buffer, or global. */
static inline enum ptx_space emu_generic_space(const struct emu_warp *w, uint64_t addr)
{
    const struct emu_cta *cta = w->cta;
    uint64_t sh = (uint64_t)(uintptr_t)cta->shared;
    if (addr - sh < cta->shared_size) return PTX_SPACE_SHARED;
    uint64_t lo = (uint64_t)(uintptr_t)w->local;
    if (addr - lo < w->local_stride * EMU_WARP_SIZE) return PTX_SPACE_LOCAL;
    uint64_t pb = (uint64_t)(uintptr_t)cta->launch->params;
    if (addr - pb < cta->launch->params_size) return PTX_SPACE_PARAM;
    return PTX_SPACE_GLOBAL;
}

/* Thread instructions, counted lazily: the warp instructions w has run since
 * w->mark all ran with `lanes` active lanes, so they are added where the mask
 * changes and where the warp stops (emu_exec.c's dispatch loop, and bar.sync's
 * hand-over). A warp that is not running has mark == n_inst. */
static inline void emu_count_lanes(struct emu_warp *w, uint32_t lanes)
{
    uint64_t n = w->n_inst - w->mark;
    w->n_thread_inst += (uint64_t)lanes * n;
    w->lane_hist[lanes] += n;
    w->hist_used |= 1ull << lanes;
    w->mark = w->n_inst;
}

/* ---- Chains through branches (emu.h) ----------------------------------------
 * Goes on at pc `next` once every active lane has gone there: with the chained
 * run that starts there, when one does, the slice allows it and `next` is no
 * reconvergence point (the dispatch loop pops those); else back to the
 * dispatch loop, w->pc = next (nx is its instruction). The run is counted
 * here, as the loop would (its lanes are counted where the mask changes,
 * emu_count_lanes). */
static inline __attribute__((always_inline)) int emu_chain_to(struct emu_warp *w, const struct emu_inst *nx,
                                                              uint32_t next)
{
    uint32_t n = nx->run;
    if (n && w->chain_left > n && (!nx->at_reconv || next != w->stack[w->sp - 1].reconv)) {
        w->chain_left -= n;
        w->n_inst += n;
        w->pc = next + n;
        return nx->fn(w, nx, w->active);
    }
    w->pc = next;
    return EMU_CONTINUE;
}

#include "emu/simt/emu_simt.h"

/* A branch of instruction `in` (pc in->src, in->br set) taken by the lanes in
 * `taken`, within the active mask, to in->target (instruction in->aux), the
 * others going on k instructions later: a split reconverging at in->reconv,
 * or one way for all, chained. */
static inline __attribute__((always_inline)) int emu_branch_chain(struct emu_warp *w, const struct emu_inst *in,
                                                                  emu_mask taken, unsigned k)
{
    uint32_t fall = in->src + k;
    if (taken && taken != w->active) {
        w->pc = fall;
        emu_simt_diverge(w, taken, in->target, in->reconv);
        return EMU_CONTINUE;
    }
    return taken ? emu_chain_to(w, (const struct emu_inst *)in->aux, in->target) : emu_chain_to(w, in + k, fall);
}

/* The lane loop of an element-wise handler: lane l reads only lane l of its
 * sources, so a destination row that is also a source row carries no
 * dependence between iterations (ivdep spares the vectoriser's alias checks,
 * which -O2's cheap cost model refuses). Never for cross-lane operations.
 * The vectorised loop (4 iterations of 8 lanes with AVX2) is unrolled: its
 * counter and branch were up to half of a simple handler's instructions
 * (-funroll-loops on everything was slower, by code size; this is not). */
#define EMU_EACH(l) _Pragma("GCC unroll 4") _Pragma("GCC ivdep") for (unsigned l = 0; l < EMU_WARP_SIZE; l++)

/* A full warp: every lane in the mask. Handlers defined with EMU_HANDLER are
 * compiled twice, once with m the constant EMU_FULL_MASK (the common case),
 * where EMU_IS_FULL(m) is known true and the masked writes below become plain
 * stores, and once for any other mask, where it is known false. Everything
 * the lane loop calls is inlined into both (flatten), as one copy would have
 * it. An attribute written before EMU_HANDLER(name) applies to the handler.
 * The handler is chained (EMU_CHAINED, emu.h): the lane body returns
 * EMU_CONTINUE or a stop code and must never call another chained handler. */
#define EMU_FULL_MASK 0xFFFFFFFFu
#define EMU_IS_FULL(m) (__builtin_constant_p(m) && (m) == EMU_FULL_MASK)
#define EMU_HANDLER(name) \
    static int name(struct emu_warp *w, const struct emu_inst *in, emu_mask m); \
    static inline __attribute__((always_inline)) int name##_lanes(struct emu_warp *w, const struct emu_inst *in, \
                                                                emu_mask m); \
    static EMU_CHAINED __attribute__((flatten)) int name(struct emu_warp *w, const struct emu_inst *in, emu_mask m) \
    { \
        EMU_NEXT_UNLESS_STOP(m == EMU_FULL_MASK ? name##_lanes(w, in, EMU_FULL_MASK) : name##_lanes(w, in, m)); \
    } \
    static inline __attribute__((always_inline)) int name##_lanes(struct emu_warp *w, const struct emu_inst *in, \
                                                                emu_mask m)

/* ---- Scalar twins (ptx/ptx_uniform.c) --------------------------------------
 * The decoder picks a handler's twin (emu_dec_twin) for an instruction whose
 * sources are all warp-uniform registers, immediates or uniform special
 * registers. With every lane active, each source row then holds one value:
 * the twin computes lane 0 and fills the destination row with the result, as
 * the lane loop would have written it to every lane. Under any other mask it
 * is the vector handler (a tail call), so a twin is never wrong, only slower
 * by one compare. EMU_TWIN(name, vec) { body } defines twin `name` of handler
 * `vec`; the body computes with every lane active and returns EMU_CONTINUE. */
#define EMU_TWIN(name, vec) \
    static inline __attribute__((always_inline)) int name##_one(struct emu_warp *w, const struct emu_inst *in); \
    static EMU_CHAINED int name(struct emu_warp *w, const struct emu_inst *in, emu_mask m) \
    { \
        if (m != EMU_FULL_MASK) return vec(w, in, m); \
        EMU_NEXT_UNLESS_STOP(name##_one(w, in)); \
    } \
    static inline __attribute__((always_inline)) int name##_one(struct emu_warp *w, const struct emu_inst *in)
/* Every lane of a row set to v (a broadcast and full-width stores). */
#define EMU_FILL(row, v) do { \
        __typeof__(&(row)[0]) fill_r_ = (row); \
        __typeof__(fill_r_[0]) fill_v_ = (v); \
        EMU_EACH(l) fill_r_[l] = fill_v_; \
    } while (0)

/* Masked writes of lane l: the value is computed for every lane, the old one
 * kept where the lane is off (a blend, no branch). */
#define EMU_PUT32(row, m, l, x) do { \
        uint32_t put_x_ = (x), put_o_ = (row)[l]; \
        (row)[l] = (EMU_IS_FULL(m) || ((m) & emu_lane_bit32[l])) ? put_x_ : put_o_; \
    } while (0)
#define EMU_PUT64(row, m, l, x) do { \
        uint64_t put_x_ = (x); \
        if (EMU_IS_FULL(m)) { \
            (row)[l] = put_x_; \
        } else { \
            uint64_t put_k_ = emu_lane_k64((m), (l)); \
            (row)[l] = ((row)[l] & ~put_k_) | (put_x_ & put_k_); \
        } \
    } while (0)

/* Sign extension of the low 8/16 bits of a 32-bit lane value. */
static inline uint32_t emu_sx8(uint32_t v) { return (uint32_t)(int32_t)(int8_t)(uint8_t)v; }
static inline uint32_t emu_sx16(uint32_t v) { return (uint32_t)(int32_t)(int16_t)(uint16_t)v; }

/* Predicate write: only the bits of lanes in m change. */
static inline void emu_pred_put(struct emu_warp *w, uint16_t row, emu_mask m, emu_mask bits)
{
    w->pred[row] = (w->pred[row] & ~m) | (bits & m);
}

/* A masked 32-bit write as arithmetic: with EMU_PUT32's select, gcc sinks the
 * computation of x into the lane-on branch and, under -ftrapping-math, then
 * refuses to if-convert floating-point work back out of it; the mask blend
 * keeps x unconditional, so float handlers vectorise. */
#define EMU_BLEND32(row, m, l, x) do { \
        uint32_t blend_x_ = (x); \
        if (EMU_IS_FULL(m)) { \
            (row)[l] = blend_x_; \
        } else { \
            uint32_t blend_k_ = emu_lane_k32((m), (l)); \
            (row)[l] = (blend_x_ & blend_k_) | ((row)[l] & ~blend_k_); \
        } \
    } while (0)

/* Selects as bit masks (c is 0 or 1). A plain c ? x : y whose x comes from
 * floating-point arithmetic used on one side only gets sunk into a branch,
 * which gcc then cannot if-convert under -ftrapping-math; these keep both
 * sides computed unconditionally. */
static inline uint32_t emu_pick32(uint32_t c, uint32_t x, uint32_t y)
{
    uint32_t k = 0u - c;
    return (x & k) | (y & ~k);
}
static inline double emu_pickd(uint64_t c, double x, double y)
{
    uint64_t k = (uint64_t)0 - c;
    return emu_f64((emu_b64(x) & k) | (emu_b64(y) & ~k));
}

/* ---- Element-wise handler stamps (emu_float.c, emu_half.c) -------------------
 * EMU_STAMP32_n(name, EXPR) and EMU_STAMP64_n(name, EXPR) define the handler
 * `name` over n source rows of the 32-bit or 64-bit register file: EXPR reads
 * the lane's source bits a, b, c and yields the result bits, written under the
 * mask (EMU_BLEND32 keeps floating-point work unconditional, see above). */
#define EMU_STAMP32_1(name, EXPR) \
    EMU_HANDLER(name) \
    { \
        uint32_t *d = w->r32[in->d]; const uint32_t *ra = w->r32[in->a]; \
        EMU_EACH(l) { uint32_t a = ra[l]; EMU_BLEND32(d, m, l, (EXPR)); } \
        return EMU_CONTINUE; \
    }
#define EMU_STAMP32_2(name, EXPR) \
    EMU_HANDLER(name) \
    { \
        uint32_t *d = w->r32[in->d]; const uint32_t *ra = w->r32[in->a], *rb = w->r32[in->b]; \
        EMU_EACH(l) { uint32_t a = ra[l], b = rb[l]; EMU_BLEND32(d, m, l, (EXPR)); } \
        return EMU_CONTINUE; \
    }
#define EMU_STAMP32_3(name, EXPR) \
    EMU_HANDLER(name) \
    { \
        uint32_t *d = w->r32[in->d]; \
        const uint32_t *ra = w->r32[in->a], *rb = w->r32[in->b], *rc = w->r32[in->c]; \
        EMU_EACH(l) { uint32_t a = ra[l], b = rb[l], c = rc[l]; EMU_BLEND32(d, m, l, (EXPR)); } \
        return EMU_CONTINUE; \
    }
#define EMU_STAMP64_1(name, EXPR) \
    EMU_HANDLER(name) \
    { \
        uint64_t *d = w->r64[in->d]; const uint64_t *ra = w->r64[in->a]; \
        EMU_EACH(l) { uint64_t a = ra[l]; EMU_PUT64(d, m, l, (EXPR)); } \
        return EMU_CONTINUE; \
    }
#define EMU_STAMP64_2(name, EXPR) \
    EMU_HANDLER(name) \
    { \
        uint64_t *d = w->r64[in->d]; const uint64_t *ra = w->r64[in->a], *rb = w->r64[in->b]; \
        EMU_EACH(l) { uint64_t a = ra[l], b = rb[l]; EMU_PUT64(d, m, l, (EXPR)); } \
        return EMU_CONTINUE; \
    }
#define EMU_STAMP64_3(name, EXPR) \
    EMU_HANDLER(name) \
    { \
        uint64_t *d = w->r64[in->d]; \
        const uint64_t *ra = w->r64[in->a], *rb = w->r64[in->b], *rc = w->r64[in->c]; \
        EMU_EACH(l) { uint64_t a = ra[l], b = rb[l], c = rc[l]; EMU_PUT64(d, m, l, (EXPR)); } \
        return EMU_CONTINUE; \
    }

/* ---- Floating-point formats (emu_float.c, emu_half.c, emu_cvt.c) -----------
 * Rounding of exact or round-to-odd intermediate values into the narrower
 * formats, in integer arithmetic, without touching the FP environment. */
enum emu_rnd { EMU_RND_N, EMU_RND_Z, EMU_RND_M, EMU_RND_P, EMU_RND_NA };

#define EMU_NAN32 0x7FFFFFFFu               /* the NaN sm_90 f32 arithmetic produces */
#define EMU_NAN16 0x7FFFu                   /* likewise for f16 and bf16 */

/* Subnormal inputs/results flushed to sign-preserving zero (.ftz). */
static inline uint32_t emu_ftz32(uint32_t b) { return (b & 0x7F800000u) ? b : (b & 0x80000000u); }
static inline uint32_t emu_ftz16(uint32_t h) { return (h & 0x7C00u) ? h : (h & 0x8000u); }
static inline uint32_t emu_isnan32(uint32_t b) { return (b & 0x7FFFFFFFu) > 0x7F800000u; }
static inline uint32_t emu_isnan16(uint32_t h) { return (h & 0x7FFFu) > 0x7C00u; }
static inline uint32_t emu_isnanbf(uint32_t h) { return (h & 0x7FFFu) > 0x7F80u; }

/* s + e, with s = RN(x) and e the exact error x - s (TwoSum), rounded to odd
 * at 53 bits: s itself when exact or when its last bit is already 1, else its
 * neighbour on e's side. Rounding the result once more to a format of at most
 * 51 bits gives the correctly rounded x in any mode. An infinite or NaN s
 * (whose e is NaN) comes back unchanged. Branch-free, so that lane loops
 * using it vectorise even under -ftrapping-math. */
static inline double emu_round_odd(double s, double e)
{
    uint64_t sb = emu_b64(s), eb = emu_b64(e);
    uint64_t mag = eb << 1;
    uint64_t nonzero = (mag | ((uint64_t)0 - mag)) >> 63;               /* e != 0 */
    uint64_t nonfinite = ((((eb >> 52) & 0x7FFu) + 1u) >> 11) & 1u;     /* e is inf or NaN */
    uint64_t fix = ((uint64_t)0 - (nonzero & ~nonfinite)) & ((sb & 1u) - 1u);   /* inexact, even */
    uint64_t step = ((1u ^ ((sb ^ eb) >> 63)) << 1) - 1u;              /* +1 if e has s's sign, else -1 */
    return emu_f64(sb + (step & fix));                                 /* (no 64-bit compares: SSE2) */
}

/* TwoSum: s = RN(a + b) and the exact error; exact while nothing overflows.
 * Written without products so that contraction into fma cannot change it. */
static inline double emu_two_sum(double a, double b, double *out_err)
{
    double s = a + b, bv = s - a, av = s - bv;
    *out_err = (a - av) + (b - bv);
    return s;
}

/* Rounds a double to f32 in mode rnd (EMU_RND_NA not supported here): the
 * hardware conversion rounds to nearest, a one-ulp step fixes the directed
 * modes. Overflow gives inf or the largest finite value as the mode says. */
static inline uint32_t emu_f64_to_f32(double x, int rnd)
{
    float f = (float)x;
    uint32_t b = emu_b32(f);
    if (rnd == EMU_RND_N)
        return b;
    double back = (double)f;
    uint32_t neg = b >> 31;
    uint32_t down = back > x ? 1u : 0u, up = back < x ? 1u : 0u;  /* f too big / too small */
    uint32_t step;
    if (rnd == EMU_RND_Z)
        step = neg ? up : down;
    else if (rnd == EMU_RND_M)
        step = down;
    else
        step = up;
    /* Moving toward -inf is +1 on a negative pattern, -1 on a positive one. */
    uint32_t toward_minus = (rnd == EMU_RND_Z) ? (neg ? 0u : 1u) : (rnd == EMU_RND_M ? 1u : 0u);
    uint32_t minus_one = toward_minus ^ neg;                  /* pattern decreases */
    return b + step - 2u * (step & minus_one);
}

/* Whether x, rounded to 24 bits in mode rnd with an unbounded exponent, lies
 * below 2^-126: the .ftz flush test (scaling by 2^64 keeps it exact). */
static inline int emu_tiny32(double x, int rnd)
{
    return fabsf(emu_f32(emu_f64_to_f32(x * 0x1p64, rnd))) < 0x1p-62f;
}

/* Round a double to f32 with the result rounded to odd (inexact results get
 * their last bit set), for a second rounding to f16/bf16. */
static inline uint32_t emu_f64_to_f32_odd(double x)
{
    uint32_t b = emu_f64_to_f32(x, EMU_RND_Z);
    uint32_t inexact = ((double)emu_f32(b) != x) ? 1u : 0u;
    uint32_t finite = ((b & 0x7F800000u) != 0x7F800000u) ? 1u : 0u;
    return b | (inexact & finite);
}

/* Rounds an f32 bit pattern to a narrower binary format with `man` fraction
 * bits and exponent bias `bias` (f16: 10, 15; bf16: 7, 127; tf32: 10, 127 and
 * e4m3/e5m2 through their own callers), returning the narrow pattern without
 * its sign, and *out_ovf set when the rounded magnitude overflowed the
 * format's largest finite pattern `maxfin`. NaN and inf are the caller's. */
static inline uint32_t emu_narrow_mag(uint32_t f, unsigned man, int bias, uint32_t maxfin, int rnd,
                                      uint32_t *out_ovf)
{
    uint32_t a = f & 0x7FFFFFFFu, neg = f >> 31;
    int32_t ef = (int32_t)(a >> 23);
    uint32_t m = (a & 0x7FFFFFu) | (ef ? 0x800000u : 0u);
    int32_t e = (ef ? ef : 1) - 127 + bias;                  /* target biased exponent */
    int32_t sh = 23 - (int32_t)man + (e >= 1 ? 0 : 1 - e);
    uint32_t shift = (uint32_t)(sh > 31 ? 31 : sh);
    uint32_t q = m >> shift, rem = m & ((1u << shift) - 1u), half = 1u << (shift - 1u);
    uint32_t inc;
    if (rnd == EMU_RND_N)
        inc = (rem > half || (rem == half && (q & 1u))) ? 1u : 0u;
    else if (rnd == EMU_RND_NA)
        inc = rem >= half ? 1u : 0u;
    else if (rnd == EMU_RND_Z)
        inc = 0;
    else if (rnd == EMU_RND_M)
        inc = (neg && rem) ? 1u : 0u;
    else
        inc = (!neg && rem) ? 1u : 0u;
    uint32_t r = ((uint32_t)(e >= 1 ? e - 1 : 0) << man) + q + inc;
    *out_ovf = r > maxfin ? 1u : 0u;
    return r;
}

/* f32 -> f16 to nearest even without branches or per-lane shifts (so that it
 * vectorises with SSE2): normal results round in integer arithmetic on the
 * f32 pattern, subnormal ones by an f32 addition of 0.5 (whose ulp, 2^-24, is
 * the f16 subnormal step); too large gives inf, NaN the canonical NaN. */
static inline uint32_t emu_f32_to_f16_rn(uint32_t f)
{
    uint32_t a = f & 0x7FFFFFFFu;
    uint32_t nrm = ((a + 0xFFFu + ((a >> 13) & 1u)) >> 13) - (112u << 10);
    uint32_t sub = emu_b32(emu_f32(a) + 0.5f) - 0x3F000000u;
    uint32_t r = emu_pick32(a < 0x38800000u, sub, nrm);
    r = emu_pick32(a >= 0x477FF000u, 0x7C00u, r);             /* 65520 and up round to inf */
    return emu_pick32(a > 0x7F800000u, EMU_NAN16, r | ((f >> 16) & 0x8000u));
}
/* f32 -> bf16 to nearest even: the same integer rounding, which also covers
 * subnormals (bf16 shares f32's exponent) and overflow to inf. */
static inline uint32_t emu_f32_to_bf16_rn(uint32_t f)
{
    uint32_t a = f & 0x7FFFFFFFu;
    uint32_t r = ((a + 0x7FFFu + ((a >> 16) & 1u)) >> 16) | ((f >> 16) & 0x8000u);
    return a > 0x7F800000u ? EMU_NAN16 : r;
}

/* f32 -> f16 and f32 -> bf16 in mode rnd; NaN becomes the canonical NaN. */
static inline uint32_t emu_f32_to_f16(uint32_t f, int rnd)
{
    if (rnd == EMU_RND_N)
        return emu_f32_to_f16_rn(f);
    uint32_t neg = f >> 31, a = f & 0x7FFFFFFFu, ovf;
    if (a > 0x7F800000u) return EMU_NAN16;
    uint32_t r = emu_narrow_mag(f, 10, 15, 0x7BFFu, rnd, &ovf);
    if (ovf || a == 0x7F800000u) {
        int to_inf = a == 0x7F800000u || rnd == EMU_RND_N || rnd == EMU_RND_NA ||
                     (rnd == EMU_RND_M && neg) || (rnd == EMU_RND_P && !neg);
        r = to_inf ? 0x7C00u : 0x7BFFu;
    }
    return (neg << 15) | r;
}
static inline uint32_t emu_f32_to_bf16(uint32_t f, int rnd)
{
    if (rnd == EMU_RND_N)
        return emu_f32_to_bf16_rn(f);
    uint32_t neg = f >> 31, a = f & 0x7FFFFFFFu, ovf;
    if (a > 0x7F800000u) return EMU_NAN16;
    uint32_t r = emu_narrow_mag(f, 7, 127, 0x7F7Fu, rnd, &ovf);
    if (ovf || a == 0x7F800000u) {
        int to_inf = a == 0x7F800000u || rnd == EMU_RND_N || rnd == EMU_RND_NA ||
                     (rnd == EMU_RND_M && neg) || (rnd == EMU_RND_P && !neg);
        r = to_inf ? 0x7F80u : 0x7F7Fu;
    }
    return (neg << 15) | r;
}

/* Exact widening of f16 and bf16 to f32 bit patterns. The f16 magnitude
 * shifted into place and multiplied by 2^112 is the value, subnormals included
 * (an exact f32 product); infinity and NaN keep their fraction. */
static inline uint32_t emu_f16_to_f32(uint32_t h)
{
    uint32_t o = (h & 0x7FFFu) << 13;
    uint32_t v = emu_b32(emu_f32(o) * 0x1p112f);
    v = emu_pick32((h & 0x7C00u) == 0x7C00u, o | 0x7F800000u, v);
    return v | ((h & 0x8000u) << 16);
}
static inline uint32_t emu_bf16_to_f32(uint32_t h) { return (h & 0xFFFFu) << 16; }

#endif
