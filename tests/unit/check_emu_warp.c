/* check_emu_warp.c -- end-to-end tests of the warp-level and atomic families: every kernel
 * of tests/edge/warp and tests/edge/atom against outputs recorded on an H100, member-mask
 * checks, and a contended-atomics stress test whose totals the test computes itself. */
#include "config.h"

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loom/loom.h"
#include "tests/unit/edge_runner.h"

#ifndef LOOM_SRCDIR
#define LOOM_SRCDIR "."
#endif

#define WARP_DIR LOOM_SRCDIR "/tests/edge/warp"
#define ATOM_DIR LOOM_SRCDIR "/tests/edge/atom"

static struct edge_file warp_specs, atom_specs;

Suite *emu_warp_suite(void);

/* The device's last error, cut to what a Check message can carry. */
static const char *warp_err(struct loom_device *dev)
{
    static char buf[1024];
    snprintf(buf, sizeof buf, "%s", loom_device_error(dev));
    return buf;
}

START_TEST(test_warp_row)
{
    edge_run_row(&warp_specs, _i);
}
END_TEST

START_TEST(test_atom_row)
{
    edge_run_row(&atom_specs, _i);
}
END_TEST

/* A folder whose kernels have no recorded expectation at all tests nothing: fail. */
START_TEST(test_recorded)
{
    edge_assert_recorded(&warp_specs);
    edge_assert_recorded(&atom_specs);
}
END_TEST

/* ---- Member masks ------------------------------------------------------------------- */

/* Loads dir/file, launches kernel on one block of `threads` with a zeroed u32 buffer of n
 * elements, copies it back into out; returns the launch status. */
static enum loom_status mm_launch(struct loom_device *dev, const char *file, const char *kernel,
                                  unsigned threads, uint32_t *out, size_t n)
{
    struct loom_module *mod;
    struct loom_kernel *k;
    uint64_t buf;
    ck_assert_msg(loom_module_load_file(dev, file, &mod) == LOOM_OK, "%s", warp_err(dev));
    ck_assert_int_eq(loom_module_get_kernel(mod, kernel, &k), LOOM_OK);
    ck_assert_int_eq(loom_malloc(dev, n * 4, &buf), LOOM_OK);
    ck_assert_int_eq(loom_memset(dev, buf, 0, n * 4), LOOM_OK);
    void *args[] = { &buf };
    struct loom_launch_config cfg = { .grid = { 1, 1, 1 }, .block = { threads, 1, 1 } };
    enum loom_status st = loom_launch(dev, k, &cfg, args);
    if (st == LOOM_OK)
        st = loom_synchronize(dev);
    if (st == LOOM_OK)
        ck_assert_int_eq(loom_memcpy(dev, out, (void *)(uintptr_t)buf, n * 4), LOOM_OK);
    return st;
}

/* Odd lanes run shfl.sync naming all lanes while the even lanes are on the other path. */
START_TEST(test_membermask_diverged)
{
    struct loom_device *dev;
    uint32_t out[32];
    ck_assert_int_eq(loom_device_create(NULL, &dev), LOOM_OK);
    enum loom_status st = mm_launch(dev, WARP_DIR "/membermask.ptx", "mm_diverged", 32, out, 32);
    ck_assert_int_eq(st, LOOM_ERR_LAUNCH_FAILED);
    const char *msg = warp_err(dev);
    ck_assert_msg(strstr(msg, "not converged") && strstr(msg, "0xffffffff") && strstr(msg, "0x55555555"),
                  "report: %s", msg);
    loom_device_destroy(dev);
}
END_TEST

/* Lanes 16..31 exit; the rest name all 32 lanes: exited lanes count as absent. */
START_TEST(test_membermask_exited)
{
    struct loom_device *dev;
    uint32_t out[64];
    ck_assert_int_eq(loom_device_create(NULL, &dev), LOOM_OK);
    enum loom_status st = mm_launch(dev, WARP_DIR "/membermask.ptx", "mm_exited", 32, out, 64);
    ck_assert_msg(st == LOOM_OK, "%s", warp_err(dev));
    for (unsigned i = 0; i < 32; i++) {
        ck_assert_uint_eq(out[i], i < 15 ? i + 1 : i == 15 ? 15 : 0);
        ck_assert_uint_eq(out[32 + i], i < 16 ? 0xAAAAu : 0);
    }
    loom_device_destroy(dev);
}
END_TEST

/* ---- Contended atomics ---------------------------------------------------------------
 * stress.ptx on GRID x BLOCK threads, ITERS times each, on four workers. */
#define STRESS_GRID 256u
#define STRESS_BLOCK 256u
#define STRESS_ITERS 16u

START_TEST(test_stress)
{
    struct loom_device_config cfg = { .workers = 4 };
    struct loom_device *dev;
    struct loom_module *mod;
    struct loom_kernel *k;
    uint64_t buf;
    uint8_t c[40];
    uint32_t iters = STRESS_ITERS;
    const uint64_t n = (uint64_t)STRESS_GRID * STRESS_BLOCK, total = n * STRESS_ITERS;
    ck_assert_int_eq(loom_device_create(&cfg, &dev), LOOM_OK);
    ck_assert_msg(loom_module_load_file(dev, ATOM_DIR "/stress.ptx", &mod) == LOOM_OK, "%s", warp_err(dev));
    ck_assert_int_eq(loom_module_get_kernel(mod, "stress", &k), LOOM_OK);
    ck_assert_int_eq(loom_malloc(dev, sizeof c, &buf), LOOM_OK);
    ck_assert_int_eq(loom_memset(dev, buf, 0, sizeof c), LOOM_OK);
    void *args[] = { &buf, &iters };
    struct loom_launch_config lc = { .grid = { STRESS_GRID, 1, 1 }, .block = { STRESS_BLOCK, 1, 1 } };
    enum loom_status st = loom_launch(dev, k, &lc, args);
    if (st == LOOM_OK)
        st = loom_synchronize(dev);
    ck_assert_msg(st == LOOM_OK, "%s", warp_err(dev));
    ck_assert_int_eq(loom_memcpy(dev, c, (void *)(uintptr_t)buf, sizeof c), LOOM_OK);
    uint32_t u0, u16, u24, u28, u32;
    uint64_t u8;
    float f20;
    memcpy(&u0, c, 4);
    memcpy(&u8, c + 8, 8);
    memcpy(&u16, c + 16, 4);
    memcpy(&f20, c + 20, 4);
    memcpy(&u24, c + 24, 4);
    memcpy(&u28, c + 28, 4);
    memcpy(&u32, c + 32, 4);
    ck_assert_uint_eq(u0, total);
    ck_assert_uint_eq(u8, (uint64_t)STRESS_ITERS * (n * (n - 1) / 2));
    ck_assert_uint_eq(u16, total);
    ck_assert_msg(f20 == (float)total, "f32 sum %.1f, want %llu", (double)f20, (unsigned long long)total);
    ck_assert_uint_eq(u24, total);
    ck_assert_uint_eq(u28, total - 1);
    ck_assert_uint_eq(u32, total);
    loom_device_destroy(dev);
}
END_TEST

Suite *emu_warp_suite(void)
{
    Suite *s = suite_create("emu_warp");
    edge_load(WARP_DIR, &warp_specs);
    edge_load(ATOM_DIR, &atom_specs);

    TCase *tc = tcase_create("recorded");
    tcase_add_test(tc, test_recorded);
    suite_add_tcase(s, tc);

    tc = tcase_create("warp_kernels");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_warp_row, 0, edge_loop_count(&warp_specs));
    suite_add_tcase(s, tc);

    tc = tcase_create("atom_kernels");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_atom_row, 0, edge_loop_count(&atom_specs));
    suite_add_tcase(s, tc);

    tc = tcase_create("membermask");
    tcase_add_test(tc, test_membermask_diverged);
    tcase_add_test(tc, test_membermask_exited);
    suite_add_tcase(s, tc);

    tc = tcase_create("stress");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_stress);
    suite_add_tcase(s, tc);
    return s;
}
