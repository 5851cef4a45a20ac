/* emu_host.c -- host services for kernels: device printf formatted as CUDA does into a
 * per-device FIFO flushed at synchronisation points, and the in-kernel malloc/free heap. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emu/emu.h"
#include "memory/mem.h"

#define HOST_FIFO_DEFAULT ((uint64_t)1 << 20)   /* cudaLimitPrintfFifoSize, as documented */
#define HOST_HEAP_DEFAULT ((uint64_t)8 << 20)   /* cudaLimitMallocHeapSize */
#define PRINTF_MAX_ARGS 32                       /* "printf() can accept at most 32 arguments" */
#define HEAP_ALIGN 16u
#define HEAP_BINS 64
#define HEAP_NIL UINT32_MAX
#define HEAP_EMPTY UINT64_MAX
#define HEAP_FIRST_FIT_SCAN 32

/* A block of the heap region, kept outside the region so that a kernel writing past
 * its block cannot corrupt the allocator. Physical neighbours form a list in address
 * order; free blocks also sit on the list of their size class. */
struct heap_block {
    uint64_t off, size;         /* bytes from the region base; multiples of HEAP_ALIGN */
    uint32_t prev, next;        /* physical neighbours, HEAP_NIL at the ends */
    uint32_t fprev, fnext;      /* free-list links (fnext also chains spare records) */
    uint8_t free;
};

/* Live blocks by offset: open addressing with linear probing. */
struct heap_slot {
    uint64_t off;
    uint32_t blk;
};

struct emu_host {
    FILE *out;
    /* printf FIFO: formatted text of whole printf calls, in the order they were made. */
    pthread_mutex_t fifo_lock;
    char *fifo;
    uint64_t fifo_len, fifo_alloc, fifo_limit;
    uint64_t dropped;           /* printf calls lost to a full FIFO since the last flush */
    int probe[2];               /* pipe used to test whether a host page is readable */
    /* Device heap. */
    pthread_mutex_t heap_lock;
    struct mem_space *mem;
    uint64_t heap_limit;
    uint64_t base, region;      /* the region (0 when not made yet) and its size */
    uint32_t region_id;         /* its allocation number in mem, to tell it from a successor */
    struct heap_block *blk;
    uint32_t nblk, blk_cap, spare;
    uint32_t bins[HEAP_BINS];
    uint64_t binmask;
    struct heap_slot *slots;
    uint32_t slot_cap, nlive;
};

static void heap_drop_metadata(struct emu_host *h);
static void heap_release_region(struct emu_host *h);

struct emu_host *emu_host_create(FILE *out, uint64_t fifo_bytes, uint64_t heap_bytes, struct mem_space *mem)
{
    struct emu_host *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    h->out = out ? out : stdout;
    pthread_mutex_init(&h->fifo_lock, NULL);
    pthread_mutex_init(&h->heap_lock, NULL);
    h->fifo_limit = fifo_bytes ? fifo_bytes : HOST_FIFO_DEFAULT;
    h->heap_limit = heap_bytes ? heap_bytes : HOST_HEAP_DEFAULT;
    h->mem = mem;
    heap_drop_metadata(h);
    if (pipe(h->probe) != 0)
        h->probe[0] = h->probe[1] = -1;
    else {
        fcntl(h->probe[0], F_SETFL, O_NONBLOCK);
        fcntl(h->probe[1], F_SETFL, O_NONBLOCK);
        fcntl(h->probe[0], F_SETFD, FD_CLOEXEC);
        fcntl(h->probe[1], F_SETFD, FD_CLOEXEC);
    }
    return h;
}

void emu_host_destroy(struct emu_host *h)
{
    if (!h)
        return;
    emu_host_flush(h);
    heap_release_region(h);
    free(h->fifo);
    if (h->probe[0] >= 0) {
        close(h->probe[0]);
        close(h->probe[1]);
    }
    pthread_mutex_destroy(&h->fifo_lock);
    pthread_mutex_destroy(&h->heap_lock);
    free(h);
}

void emu_host_set_limits(struct emu_host *h, uint64_t fifo_bytes, uint64_t heap_bytes)
{
    pthread_mutex_lock(&h->fifo_lock);
    h->fifo_limit = fifo_bytes ? fifo_bytes : HOST_FIFO_DEFAULT;
    pthread_mutex_unlock(&h->fifo_lock);
    /* A new heap size takes effect at the next malloc that finds no live block. */
    pthread_mutex_lock(&h->heap_lock);
    h->heap_limit = heap_bytes ? heap_bytes : HOST_HEAP_DEFAULT;
    pthread_mutex_unlock(&h->heap_lock);
}

/* ---- printf ---------------------------------------------------------------------------
 * CUDA C++ Programming Guide, "Formatted Output": a specifier is
 * %[flags][width][.precision][size]type; the device packs each argument at its natural
 * alignment (int-sized values take 4 bytes, long/long long/double/pointers 8; floats are
 * promoted to double); the final formatting happens on the host with the host C library,
 * one specifier at a time; at most 32 arguments are taken, and specifiers beyond them are
 * output as-is. Loom formats each specifier with the host's snprintf as CUDA does. */

/* A growing text buffer for one printf call. `cap_hit` is set when the text already
 * exceeds what the FIFO could hold: the call will be dropped, so formatting stops. */
struct text {
    char *p;
    size_t n, cap;
    uint64_t limit;
    bool cap_hit;
    char small[512];
};

/* Grows the buffer to hold `more` further bytes. */
static bool text_reserve(struct text *t, size_t more)
{
    if (t->n + more <= t->cap)
        return true;
    size_t cap = t->cap * 2;
    while (cap < t->n + more)
        cap *= 2;
    char *p = t->p == t->small ? malloc(cap) : realloc(t->p, cap);
    if (!p) {
        t->cap_hit = true;
        return false;
    }
    if (t->p == t->small)
        memcpy(p, t->small, t->n);
    t->p = p;
    t->cap = cap;
    return true;
}

static void text_put(struct text *t, const char *s, size_t n)
{
    if (t->n + n > t->limit)
        t->cap_hit = true;
    if (!t->cap_hit && text_reserve(t, n)) {
        memcpy(t->p + t->n, s, n);
        t->n += n;
    }
}

/* Appends snprintf(fmt, ...) to t. The format is built at run time from the kernel's
 * specifier, so it cannot be a literal. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#define TEXT_FORMAT(t, fmt, value)                                                            \
    do {                                                                                      \
        if ((t)->cap_hit)                                                                     \
            break;                                                                            \
        size_t room_ = (t)->cap - (t)->n;                                                     \
        int k_ = snprintf((t)->p + (t)->n, room_, (fmt), (value));                            \
        if (k_ < 0)                                                                           \
            break;                                                                            \
        if ((t)->n + (size_t)k_ > (t)->limit) {                                               \
            (t)->cap_hit = true;                                                              \
            break;                                                                            \
        }                                                                                     \
        if ((size_t)k_ >= room_) {                                                            \
            if (!text_reserve((t), (size_t)k_ + 1))                                           \
                break;                                                                        \
            snprintf((t)->p + (t)->n, (t)->cap - (t)->n, (fmt), (value));                     \
        }                                                                                     \
        (t)->n += (size_t)k_;                                                                 \
    } while (0)

static void text_int(struct text *t, const char *fmt, long long v) { TEXT_FORMAT(t, fmt, v); }
static void text_uint(struct text *t, const char *fmt, unsigned long long v) { TEXT_FORMAT(t, fmt, v); }
static void text_chr(struct text *t, const char *fmt, int v) { TEXT_FORMAT(t, fmt, v); }
static void text_dbl(struct text *t, const char *fmt, double v) { TEXT_FORMAT(t, fmt, v); }
static void text_str(struct text *t, const char *fmt, const char *v) { TEXT_FORMAT(t, fmt, v); }
static void text_ptr(struct text *t, const char *fmt, void *v) { TEXT_FORMAT(t, fmt, v); }
#pragma GCC diagnostic pop

enum pf_len { PF_NONE, PF_HH, PF_H, PF_L, PF_LL, PF_Z, PF_J, PF_T };

/* One parsed conversion specification. */
struct pf_spec {
    char flags[8];
    unsigned nflags;
    int width, prec;            /* -1: absent */
    bool width_star, prec_star;
    enum pf_len len;
    char conv;
};

static int pf_number(const char **pp)
{
    long v = 0;
    const char *p = *pp;
    while (*p >= '0' && *p <= '9') {
        v = v * 10 + (*p++ - '0');
        if (v > INT_MAX)
            v = INT_MAX;
    }
    *pp = p;
    return (int)v;
}

/* Parses the specification that starts after '%' at p. Returns the number of
 * characters it spans; *out_ok is false when it is not one Loom formats, in which case
 * the span ends at (and includes) the offending character, which is printed as-is. */
static size_t pf_parse(const char *p, struct pf_spec *s, bool *out_ok)
{
    const char *start = p;
    memset(s, 0, sizeof *s);
    s->width = s->prec = -1;
    while (*p && strchr("-+ #0", *p)) {
        if (s->nflags < sizeof s->flags - 1 && !strchr(s->flags, *p))
            s->flags[s->nflags++] = *p;
        p++;
    }
    if (*p == '*') {
        s->width_star = true;
        p++;
    } else if (*p >= '0' && *p <= '9') {
        s->width = pf_number(&p);
    }
    if (*p == '.') {
        p++;
        if (*p == '*') {
            s->prec_star = true;
            p++;
        } else {
            s->prec = pf_number(&p);
        }
    }
    if (*p == 'h')
        s->len = p[1] == 'h' ? (p += 2, PF_HH) : (p++, PF_H);
    else if (*p == 'l')
        s->len = p[1] == 'l' ? (p += 2, PF_LL) : (p++, PF_L);
    else if (*p == 'z')
        s->len = (p++, PF_Z);
    else if (*p == 'j')
        s->len = (p++, PF_J);
    else if (*p == 't')
        s->len = (p++, PF_T);
    if (*p && strchr("diuoxXcsfFeEgGaAp%", *p)) {
        s->conv = *p;
        *out_ok = true;
        return (size_t)(p - start) + 1;
    }
    *out_ok = false;
    return (size_t)(p - start) + (*p ? 1 : 0);
}

/* Where the arguments of one call are read from. */
struct pf_args {
    const uint8_t *p;
    uint64_t size;              /* 0: unknown (the caller could not tell) */
    uint64_t off;
    unsigned count;
};

/* Reads the next argument of `size` bytes at its natural alignment. */
static bool pf_next(struct pf_args *a, unsigned size, uint64_t *out_v)
{
    uint64_t off = (a->off + size - 1) & ~(uint64_t)(size - 1);
    if (!a->p || (a->size && (off > a->size || a->size - off < size)))
        return false;
    if (size == 4) {
        uint32_t v;
        memcpy(&v, a->p + off, 4);
        *out_v = v;
    } else {
        memcpy(out_v, a->p + off, 8);
    }
    a->off = off + size;
    a->count++;
    return true;
}

/* Whether the host page holding p can be read, without touching it: write(2) of one
 * byte from it into a pipe fails with EFAULT for an unreadable page. */
static bool host_readable(struct emu_host *h, const void *p)
{
    if (h->probe[1] < 0)
        return true;
    ssize_t k;
    do
        k = write(h->probe[1], p, 1);
    while (k < 0 && errno == EINTR);
    if (k == 1) {
        char c;
        while (read(h->probe[0], &c, 1) < 0 && errno == EINTR)
            ;
        return true;
    }
    return errno != EFAULT;
}

/* Validates the string argument at addr, reading at most `max` bytes. Strings inside a
 * device allocation must end inside it; other addresses (shared or local memory, which
 * live in the emulator's own buffers) are checked page by page for readability. */
static const char *pf_string(struct emu_host *h, uint64_t addr, uint64_t max, const char **out_err)
{
    const char *s = (const char *)(uintptr_t)addr;
    if (h->mem) {
        const struct mem_alloc *a = mem_find(h->mem, addr, 1);
        if (a) {
            uint64_t room = a->base + a->size - addr;
            if (room < max && !memchr(s, 0, room)) {
                *out_err = "%s argument is not NUL-terminated inside its allocation";
                return NULL;
            }
            return s;
        }
        struct mem_alloc near;
        bool freed = false;
        if (mem_nearest(h->mem, addr, &near, &freed) && freed && addr - near.base < near.size) {
            *out_err = "%s argument points into freed device memory";
            return NULL;
        }
    }
    const uint64_t page = 4096;
    for (uint64_t i = 0; i < max;) {
        if (!host_readable(h, s + i)) {
            *out_err = "%s argument is not a readable address";
            return NULL;
        }
        uint64_t end = ((addr + i) | (page - 1)) + 1 - addr;
        if (end > max)
            end = max;
        if (memchr(s + i, 0, end - i))
            break;
        i = end;
    }
    return s;
}

/* Builds the host format for spec s with the given resolved width/precision, keeping
 * the flags and, for integers, the length that the value was converted to. */
static void pf_host_format(const struct pf_spec *s, int width, int prec, const char *len, char conv,
                           char out[64])
{
    char *o = out;
    *o++ = '%';
    for (unsigned i = 0; i < s->nflags; i++)
        *o++ = s->flags[i];
    if (width >= 0)
        o += snprintf(o, 16, "%d", width);
    if (prec >= 0)
        o += snprintf(o, 16, ".%d", prec);
    while (*len)
        *o++ = *len++;
    *o++ = conv;
    *o = 0;
}

/* Formats one valid specification, consuming its arguments. Returns false (with
 * *out_err) when an argument cannot be read. */
static bool pf_convert(struct emu_host *h, struct text *t, const struct pf_spec *s, struct pf_args *a,
                       const char **out_err)
{
    int width = s->width, prec = s->prec;
    struct pf_spec local = *s;
    uint64_t v;
    if (s->width_star) {
        if (!pf_next(a, 4, &v))
            goto no_arg;
        width = (int32_t)(uint32_t)v;
        if (width < 0) {                 /* a negative * width is a '-' flag */
            width = width == INT_MIN ? INT_MAX : -width;
            if (!strchr(local.flags, '-') && local.nflags < sizeof local.flags - 1)
                local.flags[local.nflags++] = '-';
        }
    }
    if (s->prec_star) {
        if (!pf_next(a, 4, &v))
            goto no_arg;
        prec = (int32_t)(uint32_t)v;
        if (prec < 0)                    /* a negative * precision is taken as absent */
            prec = -1;
    }
    if ((width > 0 && (uint64_t)width > t->limit) || (prec > 0 && (uint64_t)prec > t->limit)) {
        /* the text could never fit the FIFO: the call will be dropped, but its
         * arguments are still consumed */
        t->cap_hit = true;
    }
    char fmt[64];
    bool wide = s->len == PF_L || s->len == PF_LL || s->len == PF_Z || s->len == PF_J || s->len == PF_T;
    switch (s->conv) {
    case 'd': case 'i':
        if (!pf_next(a, wide ? 8 : 4, &v))
            goto no_arg;
        pf_host_format(&local, width, prec, "ll", s->conv, fmt);
        text_int(t, fmt, wide ? (long long)(int64_t)v
                     : s->len == PF_HH ? (long long)(signed char)(uint8_t)v
                     : s->len == PF_H ? (long long)(int16_t)(uint16_t)v
                     : (long long)(int32_t)(uint32_t)v);
        break;
    case 'u': case 'o': case 'x': case 'X':
        if (!pf_next(a, wide ? 8 : 4, &v))
            goto no_arg;
        pf_host_format(&local, width, prec, "ll", s->conv, fmt);
        text_uint(t, fmt, wide ? v : s->len == PF_HH ? (uint8_t)v : s->len == PF_H ? (uint16_t)v : (uint32_t)v);
        break;
    case 'c':
        if (!pf_next(a, 4, &v))
            goto no_arg;
        pf_host_format(&local, width, prec, "", 'c', fmt);
        text_chr(t, fmt, (int)(uint32_t)v);
        break;
    case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A':
        if (!pf_next(a, 8, &v))
            goto no_arg;
        pf_host_format(&local, width, prec, "", s->conv, fmt);
        text_dbl(t, fmt, emu_f64(v));
        break;
    case 'p':
        if (!pf_next(a, 8, &v))
            goto no_arg;
        pf_host_format(&local, width, prec, "", 'p', fmt);
        text_ptr(t, fmt, (void *)(uintptr_t)v);
        break;
    case 's': {
        if (!pf_next(a, 8, &v))
            goto no_arg;
        const char *str;
        if (!v) {
            /* glibc: "(null)" unless a precision below 6 cuts it, then nothing. */
            str = prec < 0 || prec >= 6 ? "(null)" : "";
        } else {
            str = pf_string(h, v, prec < 0 ? UINT64_MAX : (uint64_t)prec, out_err);
            if (!str)
                return false;
        }
        pf_host_format(&local, width, prec, "", 's', fmt);
        text_str(t, fmt, str);
        break;
    }
    default:
        break;
    }
    return true;
no_arg:
    *out_err = a->p ? "the format needs more arguments than were passed" : "the format needs arguments but none were passed";
    return false;
}

/* How many argument slots a valid specification takes. */
static unsigned pf_slots(const struct pf_spec *s)
{
    if (s->conv == '%')
        return 0;
    return 1u + s->width_star + s->prec_star;
}

int emu_host_vprintf(struct emu_host *h, const char *fmt, const uint8_t *args, uint64_t args_size,
                     const char **out_err)
{
    const char *unused_err;
    if (!out_err)
        out_err = &unused_err;
    if (!fmt) {                  /* CUDA's printf returns -1 for a NULL format: no fault */
        *out_err = NULL;
        return -1;
    }
    struct text t = { .p = NULL, .cap = sizeof t.small };
    t.p = t.small;
    pthread_mutex_lock(&h->fifo_lock);
    t.limit = h->fifo_limit;
    pthread_mutex_unlock(&h->fifo_lock);
    struct pf_args a = { .p = args, .size = args_size };
    const char *p = fmt;
    while (*p) {
        const char *pct = strchr(p, '%');
        size_t lit = pct ? (size_t)(pct - p) : strlen(p);
        text_put(&t, p, lit);
        if (!pct)
            break;
        struct pf_spec s;
        bool ok;
        size_t span = pf_parse(pct + 1, &s, &ok);
        p = pct + 1 + span;
        if (!ok || a.count + pf_slots(&s) > PRINTF_MAX_ARGS) {
            text_put(&t, pct, span + 1);           /* printed as-is, consumes nothing */
            continue;
        }
        if (s.conv == '%') {
            text_put(&t, "%", 1);
            continue;
        }
        if (!pf_convert(h, &t, &s, &a, out_err)) {
            if (t.p != t.small)
                free(t.p);
            return -1;
        }
    }
    pthread_mutex_lock(&h->fifo_lock);
    if (t.cap_hit || t.n > h->fifo_limit - (h->fifo_len < h->fifo_limit ? h->fifo_len : h->fifo_limit)) {
        h->dropped++;
    } else if (t.n) {
        if (h->fifo_len + t.n > h->fifo_alloc) {
            uint64_t cap = h->fifo_alloc ? h->fifo_alloc : 4096;
            while (cap < h->fifo_len + t.n)
                cap *= 2;
            char *f = realloc(h->fifo, cap);
            if (f) {
                h->fifo = f;
                h->fifo_alloc = cap;
            }
        }
        if (h->fifo_len + t.n <= h->fifo_alloc) {
            memcpy(h->fifo + h->fifo_len, t.p, t.n);
            h->fifo_len += t.n;
        } else {
            h->dropped++;
        }
    }
    pthread_mutex_unlock(&h->fifo_lock);
    if (t.p != t.small)
        free(t.p);
    return (int)a.count;
}

void emu_host_flush(struct emu_host *h)
{
    pthread_mutex_lock(&h->fifo_lock);
    if (h->fifo_len) {
        fwrite(h->fifo, 1, h->fifo_len, h->out);
        fflush(h->out);
    }
    /* The GPU drops what does not fit without a word; Loom says how much was lost. */
    if (h->dropped)
        fprintf(stderr, "loom: %llu kernel printf call%s lost: the printf FIFO (%llu bytes; "
                "cudaDeviceSetLimit(cudaLimitPrintfFifoSize, ...) sets it) was full\n",
                (unsigned long long)h->dropped, h->dropped == 1 ? " was" : "s were",
                (unsigned long long)h->fifo_limit);
    h->fifo_len = 0;
    h->dropped = 0;
    pthread_mutex_unlock(&h->fifo_lock);
}

uint64_t emu_host_fifo_mark(struct emu_host *h)
{
    pthread_mutex_lock(&h->fifo_lock);
    uint64_t n = h->fifo_len;
    pthread_mutex_unlock(&h->fifo_lock);
    return n;
}

void emu_host_fifo_cut(struct emu_host *h, uint64_t mark)
{
    pthread_mutex_lock(&h->fifo_lock);
    if (mark < h->fifo_len) h->fifo_len = mark;
    pthread_mutex_unlock(&h->fifo_lock);
}

/* ---- Device heap ------------------------------------------------------------------------
 * Segregated fit over one MEM_HEAP region: free blocks sit on power-of-two size classes
 * (first fit inside the class, else the head of the next non-empty class), freed blocks
 * merge with free neighbours, all metadata lives in host memory outside the region.
 * One lock serialises malloc and free, as the GPU's allocator serialises too. */

static unsigned heap_class(uint64_t size)
{
    return 63u - (unsigned)__builtin_clzll(size / HEAP_ALIGN);
}

static void heap_drop_metadata(struct emu_host *h)
{
    free(h->blk);
    free(h->slots);
    h->blk = NULL;
    h->slots = NULL;
    h->nblk = h->blk_cap = h->slot_cap = h->nlive = 0;
    h->spare = HEAP_NIL;
    h->binmask = 0;
    for (unsigned i = 0; i < HEAP_BINS; i++)
        h->bins[i] = HEAP_NIL;
    h->base = h->region = 0;
}

static uint32_t heap_new_block(struct emu_host *h)
{
    if (h->spare != HEAP_NIL) {
        uint32_t i = h->spare;
        h->spare = h->blk[i].fnext;
        return i;
    }
    if (h->nblk == h->blk_cap) {
        uint32_t cap = h->blk_cap ? h->blk_cap * 2 : 64;
        struct heap_block *b = realloc(h->blk, (size_t)cap * sizeof *b);
        if (!b)
            return HEAP_NIL;
        h->blk = b;
        h->blk_cap = cap;
    }
    return h->nblk++;
}

static void heap_release_block(struct emu_host *h, uint32_t i)
{
    h->blk[i].fnext = h->spare;
    h->spare = i;
}

static void heap_push_free(struct emu_host *h, uint32_t i)
{
    struct heap_block *b = &h->blk[i];
    unsigned c = heap_class(b->size);
    b->free = 1;
    b->fprev = HEAP_NIL;
    b->fnext = h->bins[c];
    if (b->fnext != HEAP_NIL)
        h->blk[b->fnext].fprev = i;
    h->bins[c] = i;
    h->binmask |= 1ull << c;
}

static void heap_unlink_free(struct emu_host *h, uint32_t i)
{
    struct heap_block *b = &h->blk[i];
    unsigned c = heap_class(b->size);
    if (b->fprev != HEAP_NIL)
        h->blk[b->fprev].fnext = b->fnext;
    else
        h->bins[c] = b->fnext;
    if (b->fnext != HEAP_NIL)
        h->blk[b->fnext].fprev = b->fprev;
    if (h->bins[c] == HEAP_NIL)
        h->binmask &= ~(1ull << c);
    b->free = 0;
}

static uint32_t heap_hash(uint64_t off, uint32_t cap)
{
    return (uint32_t)((off / HEAP_ALIGN * 0x9E3779B97F4A7C15ull) >> 32) & (cap - 1);
}

static bool heap_slots_grow(struct emu_host *h)
{
    uint32_t cap = h->slot_cap ? h->slot_cap * 2 : 256;
    struct heap_slot *s = malloc((size_t)cap * sizeof *s);
    if (!s)
        return false;
    for (uint32_t i = 0; i < cap; i++)
        s[i].off = HEAP_EMPTY;
    for (uint32_t i = 0; i < h->slot_cap; i++) {
        if (h->slots[i].off == HEAP_EMPTY)
            continue;
        uint32_t j = heap_hash(h->slots[i].off, cap);
        while (s[j].off != HEAP_EMPTY)
            j = (j + 1) & (cap - 1);
        s[j] = h->slots[i];
    }
    free(h->slots);
    h->slots = s;
    h->slot_cap = cap;
    return true;
}

static bool heap_live_insert(struct emu_host *h, uint64_t off, uint32_t blk)
{
    if ((h->nlive + 1) * 2 > h->slot_cap && !heap_slots_grow(h))
        return false;
    uint32_t j = heap_hash(off, h->slot_cap);
    while (h->slots[j].off != HEAP_EMPTY)
        j = (j + 1) & (h->slot_cap - 1);
    h->slots[j].off = off;
    h->slots[j].blk = blk;
    h->nlive++;
    return true;
}

/* Removes the live block at off; returns its index or HEAP_NIL. Deletion shifts later
 * entries of the probe run back so that lookups need no tombstones. */
static uint32_t heap_live_remove(struct emu_host *h, uint64_t off)
{
    if (!h->slot_cap)
        return HEAP_NIL;
    uint32_t mask = h->slot_cap - 1, j = heap_hash(off, h->slot_cap);
    while (h->slots[j].off != off) {
        if (h->slots[j].off == HEAP_EMPTY)
            return HEAP_NIL;
        j = (j + 1) & mask;
    }
    uint32_t blk = h->slots[j].blk;
    for (uint32_t k = (j + 1) & mask; h->slots[k].off != HEAP_EMPTY; k = (k + 1) & mask) {
        uint32_t home = heap_hash(h->slots[k].off, h->slot_cap);
        if (((k - home) & mask) >= ((k - j) & mask)) {
            h->slots[j] = h->slots[k];
            j = k;
        }
    }
    h->slots[j].off = HEAP_EMPTY;
    h->nlive--;
    return blk;
}

/* Whether the region is still the device allocation it was made as: a reset of the
 * device's memory frees it, and a later allocation may then take the same address. */
static bool heap_region_live(struct emu_host *h)
{
    if (!h->mem)
        return true;
    const struct mem_alloc *a = mem_find(h->mem, h->base, h->region);
    return a && a->id == h->region_id && a->base == h->base;
}

/* Frees the region when it is still ours, and forgets every block. */
static void heap_release_region(struct emu_host *h)
{
    if (h->base) {
        if (!h->mem)
            free((void *)(uintptr_t)h->base);
        else if (heap_region_live(h))
            mem_free(h->mem, h->base);
    }
    heap_drop_metadata(h);
}

/* Makes sure a region of heap_limit bytes exists: creates it on first use, replaces it
 * when the limit changed and no block is live, and starts afresh when the device's
 * memory was reset under it. Caller holds heap_lock. */
static bool heap_ready(struct emu_host *h)
{
    if (h->base) {
        if (!heap_region_live(h))
            heap_drop_metadata(h);
        else if (h->nlive == 0 && h->region != h->heap_limit)
            heap_release_region(h);
        else
            return true;
    }
    uint64_t size = (h->heap_limit + HEAP_ALIGN - 1) & ~(uint64_t)(HEAP_ALIGN - 1);
    if (size < HEAP_ALIGN)
        return false;
    heap_drop_metadata(h);
    uint64_t base = 0;
    if (h->mem) {
        if (mem_alloc(h->mem, size, MEM_HEAP, "device heap", &base) != 0)
            return false;
        const struct mem_alloc *a = mem_find(h->mem, base, size);
        h->region_id = a ? a->id : 0;
    } else {
        void *p = aligned_alloc(256, size);
        if (!p)
            return false;
        base = (uint64_t)(uintptr_t)p;
    }
    uint32_t i = heap_new_block(h);
    if (i == HEAP_NIL) {
        if (h->mem)
            mem_free(h->mem, base);
        else
            free((void *)(uintptr_t)base);
        return false;
    }
    h->base = base;
    h->region = size;
    h->blk[i] = (struct heap_block){ .off = 0, .size = size, .prev = HEAP_NIL, .next = HEAP_NIL };
    heap_push_free(h, i);
    return true;
}

/* Finds a free block of at least n bytes: first fit in n's class (bounded scan), else
 * the head of the next larger non-empty class, else the rest of n's class. */
static uint32_t heap_find(struct emu_host *h, uint64_t n)
{
    unsigned c = heap_class(n);
    uint32_t i = h->bins[c];
    for (unsigned k = 0; i != HEAP_NIL && k < HEAP_FIRST_FIT_SCAN; k++, i = h->blk[i].fnext)
        if (h->blk[i].size >= n)
            return i;
    uint64_t above = c + 1 < HEAP_BINS ? h->binmask & ~((2ull << c) - 1) : 0;
    if (above)
        return h->bins[__builtin_ctzll(above)];
    for (; i != HEAP_NIL; i = h->blk[i].fnext)
        if (h->blk[i].size >= n)
            return i;
    return HEAP_NIL;
}

uint64_t emu_host_malloc(struct emu_host *h, uint64_t size)
{
    /* malloc(0) gets a block of its own, as on the GPU (a unique non-NULL pointer). */
    uint64_t n = size ? (size + HEAP_ALIGN - 1) & ~(uint64_t)(HEAP_ALIGN - 1) : HEAP_ALIGN;
    if (n < size)
        return 0;
    uint64_t addr = 0;
    pthread_mutex_lock(&h->heap_lock);
    if (!heap_ready(h) || n > h->region)
        goto out;
    uint32_t i = heap_find(h, n);
    if (i == HEAP_NIL)
        goto out;
    heap_unlink_free(h, i);
    if (h->blk[i].size - n >= HEAP_ALIGN) {
        uint32_t r = heap_new_block(h);
        if (r != HEAP_NIL) {
            struct heap_block *b = &h->blk[i];
            h->blk[r] = (struct heap_block){ .off = b->off + n, .size = b->size - n, .prev = i, .next = b->next };
            if (b->next != HEAP_NIL)
                h->blk[b->next].prev = r;
            b->next = r;
            b->size = n;
            heap_push_free(h, r);
        }
    }
    if (!heap_live_insert(h, h->blk[i].off, i)) {
        heap_push_free(h, i);
        goto out;
    }
    addr = h->base + h->blk[i].off;
out:
    pthread_mutex_unlock(&h->heap_lock);
    return addr;
}

int emu_host_free(struct emu_host *h, uint64_t addr)
{
    if (!addr)
        return 0;
    int rc = -1;
    pthread_mutex_lock(&h->heap_lock);
    if (!h->base || addr < h->base || addr - h->base >= h->region)
        goto out;
    uint32_t i = heap_live_remove(h, addr - h->base);
    if (i == HEAP_NIL)
        goto out;
    uint32_t nx = h->blk[i].next;
    if (nx != HEAP_NIL && h->blk[nx].free) {
        heap_unlink_free(h, nx);
        h->blk[i].size += h->blk[nx].size;
        h->blk[i].next = h->blk[nx].next;
        if (h->blk[i].next != HEAP_NIL)
            h->blk[h->blk[i].next].prev = i;
        heap_release_block(h, nx);
    }
    uint32_t pv = h->blk[i].prev;
    if (pv != HEAP_NIL && h->blk[pv].free) {
        heap_unlink_free(h, pv);
        h->blk[pv].size += h->blk[i].size;
        h->blk[pv].next = h->blk[i].next;
        if (h->blk[pv].next != HEAP_NIL)
            h->blk[h->blk[pv].next].prev = pv;
        heap_release_block(h, i);
        i = pv;
    }
    heap_push_free(h, i);
    rc = 0;
out:
    pthread_mutex_unlock(&h->heap_lock);
    return rc;
}
