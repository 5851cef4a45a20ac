/* mem.h -- the device address space: allocations with cudaMalloc semantics,
 * lookups that handlers use to check every access, and the report helpers. */
#ifndef LOOM_MEM_H
#define LOOM_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Device addresses are host addresses: an allocation's bytes live at (void *)base. */
enum mem_flags {
    MEM_DEVICE = 1u << 0,    /* cudaMalloc */
    MEM_MANAGED = 1u << 1,   /* cudaMallocManaged */
    MEM_HOST = 1u << 2,      /* pinned host memory visible to kernels */
    MEM_READONLY = 1u << 3,  /* .const bank: kernels may not write */
    MEM_MODULE = 1u << 4,    /* module global / const variable */
    MEM_HEAP = 1u << 5,      /* in-kernel malloc */
    MEM_ARRAY = 1u << 6,     /* a CUDA array: a struct mem_array, then its texels (mem_tex.h) */
    MEM_TEXOBJ = 1u << 7,    /* a texture or surface object: a struct mem_texobj (mem_tex.h) */
};

struct mem_alloc {
    uint64_t base, size;
    uint32_t flags;
    uint32_t id;             /* allocation number, for reports */
    const char *label;       /* variable name for module globals; NULL otherwise */
};

struct mem_space;

struct mem_space *mem_space_create(uint64_t capacity);
void mem_space_destroy(struct mem_space *s);
/* Allocates size bytes (at least 1) aligned to 512, zero-filled. */
int mem_alloc(struct mem_space *s, uint64_t size, uint32_t flags, const char *label, uint64_t *out_addr);
/* Registers host memory the caller owns (cudaHostRegister): no free on release. */
int mem_register(struct mem_space *s, void *p, uint64_t size, uint32_t flags, uint64_t *out_addr);
/* Frees a live allocation; returns -1 when addr is not the base of one. */
int mem_free(struct mem_space *s, uint64_t addr);
/* mem_free for the host API (cudaFree, loom_free): module variables, in-kernel
 * heap blocks, CUDA arrays and texture objects are not the caller's to free (-1,
 * nothing happens). */
int mem_free_user(struct mem_space *s, uint64_t addr);
int mem_unregister(struct mem_space *s, uint64_t addr);
/* Frees everything. */
void mem_reset(struct mem_space *s);

/* The live allocation that contains [addr, addr + size), or NULL. Lock-free;
 * safe to call from any thread while other threads allocate, between
 * mem_read_begin and mem_read_end (the record lives in a table that a later
 * mem_quiesce may free once no reader is left). */
const struct mem_alloc *mem_find(struct mem_space *s, uint64_t addr, uint64_t size);
/* Brackets the use of mem_find's results: a host call that looks allocations up, or
 * a kernel from its launch to the end of its last CTA. */
void mem_read_begin(struct mem_space *s);
void mem_read_end(struct mem_space *s);
/* For reports: the allocation (live or recently freed) nearest to addr.
 * *out_freed tells whether it was freed. Copies into *out. */
bool mem_nearest(struct mem_space *s, uint64_t addr, struct mem_alloc *out, bool *out_freed);
/* Frees superseded lookup tables when no reader (mem_read_begin) is in progress. */
void mem_quiesce(struct mem_space *s);
void mem_usage(struct mem_space *s, uint64_t *out_used, uint64_t *out_capacity);
/* Calls fn for each live allocation, in address order, under the space's lock (fn must
 * not call back into it). */
void mem_foreach(struct mem_space *s, void (*fn)(const struct mem_alloc *a, void *ctx), void *ctx);

#endif
