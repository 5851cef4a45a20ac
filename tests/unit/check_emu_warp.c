/* check_emu_warp.c -- end-to-end tests of the warp-level and atomic families: every kernel
 * of tests/edge/warp and tests/edge/atom against outputs recorded on an H100, member-mask
 * checks, and a contended-atomics stress test whose totals the test computes itself. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loom/loom.h"

#ifndef LOOM_SRCDIR
#define LOOM_SRCDIR "."
#endif

#define WARP_DIR LOOM_SRCDIR "/tests/edge/warp"
#define ATOM_DIR LOOM_SRCDIR "/tests/edge/atom"
#define SPEC_MAX_ROWS 64
#define SPEC_MAX_ARGS 32

/* One line of a runs.txt: NAME: FILE.ptx --kernel K --grid X[,Y,Z] --block X[,Y,Z]
 * [--shared N] ARG... (loom run's argument syntax). */
struct spec_row {
    char name[64], ptx[128], kernel[128];
    unsigned grid[3], block[3];
    size_t shared;
    int nargs;
    char args[SPEC_MAX_ARGS][256];
};

struct spec_file {
    const char *dir;
    int nrows;
    struct spec_row rows[SPEC_MAX_ROWS];
};

static struct spec_file warp_specs = { .dir = WARP_DIR };
static struct spec_file atom_specs = { .dir = ATOM_DIR };

Suite *emu_warp_suite(void);

/* Copies src into dst[size], truncating. */
static void spec_copy(char *dst, size_t size, const char *src)
{
    size_t n = strlen(src);
    if (n >= size)
        n = size - 1;
    memcpy(dst, src, n);
    dst[n] = 0;
}

/* The device's last error, cut to what a Check message can carry. */
static const char *spec_err(struct loom_device *dev)
{
    static char buf[1024];
    spec_copy(buf, sizeof buf, loom_device_error(dev));
    return buf;
}

static void spec_dims(const char *s, unsigned d[3])
{
    d[0] = d[1] = d[2] = 1;
    sscanf(s, "%u,%u,%u", &d[0], &d[1], &d[2]);
}

/* Reads dir/runs.txt into f (rows that do not parse are kept with an empty kernel name, so
 * that their test fails and names the line). */
static void spec_load(struct spec_file *f)
{
    char path[512], line[4096];
    snprintf(path, sizeof path, "%s/runs.txt", f->dir);
    f->nrows = 0;
    FILE *in = fopen(path, "r");
    if (!in)
        return;
    while (fgets(line, sizeof line, in) && f->nrows < SPEC_MAX_ROWS) {
        char *hash = strchr(line, '#'), *colon, *tok, *save = NULL;
        if (hash)
            *hash = 0;
        colon = strchr(line, ':');
        if (!colon || strspn(line, " \t\r\n") == strlen(line))
            continue;
        struct spec_row *r = &f->rows[f->nrows++];
        memset(r, 0, sizeof *r);
        *colon = 0;
        spec_copy(r->name, sizeof r->name, line);
        r->grid[0] = r->grid[1] = r->grid[2] = r->block[0] = r->block[1] = r->block[2] = 1;
        for (tok = strtok_r(colon + 1, " \t\r\n", &save); tok; tok = strtok_r(NULL, " \t\r\n", &save)) {
            if (!strcmp(tok, "--kernel") || !strcmp(tok, "--grid") || !strcmp(tok, "--block") ||
                !strcmp(tok, "--shared")) {
                char *v = strtok_r(NULL, " \t\r\n", &save);
                if (!v)
                    break;
                if (tok[2] == 'k')
                    spec_copy(r->kernel, sizeof r->kernel, v);
                else if (tok[2] == 'g')
                    spec_dims(v, r->grid);
                else if (tok[2] == 'b')
                    spec_dims(v, r->block);
                else
                    r->shared = strtoull(v, NULL, 0);
            } else if (!r->ptx[0]) {
                spec_copy(r->ptx, sizeof r->ptx, tok);
            } else if (r->nargs < SPEC_MAX_ARGS) {
                spec_copy(r->args[r->nargs++], sizeof r->args[0], tok);
            }
        }
    }
    fclose(in);
}

static size_t spec_type_size(const char *t)
{
    if (!strcmp(t, "u8") || !strcmp(t, "s8")) return 1;
    if (!strcmp(t, "u16") || !strcmp(t, "s16")) return 2;
    if (!strcmp(t, "u32") || !strcmp(t, "s32") || !strcmp(t, "f32")) return 4;
    if (!strcmp(t, "u64") || !strcmp(t, "s64") || !strcmp(t, "f64")) return 8;
    return 0;
}

/* Stores integer or float value v as type t at dst. */
static void spec_store(void *dst, const char *t, const char *v)
{
    if (!strcmp(t, "f32")) {
        float x = strtof(v, NULL);
        memcpy(dst, &x, 4);
    } else if (!strcmp(t, "f64")) {
        double x = strtod(v, NULL);
        memcpy(dst, &x, 8);
    } else {
        uint64_t x = (uint64_t)strtoll(v, NULL, 0);
        memcpy(dst, &x, spec_type_size(t));
    }
}

/* A buffer argument: kind:type:count[=init][>OUT/file]. */
struct spec_buf {
    bool is_buf;
    char type[8];
    size_t count, bytes;
    char init[200], out[200];       /* init text after '=', output file name after "OUT/" */
    uint64_t dev;
    uint8_t scalar[8];
};

static bool spec_parse_arg(const char *a, struct spec_buf *b)
{
    memset(b, 0, sizeof *b);
    char s[256];
    spec_copy(s, sizeof s, a);
    char *c1 = strchr(s, ':');
    if (!c1)
        return false;
    *c1 = 0;
    if (strcmp(s, "in") && strcmp(s, "out") && strcmp(s, "inout")) {
        if (!spec_type_size(s))
            return false;
        spec_store(b->scalar, s, c1 + 1);
        spec_copy(b->type, sizeof b->type, s);
        return true;
    }
    b->is_buf = true;
    char *type = c1 + 1, *c2 = strchr(type, ':');
    if (!c2)
        return false;
    *c2 = 0;
    spec_copy(b->type, sizeof b->type, type);
    char *rest = c2 + 1, *gt = strchr(rest, '>'), *eq = strchr(rest, '=');
    if (gt) {
        *gt = 0;
        if (strncmp(gt + 1, "OUT/", 4))
            return false;
        spec_copy(b->out, sizeof b->out, gt + 5);
    }
    if (eq) {
        *eq = 0;
        spec_copy(b->init, sizeof b->init, eq + 1);
    }
    b->count = strtoull(rest, NULL, 0);
    b->bytes = b->count * spec_type_size(b->type);
    return spec_type_size(b->type) != 0;
}

/* Host contents of an input buffer. */
static uint8_t *spec_input(const char *dir, const struct spec_buf *b)
{
    uint8_t *h = calloc(1, b->bytes ? b->bytes : 1);
    size_t es = spec_type_size(b->type);
    char num[32];
    ck_assert(h != NULL);
    if (b->init[0] == '@') {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, b->init + 1);
        FILE *f = fopen(path, "rb");
        ck_assert_msg(f != NULL, "cannot open %s", path);
        size_t got = fread(h, 1, b->bytes, f);
        fclose(f);
        ck_assert_msg(got == b->bytes, "%s has %zu bytes, need %zu", path, got, b->bytes);
    } else if (!strncmp(b->init, "fill:", 5)) {
        for (size_t k = 0; k < b->count; k++)
            spec_store(h + k * es, b->type, b->init + 5);
    } else if (!strcmp(b->init, "iota")) {
        for (size_t k = 0; k < b->count; k++) {
            snprintf(num, sizeof num, "%zu", k);
            spec_store(h + k * es, b->type, num);
        }
    }
    return h;
}

/* Reads a whole file; NULL when it does not exist. */
static uint8_t *spec_slurp(const char *path, size_t *out_len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *p = malloc(n > 0 ? (size_t)n : 1);
    ck_assert(p != NULL);
    *out_len = fread(p, 1, (size_t)(n > 0 ? n : 0), f);
    fclose(f);
    return p;
}

static bool spec_recorded(const char *dir, const struct spec_row *r)
{
    int nout = 0;
    for (int a = 0; a < r->nargs; a++) {
        struct spec_buf b;
        char path[512];
        if (!spec_parse_arg(r->args[a], &b) || !b.out[0])
            continue;
        snprintf(path, sizeof path, "%s/expected/%s", dir, b.out);
        FILE *f = fopen(path, "rb");
        if (!f)
            return false;
        fclose(f);
        nout++;
    }
    return nout > 0;
}

/* Runs row r of f under Loom and compares every output with expected/ bit for bit. Rows
 * without a recorded expectation are skipped. */
static void spec_run(const struct spec_file *f, int row)
{
    ck_assert_msg(row < f->nrows, "%s/runs.txt has no row %d", f->dir, row);
    const struct spec_row *r = &f->rows[row];
    if (!spec_recorded(f->dir, r)) {
        fprintf(stderr, "%s/runs.txt: %s: no recorded expectation, skipped\n", f->dir, r->name);
        return;
    }
    ck_assert_msg(r->kernel[0] && r->ptx[0], "%s: row does not parse", r->name);
    struct loom_device *dev;
    ck_assert_int_eq(loom_device_create(NULL, &dev), LOOM_OK);
    char path[512];
    snprintf(path, sizeof path, "%s/%s", f->dir, r->ptx);
    struct loom_module *mod;
    enum loom_status st = loom_module_load_file(dev, path, &mod);
    ck_assert_msg(st == LOOM_OK, "%s: loading %s: %s", r->name, path, spec_err(dev));
    struct loom_kernel *k;
    ck_assert_msg(loom_module_get_kernel(mod, r->kernel, &k) == LOOM_OK, "%s: no kernel %s", r->name, r->kernel);

    struct spec_buf bufs[SPEC_MAX_ARGS];
    void *args[SPEC_MAX_ARGS];
    for (int a = 0; a < r->nargs; a++) {
        struct spec_buf *b = &bufs[a];
        ck_assert_msg(spec_parse_arg(r->args[a], b), "%s: bad argument %s", r->name, r->args[a]);
        if (!b->is_buf) {
            args[a] = b->scalar;
            continue;
        }
        ck_assert_int_eq(loom_malloc(dev, b->bytes ? b->bytes : 1, &b->dev), LOOM_OK);
        uint8_t *h = spec_input(f->dir, b);
        ck_assert_int_eq(loom_memcpy(dev, (void *)(uintptr_t)b->dev, h, b->bytes), LOOM_OK);
        free(h);
        args[a] = &b->dev;
    }
    struct loom_launch_config cfg = {
        .grid = { r->grid[0], r->grid[1], r->grid[2] },
        .block = { r->block[0], r->block[1], r->block[2] },
        .shared_bytes = r->shared,
    };
    st = loom_launch(dev, k, &cfg, args);
    if (st == LOOM_OK)
        st = loom_synchronize(dev);
    ck_assert_msg(st == LOOM_OK, "%s: %s", r->name, spec_err(dev));

    for (int a = 0; a < r->nargs; a++) {
        const struct spec_buf *b = &bufs[a];
        if (!b->is_buf || !b->out[0])
            continue;
        size_t elen = 0, es = spec_type_size(b->type);
        snprintf(path, sizeof path, "%s/expected/%s", f->dir, b->out);
        uint8_t *want = spec_slurp(path, &elen), *got = malloc(b->bytes ? b->bytes : 1);
        ck_assert(want != NULL && got != NULL);
        ck_assert_int_eq(loom_memcpy(dev, got, (void *)(uintptr_t)b->dev, b->bytes), LOOM_OK);
        ck_assert_msg(elen == b->bytes, "%s: %s holds %zu bytes, the buffer %zu", r->name, path, elen, b->bytes);
        for (size_t i = 0; i < b->count; i++) {
            uint64_t e = 0, g = 0;
            memcpy(&e, want + i * es, es);
            memcpy(&g, got + i * es, es);
            ck_assert_msg(e == g, "%s: %s element %zu: expected 0x%llx, got 0x%llx", r->name, b->out, i,
                          (unsigned long long)e, (unsigned long long)g);
        }
        free(want);
        free(got);
    }
    loom_device_destroy(dev);
}

START_TEST(test_warp_row)
{
    spec_run(&warp_specs, _i);
}
END_TEST

START_TEST(test_atom_row)
{
    spec_run(&atom_specs, _i);
}
END_TEST

/* A folder whose kernels have no recorded expectation at all tests nothing: fail. */
START_TEST(test_recorded)
{
    const struct spec_file *fs[2] = { &warp_specs, &atom_specs };
    for (int i = 0; i < 2; i++) {
        int have = 0;
        ck_assert_msg(fs[i]->nrows > 0, "%s/runs.txt is missing or empty", fs[i]->dir);
        for (int r = 0; r < fs[i]->nrows; r++)
            have += spec_recorded(fs[i]->dir, &fs[i]->rows[r]);
        ck_assert_msg(have > 0, "%s: no recorded expectation (run the kernels on a GPU)", fs[i]->dir);
    }
}
END_TEST

/* ---- Member masks ------------------------------------------------------------------- */

/* Loads dir/file, launches kernel on one block of `threads` with a zeroed u32 buffer of n
 * elements, copies it back into out; returns the launch status. */
static enum loom_status mm_launch(struct loom_device *dev, const char *file, const char *kernel,
                                  unsigned threads, uint32_t *out, size_t n)
{
    struct loom_module *mod;
    struct loom_kernel *k;
    uint64_t buf;
    ck_assert_msg(loom_module_load_file(dev, file, &mod) == LOOM_OK, "%s", spec_err(dev));
    ck_assert_int_eq(loom_module_get_kernel(mod, kernel, &k), LOOM_OK);
    ck_assert_int_eq(loom_malloc(dev, n * 4, &buf), LOOM_OK);
    ck_assert_int_eq(loom_memset(dev, buf, 0, n * 4), LOOM_OK);
    void *args[] = { &buf };
    struct loom_launch_config cfg = { .grid = { 1, 1, 1 }, .block = { threads, 1, 1 } };
    enum loom_status st = loom_launch(dev, k, &cfg, args);
    if (st == LOOM_OK)
        st = loom_synchronize(dev);
    if (st == LOOM_OK)
        ck_assert_int_eq(loom_memcpy(dev, out, (void *)(uintptr_t)buf, n * 4), LOOM_OK);
    return st;
}

/* Odd lanes run shfl.sync naming all lanes while the even lanes are on the other path. */
START_TEST(test_membermask_diverged)
{
    struct loom_device *dev;
    uint32_t out[32];
    ck_assert_int_eq(loom_device_create(NULL, &dev), LOOM_OK);
    enum loom_status st = mm_launch(dev, WARP_DIR "/membermask.ptx", "mm_diverged", 32, out, 32);
    ck_assert_int_eq(st, LOOM_ERR_LAUNCH_FAILED);
    const char *msg = spec_err(dev);
    ck_assert_msg(strstr(msg, "not converged") && strstr(msg, "0xffffffff") && strstr(msg, "0x55555555"),
                  "report: %s", msg);
    loom_device_destroy(dev);
}
END_TEST

/* Lanes 16..31 exit; the rest name all 32 lanes: exited lanes count as absent. */
START_TEST(test_membermask_exited)
{
    struct loom_device *dev;
    uint32_t out[64];
    ck_assert_int_eq(loom_device_create(NULL, &dev), LOOM_OK);
    enum loom_status st = mm_launch(dev, WARP_DIR "/membermask.ptx", "mm_exited", 32, out, 64);
    ck_assert_msg(st == LOOM_OK, "%s", spec_err(dev));
    for (unsigned i = 0; i < 32; i++) {
        ck_assert_uint_eq(out[i], i < 15 ? i + 1 : i == 15 ? 15 : 0);
        ck_assert_uint_eq(out[32 + i], i < 16 ? 0xAAAAu : 0);
    }
    loom_device_destroy(dev);
}
END_TEST

/* ---- Contended atomics ---------------------------------------------------------------
 * stress.ptx on GRID x BLOCK threads, ITERS times each, on four workers. */
#define STRESS_GRID 256u
#define STRESS_BLOCK 256u
#define STRESS_ITERS 16u

START_TEST(test_stress)
{
    struct loom_device_config cfg = { .workers = 4 };
    struct loom_device *dev;
    struct loom_module *mod;
    struct loom_kernel *k;
    uint64_t buf;
    uint8_t c[40];
    uint32_t iters = STRESS_ITERS;
    const uint64_t n = (uint64_t)STRESS_GRID * STRESS_BLOCK, total = n * STRESS_ITERS;
    ck_assert_int_eq(loom_device_create(&cfg, &dev), LOOM_OK);
    ck_assert_msg(loom_module_load_file(dev, ATOM_DIR "/stress.ptx", &mod) == LOOM_OK, "%s", spec_err(dev));
    ck_assert_int_eq(loom_module_get_kernel(mod, "stress", &k), LOOM_OK);
    ck_assert_int_eq(loom_malloc(dev, sizeof c, &buf), LOOM_OK);
    ck_assert_int_eq(loom_memset(dev, buf, 0, sizeof c), LOOM_OK);
    void *args[] = { &buf, &iters };
    struct loom_launch_config lc = { .grid = { STRESS_GRID, 1, 1 }, .block = { STRESS_BLOCK, 1, 1 } };
    enum loom_status st = loom_launch(dev, k, &lc, args);
    if (st == LOOM_OK)
        st = loom_synchronize(dev);
    ck_assert_msg(st == LOOM_OK, "%s", spec_err(dev));
    ck_assert_int_eq(loom_memcpy(dev, c, (void *)(uintptr_t)buf, sizeof c), LOOM_OK);
    uint32_t u0, u16, u24, u28, u32;
    uint64_t u8;
    float f20;
    memcpy(&u0, c, 4);
    memcpy(&u8, c + 8, 8);
    memcpy(&u16, c + 16, 4);
    memcpy(&f20, c + 20, 4);
    memcpy(&u24, c + 24, 4);
    memcpy(&u28, c + 28, 4);
    memcpy(&u32, c + 32, 4);
    ck_assert_uint_eq(u0, total);
    ck_assert_uint_eq(u8, (uint64_t)STRESS_ITERS * (n * (n - 1) / 2));
    ck_assert_uint_eq(u16, total);
    ck_assert_msg(f20 == (float)total, "f32 sum %.1f, want %llu", (double)f20, (unsigned long long)total);
    ck_assert_uint_eq(u24, total);
    ck_assert_uint_eq(u28, total - 1);
    ck_assert_uint_eq(u32, total);
    loom_device_destroy(dev);
}
END_TEST

Suite *emu_warp_suite(void)
{
    Suite *s = suite_create("emu_warp");
    spec_load(&warp_specs);
    spec_load(&atom_specs);

    TCase *tc = tcase_create("recorded");
    tcase_add_test(tc, test_recorded);
    suite_add_tcase(s, tc);

    tc = tcase_create("warp_kernels");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_warp_row, 0, warp_specs.nrows > 0 ? warp_specs.nrows : 1);
    suite_add_tcase(s, tc);

    tc = tcase_create("atom_kernels");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_atom_row, 0, atom_specs.nrows > 0 ? atom_specs.nrows : 1);
    suite_add_tcase(s, tc);

    tc = tcase_create("membermask");
    tcase_add_test(tc, test_membermask_diverged);
    tcase_add_test(tc, test_membermask_exited);
    suite_add_tcase(s, tc);

    tc = tcase_create("stress");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_stress);
    suite_add_tcase(s, tc);
    return s;
}
