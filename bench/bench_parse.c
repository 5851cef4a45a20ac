/* bench_parse.c -- PTX front-end throughput: MB/s of PTX parsed on one core, and
 * parsed + checked + analysed, over the files given; median of 5 runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ptx/ptx_ir.h"

struct text {
    const char *path;
    char *buf;
    size_t len;
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* One pass over the corpus; returns false when a file does not parse. */
static int run_once(const struct text *t, int n, int full)
{
    int bad = 0;
    for (int i = 0; i < n; i++) {
        struct ptx_diags d;
        ptx_diags_init(&d);
        struct ptx_module *m = ptx_parse(t[i].buf, t[i].len, t[i].path, &d);
        if (!m)
            bad++;
        else if (full) {
            ptx_check(m, &d);
            ptx_analyze(m, &d);
        }
        ptx_module_free(m);
        ptx_diags_free(&d);
    }
    return bad;
}

/* Median MB/s of 5 runs; each run repeats the corpus for at least 0.2 s. */
static double measure(const struct text *t, int n, size_t total, int full)
{
    double rates[5];
    for (int r = 0; r < 5; r++) {
        double t0 = now_s(), dt;
        size_t bytes = 0;
        do {
            run_once(t, n, full);
            bytes += total;
            dt = now_s() - t0;
        } while (dt < 0.2);
        rates[r] = (double)bytes / dt / 1e6;
    }
    qsort(rates, 5, sizeof rates[0], cmp_double);
    return rates[2];
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_parse FILE.ptx...\n");
        return 2;
    }
    int n = argc - 1;
    struct text *t = calloc((size_t)n, sizeof *t);
    size_t total = 0;
    for (int i = 0; i < n; i++) {
        FILE *f = fopen(argv[i + 1], "rb");
        if (!f) {
            perror(argv[i + 1]);
            return 1;
        }
        fseek(f, 0, SEEK_END);
        long len = ftell(f);
        fseek(f, 0, SEEK_SET);
        t[i].path = argv[i + 1];
        t[i].buf = malloc(len > 0 ? (size_t)len : 1);
        t[i].len = fread(t[i].buf, 1, len > 0 ? (size_t)len : 0, f);
        fclose(f);
        total += t[i].len;
    }
    int bad = run_once(t, n, 0);
    if (bad)
        fprintf(stderr, "bench_parse: %d of %d files do not parse\n", bad, n);
    printf("corpus: %d files, %.2f MB\n", n, (double)total / 1e6);
    printf("parse:                   %8.1f MB/s (median of 5)\n", measure(t, n, total, 0));
    printf("parse + check + analyse: %8.1f MB/s (median of 5)\n", measure(t, n, total, 1));
    for (int i = 0; i < n; i++)
        free(t[i].buf);
    free(t);
    return bad ? 1 : 0;
}
