/* check_emu_float.c -- end-to-end tests of the f32/f64, half-precision and cvt families: every
 * kernel of tests/edge/float/runs.txt through the public API against outputs an H100 gave. */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loom/loom.h"

#ifndef LOOM_SRCDIR
#define LOOM_SRCDIR "."
#endif

#define FLOAT_DIR LOOM_SRCDIR "/tests/edge/float"
#define MAX_ROWS 160
#define MAX_ARGS 64

Suite *emu_float_suite(void);

/* One row of runs.txt (format: tests/edge/float/gen.py's header):
 *   NAME: FILE.ptx --kernel K --grid X --block X ARG...  [# approx TOL... fmt=F]
 * ARG is in:TYPE:COUNT=@FILE, in:TYPE:COUNT=iota or out:TYPE:COUNT>OUT/FILE. Rows
 * marked approx compare within the tolerance instead of bit for bit. */
struct float_row {
    char name[64], ptx[128], kernel[128];
    unsigned grid, block;
    int nargs;
    char *args[MAX_ARGS];
    bool approx;
    double ulp, abs, rel;         /* tolerances; 0 = not given */
    char fmt[8];                  /* f32 f64 f16 bf16 f16x2 bf16x2 */
};

static struct float_row rows[MAX_ROWS];
static int nrows;

static void parse_approx(struct float_row *r, char *comment)
{
    char *save = NULL;
    char *tok = strtok_r(comment, " ", &save);
    if (!tok || strcmp(tok, "approx") != 0)
        return;
    r->approx = true;
    while ((tok = strtok_r(NULL, " ", &save))) {
        if (strncmp(tok, "ulp=", 4) == 0)
            r->ulp = strtod(tok + 4, NULL);
        else if (strncmp(tok, "abs=", 4) == 0)
            r->abs = strtod(tok + 4, NULL);
        else if (strncmp(tok, "rel=", 4) == 0)
            r->rel = strtod(tok + 4, NULL);
        else if (strncmp(tok, "fmt=", 4) == 0)
            snprintf(r->fmt, sizeof r->fmt, "%s", tok + 4);
    }
}

/* Reads runs.txt once; a line that does not parse keeps an empty kernel name so
 * that its test fails and names the line. */
static void load_rows(void)
{
    static char text[1 << 17];
    FILE *f = fopen(FLOAT_DIR "/runs.txt", "r");
    if (!f)
        return;
    size_t len = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[len] = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line && nrows < MAX_ROWS; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#' || line[0] == 0)
            continue;
        struct float_row *r = &rows[nrows++];
        char *hash = strchr(line, '#'), *colon = strchr(line, ':'), *tok, *ts = NULL;
        if (hash) {
            *hash = 0;
            parse_approx(r, hash + 1);
        }
        if (!colon)
            continue;
        *colon = 0;
        snprintf(r->name, sizeof r->name, "%s", line);
        for (tok = strtok_r(colon + 1, " ", &ts); tok; tok = strtok_r(NULL, " ", &ts)) {
            if (strcmp(tok, "--kernel") == 0 && (tok = strtok_r(NULL, " ", &ts)))
                snprintf(r->kernel, sizeof r->kernel, "%s", tok);
            else if (strcmp(tok, "--grid") == 0 && (tok = strtok_r(NULL, " ", &ts)))
                r->grid = (unsigned)strtoul(tok, NULL, 0);
            else if (strcmp(tok, "--block") == 0 && (tok = strtok_r(NULL, " ", &ts)))
                r->block = (unsigned)strtoul(tok, NULL, 0);
            else if (!r->ptx[0])
                snprintf(r->ptx, sizeof r->ptx, "%s", tok);
            else if (r->nargs < MAX_ARGS)
                r->args[r->nargs++] = tok;
        }
    }
}

static size_t type_size(const char *t)
{
    return t[1] == '8' ? 1 : t[1] == '1' ? 2 : t[1] == '3' ? 4 : 8;
}

/* Reads FLOAT_DIR/name; NULL when missing or not exactly size bytes. */
static void *read_file(const char *name, size_t size)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", FLOAT_DIR, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    void *buf = malloc(size ? size : 1);
    size_t got = buf ? fread(buf, 1, size, f) : 0;
    int extra = fgetc(f);
    fclose(f);
    if (got != size || extra != EOF) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* The expected/ file of an out:TYPE:COUNT>OUT/FILE argument, or NULL. */
static const char *out_file(const char *arg)
{
    const char *p = strstr(arg, ">OUT/");
    return strncmp(arg, "out:", 4) == 0 && p ? p + 5 : NULL;
}

static bool row_recorded(const struct float_row *r)
{
    bool any = false;
    for (int i = 0; i < r->nargs; i++) {
        const char *f = out_file(r->args[i]);
        if (!f)
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s/expected/%s", FLOAT_DIR, f);
        FILE *fp = fopen(path, "rb");
        if (!fp)
            return false;
        fclose(fp);
        any = true;
    }
    return any;
}

/* ---- Approximate comparison ---------------------------------------------------
 * Decodes one element of format fmt; *ulp receives the unit in the last place
 * at the value (subnormal spacing below the normal range). */
static double decode(uint64_t bits, const char *fmt, double *ulp)
{
    double v;
    int man, emin;
    if (strcmp(fmt, "f64") == 0) {
        memcpy(&v, &bits, 8);
        man = 52, emin = -1022;
    } else if (strcmp(fmt, "f32") == 0) {
        uint32_t b = (uint32_t)bits;
        float f;
        memcpy(&f, &b, 4);
        v = f;
        man = 23, emin = -126;
    } else if (strcmp(fmt, "bf16") == 0) {
        uint32_t b = (uint32_t)(bits & 0xFFFF) << 16;
        float f;
        memcpy(&f, &b, 4);
        v = f;
        man = 7, emin = -126;
    } else {                                            /* f16 */
        unsigned h = (unsigned)(bits & 0xFFFF), e = (h >> 10) & 0x1F, m = h & 0x3FF;
        v = e == 0x1F ? (m ? NAN : INFINITY) : e ? ldexp(1024 + m, (int)e - 25) : ldexp(m, -24);
        v = (h & 0x8000) ? -v : v;
        man = 10, emin = -14;
    }
    int e = emin;
    if (isfinite(v) && v != 0) {
        frexp(v, &e);
        e = e - 1 < emin ? emin : e - 1;
    }
    *ulp = ldexp(1.0, e - man);
    return v;
}

/* Loom's element against the GPU's: NaN and infinite GPU results must match
 * exactly; otherwise the difference must be within one of the row's bounds. */
static bool within(const struct float_row *r, uint64_t got, uint64_t want, const char *fmt)
{
    if (got == want)
        return true;
    double ulp, dummy;
    double g = decode(got, fmt, &dummy), w = decode(want, fmt, &ulp);
    if (!isfinite(w) || !isfinite(g))
        return false;
    double d = fabs(g - w);
    return (r->ulp > 0 && d <= r->ulp * ulp) || (r->abs > 0 && d <= r->abs) || (r->rel > 0 && d <= r->rel * fabs(w));
}

static bool element_ok(const struct float_row *r, uint64_t got, uint64_t want)
{
    if (!r->approx)
        return got == want;
    if (strcmp(r->fmt, "f16x2") == 0 || strcmp(r->fmt, "bf16x2") == 0) {
        const char *half = r->fmt[0] == 'b' ? "bf16" : "f16";
        return within(r, got & 0xFFFF, want & 0xFFFF, half) && within(r, got >> 16 & 0xFFFF, want >> 16 & 0xFFFF, half);
    }
    return within(r, got, want, r->fmt);
}

/* Runs one kernel of runs.txt and compares every output with expected/. */
START_TEST(test_edge_kernel)
{
    ck_assert_msg(_i < nrows, "no row %d in runs.txt", _i);
    const struct float_row *r = &rows[_i];
    ck_assert_msg(r->kernel[0] && r->ptx[0] && r->grid && r->block, "runs.txt row %s does not parse", r->name);
    ck_assert_msg(!r->approx || r->fmt[0], "%s: approx row without fmt=", r->name);
    if (!row_recorded(r))
        return;   /* not recorded on a GPU yet */

    struct loom_device *dev;
    ck_assert_int_eq(loom_device_create(NULL, &dev), LOOM_OK);
    char path[512];
    snprintf(path, sizeof path, "%s/%s", FLOAT_DIR, r->ptx);
    struct loom_module *mod;
    enum loom_status st = loom_module_load_file(dev, path, &mod);
    ck_assert_msg(st == LOOM_OK, "%s: %.900s", r->name, loom_device_error(dev));
    struct loom_kernel *k;
    ck_assert_int_eq(loom_module_get_kernel(mod, r->kernel, &k), LOOM_OK);

    uint64_t addr[MAX_ARGS] = { 0 };
    size_t bytes[MAX_ARGS] = { 0 };
    void *params[MAX_ARGS];
    for (int i = 0; i < r->nargs; i++) {
        const char *a = r->args[i];
        bool in = strncmp(a, "in:", 3) == 0, out = strncmp(a, "out:", 4) == 0;
        ck_assert_msg(in || out, "%s: unexpected argument %s", r->name, a);
        const char *t = a + (in ? 3 : 4);
        size_t count = strtoull(strchr(t, ':') + 1, NULL, 0), es = type_size(t);
        bytes[i] = count * es;
        ck_assert_int_eq(loom_malloc(dev, bytes[i], &addr[i]), LOOM_OK);
        if (in && strstr(a, "=iota")) {
            uint8_t *data = malloc(bytes[i]);
            ck_assert_ptr_nonnull(data);
            for (size_t e = 0; e < count; e++) {
                uint64_t v = e;
                memcpy(data + e * es, &v, es);   /* little-endian host */
            }
            ck_assert_int_eq(loom_memcpy(dev, (void *)(uintptr_t)addr[i], data, bytes[i]), LOOM_OK);
            free(data);
        } else if (in) {
            const char *at = strstr(a, "=@");
            ck_assert_msg(at != NULL, "%s: input %s is neither =@FILE nor =iota", r->name, a);
            void *data = read_file(at + 2, bytes[i]);
            ck_assert_msg(data != NULL, "%s: input %s missing or of the wrong size", r->name, at + 2);
            ck_assert_int_eq(loom_memcpy(dev, (void *)(uintptr_t)addr[i], data, bytes[i]), LOOM_OK);
            free(data);
        } else {
            ck_assert_int_eq(loom_memset(dev, addr[i], 0, bytes[i]), LOOM_OK);
        }
        params[i] = &addr[i];
    }
    struct loom_launch_config cfg = { .grid = { r->grid, 1, 1 }, .block = { r->block, 1, 1 } };
    st = loom_launch(dev, k, &cfg, params);
    if (st == LOOM_OK)
        st = loom_synchronize(dev);
    ck_assert_msg(st == LOOM_OK, "%s: %.900s", r->name, loom_device_error(dev));

    for (int i = 0; i < r->nargs; i++) {
        const char *f = out_file(r->args[i]);
        if (!f)
            continue;
        char ename[256];
        snprintf(ename, sizeof ename, "expected/%s", f);
        uint8_t *want = read_file(ename, bytes[i]), *got = malloc(bytes[i]);
        ck_assert_msg(want != NULL, "%s: %s missing or of the wrong size", r->name, ename);
        ck_assert_ptr_nonnull(got);
        ck_assert_int_eq(loom_memcpy(dev, got, (void *)(uintptr_t)addr[i], bytes[i]), LOOM_OK);
        size_t es = type_size(r->args[i] + 4);
        for (size_t e = 0; e < bytes[i]; e += es) {
            uint64_t wv = 0, gv = 0;
            memcpy(&wv, want + e, es);
            memcpy(&gv, got + e, es);
            if (!element_ok(r, gv, wv))
                ck_abort_msg("%s: %s element %zu: got 0x%llx, the H100 gave 0x%llx%s", r->name, f, e / es,
                             (unsigned long long)gv, (unsigned long long)wv, r->approx ? " (beyond the bound)" : "");
        }
        free(want);
        free(got);
    }
    loom_device_destroy(dev);
}
END_TEST

/* The suite must compare something: at least one row has recorded outputs. */
START_TEST(test_recordings_exist)
{
    int recorded = 0;
    for (int i = 0; i < nrows; i++)
        recorded += row_recorded(&rows[i]);
    ck_assert_msg(nrows > 0, "no rows in %s/runs.txt", FLOAT_DIR);
    ck_assert_msg(recorded > 0, "no row of %s/runs.txt has recorded outputs in expected/", FLOAT_DIR);
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
    load_rows();
    Suite *s = suite_create("emu_float");
    TCase *tc = tcase_create("edge_kernels");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_recordings_exist);
    tcase_add_loop_test(tc, test_edge_kernel, 0, nrows);
    suite_add_tcase(s, tc);
    TCase *tr = tcase_create("refusals");
    tcase_add_test(tr, test_refused_by_name);
    suite_add_tcase(s, tr);
    return s;
}
