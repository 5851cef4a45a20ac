/* emu_exec.c -- the dispatch loop, the PDOM reconvergence stack, CTA contexts
 * and CTA barriers. All state lives in heap structures: a warp or CTA can stop
 * after any instruction and resume later on any worker. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu_check.h"
#include "emu/emu_exec.h"
#include "emu/emu_lanes.h"
#include "emu/emu_dbg.h"
#include "emu/emu_obs.h"
#include "include/loom/loom.h"
#include "ptx/ptx_demangle.h"

/* ---- Faults ---------------------------------------------------------------- */

/* Composes the standard report in the CTA's fault_store: what happened, where in the
 * PTX (and CUDA) source, which block and thread. The first fault of a CTA wins. */
static void compose(struct emu_warp *w, const struct emu_inst *in, unsigned lane, int status, uint64_t addr,
                    unsigned size, const char *what)
{
    struct emu_cta *cta = w->cta;
    struct emu_fault *f = &cta->fault_store;
    const struct emu_launch *L = cta->launch;
    const struct emu_program *p = L->prog;
    uint32_t pc = in ? in->src : w->pc;
    const struct emu_loc *loc = pc < p->ncode ? &p->locs[pc] : NULL;
    const char *file = p->ir->path ? p->ir->path : "<ptx>";
    char where[256] = "";
    if (loc && loc->ptx_line)
        snprintf(where, sizeof where, "%s:%u", file, loc->ptx_line);
    else
        snprintf(where, sizeof where, "%s", file);
    char cu[200] = "";
    if (loc && loc->cu_line) {
        const char *cf = "?";
        for (uint32_t i = 0; i < p->ir->nfiles; i++)
            if (p->ir->files[i].index == loc->cu_file) cf = p->ir->files[i].path;
        snprintf(cu, sizeof cu, " (%s:%u)", cf, loc->cu_line);
    }
    f->status = status;
    f->pc = pc;
    f->warp = w->id;
    f->lane = lane;
    for (int k = 0; k < 3; k++) f->tid[k] = w->tid[k][lane];
    f->addr = addr;
    f->size = size;
    char kernel[1024];
    ptx_demangle(L->entry->ir->name, kernel, sizeof kernel);
    snprintf(f->msg, sizeof f->msg,
             "%s\n  in kernel '%s' at %s%s\n  block (%u,%u,%u), thread (%u,%u,%u)",
             what, kernel, where, cu, cta->ctaid[0], cta->ctaid[1], cta->ctaid[2],
             f->tid[0], f->tid[1], f->tid[2]);
}

/* A failed assert's report stays the CTA's, even when a later fault stops it. */
int emu_fault(struct emu_warp *w, const struct emu_inst *in, unsigned lane, int status,
              uint64_t addr, unsigned size, const char *fmt, ...)
{
    struct emu_cta *cta = w->cta;
    if (cta->fault)
        return EMU_STOP_FAULT;
    char what[320];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (!cta->asserted) compose(w, in, lane, status, addr, size, what);
    cta->fault = &cta->fault_store;
    return EMU_STOP_FAULT;
}

/* On the GPU every thread that fails an assert prints its line before the kernel
 * stops, and the warps that have not reached it yet go on meanwhile: each failing
 * lane prints here, the first is the CTA's report, and emu_cta_run ends the CTA as
 * faulted once its other warps are done. */
void emu_assert_fail(struct emu_warp *w, const struct emu_inst *in, unsigned lane, const char *line,
                     const char *what)
{
    struct emu_cta *cta = w->cta;
    fprintf(stderr, "%s\n", line);
    if (cta->asserted || cta->fault) return;
    compose(w, in, lane, LOOM_ERR_ASSERT, 0, 0, what);
    cta->asserted = true;
}

int emu_warp_end(struct emu_warp *w)
{
    w->exited |= w->valid;
    emu_simt_remove_lanes(w, w->valid, 0);
    return emu_simt_settle(w);
}

int emu_chain_on(struct emu_warp *w, const struct emu_inst *in)
{
    return emu_chain_to(w, in + 1, in->src + 1);
}

/* ---- Barriers ---------------------------------------------------------------------- */

/* Threads of the CTA that have not exited. Lanes exit only through
 * emu_simt_remove_lanes and warps finish only in warp_run, which mark the
 * count stale; every barrier arrival asks for it. */
static __attribute__((noinline)) uint32_t count_live_threads(struct emu_cta *cta)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < cta->nwarps; i++)
        if (!cta->warps[i].done) n += emu_popc(cta->warps[i].valid & ~cta->warps[i].exited);
    cta->live_threads = n;
    cta->live_stale = false;
    return n;
}
static inline uint32_t live_threads(struct emu_cta *cta)
{
    return cta->live_stale ? count_live_threads(cta) : cta->live_threads;
}

/* A warp arrives at barrier `id`. Counting is per warp, as the hardware does:
 * the warp's live threads arrive together. */
int emu_barrier_arrive(struct emu_warp *w, const struct emu_inst *in, uint32_t id, uint32_t count, emu_mask m)
{
    struct emu_cta *cta = w->cta;
    if (id >= 16)
        return emu_fault(w, in, (unsigned)__builtin_ctz(m), LOOM_ERR_LAUNCH_FAILED, 0, 0,
                         "barrier id %u out of range (0..15)", id);
    struct emu_barrier *b = &cta->bars[id];
    uint32_t expected = count ? count : 0;
    if (b->arrived && b->expected_count != expected)
        return emu_fault(w, in, (unsigned)__builtin_ctz(m), LOOM_ERR_LAUNCH_FAILED, 0, 0,
                         "barrier %u used with thread counts %u and %u at once", id, b->expected_count, expected);
    b->expected_count = expected;
    b->arrived += emu_popc(w->valid & ~w->exited);
    cta->bars_pending |= 1u << id;
    return EMU_CONTINUE;
}

/* Whether every thread barrier `id` expects has arrived. */
static inline bool barrier_full(struct emu_cta *cta, uint32_t id)
{
    const struct emu_barrier *b = &cta->bars[id];
    return b->arrived && b->arrived >= (b->expected_count ? b->expected_count : live_threads(cta));
}

/* Releases a full barrier: its waiting warps run again (bar.red results delivered). */
static __attribute__((noinline)) void barrier_release(struct emu_cta *cta, uint32_t id)
{
    struct emu_barrier *b = &cta->bars[id];
    for (uint32_t k = b->waiting; k; k &= k - 1) {
        struct emu_warp *w = &cta->warps[__builtin_ctz(k)];
        if (w->wait.red_op) {
            uint32_t v = w->wait.red_op == 1 ? b->red_popc : w->wait.red_op == 2 ? (b->red_and_fail == 0)
                                                                                  : (b->red_or_any != 0);
            if (w->wait.red_to_pred) {
                emu_mask mm = w->wait.red_mask;
                w->pred[w->wait.red_dst] = (w->pred[w->wait.red_dst] & ~mm) | (v ? mm : 0);
            } else {
                for (unsigned l = 0; l < EMU_WARP_SIZE; l++)
                    if (EMU_ON(w->wait.red_mask, l)) w->r32[w->wait.red_dst][l] = v;
            }
            w->wait.red_op = 0;                  /* (bar.sync's arrivals leave it as it is) */
        }
        w->wait.kind = EMU_WAIT_NONE;
    }
    cta->runnable |= b->waiting;
    b->waiting = 0;
    b->arrived = 0;
    b->expected_count = 0;
    cta->bars_pending &= ~(1u << id);
    b->red_popc = 0; b->red_and_fail = 0; b->red_or_any = 0;
    b->red = false;
    if (cta->race) emu_check_barrier(cta);
}

/* Releases barrier `id` if every expected thread has arrived. */
static inline void barrier_try_release(struct emu_cta *cta, uint32_t id)
{
    if (barrier_full(cta, id)) barrier_release(cta, id);
}

void emu_barrier_try_release(struct emu_cta *cta, uint32_t id) { barrier_try_release(cta, id); }

void emu_barriers_try_release(struct emu_cta *cta)
{
    for (uint32_t p = cta->bars_pending; p; p &= p - 1)
        barrier_try_release(cta, (uint32_t)__builtin_ctz(p));
}

/* ---- The dispatch loop ----------------------------------------------------------- */

/* Lanes of a mask: the popcnt instruction where the CPU has it, even in the
 * baseline build (the loop below counts lanes whenever the active mask changes). */
static bool have_popcnt;

__attribute__((constructor)) static void detect_popcnt(void)
{
#if defined(__x86_64__)
    __builtin_cpu_init();
    have_popcnt = __builtin_cpu_supports("popcnt");
#endif
}

static inline uint32_t lanes_of(emu_mask x)
{
#if defined(__x86_64__) && !defined(__POPCNT__)
    if (__builtin_expect(have_popcnt, 1)) {
        uint32_t r;
        __asm__("popcntl %1, %0" : "=r"(r) : "rm"(x) : "cc");
        return r;
    }
#endif
    return emu_popc(x);
}

/* What warp_run returns when the pass over the CTA's warps ended at a warp
 * that stopped at a barrier or exited (warp_run has released what that frees). */
#define WARP_RUN_PASS_DONE 100

/* The next warp of the pass after warp i that can run, or nwarps. */
static inline uint32_t next_runnable(const struct emu_cta *cta, uint32_t i)
{
    uint32_t later = i + 1 < 32 ? cta->runnable & (~0u << (i + 1)) : 0;
    return later ? (uint32_t)__builtin_ctz(later) : cta->nwarps;
}

/* Thread instructions (emu_count_lanes, emu_lanes.h) of the running warp w,
 * with `lanes` active: a guard does not change the count (lanes predicated off
 * still issue, as nvprof's warp execution efficiency has it). Handlers count
 * warp instructions only, but for bar.sync's hand-over, which stops a warp. */
#define COUNT_LANES() emu_count_lanes(w, lanes)

/* Warp instructions the CTA's warps have run (for the scheduler's budget). */
static uint64_t cta_inst(const struct emu_cta *cta)
{
    uint64_t n = 0;
    for (uint32_t k = 0; k < cta->nwarps; k++) n += cta->warps[k].n_inst;
    return n;
}

/* Runs warp *pi until it stops or about `slice` instructions have run. The
 * pc, the active mask and the reconvergence pc of the top SIMT entry live in
 * registers: only control-family handlers (in->flow) change them, and those
 * see w->pc already advanced (branches overwrite it), after which all three
 * are reloaded. Other handlers never read w->pc.
 *
 * A chained run (emu_inst.run, emu.h) is one call: it is counted and charged
 * to the slice before it starts, and its instructions need no reconvergence
 * test. A fault inside it stops the chain (w->pc is then the instruction after
 * the faulting one; the warp's count keeps the rest of the run). Everything
 * else (control flow, guarded instructions, handlers that do not chain) goes
 * one instruction at a time.
 *
 * A warp that stops at a barrier or exits hands over to the next warp of
 * emu_cta_run's pass here, doing what emu_cta_run would do: the switch costs
 * no return and call. At the end of the pass it starts the next one while the
 * CTA's budget lasts. `bar.sync` itself may hand over to a later warp of the
 * pass and chain into its run (h_bar_sync_imm, emu_ctrl.c): cta->cur then names the
 * warp the chain ended in, and cta->cur_active the mask it started with. *pi
 * is the warp that stopped last, and *spent the instructions all of them ran. */
static inline __attribute__((always_inline)) int warp_run_t(struct emu_cta *cta, uint32_t *pi,
                                                            const struct emu_inst *code, uint64_t slice,
                                                            uint64_t cta_budget, uint64_t *spent, const bool obs,
                                                            const bool dbg)
{
    uint32_t i = *pi;
    struct emu_warp *w = &cta->warps[i];
    uint64_t budget, inst0 = cta_inst(cta);
    uint32_t pc, reconv, lanes;
    emu_mask active;
    int rc;
    uint64_t t0 = 0, n0 = 0;                     /* (observed: where the warp's slice began) */
    const struct emu_obs *obsv = obs ? cta->launch->obs : NULL;
load:
    if (obs && obsv->hooks.slice) { t0 = emu_obs_now(); n0 = w->n_inst; }
    cta->cur = i;
    cta->passes_left = EMU_BAR_PASSES;
    budget = slice;
    pc = w->pc;
    reconv = w->stack[w->sp - 1].reconv;
    active = w->active;
    lanes = lanes_of(active);
    for (;;) {
        if (pc == reconv) {                      /* reconvergence: pop */
            w->sp--;
            bool joined = w->stack[w->sp - 1].pc == pc;   /* (the lanes join the entry that waits there) */
            w->n_reconv += joined;
            emu_simt_load_top(w);
            if (obs && joined) emu_obs_event(w, "reconverge", pc, w->active);
            if ((rc = emu_simt_settle(w))) goto stop;
            pc = w->pc;
            active = w->active;
            COUNT_LANES();
            lanes = lanes_of(active);
            reconv = w->stack[w->sp - 1].reconv;
            continue;
        }
        const struct emu_inst *in = &code[pc];
        uint32_t n = in->run;
        if (dbg) {                               /* debugged: the debugger's code has runs cut before
                                                  * marked pcs, which issue alone (emu_dbg.h) */
            struct emu_dbg *g = cta->launch->dbg;
            if (atomic_load_explicit(&g->every, memory_order_relaxed) || (n && (n > budget || g->at[pc]))) {
                in = &cta->launch->prog->steps[pc];
                n = 0;
            } else {
                g->tick += n;
            }
        }
        if (n) {                                 /* a chained run */
            w->n_inst += n;
            w->chain_left = dbg ? 0 : budget > n ? budget - n : 0;   /* (debugged: no chaining on) */
            w->pc = pc + n;
            rc = in->fn(w, in, active);
            if (dbg) {
                budget -= n;
                if (rc == EMU_STOP_FAULT && cta->fault && cta->fault->pc >= pc && cta->fault->pc < pc + n)
                    cta->launch->dbg->tick -= pc + n - 1 - cta->fault->pc;   /* (issues after it never ran) */
            }
        } else {                                 /* one instruction */
            emu_mask m = active;
            if (in->guard != EMU_NOGUARD) {
                emu_mask p = w->pred[in->guard];
                m &= in->guard_neg ? ~p : p;
            }
            w->n_inst++;
            budget--;
            w->pc = ++pc;
            if (dbg) {                           /* debugged: every instruction alone (emu_dbg.h) */
                w->chain_left = 0;
                if ((rc = emu_dbg_issue(w, pc - 1, active, m)) == EMU_CONTINUE) {
                    rc = m ? in->fn(w, in, m) : EMU_CONTINUE;
                    if (rc != EMU_STOP_FAULT) rc = emu_dbg_after(w, pc - 1, rc);
                    else w->cta->launch->dbg->after = false;
                }
            } else if (obs) {                    /* observed: every instruction alone (see below) */
                emu_obs_issue(w, pc - 1, active, m);
                uint64_t n1 = w->n_inst, d1 = w->n_diverge;
                w->chain_left = 0;
                rc = m ? in->fn(w, in, m) : EMU_CONTINUE;
                uint32_t last = emu_obs_done(w, pc - 1, active, w->n_inst - n1, w->n_diverge != d1,
                                             rc == EMU_STOP_BARRIER);
                if (w->n_diverge != d1) emu_obs_event(w, "diverge", last, w->active);
            } else if (!in->flow) {
                if (m && (rc = in->fn(w, in, m)) != EMU_CONTINUE) goto out;
                goto next;
            } else {
                w->chain_left = budget;
                rc = m ? in->fn(w, in, m) : EMU_CONTINUE;
            }
        }
        if (__builtin_expect(cta->handed, 0)) {     /* a barrier handed over to another warp */
            cta->handed = false;
            i = cta->cur;
            w = &cta->warps[i];
            active = cta->cur_active;
            lanes = lanes_of(active);
        }
        if (!obs && !dbg) budget = w->chain_left;
        if (rc != EMU_CONTINUE) {
            if (rc == EMU_STOP_FAULT && cta->fault) w->pc = cta->fault->pc + 1;
            goto stop;
        }
        /* A run or a control instruction: where it went, with which lanes (a
         * branch at the end of a run may have gone on). */
        pc = w->pc;
        if (w->active != active) {
            COUNT_LANES();
            active = w->active;
            lanes = lanes_of(active);
        }
        reconv = w->stack[w->sp - 1].reconv;
    next:
        if (budget == 0) {
            w->pc = pc;
            rc = EMU_STOP_YIELD;
            goto out;
        }
    }
stop:                                            /* a barrier or an exit: on to the next warp */
    COUNT_LANES();
    if (obs && obsv->hooks.slice && (rc == EMU_STOP_BARRIER || rc == EMU_STOP_EXIT)) {
        bool bar = rc == EMU_STOP_BARRIER;
        emu_obs_event(w, bar ? "barrier arrive" : "exit", w->pc ? w->pc - 1 : 0, w->active);
        obsv->hooks.slice(obsv->hooks.ctx, cta, w->id, t0, emu_obs_now(), bar ? "barrier" : "exit", w->n_inst - n0);
    }
    if (rc == EMU_STOP_BARRIER) {
        w->n_barrier++;
        barrier_try_release(cta, w->wait.barrier);
    } else if (rc == EMU_STOP_EXIT) {
        w->done = true;
        cta->runnable &= ~(1u << i);
        cta->nexited_warps++;
        cta->live_stale = true;
        if (cta->bars_pending) emu_barriers_try_release(cta);   /* (fewer threads may now fill one) */
    } else {
        goto out;
    }
    rc = WARP_RUN_PASS_DONE;
    uint32_t next = next_runnable(cta, i);
    /* The pass is over: the next one starts with the first warp that can
     * run (as emu_cta_run's would) while the CTA's budget lasts. */
    if (next >= cta->nwarps && cta->runnable && cta_inst(cta) - inst0 < cta_budget)
        next = (uint32_t)__builtin_ctz(cta->runnable);
    if (next < cta->nwarps) {
        i = next;
        w = &cta->warps[i];
        w->wait.kind = EMU_WAIT_NONE;
        goto load;
    }
out:
    COUNT_LANES();
    if (obs && obsv->hooks.slice && rc != WARP_RUN_PASS_DONE)
        obsv->hooks.slice(obsv->hooks.ctx, cta, w->id, t0, emu_obs_now(), rc == EMU_STOP_FAULT ? "fault" : "yield",
                          w->n_inst - n0);
    *pi = i;
    *spent = cta_inst(cta) - inst0;
    return rc;
}

/* The default dispatch, and the observed one (emu_obs.h): it runs the program's step
 * copy (emu_program_steps: no chained runs) with chains off (chain_left 0), so that
 * each instruction is issued here, counted, and then run by its handler. */
static __attribute__((noinline)) int warp_run(struct emu_cta *cta, uint32_t *pi, const struct emu_inst *code,
                                              uint64_t slice, uint64_t cta_budget, uint64_t *spent)
{
    return warp_run_t(cta, pi, code, slice, cta_budget, spent, false, false);
}
static __attribute__((noinline)) int warp_run_obs(struct emu_cta *cta, uint32_t *pi, const struct emu_inst *code,
                                                  uint64_t slice, uint64_t cta_budget, uint64_t *spent)
{
    return warp_run_t(cta, pi, code, slice, cta_budget, spent, true, false);
}
static __attribute__((noinline)) int warp_run_dbg(struct emu_cta *cta, uint32_t *pi, const struct emu_inst *code,
                                                  uint64_t slice, uint64_t cta_budget, uint64_t *spent)
{
    return warp_run_t(cta, pi, code, slice, cta_budget, spent, false, true);
}

/* ---- CTAs -------------------------------------------------------------------------- */

static void *xcalloc(size_t n, size_t s) { return n ? calloc(n, s) : calloc(1, 1); }

/* Zeroed memory aligned to a cache line: register rows (128 and 256 bytes) and
 * shared memory are read and written with 16- and 32-byte vectors, which must
 * not straddle lines (a split access costs about two, and a load from a split
 * store is not forwarded). */
static void *xcalloc_lines(size_t n, size_t s)
{
    if (n && s > SIZE_MAX / n) return NULL;
    size_t bytes = (n * s + 63) / 64 * 64;
    void *p = aligned_alloc(64, bytes ? bytes : 64);
    if (p) memset(p, 0, bytes ? bytes : 64);
    return p;
}

static void warp_fill_sregs(struct emu_warp *w);
static void fill_row(uint32_t *row, uint32_t v);

/* Allocates the warps and buffers of a CTA context for a launch; the context
 * is reused for the CTAs a worker runs, so constants are filled only once. */
struct emu_cta *emu_cta_create(const struct emu_launch *L)
{
    const struct emu_program *p = L->prog;
    struct emu_cta *cta = calloc(1, sizeof *cta);
    if (!cta) return NULL;
    cta->launch = L;
    cta->nthreads = L->block[0] * L->block[1] * L->block[2];
    cta->nwarps = (cta->nthreads + EMU_WARP_SIZE - 1) / EMU_WARP_SIZE;
    if (cta->nwarps > 32) { free(cta); return NULL; }   /* launches allow 1024 threads: warp masks are 32 bits */
    cta->shared_size = L->dyn_shared ? p->dyn_shared_base + L->dyn_shared : L->entry->shared_bytes;
    cta->shared = xcalloc_lines(cta->shared_size + 16, 1);
    cta->warps = calloc(cta->nwarps, sizeof *cta->warps);
    if (!cta->shared || !cta->warps) { emu_cta_destroy(cta); return NULL; }
    for (uint32_t i = 0; i < cta->nwarps; i++) {
        struct emu_warp *w = &cta->warps[i];
        w->cta = cta;
        w->id = i;
        w->r32 = xcalloc_lines(p->n32, sizeof *w->r32);
        w->r64 = xcalloc_lines(p->n64, sizeof *w->r64);
        w->pred = xcalloc(p->npred, sizeof *w->pred);
        w->local_stride = L->local_stride;
        w->local = xcalloc((size_t)L->local_stride * EMU_WARP_SIZE, 1);
        w->stack_cap = 16;                       /* the SIMT stack grows in simt_push */
        w->stack = malloc(w->stack_cap * sizeof *w->stack);
        if (!w->r32 || !w->r64 || !w->pred || !w->local || !w->stack) { emu_cta_destroy(cta); return NULL; }
        /* Thread indices depend only on the block shape: compute them once. */
        uint32_t bx = L->block[0], bxy = L->block[0] * L->block[1];
        for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
            uint32_t t = i * EMU_WARP_SIZE + l;
            if (t < cta->nthreads) w->valid |= 1u << l;
            else t = 0;
            w->tid[0][l] = t % bx;
            w->tid[1][l] = (t / bx) % L->block[1];
            w->tid[2][l] = t / bxy;
        }
        w->tid_affine = true;
        for (unsigned l = 0; l < EMU_WARP_SIZE; l++)
            if ((w->valid >> l & 1) && w->tid[0][l] != w->tid[0][0] + l) w->tid_affine = false;
        for (uint32_t c = 0; c < p->nconst32; c++)
            for (unsigned l = 0; l < EMU_WARP_SIZE; l++) w->r32[p->const32_base + c][l] = p->const32[c];
        for (uint32_t c = 0; c < p->nconst64; c++)
            for (unsigned l = 0; l < EMU_WARP_SIZE; l++) w->r64[p->const64_base + c][l] = p->const64[c];
        /* Parameters whose loads were folded away (emu_decode.c): in bounds by
         * construction, since the buffer has the entry's declared size. */
        for (uint32_t k = 0; k < L->entry->nparam_rows; k++) {
            const struct emu_param_row *pr = &L->entry->param_rows[k];
            if (pr->wide) {
                uint64_t v = 0;
                if (pr->off + 8 <= L->params_size) memcpy(&v, L->params + pr->off, 8);
                for (unsigned l = 0; l < EMU_WARP_SIZE; l++) w->r64[pr->row][l] = v;
            } else {
                uint32_t v = 0;
                if (pr->off + 4 <= L->params_size) memcpy(&v, L->params + pr->off, 4);
                fill_row(w->r32[pr->row], v);
            }
        }
        warp_fill_sregs(w);
    }
    if (L->simt && !(cta->steps = emu_steps_create(cta))) { emu_cta_destroy(cta); return NULL; }
    if (L->dbg && !emu_program_steps((struct emu_program *)p)) { emu_cta_destroy(cta); return NULL; }
    if (L->obs && (!emu_program_steps((struct emu_program *)p) || !(cta->obs_pc = emu_obs_attach(L->obs)))) {
        emu_cta_destroy(cta);
        return NULL;
    }
    return cta;
}

void emu_cta_destroy(struct emu_cta *cta)
{
    if (!cta) return;
    for (uint32_t i = 0; cta->warps && i < cta->nwarps; i++) {
        struct emu_warp *w = &cta->warps[i];
        free(w->r32); free(w->r64); free(w->pred); free(w->local);
        free(w->stack); free(w->frames); free(w->spill);
    }
    emu_check_cta_free(cta);
    emu_async_free(cta);
    emu_steps_destroy(cta->steps);
    free(cta->warps);
    free(cta->shared);
    free(cta);
}

static void fill_row(uint32_t *row, uint32_t v)
{
    _Pragma("GCC unroll 32") for (unsigned l = 0; l < EMU_WARP_SIZE; l++) row[l] = v;
}

/* Fills the special-register rows of a warp that the program reads, once per
 * CTA context (emu_cta_begin refills those that change per CTA). */
static void warp_fill_sregs(struct emu_warp *w)
{
    const struct emu_cta *cta = w->cta;
    const struct emu_launch *L = cta->launch;
    const uint8_t *used = L->prog->sreg_used;
    for (unsigned s = 1; s < EMU_SREG_ROWS; s++) {
        if (!used[s]) continue;
        uint32_t *row = w->r32[s];
        switch ((enum ptx_sreg)s) {
        case PTX_SREG_TID_X: memcpy(row, w->tid[0], sizeof w->tid[0]); break;
        case PTX_SREG_TID_Y: memcpy(row, w->tid[1], sizeof w->tid[1]); break;
        case PTX_SREG_TID_Z: memcpy(row, w->tid[2], sizeof w->tid[2]); break;
        case PTX_SREG_NTID_X: fill_row(row, L->block[0]); break;
        case PTX_SREG_NTID_Y: fill_row(row, L->block[1]); break;
        case PTX_SREG_NTID_Z: fill_row(row, L->block[2]); break;
        case PTX_SREG_CTAID_X: case PTX_SREG_CLUSTERID_X: fill_row(row, cta->ctaid[0]); break;
        case PTX_SREG_CTAID_Y: case PTX_SREG_CLUSTERID_Y: fill_row(row, cta->ctaid[1]); break;
        case PTX_SREG_CTAID_Z: case PTX_SREG_CLUSTERID_Z: fill_row(row, cta->ctaid[2]); break;
        case PTX_SREG_NCTAID_X: case PTX_SREG_NCLUSTERID_X: fill_row(row, L->grid[0]); break;
        case PTX_SREG_NCTAID_Y: case PTX_SREG_NCLUSTERID_Y: fill_row(row, L->grid[1]); break;
        case PTX_SREG_NCTAID_Z: case PTX_SREG_NCLUSTERID_Z: fill_row(row, L->grid[2]); break;
        case PTX_SREG_CLUSTER_NCTAID_X: case PTX_SREG_CLUSTER_NCTAID_Y: case PTX_SREG_CLUSTER_NCTAID_Z:
        case PTX_SREG_CLUSTER_NCTARANK: fill_row(row, 1); break;
        case PTX_SREG_LANEID: for (unsigned l = 0; l < EMU_WARP_SIZE; l++) row[l] = l; break;
        case PTX_SREG_WARPID: fill_row(row, w->id); break;
        case PTX_SREG_NWARPID: fill_row(row, L->nwarpid); break;
        case PTX_SREG_SMID: fill_row(row, cta->smid); break;
        case PTX_SREG_NSMID: fill_row(row, L->nsm); break;
        case PTX_SREG_GRIDID: fill_row(row, L->gridid); break;
        case PTX_SREG_LANEMASK_EQ: for (unsigned l = 0; l < 32; l++) row[l] = 1u << l; break;
        case PTX_SREG_LANEMASK_LT: for (unsigned l = 0; l < 32; l++) row[l] = (1u << l) - 1; break;
        case PTX_SREG_LANEMASK_LE: for (unsigned l = 0; l < 32; l++) row[l] = (uint32_t)((2ull << l) - 1); break;
        case PTX_SREG_LANEMASK_GT: for (unsigned l = 0; l < 32; l++) row[l] = (uint32_t)(~((2ull << l) - 1)); break;
        case PTX_SREG_LANEMASK_GE: for (unsigned l = 0; l < 32; l++) row[l] = ~((1u << l) - 1); break;
        case PTX_SREG_DYNAMIC_SMEM_SIZE: fill_row(row, (uint32_t)L->dyn_shared); break;
        case PTX_SREG_TOTAL_SMEM_SIZE: case PTX_SREG_AGGR_SMEM_SIZE:
            fill_row(row, (uint32_t)cta->shared_size); break;
        /* The driver hands cooperative kernels their grid-barrier workspace in
         * %envreg1:%envreg2 (high:low); cooperative_groups traps when it is 0. */
        case PTX_SREG_ENVREG1: fill_row(row, (uint32_t)(L->grid_workspace >> 32)); break;
        case PTX_SREG_ENVREG2: fill_row(row, (uint32_t)L->grid_workspace); break;
        default: fill_row(row, 0); break;   /* cluster ranks/ids of a 1-CTA cluster, other envregs */
        }
    }
}

/* Refills the rows of the special registers that change from one CTA to the
 * next of a launch and that the program reads: %ctaid, %clusterid (1-CTA
 * clusters), %smid. */
static void warp_fill_cta_sregs(struct emu_warp *w)
{
    const struct emu_cta *cta = w->cta;
    const uint8_t *used = cta->launch->prog->sreg_used;
    for (unsigned k = 0; k < 3; k++) {
        if (used[PTX_SREG_CTAID_X + k]) fill_row(w->r32[PTX_SREG_CTAID_X + k], cta->ctaid[k]);
        if (used[PTX_SREG_CLUSTERID_X + k]) fill_row(w->r32[PTX_SREG_CLUSTERID_X + k], cta->ctaid[k]);
    }
    if (used[PTX_SREG_SMID]) fill_row(w->r32[PTX_SREG_SMID], cta->smid);
}

/* Prepares the CTA context for block `ctaid`. */
void emu_cta_begin(struct emu_cta *cta, const uint32_t ctaid[3], uint32_t smid)
{
    const struct emu_launch *L = cta->launch;
    memcpy(cta->ctaid, ctaid, sizeof cta->ctaid);
    cta->smid = smid;
    cta->fault = NULL;
    cta->asserted = false;
    cta->nexited_warps = 0;
    cta->live_stale = true;
    /* A barrier's release clears it: only a CTA that stopped with a barrier
     * pending (a fault) leaves state behind. */
    if (cta->bars_pending) memset(cta->bars, 0, sizeof cta->bars);
    cta->bars_pending = 0;
    emu_async_reset(cta);
    cta->runnable = cta->nwarps >= 32 ? ~0u : (1u << cta->nwarps) - 1;
    if (L->zero_shared && cta->shared_size) memset(cta->shared, 0, cta->shared_size);
    for (uint32_t i = 0; i < cta->nwarps; i++) {
        struct emu_warp *w = &cta->warps[i];
        w->exited = 0;
        emu_simt_begin(w, L->entry->entry_pc);
        w->nframes = 0;
        w->local_sp = 0;
        w->wait = (struct emu_wait){ .kind = EMU_WAIT_NONE };
        w->done = false;
        w->mark = w->n_inst;
        warp_fill_cta_sregs(w);
    }
    if (cta->steps) emu_steps_begin(cta);
    cta->obs_trace = L->obs && !(ctaid[0] | ctaid[1] | ctaid[2]);
}

/* Reports a barrier that can never complete: every live warp waits. */
void emu_report_deadlock(struct emu_cta *cta)
{
    char detail[256] = "";
    size_t used = 0;
    struct emu_warp *first = NULL;
    for (uint32_t i = 0; i < cta->nwarps && used < sizeof detail - 64; i++) {
        struct emu_warp *w = &cta->warps[i];
        if (w->done || emu_wait_kind(w) != EMU_WAIT_BARRIER) continue;
        if (!first) first = w;
        const struct emu_loc *loc = &cta->launch->prog->locs[w->wait.pc];
        used += (size_t)snprintf(detail + used, sizeof detail - used, "%swarp %u at barrier %u (line %u)",
                                 used ? ", " : "", w->id, w->wait.barrier, loc->ptx_line);
    }
    if (!first) first = &cta->warps[0];
    struct emu_barrier *b = &cta->bars[first->wait.barrier];
    uint32_t need = b->expected_count ? b->expected_count : live_threads(cta);
    emu_fault(first, &cta->launch->prog->code[first->wait.pc], (unsigned)__builtin_ctz(first->valid ? first->valid : 1),
              LOOM_ERR_DEADLOCK, 0, 0,
              "barrier deadlock: barrier %u expects %u threads but only %u arrived and no other thread can run; waiting: %s",
              first->wait.barrier, need, b->arrived, detail);
}

/* Runs the CTA until every warp has exited, a fault stops it, or `budget`
 * warp-instructions have been spent (then EMU_CTA_YIELD: call again). */
enum emu_cta_state emu_cta_run(struct emu_cta *cta, uint64_t budget)
{
    if (cta->steps) return (enum emu_cta_state)emu_steps_run(cta, budget);   /* a policy other than PDOM */
    const struct emu_launch *L = cta->launch;
    const struct emu_inst *code = L->dbg ? L->dbg->code : L->obs ? L->prog->steps : L->prog->code;
    const uint64_t slice = EMU_SLICE;
    for (;;) {
        bool ran = false, all_done = true;
        for (uint32_t i = 0; i < cta->nwarps; i++) {
            struct emu_warp *w = &cta->warps[i];
            if (w->done) continue;
            all_done = false;
            if (emu_wait_kind(w) == EMU_WAIT_BARRIER) continue;
            w->wait.kind = EMU_WAIT_NONE;
            uint64_t spent;
            /* Goes on to later warps; barrier stops and exits are dealt with there. */
            int rc = L->dbg   ? warp_run_dbg(cta, &i, code, slice, budget, &spent)
                     : L->obs ? warp_run_obs(cta, &i, code, slice, budget, &spent)
                              : warp_run(cta, &i, code, slice, budget, &spent);
            ran = true;
            budget = budget > spent ? budget - spent : 0;
            if (rc == EMU_STOP_FAULT) return EMU_CTA_FAULT;
        }
        if (all_done && cta->asserted) cta->fault = &cta->fault_store;
        if (all_done) return cta->asserted ? EMU_CTA_FAULT : EMU_CTA_DONE;
        if (cta->fault) return EMU_CTA_FAULT;
        if (!ran) {
            emu_barriers_try_release(cta);
            bool any_runnable = false;
            for (uint32_t i = 0; i < cta->nwarps; i++)
                if (!cta->warps[i].done && emu_wait_kind(&cta->warps[i]) != EMU_WAIT_BARRIER) any_runnable = true;
            if (!any_runnable) {
                emu_report_deadlock(cta);
                return EMU_CTA_FAULT;
            }
        }
        if (budget == 0) return EMU_CTA_YIELD;
    }
}
