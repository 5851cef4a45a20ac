/* check_vtime.c -- unit tests of the virtual-time schedule simulator (sched/sched_vtime.c):
 * schedules worked out by hand, invariants of a random workload, determinism, bad input. */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sched/sched_vtime.h"

/* Durations in the hand-worked cases are small binary fractions, so sums are exact and the
 * expected times are compared with ==. */

static struct sched_vt_op kernel(uint64_t nctas, double cta_s, unsigned ctas_per_sm)
{
    return (struct sched_vt_op){ .kind = SCHED_VT_KERNEL, .name = "k", .nctas = nctas,
                                 .cta_s_uniform = cta_s, .ctas_per_sm = ctas_per_sm };
}

static struct sched_vt_op copy(double duration_s, unsigned engine)
{
    return (struct sched_vt_op){ .kind = SCHED_VT_COPY, .name = "copy", .duration_s = duration_s,
                                 .engine = engine };
}

static struct sched_vt_op host(double duration_s)
{
    return (struct sched_vt_op){ .kind = SCHED_VT_HOST, .name = "host", .duration_s = duration_s };
}

static struct sched_vt_result simulate(const struct sched_vt_op *ops, size_t n,
                                       struct sched_vt_config cfg)
{
    struct sched_vt_result r;
    char err[256];
    enum loom_status st = sched_vt_simulate(ops, n, &cfg, &r, err, sizeof err);
    ck_assert_msg(st == LOOM_OK, "sched_vt_simulate: %d %s", (int)st, err);
    return r;
}

static void expect_span(const struct sched_vt_result *r, size_t op, double start, double end)
{
    ck_assert_msg(r->start_s[op] == start && r->end_s[op] == end,
                  "op %zu ran [%g, %g), expected [%g, %g)", op, r->start_s[op], r->end_s[op],
                  start, end);
}

/* The CTA placements seen through cta_fn. */
struct placement {
    size_t op;
    uint64_t cta;
    unsigned sm;
    double t0, t1;
};

struct placements {
    struct placement *p;
    size_t n, cap;
};

static void record_cta(void *ctx, size_t op, uint64_t cta, unsigned sm, double t0, double t1)
{
    struct placements *pl = ctx;
    if (pl->n == pl->cap) {
        pl->cap = pl->cap ? 2 * pl->cap : 1024;
        pl->p = realloc(pl->p, pl->cap * sizeof *pl->p);
        ck_assert_ptr_nonnull(pl->p);
    }
    pl->p[pl->n++] = (struct placement){ op, cta, sm, t0, t1 };
}

/* 132 SMs, 2 CTAs per SM, 300 CTAs of 1 s: 264 fit at once, so CTAs 0..263 run [0, 1) and
 * 264..299 run [1, 2): makespan 2. Most-free first, lowest SM on ties: CTAs 0..131 go to SMs
 * 0..131, CTAs 132..263 to SMs 0..131 again, at t = 1 CTA 264 + j goes to SM j.
 * Work = 300 * 1 / 2 = 150 SM-s: sm_util = 150 / (132 * 2) = 150/264; critical path =
 * max(longest CTA 1, 300 / (132 * 2) = 150/132) = 150/132. With launch_s 0.25 all shifts. */
START_TEST(test_waves)
{
    struct sched_vt_op k = kernel(300, 1.0, 2);
    struct placements pl = { 0 };
    struct sched_vt_result r = simulate(&k, 1, (struct sched_vt_config){
        .sms = 132, .cta_fn = record_cta, .cta_ctx = &pl });
    expect_span(&r, 0, 0, 2);
    ck_assert(r.makespan_s == 2);
    ck_assert_double_eq_tol(r.sm_util, 150.0 / 264, 1e-12);
    ck_assert_double_eq_tol(r.critical_path_s, 150.0 / 132, 1e-12);
    ck_assert_uint_eq(r.overlapped, 0);
    ck_assert_uint_eq(r.kernels, 1);
    ck_assert_uint_eq(r.ctas, 300);
    ck_assert_uint_eq(pl.n, 300);
    for (size_t c = 0; c < 300; c++) {
        ck_assert_uint_eq(pl.p[c].cta, c);
        ck_assert_uint_eq(pl.p[c].sm, c < 264 ? c % 132 : c - 264);
        ck_assert(pl.p[c].t0 == (c < 264 ? 0 : 1));
        ck_assert(pl.p[c].t1 == pl.p[c].t0 + 1);
    }
    free(pl.p);
    sched_vt_result_free(&r);

    r = simulate(&k, 1, (struct sched_vt_config){ .sms = 132, .launch_s = 0.25 });
    ck_assert(r.ready_s[0] == 0);
    expect_span(&r, 0, 0.25, 2.25);
    ck_assert_double_eq_tol(r.critical_path_s, 0.25 + 150.0 / 132, 1e-12);
    sched_vt_result_free(&r);
}
END_TEST

/* Two independent kernels of 4 CTAs of 1 s, 2 per SM, on 4 SMs: each fills half of every SM.
 * Window 2 or unbounded: both run [0, 1), overlapped 2, sm_util = (2 * 4 / 2) / (4 * 1) = 1.
 * Window 1 (serial): [0, 1) then [1, 2), overlapped 0, sm_util 4 / 8 = 0.5. The critical path
 * is max(1, 1, work 4 / 4 SMs) = 1 either way. */
START_TEST(test_window_overlap)
{
    struct sched_vt_op ops[2] = { kernel(4, 1.0, 2), kernel(4, 1.0, 2) };
    const unsigned windows[] = { 0, 2, 3 };
    for (size_t w = 0; w < 3; w++) {
        struct sched_vt_result r = simulate(ops, 2, (struct sched_vt_config){
            .sms = 4, .window = windows[w] });
        expect_span(&r, 0, 0, 1);
        expect_span(&r, 1, 0, 1);
        ck_assert_uint_eq(r.overlapped, 2);
        ck_assert(r.sm_util == 1);
        ck_assert(r.critical_path_s == 1);
        sched_vt_result_free(&r);
    }
    struct sched_vt_result r = simulate(ops, 2, (struct sched_vt_config){ .sms = 4, .window = 1 });
    expect_span(&r, 0, 0, 1);
    expect_span(&r, 1, 1, 2);
    ck_assert(r.ready_s[1] == 1);
    ck_assert_uint_eq(r.overlapped, 0);
    ck_assert(r.makespan_s == 2);
    ck_assert(r.sm_util == 0.5);
    ck_assert(r.critical_path_s == 1);
    sched_vt_result_free(&r);
}
END_TEST

/* The same two kernels with the second depending on the first: [0, 1) then [1, 2) whatever
 * the window; critical path 1 + 1 = 2 = makespan. */
START_TEST(test_chain)
{
    unsigned p0[] = { 0 };
    struct sched_vt_op ops[2] = { kernel(4, 1.0, 2), kernel(4, 1.0, 2) };
    ops[1].npred = 1;
    ops[1].pred = p0;
    struct sched_vt_result r = simulate(ops, 2, (struct sched_vt_config){ .sms = 4 });
    expect_span(&r, 0, 0, 1);
    expect_span(&r, 1, 1, 2);
    ck_assert_uint_eq(r.overlapped, 0);
    ck_assert(r.critical_path_s == 2);
    ck_assert(r.makespan_s == 2);
    sched_vt_result_free(&r);
}
END_TEST

/* A diamond A -> {B, C} -> D on 2 SMs, one CTA per SM. A: 2 CTAs of 1 s, B: 1 CTA of 2 s,
 * C: 1 CTA of 3 s, D: 2 CTAs of 1 s.
 * No launch latency: A [0, 1) on SMs 0 and 1; at 1, B (older) takes SM 0, C SM 1: B [1, 3),
 * C [1, 4); D is ready at 4: [4, 5). Makespan 5; B and C overlap: 2. Lengths for the critical
 * path: A max(1, 2/2) = 1, B max(2, 2/2) = 2, C max(3, 3/2) = 3, D max(1, 2/2) = 1; the path
 * A-C-D is 5, work 9 / 2 = 4.5: critical path 5. sm_util = 9 / (2 * 5) = 0.9.
 * launch_s 0.5: A placeable at 0.5, [0.5, 1.5); B, C ready at 1.5, placeable at 2: B [2, 4),
 * C [2, 5); D ready at 5, [5.5, 6.5). Critical path: each of A, C, D gets 0.5: 6.5. */
START_TEST(test_diamond)
{
    unsigned pa[] = { 0 }, pbc[] = { 1, 2 };
    struct sched_vt_op ops[4] = { kernel(2, 1.0, 1), kernel(1, 2.0, 1), kernel(1, 3.0, 1),
                                  kernel(2, 1.0, 1) };
    ops[1].npred = ops[2].npred = 1;
    ops[1].pred = ops[2].pred = pa;
    ops[3].npred = 2;
    ops[3].pred = pbc;
    struct placements pl = { 0 };
    struct sched_vt_result r = simulate(ops, 4, (struct sched_vt_config){
        .sms = 2, .cta_fn = record_cta, .cta_ctx = &pl });
    expect_span(&r, 0, 0, 1);
    expect_span(&r, 1, 1, 3);
    expect_span(&r, 2, 1, 4);
    expect_span(&r, 3, 4, 5);
    ck_assert(r.makespan_s == 5);
    ck_assert_uint_eq(r.overlapped, 2);
    ck_assert(r.critical_path_s == 5);
    ck_assert_double_eq_tol(r.sm_util, 0.9, 1e-12);
    ck_assert_uint_eq(pl.n, 6);
    ck_assert(pl.p[2].op == 1 && pl.p[2].sm == 0);
    ck_assert(pl.p[3].op == 2 && pl.p[3].sm == 1);
    free(pl.p);
    sched_vt_result_free(&r);

    r = simulate(ops, 4, (struct sched_vt_config){ .sms = 2, .launch_s = 0.5 });
    expect_span(&r, 0, 0.5, 1.5);
    expect_span(&r, 1, 2, 4);
    expect_span(&r, 2, 2, 5);
    expect_span(&r, 3, 5.5, 6.5);
    ck_assert(r.ready_s[3] == 5);
    ck_assert(r.critical_path_s == 6.5);
    sched_vt_result_free(&r);
}
END_TEST

/* 32 independent kernels of 2 CTAs of 1 s, one per SM, on 8 SMs: 4 kernels fill the device.
 * Window w < 4 runs w kernels per second: ceil(32 / w) s (1: 32, 2: 16, 3: 11); from w = 4
 * on, 4 kernels per second: 8 s (w = 5: kernels 0-3 fill the SMs, 4 waits and takes its turn
 * with 5-7 at 1 s). Makespan never grows with the window and is flat from 4. */
START_TEST(test_window_sweep)
{
    struct sched_vt_op ops[32];
    for (size_t i = 0; i < 32; i++)
        ops[i] = kernel(2, 1.0, 1);
    double prev = INFINITY;
    for (unsigned w = 1; w <= 40; w++) {
        struct sched_vt_result r = simulate(ops, 32, (struct sched_vt_config){
            .sms = 8, .window = w });
        double expect = w < 4 ? ceil(32.0 / w) : 8;
        ck_assert_msg(r.makespan_s == expect, "window %u: makespan %g, expected %g", w,
                      r.makespan_s, expect);
        ck_assert(r.makespan_s <= prev);
        ck_assert(r.critical_path_s == 8);
        prev = r.makespan_s;
        sched_vt_result_free(&r);
    }
    struct sched_vt_result r = simulate(ops, 32, (struct sched_vt_config){ .sms = 8 });
    ck_assert(r.makespan_s == 8);
    ck_assert(r.sm_util == 1);
    sched_vt_result_free(&r);
}
END_TEST

/* One SM shared by fractions. A: 1 CTA of 4 s at 2 per SM (1/2), B: 3 CTAs of 1 s at 4 per
 * SM (1/4 each), C: 1 CTA of 1 s at 1 per SM (the whole SM).
 * t 0: A takes 1/2, B two CTAs (1/4 + 1/4): full; B's third and C wait. t 1: half free, B
 * (older than C) takes 1/4 for [1, 2). t 2: half free, C needs all. t 4: A ends, C [4, 5).
 * A [0, 4), B [0, 2), C [4, 5); A and B overlap: 2. Work 4/2 + 3/4 + 1 = 3.75 SM-s:
 * sm_util 3.75 / 5 = 0.75; critical path max(4, 1, 1, 3.75) = 4.
 * Exact fractions: 1/3 + 1/2 + 1/6 = 1 fits on one SM at once (three kernels [0, 1)), while
 * 2/3 + 1/2 > 1 does not (the second kernel waits until 1). */
START_TEST(test_fractions)
{
    struct sched_vt_op ops[3] = { kernel(1, 4.0, 2), kernel(3, 1.0, 4), kernel(1, 1.0, 1) };
    struct sched_vt_result r = simulate(ops, 3, (struct sched_vt_config){ .sms = 1 });
    expect_span(&r, 0, 0, 4);
    expect_span(&r, 1, 0, 2);
    expect_span(&r, 2, 4, 5);
    ck_assert_uint_eq(r.overlapped, 2);
    ck_assert(r.sm_util == 0.75);
    ck_assert(r.critical_path_s == 4);
    sched_vt_result_free(&r);

    struct sched_vt_op thirds[3] = { kernel(1, 1.0, 3), kernel(1, 1.0, 2), kernel(1, 1.0, 6) };
    r = simulate(thirds, 3, (struct sched_vt_config){ .sms = 1 });
    for (size_t i = 0; i < 3; i++)
        expect_span(&r, i, 0, 1);
    ck_assert_uint_eq(r.overlapped, 3);
    sched_vt_result_free(&r);

    struct sched_vt_op over[2] = { kernel(2, 1.0, 3), kernel(1, 1.0, 2) };
    r = simulate(over, 2, (struct sched_vt_config){ .sms = 1 });
    expect_span(&r, 0, 0, 1);
    expect_span(&r, 1, 1, 2);
    sched_vt_result_free(&r);
}
END_TEST

/* Two streams of H2D copy (2 s) -> kernel (1 CTA, 1 s) -> D2H copy (2 s), one SM.
 * Ops: 0 C0 (engine 0), 1 K0 <- 0, 2 D0 (engine 1) <- 1, 3 C1 (engine 0), 4 K1 <- 3,
 * 5 D1 (engine 1) <- 4.
 * Two engines: C0 [0, 2) (smaller index first), C1 queued, [2, 4); K0 [2, 3) overlaps C1;
 * D0 [3, 5); K1 [4, 5); D1 [5, 7). Makespan 7.
 * One engine: C0 [0, 2), C1 [2, 4), D0 ready at 3 waits, [4, 6); K1 [4, 5); D1 ready at 5,
 * [6, 8). Makespan 8. Serial (window 1): 2 + 1 + 2 + 2 + 1 + 2 = 10.
 * Unbounded engines: C0, C1 [0, 2); K0 [2, 3), K1 [3, 4) (one SM); D0 [3, 5), D1 [4, 6).
 * Critical path: C-K-D = 5 (copies use no SM; work 2 / 1 SM = 2). */
START_TEST(test_copies)
{
    unsigned p0[] = { 0 }, p1[] = { 1 }, p3[] = { 3 }, p4[] = { 4 };
    struct sched_vt_op ops[6] = { copy(2, 0), kernel(1, 1.0, 1), copy(2, 1),
                                  copy(2, 0), kernel(1, 1.0, 1), copy(2, 1) };
    ops[1].npred = ops[2].npred = ops[4].npred = ops[5].npred = 1;
    ops[1].pred = p0;
    ops[2].pred = p1;
    ops[4].pred = p3;
    ops[5].pred = p4;
    struct sched_vt_result r = simulate(ops, 6, (struct sched_vt_config){
        .sms = 1, .copy_engines = 2 });
    expect_span(&r, 0, 0, 2);
    expect_span(&r, 1, 2, 3);
    expect_span(&r, 2, 3, 5);
    expect_span(&r, 3, 2, 4);
    ck_assert(r.ready_s[3] == 0);
    expect_span(&r, 4, 4, 5);
    expect_span(&r, 5, 5, 7);
    ck_assert(r.makespan_s == 7);
    ck_assert(r.critical_path_s == 5);
    ck_assert_uint_eq(r.overlapped, 0);
    ck_assert_uint_eq(r.kernels, 2);
    sched_vt_result_free(&r);

    r = simulate(ops, 6, (struct sched_vt_config){ .sms = 1, .copy_engines = 1 });
    expect_span(&r, 2, 4, 6);
    ck_assert(r.ready_s[2] == 3);
    expect_span(&r, 4, 4, 5);
    expect_span(&r, 5, 6, 8);
    ck_assert(r.makespan_s == 8);
    sched_vt_result_free(&r);

    r = simulate(ops, 6, (struct sched_vt_config){ .sms = 1, .copy_engines = 2, .window = 1 });
    ck_assert(r.makespan_s == 10);
    sched_vt_result_free(&r);

    r = simulate(ops, 6, (struct sched_vt_config){ .sms = 1 });
    expect_span(&r, 0, 0, 2);
    expect_span(&r, 3, 0, 2);
    expect_span(&r, 1, 2, 3);
    expect_span(&r, 4, 3, 4);
    expect_span(&r, 2, 3, 5);
    expect_span(&r, 5, 4, 6);
    sched_vt_result_free(&r);
}
END_TEST

/* Copies that become ready at one time queue by index, whatever order the events that made
 * them ready came in. Host 0 [0, 1); host 1 ready_at 0.5, [0.5, 1) (its end is pushed after
 * host 0's); copy 2 <- 1 and copy 3 <- 0, one engine: both ready at 1, copy 2 [1, 2), then
 * copy 3 [2, 3). */
START_TEST(test_copy_ties)
{
    unsigned p0[] = { 0 }, p1[] = { 1 };
    struct sched_vt_op ops[4] = { host(1), host(0.5), copy(1, 0), copy(1, 0) };
    ops[1].ready_at = 0.5;
    ops[2].npred = ops[3].npred = 1;
    ops[2].pred = p1;
    ops[3].pred = p0;
    struct sched_vt_result r = simulate(ops, 4, (struct sched_vt_config){
        .sms = 1, .copy_engines = 1 });
    expect_span(&r, 1, 0.5, 1);
    expect_span(&r, 2, 1, 2);
    expect_span(&r, 3, 2, 3);
    sched_vt_result_free(&r);
}
END_TEST

/* Host work and ready_at: H (1 s, ready_at 0.5) runs [0.5, 1.5); kernel K <- H with launch
 * 0.25 is ready at 1.5 and runs [1.75, 2.75); a kernel with ready_at 3 and no predecessors
 * runs [3.25, 4.25). Critical path: H 1.5, K 1.5 + 0.25 + 1, the last 3 + 0.25 + 1 = 4.25. */
START_TEST(test_host_ready_at)
{
    unsigned p0[] = { 0 };
    struct sched_vt_op ops[3] = { host(1), kernel(1, 1.0, 1), kernel(1, 1.0, 1) };
    ops[0].ready_at = 0.5;
    ops[1].npred = 1;
    ops[1].pred = p0;
    ops[2].ready_at = 3;
    struct sched_vt_result r = simulate(ops, 3, (struct sched_vt_config){
        .sms = 1, .launch_s = 0.25 });
    ck_assert(r.ready_s[0] == 0.5);
    expect_span(&r, 0, 0.5, 1.5);
    ck_assert(r.ready_s[1] == 1.5);
    expect_span(&r, 1, 1.75, 2.75);
    expect_span(&r, 2, 3.25, 4.25);
    ck_assert(r.makespan_s == 4.25);
    ck_assert(r.critical_path_s == 4.25);
    sched_vt_result_free(&r);
}
END_TEST

/* Per-CTA durations: 5 CTAs of 3, 1, 1, 1, 2 s on 2 SMs, one per SM. t 0: CTA 0 on SM 0,
 * CTA 1 on SM 1; t 1: CTA 2 on SM 1; t 2: CTA 3 on SM 1; t 3: CTAs 4 on SM 0 ... ends 5.
 * Critical path: max(3, 8 / 2 = 4) = 4. */
START_TEST(test_cta_durations)
{
    const double d[] = { 3, 1, 1, 1, 2 };
    struct sched_vt_op k = kernel(5, 0, 1);
    k.cta_s = d;
    struct placements pl = { 0 };
    struct sched_vt_result r = simulate(&k, 1, (struct sched_vt_config){
        .sms = 2, .cta_fn = record_cta, .cta_ctx = &pl });
    expect_span(&r, 0, 0, 5);
    ck_assert(r.critical_path_s == 4);
    ck_assert(r.sm_util == 0.8);
    ck_assert_uint_eq(pl.n, 5);
    const unsigned sm[] = { 0, 1, 1, 1, 0 };
    const double t0[] = { 0, 0, 1, 2, 3 };
    for (size_t c = 0; c < 5; c++)
        ck_assert(pl.p[c].sm == sm[c] && pl.p[c].t0 == t0[c] && pl.p[c].t1 == t0[c] + d[c]);
    free(pl.p);
    sched_vt_result_free(&r);
}
END_TEST

static unsigned lcg_next(uint64_t *x)
{
    *x = *x * 6364136223846793005ull + 1442695040888963407ull;
    return (unsigned)(*x >> 33);
}

/* A random workload: kernels, copies and host work with up to 3 predecessors each. */
static struct sched_vt_op *random_ops(size_t n, uint64_t seed, unsigned max_ctas,
                                      unsigned **out_preds, double **out_durs)
{
    struct sched_vt_op *ops = calloc(n, sizeof *ops);
    unsigned *preds = calloc(3 * n, sizeof *preds);
    double *durs = calloc(n * max_ctas, sizeof *durs);
    ck_assert(ops && preds && durs);
    uint64_t x = seed;
    for (size_t i = 0; i < n; i++) {
        unsigned kind = lcg_next(&x) % 8;
        if (kind < 6) {
            uint64_t nctas = 1 + lcg_next(&x) % max_ctas;
            double cta_s = (1 + lcg_next(&x) % 16) / 16.0;
            ops[i] = kernel(nctas, cta_s, 1 + lcg_next(&x) % 8);
            if (lcg_next(&x) % 2) {
                ops[i].cta_s = durs + i * max_ctas;
                for (uint64_t c = 0; c < ops[i].nctas; c++)
                    durs[i * max_ctas + c] = (1 + lcg_next(&x) % 64) / 64.0;
            }
        } else if (kind < 7) {
            double d = (1 + lcg_next(&x) % 8) / 8.0;
            ops[i] = copy(d, lcg_next(&x) % 2);
        } else
            ops[i] = host((lcg_next(&x) % 8) / 8.0);
        if (lcg_next(&x) % 4 == 0)
            ops[i].ready_at = (lcg_next(&x) % 32) / 4.0;
        unsigned np = i ? lcg_next(&x) % 4 : 0;
        for (unsigned p = 0; p < np; p++)
            preds[3 * i + p] = lcg_next(&x) % (unsigned)i;
        ops[i].npred = np;
        ops[i].pred = preds + 3 * i;
    }
    *out_preds = preds;
    *out_durs = durs;
    return ops;
}

static int cmp_edge(const void *a, const void *b)
{
    const double *x = a, *y = b;
    if (x[0] != y[0])
        return x[0] < y[0] ? -1 : 1;
    return (x[1] > y[1]) - (x[1] < y[1]);
}

/* Every op starts after its predecessors end and after ready_at; no SM ever holds more than
 * its capacity (checked in units of 840 = lcm(1..8)); no copy engine runs two copies at once;
 * no op starts while `window` earlier ops are unfinished; the bounds hold. */
START_TEST(test_invariants)
{
    const size_t n = 400;
    unsigned *preds;
    double *durs;
    struct sched_vt_op *ops = random_ops(n, 7, 300, &preds, &durs);
    for (unsigned w = 0; w <= 8; w += 4) {
        struct placements pl = { 0 };
        struct sched_vt_result r = simulate(ops, n, (struct sched_vt_config){
            .sms = 16, .window = w, .copy_engines = 2, .launch_s = 1.0 / 32, .cta_fn = record_cta,
            .cta_ctx = &pl });
        ck_assert(r.makespan_s >= r.critical_path_s);
        ck_assert(r.sm_util > 0 && r.sm_util <= 1);
        for (size_t i = 0; i < n; i++) {
            ck_assert(r.ready_s[i] >= ops[i].ready_at);
            ck_assert(r.start_s[i] >= r.ready_s[i] && r.end_s[i] >= r.start_s[i]);
            for (unsigned p = 0; p < ops[i].npred; p++)
                ck_assert(r.ready_s[i] >= r.end_s[ops[i].pred[p]]);
            if (ops[i].kind == SCHED_VT_KERNEL)
                ck_assert(r.start_s[i] >= r.ready_s[i] + 1.0 / 32);
            if (w) {
                unsigned unfinished = 0;
                for (size_t j = 0; j < i; j++)
                    unfinished += r.end_s[j] > r.ready_s[i];
                ck_assert_uint_lt(unfinished, w);
            }
            for (size_t j = 0; j < i && ops[i].kind == SCHED_VT_COPY; j++)
                if (ops[j].kind == SCHED_VT_COPY && ops[j].engine == ops[i].engine)
                    ck_assert(r.end_s[j] <= r.start_s[i] || r.end_s[i] <= r.start_s[j] ||
                              r.start_s[i] == r.end_s[i] || r.start_s[j] == r.end_s[j]);
        }
        /* SM occupancy: per SM, +units at t0 and -units at t1, ends before starts at one time. */
        double *edges = malloc(pl.n * 2 * 3 * sizeof *edges);
        ck_assert_ptr_nonnull(edges);
        for (unsigned sm = 0; sm < 16; sm++) {
            size_t m = 0;
            for (size_t c = 0; c < pl.n; c++) {
                if (pl.p[c].sm != sm)
                    continue;
                double u = 840 / ops[pl.p[c].op].ctas_per_sm;
                edges[3 * m] = pl.p[c].t0, edges[3 * m + 1] = u, edges[3 * m + 2] = 0, m++;
                edges[3 * m] = pl.p[c].t1, edges[3 * m + 1] = -u, edges[3 * m + 2] = 0, m++;
            }
            qsort(edges, m, 3 * sizeof *edges, cmp_edge);
            double used = 0;
            for (size_t e = 0; e < m; e++) {
                used += edges[3 * e + 1];
                ck_assert_msg(used <= 840, "SM %u over capacity: %g units", sm, used);
            }
            ck_assert(used == 0);
        }
        free(edges);
        free(pl.p);
        sched_vt_result_free(&r);
    }
    free(ops);
    free(preds);
    free(durs);
}
END_TEST

/* With capacity that never binds (4096 SMs, at most 4000 CTAs in all, every copy on an engine
 * of its own) each op starts as soon as the dependencies allow, so the makespan is exactly the
 * critical path, and every kernel runs [ready + launch, ready + launch + its CTA time). */
START_TEST(test_unbounded_is_critical_path)
{
    const size_t n = 200;
    unsigned *preds;
    double *durs;
    struct sched_vt_op *ops = random_ops(n, 99, 20, &preds, &durs);
    for (size_t i = 0; i < n; i++)
        ops[i].cta_s = NULL;
    struct sched_vt_result r = simulate(ops, n, (struct sched_vt_config){
        .sms = 4096, .launch_s = 1.0 / 32 });
    ck_assert(r.makespan_s == r.critical_path_s);
    for (size_t i = 0; i < n; i++) {
        double open = r.ready_s[i] + 1.0 / 32;
        if (ops[i].kind == SCHED_VT_KERNEL)
            expect_span(&r, i, open, open + ops[i].cta_s_uniform);
    }
    sched_vt_result_free(&r);
    free(ops);
    free(preds);
    free(durs);
}
END_TEST

/* FNV-1a over the placements, so two runs can be compared byte for byte. */
static uint64_t hash_bytes(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

/* The same input twice gives the same bytes: times, counters and the placement sequence. */
START_TEST(test_deterministic)
{
    const size_t n = 2000;
    unsigned *preds;
    double *durs;
    struct sched_vt_op *ops = random_ops(n, 42, 200, &preds, &durs);
    struct sched_vt_config cfg = { .sms = 132, .window = 32, .copy_engines = 2,
                                   .launch_s = 3e-6, .cta_fn = record_cta };
    struct placements pa = { 0 }, pb = { 0 };
    cfg.cta_ctx = &pa;
    struct sched_vt_result a = simulate(ops, n, cfg);
    cfg.cta_ctx = &pb;
    struct sched_vt_result b = simulate(ops, n, cfg);
    ck_assert(memcmp(a.ready_s, b.ready_s, n * sizeof(double)) == 0);
    ck_assert(memcmp(a.start_s, b.start_s, n * sizeof(double)) == 0);
    ck_assert(memcmp(a.end_s, b.end_s, n * sizeof(double)) == 0);
    ck_assert(memcmp(&a.makespan_s, &b.makespan_s, sizeof(double)) == 0);
    ck_assert(memcmp(&a.sm_util, &b.sm_util, sizeof(double)) == 0);
    ck_assert(memcmp(&a.critical_path_s, &b.critical_path_s, sizeof(double)) == 0);
    ck_assert_uint_eq(a.overlapped, b.overlapped);
    ck_assert_uint_eq(a.ctas, b.ctas);
    ck_assert_uint_eq(pa.n, pb.n);
    ck_assert_uint_eq(pa.n, a.ctas);
    uint64_t ha = 14695981039346656037ull, hb = ha;
    for (size_t c = 0; c < pa.n; c++) {
        ha = hash_bytes(ha, &pa.p[c].op, sizeof pa.p[c].op);
        ha = hash_bytes(ha, &pa.p[c].sm, sizeof pa.p[c].sm);
        ha = hash_bytes(ha, &pa.p[c].t0, sizeof pa.p[c].t0);
        hb = hash_bytes(hb, &pb.p[c].op, sizeof pb.p[c].op);
        hb = hash_bytes(hb, &pb.p[c].sm, sizeof pb.p[c].sm);
        hb = hash_bytes(hb, &pb.p[c].t0, sizeof pb.p[c].t0);
    }
    ck_assert_uint_eq(ha, hb);
    free(pa.p);
    free(pb.p);
    sched_vt_result_free(&a);
    sched_vt_result_free(&b);
    free(ops);
    free(preds);
    free(durs);
}
END_TEST

/* Zero ops: an empty schedule. */
START_TEST(test_empty)
{
    struct sched_vt_result r = simulate(NULL, 0, (struct sched_vt_config){ .sms = 132 });
    ck_assert(r.makespan_s == 0 && r.sm_util == 0 && r.critical_path_s == 0);
    ck_assert_ptr_null(r.start_s);
    ck_assert_uint_eq(r.kernels, 0);
    sched_vt_result_free(&r);
}
END_TEST

/* Bad input: the status, a message naming the problem, and nothing to free. */
static const struct {
    int op;              /* which op to break (-1: the configuration) */
    const char *what;    /* the part of the message expected */
    enum loom_status st;
} bad_cases[] = {
    { 1, "predecessor 1 is not an earlier op", LOOM_ERR_INVALID_VALUE },
    { 2, "predecessor 5 is not an earlier op", LOOM_ERR_INVALID_VALUE },
    { 0, "nctas is 0", LOOM_ERR_INVALID_VALUE },
    { 1, "ctas_per_sm is 0", LOOM_ERR_INVALID_VALUE },
    { -1, "sms is 0", LOOM_ERR_INVALID_VALUE },
    { 2, "duration -1 is not a time", LOOM_ERR_INVALID_VALUE },
    { 0, "CTA 1 takes nan, not a time", LOOM_ERR_INVALID_VALUE },
    { 1, "ready_at inf is not a time", LOOM_ERR_INVALID_VALUE },
    { 2, "unknown kind 9", LOOM_ERR_INVALID_VALUE },
    { -1, "launch latency -1 is not a time", LOOM_ERR_INVALID_VALUE },
    { -1, "least common multiple exceeds 2^62", LOOM_ERR_UNSUPPORTED },
    { -1, "more than 2^20 SMs are not supported", LOOM_ERR_UNSUPPORTED },
};

START_TEST(test_bad)
{
    unsigned self[] = { 1 }, later[] = { 5 };
    double nan_durs[] = { 1, NAN };
    struct sched_vt_op ops[3] = { kernel(2, 1.0, 1), kernel(1, 1.0, 2), copy(1, 0) };
    struct sched_vt_config cfg = { .sms = 4 };
    switch (_i) {
    case 0: ops[1].npred = 1, ops[1].pred = self; break;
    case 1: ops[2].npred = 1, ops[2].pred = later; break;
    case 2: ops[0].nctas = 0; break;
    case 3: ops[1].ctas_per_sm = 0; break;
    case 4: cfg.sms = 0; break;
    case 5: ops[2].duration_s = -1; break;
    case 6: ops[0].cta_s = nan_durs; break;
    case 7: ops[1].ready_at = INFINITY; break;
    case 8: ops[2].kind = (enum sched_vt_kind)9; break;
    case 9: cfg.launch_s = -1; break;
    case 10: ops[0].ctas_per_sm = 4000000001u, ops[1].ctas_per_sm = 3999999999u; break;
    case 11: cfg.sms = 1u << 21; break;
    }
    struct sched_vt_result r;
    char err[256];
    enum loom_status st = sched_vt_simulate(ops, 3, &cfg, &r, err, sizeof err);
    ck_assert_int_eq(st, bad_cases[_i].st);
    ck_assert_msg(strstr(err, bad_cases[_i].what), "message '%s' lacks '%s'", err,
                  bad_cases[_i].what);
    if (bad_cases[_i].op >= 0) {
        char want[32];
        snprintf(want, sizeof want, "op %d ", bad_cases[_i].op);
        ck_assert_msg(strncmp(err, want, strlen(want)) == 0, "message '%s' names no op", err);
    }
    ck_assert(strchr(err, '\n') == NULL);
    ck_assert_ptr_null(r.start_s);
    ck_assert_ptr_null(r.end_s);
    ck_assert_ptr_null(r.ready_s);
    ck_assert_int_eq(sched_vt_simulate(ops, 3, NULL, &r, err, sizeof err), LOOM_ERR_INVALID_VALUE);
    ck_assert_int_eq(sched_vt_simulate(NULL, 3, &cfg, &r, err, sizeof err), LOOM_ERR_INVALID_VALUE);
    ck_assert_int_eq(sched_vt_simulate(ops, 3, &cfg, NULL, err, sizeof err), LOOM_ERR_INVALID_VALUE);
}
END_TEST

/* The scale the lead needs: 10^4 kernels of 100 CTAs (10^6 CTAs), random dependencies, window
 * 32. Printed, not asserted (a loaded machine must not fail the suite). */
START_TEST(test_scale)
{
    const size_t n = 10000;
    struct sched_vt_op *ops = calloc(n, sizeof *ops);
    unsigned *preds = calloc(n, sizeof *preds);
    ck_assert(ops && preds);
    for (size_t i = 0; i < n; i++) {
        ops[i] = kernel(100, (1 + i % 7) * 1e-6, 1 + i % 4);
        if (i >= 8) {
            preds[i] = (unsigned)(i - 1 - (i * 2654435761u) % 8);
            ops[i].npred = 1;
            ops[i].pred = preds + i;
        }
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    struct sched_vt_result r = simulate(ops, n, (struct sched_vt_config){
        .sms = 132, .window = 32, .launch_s = 3e-6 });
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    ck_assert_uint_eq(r.ctas, 1000000);
    ck_assert(r.makespan_s >= r.critical_path_s);
    printf("vtime: %zu ops, %llu CTAs simulated in %.1f ms (makespan %.1f us, sm_util %.3f, "
           "overlapped %u)\n", n, (unsigned long long)r.ctas, s * 1e3, r.makespan_s * 1e6,
           r.sm_util, r.overlapped);
    sched_vt_result_free(&r);
    free(ops);
    free(preds);
}
END_TEST

Suite *vtime_suite(void);
Suite *vtime_suite(void)
{
    Suite *s = suite_create("vtime");
    TCase *tc = tcase_create("schedules");
    tcase_add_test(tc, test_waves);
    tcase_add_test(tc, test_window_overlap);
    tcase_add_test(tc, test_chain);
    tcase_add_test(tc, test_diamond);
    tcase_add_test(tc, test_window_sweep);
    tcase_add_test(tc, test_fractions);
    tcase_add_test(tc, test_copies);
    tcase_add_test(tc, test_copy_ties);
    tcase_add_test(tc, test_host_ready_at);
    tcase_add_test(tc, test_cta_durations);
    tcase_add_test(tc, test_empty);
    suite_add_tcase(s, tc);
    TCase *props = tcase_create("properties");
    tcase_set_timeout(props, 60);
    tcase_add_test(props, test_invariants);
    tcase_add_test(props, test_unbounded_is_critical_path);
    tcase_add_test(props, test_deterministic);
    tcase_add_test(props, test_scale);
    suite_add_tcase(s, props);
    TCase *bad = tcase_create("bad input");
    tcase_add_loop_test(bad, test_bad, 0, (int)(sizeof bad_cases / sizeof bad_cases[0]));
    suite_add_tcase(s, bad);
    return s;
}
