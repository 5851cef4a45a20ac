/* emu_simt.h -- SIMT policies: how the threads of a CTA's warps are grouped to issue.
 *
 * The default, PDOM, is the reconvergence stack of emu/simt/pdom.c driven by the
 * dispatch loop of emu_exec.c: a warp's active lanes run as one until the immediate
 * post-dominator of the branch that split them (the lockstep capability), which is
 * what lets the decoder chain straight-line runs and uniform branches.
 *
 * Every other policy runs on the thread engine (emu/simt/steps.c): each lane has its
 * own pc, and each issue slot the policy picks which lanes issue together. Lanes
 * execute in their static warp's registers (a dynamic warp of DWF is several static
 * warps' groups at one pc, issued in one slot), so the handlers, scalar twins,
 * lane-affine addresses and per-lane local memory stay valid; only chained runs are
 * left out (the engine steps a copy of the program whose runs are cut,
 * emu_program_steps). What a policy decides is which groups issue, not what they
 * compute: results differ from PDOM only where a program depends on the order of
 * its threads (a lock contended within a warp).
 *
 * Warp-synchronous instructions (shfl, vote, match, redux, elect with .sync, and
 * bar.warp.sync) first regroup the threads of their static warp: the lanes their
 * member mask names wait for each other at the instruction, and issue as one group
 * of their own warp. CTA barriers and returns from a call likewise wait until every
 * live lane of the warp (of the call) has arrived. */
#ifndef LOOM_EMU_SIMT_H
#define LOOM_EMU_SIMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "emu/emu.h"

enum emu_simt_kind {
    EMU_SIMT_PDOM,       /* the immediate post-dominator stack (default) */
    EMU_SIMT_ITS,        /* independent thread scheduling (sm_70+) */
    EMU_SIMT_FRONTIER,   /* thread frontiers (Diamos et al., MICRO 2011) */
    EMU_SIMT_DWF,        /* dynamic warp formation (Fung et al., MICRO 2007) */
    /* The interleaving kinds come last (kind >= EMU_SIMT_SBI: a slot may pair two groups). */
    EMU_SIMT_SBI,        /* simultaneous branch interweaving (Brunie et al., ISCA 2012) */
    EMU_SIMT_SWI,        /* simultaneous warp interweaving */
    EMU_SIMT_SBI_SWI,    /* both */
    EMU_SIMT_COUNT_
};

/* DWF's issue heuristics: which pc of the warp pool issues next. */
enum emu_dwf_heur { EMU_DWF_MAJORITY, EMU_DWF_MINORITY, EMU_DWF_TIME, EMU_DWF_PC, EMU_DWF_PDOM_PRIORITY };

/* A policy and its options (emu_simt_parse). */
struct emu_simt_cfg {
    enum emu_simt_kind kind;
    enum emu_dwf_heur heur;  /* dwf: policy= */
    bool las;                /* dwf: lane-aware (a thread keeps its home lane) */
    bool swizzle;            /* dwf: home lanes of warp w are lane ^ (w % 32) */
    bool split;              /* dwf: a warp's threads at one pc may issue in different slots */
    uint32_t pool;           /* dwf: warps whose threads may merge (0 = the whole CTA) */
    uint32_t quantum;        /* its: slots a group may wait before it issues next; dwf: age */
    uint32_t trace;          /* print block (0,0,0)'s first `trace` slots on stderr (any but pdom) */
    char spec[96];           /* the canonical spelling, for reports */
};

/* Parses NAME[:KEY=VALUE,...] (NULL or "" is pdom). Returns false with a one-line
 * message in err that names what is wrong and lists what is valid. */
bool emu_simt_parse(const char *spec, struct emu_simt_cfg *out, char *err, size_t errsize);
/* "pdom, its, frontier, dwf, sbi, swi, sbi+swi". */
const char *emu_simt_names(void);

/* The timing-free issue model (per launch; the same fields for every policy).
 * A slot issues one instruction for a group of lanes; an interleaved pair
 * (SBI/SWI) and a dynamic warp of DWF count one slot. */
struct emu_simt_stats {
    uint64_t slots;                        /* issue slots */
    uint64_t lanes;                        /* active lanes summed over slots */
    uint64_t hist[EMU_WARP_SIZE + 1];      /* slots by active lanes (W1..W32) */
    uint64_t diverge;                      /* branches whose lanes went different ways */
    uint64_t reconverge;                   /* groups that merged again (PDOM: stack pops) */
    uint64_t max_depth;                    /* deepest PDOM stack / frontier / pool of pcs */
    uint64_t formed;                       /* dwf: dynamic warps with threads of several warps */
    uint64_t split;                        /* dwf: a warp's threads at one pc issued in several slots */
    uint64_t conflicts;                    /* dwf las=off: threads issued off their home lane */
    uint64_t coissued;                     /* sbi/swi: slots that issued a second group */
};
void emu_simt_stats_add(struct emu_simt_stats *to, const struct emu_simt_stats *from);

struct emu_cta;
struct emu_program;

/* ---- PDOM (pdom.c): the stack the dispatch loop and control handlers use ---- */
void emu_simt_diverge(struct emu_warp *w, emu_mask taken, uint32_t target, uint32_t reconv);
void emu_simt_diverge_n(struct emu_warp *w, const uint32_t *targets, const emu_mask *masks, unsigned n,
                        uint32_t reconv, bool merge);
bool emu_simt_push_call(struct emu_warp *w, uint32_t entry_pc, emu_mask mask);
void emu_simt_remove_lanes(struct emu_warp *w, emu_mask m, uint32_t from_depth);
int emu_simt_settle(struct emu_warp *w);
/* Makes the top entry current (pc, active mask); inline, for the dispatch loop's pops. */
static inline void emu_simt_load_top(struct emu_warp *w)
{
    if (w->sp) {
        w->pc = w->stack[w->sp - 1].pc;
        w->active = w->stack[w->sp - 1].mask;
    } else {
        w->active = 0;
    }
}
/* The warp's stack for a new CTA: one entry, every valid lane at pc, no reconvergence
 * point (emu_cta_create made room for this entry). */
static inline void emu_simt_begin(struct emu_warp *w, uint32_t pc)
{
    w->sp = 1;
    w->stack[0] = (struct emu_simt_entry){ .pc = pc, .reconv = EMU_RECONV_NONE, .mask = w->valid };
    w->pc = pc;
    w->active = w->valid;
}

/* ---- The thread engine (steps.c) ------------------------------------------------- */
/* Per-CTA state of a policy other than PDOM; created with the CTA context when the
 * launch names one (emu_launch.simt). */
struct emu_steps *emu_steps_create(struct emu_cta *cta);
void emu_steps_destroy(struct emu_steps *s);
void emu_steps_begin(struct emu_cta *cta);
/* Runs the CTA until every warp has exited, a fault stops it or `budget` slots
 * are spent: what emu_cta_run returns (enum emu_cta_state). */
int emu_steps_run(struct emu_cta *cta, uint64_t budget);
/* One line per warp: its groups of lanes, their lines and what they wait on. */
size_t emu_steps_describe(const struct emu_cta *cta, char *buf, size_t size);
/* The CTA's statistics since the last call (then cleared). */
void emu_steps_take_stats(struct emu_cta *cta, struct emu_simt_stats *to);

/* The copy of p's code the thread engine steps (runs cut), built on first use;
 * NULL when out of memory. Thread-safe. */
const struct emu_inst *emu_program_steps(struct emu_program *p);
/* Frontier priorities of p's pcs: the reverse postorder of each function's blocks
 * (back edges left out), then the pc; built with emu_program_steps. */
const uint32_t *emu_program_prio(const struct emu_program *p);

/* A CTA's SIMT statistics since the last call, for either engine (then cleared). */
void emu_cta_take_simt_stats(struct emu_cta *cta, struct emu_simt_stats *to);

#endif
