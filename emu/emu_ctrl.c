/* emu_ctrl.c -- control flow and synchronisation: bra, brx.idx, call, ret,
 * exit, trap, bar/barrier, bar.warp.sync, membar/fence, nanosleep and hints. */
#include "config.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "emu/emu_check.h"
#include "emu/emu_exec.h"
#include "emu/emu_lanes.h"
#include "include/loom/loom.h"
#include "ptx/ptx_demangle.h"

/* ---- Branches ----------------------------------------------------------------- */

/* bra: uniform when every active lane agrees, else split at the reconvergence point. */
/* m is the active mask when the bra has no guard (as in a chain), else the
 * lanes whose guard holds. */
static EMU_CHAINED_FLOW int h_bra(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    return emu_branch_chain(w, in, m, 1);
}

/* brx.idx: lanes pick targets from a table by index; out-of-range is a fault. */
static int h_brx(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    const uint32_t *tab = in->aux;
    const uint32_t *idx = w->r32[in->a];
    uint32_t targets[EMU_WARP_SIZE];
    emu_mask masks[EMU_WARP_SIZE];
    unsigned n = 0;
    EMU_LANES(l) {
        if (!EMU_ON(m, l)) continue;
        if (idx[l] >= in->aux_targets)
            return emu_fault(w, in, l, LOOM_ERR_LAUNCH_FAILED, 0, 0,
                             "brx.idx index %u out of range of its %u targets", idx[l], in->aux_targets);
        uint32_t t = tab[idx[l]];
        unsigned k = 0;
        while (k < n && targets[k] != t) k++;
        if (k == n) { targets[n] = t; masks[n] = 0; n++; }
        masks[k] |= 1u << l;
    }
    if (n == 1 && m == w->active) {
        w->pc = targets[0];
        return EMU_CONTINUE;
    }
    if (m != w->active) {     /* guard-false lanes fall through */
        targets[n] = w->pc;
        masks[n] = w->active & ~m;
        n++;
    }
    emu_simt_diverge_n(w, targets, masks, n, in->reconv, true);
    return EMU_CONTINUE;
}

/* exit: the lanes leave every stack entry; the warp stops when none remain. */
static EMU_CHAINED_FLOW int h_exit(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    w->exited |= m;
    emu_simt_remove_lanes(w, m, 0);
    return emu_simt_settle(w);
}

/* ---- Calls ---------------------------------------------------------------------- */

static uint8_t *lane_local(struct emu_warp *w, unsigned l) { return w->local + (uint64_t)l * w->local_stride; }

/* Saves (or restores) the register rows of fn on the warp's spill stack. */
static bool spill_rows(struct emu_warp *w, const struct emu_func *fn, bool save)
{
    uint64_t bytes = (uint64_t)fn->nrows32 * sizeof w->r32[0] + (uint64_t)fn->nrows64 * sizeof w->r64[0] +
                     (uint64_t)fn->nrowsp * sizeof w->pred[0];
    if (save) {
        if (w->spill_used + bytes > w->spill_cap) {
            uint64_t ncap = w->spill_cap ? 2 * w->spill_cap : 4096;
            while (ncap < w->spill_used + bytes) ncap *= 2;
            uint8_t *ns = realloc(w->spill, ncap);
            if (!ns) return false;
            w->spill = ns; w->spill_cap = ncap;
        }
        uint8_t *p = w->spill + w->spill_used;
        memcpy(p, w->r32[fn->rows32], (size_t)fn->nrows32 * sizeof w->r32[0]); p += fn->nrows32 * sizeof w->r32[0];
        memcpy(p, w->r64[fn->rows64], (size_t)fn->nrows64 * sizeof w->r64[0]); p += fn->nrows64 * sizeof w->r64[0];
        memcpy(p, &w->pred[fn->rowsp], (size_t)fn->nrowsp * sizeof w->pred[0]);
        w->spill_used += bytes;
    } else {
        w->spill_used -= bytes;
        const uint8_t *p = w->spill + w->spill_used;
        memcpy(w->r32[fn->rows32], p, (size_t)fn->nrows32 * sizeof w->r32[0]); p += fn->nrows32 * sizeof w->r32[0];
        memcpy(w->r64[fn->rows64], p, (size_t)fn->nrows64 * sizeof w->r64[0]); p += fn->nrows64 * sizeof w->r64[0];
        memcpy(&w->pred[fn->rowsp], p, (size_t)fn->nrowsp * sizeof w->pred[0]);
    }
    return true;
}

static bool func_active(const struct emu_warp *w, const struct emu_func *fn)
{
    for (uint32_t i = 0; i < w->nframes; i++)
        if (w->frames[i].callee == fn) return true;
    return false;
}

static int host_call(struct emu_warp *w, const struct emu_inst *in, emu_mask m, const struct emu_call_info *ci);

/* call: copy arguments into the callee's frame, push a frame and a SIMT entry. */
static int h_call(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    const struct emu_call_info *ci = in->aux;
    const struct emu_func *callee = ci->callee;
    const struct emu_program *prog = w->cta->launch->prog;
    if (ci->host >= 0)
        return host_call(w, in, m, ci);
    if (!callee) {                       /* indirect: every lane must name the same function */
        const uint64_t *fp = w->r64[ci->ptr_row];
        unsigned first = (unsigned)__builtin_ctz(m);
        uint64_t v = fp[first];
        emu_mask same = 0;
        EMU_LANES(l) if (EMU_ON(m, l) && fp[l] == v) same |= 1u << l;
        if (same != m || m != w->active) {
            /* Lanes call different functions (or some skip the call): split the
             * warp so each group re-executes this call on its own; all meet
             * again after it. */
            uint32_t here = in->src, targets[EMU_WARP_SIZE + 1];
            emu_mask masks[EMU_WARP_SIZE + 1];
            unsigned n = 0;
            emu_mask left = m;
            while (left) {
                uint64_t t = fp[__builtin_ctz(left)];
                emu_mask g = 0;
                EMU_LANES(l) if (EMU_ON(left, l) && fp[l] == t) g |= 1u << l;
                targets[n] = here; masks[n++] = g;
                left &= ~g;
            }
            if (m != w->active) { targets[n] = w->pc; masks[n++] = w->active & ~m; }
            if (n > 1) {
                emu_simt_diverge_n(w, targets, masks, n, w->pc, false);
                return EMU_CONTINUE;
            }
        }
        if ((v & 0xFFFF000000000000ull) != EMU_FUNC_TAG || (v & 0xFFFFFFFFull) >= prog->nfuncs)
            return emu_fault(w, in, first, LOOM_ERR_LAUNCH_FAILED, v, 0,
                             "indirect call through 0x%llx, which is not a function", (unsigned long long)v);
        callee = &prog->funcs[v & 0xFFFFFFFFull];
        if (callee->ir->is_decl) {
            char name[512];
            ptx_demangle(callee->ir->name, name, sizeof name);
            return emu_fault(w, in, first, LOOM_ERR_LAUNCH_FAILED, v, 0, "indirect call to '%s', which has no body",
                             name);
        }
    }
    const struct emu_func *caller = w->nframes ? w->frames[w->nframes - 1].callee : w->cta->launch->entry;
    uint32_t new_sp = w->local_sp + caller->frame_bytes;
    if ((uint64_t)new_sp + callee->frame_bytes > w->local_stride) {
        char name[512];
        ptx_demangle(callee->ir->name, name, sizeof name);
        return emu_fault(w, in, (unsigned)__builtin_ctz(m), LOOM_ERR_LAUNCH_FAILED, 0, 0,
                         "stack overflow calling '%s' (%u frames deep, %llu bytes of local memory per thread)",
                         name, w->nframes + 1, (unsigned long long)w->local_stride);
    }
    uint32_t nargs = ci->nargs < callee->nparams ? ci->nargs : callee->nparams;
    EMU_LANES(l) {
        if (!EMU_ON(m, l)) continue;
        uint8_t *base = lane_local(w, l);
        for (uint32_t i = 0; i < nargs; i++) {
            uint32_t sz = ci->arg_size[i] < callee->param_size[i] ? ci->arg_size[i] : callee->param_size[i];
            memmove(base + new_sp + callee->param_off[i], base + w->local_sp + ci->arg_off[i], sz);
        }
    }
    if (w->nframes == w->frames_cap) {
        uint32_t ncap = w->frames_cap ? 2 * w->frames_cap : 16;
        struct emu_frame *nf = realloc(w->frames, ncap * sizeof *nf);
        if (!nf) return emu_fault(w, in, 0, LOOM_ERR_OUT_OF_MEMORY, 0, 0, "out of host memory for call frames");
        w->frames = nf; w->frames_cap = ncap;
    }
    bool save = func_active(w, callee);
    if (save && !spill_rows(w, callee, true))
        return emu_fault(w, in, 0, LOOM_ERR_OUT_OF_MEMORY, 0, 0, "out of host memory for recursion");
    w->frames[w->nframes++] = (struct emu_frame){
        .ret_pc = w->pc, .local_sp = w->local_sp, .callee = callee, .simt_depth = w->sp,
        .call = in, .saved = save, .mask = m,
    };
    w->local_sp = new_sp;
    /* Guard-false lanes skip the call: they wait in the caller's entry. */
    emu_simt_push_call(w, callee->entry_pc, m);
    return EMU_CONTINUE;
}

/* Completes a call once every lane of the callee has returned. */
static int finish_return(struct emu_warp *w)
{
    struct emu_frame *f = &w->frames[--w->nframes];
    const struct emu_call_info *ci = f->call->aux;
    const struct emu_func *callee = f->callee;
    uint32_t callee_sp = w->local_sp;
    w->local_sp = f->local_sp;
    uint32_t nrets = ci->nrets < callee->nrets ? ci->nrets : callee->nrets;
    EMU_LANES(l) {
        if (!EMU_ON(f->mask & ~w->exited, l)) continue;
        uint8_t *base = lane_local(w, l);
        for (uint32_t i = 0; i < nrets; i++) {
            uint32_t sz = ci->ret_size[i] < callee->ret_size[i] ? ci->ret_size[i] : callee->ret_size[i];
            memmove(base + w->local_sp + ci->ret_off[i], base + callee_sp + callee->ret_off[i], sz);
        }
    }
    if (f->saved) spill_rows(w, callee, false);
    return EMU_CONTINUE;
}

/* ret: lanes leave the callee's entries; when none remain the call completes.
 * In a kernel, ret is exit. */
static EMU_CHAINED_FLOW int h_ret(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    if (w->nframes == 0)
        return h_exit(w, in, m);
    struct emu_frame *f = &w->frames[w->nframes - 1];
    emu_simt_remove_lanes(w, m, f->simt_depth);
    while (w->sp > f->simt_depth && w->stack[w->sp - 1].mask == 0) w->sp--;
    if (w->sp > f->simt_depth) {             /* other lanes of the callee still run */
        w->pc = w->stack[w->sp - 1].pc;
        w->active = w->stack[w->sp - 1].mask;
        return EMU_CONTINUE;
    }
    finish_return(w);
    int rc = emu_simt_settle(w);
    if (rc) return rc;
    w->pc = w->stack[w->sp - 1].pc;
    w->active = w->stack[w->sp - 1].mask;
    return EMU_CONTINUE;
}

EMU_CHAINED_FLOW int emu_h_implicit_ret(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    return h_ret(w, in, m);
}

/* ---- Host functions ---------------------------------------------------------------- */

static uint64_t frame_u64(struct emu_warp *w, unsigned l, uint32_t off)
{
    uint64_t v;
    memcpy(&v, lane_local(w, l) + w->local_sp + off, 8);
    return v;
}

static uint32_t frame_u32(struct emu_warp *w, unsigned l, uint32_t off)
{
    uint32_t v;
    memcpy(&v, lane_local(w, l) + w->local_sp + off, 4);
    return v;
}

static void frame_put(struct emu_warp *w, unsigned l, uint32_t off, const void *v, uint32_t size)
{
    memcpy(lane_local(w, l) + w->local_sp + off, v, size);
}

/* Reads a NUL-terminated device string for reports (bounded). */
static void read_dev_string(struct emu_warp *w, const struct emu_inst *in, unsigned l, uint64_t addr, char *buf,
                            size_t size)
{
    size_t i = 0;
    for (; addr && i + 1 < size; i++) {
        const char *p = emu_mem_ptr(w, in, l, PTX_SPACE_NONE, addr + i, 1, false);
        if (!p) { w->cta->fault = NULL; break; }
        if (!*p) break;
        buf[i] = *p;
    }
    buf[i] = 0;
}

static int host_call(struct emu_warp *w, const struct emu_inst *in, emu_mask m, const struct emu_call_info *ci)
{
    struct emu_host *host = w->cta->launch->host;
    bool asserted = false;
    EMU_LANES(l) {
        if (!EMU_ON(m, l)) continue;
        switch ((enum emu_host_fn)ci->host) {
        case EMU_HOST_VPRINTF: {
            uint64_t fmt = frame_u64(w, l, ci->arg_off[0]);
            uint64_t args = ci->nargs > 1 ? frame_u64(w, l, ci->arg_off[1]) : 0;
            const char *f = emu_mem_ptr(w, in, l, PTX_SPACE_NONE, fmt, 1, false);
            if (!f) return EMU_STOP_FAULT;
            const char *err = NULL;
            int32_t r = emu_host_vprintf(host, f, (const uint8_t *)(uintptr_t)args, 0, &err);
            if (r < 0)
                return emu_fault(w, in, l, LOOM_ERR_LAUNCH_FAILED, args, 0, "printf: %s", err ? err : "bad arguments");
            if (ci->nrets) frame_put(w, l, ci->ret_off[0], &r, 4);
            break;
        }
        case EMU_HOST_MALLOC: {
            uint64_t p = emu_host_malloc(host, frame_u64(w, l, ci->arg_off[0]));
            if (ci->nrets) frame_put(w, l, ci->ret_off[0], &p, 8);
            break;
        }
        case EMU_HOST_FREE: {
            uint64_t p = frame_u64(w, l, ci->arg_off[0]);
            if (emu_host_free(host, p) != 0)
                return emu_fault(w, in, l, LOOM_ERR_ILLEGAL_ADDRESS, p, 0,
                                 "free() of 0x%llx, which is not a live block of the device heap",
                                 (unsigned long long)p);
            break;
        }
        case EMU_HOST_ASSERTFAIL: {
            char msg[200], file[200], func[200], line[800], what[640];
            read_dev_string(w, in, l, frame_u64(w, l, ci->arg_off[0]), msg, sizeof msg);
            read_dev_string(w, in, l, frame_u64(w, l, ci->arg_off[1]), file, sizeof file);
            uint32_t at = frame_u32(w, l, ci->arg_off[2]);
            read_dev_string(w, in, l, frame_u64(w, l, ci->arg_off[3]), func, sizeof func);
            const struct emu_cta *c = w->cta;
            snprintf(line, sizeof line, "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.",
                     file, at, func, c->ctaid[0], c->ctaid[1], c->ctaid[2], w->tid[0][l], w->tid[1][l],
                     w->tid[2][l], msg);
            snprintf(what, sizeof what, "device-side assert triggered: `%s` failed", msg);
            emu_assert_fail(w, in, l, line, what);
            asserted = true;
            break;
        }
        default:
            return emu_fault(w, in, l, LOOM_ERR_INTERNAL, 0, 0, "unknown host function");
        }
    }
    /* __assertfail traps: the warp ends once each of its failing lanes has printed */
    return asserted ? emu_warp_end(w) : EMU_CONTINUE;
}

/* ---- Barriers and warp synchronisation ------------------------------------------------ */

/* bar.sync / barrier.sync / bar.arrive / bar.red: in->a holds the barrier id row,
 * in->b the thread-count row (EMU_NOREG when absent), in->sub the kind. */
enum { BAR_SYNC, BAR_ARRIVE, BAR_RED_POPC, BAR_RED_AND, BAR_RED_OR };

static int h_bar(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    unsigned first = (unsigned)__builtin_ctz(m);
    uint32_t id = w->r32[in->a][first];
    uint32_t count = in->b != EMU_NOREG ? w->r32[in->b][first] : 0;
    if (count && (count % EMU_WARP_SIZE) != 0)
        return emu_fault(w, in, first, LOOM_ERR_LAUNCH_FAILED, 0, 0,
                         "barrier thread count %u is not a multiple of the warp size", count);
    int rc = emu_barrier_arrive(w, in, id, count, m);
    if (rc) return rc;
    struct emu_barrier *b = &w->cta->bars[id];
    if (in->sub >= BAR_RED_POPC) {
        emu_mask p = w->pred[in->c];
        if (in->sub2) p = ~p;
        emu_mask live = w->valid & ~w->exited;
        uint32_t t = (uint32_t)__builtin_popcount(p & live);
        b->red_popc += t;
        b->red_or_any += t;
        b->red_and_fail += (uint32_t)__builtin_popcount(~p & live);
        b->red = true;
    }
    if (in->sub == BAR_ARRIVE)
        return EMU_CONTINUE;
    w->wait = (struct emu_wait){ .kind = EMU_WAIT_BARRIER, .barrier = id, .count = count,
                                 .pc = in->src };
    b->waiting |= 1u << w->id;
    w->cta->runnable &= ~(1u << w->id);
    if (in->sub >= BAR_RED_POPC) {
        w->wait.red_op = (uint8_t)(in->sub - BAR_RED_POPC + 1);
        w->wait.red_to_pred = in->sub != BAR_RED_POPC;
        w->wait.red_dst = in->d;
        w->wait.red_mask = m;
    }
    return EMU_STOP_BARRIER;
}

/* The hand-over of a barrier arrival (h_bar_sync_imm): warp w has stopped at
 * the barrier (or released it), and warp nw goes on where it stands with
 * the chained run there, when there is one and no split waits to reconverge
 * at it: w's stop is done here (what the dispatch loop's stop and switch would
 * do, emu_exec.c), cta->cur names nw and cta->handed tells the loop. Else the
 * dispatch loop takes over. */
static inline __attribute__((always_inline)) int bar_hand_over(struct emu_warp *w, const struct emu_inst *in,
                                                              struct emu_cta *cta, struct emu_warp *nw)
{
    uint32_t pc = nw->pc;
    const struct emu_inst *nx = in - in->src + pc;
    uint32_t n = nx->run;
    if (!n || pc == nw->stack[nw->sp - 1].reconv) return EMU_STOP_BARRIER;
    emu_count_lanes(w, emu_popc(w->active));
    __asm__ volatile("" ::: "memory");           /* two 8-byte stores, not one 16-byte store (forwarding) */
    w->n_barrier++;
    emu_mask active = nw->active;                 /* (nw's wait record: emu_wait_kind) */
    cta->cur = nw->id;
    cta->handed = true;
    __asm__ volatile("" ::: "memory");           /* (gcc would merge the two stores through vector shuffles) */
    cta->cur_active = active;
    nw->n_inst += n;
    nw->chain_left = EMU_SLICE - n;
    nw->pc = pc + n;
    return nx->fn(nw, nx, active);
}

/* The last arrival at barrier b of a bar.sync without a thread count: the
 * release done here rather than by the dispatch loop (no bar.red result to
 * deliver, no racecheck), then the next warp of the pass runs, as emu_exec.c's
 * loop would have it, or the first of the next pass for a few passes
 * (cta->passes_left): the loop then checks the CTA's budget, and the chain,
 * a tail call from handler to handler, unwinds where a build makes calls of
 * them (sanitizers). Else the loop, which finds b released. */
static __attribute__((noinline)) EMU_CHAINED_FLOW int bar_last(struct emu_warp *w, const struct emu_inst *in,
                                                               struct emu_barrier *b, uint32_t id)
{
    struct emu_cta *cta = w->cta;
    if (b->red || cta->race) return EMU_STOP_BARRIER;
    uint32_t runnable = cta->runnable | b->waiting;   /* (their wait records: emu_wait_kind) */
    cta->runnable = runnable;
    b->waiting = 0;
    b->arrived = 0;
    cta->bars_pending &= ~(1u << id);
    uint32_t wid = w->id, later = wid + 1 < 32 ? runnable & (~0u << (wid + 1)) : 0;
    if (!later) {
        if (!cta->passes_left) return EMU_STOP_BARRIER;
        cta->passes_left--;
        later = runnable;
    }
    return bar_hand_over(w, in, cta, &cta->warps[__builtin_ctz(later)]);
}

/* bar.sync / barrier.sync with an immediate id and no thread count, the
 * form __syncthreads() gives: the arrival without the general case's checks
 * (the id was checked at decode; a count mismatch goes to h_bar to report). */
static EMU_CHAINED_FLOW int h_bar_sync_imm(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    uint32_t id = (uint32_t)in->imm, src = in->src, wid = w->id, bit = 1u << wid;
    struct emu_cta *cta = w->cta;
    struct emu_barrier *b = &cta->bars[id];
    w->pc = src + 1;                              /* (a chain does not keep w->pc) */
    if (b->expected_count) return h_bar(w, in, m);   /* (set only while a counted episode is open) */
    uint32_t arrived = b->arrived + emu_popc(w->valid & ~w->exited);
    b->arrived = arrived;
    b->waiting |= bit;
    cta->bars_pending |= 1u << id;
    uint32_t runnable = cta->runnable & ~bit;
    cta->runnable = runnable;
    w->wait.kind = EMU_WAIT_BARRIER;              /* (red_op is 0 but between a bar.red and its release) */
    w->wait.barrier = id;
    w->wait.pc = src;
    /* Others still to come: a later warp of the pass that can run goes on
     * (bar_hand_over); the last one releases the barrier (bar_last). */
    if (cta->live_stale) return EMU_STOP_BARRIER;
    if (arrived >= cta->live_threads) return bar_last(w, in, b, id);
    uint32_t later = wid + 1 < 32 ? runnable & (~0u << (wid + 1)) : 0;
    if (!later) return EMU_STOP_BARRIER;
    return bar_hand_over(w, in, cta, &cta->warps[__builtin_ctz(later)]);
}

/* bar.warp.sync: lanes of the mask must be converged here; in lockstep they are. */
static int h_warpsync(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    uint32_t mask = w->r32[in->a][__builtin_ctz(m)];
    emu_mask missing = mask & ~m & w->valid & ~w->exited;
    if (missing)
        return emu_fault(w, in, (unsigned)__builtin_ctz(m), LOOM_ERR_LAUNCH_FAILED, 0, 0,
                         "bar.warp.sync with mask 0x%08x: lanes 0x%08x are not converged here", mask, missing);
    if (w->cta->race) emu_check_warp_sync(w);
    return EMU_CONTINUE;
}

static int h_fence(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    atomic_thread_fence(memory_order_seq_cst);
    return EMU_CONTINUE;
}

static int h_nop(struct emu_warp *w, const struct emu_inst *in, emu_mask m) { return EMU_CONTINUE; }

/* nanosleep: let other warps run (a polling warp makes progress possible). */
static int h_nanosleep(struct emu_warp *w, const struct emu_inst *in, emu_mask m) { return EMU_STOP_YIELD; }

static int h_trap(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    return emu_fault(w, in, (unsigned)__builtin_ctz(m), LOOM_ERR_TRAP, 0, 0, "trap instruction executed");
}

static int h_brkpt(struct emu_warp *w, const struct emu_inst *in, emu_mask m)
{
    if (w->cta->launch->dbg) return EMU_CONTINUE;   /* the debugger stopped before it (debug/debug.c) */
    return emu_fault(w, in, (unsigned)__builtin_ctz(m), LOOM_ERR_TRAP, 0, 0, "brkpt executed (no debugger attached)");
}

/* ---- Selection ------------------------------------------------------------------------ */

static const char *const host_names[EMU_HOST_COUNT_] = { "vprintf", "malloc", "free", "__assertfail" };

static enum emu_sel sel_call(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out)
{
    /* ops[0] = LIST of results, ops[1] = callee, ops[2] = LIST of arguments (ptx_ir.h). */
    if (pi->nops < 3) return emu_dec_unsupported(dc, "malformed call");
    const struct ptx_operand *rets = &pi->ops[0], *target = &pi->ops[1], *args = &pi->ops[2];
    if (!target) return emu_dec_unsupported(dc, "call without a target");
    struct emu_call_info *ci = calloc(1, sizeof *ci);
    if (!ci) return emu_dec_unsupported(dc, "out of memory");
    ci->host = -1;
    if (target->kind == PTX_OPND_SYM && target->sym->kind == PTX_SYM_FUNC) {
        const struct ptx_func *f = target->sym->func;
        const struct emu_program *p = dc->prog;
        for (uint32_t k = 0; k < p->nfuncs; k++)
            if (p->funcs[k].ir == f) ci->callee = &p->funcs[k];
        if (f && f->is_decl) {
            for (int h = 0; h < EMU_HOST_COUNT_; h++)
                if (strcmp(f->name, host_names[h]) == 0) ci->host = h;
            if (ci->host < 0) {
                /* ptxas refuses such a module too: it needs the unit that defines f */
                char why[256];
                snprintf(why, sizeof why, "'%s' is declared .extern and defined in no module given: a unit "
                         "compiled with -rdc needs linking with the one that defines it", f->name);
                free(ci);
                return emu_dec_unsupported(dc, why);
            }
        }
        if (!ci->callee && ci->host < 0) { free(ci); return emu_dec_unsupported(dc, "unknown call target"); }
    } else if (target->kind == PTX_OPND_REG) {
        ci->ptr_row = emu_dec_src(dc, target, PTX_T_U64);
    } else {
        free(ci);
        return emu_dec_unsupported(dc, "call target must be a function or a register");
    }
    const struct ptx_operand *lists[2] = { args, rets };
    for (int k = 0; k < 2; k++) {
        const struct ptx_operand *L = lists[k];
        if (!L) continue;
        uint32_t limit = k == 0 ? 32 : 8;
        if (L->nelems > limit) { free(ci); return emu_dec_unsupported(dc, "too many call arguments"); }
        for (uint32_t e = 0; e < L->nelems; e++) {
            const struct ptx_operand *op = &L->elems[e];
            uint32_t off;
            if (op->kind != PTX_OPND_SYM || !emu_dec_frame_offset(dc, op->sym, &off)) {
                free(ci);
                return emu_dec_unsupported(dc, "call arguments must be .param variables");
            }
            uint32_t sz = (uint32_t)(op->sym->size ? op->sym->size : 8);
            if (k == 0) { ci->arg_off[e] = off; ci->arg_size[e] = sz; ci->nargs = e + 1; }
            else { ci->ret_off[e] = off; ci->ret_size[e] = sz; ci->nrets = e + 1; }
        }
    }
    out->fn = h_call;
    if (ci->host < 0) { dc->prog->has_calls = true; out->skind = EMU_SK_CALL; }
    out->aux = ci;
    out->aux_owned = 1;
    return EMU_SEL_OK;
}

static enum emu_sel sel_bar(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out)
{
    bool warp = false, arrive = false, red = false;
    for (unsigned k = 0; k < pi->nmods; k++) {
        if (pi->mods[k] == PTX_MOD_WARP) warp = true;
        if (pi->mods[k] == PTX_MOD_ARRIVE) arrive = true;
        if (pi->mods[k] == PTX_MOD_RED) red = true;
    }
    if (warp) {
        if (pi->nops != 1) return emu_dec_unsupported(dc, "bar.warp.sync takes one operand");
        out->fn = h_warpsync;
        out->skind = EMU_SK_WARPSYNC;
        out->a = emu_dec_src(dc, &pi->ops[0], PTX_T_B32);
        return EMU_SEL_OK;
    }
    out->fn = h_bar;
    out->skind = EMU_SK_BAR;
    out->b = EMU_NOREG;
    if (red) {
        /* bar.red.op.type d, a{, b}, {!}c */
        if (pi->nops < 3) return emu_dec_unsupported(dc, "bar.red needs d, a, c");
        out->sub = 0;
        for (unsigned k = 0; k < pi->nmods; k++) {
            if (pi->mods[k] == PTX_MOD_POPC) out->sub = BAR_RED_POPC;
            else if (pi->mods[k] == PTX_MOD_AND) out->sub = BAR_RED_AND;
            else if (pi->mods[k] == PTX_MOD_OR) out->sub = BAR_RED_OR;
        }
        if (!out->sub) return emu_dec_unsupported(dc, "bar.red needs .popc, .and or .or");
        out->d = out->sub == BAR_RED_POPC ? emu_dec_dst(dc, &pi->ops[0], PTX_T_U32) : emu_dec_pred(dc, &pi->ops[0]);
        out->a = emu_dec_src(dc, &pi->ops[1], PTX_T_U32);
        if (pi->nops == 4) out->b = emu_dec_src(dc, &pi->ops[2], PTX_T_U32);
        const struct ptx_operand *c = &pi->ops[pi->nops - 1];
        out->c = emu_dec_pred(dc, c);
        out->sub2 = c->neg;
        return EMU_SEL_OK;
    }
    if (pi->nops < 1 || pi->nops > 2) return emu_dec_unsupported(dc, "bar takes a barrier id and an optional count");
    out->sub = arrive ? BAR_ARRIVE : BAR_SYNC;
    out->a = emu_dec_src(dc, &pi->ops[0], PTX_T_U32);
    if (pi->nops == 2) out->b = emu_dec_src(dc, &pi->ops[1], PTX_T_U32);
    if (!arrive && pi->nops == 1 && pi->ops[0].kind == PTX_OPND_IMM_INT && pi->ops[0].ival >= 0 && pi->ops[0].ival < 16) {
        out->fn = h_bar_sync_imm;
        out->imm = pi->ops[0].ival;
    }
    return EMU_SEL_OK;
}

static enum emu_sel sel_brx(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out)
{
    /* brx.idx a, tlist: the list is a .branchtargets label, stored as a LABEL operand
     * whose symbol lists targets, or as a LIST operand of labels. */
    if (pi->nops != 2) return emu_dec_unsupported(dc, "brx.idx takes an index and a target list");
    const struct ptx_operand *t = &pi->ops[1];
    if (t->kind != PTX_OPND_LABEL || dc->fn->labels[t->label].kind != PTX_LABEL_BRANCHTARGETS)
        return emu_dec_unsupported(dc, "brx.idx needs a .branchtargets list");
    const struct ptx_label *list = &dc->fn->labels[t->label];
    uint32_t n = list->ntargets;
    uint32_t *tab = calloc(n ? n : 1, sizeof *tab);
    if (!tab) return emu_dec_unsupported(dc, "out of memory");
    for (uint32_t k = 0; k < n; k++) tab[k] = dc->fn->labels[list->targets[k]].instr;
    out->fn = h_brx;
    out->a = emu_dec_src(dc, &pi->ops[0], PTX_T_U32);
    out->aux = tab; out->aux_owned = 1; out->aux_targets = (uint16_t)n;
    out->reconv = EMU_RECONV_FROM_CFG;
    return EMU_SEL_OK;
}

/* Makes instruction x a fused handler fn that also does branch bra (@!p: neg). */
static void take_branch(struct emu_inst *x, emu_fn fn, const struct emu_inst *bra, bool neg)
{
    x->fn = fn;
    x->flow = 1;
    x->br = 1;
    x->target = bra->target;
    x->reconv = bra->reconv;
    x->nv = neg;
}

/* `setp p, a, b; @p bra L` (or @!p) in one block: the setp, already emitted,
 * becomes a fused handler that also branches (emu_cmp.c). The bra stays,
 * for whatever jumps to it; the fused handler skips it. Both share the
 * block, so they share the reconvergence point the decoder resolves. */
static void fuse_with_setp(struct emu_decoder *dc, const struct ptx_instr *pi, const struct emu_inst *bra)
{
    const struct ptx_func *fn = dc->fn;
    uint32_t idx = (uint32_t)(pi - fn->instrs);
    if (!dc->fuse || pi->guard_reg < 0 || idx == 0 || !fn->block_of || dc->ncode <= dc->efn->entry_pc) return;
    if (fn->block_of[idx] != fn->block_of[idx - 1] || dc->locs[dc->ncode - 1].ir != pi - 1) return;
    struct emu_inst *prev = &dc->code[dc->ncode - 1];
    emu_fn fused = emu_setp_fused(prev->fn);
    if (!fused || prev->guard != EMU_NOGUARD || prev->d != dc->reg_row[pi->guard_reg]) return;
    take_branch(prev, fused, bra, pi->guard_neg);
    /* A uniform loop's step before it (`add d, ...; setp p, d, c; @p bra`, all
     * scalar twins): the step's handler does all three. */
    if (idx < 2 || dc->ncode < dc->efn->entry_pc + 2 || fn->block_of[idx - 2] != fn->block_of[idx] ||
        dc->locs[dc->ncode - 2].ir != pi - 2)
        return;
    struct emu_inst *op = &dc->code[dc->ncode - 2];
    emu_fn fused3 = emu_setp_fused3(fused, op->ukind);
    if (!fused3 || op->guard != EMU_NOGUARD || op->d != prev->a) return;
    take_branch(op, fused3, bra, pi->guard_neg);
    op->c = prev->b;
    op->e = prev->d;
}

enum emu_sel emu_sel_ctrl(struct emu_decoder *dc, const struct ptx_instr *pi, struct emu_inst *out)
{
    switch (pi->op) {
    case PTX_OP_BRA:
        if (pi->nops != 1 || pi->ops[0].kind != PTX_OPND_LABEL)
            return emu_dec_unsupported(dc, "bra needs a label");
        out->fn = h_bra;
        out->br = 1;
        out->target = dc->fn->labels[pi->ops[0].label].instr;
        out->reconv = EMU_RECONV_FROM_CFG;
        fuse_with_setp(dc, pi, out);
        return EMU_SEL_OK;
    case PTX_OP_BRX: return sel_brx(dc, pi, out);
    case PTX_OP_CALL: return sel_call(dc, pi, out);
    case PTX_OP_RET: out->fn = h_ret; out->skind = EMU_SK_RET; return EMU_SEL_OK;
    case PTX_OP_EXIT: out->fn = h_exit; return EMU_SEL_OK;
    case PTX_OP_TRAP: out->fn = h_trap; return EMU_SEL_OK;
    case PTX_OP_BRKPT: out->fn = h_brkpt; return EMU_SEL_OK;
    case PTX_OP_BAR: case PTX_OP_BARRIER: return sel_bar(dc, pi, out);
    case PTX_OP_MEMBAR: case PTX_OP_FENCE:
        /* Every fence is a full sequentially consistent fence here (stronger is
         * allowed). Proxy fences (fence.proxy.async ...) order the asynchronous
         * proxy's accesses, which Loom makes in program order at issue, and
         * fence.mbarrier_init orders mbarrier.init, done at issue too. */
        out->fn = h_fence;
        return EMU_SEL_OK;
    case PTX_OP_NANOSLEEP: out->fn = h_nanosleep; return EMU_SEL_OK;
    case PTX_OP_SETMAXNREG:
        /* setmaxnreg.{inc,dec}.sync.aligned.u32 n: a hint on the warpgroup's registers,
         * n in 24..256 and a multiple of 8 (PTX ISA "setmaxnreg"); no effect on results. */
        if (pi->nops != 1 || pi->ops[0].kind != PTX_OPND_IMM_INT || pi->ops[0].ival < 24 || pi->ops[0].ival > 256 ||
            pi->ops[0].ival % 8)
            return emu_dec_unsupported(dc, "setmaxnreg takes a register count from 24 to 256, a multiple of 8");
        if (pi->subop != PTX_MOD_INC && pi->subop != PTX_MOD_DEC)
            return emu_dec_unsupported(dc, "setmaxnreg needs .inc or .dec");
        out->fn = h_nop;
        return EMU_SEL_OK;
    case PTX_OP_PMEVENT: case PTX_OP_GRIDDEPCONTROL:
    case PTX_OP_PREFETCH: case PTX_OP_PREFETCHU: case PTX_OP_APPLYPRIORITY:
        out->fn = h_nop;
        return EMU_SEL_OK;
    default:
        return EMU_SEL_NO;
    }
}
