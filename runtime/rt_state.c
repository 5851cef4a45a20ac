/* rt_state.c -- the runtime's process state: the Loom device created on first use from
 * LOOM_* environment variables, per-thread last errors, sticky faults, tracing, the exit summary. */
#include <errno.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/rt_driver.h"
#include "runtime/rt_internal.h"
#include "loom/debug.h"

struct rt_state rt = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .limits = {
        .sync_depth = 2,
        .pending_launches = 2048,
        .l2_fetch = 64,
    },
    .next_stream_id = 16,
};

static _Thread_local cudaError_t last_error;
/* Set while the driver stand-in calls into the runtime (rt_driver.h). */
static _Thread_local bool driver_call;
/* Whether the program itself (not the driver stand-in) called the runtime: in this thread,
 * in any thread. CUDA's runtime makes the primary context current in a thread it runs in. */
static _Thread_local bool thread_used_runtime;
static atomic_bool process_used_runtime;
/* cudaDeviceReset frees what concurrent calls may be using (modules, allocations): API
 * calls hold this lock shared from rt_init to rt_return, a reset holds it exclusively.
 * Writers are preferred, so that a stream of launches cannot hold a reset off. */
static pthread_rwlock_t reset_lock;
static _Thread_local bool holds_reset_lock;
/* A sticky fault is handed to each thread by cudaGetLastError once: the thread
 * remembers the fault generation it has seen. */
static _Thread_local unsigned sticky_seen;
static unsigned sticky_generation;
static pthread_once_t init_once = PTHREAD_ONCE_INIT;

static const struct {
    int value;
    const char *name, *message;
} errors[] = {
#define RT_ERROR(value, name, message) { value, #name, message },
#include "runtime/rt_errors.def"
#undef RT_ERROR
};

static int error_index(cudaError_t e)
{
    size_t lo = 0, hi = sizeof errors / sizeof errors[0];
    while (lo < hi) {   /* the table is sorted by value */
        size_t mid = (lo + hi) / 2;
        if (errors[mid].value == (int)e)
            return (int)mid;
        if (errors[mid].value < (int)e)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

const char *rt_error_name(cudaError_t e)
{
    int i = error_index(e);
    return i < 0 ? "unrecognized error code" : errors[i].name;
}

const char *cudaGetErrorName(cudaError_t error)
{
    return rt_error_name(error);
}

const char *cudaGetErrorString(cudaError_t error)
{
    int i = error_index(error);
    return i < 0 ? "unrecognized error code" : errors[i].message;
}

static bool env_flag(const char *name)
{
    const char *v = getenv(name);
    return v && *v && strcmp(v, "0") != 0;
}

static void log_env(void)
{
    const char *v = getenv("LOOM_LOG");
    rt.log = v && *v && strcmp(v, "0") != 0;
    rt.verbose = rt.log && atoi(v) >= 2;
}

/* LOOM_LOG is read when the library loads, so that the registrations the
 * program's start-up code makes are traced too. */
__attribute__((constructor)) static void read_env(void)
{
    log_env();
    pthread_rwlockattr_t attr;
    pthread_rwlockattr_init(&attr);
    pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
    pthread_rwlock_init(&reset_lock, &attr);
    pthread_rwlockattr_destroy(&attr);
}

/* The leaks of --leak-check full, as compute-sanitizer lists them (on stdout, "=========" lines). */
struct leaks {
    unsigned n, printed;
    uint64_t bytes;
};

/* 1234567 -> "1,234,567" (compute-sanitizer's way of writing sizes) */
static const char *grouped(uint64_t v, char *buf, size_t size)
{
    char digits[32];
    int n = snprintf(digits, sizeof digits, "%llu", (unsigned long long)v), o = 0;
    for (int i = 0; i < n && o + 2 < (int)size; i++) {
        if (i && (n - i) % 3 == 0) buf[o++] = ',';
        buf[o++] = digits[i];
    }
    buf[o] = 0;
    return buf;
}

static void leak_one(const struct loom_alloc_info *a, void *p)
{
    struct leaks *l = p;
    l->n++;
    l->bytes += a->size;
    if (rt.print_limit && l->printed >= rt.print_limit) return;
    l->printed++;
    char b[40];
    const void *ptr = (const void *)(uintptr_t)a->addr;
    printf("========= Leaked %s bytes at %p\n=========     allocated by %s (allocation #%u) and never freed\n"
           "========= \n", grouped(a->size, b, sizeof b), ptr,
           rt_is_pinned_alloc(ptr) ? "cudaMallocHost or cudaHostAlloc" : a->managed ? "cudaMallocManaged"
                                                                        : "cudaMalloc or cudaMallocAsync", a->id);
}

/* compute-sanitizer's end of run: leaks (--leak-check full), then the error summary; with
 * --error-exitcode, that status when there were errors. */
static void error_summary(void)
{
    struct leaks l = { 0 };
    if (rt.leak_check) loom_foreach_allocation(rt.dev, leak_one, &l);
    pthread_mutex_lock(&rt.lock);
    unsigned nerr = rt.fault_reports + l.n;
    pthread_mutex_unlock(&rt.lock);
    if (rt.leak_check)
        printf("========= LEAK SUMMARY: %llu bytes leaked in %u allocations\n", (unsigned long long)l.bytes, l.n);
    printf("========= ERROR SUMMARY: %u error%s\n", nerr, nerr == 1 ? "" : "s");
    if (l.printed < l.n)
        printf("========= ERROR SUMMARY: %u error%s not printed. Use --print-limit option to adjust the number "
               "of printed errors\n", l.n - l.printed, l.n - l.printed == 1 ? " was" : "s were");
    fflush(stdout);
    if (nerr && rt.error_exitcode) {
        fflush(stderr);
        _exit(rt.error_exitcode);
    }
}

static void exit_hook(void)
{
    if (!rt.dev)
        return;
    loom_synchronize(rt.dev);   /* finish asynchronous work and flush kernel printf */
    if (rt.stats)
        rt_stats_print();
    /* the scheduling summary: asked for, or with the statistics when a policy was chosen */
    const char *policy = getenv("LOOM_SCHED");
    const char *timing = getenv("LOOM_TIMING");
    if (env_flag("LOOM_SCHED_SUMMARY") || (timing && strcmp(timing, "model") == 0) ||
        (rt.stats && policy && *policy && strcmp(policy, "fifo") != 0))
        loom_sched_print_summary(rt.dev, stderr);
    const char *json = getenv("LOOM_STATS_JSON");
    if (json && *json) {   /* (loom exec has made sure it can be written) */
        char exe[4096];
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        exe[n > 0 ? n : 0] = 0;
        FILE *f = fopen(json, "w");
        struct loom_device_props pr;
        loom_device_props(rt.dev, &pr);
        enum loom_status st = LOOM_ERR_IO;
        if (f) {   /* (loom exec runs the program once per SIMT policy: the sources once) */
            loom_stats_json_begin(f, exe, pr.name, getenv("LOOM_SIMT") ? getenv("LOOM_SIMT") : "pdom");
            st = loom_stats_write_json_run(rt.dev, f, !env_flag("LOOM_STATS_NO_SOURCES"));
            fputs("\n ]\n}\n", f);
        }
        if ((f && fclose(f) != 0) + (st != LOOM_OK))
            fprintf(stderr, "loom: cannot write the statistics to '%s': %s\n", json, strerror(errno));
    }
    /* the device is never destroyed (the process ends), so the trace is written here, once
     * the program's own output is out; a failure is one line on stderr */
    fflush(stdout);
    if (loom_device_trace_flush(rt.dev) != LOOM_OK)
        fprintf(stderr, "loom: %s\n", loom_device_error(rt.dev));
    if (rt.error_summary || rt.leak_check || rt.error_exitcode)
        error_summary();
}

/* The child of a fork() made after the device was created has none of its threads: as
 * with CUDA, the runtime cannot be used there. */
static bool forked_child;

static void in_forked_child(void)
{
    forked_child = true;
}

/* loom exec --debug (LOOM_DEBUG=1): the device is debugged at the gdb-like prompt of
 * loom/debug.h, with the commands of LOOM_DEBUG_BATCH (a file) and LOOM_DEBUG_EX (one a line)
 * first. NULL when not asked for; exits when it cannot be made. */
static struct loom_debug *make_debugger(void)
{
    if (!env_flag("LOOM_DEBUG"))
        return NULL;
    const char *batch = getenv("LOOM_DEBUG_BATCH"), *ex = getenv("LOOM_DEBUG_EX");
    char *list = ex && *ex ? strdup(ex) : NULL;
    const char *cmds[256];
    unsigned n = 0;
    char *save = NULL;
    for (char *c = list ? strtok_r(list, "\n", &save) : NULL; c && n < 256; c = strtok_r(NULL, "\n", &save))
        cmds[n++] = c;
    struct loom_debug_prompt_config pc = { .batch = batch && *batch ? batch : NULL, .ex = cmds, .nex = n };
    struct loom_debug *d = NULL;
    enum loom_status s = loom_debug_prompt_create(&pc, &d);
    free(list);
    if (s != LOOM_OK) {
        if (s == LOOM_ERR_IO)
            fprintf(stderr, "loom: cannot read the debugger's batch file '%s': %s\n", batch, strerror(errno));
        else
            fprintf(stderr, "loom: cannot start the debugger: %s\n", loom_status_string(s));
        exit(2);
    }
    return d;
}

/* At exit, after exit_hook: how the program ended, then the prompt until quit. */
static void debug_end(int status, void *d)
{
    loom_debug_prompt_end(d, status);
}

/* Creates the device; runs once. */
static void init_device(void)
{
    struct loom_device_config cfg = { 0 };
    struct loom_debug *debugger = make_debugger();
    cfg.debugger = debugger;
    const char *w = getenv("LOOM_WORKERS");
    if (w && *w)
        cfg.workers = (unsigned)strtoul(w, NULL, 10);
    cfg.deterministic = env_flag("LOOM_DETERMINISTIC");
    cfg.no_check = env_flag("LOOM_NO_CHECK");
    cfg.stats = rt.stats = env_flag("LOOM_STATS");
    const char *sj = getenv("LOOM_STATS_JSON");
    if (sj && *sj) cfg.stats = cfg.counters = true;
    const char *dump = getenv("LOOM_DUMP_PTX");
    rt.dump_dir = dump && *dump ? dump : NULL;
    rt.leak_check = env_flag("LOOM_LEAK_CHECK");
    rt.error_summary = env_flag("LOOM_ERROR_SUMMARY");
    const char *ec = getenv("LOOM_ERROR_EXITCODE"), *pl = getenv("LOOM_PRINT_LIMIT");
    rt.error_exitcode = ec && *ec ? atoi(ec) : 0;
    rt.print_limit = pl && *pl ? (unsigned)strtoul(pl, NULL, 10) : 0;
    cfg.progress = isatty(STDERR_FILENO) && !debugger;   /* (LOOM_QUIET=1 turns it off) */
    cfg.watchdog_s = debugger ? 0 : 60;                 /* (LOOM_WATCHDOG overrides) */
    const char *t = getenv("LOOM_TIMEOUT");
    if (t && *t)
        cfg.timeout_s = strtod(t, NULL);
    /* loom exec --trace FILE (it created the file, so a bad path was refused before the
     * program ran); exit_hook writes it */
    const char *trace = getenv("LOOM_TRACE"), *cap = getenv("LOOM_TRACE_CAP");
    cfg.trace_path = trace && *trace ? trace : NULL;
    cfg.trace_cap = cap && *cap ? strtoull(cap, NULL, 10) : 0;
    cfg.trace_warps = env_flag("LOOM_TRACE_WARPS");
    enum loom_status s = loom_device_create(&cfg, &rt.dev);
    if (s != LOOM_OK) {
        fprintf(stderr, "loom: cannot create the emulated device: %s\n", loom_device_error(NULL));
        rt.dev = NULL;
        rt.init_error = cudaErrorInitializationError;
        return;
    }
    loom_device_props(rt.dev, &rt.props);
    /* Ctrl-C during a kernel stops it with a report of where its warps are, unless the
     * program handles SIGINT itself; outside kernels it ends the program as usual. */
    struct sigaction old;
    if (sigaction(SIGINT, NULL, &old) == 0 && old.sa_handler == SIG_DFL && !(old.sa_flags & SA_SIGINFO))
        loom_device_catch_sigint(rt.dev);
    if (debugger)
        on_exit(debug_end, debugger);   /* (registered first: runs after exit_hook) */
    atexit(exit_hook);
    pthread_atfork(NULL, NULL, in_forked_child);
    rt_log("device created: %s, compute capability %d.%d, %d SMs", rt.props.name, rt.props.cc_major,
           rt.props.cc_minor, rt.props.multiprocessors);
    /* the commands before the program's first kernel (break ..., run); quit ends it here */
    if (debugger && !loom_debug_prompt_begin(debugger))
        exit(0);
}

/* Takes the calling thread's shared hold on the device against cudaDeviceReset, unless
 * it has one; returns whether it took it. */
static bool hold(void)
{
    if (holds_reset_lock)
        return false;
    pthread_rwlock_rdlock(&reset_lock);
    holds_reset_lock = true;
    return true;
}

cudaError_t rt_init(void)
{
    if (loom_in_host_func())
        return cudaErrorNotPermitted;
    if (forked_child) {
        static bool said;
        if (!said)
            fprintf(stderr, "loom: this process was forked after its parent used CUDA; as with CUDA, the runtime "
                    "cannot be used in the child (cudaErrorInitializationError)\n");
        said = true;
        return cudaErrorInitializationError;
    }
    pthread_once(&init_once, init_device);
    if (rt.init_error == cudaSuccess)
        hold();
    if (!driver_call && !thread_used_runtime) {
        thread_used_runtime = true;
        atomic_store(&process_used_runtime, true);
    }
    return rt.init_error;
}

void rt_leave(void)
{
    if (holds_reset_lock) {
        holds_reset_lock = false;
        pthread_rwlock_unlock(&reset_lock);
    }
}

/* Runs reset (cudaDeviceReset's work) with the device held exclusively. */
cudaError_t rt_reset_exclusive(cudaError_t (*reset)(void))
{
    rt_leave();
    pthread_rwlock_wrlock(&reset_lock);
    cudaError_t e = reset();
    pthread_rwlock_unlock(&reset_lock);
    return e;
}

cudaError_t rt_error_from_status(enum loom_status s)
{
    switch (s) {
    case LOOM_OK: return cudaSuccess;
    case LOOM_ERR_INVALID_VALUE: return cudaErrorInvalidValue;
    case LOOM_ERR_OUT_OF_MEMORY: return cudaErrorMemoryAllocation;
    case LOOM_ERR_PARSE: return cudaErrorInvalidPtx;
    case LOOM_ERR_UNSUPPORTED: return cudaErrorNotSupported;
    case LOOM_ERR_NOT_FOUND: return cudaErrorInvalidDeviceFunction;
    case LOOM_ERR_INVALID_CONFIG: return cudaErrorInvalidConfiguration;
    case LOOM_ERR_INVALID_ARGS: return cudaErrorInvalidValue;
    case LOOM_ERR_INVALID_POINTER: return cudaErrorInvalidValue;
    case LOOM_ERR_ILLEGAL_ADDRESS: return cudaErrorIllegalAddress;
    case LOOM_ERR_MISALIGNED: return cudaErrorMisalignedAddress;
    case LOOM_ERR_TRAP: return cudaErrorLaunchFailure;
    case LOOM_ERR_ASSERT: return cudaErrorAssert;
    case LOOM_ERR_DEADLOCK: return cudaErrorLaunchFailure;
    case LOOM_ERR_TIMEOUT: return cudaErrorLaunchTimeout;
    case LOOM_ERR_LAUNCH_FAILED: return cudaErrorLaunchFailure;
    case LOOM_ERR_INTERRUPTED: return cudaErrorLaunchFailure;
    case LOOM_ERR_NOT_READY: return cudaErrorNotReady;
    case LOOM_ERR_IO: return cudaErrorFileNotFound;
    case LOOM_ERR_NOT_PERMITTED: return cudaErrorNotPermitted;
    default: return cudaErrorUnknown;
    }
}

bool rt_is_fault(enum loom_status s)
{
    switch (s) {
    case LOOM_ERR_ILLEGAL_ADDRESS: case LOOM_ERR_MISALIGNED: case LOOM_ERR_TRAP: case LOOM_ERR_ASSERT:
    case LOOM_ERR_DEADLOCK: case LOOM_ERR_TIMEOUT: case LOOM_ERR_LAUNCH_FAILED: case LOOM_ERR_INTERRUPTED:
        return true;
    default:
        return false;
    }
}

/* Returns the sticky error, printing Loom's fault report the first time. */
static cudaError_t sticky(void)
{
    enum loom_status s = loom_device_sticky_error(rt.dev);
    if (s == LOOM_OK)
        return cudaSuccess;
    pthread_mutex_lock(&rt.lock);
    bool first = !rt.sticky_reported;
    rt.sticky_reported = true;
    if (first) {
        sticky_generation++;
        rt.fault_reports++;
    }
    pthread_mutex_unlock(&rt.lock);
    if (first) {
        const char *report = loom_device_fault_report(rt.dev);
        fprintf(stderr, "loom: %s\n", report);
        /* the PTX a report cites is inside the program unless it was written out */
        if (!rt.dump_dir && strstr(report, "#") && strstr(report, ".ptx:"))
            fprintf(stderr, "loom: (the .ptx named is the program's embedded PTX: loom exec --dump-ptx DIR writes "
                    "it out)\n");
    }
    return rt_error_from_status(s);
}

cudaError_t rt_enter(void)
{
    cudaError_t e = rt_init();
    if (e != cudaSuccess)
        return e;
    rt_memory_collect();
    return sticky();
}

cudaError_t rt_check(enum loom_status s)
{
    if (s == LOOM_OK)
        return cudaSuccess;
    if (rt_is_fault(s) || loom_device_sticky_error(rt.dev) != LOOM_OK) {
        cudaError_t e = sticky();
        if (e != cudaSuccess)
            return e;
    }
    return rt_error_from_status(s);
}

void rt_log(const char *fmt, ...)
{
    if (!rt.log)
        return;
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fprintf(stderr, "loom: %s\n", line);
}

cudaError_t rt_return(cudaError_t e, const char *fmt, ...)
{
    static atomic_bool warned_host_func;
    rt_leave();
    if (e != cudaSuccess && !driver_call)
        last_error = e;
    bool in_host_func = e == cudaErrorNotPermitted && loom_in_host_func();
    if (rt.log || (in_host_func && !atomic_exchange(&warned_host_func, true))) {
        char line[512];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(line, sizeof line, fmt, ap);
        va_end(ap);
        if (in_host_func)
            fprintf(stderr, "loom: %s called inside a host function (stream callback or cudaLaunchHostFunc), "
                    "where CUDA permits no runtime calls: it returns cudaErrorNotPermitted (reported once)\n", line);
        else
            fprintf(stderr, "loom: %s = %s\n", line, rt_error_name(e));
    }
    return e;
}

cudaError_t rt_unsupported(const char *name)
{
    static struct seen { const char *name; struct seen *next; } *list;
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&lock);
    struct seen *s = list;
    while (s && strcmp(s->name, name) != 0)
        s = s->next;
    if (!s && (s = malloc(sizeof *s))) {
        s->name = name;
        s->next = list;
        list = s;
        fprintf(stderr, "loom: %s is not supported by Loom (returns cudaErrorNotSupported)\n", name);
    }
    pthread_mutex_unlock(&lock);
    if (!driver_call)
        last_error = cudaErrorNotSupported;
    return cudaErrorNotSupported;
}

/* The thread's last error, or a sticky fault this thread has not been told of. */
static cudaError_t pending_error(bool clear)
{
    cudaError_t e = last_error;
    unsigned gen = 0;
    if (rt.dev) {
        /* the fault report lives on the device, which a reset in another thread clears */
        bool held = !loom_in_host_func() && !forked_child && hold();
        cudaError_t s = sticky();
        pthread_mutex_lock(&rt.lock);
        gen = sticky_generation;
        pthread_mutex_unlock(&rt.lock);
        if (held)
            rt_leave();
        if (e == cudaSuccess && s != cudaSuccess && sticky_seen != gen)
            e = s;
    }
    if (clear) {
        last_error = cudaSuccess;
        if (e != cudaSuccess)
            sticky_seen = gen;
    }
    return e;
}

/* cudaGetLastError returns and clears the thread's last error; a sticky fault
 * keeps failing other calls until cudaDeviceReset but is handed out here once
 * (what CUDA 13 does). */
cudaError_t cudaGetLastError(void)
{
    cudaError_t e = pending_error(true);
    rt_log("cudaGetLastError() = %s", rt_error_name(e));
    return e;
}

cudaError_t cudaPeekAtLastError(void)
{
    cudaError_t e = pending_error(false);
    rt_log("cudaPeekAtLastError() = %s", rt_error_name(e));
    return e;
}

/* Called by cudaDeviceReset: the fault is gone, so is the report flag. */
void rt_state_reset_errors(void)
{
    last_error = cudaSuccess;
    sticky_seen = 0;
    pthread_mutex_lock(&rt.lock);
    rt.sticky_reported = false;
    pthread_mutex_unlock(&rt.lock);
}

static void stats_one(const struct loom_kernel_stats *s, void *data)
{
    FILE *out = data;
    char name[1024];
    double eff = s->warp_instructions ? 100.0 * (double)s->thread_instructions / (32.0 * (double)s->warp_instructions)
                                      : 0.0;
    fprintf(out, "loom: %-40s %8llu %10.3f %10llu %14llu %7.1f%% %10llu %10llu %8llu %8llu %8llu %8.0f%%\n",
            loom_short_name(s->kernel, 40, name, sizeof name),
            (unsigned long long)s->launches, s->seconds * 1e3, (unsigned long long)s->ctas,
            (unsigned long long)s->warp_instructions, eff, (unsigned long long)s->divergent_branches,
            (unsigned long long)s->barrier_waits, (unsigned long long)s->parks,
            (unsigned long long)s->max_resident, (unsigned long long)s->wakeups, 100.0 * s->occupancy);
}

static void stats_timeline(const struct loom_kernel_stats *s, void *data)
{
    FILE *out = data;
    char name[1024];
    if (!s->timeline_bins && !s->simt.slots) return;
    fprintf(out, "loom: %s:\n", loom_demangle(s->kernel, name, sizeof name));
    loom_stats_print_timeline(out, "loom:   ", s);
    loom_stats_print_simt(out, "loom:   ", s);
}

static void stats_counters(const struct loom_kernel_stats *s, void *data)
{
    if (!s->counted) return;
    FILE *out = data;
    char name[512];
    fprintf(out, "loom: %s:\n", loom_demangle(s->kernel, name, sizeof name));
    loom_stats_print_counters(out, "loom:   ", s, 8);
}

static void launch_one(const struct loom_launch_stats *s, void *data)
{
    unsigned *n = data;
    char name[64], grid[40], block[40];
    double eff = s->warp_instructions ? 100.0 * (double)s->thread_instructions / (32.0 * (double)s->warp_instructions)
                                      : 0.0;
    snprintf(grid, sizeof grid, "%u,%u,%u", s->grid[0], s->grid[1], s->grid[2]);
    snprintf(block, sizeof block, "%u,%u,%u", s->block[0], s->block[1], s->block[2]);
    fprintf(stderr, "loom: %6u %-40s %14s %12s %8zu %10.3f %10llu %14llu %7.1f%%%s\n", ++*n,
            loom_short_name(s->kernel, 40, name, sizeof name), grid, block, s->dynamic_shared, s->seconds * 1e3,
            (unsigned long long)s->ctas, (unsigned long long)s->warp_instructions, eff, s->faulted ? "  faulted" : "");
}

void rt_stats_print(void)
{
    fprintf(stderr, "loom: %-40s %8s %10s %10s %14s %8s %10s %10s %8s %8s %8s %9s\n", "kernel", "launches", "ms", "CTAs",
            "warp instrs", "SIMD eff", "divergent", "bar waits", "parks", "max res", "wake-ups", "occupancy");
    loom_stats_foreach(rt.dev, stats_one, stderr);
    loom_stats_foreach(rt.dev, stats_timeline, stderr);
    loom_stats_foreach(rt.dev, stats_counters, stderr);
    const char *mode = getenv("LOOM_STATS");
    if (mode && strcmp(mode, "launches") == 0) {
        fprintf(stderr, "loom: %6s %-40s %14s %12s %8s %10s %10s %14s %8s\n", "launch", "kernel", "grid", "block",
                "shared", "ms", "CTAs", "warp instrs", "SIMD eff");
        unsigned n = 0;
        loom_launches_foreach(rt.dev, launch_one, &n);
    }
}

static cudaError_t driver_enter(void)
{
    driver_call = true;
    cudaError_t e = rt_enter();
    driver_call = false;
    return e;
}

static bool driver_runtime_used(bool this_thread)
{
    return this_thread ? thread_used_runtime : atomic_load(&process_used_runtime);
}

static struct loom_device *driver_device(void)
{
    return rt.dev;
}

static void driver_set_call(bool on)
{
    driver_call = on;
}

static bool driver_logging(void)
{
    return rt.log;
}

/* The runtime's state lent to the driver stand-in (rt_driver.h); libcudart.map exports it. */
extern const struct rt_driver_hooks loom_rt_driver_hooks;
const struct rt_driver_hooks loom_rt_driver_hooks = {
    .version = RT_DRIVER_HOOKS_VERSION,
    .enter = driver_enter,
    .leave = rt_leave,
    .device = driver_device,
    .check = rt_check,
    .stream_resolve = rt_stream_resolve,
    .add_host_func = rt_add_host_func,
    .driver_call = driver_set_call,
    .logging = driver_logging,
    .runtime_used = driver_runtime_used,
};
