/* dwf.c -- dynamic warp formation (Fung, Sham, Yuan and Aamodt, MICRO 2007). The
 * threads of a pool of warps (the CTA's, or `pool` consecutive warps) that stand at
 * one pc may issue together as one dynamic warp of up to 32 threads. Each slot a
 * heuristic picks the pc:
 *   majority       the pc with the most threads
 *   minority       the pc with the fewest threads
 *   time           the pc whose threads have waited longest
 *   pc             the lowest pc
 *   pdom-priority  the pc of the threads nested in the most divergent branches
 *                  not yet reconverged from (so threads that are behind catch up)
 * ties going to the frontier order. Lane-aware scheduling (las=on, the default)
 * keeps each thread in its home lane, so a dynamic warp holds at most one thread
 * per lane and no register bank is read from another lane; with las=off any free
 * lane takes a thread, and each thread placed off its home lane is a lane conflict.
 * swizzle=on gives warp w's lane l the home lane l ^ (w % 32), so that the warps'
 * threads spread over lanes. split=off (the default) takes a warp's threads at
 * the pc whole or not at all, so that code relying on lockstep warps (warp-
 * synchronous programming without __syncwarp, as in CUDA before Volta) gives
 * PDOM's results; split=on breaks a warp's group to fill a dynamic warp, as the
 * paper's hardware does (emu_simt_stats.split counts it). Threads that have waited
 * `age` slots (default 1024) issue first, the oldest leading: no heuristic starves a
 * thread that others wait for (a warp polling for another, the one lane that copies
 * for its block). This guard is Loom's, not the paper's: it also lets a lock
 * contended within a warp complete; age=0 turns it off. Threads run in their static
 * warp's registers (steps.c); regrouping points (barriers, .sync warp instructions,
 * returns) issue one static warp's lanes. */
#include "config.h"

#include "emu/emu_lanes.h"
#include "emu/simt/steps.h"

/* Home lanes of the lanes in m of warp wi. */
static emu_mask homes(const struct emu_steps *s, uint32_t wi, emu_mask m)
{
    if (!s->cfg->swizzle || !(wi & 31u)) return m;
    emu_mask h = 0;
    for (emu_mask q = m; q; q &= q - 1) h |= 1u << ((unsigned)__builtin_ctz(q) ^ (wi & 31u));
    return h;
}

static bool better(const struct emu_steps *s, const struct steps_pc *a, const struct steps_pc *b)
{
    switch (s->cfg->heur) {
    case EMU_DWF_MAJORITY: if (a->threads != b->threads) return a->threads > b->threads; break;
    case EMU_DWF_MINORITY: if (a->threads != b->threads) return a->threads < b->threads; break;
    case EMU_DWF_TIME: if (a->oldest != b->oldest) return a->oldest < b->oldest; break;
    case EMU_DWF_PC: return a->pc < b->pc;
    case EMU_DWF_PDOM_PRIORITY:
        if (a->depth != b->depth) return a->depth > b->depth;
        if (a->threads != b->threads) return a->threads > b->threads;
        break;
    }
    return s->prio[a->pc] < s->prio[b->pc];
}

/* The pcs of pool [lo, hi) into s->pool: returns their number. */
static unsigned gather(struct emu_steps *s, uint32_t lo, uint32_t hi)
{
    struct steps_pc *pcs = s->pool;
    unsigned n = 0;
    for (uint32_t wi = lo; wi < hi; wi++) {
        emu_mask ready = steps_ready(s, wi);
        if (!ready) continue;
        const struct steps_warp *sw = &s->sw[wi];
        uint32_t gp[EMU_WARP_SIZE];
        emu_mask gm[EMU_WARP_SIZE];
        unsigned ng = steps_groups(s, wi, ready, gp, gm);
        for (unsigned g = 0; g < ng; g++) {
            unsigned k = 0;
            while (k < n && pcs[k].pc != gp[g]) k++;
            if (k == n) pcs[n++] = (struct steps_pc){ .pc = gp[g], .oldest = UINT64_MAX };
            struct steps_pc *e = &pcs[k];
            e->threads += emu_popc(gm[g]);
            for (emu_mask q = gm[g]; q; q &= q - 1) {
                unsigned l = (unsigned)__builtin_ctz(q);
                if (sw->since[l] < e->oldest) { e->oldest = sw->since[l]; e->oldest_warp = wi; }
                if (sw->rdepth[l] > e->depth) e->depth = sw->rdepth[l];
            }
        }
    }
    return n;
}

bool steps_pick_dwf(struct emu_steps *s, struct steps_issue *is)
{
    uint32_t nw = s->cta->nwarps, size = s->cfg->pool && s->cfg->pool < nw ? s->cfg->pool : nw;
    uint32_t npools = (nw + size - 1) / size;
    for (uint32_t t = 0; t < npools; t++) {
        uint32_t pool = (s->rr + t) % npools, lo = pool * size, hi = lo + size < nw ? lo + size : nw;
        unsigned n = gather(s, lo, hi);
        if (!n) continue;
        s->rr = (pool + 1) % npools;
        if (n > s->st.max_depth) s->st.max_depth = n;
        unsigned best = 0, oldest = 0;
        for (unsigned k = 1; k < n; k++) {
            if (better(s, &s->pool[k], &s->pool[best])) best = k;
            if (s->pool[k].oldest < s->pool[oldest].oldest) oldest = k;
        }
        uint32_t lead = lo;
        if (s->cfg->quantum && s->slot - s->pool[oldest].oldest > s->cfg->quantum) {
            best = oldest;                   /* threads that waited `age` slots go first */
            lead = s->pool[oldest].oldest_warp;
        }
        uint32_t pc = s->pool[best].pc;
        is->n = 0;
        if (!steps_pairable(s, pc)) {        /* regrouping: one static warp's lanes */
            for (uint32_t j = 0; j < hi - lo && !is->n; j++) {
                uint32_t wi = lo + (lead - lo + j) % (hi - lo);
                emu_mask m = steps_lanes_at(&s->sw[wi], pc) & steps_ready(s, wi);
                if (m) is->it[is->n++] = (struct steps_item){ .warp = wi, .pc = pc, .mask = m };
            }
            return is->n > 0;
        }
        emu_mask taken = 0;                  /* home lanes in use */
        unsigned count = 0;
        for (uint32_t j = 0; j < hi - lo && count < EMU_WARP_SIZE; j++) {
            uint32_t wi = lo + (lead - lo + j) % (hi - lo);
            emu_mask m = steps_lanes_at(&s->sw[wi], pc) & steps_ready(s, wi), take = 0;
            if (!m) continue;
            if (!s->cfg->split) {            /* the warp's group whole, or in a later slot */
                emu_mask h = homes(s, wi, m);
                if (s->cfg->las ? (taken & h) != 0 : count + emu_popc(m) > EMU_WARP_SIZE) continue;
                if (!s->cfg->las) s->st.conflicts += emu_popc(taken & h);
                take = m;
                taken |= h;
                count += emu_popc(m);
            } else {
                for (emu_mask q = m; q && count < EMU_WARP_SIZE; q &= q - 1) {
                    emu_mask l = q & -q, h = homes(s, wi, l);
                    if (s->cfg->las && (taken & h)) continue;   /* its lane is taken: a later slot */
                    if (taken & h) s->st.conflicts++;           /* placed in another free lane */
                    take |= l;
                    taken |= h;
                    count++;
                }
            }
            if (!take) continue;
            if (take != m) s->st.split++;
            is->it[is->n++] = (struct steps_item){ .warp = wi, .pc = pc, .mask = take };
        }
        if (is->n > 1) s->st.formed++;
        return is->n > 0;
    }
    return false;
}
