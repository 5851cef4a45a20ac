/* trace.c -- the Chrome trace recorder: per-thread event buffers under a shared cap, and
 * the JSON writer (trace.h says what the events are). */
#define _GNU_SOURCE     /* (ftruncate, fileno) */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "observe/json.h"
#include "observe/trace.h"

enum trace_kind { EV_SLICE, EV_INSTANT, EV_FLOW_OUT, EV_FLOW_IN, EV_CTA, EV_WARP, EV_WARP_EVENT };

/* One event. u holds what the kind renders: CTA ctaid x, y, z and gridid; WARP cta, warp,
 * instructions; WARP_EVENT cta, warp, line, mask; FLOW id. */
struct trace_ev {
    uint64_t ts, dur;           /* ns from the origin */
    const char *name;
    char *args;                 /* owned JSON object text (SLICE, INSTANT), or NULL */
    const char *what;           /* CTA, WARP: how it ended */
    uint64_t u[4];
    unsigned track;
    uint8_t kind;
};

#define TRACE_CHUNK 1024        /* events per chunk of a buffer */
#define TRACE_QUOTA 1024        /* events a buffer takes from the budget at once */

struct trace_chunk {
    struct trace_chunk *next;
    struct trace_ev ev[TRACE_CHUNK];
};

/* What one thread records. Only its thread appends; count is published with release
 * after each event, so a writer reading it with acquire sees whole events. */
struct trace_buf {
    struct trace_buf *next;
    pthread_t owner;
    struct trace_chunk *head, *tail;
    _Atomic size_t count;
    size_t quota;               /* events it may add before asking the budget again */
    _Atomic uint64_t dropped;   /* events refused: the cap was reached or memory ran out */
    unsigned host_track;        /* 0 until it records a host API call */
};

struct trace_name { struct trace_name *next; unsigned track; char *name; };
struct trace_str { struct trace_str *next; char s[]; };

struct loom_trace {
    FILE *f;
    char *path;
    uint64_t cap, origin;
    bool warps;
    uint64_t serial;            /* tells this trace from an earlier one at the same address */
    pthread_mutex_t lock;       /* guards bufs, names, strs and host_tracks */
    struct trace_buf *bufs;
    struct trace_name *names;
    struct trace_str *strs;
    unsigned host_tracks;
    _Atomic uint64_t left;      /* the budget: events not yet handed to a buffer */
    _Atomic uint64_t capped_at; /* ns from the origin when an event was first refused; 0: none */
    uint64_t written;           /* events + dropped at the last write */
};

static _Atomic uint64_t trace_serials;
static _Thread_local struct trace_buf *tl_buf;
static _Thread_local uint64_t tl_serial;

/* ---- Opening and closing -------------------------------------------------------------- */

struct loom_trace *loom_trace_open(const struct loom_trace_opts *o, char *err, size_t size)
{
    struct loom_trace *t = calloc(1, sizeof *t);
    char *path = o->path ? strdup(o->path) : NULL;
    if (!t || !path) {
        free(t);
        free(path);
        snprintf(err, size, "out of host memory for the trace");
        return NULL;
    }
    t->f = fopen(path, "w");
    if (!t->f) {
        snprintf(err, size, "cannot write the trace file '%s': %s", path, strerror(errno));
        free(path);
        free(t);
        return NULL;
    }
    t->path = path;
    t->cap = o->cap ? o->cap : LOOM_TRACE_DEFAULT_CAP;
    t->origin = o->origin_ns;
    t->warps = o->warps;
    t->serial = atomic_fetch_add(&trace_serials, 1) + 1;
    atomic_init(&t->left, t->cap);
    pthread_mutex_init(&t->lock, NULL);
    return t;
}

void loom_trace_close(struct loom_trace *t)
{
    if (!t) return;
    for (struct trace_buf *b = t->bufs, *nb; b; b = nb) {
        nb = b->next;
        size_t n = atomic_load(&b->count), i = 0;
        for (struct trace_chunk *c = b->head, *nc; c; c = nc) {
            nc = c->next;
            for (size_t k = 0; k < TRACE_CHUNK && i < n; k++, i++) free(c->ev[k].args);
            free(c);
        }
        free(b);
    }
    for (struct trace_name *n = t->names, *nn; n; n = nn) {
        nn = n->next;
        free(n->name);
        free(n);
    }
    for (struct trace_str *s = t->strs, *ns; s; s = ns) {
        ns = s->next;
        free(s);
    }
    if (t->f) fclose(t->f);
    pthread_mutex_destroy(&t->lock);
    free(t->path);
    free(t);
}

const char *loom_trace_path(const struct loom_trace *t) { return t->path; }
bool loom_trace_warps(const struct loom_trace *t) { return t->warps; }

const char *loom_trace_intern(struct loom_trace *t, const char *s)
{
    size_t n = strlen(s);
    struct trace_str *e = malloc(sizeof *e + n + 1);
    if (!e) return NULL;
    memcpy(e->s, s, n + 1);
    pthread_mutex_lock(&t->lock);
    e->next = t->strs;
    t->strs = e;
    pthread_mutex_unlock(&t->lock);
    return e->s;
}

void loom_trace_name_track(struct loom_trace *t, unsigned track, const char *name)
{
    struct trace_name *e = malloc(sizeof *e);
    char *copy = strdup(name);
    if (!e || !copy) {
        free(e);
        free(copy);
        return;
    }
    e->track = track;
    e->name = copy;
    pthread_mutex_lock(&t->lock);
    e->next = t->names;
    t->names = e;
    pthread_mutex_unlock(&t->lock);
}

/* ---- Recording -------------------------------------------------------------------------- */

/* The calling thread's buffer: its cached one, else found or made under the lock. */
static struct trace_buf *buf_of(struct loom_trace *t)
{
    if (tl_serial == t->serial) return tl_buf;
    pthread_t self = pthread_self();
    pthread_mutex_lock(&t->lock);
    struct trace_buf *b = t->bufs;
    while (b && !pthread_equal(b->owner, self)) b = b->next;
    if (!b && (b = calloc(1, sizeof *b))) {
        b->owner = self;
        b->next = t->bufs;
        t->bufs = b;
    }
    pthread_mutex_unlock(&t->lock);
    if (b) {
        tl_buf = b;
        tl_serial = t->serial;
    }
    return b;
}

/* Takes events of the budget for b: TRACE_QUOTA, fewer as the budget runs low (an eighth
 * of what is left, at least one), so that what other buffers hold unused at the end is
 * small and a small cap is exact. False when the budget is spent, which the first time
 * marks the trace capped at ts. */
static bool take_quota(struct loom_trace *t, struct trace_buf *b, uint64_t ts)
{
    uint64_t left = atomic_load_explicit(&t->left, memory_order_relaxed);
    while (left) {
        uint64_t take = left / 8 < TRACE_QUOTA ? left / 8 : TRACE_QUOTA;
        if (!take) take = 1;
        if (atomic_compare_exchange_weak_explicit(&t->left, &left, left - take, memory_order_relaxed,
                                                  memory_order_relaxed)) {
            b->quota = take;
            return true;
        }
    }
    uint64_t none = 0;
    atomic_compare_exchange_strong(&t->capped_at, &none, ts ? ts : 1);
    return false;
}

/* A new event of the calling thread at ts_ns (absolute), zeroed but for ts and track, or
 * NULL when it is not kept; publish it with commit(). */
static struct trace_ev *append(struct loom_trace *t, struct trace_buf **out_b, uint64_t ts_ns, unsigned track)
{
    struct trace_buf *b = buf_of(t);
    if (!b) return NULL;
    uint64_t ts = ts_ns > t->origin ? ts_ns - t->origin : 0;
    if (!b->quota && !take_quota(t, b, ts)) {
        atomic_fetch_add_explicit(&b->dropped, 1, memory_order_relaxed);
        return NULL;
    }
    size_t n = atomic_load_explicit(&b->count, memory_order_relaxed);
    if (n % TRACE_CHUNK == 0) {
        struct trace_chunk *c = malloc(sizeof *c);
        if (!c) {
            atomic_fetch_add_explicit(&b->dropped, 1, memory_order_relaxed);
            return NULL;
        }
        c->next = NULL;
        if (b->tail) b->tail->next = c;
        else b->head = c;
        b->tail = c;
    }
    b->quota--;
    struct trace_ev *e = &b->tail->ev[n % TRACE_CHUNK];
    memset(e, 0, sizeof *e);
    e->ts = ts;
    e->track = track;
    *out_b = b;
    return e;
}

static void commit(struct trace_buf *b)
{
    atomic_store_explicit(&b->count, atomic_load_explicit(&b->count, memory_order_relaxed) + 1,
                          memory_order_release);
}

static void record(struct loom_trace *t, enum trace_kind kind, unsigned track, const char *name, uint64_t t0,
                   uint64_t t1, const char *args)
{
    struct trace_buf *b;
    struct trace_ev *e = append(t, &b, t0, track);
    if (!e) return;
    e->kind = (uint8_t)kind;
    e->name = name;
    e->dur = t1 > t0 ? t1 - t0 : 0;
    e->args = args ? strdup(args) : NULL;
    commit(b);
}

void loom_trace_slice(struct loom_trace *t, unsigned track, const char *name, uint64_t t0_ns, uint64_t t1_ns,
                      const char *args)
{
    record(t, EV_SLICE, track, name, t0_ns, t1_ns, args);
}

void loom_trace_instant(struct loom_trace *t, unsigned track, const char *name, uint64_t ts_ns, const char *args)
{
    record(t, EV_INSTANT, track, name, ts_ns, ts_ns, args);
}

/* The calling thread's host track, given on its first host API call. */
static unsigned host_track(struct loom_trace *t)
{
    struct trace_buf *b = buf_of(t);
    if (!b) return LOOM_TRACE_HOST_TRACK;
    if (!b->host_track) {
        pthread_mutex_lock(&t->lock);
        unsigned n = t->host_tracks < LOOM_TRACE_STREAM_TRACK(0) - 2 ? t->host_tracks++ : t->host_tracks;
        pthread_mutex_unlock(&t->lock);
        b->host_track = LOOM_TRACE_HOST_TRACK + n;
    }
    return b->host_track;
}

void loom_trace_api(struct loom_trace *t, const char *name, uint64_t t0_ns, uint64_t t1_ns, const char *args)
{
    record(t, EV_SLICE, host_track(t), name, t0_ns, t1_ns, args);
}

static void flow(struct loom_trace *t, enum trace_kind kind, unsigned track, const char *name, uint64_t id,
                 uint64_t ts_ns)
{
    struct trace_buf *b;
    struct trace_ev *e = append(t, &b, ts_ns, track);
    if (!e) return;
    e->kind = (uint8_t)kind;
    e->name = name;
    e->u[0] = id;
    commit(b);
}

void loom_trace_flow_out(struct loom_trace *t, const char *name, uint64_t id, uint64_t ts_ns)
{
    flow(t, EV_FLOW_OUT, host_track(t), name, id, ts_ns);
}

void loom_trace_flow_in(struct loom_trace *t, unsigned to, const char *name, uint64_t id, uint64_t to_ns)
{
    flow(t, EV_FLOW_IN, to, name, id, to_ns);
}

void loom_trace_cta(struct loom_trace *t, unsigned worker, const char *kernel, const uint32_t ctaid[3],
                    uint32_t gridid, uint64_t t0_ns, uint64_t t1_ns, const char *end)
{
    struct trace_buf *b;
    struct trace_ev *e = append(t, &b, t0_ns, LOOM_TRACE_WORKER_TRACK(worker));
    if (!e) return;
    e->kind = EV_CTA;
    e->name = kernel;
    e->dur = t1_ns > t0_ns ? t1_ns - t0_ns : 0;
    e->what = end;
    e->u[0] = ctaid[0];
    e->u[1] = ctaid[1];
    e->u[2] = ctaid[2];
    e->u[3] = gridid;
    commit(b);
}

void loom_trace_warp_slice(struct loom_trace *t, unsigned worker, unsigned cta_linear, unsigned warp, uint64_t t0_ns,
                           uint64_t t1_ns, const char *end_reason, uint64_t instructions)
{
    struct trace_buf *b;
    struct trace_ev *e = append(t, &b, t0_ns, LOOM_TRACE_WORKER_TRACK(worker));
    if (!e) return;
    e->kind = EV_WARP;
    e->name = "warp";
    e->dur = t1_ns > t0_ns ? t1_ns - t0_ns : 0;
    e->what = end_reason;
    e->u[0] = cta_linear;
    e->u[1] = warp;
    e->u[2] = instructions;
    commit(b);
}

void loom_trace_warp_event(struct loom_trace *t, unsigned worker, unsigned cta_linear, unsigned warp, uint64_t ts_ns,
                           const char *what, unsigned ptx_line, uint32_t mask)
{
    struct trace_buf *b;
    struct trace_ev *e = append(t, &b, ts_ns, LOOM_TRACE_WORKER_TRACK(worker));
    if (!e) return;
    e->kind = EV_WARP_EVENT;
    e->name = what;
    e->u[0] = cta_linear;
    e->u[1] = warp;
    e->u[2] = ptx_line;
    e->u[3] = mask;
    commit(b);
}

/* ---- Writing -------------------------------------------------------------------------------- */

/* Events recorded and dropped so far (the count the dirty check compares). */
static uint64_t activity(struct loom_trace *t, uint64_t *out_dropped)
{
    uint64_t n = 0, dropped = 0;
    for (struct trace_buf *b = t->bufs; b; b = b->next) {
        n += atomic_load_explicit(&b->count, memory_order_acquire);
        dropped += atomic_load_explicit(&b->dropped, memory_order_relaxed);
    }
    if (out_dropped) *out_dropped = dropped;
    return n + dropped;
}

bool loom_trace_dirty(struct loom_trace *t)
{
    pthread_mutex_lock(&t->lock);
    bool dirty = activity(t, NULL) != t->written;
    pthread_mutex_unlock(&t->lock);
    return dirty;
}

/* Microseconds with three decimals, from nanoseconds. */
static void put_us(FILE *f, const char *key, uint64_t ns)
{
    fprintf(f, ",\"%s\":%" PRIu64 ".%03u", key, ns / 1000, (unsigned)(ns % 1000));
}

struct sorted { const struct trace_ev *e; uint64_t seq; };

/* Track, then time, then the longer slice first (a parent before its children), then
 * the order recorded. */
static int by_track_time(const void *pa, const void *pb)
{
    const struct sorted *a = pa, *b = pb;
    if (a->e->track != b->e->track) return a->e->track < b->e->track ? -1 : 1;
    if (a->e->ts != b->e->ts) return a->e->ts < b->e->ts ? -1 : 1;
    if (a->e->dur != b->e->dur) return a->e->dur > b->e->dur ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static void put_event(FILE *f, const struct trace_ev *e)
{
    static const char ph[] = { [EV_SLICE] = 'X', [EV_INSTANT] = 'i', [EV_FLOW_OUT] = 's', [EV_FLOW_IN] = 'f',
                               [EV_CTA] = 'X', [EV_WARP] = 'X', [EV_WARP_EVENT] = 'i' };
    fprintf(f, ",\n{\"ph\":\"%c\",\"pid\":1,\"tid\":%u,\"name\":", ph[e->kind], e->track);
    if (e->kind == EV_WARP) fprintf(f, "\"warp %" PRIu64 "\"", e->u[1]);
    else loom_json_str(f, e->name ? e->name : "?");
    put_us(f, "ts", e->ts);
    switch ((enum trace_kind)e->kind) {
    case EV_SLICE:
        put_us(f, "dur", e->dur);
        if (e->args) fprintf(f, ",\"args\":%s", e->args);
        break;
    case EV_INSTANT:
        fputs(",\"s\":\"t\"", f);
        if (e->args) fprintf(f, ",\"args\":%s", e->args);
        break;
    case EV_FLOW_OUT:
    case EV_FLOW_IN:
        fprintf(f, ",\"cat\":\"flow\",\"id\":%" PRIu64 "%s", e->u[0], e->kind == EV_FLOW_IN ? ",\"bp\":\"e\"" : "");
        break;
    case EV_CTA:
        put_us(f, "dur", e->dur);
        fprintf(f, ",\"cat\":\"cta\",\"args\":{\"ctaid\":[%" PRIu64 ",%" PRIu64 ",%" PRIu64 "],\"gridid\":%" PRIu64
                ",\"end\":", e->u[0], e->u[1], e->u[2], e->u[3]);
        loom_json_str(f, e->what);
        fputc('}', f);
        break;
    case EV_WARP:
        put_us(f, "dur", e->dur);
        fprintf(f, ",\"cat\":\"warp\",\"args\":{\"cta\":%" PRIu64 ",\"warp\":%" PRIu64 ",\"instructions\":%" PRIu64
                ",\"end\":", e->u[0], e->u[1], e->u[2]);
        loom_json_str(f, e->what);
        fputc('}', f);
        break;
    case EV_WARP_EVENT:
        fprintf(f, ",\"s\":\"t\",\"cat\":\"warp\",\"args\":{\"cta\":%" PRIu64 ",\"warp\":%" PRIu64 ",\"line\":%" PRIu64
                ",\"mask\":\"0x%08" PRIx64 "\"}", e->u[0], e->u[1], e->u[2], e->u[3]);
        break;
    }
    fputc('}', f);
}

/* The thread_name of a track: the name given, else one from its range. */
static void put_track_name(FILE *f, const struct loom_trace *t, unsigned track)
{
    const char *given = NULL;
    for (const struct trace_name *n = t->names; n; n = n->next)
        if (n->track == track) { given = n->name; break; }   /* (the latest) */
    char made[64];
    if (!given) {
        if (track >= LOOM_TRACE_WORKER_TRACK(0))
            snprintf(made, sizeof made, "worker %u", track - LOOM_TRACE_WORKER_TRACK(0));
        else if (track >= LOOM_TRACE_STREAM_TRACK(0))
            snprintf(made, sizeof made, "stream %u", track - LOOM_TRACE_STREAM_TRACK(0));
        else if (track == LOOM_TRACE_HOST_TRACK)
            snprintf(made, sizeof made, "host API");
        else
            snprintf(made, sizeof made, "host API (thread %u)", track - LOOM_TRACE_HOST_TRACK + 1);
        given = made;
    }
    fprintf(f, ",\n{\"ph\":\"M\",\"pid\":1,\"tid\":%u,\"name\":\"thread_name\",\"args\":{\"name\":", track);
    loom_json_str(f, given);
    fprintf(f, "}},\n{\"ph\":\"M\",\"pid\":1,\"tid\":%u,\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":%u}}",
            track, track);
}

bool loom_trace_write(struct loom_trace *t, char *err, size_t size)
{
    pthread_mutex_lock(&t->lock);
    uint64_t dropped, total = activity(t, &dropped);
    size_t n = 0, cap = 0;
    for (struct trace_buf *b = t->bufs; b; b = b->next) cap += atomic_load_explicit(&b->count, memory_order_acquire);
    struct sorted *all = malloc((cap ? cap : 1) * sizeof *all);
    if (!all) {
        pthread_mutex_unlock(&t->lock);
        snprintf(err, size, "out of host memory writing the trace file '%s'", t->path);
        return false;
    }
    for (struct trace_buf *b = t->bufs; b; b = b->next) {
        size_t count = atomic_load_explicit(&b->count, memory_order_acquire), i = 0;
        for (struct trace_chunk *c = b->head; c && i < count; c = c->next)
            for (size_t k = 0; k < TRACE_CHUNK && i < count && n < cap; k++, i++, n++)
                all[n] = (struct sorted){ &c->ev[k], n };
    }
    qsort(all, n, sizeof *all, by_track_time);
    FILE *f = t->f;
    errno = 0;
    rewind(f);
    fputs("{\"traceEvents\":[\n{\"ph\":\"M\",\"pid\":1,\"tid\":0,\"name\":\"process_name\",\"args\":{\"name\":\"Loom "
          "device\"}}", f);
    for (size_t i = 0; i < n; i++)
        if (i == 0 || all[i].e->track != all[i - 1].e->track) put_track_name(f, t, all[i].e->track);
    for (size_t i = 0; i < n; i++) put_event(f, all[i].e);
    uint64_t capped = atomic_load(&t->capped_at);
    if (capped)
        fprintf(f, ",\n{\"ph\":\"i\",\"s\":\"g\",\"pid\":1,\"tid\":%u,\"name\":\"trace capped at %" PRIu64 " events\","
                "\"ts\":%" PRIu64 ".%03u,\"args\":{\"cap\":%" PRIu64 ",\"dropped\":%" PRIu64 "}}",
                LOOM_TRACE_HOST_TRACK, t->cap, capped / 1000, (unsigned)(capped % 1000), t->cap, dropped);
    fprintf(f, "\n],\"displayTimeUnit\":\"ns\",\"otherData\":{\"producer\":\"Loom " PACKAGE_VERSION "\",\"events\":%zu,"
            "\"cap\":%" PRIu64 ",\"capped\":%s,\"dropped\":%" PRIu64 "}}\n", n, t->cap, capped ? "true" : "false",
            dropped);
    free(all);
    long end = ftell(f);
    bool ok = fflush(f) == 0 && !ferror(f) && end >= 0 && ftruncate(fileno(f), (off_t)end) == 0;
    if (!ok) snprintf(err, size, "cannot write the trace file '%s': %s", t->path, strerror(errno ? errno : EIO));
    clearerr(f);
    t->written = total;
    pthread_mutex_unlock(&t->lock);
    return ok;
}
