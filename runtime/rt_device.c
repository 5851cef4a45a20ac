/* rt_device.c -- device management: the one emulated device, its properties and
 * attributes (from loom_device_props), limits, synchronisation, reset and versions. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "runtime/rt_internal.h"

static _Thread_local enum cudaFuncCache cache_config;
static _Thread_local enum cudaSharedMemConfig shmem_config;

cudaError_t cudaGetDeviceCount(int *count)
{
    if (!count)
        return rt_return(cudaErrorInvalidValue, "cudaGetDeviceCount(NULL)");
    cudaError_t e = rt_init();
    *count = e == cudaSuccess ? 1 : 0;
    return rt_return(e == cudaSuccess ? e : cudaErrorNoDevice, "cudaGetDeviceCount() -> %d", *count);
}

cudaError_t cudaSetDevice(int device)
{
    cudaError_t e = rt_init();
    if (e == cudaSuccess && device != 0)
        e = cudaErrorInvalidDevice;
    return rt_return(e, "cudaSetDevice(%d)", device);
}

cudaError_t cudaInitDevice(int device, unsigned int deviceFlags, unsigned int flags)
{
    cudaError_t e = rt_init();
    if (e == cudaSuccess && device != 0)
        e = cudaErrorInvalidDevice;
    return rt_return(e, "cudaInitDevice(%d)", device);
}

cudaError_t cudaGetDevice(int *device)
{
    cudaError_t e = device ? rt_init() : cudaErrorInvalidValue;
    if (e == cudaSuccess)
        *device = 0;
    return rt_return(e, "cudaGetDevice()");
}

cudaError_t cudaSetDeviceFlags(unsigned int flags)
{
    cudaError_t e = rt_init();
    if (e == cudaSuccess && (flags & ~(unsigned)cudaDeviceMask))
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess)
        rt.device_flags = flags;
    return rt_return(e, "cudaSetDeviceFlags(%u)", flags);
}

cudaError_t cudaGetDeviceFlags(unsigned int *flags)
{
    cudaError_t e = flags ? rt_init() : cudaErrorInvalidValue;
    if (e == cudaSuccess)
        *flags = rt.device_flags | cudaDeviceMapHost;
    return rt_return(e, "cudaGetDeviceFlags()");
}

cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop)
{
    cudaError_t e = device && prop ? rt_init() : cudaErrorInvalidValue;
    if (e == cudaSuccess)
        *device = 0;
    return rt_return(e, "cudaChooseDevice()");
}

/* Fills a cudaDeviceProp from Loom's properties; what Loom does not model gets
 * the value an H100 reports. */
static void fill_props(struct cudaDeviceProp *p)
{
    const struct loom_device_props *l = &rt.props;
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s", l->name);
    memcpy(p->uuid.bytes, "loom-emulated-00", 16);
    p->totalGlobalMem = l->total_global_mem;
    p->sharedMemPerBlock = l->shared_per_block;
    p->regsPerBlock = l->regs_per_block;
    p->warpSize = l->warp_size;
    p->memPitch = 0x7fffffff;
    p->maxThreadsPerBlock = l->max_threads_per_block;
    for (int i = 0; i < 3; i++) {
        p->maxThreadsDim[i] = l->max_block_dim[i];
        p->maxGridSize[i] = l->max_grid_dim[i];
    }
    p->totalConstMem = l->total_const_mem;
    p->major = l->cc_major;
    p->minor = l->cc_minor;
    p->textureAlignment = 512;
    p->texturePitchAlignment = 32;
    p->multiProcessorCount = l->multiprocessors;
    p->canMapHostMemory = 1;
    p->maxTexture1D = 131072;
    p->maxTexture1DMipmap = 32768;
    p->maxTexture2D[0] = 131072;
    p->maxTexture2D[1] = 65536;
    p->maxTexture2DMipmap[0] = p->maxTexture2DMipmap[1] = 32768;
    p->maxTexture2DLinear[0] = p->maxTexture2DLinear[1] = 131072;
    p->maxTexture2DLinear[2] = 2097120;
    p->maxTexture2DGather[0] = p->maxTexture2DGather[1] = 32768;
    p->maxTexture3D[0] = p->maxTexture3D[1] = p->maxTexture3D[2] = 16384;
    p->maxTexture3DAlt[0] = p->maxTexture3DAlt[1] = 8192;
    p->maxTexture3DAlt[2] = 32768;
    p->maxTextureCubemap = 32768;
    p->maxTexture1DLayered[0] = 32768;
    p->maxTexture1DLayered[1] = 2048;
    p->maxTexture2DLayered[0] = p->maxTexture2DLayered[1] = 32768;
    p->maxTexture2DLayered[2] = 2048;
    p->maxTextureCubemapLayered[0] = 32768;
    p->maxTextureCubemapLayered[1] = 2046;
    p->maxSurface1D = 32768;
    p->maxSurface2D[0] = 131072;
    p->maxSurface2D[1] = 65536;
    p->maxSurface3D[0] = p->maxSurface3D[1] = p->maxSurface3D[2] = 16384;
    p->maxSurface1DLayered[0] = 32768;
    p->maxSurface1DLayered[1] = 2048;
    p->maxSurface2DLayered[0] = p->maxSurface2DLayered[1] = 32768;
    p->maxSurface2DLayered[2] = 2048;
    p->maxSurfaceCubemap = 32768;
    p->maxSurfaceCubemapLayered[0] = 32768;
    p->maxSurfaceCubemapLayered[1] = 2046;
    p->surfaceAlignment = 512;
    p->concurrentKernels = 1;
    p->asyncEngineCount = 3;
    p->unifiedAddressing = 1;
    p->memoryBusWidth = l->mem_bus_width;
    p->l2CacheSize = l->l2_cache_size;
    p->persistingL2CacheMaxSize = l->l2_cache_size * 3 / 4;
    p->maxThreadsPerMultiProcessor = l->max_threads_per_sm;
    p->streamPrioritiesSupported = 1;
    p->globalL1CacheSupported = 1;
    p->localL1CacheSupported = 1;
    p->sharedMemPerMultiprocessor = l->shared_per_sm;
    p->regsPerMultiprocessor = l->regs_per_sm;
    p->managedMemory = 1;
    p->concurrentManagedAccess = 1;
    p->computePreemptionSupported = 1;
    p->canUseHostPointerForRegisteredMem = 1;
    p->cooperativeLaunch = 1;
    p->sharedMemPerBlockOptin = l->shared_per_block_optin;
    p->directManagedMemAccessFromHost = 1;
    p->maxBlocksPerMultiProcessor = l->max_blocks_per_sm;
    p->accessPolicyMaxWindowSize = 134213632;
    p->reservedSharedMemPerBlock = l->cc_major >= 8 ? 1024 : 0;
    p->hostRegisterSupported = 1;
    p->hostRegisterReadOnlySupported = 1;
    p->memoryPoolsSupported = 1;
    p->clusterLaunch = l->cc_major >= 9;
    p->unifiedFunctionPointers = 1;
    p->deviceNumaId = -1;
    p->hostNumaId = -1;
}

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)
{
    cudaError_t e = prop ? rt_init() : cudaErrorInvalidValue;
    if (e == cudaSuccess && device != 0)
        e = cudaErrorInvalidDevice;
    if (e == cudaSuccess)
        fill_props(prop);
    return rt_return(e, "cudaGetDeviceProperties(%d)", device);
}

static int attribute(const struct cudaDeviceProp *p, enum cudaDeviceAttr a, bool *out_known)
{
    *out_known = true;
    switch (a) {
    case cudaDevAttrMaxThreadsPerBlock: return p->maxThreadsPerBlock;
    case cudaDevAttrMaxBlockDimX: return p->maxThreadsDim[0];
    case cudaDevAttrMaxBlockDimY: return p->maxThreadsDim[1];
    case cudaDevAttrMaxBlockDimZ: return p->maxThreadsDim[2];
    case cudaDevAttrMaxGridDimX: return p->maxGridSize[0];
    case cudaDevAttrMaxGridDimY: return p->maxGridSize[1];
    case cudaDevAttrMaxGridDimZ: return p->maxGridSize[2];
    case cudaDevAttrMaxSharedMemoryPerBlock: return (int)p->sharedMemPerBlock;
    case cudaDevAttrTotalConstantMemory: return (int)p->totalConstMem;
    case cudaDevAttrWarpSize: return p->warpSize;
    case cudaDevAttrMaxPitch: return (int)p->memPitch;
    case cudaDevAttrMaxRegistersPerBlock: return p->regsPerBlock;
    case cudaDevAttrClockRate: return rt.props.clock_khz;
    case cudaDevAttrTextureAlignment: return (int)p->textureAlignment;
    case cudaDevAttrGpuOverlap: return 1;
    case cudaDevAttrMultiProcessorCount: return p->multiProcessorCount;
    case cudaDevAttrKernelExecTimeout: return 0;
    case cudaDevAttrIntegrated: return p->integrated;
    case cudaDevAttrCanMapHostMemory: return p->canMapHostMemory;
    case cudaDevAttrComputeMode: return 0;
    case cudaDevAttrSurfaceAlignment: return (int)p->surfaceAlignment;
    case cudaDevAttrConcurrentKernels: return p->concurrentKernels;
    case cudaDevAttrEccEnabled: return p->ECCEnabled;
    case cudaDevAttrPciBusId: return p->pciBusID;
    case cudaDevAttrPciDeviceId: return p->pciDeviceID;
    case cudaDevAttrTccDriver: return p->tccDriver;
    case cudaDevAttrMemoryClockRate: return rt.props.mem_clock_khz;
    case cudaDevAttrGlobalMemoryBusWidth: return p->memoryBusWidth;
    case cudaDevAttrL2CacheSize: return p->l2CacheSize;
    case cudaDevAttrMaxThreadsPerMultiProcessor: return p->maxThreadsPerMultiProcessor;
    case cudaDevAttrAsyncEngineCount: return p->asyncEngineCount;
    case cudaDevAttrUnifiedAddressing: return p->unifiedAddressing;
    case cudaDevAttrPciDomainId: return p->pciDomainID;
    case cudaDevAttrTexturePitchAlignment: return (int)p->texturePitchAlignment;
    case cudaDevAttrComputeCapabilityMajor: return p->major;
    case cudaDevAttrComputeCapabilityMinor: return p->minor;
    case cudaDevAttrStreamPrioritiesSupported: return p->streamPrioritiesSupported;
    case cudaDevAttrGlobalL1CacheSupported: return p->globalL1CacheSupported;
    case cudaDevAttrLocalL1CacheSupported: return p->localL1CacheSupported;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: return (int)p->sharedMemPerMultiprocessor;
    case cudaDevAttrMaxRegistersPerMultiprocessor: return p->regsPerMultiprocessor;
    case cudaDevAttrManagedMemory: return p->managedMemory;
    case cudaDevAttrIsMultiGpuBoard: return p->isMultiGpuBoard;
    case cudaDevAttrMultiGpuBoardGroupID: return p->multiGpuBoardGroupID;
    case cudaDevAttrHostNativeAtomicSupported: return p->hostNativeAtomicSupported;
    case cudaDevAttrSingleToDoublePrecisionPerfRatio: return 2;
    case cudaDevAttrPageableMemoryAccess: return p->pageableMemoryAccess;
    case cudaDevAttrConcurrentManagedAccess: return p->concurrentManagedAccess;
    case cudaDevAttrComputePreemptionSupported: return p->computePreemptionSupported;
    case cudaDevAttrCanUseHostPointerForRegisteredMem: return p->canUseHostPointerForRegisteredMem;
    case cudaDevAttrCooperativeLaunch: return p->cooperativeLaunch;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: return (int)p->sharedMemPerBlockOptin;
    case cudaDevAttrCanFlushRemoteWrites: return 0;
    case cudaDevAttrHostRegisterSupported: return p->hostRegisterSupported;
    case cudaDevAttrPageableMemoryAccessUsesHostPageTables: return p->pageableMemoryAccessUsesHostPageTables;
    case cudaDevAttrDirectManagedMemAccessFromHost: return p->directManagedMemAccessFromHost;
    case cudaDevAttrMaxBlocksPerMultiprocessor: return p->maxBlocksPerMultiProcessor;
    case cudaDevAttrMaxPersistingL2CacheSize: return p->persistingL2CacheMaxSize;
    case cudaDevAttrMaxAccessPolicyWindowSize: return p->accessPolicyMaxWindowSize;
    case cudaDevAttrReservedSharedMemoryPerBlock: return (int)p->reservedSharedMemPerBlock;
    case cudaDevAttrMemoryPoolsSupported: return p->memoryPoolsSupported;
    case cudaDevAttrClusterLaunch: return p->clusterLaunch;
    case cudaDevAttrNumaConfig: return 0;
    case cudaDevAttrNumaId: return p->deviceNumaId;
    case cudaDevAttrHostNumaId: return p->hostNumaId;
    default:
        *out_known = false;
        return 0;
    }
}

cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device)
{
    cudaError_t e = value ? rt_init() : cudaErrorInvalidValue;
    if (e == cudaSuccess && device != 0)
        e = cudaErrorInvalidDevice;
    if (e == cudaSuccess) {
        struct cudaDeviceProp p;
        bool known;
        fill_props(&p);
        *value = attribute(&p, attr, &known);
        if (!known)
            e = cudaErrorInvalidValue;
    }
    return rt_return(e, "cudaDeviceGetAttribute(%d, %d) -> %d", (int)attr, device, e == cudaSuccess ? *value : 0);
}

cudaError_t cudaDeviceSynchronize(void)
{
    cudaError_t e = rt_enter();
    if (e == cudaSuccess)
        e = rt_check(loom_synchronize(rt.dev));
    rt_memory_collect();
    return rt_return(e, "cudaDeviceSynchronize()");
}

/* Waits for all work and frees every allocation and module; registrations stay,
 * so kernels load again on their next launch. */
static cudaError_t reset(void)
{
    rt_memory_collect();
    cudaError_t e = rt_error_from_status(loom_device_reset(rt.dev));
    rt_memory_reset();
    rt_registry_reset();
    rt_state_reset_errors();
    return e;
}

/* Other threads may be in the middle of calls that use what the reset frees: it waits
 * for them (rt_reset_exclusive), and calls they start meanwhile wait for the reset. */
cudaError_t cudaDeviceReset(void)
{
    cudaError_t e = rt_init();
    if (e == cudaSuccess)
        e = rt_reset_exclusive(reset);
    return rt_return(e, "cudaDeviceReset()");
}

static size_t *limit_slot(enum cudaLimit limit)
{
    switch (limit) {
    case cudaLimitDevRuntimeSyncDepth: return &rt.limits.sync_depth;
    case cudaLimitDevRuntimePendingLaunchCount: return &rt.limits.pending_launches;
    case cudaLimitMaxL2FetchGranularity: return &rt.limits.l2_fetch;
    case cudaLimitPersistingL2CacheSize: return &rt.limits.persisting_l2;
    default: return NULL;
    }
}

/* The stack, printf FIFO and heap sizes are the device's (loom_device_set_limit sizes
 * them as an H100 does); the others are recorded and reported back. */
static bool device_limit(enum cudaLimit limit, enum loom_limit *out)
{
    switch (limit) {
    case cudaLimitStackSize: *out = LOOM_LIMIT_STACK_SIZE; return true;
    case cudaLimitPrintfFifoSize: *out = LOOM_LIMIT_PRINTF_FIFO_SIZE; return true;
    case cudaLimitMallocHeapSize: *out = LOOM_LIMIT_MALLOC_HEAP_SIZE; return true;
    default: return false;
    }
}

cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value)
{
    cudaError_t e = rt_enter();
    size_t *slot = limit_slot(limit);
    enum loom_limit ll;
    bool on_device = device_limit(limit, &ll);
    if (e == cudaSuccess && !slot && !on_device)
        e = cudaErrorUnsupportedLimit;
    if (e == cudaSuccess && limit == cudaLimitMaxL2FetchGranularity && value != 0 && value != 32 &&
        value != 64 && value != 128)
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess && on_device) {
        e = rt_check(loom_device_set_limit(rt.dev, ll, value));
        if (e != cudaSuccess)
            rt_log("%s", loom_device_error(rt.dev));
    } else if (e == cudaSuccess) {
        pthread_mutex_lock(&rt.lock);
        *slot = value;
        pthread_mutex_unlock(&rt.lock);
    }
    return rt_return(e, "cudaDeviceSetLimit(%d, %zu)", (int)limit, value);
}

cudaError_t cudaDeviceGetLimit(size_t *pValue, enum cudaLimit limit)
{
    cudaError_t e = pValue ? rt_enter() : cudaErrorInvalidValue;
    size_t *slot = limit_slot(limit);
    enum loom_limit ll;
    bool on_device = device_limit(limit, &ll);
    if (e == cudaSuccess && !slot && !on_device)
        e = cudaErrorUnsupportedLimit;
    if (e == cudaSuccess && on_device) {
        e = rt_check(loom_device_get_limit(rt.dev, ll, pValue));
    } else if (e == cudaSuccess) {
        pthread_mutex_lock(&rt.lock);
        *pValue = *slot;
        pthread_mutex_unlock(&rt.lock);
    }
    return rt_return(e, "cudaDeviceGetLimit(%d)", (int)limit);
}

cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority)
{
    if (leastPriority)
        *leastPriority = 0;
    if (greatestPriority)
        *greatestPriority = -5;
    return rt_return(cudaSuccess, "cudaDeviceGetStreamPriorityRange()");
}

cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *pCacheConfig)
{
    if (!pCacheConfig)
        return rt_return(cudaErrorInvalidValue, "cudaDeviceGetCacheConfig(NULL)");
    *pCacheConfig = cache_config;
    return rt_return(cudaSuccess, "cudaDeviceGetCacheConfig()");
}

cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache cacheConfig)
{
    if ((unsigned)cacheConfig > cudaFuncCachePreferEqual)
        return rt_return(cudaErrorInvalidValue, "cudaDeviceSetCacheConfig(%d)", (int)cacheConfig);
    cache_config = cacheConfig;
    return rt_return(cudaSuccess, "cudaDeviceSetCacheConfig(%d)", (int)cacheConfig);
}

cudaError_t cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig *pConfig)
{
    if (!pConfig)
        return rt_return(cudaErrorInvalidValue, "cudaDeviceGetSharedMemConfig(NULL)");
    *pConfig = shmem_config == cudaSharedMemBankSizeDefault ? cudaSharedMemBankSizeFourByte : shmem_config;
    return rt_return(cudaSuccess, "cudaDeviceGetSharedMemConfig()");
}

cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config)
{
    if ((unsigned)config > cudaSharedMemBankSizeEightByte)
        return rt_return(cudaErrorInvalidValue, "cudaDeviceSetSharedMemConfig(%d)", (int)config);
    shmem_config = config;
    return rt_return(cudaSuccess, "cudaDeviceSetSharedMemConfig(%d)", (int)config);
}

/* One device: no peers (asking about the device itself succeeds with 0, as on a GPU). */
cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice)
{
    cudaError_t e = canAccessPeer ? cudaSuccess : cudaErrorInvalidValue;
    if (e == cudaSuccess && (device != 0 || peerDevice != 0))
        e = cudaErrorInvalidDevice;
    if (e == cudaSuccess)
        *canAccessPeer = 0;
    return rt_return(e, "cudaDeviceCanAccessPeer(%d, %d)", device, peerDevice);
}

cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags)
{
    return rt_return(cudaErrorInvalidDevice, "cudaDeviceEnablePeerAccess(%d)", peerDevice);
}

cudaError_t cudaDeviceDisablePeerAccess(int peerDevice)
{
    return rt_return(cudaErrorInvalidDevice, "cudaDeviceDisablePeerAccess(%d)", peerDevice);
}

cudaError_t cudaRuntimeGetVersion(int *runtimeVersion)
{
    if (!runtimeVersion)
        return rt_return(cudaErrorInvalidValue, "cudaRuntimeGetVersion(NULL)");
    *runtimeVersion = CUDART_VERSION_LOOM;
    return rt_return(cudaSuccess, "cudaRuntimeGetVersion() -> %d", *runtimeVersion);
}

/* Loom stands in for the driver too; it reports the driver of CUDA 13.0. */
cudaError_t cudaDriverGetVersion(int *driverVersion)
{
    if (!driverVersion)
        return rt_return(cudaErrorInvalidValue, "cudaDriverGetVersion(NULL)");
    *driverVersion = CUDART_VERSION_LOOM;
    return rt_return(cudaSuccess, "cudaDriverGetVersion() -> %d", *driverVersion);
}

cudaError_t cudaProfilerStart(void) { return rt_return(cudaSuccess, "cudaProfilerStart()"); }
cudaError_t cudaProfilerStop(void) { return rt_return(cudaSuccess, "cudaProfilerStop()"); }

/* cudaGetDriverEntryPoint and ...ByVersion: the driver function of that name, as Loom's
 * libcuda.so.1 (which loom exec puts on the library path) gives it through cuGetProcAddress.
 * A name the driver does not have, or has only in a later version, is cudaSuccess with a
 * null pointer and the status saying which (what an H100 with CUDA 13 returns). The flags
 * (default, legacy or per-thread default stream) are the driver's; a _ptsz caller's default
 * means the per-thread stream. */
static cudaError_t driver_entry(const char *symbol, void **fn, int version, unsigned long long flags,
                                enum cudaDriverEntryPointQueryResult *status, bool per_thread)
{
    if (!symbol || !fn || flags > 2) return cudaErrorInvalidValue;
    typedef int (*get_proc_fn)(const char *, void **, int, unsigned long long, int *);
    static get_proc_fn get_proc;
    if (!get_proc) {
        void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
        get_proc = h ? (get_proc_fn)dlsym(h, "cuGetProcAddress_v2") : NULL;
        if (!get_proc) {
            fprintf(stderr, "loom: cudaGetDriverEntryPoint: Loom's libcuda.so.1 cannot be loaded (run the program "
                    "under loom exec)\n");
            return cudaErrorNotSupported;
        }
    }
    int st = 0;
    *fn = NULL;
    int r = get_proc(symbol, fn, version, flags == 0 && per_thread ? 2 : flags, &st);
    if (status) *status = (enum cudaDriverEntryPointQueryResult)st;
    if (st != 0) *fn = NULL;
    return r == 0 || st != 0 ? cudaSuccess : cudaErrorInvalidValue;
}

cudaError_t cudaGetDriverEntryPointByVersion(const char *symbol, void **funcPtr, unsigned int cudaVersion,
                                             unsigned long long flags, enum cudaDriverEntryPointQueryResult *driverStatus)
{
    cudaError_t e = rt_enter();
    if (e == cudaSuccess) e = driver_entry(symbol, funcPtr, (int)cudaVersion, flags, driverStatus, false);
    return rt_return(e, "cudaGetDriverEntryPointByVersion(%s, %u, %llu)", symbol ? symbol : "NULL", cudaVersion, flags);
}

cudaError_t cudaGetDriverEntryPointByVersion_ptsz(const char *symbol, void **funcPtr, unsigned int cudaVersion,
                                                  unsigned long long flags,
                                                  enum cudaDriverEntryPointQueryResult *driverStatus)
{
    cudaError_t e = rt_enter();
    if (e == cudaSuccess) e = driver_entry(symbol, funcPtr, (int)cudaVersion, flags, driverStatus, true);
    return rt_return(e, "cudaGetDriverEntryPointByVersion_ptsz(%s, %u, %llu)", symbol ? symbol : "NULL",
                     cudaVersion, flags);
}

cudaError_t cudaGetDriverEntryPoint(const char *symbol, void **funcPtr, unsigned long long flags,
                                    enum cudaDriverEntryPointQueryResult *driverStatus)
{
    cudaError_t e = rt_enter();
    if (e == cudaSuccess) e = driver_entry(symbol, funcPtr, CUDART_VERSION_LOOM, flags, driverStatus, false);
    return rt_return(e, "cudaGetDriverEntryPoint(%s, %llu)", symbol ? symbol : "NULL", flags);
}

cudaError_t cudaGetDriverEntryPoint_ptsz(const char *symbol, void **funcPtr, unsigned long long flags,
                                         enum cudaDriverEntryPointQueryResult *driverStatus)
{
    cudaError_t e = rt_enter();
    if (e == cudaSuccess) e = driver_entry(symbol, funcPtr, CUDART_VERSION_LOOM, flags, driverStatus, true);
    return rt_return(e, "cudaGetDriverEntryPoint_ptsz(%s, %llu)", symbol ? symbol : "NULL", flags);
}
