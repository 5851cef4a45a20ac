/* sched_vtrace.c -- virtual time (`--timing model`): what a device ran, recorded as it is
 * submitted, then scheduled in virtual time under the device's policy by the simulator
 * (sched_vtime.c). The run itself is the usual one (wall clock, any order the policy allows);
 * only the recorded costs and dependencies make the virtual schedule, so it is the same run
 * after run, on any machine.
 *
 * Recorded: every operation in submission order, with its stream, its segments (acs, dag),
 * its event (records, waits), its cost (a kernel's per-CTA durations, filled in when the
 * grid completes; a copy's bytes over the bandwidth of its engine), and each host
 * synchronisation as a marker that later operations wait for.
 *
 * Dependencies in virtual time, per policy:
 *   serial  a window of one: each operation after the previous one
 *   fifo    each stream in order, the legacy default stream's rules, event waits after
 *           their records
 *   acs     the dependencies sched_policy.c finds, replayed with nothing finished (in the
 *           run, an operation finished before a later one came needs no edge; in virtual
 *           time it may not have), in the policy's window
 *   dag     the same without a window
 * Host synchronisation: a marker after what the host waited for (a stream: its operations;
 * the device, or a policy that drains: everything before), and every later operation after
 * the marker. The host itself takes no time; a kernel's launch takes VT_LAUNCH_S. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/sched.h"
#include "sched/sched_vtime.h"

#define VT_LAUNCH_S 3e-6    /* launch latency of a kernel on an H100 (2-4 us) */

struct vt_rec {
    enum sched_op_kind kind;
    bool marker;                    /* a host synchronisation */
    unsigned stream;                /* index into streams */
    uint64_t seq;
    struct sched_seg *segs;
    unsigned nsegs;
    const void *event;
    uint64_t event_gen;
    const char *name;
    /* costs */
    uint64_t nctas;
    double *cta_s;                  /* NULL: the kernel has not completed (or faulted) */
    unsigned ctas_per_sm;
    double duration_s;
    unsigned engine;
    /* a marker: the stream waited for (its index), or all */
    bool all;
};

/* A stream as recorded: st is its identity only (it may be freed since); like, a copy of
 * its number and flags, for the ordering rules (sched_streams_ordered). */
struct vt_stream { const struct loom_stream *st; struct loom_stream like; };

struct sched_vtrace {
    struct vt_rec *v;
    size_t n, cap;
    struct vt_stream *streams;
    unsigned nstreams, cap_streams;
    bool failed;                    /* out of memory: no virtual schedule */
};

struct sched_vtrace *sched_vtrace_create(void) { return calloc(1, sizeof(struct sched_vtrace)); }

void sched_vtrace_destroy(struct sched_vtrace *t)
{
    if (!t) return;
    for (size_t i = 0; i < t->n; i++) {
        free(t->v[i].segs);
        free(t->v[i].cta_s);
    }
    free(t->v);
    free(t->streams);
    free(t);
}

static unsigned stream_index(struct sched_vtrace *t, const struct loom_stream *st)
{
    for (unsigned i = 0; i < t->nstreams; i++)
        if (t->streams[i].st == st) return i;
    if (t->nstreams == t->cap_streams) {
        unsigned cap = t->cap_streams ? 2 * t->cap_streams : 8;
        struct vt_stream *n = realloc(t->streams, cap * sizeof *n);
        if (!n) { t->failed = true; return 0; }
        t->streams = n;
        t->cap_streams = cap;
    }
    t->streams[t->nstreams] = (struct vt_stream){ .st = st, .like = { .flags = st->flags, .id = st->id,
                                                                      .is_default = st->is_default } };
    return t->nstreams++;
}

static struct vt_rec *append(struct sched_vtrace *t)
{
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 256;
        struct vt_rec *n = realloc(t->v, cap * sizeof *n);
        if (!n) { t->failed = true; return NULL; }
        t->v = n;
        t->cap = cap;
    }
    struct vt_rec *r = &t->v[t->n++];
    memset(r, 0, sizeof *r);
    return r;
}

void sched_vtrace_op(struct sched *s, struct sched_op *op)
{
    struct sched_vtrace *t = s->vtrace;
    if (t->failed) return;
    /* a stream freed and made again at the same address is another stream: the record
     * keeps the first; the dependencies are then coarser, never missing */
    unsigned si = stream_index(t, op->stream);
    struct vt_rec *r = append(t);
    if (!r) return;
    op->vt_index = t->n - 1;
    r->kind = op->kind;
    r->stream = si;
    r->seq = op->seq;
    r->event = op->event;
    r->event_gen = op->event_gen;
    r->name = op->trace_name;
    r->duration_s = op->vt_s;
    r->engine = op->vt_engine;
    if (op->nsegs && (r->segs = malloc(op->nsegs * sizeof *r->segs))) {
        memcpy(r->segs, op->segs, op->nsegs * sizeof *r->segs);
        r->nsegs = op->nsegs;
    }
}

void sched_vtrace_sync(struct sched *s, const struct loom_stream *st)
{
    struct sched_vtrace *t = s->vtrace;
    if (t->failed) return;
    unsigned si = st ? stream_index(t, st) : 0;
    struct vt_rec *r = append(t);
    if (!r) return;
    r->marker = true;
    r->kind = SCHED_OP_HOST;
    r->all = !st || s->policy->reorders;
    r->stream = si;
}

void sched_vtrace_kernel(struct sched *s, uint64_t index, double *cta_s, uint64_t nctas, unsigned ctas_per_sm,
                         const char *name)
{
    struct sched_vtrace *t = s->vtrace;
    if (index < t->n && !t->v[index].cta_s) {
        t->v[index].cta_s = cta_s;
        t->v[index].nctas = nctas;
        t->v[index].ctas_per_sm = ctas_per_sm ? ctas_per_sm : 1;
        t->v[index].name = name;
        cta_s = NULL;
    }
    free(cta_s);
}

/* ---- Dependencies ------------------------------------------------------------------------ */

struct preds { unsigned *v; unsigned n, cap; };

static bool pred_add(struct preds *p, unsigned i)
{
    for (unsigned k = p->n; k-- > 0 && k + 8 >= p->n;)
        if (p->v[k] == i) return true;          /* (recent duplicates) */
    if (p->n == p->cap) {
        unsigned cap = p->cap ? 2 * p->cap : 4;
        unsigned *n = realloc(p->v, cap * sizeof *n);
        if (!n) return false;
        p->v = n;
        p->cap = cap;
    }
    p->v[p->n++] = i;
    return true;
}

static int cmp_unsigned(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return x < y ? -1 : x > y;
}

/* acs and dag: sched_policy.c's rules replayed over stand-in operations that never finish. */
static bool replay_deps(struct sched *s, struct sched_vtrace *t, struct preds *pr)
{
    struct sched rs;
    memset(&rs, 0, sizeof rs);
    struct sched_policy_choice c;
    char err[128];
    if (!sched_policy_parse("dag", &c, err, sizeof err) || !sched_policy_init(&rs, &c)) return false;
    rs.policy = s->policy;
    struct loom_stream *st = calloc(t->nstreams ? t->nstreams : 1, sizeof *st);
    struct sched_op *ops = calloc(t->n ? t->n : 1, sizeof *ops);
    bool ok = st && ops;
    for (unsigned i = 0; ok && i < t->nstreams; i++) {
        st[i] = t->streams[i].like;
        st[i].next = i + 1 < t->nstreams ? &st[i + 1] : NULL;
    }
    rs.streams = ok && t->nstreams ? st : NULL;
    for (size_t i = 0; ok && i < t->n; i++) {
        const struct vt_rec *r = &t->v[i];
        if (r->marker) continue;
        struct sched_op *op = &ops[i];
        op->kind = r->kind;
        op->stream = &st[r->stream];
        op->seq = i + 1;
        op->segs = r->segs;
        op->nsegs = r->nsegs;
        op->sprev = op->stream->tail;
        if (op->stream->tail) op->stream->tail->next = op;
        else op->stream->head = op;
        op->stream->tail = op;
        rs.policy->submit(&rs, op);
    }
    for (size_t i = 0; ok && i < t->n; i++) {
        for (unsigned k = 0; k < ops[i].nsucc; k++) {
            size_t to = (size_t)(ops[i].succ[k] - ops);
            ok &= pred_add(&pr[to], (unsigned)i);
        }
        free(ops[i].succ);
        free(ops[i].refs);
    }
    s->vt_deps = rs.pstats.deps;
    sched_policy_fini(&rs);
    free(ops);
    free(st);
    return ok;
}

/* fifo: each stream in order and the legacy default stream's rules. */
static bool stream_deps(struct sched_vtrace *t, struct preds *pr, uint64_t *deps)
{
    unsigned ns = t->nstreams ? t->nstreams : 1;
    long *last = malloc(ns * sizeof *last);
    if (!last) return false;
    for (unsigned i = 0; i < ns; i++) last[i] = -1;
    bool ok = true;
    for (size_t i = 0; ok && i < t->n; i++) {
        const struct vt_rec *r = &t->v[i];
        if (r->marker) continue;
        for (unsigned o = 0; o < t->nstreams; o++) {
            if (last[o] >= 0 && sched_streams_ordered(&t->streams[o].like, &t->streams[r->stream].like)) {
                ok &= pred_add(&pr[i], (unsigned)last[o]);
                (*deps)++;
            }
        }
        last[r->stream] = (long)i;
    }
    free(last);
    return ok;
}

/* Every policy: waits after their records, markers after what the host waited for, and
 * everything after the markers. */
static bool host_deps(struct sched_vtrace *t, struct preds *pr)
{
    bool ok = true;
    long marker = -1;
    size_t since = 0;                   /* the first op after the last marker */
    for (size_t i = 0; ok && i < t->n; i++) {
        const struct vt_rec *r = &t->v[i];
        if (r->marker) {
            if (marker >= 0) ok &= pred_add(&pr[i], (unsigned)marker);
            for (size_t j = since; j < i; j++)
                if (r->all || t->v[j].stream == r->stream) ok &= pred_add(&pr[i], (unsigned)j);
            marker = (long)i;
            since = i + 1;
            continue;
        }
        if (marker >= 0) ok &= pred_add(&pr[i], (unsigned)marker);
        if (r->kind == SCHED_OP_WAIT_EVENT)
            for (size_t j = i; j-- > 0;)
                if (t->v[j].kind == SCHED_OP_RECORD_EVENT && t->v[j].event == r->event &&
                    t->v[j].event_gen == r->event_gen) {
                    ok &= pred_add(&pr[i], (unsigned)j);
                    break;
                }
    }
    return ok;
}

/* Drawing the virtual schedule in the Chrome trace: CTAs on "virtual SM n" tracks, each
 * operation on its stream's "virtual stream n" track, in virtual nanoseconds from 0. */
#define VT_SM_TRACK(sm) (2000000u + (unsigned)(sm))
#define VT_STREAM_TRACK(i) (3000000u + (unsigned)(i))

struct vt_draw { struct loom_trace *trace; const struct sched_vt_op *ops; unsigned sms_named; uint64_t base_ns; };

/* Virtual times are drawn from the wall-clock start of the device's first operation. */
static uint64_t vt_ns(uint64_t base, double s) { return base + (uint64_t)llround(s * 1e9); }

static void draw_cta(void *ctx, size_t op, uint64_t cta, unsigned sm, double t0, double t1)
{
    struct vt_draw *d = ctx;
    while (d->sms_named <= sm) {
        char name[32];
        snprintf(name, sizeof name, "virtual SM %u", d->sms_named);
        loom_trace_name_track(d->trace, VT_SM_TRACK(d->sms_named++), name);
    }
    char args[64];
    snprintf(args, sizeof args, "{\"cta\":%llu}", (unsigned long long)cta);
    loom_trace_slice(d->trace, VT_SM_TRACK(sm), d->ops[op].name ? d->ops[op].name : "kernel", vt_ns(d->base_ns, t0),
                     vt_ns(d->base_ns, t1), args);
}

/* Operations that overlap in one stream (acs, dag) go to lanes of their own, the first
 * lane free at their start, so that no two slices of a track overlap. */
#define VT_LANES 32
static void draw_ops(struct sched_vtrace *t, struct loom_trace *trace, const struct sched_vt_op *ops,
                     const struct sched_vt_result *res, const char *policy, uint64_t base)
{
    double *lane_end = calloc((size_t)(t->nstreams ? t->nstreams : 1) * VT_LANES, sizeof *lane_end);
    bool *named = calloc((size_t)(t->nstreams ? t->nstreams : 1) * VT_LANES, sizeof *named);
    if (!lane_end || !named) { free(lane_end); free(named); return; }
    for (size_t i = 0; i < t->n; i++) {
        const struct vt_rec *r = &t->v[i];
        if (r->marker || (ops[i].kind == SCHED_VT_HOST && r->kind != SCHED_OP_HOST)) continue;
        unsigned lane = 0;
        double *ends = &lane_end[(size_t)r->stream * VT_LANES];
        while (lane + 1 < VT_LANES && ends[lane] > res->start_s[i]) lane++;
        ends[lane] = res->end_s[i];
        unsigned track = VT_STREAM_TRACK(r->stream * VT_LANES + lane);
        if (!named[r->stream * VT_LANES + lane]) {
            named[r->stream * VT_LANES + lane] = true;
            char name[128];
            unsigned id = t->streams[r->stream].like.id;
            if (lane) snprintf(name, sizeof name, "virtual stream %u (%s), lane %u", id, policy, lane);
            else snprintf(name, sizeof name, "virtual stream %u (%s)", id, policy);
            loom_trace_name_track(trace, track, name);
        }
        char args[96];
        snprintf(args, sizeof args, "{\"waited_for\":%u,\"ready_us\":%.3f}", ops[i].npred, res->ready_s[i] * 1e6);
        const char *name = ops[i].name ? ops[i].name : r->kind == SCHED_OP_HOST ? "host function" : "operation";
        loom_trace_slice(trace, track, name, vt_ns(base, res->start_s[i]), vt_ns(base, res->end_s[i]), args);
    }
    free(lane_end);
    free(named);
}

bool sched_vtrace_simulate(struct sched *s, unsigned sms, struct sched_vtime_summary *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    pthread_mutex_lock(&s->lock);
    struct sched_vtrace *t = s->vtrace;
    bool ok = !t->failed;
    struct preds *pr = ok ? calloc(t->n ? t->n : 1, sizeof *pr) : NULL;
    struct sched_vt_op *ops = ok ? calloc(t->n ? t->n : 1, sizeof *ops) : NULL;
    ok = pr && ops;
    uint64_t deps = 0;
    if (ok && s->policy->reorders) {
        ok = replay_deps(s, t, pr);
        deps = s->vt_deps;
    } else if (ok && s->policy->kind == SCHED_POLICY_FIFO) {
        ok = stream_deps(t, pr, &deps);
    }
    ok = ok && host_deps(t, pr);
    for (size_t i = 0; ok && i < t->n; i++) {
        const struct vt_rec *r = &t->v[i];
        struct sched_vt_op *o = &ops[i];
        if (pr[i].n > 1) qsort(pr[i].v, pr[i].n, sizeof *pr[i].v, cmp_unsigned);
        o->npred = pr[i].n;
        o->pred = pr[i].v;
        o->name = r->name;
        if (r->kind == SCHED_OP_KERNEL && r->cta_s) {
            o->kind = SCHED_VT_KERNEL;
            o->nctas = r->nctas;
            o->cta_s = r->cta_s;
            o->ctas_per_sm = r->ctas_per_sm;
        } else if (r->kind == SCHED_OP_COPY || r->kind == SCHED_OP_SET) {
            o->kind = SCHED_VT_COPY;
            o->duration_s = r->duration_s;
            o->engine = r->engine;
        } else {
            o->kind = SCHED_VT_HOST;   /* (host functions, events, markers, kernels that faulted: no time) */
        }
    }
    struct sched_vt_config cfg = { .sms = sms, .window = s->policy->kind == SCHED_POLICY_SERIAL ? 1 : s->window,
                                   .copy_engines = 3, .launch_s = VT_LAUNCH_S };
    struct vt_draw draw = { s->trace, ops, 0, s->pstats.first_ns };
    if (s->trace) {
        cfg.cta_fn = draw_cta;
        cfg.cta_ctx = &draw;
    }
    struct sched_vt_result res;
    enum loom_status st = LOOM_ERR_OUT_OF_MEMORY;
    if (ok) st = sched_vt_simulate(ops, t->n, &cfg, &res, err, errlen);
    else snprintf(err, errlen, "out of host memory for the virtual schedule");
    if (st == LOOM_OK) {
        out->makespan_s = res.makespan_s;
        out->critical_path_s = res.critical_path_s;
        out->sm_util = res.sm_util;
        out->overlapped = res.overlapped;
        out->kernels = res.kernels;
        out->ctas = res.ctas;
        out->deps = deps;
        if (s->trace) draw_ops(t, s->trace, ops, &res, s->policy_spec, s->pstats.first_ns);
        sched_vt_result_free(&res);
    }
    for (size_t i = 0; pr && i < t->n; i++) free(pr[i].v);
    free(pr);
    free(ops);
    pthread_mutex_unlock(&s->lock);
    return st == LOOM_OK;
}
