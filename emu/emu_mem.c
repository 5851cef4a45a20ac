/* emu_mem.c -- data movement: mov (incl. vector pack/unpack and symbol
 * addresses), cvta, isspacep, ld/ldu/st in every state space, and the address
 * translation with checking that every memory handler uses (emu_mem_ptr). */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu_check.h"
#include "emu/emu_exec.h"
#include "emu/emu_lanes.h"
#include "include/loom/loom.h"
#include "memory/mem.h"

#ifdef __AVX2__
#include <immintrin.h>
#endif

/* ---- Address translation ------------------------------------------------------- */

static const char *space_word(enum ptx_space s)
{
    switch (s) {
    case PTX_SPACE_GLOBAL: return "global";
    case PTX_SPACE_SHARED: case PTX_SPACE_SHARED_CLUSTER: return "shared";
    case PTX_SPACE_LOCAL: return "local";
    case PTX_SPACE_CONST: return "const";
    case PTX_SPACE_PARAM: return "param";
    default: return "generic";
    }
}

/* Names an allocation for reports: "variable 'x'", "the device heap" or "allocation #3". */
static void alloc_name(const struct mem_alloc *a, char *buf, size_t n)
{
    if (a->label && (a->flags & MEM_MODULE))
        snprintf(buf, n, "variable '%.64s' (%" PRIu64 " bytes at 0x%" PRIx64 ")", a->label, a->size, a->base);
    else if (a->label) snprintf(buf, n, "the %.64s (%" PRIu64 " bytes at 0x%" PRIx64 ")", a->label, a->size, a->base);
    else snprintf(buf, n, "allocation #%u (%" PRIu64 " bytes at 0x%" PRIx64 ")", a->id, a->size, a->base);
}

/* Where an access of `size` bytes at offset `off` of a region of `region` bytes
 * falls outside it, as compute-sanitizer words it: "is N bytes past the end
 * of R: offset K" (off may be negative). */
static void describe_outside(int64_t off, unsigned size, uint64_t region, const char *name, char *buf, size_t n)
{
    if (off < 0)
        snprintf(buf, n, "the access is %" PRIu64 " bytes before the start of %s: offset %" PRId64,
                 0 - (uint64_t)off, name, off);
    else if ((uint64_t)off >= region)
        snprintf(buf, n, "the access is %" PRIu64 " bytes past the end of %s: offset %" PRId64,
                 (uint64_t)off - region, name, off);
    else
        snprintf(buf, n, "the access runs %" PRIu64 " bytes past the end of %s: offset %" PRId64,
                 (uint64_t)off + size - region, name, off);
}

/* Describes a global address relative to the nearest allocation, for reports. */
static void describe_global(struct emu_warp *w, uint64_t addr, unsigned size, char *buf, size_t n,
                            int *out_status, const char **out_kind)
{
    struct mem_alloc a;
    bool freed = false;
    *out_status = LOOM_ERR_ILLEGAL_ADDRESS;
    *out_kind = "out-of-bounds";
    if (addr < 4096) {
        *out_kind = "null-pointer";
        snprintf(buf, n, "the address is a null pointer plus %" PRIu64 " bytes", addr);
        return;
    }
    if (!mem_nearest(w->cta->launch->mem, addr, &a, &freed)) {
        snprintf(buf, n, "the address is not near any allocation (none exist)");
        return;
    }
    char name[160];
    alloc_name(&a, name, sizeof name);
    if (freed) {
        *out_kind = "use-after-free";
        snprintf(buf, n, "the access is inside %s, which was freed: offset %" PRId64, name, (int64_t)(addr - a.base));
        return;
    }
    describe_outside((int64_t)(addr - a.base), size, a.size, name, buf, n);
}

/* Where an address lies, for reports of accesses that are inside their space but
 * wrong otherwise (misaligned, read-only). */
static void describe_inside(struct emu_warp *w, enum ptx_space space, uint64_t addr, char *buf, size_t n)
{
    char name[160];
    const struct mem_alloc *a;
    switch (space) {
    case PTX_SPACE_SHARED: case PTX_SPACE_SHARED_CLUSTER:
        snprintf(buf, n, "offset %" PRIu64 " of the block's shared memory (%" PRIu64 " bytes)", addr,
                 w->cta->shared_size);
        return;
    case PTX_SPACE_LOCAL:
        snprintf(buf, n, "offset %" PRIu64 " of the thread's local memory (%" PRIu64 " bytes)",
                 addr >= w->local_stride ? (addr - (uint64_t)(uintptr_t)w->local) % w->local_stride : addr,
                 w->local_stride);
        return;
    case PTX_SPACE_PARAM:
        snprintf(buf, n, "offset %" PRIu64 " of the kernel's parameters (%" PRIu64 " bytes)",
                 addr >= w->cta->launch->params_size ? addr - (uint64_t)(uintptr_t)w->cta->launch->params : addr,
                 w->cta->launch->params_size);
        return;
    default:
        if ((a = mem_find(w->cta->launch->mem, addr, 1))) {
            alloc_name(a, name, sizeof name);
            snprintf(buf, n, "offset %" PRIu64 " of %s", addr - a->base, name);
        } else {
            int status; const char *kind;
            describe_global(w, addr, 1, buf, n, &status, &kind);
        }
        return;
    }
}

static int bad_access(struct emu_warp *w, const struct emu_inst *in, unsigned l, enum ptx_space space,
                      uint64_t addr, unsigned size, bool write, int status, const char *kind, const char *detail)
{
    return emu_fault(w, in, l, status, addr, size, "%s %s %s of %u bytes at 0x%" PRIx64 "\n  %s", kind,
                     space_word(space), write ? "write" : "read", size, addr, detail);
}

/* Looks [lo, end) up in the address space and caches the allocation that
 * holds it (emu_warp.gcache); returns its flags, or -1 when no single live
 * allocation holds the range. */
static __attribute__((noinline)) int64_t global_flags_slow(struct emu_warp *w, uint64_t lo, uint64_t end)
{
    const struct mem_alloc *a = mem_find(w->cta->launch->mem, lo, end - lo);
    if (!a) return -1;
    w->gcache[w->gcache_next++ % EMU_GCACHE] = (struct emu_gcache){ a->base, a->base + a->size, a->flags };
    return a->flags;
}

/* The allocations hit lately answer most accesses: checked inline. */
static inline int64_t global_flags(struct emu_warp *w, uint64_t lo, uint64_t end)
{
    for (unsigned k = 0; k < EMU_GCACHE; k++)
        if (lo >= w->gcache[k].base && end <= w->gcache[k].end) return w->gcache[k].flags;
    return global_flags_slow(w, lo, end);
}

void *emu_mem_ptr(struct emu_warp *w, const struct emu_inst *in, unsigned l, enum ptx_space space,
                  uint64_t addr, unsigned size, bool write)
{
    const struct emu_launch *L = w->cta->launch;
    bool generic = space == PTX_SPACE_NONE || space == PTX_SPACE_GENERIC;
    char detail[300], where[200];
    uint64_t local_off = addr;
    if (generic) {
        space = emu_generic_space(w, addr);
        /* Translate the generic window back to the space's own address. */
        if (space == PTX_SPACE_SHARED) addr -= (uint64_t)(uintptr_t)w->cta->shared;
        else if (space == PTX_SPACE_LOCAL) {
            uint64_t off = addr - (uint64_t)(uintptr_t)w->local;
            if (size && (off % w->local_stride) + size > w->local_stride) {
                local_off = off % w->local_stride;
                goto local_oob;
            }
            if (L->check && size && (addr & (size - 1))) goto misaligned;
            return (void *)(uintptr_t)addr;
        } else if (space == PTX_SPACE_PARAM) {
            if (write) goto param_readonly;
            return (void *)(uintptr_t)addr;
        }
    }
    if (L->check && size && (addr & (size - 1))) goto misaligned;
    switch (space) {
    case PTX_SPACE_SHARED: case PTX_SPACE_SHARED_CLUSTER:
        if (addr + size > w->cta->shared_size || addr + size < addr) {
            snprintf(where, sizeof where, "the block's shared memory (%" PRIu64 " bytes)", w->cta->shared_size);
            describe_outside((int64_t)addr, size, w->cta->shared_size, where, detail, sizeof detail);
            bad_access(w, in, l, PTX_SPACE_SHARED, addr, size, write, LOOM_ERR_ILLEGAL_ADDRESS, "out-of-bounds", detail);
            return NULL;
        }
        if (L->racecheck && !emu_check_shared(w, in, l, addr, size, write)) return NULL;
        return w->cta->shared + addr;
    case PTX_SPACE_LOCAL:
        if (addr + size > w->local_stride || addr + size < addr) goto local_oob;
        return w->local + (uint64_t)l * w->local_stride + addr;
    case PTX_SPACE_PARAM:
        if (write) goto param_readonly;
        if (addr + size > L->params_size) {
            snprintf(where, sizeof where, "the kernel's parameters (%" PRIu64 " bytes)", L->params_size);
            describe_outside((int64_t)addr, size, L->params_size, where, detail, sizeof detail);
            bad_access(w, in, l, space, addr, size, write, LOOM_ERR_ILLEGAL_ADDRESS, "out-of-bounds", detail);
            return NULL;
        }
        return (void *)(uintptr_t)(L->params + addr);
    default: {   /* global, const */
        if (!L->check) return (void *)(uintptr_t)addr;
        int64_t flags = addr + size >= addr ? global_flags(w, addr, addr + size) : -1;
        if (flags < 0) {
            int status; const char *kind;
            describe_global(w, addr, size, detail, sizeof detail, &status, &kind);
            bad_access(w, in, l, space, addr, size, write, status, kind, detail);
            return NULL;
        }
        if (write && (flags & MEM_READONLY)) goto readonly;
        return L->initcheck ? emu_check_global(w, in, l, addr, size, write) : (void *)(uintptr_t)addr;
    }
    }
misaligned:
    describe_inside(w, space, addr, where, sizeof where);
    snprintf(detail, sizeof detail, "a %u-byte access must be %u-byte aligned; the address is at %s", size, size, where);
    bad_access(w, in, l, space, addr, size, write, LOOM_ERR_MISALIGNED, "misaligned", detail);
    return NULL;
local_oob:
    snprintf(where, sizeof where, "the thread's local memory (%" PRIu64 " bytes)", w->local_stride);
    describe_outside((int64_t)local_off, size, w->local_stride, where, detail, sizeof detail);
    bad_access(w, in, l, PTX_SPACE_LOCAL, addr, size, write, LOOM_ERR_ILLEGAL_ADDRESS, "out-of-bounds", detail);
    return NULL;
readonly:
    describe_inside(w, space, addr, where, sizeof where);
    snprintf(detail, sizeof detail, "constant memory is read-only in kernels; the address is at %s", where);
    bad_access(w, in, l, space, addr, size, write, LOOM_ERR_ILLEGAL_ADDRESS, "read-only", detail);
    return NULL;
param_readonly:
    describe_inside(w, PTX_SPACE_PARAM, addr, where, sizeof where);
    snprintf(detail, sizeof detail, "kernel parameters are read-only; the address is at %s", where);
    bad_access(w, in, l, PTX_SPACE_PARAM, addr, size, write, LOOM_ERR_ILLEGAL_ADDRESS, "read-only", detail);
    return NULL;
}

/* ---- Loads and stores -------------------------------------------------------------- */

/* in->sub: element size in bytes; in->sub2: bit 0 sign-extend, bit 1 64-bit rows,
 * bit 2 atomic (volatile/relaxed/acquire/release) access; in->nv elements in in->v[]. */
#define LDST_SIGNED 1u
#define LDST_WIDE 2u
#define LDST_ATOMIC 4u

/* Lane l's host address on the fast path. Computed as an integer: for global
 * memory base is NULL and the address is absolute, and pointer arithmetic on
 * NULL is undefined in C (UBSan's pointer-overflow check stops on it). */
static inline uint8_t *direct_ptr(uint8_t *base, uint64_t addr, unsigned l, uint64_t lane_stride)
{
    return (uint8_t *)((uintptr_t)base + addr + l * lane_stride);
}

/* ---- The warp-wide fast path ---------------------------------------------------------
 * A memory instruction first computes every lane's address and, over the
 * lanes in m, the lowest and highest address and the OR of all (alignment).
 * When every active lane's access lies inside one region that needs no
 * per-lane check (one live global allocation, the CTA's shared window, the
 * thread's local frame area, the parameter buffer) and is aligned, lane l's
 * host address is base + addr[l] + l * lane_stride. Otherwise the per-lane
 * path (emu_mem_ptr) runs and reports the exact fault at the first faulting
 * lane. Handlers are stamped per access size and address-row width, with a
 * separate instance for full warps (m == all lanes: no masking anywhere). */

#define EMU_FULL 0xFFFFFFFFu
#define EMU_INLINE static inline __attribute__((always_inline))

struct lane_span { uint64_t lo, hi, ored; bool contiguous; };

/* l * size for sizes 1, 2, 4 and 8: lane offsets of a contiguous access. */
#define LANE_STEPS(k) { 0 << k, 1 << k, 2 << k, 3 << k, 4 << k, 5 << k, 6 << k, 7 << k, 8 << k, 9 << k, \
        10 << k, 11 << k, 12 << k, 13 << k, 14 << k, 15 << k, 16 << k, 17 << k, 18 << k, 19 << k, 20 << k, \
        21 << k, 22 << k, 23 << k, 24 << k, 25 << k, 26 << k, 27 << k, 28 << k, 29 << k, 30 << k, 31 << k }
static const uint64_t lane_steps[4][EMU_WARP_SIZE] = { LANE_STEPS(0), LANE_STEPS(1), LANE_STEPS(2), LANE_STEPS(3) };
/* Lane addresses: a32 for 32-bit address rows, else a64. */
struct lane_addr { uint64_t a64[EMU_WARP_SIZE]; uint32_t a32[EMU_WARP_SIZE]; };

EMU_INLINE uint64_t addr_of(const struct lane_addr *A, bool a32, unsigned l) { return a32 ? A->a32[l] : A->a64[l]; }

/* Lane addresses (row a plus the offset) into out_addr and their span over
 * the lanes in m. A full warp also tests whether its addresses are
 * addr[0] + l * size (one block of memory, contiguous); with 64-bit addresses
 * that test comes first and spares the search for the extremes. */
EMU_INLINE void lane_addrs(const struct emu_warp *w, const struct emu_inst *in, emu_mask m, bool a32, bool full,
                           unsigned size, struct lane_addr *out_addr, struct lane_span *out_span)
{
    if (a32) {
        /* 32-bit address arithmetic wraps at 32 bits. */
        const uint32_t *r = w->r32[in->a];
        uint32_t imm = (uint32_t)in->imm, lo = UINT32_MAX, hi = 0, ored = 0;
        if (full) {   /* 32-bit extremes are cheap: one pass */
            uint32_t a0 = r[0] + imm, bad = 0;
            EMU_EACH(l) {
                uint32_t a = r[l] + imm;
                out_addr->a32[l] = a;
                bad |= a ^ (a0 + l * size);
                ored |= a;
                lo = a < lo ? a : lo;
                hi = a > hi ? a : hi;
            }
            *out_span = (struct lane_span){ lo, hi, ored, !bad && hi - lo == (EMU_WARP_SIZE - 1) * size };
            return;
        } else {
            EMU_EACH(l) {
                uint32_t on = emu_lane_k32(m, l), a = r[l] + imm;
                out_addr->a32[l] = a;
                ored |= a & on;
                uint32_t al = (a & on) | ~on, ah = a & on;
                lo = al < lo ? al : lo;
                hi = ah > hi ? ah : hi;
            }
        }
        *out_span = (struct lane_span){ lo, hi, ored, false };
    } else {
        const uint64_t *r = w->r64[in->a];
        uint64_t imm = (uint64_t)in->imm, lo = UINT64_MAX, hi = 0, ored = 0;
        if (full) {
            /* Contiguous when r[l] - r[0] is l * size for every lane. */
            const uint64_t *step = lane_steps[size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : 3];
            uint64_t r0 = r[0], a0 = r0 + imm, bad = 0;
            EMU_EACH(l) bad |= (r[l] - r0) ^ step[l];
            if (!bad && (size == 1 || size == 2 || size == 4 || size == 8) &&
                a0 <= UINT64_MAX - (EMU_WARP_SIZE - 1) * (uint64_t)size) {
                EMU_EACH(l) out_addr->a64[l] = a0 + step[l];
                *out_span = (struct lane_span){ a0, a0 + (EMU_WARP_SIZE - 1) * (uint64_t)size, a0, true };
                return;
            }
            EMU_EACH(l) {
                uint64_t a = r[l] + imm;
                out_addr->a64[l] = a;
                ored |= a;
                lo = a < lo ? a : lo;
                hi = a > hi ? a : hi;
            }
        } else {
            EMU_EACH(l) {
                uint64_t on = emu_lane_k64(m, l), a = r[l] + imm;
                out_addr->a64[l] = a;
                ored |= a & on;
                uint64_t al = (a & on) | ~on, ah = a & on;
                lo = al < lo ? al : lo;
                hi = ah > hi ? ah : hi;
            }
        }
        *out_span = (struct lane_span){ lo, hi, ored, false };
    }
}

/* Whether the span's accesses of `bytes` each (aligned to `align`) need no
 * per-lane check; out_base and out_lane_stride then give the host addresses. */
static bool span_direct(struct emu_warp *w, const struct emu_inst *in, const struct lane_span *s, unsigned bytes,
                        unsigned align, bool write, uint8_t **out_base, uint64_t *out_lane_stride)
{
    const struct emu_launch *L = w->cta->launch;
    if (L->initcheck || L->racecheck) return false;   /* every lane through emu_mem_ptr's checks */
    if (L->check && (s->ored & (align - 1))) return false;
    uint64_t end = s->hi + bytes;
    if (end < s->hi) return false;
    *out_lane_stride = 0;
    switch (in->space) {
    case PTX_SPACE_SHARED: case PTX_SPACE_SHARED_CLUSTER:
        if (end > w->cta->shared_size) return false;
        *out_base = w->cta->shared;
        return true;
    case PTX_SPACE_LOCAL:
        if (end > w->local_stride) return false;
        *out_base = w->local;
        *out_lane_stride = w->local_stride;
        return true;
    case PTX_SPACE_PARAM:
        if (write || end > L->params_size) return false;
        *out_base = (uint8_t *)(uintptr_t)L->params;
        return true;
    default:   /* global, const, generic */
        *out_base = NULL;
        if (!L->check) return true;        /* generic addresses are host addresses */
        int64_t flags = global_flags(w, s->lo, end);
        return flags >= 0 && !(write && (flags & MEM_READONLY));
    }
}

/* The fast-path test for handlers that take every lane's address themselves
 * (vector and atomic accesses). */
static bool warp_direct(struct emu_warp *w, const struct emu_inst *in, emu_mask m, unsigned bytes, unsigned align,
                        bool write, uint8_t **out_base, uint64_t *out_lane_stride)
{
    struct lane_addr addr;
    struct lane_span s;
    if (m == EMU_FULL) lane_addrs(w, in, m, in->addr32, true, bytes, &addr, &s);
    else lane_addrs(w, in, m, in->addr32, false, bytes, &addr, &s);
    return span_direct(w, in, &s, bytes, align, write, out_base, out_lane_stride);
}

static inline uint64_t load_elem(const void *p, unsigned size, bool sgn, bool atomic)
{
    uint64_t v = 0;
    if (atomic) {
        switch (size) {
        case 1: v = __atomic_load_n((const uint8_t *)p, __ATOMIC_ACQUIRE); break;
        case 2: v = __atomic_load_n((const uint16_t *)p, __ATOMIC_ACQUIRE); break;
        case 4: v = __atomic_load_n((const uint32_t *)p, __ATOMIC_ACQUIRE); break;
        default: v = __atomic_load_n((const uint64_t *)p, __ATOMIC_ACQUIRE); break;
        }
    } else {
        memcpy(&v, p, size);
    }
    if (sgn && size < 8) {
        unsigned sh = 64 - 8 * size;
        v = (uint64_t)((int64_t)(v << sh) >> sh);
    }
    return v;
}

static inline void store_elem(void *p, uint64_t v, unsigned size, bool atomic)
{
    if (atomic) {
        switch (size) {
        case 1: __atomic_store_n((uint8_t *)p, (uint8_t)v, __ATOMIC_RELEASE); break;
        case 2: __atomic_store_n((uint16_t *)p, (uint16_t)v, __ATOMIC_RELEASE); break;
        case 4: __atomic_store_n((uint32_t *)p, (uint32_t)v, __ATOMIC_RELEASE); break;
        default: __atomic_store_n((uint64_t *)p, v, __ATOMIC_RELEASE); break;
        }
    } else {
        memcpy(p, &v, size);
    }
}

/* Host addresses of every lane in m for a handler that accesses `bytes` bytes
 * per lane (atomics): the fast path's test, then base + addr + l * stride. */
EMU_INLINE bool mem_direct(struct emu_warp *w, const struct emu_inst *in, emu_mask m, unsigned bytes, bool write,
                           void *out_ptr[EMU_WARP_SIZE], bool a32, bool full)
{
    struct lane_addr addr;
    struct lane_span s;
    uint8_t *base;
    uint64_t stride;
    lane_addrs(w, in, m, a32, full, bytes, &addr, &s);
    if (!span_direct(w, in, &s, bytes, bytes, write, &base, &stride)) return false;
    uintptr_t b = (uintptr_t)base;
    if (stride) EMU_LANES(l) out_ptr[l] = direct_ptr(base, addr_of(&addr, a32, l), l, stride);
    else if (a32) EMU_EACH(l) out_ptr[l] = (void *)(b + addr.a32[l]);
    else EMU_EACH(l) out_ptr[l] = (void *)(b + addr.a64[l]);
    return true;
}

/* Instances for the common sizes (4 and 8 bytes) and address widths. */
bool emu_mem_direct(struct emu_warp *w, const struct emu_inst *in, emu_mask m, unsigned bytes, bool write,
                    void *out_ptr[EMU_WARP_SIZE])
{
    bool full = m == EMU_FULL;
    if (in->addr32) {
        if (bytes == 4) return full ? mem_direct(w, in, m, 4, write, out_ptr, true, true)
                                    : mem_direct(w, in, m, 4, write, out_ptr, true, false);
        return mem_direct(w, in, m, bytes, write, out_ptr, true, full);
    }
    if (bytes == 4) return full ? mem_direct(w, in, m, 4, write, out_ptr, false, true)
                                : mem_direct(w, in, m, 4, write, out_ptr, false, false);
    if (bytes == 8) return full ? mem_direct(w, in, m, 8, write, out_ptr, false, true)
                                : mem_direct(w, in, m, 8, write, out_ptr, false, false);
    return mem_direct(w, in, m, bytes, write, out_ptr, false, full);
}

/* Gathers of the fast path: val[l] = the element at base + addr[l] + l * stride
 * for the lanes in m (all lanes when full), others left alone. With AVX2 these
 * are hardware gathers whose masked-off lanes read nothing. */
#ifdef __AVX2__
EMU_INLINE __m256i lane_offsets4(unsigned g, uint64_t stride)
{
    return _mm256_set_epi64x((long long)((g + 3) * stride), (long long)((g + 2) * stride),
                             (long long)((g + 1) * stride), (long long)(g * stride));
}
#endif

#ifdef __AVX2__
/* val[l] = the 4 bytes at base + off[l] + add for the lanes in m (all when
 * full), the offsets below 2^31: eight lanes a hardware gather. Lanes off the
 * mask read nothing and get old[l] (0 when old is NULL); old and val may be
 * one row, and off that row too (each group of eight is read before it is written). */
EMU_INLINE void gather32_off(const uint8_t *base, const uint32_t *off, uint32_t add, emu_mask m, bool full,
                             const uint32_t *old, uint32_t *val)
{
    __m256i mv = _mm256_set1_epi32((int)m), av = _mm256_set1_epi32((int)add);
    for (unsigned g = 0; g < EMU_WARP_SIZE; g += 8) {
        __m256i idx = _mm256_add_epi32(_mm256_loadu_si256((const __m256i *)&off[g]), av), v;
        if (full) {
            v = _mm256_i32gather_epi32((const int *)base, idx, 1);
        } else {
            __m256i bits = _mm256_loadu_si256((const __m256i *)&emu_lane_bit32[g]);
            __m256i mk = _mm256_cmpeq_epi32(_mm256_and_si256(mv, bits), bits);
            __m256i src = old ? _mm256_loadu_si256((const __m256i *)&old[g]) : _mm256_setzero_si256();
            v = _mm256_mask_i32gather_epi32(src, (const int *)base, idx, mk, 1);
        }
        _mm256_storeu_si256((__m256i *)&val[g], v);
    }
}
#endif

EMU_INLINE void gather32(uint8_t *base, const struct lane_addr *A, bool a32, const struct lane_span *s,
                         uint64_t stride, emu_mask m, bool full, uint32_t val[EMU_WARP_SIZE])
{
#ifdef __AVX2__
    if (a32 && !stride && s->hi < 0x80000000u) {   /* 32-bit offsets: eight lanes a gather */
        gather32_off(base, A->a32, 0, m, full, NULL, val);
        return;
    }
    if (!a32) {
        __m128i mv = _mm_set1_epi32((int)m);
        for (unsigned g = 0; g < EMU_WARP_SIZE; g += 4) {
            __m256i idx = _mm256_loadu_si256((const __m256i *)&A->a64[g]);
            if (stride) idx = _mm256_add_epi64(idx, lane_offsets4(g, stride));
            __m128i v;
            if (full) {
                v = _mm256_i64gather_epi32((const int *)base, idx, 1);
            } else {
                __m128i bits = _mm_loadu_si128((const __m128i *)&emu_lane_bit32[g]);
                __m128i mk = _mm_cmpeq_epi32(_mm_and_si128(mv, bits), bits);
                v = _mm256_mask_i64gather_epi32(_mm_setzero_si128(), (const int *)base, idx, mk, 1);
            }
            _mm_storeu_si128((__m128i *)&val[g], v);
        }
        return;
    }
#endif
    (void)s;
    EMU_LANES(l) if (full || EMU_ON(m, l)) memcpy(&val[l], direct_ptr(base, addr_of(A, a32, l), l, stride), 4);
}

EMU_INLINE void gather64(uint8_t *base, const struct lane_addr *A, bool a32, uint64_t stride, emu_mask m,
                         bool full, uint64_t val[EMU_WARP_SIZE])
{
#ifdef __AVX2__
    if (!a32) {
        __m256i mv = _mm256_set1_epi64x((long long)m);
        for (unsigned g = 0; g < EMU_WARP_SIZE; g += 4) {
            __m256i idx = _mm256_loadu_si256((const __m256i *)&A->a64[g]);
            if (stride) idx = _mm256_add_epi64(idx, lane_offsets4(g, stride));
            __m256i v;
            if (full) {
                v = _mm256_i64gather_epi64((const long long *)base, idx, 1);
            } else {
                __m256i bits = _mm256_loadu_si256((const __m256i *)&emu_lane_bit64[g]);
                __m256i mk = _mm256_cmpeq_epi64(_mm256_and_si256(mv, bits), bits);
                v = _mm256_mask_i64gather_epi64(_mm256_setzero_si256(), (const long long *)base, idx, mk, 1);
            }
            _mm256_storeu_si256((__m256i *)&val[g], v);
        }
        return;
    }
#endif
    EMU_LANES(l) if (full || EMU_ON(m, l)) memcpy(&val[l], direct_ptr(base, addr_of(A, a32, l), l, stride), 8);
}

/* Any load: every lane through the fast path or emu_mem_ptr. */
static int h_ld(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    unsigned size = in->sub, nv = in->nv;
    bool sgn = in->sub2 & LDST_SIGNED, wide = in->sub2 & LDST_WIDE, atomic = in->sub2 & LDST_ATOMIC;
    /* Read every lane before writing any register: the address row may be a destination. */
    uint64_t vals[8][EMU_WARP_SIZE];
    uint8_t *base;
    uint64_t stride;
    if (warp_direct(w, in, m, size * nv, size * nv, false, &base, &stride)) {
        EMU_LANES(l) {
            if (!EMU_ON(m, l)) continue;
            const uint8_t *p = direct_ptr(base, emu_addr(w, in, l), l, stride);
            for (unsigned k = 0; k < nv; k++) vals[k][l] = load_elem(p + k * size, size, sgn, atomic);
        }
    } else {
        EMU_LANES(l) {
            if (!EMU_ON(m, l)) continue;
            const uint8_t *p = emu_mem_ptr(w, in, l, in->space, emu_addr(w, in, l), size * nv, false);
            if (!p) return EMU_STOP_FAULT;
            for (unsigned k = 0; k < nv; k++) vals[k][l] = load_elem(p + k * size, size, sgn, atomic);
        }
    }
    for (unsigned k = 0; k < nv; k++) {
        if (wide) {
            uint64_t *d = w->r64[in->v[k]];
            EMU_EACH(l) EMU_PUT64(d, m, l, vals[k][l]);
        } else {
            uint32_t *d = w->r32[in->v[k]];
            EMU_EACH(l) EMU_BLEND32(d, m, l, (uint32_t)vals[k][l]);
        }
    }
    return EMU_CONTINUE;
}

/* One element of `size` bytes at p, extended to 64 bits. */
EMU_INLINE uint64_t load_plain(const uint8_t *p, unsigned size, bool sgn)
{
    switch (size) {
    case 1: { uint8_t v = *p; return sgn ? (uint64_t)(int8_t)v : v; }
    case 2: { uint16_t v; memcpy(&v, p, 2); return sgn ? (uint64_t)(int16_t)v : v; }
    case 4: { uint32_t v; memcpy(&v, p, 4); return v; }
    default: { uint64_t v; memcpy(&v, p, 8); return v; }
    }
}

/* The quickest case, a full warp's contiguous access through a 64-bit address
 * row into one global allocation:
 * the host address of lane 0's element, or NULL for the general path, which
 * accepts everything this accepts with the same addresses. */
EMU_INLINE uint8_t *block_ptr(struct emu_warp *w, const struct emu_inst *in, unsigned size, bool write)
{
    const uint64_t *r = w->r64[in->a], *step = lane_steps[size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : 3];
    uint64_t r0 = r[0], a0 = r0 + (uint64_t)in->imm, bad = 0, bytes = EMU_WARP_SIZE * (uint64_t)size;
    switch (in->space) {
    case PTX_SPACE_SHARED: case PTX_SPACE_SHARED_CLUSTER: case PTX_SPACE_LOCAL: case PTX_SPACE_PARAM:
        return NULL;
    default:
        break;
    }
    _Pragma("GCC unroll 8") _Pragma("GCC ivdep") for (unsigned l = 0; l < EMU_WARP_SIZE; l++)   /* 8 vectors */
        bad |= (r[l] - r0) ^ step[l];
    const struct emu_launch *L = w->cta->launch;
    if (bad || a0 > UINT64_MAX - bytes || L->initcheck || L->racecheck) return NULL;
    if (L->check) {
        if (a0 & (size - 1)) return NULL;
        int64_t flags = global_flags(w, a0, a0 + bytes);
        if (flags < 0 || (write && (flags & MEM_READONLY))) return NULL;
    }
    return (uint8_t *)(uintptr_t)a0;
}

/* A 4-byte shared-memory access through a 32-bit address whose lanes in m
 * read or write one contiguous run (lane l at run + 4 l): __syncthreads-style
 * code's s[tid], with every lane or a tail of them (checked lane by lane, or
 * known from the decoder, EMU_ADDR32_RUN4). The whole 32-lane run must
 * lie in the CTA's shared memory, aligned, with no deeper check on; then the
 * host pointer of lane 0's slot, else NULL (the general path decides). */
EMU_INLINE uint8_t *shared_run4(struct emu_warp *w, const struct emu_inst *in, emu_mask m, bool full)
{
    if (in->space != PTX_SPACE_SHARED && in->space != PTX_SPACE_SHARED_CLUSTER) return NULL;
    const struct emu_launch *L = w->cta->launch;
    if (L->initcheck || L->racecheck) return NULL;
    const uint32_t *r = w->r32[in->a];
    uint32_t imm = (uint32_t)in->imm;
    unsigned f = full ? 0 : (unsigned)__builtin_ctz(m);
    uint32_t a0 = r[f] + imm - 4u * f, bad = 0;
    if (in->addr32 == EMU_ADDR32_RUN4 && w->tid_affine) {
        /* known to be one run (ptx_lane_strides): the bounds below suffice */
    } else if (full) {
        EMU_EACH(l) bad |= (r[l] + imm) ^ (a0 + 4u * l);
    } else {
        EMU_EACH(l) bad |= ((r[l] + imm) ^ (a0 + 4u * l)) & emu_lane_k32(m, l);
    }
    if (bad || (a0 & 3u) || (uint64_t)a0 + 4u * EMU_WARP_SIZE > w->cta->shared_size) return NULL;
    return w->cta->shared + a0;
}

/* A 4-byte shared-memory load through a 32-bit address whose active lanes
 * read anywhere in the CTA's shared memory, aligned (a row or a column of a
 * tile, a broadcast): the lanes' values gathered into row d. False, with
 * nothing read, when a lane is out of bounds or misaligned or a deeper check
 * is on (the general path decides). */
EMU_INLINE bool shared_gather4(struct emu_warp *w, const struct emu_inst *in, emu_mask m, bool full, uint32_t *d)
{
    if (in->space != PTX_SPACE_SHARED && in->space != PTX_SPACE_SHARED_CLUSTER) return false;
    const struct emu_launch *L = w->cta->launch;
    if (L->initcheck || L->racecheck || w->cta->shared_size < 4) return false;
    const uint32_t *r = w->r32[in->a];
    uint32_t imm = (uint32_t)in->imm, hi = 0, low = 0;
    if (full) {
        EMU_EACH(l) { uint32_t a = r[l] + imm; hi = a > hi ? a : hi; low |= a; }
    } else {
        EMU_EACH(l) { uint32_t a = (r[l] + imm) & emu_lane_k32(m, l); hi = a > hi ? a : hi; low |= a; }
    }
    if ((low & 3u) || (uint64_t)hi + 4u > w->cta->shared_size) return false;
    const uint8_t *base = w->cta->shared;
#ifdef __AVX2__
    gather32_off(base, r, imm, m, full, d, d);   /* shared memory is far below 2^31 */
#else
    for (unsigned l = 0; l < EMU_WARP_SIZE; l++)
        if (full || EMU_ON(m, l)) memcpy(&d[l], base + (uint32_t)(r[l] + imm), 4);
#endif
    return true;
}

/* ld of one element that is not atomic, specialised by size, sign, address
 * width and full warp. 8-byte elements go to r64 rows, smaller ones to r32. */
/* What the fast paths of ld_one / st_one return when the access needs the rest. */
#define MEM_SLOW (-1)

/* ld_one's fast paths (no stack frame): a contiguous shared run, a full warp's
 * contiguous global block; else MEM_SLOW. */
EMU_INLINE int ld_fast(struct emu_warp *w, const struct emu_inst *in, emu_mask m, unsigned size, bool sgn, bool a32,
                       bool full)
{
    const uint8_t *block;
    if (a32 && size == 4 && (block = shared_run4(w, in, m, full))) {
        uint32_t *d = w->r32[in->v[0]];
        if (full) {
            emu_copy_row32(d, block);
        } else {   /* 4-aligned shared memory, never a register row */
            const uint32_t *src = (const uint32_t *)(const void *)block;
            EMU_EACH(l) EMU_BLEND32(d, m, l, src[l]);
        }
        return EMU_CONTINUE;
    }
    if (full && !a32 && (block = block_ptr(w, in, size, false))) {
        /* Warps of a grid-stride or streaming kernel read the next blocks soon: ask
         * for them early, as the GPU's memory system would have them in flight. */
        __builtin_prefetch(block + 1024);
        __builtin_prefetch(block + 1024 + 64);
        if (size == 8) {
            emu_copy_row64(w->r64[in->v[0]], block);
        } else {
            uint32_t *d = w->r32[in->v[0]];
            if (size == 4) {
                emu_copy_row32(d, block);
            } else if (size == 2) {
                uint16_t h[EMU_WARP_SIZE];
                memcpy(h, block, sizeof h);
                EMU_EACH(l) d[l] = sgn ? (uint32_t)(int32_t)(int16_t)h[l] : h[l];
            } else {
                uint8_t b[EMU_WARP_SIZE];
                memcpy(b, block, sizeof b);
                EMU_EACH(l) d[l] = sgn ? (uint32_t)(int32_t)(int8_t)b[l] : b[l];
            }
        }
        return EMU_CONTINUE;
    }
    return MEM_SLOW;
}

/* The rest of ld_one: every lane's address checked, then a copy or a gather. */
EMU_INLINE int ld_rest(struct emu_warp *w, const struct emu_inst *in, emu_mask m, unsigned size, bool sgn, bool a32,
                       bool full)
{
    struct lane_addr addr;
    struct lane_span s;
    uint8_t *base;
    uint64_t stride;
    lane_addrs(w, in, m, a32, full, size, &addr, &s);
    if (!span_direct(w, in, &s, size, size, false, &base, &stride)) return h_ld(w, in, m);
    if (size == 8) {
        uint64_t val[EMU_WARP_SIZE];
        uint64_t *d = w->r64[in->v[0]];
        if (s.contiguous && !stride) {
            emu_copy_row64(d, direct_ptr(base, s.lo, 0, 0));
            return EMU_CONTINUE;
        }
        gather64(base, &addr, a32, stride, m, full, val);
        if (full) emu_copy_row64(d, val);
        else EMU_EACH(l) EMU_PUT64(d, m, l, val[l]);
        return EMU_CONTINUE;
    }
    uint32_t val[EMU_WARP_SIZE];
    uint32_t *d = w->r32[in->v[0]];
    if (s.contiguous && !stride) {
        const uint8_t *p = direct_ptr(base, s.lo, 0, 0);
        if (size == 4) {
            emu_copy_row32(d, p);
        } else if (size == 2) {
            uint16_t h[EMU_WARP_SIZE];
            memcpy(h, p, sizeof h);
            EMU_EACH(l) d[l] = sgn ? (uint32_t)(int32_t)(int16_t)h[l] : h[l];
        } else {
            uint8_t b[EMU_WARP_SIZE];
            memcpy(b, p, sizeof b);
            EMU_EACH(l) d[l] = sgn ? (uint32_t)(int32_t)(int8_t)b[l] : b[l];
        }
        return EMU_CONTINUE;
    }
    if (size == 4)
        gather32(base, &addr, a32, &s, stride, m, full, val);
    else
        EMU_LANES(l) if (full || EMU_ON(m, l))
            val[l] = (uint32_t)load_plain(direct_ptr(base, addr_of(&addr, a32, l), l, stride), size, sgn);
    if (full) emu_copy_row32(d, val);
    else EMU_EACH(l) EMU_BLEND32(d, m, l, val[l]);
    return EMU_CONTINUE;
}

/* The handler: the fast paths inline, the rest in a function of its own that
 * goes on with the chain itself (a tail call), so that the common case sets
 * up no stack frame for the rest's arrays; 4-byte accesses through 32-bit
 * addresses try a shared-memory gather (shared_gather4) on the way. */
#define LD_ONE(name, size, sgn, a32) \
    static __attribute__((noinline)) int name##_rest(struct emu_warp *w, const struct emu_inst *in, emu_mask m) \
    { \
        EMU_NEXT_UNLESS_STOP(m == EMU_FULL ? ld_rest(w, in, m, size, sgn, a32, true) \
                                           : ld_rest(w, in, m, size, sgn, a32, false)); \
    } \
    static __attribute__((noinline)) int name##_gather(struct emu_warp *w, const struct emu_inst *in, emu_mask m) \
    { \
        if (!(m == EMU_FULL ? shared_gather4(w, in, m, true, w->r32[in->v[0]]) \
                            : shared_gather4(w, in, m, false, w->r32[in->v[0]]))) \
            return name##_rest(w, in, m); \
        EMU_NEXT(); \
    } \
    static EMU_CHAINED int name(struct emu_warp *w, const struct emu_inst *in, emu_mask m) \
    { \
        int rc = m == EMU_FULL ? ld_fast(w, in, m, size, sgn, a32, true) : ld_fast(w, in, m, size, sgn, a32, false); \
        if (rc == MEM_SLOW) return a32 && size == 4 ? name##_gather(w, in, m) : name##_rest(w, in, m); \
        EMU_NEXT_UNLESS_STOP(rc); \
    }
LD_ONE(h_ld_u8_a64, 1, false, false)
LD_ONE(h_ld_s8_a64, 1, true, false)
LD_ONE(h_ld_u16_a64, 2, false, false)
LD_ONE(h_ld_s16_a64, 2, true, false)
LD_ONE(h_ld_b32_a64, 4, false, false)
LD_ONE(h_ld_b64_a64, 8, false, false)
LD_ONE(h_ld_u8_a32, 1, false, true)
LD_ONE(h_ld_s8_a32, 1, true, true)
LD_ONE(h_ld_u16_a32, 2, false, true)
LD_ONE(h_ld_s16_a32, 2, true, true)
LD_ONE(h_ld_b32_a32, 4, false, true)
LD_ONE(h_ld_b64_a32, 8, false, true)

/* [address width][size 1, 2, 4, 8][signed] */
static const emu_fn t_ld_one[2][4][2] = {
    { { h_ld_u8_a64, h_ld_s8_a64 }, { h_ld_u16_a64, h_ld_s16_a64 }, { h_ld_b32_a64, h_ld_b32_a64 },
      { h_ld_b64_a64, h_ld_b64_a64 } },
    { { h_ld_u8_a32, h_ld_s8_a32 }, { h_ld_u16_a32, h_ld_s16_a32 }, { h_ld_b32_a32, h_ld_b32_a32 },
      { h_ld_b64_a32, h_ld_b64_a32 } },
};

/* A load whose address is the same for every lane (a kernel parameter or an
 * absolute/symbol address): one read, broadcast. in->sub: size. Kernel
 * parameters inside the buffer and aligned need no further check. */
EMU_INLINE const uint8_t *uniform_ptr(struct emu_warp *w, const struct emu_inst *in, emu_mask m, unsigned bytes)
{
    unsigned l0 = (unsigned)__builtin_ctz(m);
    uint64_t addr = emu_addr(w, in, l0);
    const struct emu_launch *L = w->cta->launch;
    if (in->space == PTX_SPACE_PARAM && addr + bytes <= L->params_size && addr + bytes > addr && !(addr & (bytes - 1)))
        return L->params + addr;
    return emu_mem_ptr(w, in, l0, in->space, addr, bytes, false);
}

static int h_ld_uniform(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    unsigned size = in->sub, nv = in->nv;
    const uint8_t *p = uniform_ptr(w, in, m, size * nv);
    if (!p) return EMU_STOP_FAULT;
    bool sgn = in->sub2 & LDST_SIGNED, atomic = in->sub2 & LDST_ATOMIC;
    for (unsigned k = 0; k < nv; k++) {
        uint64_t v = load_elem(p + k * size, size, sgn, atomic);
        if (in->sub2 & LDST_WIDE) {
            uint64_t *d = w->r64[in->v[k]];
            EMU_EACH(l) EMU_PUT64(d, m, l, v);
        } else {
            uint32_t *d = w->r32[in->v[k]];
            uint32_t v32 = (uint32_t)v;
            EMU_EACH(l) EMU_BLEND32(d, m, l, v32);
        }
    }
    return EMU_CONTINUE;
}

/* The uniform load of one element that is not atomic, per size. */
EMU_INLINE int ld_uniform_one(struct emu_warp *w, const struct emu_inst *in, emu_mask m, unsigned size, bool sgn)
{
    const uint8_t *p = uniform_ptr(w, in, m, size);
    if (!p) return EMU_STOP_FAULT;
    uint64_t v = load_plain(p, size, sgn);
    if (size == 8) {
        uint64_t *d = w->r64[in->v[0]];
        if (m == EMU_FULL) EMU_EACH(l) d[l] = v;
        else EMU_EACH(l) EMU_PUT64(d, m, l, v);
    } else {
        uint32_t *d = w->r32[in->v[0]], v32 = (uint32_t)v;
        if (m == EMU_FULL) EMU_EACH(l) d[l] = v32;
        else EMU_EACH(l) EMU_BLEND32(d, m, l, v32);
    }
    return EMU_CONTINUE;
}

#define LD_UNIFORM(name, size, sgn) \
    static int name(struct emu_warp *w, const struct emu_inst *in, emu_mask m) \
    { \
        return ld_uniform_one(w, in, m, size, sgn); \
    }
LD_UNIFORM(h_ldu_u8, 1, false)
LD_UNIFORM(h_ldu_s8, 1, true)
LD_UNIFORM(h_ldu_u16, 2, false)
LD_UNIFORM(h_ldu_s16, 2, true)
LD_UNIFORM(h_ldu_b32, 4, false)
LD_UNIFORM(h_ldu_b64, 8, false)

/* [size 1, 2, 4, 8][signed] */
static const emu_fn t_ldu_one[4][2] = {
    { h_ldu_u8, h_ldu_s8 }, { h_ldu_u16, h_ldu_s16 }, { h_ldu_b32, h_ldu_b32 }, { h_ldu_b64, h_ldu_b64 },
};

/* Any store: lanes in order, each through the fast path or emu_mem_ptr. */
static int h_st(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    unsigned size = in->sub, nv = in->nv;
    bool wide = in->sub2 & LDST_WIDE, atomic = in->sub2 & LDST_ATOMIC;
    uint8_t *base;
    uint64_t stride;
    bool direct = warp_direct(w, in, m, size * nv, size * nv, true, &base, &stride);
    EMU_LANES(l) {
        if (!EMU_ON(m, l)) continue;
        uint8_t *p = direct ? direct_ptr(base, emu_addr(w, in, l), l, stride)
                            : emu_mem_ptr(w, in, l, in->space, emu_addr(w, in, l), size * nv, true);
        if (!p) return EMU_STOP_FAULT;
        for (unsigned k = 0; k < nv; k++) {
            uint64_t v = wide ? w->r64[in->v[k]][l] : w->r32[in->v[k]][l];
            store_elem(p + k * size, v, size, atomic);
        }
    }
    return EMU_CONTINUE;
}

/* st of one element that is not atomic, specialised like ld_one. Lanes store
 * in lane order (the last of several lanes writing one address wins). */
/* st_one's fast paths (as ld_fast). */
EMU_INLINE int st_fast(struct emu_warp *w, const struct emu_inst *in, emu_mask m, unsigned size, bool a32, bool full)
{
    uint8_t *block;
    if (a32 && size == 4 && (block = shared_run4(w, in, m, full))) {
        /* A CTA's shared memory is only touched by the worker running it:
         * rewriting the inactive lanes' slots with what they hold is safe. */
        const uint32_t *v = w->r32[in->v[0]];
        if (full) {
            emu_copy_row32(block, v);
        } else {   /* 4-aligned shared memory, never a register row */
            uint32_t *dst = (uint32_t *)(void *)block;
            EMU_EACH(l) EMU_BLEND32(dst, m, l, v[l]);
        }
        return EMU_CONTINUE;
    }
    if (full && !a32 && (block = block_ptr(w, in, size, true))) {
        if (size == 8) {
            emu_copy_row64(block, w->r64[in->v[0]]);
        } else {
            const uint32_t *v = w->r32[in->v[0]];
            if (size == 4) {
                emu_copy_row32(block, v);
            } else if (size == 2) {
                uint16_t h[EMU_WARP_SIZE];
                EMU_EACH(l) h[l] = (uint16_t)v[l];
                memcpy(block, h, sizeof h);
            } else {
                uint8_t b[EMU_WARP_SIZE];
                EMU_EACH(l) b[l] = (uint8_t)v[l];
                memcpy(block, b, sizeof b);
            }
        }
        return EMU_CONTINUE;
    }
    return MEM_SLOW;
}

/* The rest of st_one (as ld_rest). */
EMU_INLINE int st_rest(struct emu_warp *w, const struct emu_inst *in, emu_mask m, unsigned size, bool a32, bool full)
{
    struct lane_addr addr;
    struct lane_span s;
    uint8_t *base;
    uint64_t stride;
    lane_addrs(w, in, m, a32, full, size, &addr, &s);
    if (!span_direct(w, in, &s, size, size, true, &base, &stride)) return h_st(w, in, m);
    if (size == 8) {
        const uint64_t *v = w->r64[in->v[0]];
        if (s.contiguous && !stride) {
            emu_copy_row64(direct_ptr(base, s.lo, 0, 0), v);
            return EMU_CONTINUE;
        }
        if (full)
            EMU_LANES(l) memcpy(direct_ptr(base, addr_of(&addr, a32, l), l, stride), &v[l], 8);
        else
            for (emu_mask mm = m; mm; mm &= mm - 1) {
                unsigned l = (unsigned)__builtin_ctz(mm);
                memcpy(direct_ptr(base, addr_of(&addr, a32, l), l, stride), &v[l], 8);
            }
        return EMU_CONTINUE;
    }
    const uint32_t *v = w->r32[in->v[0]];
    if (s.contiguous && !stride) {
        uint8_t *p = direct_ptr(base, s.lo, 0, 0);
        if (size == 4) {
            emu_copy_row32(p, v);
        } else if (size == 2) {
            uint16_t h[EMU_WARP_SIZE];
            EMU_EACH(l) h[l] = (uint16_t)v[l];
            memcpy(p, h, sizeof h);
        } else {
            uint8_t b[EMU_WARP_SIZE];
            EMU_EACH(l) b[l] = (uint8_t)v[l];
            memcpy(p, b, sizeof b);
        }
        return EMU_CONTINUE;
    }
    if (full)
        EMU_LANES(l) memcpy(direct_ptr(base, addr_of(&addr, a32, l), l, stride), &v[l], size);
    else
        for (emu_mask mm = m; mm; mm &= mm - 1) {   /* active lanes only, in lane order */
            unsigned l = (unsigned)__builtin_ctz(mm);
            memcpy(direct_ptr(base, addr_of(&addr, a32, l), l, stride), &v[l], size);
        }
    return EMU_CONTINUE;
}

#define ST_ONE(name, size, a32) \
    static __attribute__((noinline)) int name##_rest(struct emu_warp *w, const struct emu_inst *in, emu_mask m) \
    { \
        EMU_NEXT_UNLESS_STOP(m == EMU_FULL ? st_rest(w, in, m, size, a32, true) : st_rest(w, in, m, size, a32, false)); \
    } \
    static EMU_CHAINED int name(struct emu_warp *w, const struct emu_inst *in, emu_mask m) \
    { \
        int rc = m == EMU_FULL ? st_fast(w, in, m, size, a32, true) : st_fast(w, in, m, size, a32, false); \
        if (rc == MEM_SLOW) return name##_rest(w, in, m); \
        EMU_NEXT_UNLESS_STOP(rc); \
    }
ST_ONE(h_st_b8_a64, 1, false)
ST_ONE(h_st_b16_a64, 2, false)
ST_ONE(h_st_b32_a64, 4, false)
ST_ONE(h_st_b64_a64, 8, false)
ST_ONE(h_st_b8_a32, 1, true)
ST_ONE(h_st_b16_a32, 2, true)
ST_ONE(h_st_b32_a32, 4, true)
ST_ONE(h_st_b64_a32, 8, true)

/* [address width][size 1, 2, 4, 8] */
static const emu_fn t_st_one[2][4] = {
    { h_st_b8_a64, h_st_b16_a64, h_st_b32_a64, h_st_b64_a64 },
    { h_st_b8_a32, h_st_b16_a32, h_st_b32_a32, h_st_b64_a32 },
};

/* ---- mov, cvta, isspacep ---------------------------------------------------------------- */

EMU_HANDLER(h_mov32)
{
    uint32_t *d = w->r32[in->d]; const uint32_t *a = w->r32[in->a];
    EMU_EACH(l) EMU_BLEND32(d, m, l, a[l]);
    return EMU_CONTINUE;
}

EMU_HANDLER(h_mov16)
{
    uint32_t *d = w->r32[in->d]; const uint32_t *a = w->r32[in->a];
    EMU_EACH(l) EMU_BLEND32(d, m, l, (a[l] & 0xFFFFu));
    return EMU_CONTINUE;
}

EMU_HANDLER(h_mov64)
{
    uint64_t *d = w->r64[in->d]; const uint64_t *a = w->r64[in->a];
    EMU_EACH(l) EMU_PUT64(d, m, l, a[l]);
    return EMU_CONTINUE;
}

static int h_movp(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    emu_mask a = in->sub ? (in->sub == 2 ? ~0u : 0u) : w->pred[in->a];
    w->pred[in->d] = (w->pred[in->d] & ~m) | (a & m);
    return EMU_CONTINUE;
}

/* Vector pack: d = {v0, v1, ...} with parts of in->sub bits, v0 lowest. */
static int h_pack(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    unsigned bits = in->sub;
    uint64_t part_mask = bits == 64 ? ~0ull : ((1ull << bits) - 1);
    uint64_t res[EMU_WARP_SIZE];
    EMU_LANES(l) {
        uint64_t v = 0;
        for (unsigned k = 0; k < in->nv; k++) {
            uint64_t x = (in->sub2 & LDST_WIDE) ? w->r64[in->v[k]][l] : w->r32[in->v[k]][l];
            v |= (x & part_mask) << (k * bits);
        }
        res[l] = v;
    }
    if (in->sub2 & 8) {   /* destination is a 64-bit row */
        uint64_t *d = w->r64[in->d];
        EMU_EACH(l) EMU_PUT64(d, m, l, res[l]);
    } else {
        uint32_t *d = w->r32[in->d];
        EMU_EACH(l) EMU_BLEND32(d, m, l, (uint32_t)res[l]);
    }
    return EMU_CONTINUE;
}

/* Vector unpack: {v0, v1, ...} = a. */
static int h_unpack(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    unsigned bits = in->sub;
    uint64_t part_mask = bits == 64 ? ~0ull : ((1ull << bits) - 1);
    uint64_t src[EMU_WARP_SIZE];
    EMU_LANES(l) src[l] = (in->sub2 & 8) ? w->r64[in->a][l] : w->r32[in->a][l];
    for (unsigned k = 0; k < in->nv; k++) {
        if (in->sub2 & LDST_WIDE) {
            uint64_t *d = w->r64[in->v[k]];
            EMU_EACH(l) EMU_PUT64(d, m, l, (src[l] >> (k * bits)) & part_mask);
        } else {
            uint32_t *d = w->r32[in->v[k]];
            EMU_EACH(l) EMU_BLEND32(d, m, l, (uint32_t)((src[l] >> (k * bits)) & part_mask));
        }
    }
    return EMU_CONTINUE;
}

/* cvta: in->sub = space, in->sub2 = 1 for .to (generic -> space); 64-bit rows
 * unless in->nv == 32 (32-bit forms). The generic window of a space starts at
 * its host address: the CTA's shared memory, the parameter buffer, or lane l's
 * local area (base + l * stride); global and const addresses are generic
 * already (the selector makes those a mov). */
EMU_HANDLER(h_cvta)
{
    bool to = in->sub2, narrow = in->nv == 32;
    uint64_t base = 0, lane_step = 0;
    switch (in->sub) {
    case PTX_SPACE_SHARED: case PTX_SPACE_SHARED_CLUSTER: base = (uint64_t)(uintptr_t)w->cta->shared; break;
    case PTX_SPACE_LOCAL: base = (uint64_t)(uintptr_t)w->local; lane_step = w->local_stride; break;
    case PTX_SPACE_PARAM: base = (uint64_t)(uintptr_t)w->cta->launch->params; break;
    default: break;
    }
    if (to) {   /* generic -> space: subtract the window base */
        base = (uint64_t)0 - base;
        lane_step = (uint64_t)0 - lane_step;
    }
    if (narrow) {
        uint32_t *d = w->r32[in->d]; const uint32_t *a = w->r32[in->a];
        uint32_t b32 = (uint32_t)base, s32 = (uint32_t)lane_step;
        EMU_EACH(l) EMU_BLEND32(d, m, l, a[l] + b32 + l * s32);
    } else if (lane_step) {
        uint64_t *d = w->r64[in->d]; const uint64_t *a = w->r64[in->a];
        uint64_t off[EMU_WARP_SIZE];
        off[0] = base;
        for (unsigned l = 1; l < EMU_WARP_SIZE; l++) off[l] = off[l - 1] + lane_step;
        EMU_EACH(l) EMU_PUT64(d, m, l, a[l] + off[l]);
    } else {
        uint64_t *d = w->r64[in->d]; const uint64_t *a = w->r64[in->a];
        EMU_EACH(l) EMU_PUT64(d, m, l, a[l] + base);
    }
    return EMU_CONTINUE;
}

static int h_isspacep(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    emu_mask r = 0;
    EMU_LANES(l) {
        if (!EMU_ON(m, l)) continue;
        enum ptx_space s = emu_generic_space(w, w->r64[in->a][l]);
        bool yes = s == in->sub || (in->sub == PTX_SPACE_CONST && s == PTX_SPACE_GLOBAL &&
                                    mem_find(w->cta->launch->mem, w->r64[in->a][l], 1) &&
                                    (mem_find(w->cta->launch->mem, w->r64[in->a][l], 1)->flags & MEM_READONLY));
        if (in->sub == PTX_SPACE_GLOBAL && s == PTX_SPACE_GLOBAL) yes = true;
        if (yes) r |= 1u << l;
    }
    w->pred[in->d] = (w->pred[in->d] & ~m) | (r & m);
    return EMU_CONTINUE;
}

/* ---- Selection ------------------------------------------------------------------------------ */

static bool type_wide(enum ptx_type t) { return ptx_type_size(t) == 8; }

static enum emu_sel sel_mov(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out)
{
    if (pi->ntypes != 1 || pi->nops != 2) return emu_dec_unsupported(dc, "mov takes one type and two operands");
    enum ptx_type t = pi->types[0];
    const struct ptx_operand *d = &pi->ops[0], *a = &pi->ops[1];
    unsigned size = ptx_type_size(t);
    if (t == PTX_T_PRED) {
        out->fn = h_movp;
        out->d = emu_dec_pred(dc, d);
        if (a->kind == PTX_OPND_IMM_INT) out->sub = a->ival ? 2 : 1;
        /* Loom launches no clusters but the implicit ones of one CTA */
        else if (a->kind == PTX_OPND_SREG && a->sreg == PTX_SREG_IS_EXPLICIT_CLUSTER) out->sub = 1;
        else out->a = emu_dec_pred(dc, a);
        return EMU_SEL_OK;
    }
    if (size == 16) return emu_dec_unsupported(dc, "128-bit registers are not supported yet");
    if (d->kind == PTX_OPND_VEC || a->kind == PTX_OPND_VEC) {
        const struct ptx_operand *vec = d->kind == PTX_OPND_VEC ? d : a;
        const struct ptx_operand *whole = d->kind == PTX_OPND_VEC ? a : d;
        unsigned n = vec->nelems;
        if (n < 2 || n > 8 || (size * 8) % n) return emu_dec_unsupported(dc, "bad vector for mov");
        unsigned bits = size * 8 / n;
        enum ptx_type et = bits == 64 ? PTX_T_B64 : bits == 32 ? PTX_T_B32 : bits == 16 ? PTX_T_B16 : PTX_T_B8;
        out->nv = (uint8_t)n;
        out->sub = (uint8_t)bits;
        out->sub2 = (uint8_t)((bits == 64 ? LDST_WIDE : 0) | (size == 8 ? 8 : 0));
        for (unsigned k = 0; k < n; k++)
            out->v[k] = d->kind == PTX_OPND_VEC ? emu_dec_dst(dc, &vec->elems[k], et) : emu_dec_src(dc, &vec->elems[k], et);
        if (d->kind == PTX_OPND_VEC) { out->fn = h_unpack; out->a = emu_dec_src(dc, whole, t); }
        else { out->fn = h_pack; out->d = emu_dec_dst(dc, whole, t); }
        return EMU_SEL_OK;
    }
    out->fn = size == 8 ? h_mov64 : size == 2 ? h_mov16 : h_mov32;
    out->a = emu_dec_src(dc, a, t);
    out->d = emu_dec_dst(dc, d, t);
    return EMU_SEL_OK;
}

static enum emu_sel sel_cvta(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out)
{
    if (pi->nops != 2 || pi->ntypes != 1) return emu_dec_unsupported(dc, "cvta takes one type and two operands");
    enum ptx_type t = pi->types[0];
    bool same = pi->space == PTX_SPACE_GLOBAL || pi->space == PTX_SPACE_CONST;
    out->fn = same ? (type_wide(t) ? h_mov64 : h_mov32) : h_cvta;
    out->sub = (uint8_t)pi->space;
    out->sub2 = (pi->flags & PTX_IF_TO) != 0;
    out->nv = type_wide(t) ? 64 : 32;
    out->a = emu_dec_src(dc, &pi->ops[1], t);
    out->d = emu_dec_dst(dc, &pi->ops[0], t);
    return EMU_SEL_OK;
}

/* Space of an ld/st: param accesses go to the kernel's parameter buffer only
 * for the entry's own parameters; call-site and .func params live in the frame. */
static enum ptx_space access_space(struct emu_decoder *dc, const struct ptx_instr *pi, const struct ptx_operand *addr)
{
    enum ptx_space s = pi->space;
    if (s != PTX_SPACE_PARAM) return s;
    uint32_t off;
    if (addr->sym && emu_dec_kernel_param(dc, addr->sym, &off)) return PTX_SPACE_PARAM;
    if (addr->sym) return PTX_SPACE_LOCAL;
    return dc->fn->is_entry ? PTX_SPACE_PARAM : PTX_SPACE_LOCAL;
}

static enum emu_sel sel_ldst(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out, bool store)
{
    if (pi->ntypes != 1 || pi->nops < 2) return emu_dec_unsupported(dc, "malformed ld/st");
    enum ptx_type t = pi->types[0];
    unsigned size = ptx_type_size(t);
    if (size == 0 || size > 8) return emu_dec_unsupported(dc, "128-bit loads and stores are not supported yet");
    for (unsigned k = 0; k < pi->nmods; k++) {
        const char *mn = ptx_mod_name(pi->mods[k]);
        if (strstr(mn, "cache_hint") || strstr(mn, "prefetch_size") || strstr(mn, "evict")) continue;
    }
    if (pi->nops > 2 && !(pi->nops == 3)) return emu_dec_unsupported(dc, "ld/st with extra operands");
    const struct ptx_operand *addr = store ? &pi->ops[0] : &pi->ops[1];
    const struct ptx_operand *val = store ? &pi->ops[1] : &pi->ops[0];
    enum ptx_space space = access_space(dc, pi, addr);
    if (space == PTX_SPACE_SHARED_CLUSTER) space = PTX_SPACE_SHARED;
    if (!emu_dec_address(dc, addr, space, out)) return emu_dec_unsupported(dc, "bad address");
    out->space = (uint8_t)space;
    unsigned nv = pi->vec ? pi->vec : 1;
    if (val->kind == PTX_OPND_VEC) { if (val->nelems != nv) return emu_dec_unsupported(dc, "vector size mismatch"); }
    else if (nv != 1) return emu_dec_unsupported(dc, "vector access needs a vector operand");
    if (nv > 8) return emu_dec_unsupported(dc, "vector too long");
    out->nv = (uint8_t)nv;
    out->sub = (uint8_t)size;
    /* Registers receive the value in the width of their own file. */
    enum ptx_type reg_t = t;
    bool sgn = ptx_type_is_signed(t);
    if (size < 4) reg_t = sgn ? PTX_T_S32 : PTX_T_U32;
    if (ptx_type_is_float(t) && size == 2) reg_t = PTX_T_B32;
    out->sub2 = (uint8_t)((sgn ? LDST_SIGNED : 0) | (size == 8 ? LDST_WIDE : 0));
    if ((pi->flags & PTX_IF_VOLATILE) || pi->sem == PTX_MOD_RELAXED || pi->sem == PTX_MOD_ACQUIRE ||
        pi->sem == PTX_MOD_RELEASE || pi->sem == PTX_MOD_MMIO)
        out->sub2 |= LDST_ATOMIC;
    for (unsigned k = 0; k < nv; k++) {
        const struct ptx_operand *e = val->kind == PTX_OPND_VEC ? &val->elems[k] : val;
        out->v[k] = store ? emu_dec_src(dc, e, reg_t) : emu_dec_dst(dc, e, reg_t);
    }
    bool uniform_addr = addr->reg < 0 && !(space == PTX_SPACE_LOCAL);
    unsigned lg = size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : 3;
    bool one = nv == 1 && !(out->sub2 & LDST_ATOMIC);
    if (store) out->fn = one ? t_st_one[out->addr32 != 0][lg] : h_st;
    else if (uniform_addr) out->fn = one ? t_ldu_one[lg][sgn] : h_ld_uniform;
    else out->fn = one ? t_ld_one[out->addr32 != 0][lg][sgn] : h_ld;
    return EMU_SEL_OK;
}

static enum emu_sel sel_isspacep(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out)
{
    if (pi->nops != 2) return emu_dec_unsupported(dc, "isspacep takes two operands");
    out->fn = h_isspacep;
    out->sub = (uint8_t)pi->space;
    out->d = emu_dec_pred(dc, &pi->ops[0]);
    out->a = emu_dec_src(dc, &pi->ops[1], PTX_T_U64);
    return EMU_SEL_OK;
}

enum emu_sel emu_sel_mem(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out)
{
    switch (pi->op) {
    case PTX_OP_MOV: return sel_mov(dc, pi, out);
    case PTX_OP_CVTA: return sel_cvta(dc, pi, out);
    case PTX_OP_LD: case PTX_OP_LDU: return sel_ldst(dc, pi, out, false);
    case PTX_OP_ST: return sel_ldst(dc, pi, out, true);
    case PTX_OP_ISSPACEP: return sel_isspacep(dc, pi, out);
    default: return EMU_SEL_NO;
    }
}
