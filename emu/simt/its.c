/* its.c -- independent thread scheduling, as sm_70 and later GPUs do it. Every
 * thread has its own pc; lanes at one pc issue together, and a warp issues the
 * group that comes first in the frontier order (so structured code converges where
 * the compiler's reconvergence barriers would put it), except that a group which
 * has not issued for `quantum` of its warp's slots goes first and keeps the warp
 * for up to a quantum (until it yields): a lane holding a lock that its warp's other
 * lanes spin on runs its critical section and releases it (forward progress).
 * A group that yields (nanosleep, a poll that found nothing) sleeps for a quantum
 * while its warp has other groups. Convergence is otherwise only where the program
 * asks for it: .sync warp instructions, bar.warp.sync, barriers (steps.c). */
#include "config.h"

#include "emu/simt/steps.h"

bool steps_pick_its(struct emu_steps *s, struct steps_issue *is)
{
    emu_mask ready;
    uint32_t wi = steps_next_warp(s, &ready);
    if (wi >= s->cta->nwarps) return false;
    struct steps_warp *sw = &s->sw[wi];
    if (sw->sleeping && sw->issued >= sw->wake) sw->sleeping = 0;
    if (ready & ~sw->sleeping) ready &= ~sw->sleeping;
    /* Lanes that were starved keep the warp for a quantum (or until they yield). */
    if (sw->favor_left && (ready & sw->favor & ~sw->sleeping)) {
        sw->favor_left--;
        ready &= sw->favor;
    } else {
        sw->favor_left = 0;
    }
    uint32_t pcs[EMU_WARP_SIZE];
    emu_mask masks[EMU_WARP_SIZE];
    unsigned n = steps_groups(s, wi, ready, pcs, masks);
    if (n > s->st.max_depth) s->st.max_depth = n;
    unsigned k = steps_lowest(s, pcs, n);
    /* The group that has waited longest, when it has waited a quantum. */
    uint64_t quantum = s->cfg->quantum, oldest = UINT64_MAX;
    unsigned starved = n;
    for (unsigned g = 0; g < n; g++) {
        uint64_t last = UINT64_MAX;
        for (emu_mask q = masks[g]; q; q &= q - 1) {
            uint64_t t = sw->last[__builtin_ctz(q)];
            if (t < last) last = t;
        }
        if (sw->issued - last > quantum && last < oldest) { oldest = last; starved = g; }
    }
    if (starved < n && !sw->favor_left) {
        k = starved;
        sw->favor = masks[k];
        sw->favor_left = (uint32_t)(quantum ? quantum : 1);
    }
    is->it[0] = (struct steps_item){ .warp = wi, .pc = pcs[k], .mask = masks[k] };
    is->n = 1;
    return true;
}
