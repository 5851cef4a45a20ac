/* expr.c -- the debugger's expressions (expr.h): C's integer and
 * comparison operators over literals, registers and the built-in names, parsed by
 * recursive descent into a tree. */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debug/expr.h"

enum dbg_op {
    OP_NUM, OP_NAME, OP_NEG, OP_NOT, OP_INV,
    OP_MUL, OP_DIV, OP_MOD, OP_ADD, OP_SUB, OP_SHL, OP_SHR,
    OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ, OP_NE, OP_AND, OP_XOR, OP_OR, OP_LAND, OP_LOR,
};

struct dbg_expr {
    enum dbg_op op;
    struct dbg_expr *a, *b;
    struct dbg_val v;            /* OP_NUM */
    char *name;                  /* OP_NAME */
};

struct parser {
    const char *s, *p;
    char *err;
    size_t errlen;
    bool failed;
    bool (*known)(void *ctx, const char *name);
    void *ctx;
};

static struct dbg_expr *node(struct parser *ps, enum dbg_op op, struct dbg_expr *a, struct dbg_expr *b)
{
    struct dbg_expr *e = calloc(1, sizeof *e);
    if (!e) {
        if (!ps->failed) snprintf(ps->err, ps->errlen, "out of memory");
        ps->failed = true;
        dbg_expr_free(a);
        dbg_expr_free(b);
        return NULL;
    }
    e->op = op;
    e->a = a;
    e->b = b;
    return e;
}

static void fail(struct parser *ps, const char *what)
{
    if (ps->failed) return;
    ps->failed = true;
    if (*ps->p) snprintf(ps->err, ps->errlen, "%s at column %d of '%s'", what, (int)(ps->p - ps->s) + 1, ps->s);
    else snprintf(ps->err, ps->errlen, "%s at the end of '%s'", what, ps->s);
}

static void blanks(struct parser *ps)
{
    while (isspace((unsigned char)*ps->p)) ps->p++;
}

/* Takes operator tok when it comes next (and not the start of a longer one in `not`). */
static bool take(struct parser *ps, const char *tok, const char *not)
{
    blanks(ps);
    size_t n = strlen(tok);
    if (strncmp(ps->p, tok, n) != 0) return false;
    if (not && ps->p[n] && strchr(not, ps->p[n])) return false;
    ps->p += n;
    return true;
}

static struct dbg_expr *parse_or(struct parser *ps);

static bool name_char(char c, bool first)
{
    return isalpha((unsigned char)c) || c == '_' || c == '%' || c == '$' || (!first && (isdigit((unsigned char)c) || c == '.'));
}

static struct dbg_expr *primary(struct parser *ps)
{
    blanks(ps);
    const char *p = ps->p;
    if (*p == '(') {
        ps->p++;
        struct dbg_expr *e = parse_or(ps);
        if (!e) return NULL;
        if (!take(ps, ")", NULL)) {
            fail(ps, "expected ')'");
            dbg_expr_free(e);
            return NULL;
        }
        return e;
    }
    if (isdigit((unsigned char)*p) || (*p == '.' && isdigit((unsigned char)p[1]))) {
        char *end;
        struct dbg_val v = { 0 };
        bool hex = p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
        unsigned long long u = strtoull(p, &end, 0);
        if (!hex && (*end == '.' || *end == 'e' || *end == 'E')) {
            v.is_float = true;
            v.f = strtod(p, &end);
        } else {
            v.i = (int64_t)u;
        }
        if (name_char(*end, false)) {
            ps->p = end;
            fail(ps, "bad number");
            return NULL;
        }
        ps->p = end;
        struct dbg_expr *e = node(ps, OP_NUM, NULL, NULL);
        if (e) e->v = v;
        return e;
    }
    if (name_char(*p, true)) {
        const char *q = p + 1;
        while (name_char(*q, false)) q++;
        char *name = strndup(p, (size_t)(q - p));
        if (!name) { fail(ps, "out of memory"); return NULL; }
        if (ps->known && !ps->known(ps->ctx, name)) {
            if (!ps->failed) {
                ps->failed = true;
                snprintf(ps->err, ps->errlen, "no register or name '%s' (names: threadIdx.x, blockIdx.y, blockDim.z, "
                         "gridDim.x, warp, lane, and the PTX registers such as %%r1)", name);
            }
            free(name);
            return NULL;
        }
        ps->p = q;
        struct dbg_expr *e = node(ps, OP_NAME, NULL, NULL);
        if (e) e->name = name;
        else free(name);
        return e;
    }
    fail(ps, *p ? "unexpected character" : "expected a value");
    return NULL;
}

static struct dbg_expr *unary(struct parser *ps)
{
    enum dbg_op op;
    if (take(ps, "-", NULL)) op = OP_NEG;
    else if (take(ps, "!", "=")) op = OP_NOT;
    else if (take(ps, "~", NULL)) op = OP_INV;
    else if (take(ps, "+", NULL)) return unary(ps);
    else return primary(ps);
    struct dbg_expr *a = unary(ps);
    return a ? node(ps, op, a, NULL) : NULL;
}

/* One level of left-associative binary operators: toks[i] (not followed by nots[i]) gives ops[i]. */
static struct dbg_expr *level(struct parser *ps, struct dbg_expr *(*next)(struct parser *), const char *const *toks,
                              const char *const *nots, const enum dbg_op *ops, unsigned n)
{
    struct dbg_expr *a = next(ps);
    while (a) {
        unsigned k = 0;
        while (k < n && !take(ps, toks[k], nots[k])) k++;
        if (k == n) return a;
        struct dbg_expr *b = next(ps);
        if (!b) { dbg_expr_free(a); return NULL; }
        a = node(ps, ops[k], a, b);
    }
    return NULL;
}

#define LEVEL(name, next, ...) \
    static struct dbg_expr *name(struct parser *ps) \
    { \
        static const struct { const char *tok, *not; enum dbg_op op; } t[] = { __VA_ARGS__ }; \
        const char *toks[8], *nots[8]; \
        enum dbg_op ops[8]; \
        unsigned n = sizeof t / sizeof t[0]; \
        for (unsigned k = 0; k < n; k++) { toks[k] = t[k].tok; nots[k] = t[k].not; ops[k] = t[k].op; } \
        return level(ps, next, toks, nots, ops, n); \
    }

LEVEL(parse_mul, unary, { "*", NULL, OP_MUL }, { "/", NULL, OP_DIV }, { "%", NULL, OP_MOD })
LEVEL(parse_add, parse_mul, { "+", NULL, OP_ADD }, { "-", NULL, OP_SUB })
LEVEL(parse_shift, parse_add, { "<<", NULL, OP_SHL }, { ">>", NULL, OP_SHR })
LEVEL(parse_rel, parse_shift, { "<=", NULL, OP_LE }, { ">=", NULL, OP_GE }, { "<", "<", OP_LT }, { ">", ">", OP_GT })
LEVEL(parse_eq, parse_rel, { "==", NULL, OP_EQ }, { "!=", NULL, OP_NE })
LEVEL(parse_band, parse_eq, { "&", "&", OP_AND })
LEVEL(parse_xor, parse_band, { "^", NULL, OP_XOR })
LEVEL(parse_bor, parse_xor, { "|", "|", OP_OR })
LEVEL(parse_land, parse_bor, { "&&", NULL, OP_LAND })
LEVEL(parse_or, parse_land, { "||", NULL, OP_LOR })

struct dbg_expr *dbg_expr_parse(const char *text, bool (*known)(void *ctx, const char *name), void *known_ctx,
                                char *err, size_t errlen)
{
    struct parser ps = { .s = text, .p = text, .err = err, .errlen = errlen, .known = known, .ctx = known_ctx };
    struct dbg_expr *e = parse_or(&ps);
    blanks(&ps);
    if (e && *ps.p) {
        fail(&ps, "unexpected text");
        dbg_expr_free(e);
        return NULL;
    }
    if (!e && !ps.failed) fail(&ps, "expected a value");
    return e;
}

void dbg_expr_free(struct dbg_expr *e)
{
    if (!e) return;
    dbg_expr_free(e->a);
    dbg_expr_free(e->b);
    free(e->name);
    free(e);
}

static double as_f(struct dbg_val v) { return v.is_float ? v.f : (double)v.i; }

static bool truth(struct dbg_val v) { return v.is_float ? v.f != 0 : v.i != 0; }

static struct dbg_val ival(int64_t i) { return (struct dbg_val){ .i = i }; }

static bool eval(const struct dbg_expr *e, dbg_lookup_fn lookup, void *ctx, struct dbg_val *out, char *err,
                 size_t errlen)
{
    struct dbg_val a, b;
    switch (e->op) {
    case OP_NUM: *out = e->v; return true;
    case OP_NAME: return lookup(ctx, e->name, out, err, errlen);
    default: break;
    }
    if (!eval(e->a, lookup, ctx, &a, err, errlen)) return false;
    switch (e->op) {
    case OP_NEG: *out = a.is_float ? (struct dbg_val){ .is_float = true, .f = -a.f } : ival((int64_t)(0 - (uint64_t)a.i)); return true;
    case OP_NOT: *out = ival(!truth(a)); return true;
    case OP_INV:
        if (a.is_float) { snprintf(err, errlen, "'~' of a floating-point value"); return false; }
        *out = ival(~a.i);
        return true;
    case OP_LAND:
        if (!truth(a)) { *out = ival(0); return true; }
        if (!eval(e->b, lookup, ctx, &b, err, errlen)) return false;
        *out = ival(truth(b));
        return true;
    case OP_LOR:
        if (truth(a)) { *out = ival(1); return true; }
        if (!eval(e->b, lookup, ctx, &b, err, errlen)) return false;
        *out = ival(truth(b));
        return true;
    default: break;
    }
    if (!eval(e->b, lookup, ctx, &b, err, errlen)) return false;
    bool fl = a.is_float || b.is_float;
    double x = as_f(a), y = as_f(b);
    switch (e->op) {
    case OP_LT: *out = ival(fl ? x < y : a.i < b.i); return true;
    case OP_LE: *out = ival(fl ? x <= y : a.i <= b.i); return true;
    case OP_GT: *out = ival(fl ? x > y : a.i > b.i); return true;
    case OP_GE: *out = ival(fl ? x >= y : a.i >= b.i); return true;
    case OP_EQ: *out = ival(fl ? x == y : a.i == b.i); return true;
    case OP_NE: *out = ival(fl ? x != y : a.i != b.i); return true;
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_DIV:
        if (fl) {
            double r = e->op == OP_ADD ? x + y : e->op == OP_SUB ? x - y : e->op == OP_MUL ? x * y : x / y;
            *out = (struct dbg_val){ .is_float = true, .f = r };
            return true;
        }
        if (e->op == OP_DIV && b.i == 0) { snprintf(err, errlen, "division by zero"); return false; }
        if (e->op == OP_DIV && b.i == -1) { *out = ival((int64_t)(0 - (uint64_t)a.i)); return true; }
        *out = ival(e->op == OP_ADD ? (int64_t)((uint64_t)a.i + (uint64_t)b.i)
                    : e->op == OP_SUB ? (int64_t)((uint64_t)a.i - (uint64_t)b.i)
                    : e->op == OP_MUL ? (int64_t)((uint64_t)a.i * (uint64_t)b.i)
                                      : a.i / b.i);
        return true;
    default: break;
    }
    if (fl) { snprintf(err, errlen, "an integer operator applied to a floating-point value"); return false; }
    switch (e->op) {
    case OP_MOD:
        if (b.i == 0) { snprintf(err, errlen, "division by zero"); return false; }
        *out = ival(b.i == -1 ? 0 : a.i % b.i);
        return true;
    case OP_SHL: *out = ival(b.i < 0 || b.i > 63 ? 0 : (int64_t)((uint64_t)a.i << b.i)); return true;
    case OP_SHR: *out = ival(b.i < 0 || b.i > 63 ? (a.i < 0 ? -1 : 0) : a.i >> b.i); return true;
    case OP_AND: *out = ival(a.i & b.i); return true;
    case OP_XOR: *out = ival(a.i ^ b.i); return true;
    case OP_OR: *out = ival(a.i | b.i); return true;
    default: break;
    }
    snprintf(err, errlen, "internal error: operator %d", (int)e->op);
    return false;
}

bool dbg_expr_eval(const struct dbg_expr *e, dbg_lookup_fn lookup, void *ctx, struct dbg_val *out, char *err,
                   size_t errlen)
{
    return eval(e, lookup, ctx, out, err, errlen);
}
