/* check_emu_int.c -- end-to-end tests of the integer, bit and comparison families: every
 * kernel of tests/edge/int/runs.txt through the public API against outputs an H100 gave. */
#include "config.h"

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "loom/loom.h"
#include "tests/unit/edge_runner.h"

#ifndef LOOM_SRCDIR
#define LOOM_SRCDIR "."
#endif

#define INT_DIR LOOM_SRCDIR "/tests/edge/int"

Suite *emu_int_suite(void);

static struct edge_file int_rows;

/* Runs one kernel of runs.txt and compares every output with expected/ bit for bit. */
START_TEST(test_edge_kernel)
{
    edge_run_row(&int_rows, _i);
}
END_TEST

/* The suite must not pass vacuously: some rows have recorded outputs. */
START_TEST(test_some_recorded)
{
    edge_assert_recorded(&int_rows);
}
END_TEST

/* Loads PTX text with one instruction under test and returns the status. */
static enum loom_status load_one(struct loom_device *dev, const char *body)
{
    char text[2048];
    snprintf(text, sizeof text,
             ".version 8.2\n.target sm_90\n.address_size 64\n"
             ".visible .entry k(.param .u64 p)\n{\n.reg .b32 %%r<8>;\n.reg .pred %%p<4>;\n"
             "mov.u32 %%r1, %%tid.x;\n%s\nret;\n}\n", body);
    struct loom_module *mod;
    return loom_module_load_text(dev, text, strlen(text), "one.ptx", &mod);
}

/* Forms the families do not implement are refused at load time, by name. */
START_TEST(test_refused_by_name)
{
    static const struct { const char *body, *name; } cases[] = {
        { "lop3.or.b32 %r2|%p1, %r1, %r1, %r1, 0x96, %p0;", "lop3" },
    };
    struct loom_device *dev;
    ck_assert_int_eq(loom_device_create(NULL, &dev), LOOM_OK);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        enum loom_status st = load_one(dev, cases[i].body);
        ck_assert_msg(st == LOOM_ERR_UNSUPPORTED || st == LOOM_ERR_PARSE, "'%s' loaded (%d)", cases[i].body, st);
        ck_assert_msg(strstr(loom_device_error(dev), cases[i].name) != NULL, "'%s': report does not name it: %.500s",
                      cases[i].body, loom_device_error(dev));
    }
    loom_device_destroy(dev);
}
END_TEST

/* A guarded division by a lane's own value leaves guard-false lanes untouched, and the
 * lanes that divide by zero get all ones, as an H100 does. */
START_TEST(test_guarded_lanes)
{
    static const char ptx[] =
        ".version 8.0\n.target sm_90\n.address_size 64\n"
        ".visible .entry g(.param .u64 out)\n{\n"
        ".reg .b32 %r<6>;\n.reg .b64 %rd<4>;\n.reg .pred %p<2>;\n"
        "mov.u32 %r1, %tid.x;\n"
        "and.b32 %r2, %r1, 1;\n"
        "setp.eq.u32 %p1, %r2, 0;\n"
        "mov.u32 %r3, 77;\n"
        "sub.u32 %r4, %r1, 2;\n"
        "@%p1 div.u32 %r3, 1000, %r4;\n"
        "ld.param.u64 %rd1, [out];\n"
        "mul.wide.u32 %rd2, %r1, 4;\n"
        "add.s64 %rd3, %rd1, %rd2;\n"
        "st.global.u32 [%rd3], %r3;\n"
        "ret;\n}\n";
    struct loom_device *dev;
    struct loom_module *mod;
    struct loom_kernel *k;
    uint64_t out;
    uint32_t got[64];
    ck_assert_int_eq(loom_device_create(NULL, &dev), LOOM_OK);
    ck_assert_msg(loom_module_load_text(dev, ptx, sizeof ptx - 1, "g.ptx", &mod) == LOOM_OK, "%.900s",
                  loom_device_error(dev));
    ck_assert_int_eq(loom_module_get_kernel(mod, "g", &k), LOOM_OK);
    ck_assert_int_eq(loom_malloc(dev, sizeof got, &out), LOOM_OK);
    void *params[] = { &out };
    struct loom_launch_config cfg = { .grid = { 1, 1, 1 }, .block = { 64, 1, 1 } };
    ck_assert_msg(loom_launch(dev, k, &cfg, params) == LOOM_OK && loom_synchronize(dev) == LOOM_OK, "%.900s",
                  loom_device_error(dev));
    ck_assert_int_eq(loom_memcpy(dev, got, (void *)(uintptr_t)out, sizeof got), LOOM_OK);
    for (uint32_t t = 0; t < 64; t++) {
        uint32_t want = (t & 1) ? 77u : t == 2 ? 0xFFFFFFFFu : 1000u / (t - 2);
        ck_assert_msg(got[t] == want, "thread %u: got %u, want %u", t, got[t], want);
    }
    loom_device_destroy(dev);
}
END_TEST

Suite *emu_int_suite(void)
{
    Suite *s = suite_create("emu_int");
    edge_load(INT_DIR, &int_rows);
    TCase *tc = tcase_create("edge");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_some_recorded);
    tcase_add_loop_test(tc, test_edge_kernel, 0, edge_loop_count(&int_rows));
    suite_add_tcase(s, tc);
    TCase *sel = tcase_create("selection");
    tcase_add_test(sel, test_refused_by_name);
    tcase_add_test(sel, test_guarded_lanes);
    suite_add_tcase(s, sel);
    return s;
}
