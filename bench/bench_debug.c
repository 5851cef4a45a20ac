/* bench_debug.c -- what debugging costs (issue 18's targets), on kernels of 2^20 threads
 * from bench_kernels.ptx: make bench-debug.
 *
 *   first stop    launch to the first breakpoint (at the kernel's entry), in seconds
 *   step          one stepi of a warp, answered at once (median of 2,000)
 *   never fires   a launch with a conditional breakpoint on the hot loop's line whose
 *                 condition never holds, against the same launch undebugged on one worker
 *                 (the debugger runs launches on one) and on every worker: each device's
 *                 second launch; "1st launch" compares first launches (the debugger's copy
 *                 of device memory for going back then touches new pages); "no going back":
 *                 the same with loom_debug_set_going_back(d, false), against one worker
 *
 * Times are medians of --runs runs (5 by default). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "loom/debug.h"
#include "loom/loom.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, unsigned n)
{
    qsort(v, n, sizeof *v, cmp_d);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static const char *ptx_path = "bench/bench_kernels.ptx";
static char *ptx_text;

/* The first PTX line of kernel `name` at or after its entry that holds `op`. */
static unsigned line_of(const char *name, const char *op)
{
    char head[128];
    snprintf(head, sizeof head, ".entry %s(", name);
    const char *k = strstr(ptx_text, head);
    if (!k) return 0;
    const char *at = strstr(k, op);
    if (!at) return 0;
    unsigned line = 1;
    for (const char *c = ptx_text; c < at; c++) line += *c == '\n';
    return line;
}

struct timing {
    double t_launch, t_first;    /* first stop */
    double t_last;               /* the previous stop (steps) */
    double steps[2048];
    unsigned nsteps, want_steps;
    unsigned stops;
    double first_launch;         /* the device's first launch (run returns its second) */
};

static enum loom_debug_action on_stop(struct loom_debug *d, const struct loom_debug_stop *s, void *ctx)
{
    (void)d; (void)s;
    struct timing *t = ctx;
    double n = now();
    if (t->stops++ == 0) t->t_first = n - t->t_launch;
    else if (t->nsteps < t->want_steps) t->steps[t->nsteps++] = n - t->t_last;
    if (t->nsteps < t->want_steps) {
        t->t_last = now();
        return LOOM_DEBUG_STEPI;
    }
    return LOOM_DEBUG_DETACH;
}

enum mode { PLAIN_ONE, PLAIN_ALL, DEBUG_ENTRY, DEBUG_COND, DEBUG_COND_NOBACK };

/* One run of kernel k; returns seconds (launch to synchronize). */
static double run(const char *kernel, enum mode mode, unsigned hot_line, struct timing *t)
{
    struct loom_debug *d = NULL;
    struct loom_device_config cfg = { .workers = mode == PLAIN_ONE ? 1 : 0, .deterministic = mode == PLAIN_ONE };
    if (mode >= DEBUG_ENTRY) {
        if (loom_debug_create(&(struct loom_debug_config){ .on_stop = on_stop, .ctx = t }, &d) != LOOM_OK) exit(1);
        cfg.debugger = d;
        if (mode == DEBUG_COND_NOBACK) loom_debug_set_going_back(d, false);
    }
    struct loom_device *dev;
    struct loom_module *mod;
    struct loom_kernel *k;
    if (loom_device_create(&cfg, &dev) != LOOM_OK || loom_module_load_file(dev, ptx_path, &mod) != LOOM_OK ||
        loom_module_get_kernel(mod, kernel, &k) != LOOM_OK) {
        fprintf(stderr, "bench_debug: %s\n", loom_device_error(NULL));
        exit(1);
    }
    char err[256];
    if (mode == DEBUG_ENTRY &&
        !loom_debug_break(d, &(struct loom_debug_bp){ .kind = LOOM_BP_KERNEL, .name = kernel }, NULL, err, sizeof err)) {
        fprintf(stderr, "bench_debug: %s\n", err);
        exit(1);
    }
    if ((mode == DEBUG_COND || mode == DEBUG_COND_NOBACK) &&
        !loom_debug_break(d, &(struct loom_debug_bp){ .kind = LOOM_BP_PTX_LINE, .line = hot_line,
                                                      .condition = "blockIdx.x == 5 && threadIdx.x == 4000" },
                          NULL, err, sizeof err)) {
        fprintf(stderr, "bench_debug: line %u: %s\n", hot_line, err);
        exit(1);
    }
    unsigned n = 1u << 20;
    uint64_t a, b;
    loom_malloc(dev, (size_t)n * 4, &a);
    loom_malloc(dev, (size_t)n * 4, &b);
    loom_memset(dev, a, 0, (size_t)n * 4);
    loom_memset(dev, b, 0, (size_t)n * 4);
    struct loom_launch_config lc = { 0 };
    void *args[4];
    int w = 1024, h = 1024, iters = 64;
    float alpha = 2.0f;
    int ni = (int)n;
    if (strcmp(kernel, "saxpy") == 0) {
        args[0] = &ni; args[1] = &alpha; args[2] = &a; args[3] = &b;
        lc = (struct loom_launch_config){ .grid = { n / 256, 1, 1 }, .block = { 256, 1, 1 } };
    } else {
        args[0] = &a; args[1] = &w; args[2] = &h; args[3] = &iters;
        lc = (struct loom_launch_config){ .grid = { 1024 / 16, 1024 / 16, 1 }, .block = { 16, 16, 1 } };
    }
    double secs = 0;
    for (int rep = 0; rep < 2; rep++) {         /* a first launch, then a second (buffers warm) */
        t->t_launch = now();
        enum loom_status st = loom_launch(dev, k, &lc, args);
        if (st == LOOM_OK) st = loom_synchronize(dev);
        double dt = now() - t->t_launch;
        if (st != LOOM_OK) {
            fprintf(stderr, "bench_debug: %s\n", loom_device_error(dev));
            exit(1);
        }
        if (rep == 0) t->first_launch = dt;
        else secs = dt;
        if (mode == DEBUG_ENTRY) break;
    }
    loom_device_destroy(dev);
    loom_debug_destroy(d);
    return secs;
}

int main(int argc, char **argv)
{
    unsigned runs = 5;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--ptx") == 0 && i + 1 < argc) ptx_path = argv[++i];
        else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) runs = (unsigned)atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: bench_debug [--ptx bench_kernels.ptx] [--runs N]\n");
            return 2;
        }
    }
    if (runs == 0 || runs > 64) runs = 5;
    FILE *f = fopen(ptx_path, "rb");
    if (!f) { perror(ptx_path); return 1; }
    ptx_text = calloc(1, 1 << 22);
    size_t got = fread(ptx_text, 1, (1 << 22) - 1, f);
    fclose(f);
    (void)got;
    static const struct { const char *kernel, *op; } ks[] = { { "saxpy", "fma.rn.f32" }, { "mandelbrot", "mul.f32" } };
    printf("Debugging costs, kernels of 2^20 threads, medians of %u runs\n\n", runs);
    printf("%-11s %12s %10s %12s %12s %12s %10s %10s %10s %10s\n", "kernel", "first stop", "step", "plain 1 wk",
           "plain all", "never fires", "vs 1 wk", "vs all", "1st launch", "no going back");
    for (unsigned i = 0; i < sizeof ks / sizeof ks[0]; i++) {
        unsigned hot = line_of(ks[i].kernel, ks[i].op);
        double first[64], step[64], p1[64], pa[64], dc[64], p1f[64], dcf[64], dn[64];
        for (unsigned r = 0; r < runs; r++) {
            struct timing t = { .want_steps = 2000 };
            run(ks[i].kernel, DEBUG_ENTRY, 0, &t);
            first[r] = t.t_first;
            step[r] = median(t.steps, t.nsteps);
            struct timing u = { 0 };
            p1[r] = run(ks[i].kernel, PLAIN_ONE, 0, &u);
            p1f[r] = u.first_launch;
            pa[r] = run(ks[i].kernel, PLAIN_ALL, 0, &u);
            dc[r] = run(ks[i].kernel, DEBUG_COND, hot, &u);
            dcf[r] = u.first_launch;
            dn[r] = run(ks[i].kernel, DEBUG_COND_NOBACK, hot, &u);
            if (u.stops) { fprintf(stderr, "bench_debug: the condition fired\n"); return 1; }
        }
        double mf = median(first, runs), ms = median(step, runs), m1 = median(p1, runs), ma = median(pa, runs),
               md = median(dc, runs), m1f = median(p1f, runs), mdf = median(dcf, runs), mn = median(dn, runs);
        printf("%-11s %10.4f s %7.1f us %10.4f s %10.4f s %10.4f s %9.2fx %9.2fx %9.2fx %9.2fx\n", ks[i].kernel, mf,
               ms * 1e6, m1, ma, md, md / m1, md / ma, mdf / m1f, mn / m1);
    }
    return 0;
}
