/* rt_internal.h -- what the files of the CUDA runtime stand-in share: the one Loom device
 * (created on first use), per-thread error state, registered fatbinaries, kernels and variables. */
#ifndef RT_INTERNAL_H
#define RT_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "loom/loom.h"
#include "runtime/rt_cuda.h"
#include "runtime/rt_fatbin.h"

/* Magic numbers tell our handles from foreign pointers. */
#define RT_STREAM_MAGIC 0x4c4d5354u   /* "LMST" */
#define RT_EVENT_MAGIC 0x4c4d4556u    /* "LMEV" */
#define RT_FUNC_MAGIC 0x4c4d464eu     /* "LMFN" */
#define RT_FATBIN_MAGIC_ 0x4c4d4642u  /* "LMFB" */

struct CUstream_st {
    uint32_t magic;
    struct loom_stream *ls;     /* NULL: the legacy default stream */
    unsigned flags;
    int priority;
    unsigned long long id;
    bool per_thread;            /* a per-thread default stream (never destroyed by the user) */
};

struct CUevent_st {
    uint32_t magic;
    struct loom_event *le;
    unsigned flags;
};

/* A registered fatbinary: one module, loaded on first use (like CUDA's lazy loading). */
struct rt_fatbin {
    uint32_t magic;
    const struct rt_fatbin_wrapper *wrapper;
    struct loom_module *module;
    bool tried;                 /* load attempted (module or error set) */
    cudaError_t error;          /* why the load failed */
    unsigned index;             /* registration order, names the module in diagnostics */
    struct rt_var *vars;        /* its variables (managed ones get their pointer at load) */
    struct CUkern_st *funcs;    /* its kernels */
    struct rt_fatbin *next;
};

/* A registered kernel, found by its host stub address; its address is also the
 * cudaKernel_t and cudaFunction_t handed to the program. */
struct CUkern_st {
    uint32_t magic;
    struct rt_fatbin *fb;
    const void *host_fun;
    char *device_name;
    struct loom_kernel *kernel; /* resolved on first launch */
    struct CUkern_st *next_in_fatbin;
};

/* A registered __device__ / __constant__ / __managed__ variable, found by the
 * address of its host shadow. */
struct rt_var {
    struct rt_fatbin *fb;
    const void *host_var;
    char *device_name;
    size_t size;
    bool constant, managed;
    void **managed_ptr;         /* host pointer the program reads a managed variable through */
    struct rt_var *next_in_fatbin;
};

/* Values set with cudaDeviceSetLimit. */
struct rt_limits {
    size_t sync_depth, pending_launches, l2_fetch, persisting_l2;   /* recorded only */
};

struct rt_state {
    pthread_mutex_t lock;
    struct loom_device *dev;
    cudaError_t init_error;
    struct loom_device_props props;
    bool log;                   /* LOOM_LOG: trace API calls */
    bool stats;                 /* LOOM_STATS: per-kernel summary at exit */
    bool verbose;               /* LOOM_LOG >= 2: fatbin choices as well */
    const char *dump_dir;       /* LOOM_DUMP_PTX: write each PTX image loaded there (NULL: no) */
    bool leak_check;            /* LOOM_LEAK_CHECK: list unfreed allocations at exit */
    bool error_summary;         /* LOOM_ERROR_SUMMARY: compute-sanitizer's summary at exit */
    int error_exitcode;         /* LOOM_ERROR_EXITCODE: exit status when errors were found; 0: none */
    unsigned print_limit;       /* LOOM_PRINT_LIMIT: leaks listed at most; 0: all */
    unsigned fault_reports;     /* kernel faults reported (sticky errors), for the summary */
    unsigned device_flags;
    struct rt_limits limits;
    struct rt_fatbin *fatbins;
    bool sticky_reported;
    unsigned long long next_stream_id;
};

extern struct rt_state rt;

/* Creates the device on first use; returns cudaSuccess or the initialisation error,
 * or cudaErrorNotPermitted inside a host function (stream callback), where CUDA allows
 * no runtime calls. On success the calling thread holds the device against
 * cudaDeviceReset (a shared hold, taken once per thread) until rt_return or rt_leave:
 * a reset waits for the calls in progress, and calls made during one wait for it. */
cudaError_t rt_init(void);
/* rt_init, then the sticky error of an earlier kernel fault (reported once on stderr). */
cudaError_t rt_enter(void);
/* Gives up the calling thread's hold on the device (rt_init), if it has one. */
void rt_leave(void);
/* Gives up the thread's hold, then runs reset with the device held exclusively. */
cudaError_t rt_reset_exclusive(cudaError_t (*reset)(void));
/* Maps a Loom status to the CUDA error the real runtime gives in that situation. */
cudaError_t rt_error_from_status(enum loom_status s);
/* Kernel faults are the statuses that leave the device unusable until reset. */
bool rt_is_fault(enum loom_status s);
/* Whether p is the start of pinned host memory from cudaMallocHost or cudaHostAlloc. */
bool rt_is_pinned_alloc(const void *p);
/* Turns a Loom status into a CUDA error; a kernel fault becomes sticky and is reported. */
cudaError_t rt_check(enum loom_status s);
/* Records e as the thread's last error (unless success), traces the call under
 * LOOM_LOG, gives up the thread's hold on the device (rt_leave), and returns e. fmt
 * describes the call. */
cudaError_t rt_return(cudaError_t e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Logs one line under LOOM_LOG. */
void rt_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints "loom: NAME is not supported by Loom" once per name; returns cudaErrorNotSupported. */
cudaError_t rt_unsupported(const char *name);
const char *rt_error_name(cudaError_t e);

/* Streams: resolves a cudaStream_t (NULL, cudaStreamLegacy, cudaStreamPerThread, a
 * handle) to Loom's stream; per_thread selects the meaning of NULL (the _ptsz/_ptds
 * entry points). Returns cudaErrorInvalidResourceHandle for a foreign pointer. */
cudaError_t rt_stream_resolve(cudaStream_t s, bool per_thread, struct loom_stream **out_ls);

/* Host work on a stream (NULL: the legacy default stream). */
enum loom_status rt_add_host_func(struct loom_stream *ls, void (*fn)(void *), void *data);

/* 2-D copies and sets on a stream (rt_memory.c): checked as a whole, then one operation per
 * row; the synchronous forms (async false) wait for the stream. */
cudaError_t rt_copy_2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                       enum cudaMemcpyKind kind, cudaStream_t stream, bool per_thread, bool async);
cudaError_t rt_set_2d(void *p, size_t pitch, int value, size_t width, size_t height, cudaStream_t stream,
                      bool per_thread, bool async);
/* Waits for the work on a stream (the legacy default stream: all work). */
cudaError_t rt_stream_wait(cudaStream_t stream, bool per_thread);
/* Registry lookups. */
struct CUkern_st *rt_function_find(const void *host_fun_or_handle);
struct rt_var *rt_var_find(const void *host_var);
/* Loads the module of a fatbinary if not yet done (under rt.lock). */
cudaError_t rt_fatbin_load(struct rt_fatbin *fb);
/* Resolves a registered kernel to Loom's kernel, loading its module. */
cudaError_t rt_function_kernel(struct CUkern_st *f, struct loom_kernel **out_k);
/* Device address and size of a registered variable, loading its module. */
cudaError_t rt_var_address(struct rt_var *v, uint64_t *out_addr, size_t *out_size);
/* Unloads every module (cudaDeviceReset); registrations stay. */
void rt_registry_reset(void);

/* Launch shared by every launch entry point. */
cudaError_t rt_launch(const void *func, dim3 grid, dim3 block, void **args, size_t shared, cudaStream_t stream,
                      bool per_thread, bool cooperative, const char *api);

/* Frees allocations whose cudaFreeAsync became due (called from API entry points). */
void rt_memory_collect(void);
/* Forgets pinned allocations and pending frees (cudaDeviceReset freed them all). */
void rt_memory_reset(void);
/* Stream ordered free on the device (cudaFreeAsync). */
cudaError_t rt_memory_free_deferred(void *ptr, struct loom_stream *ls);

/* Clears the thread's last error and the fault-report flag (cudaDeviceReset). */
void rt_state_reset_errors(void);

/* Prints the per-kernel summary (LOOM_STATS). */
void rt_stats_print(void);

#endif
