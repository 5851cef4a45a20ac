/* check_sched_policy.c -- the scheduling policies (sched/sched_policy.c) through the public
 * API: which order a stream's kernels run in under fifo, serial, acs and dag, and the
 * dependencies found.
 *
 * One worker, held by a host function on a stream of its own while the kernels are
 * queued, so that every dependency is seen at submission and the order in which the one
 * worker then runs them is the policy's, exactly. Each kernel appends its id to a log;
 * (one thread each) the ranges each launch declares (loom_launch_config.access) are what the policy sees:
 *   k1 writes a; k2 reads a; k3 writes b; k4 reads b and writes a.
 * dag: k1 and k3 start at once, k2 after k1, k4 after k1, k2, k3 (4 edges): 1 3 2 4.
 * acs:window=2 sees only two unfinished operations at a time: 1 2 3 4. */
#include "config.h"

#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loom/loom.h"

static const char log_ptx[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry log_id(.param .u64 c, .param .u64 l, .param .u32 id)\n{\n"
    " .reg .b32 %r<4>;\n .reg .b64 %rd<6>;\n"
    " ld.param.u64 %rd1, [c];\n ld.param.u64 %rd2, [l];\n ld.param.u32 %r1, [id];\n"
    " cvta.to.global.u64 %rd1, %rd1;\n cvta.to.global.u64 %rd2, %rd2;\n"
    " atom.global.add.u32 %r2, [%rd1], 1;\n mul.wide.u32 %rd3, %r2, 4;\n add.s64 %rd4, %rd2, %rd3;\n"
    " st.global.u32 [%rd4], %r1;\n ret;\n}\n";

struct gate { pthread_mutex_t m; pthread_cond_t cv; bool started, open; };

static void gate_fn(void *p)
{
    struct gate *g = p;
    pthread_mutex_lock(&g->m);
    g->started = true;
    pthread_cond_broadcast(&g->cv);
    while (!g->open) pthread_cond_wait(&g->cv, &g->m);
    pthread_mutex_unlock(&g->m);
}

/* Runs the four kernels under policy; the log's order into order[4], the summary into line. */
static void run_order(const char *policy, unsigned order[4], char *line, size_t size)
{
    struct loom_device *dev;
    struct loom_device_config cfg = { .workers = 1, .sched = policy };
    ck_assert_int_eq(loom_device_create(&cfg, &dev), LOOM_OK);
    struct loom_module *mod;
    struct loom_kernel *k;
    ck_assert_int_eq(loom_module_load_text(dev, log_ptx, sizeof log_ptx - 1, "log.ptx", &mod), LOOM_OK);
    ck_assert_int_eq(loom_module_get_kernel(mod, "log_id", &k), LOOM_OK);
    uint64_t counter, logbuf, a, b;
    ck_assert_int_eq(loom_malloc(dev, 4, &counter), LOOM_OK);
    ck_assert_int_eq(loom_malloc(dev, 64, &logbuf), LOOM_OK);
    ck_assert_int_eq(loom_malloc(dev, 256, &a), LOOM_OK);
    ck_assert_int_eq(loom_malloc(dev, 256, &b), LOOM_OK);
    ck_assert_int_eq(loom_memset(dev, counter, 0, 4), LOOM_OK);

    struct loom_stream *side;
    ck_assert_int_eq(loom_stream_create(dev, LOOM_STREAM_NON_BLOCKING, 0, &side), LOOM_OK);
    struct gate g = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false, false };
    ck_assert_int_eq(loom_stream_add_host_func(side, gate_fn, &g), LOOM_OK);
    pthread_mutex_lock(&g.m);
    while (!g.started) pthread_cond_wait(&g.cv, &g.m);   /* the one worker is held */
    pthread_mutex_unlock(&g.m);

    const struct loom_access_range r1[] = { { a, 256, LOOM_ACCESS_WRITE } };
    const struct loom_access_range r2[] = { { a, 256, LOOM_ACCESS_READ } };
    const struct loom_access_range r3[] = { { b, 256, LOOM_ACCESS_WRITE } };
    const struct loom_access_range r4[] = { { b, 256, LOOM_ACCESS_READ }, { a, 16, LOOM_ACCESS_WRITE } };
    const struct loom_access_range *ranges[] = { r1, r2, r3, r4 };
    const unsigned nranges[] = { 1, 1, 1, 2 };
    for (unsigned i = 0; i < 4; i++) {
        unsigned id = i + 1;
        void *args[] = { &counter, &logbuf, &id };
        struct loom_launch_config lc = { .grid = { 1, 1, 1 }, .block = { 1, 1, 1 }, .access = ranges[i],
                                         .naccess = nranges[i] };
        ck_assert_int_eq(loom_launch(dev, k, &lc, args), LOOM_OK);
    }
    pthread_mutex_lock(&g.m);
    g.open = true;
    pthread_cond_broadcast(&g.cv);
    pthread_mutex_unlock(&g.m);
    ck_assert_int_eq(loom_synchronize(dev), LOOM_OK);
    unsigned log[4];
    ck_assert_int_eq(loom_memcpy(dev, log, (void *)(uintptr_t)logbuf, sizeof log), LOOM_OK);
    memcpy(order, log, sizeof log);
    FILE *f = fmemopen(line, size, "w");
    ck_assert_ptr_nonnull(f);
    loom_sched_print_summary(dev, f);
    fclose(f);
    loom_stream_destroy(side);
    loom_device_destroy(dev);
}

static void expect(const char *policy, const unsigned want[4], const char *want_deps)
{
    unsigned got[4];
    char line[512];
    run_order(policy, got, line, sizeof line);
    ck_assert_msg(memcmp(got, want, sizeof got) == 0, "%s: order %u %u %u %u, want %u %u %u %u", policy, got[0], got[1],
                  got[2], got[3], want[0], want[1], want[2], want[3]);
    ck_assert_msg(strstr(line, want_deps) != NULL, "%s: summary '%s' lacks '%s'", policy, line, want_deps);
    ck_assert_msg(strstr(line, "kernels=4 ") != NULL, "%s: summary '%s'", policy, line);
}

START_TEST(test_orders)
{
    static const unsigned in_order[4] = { 1, 2, 3, 4 }, reordered[4] = { 1, 3, 2, 4 };
    expect("fifo", in_order, "deps=0 ");
    expect("serial", in_order, "deps=0 ");
    expect("dag", reordered, "deps=4 ");
    expect("acs:window=8", reordered, "deps=4 ");
    expect("acs", reordered, "policy=acs:window=32 ");
    /* the window holds the gate and one kernel, then two kernels: k3 waits for k1 to finish */
    expect("acs:window=2", in_order, "deps=4 ");
    expect("acs:window=1", in_order, "deps=4 ");
}
END_TEST

START_TEST(test_bad_specs)
{
    static const char *bad[] = { "bogus", "acs:window=0", "acs:window=x", "dag:window=4", "acs:size=3", "fifo:x" };
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char msg[256];
        ck_assert_int_eq(loom_sched_check(bad[i], msg, sizeof msg), LOOM_ERR_INVALID_VALUE);
        ck_assert_msg(strchr(msg, '\n') == NULL && msg[0], "%s: '%s'", bad[i], msg);
        struct loom_device *dev = NULL;
        struct loom_device_config cfg = { .workers = 1, .sched = bad[i] };
        ck_assert_int_eq(loom_device_create(&cfg, &dev), LOOM_ERR_INVALID_VALUE);
        ck_assert_ptr_null(dev);
    }
    char msg[256];
    ck_assert_int_eq(loom_sched_check("bogus", msg, sizeof msg), LOOM_ERR_INVALID_VALUE);
    ck_assert_str_eq(msg, "unknown scheduling policy 'bogus' (valid: fifo, serial, acs[:window=N], dag)");
    ck_assert_int_eq(loom_sched_check("acs:window=64", msg, sizeof msg), LOOM_OK);
    ck_assert_int_eq(loom_sched_check(NULL, msg, sizeof msg), LOOM_OK);
}
END_TEST

/* Virtual time: four independent kernels of 8 CTAs (a small part of the 132 SMs) and a
 * dependent fifth. Serial runs them one after another; dag overlaps the four; the virtual
 * makespan is the same whatever the workers and run after run. */
static double vt_makespan(const char *policy, unsigned workers, char *line, size_t size)
{
    struct loom_device *dev;
    struct loom_device_config cfg = { .workers = workers, .sched = policy, .timing_model = true };
    ck_assert_int_eq(loom_device_create(&cfg, &dev), LOOM_OK);
    struct loom_module *mod;
    struct loom_kernel *k;
    ck_assert_int_eq(loom_module_load_text(dev, log_ptx, sizeof log_ptx - 1, "log.ptx", &mod), LOOM_OK);
    ck_assert_int_eq(loom_module_get_kernel(mod, "log_id", &k), LOOM_OK);
    uint64_t counter[5], logbuf[5];
    for (unsigned i = 0; i < 5; i++) {
        ck_assert_int_eq(loom_malloc(dev, 4, &counter[i]), LOOM_OK);
        ck_assert_int_eq(loom_malloc(dev, 4 * 8 * 128, &logbuf[i]), LOOM_OK);
        ck_assert_int_eq(loom_memset(dev, counter[i], 0, 4), LOOM_OK);
    }
    for (unsigned i = 0; i < 5; i++) {
        unsigned id = i + 1;
        void *args[] = { &counter[i], &logbuf[i], &id };
        /* the fifth reads what the first four wrote */
        struct loom_access_range r[5];
        unsigned n = 0;
        if (i < 4) {
            r[n++] = (struct loom_access_range){ counter[i], 4, LOOM_ACCESS_READ | LOOM_ACCESS_WRITE };
            r[n++] = (struct loom_access_range){ logbuf[i], 4 * 8 * 128, LOOM_ACCESS_WRITE };
        } else {
            for (unsigned j = 0; j < 4; j++) r[n++] = (struct loom_access_range){ logbuf[j], 16, LOOM_ACCESS_READ };
            r[n++] = (struct loom_access_range){ counter[4], 4, LOOM_ACCESS_READ | LOOM_ACCESS_WRITE };
        }
        struct loom_launch_config lc = { .grid = { 8, 1, 1 }, .block = { 128, 1, 1 }, .access = i < 4 ? r : NULL,
                                         .naccess = n };
        if (i == 4) { lc.access = r; lc.naccess = n; }
        ck_assert_int_eq(loom_launch(dev, k, &lc, args), LOOM_OK);
    }
    FILE *f = fmemopen(line, size, "w");
    ck_assert_ptr_nonnull(f);
    loom_sched_print_summary(dev, f);
    fclose(f);
    loom_device_destroy(dev);
    const char *m = strstr(line, "makespan_us=");
    ck_assert_msg(m && strstr(line, "timing=model"), "'%s'", line);
    return strtod(m + 12, NULL);
}

START_TEST(test_virtual_time)
{
    char a[512], b[512], c[512];
    double serial = vt_makespan("serial", 1, a, sizeof a);
    double dag1 = vt_makespan("dag", 1, b, sizeof b);
    double dag2 = vt_makespan("dag", 2, c, sizeof c);
    ck_assert_msg(serial > 0 && dag1 > 0, "%s / %s", a, b);
    ck_assert_msg(dag1 == dag2, "dag: %g with one worker, %g with two", dag1, dag2);
    /* four of five kernels overlap: at least 1.5 times faster */
    ck_assert_msg(serial > 1.5 * dag1, "serial %g, dag %g: '%s' '%s'", serial, dag1, a, b);
    ck_assert_msg(strstr(b, "overlapped=4 ") != NULL, "'%s'", b);
    ck_assert_msg(strstr(a, "overlapped=0 ") != NULL, "'%s'", a);
    double fifo = vt_makespan("fifo", 2, c, sizeof c);
    ck_assert_msg(fifo == serial, "fifo %g (one stream: serial's %g): '%s'", fifo, serial, c);
    double acs1 = vt_makespan("acs:window=1", 1, c, sizeof c);
    ck_assert_msg(acs1 == serial, "acs:window=1 %g, serial %g", acs1, serial);
    double acs2 = vt_makespan("acs:window=2", 1, c, sizeof c);
    ck_assert_msg(acs2 < serial && acs2 > dag1, "acs:window=2 %g between dag %g and serial %g", acs2, dag1, serial);
}
END_TEST

Suite *sched_policy_suite(void);
Suite *sched_policy_suite(void)
{
    Suite *s = suite_create("sched_policy");
    TCase *tc = tcase_create("policies");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_orders);
    tcase_add_test(tc, test_bad_specs);
    tcase_add_test(tc, test_virtual_time);
    suite_add_tcase(s, tc);
    return s;
}
