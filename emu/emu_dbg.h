/* emu_dbg.h -- the debugged dispatch's hook (the debugger itself: debug/debug.c).
 * A launch with emu_launch.dbg set counts every issue (its tick) and calls the debugger
 * before each instruction at a marked pc, or before every one while the debugger asks for
 * every issue (stepping, a pause, a replay); the debugger may stop the launch there (the
 * worker waits inside the call). Between marked pcs the debugger's copy of the code runs
 * chained runs whole (no chaining on past branches; barriers issue alone, so no hand-over:
 * each run comes back to the dispatch loop); a run that the warp's slice cannot hold issues one
 * instruction at a time, so that slices end where the step copy's would. Without dbg
 * nothing here runs. */
#ifndef LOOM_EMU_DBG_H
#define LOOM_EMU_DBG_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "emu/emu.h"

/* emu_dbg.at[pc] bits. */
#define EMU_DBG_AT_BREAK 1u      /* a breakpoint's place */
#define EMU_DBG_AT_STORE 2u      /* a store or atomic while a watchpoint exists */
#define EMU_DBG_AT_ASSERT 8u     /* a call of __assertfail: a failed assert stops right after it */
#define EMU_DBG_AT_BRKPT 16u     /* PTX brkpt: a breakpoint written in the kernel */
#define EMU_DBG_AT_ALONE 4u      /* a barrier: issued alone from the step copy, whose runs are all
                                  * empty, so that its release never hands over to another warp's
                                  * run (emu_ctrl.c's bar_hand_over), which the loop would not count */

struct emu_dbg {
    const uint8_t *at;           /* [ncode of the launch's program]: EMU_DBG_AT_* */
    const struct emu_inst *code; /* the program's code with its chained runs cut before every marked
                                  * pc: unmarked runs run chained (counted whole), marked pcs and
                                  * everything while `every` is set issue alone from the step copy */
    _Atomic bool every;          /* call issue() at every issue (stepping, pause, replays) */
    uint64_t tick;               /* issues so far in this launch (the one being issued included) */
    bool after;                  /* issue() asked for after() once the handler has run */
    /* Returns EMU_CONTINUE, or EMU_STOP_FAULT with cta->fault set to end the CTA. */
    int (*issue)(struct emu_dbg *g, struct emu_warp *w, uint32_t pc, emu_mask active, emu_mask m);
    int (*after_fn)(struct emu_dbg *g, struct emu_warp *w, uint32_t pc);
};

/* Before warp w issues pc with `active` lanes, m of them guard-true. */
static inline int emu_dbg_issue(struct emu_warp *w, uint32_t pc, emu_mask active, emu_mask m)
{
    struct emu_dbg *g = w->cta->launch->dbg;
    g->tick++;
    if (__builtin_expect(g->at[pc] != 0 || atomic_load_explicit(&g->every, memory_order_relaxed), 0))
        return g->issue(g, w, pc, active, m);
    return EMU_CONTINUE;
}

/* After the handler of that issue ran (rc: what it returned). */
static inline int emu_dbg_after(struct emu_warp *w, uint32_t pc, int rc)
{
    struct emu_dbg *g = w->cta->launch->dbg;
    if (__builtin_expect(g->after, 0)) {
        g->after = false;
        int r = g->after_fn(g, w, pc);
        if (r != EMU_CONTINUE) return r;
    }
    return rc;
}

#endif
