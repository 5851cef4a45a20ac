/* frontier.c -- thread frontiers (Diamos et al., MICRO 2011). Each warp issues the
 * lanes whose pc comes first in a priority order of the function's blocks (reverse
 * postorder of the CFG, emu_program_prio); lanes that reach a pc where others wait
 * join them there. So lanes reconverge at the earliest point where their paths
 * meet, also in unstructured control flow (short-circuit conditions, goto, loops
 * with several exits), where PDOM waits for the immediate post-dominator. Warps
 * take slots in turn. The frontier's size (the warp's groups) is its depth. */
#include "config.h"

#include "emu/simt/steps.h"

bool steps_pick_frontier(struct emu_steps *s, struct steps_issue *is)
{
    uint32_t wi, pcs[EMU_WARP_SIZE];
    emu_mask masks[EMU_WARP_SIZE];
    unsigned n = steps_next_groups(s, &wi, pcs, masks);
    if (!n) return false;
    unsigned k = steps_lowest(s, pcs, n);
    is->it[0] = (struct steps_item){ .warp = wi, .pc = pcs[k], .mask = masks[k] };
    is->n = 1;
    return true;
}
