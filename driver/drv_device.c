/* drv_device.c -- device queries (the runtime's attribute table, which numbers attributes as
 * cuda.h does) and contexts: the primary one and explicit ones, a stack per thread. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/drv_internal.h"

#define CTX_STACK 64
static _Thread_local CUcontext stack[CTX_STACK];
static _Thread_local unsigned depth;

/* A thread the program called the runtime in has the primary context current (CUDA's
 * runtime binds it there) until the driver sets another. */
CUcontext drv_ctx_current(void)
{
    if (!depth && DRV_RT->runtime_used(true))
        stack[depth++] = &drv.primary;
    return depth ? stack[depth - 1] : NULL;
}

bool drv_ctx_known(CUcontext c)
{
    return c && (c == &drv.primary || drv_handle_known(c)) && (c->magic == DRV_CTX_MAGIC || c->magic == DRV_CTX_DESTROYED);
}

bool drv_ctx_valid(CUcontext c)
{
    if (!c || (c != &drv.primary && !drv_handle_known(c)) || c->magic != DRV_CTX_MAGIC)
        return false;
    if (!c->primary)
        return true;
    pthread_mutex_lock(&drv.lock);
    bool live = drv.primary_refs > 0;
    pthread_mutex_unlock(&drv.lock);
    return live || DRV_RT->runtime_used(false);
}

/* Device ordinals: Loom has one device. */
static CUresult check_device(CUdevice dev)
{
    if (!drv.initialized)
        return CUDA_ERROR_NOT_INITIALIZED;
    return dev == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

CUresult cuDeviceGetCount(int *count);
CUresult cuDeviceGetCount(int *count)
{
    CUresult r = drv.initialized ? (count ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE) : CUDA_ERROR_NOT_INITIALIZED;
    if (r == CUDA_SUCCESS)
        *count = 1;
    return drv_return(r, "cuDeviceGetCount()");
}

CUresult cuDeviceGet(CUdevice *device, int ordinal);
CUresult cuDeviceGet(CUdevice *device, int ordinal)
{
    CUresult r = drv.initialized ? (device ? check_device(ordinal) : CUDA_ERROR_INVALID_VALUE)
                                 : CUDA_ERROR_NOT_INITIALIZED;
    if (r == CUDA_SUCCESS)
        *device = 0;
    return drv_return(r, "cuDeviceGet(%d)", ordinal);
}

/* Attributes the runtime's property table lacks, with an H100's values. */
static const struct { int attr, value; } h100_attrs[] = {
#define DRV_ATTR(number, name, value) { number, value },
#include "driver/drv_attrs.def"
#undef DRV_ATTR
};

static bool table_attribute(CUdevice_attribute a, int *out)
{
    for (size_t i = 0; i < sizeof h100_attrs / sizeof h100_attrs[0]; i++)
        if (h100_attrs[i].attr == (int)a) {
            *out = h100_attrs[i].value;
            return true;
        }
    return false;
}

/* The runtime's value where it has one (both APIs then agree), else the table's. */
CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev);
CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev)
{
    CUresult r = check_device(dev);
    if (r == CUDA_SUCCESS && !pi)
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS && (r = DRV_CALL_RT(cudaDeviceGetAttribute(pi, (enum cudaDeviceAttr)attrib, 0))) ==
        CUDA_ERROR_INVALID_VALUE && table_attribute(attrib, pi))
        r = CUDA_SUCCESS;
    return drv_return(r, "cuDeviceGetAttribute(%d, %d) -> %d", (int)attrib, dev, r == CUDA_SUCCESS ? *pi : 0);
}

CUresult cuDeviceGetName(char *name, int len, CUdevice dev);
CUresult cuDeviceGetName(char *name, int len, CUdevice dev)
{
    CUresult r = check_device(dev);
    if (r == CUDA_SUCCESS && (!name || len <= 0))
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS && (r = drv_enter(false)) == CUDA_SUCCESS) {
        struct loom_device_props p;
        loom_device_props(drv_device(), &p);
        snprintf(name, (size_t)len, "%s", p.name);
    }
    return drv_return(r, "cuDeviceGetName(%d)", dev);
}

CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev);
CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev)
{
    CUresult r = check_device(dev);
    if (r == CUDA_SUCCESS && !bytes)
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS && (r = drv_enter(false)) == CUDA_SUCCESS) {
        struct loom_device_props p;
        loom_device_props(drv_device(), &p);
        *bytes = p.total_global_mem;
    }
    return drv_return(r, "cuDeviceTotalMem(%d)", dev);
}

/* A fixed UUID: Loom's device is the same device in every run. */
CUresult cuDeviceGetUuid_v2(CUuuid *uuid, CUdevice dev);
CUresult cuDeviceGetUuid_v2(CUuuid *uuid, CUdevice dev)
{
    CUresult r = check_device(dev);
    if (r == CUDA_SUCCESS && !uuid)
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS)
        memcpy(uuid->bytes, "Loom emulated GP", 16);
    return drv_return(r, "cuDeviceGetUuid(%d)", dev);
}

CUresult cuDeviceComputeCapability(int *major, int *minor, CUdevice dev);
CUresult cuDeviceComputeCapability(int *major, int *minor, CUdevice dev)
{
    CUresult r = check_device(dev);
    if (r == CUDA_SUCCESS && (!major || !minor))
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS && (r = drv_enter(false)) == CUDA_SUCCESS) {
        struct loom_device_props p;
        loom_device_props(drv_device(), &p);
        *major = p.cc_major;
        *minor = p.cc_minor;
    }
    return drv_return(r, "cuDeviceComputeCapability(%d)", dev);
}

/* Primary context. */

CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev);
CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev)
{
    CUresult r = check_device(dev);
    if (r == CUDA_SUCCESS && !pctx)
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS) {
        pthread_mutex_lock(&drv.lock);
        drv.primary_refs++;
        pthread_mutex_unlock(&drv.lock);
        *pctx = &drv.primary;
    }
    return drv_return(r, "cuDevicePrimaryCtxRetain(%d)", dev);
}

CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev);
CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev)
{
    CUresult r = check_device(dev);
    if (r == CUDA_SUCCESS) {
        pthread_mutex_lock(&drv.lock);
        if (drv.primary_refs)
            drv.primary_refs--;
        else
            r = CUDA_ERROR_INVALID_CONTEXT;
        pthread_mutex_unlock(&drv.lock);
    }
    return drv_return(r, "cuDevicePrimaryCtxRelease(%d)", dev);
}

CUresult cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int *flags, int *active);
CUresult cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int *flags, int *active)
{
    CUresult r = check_device(dev);
    if (r == CUDA_SUCCESS && (!flags || !active))
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS) {
        pthread_mutex_lock(&drv.lock);
        *flags = drv.primary_flags;
        *active = drv.primary_refs > 0 || DRV_RT->runtime_used(false);
        pthread_mutex_unlock(&drv.lock);
    }
    return drv_return(r, "cuDevicePrimaryCtxGetState(%d)", dev);
}

CUresult cuDevicePrimaryCtxSetFlags_v2(CUdevice dev, unsigned int flags);
CUresult cuDevicePrimaryCtxSetFlags_v2(CUdevice dev, unsigned int flags)
{
    CUresult r = check_device(dev);
    if (r == CUDA_SUCCESS && (flags & ~CU_CTX_FLAGS_MASK))
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS) {
        pthread_mutex_lock(&drv.lock);
        drv.primary_flags = flags;
        pthread_mutex_unlock(&drv.lock);
    }
    return drv_return(r, "cuDevicePrimaryCtxSetFlags(%d, %#x)", dev, flags);
}

/* Resets the primary context: waits for the device's work (Loom keeps allocations, which the
 * runtime shares, until cudaDeviceReset). */
CUresult cuDevicePrimaryCtxReset_v2(CUdevice dev);
CUresult cuDevicePrimaryCtxReset_v2(CUdevice dev)
{
    CUresult r = check_device(dev);
    if (r == CUDA_SUCCESS && (r = drv_enter(false)) == CUDA_SUCCESS) {
        r = drv_check(loom_synchronize(drv_device()));
        pthread_mutex_lock(&drv.lock);
        drv.primary_refs = 0;
        drv.primary_flags = 0;
        pthread_mutex_unlock(&drv.lock);
    }
    return drv_return(r, "cuDevicePrimaryCtxReset(%d)", dev);
}

/* Explicit contexts. */

static CUresult push(CUcontext c)
{
    if (depth == CTX_STACK)
        return CUDA_ERROR_OUT_OF_MEMORY;
    stack[depth++] = c;
    return CUDA_SUCCESS;
}

CUresult cuCtxCreate_v4(CUcontext *pctx, void *params, unsigned int flags, CUdevice dev);
CUresult cuCtxCreate_v4(CUcontext *pctx, void *params, unsigned int flags, CUdevice dev)
{
    (void)params;   /* execution affinity and CIG parameters: Loom has one device to give */
    CUresult r = check_device(dev);
    if (r == CUDA_SUCCESS && (!pctx || (flags & ~CU_CTX_FLAGS_MASK)))
        r = CUDA_ERROR_INVALID_VALUE;
    struct CUctx_st *c = NULL;
    if (r == CUDA_SUCCESS && (!(c = calloc(1, sizeof *c)) || !drv_handle_add(c)))
        r = CUDA_ERROR_OUT_OF_MEMORY;
    if (r == CUDA_SUCCESS) {
        c->magic = DRV_CTX_MAGIC;
        c->flags = flags;
        pthread_mutex_lock(&drv.lock);
        c->id = drv.next_ctx_id++;
        pthread_mutex_unlock(&drv.lock);
        r = push(c);
    }
    if (r == CUDA_SUCCESS)
        *pctx = c;
    else
        free(c);
    return drv_return(r, "cuCtxCreate(%#x, %d) -> %p", flags, dev, (void *)c);
}

/* The context's memory is kept, marked destroyed: as on the GPU, the handle may still be made
 * current, and calls then fail with CUDA_ERROR_CONTEXT_IS_DESTROYED. Destroying the context on
 * top of this thread's stack pops it once; other entries stay. */
CUresult cuCtxDestroy_v2(CUcontext ctx);
CUresult cuCtxDestroy_v2(CUcontext ctx)
{
    CUresult r = drv.initialized ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;
    if (r == CUDA_SUCCESS && !drv_ctx_known(ctx))
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS && ctx->magic == DRV_CTX_DESTROYED)
        r = CUDA_ERROR_CONTEXT_IS_DESTROYED;
    if (r == CUDA_SUCCESS && ctx->primary)
        r = CUDA_ERROR_INVALID_CONTEXT;
    if (r == CUDA_SUCCESS && (r = drv_enter(false)) == CUDA_SUCCESS) {
        r = drv_check(loom_synchronize(drv_device()));
        ctx->magic = DRV_CTX_DESTROYED;
        if (depth && stack[depth - 1] == ctx)
            depth--;
    }
    return drv_return(r, "cuCtxDestroy(%p)", (void *)ctx);
}

CUresult cuCtxPushCurrent_v2(CUcontext ctx);
CUresult cuCtxPushCurrent_v2(CUcontext ctx)
{
    CUresult r = drv.initialized ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;
    if (r == CUDA_SUCCESS && !(drv_ctx_known(ctx) && (ctx->magic == DRV_CTX_DESTROYED || drv_ctx_valid(ctx))))
        r = ctx ? CUDA_ERROR_INVALID_CONTEXT : CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS)
        r = push(ctx);
    return drv_return(r, "cuCtxPushCurrent(%p)", (void *)ctx);
}

CUresult cuCtxPopCurrent_v2(CUcontext *pctx);
CUresult cuCtxPopCurrent_v2(CUcontext *pctx)
{
    CUresult r = drv.initialized ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;
    if (r == CUDA_SUCCESS && !drv_ctx_current())
        r = CUDA_ERROR_INVALID_CONTEXT;
    if (r == CUDA_SUCCESS) {
        CUcontext c = stack[--depth];
        if (pctx)
            *pctx = c;
    }
    return drv_return(r, "cuCtxPopCurrent()");
}

/* Replaces the top of the thread's stack; NULL pops it. */
CUresult cuCtxSetCurrent(CUcontext ctx);
CUresult cuCtxSetCurrent(CUcontext ctx)
{
    CUresult r = drv.initialized ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;
    if (r == CUDA_SUCCESS && ctx && !(drv_ctx_known(ctx) && (ctx->magic == DRV_CTX_DESTROYED || drv_ctx_valid(ctx))))
        r = CUDA_ERROR_INVALID_CONTEXT;
    if (r == CUDA_SUCCESS) {
        if (!ctx) {
            if (depth)
                depth--;
        } else if (depth) {
            stack[depth - 1] = ctx;
        } else {
            r = push(ctx);
        }
    }
    return drv_return(r, "cuCtxSetCurrent(%p)", (void *)ctx);
}

CUresult cuCtxGetCurrent(CUcontext *pctx);
CUresult cuCtxGetCurrent(CUcontext *pctx)
{
    CUresult r = drv.initialized ? (pctx ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE) : CUDA_ERROR_NOT_INITIALIZED;
    if (r == CUDA_SUCCESS) {
        *pctx = drv_ctx_current();  /* destroyed ones too, as on the GPU */
    }
    return drv_return(r, "cuCtxGetCurrent()");
}

CUresult cuCtxGetDevice(CUdevice *device);
CUresult cuCtxGetDevice(CUdevice *device)
{
    CUresult r = drv.initialized ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;
    if (r == CUDA_SUCCESS && !drv_ctx_valid(drv_ctx_current()))
        r = CUDA_ERROR_INVALID_CONTEXT;
    if (r == CUDA_SUCCESS && !device)
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS)
        *device = 0;
    return drv_return(r, "cuCtxGetDevice()");
}

CUresult cuCtxGetFlags(unsigned int *flags);
CUresult cuCtxGetFlags(unsigned int *flags)
{
    CUresult r = drv.initialized ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;
    CUcontext c = drv_ctx_current();
    if (r == CUDA_SUCCESS && !drv_ctx_valid(c))
        r = CUDA_ERROR_INVALID_CONTEXT;
    if (r == CUDA_SUCCESS && !flags)
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS)
        *flags = c->primary ? drv.primary_flags : c->flags;
    return drv_return(r, "cuCtxGetFlags()");
}

CUresult cuCtxGetApiVersion(CUcontext ctx, unsigned int *version);
CUresult cuCtxGetApiVersion(CUcontext ctx, unsigned int *version)
{
    CUresult r = drv.initialized ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;
    if (r == CUDA_SUCCESS && !ctx)
        ctx = drv_ctx_current();
    if (r == CUDA_SUCCESS && !drv_ctx_valid(ctx))
        r = CUDA_ERROR_INVALID_CONTEXT;
    if (r == CUDA_SUCCESS && !version)
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS)
        *version = 3020;
    return drv_return(r, "cuCtxGetApiVersion(%p)", (void *)ctx);
}

CUresult cuCtxSynchronize(void);
CUresult cuCtxSynchronize(void)
{
    CUresult r = drv_enter(true);
    if (r == CUDA_SUCCESS)
        r = drv_check(loom_synchronize(drv_device()));
    return drv_return(r, "cuCtxSynchronize()");
}

CUresult cuCtxGetStreamPriorityRange(int *leastPriority, int *greatestPriority);
CUresult cuCtxGetStreamPriorityRange(int *leastPriority, int *greatestPriority)
{
    CUresult r = drv_enter(true);
    if (r == CUDA_SUCCESS)
        r = DRV_CALL_RT(cudaDeviceGetStreamPriorityRange(leastPriority, greatestPriority));
    return drv_return(r, "cuCtxGetStreamPriorityRange()");
}

/* Limits are the device's (CUlimit and cudaLimit number them alike). */
CUresult cuCtxSetLimit(int limit, size_t value);
CUresult cuCtxSetLimit(int limit, size_t value)
{
    CUresult r = drv_enter(true);
    if (r == CUDA_SUCCESS)
        r = DRV_CALL_RT(cudaDeviceSetLimit((enum cudaLimit)limit, value));
    return drv_return(r, "cuCtxSetLimit(%d, %zu)", limit, value);
}

CUresult cuCtxGetLimit(size_t *pvalue, int limit);
CUresult cuCtxGetLimit(size_t *pvalue, int limit)
{
    CUresult r = drv_enter(true);
    if (r == CUDA_SUCCESS)
        r = DRV_CALL_RT(cudaDeviceGetLimit(pvalue, (enum cudaLimit)limit));
    return drv_return(r, "cuCtxGetLimit(%d)", limit);
}

/* Loom has one device: it is never its own peer. */
CUresult cuDeviceCanAccessPeer(int *canAccessPeer, CUdevice dev, CUdevice peerDev);
CUresult cuDeviceCanAccessPeer(int *canAccessPeer, CUdevice dev, CUdevice peerDev)
{
    CUresult r = check_device(dev);
    if (r == CUDA_SUCCESS)
        r = check_device(peerDev);
    if (r == CUDA_SUCCESS && !canAccessPeer)
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS)
        *canAccessPeer = 0;
    return drv_return(r, "cuDeviceCanAccessPeer(%d, %d)", dev, peerDev);
}

/* Cache preferences do not change what Loom computes: kept, not acted on. */
static _Atomic int cache_config;

CUresult cuCtxGetCacheConfig(int *pconfig);
CUresult cuCtxGetCacheConfig(int *pconfig)
{
    CUresult r = drv_enter(true);
    if (r == CUDA_SUCCESS && !pconfig)
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS)
        *pconfig = cache_config;
    return drv_return(r, "cuCtxGetCacheConfig()");
}

CUresult cuCtxSetCacheConfig(int config);
CUresult cuCtxSetCacheConfig(int config)
{
    CUresult r = drv_enter(true);
    if (r == CUDA_SUCCESS && (config < 0 || config > 3))
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS)
        cache_config = config;
    return drv_return(r, "cuCtxSetCacheConfig(%d)", config);
}

CUresult cuCtxGetId(CUcontext ctx, unsigned long long *ctxId);
CUresult cuCtxGetId(CUcontext ctx, unsigned long long *ctxId)
{
    CUresult r = drv.initialized ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;
    if (r == CUDA_SUCCESS && !ctx)
        ctx = drv_ctx_current();
    if (r == CUDA_SUCCESS && !drv_ctx_valid(ctx))
        r = CUDA_ERROR_INVALID_CONTEXT;
    if (r == CUDA_SUCCESS && !ctxId)
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS)
        *ctxId = ctx->id;
    return drv_return(r, "cuCtxGetId(%p)", (void *)ctx);
}

CUresult cuCtxSetFlags(unsigned int flags);
CUresult cuCtxSetFlags(unsigned int flags)
{
    CUresult r = drv.initialized ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;
    CUcontext c = drv_ctx_current();
    if (r == CUDA_SUCCESS && !drv_ctx_valid(c))
        r = CUDA_ERROR_INVALID_CONTEXT;
    if (r == CUDA_SUCCESS && (flags & ~CU_CTX_FLAGS_MASK))
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS) {
        pthread_mutex_lock(&drv.lock);
        if (c->primary)
            drv.primary_flags = flags;
        else
            c->flags = flags;
        pthread_mutex_unlock(&drv.lock);
    }
    return drv_return(r, "cuCtxSetFlags(%#x)", flags);
}

/* The device's PCI address, "domain:bus:device.0", from its attributes. */
static CUresult pci_bus_id(char *out, size_t size)
{
    int domain = 0, bus = 0, device = 0;
    CUresult r = DRV_CALL_RT(cudaDeviceGetAttribute(&domain, cudaDevAttrPciDomainId, 0));
    if (r == CUDA_SUCCESS)
        r = DRV_CALL_RT(cudaDeviceGetAttribute(&bus, cudaDevAttrPciBusId, 0));
    if (r == CUDA_SUCCESS)
        r = DRV_CALL_RT(cudaDeviceGetAttribute(&device, cudaDevAttrPciDeviceId, 0));
    if (r == CUDA_SUCCESS)
        snprintf(out, size, "%08x:%02x:%02x.0", (unsigned)domain, (unsigned)bus, (unsigned)device);
    return r;
}

CUresult cuDeviceGetPCIBusId(char *pciBusId, int len, CUdevice dev);
CUresult cuDeviceGetPCIBusId(char *pciBusId, int len, CUdevice dev)
{
    CUresult r = check_device(dev);
    if (r == CUDA_SUCCESS && (!pciBusId || len <= 0))
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS)
        r = pci_bus_id(pciBusId, (size_t)len);
    return drv_return(r, "cuDeviceGetPCIBusId(%d)", dev);
}

/* Accepts the id cuDeviceGetPCIBusId gives, in any case, with or without the domain. */
CUresult cuDeviceGetByPCIBusId(CUdevice *dev, const char *pciBusId);
CUresult cuDeviceGetByPCIBusId(CUdevice *dev, const char *pciBusId)
{
    CUresult r = drv.initialized ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;
    if (r == CUDA_SUCCESS && (!dev || !pciBusId))
        r = CUDA_ERROR_INVALID_VALUE;
    char own[32];
    if (r == CUDA_SUCCESS)
        r = pci_bus_id(own, sizeof own);
    unsigned d1 = 0, b1 = 0, v1 = 0, d2 = 0, b2 = 0, v2 = 0;
    if (r == CUDA_SUCCESS) {
        sscanf(own, "%x:%x:%x", &d1, &b1, &v1);
        if (sscanf(pciBusId, "%x:%x:%x", &d2, &b2, &v2) != 3) {
            d2 = 0;
            if (sscanf(pciBusId, "%x:%x", &b2, &v2) != 2)
                r = CUDA_ERROR_INVALID_VALUE;
        }
    }
    if (r == CUDA_SUCCESS && (d1 != d2 || b1 != b2 || v1 != v2))
        r = CUDA_ERROR_INVALID_DEVICE;
    if (r == CUDA_SUCCESS)
        *dev = 0;
    return drv_return(r, "cuDeviceGetByPCIBusId(%s)", pciBusId ? pciBusId : "NULL");
}
