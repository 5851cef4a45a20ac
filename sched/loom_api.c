/* loom_api.c -- the public C API (include/loom/loom.h): devices, modules,
 * memory, launches, streams and events over ptx/, emu/ and memory/. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "emu/emu_check.h"
#include "emu/emu_obs.h"
#include "loom/debug.h"
#include "debug/debug_int.h"
#include "ptx/ptx_demangle.h"
#include "ptx/ptx_access.h"
#include "sched/sched.h"

_Static_assert(PTX_MAX_INPUT_BYTES == LOOM_MAX_PTX_BYTES, "one limit on PTX input for the front end and the API");

/* ---- Status table --------------------------------------------------------------- */
static const struct { const char *name, *text; } status_table[LOOM_STATUS_COUNT_] = {
    [LOOM_OK] = { "LOOM_OK", "no error" },
    [LOOM_ERR_INVALID_VALUE] = { "LOOM_ERR_INVALID_VALUE", "invalid argument" },
    [LOOM_ERR_OUT_OF_MEMORY] = { "LOOM_ERR_OUT_OF_MEMORY", "out of device memory" },
    [LOOM_ERR_PARSE] = { "LOOM_ERR_PARSE", "the PTX has errors" },
    [LOOM_ERR_UNSUPPORTED] = { "LOOM_ERR_UNSUPPORTED", "the PTX uses something Loom does not support" },
    [LOOM_ERR_NOT_FOUND] = { "LOOM_ERR_NOT_FOUND", "not found" },
    [LOOM_ERR_INVALID_CONFIG] = { "LOOM_ERR_INVALID_CONFIG", "invalid launch configuration" },
    [LOOM_ERR_INVALID_ARGS] = { "LOOM_ERR_INVALID_ARGS", "kernel arguments do not match its parameters" },
    [LOOM_ERR_INVALID_POINTER] = { "LOOM_ERR_INVALID_POINTER", "invalid device pointer" },
    [LOOM_ERR_ILLEGAL_ADDRESS] = { "LOOM_ERR_ILLEGAL_ADDRESS", "illegal memory access in a kernel" },
    [LOOM_ERR_MISALIGNED] = { "LOOM_ERR_MISALIGNED", "misaligned memory access in a kernel" },
    [LOOM_ERR_TRAP] = { "LOOM_ERR_TRAP", "kernel executed trap" },
    [LOOM_ERR_ASSERT] = { "LOOM_ERR_ASSERT", "device-side assertion failed" },
    [LOOM_ERR_DEADLOCK] = { "LOOM_ERR_DEADLOCK", "barrier deadlock in a kernel" },
    [LOOM_ERR_TIMEOUT] = { "LOOM_ERR_TIMEOUT", "kernel exceeded its time limit" },
    [LOOM_ERR_LAUNCH_FAILED] = { "LOOM_ERR_LAUNCH_FAILED", "kernel failed" },
    [LOOM_ERR_NOT_READY] = { "LOOM_ERR_NOT_READY", "work not finished" },
    [LOOM_ERR_IO] = { "LOOM_ERR_IO", "file could not be read or written" },
    [LOOM_ERR_INTERNAL] = { "LOOM_ERR_INTERNAL", "internal error" },
    [LOOM_ERR_INTERRUPTED] = { "LOOM_ERR_INTERRUPTED", "kernel interrupted" },
    [LOOM_ERR_NOT_PERMITTED] = { "LOOM_ERR_NOT_PERMITTED", "operation not permitted here" },
};

const char *loom_status_string(enum loom_status s)
{
    return (unsigned)s < LOOM_STATUS_COUNT_ ? status_table[s].text : "unknown status";
}

const char *loom_status_name(enum loom_status s)
{
    return (unsigned)s < LOOM_STATUS_COUNT_ ? status_table[s].name : "LOOM_ERR_UNKNOWN";
}

const char *loom_version_string(void) { return PACKAGE_VERSION; }

/* ---- Errors: the last message of the calling thread ------------------------------ */
/* Every message is stamped from one counter: a thread's last API error and a kernel
 * fault recorded on the device are told apart by which came later, so a fault is never
 * reported with the text of an older, unrelated failure (a too-large malloc, say). */
static _Atomic uint64_t error_clock;
static _Thread_local char last_error[8192];
static _Thread_local uint64_t last_error_stamp;

static uint64_t next_stamp(void) { return atomic_fetch_add(&error_clock, 1) + 1; }

static enum loom_status fail(enum loom_status s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static enum loom_status fail(enum loom_status s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    last_error_stamp = next_stamp();
    return s;
}

/* fail for the API's other files (loom_tex.c): msg is the whole message. */
enum loom_status sched_api_fail(enum loom_status s, const char *msg) { return fail(s, "%s", msg); }

bool loom_in_host_func(void) { return sched_in_host_func(); }

/* The refusal of a call that would wait for device work from inside a host function. */
static enum loom_status waits_in_host_func(const char *what)
{
    return fail(LOOM_ERR_NOT_PERMITTED, "%s inside a host function (stream callback): it would wait for the "
                "stream that runs the host function", what);
}

/* ---- Host API slices in the trace ----------------------------------------------------
 * API_TRACE(dev, "cudaMalloc") at the top of a public function opens the slice of the call
 * on the calling thread's host track; it is recorded when the function returns (a cleanup
 * variable), with api_.bytes as its argument when the function set api_.sized. Without a
 * trace the cost is a NULL check. */
struct api_span {
    struct loom_trace *t;
    const char *name;
    uint64_t t0, bytes;
    bool sized;
};

static void api_span_end(struct api_span *a)
{
    if (!a->t) return;
    char args[48];
    if (a->sized) snprintf(args, sizeof args, "{\"bytes\":%llu}", (unsigned long long)a->bytes);
    loom_trace_api(a->t, a->name, a->t0, sched_now_ns(), a->sized ? args : NULL);
}

static struct api_span api_span_begin(struct loom_device *dev, const char *name)
{
    struct loom_trace *t = dev ? dev->trace : NULL;
    return (struct api_span){ .t = t, .name = name, .t0 = t ? sched_now_ns() : 0 };
}

#define API_TRACE(dev, name) \
    struct api_span api_ __attribute__((cleanup(api_span_end))) = api_span_begin((dev), (name))
#define API_BYTES(n) (api_.bytes = (n), api_.sized = true)

const char *loom_device_error(struct loom_device *dev)
{
    if (dev && dev->sticky != LOOM_OK && (!last_error[0] || dev->sticky_stamp > last_error_stamp))
        return dev->sticky_msg;
    return last_error[0] ? last_error : "no error";
}

enum loom_status loom_device_sticky_error(struct loom_device *dev) { return dev->sticky; }

const char *loom_device_fault_report(struct loom_device *dev) { return dev->sticky ? dev->sticky_msg : ""; }

/* The printf FIFO and the heap as CUDA 13 sizes them on an H100 (recorded with
 * tests/cuda/src/device_limits.cu): defaults of 8.25 MiB and 8 MiB; a size asked for is
 * raised to at least 512 KiB and 4 MiB and rounded up to 256 bytes and 64 KiB; neither
 * may change once a kernel that can call printf (malloc, free) has been launched. */
#define LIMIT_FIFO_DEFAULT 8650752u
#define LIMIT_FIFO_MIN (512u << 10)
#define LIMIT_FIFO_UNIT 256u
#define LIMIT_HEAP_DEFAULT (8u << 20)
#define LIMIT_HEAP_MIN (4u << 20)
#define LIMIT_HEAP_UNIT (64u << 10)

static void default_limits(struct loom_device *dev)
{
    dev->fifo_bytes = LIMIT_FIFO_DEFAULT;
    dev->heap_bytes = LIMIT_HEAP_DEFAULT;
    dev->stack_bytes = 1024;
    atomic_store(&dev->host_used, 0);
}

/* The sized limits: which use freezes each, its minimum and unit, and its name. */
static const struct sized_limit {
    enum loom_limit limit;
    unsigned frozen_by;
    uint64_t min, unit;
    const char *what, *users;
} sized_limits[] = {
    { LOOM_LIMIT_PRINTF_FIFO_SIZE, EMU_USES_PRINTF, LIMIT_FIFO_MIN, LIMIT_FIFO_UNIT, "printf FIFO", "printf" },
    { LOOM_LIMIT_MALLOC_HEAP_SIZE, EMU_USES_MALLOC, LIMIT_HEAP_MIN, LIMIT_HEAP_UNIT, "device heap", "malloc or free" },
};

enum loom_status loom_device_set_limit(struct loom_device *dev, enum loom_limit limit, size_t value)
{
    if (!dev) return fail(LOOM_ERR_INVALID_VALUE, "loom_device_set_limit: NULL device");
    if (limit == LOOM_LIMIT_STACK_SIZE) { dev->stack_bytes = value; return LOOM_OK; }
    const struct sized_limit *L = NULL;
    for (size_t i = 0; i < sizeof sized_limits / sizeof sized_limits[0]; i++)
        if (sized_limits[i].limit == limit) L = &sized_limits[i];
    if (!L) return fail(LOOM_ERR_INVALID_VALUE, "unknown device limit %d", (int)limit);
    if (atomic_load(&dev->host_used) & L->frozen_by)
        return fail(LOOM_ERR_INVALID_VALUE, "the %s size cannot change after a kernel that uses %s was launched "
                    "(until a device reset)", L->what, L->users);
    if (value > UINT64_MAX - (L->unit - 1)) return fail(LOOM_ERR_INVALID_VALUE, "%s size too large", L->what);
    /* raised to the minimum and rounded up to a multiple of the unit */
    uint64_t size = value < L->min ? L->min : (value + L->unit - 1) / L->unit * L->unit;
    *(limit == LOOM_LIMIT_PRINTF_FIFO_SIZE ? &dev->fifo_bytes : &dev->heap_bytes) = size;
    emu_host_set_limits(dev->host, dev->fifo_bytes, dev->heap_bytes);
    return LOOM_OK;
}

enum loom_status loom_device_get_limit(struct loom_device *dev, enum loom_limit limit, size_t *out_value)
{
    if (!dev || !out_value) return fail(LOOM_ERR_INVALID_VALUE, "loom_device_get_limit: NULL argument");
    switch (limit) {
    case LOOM_LIMIT_STACK_SIZE: *out_value = dev->stack_bytes; return LOOM_OK;
    case LOOM_LIMIT_PRINTF_FIFO_SIZE: *out_value = dev->fifo_bytes; return LOOM_OK;
    case LOOM_LIMIT_MALLOC_HEAP_SIZE: *out_value = dev->heap_bytes; return LOOM_OK;
    default: return fail(LOOM_ERR_INVALID_VALUE, "unknown device limit %d", (int)limit);
    }
}

/* ---- Devices --------------------------------------------------------------------- */
/* A boolean environment variable: set, not empty and not "0". */
static bool env_flag(const char *name)
{
    const char *v = getenv(name);
    return v && *v && strcmp(v, "0") != 0;
}

static unsigned env_unsigned(const char *name, unsigned dflt)
{
    const char *v = getenv(name);
    if (!v || !*v) return dflt;
    char *end;
    unsigned long x = strtoul(v, &end, 10);
    return *end ? dflt : (unsigned)x;
}

enum loom_status loom_simt_check(const char *spec, char *msg, size_t size)
{
    struct emu_simt_cfg c;
    char err[256];
    bool ok = emu_simt_parse(spec, &c, err, sizeof err);
    if (msg && size) snprintf(msg, size, "%s", ok ? "" : err);
    return ok ? LOOM_OK : LOOM_ERR_INVALID_VALUE;
}

enum loom_status loom_sched_check(const char *spec, char *msg, size_t size)
{
    struct sched_policy_choice c;
    char err[256];
    bool ok = sched_policy_parse(spec, &c, err, sizeof err);
    if (msg && size) snprintf(msg, size, "%s", ok ? "" : err);
    return ok ? LOOM_OK : LOOM_ERR_INVALID_VALUE;
}

enum loom_status loom_device_create(const struct loom_device_config *cfg, struct loom_device **out_dev)
{
    if (!out_dev) return fail(LOOM_ERR_INVALID_VALUE, "loom_device_create: out_dev is NULL");
    struct loom_device *d = calloc(1, sizeof *d);
    if (!d) return fail(LOOM_ERR_OUT_OF_MEMORY, "out of host memory");
    if (cfg) d->cfg = *cfg;
    const char *preset = d->cfg.preset ? d->cfg.preset : getenv("LOOM_DEVICE");
    d->preset = preset ? sched_preset_find(preset) : sched_preset_default();
    if (!d->preset) {
        free(d);
        return fail(LOOM_ERR_INVALID_VALUE, "unknown device preset '%s'", preset);
    }
    d->props = d->preset->props;
    char simt_err[256];
    const char *simt = d->cfg.simt ? d->cfg.simt : getenv("LOOM_SIMT");
    if (!emu_simt_parse(simt, &d->simt, simt_err, sizeof simt_err)) {
        free(d);
        return fail(LOOM_ERR_INVALID_VALUE, "%s", simt_err);
    }
    d->cfg.simt = NULL;                  /* (the caller's string need not outlive the call) */
    struct sched_policy_choice policy;
    const char *sched_spec = d->cfg.sched ? d->cfg.sched : getenv("LOOM_SCHED");
    if (!sched_policy_parse(sched_spec, &policy, simt_err, sizeof simt_err)) {
        free(d);
        return fail(LOOM_ERR_INVALID_VALUE, "%s", simt_err);
    }
    d->cfg.sched = NULL;
    if (env_flag("LOOM_SCHED_SUMMARY")) d->cfg.sched_summary = true;
    if (env_flag("LOOM_SCHED_CHECK")) d->cfg.sched_check = true;
    const char *timing = getenv("LOOM_TIMING");
    if (timing && *timing && strcmp(timing, "wall") != 0) {
        if (strcmp(timing, "model") != 0) {
            free(d);
            return fail(LOOM_ERR_INVALID_VALUE, "LOOM_TIMING='%s': the timing is wall (the default) or model", timing);
        }
        d->cfg.timing_model = true;
    }
    if (d->cfg.timing_model) d->cfg.counters = true;   /* (the memory bytes of each kernel) */
    if (d->cfg.trace_path) {
        /* the file is created now: an unwritable path fails before anything runs */
        char err[512];
        struct loom_trace_opts to = { .path = d->cfg.trace_path, .cap = d->cfg.trace_cap,
                                      .warps = d->cfg.trace_warps, .origin_ns = sched_now_ns() };
        if (!(d->trace = loom_trace_open(&to, err, sizeof err))) {
            free(d);
            return fail(LOOM_ERR_IO, "%s", err);
        }
        d->cfg.trace_path = loom_trace_path(d->trace);
        loom_trace_name_track(d->trace, LOOM_TRACE_STREAM_TRACK(0), "stream 0 (default)");
    }
    /* 0: one per core the process may run on, counted by the pool thread. */
    d->workers = d->cfg.workers ? d->cfg.workers : env_unsigned("LOOM_WORKERS", 0);
    if (getenv("LOOM_NO_CHECK") && *getenv("LOOM_NO_CHECK") && strcmp(getenv("LOOM_NO_CHECK"), "0"))
        d->cfg.no_check = true;
    if (env_flag("LOOM_INITCHECK")) d->cfg.initcheck = true;
    if (env_flag("LOOM_RACECHECK")) d->cfg.racecheck = true;
    d->mem = mem_space_create(d->props.total_global_mem);
    if (d->mem && d->cfg.initcheck && !(d->checker = emu_check_create(d->mem))) {
        mem_space_destroy(d->mem);
        loom_trace_close(d->trace);
        free(d);
        return fail(LOOM_ERR_OUT_OF_MEMORY, "out of host memory");
    }
    default_limits(d);
    d->host = d->mem ? emu_host_create(d->cfg.printf_out ? d->cfg.printf_out : stdout, d->fifo_bytes, d->heap_bytes,
                                       d->mem) : NULL;
    if (!d->mem || !d->host) {
        emu_host_destroy(d->host);
        mem_space_destroy(d->mem);
        loom_trace_close(d->trace);
        free(d);
        return fail(LOOM_ERR_OUT_OF_MEMORY, "out of host memory");
    }
    pthread_mutex_init(&d->lock, NULL);
    bool pin = !getenv("LOOM_NO_PIN");
    if (getenv("LOOM_DETERMINISTIC") && strcmp(getenv("LOOM_DETERMINISTIC"), "0")) d->cfg.deterministic = true;
    if (env_flag("LOOM_STATS")) d->cfg.stats = true;
    if (getenv("LOOM_STATS") && strcmp(getenv("LOOM_STATS"), "launches") == 0) d->cfg.stats_launches = true;
    if (getenv("LOOM_STATS") && strcmp(getenv("LOOM_STATS"), "counters") == 0) d->cfg.counters = true;
    if (d->cfg.stats_launches || d->cfg.counters) d->cfg.stats = true;
    if (env_flag("LOOM_QUIET")) d->cfg.progress = false;
    const char *wd = getenv("LOOM_WATCHDOG");
    if (wd && *wd) {
        char *end;
        double v = strtod(wd, &end);
        if (*end == 0 && v >= 0) d->cfg.watchdog_s = v;
        else fprintf(stderr, "loom: LOOM_WATCHDOG='%s' is not a number of seconds; ignored\n", wd);
    }
    if (d->cfg.debugger) {               /* one worker, a fixed schedule (loom/debug.h) */
        d->cfg.deterministic = true;
        d->cfg.counters = false;
        d->cfg.trace_warps = false;
    }
    /* Co-residency: what the emulated GPU could hold at once, shared among the workers. */
    struct sched_config sc = {
        .workers = d->cfg.deterministic ? 1 : d->workers, .pin = pin, .stats = d->cfg.stats,
        .coresident = (unsigned)(d->props.multiprocessors * d->preset->sm.max_ctas),
        .timeout_s = d->cfg.timeout_s, .progress = d->cfg.progress, .watchdog_s = d->cfg.watchdog_s,
        .host = d->host, .trace = d->trace, .policy = policy, .timing_model = d->cfg.timing_model,
        .check = d->cfg.sched_check, .summary = d->cfg.sched_summary,
    };
    d->sched = sched_create(&sc);
    if (!d->sched) {
        emu_host_destroy(d->host);
        mem_space_destroy(d->mem);
        loom_trace_close(d->trace);
        pthread_mutex_destroy(&d->lock);
        free(d);
        return fail(LOOM_ERR_OUT_OF_MEMORY, "cannot start the worker pool");
    }
    if (d->cfg.debugger && !loom_debug_set_device(d->cfg.debugger, d)) {
        d->cfg.debugger = NULL;
        loom_device_destroy(d);
        return fail(LOOM_ERR_INVALID_VALUE, "loom_device_create: the debugger already debugs another device");
    }
    *out_dev = d;
    return LOOM_OK;
}

/* ---- Interrupts (Ctrl-C) ---------------------------------------------------------- */

/* The device whose kernels a SIGINT stops: a signal handler can reach nothing else. */
static struct loom_device *_Atomic sigint_dev;

bool loom_device_interrupt(struct loom_device *dev)
{
    if (!dev || !dev->sched) return false;
    struct sched *s = dev->sched;
    if (!atomic_load(&s->running)) return false;
    atomic_fetch_add(&s->interrupts, 1);   /* workers compare it with each grid's snapshot */
    return true;
}

/* SA_RESETHAND restores the default action as the signal arrives: a second
 * Ctrl-C terminates the process. Only async-signal-safe calls here. */
static void on_sigint(int sig)
{
    int saved_errno = errno;     /* the interrupted code may be about to read it */
    struct loom_device *d = atomic_load(&sigint_dev);
    if (d && d->cfg.debugger && loom_debug_pause(d->cfg.debugger)) {
        struct sigaction sa;                 /* a debugged kernel pauses, at every Ctrl-C */
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_sigint;
        sa.sa_flags = SA_RESETHAND | SA_RESTART;
        sigemptyset(&sa.sa_mask);
        sigaction(sig, &sa, NULL);
    } else if (!d || !loom_device_interrupt(d)) {
        signal(sig, SIG_DFL);
        raise(sig);
    }
    errno = saved_errno;
}

enum loom_status loom_device_catch_sigint(struct loom_device *dev)
{
    if (!dev) return fail(LOOM_ERR_INVALID_VALUE, "loom_device_catch_sigint: NULL device");
    atomic_store(&sigint_dev, dev);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sa.sa_flags = SA_RESETHAND | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGINT, &sa, NULL) != 0) return fail(LOOM_ERR_INTERNAL, "sigaction: %s", strerror(errno));
    return LOOM_OK;
}

static void free_stats(struct loom_device *dev)
{
    for (size_t i = 0; i < dev->nlaunches; i++) free((char *)dev->launches[i].kernel);
    free(dev->launches);
    dev->launches = NULL;
    dev->nlaunches = dev->launches_cap = 0;
    while (dev->stats) {
        struct sched_stats_entry *e = dev->stats;
        dev->stats = e->next;
        sched_stats_entry_free(e);
    }
}

void loom_sched_print_summary(struct loom_device *dev, FILE *out)
{
    sched_wait_idle(dev->sched);
    struct sched_policy_stats ps;
    char spec[64];
    sched_policy_summary(dev->sched, &ps, spec, sizeof spec);
    double span_us = ps.last_ns > ps.first_ns ? (double)(ps.last_ns - ps.first_ns) / 1e3 : 0;
    emu_host_flush(dev->host);
    double check_ns = ps.checked ? (double)ps.check_ns / (double)ps.checked : 0.0;
    if (dev->cfg.timing_model) {
        struct sched_vtime_summary vt;
        char err[256];
        if (!sched_vtrace_simulate(dev->sched, (unsigned)dev->props.multiprocessors, &vt, err, sizeof err)) {
            fprintf(out, "loom: schedule: no virtual time: %s\n", err);
            return;
        }
        fprintf(out, "loom: schedule: policy=%s timing=model makespan_us=%.1f critical_path_us=%.1f sm_util=%.3f "
                "ops=%llu kernels=%u overlapped=%u deps=%llu check_ns=%.0f wall_us=%.1f races=%llu\n", spec,
                vt.makespan_s * 1e6, vt.critical_path_s * 1e6, vt.sm_util, (unsigned long long)ps.ops, vt.kernels,
                vt.overlapped, (unsigned long long)vt.deps, check_ns, span_us, (unsigned long long)ps.races);
        return;
    }
    fprintf(out, "loom: schedule: policy=%s timing=wall makespan_us=%.1f ops=%llu kernels=%llu overlapped=%llu "
            "deps=%llu check_ns=%.0f races=%llu\n", spec, span_us, (unsigned long long)ps.ops,
            (unsigned long long)ps.kernels, (unsigned long long)ps.overlapped, (unsigned long long)ps.deps, check_ns,
            (unsigned long long)ps.races);
}

void loom_device_destroy(struct loom_device *dev)
{
    if (!dev) return;
    struct loom_device *held = dev;
    atomic_compare_exchange_strong(&sigint_dev, &held, NULL);
    if (dev->cfg.sched_summary) loom_sched_print_summary(dev, stderr);
    sched_destroy(dev->sched);
    while (dev->modules) loom_module_unload(dev->modules);
    if (dev->cfg.debugger) loom_debug_set_device(dev->cfg.debugger, NULL);
    emu_host_flush(dev->host);
    if (dev->trace) {
        /* the program's output is out (flushed above); a trace that cannot be written says
         * so on stderr, as nothing can return an error from here */
        char err[512];
        if (loom_trace_dirty(dev->trace) && !loom_trace_write(dev->trace, err, sizeof err))
            fprintf(stderr, "loom: %s\n", err);
        loom_trace_close(dev->trace);
    }
    emu_host_destroy(dev->host);
    emu_check_destroy(dev->checker);
    mem_space_destroy(dev->mem);
    free_stats(dev);
    pthread_mutex_destroy(&dev->lock);
    free(dev);
}

enum loom_status loom_device_trace_flush(struct loom_device *dev)
{
    if (!dev) return fail(LOOM_ERR_INVALID_VALUE, "loom_device_trace_flush: NULL device");
    char err[512];
    if (dev->trace && !loom_trace_write(dev->trace, err, sizeof err)) return fail(LOOM_ERR_IO, "%s", err);
    return LOOM_OK;
}

unsigned loom_device_workers(struct loom_device *dev) { return dev && dev->sched ? sched_workers(dev->sched) : 0; }

void loom_device_props(const struct loom_device *dev, struct loom_device_props *out_props) { *out_props = dev->props; }

enum loom_status loom_device_reset(struct loom_device *dev)
{
    API_TRACE(dev, "cudaDeviceReset");
    if (sched_in_host_func()) return waits_in_host_func("loom_device_reset");
    sched_wait_idle(dev->sched);
    emu_host_flush(dev->host);
    while (dev->modules) loom_module_unload(dev->modules);
    mem_reset(dev->mem);
    if (dev->checker) emu_check_reset(dev->checker);
    emu_host_destroy(dev->host);
    default_limits(dev);
    dev->host = emu_host_create(dev->cfg.printf_out ? dev->cfg.printf_out : stdout, dev->fifo_bytes, dev->heap_bytes,
                                dev->mem);
    dev->sched->host = dev->host;
    dev->sticky = LOOM_OK;
    dev->sticky_msg[0] = 0;
    last_error[0] = 0;
    return dev->host ? LOOM_OK : fail(LOOM_ERR_OUT_OF_MEMORY, "out of host memory");
}

/* ---- Modules ----------------------------------------------------------------------- */
static uint64_t align_up(uint64_t v, uint64_t a) { return a > 1 ? (v + a - 1) / a * a : v; }

static bool module_global_addr(void *ctx, const struct ptx_symbol *sym, uint64_t *out_addr)
{
    struct loom_module *m = ctx;
    for (unsigned i = 0; i < m->nglobals; i++)
        if (m->global_syms[i] == sym) { *out_addr = m->global_addrs[i]; return true; }
    return false;
}

static bool func_addr(const struct ptx_module *ir, const struct ptx_func *f, uint64_t *out)
{
    for (uint32_t i = 0; i < ir->nfuncs; i++)
        if (ir->funcs[i] == f) { *out = EMU_FUNC_TAG | i; return true; }
    return false;
}

/* Allocates module-scope .global/.const variables and writes their initialisers. */
static enum loom_status alloc_globals(struct loom_module *m)
{
    const struct ptx_module *ir = m->ir;
    m->global_syms = calloc(ir->nglobals + 1, sizeof *m->global_syms);
    m->global_addrs = calloc(ir->nglobals + 1, sizeof *m->global_addrs);
    if (!m->global_syms || !m->global_addrs) return fail(LOOM_ERR_OUT_OF_MEMORY, "out of host memory");
    for (uint32_t i = 0; i < ir->nglobals; i++) {
        const struct ptx_symbol *s = ir->globals[i];
        if (s->kind != PTX_SYM_VAR || (s->space != PTX_SPACE_GLOBAL && s->space != PTX_SPACE_CONST)) continue;
        uint64_t addr;
        uint32_t flags = MEM_MODULE | (s->space == PTX_SPACE_CONST ? MEM_READONLY : 0);
        if (mem_alloc(m->dev->mem, s->size ? s->size : 1, flags, s->name, &addr) != 0)
            return fail(LOOM_ERR_OUT_OF_MEMORY, "out of device memory for variable '%s'", s->name);
        m->global_syms[m->nglobals] = s;
        m->global_addrs[m->nglobals++] = addr;
    }
    /* Initialisers may name other variables, so write them after all are placed. */
    for (unsigned g = 0; g < m->nglobals; g++) {
        const struct ptx_symbol *s = m->global_syms[g];
        unsigned es = ptx_type_size(s->type);
        if (!es) es = 1;
        uint8_t *base = (uint8_t *)(uintptr_t)m->global_addrs[g];
        for (uint32_t k = 0; k < s->ninit && (uint64_t)(k + 1) * es <= s->size; k++) {
            const struct ptx_init *in = &s->init[k];
            uint64_t v = in->bits;
            if (in->kind == PTX_INIT_SYM) {
                if (!in->sym) continue;
                if (in->sym->kind == PTX_SYM_FUNC) {
                    if (!func_addr(ir, in->sym->func, &v)) continue;
                } else if (!module_global_addr(m, in->sym, &v)) {
                    return fail(LOOM_ERR_UNSUPPORTED, "%s: initialiser of '%s' takes the address of '%s', "
                                "which is not a global variable", ir->path, s->name, in->sym->name);
                }
                v += (uint64_t)in->offset;
                if (in->mask) v = (v >> in->mask_shift) & in->mask;
            }
            memcpy(base + (uint64_t)k * es, &v, es);
        }
    }
    return LOOM_OK;
}

static enum loom_status build_kernels(struct loom_module *m)
{
    unsigned n = 0;
    for (uint32_t i = 0; i < m->ir->nfuncs; i++) n += m->ir->funcs[i]->is_entry && !m->ir->funcs[i]->is_decl;
    m->kernels = calloc(n + 1, sizeof *m->kernels);
    if (!m->kernels) return fail(LOOM_ERR_OUT_OF_MEMORY, "out of host memory");
    for (uint32_t i = 0; i < m->ir->nfuncs; i++) {
        const struct ptx_func *f = m->ir->funcs[i];
        if (!f->is_entry || f->is_decl) continue;
        struct loom_kernel *k = &m->kernels[m->nkernels++];
        k->mod = m;
        k->ir = f;
        k->fn = &m->prog->funcs[i];
        k->nparams = f->nparams;
        k->params = calloc(f->nparams + 1, sizeof *k->params);
        if (!k->params) return fail(LOOM_ERR_OUT_OF_MEMORY, "out of host memory");
        uint64_t off = 0;
        for (uint32_t p = 0; p < f->nparams; p++) {
            const struct ptx_symbol *s = f->params[p];
            struct loom_param_info *pi = &k->params[p];
            unsigned es = ptx_type_size(s->type) ? ptx_type_size(s->type) : 1;
            pi->name = s->name;
            pi->size = (unsigned)(s->size ? s->size : es);
            pi->align = s->align ? s->align : es;
            off = align_up(off, pi->align);
            pi->offset = (unsigned)off;
            off += pi->size;
            pi->kind = s->size > es && !s->is_ptr ? LOOM_PARAM_BYTES
                       : ptx_type_is_float(s->type) ? LOOM_PARAM_FLOAT : LOOM_PARAM_INT;
            pi->is_signed = ptx_type_is_signed(s->type);
            pi->is_pointer = s->is_ptr || (pi->size == 8 && (s->type == PTX_T_U64 || s->type == PTX_T_B64));
        }
        k->param_bytes = (unsigned)off;
        k->max_dynamic_shared = 48 * 1024;
    }
    return LOOM_OK;
}

/* Sets the parameter offsets of every entry in the IR (the decoder reads them). */
static void layout_params(struct ptx_module *ir)
{
    for (uint32_t i = 0; i < ir->nfuncs; i++) {
        struct ptx_func *f = ir->funcs[i];
        if (!f->is_entry) continue;
        uint64_t off = 0;
        for (uint32_t p = 0; p < f->nparams; p++) {
            struct ptx_symbol *s = f->params[p];
            unsigned es = ptx_type_size(s->type) ? ptx_type_size(s->type) : 1;
            off = align_up(off, s->align ? s->align : es);
            s->offset = off;
            off += s->size ? s->size : es;
        }
    }
}

static void diags_to_error(const struct ptx_diags *dg)
{
    size_t used = 0;
    last_error[0] = 0;
    last_error_stamp = next_stamp();
    for (size_t i = 0; i < dg->n && used < sizeof last_error - 1; i++) {
        const struct ptx_diag *d = &dg->v[i];
        const char *sev = d->sev == PTX_SEV_ERROR ? "error" : d->sev == PTX_SEV_WARNING ? "warning" : "note";
        int k = snprintf(last_error + used, sizeof last_error - used, "%s%s:%u:%u: %s: %s", used ? "\n" : "",
                         d->file ? d->file : "<ptx>", d->line, d->col, sev, d->msg);
        if (k < 0) break;
        used += (size_t)k;
    }
}

static enum loom_status input_too_big(const char *name)
{
    return fail(LOOM_ERR_INVALID_VALUE, "%s: larger than the %zu MiB limit on PTX input", name,
                PTX_MAX_INPUT_BYTES >> 20);
}

enum loom_status loom_module_load_text(struct loom_device *dev, const char *text, size_t len, const char *name,
                                       struct loom_module **out_mod)
{
    API_TRACE(dev, "cuModuleLoadData");
    if (!dev || !text || !out_mod) return fail(LOOM_ERR_INVALID_VALUE, "loom_module_load_text: NULL argument");
    if (len > PTX_MAX_INPUT_BYTES) return input_too_big(name ? name : "<ptx>");
    struct ptx_diags dg;
    ptx_diags_init(&dg);
    struct ptx_module *ir = ptx_parse(text, len, name ? name : "<ptx>", &dg);
    if (ir && (!ptx_check(ir, &dg) || !ptx_analyze(ir, &dg))) {
        ptx_module_free(ir);
        ir = NULL;
    }
    if (!ir) {
        diags_to_error(&dg);
        ptx_diags_free(&dg);
        return LOOM_ERR_PARSE;
    }
    /* A GPU cannot run PTX for a later architecture than its own (the JIT refuses it). PTX
     * for an architecture newer than every preset runs on the newest, which stands in for
     * the GPUs Loom has no preset for yet. */
    unsigned cc = (unsigned)(dev->props.cc_major * 10 + dev->props.cc_minor), newest = 0;
    size_t npresets;
    const struct sched_preset *presets = sched_preset_list(&npresets);
    for (size_t i = 0; i < npresets; i++) {
        unsigned c = (unsigned)(presets[i].props.cc_major * 10 + presets[i].props.cc_minor);
        if (c > newest) newest = c;
    }
    if (ir->sm > cc && cc < newest) {
        enum loom_status tst = fail(LOOM_ERR_UNSUPPORTED, "%s: .target sm_%u needs compute capability %u.%u, but the "
                                    "emulated %s (preset %s) has %d.%d; choose a later --device preset "
                                    "(loom info --presets)", name ? name : "<ptx>", ir->sm, ir->sm / 10, ir->sm % 10,
                                    dev->props.name, dev->preset->name, dev->props.cc_major, dev->props.cc_minor);
        ptx_module_free(ir);
        ptx_diags_free(&dg);
        return tst;
    }
    layout_params(ir);
    struct loom_module *m = calloc(1, sizeof *m);
    if (!m) { ptx_module_free(ir); ptx_diags_free(&dg); return fail(LOOM_ERR_OUT_OF_MEMORY, "out of host memory"); }
    m->dev = dev;
    m->ir = ir;
    if ((dev->cfg.counters || dev->cfg.debugger) && (m->text = malloc(len ? len : 1))) {   /* (lines of the
                                                            per-line statistics, the debugger's list) */
        memcpy(m->text, text, len);
        m->text_len = len;
    }
    enum loom_status st = alloc_globals(m);
    if (st == LOOM_OK) {
        struct emu_symbols syms = { .ctx = m, .global_addr = module_global_addr };
        m->prog = emu_program_build(ir, &syms, &dg);
        if (m->prog && dev->cfg.debugger) m->dprog = emu_program_build_plain(ir, &syms, &dg, true);
        if (!m->prog || (dev->cfg.debugger && !m->dprog)) {
            diags_to_error(&dg);
            st = LOOM_ERR_UNSUPPORTED;
        }
    }
    if (st == LOOM_OK) st = build_kernels(m);
    ptx_diags_free(&dg);
    pthread_mutex_lock(&dev->lock);
    m->next = dev->modules;
    dev->modules = m;
    pthread_mutex_unlock(&dev->lock);
    if (st != LOOM_OK) {
        loom_module_unload(m);
        return st;
    }
    if (dev->cfg.debugger) loom_debug_module_loaded(dev->cfg.debugger, m);
    *out_mod = m;
    return LOOM_OK;
}

enum loom_status loom_module_load_file(struct loom_device *dev, const char *path, struct loom_module **out_mod)
{
    if (!dev || !path || !out_mod) return fail(LOOM_ERR_INVALID_VALUE, "loom_module_load_file: NULL argument");
    FILE *f = fopen(path, "rb");
    if (!f) return fail(LOOM_ERR_IO, "%s: %s", path, strerror(errno));
    size_t len;
    bool too_big;
    errno = 0;
    char *buf = ptx_read_stream(f, &len, &too_big);
    int err = errno;
    fclose(f);
    if (too_big) return input_too_big(path);
    if (!buf && err == ENOMEM) return fail(LOOM_ERR_OUT_OF_MEMORY, "out of host memory");
    if (!buf) return fail(LOOM_ERR_IO, "%s: %s", path, err ? strerror(err) : "read error");
    enum loom_status st = loom_module_load_text(dev, buf, len, path, out_mod);
    free(buf);
    return st;
}

void loom_module_unload(struct loom_module *mod)
{
    if (!mod) return;
    struct loom_device *dev = mod->dev;
    if (dev->cfg.debugger) loom_debug_module_unloading(dev->cfg.debugger, mod);
    pthread_mutex_lock(&dev->lock);
    for (struct loom_module **p = &dev->modules; *p; p = &(*p)->next)
        if (*p == mod) { *p = mod->next; break; }
    pthread_mutex_unlock(&dev->lock);
    for (unsigned g = 0; g < mod->nglobals; g++) mem_free(dev->mem, mod->global_addrs[g]);
    for (unsigned k = 0; k < mod->nkernels; k++) {
        free(mod->kernels[k].params);
        if (mod->kernels[k].access) ptx_access_free(mod->kernels[k].access);
        free(mod->kernels[k].access);
    }
    free(mod->kernels);
    free(mod->global_syms);
    free(mod->global_addrs);
    emu_program_free(mod->prog);
    emu_program_free(mod->dprog);
    ptx_module_free(mod->ir);
    free(mod->text);
    free(mod->line_off);
    free(mod);
}

enum loom_status loom_module_get_kernel(struct loom_module *mod, const char *name, struct loom_kernel **out_kernel)
{
    if (!mod || !name || !out_kernel) return fail(LOOM_ERR_INVALID_VALUE, "loom_module_get_kernel: NULL argument");
    for (unsigned k = 0; k < mod->nkernels; k++)
        if (strcmp(mod->kernels[k].ir->name, name) == 0) { *out_kernel = &mod->kernels[k]; return LOOM_OK; }
    return fail(LOOM_ERR_NOT_FOUND, "no kernel named '%s' in %s", name, mod->ir->path ? mod->ir->path : "the module");
}

unsigned loom_module_kernel_count(const struct loom_module *mod) { return mod->nkernels; }
struct loom_kernel *loom_module_kernel(struct loom_module *mod, unsigned i) { return i < mod->nkernels ? &mod->kernels[i] : NULL; }

enum loom_status loom_module_get_global(struct loom_module *mod, const char *name, uint64_t *out_addr, size_t *out_size)
{
    for (unsigned g = 0; g < mod->nglobals; g++)
        if (strcmp(mod->global_syms[g]->name, name) == 0) {
            if (out_addr) *out_addr = mod->global_addrs[g];
            if (out_size) *out_size = mod->global_syms[g]->size;
            return LOOM_OK;
        }
    return fail(LOOM_ERR_NOT_FOUND, "no global variable named '%s'", name);
}

const char *loom_kernel_name(const struct loom_kernel *k) { return k->ir->name; }
const char *loom_demangle(const char *name, char *buf, size_t size)
{
    ptx_demangle(name, buf, size);
    return buf;
}
unsigned loom_edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 31 || lb > 31) return 9;
    unsigned row[32];
    for (size_t j = 0; j <= lb; j++) row[j] = (unsigned)j;
    for (size_t i = 1; i <= la; i++) {
        unsigned diag = row[0];
        row[0] = (unsigned)i;
        for (size_t j = 1; j <= lb; j++) {
            unsigned up = row[j], best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

const char *loom_short_name(const char *name, unsigned width, char *buf, size_t size)
{
    char d[2048];
    ptx_demangle(name, d, sizeof d);
    /* the parameters: the first '(' outside <>; the return type: up to the last space
     * outside <> before it */
    size_t start = 0, end = strlen(d);
    int depth = 0;
    for (size_t i = 0; d[i]; i++) {
        if (d[i] == '<') depth++;
        else if (d[i] == '>' && depth) depth--;
        else if (d[i] == ' ' && !depth) start = i + 1;
        else if (d[i] == '(' && !depth) { end = i; break; }
    }
    if (start >= end) start = 0;
    char s[2048];
    size_t n = 0;
    depth = 0;
    for (size_t i = start; i < end && n + 4 < sizeof s; i++) {
        char c = d[i];
        if (c == '<' && ++depth == 2) { memcpy(s + n, "<...", 4); n += 4; continue; }
        if (c == '>' && depth && depth-- == 2) { s[n++] = '>'; continue; }
        if (depth < 2) s[n++] = c;
    }
    s[n] = 0;
    if (width >= 4 && n > width) memcpy(s + width - 3, "...", 4);
    snprintf(buf, size, "%s", s);
    return buf;
}

unsigned loom_kernel_param_count(const struct loom_kernel *k) { return k->nparams; }
void loom_kernel_param(const struct loom_kernel *k, unsigned i, struct loom_param_info *out_info)
{
    if (i < k->nparams) *out_info = k->params[i];
    else memset(out_info, 0, sizeof *out_info);
}

/* The most threads per block the device and k's .maxntid and .reqntid allow (the parser
 * keeps each product within 1024); .reqntid's shape itself is checked at launch. */
static unsigned bounded_threads(const struct loom_kernel *k)
{
    unsigned maxt = (unsigned)k->mod->dev->props.max_threads_per_block;
    const uint32_t *bound[2] = { k->ir->perf.maxntid, k->ir->perf.reqntid };
    for (int b = 0; b < 2; b++) {
        if (!bound[b][0]) continue;
        unsigned t = bound[b][0] * (bound[b][1] ? bound[b][1] : 1) * (bound[b][2] ? bound[b][2] : 1);
        if (t < maxt) maxt = t;
    }
    return maxt;
}

/* The registers are ptxas's as ptx_regalloc.c estimates them (computed once, at load),
 * not the PTX's declarations: what the CUDA runtime reports and occupancy divides by.
 * They also lower max_threads_per_block as on the GPU, but being an estimate they do
 * not refuse launches (check_config uses bounded_threads). */
void loom_kernel_attrs(const struct loom_kernel *k, struct loom_kernel_attrs *out)
{
    memset(out, 0, sizeof *out);
    const struct ptx_func *f = k->ir;
    out->num_regs = f->est_regs;
    out->barriers = f->barriers;
    out->shared_bytes = k->fn->shared_bytes;
    out->local_bytes = k->fn->frame_bytes;
    out->param_bytes = k->param_bytes;
    unsigned maxt = sched_max_threads(k->mod->dev->preset, f->est_regs), bounded = bounded_threads(k);
    out->max_threads_per_block = maxt < bounded ? maxt : bounded;
    out->ptx_version = k->mod->ir->version_major * 10 + k->mod->ir->version_minor;
    out->sm = k->mod->ir->sm;
    out->max_dynamic_shared = k->max_dynamic_shared;
}

/* The occupancy of k on its device's preset: the one place that feeds the kernel's
 * resources to sched_occupancy (the occupancy API, --stats, cooperative launches). */
static enum loom_status kernel_occupancy(const struct loom_kernel *k, unsigned threads_per_block, size_t dyn_shared,
                                         struct sched_occupancy *out)
{
    struct loom_kernel_attrs at;
    loom_kernel_attrs(k, &at);
    return sched_occupancy(k->mod->dev->preset, threads_per_block, at.num_regs, at.shared_bytes + dyn_shared,
                           at.barriers, out);
}

enum loom_status loom_kernel_occupancy(struct loom_kernel *k, unsigned threads_per_block, size_t dyn_shared,
                                       unsigned *out_ctas_per_sm)
{
    if (!k || !out_ctas_per_sm) return fail(LOOM_ERR_INVALID_VALUE, "loom_kernel_occupancy: NULL argument");
    struct sched_occupancy occ;
    enum loom_status st = kernel_occupancy(k, threads_per_block, dyn_shared, &occ);
    if (st != LOOM_OK) return fail(st, "occupancy of '%s' with %u threads per block cannot be computed",
                                   k->ir->name, threads_per_block);
    *out_ctas_per_sm = occ.ctas_per_sm;
    return LOOM_OK;
}

enum loom_status loom_kernel_set_max_dynamic_shared(struct loom_kernel *k, size_t bytes)
{
    size_t limit = k->mod->dev->props.shared_per_block_optin;
    if (bytes + k->fn->shared_bytes > limit)
        return fail(LOOM_ERR_INVALID_VALUE, "%zu bytes of dynamic shared memory exceed the device's limit of %zu",
                    bytes, limit - (size_t)k->fn->shared_bytes);
    k->max_dynamic_shared = bytes;
    return LOOM_OK;
}

/* ---- Memory ------------------------------------------------------------------------ */
enum loom_status loom_malloc(struct loom_device *dev, size_t size, uint64_t *out_addr)
{
    API_TRACE(dev, "cudaMalloc");
    API_BYTES(size);
    if (!dev || !out_addr) return fail(LOOM_ERR_INVALID_VALUE, "loom_malloc: NULL argument");
    if (mem_alloc(dev->mem, size, MEM_DEVICE, NULL, out_addr) != 0)
        return fail(LOOM_ERR_OUT_OF_MEMORY, "out of device memory allocating %zu bytes", size);
    return LOOM_OK;
}

enum loom_status loom_malloc_managed(struct loom_device *dev, size_t size, uint64_t *out_addr)
{
    API_TRACE(dev, "cudaMallocManaged");
    API_BYTES(size);
    if (!dev || !out_addr) return fail(LOOM_ERR_INVALID_VALUE, "loom_malloc_managed: NULL argument");
    if (mem_alloc(dev->mem, size, MEM_DEVICE | MEM_MANAGED, NULL, out_addr) != 0)
        return fail(LOOM_ERR_OUT_OF_MEMORY, "out of device memory allocating %zu bytes", size);
    return LOOM_OK;
}

enum loom_status loom_free(struct loom_device *dev, uint64_t addr)
{
    API_TRACE(dev, "cudaFree");
    if (!addr) return LOOM_OK;
    if (mem_free_user(dev->mem, addr) != 0)
        return fail(LOOM_ERR_INVALID_POINTER, "0x%llx is not the start of a live device allocation",
                    (unsigned long long)addr);
    return LOOM_OK;
}

enum loom_status loom_pointer_info(struct loom_device *dev, uint64_t addr, uint64_t *out_base, size_t *out_size,
                                   bool *out_managed)
{
    mem_read_begin(dev->mem);
    const struct mem_alloc *a = mem_find(dev->mem, addr, 1);
    if (a) {
        if (out_base) *out_base = a->base;
        if (out_size) *out_size = a->size;
        if (out_managed) *out_managed = (a->flags & MEM_MANAGED) != 0;
    }
    mem_read_end(dev->mem);
    if (!a) return fail(LOOM_ERR_INVALID_POINTER, "0x%llx is not in a device allocation", (unsigned long long)addr);
    return LOOM_OK;
}

void loom_mem_info(struct loom_device *dev, size_t *out_free, size_t *out_total)
{
    uint64_t used, cap;
    mem_usage(dev->mem, &used, &cap);
    if (out_free) *out_free = cap > used ? cap - used : 0;
    if (out_total) *out_total = cap;
}

/* ---- Virtual time: what operations cost ---------------------------------------------------- */

#define VT_PCIE_BPS 25e9            /* host <-> device copies (PCIe 5 x16 as measured, not peak) */

/* The device memory's bandwidth: two transfers a clock over the bus. */
static double hbm_bps(const struct loom_device *dev)
{
    return 2.0 * dev->props.mem_clock_khz * 1e3 * (dev->props.mem_bus_width / 8.0);
}

/* A copy's engine and time: host to device and back at PCIe's rate, on the device (and
 * memsets) at the memory's (a copy reads and writes). */
static void copy_cost(struct loom_device *dev, struct sched_op *op)
{
    mem_read_begin(dev->mem);
    bool dst_dev = mem_find(dev->mem, (uint64_t)(uintptr_t)op->dst, 1) != NULL;
    bool src_dev = op->kind == SCHED_OP_COPY && mem_find(dev->mem, (uint64_t)(uintptr_t)op->src, 1) != NULL;
    mem_read_end(dev->mem);
    if (op->kind == SCHED_OP_SET) { op->vt_engine = 2; op->vt_s = (double)op->n / hbm_bps(dev); }
    else if (dst_dev && src_dev) { op->vt_engine = 2; op->vt_s = 2.0 * (double)op->n / hbm_bps(dev); }
    else if (dst_dev) { op->vt_engine = 0; op->vt_s = (double)op->n / VT_PCIE_BPS; }
    else { op->vt_engine = 1; op->vt_s = (double)op->n / VT_PCIE_BPS; }
}

/* A completed kernel's CTA times (under the scheduler's lock). An SM issues 4 warp
 * instructions a clock (an H100 SM's four schedulers), a warp at most one every
 * VT_ISSUE_GAP clocks (dependent instructions' latency); the SM moves 1/sms of the memory
 * bandwidth. The CTAs of the kernel an SM holds when it runs alone (its occupancy, or fewer
 * when the grid is small: nctas / sms) share those; a CTA's time is the longer of its
 * issue time (its counted warp instructions) and its memory time (its share of the
 * kernel's global bytes, counted in sectors). */
#define VT_ISSUE_GAP 4.0
static void vtime_kernel(struct loom_device *dev, struct sched_grid *g)
{
    struct loom_kernel *k = g->k;
    unsigned threads = g->L.block[0] * g->L.block[1] * g->L.block[2];
    struct sched_occupancy occ;
    unsigned per_sm = kernel_occupancy(k, threads, g->L.dyn_shared, &occ) == LOOM_OK && occ.ctas_per_sm
                          ? occ.ctas_per_sm : 1;
    double bytes = 0;
    if (g->L.obs) {
        struct emu_obs_pc *sum = calloc(g->L.obs->ncode ? g->L.obs->ncode : 1, sizeof *sum);
        if (sum) {
            emu_obs_sum(g->L.obs, sum);
            for (uint32_t pc = 0; pc < g->L.obs->ncode; pc++) bytes += 32.0 * (double)sum[pc].sectors;
            free(sum);
        }
    }
    double *cta_s = malloc((g->nctas ? g->nctas : 1) * sizeof *cta_s);
    if (!cta_s) return;
    double clock = dev->props.clock_khz * 1e3, sms = dev->props.multiprocessors;
    double nctas = (double)(g->nctas ? g->nctas : 1);
    double resident = ceil(nctas / sms) < per_sm ? ceil(nctas / sms) : per_sm;
    double warps = ceil(threads / 32.0), rate = 4.0 / resident;        /* warp instructions a clock */
    if (warps / VT_ISSUE_GAP < rate) rate = warps / VT_ISSUE_GAP;
    double mem_s = bytes / nctas * sms * resident / hbm_bps(dev);
    double avg = (double)atomic_load(&g->warp_inst) / nctas;
    for (uint64_t i = 0; i < g->nctas; i++) {
        double insts = g->cta_inst ? g->cta_inst[i] : avg;
        double issue_s = insts / (rate * clock);
        cta_s[i] = issue_s > mem_s ? issue_s : mem_s;
    }
    sched_vtrace_kernel(dev->sched, g->op->vt_index, cta_s, g->nctas, per_sm, g->trace_name);
}

/* ---- Segments: what an operation reads and writes (policies that reorder) ------------- */

/* How k uses its pointer parameters (ptx/ptx_access.h), analysed on its first launch under a
 * policy that reorders; NULL when it cannot be told (then the launch is all memory). */
_Static_assert((int)PTX_ACCESS_READ == (int)SCHED_READ && (int)PTX_ACCESS_WRITE == (int)SCHED_WRITE, "access bits are segment modes");
static const struct ptx_kernel_access *kernel_access_of(struct loom_device *dev, struct loom_kernel *k)
{
    pthread_mutex_lock(&dev->lock);
    if (!k->access_done) {
        k->access_done = true;
        struct ptx_kernel_access *a = calloc(1, sizeof *a);
        char err[256];
        if (a && ptx_access_analyze(k->mod->ir, k->ir, a, err, sizeof err) == 0) k->access = a;
        else free(a);
    }
    pthread_mutex_unlock(&dev->lock);
    return k->access;
}

/* The region [addr, addr + n) is in: the device allocation holding all of it (by its base),
 * host memory outside every allocation, or all memory (it spans allocations). */
static uint64_t region_key(struct loom_device *dev, uint64_t addr, uint64_t n)
{
    const struct mem_alloc *a = mem_find(dev->mem, addr, n ? n : 1);
    if (a) return a->base;
    return mem_find(dev->mem, addr, 1) ? SCHED_KEY_ALL : SCHED_KEY_HOST;
}

/* A segment with its range: exact, or the allocation a pointer argument falls in. */
static void seg_range(struct sched_seg *v, unsigned *n, uint64_t key, unsigned mode, bool exact, uint64_t lo,
                      uint64_t hi, uint64_t ptr)
{
    if (mode) v[(*n)++] = (struct sched_seg){ key, mode, exact, lo, hi, ptr };
}

/* A segment without a range (all memory, the printf buffer). */
static void seg_add(struct sched_seg *v, unsigned *n, uint64_t key, unsigned mode)
{
    seg_range(v, n, key, mode, false, 0, 0, 0);
}

/* A launch's segments: the exact ranges the caller gave, else the allocations its pointer
 * arguments fall in, each with the parameter's access mode (ptx/ptx_access.h); what cannot
 * be told (a pointer outside every allocation, pointers loaded from memory, the device
 * heap) is all memory. No segments at all means all memory, read and written. */
static void kernel_segments(struct loom_device *dev, struct loom_kernel *k, const struct loom_launch_config *cfg,
                            const uint8_t *params, struct sched_op *op)
{
    const struct ptx_kernel_access *acc = cfg->access ? NULL : kernel_access_of(dev, k);
    if (!cfg->access && !acc) return;                          /* unknown: all memory */
    unsigned max = (cfg->access ? cfg->naccess : k->nparams + k->mod->nglobals + 1) + 2;
    struct sched_seg *v = calloc(max, sizeof *v);
    if (!v) return;
    unsigned n = 0;
    mem_read_begin(dev->mem);
    if (cfg->access) {
        for (unsigned i = 0; i < cfg->naccess; i++) {
            const struct loom_access_range *r = &cfg->access[i];
            seg_range(v, &n, r->size ? region_key(dev, r->addr, r->size) : SCHED_KEY_HOST,
                      r->mode & (SCHED_READ | SCHED_WRITE), true, r->addr, r->addr + r->size, r->addr);
        }
    } else {
        for (unsigned i = 0; i < k->nparams && i < acc->nparams; i++) {
            unsigned mode = ptx_access_param_mode(&acc->params[i]);   /* (PTX_ACCESS_* = SCHED_*) */
            if (!mode) continue;
            uint64_t ptr = 0;
            if (k->params[i].size == 8) memcpy(&ptr, params + k->params[i].offset, 8);
            const struct mem_alloc *a = k->params[i].size == 8 ? mem_find(dev->mem, ptr, 1) : NULL;
            if (a) seg_range(v, &n, a->base, mode, false, a->base, a->base + a->size, ptr);
            else seg_add(v, &n, SCHED_KEY_ALL, mode);
        }
        if (acc->globals)
            for (unsigned i = 0; i < k->mod->nglobals; i++) {
                const struct mem_alloc *a = mem_find(dev->mem, k->mod->global_addrs[i], 1);
                if (a) seg_range(v, &n, a->base, acc->globals, true, a->base, a->base + a->size, a->base);
                else seg_add(v, &n, SCHED_KEY_ALL, acc->globals);
            }
        seg_add(v, &n, SCHED_KEY_ALL, acc->other);
    }
    mem_read_end(dev->mem);
    if (k->fn->host_uses & EMU_USES_MALLOC) seg_add(v, &n, SCHED_KEY_ALL, SCHED_READ | SCHED_WRITE);
    if (k->fn->host_uses & (EMU_USES_PRINTF | EMU_USES_ASSERT)) seg_add(v, &n, SCHED_KEY_PRINTF, SCHED_WRITE);
    if (!n) seg_add(v, &n, SCHED_KEY_PRINTF, SCHED_READ);      /* (touches nothing: conflicts with nothing) */
    op->segs = v;
    op->nsegs = n;
}

/* A copy reads its source and writes its destination; a set writes its destination. */
static void copy_segments(struct loom_device *dev, struct sched_op *op)
{
    if (!(op->segs = calloc(2, sizeof *op->segs))) return;
    mem_read_begin(dev->mem);
    uint64_t d = (uint64_t)(uintptr_t)op->dst, s = (uint64_t)(uintptr_t)op->src;
    op->segs[0] = (struct sched_seg){ region_key(dev, d, op->n), SCHED_WRITE, true, d, d + op->n, d };
    if (op->kind == SCHED_OP_COPY)
        op->segs[1] = (struct sched_seg){ region_key(dev, s, op->n), SCHED_READ, true, s, s + op->n, s };
    mem_read_end(dev->mem);
    op->nsegs = op->kind == SCHED_OP_COPY ? 2 : 1;
}

static struct sched_op *new_op(enum sched_op_kind kind, struct loom_stream *stream)
{
    struct sched_op *op = calloc(1, sizeof *op);
    if (op) { op->kind = kind; op->stream = stream; }
    return op;
}

/* Submits op and, when `wait`, waits for it (and everything before it on its stream). In a host
 * function only asynchronous work may be queued, and deterministic mode does not wait
 * for it there (the stream it waits on may be the one running the host function). */
static enum loom_status submit(struct loom_device *dev, struct sched_op *op, bool wait)
{
    struct loom_stream *st = op->stream ? op->stream : dev->sched->default_stream;
    bool in_host = sched_in_host_func();
    if (wait && in_host) {
        const char *what = op->kind == SCHED_OP_COPY ? "a blocking copy" : "a blocking memset";
        free(op->segs);
        free(op);
        return waits_in_host_func(what);
    }
    uint64_t t_submit = dev->trace ? sched_now_ns() : 0;
    const char *flow = op->kind == SCHED_OP_KERNEL ? "launch" : op->kind == SCHED_OP_COPY ? "copy"
                       : op->kind == SCHED_OP_SET ? "memset" : op->kind == SCHED_OP_HOST ? "host function" : NULL;
    uint64_t seq = sched_submit(dev->sched, op);
    if (dev->trace && flow) loom_trace_flow_out(dev->trace, flow, seq, t_submit);
    if ((wait || dev->cfg.deterministic) && !in_host) sched_wait_stream(dev->sched, st, seq);
    return LOOM_OK;
}

/* "memcpy HtoD" ...: the copy's direction from its addresses: D a device allocation, M
 * managed memory (cudaMallocManaged, and cudaMallocHost, which the runtime makes the same
 * way), H any other host memory. */
static const char *copy_name(struct loom_device *dev, const void *dst, const void *src)
{
    static const char *const names[3][3] = {
        { "memcpy HtoH", "memcpy HtoD", "memcpy HtoM" },
        { "memcpy DtoH", "memcpy DtoD", "memcpy DtoM" },
        { "memcpy MtoH", "memcpy MtoD", "memcpy MtoM" },
    };
    mem_read_begin(dev->mem);
    const struct mem_alloc *a[2] = { mem_find(dev->mem, (uint64_t)(uintptr_t)src, 1),
                                     mem_find(dev->mem, (uint64_t)(uintptr_t)dst, 1) };
    unsigned side[2];
    for (int i = 0; i < 2; i++)
        side[i] = !a[i] || !(a[i]->flags & MEM_DEVICE) ? 0 : a[i]->flags & MEM_MANAGED ? 2 : 1;
    mem_read_end(dev->mem);
    return names[side[0]][side[1]];
}

static enum loom_status copy_op(struct loom_device *dev, void *dst, const void *src, size_t n,
                                struct loom_stream *stream, bool wait)
{
    if (!n) return LOOM_OK;
    if (!dst || !src) return fail(LOOM_ERR_INVALID_VALUE, "loom_memcpy: NULL pointer");
    struct sched_op *op = new_op(SCHED_OP_COPY, stream);
    if (!op) return fail(LOOM_ERR_OUT_OF_MEMORY, "out of host memory");
    op->dst = dst; op->src = src; op->n = n;
    if (dev->trace) op->trace_name = copy_name(dev, dst, src);
    if (dev->checker) emu_check_host_write(dev->checker, (uint64_t)(uintptr_t)dst, n);
    if (sched_needs_segments(dev->sched)) copy_segments(dev, op);
    if (dev->cfg.timing_model) copy_cost(dev, op);
    return submit(dev, op, wait);
}

/* Blocking copies and sets flush kernel printf output, as CUDA does. */
enum loom_status loom_memcpy(struct loom_device *dev, void *dst, const void *src, size_t n)
{
    API_TRACE(dev, "cudaMemcpy");
    API_BYTES(n);
    enum loom_status st = copy_op(dev, dst, src, n, NULL, true);
    emu_host_flush(dev->host);
    return st;
}

enum loom_status loom_memcpy_async(struct loom_device *dev, void *dst, const void *src, size_t n,
                                   struct loom_stream *stream)
{
    API_TRACE(dev, "cudaMemcpyAsync");
    API_BYTES(n);
    return copy_op(dev, dst, src, n, stream, false);
}

static enum loom_status set_op(struct loom_device *dev, uint64_t addr, int value, size_t n, struct loom_stream *stream,
                               bool wait)
{
    if (!n) return LOOM_OK;
    mem_read_begin(dev->mem);
    bool inside = mem_find(dev->mem, addr, n) != NULL;
    mem_read_end(dev->mem);
    if (!inside) return fail(LOOM_ERR_INVALID_VALUE, "loom_memset: [0x%llx, +%zu) is not inside one device allocation",
                             (unsigned long long)addr, n);
    struct sched_op *op = new_op(SCHED_OP_SET, stream);
    if (!op) return fail(LOOM_ERR_OUT_OF_MEMORY, "out of host memory");
    op->dst = (void *)(uintptr_t)addr; op->value = value; op->n = n;
    op->trace_name = "memset";
    if (dev->checker) emu_check_host_write(dev->checker, addr, n);
    if (sched_needs_segments(dev->sched)) copy_segments(dev, op);
    if (dev->cfg.timing_model) copy_cost(dev, op);
    return submit(dev, op, wait);
}

enum loom_status loom_memset(struct loom_device *dev, uint64_t addr, int value, size_t n)
{
    API_TRACE(dev, "cudaMemset");
    API_BYTES(n);
    enum loom_status st = set_op(dev, addr, value, n, NULL, true);
    emu_host_flush(dev->host);
    return st;
}

struct foreach_ctx {
    void (*fn)(const struct loom_alloc_info *a, void *ctx);
    void *ctx;
};

static void foreach_user(const struct mem_alloc *a, void *p)
{
    const struct foreach_ctx *c = p;
    /* registered host memory is inserted with MEM_HOST (mem_register); the host API's own
     * allocations are MEM_DEVICE, managed ones MEM_MANAGED too */
    if (!(a->flags & MEM_DEVICE) || (a->flags & (MEM_MODULE | MEM_HEAP | MEM_HOST | MEM_READONLY)) || a->label) return;
    struct loom_alloc_info info = { .addr = a->base, .size = (size_t)a->size, .id = a->id,
                                    .managed = (a->flags & MEM_MANAGED) != 0 };
    c->fn(&info, c->ctx);
}

void loom_foreach_allocation(struct loom_device *dev, void (*fn)(const struct loom_alloc_info *a, void *ctx),
                             void *ctx)
{
    if (!dev || !fn) return;
    struct foreach_ctx c = { fn, ctx };
    mem_foreach(dev->mem, foreach_user, &c);
}

enum loom_status loom_host_register(struct loom_device *dev, void *p, size_t size)
{
    uint64_t addr;
    if (!dev || !p || !size) return fail(LOOM_ERR_INVALID_VALUE, "loom_host_register: NULL pointer or zero size");
    if (mem_register(dev->mem, p, size, MEM_DEVICE, &addr) != 0)
        return fail(LOOM_ERR_INVALID_VALUE, "loom_host_register: %p is already registered or overlaps device memory", p);
    return LOOM_OK;
}

enum loom_status loom_host_unregister(struct loom_device *dev, void *p)
{
    if (!dev || mem_unregister(dev->mem, (uint64_t)(uintptr_t)p) != 0)
        return fail(LOOM_ERR_INVALID_VALUE, "loom_host_unregister: %p is not registered host memory", p);
    return LOOM_OK;
}

enum loom_status loom_memset_async(struct loom_device *dev, uint64_t addr, int value, size_t n,
                                   struct loom_stream *stream)
{
    API_TRACE(dev, "cudaMemsetAsync");
    API_BYTES(n);
    return set_op(dev, addr, value, n, stream, false);
}

/* ---- Launch ------------------------------------------------------------------------- */
static enum loom_status check_config(struct loom_device *dev, struct loom_kernel *k,
                                     const struct loom_launch_config *cfg)
{
    const struct loom_device_props *p = &dev->props;
    uint64_t threads = (uint64_t)cfg->block[0] * cfg->block[1] * cfg->block[2];
    for (int i = 0; i < 3; i++) {
        if (!cfg->grid[i] || !cfg->block[i])
            return fail(LOOM_ERR_INVALID_CONFIG, "launch of '%s': grid and block dimensions must be at least 1 "
                        "(grid %u,%u,%u block %u,%u,%u)", k->ir->name, cfg->grid[0], cfg->grid[1], cfg->grid[2],
                        cfg->block[0], cfg->block[1], cfg->block[2]);
        if (cfg->block[i] > (unsigned)p->max_block_dim[i])
            return fail(LOOM_ERR_INVALID_CONFIG, "launch of '%s': block dimension %c is %u, the device allows %d",
                        k->ir->name, "xyz"[i], cfg->block[i], p->max_block_dim[i]);
        if (cfg->grid[i] > (unsigned)p->max_grid_dim[i])
            return fail(LOOM_ERR_INVALID_CONFIG, "launch of '%s': grid dimension %c is %u, the device allows %d",
                        k->ir->name, "xyz"[i], cfg->grid[i], p->max_grid_dim[i]);
    }
    /* PTX ISA .reqntid: a launch with another block shape fails, as on the GPU. */
    const uint32_t *req = k->ir->perf.reqntid;
    if (req[0] && (cfg->block[0] != req[0] || cfg->block[1] != (req[1] ? req[1] : 1) ||
                   cfg->block[2] != (req[2] ? req[2] : 1)))
        return fail(LOOM_ERR_INVALID_CONFIG, "launch of '%s': block %u,%u,%u, but the kernel's .reqntid requires "
                    "%u,%u,%u", k->ir->name, cfg->block[0], cfg->block[1], cfg->block[2], req[0],
                    req[1] ? req[1] : 1, req[2] ? req[2] : 1);
    struct loom_kernel_attrs at;
    loom_kernel_attrs(k, &at);
    if (threads > bounded_threads(k))
        return fail(LOOM_ERR_INVALID_CONFIG, "launch of '%s': %llu threads per block, at most %u allowed",
                    k->ir->name, (unsigned long long)threads, bounded_threads(k));
    if (cfg->shared_bytes > k->max_dynamic_shared)
        return fail(LOOM_ERR_INVALID_CONFIG, "launch of '%s': %zu bytes of dynamic shared memory, the kernel allows "
                    "%zu (raise it with the max-dynamic-shared attribute)", k->ir->name, cfg->shared_bytes,
                    k->max_dynamic_shared);
    if (cfg->shared_bytes + at.shared_bytes > p->shared_per_block_optin)
        return fail(LOOM_ERR_INVALID_CONFIG, "launch of '%s': %zu bytes of shared memory per block, at most %zu",
                    k->ir->name, cfg->shared_bytes + at.shared_bytes, p->shared_per_block_optin);
    return LOOM_OK;
}

/* The grid's residency samples as averages per bin; a bin without samples had no CTA
 * start, finish or slice end anywhere, so residency had not changed: it repeats the
 * bin before. */
static void copy_timeline(struct loom_kernel_stats *out, const struct sched_timeline *tl)
{
    out->timeline_bins = tl->nbins;
    out->timeline_interval_s = 1e-9 * (double)tl->bin_ns;
    float res = 0, run = 0;
    for (unsigned i = 0; i < LOOM_TIMELINE_BINS; i++) {
        if (i < tl->nbins && tl->count[i]) {
            res = (float)(tl->resident[i] / tl->count[i]);
            run = (float)(tl->running[i] / tl->count[i]);
        }
        out->timeline_resident[i] = i < tl->nbins ? res : 0;
        out->timeline_running[i] = i < tl->nbins ? run : 0;
    }
}

/* The issue model's counters as the API has them. */
static void simt_public(struct loom_simt_stats *o, const struct emu_simt_stats *st)
{
    *o = (struct loom_simt_stats){
        .slots = st->slots, .lanes = st->lanes, .divergent_branches = st->diverge, .reconvergences = st->reconverge,
        .max_depth = st->max_depth, .warps_formed = st->formed, .warps_split = st->split,
        .lane_conflicts = st->conflicts, .coissued = st->coissued,
    };
    memcpy(o->hist, st->hist, sizeof o->hist);
}

static void record_stats(struct loom_device *dev, const struct sched_grid *g)
{
    struct loom_kernel *k = g->k;
    pthread_mutex_lock(&dev->lock);
    if (dev->cfg.stats_launches) {
        if (dev->nlaunches == dev->launches_cap) {
            size_t cap = dev->launches_cap ? 2 * dev->launches_cap : 64;
            struct loom_launch_stats *n = realloc(dev->launches, cap * sizeof *n);
            if (n) { dev->launches = n; dev->launches_cap = cap; }
        }
        char *name = dev->nlaunches < dev->launches_cap ? strdup(k->ir->name) : NULL;
        if (name)
            dev->launches[dev->nlaunches++] = (struct loom_launch_stats){
                .kernel = name, .grid = { g->L.grid[0], g->L.grid[1], g->L.grid[2] },
                .block = { g->L.block[0], g->L.block[1], g->L.block[2] }, .dynamic_shared = g->L.dyn_shared,
                .seconds = g->seconds, .ctas = atomic_load(&g->ctas_run), .warp_instructions = atomic_load(&g->warp_inst),
                .thread_instructions = atomic_load(&g->thread_inst), .faulted = atomic_load(&g->fault_set) != 0,
            };
        if (name) simt_public(&dev->launches[dev->nlaunches - 1].simt, &g->simt);
    }
    struct sched_stats_entry *e = dev->stats;
    while (e && strcmp(e->kernel, k->ir->name)) e = e->next;
    if (!e && (e = calloc(1, sizeof *e))) {
        e->kernel = strdup(k->ir->name);
        e->s.kernel = e->kernel;
        e->next = dev->stats;
        dev->stats = e;
    }
    if (e) {
        e->s.launches++;
        e->s.seconds += g->seconds;
        e->s.warp_instructions += atomic_load(&g->warp_inst);
        e->s.thread_instructions += atomic_load(&g->thread_inst);
        e->s.divergent_branches += atomic_load(&g->diverge);
        e->s.barrier_waits += atomic_load(&g->barrier_waits);
        e->s.ctas += atomic_load(&g->ctas_run);
        e->s.parks += atomic_load(&g->parks);
        if (atomic_load(&g->max_resident) > e->s.max_resident) e->s.max_resident = atomic_load(&g->max_resident);
        e->s.wakeups += atomic_load(&g->wakeups);
        e->s.chunks += atomic_load(&g->chunks);
        e->s.steals += atomic_load(&g->steals);
        e->s.admits_parked += atomic_load(&g->admits_parked);
        emu_simt_stats_add(&e->simt, &g->simt);
        simt_public(&e->s.simt, &e->simt);
        e->s.simt_policy = dev->simt.spec;
        e->s.workers = dev->sched->workers;
        if (e->s.launches == 1 || g->seconds > e->longest) {
            e->longest = g->seconds;
            copy_timeline(&e->s, &g->tl);
        }
        struct sched_occupancy occ;
        unsigned threads = g->L.block[0] * g->L.block[1] * g->L.block[2];
        if (kernel_occupancy(k, threads, g->L.dyn_shared, &occ) == LOOM_OK) {
            static const char *const limiter[] = {
                [SCHED_LIMIT_WARPS] = "threads", [SCHED_LIMIT_REGISTERS] = "registers",
                [SCHED_LIMIT_SHARED] = "shared", [SCHED_LIMIT_CTAS] = "cta_slots",
                [SCHED_LIMIT_BARRIERS] = "barriers", [SCHED_LIMIT_BLOCK_SIZE] = "block_size",
            };
            e->s.occupancy_ctas_per_sm = occ.ctas_per_sm;
            e->s.occupancy = occ.occupancy;
            e->s.occupancy_by_threads = occ.by_warps;
            e->s.occupancy_by_registers = occ.by_registers;
            /* Without shared memory the driver's carve-out holds as many CTAs as there are
             * slots: Nsight Compute's launch__occupancy_limit_shared_mem. */
            e->s.occupancy_by_shared = k->fn->shared_bytes + g->L.dyn_shared ? occ.by_shared : occ.by_ctas;
            e->s.occupancy_by_ctas = occ.by_ctas;
            e->s.occupancy_by_barriers = occ.by_barriers;
            e->s.occupancy_limiter = (unsigned)occ.limit < sizeof limiter / sizeof limiter[0] ? limiter[occ.limit] : "";
            e->shared_block = (unsigned)(k->fn->shared_bytes + g->L.dyn_shared);
        }
        e->s.block_threads = threads;
        struct loom_kernel_attrs at;
        loom_kernel_attrs(k, &at);
        e->s.registers_per_thread = at.num_regs;
        sched_stats_count(e, g);
    }
    pthread_mutex_unlock(&dev->lock);
}

/* The kernel's slice on its stream's track, from its start to now, with the launch's shape,
 * and the end of the flow from the cudaLaunchKernel that queued it. */
static void trace_kernel(struct loom_trace *t, const struct sched_grid *g)
{
    char args[1536], name[1024];
    const struct emu_launch *L = &g->L;
    int n = snprintf(args, sizeof args, "{\"kernel\":\"");
    for (const char *c = loom_demangle(g->k->ir->name, name, sizeof name); *c && n < 1200; c++)
        if (*c != '"' && *c != '\\' && (unsigned char)*c >= 0x20) args[n++] = *c;
    snprintf(args + n, sizeof args - (size_t)n, "\",\"grid\":[%u,%u,%u],\"block\":[%u,%u,%u],\"shared\":%zu,"
             "\"args\":%u,\"gridid\":%u,\"ctas\":%llu,\"faulted\":%s,\"policy\":\"%s\",\"waited_for\":%u,"
             "\"overlapped\":%s}", L->grid[0], L->grid[1], L->grid[2],
             L->block[0], L->block[1], L->block[2], (size_t)L->dyn_shared, g->k->nparams, (unsigned)L->gridid,
             (unsigned long long)g->nctas, atomic_load(&g->fault_set) ? "true" : "false",
             g->k->mod->dev->sched->policy_spec, g->op->deps_found, g->overlapped ? "true" : "false");
    unsigned track = LOOM_TRACE_STREAM_TRACK(g->op->stream->id);
    const char *label = g->trace_name ? g->trace_name : "kernel";
    loom_trace_slice(t, track, label, g->tl.start_ns, sched_now_ns(), args);
    loom_trace_flow_in(t, track, "launch", g->op->seq, g->tl.start_ns);
}

/* Called by the scheduler (under its lock) when every CTA has finished. */
static void grid_done(struct sched_grid *g)
{
    struct loom_device *dev = g->k->mod->dev;
    mem_read_end(dev->mem);
    if (g->L.grid_workspace) mem_free(dev->mem, g->L.grid_workspace);
    if (dev->cfg.stats) record_stats(dev, g);
    if (dev->trace) trace_kernel(dev->trace, g);
    if (dev->cfg.timing_model && !atomic_load(&g->fault_set)) vtime_kernel(dev, g);
    if (atomic_load(&g->fault_set)) {
        pthread_mutex_lock(&dev->lock);
        /* The host thread reads sticky without the lock, then sticky_msg: the
         * message is complete before the status is published. */
        if (dev->sticky == LOOM_OK) {
            snprintf(dev->sticky_msg, sizeof dev->sticky_msg, "%s", g->fault.msg);
            dev->sticky_stamp = next_stamp();
            atomic_store_explicit(&dev->sticky, (enum loom_status)g->fault.status, memory_order_release);
        }
        pthread_mutex_unlock(&dev->lock);
    }
}

/* The trace's warp slices and events (--trace-warps), from the observed dispatch. */
static unsigned cta_linear(const struct emu_cta *cta)
{
    const struct emu_launch *L = cta->launch;
    return cta->ctaid[0] + L->grid[0] * (cta->ctaid[1] + L->grid[1] * cta->ctaid[2]);
}

static void trace_warp_slice(void *ctx, const struct emu_cta *cta, uint32_t warp, uint64_t t0_ns, uint64_t t1_ns,
                             const char *why, uint64_t n)
{
    loom_trace_warp_slice(ctx, cta->worker, cta_linear(cta), warp, t0_ns, t1_ns, why, n);
}

static void trace_warp_event(void *ctx, const struct emu_cta *cta, uint32_t warp, uint64_t ts_ns, const char *what,
                             uint32_t pc, emu_mask mask)
{
    const struct emu_program *p = cta->launch->prog;
    loom_trace_warp_event(ctx, cta->worker, cta_linear(cta), warp, ts_ns, what,
                          pc < p->ncode ? p->locs[pc].ptx_line : 0, mask);
}

enum loom_status loom_launch(struct loom_device *dev, struct loom_kernel *k, const struct loom_launch_config *cfg,
                             void **args)
{
    API_TRACE(dev, "cudaLaunchKernel");
    if (!dev || !k || !cfg) return fail(LOOM_ERR_INVALID_VALUE, "loom_launch: NULL argument");
    if (dev->sticky != LOOM_OK) return fail(dev->sticky, "%s", dev->sticky_msg);
    emu_host_flush(dev->host);   /* CUDA flushes printf output at the start of a launch */
    enum loom_status st = check_config(dev, k, cfg);
    if (st != LOOM_OK) return st;
    if (k->fn->host_uses) atomic_fetch_or(&dev->host_used, k->fn->host_uses);
    if (k->nparams && !args) return fail(LOOM_ERR_INVALID_ARGS, "launch of '%s': no arguments for %u parameters",
                                         k->ir->name, k->nparams);
    uint64_t nctas = (uint64_t)cfg->grid[0] * cfg->grid[1] * cfg->grid[2];
    if (cfg->cooperative) {
        struct sched_occupancy occ;
        unsigned threads = cfg->block[0] * cfg->block[1] * cfg->block[2];
        uint64_t limit = 0;
        if (kernel_occupancy(k, threads, cfg->shared_bytes, &occ) == LOOM_OK)
            limit = (uint64_t)occ.ctas_per_sm * (uint64_t)dev->props.multiprocessors;
        if (nctas > limit)
            return fail(LOOM_ERR_INVALID_CONFIG, "cooperative launch of '%s': %llu blocks, but at most %llu can be "
                        "resident at once on this device (%u per SM x %d SMs)", k->ir->name,
                        (unsigned long long)nctas, (unsigned long long)limit, occ.ctas_per_sm, dev->props.multiprocessors);
    }
    struct sched_grid *g = calloc(1, sizeof *g);
    struct sched_op *op = new_op(SCHED_OP_KERNEL, cfg->stream);
    uint8_t *params = calloc(1, k->param_bytes + 16);
    if (!g || !op || !params) {
        free(g); free(op); free(params);
        return fail(LOOM_ERR_OUT_OF_MEMORY, "out of host memory");
    }
    for (unsigned i = 0; i < k->nparams; i++) {
        if (!args[i]) {
            free(g); free(op); free(params);
            return fail(LOOM_ERR_INVALID_ARGS, "launch of '%s': argument %u is NULL", k->ir->name, i);
        }
        memcpy(params + k->params[i].offset, args[i], k->params[i].size);
    }
    g->L = (struct emu_launch){
        .prog = k->mod->prog, .entry = k->fn,
        .grid = { cfg->grid[0], cfg->grid[1], cfg->grid[2] },
        .block = { cfg->block[0], cfg->block[1], cfg->block[2] },
        .dyn_shared = cfg->shared_bytes, .params = params, .params_size = k->param_bytes,
        .mem = dev->mem, .host = dev->host, .zero_shared = dev->cfg.deterministic,
        .check = !dev->cfg.no_check || dev->cfg.initcheck || dev->cfg.racecheck,
        .initcheck = dev->checker != NULL, .racecheck = dev->cfg.racecheck, .checker = dev->checker,
        .nsm = (uint32_t)dev->props.multiprocessors, .nwarpid = (uint32_t)(dev->props.max_threads_per_sm / 32),
        .simt = dev->simt.kind == EMU_SIMT_PDOM ? NULL : &dev->simt,
    };
    /* Every instruction observed: for the counters, and for the trace's warp slices. */
    bool warps = dev->trace && dev->cfg.trace_warps;
    if ((dev->cfg.counters || warps) &&
        !(g->L.obs = emu_obs_create(k->mod->prog, (g->L.block[0] * g->L.block[1] * g->L.block[2] + 31) / 32))) {
        free(g); free(op); free(params);
        return fail(LOOM_ERR_OUT_OF_MEMORY, "out of host memory");
    }
    if (warps) g->L.obs->hooks = (struct emu_obs_hooks){ dev->trace, trace_warp_slice, trace_warp_event };
    g->k = k;
    if (dev->cfg.debugger) loom_debug_launch_made(dev->cfg.debugger, g);   /* (gridid set below) */
    pthread_mutex_lock(&dev->lock);
    g->L.gridid = ++dev->next_gridid;
    pthread_mutex_unlock(&dev->lock);
    uint64_t stack = dev->stack_bytes < 16384 ? 16384 : dev->stack_bytes;
    /* Local memory per thread: the kernel's frame, plus a stack when it can call. */
    g->L.local_stride = align_up(k->fn->frame_bytes, 16) + (k->mod->prog->has_calls ? stack : 0);
    if (cfg->cooperative && mem_alloc(dev->mem, 64, MEM_DEVICE, "grid barrier workspace", &g->L.grid_workspace) != 0) {
        free(g); free(op); free(params);
        return fail(LOOM_ERR_OUT_OF_MEMORY, "out of device memory for the grid barrier");
    }
    if (g->L.grid_workspace && dev->checker) emu_check_host_write(dev->checker, g->L.grid_workspace, 64);
    g->params = params;
    g->k = k;
    g->op = op;
    g->nctas = nctas;
    if (k->fn->host_uses & EMU_USES_ASSERT) {
        /* the CTAs the GPU holds at once run on after a failed assert (record_fault) */
        unsigned per_sm = 0;
        if (loom_kernel_occupancy(k, cfg->block[0] * cfg->block[1] * cfg->block[2], cfg->shared_bytes,
                                  &per_sm) == LOOM_OK)
            g->assert_wave = (uint64_t)per_sm * (uint64_t)dev->props.multiprocessors;
    }
    atomic_init(&g->refs, 1);
    g->on_done = grid_done;
    if (dev->trace) {
        char name[64];
        g->trace_name = loom_trace_intern(dev->trace, loom_short_name(k->ir->name, 48, name, sizeof name));
    }
    op->grid = g;
    if (sched_needs_segments(dev->sched)) kernel_segments(dev, k, cfg, params, op);
    if (dev->cfg.timing_model && nctas <= (1u << 24)) g->cta_inst = calloc(nctas, sizeof *g->cta_inst);
    mem_read_begin(dev->mem);   /* until grid_done: its CTAs look allocations up */
    return submit(dev, op, false);
}

/* ---- Streams and events ------------------------------------------------------------ */
enum loom_status loom_stream_create(struct loom_device *dev, unsigned flags, int priority, struct loom_stream **out)
{
    API_TRACE(dev, "cudaStreamCreate");
    if (!dev || !out) return fail(LOOM_ERR_INVALID_VALUE, "loom_stream_create: NULL argument");
    struct loom_stream *s = sched_stream_new(dev->sched, flags, priority);
    if (!s) return fail(LOOM_ERR_OUT_OF_MEMORY, "out of host memory");
    if (dev->trace) {
        char name[64];
        snprintf(name, sizeof name, "stream %u%s", s->id, flags & LOOM_STREAM_NON_BLOCKING ? " (non-blocking)" : "");
        loom_trace_name_track(dev->trace, LOOM_TRACE_STREAM_TRACK(s->id), name);
    }
    s->dev = dev;
    *out = s;
    return LOOM_OK;
}

enum loom_status loom_stream_destroy(struct loom_stream *s)
{
    API_TRACE(s ? s->dev : NULL, "cudaStreamDestroy");
    if (!s || s->is_default) return fail(LOOM_ERR_INVALID_VALUE, "invalid stream");
    sched_stream_free(s->dev->sched, s);
    return LOOM_OK;
}

enum loom_status loom_stream_synchronize(struct loom_stream *s)
{
    API_TRACE(s ? s->dev : NULL, "cudaStreamSynchronize");
    if (!s) return fail(LOOM_ERR_INVALID_VALUE, "loom_stream_synchronize: NULL stream (use loom_synchronize)");
    if (sched_in_host_func()) return waits_in_host_func("loom_stream_synchronize");
    sched_wait_stream(s->dev->sched, s, 0);
    emu_host_flush(s->dev->host);
    if (s->dev->sticky) return fail(s->dev->sticky, "%s", s->dev->sticky_msg);
    return LOOM_OK;
}

static struct loom_device *last_device;

enum loom_status loom_stream_query(struct loom_stream *s)
{
    if (!s) return last_device ? loom_device_stream_query(last_device, NULL) : fail(LOOM_ERR_INVALID_VALUE, "no device");
    return sched_stream_idle(s->dev->sched, s) ? LOOM_OK : LOOM_ERR_NOT_READY;
}

enum loom_status loom_device_stream_query(struct loom_device *dev, struct loom_stream *s)
{
    API_TRACE(dev, "cudaStreamQuery");
    if (!dev) return fail(LOOM_ERR_INVALID_VALUE, "loom_device_stream_query: NULL device");
    return sched_stream_idle(dev->sched, s) ? LOOM_OK : LOOM_ERR_NOT_READY;
}

enum loom_status loom_stream_wait_event(struct loom_stream *s, struct loom_event *e)
{
    API_TRACE(e ? e->dev : NULL, "cudaStreamWaitEvent");
    if (!e) return fail(LOOM_ERR_INVALID_VALUE, "invalid event");
    struct loom_device *dev = e->dev;
    struct sched_op *op = new_op(SCHED_OP_WAIT_EVENT, s);
    if (!op) return fail(LOOM_ERR_OUT_OF_MEMORY, "out of host memory");
    pthread_mutex_lock(&dev->sched->lock);
    op->event = e;
    op->event_gen = e->record_gen;
    pthread_mutex_unlock(&dev->sched->lock);
    return submit(dev, op, false);
}

enum loom_status loom_stream_add_host_func(struct loom_stream *s, void (*fn)(void *), void *data)
{
    API_TRACE(s ? s->dev : NULL, "cudaLaunchHostFunc");
    if (!fn) return fail(LOOM_ERR_INVALID_VALUE, "loom_stream_add_host_func: NULL function");
    struct loom_device *dev = s ? s->dev : NULL;
    if (!dev) return fail(LOOM_ERR_INVALID_VALUE, "loom_stream_add_host_func: NULL stream");
    struct sched_op *op = new_op(SCHED_OP_HOST, s);
    if (!op) return fail(LOOM_ERR_OUT_OF_MEMORY, "out of host memory");
    op->fn = fn; op->data = data;
    return submit(dev, op, false);
}

/* Host work on the default stream of a device (streams carry their device). */
enum loom_status loom_device_add_host_func(struct loom_device *dev, void (*fn)(void *), void *data)
{
    API_TRACE(dev, "cudaLaunchHostFunc");
    if (!dev || !fn) return fail(LOOM_ERR_INVALID_VALUE, "loom_device_add_host_func: NULL argument");
    struct sched_op *op = new_op(SCHED_OP_HOST, NULL);
    if (!op) return fail(LOOM_ERR_OUT_OF_MEMORY, "out of host memory");
    op->fn = fn; op->data = data;
    return submit(dev, op, false);
}

enum loom_status loom_synchronize(struct loom_device *dev)
{
    API_TRACE(dev, "cudaDeviceSynchronize");
    if (sched_in_host_func()) return waits_in_host_func("loom_synchronize");
    sched_wait_idle(dev->sched);
    mem_quiesce(dev->mem);
    if (dev->checker) emu_check_quiesce(dev->checker);
    emu_host_flush(dev->host);
    if (dev->sticky) return fail(dev->sticky, "%s", dev->sticky_msg);
    return LOOM_OK;
}

enum loom_status loom_event_create(struct loom_device *dev, unsigned flags, struct loom_event **out)
{
    API_TRACE(dev, "cudaEventCreate");
    struct loom_event *e = calloc(1, sizeof *e);
    if (!e) return fail(LOOM_ERR_OUT_OF_MEMORY, "out of host memory");
    e->dev = dev;
    e->flags = flags;
    *out = e;
    return LOOM_OK;
}

enum loom_status loom_event_destroy(struct loom_event *e)
{
    API_TRACE(e ? e->dev : NULL, "cudaEventDestroy");
    if (!e) return fail(LOOM_ERR_INVALID_VALUE, "invalid event");
    /* As in CUDA, this returns at once: records and waits still pending that name the
     * event keep it, and the last of them frees it. */
    struct sched *s = e->dev->sched;
    pthread_mutex_lock(&s->lock);
    e->destroyed = true;
    bool unused = e->refs == 0;
    pthread_mutex_unlock(&s->lock);
    if (unused) free(e);
    return LOOM_OK;
}

enum loom_status loom_event_record(struct loom_event *e, struct loom_stream *s)
{
    API_TRACE(e ? e->dev : NULL, "cudaEventRecord");
    if (!e) return fail(LOOM_ERR_INVALID_VALUE, "invalid event");
    struct loom_device *dev = e->dev;
    struct sched_op *op = new_op(SCHED_OP_RECORD_EVENT, s);
    if (!op) return fail(LOOM_ERR_OUT_OF_MEMORY, "out of host memory");
    pthread_mutex_lock(&dev->sched->lock);
    op->event = e;
    op->event_gen = ++e->record_gen;
    pthread_mutex_unlock(&dev->sched->lock);
    return submit(dev, op, false);
}

enum loom_status loom_event_synchronize(struct loom_event *e)
{
    API_TRACE(e ? e->dev : NULL, "cudaEventSynchronize");
    if (!e) return fail(LOOM_ERR_INVALID_VALUE, "invalid event");
    struct sched *s = e->dev->sched;
    pthread_mutex_lock(&s->lock);
    if (sched_in_host_func() && e->done_gen < e->record_gen) {
        pthread_mutex_unlock(&s->lock);
        return waits_in_host_func("loom_event_synchronize");
    }
    if (s->vtrace) sched_vtrace_sync(s, NULL);
    while (e->done_gen < e->record_gen) pthread_cond_wait(&s->done_cv, &s->lock);
    pthread_mutex_unlock(&s->lock);
    emu_host_flush(e->dev->host);
    return LOOM_OK;
}

enum loom_status loom_event_query(struct loom_event *e)
{
    API_TRACE(e ? e->dev : NULL, "cudaEventQuery");
    if (!e) return fail(LOOM_ERR_INVALID_VALUE, "invalid event");
    struct sched *s = e->dev->sched;
    pthread_mutex_lock(&s->lock);
    bool done = e->done_gen >= e->record_gen;
    pthread_mutex_unlock(&s->lock);
    return done ? LOOM_OK : LOOM_ERR_NOT_READY;
}

enum loom_status loom_event_elapsed_ms(struct loom_event *a, struct loom_event *b, float *out_ms)
{
    API_TRACE(a ? a->dev : NULL, "cudaEventElapsedTime");
    if (!a || !b || !out_ms) return fail(LOOM_ERR_INVALID_VALUE, "invalid event");
    if (!a->record_gen || !b->record_gen) return fail(LOOM_ERR_INVALID_VALUE, "event not recorded");
    if (loom_event_query(a) != LOOM_OK || loom_event_query(b) != LOOM_OK)
        return fail(LOOM_ERR_NOT_READY, "event not completed yet");
    *out_ms = (float)((b->t - a->t) * 1000.0);
    return LOOM_OK;
}

void loom_launches_foreach(struct loom_device *dev, void (*fn)(const struct loom_launch_stats *s, void *data),
                           void *data)
{
    if (!dev || !fn) return;
    pthread_mutex_lock(&dev->lock);
    for (size_t i = 0; i < dev->nlaunches; i++) fn(&dev->launches[i], data);
    pthread_mutex_unlock(&dev->lock);
}

void loom_stats_foreach(struct loom_device *dev, void (*fn)(const struct loom_kernel_stats *, void *), void *data)
{
    pthread_mutex_lock(&dev->lock);
    for (struct sched_stats_entry *e = dev->stats; e; e = e->next) fn(&e->s, data);
    pthread_mutex_unlock(&dev->lock);
}

/* One number of a timeline row: whole numbers without decimals. */
static int timeline_cell(char *buf, size_t size, double v)
{
    return fabs(v - round(v)) < 0.05 ? snprintf(buf, size, "%.0f", v) : snprintf(buf, size, "%.1f", v);
}

void loom_stats_print_timeline(FILE *out, const char *prefix, const struct loom_kernel_stats *s)
{
    enum { COLS = 16 };
    unsigned n = s->timeline_bins < LOOM_TIMELINE_BINS ? s->timeline_bins : LOOM_TIMELINE_BINS;
    if (!n || !s->workers) return;
    unsigned merge = n > COLS ? 2 : 1, cols = (n + merge - 1) / merge;
    double res[COLS], run[COLS], busy = 0;
    int width = 1;
    for (unsigned c = 0; c < cols; c++) {
        unsigned a = c * merge, k = a + 1 < n && merge == 2 ? 2 : 1;
        res[c] = run[c] = 0;
        for (unsigned i = a; i < a + k; i++) {
            res[c] += s->timeline_resident[i] / k;
            run[c] += s->timeline_running[i] / k;
        }
        char b[32];
        int w1 = timeline_cell(b, sizeof b, res[c]), w2 = timeline_cell(b, sizeof b, run[c]);
        width = w1 > width ? w1 : width;
        width = w2 > width ? w2 : width;
    }
    for (unsigned i = 0; i < n; i++) busy += s->timeline_running[i];
    double step = s->timeline_interval_s * merge;
    fprintf(out, "%sresidency over time in the longest launch, averages over %u interval%s of %.3g ms:\n", prefix,
            cols, cols == 1 ? "" : "s", step * 1e3);
    const char *names[2] = { "CTAs resident", "workers running" };
    for (int row = 0; row < 2; row++) {
        fprintf(out, "%s  %-16s", prefix, names[row]);
        for (unsigned c = 0; c < cols; c++) {
            char b[32];
            timeline_cell(b, sizeof b, row ? run[c] : res[c]);
            fprintf(out, " %*s", width, b);
        }
        fputc('\n', out);
    }
    fprintf(out, "%s  the %u worker%s ran CTAs %.0f%% of the time\n", prefix, s->workers,
            s->workers == 1 ? "" : "s", 100.0 * busy / ((double)n * s->workers));
}


void loom_stats_print_simt(FILE *out, const char *prefix, const struct loom_kernel_stats *s)
{
    const struct loom_simt_stats *t = &s->simt;
    if (!t->slots) return;
    fprintf(out, "%sSIMT (%s): %llu issue slots, SIMD efficiency %.1f%%, %llu divergent branches, "
                 "%llu reconvergences, max depth %llu\n", prefix, s->simt_policy ? s->simt_policy : "pdom",
            (unsigned long long)t->slots, 100.0 * (double)t->lanes / (32.0 * (double)t->slots),
            (unsigned long long)t->divergent_branches, (unsigned long long)t->reconvergences,
            (unsigned long long)t->max_depth);
    fprintf(out, "%s  slots by active lanes:", prefix);
    for (unsigned b = 0; b < 8; b++) {
        uint64_t n = 0;
        for (unsigned k = 4 * b + 1; k <= 4 * b + 4; k++) n += t->hist[k];
        fprintf(out, " W%u-%u %.1f%%", 4 * b + 1, 4 * b + 4, 100.0 * (double)n / (double)t->slots);
    }
    fputc('\n', out);
    if (t->warps_formed || t->warps_split || t->lane_conflicts)
        fprintf(out, "%s  dynamic warps formed of several warps %llu, warps split %llu, lane conflicts %llu\n", prefix,
                (unsigned long long)t->warps_formed, (unsigned long long)t->warps_split,
                (unsigned long long)t->lane_conflicts);
    if (t->coissued)
        fprintf(out, "%s  co-issued slots %llu (%.1f%% of slots)\n", prefix, (unsigned long long)t->coissued,
                100.0 * (double)t->coissued / (double)t->slots);
}
