/* mem_space.c -- the device address space: a table of live allocations that
 * workers search without locks, with cudaMalloc semantics (256-byte alignment). */
#include "config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <stdlib.h>
#include <string.h>

#include "memory/mem.h"

#define MEM_ALIGN 512     /* as cudaMalloc on an H100 (its textureAlignment): texture objects over linear memory need it */
#define MEM_FREED_RING 256
/* Allocations this large are mapped: zero pages that cost nothing until a
 * kernel or copy touches them, as a GPU's untouched memory costs the host nothing. */
#define MEM_MAP_THRESHOLD (1u << 20)
#define MEM_MAPPED (1u << 30)     /* internal flag: the block came from mmap */

/* An immutable sorted snapshot of the live allocations. Writers build a new
 * one and publish it; readers load the pointer and binary-search. Old
 * snapshots are kept until mem_quiesce() finds no reader in progress, or destroy.
 * A reader counts itself (readers) before it loads the table pointer, and mem_quiesce
 * checks the count under the lock, which every retirement takes: a table retired
 * before the check can be held only by a reader counted before it. */
struct mem_table {
    struct mem_table *retired_next;
    uint32_t n;
    struct mem_alloc v[];
};

struct mem_space {
    pthread_mutex_t lock;
    _Atomic(struct mem_table *) table;
    struct mem_table *retired;
    _Atomic uint64_t readers;                 /* mem_read_begin without its end */
    uint64_t capacity, used;
    uint32_t next_id;
    struct mem_alloc freed[MEM_FREED_RING];   /* recently freed, for reports */
    uint32_t nfreed;
};

static struct mem_table *table_new(uint32_t n)
{
    struct mem_table *t = calloc(1, sizeof *t + (size_t)n * sizeof(struct mem_alloc));
    if (t)
        t->n = n;
    return t;
}

struct mem_space *mem_space_create(uint64_t capacity)
{
    struct mem_space *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    pthread_mutex_init(&s->lock, NULL);
    atomic_init(&s->table, table_new(0));
    s->capacity = capacity;
    s->next_id = 1;
    return s;
}

static void free_retired(struct mem_space *s)
{
    while (s->retired) {
        struct mem_table *t = s->retired;
        s->retired = t->retired_next;
        free(t);
    }
}

static void release_block(const struct mem_alloc *a)
{
    if (a->flags & MEM_HOST)
        return;
    if (a->flags & MEM_MAPPED)
        munmap((void *)(uintptr_t)a->base, (a->size + 4095) & ~(uint64_t)4095);
    else
        free((void *)(uintptr_t)a->base);
}

void mem_space_destroy(struct mem_space *s)
{
    if (!s)
        return;
    mem_reset(s);
    free(atomic_load(&s->table));
    free_retired(s);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

/* Publishes a copy of the current table with `add` inserted (when non-NULL)
 * and the entry at index `drop` removed (when drop >= 0). Caller holds the lock. */
static int table_update(struct mem_space *s, const struct mem_alloc *add, long drop)
{
    struct mem_table *old = atomic_load_explicit(&s->table, memory_order_relaxed);
    uint32_t n = old->n + (add ? 1 : 0) - (drop >= 0 ? 1 : 0);
    struct mem_table *t = table_new(n);
    if (!t)
        return -1;
    uint32_t j = 0;
    bool placed = add == NULL;
    for (uint32_t i = 0; i < old->n; i++) {
        if ((long)i == drop)
            continue;
        if (!placed && add->base < old->v[i].base) {
            t->v[j++] = *add;
            placed = true;
        }
        t->v[j++] = old->v[i];
    }
    if (!placed)
        t->v[j++] = *add;
    atomic_store_explicit(&s->table, t, memory_order_release);
    old->retired_next = s->retired;
    s->retired = old;
    return 0;
}

/* Whether `charge` more bytes fit in the capacity (0: no limit). Caller holds the lock. */
static bool fits_locked(const struct mem_space *s, uint64_t charge)
{
    return !s->capacity || (s->used <= s->capacity && charge <= s->capacity - s->used);
}

/* Adds an allocation; fails when `charge` bytes do not fit in the capacity
 * (checked under the lock, as other host threads allocate too). */
static int insert(struct mem_space *s, uint64_t base, uint64_t size, uint32_t flags, const char *label,
                  uint64_t charge)
{
    struct mem_alloc a = { .base = base, .size = size, .flags = flags, .label = label };
    pthread_mutex_lock(&s->lock);
    if (!fits_locked(s, charge)) {
        pthread_mutex_unlock(&s->lock);
        return -1;
    }
    a.id = s->next_id++;
    int rc = table_update(s, &a, -1);
    if (rc == 0)
        s->used += size;
    pthread_mutex_unlock(&s->lock);
    return rc;
}

int mem_alloc(struct mem_space *s, uint64_t size, uint32_t flags, const char *label, uint64_t *out_addr)
{
    uint64_t real = size ? size : 1;
    uint64_t rounded = (real + MEM_ALIGN - 1) & ~(uint64_t)(MEM_ALIGN - 1);
    if (rounded < real)
        return -1;
    pthread_mutex_lock(&s->lock);     /* a first check before the memory is taken */
    bool fits = fits_locked(s, rounded);
    pthread_mutex_unlock(&s->lock);
    if (!fits)
        return -1;
    void *p;
    uint32_t kind = 0;
    if (rounded >= MEM_MAP_THRESHOLD) {
        p = mmap(NULL, rounded, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED)
            return -1;
        kind = MEM_MAPPED;
    } else {
        p = aligned_alloc(MEM_ALIGN, rounded);
        if (!p)
            return -1;
        memset(p, 0, rounded);
    }
    struct mem_alloc a = { .base = (uint64_t)(uintptr_t)p, .size = real, .flags = (flags & ~MEM_HOST) | kind };
    if (insert(s, a.base, real, a.flags, label, rounded) != 0) {
        release_block(&a);
        return -1;
    }
    *out_addr = (uint64_t)(uintptr_t)p;
    return 0;
}

int mem_register(struct mem_space *s, void *p, uint64_t size, uint32_t flags, uint64_t *out_addr)
{
    if (!p || !size || mem_find(s, (uint64_t)(uintptr_t)p, 1))
        return -1;
    if (insert(s, (uint64_t)(uintptr_t)p, size, flags | MEM_HOST, NULL, 0) != 0)
        return -1;
    *out_addr = (uint64_t)(uintptr_t)p;
    return 0;
}

static long index_of_base(const struct mem_table *t, uint64_t base)
{
    uint32_t lo = 0, hi = t->n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (t->v[mid].base < base)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < t->n && t->v[lo].base == base ? (long)lo : -1;
}

static int remove_at(struct mem_space *s, uint64_t addr, bool host, uint32_t refuse)
{
    pthread_mutex_lock(&s->lock);
    struct mem_table *t = atomic_load_explicit(&s->table, memory_order_relaxed);
    long i = index_of_base(t, addr);
    if (i < 0 || ((t->v[i].flags & MEM_HOST) != 0) != host || (t->v[i].flags & refuse)) {
        pthread_mutex_unlock(&s->lock);
        return -1;
    }
    struct mem_alloc a = t->v[i];
    if (table_update(s, NULL, i) != 0) {
        pthread_mutex_unlock(&s->lock);
        return -1;
    }
    s->used -= a.size;
    s->freed[s->nfreed++ % MEM_FREED_RING] = a;
    pthread_mutex_unlock(&s->lock);
    release_block(&a);
    return 0;
}

int mem_free(struct mem_space *s, uint64_t addr) { return remove_at(s, addr, false, 0); }
int mem_free_user(struct mem_space *s, uint64_t addr)
{
    return remove_at(s, addr, false, MEM_MODULE | MEM_HEAP | MEM_ARRAY | MEM_TEXOBJ);
}
int mem_unregister(struct mem_space *s, uint64_t addr) { return remove_at(s, addr, true, 0); }

void mem_reset(struct mem_space *s)
{
    pthread_mutex_lock(&s->lock);
    struct mem_table *t = atomic_load_explicit(&s->table, memory_order_relaxed);
    for (uint32_t i = 0; i < t->n; i++)
        release_block(&t->v[i]);
    struct mem_table *empty = table_new(0);
    if (empty) {
        atomic_store(&s->table, empty);
        t->retired_next = s->retired;
        s->retired = t;
    }
    s->used = 0;
    s->nfreed = 0;
    free_retired(s);
    pthread_mutex_unlock(&s->lock);
}

void mem_quiesce(struct mem_space *s)
{
    pthread_mutex_lock(&s->lock);
    if (atomic_load(&s->readers) == 0) free_retired(s);
    pthread_mutex_unlock(&s->lock);
}

void mem_read_begin(struct mem_space *s) { atomic_fetch_add(&s->readers, 1); }

void mem_read_end(struct mem_space *s) { atomic_fetch_sub(&s->readers, 1); }

const struct mem_alloc *mem_find(struct mem_space *s, uint64_t addr, uint64_t size)
{
    const struct mem_table *t = atomic_load_explicit(&s->table, memory_order_acquire);
    uint32_t lo = 0, hi = t->n;
    while (lo < hi) {            /* first allocation with base > addr */
        uint32_t mid = lo + (hi - lo) / 2;
        if (t->v[mid].base <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return NULL;
    const struct mem_alloc *a = &t->v[lo - 1];
    uint64_t off = addr - a->base;
    return off < a->size && size <= a->size - off ? a : NULL;
}

bool mem_nearest(struct mem_space *s, uint64_t addr, struct mem_alloc *out, bool *out_freed)
{
    bool found = false;
    uint64_t best = UINT64_MAX;
    pthread_mutex_lock(&s->lock);
    const struct mem_table *t = atomic_load_explicit(&s->table, memory_order_relaxed);
    for (uint32_t i = 0; i < t->n; i++) {
        const struct mem_alloc *a = &t->v[i];
        uint64_t d = addr < a->base ? a->base - addr : addr - a->base < a->size ? 0 : addr - (a->base + a->size) + 1;
        if (d < best) {
            best = d;
            *out = *a;
            *out_freed = false;
            found = true;
        }
    }
    uint32_t nf = s->nfreed < MEM_FREED_RING ? s->nfreed : MEM_FREED_RING;
    for (uint32_t i = 0; i < nf; i++) {
        const struct mem_alloc *a = &s->freed[i];
        if (addr >= a->base && addr - a->base < a->size) {   /* inside a freed block wins */
            *out = *a;
            *out_freed = true;
            found = true;
            break;
        }
    }
    pthread_mutex_unlock(&s->lock);
    return found;
}

void mem_usage(struct mem_space *s, uint64_t *out_used, uint64_t *out_capacity)
{
    pthread_mutex_lock(&s->lock);
    *out_used = s->used;
    *out_capacity = s->capacity;
    pthread_mutex_unlock(&s->lock);
}

void mem_foreach(struct mem_space *s, void (*fn)(const struct mem_alloc *a, void *ctx), void *ctx)
{
    pthread_mutex_lock(&s->lock);
    const struct mem_table *t = atomic_load_explicit(&s->table, memory_order_relaxed);
    for (uint32_t i = 0; i < t->n; i++) fn(&t->v[i], ctx);
    pthread_mutex_unlock(&s->lock);
}
