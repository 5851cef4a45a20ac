/* drv_handles.c -- the set of handles the driver stand-in has handed out (contexts, modules,
 * functions, link states), so that a foreign or garbage pointer is refused before it is read. */
#include <stdlib.h>

#include "driver/drv_internal.h"

/* Open addressing over pointers; NULL marks a free slot, DELETED a removed one. */
#define DELETED ((const void *)1)

static pthread_rwlock_t lock = PTHREAD_RWLOCK_INITIALIZER;
static const void **slots;
static size_t capacity, used;   /* used counts DELETED slots too */

static size_t hash(const void *p)
{
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return (size_t)x;
}

/* The slot of p, or of the first free slot on its probe sequence. */
static size_t find(const void **table, size_t cap, const void *p)
{
    size_t i = hash(p) & (cap - 1);
    while (table[i] && table[i] != p)
        i = (i + 1) & (cap - 1);
    return i;
}

static bool grow(void)
{
    size_t cap = capacity ? capacity * 2 : 256;
    const void **table = calloc(cap, sizeof *table);
    if (!table)
        return false;
    size_t n = 0;
    for (size_t i = 0; i < capacity; i++)
        if (slots[i] && slots[i] != DELETED) {
            table[find(table, cap, slots[i])] = slots[i];
            n++;
        }
    free(slots);
    slots = table;
    capacity = cap;
    used = n;
    return true;
}

bool drv_handle_add(const void *h)
{
    pthread_rwlock_wrlock(&lock);
    bool ok = 2 * (used + 1) <= capacity || grow();
    if (ok) {
        size_t i = find(slots, capacity, h);
        if (!slots[i]) {
            slots[i] = h;
            used++;
        }
    }
    pthread_rwlock_unlock(&lock);
    return ok;
}

void drv_handle_del(const void *h)
{
    pthread_rwlock_wrlock(&lock);
    if (capacity) {
        size_t i = find(slots, capacity, h);
        if (slots[i])
            slots[i] = DELETED;
    }
    pthread_rwlock_unlock(&lock);
}

bool drv_handle_known(const void *h)
{
    if (!h || h == DELETED)
        return false;
    pthread_rwlock_rdlock(&lock);
    bool known = capacity && slots[find(slots, capacity, h)] == h;
    pthread_rwlock_unlock(&lock);
    return known;
}
