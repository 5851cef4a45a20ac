/* bench_vtime.c -- what the virtual-time simulator (sched/sched_vtime.c) costs: ns per CTA and
 * per op on workloads of 10^6 CTAs and 10^4 ops, median CPU time of 5 runs (make bench-vtime). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "sched/sched_vtime.h"

#define RUNS 5

/* A workload: ops and the arrays they point into. */
struct workload {
    const char *name;
    const char *per;          /* "CTA" or "op": what the cost is divided by */
    struct sched_vt_op *ops;
    size_t n;
    unsigned *preds;
    double *durs;
    struct sched_vt_config cfg;
};

/* CPU time of this thread: the machines benchmarks run on are shared, and the simulator is
 * single-threaded, so wall time would mostly measure the neighbours. */
static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static unsigned lcg_next(uint64_t *x)
{
    *x = *x * 6364136223846793005ull + 1442695040888963407ull;
    return (unsigned)(*x >> 33);
}

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p) {
        fprintf(stderr, "bench_vtime: out of memory\n");
        exit(1);
    }
    return p;
}

/* One kernel of 10^6 CTAs of 1 us, 2 per SM, on 132 SMs: the block scheduler alone. */
static struct workload one_kernel(void)
{
    struct workload w = { "1 kernel x 10^6 CTAs", "CTA", xcalloc(1, sizeof(struct sched_vt_op)),
                          1, NULL, NULL, { .sms = 132 } };
    w.ops[0] = (struct sched_vt_op){ .kind = SCHED_VT_KERNEL, .nctas = 1000000,
                                     .cta_s_uniform = 1e-6, .ctas_per_sm = 2 };
    return w;
}

/* 10^4 kernels of 100 CTAs with their own durations (0.5-8 us), 1-8 per SM, each depending
 * on one of the 8 kernels before it; window 32, launch 3 us. */
static struct workload many_kernels(void)
{
    const size_t n = 10000, ctas = 100;
    struct workload w = { "10^4 kernels x 100 CTAs, window 32", "CTA",
                          xcalloc(n, sizeof(struct sched_vt_op)), n, xcalloc(n, sizeof(unsigned)),
                          xcalloc(n * ctas, sizeof(double)),
                          { .sms = 132, .window = 32, .launch_s = 3e-6 } };
    uint64_t x = 1;
    for (size_t i = 0; i < n; i++) {
        for (size_t c = 0; c < ctas; c++)
            w.durs[i * ctas + c] = (1 + lcg_next(&x) % 16) * 0.5e-6;
        w.ops[i] = (struct sched_vt_op){ .kind = SCHED_VT_KERNEL, .nctas = ctas,
                                         .cta_s = w.durs + i * ctas,
                                         .ctas_per_sm = 1 + lcg_next(&x) % 8 };
        if (i >= 8) {
            w.preds[i] = (unsigned)(i - 1 - lcg_next(&x) % 8);
            w.ops[i].npred = 1;
            w.ops[i].pred = w.preds + i;
        }
    }
    return w;
}

/* 10^4 ops as streams issue them: H2D copy, a kernel of 4 CTAs, D2H copy, a host op,
 * in 8 streams (each op depends on the one before it in its stream); no window. */
static struct workload many_ops(void)
{
    const size_t n = 10000;
    struct workload w = { "10^4 ops (copies, small kernels, host) in 8 streams", "op",
                          xcalloc(n, sizeof(struct sched_vt_op)), n, xcalloc(n, sizeof(unsigned)),
                          NULL, { .sms = 132, .copy_engines = 2, .launch_s = 3e-6 } };
    for (size_t i = 0; i < n; i++) {
        size_t stage = (i / 8) % 4;
        struct sched_vt_op *op = &w.ops[i];
        if (stage == 1)
            *op = (struct sched_vt_op){ .kind = SCHED_VT_KERNEL, .nctas = 4,
                                        .cta_s_uniform = 5e-6, .ctas_per_sm = 4 };
        else if (stage == 3)
            *op = (struct sched_vt_op){ .kind = SCHED_VT_HOST, .duration_s = 1e-6 };
        else
            *op = (struct sched_vt_op){ .kind = SCHED_VT_COPY, .duration_s = 2e-6,
                                        .engine = stage == 0 ? 0 : 1 };
        if (i >= 8) {
            w.preds[i] = (unsigned)(i - 8);
            op->npred = 1;
            op->pred = w.preds + i;
        }
    }
    return w;
}

/* Median seconds of RUNS simulations; also returns the CTAs placed. */
static double measure(const struct workload *w, uint64_t *out_ctas, double *out_makespan)
{
    double t[RUNS];
    for (int r = 0; r < RUNS; r++) {
        struct sched_vt_result res;
        char err[256];
        double t0 = now_s();
        if (sched_vt_simulate(w->ops, w->n, &w->cfg, &res, err, sizeof err) != LOOM_OK) {
            fprintf(stderr, "bench_vtime: %s: %s\n", w->name, err);
            exit(1);
        }
        t[r] = now_s() - t0;
        *out_ctas = res.ctas;
        *out_makespan = res.makespan_s;
        sched_vt_result_free(&res);
    }
    qsort(t, RUNS, sizeof t[0], cmp_double);
    return t[RUNS / 2];
}

int main(void)
{
    struct workload w[] = { one_kernel(), many_kernels(), many_ops() };
    printf("%-54s %10s %10s %12s %10s\n", "workload (median of 5)", "ops", "CTAs", "CPU ms",
           "ns/unit");
    for (size_t i = 0; i < sizeof w / sizeof w[0]; i++) {
        uint64_t ctas;
        double makespan, s = measure(&w[i], &ctas, &makespan);
        double units = w[i].per[0] == 'C' ? (double)ctas : (double)w[i].n;
        printf("%-54s %10zu %10llu %12.2f %7.0f/%s\n", w[i].name, w[i].n,
               (unsigned long long)ctas, s * 1e3, s * 1e9 / units, w[i].per);
        free(w[i].ops);
        free(w[i].preds);
        free(w[i].durs);
    }
    return 0;
}
