/* bench_kernels.c -- `make bench`: times the bench kernels under Loom (one
 * worker unless --workers) against native C versions run in the same process,
 * and prints thread-instructions per second, SIMD efficiency and the ratio.
 * A second table shows what checking costs: the same kernels with memory checking off
 * (--no-check) and with --initcheck / --racecheck on (--no-check-table skips it).
 * --scaling adds a table of speedups from 1 worker to all cores. Medians of --runs. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/bench.h"
#include "loom/loom.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The least of n times: what a run costs without interference from other work. */
static double minimum(const double *v, int n)
{
    double m = v[0];
    for (int i = 1; i < n; i++) m = v[i] < m ? v[i] : m;
    return m;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

struct stat_sum { const char *name; uint64_t wi, ti; };
static void take_stats(const struct loom_kernel_stats *s, void *data)
{
    struct stat_sum *sum = data;
    if (strcmp(s->kernel, sum->name) == 0) { sum->wi = s->warp_instructions; sum->ti = s->thread_instructions; }
}

#define CK(x) do { enum loom_status st_ = (x); if (st_ != LOOM_OK) { \
        fprintf(stderr, "bench: %s failed: %s\n", #x, loom_device_error(dev)); exit(1); } } while (0)

struct bench {
    const char *name;
    unsigned grid[3], block[3];
    double native_s[16], loom_s[16];
    uint64_t thread_inst, warp_inst;
    bool ok;
};

/* One kernel's data: device buffers plus a native run. */
struct data {
    int n, w, h, iters, mn, scale;
    float *x, *y, *y0, *A, *B, *C;
    int *ints, *mand;
    unsigned char *bytes;
    unsigned *bins, *starts, *steps;
};

static struct loom_device *dev;
static struct loom_module *mod;

static uint64_t dalloc(size_t bytes) { uint64_t p; CK(loom_malloc(dev, bytes, &p)); return p; }

static double run_loom(const char *kname, const unsigned grid[3], const unsigned block[3], void **args)
{
    struct loom_kernel *k;
    CK(loom_module_get_kernel(mod, kname, &k));
    struct loom_launch_config cfg = { .grid = { grid[0], grid[1], grid[2] }, .block = { block[0], block[1], block[2] } };
    double t0 = now();
    CK(loom_launch(dev, k, &cfg, args));
    CK(loom_synchronize(dev));
    return now() - t0;
}

static int check_equal(const char *what, const void *a, const void *b, size_t n)
{
    if (memcmp(a, b, n) == 0) return 1;
    fprintf(stderr, "bench: %s: Loom's result differs from the native result\n", what);
    return 0;
}

/* PTX fuses a*b+c into fma where native C rounds twice: allow a relative error. */
static int check_close(const char *what, const float *a, const float *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (fabsf(a[i] - b[i]) > 1e-6f * fabsf(b[i]) + 1e-30f) {
            fprintf(stderr, "bench: %s: element %zu is %g under Loom, %g natively\n", what, i, a[i], b[i]);
            return 0;
        }
    return 1;
}

/* Escape counts near the set's boundary depend on fused vs separate rounding. */
static int check_mostly(const char *what, const int *a, const int *b, size_t n)
{
    size_t diff = 0;
    for (size_t i = 0; i < n; i++) diff += a[i] != b[i];
    if (diff * 100 <= n) return 1;
    fprintf(stderr, "bench: %s: %zu of %zu results differ\n", what, diff, n);
    return 0;
}

/* Runs kernel `which` once under Loom and natively; returns the two times. */
static void run_one(int which, struct data *d, double *loom_s, double *native_s, double *plain_s, bool *ok)
{
    double t0;
    *plain_s = 0;
    switch (which) {
    case 0: {   /* saxpy */
        uint64_t dx = dalloc((size_t)d->n * 4), dy = dalloc((size_t)d->n * 4);
        CK(loom_memcpy(dev, (void *)(uintptr_t)dx, d->x, (size_t)d->n * 4));
        CK(loom_memcpy(dev, (void *)(uintptr_t)dy, d->y0, (size_t)d->n * 4));
        float a = 2.5f;
        void *args[] = { &d->n, &a, &dx, &dy };
        unsigned g[3] = { (unsigned)(d->n + 255) / 256, 1, 1 }, b[3] = { 256, 1, 1 };
        *loom_s = run_loom("saxpy", g, b, args);
        memcpy(d->y, d->y0, (size_t)d->n * 4);
        t0 = now(); native_saxpy(d->n, a, d->x, d->y); *native_s = now() - t0;
        *ok = check_close("saxpy", (const float *)(uintptr_t)dy, d->y, (size_t)d->n);
        loom_free(dev, dx); loom_free(dev, dy);
        break;
    }
    case 1: {   /* reduction */
        uint64_t din = dalloc((size_t)d->n * 4), dout = dalloc(4);
        CK(loom_memcpy(dev, (void *)(uintptr_t)din, d->ints, (size_t)d->n * 4));
        CK(loom_memset(dev, dout, 0, 4));   /* cudaMalloc memory is not zeroed: initcheck says so */
        void *args[] = { &din, &d->n, &dout };
        unsigned g[3] = { (unsigned)(d->n + 511) / 512, 1, 1 }, b[3] = { 256, 1, 1 };
        *loom_s = run_loom("reduce_sum", g, b, args);
        int ref = 0;
        t0 = now(); native_reduce_sum(d->ints, d->n, &ref); *native_s = now() - t0;
        *ok = check_equal("reduce_sum", (void *)(uintptr_t)dout, &ref, 4);
        int plain = 0;
        t0 = now(); native_reduce_sum_plain(d->ints, d->n, &plain); *plain_s = now() - t0;
        *ok = *ok && check_equal("reduce_sum (plain)", &plain, &ref, 4);
        loom_free(dev, din); loom_free(dev, dout);
        break;
    }
    case 2: {   /* matmul */
        size_t bytes = (size_t)d->mn * d->mn * 4;
        uint64_t dA = dalloc(bytes), dB = dalloc(bytes), dC = dalloc(bytes);
        CK(loom_memcpy(dev, (void *)(uintptr_t)dA, d->A, bytes));
        CK(loom_memcpy(dev, (void *)(uintptr_t)dB, d->B, bytes));
        void *args[] = { &dA, &dB, &dC, &d->mn };
        unsigned g[3] = { (unsigned)d->mn / 16, (unsigned)d->mn / 16, 1 }, b[3] = { 16, 16, 1 };
        *loom_s = run_loom("matmul", g, b, args);
        t0 = now(); native_matmul(d->A, d->B, d->C, d->mn); *native_s = now() - t0;
        *ok = check_close("matmul", (const float *)(uintptr_t)dC, d->C, (size_t)d->mn * d->mn);
        loom_free(dev, dA); loom_free(dev, dB); loom_free(dev, dC);
        break;
    }
    case 3: {   /* mandelbrot */
        size_t bytes = (size_t)d->w * d->h * 4;
        uint64_t dout = dalloc(bytes);
        void *args[] = { &dout, &d->w, &d->h, &d->iters };
        unsigned g[3] = { (unsigned)(d->w + 15) / 16, (unsigned)(d->h + 15) / 16, 1 }, b[3] = { 16, 16, 1 };
        *loom_s = run_loom("mandelbrot", g, b, args);
        t0 = now(); native_mandelbrot(d->mand, d->w, d->h, d->iters); *native_s = now() - t0;
        *ok = check_mostly("mandelbrot", (const int *)(uintptr_t)dout, d->mand, (size_t)d->w * d->h);
        loom_free(dev, dout);
        break;
    }
    case 4: {   /* histogram */
        uint64_t ddata = dalloc((size_t)d->n), dbins = dalloc(256 * 4);
        CK(loom_memcpy(dev, (void *)(uintptr_t)ddata, d->bytes, (size_t)d->n));
        CK(loom_memset(dev, dbins, 0, 256 * 4));
        void *args[] = { &ddata, &d->n, &dbins };
        unsigned g[3] = { 64u << d->scale, 1, 1 }, b[3] = { 256, 1, 1 };
        *loom_s = run_loom("histogram", g, b, args);
        memset(d->bins, 0, 256 * 4);
        t0 = now(); native_histogram(d->bytes, d->n, d->bins, (int)g[0], (int)b[0]); *native_s = now() - t0;
        *ok = check_equal("histogram", (void *)(uintptr_t)dbins, d->bins, 256 * 4);
        unsigned plain[256] = { 0 };
        t0 = now(); native_histogram_plain(d->bytes, d->n, plain); *plain_s = now() - t0;
        *ok = *ok && check_equal("histogram (plain)", plain, d->bins, 256 * 4);
        loom_free(dev, ddata); loom_free(dev, dbins);
        break;
    }
    default: {  /* collatz */
        uint64_t ds = dalloc((size_t)d->n * 4), dst = dalloc((size_t)d->n * 4);
        CK(loom_memcpy(dev, (void *)(uintptr_t)ds, d->starts, (size_t)d->n * 4));
        void *args[] = { &ds, &dst, &d->n };
        unsigned g[3] = { (unsigned)(d->n + 255) / 256, 1, 1 }, b[3] = { 256, 1, 1 };
        *loom_s = run_loom("collatz", g, b, args);
        t0 = now(); native_collatz(d->starts, d->steps, d->n); *native_s = now() - t0;
        *ok = check_equal("collatz", (void *)(uintptr_t)dst, d->steps, (size_t)d->n * 4);
        loom_free(dev, ds); loom_free(dev, dst);
        break;
    }
    }
}

static const char *const names[] = { "saxpy", "reduce_sum", "matmul", "mandelbrot", "histogram", "collatz" };
#define NKERNELS 6

static void make_data(struct data *d, int scale)
{
    d->scale = scale;
    d->n = 1 << (20 + scale);
    d->mn = 128 << (scale < 2 ? scale : 2);
    d->w = 512 << ((scale + 1) / 2); d->h = d->w / 2; d->iters = 256;
    d->x = malloc((size_t)d->n * 4); d->y = malloc((size_t)d->n * 4); d->y0 = malloc((size_t)d->n * 4);
    d->ints = malloc((size_t)d->n * 4); d->bytes = malloc((size_t)d->n);
    d->starts = malloc((size_t)d->n * 4); d->steps = malloc((size_t)d->n * 4);
    d->A = malloc((size_t)d->mn * d->mn * 4); d->B = malloc((size_t)d->mn * d->mn * 4); d->C = malloc((size_t)d->mn * d->mn * 4);
    d->mand = malloc((size_t)d->w * d->h * 4); d->bins = malloc(256 * 4);
    unsigned s = 12345;
    for (int i = 0; i < d->n; i++) {
        s = s * 1103515245u + 12345u;
        d->x[i] = (float)(s >> 8) / 16777216.0f; d->y0[i] = (float)i * 0.5f;
        d->ints[i] = (int)(s >> 20) - 2048; d->bytes[i] = (unsigned char)(s >> 13);
        d->starts[i] = 1 + (s >> 12) % 100000;
    }
    for (int i = 0; i < d->mn * d->mn; i++) { d->A[i] = (float)(i % 7) * 0.25f; d->B[i] = (float)(i % 5) * 0.5f; }
}

int main(int argc, char **argv)
{
    const char *ptx = "bench/bench_kernels.ptx";
    int runs = 5, scale = 0;
    unsigned workers = 1;
    bool scaling = false, check_table = true, use_min = false;
    const char *only = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--runs") && i + 1 < argc) runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--workers") && i + 1 < argc) workers = (unsigned)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--ptx") && i + 1 < argc) ptx = argv[++i];
        else if (!strcmp(argv[i], "--large")) scale = 1;
        else if (!strcmp(argv[i], "--scale") && i + 1 < argc) scale = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--scaling")) scaling = true;
        else if (!strcmp(argv[i], "--no-check-table")) check_table = false;
        else if (!strcmp(argv[i], "--kernel") && i + 1 < argc) only = argv[++i];
        else if (!strcmp(argv[i], "--min")) use_min = true;
        else {
            fprintf(stderr, "usage: bench_kernels [--ptx FILE] [--runs N] [--workers N] [--large | --scale K] [--scaling] "
                    "[--no-check-table] [--kernel NAME] [--min]\n");
            return 2;
        }
    }
    if (runs < 1 || runs > 16) runs = 5;
    if (scale < 0 || scale > 5) {
        fprintf(stderr, "bench_kernels: --scale takes 0 to 5 (sizes 2^(20+K) elements; --large is 1)\n");
        return 2;
    }
    struct data d;
    make_data(&d, scale);
    struct loom_device_config cfg = { .workers = workers, .stats = true };
    CK(loom_device_create(&cfg, &dev));
    CK(loom_module_load_file(dev, ptx, &mod));
    printf("Loom bench: %d runs each, %s; Loom on %u worker%s vs native C (-O2), same process\n\n", runs,
           use_min ? "minimums" : "medians", workers, workers == 1 ? "" : "s");
    printf("%-12s %10s %10s %8s %14s %9s %10s %8s\n", "kernel", "loom ms", "native ms", "ratio", "thread-inst/s",
           "SIMD eff", "plain ms", "vs plain");
    int bad = 0;
    double checked[NKERNELS];
    for (int k = 0; k < NKERNELS; k++) {
        double ls[16], ns[16], ps[16];
        bool ok = true;
        checked[k] = 0;
        if (only && strcmp(only, names[k]) != 0) continue;
        for (int r = 0; r < runs; r++) {
            bool okr;
            run_one(k, &d, &ls[r], &ns[r], &ps[r], &okr);
            ok = ok && okr;
        }
        struct stat_sum sum = { .name = names[k] };
        loom_stats_foreach(dev, take_stats, &sum);
        double lm = use_min ? minimum(ls, runs) : median(ls, runs), nm = use_min ? minimum(ns, runs) : median(ns, runs);
        checked[k] = lm;
        double total_loom = 0;
        for (int r = 0; r < runs; r++) total_loom += ls[r];
        double tips = (double)sum.ti / total_loom;
        double eff = sum.wi ? (double)sum.ti / (32.0 * (double)sum.wi) : 0;
        double pm = use_min ? minimum(ps, runs) : median(ps, runs);
        char plain[32] = "";
        if (pm > 0) snprintf(plain, sizeof plain, " %10.3f %7.1fx", pm * 1e3, lm / pm);
        printf("%-12s %10.2f %10.3f %7.1fx %14.3g %8.1f%%%s%s\n", names[k], lm * 1e3, nm * 1e3, lm / nm, tips, eff * 100,
               plain, ok ? "" : "  WRONG RESULT");
        bad += !ok;
    }
    loom_device_destroy(dev);
    if (check_table) {
        /* The same kernels on devices configured otherwise: checking off, then each deeper check. */
        static const char *const modes[] = { "no-check", "initcheck", "racecheck", "counters" };
        double ms[4][NKERNELS];
        for (int m = 0; m < 4; m++) {
            struct loom_device_config c = { .workers = workers, .no_check = m == 0, .initcheck = m == 1,
                                            .racecheck = m == 2, .stats = m == 3, .counters = m == 3 };
            CK(loom_device_create(&c, &dev));
            CK(loom_module_load_file(dev, ptx, &mod));
            for (int k = 0; k < NKERNELS; k++) {
                double ls[16], ns[16], ps[16];
                bool okr;
                ms[m][k] = 0;
                if (only && strcmp(only, names[k]) != 0) continue;
                for (int r = 0; r < runs; r++) run_one(k, &d, &ls[r], &ns[r], &ps[r], &okr);
                ms[m][k] = use_min ? minimum(ls, runs) : median(ls, runs);
            }
            loom_device_destroy(dev);
        }
        printf("\nWhat checking and counting cost: median ms with memory checking (the default, as above),\n"
               "without it (--no-check), with the deeper checks (--initcheck, --racecheck), and with the\n"
               "per-line and memory counters (--stats; docs/OBSERVE.md) and their ratio to the default\n");
        printf("%-12s %10s %10s %8s %10s %10s %10s %8s\n", "kernel", "checked", modes[0], "cost", modes[1], modes[2],
               modes[3], "ratio");
        for (int k = 0; k < NKERNELS; k++)
            if (!only || !strcmp(only, names[k]))
                printf("%-12s %10.2f %10.2f %7.0f%% %10.2f %10.2f %10.2f %7.2fx\n", names[k], checked[k] * 1e3,
                       ms[0][k] * 1e3, 100.0 * (checked[k] / ms[0][k] - 1.0), ms[1][k] * 1e3, ms[2][k] * 1e3,
                       ms[3][k] * 1e3, ms[3][k] / checked[k]);
    }
    if (scaling) {
        struct loom_device_config all = { .workers = 0, .stats = false };
        CK(loom_device_create(&all, &dev));
        unsigned nall = loom_device_workers(dev);
        loom_device_destroy(dev);
        printf("\nScaling: %s ms with 1 worker and with all %u cores (one worker per core)\n%-12s %10s %10s %8s\n",
               use_min ? "minimum" : "median", nall, "kernel", "1 worker", "all", "speedup");
        double one[NKERNELS];
        for (int pass = 0; pass < 2; pass++) {
            struct loom_device_config c = pass ? all : (struct loom_device_config){ .workers = 1 };
            CK(loom_device_create(&c, &dev));
            CK(loom_module_load_file(dev, ptx, &mod));
            for (int k = 0; k < NKERNELS; k++) {
                double ls[16], ns[16], ps[16];
                bool okr;
                if (only && strcmp(only, names[k]) != 0) continue;
                for (int r = 0; r < runs; r++) run_one(k, &d, &ls[r], &ns[r], &ps[r], &okr);
                double m = use_min ? minimum(ls, runs) : median(ls, runs);
                if (!pass) one[k] = m;
                else printf("%-12s %10.2f %10.2f %7.2fx\n", names[k], one[k] * 1e3, m * 1e3, one[k] / m);
            }
            loom_device_destroy(dev);
        }
    }
    return bad ? 1 : 0;
}
