/* edge_runner.c -- the runs.txt edge kernels for the Check suites: parses the rows (loom run's
 * argument syntax), runs one through the public API and compares its outputs with expected/. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loom/loom.h"
#include "tests/unit/edge_runner.h"

/* ---- Arguments ------------------------------------------------------------------------ */

static const struct edge_type {
    const char *name;
    unsigned size;
    char kind;                      /* 'u' unsigned, 's' signed, 'f' floating */
} edge_types[] = {
    { "u8", 1, 'u' }, { "u16", 2, 'u' }, { "u32", 4, 'u' }, { "u64", 8, 'u' },
    { "s8", 1, 's' }, { "s16", 2, 's' }, { "s32", 4, 's' }, { "s64", 8, 's' },
    { "f32", 4, 'f' }, { "f64", 8, 'f' },
};

enum edge_kind { EDGE_SCALAR, EDGE_IN, EDGE_OUT, EDGE_INOUT };
enum edge_init { EDGE_INIT_NONE, EDGE_INIT_FILE, EDGE_INIT_ZERO, EDGE_INIT_FILL, EDGE_INIT_IOTA };

struct edge_arg {
    enum edge_kind kind;
    const struct edge_type *type;
    size_t count;
    enum edge_init init;
    uint8_t value[8];               /* the scalar or the fill value, little-endian */
    char *in_path, *out_path;       /* =@FILE; FILE of >OUT/FILE */
};

static const struct edge_type *edge_type_find(const char *s, size_t len)
{
    for (size_t i = 0; i < sizeof edge_types / sizeof edge_types[0]; i++)
        if (strlen(edge_types[i].name) == len && strncmp(edge_types[i].name, s, len) == 0)
            return &edge_types[i];
    return NULL;
}

/* Records why row r does not parse (the first reason only) and returns false. */
static bool edge_bad(struct edge_row *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool edge_bad(struct edge_row *r, const char *fmt, ...)
{
    if (!r->error[0]) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->error, sizeof r->error, fmt, ap);
        va_end(ap);
    }
    return false;
}

/* Memory for the rows, which live as long as the process: running out ends it. */
static void *edge_realloc(void *p, size_t size)
{
    p = realloc(p, size ? size : 1);
    if (!p) {
        fprintf(stderr, "edge_runner: out of memory\n");
        abort();
    }
    return p;
}

static char *edge_strndup(const char *s, size_t n)
{
    char *p = edge_realloc(NULL, n + 1);
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

/* Parses s as a value of type t into out (little-endian, zero-padded): integers with base
 * 0 and within the type's range, floating values through strtod (f32 rounded from the
 * double), as loom run reads them. The whole text must be the number. */
static bool edge_value(const struct edge_type *t, const char *s, uint8_t out[8])
{
    char *end;
    unsigned bits = t->size * 8;
    memset(out, 0, 8);
    if (!*s || *s == ' ')
        return false;
    errno = 0;
    if (t->kind == 'f') {
        double d = strtod(s, &end);
        if (*end || (errno == ERANGE && isinf(d)) || (t->size == 4 && !isinf(d) && fabs(d) >= 0x1.ffffffp+127))
            return false;               /* (the last: beyond f32's range, even rounded) */
        float x = (float)d;
        memcpy(out, t->size == 4 ? (const void *)&x : (const void *)&d, t->size);
        return true;
    }
    if (t->kind == 'u') {
        unsigned long long v = strtoull(s, &end, 0);
        if (*s == '-' || *end || errno == ERANGE || (bits < 64 && v >> bits))
            return false;
        memcpy(out, &v, t->size);
        return true;
    }
    long long v = strtoll(s, &end, 0);
    long long lo = bits < 64 ? -(1LL << (bits - 1)) : LLONG_MIN, hi = bits < 64 ? (1LL << (bits - 1)) - 1 : LLONG_MAX;
    if (*end || errno == ERANGE || v < lo || v > hi)
        return false;
    memcpy(out, &v, t->size);
    return true;
}

/* The =INIT part of a buffer argument (s up to '>' or the end, len bytes). */
static bool edge_parse_init(struct edge_row *r, const char *text, const char *s, size_t len, struct edge_arg *a)
{
    if (len > 1 && s[0] == '@') {
        a->init = EDGE_INIT_FILE;
        a->in_path = edge_strndup(s + 1, len - 1);
    } else if (len == 4 && strncmp(s, "zero", 4) == 0) {
        a->init = EDGE_INIT_ZERO;
    } else if (len == 4 && strncmp(s, "iota", 4) == 0) {
        a->init = EDGE_INIT_IOTA;
    } else if (len > 5 && strncmp(s, "fill:", 5) == 0) {
        char *v = edge_strndup(s + 5, len - 5);
        bool ok = edge_value(a->type, v, a->value);
        free(v);
        if (!ok)
            return edge_bad(r, "argument '%s': the fill value is not a valid %s", text, a->type->name);
        a->init = EDGE_INIT_FILL;
    } else {
        return edge_bad(r, "argument '%s': unknown initialiser (=@FILE, =zero, =fill:VALUE or =iota)", text);
    }
    return true;
}

/* One argument (see edge_runner.h); on failure the reason goes to r->error. */
static bool edge_parse_arg(struct edge_row *r, const char *text, struct edge_arg *a)
{
    memset(a, 0, sizeof *a);
    const char *colon = strchr(text, ':');
    if (!colon)
        return edge_bad(r, "argument '%s': expected TYPE:VALUE or in/out/inout:TYPE:COUNT...", text);
    size_t klen = (size_t)(colon - text);
    if (klen == 2 && strncmp(text, "in", 2) == 0)
        a->kind = EDGE_IN;
    else if (klen == 3 && strncmp(text, "out", 3) == 0)
        a->kind = EDGE_OUT;
    else if (klen == 5 && strncmp(text, "inout", 5) == 0)
        a->kind = EDGE_INOUT;
    else
        a->kind = EDGE_SCALAR;
    if (a->kind == EDGE_SCALAR) {
        a->type = edge_type_find(text, klen);
        if (!a->type || !edge_value(a->type, colon + 1, a->value))
            return edge_bad(r, "argument '%s': not a valid TYPE:VALUE", text);
        return true;
    }
    const char *tp = colon + 1, *c2 = strchr(tp, ':');
    if (!c2 || !(a->type = edge_type_find(tp, (size_t)(c2 - tp))))
        return edge_bad(r, "argument '%s': expected a type u8..u64, s8..s64, f32 or f64", text);
    char *end;
    errno = 0;
    unsigned long long count = strtoull(c2 + 1, &end, 10);
    if (c2[1] < '0' || c2[1] > '9' || (*end && *end != '=' && *end != '>') || errno || count == 0 ||
        count > (1ull << 36))
        return edge_bad(r, "argument '%s': not a valid COUNT", text);
    a->count = (size_t)count;
    const char *gt = strchr(end, '>');
    if (*end == '=' && !edge_parse_init(r, text, end + 1, gt ? (size_t)(gt - end - 1) : strlen(end + 1), a))
        return false;
    if (gt) {
        if (strncmp(gt + 1, "OUT/", 4) != 0 || !gt[5])
            return edge_bad(r, "argument '%s': the output must be >OUT/FILE", text);
        a->out_path = edge_strndup(gt + 5, strlen(gt + 5));
    }
    if (a->kind != EDGE_OUT && a->init == EDGE_INIT_NONE)
        return edge_bad(r, "argument '%s': an in or inout buffer needs =@FILE, =zero, =fill:VALUE or =iota", text);
    if (a->kind == EDGE_OUT && a->init != EDGE_INIT_NONE)
        return edge_bad(r, "argument '%s': an out buffer takes no initialiser (use inout)", text);
    if ((a->kind == EDGE_IN) == (a->out_path != NULL))
        return edge_bad(r, "argument '%s': out and inout buffers need >OUT/FILE, in buffers none", text);
    return true;
}

/* ---- Rows ----------------------------------------------------------------------------- */

/* The text of a `# ...` comment: `approx` and its bounds, or anything else (ignored). */
static void edge_parse_approx(struct edge_row *r, char *comment)
{
    char *save = NULL, *tok = strtok_r(comment, " \t\r", &save);
    if (!tok || strcmp(tok, "approx") != 0)
        return;
    r->approx.on = true;
    while ((tok = strtok_r(NULL, " \t\r", &save))) {
        double *bound = strncmp(tok, "ulp=", 4) == 0 ? &r->approx.ulp : strncmp(tok, "abs=", 4) == 0 ? &r->approx.abs
                      : strncmp(tok, "rel=", 4) == 0 ? &r->approx.rel : NULL;
        char *end;
        if (bound) {
            *bound = strtod(tok + 4, &end);
            if (end == tok + 4 || *end || !(*bound > 0))
                edge_bad(r, "'# approx': '%s' is not a positive bound", tok);
        } else if (strncmp(tok, "fmt=", 4) == 0) {
            snprintf(r->approx.fmt, sizeof r->approx.fmt, "%s", tok + 4);
        } else {
            edge_bad(r, "'# approx': unknown '%s' (ulp= abs= rel= fmt=)", tok);
        }
    }
    static const char *const fmts[] = { "f32", "f64", "f16", "bf16", "f16x2", "bf16x2" };
    bool known = false;
    for (size_t i = 0; i < sizeof fmts / sizeof fmts[0]; i++)
        known |= strcmp(r->approx.fmt, fmts[i]) == 0;
    if (!r->approx.fmt[0])
        edge_bad(r, "approx row without fmt=");
    else if (!known)
        edge_bad(r, "'# approx': unknown fmt=%s (f32 f64 f16 bf16 f16x2 bf16x2)", r->approx.fmt);
}

/* X[,Y[,Z]]: one to three decimal numbers of at least 1. */
static bool edge_dims(const char *s, unsigned out[3])
{
    out[0] = out[1] = out[2] = 1;
    for (int i = 0; i < 3; i++) {
        char *end;
        errno = 0;
        unsigned long v = strtoul(s, &end, 10);
        if (end == s || *s == '-' || errno || v == 0 || v > UINT32_MAX || (*end && *end != ','))
            return false;
        out[i] = (unsigned)v;
        if (!*end)
            return true;
        s = end + 1;
    }
    return false;
}

/* The options --kernel, --grid, --block and --shared (as `--opt VALUE` or `--opt=VALUE`). */
static void edge_parse_option(struct edge_row *r, char *opt, char *value)
{
    char *eq = strchr(opt, '=');
    if (eq) {
        *eq = 0;
        value = eq + 1;
    }
    if (!value || !*value) {
        edge_bad(r, "%s needs a value", opt);
    } else if (strcmp(opt, "--kernel") == 0) {
        r->kernel = value;
    } else if (strcmp(opt, "--grid") == 0 || strcmp(opt, "--block") == 0) {
        if (!edge_dims(value, opt[2] == 'g' ? r->grid : r->block))
            edge_bad(r, "%s '%s': expected X[,Y[,Z]] of at least 1", opt, value);
    } else if (strcmp(opt, "--shared") == 0) {
        char *end;
        r->shared = strtoull(value, &end, 10);
        if (end == value || *end)
            edge_bad(r, "--shared '%s' is not a number", value);
    } else {
        edge_bad(r, "option %s is not supported here", opt);
    }
}

/* One non-comment line: NAME: FILE.ptx OPTION... ARG... [# comment]. */
static void edge_parse_row(struct edge_row *r, char *line, int lineno)
{
    memset(r, 0, sizeof *r);
    r->line = lineno;
    char *hash = strchr(line, '#'), *colon, *save = NULL, *tok;
    if (hash) {
        *hash = 0;
        edge_parse_approx(r, hash + 1);
    }
    colon = strchr(line, ':');
    if (!colon) {
        snprintf(r->name, sizeof r->name, "line %d", lineno);
        edge_bad(r, "expected NAME: FILE.ptx --kernel K --grid X --block X ARG...");
        return;
    }
    *colon = 0;
    snprintf(r->name, sizeof r->name, "%s", line);
    char **texts = NULL;
    for (tok = strtok_r(colon + 1, " \t\r", &save); tok; tok = strtok_r(NULL, " \t\r", &save)) {
        if (strncmp(tok, "--", 2) == 0)
            edge_parse_option(r, tok, strchr(tok, '=') ? NULL : strtok_r(NULL, " \t\r", &save));
        else if (!r->ptx)
            r->ptx = tok;
        else {
            texts = edge_realloc(texts, (size_t)(r->nargs + 1) * sizeof *texts);
            texts[r->nargs++] = tok;
        }
    }
    r->args = edge_realloc(NULL, (size_t)r->nargs * sizeof *r->args);
    for (int i = 0; i < r->nargs; i++)
        if (!edge_parse_arg(r, texts[i], &r->args[i])) {
            r->args[i].kind = EDGE_SCALAR;     /* the row fails; nothing of it is a buffer */
            r->args[i].out_path = NULL;
        }
    free(texts);
    if (!r->ptx || !r->kernel || !r->grid[0] || !r->block[0])
        edge_bad(r, "a row needs FILE.ptx, --kernel, --grid and --block");
}

/* The whole file at path, NUL-terminated, its length in *out_len; NULL when it cannot be read. */
static uint8_t *edge_slurp(const char *path, size_t *out_len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t len = 0, cap = 4096;
    uint8_t *p = edge_realloc(NULL, cap + 1);
    for (size_t got; (got = fread(p + len, 1, cap - len, f)) > 0;) {
        len += got;
        if (len == cap)
            p = edge_realloc(p, (cap *= 2) + 1);
    }
    bool err = ferror(f);
    fclose(f);
    if (err) {
        free(p);
        return NULL;
    }
    p[len] = 0;
    *out_len = len;
    return p;
}

void edge_load(const char *dir, struct edge_file *out_file)
{
    struct edge_file *f = out_file;
    char path[512];
    size_t len = 0;
    memset(f, 0, sizeof *f);
    f->dir = dir;
    snprintf(path, sizeof path, "%s/runs.txt", dir);
    f->text = (char *)edge_slurp(path, &len);
    int lineno = 0, cap = 0;
    for (char *line = f->text, *next; line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = 0;
        lineno++;
        line += strspn(line, " \t\r");
        if (!*line || *line == '#')
            continue;
        if (f->nrows == cap) {
            cap = cap ? 2 * cap : 64;
            f->rows = edge_realloc(f->rows, (size_t)cap * sizeof *f->rows);
        }
        edge_parse_row(&f->rows[f->nrows++], line, lineno);
    }
}

int edge_loop_count(const struct edge_file *f)
{
    return f->nrows > 0 ? f->nrows : 1;
}

/* Whether expected/ holds every output of r, and r has one at least. */
static bool edge_recorded(const struct edge_file *f, const struct edge_row *r)
{
    bool any = false;
    for (int i = 0; i < r->nargs; i++) {
        if (!r->args[i].out_path)
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s/expected/%s", f->dir, r->args[i].out_path);
        FILE *fp = fopen(path, "rb");
        if (!fp)
            return false;
        fclose(fp);
        any = true;
    }
    return any;
}

void edge_assert_recorded(const struct edge_file *f)
{
    int recorded = 0;
    for (int i = 0; i < f->nrows; i++)
        recorded += edge_recorded(f, &f->rows[i]);
    ck_assert_msg(f->nrows > 0, "%s/runs.txt is missing or has no rows", f->dir);
    ck_assert_msg(recorded > 0, "no row of %s/runs.txt has recorded outputs in expected/ (run the kernels on a GPU)",
                  f->dir);
}

/* ---- Comparison ------------------------------------------------------------------------
 * Decodes one element of format fmt; *out_ulp receives the unit in the last place at the
 * value (subnormal spacing below the normal range). */
static double edge_decode(uint64_t bits, const char *fmt, double *out_ulp)
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
    *out_ulp = ldexp(1.0, e - man);
    return v;
}

/* Loom's element against the GPU's: NaN and infinite results must match exactly;
 * otherwise the difference must be within one of the bounds. */
static bool edge_within(const struct edge_approx *ap, uint64_t got, uint64_t want, const char *fmt)
{
    if (got == want)
        return true;
    double ulp, unused;
    double g = edge_decode(got, fmt, &unused), w = edge_decode(want, fmt, &ulp);
    if (!isfinite(w) || !isfinite(g))
        return false;
    double d = fabs(g - w);
    return (ap->ulp > 0 && d <= ap->ulp * ulp) || (ap->abs > 0 && d <= ap->abs) ||
           (ap->rel > 0 && d <= ap->rel * fabs(w));
}

static bool edge_element_ok(const struct edge_approx *ap, uint64_t got, uint64_t want)
{
    if (!ap->on)
        return got == want;
    if (strcmp(ap->fmt, "f16x2") == 0 || strcmp(ap->fmt, "bf16x2") == 0) {
        const char *half = ap->fmt[0] == 'b' ? "bf16" : "f16";
        return edge_within(ap, got & 0xFFFF, want & 0xFFFF, half) &&
               edge_within(ap, got >> 16 & 0xFFFF, want >> 16 & 0xFFFF, half);
    }
    return edge_within(ap, got, want, ap->fmt);
}

bool edge_compare(const struct edge_row *r, const char *what, const uint8_t *got, const uint8_t *want, size_t bytes,
                  size_t elem_size, char *out_msg, size_t msg_size)
{
    size_t bad = 0, first = 0;
    uint64_t first_got = 0, first_want = 0;
    for (size_t e = 0; e + elem_size <= bytes; e += elem_size) {
        uint64_t g = 0, w = 0;
        memcpy(&g, got + e, elem_size);
        memcpy(&w, want + e, elem_size);
        if (edge_element_ok(&r->approx, g, w))
            continue;
        if (!bad++) {
            first = e / elem_size;
            first_got = g;
            first_want = w;
        }
    }
    if (!bad)
        return true;
    int digits = (int)elem_size * 2;
    snprintf(out_msg, msg_size,
             "%s: %s element %zu: got 0x%0*llx, the H100 gave 0x%0*llx%s (%zu of %zu elements differ)", r->name,
             what, first, digits, (unsigned long long)first_got, digits, (unsigned long long)first_want,
             r->approx.on ? " (beyond the bound)" : "", bad, bytes / elem_size);
    return false;
}

/* ---- Running a row -------------------------------------------------------------------- */

/* The initial contents of buffer argument a (bytes long), as loom run makes them; NULL
 * for a zero-filled buffer. Fails the test when an input file cannot be read or is not
 * exactly bytes long. */
static uint8_t *edge_input(const struct edge_file *f, const struct edge_row *r, const struct edge_arg *a,
                           size_t bytes)
{
    size_t es = a->type->size;
    uint8_t *p = NULL;
    if (a->init == EDGE_INIT_FILE) {
        char path[512];
        size_t len = 0;
        snprintf(path, sizeof path, "%s/%s", f->dir, a->in_path);
        p = edge_slurp(path, &len);
        ck_assert_msg(p != NULL, "%s: cannot read input %s", r->name, path);
        ck_assert_msg(len == bytes, "%s: input %s has %zu bytes, COUNT %zu of %s needs %zu", r->name, path, len,
                      a->count, a->type->name, bytes);
    } else if (a->init == EDGE_INIT_FILL || a->init == EDGE_INIT_IOTA) {
        p = edge_realloc(NULL, bytes);
        for (size_t k = 0; k < a->count; k++) {
            uint8_t v[8];
            float x = (float)k;
            double d = (double)k;
            uint64_t n = k;
            if (a->init == EDGE_INIT_FILL)
                memcpy(v, a->value, 8);
            else                    /* iota: floats get k converted, integers its low bytes */
                memcpy(v, a->type->kind != 'f' ? (const void *)&n : es == 4 ? (const void *)&x : (const void *)&d, es);
            memcpy(p + k * es, v, es);
        }
    }
    return p;
}

/* Allocates and fills the buffers of r on dev; slot[i] receives argument i's value (a
 * scalar's bytes or a buffer's device address) and params[i] points to it. */
static void edge_arguments(const struct edge_file *f, const struct edge_row *r, struct loom_device *dev,
                           uint64_t *slot, void **params)
{
    for (int i = 0; i < r->nargs; i++) {
        const struct edge_arg *a = &r->args[i];
        params[i] = &slot[i];
        if (a->kind == EDGE_SCALAR) {
            memcpy(&slot[i], a->value, 8);
            continue;
        }
        size_t bytes = a->count * a->type->size;
        ck_assert_msg(loom_malloc(dev, bytes, &slot[i]) == LOOM_OK, "%s: %.900s", r->name, loom_device_error(dev));
        uint8_t *h = edge_input(f, r, a, bytes);
        enum loom_status st = h ? loom_memcpy(dev, (void *)(uintptr_t)slot[i], h, bytes)
                                : loom_memset(dev, slot[i], 0, bytes);
        free(h);
        ck_assert_msg(st == LOOM_OK, "%s: %.900s", r->name, loom_device_error(dev));
    }
}

/* Every output of r against its recording in expected/. */
static void edge_outputs(const struct edge_file *f, const struct edge_row *r, struct loom_device *dev,
                         const uint64_t *slot)
{
    for (int i = 0; i < r->nargs; i++) {
        const struct edge_arg *a = &r->args[i];
        if (!a->out_path)
            continue;
        size_t bytes = a->count * a->type->size, len = 0;
        char path[512], msg[512];
        snprintf(path, sizeof path, "%s/expected/%s", f->dir, a->out_path);
        uint8_t *want = edge_slurp(path, &len), *got = edge_realloc(NULL, bytes);
        ck_assert_msg(want != NULL, "%s: cannot read %s", r->name, path);
        ck_assert_msg(len == bytes, "%s: %s holds %zu bytes, the buffer %zu", r->name, path, len, bytes);
        ck_assert_int_eq(loom_memcpy(dev, got, (void *)(uintptr_t)slot[i], bytes), LOOM_OK);
        ck_assert_msg(edge_compare(r, a->out_path, got, want, bytes, a->type->size, msg, sizeof msg), "%s", msg);
        free(want);
        free(got);
    }
}

void edge_run_row(const struct edge_file *f, int i)
{
    ck_assert_msg(i < f->nrows, "%s/runs.txt has no row %d", f->dir, i);
    const struct edge_row *r = &f->rows[i];
    ck_assert_msg(!r->error[0], "%s/runs.txt:%d: %s: %s", f->dir, r->line, r->name, r->error);
    if (!edge_recorded(f, r)) {
        fprintf(stderr, "%s/runs.txt: %s: no recorded expectation, skipped\n", f->dir, r->name);
        return;
    }
    struct loom_device *dev;
    struct loom_module *mod;
    struct loom_kernel *k;
    char path[512];
    ck_assert_int_eq(loom_device_create(NULL, &dev), LOOM_OK);
    snprintf(path, sizeof path, "%s/%s", f->dir, r->ptx);
    enum loom_status st = loom_module_load_file(dev, path, &mod);
    ck_assert_msg(st == LOOM_OK, "%s: loading %s: %.900s", r->name, path, loom_device_error(dev));
    ck_assert_msg(loom_module_get_kernel(mod, r->kernel, &k) == LOOM_OK, "%s: no kernel %s in %s", r->name,
                  r->kernel, path);

    uint64_t *slot = edge_realloc(NULL, (size_t)r->nargs * sizeof *slot);
    void **params = edge_realloc(NULL, (size_t)r->nargs * sizeof *params);
    edge_arguments(f, r, dev, slot, params);
    struct loom_launch_config cfg = {
        .grid = { r->grid[0], r->grid[1], r->grid[2] },
        .block = { r->block[0], r->block[1], r->block[2] },
        .shared_bytes = r->shared,
    };
    st = loom_launch(dev, k, &cfg, params);
    if (st == LOOM_OK)
        st = loom_synchronize(dev);
    ck_assert_msg(st == LOOM_OK, "%s: %.900s", r->name, loom_device_error(dev));
    edge_outputs(f, r, dev, slot);
    free(slot);
    free(params);
    loom_device_destroy(dev);
}
