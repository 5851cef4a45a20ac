/* rt_register.c -- what nvcc-generated start-up code registers (fatbinaries, kernels,
 * variables) and the lazy loading of each fatbinary's PTX into a Loom module. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "runtime/rt_internal.h"
#include "runtime/rt_link.h"

/* Pointer-keyed hash map (open addressing); keys are never removed, only the
 * whole map is (it lives as long as the process). */
struct ptrmap {
    const void **keys;
    void **vals;
    size_t cap, n;
};

static struct ptrmap funcs_by_stub, funcs_by_handle, vars_by_shadow;
static unsigned fatbin_count;

static size_t ptr_hash(const void *p)
{
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return (size_t)x;
}

static void *map_get(const struct ptrmap *m, const void *key)
{
    if (!m->cap || !key)
        return NULL;
    for (size_t i = ptr_hash(key) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
        if (!m->keys[i])
            return NULL;
        if (m->keys[i] == key)
            return m->vals[i];
    }
}

static bool map_put(struct ptrmap *m, const void *key, void *val)
{
    if ((m->n + 1) * 2 > m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 256;
        const void **keys = calloc(cap, sizeof *keys);
        void **vals = calloc(cap, sizeof *vals);
        if (!keys || !vals) {
            free(keys);
            free(vals);
            return false;
        }
        for (size_t i = 0; i < m->cap; i++) {
            if (!m->keys[i])
                continue;
            size_t j = ptr_hash(m->keys[i]) & (cap - 1);
            while (keys[j])
                j = (j + 1) & (cap - 1);
            keys[j] = m->keys[i];
            vals[j] = m->vals[i];
        }
        free(m->keys);
        free(m->vals);
        m->keys = keys;
        m->vals = vals;
        m->cap = cap;
    }
    size_t i = ptr_hash(key) & (m->cap - 1);
    while (m->keys[i] && m->keys[i] != key)
        i = (i + 1) & (m->cap - 1);
    if (!m->keys[i])
        m->n++;
    m->keys[i] = key;
    m->vals[i] = val;
    return true;
}

/* ---- registration (runs in static constructors, before main) ---- */

void **__cudaRegisterFatBinary(void *fatCubin)
{
    struct rt_fatbin *fb = calloc(1, sizeof *fb);
    if (!fb) {
        fprintf(stderr, "loom: out of memory registering a fatbinary\n");
        return NULL;
    }
    fb->magic = RT_FATBIN_MAGIC_;
    fb->wrapper = fatCubin;
    pthread_mutex_lock(&rt.lock);
    fb->index = fatbin_count++;
    fb->next = rt.fatbins;
    rt.fatbins = fb;
    pthread_mutex_unlock(&rt.lock);
    const struct rt_fatbin_wrapper *w = fatCubin;
    rt_log("__cudaRegisterFatBinary(version %d) = fatbin #%u", w ? w->version : -1, fb->index);
    return (void **)fb;
}

void __cudaRegisterFatBinaryEnd(void **fatCubinHandle)
{
    (void)fatCubinHandle;
}

/* Modules stay loaded until exit: kernels of other fatbinaries may still run. */
void __cudaUnregisterFatBinary(void **fatCubinHandle)
{
    (void)fatCubinHandle;
}

static struct rt_fatbin *fatbin_of(void **handle)
{
    struct rt_fatbin *fb = (struct rt_fatbin *)handle;
    return fb && fb->magic == RT_FATBIN_MAGIC_ ? fb : NULL;
}

void __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun, char *deviceFun, const char *deviceName,
                            int thread_limit, uint3 *tid, uint3 *bid, dim3 *bDim, dim3 *gDim, int *wSize)
{
    struct rt_fatbin *fb = fatbin_of(fatCubinHandle);
    struct CUkern_st *f = calloc(1, sizeof *f);
    const char *name = deviceFun ? deviceFun : deviceName;
    if (!fb || !f || !name || !(f->device_name = strdup(name))) {
        free(f);
        fprintf(stderr, "loom: cannot register kernel %s\n", name ? name : "(null)");
        return;
    }
    f->magic = RT_FUNC_MAGIC;
    f->fb = fb;
    f->host_fun = hostFun;
    pthread_mutex_lock(&rt.lock);
    f->next_in_fatbin = fb->funcs;
    fb->funcs = f;
    if (!map_put(&funcs_by_stub, hostFun, f) || !map_put(&funcs_by_handle, f, f))
        fprintf(stderr, "loom: out of memory registering kernel %s\n", name);
    pthread_mutex_unlock(&rt.lock);
}

static void register_var(void **handle, const void *shadow, void **managed_ptr, const char *name, size_t size,
                         int constant)
{
    struct rt_fatbin *fb = fatbin_of(handle);
    struct rt_var *v = calloc(1, sizeof *v);
    if (!fb || !v || !name || !(v->device_name = strdup(name))) {
        free(v);
        fprintf(stderr, "loom: cannot register variable %s\n", name ? name : "(null)");
        return;
    }
    v->fb = fb;
    v->host_var = shadow;
    v->size = size;
    v->constant = constant != 0;
    v->managed = managed_ptr != NULL;
    v->managed_ptr = managed_ptr;
    pthread_mutex_lock(&rt.lock);
    v->next_in_fatbin = fb->vars;
    fb->vars = v;
    if (!map_put(&vars_by_shadow, shadow, v))
        fprintf(stderr, "loom: out of memory registering variable %s\n", name);
    pthread_mutex_unlock(&rt.lock);
}

void __cudaRegisterVar(void **fatCubinHandle, char *hostVar, char *deviceAddress, const char *deviceName,
                       int ext, size_t size, int constant, int global)
{
    register_var(fatCubinHandle, hostVar, NULL, deviceAddress ? deviceAddress : deviceName, size, constant);
}

/* The program reads a __managed__ variable through *hostVarPtrAddress, which
 * __cudaInitModule points at the variable's device (= host) address. */
void __cudaRegisterManagedVar(void **fatCubinHandle, void **hostVarPtrAddress, char *deviceAddress,
                              const char *deviceName, int ext, size_t size, int constant, int global)
{
    register_var(fatCubinHandle, hostVarPtrAddress, hostVarPtrAddress, deviceAddress ? deviceAddress : deviceName,
                 size, constant);
}

char __cudaInitModule(void **fatCubinHandle)
{
    struct rt_fatbin *fb = fatbin_of(fatCubinHandle);
    if (!fb || rt_init() != cudaSuccess)
        return 0;
    pthread_mutex_lock(&rt.lock);
    cudaError_t e = rt_fatbin_load(fb);
    pthread_mutex_unlock(&rt.lock);
    rt_return(e, "__cudaInitModule(fatbin #%u)", fb->index);
    return e == cudaSuccess;
}

/* ---- lookups ---- */

struct CUkern_st *rt_function_find(const void *p)
{
    pthread_mutex_lock(&rt.lock);
    struct CUkern_st *f = map_get(&funcs_by_stub, p);
    if (!f)
        f = map_get(&funcs_by_handle, p);
    pthread_mutex_unlock(&rt.lock);
    return f;
}

struct rt_var *rt_var_find(const void *host_var)
{
    pthread_mutex_lock(&rt.lock);
    struct rt_var *v = map_get(&vars_by_shadow, host_var);
    pthread_mutex_unlock(&rt.lock);
    return v;
}

/* ---- loading ---- */

struct extent_query {
    uintptr_t addr, end;
};

static int extent_cb(struct dl_phdr_info *info, size_t size, void *data)
{
    struct extent_query *q = data;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD)
            continue;
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;
        if (q->addr >= lo && q->addr < hi) {
            q->end = hi;
            return 1;
        }
    }
    return 0;
}

/* Bytes readable from p to the end of the loaded segment holding it (0: not in
 * any segment); bounds every read of a container. */
static size_t mapped_extent(const void *p)
{
    struct extent_query q = { .addr = (uintptr_t)p };
    if (!p || !dl_iterate_phdr(extent_cb, &q))
        return 0;
    return q.end - q.addr;
}

/* Extracts the PTX of one container into texts (growing the array). */
static cudaError_t collect_ptx(const void *container, const struct rt_fatbin_options *o, bool allow_empty,
                               struct rt_fatbin_result *out_res)
{
    size_t max = mapped_extent(container);
    if (!max) {
        fprintf(stderr, "loom: fatbinary at %p is not inside the program's loaded image\n", container);
        return cudaErrorInvalidKernelImage;
    }
    int st = rt_fatbin_extract_ptx(container, max, o, out_res);
    if (st == RT_FATBIN_OK || (allow_empty && st == RT_FATBIN_EMPTY))
        return cudaSuccess;
    fprintf(stderr, "loom: %s\n", out_res->message);
    return st == RT_FATBIN_NO_PTX ? cudaErrorNoKernelImageForDevice
           : st == RT_FATBIN_NO_SUITABLE ? cudaErrorUnsupportedPtxVersion : cudaErrorInvalidKernelImage;
}

/* Gathers the PTX texts of a fatbinary: one container (v1) or each prelinked
 * container of an -rdc program (v2), then device-links them when several. */
static cudaError_t fatbin_text(struct rt_fatbin *fb, char **out_text, size_t *out_len)
{
    struct rt_fatbin_options o = {
        .max_arch = (unsigned)(rt.props.cc_major * 10 + rt.props.cc_minor),
        .log = rt.verbose ? stderr : NULL,
    };
    const struct rt_fatbin_wrapper *w = fb->wrapper;
    if (!w || (uint32_t)w->magic != RT_FATBIN_WRAPPER_MAGIC) {
        fprintf(stderr, "loom: fatbin #%u: bad wrapper\n", fb->index);
        return cudaErrorInvalidKernelImage;
    }
    const void *single[1] = { w->data };
    const void *const *list = single;
    size_t n = 1;
    if (w->version == RT_FATBIN_WRAPPER_V2) {
        list = (const void *const *)w->extra;
        size_t max = mapped_extent(list) / sizeof *list;
        for (n = 0; list && n < max && list[n]; n++)
            ;
    } else if (w->version != RT_FATBIN_WRAPPER_V1) {
        fprintf(stderr, "loom: fatbin #%u: unknown wrapper version %d\n", fb->index, w->version);
        return cudaErrorInvalidKernelImage;
    }
    struct rt_fatbin_result *res = calloc(n ? n : 1, sizeof *res);
    struct rt_link_text *texts = calloc(n ? n : 1, sizeof *texts);
    cudaError_t e = res && texts ? cudaSuccess : cudaErrorMemoryAllocation;
    unsigned nt = 0;
    for (size_t i = 0; i < n && e == cudaSuccess; i++) {
        e = collect_ptx(list[i], &o, n > 1, &res[i]);
        if (e != cudaSuccess || !res[i].count)
            continue;
        struct rt_fatbin_ptx *p = &res[i].ptx[0];
        texts[nt++] = (struct rt_link_text){
            .text = p->text, .len = p->len, .name = "ptx",
            .optional = rt_link_defines(p->text, p->len, "__CNPRT_VERSION_NUMBER__"),
        };
    }
    if (e == cudaSuccess && nt == 0) {
        fprintf(stderr, "loom: fatbin #%u holds no PTX\n", fb->index);
        e = cudaErrorNoKernelImageForDevice;
    }
    if (e == cudaSuccess) {
        char err[256];
        if (rt_link_ptx(texts, nt, out_text, out_len, err, sizeof err) != 0) {
            fprintf(stderr, "loom: %s\n", err);
            e = cudaErrorInvalidPtx;
        } else if (nt > 1) {
            rt_log("fatbin #%u: device-linked the PTX of %u -rdc translation units", fb->index, nt);
        }
    }
    for (size_t i = 0; res && i < n; i++)
        rt_fatbin_result_free(&res[i]);
    free(res);
    free(texts);
    return e;
}

/* Writes the PTX to LOOM_DUMP_PTX/NAME (making the folder) and, when that works, makes
 * name that path, so that reports cite a file that exists. */
static void dump_ptx(char *name, size_t size, const char *text, size_t len)
{
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s/%s", rt.dump_dir, name) >= (int)sizeof path) return;
    if (mkdir(rt.dump_dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "loom: --dump-ptx: cannot make %s: %s\n", rt.dump_dir, strerror(errno));
        return;
    }
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(text, 1, len, f) == len;
    if (f && fclose(f) != 0) ok = false;
    if (!ok) {
        fprintf(stderr, "loom: --dump-ptx: cannot write %s: %s\n", path, strerror(errno));
        return;
    }
    snprintf(name, size, "%s", path);
}

cudaError_t rt_fatbin_load(struct rt_fatbin *fb)
{
    if (fb->tried)
        return fb->error;
    fb->tried = true;
    char *text = NULL;
    size_t len = 0;
    cudaError_t e = fatbin_text(fb, &text, &len);
    if (e == cudaSuccess) {
        char name[PATH_MAX];
        snprintf(name, sizeof name, "%s#%u.ptx", program_invocation_short_name, fb->index);
        if (rt.dump_dir) dump_ptx(name, sizeof name, text, len);
        enum loom_status s = loom_module_load_text(rt.dev, text, len, name, &fb->module);
        if (s != LOOM_OK) {
            fprintf(stderr, "loom: %s\n", loom_device_error(rt.dev));
            fb->module = NULL;
            e = s == LOOM_ERR_OUT_OF_MEMORY ? cudaErrorMemoryAllocation
                : s == LOOM_ERR_UNSUPPORTED ? cudaErrorNotSupported : cudaErrorInvalidPtx;
        } else {
            rt_log("fatbin #%u: loaded %s (%zu bytes of PTX, %u kernels)", fb->index, name, len,
                   loom_module_kernel_count(fb->module));
        }
    }
    free(text);
    for (struct rt_var *v = fb->vars; e == cudaSuccess && v; v = v->next_in_fatbin) {
        if (!v->managed)
            continue;
        uint64_t addr;
        size_t size;
        if (loom_module_get_global(fb->module, v->device_name, &addr, &size) == LOOM_OK)
            *v->managed_ptr = (void *)(uintptr_t)addr;
        else
            fprintf(stderr, "loom: managed variable %s not found in the module\n", v->device_name);
    }
    fb->error = e;
    return e;
}

cudaError_t rt_function_kernel(struct CUkern_st *f, struct loom_kernel **out_k)
{
    pthread_mutex_lock(&rt.lock);
    cudaError_t e = cudaSuccess;
    if (!f->kernel) {
        e = rt_fatbin_load(f->fb);
        if (e == cudaSuccess && loom_module_get_kernel(f->fb->module, f->device_name, &f->kernel) != LOOM_OK) {
            char name[1024];
            loom_demangle(f->device_name, name, sizeof name);
            if (strcmp(name, f->device_name))     /* the PTX name too: it is what the PTX would have */
                fprintf(stderr, "loom: kernel %s (%s) is not in the program's PTX\n", name, f->device_name);
            else
                fprintf(stderr, "loom: kernel %s is not in the program's PTX\n", name);
            f->kernel = NULL;
            e = cudaErrorInvalidDeviceFunction;
        }
    }
    *out_k = f->kernel;
    pthread_mutex_unlock(&rt.lock);
    return e;
}

cudaError_t rt_var_address(struct rt_var *v, uint64_t *out_addr, size_t *out_size)
{
    pthread_mutex_lock(&rt.lock);
    cudaError_t e = rt_fatbin_load(v->fb);
    if (e == cudaSuccess && loom_module_get_global(v->fb->module, v->device_name, out_addr, out_size) != LOOM_OK)
        e = cudaErrorInvalidSymbol;
    pthread_mutex_unlock(&rt.lock);
    return e;
}

void rt_registry_reset(void)
{
    pthread_mutex_lock(&rt.lock);
    for (struct rt_fatbin *fb = rt.fatbins; fb; fb = fb->next) {
        fb->module = NULL;     /* freed by loom_device_reset */
        fb->tried = false;
        fb->error = cudaSuccess;
        for (struct CUkern_st *f = fb->funcs; f; f = f->next_in_fatbin)
            f->kernel = NULL;
    }
    pthread_mutex_unlock(&rt.lock);
}
