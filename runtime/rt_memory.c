/* rt_memory.c -- device, managed, pinned and stream-ordered memory; copies and sets
 * (1D, 2D, peer, to and from symbols); pointer attributes. Device addresses are host addresses. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "runtime/rt_internal.h"

#define RT_PITCH_ALIGN 512u

/* Pinned host memory (cudaMallocHost, cudaHostAlloc, cudaHostRegister): kept in
 * a list so that cudaPointerGetAttributes reports it as host memory. */
struct host_block {
    void *ptr;
    size_t size;
    unsigned flags;
    bool registered;            /* cudaHostRegister: the program owns the memory */
    struct host_block *next;
};
static struct host_block *host_blocks;

/* cudaFreeAsync: the stream marks the block due; the next API call frees it. */
struct deferred_free {
    uint64_t addr;
    bool due;
    struct deferred_free *next;
};
static struct deferred_free *deferred;
static pthread_mutex_t mem_lock = PTHREAD_MUTEX_INITIALIZER;

static void *as_ptr(uint64_t a) { return (void *)(uintptr_t)a; }
static uint64_t as_addr(const void *p) { return (uint64_t)(uintptr_t)p; }

static struct host_block *host_find(const void *p, bool containing)
{
    for (struct host_block *b = host_blocks; b; b = b->next)
        if (b->ptr == p || (containing && (const char *)p >= (const char *)b->ptr &&
                            (const char *)p < (const char *)b->ptr + b->size))
            return b;
    return NULL;
}

static bool valid_kind(enum cudaMemcpyKind kind)
{
    return (unsigned)kind <= cudaMemcpyDefault;
}

/* Whether p is memory the device reaches: inside a live allocation of the device address
 * space (cudaMalloc, managed, cudaMallocHost, a module variable) or a registered host block. */
static bool is_device(const void *p)
{
    if (!p)
        return false;
    if (loom_pointer_info(rt.dev, as_addr(p), NULL, NULL, NULL) == LOOM_OK)
        return true;
    pthread_mutex_lock(&mem_lock);
    struct host_block *b = host_find(p, true);
    bool registered = b && b->registered;
    pthread_mutex_unlock(&mem_lock);
    return registered;
}

/* The device side of a copy or set, checked as CUDA checks it before touching anything:
 * [p, p + n) lies inside the one live allocation (or registered host block) that contains
 * p. A pointer in no allocation, into freed memory, or a range running past the end fails. */
static bool device_range(const void *p, size_t n)
{
    uint64_t base;
    size_t size;
    if (!p)
        return false;
    if (loom_pointer_info(rt.dev, as_addr(p), &base, &size, NULL) == LOOM_OK)
        return n <= size - (as_addr(p) - base);
    pthread_mutex_lock(&mem_lock);
    struct host_block *b = host_find(p, true);
    bool ok = b && b->registered && n <= b->size - (size_t)((const char *)p - (const char *)b->ptr);
    pthread_mutex_unlock(&mem_lock);
    return ok;
}

/* The host side of a copy: [p, p + n) must be mapped. CUDA copies pageable memory with
 * the CPU and dies of SIGSEGV on a wild pointer; Loom returns an error instead (msync
 * with MS_ASYNC only looks the range up: ENOMEM when part of it is not mapped). Memory
 * that is mapped but not writable is not detected. */
static bool host_range(const void *p, size_t n)
{
    uintptr_t a = (uintptr_t)p;
    if (!p || n - 1 > UINTPTR_MAX - a)
        return false;
    long page = sysconf(_SC_PAGESIZE);
    uintptr_t lo = a & ~(uintptr_t)(page > 0 ? page - 1 : 4095);
    return msync((void *)lo, a + n - lo, MS_ASYNC) == 0 || errno != ENOMEM;
}

/* The pointers of a copy (dst_n and src_n > 0 bytes on each side), per kind: the device
 * side of H2D, D2H and D2D against the allocation that contains it, the host side mapped;
 * cudaMemcpyDefault classifies each pointer by where it lies. Any failure is
 * cudaErrorInvalidValue, as on an H100, and not sticky. */
static cudaError_t copy_check(void *dst, size_t dst_n, const void *src, size_t src_n, enum cudaMemcpyKind kind)
{
    if (!dst || !src)
        return cudaErrorInvalidValue;
    bool dst_dev = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
    bool src_dev = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
    if (kind == cudaMemcpyDefault) {
        dst_dev = is_device(dst);
        src_dev = is_device(src);
    }
    if (!(dst_dev ? device_range(dst, dst_n) : host_range(dst, dst_n)) ||
        !(src_dev ? device_range(src, src_n) : host_range(src, src_n)))
        return cudaErrorInvalidValue;
    return cudaSuccess;
}

/* The extent of a 2D access: (height - 1) full pitches and one width; false on overflow. */
static bool span_2d(size_t pitch, size_t width, size_t height, size_t *out)
{
    if (height == 0 || width == 0) {
        *out = 0;
        return true;
    }
    if (height - 1 > 0 && pitch > (SIZE_MAX - width) / (height - 1))
        return false;
    *out = pitch * (height - 1) + width;
    return true;
}

cudaError_t cudaMalloc(void **devPtr, size_t size)
{
    cudaError_t e = devPtr ? rt_enter() : cudaErrorInvalidValue;
    uint64_t a = 0;
    if (e == cudaSuccess && size > 0)
        e = rt_check(loom_malloc(rt.dev, size, &a));
    if (devPtr)
        *devPtr = e == cudaSuccess ? as_ptr(a) : NULL;
    return rt_return(e, "cudaMalloc(%zu) -> %p", size, as_ptr(a));
}

/* Whether p is the start of pinned memory from cudaMallocHost or cudaHostAlloc (Loom keeps
 * it in the device address space as managed memory, so loom_free would take it). */
bool rt_is_pinned_alloc(const void *p)
{
    pthread_mutex_lock(&mem_lock);
    struct host_block *b = host_find(p, false);
    bool pinned = b && !b->registered;
    pthread_mutex_unlock(&mem_lock);
    return pinned;
}

/* cudaFree waits for the device, as CUDA's does. Pinned host memory is not its to free
 * (cudaErrorInvalidValue, as on an H100; the block stays allocated). */
cudaError_t cudaFree(void *devPtr)
{
    cudaError_t e = rt_enter();
    if (e == cudaSuccess && devPtr && rt_is_pinned_alloc(devPtr))
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess && devPtr) {
        e = rt_check(loom_synchronize(rt.dev));
        if (e == cudaSuccess)
            e = rt_check(loom_free(rt.dev, as_addr(devPtr)));
    }
    return rt_return(e, "cudaFree(%p)", devPtr);
}

static cudaError_t host_alloc(void **pHost, size_t size, unsigned flags)
{
    cudaError_t e = pHost ? rt_enter() : cudaErrorInvalidValue;
    if (e != cudaSuccess)
        return e;
    *pHost = NULL;
    if (flags & ~(unsigned)(cudaHostAllocPortable | cudaHostAllocMapped | cudaHostAllocWriteCombined))
        return cudaErrorInvalidValue;
    if (size == 0)
        return cudaSuccess;
    /* managed memory: the host uses it and kernels may read it through the same address */
    uint64_t a;
    struct host_block *b = malloc(sizeof *b);
    if (!b)
        return cudaErrorMemoryAllocation;
    if ((e = rt_check(loom_malloc_managed(rt.dev, size, &a))) != cudaSuccess) {
        free(b);
        return e;
    }
    *b = (struct host_block){ .ptr = as_ptr(a), .size = size, .flags = flags };
    pthread_mutex_lock(&mem_lock);
    b->next = host_blocks;
    host_blocks = b;
    pthread_mutex_unlock(&mem_lock);
    *pHost = b->ptr;
    return cudaSuccess;
}

cudaError_t cudaMallocHost(void **ptr, size_t size)
{
    cudaError_t e = host_alloc(ptr, size, cudaHostAllocDefault);
    return rt_return(e, "cudaMallocHost(%zu) -> %p", size, ptr ? *ptr : NULL);
}

cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags)
{
    cudaError_t e = host_alloc(pHost, size, flags);
    return rt_return(e, "cudaHostAlloc(%zu, %u) -> %p", size, flags, pHost ? *pHost : NULL);
}

/* Unlinks the pinned block starting at p (registered or allocated as asked). */
static struct host_block *host_unlink(const void *p, bool registered)
{
    pthread_mutex_lock(&mem_lock);
    struct host_block **pp = &host_blocks;
    while (*pp && !((*pp)->ptr == p && (*pp)->registered == registered))
        pp = &(*pp)->next;
    struct host_block *b = *pp;
    if (b)
        *pp = b->next;
    pthread_mutex_unlock(&mem_lock);
    return b;
}

cudaError_t cudaFreeHost(void *ptr)
{
    cudaError_t e = rt_enter();
    if (e == cudaSuccess && ptr) {
        struct host_block *b = host_unlink(ptr, false);
        if (!b) {
            e = cudaErrorInvalidValue;
        } else {
            e = rt_check(loom_synchronize(rt.dev));
            enum loom_status s = loom_free(rt.dev, as_addr(ptr));
            if (e == cudaSuccess)
                e = rt_check(s);
            free(b);
        }
    }
    return rt_return(e, "cudaFreeHost(%p)", ptr);
}

/* Registered memory stays the program's; Loom's kernels can reach it only with
 * memory checking off (the core API has no way to register foreign memory yet). */
cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags)
{
    cudaError_t e = rt_enter();
    if (e == cudaSuccess && (!ptr || !size || (flags & ~0xfu)))
        e = cudaErrorInvalidValue;
    pthread_mutex_lock(&mem_lock);
    if (e == cudaSuccess && host_find(ptr, true))
        e = cudaErrorHostMemoryAlreadyRegistered;
    struct host_block *b = e == cudaSuccess ? malloc(sizeof *b) : NULL;
    if (e == cudaSuccess && !b)
        e = cudaErrorMemoryAllocation;
    /* kernels reach registered memory through its own address (cudaHostGetDevicePointer) */
    if (b && loom_host_register(rt.dev, ptr, size) != LOOM_OK) {
        free(b);
        b = NULL;
        e = cudaErrorHostMemoryAlreadyRegistered;   /* it overlaps registered or device memory */
    }
    if (b) {
        *b = (struct host_block){ .ptr = ptr, .size = size, .flags = flags, .registered = true, .next = host_blocks };
        host_blocks = b;
    }
    pthread_mutex_unlock(&mem_lock);
    return rt_return(e, "cudaHostRegister(%p, %zu, %u)", ptr, size, flags);
}

cudaError_t cudaHostUnregister(void *ptr)
{
    cudaError_t e = rt_enter();
    if (e == cudaSuccess) {
        struct host_block *b = host_unlink(ptr, true);
        if (!b)
            e = cudaErrorHostMemoryNotRegistered;
        else
            e = rt_check(loom_synchronize(rt.dev));   /* kernels in flight may still use it */
        if (b)
            loom_host_unregister(rt.dev, ptr);
        free(b);
    }
    return rt_return(e, "cudaHostUnregister(%p)", ptr);
}

cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags)
{
    cudaError_t e = pDevice && flags == 0 ? rt_enter() : cudaErrorInvalidValue;
    if (e == cudaSuccess) {
        pthread_mutex_lock(&mem_lock);
        bool known = host_find(pHost, true) != NULL;
        pthread_mutex_unlock(&mem_lock);
        *pDevice = known ? pHost : NULL;
        if (!known)
            e = cudaErrorInvalidValue;
    }
    return rt_return(e, "cudaHostGetDevicePointer(%p)", pHost);
}

cudaError_t cudaHostGetFlags(unsigned int *pFlags, void *pHost)
{
    cudaError_t e = pFlags ? rt_enter() : cudaErrorInvalidValue;
    if (e == cudaSuccess) {
        pthread_mutex_lock(&mem_lock);
        struct host_block *b = host_find(pHost, true);
        if (b)
            *pFlags = b->flags | cudaHostAllocMapped;
        pthread_mutex_unlock(&mem_lock);
        if (!b)
            e = cudaErrorInvalidValue;
    }
    return rt_return(e, "cudaHostGetFlags(%p)", pHost);
}

cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags)
{
    cudaError_t e = devPtr ? rt_enter() : cudaErrorInvalidValue;
    uint64_t a = 0;
    if (e == cudaSuccess && flags != cudaMemAttachGlobal && flags != cudaMemAttachHost)
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess && size == 0)
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess)
        e = rt_check(loom_malloc_managed(rt.dev, size, &a));
    if (devPtr)
        *devPtr = e == cudaSuccess ? as_ptr(a) : NULL;
    return rt_return(e, "cudaMallocManaged(%zu, %u) -> %p", size, flags, as_ptr(a));
}

cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height)
{
    cudaError_t e = devPtr && pitch ? rt_enter() : cudaErrorInvalidValue;
    uint64_t a = 0;
    size_t p = (width + RT_PITCH_ALIGN - 1) / RT_PITCH_ALIGN * RT_PITCH_ALIGN;
    if (e == cudaSuccess && p && height && p * height / height != p)
        e = cudaErrorMemoryAllocation;
    if (e == cudaSuccess && p * height > 0)
        e = rt_check(loom_malloc(rt.dev, p * height, &a));
    if (e == cudaSuccess) {
        *devPtr = as_ptr(a);
        *pitch = p;
    }
    return rt_return(e, "cudaMallocPitch(%zu, %zu) -> %p pitch %zu", width, height, as_ptr(a), p);
}

static cudaError_t malloc_async(void **devPtr, size_t size, cudaStream_t stream, bool per_thread)
{
    struct loom_stream *ls;
    cudaError_t e = devPtr ? rt_enter() : cudaErrorInvalidValue;
    uint64_t a = 0;
    if (e == cudaSuccess)
        e = rt_stream_resolve(stream, per_thread, &ls);
    if (e == cudaSuccess && size)
        e = rt_check(loom_malloc(rt.dev, size, &a));
    if (devPtr)
        *devPtr = e == cudaSuccess ? as_ptr(a) : NULL;
    return rt_return(e, "cudaMallocAsync(%zu, %p) -> %p", size, (void *)stream, as_ptr(a));
}

cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t hStream)
{
    return malloc_async(devPtr, size, hStream, false);
}

cudaError_t cudaMallocAsync_ptsz(void **devPtr, size_t size, cudaStream_t hStream)
{
    return malloc_async(devPtr, size, hStream, true);
}

static void mark_due(void *p)
{
    struct deferred_free *d = p;
    pthread_mutex_lock(&mem_lock);
    d->due = true;
    pthread_mutex_unlock(&mem_lock);
}

cudaError_t rt_memory_free_deferred(void *ptr, struct loom_stream *ls)
{
    struct deferred_free *d = calloc(1, sizeof *d);
    if (!d)
        return cudaErrorMemoryAllocation;
    d->addr = as_addr(ptr);
    pthread_mutex_lock(&mem_lock);
    d->next = deferred;
    deferred = d;
    pthread_mutex_unlock(&mem_lock);
    enum loom_status s = rt_add_host_func(ls, mark_due, d);
    if (s != LOOM_OK) {     /* could not enqueue: free once the device is idle */
        loom_synchronize(rt.dev);
        mark_due(d);
    }
    return cudaSuccess;
}

void rt_memory_reset(void)
{
    pthread_mutex_lock(&mem_lock);
    struct host_block *b = host_blocks, **pp = &host_blocks;
    while ((b = *pp)) {
        if (b->registered) {        /* the program's memory stays registered */
            pp = &b->next;
            continue;
        }
        *pp = b->next;
        free(b);
    }
    while (deferred) {
        struct deferred_free *d = deferred;
        deferred = d->next;
        free(d);
    }
    pthread_mutex_unlock(&mem_lock);
}

void rt_memory_collect(void)
{
    pthread_mutex_lock(&mem_lock);
    struct deferred_free **pp = &deferred, *due = NULL;
    while (*pp) {
        struct deferred_free *d = *pp;
        if (d->due) {
            *pp = d->next;
            d->next = due;
            due = d;
        } else {
            pp = &d->next;
        }
    }
    pthread_mutex_unlock(&mem_lock);
    while (due) {
        struct deferred_free *d = due;
        due = d->next;
        loom_free(rt.dev, d->addr);
        free(d);
    }
}

static cudaError_t free_async(void *devPtr, cudaStream_t stream, bool per_thread)
{
    struct loom_stream *ls;
    cudaError_t e = rt_enter();
    if (e == cudaSuccess)
        e = rt_stream_resolve(stream, per_thread, &ls);
    if (e == cudaSuccess && devPtr) {
        bool managed;
        uint64_t base;
        size_t size;
        if (loom_pointer_info(rt.dev, as_addr(devPtr), &base, &size, &managed) != LOOM_OK ||
            base != as_addr(devPtr) || rt_is_pinned_alloc(devPtr))
            e = cudaErrorInvalidValue;
        else
            e = rt_memory_free_deferred(devPtr, ls);
    }
    return rt_return(e, "cudaFreeAsync(%p, %p)", devPtr, (void *)stream);
}

cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t hStream) { return free_async(devPtr, hStream, false); }
cudaError_t cudaFreeAsync_ptsz(void *devPtr, cudaStream_t hStream) { return free_async(devPtr, hStream, true); }

cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total)
{
    cudaError_t e = rt_enter();
    if (e == cudaSuccess) {
        size_t f, t;
        loom_mem_info(rt.dev, &f, &t);
        if (free_bytes)
            *free_bytes = f;
        if (total)
            *total = t;
    }
    return rt_return(e, "cudaMemGetInfo()");
}

cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr)
{
    cudaError_t e = attributes ? rt_enter() : cudaErrorInvalidValue;
    if (e == cudaSuccess) {
        memset(attributes, 0, sizeof *attributes);
        attributes->device = 0;
        pthread_mutex_lock(&mem_lock);
        bool host = host_find(ptr, true) != NULL;
        pthread_mutex_unlock(&mem_lock);
        uint64_t base;
        size_t size;
        bool managed;
        if (host) {
            attributes->type = cudaMemoryTypeHost;
            attributes->devicePointer = (void *)ptr;
            attributes->hostPointer = (void *)ptr;
        } else if (ptr && loom_pointer_info(rt.dev, as_addr(ptr), &base, &size, &managed) == LOOM_OK) {
            attributes->type = managed ? cudaMemoryTypeManaged : cudaMemoryTypeDevice;
            attributes->devicePointer = (void *)ptr;
            attributes->hostPointer = managed ? (void *)ptr : NULL;
        } else {
            attributes->type = cudaMemoryTypeUnregistered;
            attributes->device = -2;
        }
    }
    return rt_return(e, "cudaPointerGetAttributes(%p)", ptr);
}

/* Prefetching and advice change where managed pages live on a GPU; on Loom
 * they live in host memory already, so only the arguments are checked. */
static cudaError_t prefetch(const void *devPtr, size_t count, struct cudaMemLocation location, unsigned flags,
                            cudaStream_t stream, bool per_thread)
{
    struct loom_stream *ls;
    cudaError_t e = rt_enter();
    if (e == cudaSuccess)
        e = rt_stream_resolve(stream, per_thread, &ls);
    if (e == cudaSuccess && (!devPtr || !count))
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess && location.type == cudaMemLocationTypeDevice && location.id != 0)
        e = cudaErrorInvalidDevice;
    return rt_return(e, "cudaMemPrefetchAsync(%p, %zu, location %d/%d, %u)", devPtr, count, (int)location.type,
                     location.id, flags);
}

cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, struct cudaMemLocation location,
                                 unsigned int flags, cudaStream_t stream)
{
    return prefetch(devPtr, count, location, flags, stream, false);
}

cudaError_t cudaMemPrefetchAsync_ptsz(const void *devPtr, size_t count, struct cudaMemLocation location,
                                      unsigned int flags, cudaStream_t stream)
{
    return prefetch(devPtr, count, location, flags, stream, true);
}

cudaError_t cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice,
                          struct cudaMemLocation location)
{
    cudaError_t e = rt_enter();
    if (e == cudaSuccess && (!devPtr || !count || advice < cudaMemAdviseSetReadMostly ||
                             advice > cudaMemAdviseUnsetAccessedBy))
        e = cudaErrorInvalidValue;
    return rt_return(e, "cudaMemAdvise(%p, %zu, %d)", devPtr, count, (int)advice);
}

static cudaError_t attach_mem(cudaStream_t stream, void *devPtr, size_t length, unsigned flags, bool per_thread)
{
    struct loom_stream *ls;
    cudaError_t e = rt_enter();
    if (e == cudaSuccess)
        e = rt_stream_resolve(stream, per_thread, &ls);
    if (e == cudaSuccess && (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost &&
                             flags != cudaMemAttachSingle))
        e = cudaErrorInvalidValue;
    return rt_return(e, "cudaStreamAttachMemAsync(%p, %p, %zu, %u)", (void *)stream, devPtr, length, flags);
}

cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void *devPtr, size_t length, unsigned int flags)
{
    return attach_mem(stream, devPtr, length, flags, false);
}

cudaError_t cudaStreamAttachMemAsync_ptsz(cudaStream_t stream, void *devPtr, size_t length, unsigned int flags)
{
    return attach_mem(stream, devPtr, length, flags, true);
}

/* ---- copies and sets ---- */

/* One copy on a stream; synchronous copies wait for it. The legacy default
 * stream uses Loom's synchronous copy, which waits for the stream first. */
static cudaError_t copy(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind, cudaStream_t stream,
                        bool per_thread, bool async)
{
    struct loom_stream *ls;
    cudaError_t e = rt_enter();
    if (e == cudaSuccess && !valid_kind(kind))
        e = cudaErrorInvalidMemcpyDirection;
    if (e == cudaSuccess)
        e = rt_stream_resolve(stream, per_thread, &ls);
    if (e != cudaSuccess || n == 0)
        return e;
    if ((e = copy_check(dst, n, src, n, kind)) != cudaSuccess)
        return e;
    if (!async && !ls)
        return rt_check(loom_memcpy(rt.dev, dst, src, n));
    e = rt_check(loom_memcpy_async(rt.dev, dst, src, n, ls));
    if (e == cudaSuccess && !async)
        e = rt_check(loom_stream_synchronize(ls));
    return e;
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
    return rt_return(copy(dst, src, count, kind, NULL, false, false), "cudaMemcpy(%p, %p, %zu, %d)", dst, src,
                     count, (int)kind);
}

cudaError_t cudaMemcpy_ptds(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
    return rt_return(copy(dst, src, count, kind, NULL, true, false), "cudaMemcpy(%p, %p, %zu, %d)", dst, src,
                     count, (int)kind);
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return rt_return(copy(dst, src, count, kind, stream, false, true), "cudaMemcpyAsync(%p, %p, %zu, %d, %p)", dst,
                     src, count, (int)kind, (void *)stream);
}

cudaError_t cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                                 cudaStream_t stream)
{
    return rt_return(copy(dst, src, count, kind, stream, true, true), "cudaMemcpyAsync(%p, %p, %zu, %d, %p)", dst,
                     src, count, (int)kind, (void *)stream);
}

cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice, size_t count)
{
    cudaError_t e = dstDevice != 0 || srcDevice != 0 ? cudaErrorInvalidDevice
                                                      : copy(dst, src, count, cudaMemcpyDefault, NULL, false, false);
    return rt_return(e, "cudaMemcpyPeer(%p, %d, %p, %d, %zu)", dst, dstDevice, src, srcDevice, count);
}

cudaError_t cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice, size_t count,
                                cudaStream_t stream)
{
    cudaError_t e = dstDevice != 0 || srcDevice != 0 ? cudaErrorInvalidDevice
                                                      : copy(dst, src, count, cudaMemcpyDefault, stream, false, true);
    return rt_return(e, "cudaMemcpyPeerAsync(%p, %d, %p, %d, %zu)", dst, dstDevice, src, srcDevice, count);
}

cudaError_t rt_stream_wait(cudaStream_t stream, bool per_thread)
{
    struct loom_stream *ls;
    cudaError_t e = rt_stream_resolve(stream, per_thread, &ls);
    if (e == cudaSuccess)
        e = rt_check(ls ? loom_stream_synchronize(ls) : loom_synchronize(rt.dev));
    return e;
}

/* A 2D copy is one copy per row (one copy when both pitches equal the width). Both sides'
 * whole extents are checked first, so that a bad one enqueues no row. */
cudaError_t rt_copy_2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                           enum cudaMemcpyKind kind, cudaStream_t stream, bool per_thread, bool async)
{
    if (width > dpitch || width > spitch)
        return cudaErrorInvalidPitchValue;
    if (width == 0 || height == 0)
        return copy(dst, src, 0, kind, stream, per_thread, async);
    size_t dspan, sspan;
    if (!span_2d(dpitch, width, height, &dspan) || !span_2d(spitch, width, height, &sspan))
        return cudaErrorInvalidValue;
    if (dpitch == width && spitch == width)
        return copy(dst, src, dspan, kind, stream, per_thread, async);
    cudaError_t e = rt_enter();
    if (e == cudaSuccess && !valid_kind(kind))
        e = cudaErrorInvalidMemcpyDirection;
    if (e == cudaSuccess)
        e = copy_check(dst, dspan, src, sspan, kind);
    for (size_t r = 0; r < height && e == cudaSuccess; r++)
        e = copy((char *)dst + r * dpitch, (const char *)src + r * spitch, width, kind, stream, per_thread, true);
    if (e == cudaSuccess && !async)
        e = rt_stream_wait(stream, per_thread);
    return e;
}

cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                         enum cudaMemcpyKind kind)
{
    return rt_return(rt_copy_2d(dst, dpitch, src, spitch, width, height, kind, NULL, false, false),
                     "cudaMemcpy2D(%p, %zu, %p, %zu, %zu, %zu)", dst, dpitch, src, spitch, width, height);
}

cudaError_t cudaMemcpy2D_ptds(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                              size_t height, enum cudaMemcpyKind kind)
{
    return rt_return(rt_copy_2d(dst, dpitch, src, spitch, width, height, kind, NULL, true, false),
                     "cudaMemcpy2D(%p, %zu, %p, %zu, %zu, %zu)", dst, dpitch, src, spitch, width, height);
}

cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                              size_t height, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return rt_return(rt_copy_2d(dst, dpitch, src, spitch, width, height, kind, stream, false, true),
                     "cudaMemcpy2DAsync(%p, %zu, %p, %zu, %zu, %zu)", dst, dpitch, src, spitch, width, height);
}

cudaError_t cudaMemcpy2DAsync_ptsz(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                   size_t height, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return rt_return(rt_copy_2d(dst, dpitch, src, spitch, width, height, kind, stream, true, true),
                     "cudaMemcpy2DAsync(%p, %zu, %p, %zu, %zu, %zu)", dst, dpitch, src, spitch, width, height);
}

static cudaError_t set(void *p, int value, size_t n, cudaStream_t stream, bool per_thread, bool async)
{
    struct loom_stream *ls;
    cudaError_t e = rt_enter();
    if (e == cudaSuccess)
        e = rt_stream_resolve(stream, per_thread, &ls);
    if (e != cudaSuccess || n == 0)
        return e;
    if (!device_range(p, n))
        return cudaErrorInvalidValue;
    if (!async && !ls)
        return rt_check(loom_memset(rt.dev, as_addr(p), value, n));
    e = rt_check(loom_memset_async(rt.dev, as_addr(p), value, n, ls));
    if (e == cudaSuccess && !async)
        e = rt_check(loom_stream_synchronize(ls));
    return e;
}

cudaError_t cudaMemset(void *devPtr, int value, size_t count)
{
    return rt_return(set(devPtr, value, count, NULL, false, false), "cudaMemset(%p, %d, %zu)", devPtr, value, count);
}

cudaError_t cudaMemset_ptds(void *devPtr, int value, size_t count)
{
    return rt_return(set(devPtr, value, count, NULL, true, false), "cudaMemset(%p, %d, %zu)", devPtr, value, count);
}

cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream)
{
    return rt_return(set(devPtr, value, count, stream, false, true), "cudaMemsetAsync(%p, %d, %zu, %p)", devPtr,
                     value, count, (void *)stream);
}

cudaError_t cudaMemsetAsync_ptsz(void *devPtr, int value, size_t count, cudaStream_t stream)
{
    return rt_return(set(devPtr, value, count, stream, true, true), "cudaMemsetAsync(%p, %d, %zu, %p)", devPtr,
                     value, count, (void *)stream);
}

/* A 2D set is one set per row; the whole extent is checked first. */
cudaError_t rt_set_2d(void *p, size_t pitch, int value, size_t width, size_t height, cudaStream_t stream,
                      bool per_thread, bool async)
{
    size_t span;
    if (width > pitch)
        return cudaErrorInvalidValue;
    if (!span_2d(pitch, width, height, &span))
        return cudaErrorInvalidValue;
    if (pitch == width || span == 0)
        return set(p, value, span, stream, per_thread, async);
    cudaError_t e = rt_enter();
    if (e == cudaSuccess && !device_range(p, span))
        e = cudaErrorInvalidValue;
    for (size_t r = 0; r < height && e == cudaSuccess; r++)
        e = set((char *)p + r * pitch, value, width, stream, per_thread, true);
    if (e == cudaSuccess && !async)
        e = rt_stream_wait(stream, per_thread);
    return e;
}

cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height)
{
    return rt_return(rt_set_2d(devPtr, pitch, value, width, height, NULL, false, false),
                     "cudaMemset2D(%p, %zu, %d, %zu, %zu)", devPtr, pitch, value, width, height);
}

cudaError_t cudaMemset2D_ptds(void *devPtr, size_t pitch, int value, size_t width, size_t height)
{
    return rt_return(rt_set_2d(devPtr, pitch, value, width, height, NULL, true, false),
                     "cudaMemset2D(%p, %zu, %d, %zu, %zu)", devPtr, pitch, value, width, height);
}

cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width, size_t height,
                              cudaStream_t stream)
{
    return rt_return(rt_set_2d(devPtr, pitch, value, width, height, stream, false, true),
                     "cudaMemset2DAsync(%p, %zu, %d, %zu, %zu)", devPtr, pitch, value, width, height);
}

cudaError_t cudaMemset2DAsync_ptsz(void *devPtr, size_t pitch, int value, size_t width, size_t height,
                                   cudaStream_t stream)
{
    return rt_return(rt_set_2d(devPtr, pitch, value, width, height, stream, true, true),
                     "cudaMemset2DAsync(%p, %zu, %d, %zu, %zu)", devPtr, pitch, value, width, height);
}

/* ---- symbols (__device__, __constant__, __managed__ variables) ---- */

static cudaError_t symbol_range(const void *symbol, size_t offset, size_t count, char **out_p)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    struct rt_var *v = rt_var_find(symbol);
    if (!v)
        return cudaErrorInvalidSymbol;
    uint64_t addr;
    size_t size;
    if ((e = rt_var_address(v, &addr, &size)) != cudaSuccess)
        return e;
    if (offset > size || count > size - offset)
        return cudaErrorInvalidValue;
    *out_p = (char *)as_ptr(addr) + offset;
    return cudaSuccess;
}

static cudaError_t to_symbol(const void *symbol, const void *src, size_t count, size_t offset,
                             enum cudaMemcpyKind kind, cudaStream_t stream, bool per_thread, bool async)
{
    char *p = NULL;
    cudaError_t e = symbol_range(symbol, offset, count, &p);
    if (e == cudaSuccess && kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice &&
        kind != cudaMemcpyDefault)
        e = cudaErrorInvalidMemcpyDirection;
    if (e == cudaSuccess)
        e = copy(p, src, count, kind, stream, per_thread, async);
    return e;
}

static cudaError_t from_symbol(void *dst, const void *symbol, size_t count, size_t offset,
                               enum cudaMemcpyKind kind, cudaStream_t stream, bool per_thread, bool async)
{
    char *p = NULL;
    cudaError_t e = symbol_range(symbol, offset, count, &p);
    if (e == cudaSuccess && kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice &&
        kind != cudaMemcpyDefault)
        e = cudaErrorInvalidMemcpyDirection;
    if (e == cudaSuccess)
        e = copy(dst, p, count, kind, stream, per_thread, async);
    return e;
}

cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset,
                               enum cudaMemcpyKind kind)
{
    return rt_return(to_symbol(symbol, src, count, offset, kind, NULL, false, false),
                     "cudaMemcpyToSymbol(%p, %zu, %zu)", symbol, count, offset);
}

cudaError_t cudaMemcpyToSymbol_ptds(const void *symbol, const void *src, size_t count, size_t offset,
                                    enum cudaMemcpyKind kind)
{
    return rt_return(to_symbol(symbol, src, count, offset, kind, NULL, true, false),
                     "cudaMemcpyToSymbol(%p, %zu, %zu)", symbol, count, offset);
}

cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset,
                                 enum cudaMemcpyKind kind)
{
    return rt_return(from_symbol(dst, symbol, count, offset, kind, NULL, false, false),
                     "cudaMemcpyFromSymbol(%p, %zu, %zu)", symbol, count, offset);
}

cudaError_t cudaMemcpyFromSymbol_ptds(void *dst, const void *symbol, size_t count, size_t offset,
                                      enum cudaMemcpyKind kind)
{
    return rt_return(from_symbol(dst, symbol, count, offset, kind, NULL, true, false),
                     "cudaMemcpyFromSymbol(%p, %zu, %zu)", symbol, count, offset);
}

cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count, size_t offset,
                                    enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return rt_return(to_symbol(symbol, src, count, offset, kind, stream, false, true),
                     "cudaMemcpyToSymbolAsync(%p, %zu, %zu, %p)", symbol, count, offset, (void *)stream);
}

cudaError_t cudaMemcpyToSymbolAsync_ptsz(const void *symbol, const void *src, size_t count, size_t offset,
                                         enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return rt_return(to_symbol(symbol, src, count, offset, kind, stream, true, true),
                     "cudaMemcpyToSymbolAsync(%p, %zu, %zu, %p)", symbol, count, offset, (void *)stream);
}

cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset,
                                      enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return rt_return(from_symbol(dst, symbol, count, offset, kind, stream, false, true),
                     "cudaMemcpyFromSymbolAsync(%p, %zu, %zu, %p)", symbol, count, offset, (void *)stream);
}

cudaError_t cudaMemcpyFromSymbolAsync_ptsz(void *dst, const void *symbol, size_t count, size_t offset,
                                           enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return rt_return(from_symbol(dst, symbol, count, offset, kind, stream, true, true),
                     "cudaMemcpyFromSymbolAsync(%p, %zu, %zu, %p)", symbol, count, offset, (void *)stream);
}

cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol)
{
    char *p = NULL;
    cudaError_t e = devPtr ? symbol_range(symbol, 0, 0, &p) : cudaErrorInvalidValue;
    if (e == cudaSuccess)
        *devPtr = p;
    return rt_return(e, "cudaGetSymbolAddress(%p) -> %p", symbol, (void *)p);
}

cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol)
{
    cudaError_t e = size ? rt_enter() : cudaErrorInvalidValue;
    struct rt_var *v = NULL;
    if (e == cudaSuccess && !(v = rt_var_find(symbol)))
        e = cudaErrorInvalidSymbol;
    if (e == cudaSuccess) {
        uint64_t addr;
        e = rt_var_address(v, &addr, size);
    }
    return rt_return(e, "cudaGetSymbolSize(%p)", symbol);
}

struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, enum cudaChannelFormatKind f)
{
    return (struct cudaChannelFormatDesc){ x, y, z, w, f };
}
