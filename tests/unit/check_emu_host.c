/* check_emu_host.c -- unit tests of the host services: device printf against the host's
 * snprintf on packed argument buffers, the FIFO, and the device heap (also under threads). */
#include "config.h"

#include <check.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#else
static int omp_get_thread_num(void) { return 0; }
#endif

#include "emu/emu.h"
#include "memory/mem.h"

/* ---- Helpers -------------------------------------------------------------------------- */

/* A host whose output goes to a memory stream the test can read back. */
struct cap {
    struct emu_host *h;
    struct mem_space *mem;
    FILE *f;
    char *buf;
    size_t len;
};

static void cap_open(struct cap *c, uint64_t fifo, uint64_t heap, bool with_mem)
{
    memset(c, 0, sizeof *c);
    c->f = open_memstream(&c->buf, &c->len);
    ck_assert_ptr_nonnull(c->f);
    c->mem = with_mem ? mem_space_create(0) : NULL;
    c->h = emu_host_create(c->f, fifo, heap, c->mem);
    ck_assert_ptr_nonnull(c->h);
}

/* Flushes the FIFO and returns everything written so far (len in c->len). */
static const char *cap_text(struct cap *c)
{
    emu_host_flush(c->h);
    fflush(c->f);
    return c->buf;
}

static void cap_close(struct cap *c)
{
    emu_host_destroy(c->h);
    if (c->mem)
        mem_space_destroy(c->mem);
    fclose(c->f);
    free(c->buf);
}

/* Packs arguments as the device does: each at its natural alignment. `types` has one
 * letter per argument: i int (4 bytes), l long long (8), d double (8), s string, p pointer. */
static size_t vpack(uint8_t *buf, const char *types, va_list ap)
{
    size_t off = 0;
    for (const char *t = types; *t; t++) {
        if (*t == 'i') {
            int v = va_arg(ap, int);
            off = (off + 3) & ~(size_t)3;
            memcpy(buf + off, &v, 4);
            off += 4;
        } else {
            uint64_t v;
            off = (off + 7) & ~(size_t)7;
            if (*t == 'l') {
                long long x = va_arg(ap, long long);
                memcpy(&v, &x, 8);
            } else if (*t == 'd') {
                double x = va_arg(ap, double);
                memcpy(&v, &x, 8);
            } else {
                v = (uint64_t)(uintptr_t)va_arg(ap, const void *);
            }
            memcpy(buf + off, &v, 8);
            off += 8;
        }
    }
    return off;
}

/* Runs one printf through the host and returns its output in out (NUL-terminated,
 * length in *out_len) and its return value. */
static int run_printf(struct cap *c, const char *fmt, const uint8_t *args, size_t size, char *out, size_t cap,
                      size_t *out_len, const char **out_err)
{
    size_t before = c->len;
    int r = emu_host_vprintf(c->h, fmt, args, size, out_err);
    cap_text(c);
    size_t n = c->len - before;
    ck_assert_uint_lt(n, cap);
    memcpy(out, c->buf + before, n);
    out[n] = 0;
    if (out_len)
        *out_len = n;
    return r;
}

/* Checks that the device printf of fmt over the packed arguments prints what the host's
 * vsnprintf prints for the same call, and returns the number of arguments. */
static void check_same(struct cap *c, const char *fmt, const char *types, ...)
{
    char want[4096], got[4096];
    uint8_t args[512];
    va_list ap, ap2;
    va_start(ap, types);
    va_copy(ap2, ap);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
    vsnprintf(want, sizeof want, fmt, ap);
#pragma GCC diagnostic pop
    size_t size = vpack(args, types, ap2);
    va_end(ap2);
    va_end(ap);
    const char *err = NULL;
    int r = run_printf(c, fmt, args, size, got, sizeof got, NULL, &err);
    ck_assert_msg(r == (int)strlen(types), "%s: returned %d, want %zu (%s)", fmt, r, strlen(types),
                  err ? err : "");
    ck_assert_msg(strcmp(got, want) == 0, "format \"%s\": got \"%s\", want \"%s\"", fmt, got, want);
}

/* Checks the output against an explicit expectation (rules where CUDA is not C). */
static void check_text(struct cap *c, const char *fmt, const char *want, int want_ret, const char *types, ...)
{
    char got[4096];
    uint8_t args[512];
    va_list ap;
    va_start(ap, types);
    size_t size = vpack(args, types, ap);
    va_end(ap);
    const char *err = NULL;
    int r = run_printf(c, fmt, args, size, got, sizeof got, NULL, &err);
    ck_assert_msg(r == want_ret, "%s: returned %d, want %d (%s)", fmt, r, want_ret, err ? err : "");
    ck_assert_msg(strcmp(got, want) == 0, "format \"%s\": got \"%s\", want \"%s\"", fmt, got, want);
}

/* ---- printf: conversions against the host --------------------------------------------- */

static const char *const flag_sets[] = { "", "-", "+", " ", "#", "0", "-+", "+0", " 0", "#0", "-#", "-0", "+ " };
static const char *const widths[] = { "", "1", "8", "24" };
static const char *const precs[] = { "", ".", ".0", ".3", ".12" };

START_TEST(pf_int_conversions)
{
    static const char convs[] = "diuoxXc";
    static const int values[] = { 0, 1, -1, 42, 65, 255, 65535, -32769, INT32_MIN, INT32_MAX };
    static const char *const lens[] = { "", "h", "hh" };
    struct cap c;
    cap_open(&c, 0, 0, false);
    char fmt[64];
    for (size_t f = 0; f < sizeof flag_sets / sizeof *flag_sets; f++)
        for (size_t w = 0; w < sizeof widths / sizeof *widths; w++)
            for (size_t p = 0; p < sizeof precs / sizeof *precs; p++)
                for (size_t l = 0; l < 3; l++)
                    for (const char *cv = convs; *cv; cv++) {
                        if (*cv == 'c' && (*lens[l] || *precs[p]))
                            continue;
                        snprintf(fmt, sizeof fmt, "<%%%s%s%s%s%c>", flag_sets[f], widths[w], precs[p], lens[l], *cv);
                        for (size_t v = 0; v < sizeof values / sizeof *values; v++)
                            check_same(&c, fmt, "i", values[v]);
                    }
    cap_close(&c);
}
END_TEST

START_TEST(pf_long_conversions)
{
    static const char convs[] = "diuoxX";
    static const long long values[] = { 0, 1, -1, 5000000000LL, -5000000000LL, INT64_MIN, INT64_MAX, 0x123456789abcLL };
    static const char *const lens[] = { "l", "ll", "z", "j", "t" };
    struct cap c;
    cap_open(&c, 0, 0, false);
    char fmt[64];
    for (size_t f = 0; f < sizeof flag_sets / sizeof *flag_sets; f++)
        for (size_t w = 0; w < sizeof widths / sizeof *widths; w++)
            for (size_t p = 0; p < sizeof precs / sizeof *precs; p++)
                for (size_t l = 0; l < sizeof lens / sizeof *lens; l++)
                    for (const char *cv = convs; *cv; cv++) {
                        snprintf(fmt, sizeof fmt, "[%%%s%s%s%s%c]", flag_sets[f], widths[w], precs[p], lens[l], *cv);
                        for (size_t v = 0; v < sizeof values / sizeof *values; v++)
                            check_same(&c, fmt, "l", values[v]);
                    }
    cap_close(&c);
}
END_TEST

START_TEST(pf_float_conversions)
{
    static const char convs[] = "fFeEgGaA";
    const double values[] = { 0.0, -0.0, 1.0, 0.1, -2.5, 123.456, 1e300, 1e-310, 3.0e-5, 1e20,
                              HUGE_VAL, -HUGE_VAL, NAN, -NAN, 0.5, 9.9999999e5 };
    struct cap c;
    cap_open(&c, 0, 0, false);
    char fmt[64];
    for (size_t f = 0; f < sizeof flag_sets / sizeof *flag_sets; f++)
        for (size_t w = 0; w < sizeof widths / sizeof *widths; w++)
            for (size_t p = 0; p < sizeof precs / sizeof *precs; p++)
                for (const char *cv = convs; *cv; cv++) {
                    snprintf(fmt, sizeof fmt, "(%%%s%s%s%c)", flag_sets[f], widths[w], precs[p], *cv);
                    for (size_t v = 0; v < sizeof values / sizeof *values; v++)
                        check_same(&c, fmt, "d", values[v]);
                }
    /* A float argument arrives promoted to double; 'l' on a floating conversion changes nothing. */
    check_same(&c, "%f %lf %e", "ddd", (double)3.25f, 1.5, 2.0);
    check_text(&c, "%hf|%lf", "1.500000|2.500000", 2, "dd", 1.5, 2.5);
    cap_close(&c);
}
END_TEST

START_TEST(pf_strings_pointers)
{
    struct cap c;
    cap_open(&c, 0, 0, false);
    char fmt[64];
    static const char *const strs[] = { "", "a", "hello", "a longer string of text" };
    for (size_t f = 0; f < sizeof flag_sets / sizeof *flag_sets; f++)
        for (size_t w = 0; w < sizeof widths / sizeof *widths; w++)
            for (size_t p = 0; p < sizeof precs / sizeof *precs; p++) {
                snprintf(fmt, sizeof fmt, "{%%%s%s%ss}", flag_sets[f], widths[w], precs[p]);
                for (size_t s = 0; s < sizeof strs / sizeof *strs; s++)
                    check_same(&c, fmt, "s", strs[s]);
                snprintf(fmt, sizeof fmt, "{%%%s%s%sp}", flag_sets[f], widths[w], precs[p]);
                check_same(&c, fmt, "p", (void *)0);
                check_same(&c, fmt, "p", (void *)0x1234);
                check_same(&c, fmt, "p", (void *)(uintptr_t)0x7f7c23e00200ull);
            }
    /* %p prints as the host's %p: "(nil)" for NULL on glibc, as recorded on an H100. */
    check_text(&c, "%p|%p", "(nil)|0x1234", 2, "pp", (void *)0, (void *)0x1234);
    cap_close(&c);
}
END_TEST

START_TEST(pf_packing)
{
    struct cap c;
    cap_open(&c, 0, 0, false);
    /* Mixed sizes: each argument aligned to its own size inside the buffer. */
    check_same(&c, "%d %f %d %lld %s %c %p %u\n", "idilsipi", 1, 2.5, 3, -4LL, "five", 'x', (void *)0x77, 8u);
    check_same(&c, "%c%c%c%f", "iiid", 'a', 'b', 'c', 0.25);
    check_same(&c, "%hd %hhd %hu %hhu %hx", "iiiii", 70000, 300, 70000, 300, 0x12345);
    check_same(&c, "%x %lx", "il", 0xffffffffu, -1LL);
    check_same(&c, "no arguments at all\n", "");
    check_same(&c, "%%|%c|%5c|%-3c|", "iii", 'A', 'B', 'C');
    cap_close(&c);
}
END_TEST

/* ---- printf: CUDA's rules ------------------------------------------------------------- */

START_TEST(pf_cuda_rules)
{
    struct cap c;
    cap_open(&c, 0, 0, false);
    /* %s of NULL: "(null)", or nothing when a precision below 6 cuts it (host glibc rule,
     * recorded on an H100). */
    check_text(&c, "%s|%.6s|%.5s|%8.6s|%-8s|", "(null)|(null)||  (null)|(null)  |", 5, "sssss",
               (char *)0, (char *)0, (char *)0, (char *)0, (char *)0);
    /* Width from an argument ('*'); a negative one means left-justified. */
    check_text(&c, "%*d|%-*d|%*d|", "   42|43    |44   |", 6, "iiiiii", 5, 42, 6, 43, -5, 44);
    check_text(&c, "%.*f|%.*d|", "3.14|0007|", 4, "idii", 2, 3.14159, 4, 7);
    check_text(&c, "%.*f|", "3.141590|", 2, "id", -1, 3.14159);
    /* "%5%" prints a single '%'. */
    check_text(&c, "%%|%5%|%-3%|", "%|%|%|", 0, "");
    /* Conversions CUDA does not take are printed as they are and take no argument. */
    check_text(&c, "%k %d|", "%k 1|", 1, "ii", 1, 2);
    check_text(&c, "%n|%d", "%n|7", 1, "i", 7);
    check_text(&c, "%5|%d|", "%5|9|", 1, "i", 9);
    check_text(&c, "%Lf|%d", "%Lf|3", 1, "i", 3);
    check_text(&c, "%'d|%1$d|%I64d|%qd|", "%'d|%1$d|%I64d|%qd|", 0, "");
    check_text(&c, "%hhhd|%llld|%ll|%l|%h|", "%hhhd|%llld|%ll|%l|%h|", 0, "");
    check_text(&c, "%C|%S|%m|", "%C|%S|%m|", 0, "");
    check_text(&c, "trailing %", "trailing %", 0, "");
    check_text(&c, "trailing %-08", "trailing %-08", 0, "");
    /* 'l' on %c and %s is ignored: narrow characters. */
    check_text(&c, "%lc|%ls|", "B|wide|", 2, "is", 66, "wide");
    cap_close(&c);
}
END_TEST

START_TEST(pf_max_args)
{
    struct cap c;
    cap_open(&c, 0, 0, false);
    uint8_t args[33 * 8];
    char fmt[256] = "", want[512] = "", got[512];
    for (int i = 0; i < 33; i++) {
        int v = i + 1;
        memcpy(args + 4 * i, &v, 4);
        strcat(fmt, "%d ");
        if (i < 32)
            sprintf(want + strlen(want), "%d ", v);
        else
            strcat(want, "%d ");
    }
    const char *err = NULL;
    /* The 33rd specifier is printed as-is: at most 32 arguments. */
    int r = run_printf(&c, fmt, args, 33 * 4, got, sizeof got, NULL, &err);
    ck_assert_int_eq(r, 32);
    ck_assert_str_eq(got, want);
    /* '*' arguments count toward the 32. */
    char fmt2[256] = "";
    for (int i = 0; i < 31; i++)
        strcat(fmt2, "%d");
    strcat(fmt2, "|%*d|");
    r = run_printf(&c, fmt2, args, 33 * 4, got, sizeof got, NULL, &err);
    ck_assert_int_eq(r, 31);
    ck_assert_ptr_nonnull(strstr(got, "|%*d|"));
    cap_close(&c);
}
END_TEST

START_TEST(pf_errors)
{
    struct cap c;
    cap_open(&c, 0, 0, false);
    const char *err = "untouched";
    /* NULL format: CUDA's printf returns -1; not a fault (no message). */
    ck_assert_int_eq(emu_host_vprintf(c.h, NULL, NULL, 0, &err), -1);
    ck_assert_ptr_null(err);
    /* More conversions than packed arguments, when the caller knows the size. */
    int v = 5;
    err = NULL;
    ck_assert_int_eq(emu_host_vprintf(c.h, "%d %d\n", (const uint8_t *)&v, 4, &err), -1);
    ck_assert_ptr_nonnull(err);
    ck_assert_ptr_nonnull(strstr(err, "more arguments"));
    err = NULL;
    ck_assert_int_eq(emu_host_vprintf(c.h, "%f\n", (const uint8_t *)&v, 4, &err), -1);
    ck_assert_ptr_nonnull(err);
    err = NULL;
    ck_assert_int_eq(emu_host_vprintf(c.h, "%d\n", NULL, 0, &err), -1);
    ck_assert_ptr_nonnull(strstr(err, "none were passed"));
    /* A failed call prints nothing. */
    ck_assert_uint_eq(strlen(cap_text(&c)), 0);
    /* Size 0 means "unknown": the arguments are read as laid out. */
    err = NULL;
    ck_assert_int_eq(emu_host_vprintf(c.h, "%d\n", (const uint8_t *)&v, 0, &err), 1);
    ck_assert_str_eq(cap_text(&c), "5\n");
    cap_close(&c);
}
END_TEST

START_TEST(pf_nul_char)
{
    struct cap c;
    cap_open(&c, 0, 0, false);
    uint8_t args[8] = { 0 };
    char got[16];
    size_t n = 0;
    const char *err = NULL;
    /* %c of 0 writes a NUL byte, as the GPU does. */
    ck_assert_int_eq(run_printf(&c, "a%cb", args, 4, got, sizeof got, &n, &err), 1);
    ck_assert_uint_eq(n, 3);
    ck_assert(memcmp(got, "a\0b", 3) == 0);
    cap_close(&c);
}
END_TEST

START_TEST(pf_string_checks)
{
    struct cap c;
    cap_open(&c, 0, 0, true);
    uint64_t addr;
    ck_assert_int_eq(mem_alloc(c.mem, 8, MEM_DEVICE, NULL, &addr), 0);
    memcpy((void *)(uintptr_t)addr, "devstr", 7);
    uint8_t args[8];
    memcpy(args, &addr, 8);
    const char *err = NULL;
    char got[64];
    ck_assert_int_eq(run_printf(&c, "[%s]", args, 8, got, sizeof got, NULL, &err), 1);
    ck_assert_str_eq(got, "[devstr]");
    /* Not terminated inside its allocation: an error, unless a precision stops first. */
    memset((void *)(uintptr_t)addr, 'x', 8);
    err = NULL;
    ck_assert_int_eq(emu_host_vprintf(c.h, "[%s]", args, 8, &err), -1);
    ck_assert_ptr_nonnull(strstr(err, "NUL-terminated"));
    ck_assert_int_eq(run_printf(&c, "[%.4s]", args, 8, got, sizeof got, NULL, &err), 1);
    ck_assert_str_eq(got, "[xxxx]");
    /* Freed device memory. */
    ck_assert_int_eq(mem_free(c.mem, addr), 0);
    err = NULL;
    ck_assert_int_eq(emu_host_vprintf(c.h, "[%s]", args, 8, &err), -1);
    ck_assert_ptr_nonnull(strstr(err, "freed"));
    /* A page that cannot be read. */
    long page = sysconf(_SC_PAGESIZE);
    void *bad = mmap(NULL, (size_t)page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ck_assert(bad != MAP_FAILED);
    uint64_t b = (uint64_t)(uintptr_t)bad;
    memcpy(args, &b, 8);
    err = NULL;
    ck_assert_int_eq(emu_host_vprintf(c.h, "[%s]", args, 8, &err), -1);
    ck_assert_ptr_nonnull(strstr(err, "readable"));
    munmap(bad, (size_t)page);
    /* Host memory outside the device allocations (shared or local memory) is read. */
    static char local[] = "local";
    b = (uint64_t)(uintptr_t)local;
    memcpy(args, &b, 8);
    ck_assert_int_eq(run_printf(&c, "[%s]", args, 8, got, sizeof got, NULL, &err), 1);
    ck_assert_str_eq(got, "[local]");
    cap_close(&c);
}
END_TEST

/* ---- FIFO ------------------------------------------------------------------------------ */

START_TEST(fifo_overflow)
{
    struct cap c;
    cap_open(&c, 64, 0, false);
    const char *err = NULL;
    /* Ten calls of 10 bytes into 64 bytes: the first six fit, later whole calls are dropped. */
    for (int i = 0; i < 10; i++) {
        int v = i;
        ck_assert_int_eq(emu_host_vprintf(c.h, "line %04d\n", (const uint8_t *)&v, 4, &err), 1);
    }
    /* A short call still fits the remaining 4 bytes (the FIFO fills in order). */
    emu_host_vprintf(c.h, "end\n", NULL, 0, &err);
    ck_assert_str_eq(cap_text(&c),
                     "line 0000\nline 0001\nline 0002\nline 0003\nline 0004\nline 0005\nend\n");
    /* Flushed: room again. A call longer than the whole FIFO is dropped entirely. */
    emu_host_vprintf(c.h, "0123456789012345678901234567890123456789012345678901234567890123456789\n", NULL, 0, &err);
    emu_host_vprintf(c.h, "after\n", NULL, 0, &err);
    size_t before = c.len;
    cap_text(&c);
    ck_assert_str_eq(c.buf + before, "after\n");
    /* A width that could never fit is dropped without formatting it. */
    int w = 1 << 30;
    uint8_t args[8];
    memcpy(args, &w, 4);
    memset(args + 4, 0, 4);
    ck_assert_int_eq(emu_host_vprintf(c.h, "%*d", args, 8, &err), 2);
    before = c.len;
    cap_text(&c);
    ck_assert_uint_eq(c.len, before);
    /* New limits apply to later calls. */
    emu_host_set_limits(c.h, 4, 0);
    emu_host_vprintf(c.h, "12345", NULL, 0, &err);
    emu_host_vprintf(c.h, "1234", NULL, 0, &err);
    before = c.len;
    cap_text(&c);
    ck_assert_str_eq(c.buf + before, "1234");
    cap_close(&c);
}
END_TEST

START_TEST(fifo_flush_on_destroy)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    struct emu_host *h = emu_host_create(f, 0, 0, NULL);
    const char *err = NULL;
    emu_host_vprintf(h, "pending\n", NULL, 0, &err);
    emu_host_destroy(h);
    fflush(f);
    ck_assert_str_eq(buf, "pending\n");
    fclose(f);
    free(buf);
}
END_TEST

START_TEST(fifo_threads)
{
    enum { THREADS = 8, LINES = 2000 };
    struct cap c;
    cap_open(&c, 16u << 20, 0, false);
    /* An atomic total rather than an OpenMP reduction: each thread's last
     * add orders its work before the checks below in a way ThreadSanitizer
     * sees (a reduction's result arrives through libgomp's barrier, which it
     * cannot see into). */
    _Atomic int failures = 0;
#pragma omp parallel for num_threads(THREADS)
    for (int t = 0; t < THREADS; t++) {
        int mine = 0;
        for (int i = 0; i < LINES; i++) {
            uint8_t args[16];
            const char *err = NULL;
            memcpy(args, &t, 4);
            memcpy(args + 4, &i, 4);
            if (emu_host_vprintf(c.h, "thread %d line %d of a printf that is long enough to interleave\n", args, 8,
                                 &err) != 2)
                mine++;
            if (i % 500 == 0 && t == 0)
                emu_host_flush(c.h);
        }
        atomic_fetch_add(&failures, mine);
    }
    ck_assert_int_eq(failures, 0);
    const char *text = cap_text(&c);
    /* Every line is whole, and each thread's lines come in its order. */
    int next[THREADS] = { 0 }, lines = 0;
    for (const char *p = text; *p;) {
        int t, i, n = 0;
        ck_assert_int_eq(sscanf(p, "thread %d line %d of a printf that is long enough to interleave\n%n", &t, &i, &n), 2);
        ck_assert_int_gt(n, 0);
        ck_assert(t >= 0 && t < THREADS);
        ck_assert_int_eq(i, next[t]);
        next[t]++;
        lines++;
        p += n;
    }
    ck_assert_int_eq(lines, THREADS * LINES);
    cap_close(&c);
}
END_TEST

/* ---- Heap ------------------------------------------------------------------------------ */

START_TEST(heap_basic)
{
    struct cap c;
    cap_open(&c, 0, 1 << 20, true);
    uint64_t a = emu_host_malloc(c.h, 1), b = emu_host_malloc(c.h, 24), z = emu_host_malloc(c.h, 0);
    ck_assert(a && b && z);
    ck_assert(a != b && b != z && a != z);
    ck_assert_uint_eq(a % 16, 0);
    ck_assert_uint_eq(b % 16, 0);
    ck_assert_uint_eq(z % 16, 0);
    /* Blocks live in one MEM_HEAP allocation of the device's address space. */
    const struct mem_alloc *m = mem_find(c.mem, a, 1);
    ck_assert_ptr_nonnull(m);
    ck_assert(m->flags & MEM_HEAP);
    ck_assert_ptr_eq(mem_find(c.mem, b, 24), m);
    memset((void *)(uintptr_t)b, 0xab, 24);
    ck_assert_int_eq(emu_host_free(c.h, a), 0);
    ck_assert_int_eq(emu_host_free(c.h, b), 0);
    ck_assert_int_eq(emu_host_free(c.h, z), 0);
    ck_assert_int_eq(emu_host_free(c.h, 0), 0);
    cap_close(&c);
}
END_TEST

START_TEST(heap_invalid_free)
{
    struct cap c;
    cap_open(&c, 0, 1 << 20, true);
    /* Before the heap exists. */
    ck_assert_int_eq(emu_host_free(c.h, 0x1000), -1);
    uint64_t a = emu_host_malloc(c.h, 64);
    ck_assert(a);
    ck_assert_int_eq(emu_host_free(c.h, a + 16), -1);      /* inside a block */
    ck_assert_int_eq(emu_host_free(c.h, a - 16), -1);      /* outside the region */
    ck_assert_int_eq(emu_host_free(c.h, a + 4096), -1);    /* free space */
    ck_assert_int_eq(emu_host_free(c.h, a), 0);
    ck_assert_int_eq(emu_host_free(c.h, a), -1);           /* double free */
    uint64_t stack;
    ck_assert_int_eq(emu_host_free(c.h, (uint64_t)(uintptr_t)&stack), -1);
    cap_close(&c);
}
END_TEST

START_TEST(heap_exhaustion)
{
    enum { HEAP = 1 << 20, BLOCK = 1024 };
    struct cap c;
    cap_open(&c, 0, HEAP, true);
    ck_assert_uint_eq(emu_host_malloc(c.h, HEAP + 1), 0);
    ck_assert_uint_eq(emu_host_malloc(c.h, UINT64_MAX), 0);
    ck_assert_uint_eq(emu_host_malloc(c.h, UINT64_MAX - 8), 0);
    static uint64_t blocks[HEAP / BLOCK + 1];
    unsigned n = 0;
    while (n < HEAP / BLOCK + 1 && (blocks[n] = emu_host_malloc(c.h, BLOCK)) != 0)
        n++;
    /* Out-of-band metadata: the whole heap is usable. */
    ck_assert_uint_eq(n, HEAP / BLOCK);
    ck_assert_uint_eq(emu_host_malloc(c.h, 1), 0);
    /* Free every other block: holes of BLOCK bytes cannot serve 2 * BLOCK. */
    for (unsigned i = 0; i < n; i += 2)
        ck_assert_int_eq(emu_host_free(c.h, blocks[i]), 0);
    ck_assert_uint_eq(emu_host_malloc(c.h, 2 * BLOCK), 0);
    uint64_t again = emu_host_malloc(c.h, BLOCK);
    ck_assert(again);
    ck_assert_int_eq(emu_host_free(c.h, again), 0);
    for (unsigned i = 1; i < n; i += 2)
        ck_assert_int_eq(emu_host_free(c.h, blocks[i]), 0);
    /* Everything merged back: one block of the whole heap. */
    uint64_t all = emu_host_malloc(c.h, HEAP);
    ck_assert(all);
    ck_assert_int_eq(emu_host_free(c.h, all), 0);
    cap_close(&c);
}
END_TEST

START_TEST(heap_limits)
{
    struct cap c;
    cap_open(&c, 0, 4096, true);
    uint64_t a = emu_host_malloc(c.h, 4096);
    ck_assert(a);
    /* A new size waits while blocks are live ... */
    emu_host_set_limits(c.h, 0, 8192);
    ck_assert_uint_eq(emu_host_malloc(c.h, 16), 0);
    ck_assert_int_eq(emu_host_free(c.h, a), 0);
    /* ... and applies once the heap is empty. */
    uint64_t b = emu_host_malloc(c.h, 8192);
    ck_assert(b);
    ck_assert_int_eq(emu_host_free(c.h, b), 0);
    /* After the device memory is reset under it, the heap starts afresh, even when a new
     * allocation took the old region's address. */
    b = emu_host_malloc(c.h, 100);
    ck_assert(b);
    ck_assert_ptr_nonnull(mem_find(c.mem, b, 100));
    uint64_t other;
    mem_reset(c.mem);
    ck_assert_int_eq(mem_alloc(c.mem, 8192, MEM_DEVICE, NULL, &other), 0);
    uint64_t d = emu_host_malloc(c.h, 100);
    ck_assert(d);
    const struct mem_alloc *hd = mem_find(c.mem, d, 100);
    ck_assert_ptr_nonnull(hd);
    ck_assert(hd->flags & MEM_HEAP);
    ck_assert(d < other || d >= other + 8192);
    /* Destroying the host frees its own region only. */
    mem_reset(c.mem);
    ck_assert_int_eq(mem_alloc(c.mem, 8192, MEM_DEVICE, NULL, &other), 0);
    emu_host_destroy(c.h);
    ck_assert_ptr_nonnull(mem_find(c.mem, other, 8192));
    c.h = emu_host_create(c.f, 0, 0, c.mem);
    cap_close(&c);
}
END_TEST

START_TEST(heap_without_mem)
{
    struct cap c;
    cap_open(&c, 0, 0, false);
    uint64_t a = emu_host_malloc(c.h, 8u << 20);
    ck_assert(a);       /* the default heap is 8 MiB */
    ck_assert_uint_eq(emu_host_malloc(c.h, 1), 0);
    ck_assert_int_eq(emu_host_free(c.h, a), 0);
    cap_close(&c);
}
END_TEST

START_TEST(heap_threads)
{
    enum { THREADS = 8, ROUNDS = 20000, KEEP = 64, HEAP = 4 << 20 };
    struct cap c;
    cap_open(&c, 0, HEAP, true);
    _Atomic int total_bad = 0;     /* atomic, not a reduction: see fifo_threads */
#pragma omp parallel num_threads(THREADS)
    {
        int bad = 0;
        uint64_t mine[KEEP] = { 0 };
        uint32_t sizes[KEEP] = { 0 };
        unsigned seed = 12345u + 977u * (unsigned)omp_get_thread_num();
        for (int r = 0; r < ROUNDS; r++) {
            seed = seed * 1103515245u + 12345u;
            unsigned k = (seed >> 8) % KEEP;
            if (mine[k]) {
                /* The block still holds this thread's pattern: no one else got it. */
                const uint8_t *p = (const uint8_t *)(uintptr_t)mine[k];
                uint8_t tag = (uint8_t)(mine[k] >> 4);
                for (uint32_t i = 0; i < sizes[k]; i++)
                    if (p[i] != tag) {
                        bad++;
                        break;
                    }
                if (emu_host_free(c.h, mine[k]) != 0)
                    bad++;
                mine[k] = 0;
            } else {
                uint32_t size = 1 + (seed >> 12) % 3000;
                uint64_t a = emu_host_malloc(c.h, size);
                if (a) {
                    if (a % 16)
                        bad++;
                    memset((void *)(uintptr_t)a, (uint8_t)(a >> 4), size);
                    mine[k] = a;
                    sizes[k] = size;
                }
            }
        }
        for (unsigned k = 0; k < KEEP; k++)
            if (mine[k] && emu_host_free(c.h, mine[k]) != 0)
                bad++;
        atomic_fetch_add(&total_bad, bad);
    }
    ck_assert_int_eq(total_bad, 0);
    /* Everything was freed and merged. */
    uint64_t all = emu_host_malloc(c.h, HEAP);
    ck_assert(all);
    ck_assert_int_eq(emu_host_free(c.h, all), 0);
    cap_close(&c);
}
END_TEST

Suite *emu_host_suite(void);

Suite *emu_host_suite(void)
{
    Suite *s = suite_create("emu_host");
    TCase *tc = tcase_create("printf");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, pf_int_conversions);
    tcase_add_test(tc, pf_long_conversions);
    tcase_add_test(tc, pf_float_conversions);
    tcase_add_test(tc, pf_strings_pointers);
    tcase_add_test(tc, pf_packing);
    tcase_add_test(tc, pf_cuda_rules);
    tcase_add_test(tc, pf_max_args);
    tcase_add_test(tc, pf_errors);
    tcase_add_test(tc, pf_nul_char);
    tcase_add_test(tc, pf_string_checks);
    suite_add_tcase(s, tc);
    tc = tcase_create("fifo");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, fifo_overflow);
    tcase_add_test(tc, fifo_flush_on_destroy);
    tcase_add_test(tc, fifo_threads);
    suite_add_tcase(s, tc);
    tc = tcase_create("heap");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, heap_basic);
    tcase_add_test(tc, heap_invalid_free);
    tcase_add_test(tc, heap_exhaustion);
    tcase_add_test(tc, heap_limits);
    tcase_add_test(tc, heap_without_mem);
    tcase_add_test(tc, heap_threads);
    suite_add_tcase(s, tc);
    return s;
}
