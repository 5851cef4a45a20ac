/* sched.h -- internals of the device, module and launch objects behind the
 * public API (include/loom/loom.h). */
#ifndef LOOM_SCHED_H
#define LOOM_SCHED_H

#include <pthread.h>

#include "emu/emu_exec.h"
#include "loom/loom.h"
#include "memory/mem.h"
#include "sched/sched_preset.h"

struct loom_kernel {
    struct loom_module *mod;
    const struct emu_func *fn;
    const struct ptx_func *ir;
    size_t max_dynamic_shared;
    unsigned nparams;
    struct loom_param_info *params;
    unsigned param_bytes;
};

struct loom_module {
    struct loom_device *dev;
    struct ptx_module *ir;
    struct emu_program *prog;
    unsigned nkernels;
    struct loom_kernel *kernels;
    unsigned nglobals;
    const struct ptx_symbol **global_syms;
    uint64_t *global_addrs;
    struct loom_module *next;
};

struct sched_stats_entry {
    char *kernel;
    struct loom_kernel_stats s;
    struct sched_stats_entry *next;
};

struct loom_device {
    struct loom_device_config cfg;
    const struct sched_preset *preset;
    struct loom_device_props props;
    struct mem_space *mem;
    struct emu_host *host;
    unsigned workers;
    pthread_mutex_t lock;
    struct loom_module *modules;
    enum loom_status sticky;
    char sticky_msg[1024];
    uint32_t next_gridid;
    struct sched_stats_entry *stats;
    uint64_t stack_bytes;
};

#endif
