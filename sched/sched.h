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
#include "observe/trace.h"
#include "sched/sched_preset.h"

/* ---- Scheduler (sched_pool.c) ------------------------------------------------ */

enum sched_op_kind { SCHED_OP_KERNEL, SCHED_OP_COPY, SCHED_OP_SET, SCHED_OP_HOST, SCHED_OP_RECORD_EVENT,
                     SCHED_OP_WAIT_EVENT };
enum sched_op_state { SCHED_PENDING, SCHED_RUNNING, SCHED_DONE };

struct sched_grid;

/* What an operation reads and writes, for the policies that reorder (sched_policy.c): a
 * region (a device allocation by its base, or one of the SCHED_KEY_* regions) and how. */
enum { SCHED_READ = 1, SCHED_WRITE = 2 };
#define SCHED_KEY_ALL 0             /* all memory: what cannot be told apart */
#define SCHED_KEY_HOST 1            /* host memory outside device allocations (copies) */
#define SCHED_KEY_PRINTF 2          /* the printf buffer: kernels that print keep their order */
struct sched_seg {
    uint64_t key;
    unsigned mode;
    bool exact;                     /* [lo, hi) is what it touches (a copy, a set, a declared range, a
                                     * variable); else the allocation [lo, hi) holds it, reached from
                                     * the pointer argument ptr (the race check compares those) */
    uint64_t lo, hi, ptr;
};

/* One unit of stream work. */
struct sched_op {
    struct sched_op *next, *sprev;  /* in its stream */
    struct loom_stream *stream;
    enum sched_op_kind kind;
    enum sched_op_state state;
    uint64_t seq;                   /* global submission order */
    void *dst; const void *src; size_t n; int value;   /* COPY, SET */
    void (*fn)(void *); void *data;                    /* HOST */
    struct loom_event *event; uint64_t event_gen;      /* RECORD_EVENT, WAIT_EVENT */
    struct sched_grid *grid;                           /* KERNEL */
    const char *trace_name;         /* COPY, SET: its slice's name in the trace (tracing on) */
    /* Policies that track every unfinished operation (serial, acs, dag; sched_policy.c): */
    struct sched_op *gnext, *gprev; /* unfinished operations in submission order */
    struct sched_seg *segs;         /* KERNEL, COPY, SET: what it touches (reordering policies); */
    unsigned nsegs;                 /* none: all memory, read and written */
    unsigned npred;                 /* unfinished operations it must follow */
    struct sched_op **succ;         /* those that follow it */
    unsigned nsucc, cap_succ;
    uint64_t mark;                  /* the seq of the last operation that took an edge from it */
    struct sched_dep_ref *refs;     /* the regions it is in (sched_policy.c) */
    unsigned nrefs;
    struct sched_op *rnext;         /* the ready list (dag) */
    bool in_ready;
    uint64_t race_mark;             /* the race check's walk (sched_check_races) */
    unsigned deps_found;            /* acs, dag: the unfinished operations it had to follow when queued */
    bool drain;                     /* starts only when every earlier operation is done (an edge
                                       could not be recorded) */
    /* Virtual time (sched_vtrace.c): */
    uint64_t vt_index;              /* its record */
    double vt_s;                    /* COPY, SET: bytes over its engine's bandwidth */
    unsigned vt_engine;             /* 0 host to device, 1 device to host, 2 on the device */
};

/* Residency over time, sampled while a grid runs when statistics are on: bins of
 * bin_ns from the grid's start, each the sum of `count` samples of the CTAs resident on
 * the workers and of the workers running one. Samples are due every bin_ns / 4; when
 * the bins run out, pairs merge and bin_ns doubles, so any run length fits. */
#define SCHED_TIMELINE_BINS LOOM_TIMELINE_BINS
struct sched_timeline {
    _Atomic int busy;               /* the sampling worker's claim: others skip the sample */
    _Atomic uint64_t next_ns;       /* when the next sample is due (sched_now_ns) */
    uint64_t start_ns, bin_ns;
    unsigned nbins;
    double resident[SCHED_TIMELINE_BINS], running[SCHED_TIMELINE_BINS];
    unsigned count[SCHED_TIMELINE_BINS];
};

/* A running kernel. Workers claim CTAs from `next` in chunks and add the CTAs they
 * finished to `done` in batches; the fields that workers write are on cache lines of
 * their own, apart from those they only read. */
struct sched_grid {
    struct emu_launch L;
    uint8_t *params;
    struct loom_kernel *k;
    struct sched_op *op;
    uint64_t nctas;
    _Atomic int faulted;            /* stop: no CTA starts or runs on */
    _Atomic int fault_set;          /* fault holds the grid's first report */
    struct emu_fault fault;
    uint64_t assert_wave;           /* after a failed assert the grid runs on when it has at most
                                       this many CTAs (those the GPU holds at once), for at most
                                       SCHED_ASSERT_GRACE_NS; 0: it stops at once */
    _Atomic uint64_t assert_ns;     /* when the first assert failed (sched_now_ns); 0: none */
    _Atomic int refs;               /* the op, plus each worker context holding it */
    bool finished;
    struct sched_grid *next_active;
    double t_start, seconds;
    void (*on_done)(struct sched_grid *g);  /* called under the scheduler lock */
    unsigned interrupts_seen;       /* s->interrupts when the grid started */
    _Alignas(64) _Atomic uint64_t next;     /* CTAs claimed (may pass nctas) */
    _Alignas(64) _Atomic uint64_t done;     /* CTAs finished, abandoned after a fault or never started */
    _Alignas(64) _Atomic uint64_t warp_inst, thread_inst, diverge, barrier_waits, parks, ctas_run, max_resident;
    _Atomic uint64_t chunks, steals, wakeups, admits_parked;
    struct sched_timeline tl;
    atomic_flag simt_busy;          /* guards simt (statistics on) */
    struct emu_simt_stats simt;
    const char *trace_name;         /* the kernel's short name, interned in the trace (tracing on) */
    /* A debugged launch (debug/debug.c): the worker that starts it runs every CTA
     * itself through this call, as a copy is run, instead of handing CTAs out; it
     * records a fault with sched_grid_fault. NULL: the usual way. */
    void (*run_alone)(struct sched_grid *g);
    void *run_alone_ctx;
    bool overlapped;                /* it ran while another kernel ran (the policy's statistics) */
    uint32_t *cta_inst;             /* virtual time: warp instructions of each CTA (by index), or NULL */
};

/* The scheduling policy (sched_policy.c; docs/SCHEDULING.md): which queued operations may
 * start, and which running grid's CTAs a worker takes next.
 *   fifo    each stream in order, streams at once (CUDA's rules): the default
 *   serial  one operation at a time device-wide, in submission order
 *   acs     ACS's in-order window: an operation among the first `window` unfinished ones
 *           starts when no earlier unfinished one conflicts with it (RAW, WAR, WAW)
 *   dag     GrCUDA's rules: the same dependencies, no window
 * Under acs and dag the order of a stream's kernels, copies and memsets is their data
 * dependencies; event records and waits and host functions keep the stream's order (and
 * the legacy default stream's), and host synchronisation drains all earlier work.
 * A worker asks pick for a grid when it holds no CTA to continue with; it then claims a
 * chunk of that grid's CTAs and keeps taking chunks of the same grid, without the lock,
 * until none are left. All calls are made under s->lock. */
struct sched;
enum sched_policy_kind { SCHED_POLICY_FIFO, SCHED_POLICY_SERIAL, SCHED_POLICY_ACS, SCHED_POLICY_DAG };
struct sched_policy {
    const char *name;
    enum sched_policy_kind kind;
    bool track;                     /* keeps every unfinished operation in submission order */
    bool reorders;                  /* operations of a stream may start out of order: they need segments */
    void (*submit)(struct sched *s, struct sched_op *op);   /* op is queued (track) */
    bool (*ready)(struct sched *s, const struct sched_op *op);
    struct sched_grid *(*pick)(struct sched *s, unsigned worker);
    void (*done)(struct sched *s, struct sched_op *op);     /* op is finished, before it is freed (track) */
};
/* A policy by its spec, NAME[:KEY=VALUE,...]; NULL or "" is fifo. False with a one-line
 * message naming the valid ones. */
struct sched_policy_choice { const struct sched_policy *policy; unsigned window; char spec[64]; };
bool sched_policy_parse(const char *spec, struct sched_policy_choice *out, char *err, size_t errlen);

/* What the policies found, for the statistics and the summary line. */
struct sched_policy_stats {
    uint64_t ops, kernels, deps, overlapped, check_ns, checked, races;
    uint64_t first_ns, last_ns;     /* the first operation's start, the last one's end */
};

/* What one worker shares with the others, on cache lines of its own: its range of
 * claimed CTAs not started yet, which idle workers steal from, and its count of
 * resident CTAs (for the residency timeline). */
struct sched_wslot {
    _Alignas(64) pthread_mutex_t lock;      /* guards grid, lo and hi */
    struct sched_grid *grid;                /* CTAs lo .. hi-1 of it; NULL when none */
    _Atomic uint64_t lo, hi;                /* read without the lock to skip empty ranges */
    _Atomic unsigned resident;
    _Atomic uint64_t host_t0_ns;            /* when its running host function began; 0: none */
    _Atomic uint64_t finished;              /* CTAs it has finished (the no-progress watchdog) */
    void (*_Atomic host_fn)(void *);        /* that function, for the watchdog's report */
};

/* How to start the pool. */
struct sched_config {
    unsigned workers;               /* 0: one per core the process may run on */
    bool pin;                       /* bind each worker to one core (hwloc) */
    bool stats;                     /* sample residency over time */
    unsigned coresident;            /* CTAs the emulated device holds at once (all SMs) */
    double timeout_s;
    bool progress;                  /* a progress line for long kernels (sched_watch.c) */
    double watchdog_s;              /* the no-progress note (sched_watch.c); 0: none */
    struct emu_host *host;          /* printf output to flush before host callbacks */
    struct loom_trace *trace;       /* the Chrome trace (observe/trace.h), or NULL */
    struct sched_policy_choice policy;   /* NULL policy: fifo */
    bool timing_model;              /* record for virtual time (sched_vtrace.c) */
    bool check;                     /* report operations of unordered streams that conflict */
    bool summary;                   /* the summary line will be asked for: time the operations */
};

struct sched_dep_state;

struct sched {
    pthread_mutex_t lock;
    pthread_cond_t work_cv, done_cv, ready_cv;
    pthread_t pool;
    unsigned workers;               /* decided by the pool thread (ready) when the config says 0 */
    bool ready;                     /* workers, max_resident_per_worker and wslots are set */
    bool pin, shutdown, stats;
    unsigned coresident;
    hwloc_topology_t topo;
    unsigned *pus, npus;            /* one PU per usable core, for pinning */
    const struct sched_policy *policy;
    unsigned window;                /* acs: the window (0: none) */
    char policy_spec[64];
    struct sched_op *ghead, *gtail; /* unfinished operations in submission order (policy->track) */
    struct sched_op *ready_head;    /* dag: operations whose predecessors are done */
    struct sched_dep_state *deps;   /* acs, dag: the regions' last writers and readers */
    struct sched_policy_stats pstats;
    bool check;                     /* the race check (sched_check_races) */
    bool track;                     /* keeps ghead .. gtail (the policy, or the race check) */
    bool timed;                     /* notes the first operation's start and the last one's end */
    uint64_t races;                 /* conflicts it reported */
    struct sched_vtrace *vtrace;    /* virtual time: the record, or NULL */
    uint64_t vt_deps;               /* the dependencies the virtual schedule used */
    struct loom_stream *streams, *default_stream;
    struct sched_grid *active;
    uint64_t seq, pending;
    unsigned max_resident_per_worker;
    struct sched_wslot *wslots;     /* one per worker */
    struct sched_wslot slot0;       /* wslots when allocating them failed (one worker) */
    _Atomic uint64_t resident_now;
    double timeout_s;
    _Atomic unsigned interrupts;    /* loom_device_interrupt() calls: grids started before stop;
                                     * lock-free atomic, so a signal handler may add to it */
    struct emu_host *host;          /* printf output to flush before host callbacks */
    _Atomic unsigned running;       /* grids started and not finished */
    pthread_t watchdog;             /* sched_watch.c, only with a time limit or progress */
    pthread_cond_t watch_cv;
    bool watching;
    bool progress;                  /* the watchdog keeps a progress line on stderr */
    double watchdog_s;              /* no CTA finished for this long: a note of where warps are */
    _Atomic unsigned notes;         /* notes asked for: each worker describes its residents */
    bool progress_shown;            /* it is on the screen now (under lock) */
    struct loom_trace *trace;       /* the Chrome trace (observe/trace.h), or NULL: CTA spans, copies,
                                     * host functions and event records go there */
    unsigned streams_made;          /* streams created, for their numbers (under lock) */
};

struct loom_stream {
    struct loom_stream *next;
    struct loom_device *dev;
    unsigned flags;
    int priority;
    bool is_default;
    unsigned id;                    /* 0 the default stream, then 1, 2 ... in creation order */
    struct sched_op *head, *tail;
    uint64_t submitted_seq, completed_seq;
    struct sched_op *last_sync;     /* acs, dag: its latest unfinished event record or wait, or host function */
};

struct loom_event {
    struct loom_device *dev;
    unsigned flags;
    uint64_t record_gen, done_gen;
    double t;
    unsigned refs;          /* pending records and waits that name it (under the scheduler lock) */
    bool destroyed;         /* loom_event_destroy was called: freed with the last of them */
};

double sched_now(void);
uint64_t sched_now_ns(void);
struct sched *sched_create(const struct sched_config *cfg);
unsigned sched_workers(struct sched *s);
void sched_destroy(struct sched *s);
/* Whether the device's policy reorders a stream's operations: launches, copies and sets then
 * carry segments (sched_op.segs). */
bool sched_reorders(const struct sched *s);
/* Whether CUDA orders the work of streams a and b by their submission: the same stream, or
 * the legacy default stream and a blocking stream (sched_policy.c). */
bool sched_streams_ordered(const struct loom_stream *a, const struct loom_stream *b);
/* Whether launches, copies and sets need segments: a policy that reorders, or the race check. */
bool sched_needs_segments(const struct sched *s);
/* The race check (loom_device_config.sched_check): op, just queued, against every unfinished
 * operation that CUDA does not order before it; a conflict is reported on stderr (under
 * s->lock; sched_policy.c). */
void sched_check_races(struct sched *s, struct sched_op *op);
/* sched_policy.c for sched_pool.c: the policy's state (sched_create, sched_destroy), and the
 * dag's ready list: its first operation that may_start, taken off the list. */
bool sched_policy_init(struct sched *s, const struct sched_policy_choice *c);
void sched_policy_fini(struct sched *s);
struct sched_op *sched_ready_take(struct sched *s, bool (*may_start)(struct sched *, const struct sched_op *, void *),
                                  void *ctx);
/* The policy's summary (under the lock), and its spec. */
void sched_policy_summary(struct sched *s, struct sched_policy_stats *out, char *spec, size_t size);
/* Virtual time (sched_vtrace.c): the record of a device's operations and host waits, the
 * costs of its kernels, and their schedule in virtual time under the device's policy. */
struct sched_vtrace;
struct sched_vtime_summary {
    double makespan_s, critical_path_s, sm_util;
    unsigned overlapped, kernels;
    uint64_t deps, ctas;
};
struct sched_vtrace *sched_vtrace_create(void);
void sched_vtrace_destroy(struct sched_vtrace *t);
void sched_vtrace_op(struct sched *s, struct sched_op *op);             /* under s->lock */
void sched_vtrace_sync(struct sched *s, const struct loom_stream *st);  /* under s->lock; NULL: all */
/* A completed kernel's per-CTA durations (taken: malloc'd), its residency per SM (under s->lock). */
void sched_vtrace_kernel(struct sched *s, uint64_t index, double *cta_s, uint64_t nctas, unsigned ctas_per_sm,
                         const char *name);
bool sched_vtrace_simulate(struct sched *s, unsigned sms, struct sched_vtime_summary *out, char *err, size_t errlen);
/* The host waits (loom_event_synchronize ...): a marker in the virtual-time record. */
void sched_note_host_wait(struct sched *s, const struct loom_stream *st);
/* Queues op (taking ownership) and returns its sequence number. */
uint64_t sched_submit(struct sched *s, struct sched_op *op);
void sched_event_unref_locked(struct loom_event *e);
void sched_wait_idle(struct sched *s);
/* True on a worker while it runs a host function (SCHED_OP_HOST). */
bool sched_in_host_func(void);
/* A debugged launch's fault (run_alone): the first is kept, the grid stops. */
void sched_grid_fault(struct sched_grid *g, const struct emu_fault *f);
/* Erases the progress line (under s->lock, with s->progress_shown). */
void sched_progress_erase(struct sched *s);
/* Records msg as the calling thread's last API error and returns s (loom_api.c). */
enum loom_status sched_api_fail(enum loom_status s, const char *msg);
/* The host-function watchdog (sched_watch.c), started when the pool has a time limit. */
bool sched_watch_start(struct sched *s);
void sched_watch_stop(struct sched *s);
/* Waits until st has done its operations up to seq (0: all submitted so far). */
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
    struct ptx_kernel_access *access;   /* how it uses its pointer parameters (policies that
                                         * reorder; made on first use, under dev->lock) */
    bool access_done;
};

struct loom_module {
    struct loom_device *dev;
    struct ptx_module *ir;
    struct emu_program *prog;
    struct emu_program *dprog;      /* a debugger's device: the module decoded plain (no folding, no
                                     * fusion) for the launches it attaches to (debug/debug.c) */
    unsigned nkernels;
    struct loom_kernel *kernels;
    unsigned nglobals;
    const struct ptx_symbol **global_syms;
    uint64_t *global_addrs;
    struct loom_module *next;
    char *text;                     /* the PTX, kept with counters on (per-line statistics) */
    size_t text_len;
    uint32_t *line_off;             /* offsets of its lines (built on first use), nlines + 1 */
    uint32_t nlines;
};

/* The offsets of m's lines (line_off, nlines), made on first use; false when m keeps no
 * text or memory ran out (loom_stats.c). */
bool sched_module_lines(struct loom_module *m);
/* Line `line` (1-based) of m's PTX: [*a, *b), without its newline; false when m keeps no
 * text or has no such line. */
bool sched_module_line(struct loom_module *m, unsigned line, const char **a, const char **b);

struct sched_stats_entry {
    char *kernel;
    struct loom_kernel_stats s;
    double longest;                 /* the launch whose timeline s holds */
    struct emu_simt_stats simt;     /* over its launches (s.simt is made of it) */
    struct sched_stats_entry *next;
    /* Counters on (loom_stats.c): the lines (s.lines), and JSON fragments made at the
     * kernel's first launch, while its module is loaded. */
    struct loom_line_stats *lines;
    unsigned nlines, lines_cap;
    char *demangled, *ptx_path;
    unsigned grid[3], block[3];
    size_t dyn_shared;
    unsigned regs, shared_block;
    char *src_json, *cfg_json, *warps_json;
};

/* loom_stats.c: the counters' share of a finished grid's statistics (under dev->lock),
 * and what an entry owns. */
void sched_stats_count(struct sched_stats_entry *e, const struct sched_grid *g);
void sched_stats_entry_free(struct sched_stats_entry *e);

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
    uint64_t sticky_stamp;             /* when it was set, on the clock of loom_device_error */
    uint32_t next_gridid;
    struct sched_stats_entry *stats;
    struct loom_launch_stats *launches;     /* stats_launches: one per completed launch */
    size_t nlaunches, launches_cap;
    uint64_t stack_bytes, fifo_bytes, heap_bytes;
    _Atomic unsigned host_used;     /* EMU_USES_* of every kernel launched since create or reset */
    struct sched *sched;
    struct emu_check *checker;      /* initcheck shadow (cfg.initcheck), else NULL */
    struct emu_simt_cfg simt;       /* the SIMT policy (cfg.simt or LOOM_SIMT) */
    struct loom_trace *trace;       /* cfg.trace_path's recorder (observe/trace.h), or NULL */
};

#endif
