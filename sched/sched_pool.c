/* sched_pool.c -- the worker pool and the scheduler: streams of operations,
 * kernels split into CTAs that workers keep resident as virtual threads, a
 * replaceable policy for which grid's CTA runs next, events and host work. */
#include "config.h"

#include <errno.h>
#include <hwloc.h>
#include <omp.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sched/sched.h"

/* A CTA runs this many warp-instructions before its worker looks at the
 * others it holds: spinning CTAs cannot starve the CTAs they wait for. */
#define SCHED_SLICE 65536

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
    free(g->params);
    free(g);
}

/* ---- The default policy ----------------------------------------------------------
 * Oldest grid first: CTAs of the earliest-launched running grid that still has
 * CTAs to start. Other policies (out-of-order windows, space sharing ...) fit
 * behind the same two calls. */
static struct sched_grid *fifo_pick(struct sched *s, unsigned worker)
{
    for (struct sched_grid *g = s->active; g; g = g->next_active)
        if (atomic_load_explicit(&g->next, memory_order_relaxed) < g->nctas && !atomic_load(&g->faulted)) return g;
    return NULL;
}

static const struct sched_policy fifo_policy = { .name = "fifo", .pick = fifo_pick };

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
    if (op->kind == SCHED_OP_WAIT_EVENT)
        return op->event->done_gen >= op->event_gen;
    return true;
}

static void op_finish_locked(struct sched *s, struct sched_op *op);

/* Starts every ready head operation: kernels become active grids; other
 * operations are handed to the caller through *out_op (one at a time). */
static bool promote_locked(struct sched *s, struct sched_op **out_op)
{
    bool changed = true, any = false;
    while (changed) {
        changed = false;
        for (struct loom_stream *st = s->streams; st; st = st->next) {
            struct sched_op *op = st->head;
            if (!op || op->state != SCHED_PENDING || !op_ready(s, op)) continue;
            if (op->kind == SCHED_OP_KERNEL) {
                struct sched_grid *g = op->grid;
                op->state = SCHED_RUNNING;
                g->t_start = sched_now();
                g->interrupts_seen = atomic_load_explicit(&s->interrupts, memory_order_relaxed);
                atomic_fetch_add(&s->running, 1);
                g->next_active = NULL;
                struct sched_grid **tail = &s->active;
                while (*tail) tail = &(*tail)->next_active;
                *tail = g;
                any = changed = true;
            } else if (op->kind == SCHED_OP_WAIT_EVENT || op->kind == SCHED_OP_RECORD_EVENT) {
                op->state = SCHED_RUNNING;
                op_finish_locked(s, op);   /* instantaneous */
                any = changed = true;
            } else if (out_op && !*out_op) {
                op->state = SCHED_RUNNING;
                *out_op = op;
                any = true;
            }
        }
    }
    return any;
}

/* Completes op: the stream moves on, waiters wake. Caller holds s->lock. */
static void op_finish_locked(struct sched *s, struct sched_op *op)
{
    struct loom_stream *st = op->stream;
    op->state = SCHED_DONE;
    if (op->kind == SCHED_OP_RECORD_EVENT) {
        op->event->t = sched_now();
        op->event->done_gen = op->event_gen;
    }
    st->head = op->next;
    if (!st->head) st->tail = NULL;
    st->completed_seq = op->seq;
    s->pending--;
    if (op->kind == SCHED_OP_KERNEL) grid_release(op->grid);
    free(op);
    pthread_cond_broadcast(&s->done_cv);
    pthread_cond_broadcast(&s->work_cv);
}

static void exec_simple(struct sched *s, struct sched_op *op)
{
    switch (op->kind) {
    case SCHED_OP_COPY: memmove(op->dst, op->src, op->n); break;
    case SCHED_OP_SET: memset(op->dst, op->value, op->n); break;
    case SCHED_OP_HOST:
        if (s->host) emu_host_flush(s->host);   /* output so far appears before the callback's */
        op->fn(op->data);
        break;
    default: break;
    }
}

/* ---- Workers --------------------------------------------------------------------- */

struct resident { struct sched_grid *grid; struct emu_cta *cta; uint64_t index; bool busy; };

struct worker {
    struct sched *s;
    unsigned id;
    struct resident *res;
    unsigned nres, cap;
};

/* Takes one CTA of some running grid; returns its grid (with a reference) or NULL. */
static struct sched_grid *take_cta(struct sched *s, unsigned wid, uint64_t *out_index)
{
    pthread_mutex_lock(&s->lock);
    for (;;) {
        struct sched_grid *g = s->policy->pick(s, wid);
        if (!g) break;
        uint64_t i = atomic_fetch_add(&g->next, 1);
        if (i < g->nctas) {
            atomic_fetch_add(&g->refs, 1);
            pthread_mutex_unlock(&s->lock);
            *out_index = i;
            return g;
        }
    }
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

static void grid_done_locked(struct sched *s, struct sched_grid *g)
{
    for (struct sched_grid **p = &s->active; *p; p = &(*p)->next_active)
        if (*p == g) { *p = g->next_active; break; }
    g->seconds = sched_now() - g->t_start;
    atomic_fetch_sub(&s->running, 1);
    if (g->on_done) g->on_done(g);
    op_finish_locked(s, g->op);
}

/* Marks one CTA of g finished (or abandoned after a fault). */
static void cta_finished(struct sched *s, struct sched_grid *g)
{
    uint64_t done = atomic_fetch_add(&g->done, 1) + 1;
    uint64_t total = atomic_load(&g->faulted) ? atomic_load(&g->next) : g->nctas;
    if (total > g->nctas) total = g->nctas;
    if (done == total && atomic_load(&g->next) >= g->nctas) {
        pthread_mutex_lock(&s->lock);
        if (!g->finished) {
            g->finished = true;
            grid_done_locked(s, g);
        }
        pthread_mutex_unlock(&s->lock);
    }
}

static void record_fault(struct sched_grid *g, const struct emu_fault *f)
{
    int expected = 0;
    if (atomic_compare_exchange_strong(&g->faulted, &expected, 1)) {
        g->fault = *f;
        /* No new CTAs start; those never started count as finished. */
        uint64_t was = atomic_exchange(&g->next, g->nctas);
        if (was < g->nctas) atomic_fetch_add(&g->done, g->nctas - was);
    }
}

/* Adds a finished CTA's counters to its grid (before the grid can complete). */
static void count_cta(struct sched_grid *g, struct emu_cta *cta)
{
    uint64_t wi = 0, ti = 0, dv = 0, bw = 0;
    for (uint32_t w = 0; w < cta->nwarps; w++) {
        struct emu_warp *wp = &cta->warps[w];
        wi += wp->n_inst; ti += wp->n_thread_inst; dv += wp->n_diverge; bw += wp->n_barrier;
        wp->n_inst = wp->n_thread_inst = wp->n_diverge = wp->n_barrier = 0;
    }
    atomic_fetch_add(&g->warp_inst, wi);
    atomic_fetch_add(&g->thread_inst, ti);
    atomic_fetch_add(&g->diverge, dv);
    atomic_fetch_add(&g->barrier_waits, bw);
}

static void drop_context(struct resident *r)
{
    emu_cta_destroy(r->cta);
    grid_release(r->grid);
    r->cta = NULL;
    r->grid = NULL;
}

/* Admits CTA `index` of g into a resident slot, reusing a context of the same grid. */
static bool admit(struct worker *wk, struct sched_grid *g, uint64_t index)
{
    struct resident *slot = NULL;
    for (unsigned i = 0; i < wk->nres; i++)
        if (!wk->res[i].busy && wk->res[i].grid == g) { slot = &wk->res[i]; break; }
    if (slot) {
        grid_release(g);            /* the slot already holds a reference */
    } else {
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
    unsigned busy = 0;
    for (unsigned i = 0; i < wk->nres; i++) busy += wk->res[i].busy;
    uint64_t now = atomic_fetch_add(&wk->s->resident_now, 1) + 1;
    uint64_t prev = atomic_load(&g->max_resident);
    while (now > prev && !atomic_compare_exchange_weak(&g->max_resident, &prev, now)) {}
    (void)busy;
    return true;
oom: {
        struct emu_fault f = { .status = LOOM_ERR_OUT_OF_MEMORY };
        snprintf(f.msg, sizeof f.msg, "out of host memory for a CTA of '%s'", g->L.entry->ir->name);
        record_fault(g, &f);
        if (slot && !slot->cta && slot->grid == NULL) wk->nres--;
        cta_finished(wk->s, g);
        grid_release(g);
        return false;
    }
}

static unsigned busy_count(const struct worker *wk)
{
    unsigned n = 0;
    for (unsigned i = 0; i < wk->nres; i++) n += wk->res[i].busy;
    return n;
}

/* Runs one slice of each resident CTA in turn. Returns whether any ran. */
static bool run_residents(struct worker *wk)
{
    struct sched *s = wk->s;
    bool any = false, yielded = false;
    for (unsigned i = 0; i < wk->nres; i++) {
        struct resident *r = &wk->res[i];
        if (!r->busy) continue;
        any = true;
        struct sched_grid *g = r->grid;
        enum emu_cta_state st;
        if (atomic_load_explicit(&g->faulted, memory_order_relaxed)) st = EMU_CTA_DONE;
        else if (s->timeout_s > 0 && sched_now() - g->t_start > s->timeout_s) {
            emu_cta_report_hang(r->cta, LOOM_ERR_TIMEOUT, s->timeout_s);
            st = EMU_CTA_FAULT;
        } else if (atomic_load_explicit(&s->interrupts, memory_order_relaxed) != g->interrupts_seen) {
            emu_cta_report_hang(r->cta, LOOM_ERR_INTERRUPTED, sched_now() - g->t_start);
            st = EMU_CTA_FAULT;
        } else st = emu_cta_run(r->cta, SCHED_SLICE);
        if (st == EMU_CTA_YIELD) {
            atomic_fetch_add(&g->parks, 1);
            yielded = true;
            continue;
        }
        count_cta(g, r->cta);
        if (st == EMU_CTA_FAULT) record_fault(g, r->cta->fault);
        else atomic_fetch_add(&g->ctas_run, 1);
        r->busy = false;
        atomic_fetch_sub(&s->resident_now, 1);
        cta_finished(s, g);
        /* Start the next CTA of the same grid in the freed context right away. */
        uint64_t idx;
        if (!atomic_load(&g->faulted) && (idx = atomic_fetch_add(&g->next, 1)) < g->nctas) {
            atomic_fetch_add(&g->refs, 1);
            admit(wk, g, idx);
        }
    }
    /* Every resident CTA is still unfinished: some may wait for CTAs that have
     * not started (a flag set by a later CTA, a software grid barrier). Admit
     * another, up to the device's co-residency. */
    if (yielded && busy_count(wk) < s->max_resident_per_worker) {
        uint64_t idx;
        struct sched_grid *g = take_cta(s, wk->id, &idx);
        if (g) admit(wk, g, idx);
    }
    return any;
}

static void worker_loop(struct worker *wk)
{
    struct sched *s = wk->s;
    for (;;) {
        if (run_residents(wk)) continue;
        uint64_t idx;
        struct sched_grid *g = take_cta(s, wk->id, &idx);
        if (g) { admit(wk, g, idx); continue; }
        /* Nothing to run: release contexts, then look for other work or sleep. */
        for (unsigned i = 0; i < wk->nres; i++)
            if (wk->res[i].cta) drop_context(&wk->res[i]);
        wk->nres = 0;
        pthread_mutex_lock(&s->lock);
        struct sched_op *op = NULL;
        promote_locked(s, &op);
        if (op) {
            pthread_mutex_unlock(&s->lock);
            exec_simple(s, op);
            pthread_mutex_lock(&s->lock);
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
        if (!s->policy->pick(s, wk->id)) pthread_cond_wait(&s->work_cv, &s->lock);
        pthread_mutex_unlock(&s->lock);
    }
}

/* Pins the calling worker to one core with hwloc (cores in topology order). */
static void pin_worker(struct sched *s, unsigned id)
{
    if (!s->topo || !s->pin) return;
    int ncores = hwloc_get_nbobjs_by_type(s->topo, HWLOC_OBJ_CORE);
    if (ncores <= 0) return;
    hwloc_obj_t core = hwloc_get_obj_by_type(s->topo, HWLOC_OBJ_CORE, id % (unsigned)ncores);
    if (!core || !core->cpuset) return;
    hwloc_bitmap_t set = hwloc_bitmap_dup(core->cpuset);
    hwloc_bitmap_singlify(set);
    hwloc_set_cpubind(s->topo, set, HWLOC_CPUBIND_THREAD);
    hwloc_bitmap_free(set);
}

/* The pool thread runs one OpenMP team whose members are the workers. */
static void *pool_main(void *arg)
{
    struct sched *s = arg;
    /* Reading the topology takes milliseconds: do it here, off the caller's path. */
    if (s->pin) {
        if (hwloc_topology_init(&s->topo) != 0) s->topo = NULL;
        else if (hwloc_topology_load(s->topo) != 0) {
            hwloc_topology_destroy(s->topo);
            s->topo = NULL;
        }
    }
#pragma omp parallel num_threads(s->workers)
    {
        struct worker wk = { .s = s, .id = (unsigned)omp_get_thread_num() };
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

struct sched *sched_create(unsigned workers, bool pin)
{
    struct sched *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->work_cv, NULL);
    pthread_cond_init(&s->done_cv, NULL);
    s->workers = workers ? workers : 1;
    s->policy = &fifo_policy;
    s->pin = pin;
    s->max_resident_per_worker = 64;
    s->default_stream = calloc(1, sizeof *s->default_stream);
    if (!s->default_stream) { free(s); return NULL; }
    s->default_stream->is_default = true;
    s->streams = s->default_stream;
    if (pthread_create(&s->pool, NULL, pool_main, s) != 0) {
        free(s->default_stream);
        free(s);
        return NULL;
    }
    return s;
}

void sched_destroy(struct sched *s)
{
    if (!s) return;
    sched_wait_idle(s);
    pthread_mutex_lock(&s->lock);
    s->shutdown = true;
    pthread_cond_broadcast(&s->work_cv);
    pthread_mutex_unlock(&s->lock);
    pthread_join(s->pool, NULL);
    while (s->streams) {
        struct loom_stream *st = s->streams;
        s->streams = st->next;
        free(st);
    }
    if (s->topo) hwloc_topology_destroy(s->topo);
    pthread_cond_destroy(&s->work_cv);
    pthread_cond_destroy(&s->done_cv);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

/* Appends op to its stream. Takes ownership. */
void sched_submit(struct sched *s, struct sched_op *op)
{
    if (!op->stream) op->stream = s->default_stream;
    pthread_mutex_lock(&s->lock);
    op->seq = ++s->seq;
    op->state = SCHED_PENDING;
    op->next = NULL;
    if (op->stream->tail) op->stream->tail->next = op;
    else op->stream->head = op;
    op->stream->tail = op;
    op->stream->submitted_seq = op->seq;
    s->pending++;
    promote_locked(s, NULL);
    pthread_cond_broadcast(&s->work_cv);
    pthread_mutex_unlock(&s->lock);
}

void sched_wait_idle(struct sched *s)
{
    pthread_mutex_lock(&s->lock);
    while (s->pending) pthread_cond_wait(&s->done_cv, &s->lock);
    pthread_mutex_unlock(&s->lock);
}

void sched_wait_stream(struct sched *s, struct loom_stream *st, uint64_t seq)
{
    if (!st) st = s->default_stream;
    pthread_mutex_lock(&s->lock);
    while (st->head && st->head->seq <= seq) pthread_cond_wait(&s->done_cv, &s->lock);
    pthread_mutex_unlock(&s->lock);
}

bool sched_stream_idle(struct sched *s, struct loom_stream *st)
{
    if (!st) st = s->default_stream;
    pthread_mutex_lock(&s->lock);
    bool idle = st->head == NULL;
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
