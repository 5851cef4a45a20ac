/* check_sched_preset.c -- unit tests of the emulated-GPU presets and the occupancy
 * calculation, against figures worked out by hand and figures read on a real H100. */
#include "config.h"

#include <check.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "sched/sched_preset.h"

/* Looks a preset up and fails the test when it is missing. */
static const struct sched_preset *preset(const char *name)
{
    const struct sched_preset *p = sched_preset_find(name);
    ck_assert_msg(p != NULL, "preset %s missing", name);
    return p;
}

static struct sched_occupancy occupancy(const char *name, unsigned threads, unsigned regs,
                                        size_t shared)
{
    struct sched_occupancy o;
    ck_assert_int_eq(sched_occupancy(preset(name), threads, regs, shared, 0, &o), LOOM_OK);
    return o;
}

START_TEST(test_find)
{
    const struct sched_preset *h100 = sched_preset_default();
    ck_assert_str_eq(h100->name, "h100");
    ck_assert_ptr_eq(sched_preset_find("H100"), h100);
    ck_assert_ptr_eq(sched_preset_find("Hopper"), h100);
    ck_assert_int_eq(h100->props.cc_major, 9);
    ck_assert_int_eq(h100->props.cc_minor, 0);
    ck_assert_int_eq(h100->props.multiprocessors, 132);
    ck_assert_int_eq(preset("ampere")->props.cc_major * 10 + preset("ampere")->props.cc_minor, 80);
    ck_assert_int_eq(preset("VOLTA")->props.cc_major * 10 + preset("volta")->props.cc_minor, 70);
    ck_assert_int_eq(preset("turing")->props.cc_major * 10 + preset("turing")->props.cc_minor, 75);
    ck_assert_int_eq(preset("kepler")->props.cc_major * 10 + preset("kepler")->props.cc_minor, 35);
    ck_assert_int_eq(preset("fermi")->props.cc_major * 10 + preset("fermi")->props.cc_minor, 20);
    ck_assert_int_eq(preset("tesla")->props.cc_major * 10 + preset("tesla")->props.cc_minor, 10);
    ck_assert_ptr_null(sched_preset_find("h1000"));
    ck_assert_ptr_null(sched_preset_find(""));
    ck_assert_ptr_null(sched_preset_find(NULL));
}
END_TEST

/* Every name and alias in the help list resolves, and the buffer is filled like snprintf. */
START_TEST(test_names)
{
    char buf[512];
    int n = sched_preset_names(buf, sizeof buf);
    ck_assert_int_gt(n, 0);
    ck_assert_int_eq(n, (int)strlen(buf));
    ck_assert_int_eq(sched_preset_names(NULL, 0), n);
    size_t count;
    const struct sched_preset *all = sched_preset_list(&count);
    ck_assert_uint_eq(count, 7);
    for (size_t i = 0; i < count; i++) {
        ck_assert_ptr_nonnull(strstr(buf, all[i].name));
        ck_assert_ptr_eq(sched_preset_find(all[i].name), &all[i]);
        if (all[i].alias) {
            ck_assert_ptr_nonnull(strstr(buf, all[i].alias));
            ck_assert_ptr_eq(sched_preset_find(all[i].alias), &all[i]);
        }
    }
    char small[8];
    ck_assert_int_eq(sched_preset_names(small, sizeof small), n);
    ck_assert_uint_eq(strlen(small), sizeof small - 1);
}
END_TEST

/* The per-SM limits repeat figures of loom_device_props; they must agree. */
START_TEST(test_consistent)
{
    size_t count;
    const struct sched_preset *all = sched_preset_list(&count);
    for (size_t i = 0; i < count; i++) {
        const struct sched_preset *p = &all[i];
        ck_assert_int_eq(p->props.warp_size, 32);
        ck_assert_uint_eq(p->sm.max_threads, (unsigned)p->props.max_threads_per_sm);
        ck_assert_uint_eq(p->sm.max_warps, p->sm.max_threads / 32);
        ck_assert_uint_eq(p->sm.max_ctas, (unsigned)p->props.max_blocks_per_sm);
        ck_assert_uint_eq(p->sm.regs, (unsigned)p->props.regs_per_sm);
        ck_assert_uint_eq(p->sm.max_regs_per_cta, (unsigned)p->props.regs_per_block);
        ck_assert_uint_eq(p->sm.shared, p->props.shared_per_sm);
        ck_assert_uint_eq(p->sm.shared_per_cta_max, p->props.shared_per_block_optin);
        ck_assert_uint_le(p->props.shared_per_block, p->props.shared_per_block_optin);
        ck_assert_uint_le(p->props.shared_per_block_optin + p->sm.shared_reserved_per_cta,
                          p->props.shared_per_sm);
        ck_assert_int_le(p->props.max_threads_per_block, p->props.max_threads_per_sm);
        ck_assert_int_eq(p->props.max_block_dim[0], p->props.max_threads_per_block);
        ck_assert_int_gt(p->props.clock_khz, 0);
        ck_assert_uint_gt(p->props.total_global_mem, 0);
        ck_assert_uint_gt(strlen(p->props.name), 0);
    }
}
END_TEST

/* H100 (9.0): 64 warps, 32 CTAs, 65536 registers in 4 sub-partitions allocated per warp in
 * units of 256, 228 KiB shared per SM allocated in units of 128 with 1 KiB reserved per CTA. */
START_TEST(test_h100_by_hand)
{
    /* 256 threads, 32 regs, no shared: 8 warps/CTA -> 64/8 = 8 CTAs by warps; 32*32 = 1024
     * regs/warp, 16384/1024 = 16 warps per sub-partition, 64 per SM -> 8 CTAs by registers;
     * shared 1 KiB reserved -> 233472/1024 = 228. 8 CTAs, full occupancy; warps win the tie. */
    struct sched_occupancy o = occupancy("h100", 256, 32, 0);
    ck_assert_uint_eq(o.ctas_per_sm, 8);
    ck_assert_uint_eq(o.by_warps, 8);
    ck_assert_uint_eq(o.by_registers, 8);
    ck_assert_uint_eq(o.by_shared, 228);  /* the reservation counts even with no shared */
    ck_assert_uint_eq(o.by_ctas, 32);
    ck_assert_int_eq(o.limit, SCHED_LIMIT_WARPS);
    ck_assert_uint_eq(o.active_warps, 64);
    ck_assert_uint_eq(o.active_threads, 2048);
    ck_assert_double_eq(o.occupancy, 1.0);
    ck_assert_uint_eq(o.regs_per_cta, 8 * 1024);
    ck_assert_uint_eq(o.shared_per_cta, 1024);

    /* 128 threads, 72 regs: 72*32 = 2304 regs/warp (a multiple of 256); 16384/2304 = 7 warps
     * per sub-partition, 28 per SM -> 28/4 = 7 CTAs, 28 warps, occupancy 28/64 = 0.4375. */
    o = occupancy("h100", 128, 72, 0);
    ck_assert_uint_eq(o.ctas_per_sm, 7);
    ck_assert_int_eq(o.limit, SCHED_LIMIT_REGISTERS);
    ck_assert_uint_eq(o.active_warps, 28);
    ck_assert_double_eq(o.occupancy, 0.4375);

    /* 256 threads, 32 regs, 48 KiB dynamic shared: 49152 + 1024 = 50176 = 392*128;
     * 233472/50176 = 4.65 -> 4 CTAs, 32 warps, occupancy 0.5. */
    o = occupancy("h100", 256, 32, 48 * 1024);
    ck_assert_uint_eq(o.ctas_per_sm, 4);
    ck_assert_int_eq(o.limit, SCHED_LIMIT_SHARED);
    ck_assert_uint_eq(o.shared_per_cta, 50176);
    ck_assert_double_eq(o.occupancy, 0.5);

    /* 32 threads, 16 regs: one warp per CTA, 64 by warps, 512 regs/warp -> 32 warps per
     * sub-partition -> 128 by registers; the 32-CTA limit wins: 32 warps, occupancy 0.5. */
    o = occupancy("h100", 32, 16, 0);
    ck_assert_uint_eq(o.ctas_per_sm, 32);
    ck_assert_int_eq(o.limit, SCHED_LIMIT_CTAS);
    ck_assert_double_eq(o.occupancy, 0.5);

    /* 1024 threads, 64 regs: 2048 regs/warp, 8 warps per sub-partition, 32 per SM -> 1 CTA.
     * 65 regs: 2080 -> 2304 regs/warp, 32 warps need 73728 > 65536 registers: none fit. */
    o = occupancy("h100", 1024, 64, 0);
    ck_assert_uint_eq(o.ctas_per_sm, 1);
    ck_assert_uint_eq(o.by_warps, 2);
    ck_assert_int_eq(o.limit, SCHED_LIMIT_REGISTERS);
    o = occupancy("h100", 1024, 65, 0);
    ck_assert_uint_eq(o.ctas_per_sm, 0);
    ck_assert_int_eq(o.limit, SCHED_LIMIT_REGISTERS);

    /* 96 threads (3 warps) round to 3 warps for warps, not 4: 64/3 = 21 CTAs by warps. */
    o = occupancy("h100", 96, 16, 0);
    ck_assert_uint_eq(o.warps_per_cta, 3);
    ck_assert_uint_eq(o.by_warps, 21);
    ck_assert_uint_eq(o.ctas_per_sm, 21);

    /* Shared memory at the opt-in limit (227 KiB) fits once; one byte more does not. */
    o = occupancy("h100", 128, 32, 227 * 1024);
    ck_assert_uint_eq(o.ctas_per_sm, 1);
    o = occupancy("h100", 128, 32, 227 * 1024 + 1);
    ck_assert_uint_eq(o.ctas_per_sm, 0);
    ck_assert_int_eq(o.limit, SCHED_LIMIT_SHARED);
}
END_TEST

/* V100 (7.0): 64 warps, 32 CTAs, 65536 registers as on the H100, 96 KiB shared per SM in
 * units of 256 and nothing reserved. */
START_TEST(test_v100_by_hand)
{
    /* 256 threads, 64 regs: 2048 regs/warp, 8 warps per sub-partition, 32 per SM -> 4 CTAs;
     * occupancy 32/64 = 0.5. */
    struct sched_occupancy o = occupancy("volta", 256, 64, 0);
    ck_assert_uint_eq(o.ctas_per_sm, 4);
    ck_assert_int_eq(o.limit, SCHED_LIMIT_REGISTERS);
    ck_assert_double_eq(o.occupancy, 0.5);
    ck_assert_uint_eq(o.by_shared, UINT_MAX);

    /* 128 threads, 32 regs, 20000 bytes shared: 20000 -> 20224 (79*256); 98304/20224 = 4.86
     * -> 4 CTAs; by warps 16, by registers 16. 16 warps, occupancy 0.25. */
    o = occupancy("volta", 128, 32, 20000);
    ck_assert_uint_eq(o.ctas_per_sm, 4);
    ck_assert_uint_eq(o.shared_per_cta, 20224);
    ck_assert_uint_eq(o.by_registers, 16);
    ck_assert_int_eq(o.limit, SCHED_LIMIT_SHARED);
    ck_assert_double_eq(o.occupancy, 0.25);

    /* 96 threads, 40 regs: 1280 regs/warp, 16384/1280 = 12 warps per sub-partition, 48 per
     * SM -> 48/3 = 16 CTAs (by warps 21); occupancy 48/64 = 0.75. */
    o = occupancy("volta", 96, 40, 0);
    ck_assert_uint_eq(o.ctas_per_sm, 16);
    ck_assert_int_eq(o.limit, SCHED_LIMIT_REGISTERS);
    ck_assert_double_eq(o.occupancy, 0.75);

    /* 32 threads, 24 regs: 768 regs/warp, 21 warps per sub-partition -> 84 CTAs by
     * registers, 64 by warps; the 32-CTA limit wins. */
    o = occupancy("volta", 32, 24, 0);
    ck_assert_uint_eq(o.ctas_per_sm, 32);
    ck_assert_uint_eq(o.by_registers, 84);
    ck_assert_int_eq(o.limit, SCHED_LIMIT_CTAS);

    /* The opt-in limit of the V100 is all 96 KiB (no reservation before 8.0). */
    o = occupancy("volta", 64, 32, 96 * 1024);
    ck_assert_uint_eq(o.ctas_per_sm, 1);
    o = occupancy("volta", 64, 32, 96 * 1024 + 1);
    ck_assert_uint_eq(o.ctas_per_sm, 0);
}
END_TEST

/* The old rules: G80 (1.0) allocates registers per CTA, Fermi (2.0) per warp in units of 64. */
START_TEST(test_old_by_hand)
{
    /* G80, 256 threads, 11 regs, 4000 bytes shared: 8 warps (already even) * 32 * 11 = 2816
     * (11 units of 256) regs/CTA, 8192/2816 = 2 CTAs; by warps 24/8 = 3; shared 4000 -> 4096,
     * 16384/4096 = 4. 2 CTAs, 16 of 24 warps. */
    struct sched_occupancy o = occupancy("tesla", 256, 11, 4000);
    ck_assert_uint_eq(o.ctas_per_sm, 2);
    ck_assert_uint_eq(o.regs_per_cta, 2816);
    ck_assert_uint_eq(o.by_warps, 3);
    ck_assert_uint_eq(o.by_shared, 4);
    ck_assert_int_eq(o.limit, SCHED_LIMIT_REGISTERS);
    ck_assert_double_eq_tol(o.occupancy, 16.0 / 24.0, 1e-12);

    /* G80, 96 threads, 15 regs: 3 warps round up to 4 for registers: 4*32*15 = 1920 ->
     * 2048 (8 units of 256), 8192/2048 = 4 CTAs (by warps 8). */
    o = occupancy("tesla", 96, 15, 0);
    ck_assert_uint_eq(o.regs_per_cta, 2048);
    ck_assert_uint_eq(o.ctas_per_sm, 4);

    /* G80 blocks are at most 512 threads. */
    o = occupancy("tesla", 513, 8, 0);
    ck_assert_uint_eq(o.ctas_per_sm, 0);
    ck_assert_int_eq(o.limit, SCHED_LIMIT_BLOCK_SIZE);

    /* Fermi, 192 threads, 21 regs: 672 -> 704 regs/warp; 16384/704 = 23 warps in each of 2
     * halves, 46 per SM -> 46/6 = 7 CTAs (by warps 8, by CTAs 8). */
    o = occupancy("fermi", 192, 21, 0);
    ck_assert_uint_eq(o.ctas_per_sm, 7);
    ck_assert_int_eq(o.limit, SCHED_LIMIT_REGISTERS);
    /* Fermi allows at most 63 registers per thread. */
    o = occupancy("fermi", 32, 64, 0);
    ck_assert_uint_eq(o.ctas_per_sm, 0);
    ck_assert_int_eq(o.limit, SCHED_LIMIT_REGISTERS);
}
END_TEST

START_TEST(test_invalid)
{
    struct sched_occupancy o;
    ck_assert_int_eq(sched_occupancy(sched_preset_default(), 0, 32, 0, 0, &o), LOOM_ERR_INVALID_VALUE);
    ck_assert_int_eq(sched_occupancy(NULL, 32, 32, 0, 0, &o), LOOM_ERR_INVALID_VALUE);
    o = occupancy("h100", 1025, 16, 0);
    ck_assert_uint_eq(o.ctas_per_sm, 0);
    ck_assert_int_eq(o.limit, SCHED_LIMIT_BLOCK_SIZE);
    o = occupancy("h100", 32, 256, 0);
    ck_assert_uint_eq(o.ctas_per_sm, 0);
    ck_assert_int_eq(o.limit, SCHED_LIMIT_REGISTERS);
    /* A kernel with no registers and no shared memory is limited by warps or CTAs only. */
    o = occupancy("kepler", 1024, 0, 0);
    ck_assert_uint_eq(o.ctas_per_sm, 2);
    ck_assert_uint_eq(o.by_registers, UINT_MAX);
    ck_assert_uint_eq(o.by_shared, UINT_MAX);
    ck_assert_int_eq(o.limit, SCHED_LIMIT_WARPS);
    ck_assert_str_eq(sched_limit_name(SCHED_LIMIT_SHARED), "shared memory");
}
END_TEST

/* Read on an NVIDIA H100 80GB HBM3 (driver 580, CUDA 13.0) with
 * cudaOccupancyMaxActiveBlocksPerMultiprocessor for kernels of the register counts that
 * cudaFuncGetAttributes reported, with the dynamic shared-memory limit raised to 200000;
 * `shared` is static plus dynamic bytes. */
static const struct h100_row {
    unsigned regs, threads;
    size_t shared;
    unsigned ctas;
} h100_rows[] = {
    {10, 32, 20000, 11},          {10, 160, 200000, 1},       {10, 512, 4096, 4},
    {12, 32, 12000 + 65536, 2},   {12, 192, 12000 + 1000, 10}, {12, 512, 12000 + 32768, 4},
    {24, 64, 0, 32},              {24, 192, 12288, 10},       {24, 512, 100000, 2},
    {32, 64, 3072, 32},           {32, 192, 48000, 4},        {32, 640, 1, 3},
    {48, 64, 20000, 11},          {48, 192, 200000, 1},       {48, 640, 4096, 2},
    {72, 64, 65536, 3},           {72, 256, 1000, 3},         {72, 640, 32768, 1},
    {128, 96, 0, 5},              {128, 256, 12288, 2},       {128, 640, 100000, 0},
    {32, 96, 3072, 21},           {32, 256, 48000, 4},        {32, 768, 1, 2},
    {10, 288, 0, 7},              {48, 288, 0, 4},            {72, 288, 0, 3},
    {128, 288, 0, 1},             {10, 1024, 0, 2},           {48, 1024, 0, 1},
    {72, 1024, 0, 0},             {12, 384, 12000 + 200000, 1},
};

START_TEST(test_h100_measured)
{
    const struct h100_row *r = &h100_rows[_i];
    struct sched_occupancy o = occupancy("h100", r->threads, r->regs, r->shared);
    ck_assert_msg(o.ctas_per_sm == r->ctas, "regs %u threads %u shared %zu: %u CTAs, H100 %u",
                  r->regs, r->threads, r->shared, o.ctas_per_sm, r->ctas);
}
END_TEST

/* Named barriers share 64 per H100 SM (tests/occupancy/h100.txt: 3 barriers, 21 CTAs of
 * 32 or 64 threads); maxThreadsPerBlock is what the registers leave room for (127
 * registers: 512 threads, as the H100 reported). */
START_TEST(test_barriers_and_max_threads)
{
    const struct sched_preset *h100 = preset("h100");
    struct sched_occupancy o;
    ck_assert_int_eq(sched_occupancy(h100, 32, 15, 512, 3, &o), LOOM_OK);
    ck_assert_uint_eq(o.ctas_per_sm, 21);
    ck_assert_int_eq(o.limit, SCHED_LIMIT_BARRIERS);
    ck_assert_int_eq(sched_occupancy(h100, 128, 15, 512, 3, &o), LOOM_OK);
    ck_assert_uint_eq(o.ctas_per_sm, 16);
    ck_assert_int_eq(o.limit, SCHED_LIMIT_WARPS);
    ck_assert_int_eq(sched_occupancy(h100, 32, 15, 0, 0, &o), LOOM_OK);
    ck_assert_uint_eq(o.by_barriers, UINT_MAX);
    ck_assert_str_eq(sched_limit_name(SCHED_LIMIT_BARRIERS), "named barriers");
    ck_assert_uint_eq(sched_max_threads(h100, 127), 512);
    ck_assert_uint_eq(sched_max_threads(h100, 64), 1024);
    ck_assert_uint_eq(sched_max_threads(h100, 65), 896);
    ck_assert_uint_eq(sched_max_threads(h100, 255), 256);
    ck_assert_uint_eq(sched_max_threads(h100, 256), 0);
}
END_TEST

Suite *sched_preset_suite(void);

Suite *sched_preset_suite(void)
{
    Suite *s = suite_create("sched_preset");
    TCase *tc = tcase_create("presets");
    tcase_add_test(tc, test_find);
    tcase_add_test(tc, test_names);
    tcase_add_test(tc, test_consistent);
    suite_add_tcase(s, tc);

    tc = tcase_create("occupancy");
    tcase_add_test(tc, test_h100_by_hand);
    tcase_add_test(tc, test_v100_by_hand);
    tcase_add_test(tc, test_old_by_hand);
    tcase_add_test(tc, test_invalid);
    tcase_add_test(tc, test_barriers_and_max_threads);
    tcase_add_loop_test(tc, test_h100_measured, 0, (int)(sizeof h100_rows / sizeof h100_rows[0]));
    suite_add_tcase(s, tc);
    return s;
}
