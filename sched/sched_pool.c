/* sched_pool.c -- the worker pool and the scheduler: streams of operations,
 * kernels split into CTAs that workers keep resident as virtual threads, a
 * replaceable policy for which grid's CTA runs next, events and host work. */
#include "config.h"

#include <errno.h>
#include <hwloc.h>
#include <inttypes.h>
#include <omp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "emu/emu_obs.h"
#include "emu/emu_report.h"
#include "include/loom/loom.h"
#include "sched/sched.h"
#include "sched/sched_cpus.h"

/* A CTA runs this many warp-instructions before its worker looks at the
 * others it holds: spinning CTAs cannot starve the CTAs they wait for. */
#define SCHED_SLICE 65536
/* How long the CTAs of a grid run on after a failed assert (record_fault). */
#define SCHED_ASSERT_GRACE_NS 1000000000ull

/* The first bin of a residency timeline: 25 us, doubled as the grid runs on. */
#define SCHED_TIMELINE_BIN0_NS 25000

uint64_t sched_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

double sched_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- Grids ---------------------------------------------------------------------- */

static void grid_release(struct sched_grid *g)
{
    if (atomic_fetch_sub(&g->refs, 1) != 1) return;
    emu_obs_destroy(g->L.obs);
    free(g->cta_inst);
    free(g->params);
    free(g);
}

/* ---- Operations and streams ------------------------------------------------------ */

static bool stream_blocking(const struct loom_stream *st) { return !(st->flags & LOOM_STREAM_NON_BLOCKING); }

/* Whether op (the head of its stream) may start: legacy default-stream
 * ordering and event waits. Caller holds s->lock. */
static bool op_ready(struct sched *s, const struct sched_op *op)
{
    const struct loom_stream *st = op->stream;
    if (st->is_default) {
        for (struct loom_stream *o = s->streams; o; o = o->next)
            if (o != st && stream_blocking(o) && o->head && o->head->seq < op->seq) return false;
    } else if (stream_blocking(st)) {
        const struct loom_stream *d = s->default_stream;
        if (d->head && d->head->seq < op->seq) return false;
    }
    if (op->kind == SCHED_OP_WAIT_EVENT && op->event->done_gen < op->event_gen) return false;
    return !s->policy->ready || s->policy->ready(s, op);
}

/* Whether op, whose predecessors are done, may start (acs, dag). */
static bool op_free(struct sched *s, const struct sched_op *op)
{
    if (op->kind == SCHED_OP_WAIT_EVENT && op->event->done_gen < op->event_gen) return false;
    return !op->drain || op == s->ghead;
}

static void op_finish_locked(struct sched *s, struct sched_op *op);

/* Starts op: a kernel becomes an active grid; another operation is handed to the caller
 * through *out_op, or finished at once (event records and waits). False when op cannot
 * start here (the caller has an operation already, or gave no out_op). *finished tells
 * that op is gone. */
static bool start_op(struct sched *s, struct sched_op *op, struct sched_op **out_op, bool *finished)
{
    *finished = false;
    if (s->timed && !s->pstats.first_ns) s->pstats.first_ns = sched_now_ns();
    if (op->kind == SCHED_OP_KERNEL && op->grid->run_alone) {
        if (!out_op || *out_op) return false;        /* (a worker runs it: exec_simple) */
        op->state = SCHED_RUNNING;
        op->grid->t_start = sched_now();
        *out_op = op;
    } else if (op->kind == SCHED_OP_KERNEL) {
        struct sched_grid *g = op->grid;
        op->state = SCHED_RUNNING;
        g->t_start = sched_now();
        g->tl.start_ns = sched_now_ns();
        g->tl.bin_ns = SCHED_TIMELINE_BIN0_NS;
        atomic_store_explicit(&g->tl.next_ns, g->tl.start_ns, memory_order_relaxed);
        g->interrupts_seen = atomic_load_explicit(&s->interrupts, memory_order_relaxed);
        atomic_fetch_add(&s->running, 1);
        g->next_active = NULL;
        struct sched_grid **tail = &s->active;
        while (*tail) {
            (*tail)->overlapped = g->overlapped = true;
            tail = &(*tail)->next_active;
        }
        *tail = g;
    } else if (op->kind == SCHED_OP_WAIT_EVENT || op->kind == SCHED_OP_RECORD_EVENT) {
        op->state = SCHED_RUNNING;
        op_finish_locked(s, op);   /* instantaneous */
        *finished = true;
    } else if (out_op && !*out_op) {
        op->state = SCHED_RUNNING;
        *out_op = op;
    } else {
        return false;
    }
    return true;
}

/* dag: whether op, off the ready list, can start in this call (ctx: promote's out_op). */
static bool may_start_now(struct sched *s, const struct sched_op *op, void *ctx)
{
    struct sched_op **out_op = ctx;
    if (!op_free(s, op)) return false;
    bool needs_worker = op->kind == SCHED_OP_HOST || op->kind == SCHED_OP_COPY || op->kind == SCHED_OP_SET ||
                        (op->kind == SCHED_OP_KERNEL && op->grid->run_alone);
    return !needs_worker || (out_op && !*out_op);
}

/* acs and dag: starts the operations whose predecessors are done, among the first
 * `window` unfinished ones (acs) or from the ready list (dag). */
static bool promote_deps_locked(struct sched *s, struct sched_op **out_op)
{
    bool any = false, again = true;
    while (again) {
        again = false;
        if (s->window) {
            unsigned pos = 0;
            for (struct sched_op *op = s->ghead; op && pos < s->window; op = op->gnext, pos++) {
                if (op->state != SCHED_PENDING || op->npred || !op_free(s, op)) continue;
                bool gone;
                if (!start_op(s, op, out_op, &gone)) continue;
                any = true;
                if (gone) { again = true; break; }   /* (the list changed under us) */
            }
        } else {
            struct sched_op *op;
            bool gone;
            while ((op = sched_ready_take(s, may_start_now, out_op))) {
                start_op(s, op, out_op, &gone);
                any = true;
            }
        }
    }
    return any;
}

/* Starts every ready head operation: kernels become active grids; other
 * operations are handed to the caller through *out_op (one at a time). */
static bool promote_locked(struct sched *s, struct sched_op **out_op)
{
    if (s->policy->reorders) return promote_deps_locked(s, out_op);
    bool changed = true, any = false;
    while (changed) {
        changed = false;
        for (struct loom_stream *st = s->streams; st; st = st->next) {
            struct sched_op *op = st->head;
            if (!op || op->state != SCHED_PENDING || !op_ready(s, op)) continue;
            /* (decided before start_op: an event record or wait is freed there) */
            bool to_worker = op->kind == SCHED_OP_HOST || op->kind == SCHED_OP_COPY || op->kind == SCHED_OP_SET ||
                             (op->kind == SCHED_OP_KERNEL && op->grid->run_alone);
            bool gone;
            if (!start_op(s, op, out_op, &gone)) continue;
            any = true;
            if (!to_worker) changed = true;       /* a grid started, or the stream moved on */
        }
    }
    return any;
}

/* Completes op: the stream moves on, waiters wake. Caller holds s->lock. */
static void op_finish_locked(struct sched *s, struct sched_op *op)
{
    struct loom_stream *st = op->stream;
    op->state = SCHED_DONE;
    /* A record completes its own generation only: an older record of an event recorded
     * again since (on another stream) does not undo the newer one's completion. */
    if (op->kind == SCHED_OP_RECORD_EVENT && op->event_gen > op->event->done_gen) {
        op->event->t = sched_now();
        op->event->done_gen = op->event_gen;
    }
    if (s->trace && (op->kind == SCHED_OP_RECORD_EVENT || op->kind == SCHED_OP_WAIT_EVENT)) {
        char args[48];
        snprintf(args, sizeof args, "{\"generation\":%" PRIu64 "}", op->event_gen);
        loom_trace_instant(s->trace, LOOM_TRACE_STREAM_TRACK(st->id),
                           op->kind == SCHED_OP_RECORD_EVENT ? "event record" : "event wait", sched_now_ns(), args);
    }
    if (op->kind == SCHED_OP_RECORD_EVENT || op->kind == SCHED_OP_WAIT_EVENT) sched_event_unref_locked(op->event);
    if (op->sprev) op->sprev->next = op->next;       /* (acs, dag: not always the head) */
    else st->head = op->next;
    if (op->next) op->next->sprev = op->sprev;
    else st->tail = op->sprev;
    st->completed_seq = st->head ? st->head->seq - 1 : st->submitted_seq;
    if (s->track) {
        if (s->policy->done) s->policy->done(s, op);
        if (op->gprev) op->gprev->gnext = op->gnext;
        else s->ghead = op->gnext;
        if (op->gnext) op->gnext->gprev = op->gprev;
        else s->gtail = op->gprev;
    }
    s->pstats.ops++;
    if (s->timed) s->pstats.last_ns = sched_now_ns();
    if (op->kind == SCHED_OP_KERNEL) {
        s->pstats.kernels++;
        if (op->grid->overlapped) s->pstats.overlapped++;
    }
    s->pending--;
    if (op->kind == SCHED_OP_KERNEL) grid_release(op->grid);
    free(op->segs);      /* (the race check's under fifo; the policy's were freed by done) */
    free(op);
    pthread_cond_broadcast(&s->done_cv);
    pthread_cond_broadcast(&s->work_cv);
}

static _Thread_local bool in_host_func;

bool sched_in_host_func(void) { return in_host_func; }

/* The slice of a copy, a set or a host function on its stream's track, begun at t0, and
 * the end of the flow from the call that queued it (tracing on). */
static void trace_simple(struct loom_trace *t, const struct sched_op *op, uint64_t t0)
{
    unsigned track = LOOM_TRACE_STREAM_TRACK(op->stream->id);
    char args[96];
    const char *name = op->trace_name            ? op->trace_name
                       : op->kind == SCHED_OP_COPY ? "memcpy"
                       : op->kind == SCHED_OP_SET  ? "memset"
                                                   : "host function";
    if (op->kind == SCHED_OP_COPY)
        snprintf(args, sizeof args, "{\"bytes\":%zu,\"direction\":\"%s\"}", op->n,
                 strncmp(name, "memcpy ", 7) == 0 ? name + 7 : "?");
    else if (op->kind == SCHED_OP_SET)
        snprintf(args, sizeof args, "{\"bytes\":%zu,\"value\":%d}", op->n, op->value);
    loom_trace_slice(t, track, name, t0, sched_now_ns(), op->kind == SCHED_OP_HOST ? NULL : args);
    loom_trace_flow_in(t, track, name, op->seq, t0);
}

/* Runs a copy, a set or a host function on the worker whose slot is ws. A host function
 * is marked in the slot while it runs, for the watchdog (sched_watch.c). */
static void exec_simple(struct sched *s, struct sched_wslot *ws, struct sched_op *op)
{
    uint64_t t0 = s->trace ? sched_now_ns() : 0;
    switch (op->kind) {
    case SCHED_OP_COPY: memmove(op->dst, op->src, op->n); break;
    case SCHED_OP_SET: memset(op->dst, op->value, op->n); break;
    case SCHED_OP_KERNEL: op->grid->run_alone(op->grid); break;   /* a debugged launch */
    case SCHED_OP_HOST:
        if (s->host) emu_host_flush(s->host);   /* output so far appears before the callback's */
        in_host_func = true;
        if (s->watching) {
            atomic_store(&ws->host_fn, op->fn);
            atomic_store(&ws->host_t0_ns, sched_now_ns());
        }
        op->fn(op->data);
        if (s->watching) atomic_store(&ws->host_t0_ns, 0);
        in_host_func = false;
        break;
    default: break;
    }
    if (s->trace) trace_simple(s->trace, op, t0);
}

/* ---- Workers ---------------------------------------------------------------------
 * A worker claims a chunk of consecutive CTAs of a grid (its range) and runs them in
 * order; when the range is empty it claims the next chunk of the same grid with one
 * atomic add, without the scheduler lock, and asks the policy for a grid only when that
 * one has no CTAs left. Chunks are guided: about 1/(SCHED_GUIDED x workers) of the CTAs
 * left, at most SCHED_CHUNK_MAX, so they shrink to single CTAs at the end of the grid;
 * consecutive CTAs on one core share cache lines of their data. Once every CTA is
 * claimed, a worker without work steals the upper half of another worker's range, so a
 * worker that the OS (or a virtual machine's host) stops for a while holds back at
 * most the CTA it is running. A range never holds more CTAs than its worker may still
 * admit (its co-residency bound), so CTAs that wait for later CTAs of the same range
 * can always be admitted. What a worker counts (finished CTAs, instructions) is kept in
 * a tally and added to the grid when the worker holds no more of its CTAs.
 * The divisor matters where CTA costs differ: bench's 2048-CTA Mandelbrot (the most
 * costly CTA 4.3 times the mean), simulated on 16 ideal workers without stealing,
 * reaches 16.0x with single CTAs, 14.8x with a divisor of 4 and 15.8x with 8; a claim
 * costs one atomic add either way. */
#define SCHED_CHUNK_MAX 16
#define SCHED_GUIDED 8

struct resident { struct sched_grid *grid; struct emu_cta *cta; uint64_t index; bool busy; };

/* Counters of one grid's finished CTAs, not yet added to the grid. */
struct tally { struct sched_grid *grid; uint64_t done, run, wi, ti, dv, bw; struct emu_simt_stats simt; };

struct worker {
    struct sched *s;
    unsigned id;
    struct sched_wslot *slot;       /* its range and resident count, shared */
    struct resident *res;
    unsigned nres, cap, busy;       /* busy: resident CTAs not finished */
    struct tally tally;
    unsigned published;             /* busy as last added to s->resident_now */
    bool woke;                      /* woke from sleep and has taken no CTA since */
    unsigned notes_seen;            /* s->notes already answered */
    uint64_t finished;              /* CTAs finished (published in slot->finished) */
};

/* The no-progress watchdog asked where the warps are (sched_watch.c): each resident CTA
 * says it, in one write to stderr. */
static void note_residents(struct worker *wk)
{
    for (unsigned i = 0; i < wk->nres; i++) {
        struct resident *r = &wk->res[i];
        if (!r->busy) continue;
        char text[2048], name[64];
        const struct emu_cta *c = r->cta;
        int head = snprintf(text, sizeof text, "loom:   block (%u,%u,%u) of '%s':", c->ctaid[0], c->ctaid[1],
                            c->ctaid[2], loom_short_name(r->grid->L.entry->ir->name, 40, name, sizeof name));
        if (head < 0 || (size_t)head >= sizeof text - 2) continue;
        size_t n = (size_t)head + emu_cta_describe(c, text + head, sizeof text - 1 - (size_t)head);
        text[n++] = '\n';
        ssize_t w = write(STDERR_FILENO, text, n);
        (void)w;
    }
}

static void grid_done_locked(struct sched *s, struct sched_grid *g)
{
    for (struct sched_grid **p = &s->active; *p; p = &(*p)->next_active)
        if (*p == g) { *p = g->next_active; break; }
    g->seconds = sched_now() - g->t_start;
    atomic_fetch_sub(&s->running, 1);
    if (s->progress_shown) sched_progress_erase(s);     /* before the program prints again */
    if (g->on_done) g->on_done(g);
    op_finish_locked(s, g->op);
}

/* Counts n more CTAs of g as done; the count that reaches nctas completes the grid. */
static void add_done(struct sched *s, struct sched_grid *g, uint64_t n)
{
    if (!n || atomic_fetch_add(&g->done, n) + n != g->nctas) return;
    pthread_mutex_lock(&s->lock);
    if (!g->finished) {
        g->finished = true;
        grid_done_locked(s, g);
    }
    pthread_mutex_unlock(&s->lock);
}

/* No new CTAs of g start; those never claimed count as done (claimed ones are counted by
 * the worker holding them). The caller holds a CTA of g uncounted, so this cannot complete
 * the grid under it. */
static void stop_grid(struct sched *s, struct sched_grid *g)
{
    int expected = 0;
    if (atomic_compare_exchange_strong(&g->faulted, &expected, 1)) {
        uint64_t was = atomic_exchange(&g->next, g->nctas);
        if (was < g->nctas) add_done(s, g, g->nctas - was);
    }
}

static void record_fault(struct sched *s, struct sched_grid *g, const struct emu_fault *f)
{
    int expected = 0;
    if (atomic_compare_exchange_strong(&g->fault_set, &expected, 1)) g->fault = *f;
    /* A failed assert stops the GPU's kernel only once the trap reaches the other warps:
     * those already running print their own failed asserts meanwhile. A grid the GPU
     * holds at once runs on, for a bounded time (run_residents), so the lines match. */
    if (f->status == LOOM_ERR_ASSERT && g->nctas <= g->assert_wave) {
        uint64_t none = 0;
        atomic_compare_exchange_strong(&g->assert_ns, &none, sched_now_ns());
        return;
    }
    stop_grid(s, g);
}

void sched_grid_fault(struct sched_grid *g, const struct emu_fault *f)
{
    int expected = 0;
    if (atomic_compare_exchange_strong(&g->fault_set, &expected, 1)) g->fault = *f;
    atomic_store(&g->faulted, 1);
}

/* Adds the tally to its grid: counters first, then the done count that may complete it. */
static void tally_flush(struct worker *wk)
{
    struct tally *t = &wk->tally;
    struct sched_grid *g = t->grid;
    if (!g) return;
    if (t->wi) atomic_fetch_add_explicit(&g->warp_inst, t->wi, memory_order_relaxed);
    if (t->ti) atomic_fetch_add_explicit(&g->thread_inst, t->ti, memory_order_relaxed);
    if (t->dv) atomic_fetch_add_explicit(&g->diverge, t->dv, memory_order_relaxed);
    if (t->bw) atomic_fetch_add_explicit(&g->barrier_waits, t->bw, memory_order_relaxed);
    if (t->run) atomic_fetch_add_explicit(&g->ctas_run, t->run, memory_order_relaxed);
    if (t->simt.slots) {
        while (atomic_flag_test_and_set_explicit(&g->simt_busy, memory_order_acquire)) {}
        emu_simt_stats_add(&g->simt, &t->simt);
        atomic_flag_clear_explicit(&g->simt_busy, memory_order_release);
    }
    uint64_t n = t->done;
    *t = (struct tally){ 0 };
    add_done(wk->s, g, n);
}

static struct tally *tally_for(struct worker *wk, struct sched_grid *g)
{
    if (wk->tally.grid != g) {
        tally_flush(wk);
        wk->tally.grid = g;
    }
    return &wk->tally;
}

/* Adds a finished CTA's counters to the tally (its SIMT issue model's with statistics on). */
static void count_cta(struct tally *t, struct emu_cta *cta, bool stats, struct sched_grid *g, uint64_t index)
{
    if (stats) emu_cta_take_simt_stats(cta, &t->simt);
    uint64_t wi = 0;
    for (uint32_t w = 0; w < cta->nwarps; w++) {
        struct emu_warp *wp = &cta->warps[w];
        wi += wp->n_inst; t->ti += wp->n_thread_inst; t->dv += wp->n_diverge; t->bw += wp->n_barrier;
        wp->n_inst = wp->n_thread_inst = wp->n_diverge = wp->n_barrier = 0;
    }
    t->wi += wi;
    if (g->cta_inst && index < g->nctas) g->cta_inst[index] = wi > UINT32_MAX ? UINT32_MAX : (uint32_t)wi;
}

/* Whether the worker still holds CTAs of g (claimed or resident). */
static bool holds(const struct worker *wk, const struct sched_grid *g)
{
    pthread_mutex_lock(&wk->slot->lock);
    bool claimed = wk->slot->grid == g;
    pthread_mutex_unlock(&wk->slot->lock);
    if (claimed) return true;
    for (unsigned i = 0; i < wk->nres; i++)
        if (wk->res[i].busy && wk->res[i].grid == g) return true;
    return false;
}

/* The CTAs the worker may still claim: its co-residency bound less its resident CTAs. */
static uint64_t room(const struct worker *wk)
{
    unsigned max = wk->s->max_resident_per_worker;
    return max > wk->busy ? max - wk->busy : 1;
}

/* Makes CTAs lo .. hi-1 of g the range of slot; caller holds slot->lock. */
static void set_range(struct sched_wslot *slot, struct sched_grid *g, uint64_t lo, uint64_t hi)
{
    slot->grid = lo < hi ? g : NULL;
    atomic_store_explicit(&slot->lo, lo, memory_order_relaxed);
    atomic_store_explicit(&slot->hi, hi, memory_order_relaxed);
}

/* Claims a chunk of g's CTAs as the worker's range (which is empty); false when none
 * are left. The caller keeps g alive: a context of it, or the scheduler lock. */
static bool claim(struct worker *wk, struct sched_grid *g)
{
    struct sched *s = wk->s;
    if (atomic_load_explicit(&g->faulted, memory_order_relaxed)) return false;
    uint64_t next = atomic_load_explicit(&g->next, memory_order_relaxed);
    if (next >= g->nctas) return false;
    uint64_t c = (g->nctas - next) / ((uint64_t)SCHED_GUIDED * s->workers);
    if (c > SCHED_CHUNK_MAX) c = SCHED_CHUNK_MAX;
    if (c > room(wk)) c = room(wk);
    if (c == 0) c = 1;
    uint64_t i = atomic_fetch_add(&g->next, c);
    if (i >= g->nctas) return false;
    pthread_mutex_lock(&wk->slot->lock);
    set_range(wk->slot, g, i, c < g->nctas - i ? i + c : g->nctas);
    pthread_mutex_unlock(&wk->slot->lock);
    atomic_fetch_add_explicit(&g->chunks, 1, memory_order_relaxed);
    return true;
}

/* Takes over the upper half (rounded up, at most room()) of another worker's range,
 * looking at the workers after this one in turn; false when every range is empty. The
 * CTAs taken are not done, so their grid stays alive. */
static bool steal(struct worker *wk)
{
    struct sched *s = wk->s;
    for (unsigned k = 1; k < s->workers; k++) {
        struct sched_wslot *v = &s->wslots[(wk->id + k) % s->workers];
        if (atomic_load_explicit(&v->lo, memory_order_relaxed) >= atomic_load_explicit(&v->hi, memory_order_relaxed))
            continue;
        pthread_mutex_lock(&v->lock);
        struct sched_grid *g = v->grid;
        uint64_t lo = atomic_load_explicit(&v->lo, memory_order_relaxed);
        uint64_t hi = atomic_load_explicit(&v->hi, memory_order_relaxed), take = (hi - lo + 1) / 2;
        if (!g || lo >= hi) {
            pthread_mutex_unlock(&v->lock);
            continue;
        }
        if (take > room(wk)) take = room(wk);
        set_range(v, g, lo, hi - take);
        pthread_mutex_unlock(&v->lock);
        pthread_mutex_lock(&wk->slot->lock);
        set_range(wk->slot, g, hi - take, hi);
        pthread_mutex_unlock(&wk->slot->lock);
        atomic_fetch_add_explicit(&g->steals, 1, memory_order_relaxed);
        return true;
    }
    return false;
}

/* Takes the next CTA of the worker's range. The claimed CTAs of a faulted grid are
 * abandoned instead: they count as done. */
static struct sched_grid *from_range(struct worker *wk, uint64_t *out_index)
{
    struct sched_wslot *slot = wk->slot;
    pthread_mutex_lock(&slot->lock);
    struct sched_grid *g = slot->grid;
    uint64_t lo = atomic_load_explicit(&slot->lo, memory_order_relaxed);
    uint64_t hi = atomic_load_explicit(&slot->hi, memory_order_relaxed);
    if (!g) {
        pthread_mutex_unlock(&slot->lock);
        return NULL;
    }
    if (atomic_load_explicit(&g->faulted, memory_order_relaxed)) {
        set_range(slot, NULL, lo, lo);
        pthread_mutex_unlock(&slot->lock);
        tally_for(wk, g)->done += hi - lo;
        return NULL;
    }
    set_range(slot, g, lo + 1, hi);
    pthread_mutex_unlock(&slot->lock);
    *out_index = lo;
    return g;
}

/* The next CTA to admit without the scheduler lock: from the range, else from a new
 * chunk of `same` (a grid the caller keeps alive), else NULL. */
static struct sched_grid *next_local(struct worker *wk, struct sched_grid *same, uint64_t *out_index)
{
    struct sched_grid *g = from_range(wk, out_index);
    if (!g && same && claim(wk, same)) g = from_range(wk, out_index);
    return g;
}

/* The next CTA to admit: from the range, else from a chunk of the grid the policy
 * picks, else from part of another worker's range. */
static struct sched_grid *next_cta(struct worker *wk, uint64_t *out_index)
{
    struct sched_grid *g = from_range(wk, out_index);
    if (g) return g;
    struct sched *s = wk->s;
    bool claimed = false;
    pthread_mutex_lock(&s->lock);
    while (!claimed && (g = s->policy->pick(s, wk->id))) claimed = claim(wk, g);
    pthread_mutex_unlock(&s->lock);
    if (!claimed) claimed = steal(wk);
    if (!claimed || !(g = from_range(wk, out_index))) return NULL;
    if (wk->woke) {
        atomic_fetch_add_explicit(&g->wakeups, 1, memory_order_relaxed);
        wk->woke = false;
    }
    return g;
}

static void drop_context(struct resident *r)
{
    if (r->cta) emu_cta_destroy(r->cta);
    if (r->grid) grid_release(r->grid);
    r->cta = NULL;
    r->grid = NULL;
}

/* Admits CTA `index` of g (claimed by this worker) into a resident slot, reusing a
 * context of the same grid. A new context holds a reference to the grid. */
static bool admit(struct worker *wk, struct sched_grid *g, uint64_t index)
{
    struct resident *slot = NULL;
    for (unsigned i = 0; i < wk->nres; i++)
        if (!wk->res[i].busy && wk->res[i].grid == g) { slot = &wk->res[i]; break; }
    if (!slot) {
        for (unsigned i = 0; i < wk->nres && !slot; i++)
            if (!wk->res[i].busy) { drop_context(&wk->res[i]); slot = &wk->res[i]; }
        if (!slot) {
            if (wk->nres == wk->cap) {
                unsigned ncap = wk->cap ? 2 * wk->cap : 8;
                struct resident *nr = realloc(wk->res, ncap * sizeof *nr);
                if (!nr) goto oom;
                wk->res = nr;
                wk->cap = ncap;
            }
            slot = &wk->res[wk->nres++];
            memset(slot, 0, sizeof *slot);
        }
        slot->cta = emu_cta_create(&g->L);
        if (!slot->cta) goto oom;
        slot->cta->worker = wk->id;
        atomic_fetch_add(&g->refs, 1);
        slot->grid = g;
    }
    uint32_t id[3] = { (uint32_t)(index % g->L.grid[0]), (uint32_t)((index / g->L.grid[0]) % g->L.grid[1]),
                       (uint32_t)(index / ((uint64_t)g->L.grid[0] * g->L.grid[1])) };
    /* Virtual SMs: worker w serves SMs w, w + W, ...; CTAs fill them in turn. */
    uint32_t nsm = g->L.nsm ? g->L.nsm : 1, per = (nsm + wk->s->workers - 1) / wk->s->workers;
    uint32_t sm = wk->id + wk->s->workers * (uint32_t)(index % (per ? per : 1));
    if (sm >= nsm) sm = wk->id % nsm;
    emu_cta_begin(slot->cta, id, sm);
    slot->index = index;
    slot->busy = true;
    wk->busy++;
    return true;
oom: {
        struct emu_fault f = { .status = LOOM_ERR_OUT_OF_MEMORY };
        snprintf(f.msg, sizeof f.msg, "out of host memory for a CTA of '%s'", g->L.entry->ir->name);
        record_fault(wk->s, g, &f);
        tally_for(wk, g)->done++;
        return false;
    }
}

/* Records one sample of the residency timeline of g when one is due or `force`d
 * (statistics on). Called while the worker holds a CTA of g uncounted (resident, or in
 * its tally), so g cannot complete and be read during the sample. */
static void sample(struct sched *s, struct sched_grid *g, bool force)
{
    struct sched_timeline *tl = &g->tl;
    uint64_t now = sched_now_ns();
    if (!force && now < atomic_load_explicit(&tl->next_ns, memory_order_relaxed)) return;
    int expected = 0;
    if (!atomic_compare_exchange_strong_explicit(&tl->busy, &expected, 1, memory_order_acquire,
                                                 memory_order_relaxed))
        return;
    if ((force || now >= atomic_load_explicit(&tl->next_ns, memory_order_relaxed)) && now >= tl->start_ns) {
        unsigned resident = 0, running = 0;
        for (unsigned w = 0; w < s->workers; w++) {
            unsigned r = atomic_load_explicit(&s->wslots[w].resident, memory_order_relaxed);
            resident += r;
            running += r > 0;
        }
        uint64_t bin;
        while ((bin = (now - tl->start_ns) / tl->bin_ns) >= SCHED_TIMELINE_BINS) {
            for (unsigned i = 0; i < SCHED_TIMELINE_BINS / 2; i++) {
                tl->resident[i] = tl->resident[2 * i] + tl->resident[2 * i + 1];
                tl->running[i] = tl->running[2 * i] + tl->running[2 * i + 1];
                tl->count[i] = tl->count[2 * i] + tl->count[2 * i + 1];
            }
            for (unsigned i = SCHED_TIMELINE_BINS / 2; i < SCHED_TIMELINE_BINS; i++) {
                tl->resident[i] = tl->running[i] = 0;
                tl->count[i] = 0;
            }
            tl->nbins = (tl->nbins + 1) / 2;
            tl->bin_ns *= 2;
        }
        tl->resident[bin] += resident;
        tl->running[bin] += running;
        tl->count[bin]++;
        if (bin + 1 > tl->nbins) tl->nbins = (unsigned)bin + 1;
        atomic_store_explicit(&tl->next_ns, now + tl->bin_ns / 4, memory_order_relaxed);
    }
    atomic_store_explicit(&tl->busy, 0, memory_order_release);
}

/* Shows the worker's resident count to the others; an increase raises the
 * max_resident of the grids it holds. Counts change rarely: a finished CTA's successor
 * is admitted before this is called. With statistics on, a change is sampled at once
 * (into the timeline of a grid whose CTA the worker holds uncounted, before its tally
 * is handed in), so the timeline never misses a worker starting or running out of work
 * however long the slices between samples are. */
static void publish(struct worker *wk)
{
    if (wk->busy == wk->published) return;
    struct sched *s = wk->s;
    atomic_store_explicit(&wk->slot->resident, wk->busy, memory_order_relaxed);
    if (s->stats) {
        struct sched_grid *g = wk->tally.done ? wk->tally.grid : NULL;
        for (unsigned i = 0; i < wk->nres && !g; i++)
            if (wk->res[i].busy) g = wk->res[i].grid;
        if (g) sample(s, g, true);
    }
    if (wk->busy < wk->published) {
        atomic_fetch_sub(&s->resident_now, wk->published - wk->busy);
    } else {
        uint64_t now = atomic_fetch_add(&s->resident_now, wk->busy - wk->published) + (wk->busy - wk->published);
        for (unsigned i = 0; i < wk->nres; i++) {
            if (!wk->res[i].busy) continue;
            struct sched_grid *g = wk->res[i].grid;
            uint64_t prev = atomic_load(&g->max_resident);
            while (now > prev && !atomic_compare_exchange_weak(&g->max_resident, &prev, now)) {}
        }
    }
    wk->published = wk->busy;
}

/* A CTA's run span on the worker's track in the trace, begun at t0 and ended by st. */
static void trace_span(struct loom_trace *t, unsigned worker, const struct sched_grid *g, const struct emu_cta *cta,
                       uint64_t t0, enum emu_cta_state st)
{
    loom_trace_cta(t, worker, g->trace_name, cta->ctaid, g->L.gridid, t0, sched_now_ns(),
                   st == EMU_CTA_YIELD ? "parked" : st == EMU_CTA_FAULT ? "fault" : "done");
}

/* Runs one slice of each resident CTA in turn. Returns whether any ran. */
static bool run_residents(struct worker *wk)
{
    struct sched *s = wk->s;
    bool any = false, yielded = false;
    unsigned notes = atomic_load_explicit(&s->notes, memory_order_relaxed);
    if (notes != wk->notes_seen) {
        wk->notes_seen = notes;
        note_residents(wk);
    }
    for (unsigned i = 0; i < wk->nres; i++) {
        struct resident *r = &wk->res[i];
        if (!r->busy) continue;
        any = true;
        struct sched_grid *g = r->grid;
        enum emu_cta_state st;
        uint64_t t0 = s->trace ? sched_now_ns() : 0;
        uint64_t asserted = atomic_load_explicit(&g->assert_ns, memory_order_relaxed);
        if (asserted && sched_now_ns() - asserted > SCHED_ASSERT_GRACE_NS) stop_grid(s, g);
        if (atomic_load_explicit(&g->faulted, memory_order_relaxed)) st = EMU_CTA_DONE;
        else if (s->timeout_s > 0 && sched_now() - g->t_start > s->timeout_s) {
            emu_cta_report_hang(r->cta, LOOM_ERR_TIMEOUT, s->timeout_s);
            st = EMU_CTA_FAULT;
        } else if (atomic_load_explicit(&s->interrupts, memory_order_relaxed) != g->interrupts_seen) {
            emu_cta_report_hang(r->cta, LOOM_ERR_INTERRUPTED, sched_now() - g->t_start);
            st = EMU_CTA_FAULT;
        } else st = emu_cta_run(r->cta, SCHED_SLICE);
        if (s->trace) trace_span(s->trace, wk->id, g, r->cta, t0, st);
        if (s->stats) sample(s, g, false);
        if (st == EMU_CTA_YIELD) {
            atomic_fetch_add_explicit(&g->parks, 1, memory_order_relaxed);
            yielded = true;
            continue;
        }
        struct tally *t = tally_for(wk, g);
        count_cta(t, r->cta, s->stats, g, r->index);
        if (st == EMU_CTA_FAULT) record_fault(s, g, r->cta->fault);
        else t->run++;
        t->done++;
        atomic_store_explicit(&wk->slot->finished, ++wk->finished, memory_order_relaxed);
        r->busy = false;
        wk->busy--;
        /* Start the next CTA in the freed context right away: the range's, else one of
         * a new chunk of the same grid (the context keeps g alive). */
        uint64_t idx;
        struct sched_grid *ng = next_local(wk, g, &idx);
        if (ng) admit(wk, ng, idx);
    }
    /* Every resident CTA is still unfinished: some may wait for CTAs that have
     * not started (a flag set by a later CTA, a software grid barrier). Admit
     * another, up to the device's co-residency. */
    if (yielded && wk->busy < s->max_resident_per_worker) {
        uint64_t idx;
        struct sched_grid *g = next_cta(wk, &idx);
        if (g && admit(wk, g, idx)) atomic_fetch_add_explicit(&g->admits_parked, 1, memory_order_relaxed);
    }
    publish(wk);
    if (wk->tally.grid && !holds(wk, wk->tally.grid)) tally_flush(wk);
    return any;
}

static void worker_loop(struct worker *wk)
{
    struct sched *s = wk->s;
    for (;;) {
        if (run_residents(wk)) continue;
        uint64_t idx;
        struct sched_grid *g = next_cta(wk, &idx);
        if (g) {
            admit(wk, g, idx);
            publish(wk);
            continue;
        }
        /* Nothing to run: hand in the tally, release contexts, then look for other
         * work or sleep. */
        publish(wk);
        tally_flush(wk);
        for (unsigned i = 0; i < wk->nres; i++) drop_context(&wk->res[i]);
        wk->nres = 0;
        pthread_mutex_lock(&s->lock);
        struct sched_op *op = NULL;
        promote_locked(s, &op);
        if (op) {
            pthread_mutex_unlock(&s->lock);
            exec_simple(s, wk->slot, op);
            pthread_mutex_lock(&s->lock);
            if (op->kind == SCHED_OP_KERNEL) {            /* a debugged launch is over */
                struct sched_grid *dg = op->grid;
                dg->finished = true;
                dg->seconds = sched_now() - dg->t_start;
                if (dg->on_done) dg->on_done(dg);
            }
            op_finish_locked(s, op);
            pthread_mutex_unlock(&s->lock);
            continue;
        }
        if (s->shutdown) {
            /* This unlock is the worker's last touch of shared state (see pool_main). */
            free(wk->res);
            pthread_mutex_unlock(&s->lock);
            return;
        }
        if (!s->policy->pick(s, wk->id)) {
            pthread_cond_wait(&s->work_cv, &s->lock);
            wk->woke = true;
        }
        pthread_mutex_unlock(&s->lock);
    }
}

/* Pins the calling worker to one PU of one core: workers take the usable cores in
 * topology order (sched_worker_cpus), round robin when there are more workers. */
static void pin_worker(struct sched *s, unsigned id)
{
    if (!s->topo || !s->pin || !s->npus) return;
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    if (!set) return;
    hwloc_bitmap_only(set, s->pus[id % s->npus]);
    hwloc_set_cpubind(s->topo, set, HWLOC_CPUBIND_THREAD);
    hwloc_bitmap_free(set);
}

/* Reads the topology: only cores and PUs are needed, which keeps it quick. */
static void load_topology(struct sched *s)
{
    if (hwloc_topology_init(&s->topo) != 0) {
        s->topo = NULL;
        return;
    }
    hwloc_topology_set_all_types_filter(s->topo, HWLOC_TYPE_FILTER_KEEP_NONE);
    hwloc_topology_set_type_filter(s->topo, HWLOC_OBJ_CORE, HWLOC_TYPE_FILTER_KEEP_ALL);
    if (hwloc_topology_load(s->topo) != 0) {
        hwloc_topology_destroy(s->topo);
        s->topo = NULL;
        return;
    }
    s->npus = sched_worker_cpus(s->topo, &s->pus);
}

/* The pool thread decides the number of workers, then runs one OpenMP team whose
 * members are the workers. */
static void *pool_main(void *arg)
{
    struct sched *s = arg;
    /* Reading the topology takes milliseconds: do it here, off the caller's path. The
     * pool thread has the affinity mask of the thread that created the device. */
    if (s->pin || !s->workers) load_topology(s);
    unsigned workers = s->workers ? s->workers : s->npus ? s->npus : (unsigned)omp_get_num_procs();
    if (!workers) workers = 1;
    struct sched_wslot *slots = aligned_alloc(64, (size_t)workers * sizeof *slots);
    if (!slots) {
        workers = 1;
        slots = &s->slot0;
    }
    memset(slots, 0, (size_t)workers * sizeof *slots);
    for (unsigned i = 0; i < workers; i++) pthread_mutex_init(&slots[i].lock, NULL);
    pthread_mutex_lock(&s->lock);
    s->workers = workers;
    s->wslots = slots;
    s->max_resident_per_worker = s->coresident ? (s->coresident + workers - 1) / workers : 64;
    s->ready = true;
    pthread_cond_broadcast(&s->ready_cv);
    pthread_mutex_unlock(&s->lock);
#pragma omp parallel num_threads(workers)
    {
        struct worker wk = { .s = s, .id = (unsigned)omp_get_thread_num() };
        wk.slot = &s->wslots[wk.id];
        pin_worker(s, wk.id);
        worker_loop(&wk);
    }
    /* The team's closing barrier orders every worker's last release of the
     * lock before this point, but libgomp is not instrumented and
     * ThreadSanitizer cannot see that barrier. Taking the lock once more
     * makes the order visible through the lock itself; sched_destroy, which
     * joins this thread, then frees what the workers used. */
    pthread_mutex_lock(&s->lock);
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

/* ---- Public side ------------------------------------------------------------------ */

struct sched *sched_create(const struct sched_config *cfg)
{
    struct sched *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->work_cv, NULL);
    pthread_cond_init(&s->done_cv, NULL);
    pthread_cond_init(&s->ready_cv, NULL);
    s->workers = cfg->workers;      /* 0: the pool thread counts the cores */
    s->check = cfg->check;
    s->track = s->check || (cfg->policy.policy && cfg->policy.policy->track);
    s->timed = cfg->summary || cfg->timing_model || s->track;
    if (!sched_policy_init(s, &cfg->policy) || (cfg->timing_model && !(s->vtrace = sched_vtrace_create()))) {
        sched_policy_fini(s);
        free(s);
        return NULL;
    }
    s->pin = cfg->pin;
    s->stats = cfg->stats;
    s->coresident = cfg->coresident;
    s->timeout_s = cfg->timeout_s;
    s->progress = cfg->progress;
    s->watchdog_s = cfg->watchdog_s;
    s->host = cfg->host;
    s->trace = cfg->trace;
    s->default_stream = calloc(1, sizeof *s->default_stream);
    if (!s->default_stream) { sched_policy_fini(s); sched_vtrace_destroy(s->vtrace); free(s); return NULL; }
    s->default_stream->is_default = true;
    s->streams = s->default_stream;
    /* The watchdog starts first: the workers read s->watching without the lock. */
    if (((s->timeout_s > 0 || s->progress || s->watchdog_s > 0) && !sched_watch_start(s)) || pthread_create(&s->pool, NULL, pool_main, s) != 0) {
        pthread_mutex_lock(&s->lock);
        s->shutdown = true;
        pthread_mutex_unlock(&s->lock);
        sched_watch_stop(s);
        free(s->default_stream);
        sched_policy_fini(s);
        sched_vtrace_destroy(s->vtrace);
        free(s);
        return NULL;
    }
    return s;
}

/* The number of workers, once the pool thread has decided it. */
unsigned sched_workers(struct sched *s)
{
    pthread_mutex_lock(&s->lock);
    while (!s->ready) pthread_cond_wait(&s->ready_cv, &s->lock);
    unsigned n = s->workers;
    pthread_mutex_unlock(&s->lock);
    return n;
}

void sched_destroy(struct sched *s)
{
    if (!s) return;
    sched_wait_idle(s);
    pthread_mutex_lock(&s->lock);
    s->shutdown = true;
    pthread_cond_broadcast(&s->work_cv);
    pthread_mutex_unlock(&s->lock);
    sched_watch_stop(s);
    pthread_join(s->pool, NULL);
    while (s->streams) {
        struct loom_stream *st = s->streams;
        s->streams = st->next;
        free(st);
    }
    sched_policy_fini(s);
    sched_vtrace_destroy(s->vtrace);
    if (s->topo) hwloc_topology_destroy(s->topo);
    free(s->pus);
    for (unsigned i = 0; s->wslots && i < s->workers; i++) pthread_mutex_destroy(&s->wslots[i].lock);
    if (s->wslots != &s->slot0) free(s->wslots);
    pthread_cond_destroy(&s->work_cv);
    pthread_cond_destroy(&s->done_cv);
    pthread_cond_destroy(&s->ready_cv);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

/* Appends op to its stream. Takes ownership. */
/* Drops one pending operation's hold on e; frees e when it was destroyed and this was
 * the last. Caller holds s->lock. */
void sched_event_unref_locked(struct loom_event *e)
{
    if (--e->refs == 0 && e->destroyed) free(e);
}

uint64_t sched_submit(struct sched *s, struct sched_op *op)
{
    if (!op->stream) op->stream = s->default_stream;
    pthread_mutex_lock(&s->lock);
    op->seq = ++s->seq;
    op->state = SCHED_PENDING;
    op->next = NULL;
    op->sprev = op->stream->tail;
    if (op->stream->tail) op->stream->tail->next = op;
    else op->stream->head = op;
    op->stream->tail = op;
    op->stream->submitted_seq = op->seq;
    s->pending++;
    if (op->kind == SCHED_OP_RECORD_EVENT || op->kind == SCHED_OP_WAIT_EVENT) op->event->refs++;
    if (s->track) {
        op->gnext = NULL;
        op->gprev = s->gtail;
        if (s->gtail) s->gtail->gnext = op;
        else s->ghead = op;
        s->gtail = op;
        if (s->policy->submit) s->policy->submit(s, op);
    }
    if (s->vtrace) sched_vtrace_op(s, op);
    if (s->check) sched_check_races(s, op);
    uint64_t seq = op->seq;
    promote_locked(s, NULL);
    pthread_cond_broadcast(&s->work_cv);
    pthread_mutex_unlock(&s->lock);
    return seq;
}

void sched_note_host_wait(struct sched *s, const struct loom_stream *st)
{
    if (!s->vtrace) return;
    pthread_mutex_lock(&s->lock);
    sched_vtrace_sync(s, st);
    pthread_mutex_unlock(&s->lock);
}

void sched_wait_idle(struct sched *s)
{
    pthread_mutex_lock(&s->lock);
    if (s->vtrace) sched_vtrace_sync(s, NULL);
    while (s->pending) pthread_cond_wait(&s->done_cv, &s->lock);
    pthread_mutex_unlock(&s->lock);
}

void sched_wait_stream(struct sched *s, struct loom_stream *st, uint64_t seq)
{
    if (!st) st = s->default_stream;
    pthread_mutex_lock(&s->lock);
    if (!seq) seq = st->submitted_seq;
    if (s->vtrace) sched_vtrace_sync(s, st);
    if (s->policy->reorders)     /* (host synchronisation drains everything before it) */
        while (s->ghead && s->ghead->seq <= seq) pthread_cond_wait(&s->done_cv, &s->lock);
    else
        while (st->head && st->head->seq <= seq) pthread_cond_wait(&s->done_cv, &s->lock);
    pthread_mutex_unlock(&s->lock);
}

bool sched_stream_idle(struct sched *s, struct loom_stream *st)
{
    if (!st) st = s->default_stream;
    pthread_mutex_lock(&s->lock);
    bool idle = s->policy->reorders ? !s->ghead || s->ghead->seq > st->submitted_seq : st->head == NULL;
    pthread_mutex_unlock(&s->lock);
    return idle;
}

struct loom_stream *sched_stream_new(struct sched *s, unsigned flags, int priority)
{
    struct loom_stream *st = calloc(1, sizeof *st);
    if (!st) return NULL;
    st->flags = flags;
    st->priority = priority;
    pthread_mutex_lock(&s->lock);
    st->id = ++s->streams_made;
    st->next = s->streams;
    s->streams = st;
    pthread_mutex_unlock(&s->lock);
    return st;
}

/* Removes a stream once its work is done (cudaStreamDestroy returns at once
 * and the work completes; here the caller has waited). */
void sched_stream_free(struct sched *s, struct loom_stream *st)
{
    sched_wait_stream(s, st, UINT64_MAX);
    pthread_mutex_lock(&s->lock);
    for (struct loom_stream **p = &s->streams; *p; p = &(*p)->next)
        if (*p == st) { *p = st->next; break; }
    pthread_mutex_unlock(&s->lock);
    free(st);
}
