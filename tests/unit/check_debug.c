/* check_debug.c -- the debugger's core (debug/debug.c, loom/debug.h): breakpoints,
 * conditions, steps, calls, watchpoints, faults, going back, focus and reads, on the
 * kernels of tests/unit/debug/core.cu (nvcc -lineinfo). Each test runs a launch whose
 * stops answer from a script and writes what each stop saw into a log. */
#include "config.h"

#include <check.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "loom/debug.h"
#include "loom/loom.h"

#define CORE_PTX LOOM_SRCDIR "/tests/unit/debug/core.ptx"

struct script;
typedef void (*stop_fn)(struct script *sc, struct loom_debug *d, const struct loom_debug_stop *s);

struct script {
    const enum loom_debug_action *acts;
    unsigned nacts, next;
    stop_fn on;                  /* extra reads at each stop, or NULL */
    char log[16384];
    size_t used;
    unsigned stops;
};

static void logf_(struct script *sc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void logf_(struct script *sc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(sc->log + sc->used, sizeof sc->log - sc->used, fmt, ap);
    va_end(ap);
    if (n > 0) sc->used += (size_t)n < sizeof sc->log - sc->used ? (size_t)n : sizeof sc->log - sc->used - 1;
}

static enum loom_debug_action on_stop(struct loom_debug *d, const struct loom_debug_stop *s, void *ctx)
{
    struct script *sc = ctx;
    sc->stops++;
    logf_(sc, "%s", loom_debug_reason_name(s->reason));
    if (s->breakpoint) logf_(sc, " #%d", s->breakpoint);
    if (s->watchpoint) logf_(sc, " watch#%d old=%lld new=%lld", s->watchpoint, (long long)(int32_t)s->watch_old,
                             (long long)(int32_t)s->watch_new);
    if (s->reason != LOOM_STOP_EXIT)
        logf_(sc, " cu=%u b=(%u,%u,%u) t=(%u,%u,%u) w=%u l=%u", s->where.cu_line, s->block[0], s->block[1], s->block[2],
              s->thread[0], s->thread[1], s->thread[2], s->warp, s->lane);
    if (sc->on) sc->on(sc, d, s);
    logf_(sc, "\n");
    if (sc->stops > 200) return LOOM_DEBUG_KILL;   /* (a test gone wrong ends) */
    return sc->next < sc->nacts ? sc->acts[sc->next++] : LOOM_DEBUG_CONTINUE;
}

struct run {
    struct loom_debug *d;
    struct loom_device *dev;
    struct loom_module *mod;
    uint64_t buf;
    int host[256];
    enum loom_status st;
};

/* What open_with makes: a debugger with the script's answers, a device for it with the PTX
 * file loaded, and a zeroed buffer r->buf of sizeof r->host bytes. */
struct opts {
    const struct loom_debug_config *cfg;     /* stop_at_entry ... (on_stop and ctx are the script's) */
    const char *simt;
    const char *ptx;                         /* NULL: core.ptx */
    bool racecheck;
    FILE *out;                               /* kernel printf; NULL: stderr */
};

static void open_with(struct run *r, struct script *sc, struct opts o)
{
    memset(r, 0, sizeof *r);
    struct loom_debug_config cfg = o.cfg ? *o.cfg : (struct loom_debug_config){ 0 };
    cfg.on_stop = on_stop;
    cfg.ctx = sc;
    ck_assert_int_eq(loom_debug_create(&cfg, &r->d), LOOM_OK);
    struct loom_device_config dc = { .debugger = r->d, .simt = o.simt, .racecheck = o.racecheck,
                                     .printf_out = o.out ? o.out : stderr };
    ck_assert_int_eq(loom_device_create(&dc, &r->dev), LOOM_OK);
    ck_assert_int_eq(loom_module_load_file(r->dev, o.ptx ? o.ptx : CORE_PTX, &r->mod), LOOM_OK);
    ck_assert_int_eq(loom_malloc(r->dev, sizeof r->host, &r->buf), LOOM_OK);
    ck_assert_int_eq(loom_memset(r->dev, r->buf, 0, sizeof r->host), LOOM_OK);
}

static void open_run(struct run *r, struct script *sc, const struct loom_debug_config *extra, const char *simt)
{
    open_with(r, sc, (struct opts){ .cfg = extra, .simt = simt });
}

/* Launches kernel with args on a 1-D grid and waits: r->st. */
static void launch_args(struct run *r, const char *kernel, unsigned grid, unsigned block, void **args)
{
    struct loom_kernel *k;
    ck_assert_int_eq(loom_module_get_kernel(r->mod, kernel, &k), LOOM_OK);
    r->st = loom_launch(r->dev, k, &(struct loom_launch_config){ .grid = { grid, 1, 1 }, .block = { block, 1, 1 } },
                        args);
    if (r->st == LOOM_OK) r->st = loom_synchronize(r->dev);
}

static void launch(struct run *r, const char *kernel, unsigned grid, unsigned block, int n)
{
    void *args[] = { &r->buf, &n };
    launch_args(r, kernel, grid, block, args);
    if (r->st == LOOM_OK)
        ck_assert_int_eq(loom_memcpy(r->dev, r->host, (void *)(uintptr_t)r->buf, sizeof r->host), LOOM_OK);
}

static void close_run(struct run *r)
{
    loom_device_destroy(r->dev);
    loom_debug_destroy(r->d);
}

static int set_break(struct run *r, const char *file, unsigned line, const char *cond)
{
    char err[256] = "";
    int n = loom_debug_break(r->d, &(struct loom_debug_bp){ .kind = LOOM_BP_LINE, .file = file, .line = line,
                                                             .condition = cond }, NULL, err, sizeof err);
    ck_assert_msg(n > 0, "break %s:%u: %s", file, line, err);
    return n;
}

static void check_fill(const struct run *r, int n)
{
    for (int i = 0; i < n; i++) ck_assert_int_eq(r->host[i], i % 2 ? -i * i : i * i);
}

/* A line breakpoint stops each warp that reaches it; the results are those of a plain run. */
START_TEST(test_break_line)
{
    struct script sc = { 0 };
    struct run r;
    open_run(&r, &sc, NULL, NULL);
    set_break(&r, "core.cu", 16, NULL);
    launch(&r, "_Z4fillPii", 2, 64, 100);
    ck_assert_int_eq(r.st, LOOM_OK);
    ck_assert_str_eq(sc.log, "breakpoint #1 cu=16 b=(0,0,0) t=(0,0,0) w=0 l=0\n"
                             "breakpoint #1 cu=16 b=(0,0,0) t=(32,0,0) w=1 l=0\n"
                             "breakpoint #1 cu=16 b=(1,0,0) t=(0,0,0) w=0 l=0\n"
                             "breakpoint #1 cu=16 b=(1,0,0) t=(32,0,0) w=1 l=0\n");
    check_fill(&r, 100);
    struct loom_debug_bp_info info[4];
    ck_assert_uint_eq(loom_debug_breakpoints(r.d, info, 4), 1);
    ck_assert_uint_eq(info[0].hits, 4);
    ck_assert_uint_eq(info[0].where.cu_line, 16);
    close_run(&r);
}
END_TEST

static void read_i(struct script *sc, struct loom_debug *d, const struct loom_debug_stop *s)
{
    struct loom_debug_reg reg;
    char err[256];
    ck_assert_msg(loom_debug_read_reg(d, "%r1", &reg, err, sizeof err), "%s", err);
    logf_(sc, " %%r1=%d", (int)reg.lane[s->lane]);
    int64_t v;
    ck_assert_msg(loom_debug_eval(d, "%r1 * 2 + threadIdx.x", &v, NULL, NULL, err, sizeof err), "%s", err);
    logf_(sc, " eval=%lld", (long long)v);
}

/* A condition on block, thread and a register picks the lane that becomes the focus. */
START_TEST(test_condition)
{
    struct script sc = { .on = read_i };
    struct run r;
    open_run(&r, &sc, NULL, NULL);
    set_break(&r, "core.cu", 16, "blockIdx.x == 1 && threadIdx.x >= 5 && %r1 % 7 == 0");
    launch(&r, "_Z4fillPii", 2, 64, 100);
    ck_assert_int_eq(r.st, LOOM_OK);
    /* block 1: i = 64 + t; the first t >= 5 with i % 7 == 0 is t = 6 (i = 70); warp 1: t = 34 (i = 98) */
    ck_assert_str_eq(sc.log, "breakpoint #1 cu=16 b=(1,0,0) t=(6,0,0) w=0 l=6 %r1=70 eval=146\n"
                             "breakpoint #1 cu=16 b=(1,0,0) t=(34,0,0) w=1 l=2 %r1=98 eval=230\n");
    check_fill(&r, 100);
    close_run(&r);
}
END_TEST

static void show_bt(struct script *sc, struct loom_debug *d, const struct loom_debug_stop *s)
{
    (void)s;
    struct loom_debug_where bt[4];
    unsigned n = loom_debug_backtrace(d, bt, 4);
    logf_(sc, " frames=%u", n);
    for (unsigned k = 0; k < n && k < 4; k++) logf_(sc, " %s:%u", bt[k].function, bt[k].cu_line);
}

/* step goes into square(), finish comes back, next steps over the call. */
START_TEST(test_step_calls)
{
    static const enum loom_debug_action acts[] = { LOOM_DEBUG_STEP, LOOM_DEBUG_STEP, LOOM_DEBUG_FINISH,
                                                   LOOM_DEBUG_DETACH };
    struct script sc = { .acts = acts, .nacts = 4, .on = show_bt };
    struct run r;
    open_run(&r, &sc, NULL, NULL);
    set_break(&r, "core.cu", 13, "blockIdx.x == 0");
    launch(&r, "_Z4fillPii", 1, 32, 32);
    ck_assert_int_eq(r.st, LOOM_OK);
    ck_assert_str_eq(sc.log,
                     "breakpoint #1 cu=13 b=(0,0,0) t=(0,0,0) w=0 l=0 frames=1 _Z4fillPii:13\n"
                     "step cu=5 b=(0,0,0) t=(0,0,0) w=0 l=0 frames=2 _Z6squarei:5 _Z4fillPii:13\n"
                     "step cu=6 b=(0,0,0) t=(0,0,0) w=0 l=0 frames=2 _Z6squarei:6 _Z4fillPii:13\n"
                     "step cu=13 b=(0,0,0) t=(0,0,0) w=0 l=0 frames=1 _Z4fillPii:13\n");
    check_fill(&r, 32);
    close_run(&r);
}
END_TEST

START_TEST(test_next_over_call)
{
    static const enum loom_debug_action acts[] = { LOOM_DEBUG_NEXT, LOOM_DEBUG_NEXT, LOOM_DEBUG_NEXT,
                                                   LOOM_DEBUG_DETACH };
    struct script sc = { .acts = acts, .nacts = 4, .on = show_bt };
    struct run r;
    open_run(&r, &sc, NULL, NULL);
    set_break(&r, "core.cu", 13, NULL);
    launch(&r, "_Z4fillPii", 1, 32, 32);
    ck_assert_int_eq(r.st, LOOM_OK);
    /* 13 (the call), then 15 (neg), 14 (selp), 16 (the store): never inside square */
    ck_assert_str_eq(sc.log,
                     "breakpoint #1 cu=13 b=(0,0,0) t=(0,0,0) w=0 l=0 frames=1 _Z4fillPii:13\n"
                     "step cu=15 b=(0,0,0) t=(0,0,0) w=0 l=0 frames=1 _Z4fillPii:15\n"
                     "step cu=14 b=(0,0,0) t=(0,0,0) w=0 l=0 frames=1 _Z4fillPii:14\n"
                     "step cu=16 b=(0,0,0) t=(0,0,0) w=0 l=0 frames=1 _Z4fillPii:16\n");
    check_fill(&r, 32);
    close_run(&r);
}
END_TEST

/* A watchpoint stops after the write, naming the lane, with the old and new values. */
START_TEST(test_watch)
{
    struct script sc = { 0 };
    struct run r;
    open_run(&r, &sc, NULL, NULL);
    char err[256];
    int n = loom_debug_watch(r.d, LOOM_SPACE_GLOBAL, r.buf + 37 * 4, 4, err, sizeof err);
    ck_assert_msg(n == 1, "%s", err);
    launch(&r, "_Z4fillPii", 2, 32, 64);
    ck_assert_int_eq(r.st, LOOM_OK);
    ck_assert_str_eq(sc.log, "watchpoint watch#1 old=0 new=-1369 cu=16 b=(1,0,0) t=(5,0,0) w=0 l=5\n");
    check_fill(&r, 64);
    close_run(&r);
}
END_TEST

static void show_fault(struct script *sc, struct loom_debug *d, const struct loom_debug_stop *s)
{
    (void)d;
    if (s->reason == LOOM_STOP_FAULT) logf_(sc, " status=%s report=%d", loom_status_name(s->fault), s->fault_report != NULL);
    logf_(sc, " tick=%llu", (unsigned long long)s->tick);
}

/* A fault stops at the faulting instruction; going back one instruction, then to the
 * write of out[k] two lines before it. */
START_TEST(test_fault_and_back)
{
    static const enum loom_debug_action acts[] = { LOOM_DEBUG_CONTINUE, LOOM_DEBUG_REVERSE_STEPI,
                                                   LOOM_DEBUG_REVERSE_CONTINUE, LOOM_DEBUG_CONTINUE,
                                                   LOOM_DEBUG_CONTINUE };
    struct script sc = { .acts = acts, .nacts = 5, .on = show_fault };
    struct run r;
    open_run(&r, &sc, NULL, NULL);
    char err[256];
    ck_assert_int_eq(loom_debug_watch(r.d, LOOM_SPACE_GLOBAL, r.buf + 6 * 4, 4, err, sizeof err), 1);
    launch(&r, "_Z3oobPii", 1, 32, 1 << 22);
    ck_assert_int_eq(r.st, LOOM_ERR_ILLEGAL_ADDRESS);
    /* forward: the watch (lane 3 writes out[6] = 6), then the fault; back one instruction of
     * the faulting warp; back to the watch again; forward to the fault, which ends the launch */
    ck_assert_str_eq(sc.log,
                     "watchpoint watch#1 old=0 new=6 cu=31 b=(0,0,0) t=(3,0,0) w=0 l=3 tick=8\n"
                     "fault cu=32 b=(0,0,0) t=(0,0,0) w=0 l=0 status=LOOM_ERR_ILLEGAL_ADDRESS report=1 tick=12\n"
                     "step cu=32 b=(0,0,0) t=(0,0,0) w=0 l=0 tick=11\n"
                     "watchpoint watch#1 old=0 new=6 cu=31 b=(0,0,0) t=(3,0,0) w=0 l=3 tick=8\n"
                     "fault cu=32 b=(0,0,0) t=(0,0,0) w=0 l=0 status=LOOM_ERR_ILLEGAL_ADDRESS report=1 tick=12\n");
    close_run(&r);
}
END_TEST

/* reverse-continue from the second breakpoint stop goes back to the first, same tick. */
START_TEST(test_reverse_continue)
{
    static const enum loom_debug_action acts[] = { LOOM_DEBUG_CONTINUE, LOOM_DEBUG_REVERSE_CONTINUE,
                                                   LOOM_DEBUG_REVERSE_CONTINUE, LOOM_DEBUG_DETACH };
    struct script sc = { .acts = acts, .nacts = 4, .on = show_fault };
    struct run r;
    open_run(&r, &sc, NULL, NULL);
    set_break(&r, "core.cu", 16, NULL);
    launch(&r, "_Z4fillPii", 2, 32, 64);
    ck_assert_int_eq(r.st, LOOM_OK);
    /* block 0's one warp issues 28 instructions (the call's argument copies included), the
     * store's line starting at its 25th; block 1 runs after it */
    ck_assert_str_eq(sc.log, "breakpoint #1 cu=16 b=(0,0,0) t=(0,0,0) w=0 l=0 tick=24\n"
                             "breakpoint #1 cu=16 b=(1,0,0) t=(0,0,0) w=0 l=0 tick=52\n"
                             "breakpoint #1 cu=16 b=(0,0,0) t=(0,0,0) w=0 l=0 tick=24\n"
                             "start cu=9 b=(0,0,0) t=(0,0,0) w=0 l=0 tick=0\n");
    check_fill(&r, 64);   /* going back restored the memory and the printf output: one clean run */
    close_run(&r);
}
END_TEST

static void read_shared(struct script *sc, struct loom_debug *d, const struct loom_debug_stop *s)
{
    (void)s;
    int v[4];
    char err[256];
    ck_assert_msg(loom_debug_read_mem(d, LOOM_SPACE_SHARED, 40 * 4, v, sizeof v, err, sizeof err), "%s", err);
    logf_(sc, " s[40..43]=%d,%d,%d,%d", v[0], v[1], v[2], v[3]);
    char text[1024];
    loom_debug_barriers(d, text, sizeof text);
    logf_(sc, " | %s", text);
    if (sc->log[sc->used - 1] == '\n') sc->log[--sc->used] = 0;
}

/* Running to the barrier, then reading shared memory once every warp has written it. */
START_TEST(test_barrier_shared)
{
    static const enum loom_debug_action acts[] = { LOOM_DEBUG_TO_BARRIER, LOOM_DEBUG_CONTINUE };
    struct loom_debug_config cfg = { .stop_at_entry = true };
    struct script sc = { .acts = acts, .nacts = 2, .on = read_shared };
    struct run r;
    open_run(&r, &sc, &cfg, NULL);
    set_break(&r, "core.cu", 25, "warp == 1");
    launch(&r, "_Z4smemPi", 1, 64, 0);
    ck_assert_int_eq(r.st, LOOM_OK);
    ck_assert_str_eq(sc.log,
                     "entry cu=20 b=(0,0,0) t=(0,0,0) w=0 l=0 s[40..43]=0,0,0,0 | no barrier of block (0,0,0) has arrivals\n"
                     "barrier cu=24 b=(0,0,0) t=(0,0,0) w=0 l=0 s[40..43]=0,0,0,0 | no barrier of block (0,0,0) has arrivals\n"
                     "breakpoint #1 cu=25 b=(0,0,0) t=(32,0,0) w=1 l=0 s[40..43]=120,123,126,129 | "
                     "no barrier of block (0,0,0) has arrivals\n");
    for (int t = 0; t < 64; t++) ck_assert_int_eq(r.host[t], (63 - t) * 3);
    close_run(&r);
}
END_TEST

/* Bad input: a line without code names the nearest lines; a focus outside the launch,
 * a bad condition and an unknown register are refused; the session goes on. */
static void bad_focus(struct script *sc, struct loom_debug *d, const struct loom_debug_stop *s)
{
    (void)s;
    char err[256];
    ck_assert(!loom_debug_focus(d, (unsigned[3]){ 2, 0, 0 }, (unsigned[3]){ 0, 0, 0 }, err, sizeof err));
    logf_(sc, " [%s]", err);
    ck_assert(!loom_debug_focus(d, (unsigned[3]){ 0, 0, 0 }, (unsigned[3]){ 40, 0, 0 }, err, sizeof err));
    logf_(sc, " [%s]", err);
    ck_assert(!loom_debug_focus_warp(d, 1, 0, err, sizeof err));
    logf_(sc, " [%s]", err);
    struct loom_debug_reg reg;
    ck_assert(!loom_debug_read_reg(d, "%r99", &reg, err, sizeof err));
    logf_(sc, " [%s]", err);
    /* the other block: not started yet at the first stop, finished at the second */
    ck_assert(loom_debug_focus(d, (unsigned[3]){ s->block[0] ^ 1, 0, 0 }, (unsigned[3]){ 3, 0, 0 }, err, sizeof err));
    ck_assert(!loom_debug_read_reg(d, "%r1", &reg, err, sizeof err));
    logf_(sc, " [%s]", err);
    ck_assert(loom_debug_focus(d, s->block, (unsigned[3]){ 0, 0, 0 }, err, sizeof err));
    ck_assert(loom_debug_focus_warp(d, 0, 7, err, sizeof err));
    ck_assert_msg(loom_debug_read_reg(d, "%r1", &reg, err, sizeof err), "%s", err);
    logf_(sc, " lane7=%d", (int)reg.lane[7]);     /* %r1 = i = 32 * block + 7 */
}

START_TEST(test_bad_input)
{
    struct script sc = { .on = bad_focus };
    struct run r;
    open_run(&r, &sc, NULL, NULL);
    char err[256] = "";
    ck_assert_int_eq(loom_debug_break(r.d, &(struct loom_debug_bp){ .kind = LOOM_BP_LINE, .file = "core.cu", .line = 7 },
                                      NULL, err, sizeof err), 0);
    ck_assert_str_eq(err, "no code at core.cu:7; the nearest lines with code are 6 and 9");
    ck_assert_int_eq(loom_debug_break(r.d, &(struct loom_debug_bp){ .kind = LOOM_BP_LINE, .file = "core.cu", .line = 13,
                                                                    .condition = "threadIdx.x ==" }, NULL, err, sizeof err), 0);
    ck_assert_str_eq(err, "expected a value at the end of 'threadIdx.x =='");
    ck_assert_int_eq(loom_debug_break(r.d, &(struct loom_debug_bp){ .kind = LOOM_BP_LINE, .file = "core.cu", .line = 13,
                                                                    .condition = "%nope > 1" }, NULL, err, sizeof err), 0);
    ck_assert_msg(strstr(err, "no register or name '%nope'"), "%s", err);
    ck_assert_int_eq(loom_debug_break(r.d, &(struct loom_debug_bp){ .kind = LOOM_BP_LABEL, .name = "nolabel" }, NULL, err,
                                      sizeof err), 0);
    ck_assert_str_eq(err, "no label 'nolabel' in the loaded modules");
    ck_assert_int_eq(loom_debug_watch(r.d, LOOM_SPACE_GLOBAL, 0x10, 4, err, sizeof err), 0);
    ck_assert_str_eq(err, "0x10 is not in a live device allocation");
    bool pending;
    ck_assert_int_eq(loom_debug_break(r.d, &(struct loom_debug_bp){ .kind = LOOM_BP_LINE, .file = "other.cu", .line = 3 },
                                      &pending, err, sizeof err), 1);
    ck_assert(pending);
    ck_assert(loom_debug_delete(r.d, 1));
    ck_assert(!loom_debug_delete(r.d, 1));
    set_break(&r, "core.ptx", 51, NULL);     /* PTX line 51: setp of `if (i < n)` */
    launch(&r, "_Z4fillPii", 2, 32, 64);
    ck_assert_int_eq(r.st, LOOM_OK);
    ck_assert_str_eq(sc.log,
                     "breakpoint #2 cu=12 b=(0,0,0) t=(0,0,0) w=0 l=0 "
                     "[block (2,0,0) does not exist: the grid is (2,1,1)] "
                     "[thread (40,0,0) does not exist: blocks are (32,1,1)] "
                     "[warp 1 does not exist: blocks have 1 warp] "
                     "[no register '%r99' in _Z4fillPii] "
                     "[block (1,0,0) is not running now (it has finished or has not started)] lane7=7\n"
                     "breakpoint #2 cu=12 b=(1,0,0) t=(0,0,0) w=0 l=0 "
                     "[block (2,0,0) does not exist: the grid is (2,1,1)] "
                     "[thread (40,0,0) does not exist: blocks are (32,1,1)] "
                     "[warp 1 does not exist: blocks have 1 warp] "
                     "[no register '%r99' in _Z4fillPii] "
                     "[block (0,0,0) is not running now (it has finished or has not started)] lane7=39\n");
    check_fill(&r, 64);
    close_run(&r);
}
END_TEST

/* Kill ends the launch with LOOM_ERR_INTERRUPTED; the same script twice gives the same log. */
START_TEST(test_kill_and_determinism)
{
    static const enum loom_debug_action acts[] = { LOOM_DEBUG_STEPI, LOOM_DEBUG_STEPI, LOOM_DEBUG_CONTINUE,
                                                   LOOM_DEBUG_KILL };
    char first[16384];
    for (int pass = 0; pass < 2; pass++) {
        struct script sc = { .acts = acts, .nacts = 4, .on = show_fault };
        struct run r;
        open_run(&r, &sc, NULL, NULL);
        set_break(&r, "core.cu", 40, "threadIdx.x % 4 == 3");
        launch(&r, "_Z7branchyPi", 1, 64, 0);
        ck_assert_int_eq(r.st, LOOM_ERR_INTERRUPTED);
        ck_assert_msg(strstr(loom_device_error(r.dev), "killed by the debugger"), "%s", loom_device_error(r.dev));
        if (pass == 0) snprintf(first, sizeof first, "%s", sc.log);
        else ck_assert_str_eq(sc.log, first);
        ck_assert_uint_eq(sc.stops, 4);
        close_run(&r);
    }
}
END_TEST

/* Divergence: the PDOM stack at a stop inside the loop that lanes leave at different trips. */
static void show_simt(struct script *sc, struct loom_debug *d, const struct loom_debug_stop *s)
{
    logf_(sc, " active=0x%08x", s->active);
    char text[2048];
    loom_debug_simt(d, text, sizeof text);
    ck_assert_msg(strstr(text, "lanes 0x"), "%s", text);
}

START_TEST(test_divergence)
{
    static const enum loom_debug_action acts[] = { LOOM_DEBUG_CONTINUE, LOOM_DEBUG_CONTINUE, LOOM_DEBUG_DETACH };
    struct script sc = { .acts = acts, .nacts = 3, .on = show_simt };
    struct run r;
    open_run(&r, &sc, NULL, NULL);
    set_break(&r, "core.cu", 40, NULL);
    launch(&r, "_Z7branchyPi", 1, 32, 0);
    ck_assert_int_eq(r.st, LOOM_OK);
    /* t % 4 = 1, 2, 3 enter the loop; each trip drops the lanes whose count is done */
    ck_assert_str_eq(sc.log, "breakpoint #1 cu=40 b=(0,0,0) t=(1,0,0) w=0 l=1 active=0xeeeeeeee\n"
                             "breakpoint #1 cu=40 b=(0,0,0) t=(2,0,0) w=0 l=2 active=0xcccccccc\n"
                             "breakpoint #1 cu=40 b=(0,0,0) t=(3,0,0) w=0 l=3 active=0x88888888\n");
    for (int t = 0; t < 32; t++) {
        int acc = 0;
        for (int k = 0; k < t % 4; k++) acc += k * t + 1;
        ck_assert_int_eq(r.host[t], acc);
    }
    close_run(&r);
}
END_TEST

/* The thread engine (its): breakpoints, steps and reads work there too. */
START_TEST(test_its)
{
    static const enum loom_debug_action acts[] = { LOOM_DEBUG_STEPI, LOOM_DEBUG_DETACH };
    struct script sc = { .acts = acts, .nacts = 2, .on = read_i };
    struct run r;
    open_run(&r, &sc, NULL, "its");
    set_break(&r, "core.cu", 16, "threadIdx.x == 9");
    launch(&r, "_Z4fillPii", 1, 32, 32);
    ck_assert_int_eq(r.st, LOOM_OK);
    ck_assert_str_eq(sc.log, "breakpoint #1 cu=16 b=(0,0,0) t=(9,0,0) w=0 l=9 %r1=9 eval=27\n"
                             "step cu=16 b=(0,0,0) t=(9,0,0) w=0 l=9 %r1=9 eval=27\n");
    check_fill(&r, 32);
    close_run(&r);
}
END_TEST


/* A kernel of another PTX file with one pointer argument (r->buf), one block. */
static void run_other(struct run *r, struct script *sc, const char *ptx, const char *kernel, unsigned block,
                      bool racecheck)
{
    open_with(r, sc, (struct opts){ .ptx = ptx, .racecheck = racecheck });
    void *args[] = { &r->buf };
    launch_args(r, kernel, 1, block, args);
}

static void show_status(struct script *sc, struct loom_debug *d, const struct loom_debug_stop *s)
{
    (void)d;
    if (s->reason == LOOM_STOP_FAULT) logf_(sc, " %s", loom_status_name(s->fault));
}

/* The deadlock detector and racecheck stop the debugger at what they report. */
START_TEST(test_fault_kinds)
{
    struct script sc = { .on = show_status };
    struct run r;
    run_other(&r, &sc, LOOM_SRCDIR "/tests/faults/deadlock.ptx", "deadlock", 64, false);
    ck_assert_int_eq(r.st, LOOM_ERR_DEADLOCK);
    /* warp 0 at `bar.sync 1, 64` (deadlock.cu:6), the first waiter the report names */
    ck_assert_str_eq(sc.log, "fault cu=6 b=(0,0,0) t=(0,0,0) w=0 l=0 LOOM_ERR_DEADLOCK\n");
    close_run(&r);
    struct script sc2 = { .on = show_status };
    run_other(&r, &sc2, LOOM_SRCDIR "/tests/faults/race.ptx", "neighbour", 64, true);
    ck_assert_int_eq(r.st, LOOM_ERR_LAUNCH_FAILED);
    ck_assert_msg(strncmp(sc2.log, "fault cu=9 ", 11) == 0 && strstr(sc2.log, "LOOM_ERR_LAUNCH_FAILED"), "%s", sc2.log);
    close_run(&r);
}
END_TEST

/* Pausing a kernel that spins forever, from another thread, then killing it. */
static void *pauser(void *arg)
{
    struct loom_debug *d = arg;
    for (int i = 0; i < 2000 && !loom_debug_pause(d); i++) usleep(1000);
    return NULL;
}

START_TEST(test_pause)
{
    static const enum loom_debug_action acts[] = { LOOM_DEBUG_KILL };
    struct script sc = { .acts = acts, .nacts = 1 };
    struct run r;
    open_with(&r, &sc, (struct opts){ .ptx = LOOM_SRCDIR "/tests/faults/spin.ptx" });
    ck_assert(!loom_debug_pause(r.d));           /* nothing runs */
    pthread_t t;
    pthread_create(&t, NULL, pauser, r.d);
    void *args[] = { &r.buf };
    launch_args(&r, "poll", 1, 32, args);
    pthread_join(t, NULL);
    ck_assert_int_eq(r.st, LOOM_ERR_INTERRUPTED);
    ck_assert_msg(strncmp(sc.log, "pause cu=", 9) == 0 && sc.stops == 1, "%s", sc.log);
    close_run(&r);
}
END_TEST

/* tbreak stops once; a kernel breakpoint stops at its first instruction; a label breakpoint
 * at the loop's head; reverse-step goes back to the start of the line before. */
START_TEST(test_kinds_and_reverse_step)
{
    static const enum loom_debug_action acts[] = { LOOM_DEBUG_CONTINUE, LOOM_DEBUG_STEP, LOOM_DEBUG_STEP,
                                                   LOOM_DEBUG_REVERSE_STEP, LOOM_DEBUG_REVERSE_STEP, LOOM_DEBUG_DETACH };
    struct script sc = { .acts = acts, .nacts = 6, .on = show_fault };
    struct run r;
    open_run(&r, &sc, NULL, NULL);
    char err[256];
    ck_assert_int_eq(loom_debug_break(r.d, &(struct loom_debug_bp){ .kind = LOOM_BP_KERNEL, .name = "branchy",
                                                                    .temporary = true }, NULL, err, sizeof err), 1);
    ck_assert_int_eq(loom_debug_break(r.d, &(struct loom_debug_bp){ .kind = LOOM_BP_LABEL, .name = "_Z7branchyPi:$L__BB4_2",
                                                                    .condition = "lane == 3" }, NULL, err, sizeof err), 2);
    launch(&r, "_Z7branchyPi", 1, 32, 0);
    ck_assert_int_eq(r.st, LOOM_OK);
    ck_assert_str_eq(sc.log, "breakpoint #1 cu=35 b=(0,0,0) t=(0,0,0) w=0 l=0 tick=0\n"
                             "breakpoint #2 cu=40 b=(0,0,0) t=(3,0,0) w=0 l=3 tick=13\n"
                             "step cu=39 b=(0,0,0) t=(3,0,0) w=0 l=3 tick=15\n"
                             "breakpoint #2 cu=40 b=(0,0,0) t=(3,0,0) w=0 l=3 tick=19\n"   /* (a step onto it) */
                             "step cu=39 b=(0,0,0) t=(3,0,0) w=0 l=3 tick=15\n"
                             "step cu=40 b=(0,0,0) t=(3,0,0) w=0 l=3 tick=13\n");
    struct loom_debug_bp_info info[4];
    ck_assert_uint_eq(loom_debug_breakpoints(r.d, info, 4), 1);   /* the tbreak is gone */
    ck_assert_int_eq(info[0].number, 2);
    close_run(&r);
}
END_TEST

/* A shared-memory watchpoint: which lane of which block wrote s[10]. */
START_TEST(test_watch_shared)
{
    static const enum loom_debug_action acts[] = { LOOM_DEBUG_CONTINUE, LOOM_DEBUG_DETACH };
    struct script sc = { .acts = acts, .nacts = 2 };
    struct run r;
    open_run(&r, &sc, NULL, NULL);
    char err[256];
    ck_assert_int_eq(loom_debug_watch(r.d, LOOM_SPACE_SHARED, 10 * 4, 4, err, sizeof err), 1);
    ck_assert_int_eq(loom_debug_watch(r.d, LOOM_SPACE_SHARED, 0, 12, err, sizeof err), 0);
    ck_assert_str_eq(err, "a watchpoint watches 1 to 8 bytes (12 given)");
    launch(&r, "_Z4smemPi", 1, 64, 0);
    ck_assert_int_eq(r.st, LOOM_OK);
    ck_assert_str_eq(sc.log, "watchpoint watch#1 old=0 new=30 cu=23 b=(0,0,0) t=(10,0,0) w=0 l=10\n");
    close_run(&r);
}
END_TEST

/* Going back lands where going forward stopped: a breakpoint at matmul's second barrier
 * (bench/bench_kernels.ptx; barriers and loops between the stops run as chained runs going
 * forward and one instruction at a time in the re-runs), 12 stops forward, then 4 back. */
static void tick_only(struct script *sc, struct loom_debug *d, const struct loom_debug_stop *s)
{
    (void)d;
    logf_(sc, " tick=%llu", (unsigned long long)s->tick);
}

START_TEST(test_reverse_matches_forward)
{
    enum loom_debug_action acts[20];
    unsigned n = 0;
    for (int i = 0; i < 11; i++) acts[n++] = LOOM_DEBUG_CONTINUE;
    for (int i = 0; i < 4; i++) acts[n++] = LOOM_DEBUG_REVERSE_CONTINUE;
    acts[n++] = LOOM_DEBUG_DETACH;
    struct script sc = { .acts = acts, .nacts = n, .on = tick_only };
    struct loom_debug *d;
    ck_assert_int_eq(loom_debug_create(&(struct loom_debug_config){ .on_stop = on_stop, .ctx = &sc }, &d), LOOM_OK);
    struct loom_device *dev;
    ck_assert_int_eq(loom_device_create(&(struct loom_device_config){ .debugger = d }, &dev), LOOM_OK);
    struct loom_module *mod;
    ck_assert_int_eq(loom_module_load_file(dev, LOOM_SRCDIR "/bench/bench_kernels.ptx", &mod), LOOM_OK);
    char err[256];
    ck_assert_int_eq(loom_debug_break(d, &(struct loom_debug_bp){ .kind = LOOM_BP_PTX_LINE, .line = 249 }, NULL, err,
                                      sizeof err), 1);
    enum { N = 64 };
    static float A[N * N], B[N * N], C[N * N];
    for (int i = 0; i < N * N; i++) { A[i] = (float)(i % 7) - 3; B[i] = (float)(i % 5) * 0.5f; }
    uint64_t a, b, c;
    ck_assert_int_eq(loom_malloc(dev, sizeof A, &a), LOOM_OK);
    ck_assert_int_eq(loom_malloc(dev, sizeof B, &b), LOOM_OK);
    ck_assert_int_eq(loom_malloc(dev, sizeof C, &c), LOOM_OK);
    loom_memcpy(dev, (void *)(uintptr_t)a, A, sizeof A);
    loom_memcpy(dev, (void *)(uintptr_t)b, B, sizeof B);
    struct loom_kernel *k;
    ck_assert_int_eq(loom_module_get_kernel(mod, "matmul", &k), LOOM_OK);
    int nn = N;
    void *args[] = { &a, &b, &c, &nn };
    ck_assert_int_eq(loom_launch(dev, k, &(struct loom_launch_config){ .grid = { 4, 4, 1 }, .block = { 16, 16, 1 } },
                                 args), LOOM_OK);
    ck_assert_int_eq(loom_synchronize(dev), LOOM_OK);
    loom_memcpy(dev, C, (void *)(uintptr_t)c, sizeof C);
    ck_assert_uint_eq(sc.stops, 16);
    /* the lines of the log: stops 12..15 (going back) repeat stops 11, 10, 9, 8 */
    char *line[16];
    char *p = sc.log;
    for (int i = 0; i < 16; i++) {
        line[i] = p;
        p = strchr(p, '\n');
        ck_assert_ptr_nonnull(p);
        *p++ = 0;
    }
    for (int i = 0; i < 4; i++) ck_assert_str_eq(line[12 + i], line[10 - i]);
    ck_assert_msg(strstr(line[0], "w=0 ") && strstr(line[1], "w=1 "), "%s / %s", line[0], line[1]);
    for (int r = 0; r < N; r++)
        for (int col = 0; col < N; col++) {
            float acc = 0;
            for (int t = 0; t < N; t++) acc += A[r * N + t] * B[t * N + col];
            ck_assert_float_eq_tol(C[r * N + col], acc, 1e-3f);
        }
    loom_device_destroy(dev);
    loom_debug_destroy(d);
}
END_TEST

/* A breakpoint set from another thread while the kernel runs (it spins forever) stops it. */
static void *setter(void *arg)
{
    struct loom_debug *d = arg;
    for (int i = 0; i < 2000; i++) {
        usleep(2000);
        char err[256];
        bool pending = true;
        /* spin.ptx line 69: poll's ld.volatile; placed at once (the module is loaded) */
        if (i == 20) {
            ck_assert_int_eq(loom_debug_break(d, &(struct loom_debug_bp){ .kind = LOOM_BP_PTX_LINE, .line = 69 },
                                              &pending, err, sizeof err), 1);
            ck_assert(!pending);
            return NULL;
        }
    }
    return NULL;
}

START_TEST(test_break_while_running)
{
    static const enum loom_debug_action acts[] = { LOOM_DEBUG_KILL };
    struct script sc = { .acts = acts, .nacts = 1 };
    struct run r;
    open_with(&r, &sc, (struct opts){ .ptx = LOOM_SRCDIR "/tests/faults/spin.ptx" });
    pthread_t t;
    pthread_create(&t, NULL, setter, r.d);
    void *args[] = { &r.buf };
    launch_args(&r, "poll", 1, 32, args);
    pthread_join(t, NULL);
    ck_assert_int_eq(r.st, LOOM_ERR_INTERRUPTED);
    ck_assert_msg(strncmp(sc.log, "breakpoint #1 ", 14) == 0 && sc.stops == 1, "%s", sc.log);
    close_run(&r);
}
END_TEST

/* A failed assert stops right after the failing call, once; PTX brkpt is a breakpoint. */
static void show_warp1(struct script *sc, struct loom_debug *d, const struct loom_debug_stop *s)
{
    show_status(sc, d, s);
    struct loom_debug_warp_info wi[4];
    unsigned n = loom_debug_warps(d, wi, 4);
    ck_assert_uint_eq(n, 2);
    logf_(sc, " warp1=%s:%u", wi[1].state, wi[1].where.cu_line);
}

START_TEST(test_assert_and_brkpt)
{
    struct script sc = { .on = show_warp1 };
    struct run r;
    open_with(&r, &sc, (struct opts){ .ptx = LOOM_SRCDIR "/tests/faults/assert.ptx" });
    int in[64];
    for (int i = 0; i < 64; i++) in[i] = i == 5 ? 500 : i;
    loom_memcpy(r.dev, (void *)(uintptr_t)r.buf, in, sizeof in);
    int n = 64;
    void *args[] = { &r.buf, &n };
    launch_args(&r, "check_small", 1, 64, args);
    ck_assert_int_eq(r.st, LOOM_ERR_ASSERT);
    /* thread 5 at the assert's line (assert.cu:8) while warp 1 has not started (it stands at the
     * kernel's line, 4), and no second
     * stop when the CTA ends */
    ck_assert_str_eq(sc.log, "fault cu=8 b=(0,0,0) t=(5,0,0) w=0 l=5 LOOM_ERR_ASSERT warp1=ready:4\n");
    close_run(&r);

    static const char ptx[] = ".version 8.0\n.target sm_90\n.address_size 64\n"
                              ".visible .entry bp(.param .u64 out)\n{\n.reg .b32 %r<2>;\n.reg .b64 %rd<3>;\n"
                              "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\nbrkpt;\n"
                              "mul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd2, %rd1, %rd2;\nst.global.u32 [%rd2], %r1;\nret;\n}\n";
    struct script sc2 = { 0 };
    open_run(&r, &sc2, NULL, NULL);
    ck_assert_int_eq(loom_module_load_text(r.dev, ptx, sizeof ptx - 1, "bp.ptx", &r.mod), LOOM_OK);
    void *args2[] = { &r.buf };
    launch_args(&r, "bp", 1, 64, args2);
    ck_assert_int_eq(r.st, LOOM_OK);
    ck_assert_str_eq(sc2.log, "breakpoint cu=0 b=(0,0,0) t=(0,0,0) w=0 l=0\n"
                              "breakpoint cu=0 b=(0,0,0) t=(32,0,0) w=1 l=0\n");
    loom_memcpy(r.dev, r.host, (void *)(uintptr_t)r.buf, 64 * 4);
    for (int t = 0; t < 64; t++) ck_assert_int_eq(r.host[t], t);
    close_run(&r);
}
END_TEST

/* Kernel printf output shows at each stop as it is made, once: going back and running on
 * again repeats none of it. */
static FILE *say_out;
static void out_size(struct script *sc, struct loom_debug *d, const struct loom_debug_stop *s)
{
    (void)d; (void)s;
    fflush(say_out);
    logf_(sc, " out=%ld", ftell(say_out));
}

START_TEST(test_printf_at_stops)
{
    static const enum loom_debug_action acts[] = { LOOM_DEBUG_CONTINUE, LOOM_DEBUG_REVERSE_CONTINUE,
                                                   LOOM_DEBUG_CONTINUE, LOOM_DEBUG_CONTINUE };
    struct script sc = { .acts = acts, .nacts = 4, .on = out_size };
    FILE *out = say_out = tmpfile();
    ck_assert_ptr_nonnull(out);
    struct run r;
    open_with(&r, &sc, (struct opts){ .ptx = LOOM_SRCDIR "/tests/unit/debug/say.ptx", .out = out });
    set_break(&r, "say.cu", 8, NULL);
    void *args[] = { &r.buf };
    launch_args(&r, "_Z3sayPi", 1, 64, args);
    ck_assert_int_eq(r.st, LOOM_OK);
    /* warp 0's 32 lines (118 bytes) by the first stop, warp 1's (128 more) by the second */
    ck_assert_str_eq(sc.log, "breakpoint #1 cu=8 b=(0,0,0) t=(0,0,0) w=0 l=0 out=118\n"
                             "breakpoint #1 cu=8 b=(0,0,0) t=(32,0,0) w=1 l=0 out=246\n"
                             "breakpoint #1 cu=8 b=(0,0,0) t=(0,0,0) w=0 l=0 out=246\n"
                             "breakpoint #1 cu=8 b=(0,0,0) t=(32,0,0) w=1 l=0 out=246\n");
    fflush(out);
    long size = ftell(out);
    rewind(out);
    char text[2048] = "";
    size_t got = fread(text, 1, sizeof text - 1, out);
    text[got] = 0;
    char want[2048];
    size_t used = 0;
    for (int t = 0; t < 64; t++) used += (size_t)snprintf(want + used, sizeof want - used, "t%d\n", t);
    ck_assert_int_eq(size, (long)used);
    ck_assert_str_eq(text, want);
    fclose(out);
    close_run(&r);
}
END_TEST

/* Attached to one kernel (by the function part of its demangled name): launches of the
 * others run as on any device (their usual decode) and never stop. */
START_TEST(test_attach_one)
{
    struct loom_debug_config cfg = { .kernel = "smem", .stop_at_entry = true };
    struct script sc = { 0 };
    struct run r;
    open_run(&r, &sc, &cfg, NULL);
    set_break(&r, "core.cu", 16, NULL);          /* in fill, which is not attached */
    launch(&r, "_Z4fillPii", 2, 64, 100);
    ck_assert_int_eq(r.st, LOOM_OK);
    check_fill(&r, 100);
    ck_assert_str_eq(sc.log, "");
    launch(&r, "_Z4smemPi", 1, 64, 0);
    ck_assert_int_eq(r.st, LOOM_OK);
    ck_assert_str_eq(sc.log, "entry cu=20 b=(0,0,0) t=(0,0,0) w=0 l=0\n");
    close_run(&r);
}
END_TEST

/* Going back from the launch's end (stop_at_exit) to its last breakpoint stop. */
START_TEST(test_back_from_exit)
{
    static const enum loom_debug_action acts[] = { LOOM_DEBUG_CONTINUE, LOOM_DEBUG_CONTINUE, LOOM_DEBUG_CONTINUE,
                                                   LOOM_DEBUG_CONTINUE, LOOM_DEBUG_REVERSE_CONTINUE,
                                                   LOOM_DEBUG_CONTINUE, LOOM_DEBUG_CONTINUE };
    struct loom_debug_config cfg = { .stop_at_exit = true };
    struct script sc = { .acts = acts, .nacts = 7, .on = tick_only };
    struct run r;
    open_run(&r, &sc, &cfg, NULL);
    set_break(&r, "core.cu", 16, NULL);
    launch(&r, "_Z4fillPii", 2, 64, 128);
    ck_assert_int_eq(r.st, LOOM_OK);
    check_fill(&r, 128);
    ck_assert_uint_eq(sc.stops, 7);
    char *line[7], *p = sc.log;
    for (int i = 0; i < 7; i++) {
        line[i] = p;
        p = strchr(p, '\n');
        ck_assert_ptr_nonnull(p);
        *p++ = 0;
    }
    ck_assert_msg(strncmp(line[4], "exit tick=", 10) == 0, "%s", line[4]);
    ck_assert_str_eq(line[5], line[3]);          /* back to the last breakpoint stop */
    ck_assert_str_eq(line[6], line[4]);          /* and on to the same end */
    ck_assert_msg(strstr(line[3], "b=(1,0,0) t=(32,0,0)"), "%s", line[3]);
    close_run(&r);
}
END_TEST

/* A watchpoint set while stopped at the very store that writes it catches that store. */
static uint64_t watch_target;
static void watch_now(struct script *sc, struct loom_debug *d, const struct loom_debug_stop *s)
{
    (void)sc;
    char err[256];
    if (s->reason == LOOM_STOP_BREAKPOINT)
        ck_assert_msg(loom_debug_watch(d, LOOM_SPACE_GLOBAL, watch_target, 4, err, sizeof err) > 0, "%s", err);
}

START_TEST(test_watch_set_at_store)
{
    struct script sc = { .on = watch_now };
    struct run r;
    open_run(&r, &sc, NULL, NULL);
    watch_target = r.buf + 5 * 4;
    char err[256];
    ck_assert_int_eq(loom_debug_break(r.d, &(struct loom_debug_bp){ .kind = LOOM_BP_PTX_LINE, .line = 79 }, NULL, err,
                                      sizeof err), 1);   /* fill's st.global */
    launch(&r, "_Z4fillPii", 1, 32, 32);
    ck_assert_int_eq(r.st, LOOM_OK);
    ck_assert_str_eq(sc.log, "breakpoint #1 cu=16 b=(0,0,0) t=(0,0,0) w=0 l=0\n"
                             "watchpoint watch#2 old=0 new=-25 cu=16 b=(0,0,0) t=(5,0,0) w=0 l=5\n");
    check_fill(&r, 32);
    close_run(&r);
}
END_TEST

Suite *debug_suite(void);
Suite *debug_suite(void)
{
    Suite *s = suite_create("debug");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_break_line);
    tcase_add_test(tc, test_condition);
    tcase_add_test(tc, test_step_calls);
    tcase_add_test(tc, test_next_over_call);
    tcase_add_test(tc, test_watch);
    tcase_add_test(tc, test_fault_and_back);
    tcase_add_test(tc, test_reverse_continue);
    tcase_add_test(tc, test_barrier_shared);
    tcase_add_test(tc, test_bad_input);
    tcase_add_test(tc, test_kill_and_determinism);
    tcase_add_test(tc, test_divergence);
    tcase_add_test(tc, test_its);
    tcase_add_test(tc, test_fault_kinds);
    tcase_add_test(tc, test_pause);
    tcase_add_test(tc, test_kinds_and_reverse_step);
    tcase_add_test(tc, test_watch_shared);
    tcase_add_test(tc, test_reverse_matches_forward);
    tcase_add_test(tc, test_break_while_running);
    tcase_add_test(tc, test_assert_and_brkpt);
    tcase_add_test(tc, test_printf_at_stops);
    tcase_add_test(tc, test_attach_one);
    tcase_add_test(tc, test_back_from_exit);
    tcase_add_test(tc, test_watch_set_at_store);
    suite_add_tcase(s, tc);
    return s;
}
