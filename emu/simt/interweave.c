/* interweave.c -- simultaneous branch and warp interweaving (Brunie, Collange and
 * Diamos, ISCA 2012), on thread frontiers (frontier.c). A slot issues a warp's
 * first group in the frontier order and, in the same slot, a second group:
 *   sbi     the next group of the same warp (the other path of a branch; the lanes
 *           of one warp's groups never overlap);
 *   swi     a group of another warp whose lanes do not overlap the first's (the first
 *           such in that warp's frontier order; its other lanes wait at reconvergence
 *           points as ever, so the warp does not run ahead of itself);
 *   sbi+swi the same warp's when it has a second group, else another warp's.
 * Only instructions that need no regrouping pair (steps_pairable); an interleaved
 * pair counts one slot (emu_simt_stats.coissued counts them). */
#include "config.h"

#include "emu/simt/steps.h"

bool steps_pick_interweave(struct emu_steps *s, struct steps_issue *is)
{
    uint32_t wi, nw = s->cta->nwarps, pcs[EMU_WARP_SIZE];
    emu_mask masks[EMU_WARP_SIZE];
    unsigned n = steps_next_groups(s, &wi, pcs, masks);
    if (!n) return false;
    unsigned k = steps_lowest(s, pcs, n);
    is->it[0] = (struct steps_item){ .warp = wi, .pc = pcs[k], .mask = masks[k] };
    is->n = 1;
    if (!steps_pairable(s, pcs[k])) return true;
    enum emu_simt_kind kind = s->cfg->kind;
    if (kind != EMU_SIMT_SWI && n > 1) {     /* the same warp's next group */
        pcs[k] = pcs[n - 1];
        masks[k] = masks[n - 1];
        unsigned j = steps_lowest(s, pcs, n - 1);
        if (steps_pairable(s, pcs[j])) {
            is->it[1] = (struct steps_item){ .warp = wi, .pc = pcs[j], .mask = masks[j] };
            is->n = 2;
            return true;
        }
    }
    if (kind == EMU_SIMT_SBI) return true;
    for (uint32_t d = 1; d < nw; d++) {      /* another warp's first group, on other lanes */
        uint32_t oi = (wi + d) % nw;
        emu_mask r = steps_ready(s, oi);
        if (!r || (r & is->it[0].mask) == r) continue;
        uint32_t opcs[EMU_WARP_SIZE];
        emu_mask om[EMU_WARP_SIZE];
        unsigned on = steps_groups(s, oi, r, opcs, om);
        /* Its groups in the frontier order: the first on lanes of its own. */
        while (on) {
            unsigned j = steps_lowest(s, opcs, on);
            if (!(om[j] & is->it[0].mask) && steps_pairable(s, opcs[j])) {
                is->it[1] = (struct steps_item){ .warp = oi, .pc = opcs[j], .mask = om[j] };
                is->n = 2;
                return true;
            }
            opcs[j] = opcs[on - 1];
            om[j] = om[--on];
        }
    }
    return true;
}
