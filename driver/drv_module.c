/* drv_module.c -- modules from PTX text, PTX files and fatbinaries (through the runtime's
 * fatbinary reader), functions and globals, launches, function attributes and occupancy. */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/drv_internal.h"
#include "runtime/rt_fatbin.h"

/* The PTX text of a fatbinary (wrapper or container) in out_text (malloc'd); a SASS-only
 * image is refused with a line that names its architecture. */
static CUresult fatbin_ptx(const void *image, char **out_text)
{
    const void *data = image;
    uint32_t magic;
    memcpy(&magic, image, sizeof magic);
    if (magic == RT_FATBIN_WRAPPER_MAGIC)
        data = ((const struct rt_fatbin_wrapper *)image)->data;
    size_t size = rt_fatbin_container_size(data, SIZE_MAX / 2);
    if (!size) {
        fprintf(stderr, "loom: the image given to the driver is not a valid fatbinary\n");
        return CUDA_ERROR_INVALID_IMAGE;
    }
    struct loom_device_props p;
    loom_device_props(drv_device(), &p);
    struct rt_fatbin_options o = { .max_arch = (unsigned)(p.cc_major * 10 + p.cc_minor) };
    struct rt_fatbin_result res;
    int st = rt_fatbin_extract_ptx(data, size, &o, &res);
    CUresult r = CUDA_SUCCESS;
    if (st != RT_FATBIN_OK) {
        fprintf(stderr, "loom: %s\n", res.message);
        r = st == RT_FATBIN_NO_PTX ? CUDA_ERROR_NO_BINARY_FOR_GPU
            : st == RT_FATBIN_NO_SUITABLE ? CUDA_ERROR_UNSUPPORTED_PTX_VERSION
            : st == RT_FATBIN_NOMEM ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_ERROR_INVALID_IMAGE;
    } else if (!res.count) {
        r = CUDA_ERROR_INVALID_IMAGE;
    } else {
        *out_text = res.ptx[0].text;
        res.ptx[0].text = NULL;
    }
    rt_fatbin_result_free(&res);
    return r;
}

/* Loads PTX text, a fatbinary or (refused) a cubin into a new module. */
static CUresult load_image(CUmodule *out, const void *image, const char *what)
{
    if (!out || !image)
        return CUDA_ERROR_INVALID_VALUE;
    const unsigned char *b = image;
    char *owned = NULL;
    const char *text = image;
    uint32_t magic;
    memcpy(&magic, image, sizeof magic);
    if (memcmp(b, ELFMAG, SELFMAG) == 0) {
        Elf64_Ehdr eh;
        memcpy(&eh, image, sizeof eh);
        /* the cubin's architecture: bits 8-15 of e_flags from ELF ABI version 8 on, else 0-7 */
        unsigned sm = eh.e_ident[EI_ABIVERSION] >= 8 ? (eh.e_flags >> 8) & 0xff : eh.e_flags & 0xff;
        fprintf(stderr, "loom: %s: the image is a cubin (SASS for sm_%u only, no PTX); Loom runs PTX: "
                "load the PTX or a fatbinary that holds it\n", what, sm);
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    if (magic == RT_FATBIN_WRAPPER_MAGIC || magic == RT_FATBIN_MAGIC) {
        CUresult r = fatbin_ptx(image, &owned);
        if (r != CUDA_SUCCESS)
            return r;
        text = owned;
    }
    if (!strstr(text, ".version")) {   /* no PTX module starts without it */
        fprintf(stderr, "loom: %s: the image is neither PTX text nor a fatbinary\n", what);
        return CUDA_ERROR_INVALID_IMAGE;
    }
    struct CUmod_st *m = calloc(1, sizeof *m);
    if (!m) {
        free(owned);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    enum loom_status s = loom_module_load_text(drv_device(), text, strlen(text), what, &m->lm);
    free(owned);
    if (s != LOOM_OK) {
        fprintf(stderr, "loom: %s\n", loom_device_error(drv_device()));
        free(m);
        return s == LOOM_ERR_PARSE ? CUDA_ERROR_INVALID_PTX : drv_check(s);
    }
    if (!drv_handle_add(m)) {
        loom_module_unload(m->lm);
        free(m);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    m->magic = DRV_MOD_MAGIC;
    *out = m;
    return CUDA_SUCCESS;
}

CUresult cuModuleLoadData(CUmodule *module, const void *image);
CUresult cuModuleLoadData(CUmodule *module, const void *image)
{
    CUresult r = drv_enter(true);
    if (r == CUDA_SUCCESS)
        r = load_image(module, image, "cuModuleLoadData");
    return drv_return(r, "cuModuleLoadData(%p)", image);
}

/* JIT options (register limits, logs, optimisation levels) do not change what Loom runs. */
CUresult cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int numOptions, CUjit_option *options,
                            void **optionValues);
CUresult cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int numOptions, CUjit_option *options,
                            void **optionValues)
{
    CUresult r = drv_enter(true);
    if (r == CUDA_SUCCESS && numOptions && (!options || !optionValues))
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS)
        r = load_image(module, image, "cuModuleLoadDataEx");
    return drv_return(r, "cuModuleLoadDataEx(%p, %u options)", image, numOptions);
}

CUresult cuModuleLoadFatBinary(CUmodule *module, const void *fatCubin);
CUresult cuModuleLoadFatBinary(CUmodule *module, const void *fatCubin)
{
    CUresult r = drv_enter(true);
    if (r == CUDA_SUCCESS)
        r = load_image(module, fatCubin, "cuModuleLoadFatBinary");
    return drv_return(r, "cuModuleLoadFatBinary(%p)", fatCubin);
}

/* A file holding PTX text, a fatbinary or a cubin. */
CUresult cuModuleLoad(CUmodule *module, const char *fname);
CUresult cuModuleLoad(CUmodule *module, const char *fname)
{
    CUresult r = drv_enter(true);
    if (r == CUDA_SUCCESS && (!module || !fname))
        r = CUDA_ERROR_INVALID_VALUE;
    FILE *f = NULL;
    if (r == CUDA_SUCCESS && !(f = fopen(fname, "rb")))
        r = CUDA_ERROR_FILE_NOT_FOUND;
    char *buf = NULL;
    if (r == CUDA_SUCCESS) {
        long n = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
        if (n < 0 || (size_t)n > LOOM_MAX_PTX_BYTES || fseek(f, 0, SEEK_SET) != 0)
            r = CUDA_ERROR_INVALID_IMAGE;
        else if (!(buf = calloc(1, (size_t)n + 8)))
            r = CUDA_ERROR_OUT_OF_MEMORY;
        else if (fread(buf, 1, (size_t)n, f) != (size_t)n)
            r = CUDA_ERROR_FILE_NOT_FOUND;
    }
    if (f)
        fclose(f);
    if (r == CUDA_SUCCESS)
        r = load_image(module, buf, fname);
    free(buf);
    return drv_return(r, "cuModuleLoad(%s)", fname ? fname : "NULL");
}

static struct CUmod_st *live_module(CUmodule m)
{
    return drv_handle_known(m) && m->magic == DRV_MOD_MAGIC ? m : NULL;
}

struct CUfunc_st *drv_func(CUfunction f)
{
    return drv_handle_known(f) && f->magic == DRV_FUNC_MAGIC && f->mod->magic == DRV_MOD_MAGIC ? f : NULL;
}

/* Waits for the device's work, then frees the module; its function handles stay (dead). */
CUresult cuModuleUnload(CUmodule hmod);
CUresult cuModuleUnload(CUmodule hmod)
{
    CUresult r = drv_enter(true);
    if (r == CUDA_SUCCESS && !live_module(hmod))
        r = CUDA_ERROR_INVALID_HANDLE;
    if (r == CUDA_SUCCESS) {
        r = drv_check(loom_synchronize(drv_device()));
        loom_module_unload(hmod->lm);
        hmod->lm = NULL;
        hmod->magic = DRV_DEAD_MAGIC;
        for (struct CUfunc_st *f = hmod->funcs; f; f = f->next)
            f->magic = DRV_DEAD_MAGIC;
    }
    return drv_return(r, "cuModuleUnload(%p)", (void *)hmod);
}

CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name);
CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name)
{
    CUresult r = drv_enter(true);
    if (r == CUDA_SUCCESS && (!hfunc || !name))
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS && !live_module(hmod))
        r = CUDA_ERROR_INVALID_HANDLE;
    struct loom_kernel *k = NULL;
    if (r == CUDA_SUCCESS && loom_module_get_kernel(hmod->lm, name, &k) != LOOM_OK)
        r = CUDA_ERROR_NOT_FOUND;
    if (r == CUDA_SUCCESS) {
        pthread_mutex_lock(&drv.lock);
        struct CUfunc_st *f = hmod->funcs;
        while (f && f->k != k)
            f = f->next;
        if (!f && (f = calloc(1, sizeof *f)) && !drv_handle_add(f)) {
            free(f);
            f = NULL;
        } else if (f && !f->magic) {
            *f = (struct CUfunc_st){ .magic = DRV_FUNC_MAGIC, .mod = hmod, .k = k, .next = hmod->funcs };
            hmod->funcs = f;
        }
        pthread_mutex_unlock(&drv.lock);
        if (f)
            *hfunc = f;
        else
            r = CUDA_ERROR_OUT_OF_MEMORY;
    }
    return drv_return(r, "cuModuleGetFunction(%p, %s)", (void *)hmod, name ? name : "NULL");
}

CUresult cuModuleGetGlobal_v2(CUdeviceptr *dptr, size_t *bytes, CUmodule hmod, const char *name);
CUresult cuModuleGetGlobal_v2(CUdeviceptr *dptr, size_t *bytes, CUmodule hmod, const char *name)
{
    CUresult r = drv_enter(true);
    if (r == CUDA_SUCCESS && (!name || (!dptr && !bytes)))
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS && !live_module(hmod))
        r = CUDA_ERROR_INVALID_HANDLE;
    uint64_t addr = 0;
    size_t size = 0;
    struct loom_kernel *k;
    if (r == CUDA_SUCCESS && loom_module_get_global(hmod->lm, name, &addr, &size) != LOOM_OK)   /* a kernel's name is no global's */
        r = loom_module_get_kernel(hmod->lm, name, &k) == LOOM_OK ? CUDA_ERROR_INVALID_VALUE : CUDA_ERROR_NOT_FOUND;
    if (r == CUDA_SUCCESS) {
        if (dptr)
            *dptr = addr;
        if (bytes)
            *bytes = size;
    }
    return drv_return(r, "cuModuleGetGlobal(%p, %s)", (void *)hmod, name ? name : "NULL");
}

/* The arguments of a launch: kernelParams as they are, or `extra`'s one buffer split at the
 * kernel's parameter offsets into *out_copy (malloc'd). An `extra` without a buffer leaves
 * kernelParams in charge; a buffer shorter than the parameters is read as far as its size
 * and the rest is zero (the GPU launches it too, without complaint). */
static CUresult launch_args(const struct CUfunc_st *f, void **params, void **extra, void ***out_args,
                            char **out_copy)
{
    char *buf = NULL;
    size_t size = 0;
    for (unsigned i = 0; extra && extra[i] != CU_LAUNCH_PARAM_END; i += 2) {
        if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER)
            buf = extra[i + 1];
        else if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE && extra[i + 1])
            size = *(size_t *)extra[i + 1];
        else
            return CUDA_ERROR_INVALID_VALUE;
    }
    unsigned n = loom_kernel_param_count(f->k);
    if (!buf) {
        if (!params && n)
            return CUDA_ERROR_INVALID_VALUE;
        *out_args = params;
        return CUDA_SUCCESS;
    }
    if (params)
        return CUDA_ERROR_INVALID_VALUE;
    size_t need = 0;
    for (unsigned i = 0; i < n; i++) {
        struct loom_param_info p;
        loom_kernel_param(f->k, i, &p);
        if ((size_t)p.offset + p.size > need)
            need = (size_t)p.offset + p.size;
    }
    void **args = calloc(n ? n : 1, sizeof *args);
    char *copy = calloc(need ? need : 1, 1);
    if (!args || !copy) {
        free(args);
        free(copy);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    memcpy(copy, buf, size < need ? size : need);
    for (unsigned i = 0; i < n; i++) {
        struct loom_param_info p;
        loom_kernel_param(f->k, i, &p);
        args[i] = copy + p.offset;
    }
    *out_args = args;
    *out_copy = copy;
    return CUDA_SUCCESS;
}

static CUresult launch(CUfunction f, const unsigned grid[3], const unsigned block[3], unsigned shared,
                       CUstream stream, void **params, void **extra, bool cooperative)
{
    CUresult r = drv_enter(true);
    struct CUfunc_st *fn = NULL;
    if (r == CUDA_SUCCESS && !(fn = drv_func(f)))
        r = CUDA_ERROR_INVALID_HANDLE;
    struct loom_stream *ls = NULL;
    if (r == CUDA_SUCCESS)
        r = drv_from_cuda(DRV_RT->stream_resolve(stream, false, &ls));
    void **args = NULL;
    char *copy = NULL;
    if (r == CUDA_SUCCESS)
        r = launch_args(fn, params, extra, &args, &copy);
    if (r == CUDA_SUCCESS) {
        struct loom_launch_config cfg = {
            .grid = { grid[0], grid[1], grid[2] },
            .block = { block[0], block[1], block[2] },
            .shared_bytes = shared,
            .stream = ls,
            .cooperative = cooperative,
        };
        enum loom_status s = loom_launch(drv_device(), fn->k, &cfg, args);
        r = s == LOOM_ERR_INVALID_CONFIG ? CUDA_ERROR_INVALID_VALUE : drv_check(s);
        /* a cooperative grid larger than the device holds at once has a code of its own */
        unsigned ctas = 0;
        struct loom_device_props p;
        loom_device_props(drv_device(), &p);
        if (s == LOOM_ERR_INVALID_CONFIG && cooperative &&
            loom_kernel_occupancy(fn->k, block[0] * block[1] * block[2], shared, &ctas) == LOOM_OK && ctas &&
            (uint64_t)grid[0] * grid[1] * grid[2] > (uint64_t)ctas * (unsigned)p.multiprocessors)
            r = CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE;
        if (s == LOOM_ERR_INVALID_CONFIG && drv.log)
            drv_log("%s", loom_device_error(drv_device()));
        if (copy)
            free(args);
    }
    free(copy);
    return r;
}

CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ,
                        unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ,
                        unsigned int sharedMemBytes, CUstream hStream, void **kernelParams, void **extra);
CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ,
                        unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ,
                        unsigned int sharedMemBytes, CUstream hStream, void **kernelParams, void **extra)
{
    const unsigned grid[3] = { gridDimX, gridDimY, gridDimZ }, block[3] = { blockDimX, blockDimY, blockDimZ };
    CUresult r = launch(f, grid, block, sharedMemBytes, hStream, kernelParams, extra, false);
    return drv_return(r, "cuLaunchKernel(%s, grid (%u,%u,%u), block (%u,%u,%u), shared %u, stream %p)",
                      drv_func(f) ? loom_kernel_name(f->k) : "?", gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY,
                      blockDimZ, sharedMemBytes, (void *)hStream);
}

CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                                   unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
                                   unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream,
                                   void **kernelParams);
CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                                   unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
                                   unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream,
                                   void **kernelParams)
{
    const unsigned grid[3] = { gridDimX, gridDimY, gridDimZ }, block[3] = { blockDimX, blockDimY, blockDimZ };
    CUresult r = launch(f, grid, block, sharedMemBytes, hStream, kernelParams, NULL, true);
    return drv_return(r, "cuLaunchCooperativeKernel(%s, grid (%u,%u,%u), block (%u,%u,%u), shared %u)",
                      drv_func(f) ? loom_kernel_name(f->k) : "?", gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY,
                      blockDimZ, sharedMemBytes);
}

/* Attributes: cooperative launches; a cluster of one CTA; the rest (priorities, access policy
 * windows, programmatic serialisation) do not change what Loom computes and are ignored. */
CUresult cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f, void **kernelParams, void **extra);
CUresult cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f, void **kernelParams, void **extra)
{
    if (!config)
        return drv_return(CUDA_ERROR_INVALID_VALUE, "cuLaunchKernelEx(NULL)");
    bool cooperative = false;
    CUresult r = config->numAttrs && !config->attrs ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
    for (unsigned i = 0; r == CUDA_SUCCESS && i < config->numAttrs; i++) {
        const CUlaunchAttribute *a = &config->attrs[i];
        if (a->id == CU_LAUNCH_ATTRIBUTE_COOPERATIVE)
            cooperative = a->value.cooperative != 0;
        else if (a->id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION &&
                 a->value.clusterDim.x * a->value.clusterDim.y * a->value.clusterDim.z > 1)
            r = drv_unsupported("cuLaunchKernelEx with thread block clusters");
    }
    const unsigned grid[3] = { config->gridDimX, config->gridDimY, config->gridDimZ };
    const unsigned block[3] = { config->blockDimX, config->blockDimY, config->blockDimZ };
    if (r == CUDA_SUCCESS)
        r = launch(f, grid, block, config->sharedMemBytes, config->hStream, kernelParams, extra, cooperative);
    return drv_return(r, "cuLaunchKernelEx(%s, grid (%u,%u,%u), block (%u,%u,%u), shared %u, %u attributes)",
                      drv_func(f) ? loom_kernel_name(f->k) : "?", grid[0], grid[1], grid[2], block[0], block[1],
                      block[2], config->sharedMemBytes, config->numAttrs);
}

/* The kernel's name, as cuda.h's cuFuncGetName gives it (the PTX name). */
CUresult cuFuncGetName(const char **name, CUfunction hfunc);
CUresult cuFuncGetName(const char **name, CUfunction hfunc)
{
    CUresult r = drv.initialized ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;
    if (r == CUDA_SUCCESS && !name)
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS && !drv_func(hfunc))
        r = CUDA_ERROR_INVALID_HANDLE;
    if (r == CUDA_SUCCESS)
        *name = loom_kernel_name(hfunc->k);
    return drv_return(r, "cuFuncGetName(%p)", (void *)hfunc);
}

/* Cache preferences do not change what Loom computes. */
CUresult cuFuncSetCacheConfig(CUfunction hfunc, int config);
CUresult cuFuncSetCacheConfig(CUfunction hfunc, int config)
{
    CUresult r = drv_enter(true);
    if (r == CUDA_SUCCESS && !drv_func(hfunc))
        r = CUDA_ERROR_INVALID_HANDLE;
    if (r == CUDA_SUCCESS && (config < 0 || config > 3))
        r = CUDA_ERROR_INVALID_VALUE;
    return drv_return(r, "cuFuncSetCacheConfig(%p, %d)", (void *)hfunc, config);
}

CUresult cuFuncGetAttribute(int *pi, CUfunction_attribute attrib, CUfunction hfunc);
CUresult cuFuncGetAttribute(int *pi, CUfunction_attribute attrib, CUfunction hfunc)
{
    CUresult r = drv_enter(true);
    if (r == CUDA_SUCCESS && !pi)
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS && !drv_func(hfunc))
        r = CUDA_ERROR_INVALID_HANDLE;
    if (r == CUDA_SUCCESS) {
        struct loom_kernel_attrs a;
        loom_kernel_attrs(hfunc->k, &a);
        switch (attrib) {
        case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *pi = (int)a.max_threads_per_block; break;
        case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: *pi = (int)a.shared_bytes; break;
        case CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES: *pi = (int)a.const_bytes; break;
        case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES: *pi = (int)a.local_bytes; break;
        case CU_FUNC_ATTRIBUTE_NUM_REGS: *pi = (int)a.num_regs; break;
        case CU_FUNC_ATTRIBUTE_PTX_VERSION: *pi = (int)a.sm; break;
        case CU_FUNC_ATTRIBUTE_BINARY_VERSION: *pi = (int)a.sm; break;
        case CU_FUNC_ATTRIBUTE_CACHE_MODE_CA: *pi = 0; break;
        case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: *pi = (int)a.max_dynamic_shared; break;
        case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT: *pi = -1; break;
        case CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET: case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH:
        case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT: case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH:
        case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED:
        case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE: *pi = 0; break;
        default: r = CUDA_ERROR_INVALID_VALUE; break;
        }
    }
    return drv_return(r, "cuFuncGetAttribute(%d, %p)", (int)attrib, (void *)hfunc);
}

CUresult cuFuncSetAttribute(CUfunction hfunc, CUfunction_attribute attrib, int value);
CUresult cuFuncSetAttribute(CUfunction hfunc, CUfunction_attribute attrib, int value)
{
    CUresult r = drv_enter(true);
    if (r == CUDA_SUCCESS && !drv_func(hfunc))
        r = CUDA_ERROR_INVALID_HANDLE;
    if (r == CUDA_SUCCESS) {
        if (attrib == CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)
            r = value < 0 ? CUDA_ERROR_INVALID_VALUE
                          : drv_check(loom_kernel_set_max_dynamic_shared(hfunc->k, (size_t)value));
        else if (attrib == CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT)
            r = value < -1 || value > 100 ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
        else
            r = CUDA_ERROR_INVALID_VALUE;
    }
    return drv_return(r, "cuFuncSetAttribute(%p, %d, %d)", (void *)hfunc, (int)attrib, value);
}

CUresult cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, CUfunction func, int blockSize,
                                                              size_t dynamicSMemSize, unsigned int flags);
CUresult cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, CUfunction func, int blockSize,
                                                              size_t dynamicSMemSize, unsigned int flags)
{
    CUresult r = drv_enter(true);
    if (r == CUDA_SUCCESS && (!numBlocks || blockSize <= 0 || flags > 1))
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS && !drv_func(func))
        r = CUDA_ERROR_INVALID_HANDLE;
    unsigned ctas = 0;
    if (r == CUDA_SUCCESS) {
        enum loom_status s = loom_kernel_occupancy(func->k, (unsigned)blockSize, dynamicSMemSize, &ctas);
        r = s == LOOM_ERR_INVALID_CONFIG ? CUDA_ERROR_INVALID_VALUE : drv_check(s);
    }
    if (r == CUDA_SUCCESS)
        *numBlocks = (int)ctas;
    return drv_return(r, "cuOccupancyMaxActiveBlocksPerMultiprocessor(%p, %d, %zu) -> %u", (void *)func, blockSize,
                      dynamicSMemSize, ctas);
}

CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, CUfunction func, int blockSize,
                                                     size_t dynamicSMemSize);
CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, CUfunction func, int blockSize,
                                                     size_t dynamicSMemSize)
{
    return cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize, dynamicSMemSize, 0);
}

CUresult cuModuleGetFunctionCount(unsigned int *count, CUmodule mod);
CUresult cuModuleGetFunctionCount(unsigned int *count, CUmodule mod)
{
    CUresult r = drv_enter(true);
    if (r == CUDA_SUCCESS && !count)
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS && !live_module(mod))
        r = CUDA_ERROR_INVALID_HANDLE;
    if (r == CUDA_SUCCESS)
        *count = loom_module_kernel_count(mod->lm);
    return drv_return(r, "cuModuleGetFunctionCount(%p)", (void *)mod);
}

/* The module's kernels in its order, as handles cuModuleGetFunction would give. */
CUresult cuModuleEnumerateFunctions(CUfunction *functions, unsigned int numFunctions, CUmodule mod);
CUresult cuModuleEnumerateFunctions(CUfunction *functions, unsigned int numFunctions, CUmodule mod)
{
    CUresult r = drv_enter(true);
    if (r == CUDA_SUCCESS && !functions)
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS && !live_module(mod))
        r = CUDA_ERROR_INVALID_HANDLE;
    unsigned n = r == CUDA_SUCCESS ? loom_module_kernel_count(mod->lm) : 0;
    DRV_RT->leave();
    for (unsigned i = 0; r == CUDA_SUCCESS && i < n && i < numFunctions; i++)
        r = cuModuleGetFunction(&functions[i], mod, loom_kernel_name(loom_module_kernel(mod->lm, i)));
    return drv_return(r, "cuModuleEnumerateFunctions(%p, %u)", (void *)mod, numFunctions);
}

CUresult cuFuncGetModule(CUmodule *hmod, CUfunction hfunc);
CUresult cuFuncGetModule(CUmodule *hmod, CUfunction hfunc)
{
    CUresult r = drv.initialized ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;
    if (r == CUDA_SUCCESS && !hmod)
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS && !drv_func(hfunc))
        r = CUDA_ERROR_INVALID_HANDLE;
    if (r == CUDA_SUCCESS)
        *hmod = hfunc->mod;
    return drv_return(r, "cuFuncGetModule(%p)", (void *)hfunc);
}
