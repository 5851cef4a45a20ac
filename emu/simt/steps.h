/* steps.h -- the thread engine's state, shared by steps.c and the policy files
 * (its.c, frontier.c, dwf.c, interweave.c). A policy only picks: given the lanes
 * that may issue now, it fills a steps_issue; steps.c runs it and keeps every
 * lane's pc, state and the statistics. */
#ifndef LOOM_EMU_SIMT_STEPS_H
#define LOOM_EMU_SIMT_STEPS_H

#include "emu/emu_exec.h"
#include "emu/simt/emu_simt.h"

/* Divergences a lane remembers, and that a warp can have open at once. */
#define STEPS_RSTACK 16
#define STEPS_RECS 64

/* A divergence not reconverged from yet: the lanes of a group that split at a branch,
 * which wait for each other at the branch's reconvergence point (its immediate
 * post-dominator) when the policy holds there (every one but its). */
struct steps_rec {
    uint32_t reconv;
    uint32_t depth;                      /* the warp's call depth when it opened: applies only there
                                            (a recursive call reaches the same pcs) */
    emu_mask members;
};

/* One static warp's lanes. A lane is in exactly one of run, bar, wsync, ret, or
 * has exited (w->exited). */
struct steps_warp {
    uint32_t pc[EMU_WARP_SIZE];
    uint64_t since[EMU_WARP_SIZE];       /* CTA slot when the lane last issued (dwf time) */
    uint64_t last[EMU_WARP_SIZE];        /* the warp's issue count then (its aging) */
    uint8_t rs[EMU_WARP_SIZE][STEPS_RSTACK];   /* the lane's open divergences (rec indices), innermost last */
    uint8_t rdepth[EMU_WARP_SIZE];
    struct steps_rec rec[STEPS_RECS];
    uint64_t rec_used;                   /* bit i: rec[i] is open */
    emu_mask run;                        /* may issue (subject to the innermost call) */
    emu_mask bar, wsync, ret;            /* wait at a CTA barrier / a warp-synchronous instruction /
                                            the return of their call, for the rest of their warp */
    emu_mask sleeping;                   /* its: lanes that yielded (nanosleep, a poll), until `wake` */
    emu_mask favor;                      /* its: lanes that were starved, and keep the warp ... */
    uint32_t favor_left;                 /* ... for this many more slots */
    uint64_t wake;
    uint64_t issued;                     /* slots that issued lanes of this warp */
    bool bar_arrived;                    /* the warp arrived at a CTA barrier: bar lanes go on at release */
};

struct emu_steps {
    struct emu_cta *cta;
    const struct emu_simt_cfg *cfg;
    const struct emu_inst *code;         /* emu_program_steps */
    const uint32_t *prio;                /* emu_program_prio */
    struct steps_warp *sw;
    uint64_t slot;                       /* slots issued by the CTA */
    uint32_t rr;                         /* the current warp (dwf: pool), as warps take turns */
    uint32_t left;                       /* slots the current warp may still issue (of slice) */
    uint32_t slice;                      /* EMU_SLICE, or 1 (swi: warps alternate slot by slot) */
    emu_mask did;                        /* lanes the item being run issued (0: it only waits) */
    struct steps_pc *pool;               /* dwf: the pool's pcs (nwarps * 32 entries) */
    bool hold;                           /* lanes wait for their group at reconvergence points */
    struct emu_simt_stats st;
    /* Observed with a timeline (emu_obs_hooks): the warp leading the slots since t0. */
    bool tl_open;
    uint32_t tl_warp;
    uint64_t tl_t0, tl_n0;
};

/* dwf: one pc of a pool, with its threads. */
struct steps_pc { uint32_t pc, threads, depth, oldest_warp; uint64_t oldest; };

/* What one slot issues: groups of lanes, each of one static warp at one pc. */
struct steps_item { uint32_t warp, pc; emu_mask mask; };
struct steps_issue {
    unsigned n;
    struct steps_item it[EMU_WARP_SIZE];
};

/* Lanes of warp sw at pc. */
static inline emu_mask steps_lanes_at(const struct steps_warp *sw, uint32_t pc)
{
    emu_mask eq = 0;
    for (unsigned l = 0; l < EMU_WARP_SIZE; l++) eq |= (emu_mask)(sw->pc[l] == pc) << l;
    return eq;
}

/* Lanes of warp wi that may issue now: not done, not waiting at a CTA barrier, within
 * the innermost call of the warp, and (s->hold) not waiting at a reconvergence point
 * for lanes they diverged from. */
emu_mask steps_ready(struct emu_steps *s, uint32_t wi);
/* The groups of `ready` lanes of warp wi, by pc: returns their number (<= 32). */
unsigned steps_groups(const struct emu_steps *s, uint32_t wi, emu_mask ready, uint32_t *pcs, emu_mask *masks);
/* The group of lowest frontier priority among n groups: its index. */
unsigned steps_lowest(const struct emu_steps *s, const uint32_t *pcs, unsigned n);
/* The warp to issue from, as the PDOM dispatch loop takes them: the current one
 * until it stops (nothing ready, a yield) or has issued s->slice slots, then the
 * next with ready lanes; s->cta->nwarps when none has any. Same-CTA contention
 * (atomics, polling) then plays out as under PDOM, and slot counts compare. */
uint32_t steps_next_warp(struct emu_steps *s, emu_mask *out_ready);
/* The next warp's (steps_next_warp) groups by pc, and its number in *out_warp; counts the
 * frontier's depth. Returns 0 when no warp has a lane that may issue. */
unsigned steps_next_groups(struct emu_steps *s, uint32_t *out_warp, uint32_t *pcs, emu_mask *masks);
/* Whether the instruction at pc can share a slot with another group (no regrouping). */
static inline bool steps_pairable(const struct emu_steps *s, uint32_t pc) { return s->code[pc].skind == EMU_SK_NONE; }

/* The policies' pick functions: false when no lane of the CTA may issue. */
bool steps_pick_frontier(struct emu_steps *s, struct steps_issue *is);
bool steps_pick_its(struct emu_steps *s, struct steps_issue *is);
bool steps_pick_dwf(struct emu_steps *s, struct steps_issue *is);
bool steps_pick_interweave(struct emu_steps *s, struct steps_issue *is);

#endif
