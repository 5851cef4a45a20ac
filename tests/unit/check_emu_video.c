/* check_emu_video.c -- end-to-end tests of the video instructions (emu_video.c): every kernel
 * of tests/edge/video/runs.txt through the public API against outputs an H100 gave. */
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

#define VID_DIR LOOM_SRCDIR "/tests/edge/video"

Suite *emu_video_suite(void);

static struct edge_file video_rows;

/* Runs one kernel of runs.txt and compares every output with expected/ bit for bit. */
START_TEST(test_edge_kernel)
{
    edge_run_row(&video_rows, _i);
}
END_TEST

/* The suite must not pass vacuously: some rows have recorded outputs. */
START_TEST(test_some_recorded)
{
    edge_assert_recorded(&video_rows);
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

/* Forms the ISA does not define, or that Loom cannot finish, are refused at load time by name. */
START_TEST(test_refused_by_name)
{
    static const struct { const char *body, *name; } cases[] = {
        { "vadd4.u32.u32.u32.sat.add %r2, %r1, %r1, %r1;", "vadd4" },          /* .sat with .add */
        { "vmin2.s32.s32.s32.min %r2, %r1, %r1, %r1;", "vmin2" },              /* SIMD takes only .add */
        { "vsub2.u32.u32.u32 %r2, %r1.h1, %r1, %r1;", "vsub2" },               /* single-digit source selector */
        { "vmax4.u32.u32.u32 %r2.h0, %r1, %r1, %r1;", "vmax4" },               /* a vop2 mask on vop4 */
        { "vadd.u32.u32.u32.add %r2.b0, %r1, %r1, %r1;", "vadd" },             /* merge and secondary op */
        { "vadd.u32.u32.u32 %r2.b0, %r1, %r1;", "vadd" },                      /* merge without c */
        { "vset.u32.u32.lt.sat %r2, %r1, %r1;", "vset" },                      /* vset has no .sat */
        { "vshl.u32.u32.u32 %r2, %r1, %r1;", "vshl" },                         /* .clamp or .wrap required */
        { "vshr.u32.u32.s32.wrap %r2, %r1, %r1;", "vshr" },                    /* shift amount is .u32 */
        { "vmad.u32.u32.u32.shr7.shr15 %r2, %r1, %r1, %r1;", "vmad" },
        { "vabsdiff.f32.u32.u32 %r2, %r1, %r1;", "vabsdiff" },
        { "vset4.u32.u32.add %r2, %r1, %r1, %r1;", "vset4" },                  /* no comparison */
        { "vmad.s32.s32.s32 %r2, -%r1, %r1, -%r1;", "vmad" },                  /* product and c negated */
        { "vmad.u32.u32.u32.po %r2, %r1, -%r1, %r1;", "vmad" },                /* .po with negation */
        { "vadd2.u32.u32.u32 %r2.h01, %r1, %r1, %r1;", "vadd2" },              /* mask digits ascending */
        { "vadd4.u32.u32.u32 %r2.b33, %r1, %r1, %r1;", "vadd4" },              /* mask digit repeated */
        { "vadd4.u32.u32.u32 %r2, %r1.b321, %r1, %r1;", "vadd4" },             /* 3-digit source selector */
        { "vavrg2.u32.u32.u32 %r2, %r1, %r1.b10, %r1;", "vavrg2" },            /* byte selector on vop2 */
        { "vmin2.u32.u32.u32 %r2, %r1, %r1, %r1.h10;", "vmin2" },              /* selector on c */
        { "vadd.u32.u32.u32 %r2, %r1.h10, %r1;", "vadd" },                     /* SIMD selector on a scalar op */
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

/* Runs `ptx`'s kernel g(out) on 64 threads and reads back one u32 per thread. */
static void run_small(const char *ptx, uint32_t got[64])
{
    struct loom_device *dev;
    struct loom_module *mod;
    struct loom_kernel *k;
    uint64_t out;
    ck_assert_int_eq(loom_device_create(NULL, &dev), LOOM_OK);
    ck_assert_msg(loom_module_load_text(dev, ptx, strlen(ptx), "g.ptx", &mod) == LOOM_OK, "%.900s",
                  loom_device_error(dev));
    ck_assert_int_eq(loom_module_get_kernel(mod, "g", &k), LOOM_OK);
    ck_assert_int_eq(loom_malloc(dev, 64 * sizeof(uint32_t), &out), LOOM_OK);
    void *params[] = { &out };
    struct loom_launch_config cfg = { .grid = { 1, 1, 1 }, .block = { 64, 1, 1 } };
    ck_assert_msg(loom_launch(dev, k, &cfg, params) == LOOM_OK && loom_synchronize(dev) == LOOM_OK, "%.900s",
                  loom_device_error(dev));
    ck_assert_int_eq(loom_memcpy(dev, got, (void *)(uintptr_t)out, 64 * sizeof(uint32_t)), LOOM_OK);
    loom_device_destroy(dev);
}

#define SMALL_HEAD \
    ".version 8.0\n.target sm_90\n.address_size 64\n" \
    ".visible .entry g(.param .u64 out)\n{\n" \
    ".reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n.reg .pred %p<2>;\n" \
    "mov.u32 %r1, %tid.x;\n"
#define SMALL_TAIL \
    "ld.param.u64 %rd1, [out];\n" \
    "mul.wide.u32 %rd2, %r1, 4;\n" \
    "add.s64 %rd3, %rd1, %rd2;\n" \
    "st.global.u32 [%rd3], %r3;\n" \
    "ret;\n}\n"

/* A guarded SIMD instruction leaves guard-false lanes untouched; the others get
 * the sum of absolute byte differences plus c (what __vsadu4 compiles to). */
START_TEST(test_guarded_sad)
{
    static const char ptx[] = SMALL_HEAD
        "and.b32 %r2, %r1, 1;\n"
        "setp.eq.u32 %p1, %r2, 0;\n"
        "mov.u32 %r3, 77;\n"
        "mul.lo.u32 %r4, %r1, 0x01010101;\n"
        "@%p1 vabsdiff4.u32.u32.u32.add %r3, %r4, 0x0A00FF05, 1000;\n"
        SMALL_TAIL;
    uint32_t got[64];
    run_small(ptx, got);
    for (uint32_t t = 0; t < 64; t++) {
        int bytes[4] = { 0x05, 0xFF, 0x00, 0x0A }, sum = 0;
        for (int e = 0; e < 4; e++)
            sum += abs((int)t - bytes[e]);
        uint32_t want = (t & 1) ? 77u : 1000u + (uint32_t)sum;
        ck_assert_msg(got[t] == want, "thread %u: got %u, want %u", t, got[t], want);
    }
}
END_TEST

/* Byte and half-word selectors and the merge into c: vmax.s32 of byte 1 (signed) of
 * a and half-word 0 of b, merged into byte 2 of c with .sat (clamped to s8). */
START_TEST(test_selectors_merge)
{
    static const char ptx[] = SMALL_HEAD
        "shl.b32 %r4, %r1, 10;\n"                 /* byte 1 = 4 * tid */
        "sub.u32 %r5, 60, %r1;\n"                 /* half-word 0 = 60 - tid (negative from 61 on) */
        "vmax.s32.s32.s32.sat %r3.b2, %r4.b1, %r5.h0, 0x11223344;\n"
        SMALL_TAIL;
    uint32_t got[64];
    run_small(ptx, got);
    for (uint32_t t = 0; t < 64; t++) {
        int32_t a = (int8_t)(uint8_t)(4 * t), b = (int16_t)(uint16_t)(60 - t), m = a > b ? a : b;
        /* With a merge field, an H100 saturates negative values to the field's maximum too. */
        uint32_t field = m < 0 || m > 127 ? 0x7Fu : (uint32_t)m;
        uint32_t want = (0x11223344u & ~0x00FF0000u) | field << 16;
        ck_assert_msg(got[t] == want, "thread %u: got 0x%08x, want 0x%08x", t, got[t], want);
    }
}
END_TEST

/* Explicit SIMD source selectors pick from the pair {b, a} and a multi-byte mask
 * merges with c: a's bytes reversed (.b0123) plus b's byte 0 in every element
 * (.b4444), elements 3 and 1 written (.b31). And vmad with a negated half-word
 * source: 100 - tid * 7 (signed). */
START_TEST(test_simd_selectors_masks)
{
    static const char ptx[] = SMALL_HEAD
        "add.u32 %r4, %r1, 0x04030201;\n"         /* bytes 1 + tid, 2, 3, 4 */
        "mov.u32 %r5, 0x50607080;\n"
        "vadd4.u32.u32.u32 %r3.b31, %r4.b0123, %r5.b4444, 0x11223344;\n"
        "mov.u32 %r6, 0x00090007;\n"
        "vmad.s32.s32.s32 %r7, %r1, -%r6.h0, 100;\n"
        "add.u32 %r3, %r3, %r7;\n"
        SMALL_TAIL;
    uint32_t got[64];
    run_small(ptx, got);
    for (uint32_t t = 0; t < 64; t++) {
        uint32_t simd = ((0x81u + t) & 0xFFu) << 24 | 0x22u << 16 | 0x83u << 8 | 0x44u;
        uint32_t want = simd + (uint32_t)(100 - (int32_t)t * 7);
        ck_assert_msg(got[t] == want, "thread %u: got 0x%08x, want 0x%08x", t, got[t], want);
    }
}
END_TEST

Suite *emu_video_suite(void)
{
    Suite *s = suite_create("emu_video");
    edge_load(VID_DIR, &video_rows);
    TCase *tc = tcase_create("edge");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_some_recorded);
    tcase_add_loop_test(tc, test_edge_kernel, 0, edge_loop_count(&video_rows));
    suite_add_tcase(s, tc);
    TCase *sel = tcase_create("selection");
    tcase_add_test(sel, test_refused_by_name);
    tcase_add_test(sel, test_guarded_sad);
    tcase_add_test(sel, test_selectors_merge);
    tcase_add_test(sel, test_simd_selectors_masks);
    suite_add_tcase(s, sel);
    return s;
}
