/* check_emu_float.c -- end-to-end tests of the f32/f64, half-precision and cvt families: every
 * kernel of tests/edge/float/runs.txt through the public API against outputs an H100 gave. */
#include "config.h"

#include <check.h>
#include <string.h>

#include "loom/loom.h"
#include "tests/unit/edge_runner.h"

#ifndef LOOM_SRCDIR
#define LOOM_SRCDIR "."
#endif

#define FLOAT_DIR LOOM_SRCDIR "/tests/edge/float"

Suite *emu_float_suite(void);

static struct edge_file float_rows;

/* Runs one kernel of runs.txt and compares every output with expected/ (rows marked
 * `# approx ...` within their bounds, the others bit for bit). */
START_TEST(test_edge_kernel)
{
    edge_run_row(&float_rows, _i);
}
END_TEST

/* The suite must compare something: at least one row has recorded outputs. */
START_TEST(test_recordings_exist)
{
    edge_assert_recorded(&float_rows);
}
END_TEST

/* Forms outside sm_90 are refused at load time, by name. */
START_TEST(test_refused_by_name)
{
    static const char text[] =
        ".version 8.6\n.target sm_100\n.address_size 64\n"
        ".visible .entry k(.param .u64 p)\n{\n"
        "  .reg .b64 %rd<4>;\n  .reg .f32 %f<4>;\n"
        "  ld.param.u64 %rd1, [p];\n"
        "  add.rn.f32x2 %rd3, %rd1, %rd1;\n"
        "  cvt.rs.f16x2.f32 %f3, %f1, %f2, %f3;\n"
        "  ret;\n}\n";
    struct loom_device *dev;
    ck_assert_int_eq(loom_device_create(NULL, &dev), LOOM_OK);
    struct loom_module *mod;
    enum loom_status st = loom_module_load_text(dev, text, sizeof text - 1, "refuse.ptx", &mod);
    ck_assert_int_ne(st, LOOM_OK);
    const char *err = loom_device_error(dev);
    ck_assert_msg(strstr(err, "unsupported instruction 'add.rn.f32x2'") != NULL, "%s", err);
    ck_assert_msg(strstr(err, "unsupported instruction 'cvt.rs.f16x2.f32'") != NULL, "%s", err);
    loom_device_destroy(dev);
}
END_TEST

Suite *emu_float_suite(void)
{
    edge_load(FLOAT_DIR, &float_rows);
    Suite *s = suite_create("emu_float");
    TCase *tc = tcase_create("edge_kernels");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_recordings_exist);
    tcase_add_loop_test(tc, test_edge_kernel, 0, edge_loop_count(&float_rows));
    suite_add_tcase(s, tc);
    TCase *tr = tcase_create("refusals");
    tcase_add_test(tr, test_refused_by_name);
    suite_add_tcase(s, tr);
    return s;
}
