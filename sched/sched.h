/* sched.h -- internals of the device, module and launch objects behind the
 * public API (include/loom/loom.h). */
#ifndef LOOM_SCHED_H
#define LOOM_SCHED_H

#include <hwloc.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>

#include "emu/emu_exec.h"
#include "emu/emu_report.h"
#include "loom/loom.h"
#include "memory/mem.h"
#include "sched/sched_preset.h"

/* ---- Scheduler (sched_pool.c) ------------------------------------------------ */

enum sched_op_kind { SCHED_OP_KERNEL, SCHED_OP_COPY, SCHED_OP_SET, SCHED_OP_HOST, SCHED_OP_RECORD_EVENT,
                     SCHED_OP_WAIT_EVENT };
enum sched_op_state { SCHED_PENDING, SCHED_RUNNING, SCHED_DONE };

struct sched_grid;

/* One unit of stream work. */
struct sched_op {
    struct sched_op *next;          /* in its stream */
    struct loom_stream *stream;
    enum sched_op_kind kind;
    enum sched_op_state state;
    uint64_t seq;                   /* global submission order */
    void *dst; const void *src; size_t n; int value;   /* COPY, SET */
    void (*fn)(void *); void *data;                    /* HOST */
    struct loom_event *event; uint64_t event_gen;      /* RECORD_EVENT, WAIT_EVENT */
    struct sched_grid *grid;                           /* KERNEL */
};

/* A running kernel: CTAs are taken from `next` by workers. */
struct sched_grid {
    struct emu_launch L;
    uint8_t *params;
    struct loom_kernel *k;
    struct sched_op *op;
    uint64_t nctas;
    _Atomic uint64_t next, done;
    _Atomic int faulted;
    struct emu_fault fault;
    _Atomic int refs;               /* the op, plus each worker context holding it */
    bool finished;
    struct sched_grid *next_active;
    double t_start, seconds;
    void (*on_done)(struct sched_grid *g);  /* called under the scheduler lock */
    unsigned interrupts_seen;       /* s->interrupts when the grid started */
    _Atomic uint64_t warp_inst, thread_inst, diverge, barrier_waits, parks, ctas_run, max_resident;
};

/* Which CTA a worker runs next: the plug-in point for concurrent-kernel policies. */
struct sched;
struct sched_policy {
    const char *name;
    struct sched_grid *(*pick)(struct sched *s, unsigned worker);   /* under s->lock */
};

struct sched {
    pthread_mutex_t lock;
    pthread_cond_t work_cv, done_cv;
    pthread_t pool;
    unsigned workers;
    bool pin, shutdown;
    hwloc_topology_t topo;
    const struct sched_policy *policy;
    struct loom_stream *streams, *default_stream;
    struct sched_grid *active;
    uint64_t seq, pending;
    unsigned max_resident_per_worker;
    _Atomic uint64_t resident_now;
    double timeout_s;
    _Atomic unsigned interrupts;    /* loom_device_interrupt() calls: grids started before stop;
                                     * lock-free atomic, so a signal handler may add to it */
    struct emu_host *host;          /* printf output to flush before host callbacks */
    _Atomic unsigned running;       /* grids started and not finished */
};

struct loom_stream {
    struct loom_stream *next;
    struct loom_device *dev;
    unsigned flags;
    int priority;
    bool is_default;
    struct sched_op *head, *tail;
    uint64_t submitted_seq, completed_seq;
};

struct loom_event {
    struct loom_device *dev;
    unsigned flags;
    uint64_t record_gen, done_gen;
    double t;
};

double sched_now(void);
struct sched *sched_create(unsigned workers, bool pin);
void sched_destroy(struct sched *s);
void sched_submit(struct sched *s, struct sched_op *op);
void sched_wait_idle(struct sched *s);
void sched_wait_stream(struct sched *s, struct loom_stream *st, uint64_t seq);
bool sched_stream_idle(struct sched *s, struct loom_stream *st);
struct loom_stream *sched_stream_new(struct sched *s, unsigned flags, int priority);
void sched_stream_free(struct sched *s, struct loom_stream *st);

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
    _Atomic enum loom_status sticky;   /* set by a worker; sticky_msg is written before it */
    char sticky_msg[2048];
    uint32_t next_gridid;
    struct sched_stats_entry *stats;
    uint64_t stack_bytes, fifo_bytes, heap_bytes;
    struct sched *sched;
    struct emu_check *checker;      /* initcheck shadow (cfg.initcheck), else NULL */
};

#endif
