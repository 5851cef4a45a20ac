/* drv_state.c -- the driver stand-in's process state: cuInit, entry and exit of every call,
 * error names and messages, LOOM_LOG tracing, cuGetProcAddress and the unsupported notes. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/drv_internal.h"

struct drv_state drv = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .primary = { .magic = DRV_CTX_MAGIC, .primary = true, .id = 1 },
    .next_ctx_id = 2,
};

_Thread_local cudaError_t drv_rt_result_;

static const struct {
    int value;
    const char *name, *message;
} errors[] = {
#define DRV_ERROR(value, name, message) { value, #name, message },
#include "driver/drv_errors.def"
#undef DRV_ERROR
};

static int error_index(int e)
{
    size_t lo = 0, hi = sizeof errors / sizeof errors[0];
    while (lo < hi) {   /* the table is sorted by value */
        size_t mid = (lo + hi) / 2;
        if (errors[mid].value == e)
            return (int)mid;
        if (errors[mid].value < e)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

const char *drv_error_name(CUresult r)
{
    int i = error_index((int)r);
    return i < 0 ? "unrecognized error code" : errors[i].name;
}

CUresult cuGetErrorName(CUresult error, const char **pStr);
CUresult cuGetErrorName(CUresult error, const char **pStr)
{
    if (!pStr)
        return CUDA_ERROR_INVALID_VALUE;
    int i = error_index((int)error);
    *pStr = i < 0 ? NULL : errors[i].name;
    return i < 0 ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

CUresult cuGetErrorString(CUresult error, const char **pStr);
CUresult cuGetErrorString(CUresult error, const char **pStr)
{
    if (!pStr)
        return CUDA_ERROR_INVALID_VALUE;
    int i = error_index((int)error);
    *pStr = i < 0 ? NULL : errors[i].message;
    return i < 0 ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

__attribute__((constructor)) static void read_env(void)
{
    const char *v = getenv("LOOM_LOG");
    drv.log = v && *v && strcmp(v, "0") != 0;
}

void drv_log(const char *fmt, ...)
{
    if (!drv.log)
        return;
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fprintf(stderr, "loom: %s\n", line);
}

CUresult drv_from_cuda(cudaError_t e)
{
    switch ((int)e) {
    case 9:     /* cudaErrorInvalidConfiguration */
    case 17:    /* cudaErrorInvalidDevicePointer */
    case 21:    /* cudaErrorInvalidMemcpyDirection */
        return CUDA_ERROR_INVALID_VALUE;
    case 98:    /* cudaErrorInvalidDeviceFunction */
        return CUDA_ERROR_INVALID_HANDLE;
    default:    /* the runtime's codes are the driver's where the driver has them */
        return error_index((int)e) >= 0 ? (CUresult)e : CUDA_ERROR_UNKNOWN;
    }
}

CUresult drv_check(enum loom_status s)
{
    if (s == LOOM_OK)
        return CUDA_SUCCESS;
    if (drv.log)
        drv_log("%s", loom_device_error(drv_device()));
    return drv_from_cuda(DRV_RT->check(s));
}

struct loom_device *drv_device(void)
{
    return DRV_RT->device();
}

CUresult drv_enter(bool need_ctx)
{
    if (!drv.initialized)
        return CUDA_ERROR_NOT_INITIALIZED;
    CUcontext c = need_ctx ? drv_ctx_current() : NULL;
    if (need_ctx && !c)
        return CUDA_ERROR_INVALID_CONTEXT;
    /* a destroyed context, or the primary one released by every retain, may still be current */
    if (need_ctx && !drv_ctx_valid(c))
        return CUDA_ERROR_CONTEXT_IS_DESTROYED;
    return drv_from_cuda(DRV_RT->enter());
}

CUresult drv_return(CUresult r, const char *fmt, ...)
{
    DRV_RT->leave();
    if (drv.log) {
        char line[512];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(line, sizeof line, fmt, ap);
        va_end(ap);
        fprintf(stderr, "loom: %s = %s\n", line, drv_error_name(r));
    }
    return r;
}

CUresult drv_unsupported(const char *name)
{
    static struct seen { const char *name; struct seen *next; } *list;
    if (!drv.log)
        return CUDA_ERROR_NOT_SUPPORTED;
    pthread_mutex_lock(&drv.lock);
    struct seen *s = list;
    while (s && strcmp(s->name, name) != 0)
        s = s->next;
    if (!s && (s = malloc(sizeof *s))) {
        s->name = name;
        s->next = list;
        list = s;
        fprintf(stderr, "loom: %s is not supported by Loom (returns CUDA_ERROR_NOT_SUPPORTED)\n", name);
    }
    pthread_mutex_unlock(&drv.lock);
    return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuInit(unsigned int flags);
CUresult cuInit(unsigned int flags)
{
    if (flags != 0)
        return drv_return(CUDA_ERROR_INVALID_VALUE, "cuInit(%u)", flags);
    if (DRV_RT->version != RT_DRIVER_HOOKS_VERSION) {
        fprintf(stderr, "loom: libcuda.so.1 and libcudart.so.13 come from different Loom builds\n");
        return CUDA_ERROR_NOT_INITIALIZED;
    }
    CUresult r = drv_from_cuda(DRV_RT->enter());
    if (r == CUDA_SUCCESS)
        drv.initialized = true;
    return drv_return(r, "cuInit(0)");
}

CUresult cuDriverGetVersion(int *driverVersion);
CUresult cuDriverGetVersion(int *driverVersion)
{
    if (!driverVersion)
        return CUDA_ERROR_INVALID_VALUE;
    *driverVersion = DRV_CUDA_VERSION;
    return CUDA_SUCCESS;
}

/* The names cuda.h maps to versioned symbols. */
static const struct { const char *name, *symbol; } versioned[] = {
#define DRV_VERSIONED(name, symbol) { #name, #symbol },
#include "driver/drv_versions.def"
#undef DRV_VERSIONED
};

/* cuGetProcAddress: the symbol a program compiled against cuda.h would call for this name
 * (the versioned one where cuda.h maps it), looked up in this library; with
 * CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, its _ptds or _ptsz form where it has one. */
CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int cudaVersion, uint64_t flags,
                             CUdriverProcAddressQueryResult *symbolStatus);
CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int cudaVersion, uint64_t flags,
                             CUdriverProcAddressQueryResult *symbolStatus)
{
    if (!symbol || !pfn)
        return drv_return(CUDA_ERROR_INVALID_VALUE, "cuGetProcAddress(%s)", symbol ? symbol : "NULL");
    *pfn = NULL;
    const char *name = symbol;
    for (size_t i = 0; i < sizeof versioned / sizeof versioned[0]; i++)
        if (strcmp(versioned[i].name, symbol) == 0)
            name = versioned[i].symbol;
    static void *self;
    if (!self) {
        Dl_info info;
        if (dladdr((void *)cuInit, &info) && info.dli_fname)
            self = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
    }
    void *fn = self && strncmp(name, "cu", 2) == 0 ? dlsym(self, name) : NULL;
    /* the per-thread default stream form, where the call has one */
    char pt[160];
    for (int i = 0; fn && (flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) && i < 2; i++) {
        void *f = snprintf(pt, sizeof pt, "%s%s", name, i ? "_ptsz" : "_ptds") < (int)sizeof pt ? dlsym(self, pt) : NULL;
        if (f) {
            fn = f;
            break;
        }
    }
    /* a symbol not found, or asked for by too old a version, is a successful query whose
     * status says so (what an H100's driver returns) */
    int status = fn ? CU_GET_PROC_ADDRESS_SUCCESS : CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    CUresult r = CUDA_SUCCESS;
    if (fn && cudaVersion < 2000) {
        status = CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT;
        fn = NULL;
    }
    *pfn = fn;
    if (symbolStatus)
        *symbolStatus = status;
    return drv_return(r, "cuGetProcAddress(%s, %d, %#llx) -> %s", symbol, cudaVersion, (unsigned long long)flags,
                      name);
}
