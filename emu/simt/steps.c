/* steps.c -- the thread engine of the SIMT policies other than PDOM (emu_simt.h).
 * Every lane has its own pc; each slot the policy picks groups of lanes
 * (steps_issue), and each group runs one instruction with the handlers the
 * decoder chose, in its static warp, on a one-entry PDOM stack that the engine
 * reads back afterwards: where each lane went (a branch's paths, a call's
 * callee), which exited. The engine itself does what must wait for a whole
 * group: CTA barriers, .sync warp instructions, bar.warp.sync and returns. */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu_check.h"
#include "emu/emu_lanes.h"
#include "emu/emu_dbg.h"
#include "emu/emu_obs.h"
#include "emu/simt/steps.h"
#include "include/loom/loom.h"
#include "ptx/ptx_demangle.h"

/* ---- The program's step copy and frontier priorities ------------------------------ */

static pthread_mutex_t steps_lock = PTHREAD_MUTEX_INITIALIZER;

static int cmp_key(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* prio[pc] for the pcs of function f: its blocks in reverse postorder from the entry
 * (a depth-first walk; back edges lead to blocks already seen, so a loop's body
 * comes after its header and before its exit), pcs of one block in order. */
static bool func_prio(const struct emu_program *p, const struct emu_func *f, uint32_t *prio)
{
    const struct ptx_func *fn = f->ir;
    uint32_t n = f->end_pc - f->entry_pc;
    if (!n) return true;
    uint32_t nb = fn && fn->blocks ? fn->nblocks : 0;
    uint32_t *rank = calloc(nb + 1, sizeof *rank), *stack = calloc(2 * (nb + 1), sizeof *stack);
    uint8_t *seen = calloc(nb + 1, 1);
    uint64_t *key = calloc(n, sizeof *key);
    bool ok = rank && stack && seen && key;
    if (ok && nb) {
        /* Iterative postorder: (block, next successor) pairs. */
        uint32_t sp = 0, post = 0;
        stack[sp++] = 0; stack[sp++] = 0; seen[0] = 1;
        while (sp) {
            uint32_t b = stack[sp - 2], k = stack[sp - 1];
            const struct ptx_block *blk = &fn->blocks[b];
            if (k < blk->nsucc) {
                stack[sp - 1] = k + 1;
                uint32_t t = k < 2 ? blk->succ[k] : blk->succ_ext[k - 2];
                if (t < nb && !seen[t]) { seen[t] = 1; stack[sp++] = t; stack[sp++] = 0; }
            } else {
                rank[b] = post++;
                sp -= 2;
            }
        }
        for (uint32_t b = 0; b < nb; b++)          /* unreachable blocks after the rest */
            rank[b] = seen[b] ? post - 1 - rank[b] : post + b;
    }
    if (ok) {
        uint64_t last = 0;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t pc = f->entry_pc + i;
            const struct ptx_instr *ir = p->locs[pc].ir;
            uint64_t r = last;
            if (ir && nb && fn->block_of && ir >= fn->instrs && ir < fn->instrs + fn->ninstrs)
                r = rank[fn->block_of[ir - fn->instrs]];
            last = r;
            key[i] = r << 32 | pc;
        }
        qsort(key, n, sizeof *key, cmp_key);
        for (uint32_t i = 0; i < n; i++) prio[(uint32_t)key[i]] = f->entry_pc + i;
    }
    free(rank); free(stack); free(seen); free(key);
    return ok;
}

const struct emu_inst *emu_program_steps(struct emu_program *p)
{
    pthread_mutex_lock(&steps_lock);
    if (!p->steps) {
        struct emu_inst *c = malloc((size_t)(p->ncode ? p->ncode : 1) * sizeof *c);
        uint32_t *prio = malloc((size_t)(p->ncode ? p->ncode : 1) * sizeof *prio);
        bool ok = c && prio;
        if (ok) {
            memcpy(c, p->code, (size_t)p->ncode * sizeof *c);
            for (uint32_t pc = 0; pc < p->ncode; pc++) {
                c[pc].run = 0;           /* one instruction at a time */
                c[pc].cont = 0;
                c[pc].aux_owned = 0;     /* (the program's code owns aux) */
                prio[pc] = pc;
            }
            for (uint32_t f = 0; ok && f < p->nfuncs; f++) ok = func_prio(p, &p->funcs[f], prio);
        }
        if (ok) { p->steps = c; p->prio = prio; }
        else { free(c); free(prio); }
    }
    pthread_mutex_unlock(&steps_lock);
    return p->steps;
}

const uint32_t *emu_program_prio(const struct emu_program *p) { return p->prio; }

/* ---- Per-CTA state --------------------------------------------------------------- */

struct emu_steps *emu_steps_create(struct emu_cta *cta)
{
    const struct emu_launch *L = cta->launch;
    struct emu_program *p = (struct emu_program *)L->prog;
    if (!emu_program_steps(p)) return NULL;
    struct emu_steps *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->sw = calloc(cta->nwarps ? cta->nwarps : 1, sizeof *s->sw);
    if (L->simt->kind == EMU_SIMT_DWF) s->pool = calloc((size_t)cta->nwarps * EMU_WARP_SIZE + 1, sizeof *s->pool);
    if (!s->sw || (L->simt->kind == EMU_SIMT_DWF && !s->pool)) { emu_steps_destroy(s); return NULL; }
    s->cta = cta;
    s->cfg = L->simt;
    s->hold = L->simt->kind != EMU_SIMT_ITS;
    /* Warps take turns as under PDOM (a slice each), but for warp interweaving, which
     * pairs warps that stand in divergent code at the same time: a slot each, as a GPU's
     * issue unit takes them. */
    s->slice = L->simt->kind == EMU_SIMT_SWI || L->simt->kind == EMU_SIMT_SBI_SWI ? 1 : EMU_SLICE;
    s->code = p->steps;
    s->prio = p->prio;
    return s;
}

void emu_steps_destroy(struct emu_steps *s)
{
    if (!s) return;
    free(s->sw);
    free(s->pool);
    free(s);
}

void emu_steps_begin(struct emu_cta *cta)
{
    struct emu_steps *s = cta->steps;
    uint32_t entry = cta->launch->entry->entry_pc;
    s->slot = 0;
    s->rr = cta->nwarps - 1;                 /* (so that warp 0 goes first, as under PDOM) */
    s->left = 0;
    for (uint32_t i = 0; i < cta->nwarps; i++) {
        struct steps_warp *sw = &s->sw[i];
        memset(sw, 0, sizeof *sw);
        for (unsigned l = 0; l < EMU_WARP_SIZE; l++) sw->pc[l] = entry;
        sw->run = cta->warps[i].valid;
    }
}

void emu_simt_stats_add(struct emu_simt_stats *to, const struct emu_simt_stats *from)
{
    to->slots += from->slots;
    to->lanes += from->lanes;
    for (unsigned k = 0; k <= EMU_WARP_SIZE; k++) to->hist[k] += from->hist[k];
    to->diverge += from->diverge;
    to->reconverge += from->reconverge;
    if (from->max_depth > to->max_depth) to->max_depth = from->max_depth;
    to->formed += from->formed;
    to->split += from->split;
    to->conflicts += from->conflicts;
    to->coissued += from->coissued;
}

void emu_steps_take_stats(struct emu_cta *cta, struct emu_simt_stats *to)
{
    struct emu_steps *s = cta->steps;
    emu_simt_stats_add(to, &s->st);
    memset(&s->st, 0, sizeof s->st);
}

void emu_cta_take_simt_stats(struct emu_cta *cta, struct emu_simt_stats *to)
{
    if (cta->steps) { emu_steps_take_stats(cta, to); return; }
    for (uint32_t i = 0; i < cta->nwarps; i++) {   /* (PDOM: the dispatch loop's counters) */
        struct emu_warp *w = &cta->warps[i];
        to->slots += w->n_inst;
        to->lanes += w->n_thread_inst;
        to->diverge += w->n_diverge;
        to->reconverge += w->n_reconv;
        if (w->max_sp > to->max_depth) to->max_depth = w->max_sp;
        for (uint64_t u = w->hist_used; u; u &= u - 1) {
            unsigned k = (unsigned)__builtin_ctzll(u);
            to->hist[k] += w->lane_hist[k];
            w->lane_hist[k] = 0;
        }
        w->hist_used = 0;
        w->n_reconv = 0;
        w->max_sp = 0;
    }
}

/* ---- What may issue ------------------------------------------------------------------ */

/* Lanes at the reconvergence point of their innermost open divergence whose other
 * lanes have not all arrived there. A divergence whose lanes have all arrived (or
 * exited) closes, and its lanes look at the next one out. */
static emu_mask held(struct steps_warp *sw, const struct emu_warp *w)
{
    emu_mask exited = w->exited;
    emu_mask hold = 0;
    for (bool again = true; again;) {
        again = false;
        hold = 0;
        for (uint64_t u = sw->rec_used; u; u &= u - 1) {
            unsigned r = (unsigned)__builtin_ctzll(u);
            const struct steps_rec *rc = &sw->rec[r];
            if (rc->depth != w->nframes) continue;
            emu_mask live = rc->members & ~exited, at = 0;
            for (emu_mask q = live; q; q &= q - 1) {
                unsigned l = (unsigned)__builtin_ctz(q);
                if (sw->pc[l] == rc->reconv && sw->rdepth[l] && sw->rs[l][sw->rdepth[l] - 1] == r) at |= 1u << l;
            }
            if (at && at == live) {          /* all there: the divergence closes */
                for (emu_mask q = live; q; q &= q - 1) sw->rdepth[__builtin_ctz(q)]--;
                sw->rec_used &= ~(1ull << r);
                again = true;
            } else if (!live) {
                sw->rec_used &= ~(1ull << r);
            } else {
                hold |= at;
            }
        }
    }
    return hold;
}

emu_mask steps_ready(struct emu_steps *s, uint32_t wi)
{
    struct emu_cta *cta = s->cta;
    struct emu_warp *w = &cta->warps[wi];
    if (w->done || !(cta->runnable >> wi & 1u)) return 0;
    struct steps_warp *sw = &s->sw[wi];
    if (sw->bar_arrived) {                  /* released: the barrier's lanes go on */
        sw->bar_arrived = false;
        sw->run |= sw->bar;
        sw->bar = 0;
        w->wait.kind = EMU_WAIT_NONE;
    }
    emu_mask r = sw->run;
    if (w->nframes) r &= w->frames[w->nframes - 1].mask;
    if (sw->rec_used && s->hold) r &= ~held(sw, w);
    return r;
}

unsigned steps_groups(const struct emu_steps *s, uint32_t wi, emu_mask ready, uint32_t *pcs, emu_mask *masks)
{
    const struct steps_warp *sw = &s->sw[wi];
    unsigned n = 0;
    while (ready) {
        uint32_t pc = sw->pc[__builtin_ctz(ready)];
        emu_mask g = steps_lanes_at(sw, pc) & ready;
        pcs[n] = pc;
        masks[n++] = g;
        ready &= ~g;
    }
    return n;
}

unsigned steps_lowest(const struct emu_steps *s, const uint32_t *pcs, unsigned n)
{
    unsigned best = 0;
    for (unsigned k = 1; k < n; k++)
        if (s->prio[pcs[k]] < s->prio[pcs[best]]) best = k;
    return best;
}

uint32_t steps_next_warp(struct emu_steps *s, emu_mask *out_ready)
{
    uint32_t nw = s->cta->nwarps;
    if (s->left) {                           /* the current warp, while its slice lasts */
        emu_mask r = steps_ready(s, s->rr);
        if (r) {
            s->left--;
            *out_ready = r;
            return s->rr;
        }
    }
    for (uint32_t k = 1; k <= nw; k++) {
        uint32_t wi = (s->rr + k) % nw;
        emu_mask r = steps_ready(s, wi);
        if (r) {
            s->rr = wi;
            s->left = s->slice - 1;
            *out_ready = r;
            return wi;
        }
    }
    return nw;
}

unsigned steps_next_groups(struct emu_steps *s, uint32_t *out_warp, uint32_t *pcs, emu_mask *masks)
{
    emu_mask ready;
    *out_warp = steps_next_warp(s, &ready);
    if (*out_warp >= s->cta->nwarps) return 0;
    unsigned n = steps_groups(s, *out_warp, ready, pcs, masks);
    if (n > s->st.max_depth) s->st.max_depth = n;
    return n;
}

/* ---- Running one group -------------------------------------------------------------- */

/* Lanes of m whose guard holds. */
static emu_mask guarded(const struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    if (in->guard == EMU_NOGUARD) return m;
    emu_mask p = w->pred[in->guard];
    return m & (in->guard_neg ? ~p : p);
}

/* The warp's one-entry stack for a group at pc (what the handlers see). */
static void setup(struct emu_steps *s, struct emu_warp *w, uint32_t pc, emu_mask g)
{
    s->did = g;
    w->sp = 1;
    w->stack[0] = (struct emu_simt_entry){ .pc = pc, .reconv = EMU_RECONV_NONE, .mask = g };
    w->active = g;
    w->pc = pc + 1;
    w->chain_left = 0;                      /* (a uniform branch never chains on) */
    w->n_inst++;
    if (w->cta->obs_pc) emu_obs_issue(w, pc, g, guarded(w, &s->code[pc], g));   /* (emu_obs.h) */
}

/* Lane l's pc once a handler has run: the current path's when it is active, else
 * the topmost stack entry that holds it (a branch's other path, or the entry that
 * waits at the reconvergence point, whose pc is that point). */
static uint32_t lane_pc(const struct emu_warp *w, unsigned l)
{
    if (w->active >> l & 1u) return w->pc;
    for (uint32_t i = w->sp; i-- > 0;)
        if (w->stack[i].mask >> l & 1u) return w->stack[i].pc;
    return w->pc;
}

/* Lanes of g go to pc. */
static void place(struct steps_warp *sw, emu_mask g, uint32_t pc)
{
    for (emu_mask k = g; k; k &= k - 1) sw->pc[__builtin_ctz(k)] = pc;
}

/* Lanes g split at a branch that reconverges at pc reconv: a divergence to wait for. */
static void open_divergence(struct steps_warp *sw, emu_mask g, uint32_t reconv, uint32_t depth)
{
    if (sw->rec_used == ~0ull) return;       /* (too many open: these lanes do not wait) */
    unsigned r = (unsigned)__builtin_ctzll(~sw->rec_used);
    emu_mask members = 0;
    for (emu_mask q = g; q; q &= q - 1) {
        unsigned l = (unsigned)__builtin_ctz(q);
        if (sw->rdepth[l] < STEPS_RSTACK) {
            sw->rs[l][sw->rdepth[l]++] = (uint8_t)r;
            members |= 1u << l;
        }
    }
    if (!members) return;
    sw->rec[r] = (struct steps_rec){ .reconv = reconv, .depth = depth, .members = members };
    sw->rec_used |= 1ull << r;
}

/* A warp all of whose lanes have exited: what warp_run's stop does (emu_exec.c). */
static void finish_warp(struct emu_steps *s, struct emu_warp *w)
{
    struct emu_cta *cta = s->cta;
    if (cta->obs_pc) emu_obs_event(w, "exit", w->pc ? w->pc - 1 : 0, 0);
    w->done = true;
    w->active = 0;
    cta->runnable &= ~(1u << w->id);
    cta->nexited_warps++;
    cta->live_stale = true;
    if (cta->bars_pending) emu_barriers_try_release(cta);
}

/* After group g ran: each lane's new pc, exits, merges with lanes already there. */
static void read_back(struct emu_steps *s, struct emu_warp *w, struct steps_warp *sw, const struct emu_inst *in,
                      emu_mask g)
{
    emu_mask gone = g & w->exited;
    sw->run &= ~gone;
    g &= ~gone;
    if (!g) return;
    uint32_t first = UINT32_MAX;
    bool split = false;
    if (w->sp == 1 && w->active == g) {
        place(sw, g, w->pc);
        first = w->pc;
    } else {
        for (emu_mask k = g; k; k &= k - 1) {
            unsigned l = (unsigned)__builtin_ctz(k);
            uint32_t pc = lane_pc(w, l);
            if (first == UINT32_MAX) first = pc;
            else if (pc != first) split = true;
            sw->pc[l] = pc;
        }
    }
    if (split) {
        s->st.diverge++;
        if (w->cta->obs_pc)                 /* (the lanes that go on with the first lane) */
            emu_obs_event(w, "diverge", in->src, steps_lanes_at(sw, sw->pc[__builtin_ctz(g)]) & g);
        if ((in->br || in->aux_targets) && in->reconv < s->cta->launch->prog->ncode)
            open_divergence(sw, g, in->reconv, w->nframes);
    } else if (steps_lanes_at(sw, first) & sw->run & ~g) {
        s->st.reconverge++;                 /* the group joins lanes that wait there */
        if (w->cta->obs_pc) emu_obs_event(w, "reconverge", first, steps_lanes_at(sw, first) & sw->run);
    }
}

/* Calls whose every lane has exited leave nothing to return to: the warp's other
 * lanes go on outside them. */
static void drop_dead_frames(struct emu_warp *w)
{
    while (w->nframes && !(w->frames[w->nframes - 1].mask & ~w->exited)) {
        w->local_sp = w->frames[w->nframes - 1].local_sp;
        w->nframes--;
    }
}

/* The lanes of g run the instruction at pc with the decoder's handler. */
static int run_group(struct emu_steps *s, struct emu_warp *w, struct steps_warp *sw, uint32_t pc, emu_mask g,
                     emu_mask m)
{
    const struct emu_inst *in = &s->code[pc];
    setup(s, w, pc, g);
    uint64_t n1 = w->n_inst, d1 = s->st.diverge;
    int rc = EMU_CONTINUE;
    if (w->cta->launch->dbg && (rc = emu_dbg_issue(w, pc, g, m)) != EMU_CONTINUE) {   /* (emu_dbg.h) */
        if (w->cta->fault) w->pc = w->cta->fault->pc + 1;
        return rc;
    }
    if (m || in->flow) rc = m ? in->fn(w, in, m) : EMU_CONTINUE;
    if (w->cta->launch->dbg) {
        if (rc != EMU_STOP_FAULT) rc = emu_dbg_after(w, pc, rc);
        else w->cta->launch->dbg->after = false;
    }
    if (rc == EMU_STOP_FAULT) {
        if (w->cta->fault) w->pc = w->cta->fault->pc + 1;
        return rc;
    }
    read_back(s, w, sw, in, g);
    if (w->cta->obs_pc) emu_obs_done(w, pc, g, w->n_inst - n1, s->st.diverge != d1, false);
    if (rc == EMU_STOP_YIELD) s->left = 0;  /* polling or asleep: the next warp's turn */
    if (rc == EMU_STOP_YIELD && s->cfg->kind == EMU_SIMT_ITS) {
        sw->sleeping |= g & sw->run;
        sw->wake = sw->issued + (s->cfg->quantum ? s->cfg->quantum : 1);
    }
    return EMU_CONTINUE;
}

/* Lanes of g go on to the instruction after their own (a false guard, or a wait over). */
static void step_over(struct steps_warp *sw, emu_mask g)
{
    for (emu_mask k = g; k; k &= k - 1) sw->pc[__builtin_ctz(k)]++;
}

/* At a regrouping point: the lanes of g whose guard holds begin to wait in *waiting
 * (leaving run), the others step over the instruction. Returns the lanes that wait. */
static emu_mask park(struct steps_warp *sw, const struct emu_warp *w, const struct emu_inst *in, emu_mask g,
                     emu_mask *waiting)
{
    emu_mask m = guarded(w, in, g);
    step_over(sw, g & ~m);
    sw->run &= ~m;
    *waiting |= m;
    return m;
}

/* A CTA barrier: lanes wait until every live lane of their warp has arrived at
 * one; then the warp arrives once, with all of them (the barrier counts the warp's
 * live threads, as emu_barrier_arrive does). */
static int at_barrier(struct emu_steps *s, struct emu_warp *w, struct steps_warp *sw, uint32_t pc, emu_mask g)
{
    emu_mask m = park(sw, w, &s->code[pc], g, &sw->bar), live = w->valid & ~w->exited;
    if (!m || (sw->bar & live) != live) return EMU_CONTINUE;
    /* Every live lane waits at a barrier: the warp arrives at the lowest one's. */
    emu_mask all = sw->bar & live;
    uint32_t at = sw->pc[__builtin_ctz(all)];
    for (emu_mask k = all; k; k &= k - 1) {
        uint32_t p = sw->pc[__builtin_ctz(k)];
        if (s->prio[p] < s->prio[at]) at = p;
    }
    const struct emu_inst *bi = &s->code[at];
    setup(s, w, at, all);
    int rc = bi->fn(w, bi, all);
    if (rc == EMU_STOP_FAULT) {
        if (w->cta->fault) w->pc = w->cta->fault->pc + 1;
        return rc;
    }
    step_over(sw, all);
    if (rc == EMU_STOP_BARRIER) {
        w->n_barrier++;
        if (w->cta->obs_pc) {
            emu_obs_barrier(w, at);
            emu_obs_event(w, "barrier arrive", at, all);
        }
        emu_barrier_try_release(w->cta, w->wait.barrier);
        sw->bar_arrived = true;            /* (steps_ready lets them go once released) */
    } else {
        sw->run |= all;
        sw->bar = 0;
    }
    return EMU_CONTINUE;
}

/* The lanes waiting at .sync warp instructions of one operation at different pcs
 * (the one at pc among them), when their member masks name only each other: run them
 * as one, as sm_70 and later GPUs do (emu_warp_joint). Else they wait on. */
static int joint_wsync(struct emu_steps *s, struct emu_warp *w, struct steps_warp *sw, uint32_t pc)
{
    const struct emu_inst *ins[EMU_WARP_SIZE];
    emu_mask masks[EMU_WARP_SIZE], all = 0, want = 0;
    unsigned n = 0;
    for (emu_mask left = sw->wsync; left;) {
        uint32_t p = sw->pc[__builtin_ctz(left)];
        emu_mask g = steps_lanes_at(sw, p) & left;
        left &= ~g;
        const struct emu_inst *in = &s->code[p];
        if (in->skind != EMU_SK_WSYNC || in->fn != s->code[pc].fn) continue;
        const uint32_t *mm = w->r32[in->v[0]];
        for (emu_mask q = g; q; q &= q - 1) want |= mm[__builtin_ctz(q)];
        ins[n] = in;
        masks[n] = g;
        all |= g;
        if (p == pc && n) {                  /* (the group at pc first) */
            ins[n] = ins[0]; masks[n] = masks[0];
            ins[0] = in; masks[0] = g;
        }
        n++;
    }
    if (n < 2 || (want & w->valid & ~w->exited & ~all)) return EMU_CONTINUE;
    setup(s, w, pc, all);
    int rc = emu_warp_joint(w, ins, masks, n);
#if defined(LOOM_EMU_V3)
    if (rc < 0) rc = emu_warp_joint_v3(w, ins, masks, n);   /* (handlers of the other copy) */
#endif
    if (rc < 0) {                            /* (a deadlock report if nothing else can run) */
        w->n_inst--;
        s->did = 0;
        return EMU_CONTINUE;
    }
    if (rc != EMU_CONTINUE) return rc;
    for (unsigned i = 0; i < n; i++)
        place(sw, masks[i], ins[i]->src + 1);
    sw->wsync &= ~all;
    sw->run |= all;
    return EMU_CONTINUE;
}

/* A .sync warp instruction: the lanes its member masks name wait for each other at
 * this pc, then issue as one group. */
static int at_wsync(struct emu_steps *s, struct emu_warp *w, struct steps_warp *sw, uint32_t pc, emu_mask g)
{
    const struct emu_inst *in = &s->code[pc];
    emu_mask here = g | (sw->wsync & steps_lanes_at(sw, pc));
    emu_mask m = guarded(w, in, here);
    step_over(sw, here & ~m);               /* (guard-false lanes go on) */
    sw->wsync &= ~(here & ~m);
    sw->run |= here & ~m;
    const uint32_t *mm = w->r32[in->v[0]];
    emu_mask want = 0;
    for (emu_mask k = m; k; k &= k - 1) want |= mm[__builtin_ctz(k)];
    emu_mask missing = want & w->valid & ~w->exited & ~m;
    if (missing) {                          /* wait for them here */
        sw->run &= ~m;
        sw->wsync |= m;
        return joint_wsync(s, w, sw, pc);
    }
    sw->wsync &= ~m;
    sw->run |= m;
    return m ? run_group(s, w, sw, pc, m, m) : EMU_CONTINUE;
}

/* bar.warp.sync: the lanes of its mask may arrive at different bar.warp.sync
 * instructions; all go on once each has arrived at one. */
static int at_warpsync(struct emu_steps *s, struct emu_warp *w, struct steps_warp *sw, uint32_t pc, emu_mask g)
{
    const struct emu_inst *in = &s->code[pc];
    emu_mask m = park(sw, w, in, g, &sw->wsync);
    if (!m) return EMU_CONTINUE;
    uint32_t want = w->r32[in->a][__builtin_ctz(m)] & w->valid & ~w->exited;
    emu_mask waiting = 0;
    for (emu_mask k = sw->wsync; k; k &= k - 1) {
        unsigned l = (unsigned)__builtin_ctz(k);
        if (s->code[sw->pc[l]].skind == EMU_SK_WARPSYNC) waiting |= 1u << l;
    }
    if (want & ~waiting) return EMU_CONTINUE;
    emu_mask go = waiting & (want | m);
    setup(s, w, pc, go);
    if (w->cta->race) emu_check_warp_sync(w);
    step_over(sw, go);
    sw->wsync &= ~go;
    sw->run |= go;
    return EMU_CONTINUE;
}

/* A return from a call: the call's lanes wait until every live one has returned,
 * then the handler completes the call with all of them (on the stack h_ret expects:
 * the caller's entry below the callee's). */
static int at_ret(struct emu_steps *s, struct emu_warp *w, struct steps_warp *sw, uint32_t pc, emu_mask g)
{
    emu_mask m = park(sw, w, &s->code[pc], g, &sw->ret);
    const struct emu_frame *f = &w->frames[w->nframes - 1];
    emu_mask live = f->mask & ~w->exited;
    if (!m || (sw->ret & live) != live) return EMU_CONTINUE;
    const struct emu_inst *ri = &s->code[sw->pc[__builtin_ctz(live)]];
    setup(s, w, ri->src, live);
    w->stack[0] = (struct emu_simt_entry){ .pc = f->ret_pc, .reconv = EMU_RECONV_NONE, .mask = live };
    w->stack[1] = (struct emu_simt_entry){ .pc = ri->src, .reconv = EMU_RECONV_NONE, .mask = live };
    w->sp = 2;                               /* (f->simt_depth is 1: calls are made on one entry) */
    int rc = ri->fn(w, ri, live);
    if (rc == EMU_STOP_FAULT) return rc;
    sw->ret &= ~live;
    sw->run |= live;
    place(sw, live, w->pc);
    return EMU_CONTINUE;
}

/* A call: an indirect one runs for the lanes that name the same function as the
 * first (the others run it later), so that each group enters one callee. */
static int at_call(struct emu_steps *s, struct emu_warp *w, struct steps_warp *sw, uint32_t pc, emu_mask g)
{
    const struct emu_inst *in = &s->code[pc];
    const struct emu_call_info *ci = in->aux;
    emu_mask m = guarded(w, in, g);
    if (!ci->callee && ci->host < 0 && m) {
        const uint64_t *fp = w->r64[ci->ptr_row];
        uint64_t v = fp[__builtin_ctz(m)];
        emu_mask same = 0;
        for (emu_mask k = m; k; k &= k - 1) {
            unsigned l = (unsigned)__builtin_ctz(k);
            if (fp[l] == v) same |= 1u << l;
        }
        step_over(sw, g & ~m);
        g = m = same;
    }
    return run_group(s, w, sw, pc, g, m);
}

/* Runs item it: returns EMU_CONTINUE or EMU_STOP_FAULT. */
static int run_item(struct emu_steps *s, const struct steps_item *it)
{
    struct emu_cta *cta = s->cta;
    struct emu_warp *w = &cta->warps[it->warp];
    struct steps_warp *sw = &s->sw[it->warp];
    const struct emu_inst *in = &s->code[it->pc];
    cta->cur = it->warp;
    int rc;
    switch (in->skind) {
    case EMU_SK_BAR: rc = at_barrier(s, w, sw, it->pc, it->mask); break;
    case EMU_SK_WSYNC: rc = at_wsync(s, w, sw, it->pc, it->mask); break;
    case EMU_SK_WARPSYNC: rc = at_warpsync(s, w, sw, it->pc, it->mask); break;
    case EMU_SK_RET:
        rc = w->nframes ? at_ret(s, w, sw, it->pc, it->mask)
                        : run_group(s, w, sw, it->pc, it->mask, guarded(w, in, it->mask));
        break;
    case EMU_SK_CALL: rc = at_call(s, w, sw, it->pc, it->mask); break;
    default: rc = run_group(s, w, sw, it->pc, it->mask, guarded(w, in, it->mask)); break;
    }
    if (rc != EMU_CONTINUE) return rc;
    drop_dead_frames(w);
    if (!(w->valid & ~w->exited) && !w->done) finish_warp(s, w);
    return EMU_CONTINUE;
}

/* ---- Stalls ---------------------------------------------------------------------------- */

/* No lane may issue, and no barrier can be released: the lanes wait for each other
 * at warp-synchronous instructions or returns that some of them never reach. */
static int report_wait(struct emu_steps *s)
{
    struct emu_cta *cta = s->cta;
    const struct emu_program *p = cta->launch->prog;
    for (uint32_t i = 0; i < cta->nwarps; i++) {
        struct emu_warp *w = &cta->warps[i];
        struct steps_warp *sw = &s->sw[i];
        if (w->done) continue;
        emu_mask waiting = sw->wsync | sw->ret | (sw->bar_arrived ? 0 : sw->bar);
        if (!waiting) continue;
        unsigned l = (unsigned)__builtin_ctz(waiting);
        uint32_t pc = sw->pc[l];
        emu_mask here = steps_lanes_at(sw, pc) & waiting;
        emu_mask others = w->valid & ~w->exited & ~here;
        char where[160] = "";
        if (others) {
            uint32_t opc = sw->pc[__builtin_ctz(others)];
            snprintf(where, sizeof where, "; lanes 0x%08x stand elsewhere (line %u first)", others,
                     p->locs[opc].ptx_line);
        }
        const char *what = sw->ret >> l & 1u ? "the return of a call" : sw->bar >> l & 1u ? "a barrier"
                                                                                          : "a warp-synchronous instruction";
        emu_mask elsewhere = sw->wsync & ~here;
        if ((sw->wsync >> l & 1u) && elsewhere) {
            uint32_t opc = sw->pc[__builtin_ctz(elsewhere)];
            return emu_fault(w, &s->code[pc], l, LOOM_ERR_DEADLOCK, 0, 0,
                             "SIMT deadlock under --simt %s: lanes 0x%08x of warp %u wait at a warp-synchronous "
                             "instruction for lanes 0x%08x that wait at another (line %u); Loom runs different "
                             "instructions as one only for shfl.sync and vote.sync of one operation",
                             s->cfg->spec, here, i, elsewhere, p->locs[opc].ptx_line);
        }
        return emu_fault(w, &s->code[pc], l, LOOM_ERR_DEADLOCK, 0, 0,
                         "SIMT deadlock under --simt %s: lanes 0x%08x of warp %u wait at %s for lanes of their "
                         "warp that can never arrive%s",
                         s->cfg->spec, here, i, what, where);
    }
    return emu_fault(&cta->warps[0], NULL, 0, LOOM_ERR_INTERNAL, 0, 0, "no lane can issue (thread engine)");
}

/* Nothing may issue: done, a barrier to release, or a deadlock to report. Returns
 * -1 to go on, else the CTA's state. */
static int stalled(struct emu_steps *s)
{
    struct emu_cta *cta = s->cta;
    if (cta->fault) return EMU_CTA_FAULT;
    bool all_done = true;
    for (uint32_t i = 0; i < cta->nwarps; i++) all_done &= cta->warps[i].done;
    if (all_done) {
        if (cta->asserted) { cta->fault = &cta->fault_store; return EMU_CTA_FAULT; }
        return EMU_CTA_DONE;
    }
    uint32_t before = cta->runnable;
    emu_barriers_try_release(cta);
    if (cta->runnable != before) return -1;
    bool at_cta_barrier = false;
    for (uint32_t i = 0; i < cta->nwarps; i++)
        if (!cta->warps[i].done && !(cta->runnable >> i & 1u)) at_cta_barrier = true;
    bool lanes_wait = false;
    for (uint32_t i = 0; i < cta->nwarps; i++)
        if (!cta->warps[i].done && (cta->runnable >> i & 1u)) lanes_wait = true;
    if (lanes_wait) { report_wait(s); return EMU_CTA_FAULT; }
    if (at_cta_barrier) { emu_report_deadlock(cta); return EMU_CTA_FAULT; }
    emu_fault(&cta->warps[0], NULL, 0, LOOM_ERR_INTERNAL, 0, 0, "no lane can issue (thread engine)");
    return EMU_CTA_FAULT;
}

/* The trace=N option: a line per slot of block (0,0,0), warps and lanes as a picture
 * (one column per lane: the digit of the warp that issued there, a letter for the second
 * group of an SBI/SWI pair, '.' where no lane issued), then each group's warp and line. */
static void trace_slot(const struct emu_steps *s, const struct steps_issue *is)
{
    const struct emu_cta *cta = s->cta;
    if (cta->ctaid[0] | cta->ctaid[1] | cta->ctaid[2]) return;
    char row[EMU_WARP_SIZE + 1], lines[96] = "";
    size_t used = 0;
    memset(row, '.', EMU_WARP_SIZE);
    row[EMU_WARP_SIZE] = 0;
    for (unsigned k = 0; k < is->n; k++) {
        const struct steps_item *it = &is->it[k];
        bool second = k && s->cfg->kind >= EMU_SIMT_SBI;   /* (a pair's second group) */
        char c = second ? (char)('a' + it->warp % 26) : (char)('0' + it->warp % 10);
        for (emu_mask q = it->mask; q; q &= q - 1) row[__builtin_ctz(q)] = c;
        if (used + 24 < sizeof lines)
            used += (size_t)snprintf(lines + used, sizeof lines - used, "%sw%u@%u", k ? " + " : "", it->warp,
                                     s->cta->launch->prog->locs[it->pc].ptx_line);
    }
    fprintf(stderr, "loom: simt trace: slot %5llu  %s  %s\n", (unsigned long long)s->slot, row, lines);
}

/* ---- The slot loop ------------------------------------------------------------------------ */

static bool pick(struct emu_steps *s, struct steps_issue *is)
{
    switch (s->cfg->kind) {
    case EMU_SIMT_ITS: return steps_pick_its(s, is);
    case EMU_SIMT_DWF: return steps_pick_dwf(s, is);
    case EMU_SIMT_SBI: case EMU_SIMT_SWI: case EMU_SIMT_SBI_SWI: return steps_pick_interweave(s, is);
    default: return steps_pick_frontier(s, is);
    }
}

/* The timeline's warp slices (emu_obs_hooks): a warp's slice lasts while it leads the
 * slots (issues their first group); it ends when another warp leads or the CTA stops. */
static void timeline_close(struct emu_steps *s)
{
    const struct emu_obs *o = s->cta->launch->obs;
    if (!s->tl_open) return;
    const struct emu_warp *w = &s->cta->warps[s->tl_warp];
    const char *why = w->done ? "exit" : s->cta->fault ? "fault" : s->sw[s->tl_warp].bar ? "barrier" : "yield";
    o->hooks.slice(o->hooks.ctx, s->cta, s->tl_warp, s->tl_t0, emu_obs_now(), why, w->n_inst - s->tl_n0);
    s->tl_open = false;
}

static void timeline_lead(struct emu_steps *s, uint32_t warp)
{
    if (s->tl_open && s->tl_warp == warp) return;
    timeline_close(s);
    s->tl_open = true;
    s->tl_warp = warp;
    s->tl_t0 = emu_obs_now();
    s->tl_n0 = s->cta->warps[warp].n_inst;
}

static int steps_run(struct emu_cta *cta, uint64_t budget);

int emu_steps_run(struct emu_cta *cta, uint64_t budget)
{
    const struct emu_obs *o = cta->launch->obs;
    if (!o || !o->hooks.slice) return steps_run(cta, budget);
    int rc = steps_run(cta, budget);
    timeline_close(cta->steps);
    return rc;
}

static int steps_run(struct emu_cta *cta, uint64_t budget)
{
    struct emu_steps *s = cta->steps;
    const bool timeline = cta->launch->obs && cta->launch->obs->hooks.slice;
    uint64_t spent = 0;
    while (spent < budget) {
        struct steps_issue is;
        is.n = 0;
        if (!pick(s, &is)) {
            int st = stalled(s);
            if (st >= 0) return st;
            continue;
        }
        if (timeline && is.n) timeline_lead(s, is.it[0].warp);
        /* One slot: the items' lanes, counted once however many static warps they span. */
        uint64_t slot_inst = 0;
        uint32_t lanes = 0;
        for (unsigned k = 0; k < is.n; k++) {
            const struct steps_item *it = &is.it[k];
            struct emu_warp *w = &cta->warps[it->warp];
            struct steps_warp *sw = &s->sw[it->warp];
            uint64_t n0 = w->n_inst;
            s->did = 0;
            if (run_item(s, it) != EMU_CONTINUE) return EMU_CTA_FAULT;
            uint64_t d = w->n_inst - n0;
            if (d) {
                emu_mask did = s->did;
                uint32_t c = emu_popc(did);
                w->n_thread_inst += (uint64_t)c * d;
                w->mark = w->n_inst;
                lanes += c;
                if (d > slot_inst) slot_inst = d;
                sw->issued++;
                for (emu_mask q = did; q; q &= q - 1) {
                    unsigned l = (unsigned)__builtin_ctz(q);
                    sw->since[l] = s->slot;
                    sw->last[l] = sw->issued;
                }
            }
        }
        if (slot_inst && s->slot < s->cfg->trace) trace_slot(s, &is);
        if (slot_inst) {
            s->st.slots += slot_inst;
            s->st.lanes += (uint64_t)lanes * slot_inst;
            s->st.hist[lanes > EMU_WARP_SIZE ? EMU_WARP_SIZE : lanes] += slot_inst;
            if (is.n > 1 && s->cfg->kind >= EMU_SIMT_SBI) s->st.coissued++;   /* (an SBI/SWI pair) */
            s->slot++;
            spent += slot_inst;
        } else {
            spent++;                         /* (lanes that only began to wait) */
        }
        if (cta->fault) return EMU_CTA_FAULT;
    }
    return EMU_CTA_YIELD;
}

/* ---- Reports ---------------------------------------------------------------------------------- */

size_t emu_steps_describe(const struct emu_cta *cta, char *buf, size_t size)
{
    const struct emu_steps *s = cta->steps;
    const struct emu_program *p = cta->launch->prog;
    size_t used = 0;
    if (size) buf[0] = 0;
    for (uint32_t i = 0; i < cta->nwarps && used + 1 < size; i++) {
        const struct emu_warp *w = &cta->warps[i];
        const struct steps_warp *sw = &s->sw[i];
        if (w->done) continue;
        emu_mask left = w->valid & ~w->exited;
        int n = snprintf(buf + used, size - used, "\n    warp %u:", i);
        if (n < 0 || (size_t)n >= size - used) break;
        used += (size_t)n;
        while (left && used + 1 < size) {
            uint32_t pc = sw->pc[__builtin_ctz(left)];
            emu_mask g = steps_lanes_at(sw, pc) & left;
            left &= ~g;
            unsigned l0 = (unsigned)__builtin_ctz(g);
            const struct steps_rec *rc = sw->rdepth[l0] ? &sw->rec[sw->rs[l0][sw->rdepth[l0] - 1]] : NULL;
            bool at_reconv = s->hold && rc && rc->reconv == pc && rc->depth == w->nframes;
            const char *state = (g & sw->bar) ? (sw->bar_arrived ? "waits at barrier" : "waits for its warp at a barrier")
                                : (g & sw->wsync) ? "waits for its warp (warp-synchronous)"
                                : (g & sw->ret) ? "waits for its call to return"
                                : at_reconv ? "waits to reconverge with lanes it diverged from"
                                : "ready";
            n = snprintf(buf + used, size - used, " lanes 0x%08x at line %u (pc %u) %s;", g,
                         pc < p->ncode ? p->locs[pc].ptx_line : 0, pc, state);
            if (n < 0 || (size_t)n >= size - used) { buf[used] = 0; return used; }
            used += (size_t)n;
        }
    }
    return used;
}
