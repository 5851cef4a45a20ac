/* pdom.c -- the PDOM policy: the immediate post-dominator reconvergence stack.
 * A branch whose lanes split pushes an entry for each path above an entry that
 * waits at the branch's reconvergence point (its block's immediate
 * post-dominator); the dispatch loop (emu_exec.c's warp_run) pops the top entry
 * when its pc reaches that point, and the control handlers (emu_ctrl.c, through
 * emu_lanes.h's branch helpers) push. Calls run the callee in an entry of its
 * own. This is the default policy and the only one with the lockstep capability
 * that chained runs rely on (emu_simt.h). */
#include "config.h"

#include <stdlib.h>

#include "emu/emu_exec.h"
#include "emu/emu_lanes.h"

static bool simt_push(struct emu_warp *w, uint32_t pc, uint32_t reconv, emu_mask mask)
{
    if (w->sp == w->stack_cap) {
        uint32_t ncap = w->stack_cap ? 2 * w->stack_cap : 16;
        struct emu_simt_entry *ns = realloc(w->stack, ncap * sizeof *ns);
        if (!ns) return false;
        w->stack = ns;
        w->stack_cap = ncap;
    }
    w->stack[w->sp++] = (struct emu_simt_entry){ .pc = pc, .reconv = reconv, .mask = mask };
    if (w->sp > w->max_sp) w->max_sp = w->sp;
    return true;
}

/* Pushes a divergent path, or merges it into a sibling path that already
 * waits at the same pc for the same reconvergence point: lanes that reach one
 * block along different branches (the else of `if (a && b)`) then run it
 * together, as they would on a GPU, and warp-synchronous instructions there
 * see all of them. Siblings are the entries above the region's own entry,
 * which all share its reconvergence pc. */
static bool simt_push_path(struct emu_warp *w, uint32_t pc, uint32_t reconv, emu_mask mask)
{
    for (uint32_t i = w->sp; i-- > 0 && w->stack[i].reconv == reconv;) {
        if (w->stack[i].pc == pc) {
            w->stack[i].mask |= mask;
            return true;
        }
    }
    return simt_push(w, pc, reconv, mask);
}

void emu_simt_remove_lanes(struct emu_warp *w, emu_mask m, uint32_t from_depth)
{
    w->cta->live_stale = true;           /* lanes may have exited (h_exit) */
    for (uint32_t i = from_depth; i < w->sp; i++)
        w->stack[i].mask &= ~m;
    w->active &= ~m;
}

/* Pops entries whose lanes are all gone; returns EMU_STOP_EXIT when none remain. */
int emu_simt_settle(struct emu_warp *w)
{
    bool popped = false;
    while (w->sp && w->stack[w->sp - 1].mask == 0) {
        w->sp--;
        popped = true;
    }
    if (!w->sp) { w->active = 0; return EMU_STOP_EXIT; }
    if (popped) emu_simt_load_top(w);
    return EMU_CONTINUE;
}

/* A branch whose lanes split: `taken` go to target, the rest fall through.
 * Both reconverge at `reconv` (the immediate post-dominator). An entry whose
 * pc already is the reconvergence point is not pushed: its lanes wait in the
 * entry below, whose pc is that point. */
void emu_simt_diverge(struct emu_warp *w, emu_mask taken, uint32_t target, uint32_t reconv)
{
    emu_mask rest = w->active & ~taken;
    uint32_t fall = w->pc;
    struct emu_simt_entry *top = &w->stack[w->sp - 1];
    if (top->reconv == reconv && w->sp > 1) {
        w->sp--;                      /* the entry below already waits at reconv */
    } else {
        top->pc = reconv;
        top->mask = w->active;
    }
    /* The path with the lower pc runs first (it is pushed last): paths of
     * structured code then meet at shared blocks before either runs them. */
    if (target < fall) {
        if (fall != reconv) simt_push_path(w, fall, reconv, rest);
        if (target != reconv) simt_push_path(w, target, reconv, taken);
    } else {
        if (target != reconv) simt_push_path(w, target, reconv, taken);
        if (fall != reconv) simt_push_path(w, fall, reconv, rest);
    }
    w->n_diverge++;
    emu_simt_load_top(w);
}

/* Multi-way divergence: lanes grouped by target (brx.idx), or groups that
 * re-execute one instruction each (indirect calls; merge = false keeps them apart). */
void emu_simt_diverge_n(struct emu_warp *w, const uint32_t *targets, const emu_mask *masks, unsigned n,
                        uint32_t reconv, bool merge)
{
    struct emu_simt_entry *top = &w->stack[w->sp - 1];
    if (top->reconv == reconv && w->sp > 1) {
        w->sp--;
    } else {
        top->pc = reconv;
        top->mask = w->active;
    }
    /* Highest pc first, so the lowest runs first (see emu_simt_diverge). */
    bool pushed[EMU_WARP_SIZE + 1] = { false };
    for (unsigned k = 0; k < n; k++) {
        unsigned best = n;
        for (unsigned i = 0; i < n; i++)
            if (!pushed[i] && (best == n || targets[i] > targets[best])) best = i;
        pushed[best] = true;
        if (!masks[best] || targets[best] == reconv) continue;
        if (merge) simt_push_path(w, targets[best], reconv, masks[best]);
        else simt_push(w, targets[best], reconv, masks[best]);
    }
    w->n_diverge++;
    emu_simt_load_top(w);
}


/* A call: the caller's entry resumes at the return address once every lane
 * of the callee has returned; the callee runs in an entry of its own. */
bool emu_simt_push_call(struct emu_warp *w, uint32_t entry_pc, emu_mask mask)
{
    w->stack[w->sp - 1].pc = w->pc;
    w->stack[w->sp - 1].mask = w->active;
    if (!simt_push(w, entry_pc, EMU_RECONV_NONE, mask)) return false;
    emu_simt_load_top(w);
    return true;
}
