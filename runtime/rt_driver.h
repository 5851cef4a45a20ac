/* rt_driver.h -- what Loom's libcudart.so.13 lends Loom's libcuda.so.1 (driver/): its one device
 * and its stream handles, so that a program using both APIs sees one device (docs/INTERNALS.md). */
#ifndef RT_DRIVER_H
#define RT_DRIVER_H

#include <stdbool.h>

#include "loom/loom.h"
#include "runtime/rt_cuda.h"

#define RT_DRIVER_HOOKS_VERSION 1

/* Exported by libcudart.so.13 as loom_rt_driver_hooks (a Loom-private name). */
struct rt_driver_hooks {
    unsigned version;           /* RT_DRIVER_HOOKS_VERSION */
    /* Creates the device on first use and holds it against cudaDeviceReset until leave;
     * fails with the initialisation error or an earlier kernel's sticky fault. */
    cudaError_t (*enter)(void);
    void (*leave)(void);
    struct loom_device *(*device)(void);
    /* A Loom status as a CUDA error; a kernel fault becomes sticky and is reported. */
    cudaError_t (*check)(enum loom_status s);
    /* cudaStream_t (NULL, cudaStreamLegacy, cudaStreamPerThread, a handle) to Loom's stream. */
    cudaError_t (*stream_resolve)(cudaStream_t s, bool per_thread, struct loom_stream **out_ls);
    enum loom_status (*add_host_func)(struct loom_stream *ls, void (*fn)(void *), void *data);
    /* While on, runtime calls made by this thread leave its cudaGetLastError alone (the
     * driver API has no last error). */
    void (*driver_call)(bool on);
    bool (*logging)(void);
    /* Whether the program called the runtime in this thread (this_thread) or in any: the
     * runtime's calls make the primary context current and keep it active. */
    bool (*runtime_used)(bool this_thread);
};

#endif
