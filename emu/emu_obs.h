/* emu_obs.h -- the counters observer: per-instruction counts (issues, lanes, divergent
 * branches, barrier waits) and the memory requests' cost (shared-memory wavefronts and
 * bank conflicts, global sectors and lines, local traffic), plus the lane activity of
 * the first CTA's first warps. A launch with emu_launch.obs set runs every instruction
 * one at a time through the observed dispatch (emu_exec.c) or the thread engine
 * (emu/simt/steps.c), which call emu_obs_issue before the handler; without it nothing
 * here runs. */
#ifndef LOOM_EMU_OBS_H
#define LOOM_EMU_OBS_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "emu/emu.h"
#include "emu/emu_lanes.h"

/* What a pc does to memory (emu_obs_desc.mem). */
enum emu_obs_mem { EMU_OBS_NONE, EMU_OBS_LD, EMU_OBS_ST, EMU_OBS_ATOM };

/* Counters of one pc. */
struct emu_obs_pc {
    uint64_t exec;           /* warp instructions issued */
    uint64_t threads;        /* active lanes summed (guarded-off lanes included, as nvprof counts) */
    uint64_t off;            /* active lanes whose guard was false */
    uint64_t divergent;      /* issues after which the warp's lanes went different ways */
    uint64_t barrier_waits;  /* warps that stopped at a barrier here */
    uint64_t requests;       /* memory: warp-level requests with at least one lane */
    uint64_t sectors, lines; /* global: distinct 32-byte sectors and 128-byte lines per request, summed */
    uint64_t wavefronts;     /* shared: wavefronts (passes through the 32 banks) */
    uint64_t conflicts;      /* shared: wavefronts beyond the ideal */
    uint64_t bytes;          /* local: bytes moved by the lanes */
    uint32_t seen;           /* bit s: a request went to enum ptx_space s */
};

/* A pc's memory access, from its PTX instruction. */
struct emu_obs_desc {
    uint8_t mem;             /* enum emu_obs_mem */
    uint8_t space;           /* enum ptx_space as decoded (NONE/GENERIC: classified per request) */
    uint8_t size;            /* bytes per lane (vector included) */
};

/* One issue of the lane-activity record. */
struct emu_obs_slot { uint32_t pc; emu_mask mask; };

/* The lane activity kept: the first EMU_OBS_TRACE_WARPS warps of CTA (0,0,0), at most
 * EMU_OBS_TRACE_SLOTS issues each. */
#define EMU_OBS_TRACE_WARPS 8u
#define EMU_OBS_TRACE_SLOTS 4096u

/* Warp events for a timeline (the Chrome trace's --trace-warps), called on the worker
 * running the CTA; both NULL when not asked for. Times are CLOCK_MONOTONIC nanoseconds;
 * `why` and `what` are literals. */
struct emu_obs_hooks {
    void *ctx;
    /* Warp `warp` of cta ran from t0 to t1, issuing n warp instructions, and stopped:
     * "barrier", "exit", "yield" (its slice was spent, or it waits), "fault". */
    void (*slice)(void *ctx, const struct emu_cta *cta, uint32_t warp, uint64_t t0_ns, uint64_t t1_ns,
                  const char *why, uint64_t n);
    /* Something happened to it at pc: "diverge", "reconverge", "barrier arrive", "exit";
     * mask: its active lanes after it. */
    void (*event)(void *ctx, const struct emu_cta *cta, uint32_t warp, uint64_t ts_ns, const char *what, uint32_t pc,
                  emu_mask mask);
};

/* One launch's observer. */
struct emu_obs {
    struct emu_obs_hooks hooks;
    const struct emu_program *prog;
    uint32_t ncode;
    struct emu_obs_desc *desc;           /* [ncode] */
    pthread_mutex_t lock;                /* guards ctxs */
    struct emu_obs_pc **ctxs;            /* each CTA context's counters, [ncode] each */
    uint32_t nctxs, ctxs_cap;
    struct emu_obs_slot *slots;          /* [EMU_OBS_TRACE_WARPS][EMU_OBS_TRACE_SLOTS] */
    uint32_t nslots[EMU_OBS_TRACE_WARPS];
    bool truncated[EMU_OBS_TRACE_WARPS];
    uint32_t trace_warps;                /* warps of CTA (0,0,0) (at most EMU_OBS_TRACE_WARPS) */
};

/* What the instruction at pc does to memory (from its PTX instruction; parameters and
 * constants count as none). The debugger's watchpoints use it too. */
struct emu_obs_desc emu_obs_describe(const struct emu_program *p, uint32_t pc);
/* The lanes' addresses of a memory instruction: its address row plus offset. */
void emu_obs_lane_addrs(const struct emu_warp *w, const struct emu_inst *in, uint64_t *addr);

/* An observer for a launch of p whose CTAs have `nwarps` warps. */
struct emu_obs *emu_obs_create(const struct emu_program *p, uint32_t nwarps);
void emu_obs_destroy(struct emu_obs *o);
/* Counters for a new CTA context (zeroed; owned by o); NULL when out of memory. */
struct emu_obs_pc *emu_obs_attach(struct emu_obs *o);
/* Sums every context's counters into out[ncode] (zeroed first). Call when no CTA runs. */
void emu_obs_sum(const struct emu_obs *o, struct emu_obs_pc *out);

/* Warp w of the running CTA issues the instruction at pc with `active` lanes, `m` of
 * them with a true guard, before its handler runs. */
void emu_obs_issue_more(struct emu_warp *w, uint32_t pc, emu_mask active, emu_mask m);
static inline void emu_obs_issue(struct emu_warp *w, uint32_t pc, emu_mask active, emu_mask m)
{
    struct emu_cta *cta = w->cta;
    struct emu_obs_pc *c = &cta->obs_pc[pc];
    c->exec++;
    c->threads += emu_popc(active);
    c->off += emu_popc(active & ~m);
    if (__builtin_expect(cta->launch->obs->desc[pc].mem != 0 || cta->obs_trace, 0))
        emu_obs_issue_more(w, pc, active, m);     /* a memory request, the lane-activity record */
}
/* The lane-activity record of CTA (0,0,0)'s warps: pc issued with `active`. */
void emu_obs_record(struct emu_warp *w, uint32_t pc, emu_mask active);
/* After the handler of that issue: it counted n more warp instructions in w->n_inst (a
 * handler fused with the setp and bra after it runs them too: at most 2), split the warp
 * (divergent, credited to the last instruction it ran) or stopped it at a barrier.
 * Returns the pc of that last instruction. */
static inline uint32_t emu_obs_done(struct emu_warp *w, uint32_t pc, emu_mask active, uint64_t n, bool divergent,
                                    bool barrier)
{
    struct emu_obs_pc *c = w->cta->obs_pc;
    uint32_t extra = n <= 2 ? (uint32_t)n : 0;
    for (uint32_t k = 1; k <= extra; k++) {
        c[pc + k].exec++;
        c[pc + k].threads += emu_popc(active);
        if (w->cta->obs_trace) emu_obs_record(w, pc + k, active);
    }
    c[pc + extra].divergent += divergent;
    c[pc].barrier_waits += barrier;
    return pc + extra;
}

/* The hooks' clock (CLOCK_MONOTONIC nanoseconds). */
uint64_t emu_obs_now(void);
/* A warp event (hooks.event), when hooked. */
static inline void emu_obs_event(struct emu_warp *w, const char *what, uint32_t pc, emu_mask mask)
{
    const struct emu_obs *o = w->cta->launch->obs;
    if (o->hooks.event) o->hooks.event(o->hooks.ctx, w->cta, w->id, emu_obs_now(), what, pc, mask);
}

/* The thread engine's barrier arrival at pc (its own handler call, not an issue). */
static inline void emu_obs_barrier(struct emu_warp *w, uint32_t pc) { w->cta->obs_pc[pc].barrier_waits++; }

/* Shared-memory wavefronts of one request: lanes of m access `size` bytes at the
 * CTA-relative offsets off[]; *ideal gets the fewest the request could take. */
uint32_t emu_obs_wavefronts(const uint64_t *off, emu_mask m, unsigned size, uint32_t *ideal);
/* Distinct 2^shift-byte blocks that the lanes of m touch with `size` bytes at addr[]. */
uint32_t emu_obs_blocks(const uint64_t *addr, emu_mask m, unsigned size, unsigned shift);

#endif
