/* rt_launch.c -- kernel launches (the <<<>>> path of CUDA 13 and the legacy and
 * extensible entry points), kernel attributes and the occupancy calculator. */
#include <stdio.h>
#include <string.h>

#include "runtime/rt_internal.h"

/* <<<grid, block, shared, stream>>> pushes a configuration that the host stub pops;
 * arguments evaluated in between may launch kernels themselves, hence a stack. */
struct call_config {
    dim3 grid, block;
    size_t shared;
    cudaStream_t stream;
};
#define CONFIG_DEPTH 32
static _Thread_local struct call_config config_stack[CONFIG_DEPTH];
static _Thread_local unsigned config_depth;

unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem, struct CUstream_st *stream)
{
    if (config_depth == CONFIG_DEPTH) {
        rt_return(cudaErrorInvalidConfiguration, "__cudaPushCallConfiguration: launches nested too deeply");
        return 1;
    }
    config_stack[config_depth++] = (struct call_config){ gridDim, blockDim, sharedMem, stream };
    return 0;
}

cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem, void *stream)
{
    if (config_depth == 0)
        return rt_return(cudaErrorMissingConfiguration, "__cudaPopCallConfiguration()");
    const struct call_config *c = &config_stack[--config_depth];
    *gridDim = c->grid;
    *blockDim = c->block;
    *sharedMem = c->shared;
    memcpy(stream, &c->stream, sizeof c->stream);
    return cudaSuccess;
}

/* loomLaunchAccess (include/loom/hints.h): the exact ranges the calling thread's next launch
 * reads and writes, for the scheduling policies that reorder (docs/SCHEDULING.md). */
#define HINTS_MAX 64
static _Thread_local struct loom_access_range hints[HINTS_MAX];
static _Thread_local unsigned nhints;
static _Thread_local bool hints_overflow;

int loomLaunchAccess(const void *ptr, size_t bytes, int mode);
int loomLaunchAccess(const void *ptr, size_t bytes, int mode)
{
    if (mode < 1 || mode > 3) {
        rt_log("loomLaunchAccess(%p, %zu, %d): mode is 1 (read), 2 (write) or 3 (both)", ptr, bytes, mode);
        return (int)cudaErrorInvalidValue;
    }
    if (nhints == HINTS_MAX) {
        hints_overflow = true;   /* the launch then falls back to what is inferred: never less */
        return (int)cudaErrorInvalidValue;
    }
    hints[nhints++] = (struct loom_access_range){ (uint64_t)(uintptr_t)ptr, bytes, (unsigned)mode };
    return (int)cudaSuccess;
}

cudaError_t rt_launch(const void *func, dim3 grid, dim3 block, void **args, size_t shared, cudaStream_t stream,
                      bool per_thread, bool cooperative, const char *api)
{
    cudaError_t e = rt_enter();
    struct CUkern_st *f = NULL;
    struct loom_kernel *k = NULL;
    struct loom_stream *ls = NULL;
    /* CUDA 13 takes an unknown function for a bad cudaKernel_t handle */
    if (e == cudaSuccess && !(f = rt_function_find(func)))
        e = cudaErrorInvalidResourceHandle;
    if (e == cudaSuccess)
        e = rt_function_kernel(f, &k);
    if (e == cudaSuccess)
        e = rt_stream_resolve(stream, per_thread, &ls);
    if (e == cudaSuccess) {
        struct loom_launch_config cfg = {
            .grid = { grid.x, grid.y, grid.z },
            .block = { block.x, block.y, block.z },
            .shared_bytes = shared,
            .stream = ls,
            .cooperative = cooperative,
        };
        if (nhints && !hints_overflow) {
            cfg.access = hints;
            cfg.naccess = nhints;
        }
        enum loom_status s = loom_launch(rt.dev, k, &cfg, args);
        nhints = 0;
        hints_overflow = false;
        if (s != LOOM_OK && rt.log)
            rt_log("%s", loom_device_error(rt.dev));
        e = rt_check(s);
        /* CUDA 13 reports a bad grid, block or shared-memory size as an invalid argument */
        if (s == LOOM_ERR_INVALID_CONFIG)
            e = cudaErrorInvalidValue;
        /* a fault status here is the sticky error of an earlier kernel, which another
         * thread's kernel left after rt_enter looked: the launch fails with it, as any
         * call after a fault does (the kernel's own faults come later, asynchronously) */
    }
    return rt_return(e, "%s(%s, grid (%u,%u,%u), block (%u,%u,%u), shared %zu, stream %p)", api,
                     f ? f->device_name : "?", grid.x, grid.y, grid.z, block.x, block.y, block.z, shared,
                     (void *)stream);
}

cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun)
{
    struct CUkern_st *f = rt_function_find(hostFun);
    if (kernel)
        *kernel = f;
    return rt_return(f ? cudaSuccess : cudaErrorInvalidDeviceFunction, "__cudaGetKernel(%s)",
                     f ? f->device_name : "?");
}

cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                               cudaStream_t stream)
{
    return rt_launch(kernel, gridDim, blockDim, args, sharedMem, stream, false, false, "launch");
}

cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,
                                    size_t sharedMem, cudaStream_t stream)
{
    return rt_launch(kernel, gridDim, blockDim, args, sharedMem, stream, true, false, "launch");
}

cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                             cudaStream_t stream)
{
    return rt_launch(func, gridDim, blockDim, args, sharedMem, stream, false, false, "cudaLaunchKernel");
}

cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                                  cudaStream_t stream)
{
    return rt_launch(func, gridDim, blockDim, args, sharedMem, stream, true, false, "cudaLaunchKernel");
}

cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                        size_t sharedMem, cudaStream_t stream)
{
    return rt_launch(func, gridDim, blockDim, args, sharedMem, stream, false, true, "cudaLaunchCooperativeKernel");
}

cudaError_t cudaLaunchCooperativeKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                             size_t sharedMem, cudaStream_t stream)
{
    return rt_launch(func, gridDim, blockDim, args, sharedMem, stream, true, true, "cudaLaunchCooperativeKernel");
}

/* cudaLaunchKernelEx: honours the cooperative attribute; priorities and
 * clusters of one block are accepted, other attributes are refused. */
static cudaError_t launch_ex(const cudaLaunchConfig_t *config, const void *func, void **args, bool per_thread)
{
    if (!config)
        return rt_return(cudaErrorInvalidValue, "cudaLaunchKernelExC(NULL config)");
    bool coop = false;
    for (unsigned i = 0; i < config->numAttrs; i++) {
        const cudaLaunchAttribute *a = &config->attrs[i];
        switch (a->id) {
        case cudaLaunchAttributeIgnore:
        case cudaLaunchAttributePriority:
            break;
        case cudaLaunchAttributeCooperative:
            coop = a->val.cooperative != 0;
            break;
        case cudaLaunchAttributeClusterDimension:
            if (a->val.clusterDim.x * a->val.clusterDim.y * a->val.clusterDim.z <= 1)
                break;
            return rt_unsupported("cudaLaunchKernelEx with thread block clusters");
        default:
            return rt_unsupported("cudaLaunchKernelEx with this launch attribute");
        }
    }
    return rt_launch(func, config->gridDim, config->blockDim, args, config->dynamicSmemBytes, config->stream,
                     per_thread, coop, "cudaLaunchKernelExC");
}

cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func, void **args)
{
    return launch_ex(config, func, args, false);
}

cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config, const void *func, void **args)
{
    return launch_ex(config, func, args, true);
}

cudaError_t cudaGetKernel(cudaKernel_t *kernelPtr, const void *entryFuncAddr)
{
    struct CUkern_st *f = rt_function_find(entryFuncAddr);
    if (!kernelPtr)
        return rt_return(cudaErrorInvalidValue, "cudaGetKernel(NULL)");
    *kernelPtr = f;
    return rt_return(f ? cudaSuccess : cudaErrorInvalidDeviceFunction, "cudaGetKernel(%s)", f ? f->device_name : "?");
}

cudaError_t cudaGetFuncBySymbol(cudaFunction_t *functionPtr, const void *symbolPtr)
{
    struct CUkern_st *f = rt_function_find(symbolPtr);
    if (!functionPtr)
        return rt_return(cudaErrorInvalidValue, "cudaGetFuncBySymbol(NULL)");
    *functionPtr = (cudaFunction_t)f;
    return rt_return(f ? cudaSuccess : cudaErrorInvalidDeviceFunction, "cudaGetFuncBySymbol(%s)",
                     f ? f->device_name : "?");
}

/* Resolves func (host stub or handle) to Loom's kernel, loading its module.
 * CUDA 13 on an H100 answers a function that is no kernel as it answers a bad
 * handle, in every per-function call (tests/faults/cuda/host_misuse: attributes,
 * cache config, name, parameter info, occupancy). */
static cudaError_t kernel_of(const void *func, struct CUkern_st **out_f, struct loom_kernel **out_k)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return e;
    struct CUkern_st *f = rt_function_find(func);
    *out_f = f;
    if (!f)
        return cudaErrorInvalidResourceHandle;
    return rt_function_kernel(f, out_k);
}

cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func)
{
    struct CUkern_st *f = NULL;
    struct loom_kernel *k = NULL;
    cudaError_t e = attr ? kernel_of(func, &f, &k) : cudaErrorInvalidValue;
    if (e == cudaSuccess) {
        struct loom_kernel_attrs a;
        loom_kernel_attrs(k, &a);
        memset(attr, 0, sizeof *attr);
        attr->sharedSizeBytes = a.shared_bytes;
        attr->constSizeBytes = a.const_bytes;
        attr->localSizeBytes = a.local_bytes;
        attr->maxThreadsPerBlock = (int)a.max_threads_per_block;
        attr->numRegs = (int)a.num_regs;
        attr->ptxVersion = (int)a.sm;
        attr->binaryVersion = rt.props.cc_major * 10 + rt.props.cc_minor;
        attr->maxDynamicSharedSizeBytes = (int)a.max_dynamic_shared;
        attr->preferredShmemCarveout = -1;
    }
    return rt_return(e, "cudaFuncGetAttributes(%s)", f ? f->device_name : "?");
}

cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value)
{
    struct CUkern_st *f = NULL;
    struct loom_kernel *k = NULL;
    cudaError_t e = kernel_of(func, &f, &k);
    if (e == cudaSuccess) {
        switch (attr) {
        case cudaFuncAttributeMaxDynamicSharedMemorySize: {
            struct loom_kernel_attrs a;
            loom_kernel_attrs(k, &a);
            if (value < 0 || a.shared_bytes + (size_t)value > rt.props.shared_per_block_optin)
                e = cudaErrorInvalidValue;
            else
                e = rt_error_from_status(loom_kernel_set_max_dynamic_shared(k, (size_t)value));
            break;
        }
        case cudaFuncAttributePreferredSharedMemoryCarveout:
            e = value < -1 || value > 100 ? cudaErrorInvalidValue : cudaSuccess;
            break;
        case cudaFuncAttributeRequiredClusterWidth:
        case cudaFuncAttributeRequiredClusterHeight:
        case cudaFuncAttributeRequiredClusterDepth:
        case cudaFuncAttributeNonPortableClusterSizeAllowed:
        case cudaFuncAttributeClusterSchedulingPolicyPreference:
            e = cudaSuccess;   /* hints about clusters; Loom runs clusters of one block */
            break;
        default:
            e = cudaErrorInvalidValue;
        }
    }
    return rt_return(e, "cudaFuncSetAttribute(%s, %d, %d)", f ? f->device_name : "?", (int)attr, value);
}

cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache cacheConfig)
{
    struct CUkern_st *f = rt_function_find(func);
    return rt_return(f ? cudaSuccess : cudaErrorInvalidResourceHandle, "cudaFuncSetCacheConfig(%s, %d)",
                     f ? f->device_name : "?", (int)cacheConfig);
}

cudaError_t cudaFuncGetName(const char **name, const void *func)
{
    struct CUkern_st *f = rt_function_find(func);
    if (!name)
        return rt_return(cudaErrorInvalidValue, "cudaFuncGetName(NULL)");
    *name = f ? f->device_name : NULL;
    return rt_return(f ? cudaSuccess : cudaErrorInvalidResourceHandle, "cudaFuncGetName(%s)", *name ? *name : "?");
}

cudaError_t cudaFuncGetParamInfo(const void *func, size_t paramIndex, size_t *paramOffset, size_t *paramSize)
{
    struct CUkern_st *f = NULL;
    struct loom_kernel *k = NULL;
    cudaError_t e = kernel_of(func, &f, &k);
    if (e == cudaSuccess && paramIndex >= loom_kernel_param_count(k))
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess) {
        struct loom_param_info p;
        loom_kernel_param(k, (unsigned)paramIndex, &p);
        if (paramOffset)
            *paramOffset = p.offset;
        if (paramSize)
            *paramSize = p.size;
    }
    return rt_return(e, "cudaFuncGetParamInfo(%s, %zu)", f ? f->device_name : "?", paramIndex);
}

/* ---- occupancy: libloom's calculation (loom_kernel_occupancy) over the registers
 * ptxas would allocate, shared memory and barriers ---- */

#define RT_SMEM_RESERVED 1024u    /* per block on compute capability 8.0 and later */

static size_t smem_reserved(void)
{
    return rt.props.cc_major >= 8 ? RT_SMEM_RESERVED : 0;
}

/* CTAs of k per SM with this block size and dynamic shared memory; 0 when none fit. */
static int occupancy(struct loom_kernel *k, int block_size, size_t dyn_smem)
{
    unsigned n = 0;
    if (loom_kernel_occupancy(k, (unsigned)block_size, dyn_smem, &n) != LOOM_OK)
        return 0;
    return (int)n;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, const void *func, int blockSize,
                                                                   size_t dynamicSMemSize, unsigned int flags)
{
    struct CUkern_st *f = NULL;
    struct loom_kernel *k = NULL;
    cudaError_t e = numBlocks && blockSize > 0 ? kernel_of(func, &f, &k) : cudaErrorInvalidValue;
    if (e == cudaSuccess) {
        /* like CUDA's calculator: resources only, __launch_bounds__ is not consulted */
        *numBlocks = occupancy(k, blockSize, dynamicSMemSize);
    }
    return rt_return(e, "cudaOccupancyMaxActiveBlocksPerMultiprocessor(%s, %d, %zu) -> %d",
                     f ? f->device_name : "?", blockSize, dynamicSMemSize,
                     e == cudaSuccess ? *numBlocks : -1);
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func, int blockSize,
                                                          size_t dynamicSMemSize)
{
    return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize, dynamicSMemSize,
                                                                  cudaOccupancyDefault);
}

cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize, const void *func, int numBlocks,
                                                      int blockSize)
{
    struct CUkern_st *f = NULL;
    struct loom_kernel *k = NULL;
    cudaError_t e = dynamicSmemSize && numBlocks > 0 && blockSize > 0 ? kernel_of(func, &f, &k)
                                                                     : cudaErrorInvalidValue;
    if (e == cudaSuccess) {
        struct loom_kernel_attrs a;
        loom_kernel_attrs(k, &a);
        size_t per_block = rt.props.shared_per_sm / (size_t)numBlocks;
        size_t used = a.shared_bytes + smem_reserved();
        size_t avail = per_block > used ? per_block - used : 0;
        size_t cap = rt.props.shared_per_block_optin > a.shared_bytes
                         ? rt.props.shared_per_block_optin - a.shared_bytes : 0;
        *dynamicSmemSize = avail < cap ? avail : cap;
        if (occupancy(k, blockSize, 0) < numBlocks)
            *dynamicSmemSize = 0;
    }
    return rt_return(e, "cudaOccupancyAvailableDynamicSMemPerBlock(%s, %d, %d)", f ? f->device_name : "?",
                     numBlocks, blockSize);
}
