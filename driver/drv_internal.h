/* drv_internal.h -- what the files of the driver API stand-in share: contexts, modules and
 * functions, the runtime's device state (rt_driver.h), entry and exit of every call. */
#ifndef DRV_INTERNAL_H
#define DRV_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "driver/drv_cuda.h"
#include "runtime/rt_driver.h"

/* Magic numbers tell live handles from foreign pointers; a destroyed handle keeps its
 * memory with the DEAD magic, so that a stale handle is refused rather than followed. */
#define DRV_CTX_MAGIC 0x4c444358u     /* "LDCX" */
#define DRV_MOD_MAGIC 0x4c444d44u     /* "LDMD" */
#define DRV_FUNC_MAGIC 0x4c444654u    /* "LDFT" */
#define DRV_DEAD_MAGIC 0x4c444544u    /* "LDED" */
#define DRV_CTX_DESTROYED 0x4c444378u   /* "LDCx": a destroyed context, which may still be made current */

/* A context. Every context is on the one Loom device; the primary one is static. */
struct CUctx_st {
    uint32_t magic;
    bool primary;
    unsigned flags;
    unsigned long long id;      /* cuCtxGetId: unique in the process */
};

struct CUmod_st {
    uint32_t magic;
    struct loom_module *lm;
    struct CUfunc_st *funcs;    /* handed out by cuModuleGetFunction */
};

struct CUfunc_st {
    uint32_t magic;
    struct CUmod_st *mod;
    struct loom_kernel *k;
    struct CUfunc_st *next;
};

/* The runtime's state, shared (libcudart.so.13 exports it). */
extern const struct rt_driver_hooks loom_rt_driver_hooks;
#define DRV_RT (&loom_rt_driver_hooks)

struct drv_state {
    pthread_mutex_t lock;
    bool initialized;           /* cuInit(0) succeeded */
    bool log;                   /* LOOM_LOG */
    struct CUctx_st primary;
    unsigned primary_refs;      /* cuDevicePrimaryCtxRetain minus Release */
    unsigned primary_flags;
    unsigned long long next_ctx_id;
};
extern struct drv_state drv;

/* The calling thread's current context (top of its stack), or NULL. */
CUcontext drv_ctx_current(void);
/* Whether c is a live context (the primary one only while retained). */
bool drv_ctx_valid(CUcontext c);
/* Whether c is a context handle at all, live or destroyed. */
bool drv_ctx_known(CUcontext c);

/* Starts a call: CUDA_ERROR_NOT_INITIALIZED before cuInit, CUDA_ERROR_INVALID_CONTEXT
 * without a valid current context (when need_ctx), then the device is created and held
 * (the runtime's rt_enter). */
CUresult drv_enter(bool need_ctx);
/* Ends a call: gives the device back and traces "NAME(args) = RESULT" under LOOM_LOG. */
CUresult drv_return(CUresult r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The driver's code for a runtime error (the same number, where the driver has it). */
CUresult drv_from_cuda(cudaError_t e);
/* The driver's code for a Loom status, through the runtime's sticky-fault handling. */
CUresult drv_check(enum loom_status s);
struct loom_device *drv_device(void);
/* Runs a runtime call on the driver's behalf (it leaves cudaGetLastError alone). */
#define DRV_CALL_RT(call) (DRV_RT->driver_call(true), drv_rt_result_ = (call), DRV_RT->driver_call(false), \
                           drv_from_cuda(drv_rt_result_))
extern _Thread_local cudaError_t drv_rt_result_;
const char *drv_error_name(CUresult r);
/* One line under LOOM_LOG. */
void drv_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Names an entry point Loom does not implement under LOOM_LOG (once); CUDA_ERROR_NOT_SUPPORTED. */
CUresult drv_unsupported(const char *name);

/* The handles handed out (drv_handles.c): a pointer is read as a handle only once known.
 * drv_handle_add fails only when memory runs out. */
bool drv_handle_add(const void *h);
void drv_handle_del(const void *h);
bool drv_handle_known(const void *h);

/* A live function handle, or NULL. */
struct CUfunc_st *drv_func(CUfunction f);

#endif
