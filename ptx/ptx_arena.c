/* ptx_arena.c -- bump allocator in growing chunks, and an open-addressing
 * string interner (FNV-1a hashes, linear probing) on top of it. */
#include "ptx/ptx_arena.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ptx_chunk {
    struct ptx_chunk *next;
    size_t size;
    size_t used;
    _Alignas(16) unsigned char data[];
};

struct ptx_arena {
    struct ptx_chunk *head;
    size_t total;
};

/* Out of host memory: there is no way to report an error value from here
 * that every caller could act on, so this is the one place that stops. */
static void *ptx_xmalloc(size_t n)
{
    void *p = malloc(n);
    if (!p) {
        fputs("loom: out of memory\n", stderr);
        abort();
    }
    return p;
}

struct ptx_arena *ptx_arena_new(void)
{
    struct ptx_arena *a = ptx_xmalloc(sizeof *a);
    a->head = NULL;
    a->total = 0;
    return a;
}

void ptx_arena_free(struct ptx_arena *a)
{
    if (!a)
        return;
    struct ptx_chunk *c = a->head;
    while (c) {
        struct ptx_chunk *next = c->next;
        free(c);
        c = next;
    }
    free(a);
}

void *ptx_arena_alloc(struct ptx_arena *a, size_t size)
{
    size = (size + 15) & ~(size_t)15;
    struct ptx_chunk *c = a->head;
    if (!c || c->size - c->used < size) {
        size_t cap = c ? c->size * 2 : 64 * 1024;
        if (cap > 16u << 20)
            cap = 16u << 20;
        if (cap < size)
            cap = size;
        struct ptx_chunk *n = ptx_xmalloc(sizeof *n + cap);
        n->size = cap;
        n->used = 0;
        /* A huge one-off block goes behind the current chunk so the
         * current chunk's free space stays usable. */
        if (c && cap == size && c->size - c->used > 4096) {
            n->next = c->next;
            c->next = n;
        } else {
            n->next = c;
            a->head = n;
        }
        c = n;
    }
    void *p = c->data + c->used;
    c->used += size;
    a->total += size;
    memset(p, 0, size);
    return p;
}

void *ptx_arena_dup(struct ptx_arena *a, const void *src, size_t n)
{
    if (n == 0)
        return NULL;
    void *p = ptx_arena_alloc(a, n);
    memcpy(p, src, n);
    return p;
}

char *ptx_arena_strndup(struct ptx_arena *a, const char *s, size_t len)
{
    char *p = ptx_arena_alloc(a, len + 1);
    memcpy(p, s, len);
    p[len] = 0;
    return p;
}

size_t ptx_arena_used(const struct ptx_arena *a) { return a->total; }

struct ptx_istr {
    const char *s;
    uint32_t len;
    uint32_t hash;
};

struct ptx_interner {
    struct ptx_arena *arena;
    uint32_t *slots;         /* id, 0 = empty */
    uint32_t mask;           /* slot count - 1 */
    struct ptx_istr *strs;   /* by id */
    uint32_t count, cap;     /* count = next id */
};

static uint32_t ptx_hash(const char *s, size_t len)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

struct ptx_interner *ptx_interner_new(struct ptx_arena *a)
{
    struct ptx_interner *in = ptx_xmalloc(sizeof *in);
    in->arena = a;
    in->mask = 4095;
    in->slots = calloc(in->mask + 1, sizeof *in->slots);
    in->cap = 1024;
    in->strs = ptx_xmalloc(in->cap * sizeof *in->strs);
    if (!in->slots) {
        fputs("loom: out of memory\n", stderr);
        abort();
    }
    in->count = 1;
    in->strs[0] = (struct ptx_istr){ "", 0, 0 };
    return in;
}

void ptx_interner_free(struct ptx_interner *in)
{
    if (!in)
        return;
    free(in->slots);
    free(in->strs);
    free(in);
}

static void ptx_interner_grow(struct ptx_interner *in)
{
    uint32_t nmask = in->mask * 2 + 1;
    uint32_t *ns = calloc((size_t)nmask + 1, sizeof *ns);
    if (!ns) {
        fputs("loom: out of memory\n", stderr);
        abort();
    }
    for (uint32_t id = 1; id < in->count; id++) {
        uint32_t i = in->strs[id].hash & nmask;
        while (ns[i])
            i = (i + 1) & nmask;
        ns[i] = id;
    }
    free(in->slots);
    in->slots = ns;
    in->mask = nmask;
}

static uint32_t ptx_interner_lookup(const struct ptx_interner *in, const char *s, size_t len,
                                    uint32_t h, uint32_t *out_slot)
{
    uint32_t i = h & in->mask;
    for (;;) {
        uint32_t id = in->slots[i];
        if (!id)
            break;
        const struct ptx_istr *e = &in->strs[id];
        if (e->hash == h && e->len == len && memcmp(e->s, s, len) == 0)
            return id;
        i = (i + 1) & in->mask;
    }
    *out_slot = i;
    return 0;
}

uint32_t ptx_intern(struct ptx_interner *in, const char *s, size_t len)
{
    uint32_t h = ptx_hash(s, len), slot;
    uint32_t id = ptx_interner_lookup(in, s, len, h, &slot);
    if (id)
        return id;
    if ((in->count + 1) * 2 > in->mask) {
        ptx_interner_grow(in);
        ptx_interner_lookup(in, s, len, h, &slot);
    }
    if (in->count == in->cap) {
        in->cap *= 2;
        struct ptx_istr *ns = realloc(in->strs, in->cap * sizeof *ns);
        if (!ns) {
            fputs("loom: out of memory\n", stderr);
            abort();
        }
        in->strs = ns;
    }
    id = in->count++;
    in->strs[id] = (struct ptx_istr){ ptx_arena_strndup(in->arena, s, len), (uint32_t)len, h };
    in->slots[slot] = id;
    return id;
}

uint32_t ptx_interner_find(const struct ptx_interner *in, const char *s, size_t len)
{
    uint32_t slot;
    return ptx_interner_lookup(in, s, len, ptx_hash(s, len), &slot);
}

const char *ptx_interner_str(const struct ptx_interner *in, uint32_t id)
{
    return id < in->count ? in->strs[id].s : "";
}

uint32_t ptx_interner_len(const struct ptx_interner *in, uint32_t id)
{
    return id < in->count ? in->strs[id].len : 0;
}

uint32_t ptx_interner_count(const struct ptx_interner *in) { return in->count; }
