/* ptx_arena.h -- bump allocator and string interner of the PTX front end.
 * A module owns one arena; every IR allocation lives in it and dies with it. */
#ifndef LOOM_PTX_ARENA_H
#define LOOM_PTX_ARENA_H

#include <stddef.h>
#include <stdint.h>

struct ptx_arena;
struct ptx_interner;

struct ptx_arena *ptx_arena_new(void);
void ptx_arena_free(struct ptx_arena *a);
/* Zero-filled, 16-byte aligned; never NULL (aborts only if the host is out of memory). */
void *ptx_arena_alloc(struct ptx_arena *a, size_t size);
/* Copies n bytes of src into the arena. */
void *ptx_arena_dup(struct ptx_arena *a, const void *src, size_t n);
/* NUL-terminated copy of s[0..len). */
char *ptx_arena_strndup(struct ptx_arena *a, const char *s, size_t len);
/* Bytes handed out so far (statistics). */
size_t ptx_arena_used(const struct ptx_arena *a);

/* The interner maps each distinct string to a dense id (1, 2, ...; 0 is never
 * used) and a stable NUL-terminated copy allocated in the arena. */
struct ptx_interner *ptx_interner_new(struct ptx_arena *a);
void ptx_interner_free(struct ptx_interner *in);
uint32_t ptx_intern(struct ptx_interner *in, const char *s, size_t len);
/* Id of s, or 0 when it was never interned. */
uint32_t ptx_interner_find(const struct ptx_interner *in, const char *s, size_t len);
const char *ptx_interner_str(const struct ptx_interner *in, uint32_t id);
uint32_t ptx_interner_len(const struct ptx_interner *in, uint32_t id);
/* One more than the largest id handed out. */
uint32_t ptx_interner_count(const struct ptx_interner *in);

#endif
