/* check_trace.c -- unit tests of the Chrome trace recorder (observe/trace.c): events from
 * several threads at once, the cap and its note, track order, escaping, errors. */
#include "config.h"

#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "loom/loom.h"
#include "observe/trace.h"

#define ORIGIN 1000000000ull   /* time 0 of the test traces, in ns */

static char path[64];

static struct loom_trace *open_trace(uint64_t cap)
{
    snprintf(path, sizeof path, "/tmp/loom-check-trace.XXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    char err[256] = "";
    struct loom_trace *t = loom_trace_open(&(struct loom_trace_opts){ .path = path, .cap = cap, .origin_ns = ORIGIN },
                                           err, sizeof err);
    ck_assert_msg(t != NULL, "%s", err);
    return t;
}

/* The file's text (the caller frees it). */
static char *written(struct loom_trace *t)
{
    char err[256] = "";
    ck_assert_msg(loom_trace_write(t, err, sizeof err), "%s", err);
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    static char buf[1 << 22];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    return strdup(buf);
}

static unsigned count(const char *text, const char *what)
{
    unsigned n = 0;
    for (const char *p = text; (p = strstr(p, what)); p += strlen(what)) n++;
    return n;
}

struct thread_arg { struct loom_trace *t; unsigned worker, n; };

static void *record_ctas(void *p)
{
    struct thread_arg *a = p;
    for (unsigned i = 0; i < a->n; i++) {
        uint32_t id[3] = { i, a->worker, 0 };
        loom_trace_cta(a->t, a->worker, "k", id, 1, ORIGIN + 10 * i, ORIGIN + 10 * i + 5, "done");
    }
    loom_trace_api(a->t, "cudaThreadCall", ORIGIN, ORIGIN + 1, NULL);
    return NULL;
}

/* Four threads record 1,000 CTA spans each and a host call: all are written, each worker
 * on its own named track, each host thread on a host track of its own. */
START_TEST(test_threads)
{
    struct loom_trace *t = open_trace(0);
    pthread_t th[4];
    struct thread_arg args[4];
    for (unsigned w = 0; w < 4; w++) {
        args[w] = (struct thread_arg){ t, w, 1000 };
        ck_assert_int_eq(pthread_create(&th[w], NULL, record_ctas, &args[w]), 0);
    }
    for (unsigned w = 0; w < 4; w++) pthread_join(th[w], NULL);
    ck_assert(loom_trace_dirty(t));
    char *text = written(t);
    ck_assert(!loom_trace_dirty(t));
    ck_assert_uint_eq(count(text, "\"cat\":\"cta\""), 4000);
    ck_assert_uint_eq(count(text, "\"name\":\"cudaThreadCall\""), 4);
    ck_assert_ptr_nonnull(strstr(text, "\"name\":\"worker 3\""));
    ck_assert_ptr_nonnull(strstr(text, "\"name\":\"host API\""));
    ck_assert_ptr_nonnull(strstr(text, "\"name\":\"host API (thread 4)\""));
    ck_assert_ptr_nonnull(strstr(text, "\"events\":4004,\"cap\":1000000,\"capped\":false,\"dropped\":0"));
    /* sorted by track, then time: worker 0's spans come before worker 1's, in time order */
    const char *w0 = strstr(text, "\"tid\":1000000,\"name\":\"k\",\"ts\":0.000");
    const char *w0b = strstr(text, "\"tid\":1000000,\"name\":\"k\",\"ts\":0.010");
    const char *w1 = strstr(text, "\"tid\":1000001,\"name\":\"k\",\"ts\":0.000");
    ck_assert(w0 && w0b && w1 && w0 < w0b && w0b < w1);
    free(text);
    loom_trace_close(t);
    unlink(path);
}
END_TEST

/* A cap of 10 with 3 threads recording 25 events: 10 are kept, the rest counted as dropped,
 * and the trace says where it stopped. */
START_TEST(test_cap)
{
    struct loom_trace *t = open_trace(10);
    pthread_t th[3];
    struct thread_arg args[3];
    for (unsigned w = 0; w < 3; w++) {
        args[w] = (struct thread_arg){ t, w, w == 0 ? 8 : 7 };
        ck_assert_int_eq(pthread_create(&th[w], NULL, record_ctas, &args[w]), 0);
    }
    for (unsigned w = 0; w < 3; w++) pthread_join(th[w], NULL);
    char *text = written(t);
    ck_assert_uint_eq(count(text, "\"ph\":\"X\""), 10);
    ck_assert_uint_eq(count(text, "\"name\":\"trace capped at 10 events\""), 1);
    ck_assert_ptr_nonnull(strstr(text, "\"events\":10,\"cap\":10,\"capped\":true,\"dropped\":15"));
    free(text);
    loom_trace_close(t);
    unlink(path);
}
END_TEST

/* Names and arguments: JSON escaping, times in microseconds from the origin, a named
 * track, flows and instants. */
START_TEST(test_events)
{
    struct loom_trace *t = open_trace(0);
    const char *name = loom_trace_intern(t, "k<\"a\\b\">\n");
    loom_trace_name_track(t, LOOM_TRACE_STREAM_TRACK(2), "stream 2 (non-blocking)");
    loom_trace_slice(t, LOOM_TRACE_STREAM_TRACK(2), name, ORIGIN + 1500, ORIGIN + 4750, "{\"bytes\":12}");
    loom_trace_instant(t, LOOM_TRACE_STREAM_TRACK(2), "event record", ORIGIN + 5000, NULL);
    loom_trace_flow_out(t, "launch", 7, ORIGIN + 1000);
    loom_trace_flow_in(t, LOOM_TRACE_STREAM_TRACK(2), "launch", 7, ORIGIN + 1500);
    loom_trace_warp_slice(t, 1, 3, 2, ORIGIN + 100, ORIGIN + 200, "barrier", 42);
    loom_trace_warp_event(t, 1, 3, 2, ORIGIN + 150, "diverge", 17, 0xffff);
    char *text = written(t);
    ck_assert_ptr_nonnull(strstr(text, "\"name\":\"k<\\\"a\\\\b\\\">\\u000a\",\"ts\":1.500,\"dur\":3.250,"
                                       "\"args\":{\"bytes\":12}}"));
    ck_assert_ptr_nonnull(strstr(text, "\"name\":\"stream 2 (non-blocking)\""));
    ck_assert_ptr_nonnull(strstr(text, "{\"ph\":\"i\",\"pid\":1,\"tid\":1002,\"name\":\"event record\",\"ts\":5.000,"
                                       "\"s\":\"t\"}"));
    ck_assert_ptr_nonnull(strstr(text, "{\"ph\":\"s\",\"pid\":1,\"tid\":1,\"name\":\"launch\",\"ts\":1.000,"
                                       "\"cat\":\"flow\",\"id\":7}"));
    ck_assert_ptr_nonnull(strstr(text, "\"cat\":\"flow\",\"id\":7,\"bp\":\"e\"}"));
    ck_assert_ptr_nonnull(strstr(text, "\"name\":\"warp 2\",\"ts\":0.100,\"dur\":0.100,\"cat\":\"warp\","
                                       "\"args\":{\"cta\":3,\"warp\":2,\"instructions\":42,\"end\":\"barrier\"}"));
    ck_assert_ptr_nonnull(strstr(text, "\"name\":\"diverge\",\"ts\":0.150,\"s\":\"t\",\"cat\":\"warp\","
                                       "\"args\":{\"cta\":3,\"warp\":2,\"line\":17,\"mask\":\"0x0000ffff\"}"));
    free(text);
    loom_trace_close(t);
    unlink(path);
}
END_TEST

/* A second write replaces the first whole. */
START_TEST(test_rewrite)
{
    struct loom_trace *t = open_trace(0);
    loom_trace_api(t, "cudaMalloc", ORIGIN, ORIGIN + 10, "{\"bytes\":1}");
    char *first = written(t);
    loom_trace_api(t, "cudaFree", ORIGIN + 20, ORIGIN + 30, NULL);
    char *second = written(t);
    ck_assert_uint_eq(count(second, "\"traceEvents\""), 1);
    ck_assert_ptr_nonnull(strstr(second, "\"name\":\"cudaFree\""));
    ck_assert_uint_gt(strlen(second), strlen(first));
    ck_assert_str_eq(second + strlen(second) - 2, "}\n");
    free(first);
    free(second);
    loom_trace_close(t);
    unlink(path);
}
END_TEST

START_TEST(test_unwritable)
{
    char err[256] = "";
    struct loom_trace *t = loom_trace_open(&(struct loom_trace_opts){ .path = "/nonexistent-dir/t.json" }, err,
                                           sizeof err);
    ck_assert_ptr_null(t);
    ck_assert_str_eq(err, "cannot write the trace file '/nonexistent-dir/t.json': No such file or directory");
}
END_TEST

/* Through the C API: trace_path makes the device record its calls and the stream's work;
 * loom_device_trace_flush writes them; an unwritable path fails loom_device_create with
 * LOOM_ERR_IO and one line; trace_warps is taken. */
START_TEST(test_device)
{
    struct loom_trace *t = open_trace(0);   /* (for a temporary path) */
    loom_trace_close(t);
    struct loom_device *dev = NULL;
    ck_assert_int_eq(loom_device_create(&(struct loom_device_config){ .workers = 1, .trace_path = path }, &dev),
                     LOOM_OK);
    uint64_t a;
    ck_assert_int_eq(loom_malloc(dev, 256, &a), LOOM_OK);
    ck_assert_int_eq(loom_memset(dev, a, 7, 256), LOOM_OK);
    ck_assert_int_eq(loom_free(dev, a), LOOM_OK);
    ck_assert_int_eq(loom_device_trace_flush(dev), LOOM_OK);
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    static char text[1 << 16];
    text[fread(text, 1, sizeof text - 1, f)] = 0;
    fclose(f);
    ck_assert_ptr_nonnull(strstr(text, "\"name\":\"cudaMalloc\",\"ts\":"));
    ck_assert_ptr_nonnull(strstr(text, "\"name\":\"cudaMemset\",\"ts\":"));
    ck_assert_ptr_nonnull(strstr(text, "\"name\":\"cudaFree\",\"ts\":"));
    ck_assert_ptr_nonnull(strstr(text, "\"tid\":1000,\"name\":\"memset\",\"ts\":"));
    ck_assert_ptr_nonnull(strstr(text, "\"args\":{\"bytes\":256,\"value\":7}"));
    ck_assert_ptr_nonnull(strstr(text, "\"name\":\"stream 0 (default)\""));
    ck_assert_ptr_nonnull(strstr(text, "\"ph\":\"f\",\"pid\":1,\"tid\":1000,\"name\":\"memset\""));
    loom_device_destroy(dev);
    unlink(path);

    dev = NULL;
    ck_assert_int_eq(loom_device_create(&(struct loom_device_config){ .trace_path = "/nonexistent-dir/t.json" }, &dev),
                     LOOM_ERR_IO);
    ck_assert_ptr_null(dev);
    ck_assert_str_eq(loom_device_error(NULL),
                     "cannot write the trace file '/nonexistent-dir/t.json': No such file or directory");
    ck_assert_int_eq(loom_device_create(&(struct loom_device_config){ .trace_path = path, .trace_warps = true }, &dev),
                     LOOM_OK);                   /* (warp slices: tests/observe/trace.sh) */
    ck_assert_int_eq(access(path, F_OK), 0);
    loom_device_destroy(dev);
    unlink(path);
}
END_TEST

Suite *trace_suite(void);
Suite *trace_suite(void)
{
    Suite *s = suite_create("trace");
    TCase *tc = tcase_create("recorder");
    tcase_add_test(tc, test_threads);
    tcase_add_test(tc, test_cap);
    tcase_add_test(tc, test_events);
    tcase_add_test(tc, test_rewrite);
    tcase_add_test(tc, test_unwritable);
    suite_add_tcase(s, tc);
    TCase *api = tcase_create("device");
    tcase_add_test(api, test_device);
    suite_add_tcase(s, api);
    return s;
}
