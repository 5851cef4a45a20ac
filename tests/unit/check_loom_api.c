/* check_loom_api.c -- unit tests of the public C API's host-side rules: waits refused
 * inside host functions, events recorded again or destroyed while work names them, the
 * printf FIFO and heap limits as the H100 sizes them, and fault reports against older errors. */
#include "config.h"

#include <check.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "loom/loom.h"

static struct loom_device *device(void)
{
    struct loom_device_config cfg = { .workers = 2 };
    struct loom_device *dev = NULL;
    ck_assert_int_eq(loom_device_create(&cfg, &dev), LOOM_OK);
    return dev;
}

/* What a host function saw when it called the waiting functions. */
struct inside {
    struct loom_device *dev;
    struct loom_stream *stream;
    bool flagged;
    enum loom_status sync, stream_sync, copy, reset;
    atomic_int ran;
};

static void try_waits(void *p)
{
    struct inside *in = p;
    int x = 0, y = 1;
    in->flagged = loom_in_host_func();
    in->sync = loom_synchronize(in->dev);
    in->stream_sync = loom_stream_synchronize(in->stream);
    in->copy = loom_memcpy(in->dev, &x, &y, sizeof x);
    in->reset = loom_device_reset(in->dev);
    atomic_store(&in->ran, 1);
}

START_TEST(test_waits_in_host_func)
{
    struct loom_device *dev = device();
    struct inside in = { .dev = dev };
    ck_assert_int_eq(loom_stream_create(dev, 0, 0, &in.stream), LOOM_OK);
    ck_assert(!loom_in_host_func());
    ck_assert_int_eq(loom_stream_add_host_func(in.stream, try_waits, &in), LOOM_OK);
    ck_assert_int_eq(loom_synchronize(dev), LOOM_OK);    /* returns: nothing waited for itself */
    ck_assert_int_eq(atomic_load(&in.ran), 1);
    ck_assert(in.flagged);
    ck_assert_int_eq(in.sync, LOOM_ERR_NOT_PERMITTED);
    ck_assert_int_eq(in.stream_sync, LOOM_ERR_NOT_PERMITTED);
    ck_assert_int_eq(in.copy, LOOM_ERR_NOT_PERMITTED);
    ck_assert_int_eq(in.reset, LOOM_ERR_NOT_PERMITTED);
    ck_assert_int_eq(loom_stream_destroy(in.stream), LOOM_OK);
    loom_device_destroy(dev);
}
END_TEST

/* A host function that holds its stream until the test lets it go. */
static void hold_stream(void *p)
{
    atomic_int *gate = p;
    while (!atomic_load(gate)) {}
}

START_TEST(test_event_rerecord)
{
    struct loom_device *dev = device();
    struct loom_stream *a, *b;
    struct loom_event *e;
    atomic_int gate = 0;
    ck_assert_int_eq(loom_stream_create(dev, 1, 0, &a), LOOM_OK);   /* non-blocking streams */
    ck_assert_int_eq(loom_stream_create(dev, 1, 0, &b), LOOM_OK);
    ck_assert_int_eq(loom_event_create(dev, 0, &e), LOOM_OK);
    ck_assert_int_eq(loom_stream_add_host_func(a, hold_stream, &gate), LOOM_OK);
    ck_assert_int_eq(loom_event_record(e, a), LOOM_OK);               /* pending behind the gate */
    ck_assert_int_eq(loom_event_query(e), LOOM_ERR_NOT_READY);
    ck_assert_int_eq(loom_event_record(e, b), LOOM_OK);               /* the newer record */
    ck_assert_int_eq(loom_stream_synchronize(b), LOOM_OK);
    ck_assert_int_eq(loom_event_query(e), LOOM_OK);
    atomic_store(&gate, 1);
    ck_assert_int_eq(loom_stream_synchronize(a), LOOM_OK);
    ck_assert_int_eq(loom_event_query(e), LOOM_OK);   /* the older record did not undo it */
    ck_assert_int_eq(loom_event_synchronize(e), LOOM_OK);
    ck_assert_int_eq(loom_event_destroy(e), LOOM_OK);
    loom_stream_destroy(a);
    loom_stream_destroy(b);
    loom_device_destroy(dev);
}
END_TEST

START_TEST(test_event_destroy_while_waited)
{
    struct loom_device *dev = device();
    struct loom_stream *a, *b;
    struct loom_event *e;
    atomic_int gate = 0;
    ck_assert_int_eq(loom_stream_create(dev, 1, 0, &a), LOOM_OK);
    ck_assert_int_eq(loom_stream_create(dev, 1, 0, &b), LOOM_OK);
    ck_assert_int_eq(loom_event_create(dev, 0, &e), LOOM_OK);
    ck_assert_int_eq(loom_stream_add_host_func(a, hold_stream, &gate), LOOM_OK);
    ck_assert_int_eq(loom_event_record(e, a), LOOM_OK);
    ck_assert_int_eq(loom_stream_wait_event(b, e), LOOM_OK);
    ck_assert_int_eq(loom_event_destroy(e), LOOM_OK);   /* returns at once; b still waits */
    ck_assert_int_eq(loom_stream_query(b), LOOM_ERR_NOT_READY);
    atomic_store(&gate, 1);
    ck_assert_int_eq(loom_synchronize(dev), LOOM_OK);   /* the record lands, the wait ends, e goes */
    ck_assert_int_eq(loom_stream_query(b), LOOM_OK);
    loom_stream_destroy(a);
    loom_stream_destroy(b);
    loom_device_destroy(dev);
}
END_TEST

static const char limits_ptx[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".extern .func (.param .b32 r) vprintf (.param .b64 f, .param .b64 a);\n"
    ".global .align 1 .b8 fmt[4] = {104, 105, 10, 0};\n"
    ".visible .entry say()\n{\n .reg .b64 %rd<3>;\n .reg .b32 %r<2>;\n"
    " cvta.global.u64 %rd1, fmt;\n mov.u64 %rd2, 0;\n"
    " { .param .b64 p0; st.param.b64 [p0], %rd1; .param .b64 p1; st.param.b64 [p1], %rd2;\n"
    "   .param .b32 r; call.uni (r), vprintf, (p0, p1); ld.param.b32 %r1, [r]; }\n ret;\n}\n"
    ".visible .entry quiet()\n{\n ret;\n}\n";

START_TEST(test_limits)
{
    struct loom_device *dev = device();
    size_t v = 0;
    ck_assert_int_eq(loom_device_get_limit(dev, LOOM_LIMIT_PRINTF_FIFO_SIZE, &v), LOOM_OK);
    ck_assert_uint_eq(v, 8650752);
    ck_assert_int_eq(loom_device_set_limit(dev, LOOM_LIMIT_PRINTF_FIFO_SIZE, 1), LOOM_OK);
    ck_assert_int_eq(loom_device_get_limit(dev, LOOM_LIMIT_PRINTF_FIFO_SIZE, &v), LOOM_OK);
    ck_assert_uint_eq(v, 524288);
    ck_assert_int_eq(loom_device_set_limit(dev, LOOM_LIMIT_PRINTF_FIFO_SIZE, 5242881), LOOM_OK);
    ck_assert_int_eq(loom_device_get_limit(dev, LOOM_LIMIT_PRINTF_FIFO_SIZE, &v), LOOM_OK);
    ck_assert_uint_eq(v, 5243136);
    ck_assert_int_eq(loom_device_set_limit(dev, LOOM_LIMIT_MALLOC_HEAP_SIZE, 5242881), LOOM_OK);
    ck_assert_int_eq(loom_device_get_limit(dev, LOOM_LIMIT_MALLOC_HEAP_SIZE, &v), LOOM_OK);
    ck_assert_uint_eq(v, 5308416);
    ck_assert_int_eq(loom_device_set_limit(dev, LOOM_LIMIT_MALLOC_HEAP_SIZE, (size_t)-1), LOOM_ERR_INVALID_VALUE);

    struct loom_module *mod;
    struct loom_kernel *say, *quiet;
    ck_assert_int_eq(loom_module_load_text(dev, limits_ptx, sizeof limits_ptx - 1, "limits.ptx", &mod), LOOM_OK);
    ck_assert_int_eq(loom_module_get_kernel(mod, "say", &say), LOOM_OK);
    ck_assert_int_eq(loom_module_get_kernel(mod, "quiet", &quiet), LOOM_OK);
    struct loom_launch_config one = { .grid = { 1, 1, 1 }, .block = { 1, 1, 1 } };
    ck_assert_int_eq(loom_launch(dev, quiet, &one, NULL), LOOM_OK);   /* uses neither */
    ck_assert_int_eq(loom_synchronize(dev), LOOM_OK);
    ck_assert_int_eq(loom_device_set_limit(dev, LOOM_LIMIT_PRINTF_FIFO_SIZE, 1 << 20), LOOM_OK);
    ck_assert_int_eq(loom_launch(dev, say, &one, NULL), LOOM_OK);
    ck_assert_int_eq(loom_synchronize(dev), LOOM_OK);
    ck_assert_int_eq(loom_device_set_limit(dev, LOOM_LIMIT_PRINTF_FIFO_SIZE, 2 << 20), LOOM_ERR_INVALID_VALUE);
    ck_assert_int_eq(loom_device_set_limit(dev, LOOM_LIMIT_MALLOC_HEAP_SIZE, 16 << 20), LOOM_OK);   /* no malloc yet */
    ck_assert_int_eq(loom_device_reset(dev), LOOM_OK);
    ck_assert_int_eq(loom_device_get_limit(dev, LOOM_LIMIT_PRINTF_FIFO_SIZE, &v), LOOM_OK);
    ck_assert_uint_eq(v, 8650752);
    ck_assert_int_eq(loom_device_set_limit(dev, LOOM_LIMIT_PRINTF_FIFO_SIZE, 2 << 20), LOOM_OK);
    loom_device_destroy(dev);
}
END_TEST

static const char fault_ptx[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry poke(.param .u64 p)\n{\n .reg .b64 %rd<2>;\n .reg .b32 %r<2>;\n"
    " ld.param.u64 %rd1, [p];\n mov.u32 %r1, 7;\n st.global.u32 [%rd1+4096], %r1;\n ret;\n}\n";

START_TEST(test_fault_report_after_api_error)
{
    struct loom_device *dev = device();
    struct loom_module *mod;
    struct loom_kernel *poke;
    uint64_t buf, huge;
    ck_assert_int_eq(loom_module_load_text(dev, fault_ptx, sizeof fault_ptx - 1, "fault.ptx", &mod), LOOM_OK);
    ck_assert_int_eq(loom_module_get_kernel(mod, "poke", &poke), LOOM_OK);
    ck_assert_int_eq(loom_malloc(dev, 64, &buf), LOOM_OK);
    ck_assert_int_eq(loom_free(dev, buf + 4), LOOM_ERR_INVALID_POINTER);   /* an older API error */
    ck_assert_ptr_nonnull(strstr(loom_device_error(dev), "not the start"));
    struct loom_launch_config one = { .grid = { 1, 1, 1 }, .block = { 1, 1, 1 } };
    void *args[] = { &buf };
    ck_assert_int_eq(loom_launch(dev, poke, &one, args), LOOM_OK);
    ck_assert_int_eq(loom_synchronize(dev), LOOM_ERR_ILLEGAL_ADDRESS);
    ck_assert_ptr_nonnull(strstr(loom_device_error(dev), "out-of-bounds global write"));
    ck_assert_ptr_nonnull(strstr(loom_device_fault_report(dev), "out-of-bounds global write"));
    ck_assert_int_eq(loom_malloc(dev, (size_t)1 << 62, &huge), LOOM_ERR_OUT_OF_MEMORY);   /* a newer one */
    ck_assert_ptr_null(strstr(loom_device_error(dev), "out-of-bounds global write"));
    loom_device_destroy(dev);
}
END_TEST

/* Short names for tables: no return type or parameters, nested template arguments as "<...>". */
START_TEST(test_short_name)
{
    char b[128];
    ck_assert_str_eq(loom_short_name("_ZN3lab4fillIiEEvPT_S1_", 40, b, sizeof b), "lab::fill<int>");
    ck_assert_str_eq(loom_short_name("_Z1fIN3lab3boxIiEEEvv", 40, b, sizeof b), "f<lab::box<...> >");
    ck_assert_str_eq(loom_short_name("_Z6kernelPi", 40, b, sizeof b), "kernel");
    ck_assert_str_eq(loom_short_name("saxpy", 40, b, sizeof b), "saxpy");
    ck_assert_str_eq(loom_short_name("a_very_long_kernel_name_from_a_code_generator", 20, b, sizeof b),
                     "a_very_long_kerne...");
    ck_assert_str_eq(loom_short_name("_ZN3lab4fillIiEEvPT_S1_", 40, b, 8), "lab::fi");
}
END_TEST

/* One warp whose odd and even lanes take paths of two instructions each (issue 16): the
 * issue model's counts under PDOM, thread frontiers and SBI, per launch. */
static const char split_ptx[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry split(.param .u64 p)\n{\n .reg .pred %p<2>;\n .reg .b32 %r<6>;\n .reg .b64 %rd<4>;\n"
    " ld.param.u64 %rd1, [p];\n mov.u32 %r1, %tid.x;\n and.b32 %r2, %r1, 1;\n setp.eq.u32 %p1, %r2, 0;\n"
    " @%p1 bra EVEN;\n add.u32 %r3, %r1, 10;\n mul.lo.u32 %r3, %r3, 3;\n bra.uni JOIN;\n"
    "EVEN:\n add.u32 %r3, %r1, 20;\n mul.lo.u32 %r3, %r3, 5;\n"
    "JOIN:\n mul.wide.u32 %rd2, %r1, 4;\n add.s64 %rd3, %rd1, %rd2;\n st.global.u32 [%rd3], %r3;\n ret;\n}\n";

static void take_launch_simt(const struct loom_launch_stats *l, void *data)
{
    struct { struct loom_simt_stats *to; int n; } *seen = data;
    *seen->to = l->simt;
    seen->n++;
}

/* A device of cfg that has run kernel `name` of the PTX text ptx once, with one warp and a
 * zeroed buffer of `bytes` (its one parameter, *buf). */
static struct loom_device *one_warp(const struct loom_device_config *cfg, const char *ptx, size_t len,
                                    const char *name, size_t bytes, uint64_t *buf)
{
    struct loom_device *dev = NULL;
    ck_assert_int_eq(loom_device_create(cfg, &dev), LOOM_OK);
    struct loom_module *mod;
    struct loom_kernel *k;
    ck_assert_int_eq(loom_module_load_text(dev, ptx, len, name, &mod), LOOM_OK);
    ck_assert_int_eq(loom_module_get_kernel(mod, name, &k), LOOM_OK);
    ck_assert_int_eq(loom_malloc(dev, bytes, buf), LOOM_OK);
    ck_assert_int_eq(loom_memset(dev, *buf, 0, bytes), LOOM_OK);
    struct loom_launch_config one = { .grid = { 1, 1, 1 }, .block = { 32, 1, 1 } };
    void *args[] = { buf };
    ck_assert_int_eq(loom_launch(dev, k, &one, args), LOOM_OK);
    ck_assert_int_eq(loom_synchronize(dev), LOOM_OK);
    return dev;
}

static struct loom_simt_stats simt_of_launch(const char *policy, uint32_t *out)
{
    struct loom_device_config cfg = { .workers = 1, .stats = true, .stats_launches = true, .simt = policy };
    uint64_t buf;
    struct loom_device *dev = one_warp(&cfg, split_ptx, sizeof split_ptx - 1, "split", 32 * 4, &buf);
    ck_assert_int_eq(loom_memcpy(dev, out, (void *)(uintptr_t)buf, 32 * 4), LOOM_OK);
    struct loom_simt_stats got;
    struct { struct loom_simt_stats *to; int n; } seen = { &got, 0 };
    loom_launches_foreach(dev, take_launch_simt, &seen);
    ck_assert_int_eq(seen.n, 1);
    loom_device_destroy(dev);
    return got;
}

START_TEST(test_simt_stats)
{
    uint32_t a[32], b[32], c[32];
    struct loom_simt_stats pdom = simt_of_launch(NULL, a), fr = simt_of_launch("frontier", b),
                           sbi = simt_of_launch("sbi", c);
    ck_assert_mem_eq(a, b, sizeof a);                     /* what it computes does not change */
    ck_assert_mem_eq(a, c, sizeof a);
    ck_assert_uint_eq(a[3], (3 + 10) * 3);
    ck_assert_uint_eq(a[4], (4 + 20) * 5);
    ck_assert_uint_eq(pdom.divergent_branches, 1);
    ck_assert_uint_eq(pdom.reconvergences, 1);
    ck_assert_uint_eq(pdom.max_depth, 3);                 /* the base, the join's, one path */
    ck_assert_uint_eq(pdom.hist[16], 5);                  /* odd: add, mul, bra; even: add, mul */
    ck_assert_uint_eq(pdom.hist[16] + pdom.hist[32], pdom.slots);
    ck_assert_uint_eq(pdom.lanes, 16 * pdom.hist[16] + 32 * pdom.hist[32]);
    ck_assert_uint_eq(fr.slots, pdom.slots);              /* structured code: the same slots */
    ck_assert_uint_eq(fr.hist[16], 5);
    ck_assert_uint_eq(sbi.coissued, 2);                   /* the even path's two beside the odd's */
    ck_assert_uint_eq(sbi.slots, pdom.slots - 2);
    ck_assert_uint_eq(sbi.hist[32], sbi.slots - 1);       /* one slot of 16 lanes left: the bra.uni */
}
END_TEST

START_TEST(test_simt_policy_errors)
{
    char msg[256];
    ck_assert_int_eq(loom_simt_check("dwf:policy=pc,las=off,swizzle=on,pool=2,age=0", msg, sizeof msg), LOOM_OK);
    ck_assert_int_eq(loom_simt_check("warp", msg, sizeof msg), LOOM_ERR_INVALID_VALUE);
    ck_assert_str_eq(msg, "unknown SIMT policy 'warp' (valid: pdom, its, frontier, dwf, sbi, swi, sbi+swi)");
    ck_assert_int_eq(loom_simt_check("frontier:las=on", msg, sizeof msg), LOOM_ERR_INVALID_VALUE);
    ck_assert_str_eq(msg, "SIMT policy frontier: bad option 'las=on' (valid: trace=N (slots))");
    ck_assert_int_eq(loom_simt_check("its:quantum=0", msg, sizeof msg), LOOM_ERR_INVALID_VALUE);
    struct loom_device_config cfg = { .workers = 1, .simt = "dwf:policy=biggest" };
    struct loom_device *dev = NULL;
    ck_assert_int_eq(loom_device_create(&cfg, &dev), LOOM_ERR_INVALID_VALUE);
    ck_assert_ptr_null(dev);
    ck_assert_ptr_nonnull(strstr(loom_device_error(NULL), "bad option 'policy=biggest'"));
}
END_TEST

/* Counters (issue 17): one warp's shared accesses at strides 1, 2 and 32 words, a
 * broadcast, 64-bit words, and global loads coalesced, offset by one element and
 * strided; every count derived by hand in the comments. */
static const char mem_ptx[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry mem(.param .u64 p)\n{\n .reg .pred %p<2>;\n .reg .b32 %r<12>;\n .reg .b64 %rd<12>;\n"
    " .shared .align 8 .b8 sm[8192];\n"
    " ld.param.u64 %rd1, [p];\n mov.u32 %r1, %tid.x;\n mov.u32 %r2, sm;\n"
    " shl.b32 %r3, %r1, 2;\n add.u32 %r4, %r2, %r3;\n st.shared.u32 [%r4], %r1;\n"        /* stride 1: 1 wavefront */
    " shl.b32 %r5, %r1, 3;\n add.u32 %r6, %r2, %r5;\n st.shared.u32 [%r6], %r1;\n"        /* stride 2: 2, 1 conflict */
    " shl.b32 %r7, %r1, 7;\n add.u32 %r8, %r2, %r7;\n st.shared.u32 [%r8], %r1;\n"        /* stride 32: 32, 31 conflicts */
    " ld.shared.u32 %r9, [%r2];\n"                                                        /* broadcast: 1 */
    " add.u32 %r10, %r2, %r5;\n ld.shared.u64 %rd2, [%r10];\n"                              /* 8-byte words: 2 phases of 1 */
    " mul.wide.u32 %rd3, %r1, 4;\n add.s64 %rd4, %rd1, %rd3;\n ld.global.u32 %r11, [%rd4];\n"  /* 4 sectors, 1 line */
    " ld.global.u32 %r11, [%rd4+4];\n"                                                    /* 5 sectors, 2 lines */
    " mul.wide.u32 %rd5, %r1, 128;\n add.s64 %rd6, %rd1, %rd5;\n ld.global.u32 %r11, [%rd6];\n" /* 32 sectors, 32 lines */
    " setp.lt.u32 %p1, %r1, 8;\n @%p1 bra SKIP;\n st.global.u32 [%rd4], %r9;\n"          /* lanes 8..31: 3 sectors, 1 line */
    "SKIP:\n bar.sync 0;\n ret;\n}\n";

static const struct loom_line_stats *line_with(const struct loom_kernel_stats *s, const char *text, unsigned nth)
{
    for (unsigned i = 0; i < s->nlines; i++)
        if (strstr(s->lines[i].text, text) && nth-- == 0) return &s->lines[i];
    ck_abort_msg("no line with '%s'", text);
    return NULL;
}

static void check_mem_counters(const struct loom_kernel_stats *s, void *data)
{
    (void)data;
    ck_assert(s->counted);
    ck_assert_uint_eq(s->mem.shared_st_requests, 3);
    ck_assert_uint_eq(s->mem.shared_st_wavefronts, 1 + 2 + 32);
    ck_assert_uint_eq(s->mem.shared_st_conflicts, 0 + 1 + 31);
    ck_assert_uint_eq(s->mem.shared_ld_requests, 2);
    ck_assert_uint_eq(s->mem.shared_ld_wavefronts, 1 + 2);
    ck_assert_uint_eq(s->mem.shared_ld_conflicts, 0);
    ck_assert_uint_eq(s->mem.global_ld_requests, 3);
    ck_assert_uint_eq(s->mem.global_ld_sectors, 4 + 5 + 32);
    ck_assert_uint_eq(s->mem.global_ld_lines, 1 + 2 + 32);
    ck_assert_uint_eq(s->mem.global_st_requests, 1);
    ck_assert_uint_eq(s->mem.global_st_sectors, 3);
    ck_assert_uint_eq(s->mem.global_st_lines, 1);
    const struct loom_line_stats *l = line_with(s, "st.shared.u32 [%r8]", 0);
    ck_assert_int_eq(l->mem, LOOM_MEM_SHARED_ST);
    ck_assert_uint_eq(l->bank_conflicts, 31);
    l = line_with(s, "ld.global.u32 %r11, [%rd4+4]", 0);
    ck_assert_uint_eq(l->sectors, 5);
    ck_assert_uint_eq(l->lines128, 2);
    l = line_with(s, "@%p1 bra SKIP", 0);
    ck_assert_uint_eq(l->exec, 1);
    ck_assert_uint_eq(l->divergent, 1);
    l = line_with(s, "st.global.u32", 0);
    ck_assert_uint_eq(l->exec, 1);
    ck_assert_uint_eq(l->threads, 24);
    l = line_with(s, "bar.sync", 0);
    ck_assert_uint_eq(l->barrier_waits, 1);
    ck_assert_uint_eq(l->threads, 32);
    ck_assert_str_eq(s->occupancy_limiter, "shared");     /* (8 + 1 reserved) KiB a CTA: 25 in 228 KiB */
    ck_assert_uint_eq(s->occupancy_ctas_per_sm, 25);
}

START_TEST(test_counters)
{
    static const char *const policies[] = { NULL, "frontier", "dwf" };
    for (unsigned p = 0; p < 3; p++) {
        struct loom_device_config cfg = { .workers = 1, .stats = true, .counters = true, .simt = policies[p] };
        uint64_t buf;
        struct loom_device *dev = one_warp(&cfg, mem_ptx, sizeof mem_ptx - 1, "mem", 32 * 128 + 8, &buf);
        loom_stats_foreach(dev, check_mem_counters, NULL);
        char *doc = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&doc, &len);
        ck_assert_int_eq(loom_stats_write_json(dev, f, "mem.ptx"), LOOM_OK);
        fclose(f);
        ck_assert_ptr_nonnull(strstr(doc, "\"schema\": \"loom-stats/1\""));
        ck_assert_ptr_nonnull(strstr(doc, "\"ld_bank_conflicts\": 0, \"st_requests\": 3, \"st_wavefronts\": 35"));
        free(doc);
        loom_device_destroy(dev);
    }
}
END_TEST

Suite *loom_api_suite(void);

Suite *loom_api_suite(void)
{
    Suite *s = suite_create("loom_api");
    TCase *tc = tcase_create("host functions and events");
    tcase_add_test(tc, test_waits_in_host_func);
    tcase_add_test(tc, test_event_rerecord);
    tcase_add_test(tc, test_event_destroy_while_waited);
    suite_add_tcase(s, tc);
    TCase *simt = tcase_create("SIMT policies");
    tcase_add_test(simt, test_simt_stats);
    tcase_add_test(simt, test_simt_policy_errors);
    tcase_add_test(simt, test_counters);
    suite_add_tcase(s, simt);
    tc = tcase_create("limits and reports");
    tcase_add_test(tc, test_limits);
    tcase_add_test(tc, test_fault_report_after_api_error);
    tcase_add_test(tc, test_short_name);
    suite_add_tcase(s, tc);
    return s;
}
