/* sched_policy.c -- the scheduling policies (serial, fifo, acs, dag) and the dependencies
 * that let acs and dag run a stream's operations out of order.
 *
 * Dependencies. Each operation that reorders (a kernel, copy or memset) carries segments:
 * the regions it reads and writes (a device allocation, host memory, the printf buffer, or
 * all memory when nothing better is known). Every region keeps its last unfinished writer
 * and the unfinished readers since, as GrCUDA's runtime does per array: a new reader
 * follows the writer (RAW), a new writer follows the writer and the readers (WAW, WAR) and
 * becomes the region's writer. All memory is a region of its own that every other one also
 * consults. Event records and waits and host functions are synchronisation: they follow
 * every unfinished operation of their stream (and of the legacy default stream's partners)
 * and everything later in those streams follows them. The edges found are counted; an
 * operation starts when its count of unfinished predecessors is 0. Finished operations
 * leave their regions, so the tables hold only what is in flight.
 *
 * The cost per operation is a handful of hash look-ups and edges, whatever the window
 * (`loom exec --sched acs`, summary line: check_ns). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/sched.h"

/* ---- Regions ------------------------------------------------------------------------ */

/* A region's unfinished readers (list 0) and writers (list 1). Only operations that CUDA
 * orders count as dependencies: the same stream, or the legacy default stream and a
 * blocking stream; operations of unrelated streams stay as concurrent as the program made
 * them. So a region keeps a writer per stream, and an operation that writes drops only the
 * entries of its own stream, which it covers: whatever follows them in CUDA's order follows
 * it too. */
struct sched_dep_ref { unsigned region; unsigned list; unsigned pos; };
#define DEP_DEAD ((unsigned)-1)

struct dep_list { struct sched_op **v; unsigned n, cap; };
struct dep_region {
    uint64_t key;
    struct dep_list l[2];
};

struct sched_dep_state {
    struct dep_region *regions;     /* [0] is all memory */
    unsigned nregions, cap;
    unsigned *slots;                /* open addressing: region index + 1, 0 empty */
    unsigned nslots;
    struct sched_op *ready_tail;
};

static unsigned hash_key(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return (unsigned)k;
}

static struct sched_dep_state *deps_create(void)
{
    struct sched_dep_state *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->cap = 16;
    d->nslots = 64;
    d->regions = calloc(d->cap, sizeof *d->regions);
    d->slots = calloc(d->nslots, sizeof *d->slots);
    if (!d->regions || !d->slots) {
        free(d->regions); free(d->slots); free(d);
        return NULL;
    }
    d->nregions = 1;                /* all memory */
    return d;
}

static void deps_destroy(struct sched_dep_state *d)
{
    if (!d) return;
    for (unsigned i = 0; i < d->nregions; i++) {
        free(d->regions[i].l[0].v);
        free(d->regions[i].l[1].v);
    }
    free(d->regions);
    free(d->slots);
    free(d);
}

static bool rehash(struct sched_dep_state *d)
{
    unsigned n = d->nslots * 2;
    unsigned *slots = calloc(n, sizeof *slots);
    if (!slots) return false;
    for (unsigned r = 1; r < d->nregions; r++) {
        unsigned h = hash_key(d->regions[r].key) & (n - 1);
        while (slots[h]) h = (h + 1) & (n - 1);
        slots[h] = r + 1;
    }
    free(d->slots);
    d->slots = slots;
    d->nslots = n;
    return true;
}

/* The region of key, made on first use; 0 (all memory) when memory runs out, which only
 * makes the dependencies coarser. */
static unsigned region_of(struct sched_dep_state *d, uint64_t key)
{
    if (key == SCHED_KEY_ALL) return 0;
    unsigned h = hash_key(key) & (d->nslots - 1);
    for (; d->slots[h]; h = (h + 1) & (d->nslots - 1))
        if (d->regions[d->slots[h] - 1].key == key) return d->slots[h] - 1;
    if (2 * (d->nregions + 1) > d->nslots) {
        if (!rehash(d)) return 0;
        return region_of(d, key);
    }
    if (d->nregions == d->cap) {
        struct dep_region *r = realloc(d->regions, 2 * d->cap * sizeof *r);
        if (!r) return 0;
        d->regions = r;
        d->cap *= 2;
    }
    unsigned r = d->nregions++;
    d->regions[r] = (struct dep_region){ .key = key };
    d->slots[h] = r + 1;
    return r;
}

static struct sched_dep_ref *find_ref(struct sched_op *op, unsigned region, unsigned list)
{
    for (unsigned i = 0; i < op->nrefs; i++)
        if (op->refs[i].region == region && op->refs[i].list == list) return &op->refs[i];
    return NULL;
}

/* Removes entry pos of region ri's list (swapping the last into its place). */
static void list_remove(struct sched_dep_state *d, unsigned ri, unsigned list, unsigned pos)
{
    struct dep_list *l = &d->regions[ri].l[list];
    unsigned last = --l->n;
    if (pos == last) return;
    struct sched_op *moved = l->v[last];
    l->v[pos] = moved;
    struct sched_dep_ref *m = find_ref(moved, ri, list);
    if (m) m->pos = pos;
}

static bool blocking(const struct loom_stream *st) { return !(st->flags & LOOM_STREAM_NON_BLOCKING); }

bool sched_streams_ordered(const struct loom_stream *a, const struct loom_stream *b)
{
    return a == b || (a->is_default && blocking(b)) || (b->is_default && blocking(a));
}

/* CUDA orders `x` (earlier) before `y`. */
static bool cuda_ordered(const struct sched_op *x, const struct sched_op *y)
{
    return sched_streams_ordered(x->stream, y->stream);
}

/* `to` follows `from` (an unfinished operation). */
static void edge(struct sched *s, struct sched_op *from, struct sched_op *to)
{
    if (!from || from == to || from->mark == to->seq) return;
    if (from->nsucc == from->cap_succ) {
        unsigned cap = from->cap_succ ? 2 * from->cap_succ : 4;
        struct sched_op **n = realloc(from->succ, cap * sizeof *n);
        if (!n) {            /* no room for the edge: `to` waits for everything before it instead */
            to->drain = true;
            return;
        }
        from->succ = n;
        from->cap_succ = cap;
    }
    from->mark = to->seq;
    from->succ[from->nsucc++] = to;
    to->npred++;
    s->pstats.deps++;
}

/* op, which touches region r with mode, follows its writers (RAW, WAW) and, when it
 * writes, its readers (WAR): those CUDA orders before it. */
static void follow_region(struct sched *s, struct dep_region *r, struct sched_op *op, unsigned mode)
{
    for (unsigned w = 0; w < 2; w++) {
        if (w == 0 && !(mode & SCHED_WRITE)) continue;
        struct dep_list *l = &r->l[w];
        for (unsigned i = 0; i < l->n; i++)
            if (cuda_ordered(l->v[i], op)) edge(s, l->v[i], op);
    }
}

/* op enters region ri as a reader, or as a writer that replaces its own stream's entries. */
static void enter_region(struct sched_dep_state *d, unsigned ri, struct sched_op *op, unsigned mode)
{
    unsigned list = mode & SCHED_WRITE ? 1 : 0;
    if (list == 1)
        for (unsigned w = 0; w < 2; w++)
            for (unsigned i = 0; i < d->regions[ri].l[w].n;) {
                struct sched_op *x = d->regions[ri].l[w].v[i];
                if (x->stream != op->stream) { i++; continue; }
                struct sched_dep_ref *ref = find_ref(x, ri, w);
                if (ref) ref->region = DEP_DEAD;
                list_remove(d, ri, w, i);     /* (i now holds the moved entry) */
            }
    struct dep_list *l = &d->regions[ri].l[list];
    if (l->n == l->cap) {
        unsigned cap = l->cap ? 2 * l->cap : 8;
        struct sched_op **v = realloc(l->v, cap * sizeof *v);
        if (!v) return;      /* (not entered: a later op cannot see it, but it waits for nothing less) */
        l->v = v;
        l->cap = cap;
    }
    struct sched_dep_ref *refs = realloc(op->refs, (op->nrefs + 1) * sizeof *refs);
    if (!refs) return;
    op->refs = refs;
    refs[op->nrefs++] = (struct sched_dep_ref){ ri, list, l->n };
    l->v[l->n++] = op;
}

static void leave_regions(struct sched_dep_state *d, struct sched_op *op)
{
    for (unsigned i = 0; i < op->nrefs; i++) {
        struct sched_dep_ref *ref = &op->refs[i];
        if (ref->region != DEP_DEAD) list_remove(d, ref->region, ref->list, ref->pos);
    }
    free(op->refs);
    op->refs = NULL;
    op->nrefs = 0;
}

static bool is_sync(const struct sched_op *op)
{
    return op->kind == SCHED_OP_HOST || op->kind == SCHED_OP_RECORD_EVENT || op->kind == SCHED_OP_WAIT_EVENT;
}

static void follow_stream(struct sched *s, const struct loom_stream *st, struct sched_op *op)
{
    for (struct sched_op *x = st->head; x; x = x->next) edge(s, x, op);
}

static void ready_push(struct sched *s, struct sched_op *op)
{
    if (op->in_ready) return;
    op->in_ready = true;
    op->rnext = NULL;
    if (s->deps->ready_tail) s->deps->ready_tail->rnext = op;
    else s->ready_head = op;
    s->deps->ready_tail = op;
}

/* ---- acs and dag --------------------------------------------------------------------- */

static void deps_submit(struct sched *s, struct sched_op *op)
{
    uint64_t t0 = sched_now_ns();
    struct loom_stream *st = op->stream;
    if (is_sync(op)) {
        follow_stream(s, st, op);
        for (struct loom_stream *o = s->streams; o; o = o->next) {
            if (o != st && sched_streams_ordered(st, o)) follow_stream(s, o, op);
        }
        st->last_sync = op;
    } else {
        edge(s, st->last_sync, op);
        for (struct loom_stream *o = s->streams; o; o = o->next) {
            if (o != st && sched_streams_ordered(st, o)) edge(s, o->last_sync, op);
        }
        struct sched_dep_state *d = s->deps;
        struct sched_seg all = { .key = SCHED_KEY_ALL, .mode = SCHED_READ | SCHED_WRITE };
        const struct sched_seg *segs = op->nsegs ? op->segs : &all;
        unsigned nsegs = op->nsegs ? op->nsegs : 1;
        unsigned all_mode = 0;
        for (unsigned i = 0; i < nsegs; i++) {
            if (segs[i].key == SCHED_KEY_ALL) { all_mode |= segs[i].mode; continue; }
            unsigned ri = region_of(d, segs[i].key);
            if (ri == 0) { all_mode |= segs[i].mode; continue; }
            follow_region(s, &d->regions[ri], op, segs[i].mode);
            follow_region(s, &d->regions[0], op, segs[i].mode);
        }
        if (all_mode)
            for (unsigned r = 0; r < d->nregions; r++) follow_region(s, &d->regions[r], op, all_mode);
        /* then it enters them; a region named twice enters with both modes */
        for (unsigned i = 0; i < nsegs; i++) {
            if (segs[i].key == SCHED_KEY_ALL) continue;
            unsigned ri = region_of(d, segs[i].key);
            if (ri == 0) continue;
            unsigned mode = segs[i].mode;
            bool seen = false;
            for (unsigned j = 0; j < i; j++) seen |= segs[j].key == segs[i].key;
            if (seen) continue;
            for (unsigned j = i + 1; j < nsegs; j++)
                if (segs[j].key == segs[i].key) mode |= segs[j].mode;
            enter_region(d, ri, op, mode);
        }
        if (all_mode) enter_region(d, 0, op, all_mode);
    }
    op->deps_found = op->npred;
    s->pstats.check_ns += sched_now_ns() - t0;
    s->pstats.checked++;
    if (!op->npred && s->policy->kind == SCHED_POLICY_DAG) ready_push(s, op);
}

static void deps_done(struct sched *s, struct sched_op *op)
{
    leave_regions(s->deps, op);
    if (op->stream->last_sync == op) op->stream->last_sync = NULL;
    for (unsigned i = 0; i < op->nsucc; i++) {
        struct sched_op *x = op->succ[i];
        if (--x->npred == 0 && s->policy->kind == SCHED_POLICY_DAG) ready_push(s, x);
    }
    free(op->succ);
    op->succ = NULL;
    op->nsucc = 0;
    free(op->segs);
    op->segs = NULL;
}

/* ---- The policies ----------------------------------------------------------------------- */

/* Oldest grid first: CTAs of the earliest-started running grid that still has CTAs to
 * start (every policy: the order in which kernels start is the policy's). */
static struct sched_grid *oldest_pick(struct sched *s, unsigned worker)
{
    (void)worker;
    for (struct sched_grid *g = s->active; g; g = g->next_active)
        if (atomic_load_explicit(&g->next, memory_order_relaxed) < g->nctas && !atomic_load(&g->faulted)) return g;
    return NULL;
}

static bool serial_ready(struct sched *s, const struct sched_op *op) { return op == s->ghead; }

static const struct sched_policy policies[] = {
    { .name = "fifo", .kind = SCHED_POLICY_FIFO, .pick = oldest_pick },
    { .name = "serial", .kind = SCHED_POLICY_SERIAL, .track = true, .ready = serial_ready, .pick = oldest_pick },
    { .name = "acs", .kind = SCHED_POLICY_ACS, .track = true, .reorders = true, .submit = deps_submit,
      .done = deps_done, .pick = oldest_pick },
    { .name = "dag", .kind = SCHED_POLICY_DAG, .track = true, .reorders = true, .submit = deps_submit,
      .done = deps_done, .pick = oldest_pick },
};

#define VALID "fifo, serial, acs[:window=N], dag"

bool sched_policy_parse(const char *spec, struct sched_policy_choice *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->policy = &policies[0];
    if (!spec || !*spec) {
        snprintf(out->spec, sizeof out->spec, "fifo");
        return true;
    }
    size_t n = strcspn(spec, ":");
    const struct sched_policy *p = NULL;
    for (size_t i = 0; i < sizeof policies / sizeof policies[0]; i++)
        if (strlen(policies[i].name) == n && strncmp(policies[i].name, spec, n) == 0) p = &policies[i];
    if (!p) {
        snprintf(err, errlen, "unknown scheduling policy '%.*s' (valid: " VALID ")", (int)(n < 40 ? n : 40), spec);
        return false;
    }
    out->policy = p;
    out->window = p->kind == SCHED_POLICY_ACS ? 32 : 0;
    const char *o = spec[n] ? spec + n + 1 : NULL;
    while (o && *o) {
        size_t len = strcspn(o, ",");
        if (p->kind == SCHED_POLICY_ACS && len > 7 && strncmp(o, "window=", 7) == 0) {
            char *end;
            unsigned long w = strtoul(o + 7, &end, 10);
            if (end != o + len || w < 1 || w > 1u << 20) {
                snprintf(err, errlen, "acs: window must be a number from 1 to %u, not '%.*s'", 1u << 20,
                         (int)(len - 7 < 20 ? len - 7 : 20), o + 7);
                return false;
            }
            out->window = (unsigned)w;
        } else {
            snprintf(err, errlen, "scheduling policy '%s' has no option '%.*s' (%s)", p->name, (int)(len < 40 ? len : 40),
                     o, p->kind == SCHED_POLICY_ACS ? "acs takes window=N" : "it takes none; valid: " VALID);
            return false;
        }
        o = o[len] ? o + len + 1 : NULL;
    }
    if (p->kind == SCHED_POLICY_ACS) snprintf(out->spec, sizeof out->spec, "acs:window=%u", out->window);
    else snprintf(out->spec, sizeof out->spec, "%s", p->name);
    return true;
}

/* Called by sched_create: the policy's state. */
bool sched_policy_init(struct sched *s, const struct sched_policy_choice *c)
{
    s->policy = c && c->policy ? c->policy : &policies[0];
    s->window = c && c->policy ? c->window : 0;
    snprintf(s->policy_spec, sizeof s->policy_spec, "%s", c && c->policy ? c->spec : "fifo");
    if (s->policy->reorders && !(s->deps = deps_create())) return false;
    return true;
}

void sched_policy_fini(struct sched *s)
{
    deps_destroy(s->deps);
    s->deps = NULL;
}

/* Takes the ready list's first operation that may start now (dag). */
struct sched_op *sched_ready_take(struct sched *s, bool (*may_start)(struct sched *, const struct sched_op *, void *),
                                  void *ctx)
{
    struct sched_op **p = &s->ready_head, *prev = NULL;
    for (; *p; prev = *p, p = &(*p)->rnext) {
        struct sched_op *op = *p;
        if (op->state != SCHED_PENDING || !may_start(s, op, ctx)) continue;
        *p = op->rnext;
        if (s->deps->ready_tail == op) s->deps->ready_tail = prev;
        op->in_ready = false;
        return op;
    }
    return NULL;
}

bool sched_reorders(const struct sched *s) { return s->policy->reorders; }

bool sched_needs_segments(const struct sched *s) { return s->policy->reorders || s->check; }

/* ---- The race check ----------------------------------------------------------------------
 * Two operations race when CUDA does not order them and what they touch conflicts: the
 * program's answer then depends on the schedule. CUDA orders x before y when a chain of
 * unfinished operations leads from x to y: stream order, the legacy default stream's rules,
 * an event wait after its record. (A finished operation needs no chain: everything before
 * it in its stream has finished too.) The check walks that chain back from the new
 * operation, then compares it with every unfinished operation the walk did not reach.
 * Operations already finished when the new one is queued are not compared: a race whose
 * two sides never are in flight at once goes unseen. Each pair of kernels is reported
 * once. */

/* Whether two segments surely meet: exact ranges that overlap; an inferred one (a pointer
 * argument into an allocation) whose pointer lies in an exact range; two inferred ones from
 * the same pointer. Pointers to different places in one allocation are taken as the
 * partitioned work they usually are, and all memory (nothing known) as no evidence. */
static bool seg_meets(const struct sched_seg *a, const struct sched_seg *b)
{
    if (a->key == SCHED_KEY_ALL || b->key == SCHED_KEY_ALL || a->key == SCHED_KEY_PRINTF || b->key == SCHED_KEY_PRINTF)
        return false;
    if (a->exact && b->exact) return a->lo < b->hi && b->lo < a->hi;
    if (a->exact) return b->ptr >= a->lo && b->ptr < a->hi;
    if (b->exact) return a->ptr >= b->lo && a->ptr < b->hi;
    return a->ptr == b->ptr;
}

static bool segs_conflict(const struct sched_op *a, const struct sched_op *b, uint64_t *addr)
{
    for (unsigned i = 0; i < a->nsegs; i++)
        for (unsigned j = 0; j < b->nsegs; j++)
            if (((a->segs[i].mode | b->segs[j].mode) & SCHED_WRITE) && seg_meets(&a->segs[i], &b->segs[j])) {
                *addr = a->segs[i].exact ? (b->segs[j].exact && b->segs[j].lo > a->segs[i].lo ? b->segs[j].lo
                                                                                                : a->segs[i].lo)
                                         : a->segs[i].ptr;
                return true;
            }
    return false;
}

static const char *op_name(const struct sched_op *op, char *buf, size_t size)
{
    switch (op->kind) {
    case SCHED_OP_KERNEL: {
        char name[64];
        snprintf(buf, size, "kernel '%s'", loom_short_name(op->grid->k->ir->name, 48, name, sizeof name));
        return buf;
    }
    case SCHED_OP_COPY: return "a copy";
    case SCHED_OP_SET: return "a memset";
    default: return "an operation";
    }
}

void sched_check_races(struct sched *s, struct sched_op *op)
{
    if (op->kind != SCHED_OP_KERNEL && op->kind != SCHED_OP_COPY && op->kind != SCHED_OP_SET) return;
    /* the chain back from op: marks the unfinished operations CUDA orders before it */
    uint64_t stamp = op->seq;
    size_t cap = 64, n = 0;
    struct sched_op **stack = malloc(cap * sizeof *stack);
    if (!stack) return;
    stack[n++] = op;
    while (n) {
        struct sched_op *y = stack[--n];
        struct sched_op *before[64];
        unsigned nb = 0;
        if (y->sprev) before[nb++] = y->sprev;
        for (struct loom_stream *o = s->streams; o && nb < 63; o = o->next) {
            if (o == y->stream || !sched_streams_ordered(o, y->stream)) continue;
            struct sched_op *x = o->tail;                     /* its last operation before y */
            while (x && x->seq > y->seq) x = x->sprev;
            if (x) before[nb++] = x;
        }
        if (y->kind == SCHED_OP_WAIT_EVENT)
            for (struct sched_op *x = s->ghead ? s->ghead : NULL; x && nb < 64; x = x->gnext)
                if (x->kind == SCHED_OP_RECORD_EVENT && x->event == y->event && x->event_gen == y->event_gen)
                    before[nb++] = x;
        for (unsigned i = 0; i < nb; i++) {
            if (before[i]->race_mark == stamp) continue;
            before[i]->race_mark = stamp;
            if (n == cap) {
                struct sched_op **g = realloc(stack, 2 * cap * sizeof *g);
                if (!g) { free(stack); return; }
                stack = g;
                cap *= 2;
            }
            stack[n++] = before[i];
        }
    }
    free(stack);
    for (struct sched_op *x = s->ghead; x && x != op; x = x->gnext) {
        if (x->race_mark == stamp || x->state == SCHED_DONE) continue;
        if (x->kind != SCHED_OP_KERNEL && x->kind != SCHED_OP_COPY && x->kind != SCHED_OP_SET) continue;
        uint64_t addr;
        if (!segs_conflict(x, op, &addr)) continue;
        if (x->kind == SCHED_OP_KERNEL && op->kind == SCHED_OP_KERNEL && x->grid->k == op->grid->k &&
            x->stream == op->stream)
            continue;
        s->races++;
        if (s->races > 20) continue;
        char a[96], b[96], where[64];
        snprintf(where, sizeof where, "0x%llx", (unsigned long long)addr);
        fprintf(stderr, "loom: sched-check: %s (stream %u) and %s (stream %u) both use the memory at %s, one of them writing, and "
                "nothing orders them: a data race in the program (CUDA may run them in either order or at once)%s\n",
                op_name(x, a, sizeof a), x->stream->id, op_name(op, b, sizeof b), op->stream->id, where,
                s->races == 20 ? "; further races are counted, not shown" : "");
    }
}

void sched_policy_summary(struct sched *s, struct sched_policy_stats *out, char *spec, size_t size)
{
    pthread_mutex_lock(&s->lock);
    *out = s->pstats;
    out->races = s->races;
    if (spec) snprintf(spec, size, "%s", s->policy_spec);
    pthread_mutex_unlock(&s->lock);
}
