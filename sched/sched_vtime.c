/* sched_vtime.c -- the virtual-time schedule simulator (model in sched_vtime.h): a
 * discrete-event simulation over one binary heap of events, with SM capacity in integer units. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/sched_vtime.h"

#define VT_MAX_OPS ((size_t)1 << 31)
#define VT_MAX_SMS (1u << 20)
#define VT_MAX_UNITS ((uint64_t)1 << 62)
#define VT_NONE UINT32_MAX

/* What an event does when its time comes. */
enum vt_ev {
    VT_EV_CTA_END, /* a CTA of op leaves SM sm */
    VT_EV_OPEN,    /* the launch latency of kernel op has passed: its CTAs may be placed */
    VT_EV_READY,   /* ready_at of op has come */
    VT_EV_END,     /* copy or host op ends */
};

/* Heap entries are ordered by (t, seq). In the event heap seq is the push count shifted left
 * twice with the event's kind in the low bits, so simultaneous events pop in the order they
 * were pushed; the class heaps put the op's index in seq, with t 0. */
struct vt_event {
    double t;
    uint64_t seq;
    uint32_t op;
    uint32_t sm;
};

struct vt_heap {
    struct vt_event *a;
    size_t n, cap;
};

/* Per-op state of a kernel. */
struct vt_kernel {
    uint64_t next;    /* CTAs placed so far (the next one's index) */
    uint64_t running; /* placed and not ended */
    uint64_t unit;    /* capacity units one CTA takes */
    unsigned cls;     /* its class: the kernels of one ctas_per_sm */
};

/* The placeable kernels of one ctas_per_sm, oldest first (a heap keyed by op index). */
struct vt_class {
    unsigned ctas_per_sm;
    uint64_t unit;
    struct vt_heap q;
};

struct vt_engine {
    uint32_t head, tail; /* waiting copies, linked through vt_sim.qnext */
    bool busy;
};

struct vt_sim {
    const struct sched_vt_op *ops;
    size_t n;
    const struct sched_vt_config *cfg;
    struct sched_vt_result *out;
    size_t *succ_off; /* successors of op i: succ[succ_off[i] .. succ_off[i + 1]) */
    uint32_t *succ;
    unsigned *pending; /* predecessors not yet ended */
    struct vt_kernel *k;
    struct vt_class *cls;
    unsigned ncls;
    size_t admitted, open; /* ops [0, admitted) are admitted; open of them have not ended */
    struct vt_heap events;
    uint64_t seq;
    /* A max tree over the SMs' free units: node i has children 2i and 2i+1, the SMs are the
     * leaves [leaves, leaves + sms); farg is the SM with the most (lowest on ties). */
    uint64_t *fmax;
    uint32_t *farg;
    size_t leaves;
    struct vt_engine *eng;
    uint32_t *qnext;
    uint32_t *fresh; /* copies that became ready at the current time, to queue by index */
    size_t nfresh;
    size_t done;
    bool oom;
};

static void vt_fail(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || errlen == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

static bool ev_less(const struct vt_event *x, const struct vt_event *y)
{
    return x->t < y->t || (x->t == y->t && x->seq < y->seq);
}

static bool heap_push(struct vt_heap *h, struct vt_event e)
{
    if (h->n == h->cap) {
        size_t cap = h->cap ? 2 * h->cap : 64;
        struct vt_event *a = realloc(h->a, cap * sizeof *a);
        if (!a)
            return false;
        h->a = a;
        h->cap = cap;
    }
    size_t i = h->n++;
    while (i > 0 && ev_less(&e, &h->a[(i - 1) / 2])) {
        h->a[i] = h->a[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->a[i] = e;
    return true;
}

static struct vt_event heap_pop(struct vt_heap *h)
{
    struct vt_event top = h->a[0], last = h->a[--h->n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && ev_less(&h->a[c + 1], &h->a[c]))
            c++;
        if (!ev_less(&h->a[c], &last))
            break;
        h->a[i] = h->a[c];
        i = c;
    }
    if (h->n)
        h->a[i] = last;
    return top;
}

static void push_event(struct vt_sim *s, double t, enum vt_ev kind, size_t op, uint32_t sm)
{
    struct vt_event e = { t, (s->seq++ << 2) | (uint64_t)kind, (uint32_t)op, sm };
    if (!heap_push(&s->events, e))
        s->oom = true;
}

/* Sets the free units of one SM and updates the max tree above it. */
static void sm_set(struct vt_sim *s, uint32_t sm, uint64_t free_units)
{
    size_t i = s->leaves + sm;
    s->fmax[i] = free_units;
    for (i /= 2; i >= 1; i /= 2) {
        size_t l = 2 * i, r = l + 1, w = s->fmax[r] > s->fmax[l] ? r : l;
        if (s->fmax[i] == s->fmax[w] && s->farg[i] == s->farg[w])
            return; /* unchanged here, so above too */
        s->fmax[i] = s->fmax[w];
        s->farg[i] = s->farg[w];
    }
}

static void start_op(struct vt_sim *s, size_t i, double t)
{
    s->out->start_s[i] = t;
    push_event(s, t + s->ops[i].duration_s, VT_EV_END, i, 0);
}

/* Op i is ready at t: a kernel begins its launch latency, a copy waits for its engine (queued
 * at the end of this time step, see flush_copies), host work begins. */
static void activate(struct vt_sim *s, size_t i, double t)
{
    const struct sched_vt_op *op = &s->ops[i];
    if (op->kind == SCHED_VT_KERNEL) {
        if (s->cfg->launch_s > 0)
            push_event(s, t + s->cfg->launch_s, VT_EV_OPEN, i, 0);
        else if (!heap_push(&s->cls[s->k[i].cls].q, (struct vt_event){ 0, i, 0, 0 }))
            s->oom = true;
    } else if (op->kind == SCHED_VT_COPY && s->cfg->copy_engines > 0)
        s->fresh[s->nfresh++] = (uint32_t)i;
    else
        start_op(s, i, t);
}

/* Op i is admitted and its predecessors have ended at t. */
static void make_ready(struct vt_sim *s, size_t i, double t)
{
    double r = s->ops[i].ready_at > t ? s->ops[i].ready_at : t;
    s->out->ready_s[i] = r;
    if (r > t)
        push_event(s, r, VT_EV_READY, i, 0);
    else
        activate(s, i, t);
}

/* Admits ops in index order while the window has room. */
static void admit(struct vt_sim *s, double t)
{
    size_t w = s->cfg->window;
    while (s->admitted < s->n && (w == 0 || s->open < w)) {
        size_t i = s->admitted++;
        s->open++;
        if (s->pending[i] == 0)
            make_ready(s, i, t);
    }
}

static void finish(struct vt_sim *s, size_t i, double t)
{
    s->out->end_s[i] = t;
    s->done++;
    for (size_t e = s->succ_off[i]; e < s->succ_off[i + 1]; e++) {
        uint32_t j = s->succ[e];
        if (--s->pending[j] == 0 && j < s->admitted)
            make_ready(s, j, t);
    }
    s->open--;
    admit(s, t);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Queues the copies that became ready at t, smaller index first, and starts each that finds
 * its engine idle (an idle engine has an empty queue). */
static void flush_copies(struct vt_sim *s, double t)
{
    if (s->nfresh > 1)
        qsort(s->fresh, s->nfresh, sizeof s->fresh[0], cmp_u32);
    for (size_t f = 0; f < s->nfresh; f++) {
        uint32_t i = s->fresh[f];
        struct vt_engine *e = &s->eng[s->ops[i].engine % s->cfg->copy_engines];
        if (!e->busy) {
            e->busy = true;
            start_op(s, i, t);
            continue;
        }
        s->qnext[i] = VT_NONE;
        if (e->head == VT_NONE)
            e->head = i;
        else
            s->qnext[e->tail] = i;
        e->tail = i;
    }
    s->nfresh = 0;
}

/* A copy on its engine ended at t: the next one waiting starts. */
static void engine_next(struct vt_sim *s, size_t i, double t)
{
    struct vt_engine *e = &s->eng[s->ops[i].engine % s->cfg->copy_engines];
    if (e->head == VT_NONE) {
        e->busy = false;
        return;
    }
    uint32_t j = e->head;
    e->head = s->qnext[j];
    start_op(s, j, t);
}

static void place_cta(struct vt_sim *s, size_t i, double t)
{
    const struct sched_vt_op *op = &s->ops[i];
    struct vt_kernel *k = &s->k[i];
    uint32_t sm = s->farg[1];
    sm_set(s, sm, s->fmax[s->leaves + sm] - k->unit);
    uint64_t c = k->next++;
    double t1 = t + (op->cta_s ? op->cta_s[c] : op->cta_s_uniform);
    if (c == 0)
        s->out->start_s[i] = t;
    k->running++;
    s->out->ctas++;
    push_event(s, t1, VT_EV_CTA_END, i, sm);
    if (s->cfg->cta_fn)
        s->cfg->cta_fn(s->cfg->cta_ctx, i, c, sm, t, t1);
}

/* The block scheduler at t: the oldest placeable kernel whose CTA fits on the SM with the most
 * free units places CTAs until none fits or it has none left; then again. Only the oldest of
 * each class can be the oldest that fits, so a pass costs the number of classes. */
static void dispatch_ctas(struct vt_sim *s, double t)
{
    for (;;) {
        uint64_t most = s->fmax[1];
        struct vt_class *best = NULL;
        for (unsigned c = 0; c < s->ncls; c++) {
            struct vt_class *cl = &s->cls[c];
            if (cl->q.n && cl->unit <= most && (!best || cl->q.a[0].seq < best->q.a[0].seq))
                best = cl;
        }
        if (!best)
            return;
        size_t i = (size_t)best->q.a[0].seq;
        struct vt_kernel *k = &s->k[i];
        while (k->next < s->ops[i].nctas && s->fmax[1] >= k->unit)
            place_cta(s, i, t);
        if (k->next == s->ops[i].nctas)
            heap_pop(&best->q);
    }
}

static void handle(struct vt_sim *s, const struct vt_event *e, double t)
{
    size_t i = e->op;
    switch ((enum vt_ev)(e->seq & 3)) {
    case VT_EV_CTA_END: {
        struct vt_kernel *k = &s->k[i];
        sm_set(s, e->sm, s->fmax[s->leaves + e->sm] + k->unit);
        if (--k->running == 0 && k->next == s->ops[i].nctas)
            finish(s, i, t);
        break;
    }
    case VT_EV_OPEN:
        if (!heap_push(&s->cls[s->k[i].cls].q, (struct vt_event){ 0, i, 0, 0 }))
            s->oom = true;
        break;
    case VT_EV_READY:
        activate(s, i, t);
        break;
    case VT_EV_END:
        if (s->ops[i].kind == SCHED_VT_COPY && s->cfg->copy_engines > 0)
            engine_next(s, i, t);
        finish(s, i, t);
        break;
    }
}

static const char *op_name(const struct sched_vt_op *op)
{
    return op->name ? op->name : "(unnamed)";
}

static bool bad_time(double x)
{
    return !isfinite(x) || x < 0;
}

static uint64_t gcd_u64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t r = a % b;
        a = b;
        b = r;
    }
    return a;
}

/* Checks op i and adds what it contributes to the bounds: its critical-path finish in
 * path[i] and its kernel work (SM-seconds) in *work. */
static enum loom_status check_op(const struct sched_vt_op *ops, size_t i,
                                 const struct sched_vt_config *cfg, double *path, double *work,
                                 char *err, size_t errlen)
{
    const struct sched_vt_op *op = &ops[i];
    if (op->kind != SCHED_VT_KERNEL && op->kind != SCHED_VT_COPY && op->kind != SCHED_VT_HOST) {
        vt_fail(err, errlen, "op %zu %s: unknown kind %d", i, op_name(op), (int)op->kind);
        return LOOM_ERR_INVALID_VALUE;
    }
    if (op->npred && !op->pred) {
        vt_fail(err, errlen, "op %zu %s: %u predecessors but no list", i, op_name(op), op->npred);
        return LOOM_ERR_INVALID_VALUE;
    }
    if (bad_time(op->ready_at)) {
        vt_fail(err, errlen, "op %zu %s: ready_at %g is not a time", i, op_name(op), op->ready_at);
        return LOOM_ERR_INVALID_VALUE;
    }
    double begin = op->ready_at;
    for (unsigned p = 0; p < op->npred; p++) {
        if (op->pred[p] >= i) {
            vt_fail(err, errlen, "op %zu %s: predecessor %u is not an earlier op", i, op_name(op),
                    op->pred[p]);
            return LOOM_ERR_INVALID_VALUE;
        }
        if (path[op->pred[p]] > begin)
            begin = path[op->pred[p]];
    }
    if (op->kind != SCHED_VT_KERNEL) {
        if (bad_time(op->duration_s)) {
            vt_fail(err, errlen, "op %zu %s: duration %g is not a time", i, op_name(op),
                    op->duration_s);
            return LOOM_ERR_INVALID_VALUE;
        }
        path[i] = begin + op->duration_s;
        return LOOM_OK;
    }
    if (op->nctas == 0 || op->ctas_per_sm == 0) {
        vt_fail(err, errlen, "op %zu %s: %s is 0", i, op_name(op),
                op->nctas == 0 ? "nctas" : "ctas_per_sm");
        return LOOM_ERR_INVALID_VALUE;
    }
    double longest = 0, sum = 0;
    for (uint64_t c = 0; c < op->nctas; c++) {
        double d = op->cta_s ? op->cta_s[c] : op->cta_s_uniform;
        if (bad_time(d)) {
            vt_fail(err, errlen, "op %zu %s: CTA %llu takes %g, not a time", i, op_name(op),
                    (unsigned long long)c, d);
            return LOOM_ERR_INVALID_VALUE;
        }
        longest = d > longest ? d : longest;
        sum += d;
        if (!op->cta_s) {
            sum = d * (double)op->nctas;
            break;
        }
    }
    double spread = sum / ((double)cfg->sms * op->ctas_per_sm);
    path[i] = begin + cfg->launch_s + (longest > spread ? longest : spread);
    *work += sum / op->ctas_per_sm;
    return LOOM_OK;
}

static int cmp_uint(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return (x > y) - (x < y);
}

/* The classes (distinct ctas_per_sm, ascending), each kernel's class and unit, and the SM's
 * units L (their least common multiple) in *out_units. */
static enum loom_status make_classes(struct vt_sim *s, uint64_t *out_units, char *err,
                                     size_t errlen)
{
    unsigned *v = malloc((s->n ? s->n : 1) * sizeof *v);
    if (!v)
        return LOOM_ERR_OUT_OF_MEMORY;
    size_t nv = 0;
    for (size_t i = 0; i < s->n; i++)
        if (s->ops[i].kind == SCHED_VT_KERNEL)
            v[nv++] = s->ops[i].ctas_per_sm;
    qsort(v, nv, sizeof v[0], cmp_uint);
    size_t u = 0;
    for (size_t j = 0; j < nv; j++)
        if (u == 0 || v[j] != v[u - 1])
            v[u++] = v[j];
    uint64_t units = 1;
    for (size_t j = 0; j < u; j++) {
        uint64_t g = units / gcd_u64(units, v[j]);
        if (g > VT_MAX_UNITS / v[j]) {
            vt_fail(err, errlen,
                    "ctas_per_sm values whose least common multiple exceeds 2^62 are not supported");
            free(v);
            return LOOM_ERR_UNSUPPORTED;
        }
        units = g * v[j];
    }
    s->cls = calloc(u ? u : 1, sizeof *s->cls);
    if (!s->cls) {
        free(v);
        return LOOM_ERR_OUT_OF_MEMORY;
    }
    s->ncls = (unsigned)u;
    for (size_t j = 0; j < u; j++) {
        s->cls[j].ctas_per_sm = v[j];
        s->cls[j].unit = units / v[j];
    }
    for (size_t i = 0; i < s->n; i++) {
        if (s->ops[i].kind != SCHED_VT_KERNEL)
            continue;
        unsigned *hit = bsearch(&s->ops[i].ctas_per_sm, v, u, sizeof v[0], cmp_uint);
        s->k[i].cls = (unsigned)(hit - v);
        s->k[i].unit = s->cls[s->k[i].cls].unit;
    }
    free(v);
    *out_units = units;
    return LOOM_OK;
}

/* Allocates the simulation's state: successor lists, counters, the SM tree, the engines. */
static enum loom_status sim_init(struct vt_sim *s, uint64_t *out_units, char *err, size_t errlen)
{
    size_t n = s->n, n1 = n ? n : 1, edges = 0;
    for (size_t i = 0; i < n; i++)
        edges += s->ops[i].npred;
    for (s->leaves = 1; s->leaves < s->cfg->sms; s->leaves *= 2)
        ;
    unsigned engines = s->cfg->copy_engines ? s->cfg->copy_engines : 1;
    s->succ_off = calloc(n + 1, sizeof *s->succ_off);
    s->succ = malloc((edges ? edges : 1) * sizeof *s->succ);
    s->pending = malloc(n1 * sizeof *s->pending);
    s->k = calloc(n1, sizeof *s->k);
    s->fmax = calloc(2 * s->leaves, sizeof *s->fmax);
    s->farg = calloc(2 * s->leaves, sizeof *s->farg);
    s->eng = malloc(engines * sizeof *s->eng);
    s->qnext = malloc(n1 * sizeof *s->qnext);
    s->fresh = malloc(n1 * sizeof *s->fresh);
    if (!s->succ_off || !s->succ || !s->pending || !s->k || !s->fmax || !s->farg || !s->eng ||
        !s->qnext || !s->fresh)
        return LOOM_ERR_OUT_OF_MEMORY;
    for (size_t i = 0; i < n; i++) {
        s->pending[i] = s->ops[i].npred;
        for (unsigned p = 0; p < s->ops[i].npred; p++)
            s->succ_off[s->ops[i].pred[p] + 1]++;
    }
    for (size_t i = 0; i < n; i++)
        s->succ_off[i + 1] += s->succ_off[i];
    size_t *fill = calloc(n1, sizeof *fill);
    if (!fill)
        return LOOM_ERR_OUT_OF_MEMORY;
    for (size_t i = 0; i < n; i++)
        for (unsigned p = 0; p < s->ops[i].npred; p++) {
            unsigned q = s->ops[i].pred[p];
            s->succ[s->succ_off[q] + fill[q]++] = (uint32_t)i;
        }
    free(fill);
    for (unsigned e = 0; e < engines; e++)
        s->eng[e] = (struct vt_engine){ VT_NONE, VT_NONE, false };
    enum loom_status st = make_classes(s, out_units, err, errlen);
    if (st != LOOM_OK)
        return st;
    for (size_t i = 0; i < s->leaves; i++) {
        s->fmax[s->leaves + i] = i < s->cfg->sms ? *out_units : 0;
        s->farg[s->leaves + i] = (uint32_t)i;
    }
    for (size_t i = s->leaves - 1; i >= 1; i--) {
        size_t l = 2 * i, r = l + 1, w = s->fmax[r] > s->fmax[l] ? r : l;
        s->fmax[i] = s->fmax[w];
        s->farg[i] = s->farg[w];
    }
    return LOOM_OK;
}

static void sim_free(struct vt_sim *s)
{
    free(s->succ_off);
    free(s->succ);
    free(s->pending);
    free(s->k);
    for (unsigned c = 0; s->cls && c < s->ncls; c++)
        free(s->cls[c].q.a);
    free(s->cls);
    free(s->events.a);
    free(s->fmax);
    free(s->farg);
    free(s->eng);
    free(s->qnext);
    free(s->fresh);
}

struct vt_span {
    double start, end;
    size_t op;
};

static int cmp_span(const void *a, const void *b)
{
    const struct vt_span *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return (x->op > y->op) - (x->op < y->op);
}

/* Kernels whose [start, end) meets another's: in order of start, a kernel overlaps an earlier
 * one exactly when the latest end so far is past its start; then it and the kernel of that
 * end are marked. A kernel overlapped only by later ones is marked by the first of them (the
 * latest end before that one is its own, or one that overlaps it and marked it already). */
static enum loom_status count_overlapped(const struct sched_vt_op *ops, size_t n,
                                         struct sched_vt_result *out)
{
    struct vt_span *sp = malloc((n ? n : 1) * sizeof *sp);
    bool *mark = calloc(n ? n : 1, sizeof *mark);
    if (!sp || !mark) {
        free(sp);
        free(mark);
        return LOOM_ERR_OUT_OF_MEMORY;
    }
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (ops[i].kind == SCHED_VT_KERNEL && out->end_s[i] > out->start_s[i])
            sp[m++] = (struct vt_span){ out->start_s[i], out->end_s[i], i };
    qsort(sp, m, sizeof sp[0], cmp_span);
    double latest = 0;
    size_t who = SIZE_MAX;
    for (size_t j = 0; j < m; j++) {
        if (who != SIZE_MAX && latest > sp[j].start)
            mark[sp[j].op] = mark[who] = true;
        if (who == SIZE_MAX || sp[j].end > latest) {
            latest = sp[j].end;
            who = sp[j].op;
        }
    }
    out->overlapped = 0;
    for (size_t i = 0; i < n; i++)
        out->overlapped += mark[i];
    free(sp);
    free(mark);
    return LOOM_OK;
}

/* Runs the events: all of one time first, then copies and CTAs are placed at that time. */
static void run(struct vt_sim *s)
{
    admit(s, 0);
    flush_copies(s, 0);
    dispatch_ctas(s, 0);
    while (s->events.n && !s->oom) {
        double t = s->events.a[0].t;
        while (s->events.n && s->events.a[0].t == t && !s->oom) {
            struct vt_event e = heap_pop(&s->events);
            handle(s, &e, t);
        }
        flush_copies(s, t);
        dispatch_ctas(s, t);
    }
}

static enum loom_status check_config(const struct sched_vt_op *ops, size_t nops,
                                     const struct sched_vt_config *cfg, char *err, size_t errlen)
{
    if (!cfg || (nops && !ops)) {
        vt_fail(err, errlen, "no %s given", cfg ? "ops" : "configuration");
        return LOOM_ERR_INVALID_VALUE;
    }
    if (cfg->sms == 0) {
        vt_fail(err, errlen, "sms is 0: the device needs at least one SM");
        return LOOM_ERR_INVALID_VALUE;
    }
    if (bad_time(cfg->launch_s)) {
        vt_fail(err, errlen, "launch latency %g is not a time", cfg->launch_s);
        return LOOM_ERR_INVALID_VALUE;
    }
    if (cfg->sms > VT_MAX_SMS || nops > VT_MAX_OPS) {
        vt_fail(err, errlen, "more than %s are not supported",
                cfg->sms > VT_MAX_SMS ? "2^20 SMs" : "2^31 ops");
        return LOOM_ERR_UNSUPPORTED;
    }
    return LOOM_OK;
}

/* Checks every op and computes the bounds that need no simulation. */
static enum loom_status check_ops(const struct sched_vt_op *ops, size_t nops,
                                  const struct sched_vt_config *cfg, struct sched_vt_result *out,
                                  double *work, char *err, size_t errlen)
{
    double *path = malloc((nops ? nops : 1) * sizeof *path);
    if (!path)
        return LOOM_ERR_OUT_OF_MEMORY;
    double longest = 0;
    *work = 0;
    for (size_t i = 0; i < nops; i++) {
        enum loom_status st = check_op(ops, i, cfg, path, work, err, errlen);
        if (st != LOOM_OK) {
            free(path);
            return st;
        }
        longest = path[i] > longest ? path[i] : longest;
        out->kernels += ops[i].kind == SCHED_VT_KERNEL;
    }
    free(path);
    double spread = *work / cfg->sms;
    out->critical_path_s = longest > spread ? longest : spread;
    return LOOM_OK;
}

enum loom_status sched_vt_simulate(const struct sched_vt_op *ops, size_t nops,
                                   const struct sched_vt_config *cfg, struct sched_vt_result *out,
                                   char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = '\0';
    if (!out) {
        vt_fail(err, errlen, "no result given");
        return LOOM_ERR_INVALID_VALUE;
    }
    memset(out, 0, sizeof *out);
    double work;
    enum loom_status st = check_config(ops, nops, cfg, err, errlen);
    if (st == LOOM_OK)
        st = check_ops(ops, nops, cfg, out, &work, err, errlen);
    if (st != LOOM_OK || nops == 0) {
        if (st != LOOM_OK)
            memset(out, 0, sizeof *out);
        return st;
    }
    out->ready_s = calloc(nops, sizeof *out->ready_s);
    out->start_s = calloc(nops, sizeof *out->start_s);
    out->end_s = calloc(nops, sizeof *out->end_s);
    struct vt_sim s = { .ops = ops, .n = nops, .cfg = cfg, .out = out };
    uint64_t units;
    if (!out->ready_s || !out->start_s || !out->end_s)
        st = LOOM_ERR_OUT_OF_MEMORY;
    else
        st = sim_init(&s, &units, err, errlen);
    if (st == LOOM_OK) {
        run(&s);
        if (s.oom)
            st = LOOM_ERR_OUT_OF_MEMORY;
        else if (s.done != nops) {
            vt_fail(err, errlen, "internal error: %zu of %zu ops never ended", nops - s.done, nops);
            st = LOOM_ERR_INTERNAL;
        } else
            st = count_overlapped(ops, nops, out);
    }
    sim_free(&s);
    if (st != LOOM_OK) {
        if (st == LOOM_ERR_OUT_OF_MEMORY)
            vt_fail(err, errlen, "out of memory simulating %zu ops", nops);
        sched_vt_result_free(out);
        return st;
    }
    for (size_t i = 0; i < nops; i++)
        out->makespan_s = out->end_s[i] > out->makespan_s ? out->end_s[i] : out->makespan_s;
    if (out->makespan_s > 0)
        out->sm_util = work / ((double)cfg->sms * out->makespan_s);
    return LOOM_OK;
}

void sched_vt_result_free(struct sched_vt_result *r)
{
    if (!r)
        return;
    free(r->ready_s);
    free(r->start_s);
    free(r->end_s);
    memset(r, 0, sizeof *r);
}
