/* bench_launch.c -- fixed costs: creating a device, loading a module, and the
 * per-launch overhead of an empty kernel (launch alone, and launch + sync),
 * medians of many repetitions. bench_exec.sh adds `loom exec` start-up. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "loom/loom.h"

static const char empty_ptx[] =
    ".version 8.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry empty(.param .u64 p)\n{\n\tret;\n}\n";

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp);
    return v[n / 2];
}

#define N 200

int main(void)
{
    double create[20], load[20], launch[N], roundtrip[N];
    struct loom_device *dev = NULL;
    struct loom_module *mod = NULL;
    struct loom_kernel *k = NULL;
    for (int i = 0; i < 20; i++) {
        double t0 = now();
        if (loom_device_create(NULL, &dev) != LOOM_OK) { fprintf(stderr, "bench_launch: no device\n"); return 1; }
        double t1 = now();
        if (loom_module_load_text(dev, empty_ptx, strlen(empty_ptx), "empty.ptx", &mod) != LOOM_OK ||
            loom_module_get_kernel(mod, "empty", &k) != LOOM_OK) {
            fprintf(stderr, "bench_launch: %s\n", loom_device_error(dev));
            return 1;
        }
        double t2 = now();
        create[i] = t1 - t0;
        load[i] = t2 - t1;
        if (i < 19) loom_device_destroy(dev);
    }
    uint64_t p = 0;
    void *args[] = { &p };
    struct loom_launch_config cfg = { .grid = { 1, 1, 1 }, .block = { 32, 1, 1 } };
    for (int i = 0; i < N; i++) {
        double t0 = now();
        loom_launch(dev, k, &cfg, args);
        double t1 = now();
        loom_synchronize(dev);
        double t2 = now();
        launch[i] = t1 - t0;
        roundtrip[i] = t2 - t0;
    }
    /* Launch throughput: many launches queued, one synchronisation. */
    double t0 = now();
    for (int i = 0; i < N; i++) loom_launch(dev, k, &cfg, args);
    loom_synchronize(dev);
    double batch = (now() - t0) / N;
    loom_device_destroy(dev);
    printf("\nFixed costs (medians)\n");
    printf("  device create (worker pool start)   %8.1f us\n", median(create, 20) * 1e6);
    printf("  module load (tiny PTX)              %8.1f us\n", median(load, 20) * 1e6);
    printf("  launch call, empty kernel           %8.1f us\n", median(launch, N) * 1e6);
    printf("  launch + synchronize, empty kernel  %8.1f us\n", median(roundtrip, N) * 1e6);
    printf("  launches queued back to back        %8.1f us each\n", batch * 1e6);
    return 0;
}
