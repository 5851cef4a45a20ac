/* emu_check.c -- initcheck (a written-byte bitmap per device allocation) and racecheck
 * (per shared byte: the last write and up to two reads, with their barrier epochs). */
#include "config.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu_check.h"
#include "emu/emu_internal.h"
#include "include/loom/loom.h"
#include "memory/mem.h"

/* ---- Reports -------------------------------------------------------------------------- */

/* "tests/x.ptx:40 (tests/x.cu:8)" for an instruction, as emu_fault words locations. */
static void describe_pc(const struct emu_program *p, uint32_t pc, char *buf, size_t n)
{
    const struct emu_loc *loc = pc < p->ncode ? &p->locs[pc] : NULL;
    const char *file = p->ir->path ? p->ir->path : "<ptx>";
    int k = snprintf(buf, n, "%s:%u", file, loc ? loc->ptx_line : 0);
    if (k < 0 || (size_t)k >= n || !loc || !loc->cu_line) return;
    const char *cf = "?";
    for (uint32_t i = 0; i < p->ir->nfiles; i++)
        if (p->ir->files[i].index == loc->cu_file) cf = p->ir->files[i].path;
    snprintf(buf + k, n - (size_t)k, " (%s:%u)", cf, loc->cu_line);
}

/* ---- initcheck ------------------------------------------------------------------------- */

struct shadow {
    uint32_t id;                 /* mem_alloc.id of the allocation it shadows */
    uint64_t base, size;
    _Atomic uint8_t bits[];      /* bit k of byte k / 8: byte k was written */
};

struct emu_check {
    struct mem_space *mem;
    pthread_mutex_t lock;
    struct shadow **slot;        /* open addressing by id; NULL = empty */
    uint32_t cap, count;
    _Atomic uint64_t gen;        /* changes whenever shadows may have been freed */
};

/* Each worker remembers the last shadow it used. */
static _Thread_local struct { const struct emu_check *c; uint64_t gen; uint32_t id; struct shadow *s; } tl_last;
static _Atomic uint64_t next_gen = 1;

struct emu_check *emu_check_create(struct mem_space *mem)
{
    struct emu_check *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->mem = mem;
    c->cap = 64;
    c->slot = calloc(c->cap, sizeof *c->slot);
    if (!c->slot) { free(c); return NULL; }
    pthread_mutex_init(&c->lock, NULL);
    atomic_store(&c->gen, atomic_fetch_add(&next_gen, 1));
    return c;
}

static void drop_all(struct emu_check *c)
{
    for (uint32_t i = 0; i < c->cap; i++) { free(c->slot[i]); c->slot[i] = NULL; }
    c->count = 0;
    atomic_store(&c->gen, atomic_fetch_add(&next_gen, 1));
}

void emu_check_destroy(struct emu_check *c)
{
    if (!c) return;
    drop_all(c);
    free(c->slot);
    pthread_mutex_destroy(&c->lock);
    free(c);
}

void emu_check_reset(struct emu_check *c)
{
    pthread_mutex_lock(&c->lock);
    drop_all(c);
    pthread_mutex_unlock(&c->lock);
}

/* Places s in the table (caller holds the lock; the table has room). */
static void table_put(struct emu_check *c, struct shadow *s)
{
    uint32_t i = (s->id * 2654435761u) & (c->cap - 1);
    while (c->slot[i]) i = (i + 1) & (c->cap - 1);
    c->slot[i] = s;
    c->count++;
}

static bool table_grow(struct emu_check *c)
{
    struct shadow **old = c->slot;
    uint32_t ocap = c->cap;
    struct shadow **ns = calloc(2 * (size_t)ocap, sizeof *ns);
    if (!ns) return false;
    c->slot = ns;
    c->cap = 2 * ocap;
    c->count = 0;
    for (uint32_t i = 0; i < ocap; i++)
        if (old[i]) table_put(c, old[i]);
    free(old);
    return true;
}

void emu_check_quiesce(struct emu_check *c)
{
    mem_read_begin(c->mem);
    pthread_mutex_lock(&c->lock);
    bool dropped = false;
    struct shadow **keep = calloc(c->cap, sizeof *keep);
    if (keep) {
        uint32_t n = 0;
        for (uint32_t i = 0; i < c->cap; i++) {
            struct shadow *s = c->slot[i];
            if (!s) continue;
            const struct mem_alloc *a = mem_find(c->mem, s->base, 1);
            if (a && a->id == s->id) keep[n++] = s;
            else { free(s); dropped = true; }
            c->slot[i] = NULL;
        }
        c->count = 0;
        for (uint32_t i = 0; i < n; i++) table_put(c, keep[i]);
        free(keep);
    }
    if (dropped) atomic_store(&c->gen, atomic_fetch_add(&next_gen, 1));
    pthread_mutex_unlock(&c->lock);
    mem_read_end(c->mem);
}

/* Allocations whose bytes the host may write directly count as written throughout. */
static bool always_written(const struct mem_alloc *a)
{
    return (a->flags & (MEM_MODULE | MEM_MANAGED | MEM_HOST | MEM_READONLY)) != 0;
}

/* The shadow of allocation a, created (all unwritten) on first use; NULL when out of memory. */
static struct shadow *shadow_of(struct emu_check *c, const struct mem_alloc *a)
{
    uint64_t gen = atomic_load_explicit(&c->gen, memory_order_acquire);
    if (tl_last.c == c && tl_last.gen == gen && tl_last.id == a->id) return tl_last.s;
    pthread_mutex_lock(&c->lock);
    struct shadow *s = NULL;
    for (uint32_t i = (a->id * 2654435761u) & (c->cap - 1); c->slot[i]; i = (i + 1) & (c->cap - 1))
        if (c->slot[i]->id == a->id) { s = c->slot[i]; break; }
    if (!s && ((c->count + 1) * 2 <= c->cap || table_grow(c))) {
        s = calloc(1, sizeof *s + (a->size + 7) / 8);
        if (s) {
            s->id = a->id;
            s->base = a->base;
            s->size = a->size;
            table_put(c, s);
        }
    }
    gen = atomic_load(&c->gen);
    pthread_mutex_unlock(&c->lock);
    if (s) { tl_last.c = c; tl_last.gen = gen; tl_last.id = a->id; tl_last.s = s; }
    return s;
}

static void mark(struct shadow *s, uint64_t off, uint64_t n)
{
    for (uint64_t k = off; k < off + n;) {
        if ((k & 7) == 0 && off + n - k >= 8) {
            atomic_store_explicit(&s->bits[k / 8], 0xFF, memory_order_relaxed);
            k += 8;
        } else {
            atomic_fetch_or_explicit(&s->bits[k / 8], (uint8_t)(1u << (k & 7)), memory_order_relaxed);
            k++;
        }
    }
}

void emu_check_host_write(struct emu_check *c, uint64_t addr, uint64_t n)
{
    uint64_t end = addr + n < addr ? UINT64_MAX : addr + n;
    mem_read_begin(c->mem);
    for (uint64_t cur = addr; cur < end;) {
        const struct mem_alloc *a = mem_find(c->mem, cur, 1);
        if (!a) break;
        uint64_t stop = a->base + a->size < end ? a->base + a->size : end;
        struct shadow *s = always_written(a) ? NULL : shadow_of(c, a);
        if (s) mark(s, cur - a->base, stop - cur);
        cur = stop;
    }
    mem_read_end(c->mem);
}

void *emu_check_global(struct emu_warp *w, const struct emu_inst *in, unsigned l, uint64_t addr, unsigned size,
                       bool write)
{
    const struct emu_launch *L = w->cta->launch;
    const struct mem_alloc *a = mem_find(L->mem, addr, size ? size : 1);
    if (!a || always_written(a)) return (void *)(uintptr_t)addr;
    struct shadow *s = shadow_of(L->checker, a);
    if (!s) return (void *)(uintptr_t)addr;
    uint64_t off = addr - a->base;
    /* An atomic reads before it writes (atomicAdd on a buffer nobody zeroed), except
     * exchange, which programs use as an atomic store. */
    const struct emu_program *p = L->prog;
    const struct ptx_instr *ir = in && in->src < p->ncode ? p->locs[in->src].ir : NULL;
    bool reads = !write || (ir && (ir->op == PTX_OP_ATOM || ir->op == PTX_OP_RED) && ir->subop != PTX_MOD_EXCH);
    if (!reads) {
        mark(s, off, size);
        return (void *)(uintptr_t)addr;
    }
    for (unsigned k = 0; k < size; k++) {
        uint64_t b = off + k;
        if (atomic_load_explicit(&s->bits[b / 8], memory_order_relaxed) & (1u << (b & 7))) continue;
        char name[160];
        if (a->label && (a->flags & MEM_MODULE)) snprintf(name, sizeof name, "variable '%.64s'", a->label);
        else if (a->label) snprintf(name, sizeof name, "the %.64s", a->label);
        else snprintf(name, sizeof name, "allocation #%u", a->id);
        emu_fault(w, in, l, LOOM_ERR_LAUNCH_FAILED, addr, size,
                  "uninitialized global %s of %u bytes at 0x%" PRIx64 "\n  byte %u of it, offset %" PRIu64
                  " of %s (%" PRIu64 " bytes at 0x%" PRIx64 "), was never written by the host or a kernel",
                  write ? "atomic read-modify-write" : "read", size, addr, k, b, name, a->size, a->base);
        return NULL;
    }
    if (write) mark(s, off, size);
    return (void *)(uintptr_t)addr;
}

/* ---- racecheck ---------------------------------------------------------------------------
 * Epochs: the CTA epoch grows at every completed barrier (and when the context starts a
 * new CTA); a warp's epoch grows at every bar.warp.sync. Access A then access B by
 * different threads are ordered when a CTA barrier came between them, or when both
 * threads are lanes of one warp and a warp sync came between them, or when they are the
 * same warp-instruction (lanes in lockstep); otherwise, if one writes, they race. */

#define RACE_NONE 0u   /* epoch 0: no access recorded */

struct race_cell {            /* one byte of shared memory */
    uint32_t w_epoch, w_wepoch, w_inst, w_pc;
    uint32_t r_epoch[2], r_wepoch[2], r_pc[2];
    uint16_t w_tid, r_tid[2];
};

struct emu_race {
    uint32_t ctaid[3];
    uint32_t epoch;
    uint64_t size;
    uint32_t nwarps;
    uint32_t *wepoch;         /* per warp */
    struct race_cell *cell;   /* per byte of the CTA's shared memory */
};

void emu_check_cta_free(struct emu_cta *cta)
{
    if (!cta->race) return;
    free(cta->race->wepoch);
    free(cta->race->cell);
    free(cta->race);
    cta->race = NULL;
}

/* The race state of the CTA the context runs now, created on first use. */
static struct emu_race *race_of(struct emu_cta *cta)
{
    struct emu_race *r = cta->race;
    if (!r) {
        r = calloc(1, sizeof *r);
        if (!r) return NULL;
        r->size = cta->shared_size;
        r->nwarps = cta->nwarps;
        r->cell = calloc(r->size ? r->size : 1, sizeof *r->cell);
        r->wepoch = calloc(r->nwarps ? r->nwarps : 1, sizeof *r->wepoch);
        if (!r->cell || !r->wepoch) { free(r->cell); free(r->wepoch); free(r); return NULL; }
        memcpy(r->ctaid, cta->ctaid, sizeof r->ctaid);
        r->epoch = 1;
        cta->race = r;
    } else if (memcmp(r->ctaid, cta->ctaid, sizeof r->ctaid)) {
        memcpy(r->ctaid, cta->ctaid, sizeof r->ctaid);
        r->epoch++;           /* a new CTA: nothing of the last one can race with it */
    }
    return r;
}

void emu_check_barrier(struct emu_cta *cta)
{
    if (cta->race) cta->race->epoch++;
}

void emu_check_warp_sync(struct emu_warp *w)
{
    struct emu_race *r = w->cta->race;
    if (r && w->id < r->nwarps) r->wepoch[w->id]++;
}

/* Whether an earlier access by thread `pt` (at CTA epoch pe, its warp's epoch pwe) is
 * ordered before the current one by thread t of warp `warp`. */
static bool ordered(const struct emu_race *r, uint32_t pt, uint32_t pe, uint32_t pwe, uint32_t t, uint32_t warp)
{
    if (pe != r->epoch || pt == t) return true;
    return pt / EMU_WARP_SIZE == warp && pwe != r->wepoch[warp];
}

static void thread_xyz(const struct emu_launch *L, uint32_t t, char *buf, size_t n)
{
    snprintf(buf, n, "(%u,%u,%u)", t % L->block[0], (t / L->block[0]) % L->block[1], t / (L->block[0] * L->block[1]));
}

static bool race_report(struct emu_warp *w, const struct emu_inst *in, unsigned l, uint64_t off, unsigned size,
                        bool write, bool prev_write, uint32_t pt, uint32_t ppc)
{
    const struct emu_launch *L = w->cta->launch;
    char who[48], me[48], where[320];
    thread_xyz(L, pt, who, sizeof who);
    thread_xyz(L, w->id * EMU_WARP_SIZE + l, me, sizeof me);
    describe_pc(L->prog, ppc, where, sizeof where);
    const char *kind = write ? (prev_write ? "write after write" : "write after read") : "read after write";
    emu_fault(w, in, l, LOOM_ERR_LAUNCH_FAILED, off, size,
              "shared-memory race (%s): %s of %u bytes at shared offset %" PRIu64 " by thread %s, %s by thread %s "
              "with no barrier between them\n  the %s: thread %s at %.200s", kind, write ? "write" : "read", size, off,
              me, prev_write ? "after a write" : "after a read", who, prev_write ? "write" : "read", who, where);
    return false;
}

bool emu_check_shared(struct emu_warp *w, const struct emu_inst *in, unsigned l, uint64_t off, unsigned size,
                      bool write)
{
    const struct emu_program *p = w->cta->launch->prog;
    uint32_t pc = in->src;
    const struct ptx_instr *ir = pc < p->ncode ? p->locs[pc].ir : NULL;
    if (ir && (ir->op == PTX_OP_ATOM || ir->op == PTX_OP_RED)) return true;   /* atomics do not race */
    struct emu_race *r = race_of(w->cta);
    if (!r || off + size > r->size) return true;
    uint32_t t = w->id * EMU_WARP_SIZE + l, warp = w->id, we = r->wepoch[warp];
    /* One dynamic instruction of the warp: the dispatch loop counts a straight-line run at
     * once, so the count and the pc together name it. */
    uint32_t inst = (uint32_t)w->n_inst;
    for (unsigned k = 0; k < size; k++) {
        struct race_cell *c = &r->cell[off + k];
        if (c->w_epoch != RACE_NONE && !ordered(r, c->w_tid, c->w_epoch, c->w_wepoch, t, warp) &&
            !(write && c->w_tid / EMU_WARP_SIZE == warp && c->w_inst == inst && c->w_pc == pc))
            return race_report(w, in, l, off, size, write, true, c->w_tid, c->w_pc);
        if (write) {
            for (int j = 0; j < 2; j++)
                if (c->r_epoch[j] != RACE_NONE && !ordered(r, c->r_tid[j], c->r_epoch[j], c->r_wepoch[j], t, warp))
                    return race_report(w, in, l, off, size, write, false, c->r_tid[j], c->r_pc[j]);
        }
    }
    for (unsigned k = 0; k < size; k++) {
        struct race_cell *c = &r->cell[off + k];
        if (write) {
            c->w_epoch = r->epoch; c->w_wepoch = we; c->w_inst = inst; c->w_pc = pc; c->w_tid = (uint16_t)t;
            c->r_epoch[0] = c->r_epoch[1] = RACE_NONE;
            continue;
        }
        /* Keep up to two distinct readers of this epoch: a later write races with one of them
         * unless both are the writer itself. */
        int j = 0;
        if (c->r_epoch[0] == r->epoch && c->r_tid[0] != t) j = c->r_epoch[1] == r->epoch && c->r_tid[1] != t ? -1 : 1;
        if (j < 0) continue;
        c->r_epoch[j] = r->epoch; c->r_wepoch[j] = we; c->r_pc[j] = pc; c->r_tid[j] = (uint16_t)t;
    }
    return true;
}
