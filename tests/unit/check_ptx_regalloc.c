/* check_ptx_regalloc.c -- unit tests of the register estimate (ptx/ptx_regalloc.c): liveness
 * over hand-written kernels (straight line, a loop, 64-bit pairs), the caps of .maxnreg and
 * .minnctapersm, and the named barriers a kernel uses. */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx_ir.h"

Suite *ptx_regalloc_suite(void);

/* Parses, checks and analyses src; fails the test on any diagnostic. */
static struct ptx_module *load(const char *src)
{
    struct ptx_diags d;
    ptx_diags_init(&d);
    struct ptx_module *m = ptx_parse(src, strlen(src), "t.ptx", &d);
    bool ok = m && ptx_check(m, &d) && ptx_analyze(m, &d);
    if (!ok) ptx_diags_print(&d, stderr);
    ptx_diags_free(&d);
    ck_assert_msg(ok, "the test's PTX does not load");
    return m;
}

static const struct ptx_func *kernel(const struct ptx_module *m)
{
    const struct ptx_func *f = ptx_find_func(m, "k");
    ck_assert_ptr_nonnull(f);
    return f;
}

#define HEAD(target) ".version 8.0\n.target " target "\n.address_size 64\n"

/* Three loads live together with their 64-bit address: 3 + 2. The parameter is uniform
 * and the index's scaled copy is recomputed from it, so neither counts. */
static const char straight[] = HEAD("sm_90")
    ".visible .entry k(.param .u64 p)\n{\n"
    ".reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [p];\nmov.u32 %r1, %tid.x;\nmul.wide.u32 %rd2, %r1, 4;\n"
    "add.s64 %rd3, %rd1, %rd2;\n"
    "ld.global.u32 %r2, [%rd3];\nld.global.u32 %r3, [%rd3+4];\nld.global.u32 %r4, [%rd3+8];\n"
    "add.s32 %r5, %r2, %r3;\nadd.s32 %r6, %r5, %r4;\nst.global.u32 [%rd3], %r6;\nret;\n}\n";

START_TEST(test_straight_line)
{
    struct ptx_module *m = load(straight);
    ck_assert_uint_eq(ptx_reg_pressure(kernel(m), false), 5);
    ck_assert_uint_eq(kernel(m)->est_regs, PTX_MIN_REGS);   /* 5 + 2, at least 8 */
    ptx_module_free(m);
}
END_TEST

/* The same with 64-bit values: each load takes an aligned pair. */
static const char pairs[] = HEAD("sm_90")
    ".visible .entry k(.param .u64 p)\n{\n"
    ".reg .b32 %r<2>;\n.reg .f64 %fd<8>;\n.reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [p];\nmov.u32 %r1, %tid.x;\nmul.wide.u32 %rd2, %r1, 8;\n"
    "add.s64 %rd3, %rd1, %rd2;\n"
    "ld.global.f64 %fd2, [%rd3];\nld.global.f64 %fd3, [%rd3+8];\nld.global.f64 %fd4, [%rd3+16];\n"
    "add.f64 %fd5, %fd2, %fd3;\nadd.f64 %fd6, %fd5, %fd4;\nst.global.f64 [%rd3], %fd6;\nret;\n}\n";

START_TEST(test_pairs)
{
    struct ptx_module *m = load(pairs);
    ck_assert_uint_eq(ptx_reg_pressure(kernel(m), false), 3 * 2 + 2);
    ck_assert_uint_eq(kernel(m)->est_regs, 10);
    ptx_module_free(m);
}
END_TEST

/* A loop: %r6, read at the top of the body, stays live across the back edge while %r4 is
 * loaded further down; without the loop it would be dead there. */
static const char *loop_src(bool loop)
{
    static char buf[2048];
    snprintf(buf, sizeof buf, HEAD("sm_90")
             ".visible .entry k(.param .u64 p)\n{\n"
             ".reg .pred %%p<2>;\n.reg .b32 %%r<8>;\n.reg .b64 %%rd<4>;\n"
             "ld.param.u64 %%rd1, [p];\nmov.u32 %%r1, %%tid.x;\nmul.wide.u32 %%rd2, %%r1, 4;\n"
             "add.s64 %%rd3, %%rd1, %%rd2;\n"
             "ld.global.u32 %%r6, [%%rd3];\nmov.u32 %%r5, %%r1;\nmov.u32 %%r3, %%r1;\n"
             "L:\nadd.u32 %%r5, %%r5, %%r6;\nld.global.u32 %%r4, [%%rd3+4];\nadd.u32 %%r5, %%r5, %%r4;\n"
             "add.u32 %%r3, %%r3, 1;\nsetp.lt.u32 %%p1, %%r3, 100;\n%s"
             "st.global.u32 [%%rd3], %%r5;\nret;\n}\n", loop ? "@%p1 bra L;\n" : "");
    return buf;
}

START_TEST(test_loop)
{
    struct ptx_module *flat = load(loop_src(false));
    struct ptx_module *looped = load(loop_src(true));
    /* %rd3 (2), %r5, %r3, %r4 at the load; the loop adds %r6 */
    ck_assert_uint_eq(ptx_reg_pressure(kernel(flat), false), 5);
    ck_assert_uint_eq(ptx_reg_pressure(kernel(looped), false), 6);
    ck_assert_uint_ge(kernel(looped)->nblocks, 3);
    ptx_module_free(flat);
    ptx_module_free(looped);
}
END_TEST

/* n values loaded, then summed: n + 2 live at the last load. perf is put before the body. */
static struct ptx_module *wide_kernel(unsigned n, const char *perf)
{
    size_t cap = 256 + 96 * (size_t)n;
    char *src = malloc(cap);
    ck_assert_ptr_nonnull(src);
    int len = snprintf(src, cap, HEAD("sm_90") ".visible .entry k(.param .u64 p)%s\n{\n"
                       ".reg .b32 %%r<%u>;\n.reg .b32 %%s<%u>;\n.reg .b64 %%rd<4>;\n"
                       "ld.param.u64 %%rd1, [p];\nmov.u32 %%s0, %%tid.x;\nmul.wide.u32 %%rd2, %%s0, 4;\n"
                       "add.s64 %%rd3, %%rd1, %%rd2;\n", perf, n + 1, n + 1);
    for (unsigned i = 0; i < n; i++)
        len += snprintf(src + len, cap - (size_t)len, "ld.volatile.global.u32 %%r%u, [%%rd3+%u];\n", i, 4 * i);
    len += snprintf(src + len, cap - (size_t)len, "mov.u32 %%s1, %%r0;\n");
    for (unsigned i = 1; i < n; i++)
        len += snprintf(src + len, cap - (size_t)len, "add.s32 %%s%u, %%s%u, %%r%u;\n", i + 1 < n ? i + 1 : 0,
                        i, i);
    snprintf(src + len, cap - (size_t)len, "st.global.u32 [%%rd3], %%s0;\nret;\n}\n");
    struct ptx_module *m = load(src);
    free(src);
    return m;
}

START_TEST(test_maxnreg)
{
    struct ptx_module *m = wide_kernel(60, "");
    ck_assert_uint_eq(ptx_reg_pressure(kernel(m), false), 62);
    ck_assert_uint_eq(kernel(m)->est_regs, 64);
    ptx_module_free(m);
    m = wide_kernel(60, " .maxnreg 40");
    ck_assert_uint_eq(kernel(m)->est_regs, 40);
    ptx_module_free(m);
    /* past 255 the count stops there */
    m = wide_kernel(300, "");
    ck_assert_uint_eq(kernel(m)->est_regs, PTX_MAX_REGS);
    ptx_module_free(m);
}
END_TEST

/* .minnctapersm with .maxntid: that many CTAs must fit the 65536 registers, in units of 8. */
START_TEST(test_minnctapersm)
{
    struct ptx_module *m = wide_kernel(100, " .maxntid 256, 1, 1 .minnctapersm 4");
    ck_assert_uint_eq(kernel(m)->est_regs, 64);          /* 65536 / (4 * 256) */
    ptx_module_free(m);
    m = wide_kernel(100, " .maxntid 1024, 1, 1 .minnctapersm 2");
    ck_assert_uint_eq(kernel(m)->est_regs, 32);
    ptx_module_free(m);
    m = wide_kernel(150, " .maxntid 96, 1, 1 .minnctapersm 5");
    ck_assert_uint_eq(kernel(m)->est_regs, 136);         /* 65536 / 480 = 136.5, down to 8s */
    ptx_module_free(m);
    /* a cap above the need changes nothing */
    m = wide_kernel(10, " .maxntid 128, 1, 1 .minnctapersm 1");
    ck_assert_uint_eq(kernel(m)->est_regs, 14);
    ptx_module_free(m);
}
END_TEST

/* Debug code (nvcc -G) keeps every value: no uniform registers, no recomputation, and the
 * measured overheads of code ptxas does not optimise. */
START_TEST(test_debug)
{
    char src[sizeof straight + 16];
    snprintf(src, sizeof src, "%s", straight);
    char *t = strstr(src, ".target sm_90\n");
    ck_assert_ptr_nonnull(t);
    memmove(t + strlen(".target sm_90, debug"), t + strlen(".target sm_90"), strlen(t + strlen(".target sm_90")) + 1);
    memcpy(t, ".target sm_90, debug", strlen(".target sm_90, debug"));
    struct ptx_module *m = load(src);
    /* %rd1 (2) and %rd2 (2) now count before the add; after it %rd3 and the 3 loads, 5 */
    ck_assert_uint_eq(ptx_reg_pressure(kernel(m), true), 5);
    ck_assert_uint_eq(kernel(m)->est_regs, 5 + 10);
    ptx_module_free(m);
}
END_TEST

/* Named barriers: the highest immediate id + 1; a register id reserves all 16. */
START_TEST(test_barriers)
{
    static const struct { const char *body; unsigned n; } cases[] = {
        { "ret;\n", 0 },
        { "bar.sync 0;\nret;\n", 1 },
        { "bar.sync 1, 64;\nbarrier.sync 2, 64;\nbar.sync 0;\nret;\n", 3 },
        { "bar.red.popc.u32 %r1, 0, %p1;\nret;\n", 1 },
        { "bar.sync %r1;\nret;\n", 16 },
        { "bar.warp.sync -1;\nret;\n", 0 },
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char src[512];
        snprintf(src, sizeof src, HEAD("sm_90") ".visible .entry k()\n{\n.reg .pred %%p<2>;\n.reg .b32 %%r<2>;\n"
                 "mov.u32 %%r1, %%tid.x;\nsetp.eq.u32 %%p1, %%r1, 0;\n%s}\n", cases[i].body);
        struct ptx_module *m = load(src);
        ck_assert_msg(kernel(m)->barriers == cases[i].n, "case %u: %u barriers, expected %u", i,
                      kernel(m)->barriers, cases[i].n);
        ptx_module_free(m);
    }
}
END_TEST

Suite *ptx_regalloc_suite(void)
{
    Suite *s = suite_create("ptx_regalloc");
    TCase *tc = tcase_create("liveness");
    tcase_add_test(tc, test_straight_line);
    tcase_add_test(tc, test_pairs);
    tcase_add_test(tc, test_loop);
    tcase_add_test(tc, test_debug);
    suite_add_tcase(s, tc);
    tc = tcase_create("caps");
    tcase_add_test(tc, test_maxnreg);
    tcase_add_test(tc, test_minnctapersm);
    suite_add_tcase(s, tc);
    tc = tcase_create("barriers");
    tcase_add_test(tc, test_barriers);
    suite_add_tcase(s, tc);
    return s;
}
