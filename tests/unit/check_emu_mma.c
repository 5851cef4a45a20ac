/* check_emu_mma.c -- end-to-end tests of the tensor-core family (emu_mma.c, emu_mma_arith.c):
 * every kernel of tests/edge/mma/runs.txt and of the Triton tl.dot kernel against an H100. */
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

#define MMA_DIR LOOM_SRCDIR "/tests/edge/mma"

Suite *emu_mma_suite(void);

static struct edge_file mma_rows, m8n8k4_rows, triton_rows, pipe_rows;

/* Runs one kernel of runs.txt and compares every output with expected/ bit for bit: the
 * accumulation's rounding of every shape and type, the fragment layouts, ldmatrix and co. */
START_TEST(test_edge_kernel)
{
    edge_run_row(&mma_rows, _i);
}
END_TEST

/* mma.m8n8k4 .f16: four quad pairs, f32 fmas rather than the tensor-core sum. */
START_TEST(test_m8n8k4_kernel)
{
    edge_run_row(&m8n8k4_rows, _i);
}
END_TEST

/* Triton's tl.dot (mma.sync m16n8k16 + ldmatrix), as Triton 3.9 from PyPI compiles it. */
START_TEST(test_triton_kernel)
{
    edge_run_row(&triton_rows, _i);
}
END_TEST

/* The same with num_stages 3: Triton's cp.async software pipeline (emu_async.c) feeding
 * ldmatrix and mma.sync. */
START_TEST(test_triton_pipe_kernel)
{
    edge_run_row(&pipe_rows, _i);
}
END_TEST

/* The suites must not pass vacuously: some rows have recorded outputs. */
START_TEST(test_some_recorded)
{
    edge_assert_recorded(&mma_rows);
    edge_assert_recorded(&m8n8k4_rows);
    edge_assert_recorded(&triton_rows);
    edge_assert_recorded(&pipe_rows);
}
END_TEST

/* Loads PTX text with one instruction under test and returns the status. */
static enum loom_status load_one(struct loom_device *dev, const char *body)
{
    char text[2048];
    snprintf(text, sizeof text,
             ".version 8.2\n.target sm_90a\n.address_size 64\n"
             ".visible .entry k(.param .u64 p)\n{\n.reg .b32 %%r<40>;\n.reg .f64 %%fd<8>;\n.reg .b64 %%rd<8>;\n"
             ".reg .pred %%p<4>;\n.shared .align 16 .b8 sm[1024];\nmov.u32 %%r1, sm;\n%s\nret;\n}\n", body);
    struct loom_module *mod;
    return loom_module_load_text(dev, text, strlen(text), "one.ptx", &mod);
}

/* Forms Loom does not have, or that the ISA does not define, are refused by name. */
START_TEST(test_refused_by_name)
{
    static const struct { const char *body, *name; } cases[] = {
        { "wgmma.fence.sync.aligned;", "wgmma" },
        { "mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%r2,%r3,%r4,%r5}, {%r6,%r7,%r8,%r9}, "
          "{%r10,%r11,%r12,%r13}, {%r14,%r15,%r16,%r17}, %r18, 0x0;", "mma.sp" },
        { "mma.sync.aligned.m16n8k16.row.col.f32.tf32.tf32.f32 {%r2,%r3,%r4,%r5}, {%r6,%r7,%r8,%r9}, "
          "{%r10,%r11}, {%r14,%r15,%r16,%r17};", "mma" },                       /* tf32 has no k16 */
        { "mma.sync.aligned.m16n8k16.col.row.f32.f16.f16.f32 {%r2,%r3,%r4,%r5}, {%r6,%r7,%r8,%r9}, "
          "{%r10,%r11}, {%r14,%r15,%r16,%r17};", "mma" },                       /* m16n8 is .row.col only */
        { "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%r2,%r3,%r4}, {%r6,%r7,%r8,%r9}, "
          "{%r10,%r11}, {%r14,%r15,%r16,%r17};", "mma" },                       /* D needs four registers */
        { "mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.popc {%r2,%r3,%r4,%r5}, {%r6,%r7,%r8,%r9}, "
          "{%r10,%r11}, {%r14,%r15,%r16,%r17};", "mma" },                       /* no .and/.xor */
        { "ldmatrix.sync.aligned.m8n8.x4.b16 {%r2,%r3}, [%r1];", "ldmatrix" },  /* .x4 takes four */
        { "ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8 {%r2,%r3}, [%r1];", "ldmatrix" },
        { "movmatrix.sync.aligned.m8n8.b16 %r2, %r3;", "movmatrix" },            /* .trans is required */
        { "wmma.load.a.sync.aligned.row.m32n8k16.f16 {%r2,%r3,%r4,%r5,%r6,%r7,%r8,%r9}, [%rd1];", "wmma" },
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

Suite *emu_mma_suite(void)
{
    Suite *s = suite_create("emu_mma");
    edge_load(MMA_DIR, &mma_rows);
    edge_load(MMA_DIR "/m8n8k4", &m8n8k4_rows);
    edge_load(MMA_DIR "/triton", &triton_rows);
    edge_load(MMA_DIR "/triton/pipe", &pipe_rows);
    TCase *tc = tcase_create("edge");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_some_recorded);
    tcase_add_loop_test(tc, test_edge_kernel, 0, edge_loop_count(&mma_rows));
    tcase_add_loop_test(tc, test_m8n8k4_kernel, 0, edge_loop_count(&m8n8k4_rows));
    tcase_add_loop_test(tc, test_triton_kernel, 0, edge_loop_count(&triton_rows));
    tcase_add_loop_test(tc, test_triton_pipe_kernel, 0, edge_loop_count(&pipe_rows));
    suite_add_tcase(s, tc);
    TCase *sel = tcase_create("selection");
    tcase_add_test(sel, test_refused_by_name);
    suite_add_tcase(s, sel);
    return s;
}
