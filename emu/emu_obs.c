/* emu_obs.c -- the counters observer (emu_obs.h): what each issue costs in memory
 * requests, by the rules the hardware counts them with (docs/OBSERVE.md):
 *   shared memory: 32 banks of 4 bytes; a request takes as many wavefronts as the
 *     most distinct 4-byte words any bank must deliver (lanes reading one word share
 *     it); accesses wider than 4 bytes go in parts of 128 bytes of lanes (16 lanes of
 *     8 bytes, 8 lanes of 16), two parts of a pair sharing a wavefront where they fit
 *     (emu_obs_wavefronts);
 *   global memory: the distinct 32-byte sectors and 128-byte lines a request touches;
 *   local memory: bytes moved. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "emu/emu_internal.h"
#include "emu/emu_lanes.h"
#include "emu/emu_obs.h"

uint64_t emu_obs_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

struct emu_obs_desc emu_obs_describe(const struct emu_program *p, uint32_t pc)
{
    struct emu_obs_desc d = { 0 };
    const struct emu_loc *loc = &p->locs[pc];
    const struct ptx_instr *pi = loc->ir;
    if (!loc->main || !pi) return d;
    switch (pi->op) {
    case PTX_OP_LD: case PTX_OP_LDU: d.mem = EMU_OBS_LD; break;
    case PTX_OP_ST: d.mem = EMU_OBS_ST; break;
    case PTX_OP_ATOM: case PTX_OP_RED: d.mem = EMU_OBS_ATOM; break;
    default: return d;
    }
    const struct emu_inst *in = &p->code[pc];
    d.space = in->space;
    if (d.space == PTX_SPACE_PARAM || d.space == PTX_SPACE_CONST) d.mem = EMU_OBS_NONE;
    unsigned t = pi->ntypes ? ptx_type_size(pi->types[pi->ntypes - 1]) : 4;
    if (pi->op == PTX_OP_ATOM || pi->op == PTX_OP_RED) t = pi->ntypes ? ptx_type_size(pi->types[0]) : 4;
    unsigned n = t * (pi->vec ? pi->vec : 1);
    d.size = (uint8_t)(n > 255 ? 255 : n ? n : 1);
    return d;
}

struct emu_obs *emu_obs_create(const struct emu_program *p, uint32_t nwarps)
{
    struct emu_obs *o = calloc(1, sizeof *o);
    if (!o) return NULL;
    o->prog = p;
    o->ncode = p->ncode;
    o->trace_warps = nwarps < EMU_OBS_TRACE_WARPS ? nwarps : EMU_OBS_TRACE_WARPS;
    o->desc = calloc(p->ncode ? p->ncode : 1, sizeof *o->desc);
    o->slots = calloc((size_t)EMU_OBS_TRACE_WARPS * EMU_OBS_TRACE_SLOTS, sizeof *o->slots);
    pthread_mutex_init(&o->lock, NULL);
    if (!o->desc || !o->slots) { emu_obs_destroy(o); return NULL; }
    for (uint32_t pc = 0; pc < p->ncode; pc++) o->desc[pc] = emu_obs_describe(p, pc);
    return o;
}

void emu_obs_destroy(struct emu_obs *o)
{
    if (!o) return;
    for (uint32_t i = 0; i < o->nctxs; i++) free(o->ctxs[i]);
    free(o->ctxs);
    free(o->desc);
    free(o->slots);
    pthread_mutex_destroy(&o->lock);
    free(o);
}

struct emu_obs_pc *emu_obs_attach(struct emu_obs *o)
{
    struct emu_obs_pc *c = calloc(o->ncode ? o->ncode : 1, sizeof *c);
    if (!c) return NULL;
    pthread_mutex_lock(&o->lock);
    if (o->nctxs == o->ctxs_cap) {
        uint32_t cap = o->ctxs_cap ? 2 * o->ctxs_cap : 16;
        struct emu_obs_pc **n = realloc(o->ctxs, cap * sizeof *n);
        if (!n) { pthread_mutex_unlock(&o->lock); free(c); return NULL; }
        o->ctxs = n;
        o->ctxs_cap = cap;
    }
    o->ctxs[o->nctxs++] = c;
    pthread_mutex_unlock(&o->lock);
    return c;
}

void emu_obs_sum(const struct emu_obs *o, struct emu_obs_pc *out)
{
    memset(out, 0, (size_t)o->ncode * sizeof *out);
    for (uint32_t i = 0; i < o->nctxs; i++)
        for (uint32_t pc = 0; pc < o->ncode; pc++) {
            const struct emu_obs_pc *c = &o->ctxs[i][pc];
            struct emu_obs_pc *t = &out[pc];
            t->exec += c->exec; t->threads += c->threads; t->off += c->off;
            t->divergent += c->divergent; t->barrier_waits += c->barrier_waits;
            t->requests += c->requests; t->sectors += c->sectors; t->lines += c->lines;
            t->wavefronts += c->wavefronts; t->conflicts += c->conflicts; t->bytes += c->bytes;
            t->seen |= c->seen;
        }
}

/* Distinct values among v[0..n-1]: counted in one pass when they are in order (the
 * lanes of a coalesced access), else sorted first (insertion sort: at most 64 keys). */
static uint32_t distinct(uint64_t *v, uint32_t n)
{
    if (!n) return 0;
    uint32_t d = 1;
    bool sorted = true;
    for (uint32_t i = 1; i < n; i++) {
        sorted &= v[i] >= v[i - 1];
        d += v[i] != v[i - 1];
    }
    if (sorted) return d;
    for (uint32_t i = 1; i < n; i++) {
        uint64_t x = v[i];
        uint32_t j = i;
        while (j && v[j - 1] > x) { v[j] = v[j - 1]; j--; }
        v[j] = x;
    }
    d = 1;
    for (uint32_t i = 1; i < n; i++) d += v[i] != v[i - 1];
    return d;
}

uint32_t emu_obs_blocks(const uint64_t *addr, emu_mask m, unsigned size, unsigned shift)
{
    uint64_t v[2 * EMU_WARP_SIZE];
    uint32_t n = 0;
    for (emu_mask k = m; k; k &= k - 1) {
        unsigned l = (unsigned)__builtin_ctz(k);
        uint64_t lo = addr[l] >> shift, hi = (addr[l] + (size ? size : 1) - 1) >> shift;
        v[n++] = lo;
        if (hi != lo) v[n++] = hi;      /* (an unaligned access; at most 16 bytes) */
    }
    return distinct(v, n);
}

/* The most distinct words that one bank holds among what the lanes of m access
 * (`words` 4-byte words each from off[l]): the wavefronts those lanes need. */
static uint32_t bank_cost(const uint64_t *off, emu_mask m, unsigned words)
{
    if (words == 1) {                           /* no two words in one bank: one (the usual case) */
        uint64_t first[32];
        uint32_t banks = 0;
        bool clash = false;
        for (emu_mask k = m; k; k &= k - 1) {
            uint64_t x = off[__builtin_ctz(k)] >> 2;
            uint32_t b = (uint32_t)(x & 31);
            if (banks >> b & 1) clash |= first[b] != x;
            else { banks |= 1u << b; first[b] = x; }
        }
        if (!clash) return 1;
    }
    /* A short list of words per bank (one without conflicts), searched before a word is added. */
    uint64_t list[32][EMU_WARP_SIZE];
    uint32_t count[32] = { 0 }, most = 0;
    for (emu_mask k = m; k; k &= k - 1) {
        unsigned l = (unsigned)__builtin_ctz(k);
        for (unsigned j = 0; j < words; j++) {
            uint64_t x = (off[l] >> 2) + j;
            uint32_t b = (uint32_t)(x & 31), c = count[b], i = 0;
            while (i < c && list[b][i] != x) i++;
            if (i < c) continue;
            if (c < EMU_WARP_SIZE) list[b][c] = x;
            count[b] = ++c;
            if (c > most) most = c;
        }
    }
    return most;
}

/* Distinct addresses among the lanes of m. */
static uint32_t unique_addrs(const uint64_t *off, emu_mask m)
{
    uint64_t v[EMU_WARP_SIZE];
    uint32_t n = 0;
    for (emu_mask k = m; k; k &= k - 1) v[n++] = off[__builtin_ctz(k)];
    return distinct(v, n);
}

uint32_t emu_obs_wavefronts(const uint64_t *off, emu_mask m, unsigned size, uint32_t *ideal)
{
    unsigned words = size > 4 ? (size + 3) / 4 : 1;
    if (words == 1) {                            /* 32-bit and narrower: the whole warp at once */
        *ideal = m ? 1 : 0;
        return m ? bank_cost(off, m, 1) : 0;
    }
    /* Wider accesses go in parts of 128 bytes of lanes (16 lanes of 8 bytes, 8 of 16),
     * each served as a 32-bit request over its words. The two parts of a pair (a
     * half-warp's two quarters; a 64-bit access's two halves) share one wavefront when
     * neither has a conflict, together they move at most 128 bytes (addresses counted
     * per part) and no bank holds two of their words. */
    unsigned per_part = 128 / (4 * words);
    if (per_part == 0) per_part = 1;
    uint32_t wf = 0, best = 0;
    for (unsigned p0 = 0; p0 < EMU_WARP_SIZE; p0 += 2 * per_part) {
        emu_mask a = m & (((1u << per_part) - 1) << p0);
        emu_mask b = p0 + per_part < EMU_WARP_SIZE ? m & (((1u << per_part) - 1) << (p0 + per_part)) : 0;
        if (!a || !b) {
            if (a | b) { wf += bank_cost(off, a | b, words); best++; }
            continue;
        }
        uint32_t ca = bank_cost(off, a, words), cb = bank_cost(off, b, words);
        bool fits = (unique_addrs(off, a) + unique_addrs(off, b)) * size <= 128;
        best += fits ? 1 : 2;
        wf += fits && ca == 1 && cb == 1 && bank_cost(off, a | b, words) == 1 ? 1 : ca + cb;
    }
    *ideal = best;
    return wf;
}

void emu_obs_lane_addrs(const struct emu_warp *w, const struct emu_inst *in, uint64_t *addr)
{
    const uint64_t imm = (uint64_t)in->imm;
    if (in->addr32) {
        const uint32_t *r = w->r32[in->a];
        for (unsigned l = 0; l < EMU_WARP_SIZE; l++) addr[l] = r[l] + imm;
    } else {
        const uint64_t *r = w->r64[in->a];
        for (unsigned l = 0; l < EMU_WARP_SIZE; l++) addr[l] = r[l] + imm;
    }
}

static void count_mem(struct emu_warp *w, const struct emu_inst *in, const struct emu_obs_desc *d, emu_mask m,
                      struct emu_obs_pc *c)
{
    uint64_t addr[EMU_WARP_SIZE];
    emu_obs_lane_addrs(w, in, addr);
    enum ptx_space sp = (enum ptx_space)d->space;
    if (sp == PTX_SPACE_NONE || sp == PTX_SPACE_GENERIC) {
        sp = emu_generic_space(w, addr[__builtin_ctz(m)]);
        if (sp == PTX_SPACE_SHARED)
            for (emu_mask k = m; k; k &= k - 1) addr[__builtin_ctz(k)] -= (uint64_t)(uintptr_t)w->cta->shared;
    }
    c->seen |= 1u << sp;
    switch (sp) {
    case PTX_SPACE_SHARED: case PTX_SPACE_SHARED_CLUSTER: {
        uint32_t ideal, wf = emu_obs_wavefronts(addr, m, d->size, &ideal);
        c->requests++;
        c->wavefronts += wf;
        c->conflicts += wf - ideal;
        break;
    }
    case PTX_SPACE_LOCAL:
        c->requests++;
        c->bytes += (uint64_t)emu_popc(m) * d->size;
        break;
    case PTX_SPACE_GLOBAL:
        c->requests++;
        c->sectors += emu_obs_blocks(addr, m, d->size, 5);
        c->lines += emu_obs_blocks(addr, m, d->size, 7);
        break;
    default: break;     /* parameters, constants: not counted */
    }
}

void emu_obs_issue_more(struct emu_warp *w, uint32_t pc, emu_mask active, emu_mask m)
{
    struct emu_cta *cta = w->cta;
    const struct emu_obs *o = cta->launch->obs;
    const struct emu_obs_desc *d = &o->desc[pc];
    if (d->mem && m) count_mem(w, &o->prog->code[pc], d, m, &cta->obs_pc[pc]);
    if (cta->obs_trace) emu_obs_record(w, pc, active);
}

void emu_obs_record(struct emu_warp *w, uint32_t pc, emu_mask active)
{
    struct emu_obs *o = w->cta->launch->obs;        /* (only CTA (0,0,0)'s context writes these) */
    if (w->id >= o->trace_warps) return;
    uint32_t n = o->nslots[w->id];
    if (n < EMU_OBS_TRACE_SLOTS) {
        o->slots[(size_t)w->id * EMU_OBS_TRACE_SLOTS + n] = (struct emu_obs_slot){ pc, active };
        o->nslots[w->id] = n + 1;
    } else {
        o->truncated[w->id] = true;
    }
}
